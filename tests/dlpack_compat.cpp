// The DLPack header compatibility test, compiled as C++.
#include "dlpack_compat.c"

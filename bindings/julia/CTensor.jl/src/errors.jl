# Status codes (fixed forever, as in include/ctensor.h) and the exception that carries them.

const TENSOR_OK = Int32(0)
const TENSOR_E_INVALID = Int32(1)
const TENSOR_E_NOMEM = Int32(2)
const TENSOR_E_BOUNDS = Int32(3)
const TENSOR_E_SHAPE = Int32(4)
const TENSOR_E_STRIDE = Int32(5)
const TENSOR_E_DTYPE = Int32(6)
const TENSOR_E_OVERFLOW = Int32(7)
const TENSOR_E_READONLY = Int32(8)
const TENSOR_E_OVERLAP = Int32(9)
const TENSOR_E_DEVICE = Int32(10)
const TENSOR_E_COPY = Int32(11)
const TENSOR_E_IO = Int32(12)
const TENSOR_E_FORMAT = Int32(13)
const TENSOR_E_UNSUPPORTED = Int32(14)
const TENSOR_E_INTERNAL = Int32(15)
const TENSOR_E_CANCELLED = Int32(16)

"""
    CTensorError(status, message)

A ctensor call failed, or the binding refused a misuse before calling C (a closed
tensor, an element type or index that does not fit). `status` is one of the
`CTensor.TENSOR_E_*` codes; branch on it, not on `message`, which names the values
that were wrong (for a C failure it is `tensor_last_error()`, read right after the call).
"""
struct CTensorError <: Exception
    status::Int32
    message::String
end

"""
    status_name(status) -> String

The name of a status code as the header spells it (`"TENSOR_E_BOUNDS"`).
"""
function status_name(status::Integer)
    name = LibCTensor.tensor_status_name(status)
    return name == C_NULL ? "unknown status $status" : unsafe_string(name)
end

Base.showerror(io::IO, e::CTensorError) =
    print(io, "CTensorError: ", status_name(e.status), ": ", e.message)

# The CTensorError for a failed call, with this thread's last message. Callers run
# nothing between the C call and this (a task only changes threads when it yields, and
# the next failing ctensor call on the thread would replace the message).
last_error(status::Int32) = CTensorError(status, unsafe_string(LibCTensor.tensor_last_error()))

check(status::Int32) = status == TENSOR_OK ? nothing : throw(last_error(status))

throw_closed() = throw(CTensorError(TENSOR_E_INVALID, "the tensor is closed"))

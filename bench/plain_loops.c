/* The plain C loops bench_math compares against, compiled with -O3
 * -march=native (see meson.build): what a programmer writes by hand. */
#include "plain_loops.h"

void plain_add(float *c, const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

/* One pass over the data: 16 independent sums, which the compiler keeps in
 * vector registers, so that the loop runs at the speed of reading memory. */
float plain_read(const float *a, size_t n) {
  float lane[16] = {0};
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int k = 0; k < 16; ++k) lane[k] += a[i + k];
  for (; i < n; ++i) lane[0] += a[i];
  float s = 0;
  for (int k = 0; k < 16; ++k) s += lane[k];
  return s;
}

#ifndef CTENSOR_BENCH_PLAIN_LOOPS_H
#define CTENSOR_BENCH_PLAIN_LOOPS_H

#include <stddef.h>

/* c[i] = a[i] + b[i] for i < n. */
void plain_add(float *c, const float *a, const float *b, size_t n);
/* The sum of a[0..n), reading every element once. */
float plain_read(const float *a, size_t n);

#endif

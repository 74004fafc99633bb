/* Allocation-failure injection for tests (SQLite's approach): linked into a test
   program, failalloc.c replaces the malloc family and mmap for the whole process,
   so every allocation the library makes - directly, through operator new, or in
   the C library on its behalf (thread set-up, pthread keys) - goes through it.
   While armed it counts allocations; the nth one fails (returns NULL, errno
   ENOMEM; MAP_FAILED for mmap). Blocks and mappings made while armed are tracked,
   so a test can ask whether a failed call left anything behind. Thread-safe. */
#ifndef CTENSOR_TESTS_FAILALLOC_H
#define CTENSOR_TESTS_FAILALLOC_H

#include <stddef.h>

/* Starts counting: the nth allocation from now fails (n >= 1), only that one.
   Forgets what earlier arms tracked. */
void failalloc_arm(long n);
/* As failalloc_arm, but what earlier arms tracked stays tracked (for a leak
   check over several calls). */
void failalloc_arm_more(long n);
/* Forgets every tracked block and mapping. */
void failalloc_forget(void);
/* Stops counting; returns how many allocations were made while armed. */
long failalloc_disarm(void);
/* 1 if the armed failure has happened. */
int failalloc_fired(void);
/* Heap blocks (and mapped bytes) made while armed and not yet freed
   (unmapped). -1 if more were made than the tracker holds. */
long failalloc_live_blocks(void);
long failalloc_live_mapped_bytes(void);

#endif

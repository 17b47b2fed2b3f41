// Counts the process's heap allocations, for gestured-bench only: the allocator functions are
// interposed (the executable's definitions win over libc's) and forwarded to glibc's own.
#ifndef GESTURED_ALLOCATION_COUNTER_H
#define GESTURED_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Starts counting from zero.
void gestured_allocations_start(void);
/// Stops counting.
void gestured_allocations_stop(void);
/// Allocations (malloc, calloc, realloc, aligned) since the start.
uint64_t gestured_allocations_count(void);
/// Bytes requested by them.
uint64_t gestured_allocations_bytes(void);
/// Bytes allocated and not yet freed since the start (usable sizes), may be negative.
int64_t gestured_allocations_live_bytes(void);

#endif

// See include/allocation_counter.h. glibc exports its allocator as __libc_*; every call is
// forwarded there, and counted while counting is on. Single-threaded use (the benchmark).
#include "allocation_counter.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GESTURED_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GESTURED_SANITIZED 1
#endif

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static int counting;
static uint64_t allocations;
static uint64_t bytes;
static int64_t live;

#ifndef GESTURED_SANITIZED
// Under a sanitizer the sanitizer owns the allocator: nothing is interposed (counts stay 0).
static void *counted(void *pointer, size_t size) {
    if (counting && pointer) {
        allocations++;
        bytes += size;
        live += (int64_t)malloc_usable_size(pointer);
    }
    return pointer;
}

void *malloc(size_t size) { return counted(__libc_malloc(size), size); }

void *calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size), count * size); }

void *realloc(void *pointer, size_t size) {
    if (counting && pointer) live -= (int64_t)malloc_usable_size(pointer);
    return counted(__libc_realloc(pointer, size), size);
}

void free(void *pointer) {
    if (counting && pointer) live -= (int64_t)malloc_usable_size(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = counted(__libc_memalign(alignment, size), size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

#endif

void gestured_allocations_start(void) {
    allocations = 0;
    bytes = 0;
    live = 0;
    counting = 1;
}

void gestured_allocations_stop(void) { counting = 0; }
uint64_t gestured_allocations_count(void) { return allocations; }
uint64_t gestured_allocations_bytes(void) { return bytes; }
int64_t gestured_allocations_live_bytes(void) { return live; }

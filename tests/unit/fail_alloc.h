/*
 * fail_alloc.h - a counting fray_allocator for tests: it fails the Nth
 * allocation on purpose and tracks what is still allocated, so a test can
 * prove that every failure path returns FRAY_ERR_NOMEM and leaks nothing
 * (STYLE.md "Route allocation through one place").
 */
#ifndef FRAY_TEST_FAIL_ALLOC_H
#define FRAY_TEST_FAIL_ALLOC_H

#include <stdlib.h>

typedef struct fail_alloc {
    long calls;
    long fail_at; /* the allocation that fails (1-based); 0 = never */
    long live;
    size_t live_bytes;
} fail_alloc;

static inline void *fail_realloc(void *ud, void *p, size_t old, size_t size) {
    fail_alloc *fa = ud;
    if (size == 0) {
        if (p) {
            fa->live--;
            fa->live_bytes -= old;
        }
        free(p);
        return NULL;
    }
    if (++fa->calls == fa->fail_at)
        return NULL;
    void *q = realloc(p, size);
    if (q) {
        if (!p)
            fa->live++;
        fa->live_bytes += size - old;
    }
    return q;
}

#endif

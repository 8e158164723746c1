/* fuzz_alloc.h - an allocator for the 99 Towers fuzz targets that keeps
 * big blocks for the next input.
 *
 * The loader's work area (about 190 KB) and a fight's journal (about
 * 210 KB) are bigger than ASan's small-block allocator serves, so each
 * input would map them afresh and take their page faults: most of a run's
 * time. This allocator keeps up to four such blocks when they are freed
 * and hands them out again for a request of the same size. A freed block
 * is still never used while the code that freed it runs, and what the
 * library leaks still shows (the kept blocks are reachable). */
#ifndef FRAY_FUZZ_ALLOC_H
#define FRAY_FUZZ_ALLOC_H

#include <stdlib.h>

#include "fray/common.h"

enum { FUZZ_BIG_BLOCK = 128 * 1024, FUZZ_KEPT = 4 };

static struct {
    void *p;
    size_t size;
} fuzz_kept[FUZZ_KEPT];

static void *fuzz_realloc(void *ud, void *ptr, size_t old_size,
                          size_t new_size) {
    (void)ud;
    if (new_size == 0) {
        if (ptr && old_size >= FUZZ_BIG_BLOCK)
            for (int i = 0; i < FUZZ_KEPT; i++)
                if (!fuzz_kept[i].p) {
                    fuzz_kept[i].p = ptr;
                    fuzz_kept[i].size = old_size;
                    return NULL;
                }
        free(ptr);
        return NULL;
    }
    if (!ptr && new_size >= FUZZ_BIG_BLOCK)
        for (int i = 0; i < FUZZ_KEPT; i++)
            if (fuzz_kept[i].p && fuzz_kept[i].size == new_size) {
                void *p = fuzz_kept[i].p;
                fuzz_kept[i].p = NULL;
                return p;
            }
    return realloc(ptr, new_size);
}

static const fray_allocator fuzz_alloc = {fuzz_realloc, NULL};

#endif

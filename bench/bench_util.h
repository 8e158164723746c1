/*
 * bench_util.h - what fray's benchmarks share: a monotonic clock and
 * loading an example encounter. Header-only (static inline).
 */
#ifndef FRAY_BENCH_UTIL_H
#define FRAY_BENCH_UTIL_H

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fray/fray.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

/* Seconds on a monotonic clock. */
static inline double bench_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Loads examples/towers/<file>; NULL after a message naming the place of
 * the error. `who` names the benchmark in the message. */
static inline fray_towers_setup *bench_load_example(const char *who,
                                                    const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/towers/%s", FRAY_SOURCE_DIR, file);
    fray_towers_setup *setup = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    if (fray_towers_load(path, NULL, &setup, &diag) != FRAY_OK) {
        fprintf(stderr, "%s: %s:%d:%d: %s\n", who, path, diag.line,
                diag.column, diag.message);
        return NULL;
    }
    return setup;
}

#endif

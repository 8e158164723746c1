/*
 * fray/rng.h - random streams (PCG32, XSH RR 64/32, by M. E. O'Neill,
 * written here from the published algorithm).
 *
 * Randomness in fray only ever comes through a fray_rng passed in
 * explicitly. The struct is public so that a stream can live inside other
 * state without allocation and be copied to snapshot it (a copy continues
 * exactly where the original would have).
 *
 * Thread-safety: a stream must not be used by two threads at once; separate
 * streams are independent.
 */
#ifndef FRAY_RNG_H
#define FRAY_RNG_H

#include "fray/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fray_rng {
    uint64_t state;
    uint64_t inc; /* stream selector, always odd */
} fray_rng;

/*
 * Seeds a stream as pcg32_srandom_r(initstate, initseq) does: streams with
 * different `stream` values never overlap. fray_rng_seed(rng, 42, 54)
 * reproduces the reference demo's output (0xa15c02b7, 0x7b47f409, ...).
 */
FRAY_API void fray_rng_seed(fray_rng *rng, uint64_t initstate, uint64_t stream);

/*
 * Seeds the stream of one Monte Carlo trial from (master seed, trial
 * index), so a simulation's results do not depend on how trials are
 * spread over threads or processes.
 */
FRAY_API void fray_rng_for_trial(fray_rng *rng, uint64_t master_seed,
                                 uint64_t trial);

/* The next 32 random bits. */
FRAY_API uint32_t fray_rng_next(fray_rng *rng);

/*
 * A uniform integer in [0, bound), without modulo bias (rejection of the
 * short last interval, as in pcg32_boundedrand_r). bound must be >= 1.
 */
FRAY_API uint32_t fray_rng_below(fray_rng *rng, uint32_t bound);

/* A uniform integer in [lo, hi] (lo <= hi). */
FRAY_API int32_t fray_rng_range(fray_rng *rng, int32_t lo, int32_t hi);

#ifdef __cplusplus
}
#endif
#endif

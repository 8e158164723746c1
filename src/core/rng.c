/* rng.c - PCG32 random streams (XSH RR 64/32), from the published
 * algorithm of M. E. O'Neill's "PCG: A Family of Simple Fast Space-Efficient
 * Statistically Good Algorithms for Random Number Generation". */
#include "fray/rng.h"

#define PCG_MULT 6364136223846793005ULL

uint32_t fray_rng_next(fray_rng *rng) {
    uint64_t old = rng->state;
    rng->state = old * PCG_MULT + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

void fray_rng_seed(fray_rng *rng, uint64_t initstate, uint64_t stream) {
    rng->state = 0u;
    rng->inc = (stream << 1u) | 1u;
    (void)fray_rng_next(rng);
    rng->state += initstate;
    (void)fray_rng_next(rng);
}

/* SplitMix64's finaliser: a bijective mixer, so distinct inputs give
 * distinct outputs and nearby trial indices give unrelated seeds. */
static uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void fray_rng_for_trial(fray_rng *rng, uint64_t master_seed, uint64_t trial) {
    /* The trial index, mixed with the master seed, picks both the starting
     * state and the stream, so neighbouring trials get unrelated
     * sequences. */
    fray_rng_seed(rng, mix64(master_seed ^ mix64(trial)),
                  mix64(trial ^ 0x5ca1ab1eULL) ^ master_seed);
}

uint32_t fray_rng_below(fray_rng *rng, uint32_t bound) {
    if (bound <= 1)
        return 0;
    /* Reject the low (2^32 mod bound) values so that every residue is
     * equally likely. */
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t r = fray_rng_next(rng);
        if (r >= threshold)
            return r % bound;
    }
}

int32_t fray_rng_range(fray_rng *rng, int32_t lo, int32_t hi) {
    uint32_t span = (uint32_t)((int64_t)hi - (int64_t)lo + 1);
    if (span == 0) /* the whole 32-bit range */
        return (int32_t)fray_rng_next(rng);
    return (int32_t)((int64_t)lo + (int64_t)fray_rng_below(rng, span));
}

/* test_grid_reach_occ.c - the move search with who stands where given as a
 * list (fray__grid_reach_occ, the 99 Towers engine's and policies' moves)
 * gives exactly what fray_grid_reach and fray__grid_reach_to give with an
 * occupant callback (seed 000 "Moving Through Spaces": allies may be passed,
 * non-allies may not, incapacitated ones may be passed; the mover's own
 * spaces are open to it). Speed work (issue 4) must not change a move. */
#include <criterion/criterion.h>

#include <string.h>

#include "fray/grid.h"
#include "fray/rng.h"
#include "grid_random.h"
#include "towers_int.h"

typedef struct occ_set {
    int n;
    fray_footprint fp[8];
    uint8_t kind[8];
} occ_set;

/* The callback the engine used before: the mover wins, else the
 * strongest kind covering the space. */
static fray_occupant occ_cb(void *ctx, fray_pos q) {
    const occ_set *o = ctx;
    fray_occupant best = FRAY_OCC_EMPTY;
    for (int i = 0; i < o->n; i++) {
        const fray_footprint *f = &o->fp[i];
        if (q.x < f->at.x || q.y < f->at.y || q.x >= f->at.x + f->side ||
            q.y >= f->at.y + f->side)
            continue;
        if (o->kind[i] == FRAY_OCC_SELF)
            return FRAY_OCC_SELF;
        if (o->kind[i] > best)
            best = (fray_occupant)o->kind[i];
    }
    return best;
}

/* Issue 4 "Speed": the list and the callback describe the same crowd, so
 * every cost, parity, stop and path is the same, for whole searches and
 * searches that stop at a destination. */
Test(grid_reach_occ, same_as_callback_search) {
    static fray_grid g;
    static fray_reach_map a, b;
    fray_rng rng;
    fray_rng_seed(&rng, 4, 2);
    for (int trial = 0; trial < 400; trial++) {
        grid_random_map(&g, &rng, false, 6);
        occ_set o;
        o.n = 1 + (int)fray_rng_below(&rng, 7);
        for (int i = 0; i < o.n; i++) {
            o.fp[i] = grid_random_fp(&g, &rng, fray_rng_below(&rng, 4) == 0 ? 2 : 1);
            o.kind[i] = (uint8_t)(i == 0 ? FRAY_OCC_SELF
                                         : 1 + fray_rng_below(&rng, 3));
        }
        int cost = (int)fray_rng_below(&rng, 30);
        int parity = (int)fray_rng_below(&rng, 2);
        fray_pos whole = {-1, -1};
        fray_grid_reach(&g, o.fp[0], parity, cost, occ_cb, &o, &a);
        fray__grid_reach_occ(&g, o.fp[0], parity, cost, o.fp, o.kind, o.n,
                             whole, &b);
        grid_same_reach(&a, &b, whole, trial);
        fray_pos to = {(int16_t)fray_rng_below(&rng, (uint32_t)g.w),
                       (int16_t)fray_rng_below(&rng, (uint32_t)g.h)};
        fray__grid_reach_to(&g, o.fp[0], parity, cost, occ_cb, &o, to, &a);
        fray__grid_reach_occ(&g, o.fp[0], parity, cost, o.fp, o.kind, o.n, to,
                             &b);
        grid_same_reach(&a, &b, to, trial);
    }
}

/*
 * grid_small.h - the small helpers of the map's two files (grid.c and
 * area.c), and of no other: their short names stay out of the rulesets.
 */
#ifndef FRAY_GRID_SMALL_H
#define FRAY_GRID_SMALL_H

#include <stdbool.h>
#include <stdint.h>

#include "fray/grid.h"

static inline fray_pos P(int x, int y) {
    fray_pos p;
    p.x = (int16_t)x;
    p.y = (int16_t)y;
    return p;
}

static inline int clamp_int(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/* A footprint's side, 1 to 5 whatever it says. */
static inline int side_of(fray_footprint fp) {
    return clamp_int(fp.side, 1, 5);
}

static inline bool in_map(const fray_grid *g, int x, int y) {
    return x >= 0 && y >= 0 && x < g->w && y < g->h;
}

/* The gap between two intervals [a0, a0 + na) and [b0, b0 + nb) in spaces
 * counted like a displacement: 0 when they overlap, 1 when they touch. */
static inline int gap(int a0, int na, int b0, int nb) {
    if (b0 >= a0 + na)
        return b0 - (a0 + na - 1);
    if (a0 >= b0 + nb)
        return a0 - (b0 + nb - 1);
    return 0;
}

#endif

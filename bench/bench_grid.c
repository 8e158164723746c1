/*
 * bench_grid.c - how fast the tactical map answers the questions a
 * simulation asks on every move decision, on one core:
 *
 *   1. fray_grid_reach from random starts on a 32x32 map with walls,
 *      difficult ground, low walls and creatures (through the occupant
 *      callback), for SPD 6 (one Combat Move) and 12 (a run), Medium and
 *      Large movers; also on an empty 64x64 map;
 *   2. fray_grid_sight between random spaces of that map;
 *   3. fray_grid_cover between random spaces of that map.
 *
 * usage: bench_grid [--quick]   (--quick: a fast smoke run for ctest)
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fray/fray.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Folded into the output so the compiler cannot drop the work. */
static unsigned long long sink;

typedef struct arena {
    fray_grid g;
    uint8_t occ[FRAY_GRID_MAX][FRAY_GRID_MAX]; /* fray_occupant */
} arena;

static fray_occupant arena_occ(void *ctx, fray_pos p) {
    const arena *a = ctx;
    return (fray_occupant)a->occ[p.y][p.x];
}

static fray_pos pos(int x, int y) {
    fray_pos p = {(int16_t)x, (int16_t)y};
    return p;
}

/* A 32x32 room: 12% wall spaces, 8% difficult, a few windows and low walls,
 * 10 enemies and 6 allies. */
static void build_arena(arena *a, fray_rng *rng) {
    fray_grid_init(&a->g, 32, 32);
    memset(a->occ, 0, sizeof a->occ);
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            uint32_t r = fray_rng_below(rng, 100);
            a->g.terrain[y][x] = (uint8_t)(r < 12   ? FRAY_TERRAIN_WALL
                                           : r < 20 ? FRAY_TERRAIN_DIFFICULT
                                           : r < 21 ? FRAY_TERRAIN_WINDOW
                                                    : FRAY_TERRAIN_OPEN);
            if (x + 1 < 32 && fray_rng_below(rng, 100) < 4 &&
                fray_grid_set_edge(&a->g, pos(x, y), pos(x + 1, y),
                                   FRAY_EDGE_LOW) != FRAY_OK)
                abort(); /* (neighbours on the map: cannot fail) */
        }
    for (int i = 0; i < 16; i++) {
        int x = (int)fray_rng_below(rng, 32), y = (int)fray_rng_below(rng, 32);
        a->occ[y][x] = (uint8_t)(i < 10 ? FRAY_OCC_ENEMY : FRAY_OCC_ALLY);
    }
}

/* Reach maps per second from random open starts. */
static double bench_reach(arena *a, fray_reach_map *m, fray_rng *rng, int side,
                          int max_cost, long n) {
    fray_footprint fp;
    fp.side = (int8_t)side;
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        fp.at = pos((int)fray_rng_below(rng, (uint32_t)(a->g.w - side + 1)),
                    (int)fray_rng_below(rng, (uint32_t)(a->g.h - side + 1)));
        fray_grid_reach(&a->g, fp, 0, max_cost, arena_occ, a, m);
        sink += (unsigned long long)m->cost[fp.at.y][fp.at.x] + 1;
    }
    return (double)n / (now_s() - t0);
}

static double bench_sight(const arena *a, fray_rng *rng, bool cover, long n) {
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        fray_footprint p = {pos((int)fray_rng_below(rng, 32), (int)fray_rng_below(rng, 32)), 1};
        fray_footprint q = {pos((int)fray_rng_below(rng, 32), (int)fray_rng_below(rng, 32)), 1};
        if (cover)
            sink += (unsigned long long)fray_grid_cover(&a->g, p, q);
        else
            sink += fray_grid_sight(&a->g, p.at, q.at);
    }
    return (double)n / (now_s() - t0);
}

int main(int argc, char **argv) {
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else {
            fprintf(stderr, "usage: bench_grid [--quick]\n");
            return 2;
        }
    }
    const long n_reach = quick ? 200 : 200000;
    const long n_sight = quick ? 2000 : 2000000;

    arena *a = malloc(sizeof *a);
    fray_reach_map *m = malloc(sizeof *m);
    if (!a || !m) {
        fprintf(stderr, "bench_grid: out of memory\n");
        free(a);
        free(m);
        return 1;
    }
    fray_rng rng;
    fray_rng_seed(&rng, 99u, 1u);
    build_arena(a, &rng);

    static const struct {
        const char *name;
        int side, max_cost;
    } cases[] = {
        {"Medium, SPD 6", 1, 6},
        {"Medium, SPD 12", 1, 12},
        {"Large, SPD 6", 2, 6},
        {"Medium, SPD 30 (whole map)", 1, 30},
    };
    enum { N_CASES = sizeof cases / sizeof cases[0] };
    double rate[N_CASES];
    for (int c = 0; c < N_CASES; c++)
        rate[c] = bench_reach(a, m, &rng, cases[c].side, cases[c].max_cost, n_reach);

    arena *empty = malloc(sizeof *empty);
    double empty_rate = 0;
    if (empty) {
        fray_grid_init(&empty->g, 64, 64);
        memset(empty->occ, 0, sizeof empty->occ);
        empty_rate = bench_reach(empty, m, &rng, 1, 6, n_reach);
        free(empty);
    }
    double sight_rate = bench_sight(a, &rng, false, n_sight);
    double cover_rate = bench_sight(a, &rng, true, n_sight / 4);

    printf("fray bench_grid%s (one thread, one core)\n\n",
           quick ? " --quick (smoke run: numbers are rough)" : "");
    printf("%-52s %14s %10s\n", "fray_grid_reach, 32x32 room", "maps/s", "us/map");
    for (int c = 0; c < N_CASES; c++)
        printf("  %-50s %14.3g %10.2f\n", cases[c].name, rate[c], 1e6 / rate[c]);
    printf("  %-50s %14.3g %10.2f\n", "Medium, SPD 6, empty 64x64 map", empty_rate,
           empty_rate > 0 ? 1e6 / empty_rate : 0.0);
    printf("\n%-52s %14s\n", "random pairs of spaces, 32x32 room", "queries/s");
    printf("  %-50s %14.3g\n", "fray_grid_sight", sight_rate);
    printf("  %-50s %14.3g\n", "fray_grid_cover", cover_rate);
    printf("\n(checksum %llu)\n", sink);
    free(a);
    free(m);
    return 0;
}

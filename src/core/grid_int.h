/*
 * grid_int.h - the tactical map's searches that only the 99 Towers engine
 * uses (src/core/grid.c; not part of the public API, include/fray/grid.h).
 */
#ifndef FRAY_GRID_INT_H
#define FRAY_GRID_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "fray/grid.h"

/* For the engine's moves: fray_grid_reach, stopping as soon as the
 * space `to` is settled. Its cost, parity, can_stop and path
 * (fray_grid_path) are exactly what fray_grid_reach gives; nothing else in
 * *out is. */
void fray__grid_reach_to(const fray_grid *g, fray_footprint from,
                         int start_parity, int max_cost, fray_occupant_fn occ,
                         void *ctx, fray_pos to, fray_reach_map *out);
/* fray__grid_reach_to by a metric (fray_grid_reach_m). */
void fray__grid_reach_to_m(const fray_grid *g, fray_footprint from, int start_parity,
                           int max_cost, fray_occupant_fn occ, void *ctx,
                           fray_area_metric metric, fray_pos to, fray_reach_map *out);

/* fray_grid_reach (to off the map: the whole search) or
 * fray__grid_reach_to, with who stands where given as a list instead of a
 * callback: n_occ footprints and their fray_occupant kinds, as the mover
 * sees them; the answer is what a callback giving, for each space, SELF
 * when the mover's footprint covers it, else the strongest kind (enemy,
 * passable, ally) of the footprints covering it, would give. */
void fray__grid_reach_occ(const fray_grid *g, fray_footprint from,
                          int start_parity, int max_cost,
                          const fray_footprint *occ_fp,
                          const uint8_t *occ_kind, int n_occ, fray_pos to,
                          fray_reach_map *out);

/* the fixed part of every one-space step of map g (terrain and
 * edges; [y][x][direction], directions in the search's order): its whole
 * key weight when no occupant blocks, or that it is forbidden whoever
 * stands where (grid.c, step_fixed). */
void fray__grid_step_table(const fray_grid *g,
                           uint8_t out[FRAY_GRID_MAX][FRAY_GRID_MAX][8]);
/* fray__grid_reach_occ, with one-space movers' steps weighed from
 * steps (fray__grid_step_table of the same map; NULL: from the map). The
 * same answer. */
void fray__grid_reach_steps(const fray_grid *g,
                            const uint8_t (*steps)[FRAY_GRID_MAX][8],
                            fray_footprint from, int start_parity,
                            int max_cost, const fray_footprint *occ_fp,
                            const uint8_t *occ_kind, int n_occ, fray_pos to,
                            fray_reach_map *out);

/* One step of a footprint from `from` by (dx, dy) (each -1, 0 or 1, not
 * both 0), with who stands where given as fray__grid_reach_occ takes it:
 * its weight in the search's half-units (grid.c: 2 orthogonally, 3
 * diagonally, +2 for each extra; cost and the diagonal parity follow from
 * key = 2 * cost + parity), or -1 when the step is forbidden (off the map
 * included). *can_stop: the footprint may end a move where the step lands.
 * The same rules as every step of fray_grid_reach (the 99 Towers Charge
 * checks a straight run of steps with it). */
int fray__grid_step_key(const fray_grid *g, fray_footprint from, int dx, int dy,
                        const fray_footprint *occ_fp, const uint8_t *occ_kind,
                        int n_occ, bool *can_stop);

/* ---- A search run in steps ----------------------------------------------
 * The search of fray__grid_reach_steps (no destination), finishing spaces
 * only as far as a caller asks, so that a caller who needs only the near
 * spaces does not pay for the far ones, and can ask for more later. The
 * fields are grid.c's; the caller only owns the storage (about 29 KB,
 * with no pointer to free). */
enum { FRAY__KEY_RING = 8 };
typedef struct fray__grid_mover {
    const fray_grid *g;
    fray_occupant_fn occ;
    void *ctx;
    int n;
    uint8_t cell[FRAY_GRID_MAX][FRAY_GRID_MAX];
    bool diag_one;     /* every diagonal costs 1 (fray_grid_reach_m, FRAY_AREA_SQUARE) */
} fray__grid_mover;
typedef struct fray__reach_run {
    fray__grid_mover mv;
    uint16_t head[FRAY__KEY_RING];
    uint16_t next[FRAY_GRID_MAX * FRAY_GRID_MAX];
    uint16_t prev[FRAY_GRID_MAX * FRAY_GRID_MAX];
    int16_t key[FRAY_GRID_MAX * FRAY_GRID_MAX];
    const uint8_t *fixed;
    fray_reach_map *out;
    int k, kmax, queued, settled;
    int shown; /* the highest cost *out shows whole (fray__grid_run_show) */
    unsigned stop;
    bool cut;
    int16_t bx0, by0, bx1, by1; /* the box of spaces painted: [bx0, bx1) x [by0, by1) */
} fray__reach_run;

/* Starts the search of fray__grid_reach_steps (to off the map) in *run,
 * writing into *out (both the caller's, used until the run's last step);
 * no space is finished yet: out's costs are all -1. */
void fray__grid_run_start(fray__reach_run *run, const fray_grid *g,
                          const uint8_t (*steps)[FRAY_GRID_MAX][8],
                          fray_footprint from, int start_parity, int max_cost,
                          const fray_footprint *occ_fp,
                          const uint8_t *occ_kind, int n_occ,
                          fray_reach_map *out);
/* Finishes every space that costs at most `cost` (at most the run's
 * max_cost). Afterwards *out holds exactly what fray__grid_reach_steps
 * with max_cost = the highest cost asked so far gives (cost -1 for the
 * spaces not finished). Returns true when a higher cost may still add
 * spaces, false when the search is over (no higher max_cost, up to the
 * run's, changes anything). A cost shown before (fray__grid_run_show)
 * is finished here too, whatever `cost` asks. */
bool fray__grid_run_until(fray__reach_run *run, int cost);

/* fray__grid_run_until as *out shows it, doing less: afterwards *out
 * holds exactly what fray__grid_run_until(run, cost) leaves there (every
 * space that costs at most `cost`: its cost, parity, can_stop and
 * previous step), but the spaces that cost exactly `cost` may not have
 * taken their steps yet (a later call takes them: the run goes on as if
 * it had finished them). Returns true when a higher cost may still add
 * spaces (here also when nothing would: the spaces of `cost` are not
 * weighed onward yet), false when the search is over. Only for a run
 * without a destination (fray__grid_run_start's). */
bool fray__grid_run_show(fray__reach_run *run, int cost);

/* Could the run ever finish top-left position `at` as a space its mover
 * may end a move on? false when the search can never finish it as one
 * (off the map, the footprint not fitting there, or someone the mover may
 * not share a space with standing in it: what the search's can_stop says
 * of it once finished, at any cost); true otherwise, whether or not it is
 * reached (issue 16: the tactics ask it before searching far for a space
 * that cannot exist). */
bool fray__grid_run_may_stop(const fray__reach_run *run, fray_pos at);

#endif

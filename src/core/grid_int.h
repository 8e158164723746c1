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
 * edges; [y][x][direction], directions in the search's order). */
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
/* fray__grid_reach_steps of the whole map (no destination), also saying
 * whether its cost limit left anything out: *out_cut false means that
 * the same search with any higher max_cost gives exactly the same answer
 * (every step it looked at cost at most max_cost). */
void fray__grid_reach_whole(const fray_grid *g,
                            const uint8_t (*steps)[FRAY_GRID_MAX][8],
                            fray_footprint from, int start_parity,
                            int max_cost, const fray_footprint *occ_fp,
                            const uint8_t *occ_kind, int n_occ,
                            fray_reach_map *out, bool *out_cut);

#endif

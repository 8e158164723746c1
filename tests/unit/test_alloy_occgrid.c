/*
 * test_alloy_occgrid.c - the speed of Alloy's movement search (issue 16)
 * held to the long way: fa_reach paints who stands where once per search
 * (an occupancy grid, act.c occ_paint) and the squares a move may not end
 * on, instead of looping over every combatant for each square. Here the
 * same map is worked out the long way, each square asked of every
 * combatant as 004:818-820 (passing) and 004:824 (ending) say, and every
 * square's cost, path step and can_stop must match, in crowds with
 * allies, enemies, the dead, the prone, the helpless and creatures two
 * sizes apart, for every mover.
 */
#define AF_FAKE_ATTACKS
#include "alloy_fixture.h"

#include "alloy_crowd.h"
#include "alloy_longway.h"

/* Compares fa_reach with the long way for every mover of f. */
static void check_all_movers(fixture *f, int max_cost) {
    fray_reach_map *m = malloc(sizeof *m), *l = malloc(sizeof *l);
    cr_assert(m && l);
    int reached = 0, stops = 0, no_stops = 0;
    for (int who = 0; who < f->st.n; who++) {
        fa_reach(&f->s, &f->st, who, max_cost, m);
        long_way lw = {f, who};
        fray_grid_reach_m(&f->s.map, f->st.c[who].fp, 0, max_cost, long_occ,
                          &lw, (fray_area_metric)f->s.opt.diagonals, l);
        cr_assert_eq(m->w, l->w);
        cr_assert_eq(m->h, l->h);
        for (int y = 0; y < m->h; y++)
            for (int x = 0; x < m->w; x++) {
                cr_assert_eq(m->cost[y][x], l->cost[y][x],
                             "mover %d, square (%d, %d): cost", who, x, y);
                if (l->cost[y][x] < 0)
                    continue;
                reached++;
                cr_assert_eq(m->prev_x[y][x], l->prev_x[y][x]);
                cr_assert_eq(m->prev_y[y][x], l->prev_y[y][x]);
                fray_footprint fp = {{(int16_t)x, (int16_t)y},
                                     f->st.c[who].fp.side};
                bool end = long_may_end(f, who, fp);
                cr_assert_eq(m->can_stop[y][x], end,
                             "mover %d, square (%d, %d): may end there", who,
                             x, y);
                if (end)
                    stops++;
                else
                    no_stops++;
            }
    }
    /* The crowd is a real one: squares reached, some to end on, some not. */
    cr_assert_gt(reached, 100);
    cr_assert_gt(stops, 0);
    cr_assert_gt(no_stops, 0);
    free(m);
    free(l);
}

/* A crowd on a 14x14 map: 20 combatants on two sides at scattered squares
 * (a fixed sequence), one Large (2x2) and one Huge (3x3) among them; some
 * dead, prone, helpless or unconscious; three share a square. */
static fixture *crowd(void) {
    fixture *f = af_new(14, 14);
    ac_place(f, 14, 12345u);
    /* Two sharing a square (as passing through leaves them when the map
     * is read mid-move): an ally on a standing enemy (the enemy decides),
     * an ally on the dead (passable beats an ally), an enemy on a helpless
     * one. */
    f->s.c[16].at = f->s.c[9].at;
    f->s.c[18].at = f->s.c[7].at;
    f->s.c[17].at = f->s.c[3].at;
    af_go(f);
    for (int i = 0; i < 20; i++) {
        if (i % 6 == 1)
            af_cond(f, i, FA_C_PRONE, FA_ENDS_SAVE, -1, 0);
        if (i % 7 == 3)
            af_cond(f, i, FA_C_HELPLESS, FA_ENDS_SAVE, -1, 0);
        if (i % 9 == 4)
            af_cond(f, i, FA_C_UNCONSCIOUS, FA_ENDS_SAVE, -1, 0);
        if (i % 11 == 7)
            af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
    }
    return f;
}

/* Issue 16: the occupancy grid answers as the loop over every combatant
 * (004:818-820 passing, 004:824 ending), every mover, a short and a long
 * search, each diagonal rule. */
Test(alloy_occgrid, reach_matches_long_way_issue16_004_818_824) {
    for (int diag = 0; diag < 2; diag++) {
        fixture *f = crowd();
        f->s.opt.diagonals = (uint8_t)diag;
        check_all_movers(f, 3);
        check_all_movers(f, 30);
        free(f);
    }
}

/* Issue 16: the grid kept no stale occupant: after combatants move and
 * fall the next search sees them where they are now. */
Test(alloy_occgrid, reach_follows_moves_and_falls_issue16) {
    fixture *f = crowd();
    check_all_movers(f, 30);
    for (int i = 0; i < 20; i += 4) {
        fa_cstate *c = &f->st.c[i];
        int side = c->fp.side > 0 ? c->fp.side : 1;
        c->fp.at.x = (int16_t)((c->fp.at.x + 3) % (14 - side + 1));
        if (i % 8 == 0)
            af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
    }
    check_all_movers(f, 30);
    free(f);
}

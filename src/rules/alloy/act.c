/*
 * act.c - Alloy's actions but the attack rolls (seed 004 "Table: Actions
 * in Combat", "Action Descriptions", "Attack of Opportunity", "Movement
 * and Position"): checking a command against the rules, paying for it,
 * moving with the opportunity attacks it provokes, charge's move, readied
 * actions firing, and fa_apply, the one entry point (alloy_int.h
 * "Actions"). The attacks themselves are attack.c's (fa_attack ...).
 */
#include "alloy_int.h"
#include "grid_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_word[] = {"standard", "move", "swift",
                                        "immediate", "free", "no"};

bool fa_allies(const fa_setup *s, int a, int b) {
    return s->c[a].side == s->c[b].side;
}

static bool out_or_dead(const fa_cstate *c) {
    return (c->flags & FA_F_OUT) || fa_has(c, FA_C_DEAD) || fa_has(c, FA_C_DYING);
}

static bool helpless(const fa_cstate *c) {
    return out_or_dead(c) || fa_has(c, FA_C_HELPLESS) ||
           fa_has(c, FA_C_UNCONSCIOUS);
}

/* The weapon in hand (slot -1: the one held), NULL when unarmed. */
static const fa_weapon *weapon_of(const fa_setup *s, const fa_state *st,
                                  int who, int slot) {
    const fa_statblock *sb = fa_sb_of(s, who);
    if (slot < 0)
        slot = st->c[who].wield;
    if (slot < 0)
        return fa_obj_taken_melee(s, st, who); /* another's, taken (alloy-objects) */
    if (slot >= sb->n_weapons)
        return NULL;
    return &s->weapons[sb->weapons[slot].weapon];
}

/* The reach of who's melee basic attack: its weapon's when it holds a
 * melee weapon, else unarmed (the stat block's reach, 5 ft: 004:77). */
static int melee_reach(const fa_setup *s, const fa_state *st, int who) {
    int reach = fa_sb_of(s, who)->reach > 0 ? fa_sb_of(s, who)->reach : 1;
    const fa_weapon *w = weapon_of(s, st, who, -1);
    if (w && w->kind != FA_WK_RANGED && w->reach > reach)
        reach = w->reach;
    return reach;
}

/* fa_within(s, fa, fb, 1) without the call (speed, issue 16):
 * the larger gap between the footprints at most 1 (a count is never less
 * than the larger gap, and is 1 when both gaps are at most 1). */
static inline bool within1(const fa_setup *s, fray_footprint fa, fray_footprint fb) {
    int na = fa.side < 1 ? 1 : fa.side > 5 ? 5 : fa.side;
    int nb = fb.side < 1 ? 1 : fb.side > 5 ? 5 : fb.side;
    bool v = fb.at.x <= fa.at.x + na && fa.at.x <= fb.at.x + nb &&
             fb.at.y <= fa.at.y + na && fa.at.y <= fb.at.y + nb;
    assert(v == fa_within(s, fa, fb, 1)); /* (the long way) */
    (void)s;
    return v;
}

bool fa_threatens(const fa_setup *s, const fa_state *st, int a, int b) {
    if (a == b || a < 0 || b < 0 || a >= st->n || b >= st->n)
        return false;
    const fa_cstate *ca = &st->c[a];
    if (out_or_dead(ca) || out_or_dead(&st->c[b]))
        return false;
    /* Speed (issue 16): without threatening reach, the nearness
     * first (most of a crowd is farther than a square): within 1 is the
     * larger gap at most 1 (a count is never less than the larger gap,
     * and is 1 when both gaps are at most 1). */
    bool far_reach = fa_sb_of(s, a)->threatening_reach;
    if (!far_reach && !within1(s, ca->fp, st->c[b].fp))
        return false;
    /* 004:457, 927, 1012, 1020, 1027-1029: able to make a melee basic
     * attack and opportunity attacks. */
    if (fa_has(ca, FA_C_DAZED) || fa_has(ca, FA_C_STUNNED) ||
        fa_has(ca, FA_C_SURPRISED) || fa_has(ca, FA_C_UNCONSCIOUS) ||
        fa_has(ca, FA_C_HELPLESS) || fa_has(ca, FA_C_DOMINATED))
        return false;
    /* A melee weapon in hand or none (unarmed): a firearm in hand is no
     * melee basic attack. */
    const fa_weapon *w = weapon_of(s, st, a, -1);
    if (w && w->kind == FA_WK_RANGED)
        return false;
    /* A Tiny creature in one's own square (004:824) is within reach. */
    if (far_reach && !fa_within(s, ca->fp, st->c[b].fp, melee_reach(s, st, a)))
        return false;
    return fray_grid_cover(&s->map, ca->fp, st->c[b].fp) != FRAY_COVER_TOTAL;
}

/* ---- Where one may move ------------------------------------------------------ */

typedef struct occ_ctx {
    const fa_setup *s;
    const fa_state *st;
    int who;
    fray_footprint fp;         /* the mover's footprint now */
    /* The others as the mover meets them (occ_init), worked out once per
     * map rather than for every square the search asks about. */
    int n;
    fray_footprint other[FA_MAX_COMBATANTS];
    uint8_t kind[FA_MAX_COMBATANTS];   /* fray_occupant */
    int x0, y0, x1, y1;        /* the box holding them all: [x0, x1) x [y0, y1) */
    bool narrow_ok;            /* (alloy-space) may enter narrow squares (squeezing, 004:713) */
    /* Speed (issue 16): who stands in each square of the box as occ_fn's
     * loop over the others would answer (occ_paint), for a whole search;
     * NULL: the loop. */
    const uint8_t (*grid)[FRAY_GRID_MAX];
} occ_ctx;

static bool covers(fray_footprint fp, fray_pos p) {
    int side = fp.side > 0 ? fp.side : 1;
    return p.x >= fp.at.x && p.x < fp.at.x + side && p.y >= fp.at.y &&
           p.y < fp.at.y + side;
}

static bool overlap(fray_footprint a, fray_footprint b) {
    int sa = a.side > 0 ? a.side : 1, sb = b.side > 0 ? b.side : 1;
    return a.at.x < b.at.x + sb && b.at.x < a.at.x + sa &&
           a.at.y < b.at.y + sb && b.at.y < a.at.y + sa;
}

/* 004:818-820: allies may be passed through; enemies only when helpless
 * or two size categories apart: how the mover `who` (of size my_size)
 * meets j. */
static fray_occupant occ_kind(const fa_setup *s, const fa_state *st, int who,
                              int my_size, int j) {
    const fa_cstate *c = &st->c[j];
    if (fa_has(c, FA_C_DEAD))
        return FRAY_OCC_PASSABLE;
    if (fa_allies(s, who, j))
        return FRAY_OCC_ALLY;
    int d = (int)fa_sb_of(s, j)->size - my_size;
    return (helpless(c) || d >= 2 || d <= -2) ? FRAY_OCC_PASSABLE : FRAY_OCC_ENEMY;
}

static void occ_init(const fa_setup *s, const fa_state *st, int who,
                     fray_footprint fp, occ_ctx *o) {
    o->s = s;
    o->st = st;
    o->who = who;
    o->fp = fp;
    o->n = 0;
    o->narrow_ok = fa_has(&st->c[who], FA_C_SQUEEZING) || s->opt.narrow == FA_NARROW_OPEN;
    o->x0 = o->y0 = 1 << 20;
    o->x1 = o->y1 = -(1 << 20);
    o->grid = NULL;
    int my_size = fa_sb_of(s, who)->size;
    for (int j = 0; j < st->n; j++) {
        if (j == who)
            continue;
        fray_occupant k = occ_kind(s, st, who, my_size, j);
        fray_footprint f = st->c[j].fp;
        int side = f.side > 0 ? f.side : 1;
        o->other[o->n] = f;
        o->kind[o->n] = (uint8_t)k;
        o->n++;
        if (f.at.x < o->x0)
            o->x0 = f.at.x;
        if (f.at.y < o->y0)
            o->y0 = f.at.y;
        if (f.at.x + side > o->x1)
            o->x1 = f.at.x + side;
        if (f.at.y + side > o->y1)
            o->y1 = f.at.y + side;
    }
}

/* The others in square p (inside the box): an enemy in the square
 * decides; else someone passable; else an ally (the order of the others
 * does not matter). */
static fray_occupant occ_others(const occ_ctx *o, fray_pos p) {
    fray_occupant best = FRAY_OCC_EMPTY;
    for (int i = 0; i < o->n; i++) {
        if (!covers(o->other[i], p))
            continue;
        fray_occupant k = (fray_occupant)o->kind[i];
        if (k == FRAY_OCC_ENEMY)
            return k;
        if (k == FRAY_OCC_PASSABLE || best == FRAY_OCC_EMPTY)
            best = k;
    }
    return best;
}

/* Speed (issue 16): occ_others for every square of the box, painted once
 * into g for a whole search (a look-up per square asked instead of a loop
 * over every combatant). occ_others' answer is the highest of the kinds
 * covering the square in the order EMPTY < ALLY < PASSABLE < ENEMY (an
 * enemy decides; a passable one beats an ally), so each footprint paints
 * its kind where it is higher. A box off the grid's array keeps the loop. */
static void occ_paint(occ_ctx *o, uint8_t (*g)[FRAY_GRID_MAX]) {
    _Static_assert(FRAY_OCC_EMPTY == 0 && FRAY_OCC_EMPTY < FRAY_OCC_ALLY &&
                       FRAY_OCC_ALLY < FRAY_OCC_PASSABLE &&
                       FRAY_OCC_PASSABLE < FRAY_OCC_ENEMY,
                   "occ_paint paints the highest kind");
    if (o->n == 0 || o->x0 < 0 || o->y0 < 0 || o->x1 > FRAY_GRID_MAX ||
        o->y1 > FRAY_GRID_MAX)
        return;
    for (int y = o->y0; y < o->y1; y++)
        memset(&g[y][o->x0], FRAY_OCC_EMPTY, (size_t)(o->x1 - o->x0));
    for (int i = 0; i < o->n; i++) {
        fray_footprint f = o->other[i];
        int side = f.side > 0 ? f.side : 1;
        uint8_t k = o->kind[i];
        for (int y = f.at.y; y < f.at.y + side; y++)
            for (int x = f.at.x; x < f.at.x + side; x++)
                if (g[y][x] < k)
                    g[y][x] = k;
    }
    o->grid = (const uint8_t (*)[FRAY_GRID_MAX])g;
}

static fray_occupant occ_fn(void *ctx, fray_pos p) {
    const occ_ctx *o = ctx;
    if (covers(o->fp, p))
        return FRAY_OCC_SELF;
    if (!o->narrow_ok && fray_area_has(&o->s->narrow, p))
        return FRAY_OCC_ENEMY; /* (alloy-space) a narrow square: a squeeze to enter */
    if (p.x < o->x0 || p.x >= o->x1 || p.y < o->y0 || p.y >= o->y1)
        return FRAY_OCC_EMPTY;
    if (o->grid) {
        fray_occupant k = (fray_occupant)o->grid[p.y][p.x];
        assert(k == occ_others(o, p)); /* (the long way) */
        return k;
    }
    return occ_others(o, p);
}

/* 004:824: a move may end in an ally's square only if the ally is prone,
 * in an enemy's only if the enemy is helpless. */
static bool may_end_one(const fa_setup *s, const fa_state *st, int who, int j) {
    const fa_cstate *c = &st->c[j];
    if (fa_has(c, FA_C_DEAD))
        return true;
    /* "Tiny creatures can end their movement in a larger creature's
     * square." */
    if (fa_sb_of(s, who)->size <= FA_SIZE_TINY && fa_sb_of(s, j)->size > fa_sb_of(s, who)->size)
        return true;
    return fa_allies(s, who, j) ? fa_has(c, FA_C_PRONE) : helpless(c);
}

static bool may_end(const fa_setup *s, const fa_state *st, int who,
                    fray_footprint fp) {
    for (int j = 0; j < st->n; j++) {
        if (j == who || !overlap(fp, st->c[j].fp))
            continue;
        if (!may_end_one(s, st, who, j))
            return false;
    }
    return true;
}

/* Every space of fp on the map and standable (Squeeze's end). */
bool fa_room_for(const fa_setup *s, fray_footprint fp) {
    for (int dy = 0; dy < fp.side; dy++)
        for (int dx = 0; dx < fp.side; dx++) {
            fray_pos p = {(int16_t)(fp.at.x + dx), (int16_t)(fp.at.y + dy)};
            if (!fray_grid_in(&s->map, p))
                return false;
            int t = s->map.terrain[p.y][p.x];
            if (t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_WINDOW ||
                t == FRAY_TERRAIN_PIT)
                return false;
        }
    return true;
}

static int slowed_left(const fa_cstate *c) {
    /* 004:995-996: 10 ft at most, and no more once 10 ft are covered. */
    int left = 2 - c->moved;
    return left > 0 ? left : 0;
}

void fa_setup_steps(fa_setup *s) {
    fray__grid_step_table(&s->map, s->steps);
    s->has_steps = true;
    s->has_lines = false;
    int w = s->map.w, h = s->map.h, n = w * h;
    if (w < 1 || h < 1 || w > FRAY_GRID_MAX || h > FRAY_GRID_MAX || n > FA_LINES_MAX)
        return;
    memset(s->line_effect, 0, sizeof s->line_effect);
    memset(s->line_sight, 0, sizeof s->line_sight);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            fray_footprint fa = {{(int16_t)(a % w), (int16_t)(a / w)}, 1};
            fray_footprint fb = {{(int16_t)(b % w), (int16_t)(b / w)}, 1};
            uint64_t bit = (uint64_t)1 << (b % 64);
            if (fray_grid_effect_fp(&s->map, fa, fb))
                s->line_effect[a][b / 64] |= bit;
            if (fray_grid_sight_fp(&s->map, fa, fb))
                s->line_sight[a][b / 64] |= bit;
        }
    s->has_lines = true;
}

/* Speed (issues 16, 19): fa_reach's search with who stands where handed
 * to grid.c as a list (fray__grid_reach_steps: painted once, and a
 * one-square mover's steps weighed from the setup's table unless an enemy
 * stands next to the square it steps from), instead of asked square by
 * square through occ_fn. The list is what occ_fn answers: the others'
 * footprints and kinds (the strongest decides), the narrow squares as no
 * one may enter them, the mover itself over all. The counted diagonals
 * only (the search for "one" goes square by square); false when not
 * done (then the caller searches through occ_fn). */
static bool reach_listed(const fa_setup *s, fray_footprint from, int max_cost,
                         const occ_ctx *o, fray_reach_map *out) {
    if (s->opt.diagonals != FRAY_AREA_COUNTED)
        return false;
    enum { NARROW_LIST = 96 };
    fray_footprint fp[FA_MAX_COMBATANTS + 1 + NARROW_LIST];
    uint8_t kind[FA_MAX_COMBATANTS + 1 + NARROW_LIST];
    int n = 0;
    for (int i = 0; i < o->n; i++) {
        fp[n] = o->other[i];
        kind[n++] = o->kind[i];
    }
    if (!o->narrow_ok) {
        int w = s->map.w < FRAY_GRID_MAX ? s->map.w : FRAY_GRID_MAX;
        int h = s->map.h < FRAY_GRID_MAX ? s->map.h : FRAY_GRID_MAX;
        for (int y = 0; y < h; y++) {
            uint64_t row = s->narrow.rows[y];
            for (int x = 0; row != 0 && x < w; x++) {
                if (!((row >> x) & 1u))
                    continue;
                if (n == FA_MAX_COMBATANTS + NARROW_LIST)
                    return false; /* (a map of many narrow squares: the long way) */
                fp[n] = (fray_footprint){{(int16_t)x, (int16_t)y}, 1};
                kind[n++] = FRAY_OCC_ENEMY;
            }
        }
    }
    fp[n] = from;
    kind[n++] = FRAY_OCC_SELF;
    fray_pos nowhere = {-1, -1}; /* (no destination: the whole search) */
    fray__grid_reach_steps(&s->map, s->has_steps ? s->steps : NULL, from, 0,
                           max_cost, fp, kind, n, nowhere, out);
    return true;
}

void fa_reach(const fa_setup *s, const fa_state *st, int who, int max_cost,
              fray_reach_map *out) {
    const fa_cstate *c = &st->c[who];
    if (fa_has(c, FA_C_SLOWED) && max_cost > slowed_left(c))
        max_cost = slowed_left(c);
    occ_ctx o;
    occ_init(s, st, who, c->fp, &o);
    uint8_t grid[FRAY_GRID_MAX][FRAY_GRID_MAX];
    if (!reach_listed(s, c->fp, max_cost, &o, out)) {
        occ_paint(&o, grid);
        fray_grid_reach_m(&s->map, c->fp, 0, max_cost, occ_fn, &o,
                          (fray_area_metric)s->opt.diagonals, out);
    }
    /* may_end for every square reached, with the ones it cannot end on
     * (may_end's test of each other combatant) worked out once, and
     * painted (speed, issue 16): the top-lefts whose footprint would
     * overlap one of them are marked in `no`, within the map. */
    fray_footprint stop[FA_MAX_COMBATANTS];
    int n_stop = 0;
    for (int j = 0; j < st->n; j++) {
        if (j != who && !may_end_one(s, st, who, j))
            stop[n_stop++] = st->c[j].fp;
    }
    int my_side = c->fp.side > 0 ? c->fp.side : 1;
    /* (speed, issue 16) Every square reached lies within max_cost squares
     * of where it stands (each step moves one square and costs at least
     * 1): only that box of the map is looked at. Debug builds hold every
     * square outside it unreached. */
    int far = max_cost > 0 ? max_cost : 0;
    int bx0 = c->fp.at.x - far, bx1 = c->fp.at.x + my_side + far;
    int by0 = c->fp.at.y - far, by1 = c->fp.at.y + my_side + far;
    bx0 = bx0 > 0 ? bx0 : 0;
    by0 = by0 > 0 ? by0 : 0;
    bx1 = bx1 < out->w ? bx1 : out->w;
    by1 = by1 < out->h ? by1 : out->h;
#ifndef NDEBUG
    for (int y = 0; y < out->h; y++)
        for (int x = 0; x < out->w; x++)
            assert((x >= bx0 && x < bx1 && y >= by0 && y < by1) ||
                   out->cost[y][x] < 0); /* (the long way: the whole map) */
#endif
    uint8_t (*no)[FRAY_GRID_MAX] = grid; /* (the search is done with it) */
    for (int y = by0; y < by1; y++)
        memset(&no[y][bx0], 0, (size_t)(bx1 - bx0));
    for (int i = 0; i < n_stop; i++) {
        int side = stop[i].side > 0 ? stop[i].side : 1;
        int x0 = stop[i].at.x - my_side + 1, x1 = stop[i].at.x + side;
        int y0 = stop[i].at.y - my_side + 1, y1 = stop[i].at.y + side;
        x0 = x0 > bx0 ? x0 : bx0;
        y0 = y0 > by0 ? y0 : by0;
        x1 = x1 < bx1 ? x1 : bx1;
        y1 = y1 < by1 ? y1 : by1;
        for (int y = y0; y < y1; y++)
            for (int x = x0; x < x1; x++)
                no[y][x] = 1;
    }
    for (int y = by0; y < by1; y++)
        for (int x = bx0; x < bx1; x++) {
            if (out->cost[y][x] < 0)
                continue;
            out->can_stop[y][x] = !no[y][x];
#ifndef NDEBUG
            /* The long way: may_end's overlap test of each. */
            fray_footprint fp = {{(int16_t)x, (int16_t)y}, c->fp.side};
            bool ok = true;
            for (int i = 0; i < n_stop && ok; i++)
                ok = !overlap(fp, stop[i]);
            assert(ok == out->can_stop[y][x]);
#endif
        }
}

/* The long way of step_cost (as it was until issue 16's speed work): a
 * search from `from` (start parity 0) of up to 4 squares through
 * occ_fn, the step allowed when it reaches `to` directly. Debug builds
 * hold step_cost to it; fa_step_cost_long gives it to the tests. */
static int step_cost_search(const fa_setup *s, const fa_state *st, int who,
                            fray_footprint from, fray_pos to, int parity,
                            fray_reach_map *m, bool squeeze) {
    int dx = to.x - from.at.x, dy = to.y - from.at.y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
        return -1;
    if (!fray_grid_in(&s->map, to))
        return -1;
    occ_ctx o;
    occ_init(s, st, who, from, &o);
    o.narrow_ok = o.narrow_ok || squeeze;
    /* From parity 0 the direct step is strictly the cheapest way there, so
     * a direct step allowed has `from` as its previous square. */
    fray__grid_reach_to(&s->map, from, 0, 4, occ_fn, &o, to, m);
    if (m->cost[to.y][to.x] < 0 || m->prev_x[to.y][to.x] != from.at.x ||
        m->prev_y[to.y][to.x] != from.at.y)
        return -1;
    int cost = m->cost[to.y][to.x];
    if (dx != 0 && dy != 0 && parity && s->opt.diagonals == FRAY_AREA_COUNTED)
        cost++; /* the second diagonal of two costs 2 */
    return cost;
}

int fa_step_cost_long(const fa_setup *s, const fa_state *st, int who,
                      fray_footprint from, fray_pos to, int parity, bool squeeze) {
    fray_reach_map *m = malloc(sizeof *m);
    if (!m)
        return -2;
    int c = step_cost_search(s, st, who, from, to, parity, m, squeeze);
    free(m);
    return c;
}

/* One step from `from` to the neighbouring top-left `to`: its cost (the
 * map's, with the counted diagonals' parity; option diagonals), or -1
 * when the step is not allowed (terrain, walls, enemies, corners).
 * Speed (issues 16, 19): the one step weighed alone (grid.c's
 * fray__grid_step_key, the rules of every step of a search) with who
 * stands where as occ_fn sees it from `from` (the others, the narrow
 * squares the step touches as no one may enter them, the mover itself
 * first), instead of a search of the squares about it: the direct step
 * is the cheapest way to a neighbouring square (one step's weight is at
 * most 3 + 2 + 2 half-squares, any other way at least two steps into the
 * same square), so when allowed it is the search's answer. */
static int step_cost(const fa_setup *s, const fa_state *st, int who,
                     fray_footprint from, fray_pos to, int parity,
                     fray_reach_map *m, bool squeeze) {
    int dx = to.x - from.at.x, dy = to.y - from.at.y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
        return -1;
    if (!fray_grid_in(&s->map, to))
        return -1;
    /* Speed (issue 16): only the others whose footprints meet
     * the box the step touches (grid.c paints who stands where in that
     * box alone: the squares of the mover's footprint before and after,
     * side + 1 each way), with occ_init's kinds (occ_kind). */
    int side = from.side < 1 ? 1 : from.side > 5 ? 5 : from.side;
    int x0 = dx < 0 ? to.x : from.at.x, y0 = dy < 0 ? to.y : from.at.y;
    int x1 = x0 + side + 1, y1 = y0 + side + 1;
    bool narrow_ok = fa_has(&st->c[who], FA_C_SQUEEZING) ||
                     s->opt.narrow == FA_NARROW_OPEN || squeeze;
    int my_size = fa_sb_of(s, who)->size;
    enum { NARROW_MAX = 6 * 6 }; /* the step's box: sides up to 5, plus one */
    fray_footprint fp[FA_MAX_COMBATANTS + 1 + NARROW_MAX];
    uint8_t kind[FA_MAX_COMBATANTS + 1 + NARROW_MAX];
    int n = 0;
    for (int j = 0; j < st->n; j++) {
        fray_footprint f = st->c[j].fp;
        int fs = f.side > 0 ? f.side : 1;
        if (j == who || f.at.x >= x1 || f.at.x + fs <= x0 || f.at.y >= y1 ||
            f.at.y + fs <= y0)
            continue;
        fp[n] = f;
        kind[n++] = (uint8_t)occ_kind(s, st, who, my_size, j);
    }
    fp[n] = from;
    kind[n++] = FRAY_OCC_SELF;
    if (!narrow_ok) {
        for (int y = y0; y < y0 + side + 1; y++) {
            if (y >= 0 && y < FRAY_GRID_MAX && s->narrow.rows[y] == 0)
                continue; /* (no narrow square in the row) */
            for (int x = x0; x < x0 + side + 1; x++) {
                fray_pos q = {(int16_t)x, (int16_t)y};
                if (fray_grid_in(&s->map, q) && fray_area_has(&s->narrow, q)) {
                    fp[n] = (fray_footprint){q, 1};
                    kind[n++] = FRAY_OCC_ENEMY;
                }
            }
        }
    }
    bool can_stop;
    int key = fray__grid_step_key(&s->map, from, dx, dy, fp, kind, n, &can_stop);
    int cost = key < 0 ? -1 : key / 2;
    if (cost >= 0 && dx != 0 && dy != 0 && parity && s->opt.diagonals == FRAY_AREA_COUNTED)
        cost++; /* the second diagonal of two costs 2 */
#ifndef NDEBUG
    assert(cost == step_cost_search(s, st, who, from, to, parity, m, squeeze)); /* (the long way) */
#else
    (void)m;
#endif
    return cost;
}

int fa_step_cost(const fa_setup *s, const fa_state *st, int who,
                 fray_footprint from, fray_pos to, int parity, bool squeeze) {
    fray_reach_map *m = NULL;
#ifndef NDEBUG
    m = malloc(sizeof *m); /* (the debug check's search) */
    if (!m)
        return -2;
#endif
    int c = step_cost(s, st, who, from, to, parity, m, squeeze);
    free(m);
    return c;
}

/* Speed (issue 16): what a shift's one square needs of
 * fa_reach(who, max cost 1), the square `to` reached at cost 1 and one it
 * may stop on, from the step alone (step_cost from parity 0: the direct
 * step is the only way to a square at cost 1) and may_end (fa_reach's
 * can_stop), Slowed's allowance first (fa_reach's bound). Debug builds
 * hold it to the map. */
bool fa_one_step_ok(const fa_setup *s, const fa_state *st, int who, fray_pos to) {
    const fa_cstate *c = &st->c[who];
    fray_reach_map *m = NULL;
#ifndef NDEBUG
    m = malloc(sizeof *m); /* (the debug checks' searches) */
    if (!m)
        return false;
#endif
    bool ok = !(fa_has(c, FA_C_SLOWED) && slowed_left(c) < 1) &&
              step_cost(s, st, who, c->fp, to, 0, m, false) == 1 &&
              may_end(s, st, who, (fray_footprint){to, c->fp.side});
#ifndef NDEBUG
    fa_reach(s, st, who, 1, m); /* (the long way) */
    bool in = to.x >= 0 && to.y >= 0 && to.x < m->w && to.y < m->h;
    assert(ok == (in && m->cost[to.y][to.x] == 1 && m->can_stop[to.y][to.x]));
    free(m);
#endif
    return ok;
}

bool fa_reach_same(const fray_reach_map *a, const fray_reach_map *b) {
    if (a->from.at.x != b->from.at.x || a->from.at.y != b->from.at.y ||
        a->from.side != b->from.side || a->w != b->w || a->h != b->h)
        return false;
    for (int y = 0; y < a->h && y < FRAY_GRID_MAX; y++)
        for (int x = 0; x < a->w && x < FRAY_GRID_MAX; x++) {
            if (a->cost[y][x] != b->cost[y][x])
                return false;
            if (a->cost[y][x] >= 0 &&
                (a->parity[y][x] != b->parity[y][x] || a->prev_x[y][x] != b->prev_x[y][x] ||
                 a->prev_y[y][x] != b->prev_y[y][x] || a->can_stop[y][x] != b->can_stop[y][x]))
                return false;
        }
    return true;
}

/* Speed (issue 16): fa_reach(who, max_cost) on st, from the map the
 * tactics kept (fa_reach_kept) when it is that one: built on this state
 * for this mover with this cost while choosing the command being checked;
 * else built into *out. Debug builds build it again at each use and hold
 * the two the same. */
static const fray_reach_map *reach_or_kept(const fa_setup *s, const fa_state *st, int who,
                                           int max_cost, const fa_reach_kept *k,
                                           fray_reach_map *out) {
    if (k && k->valid && k->st == st && k->who == who && k->max_cost == max_cost) {
#ifndef NDEBUG
        fa_reach(s, st, who, max_cost, out); /* (the long way) */
        assert(fa_reach_same(out, &k->m));
#endif
        return &k->m;
    }
    fa_reach(s, st, who, max_cost, out);
    return out;
}

static bool diagonal(fray_pos a, fray_pos b) { return a.x != b.x && a.y != b.y; }

/* Checks a path for who: every step allowed, at most `allowance` squares
 * in all, ending where it may stop. shift: each step must cost 1 (no
 * difficult terrain, 004:417). */
static fray_status path_check_sq(const fa_setup *s, const fa_state *st, int who,
                                 const fray_pos *path, int n, int allowance,
                                 bool shift, char *why, size_t ws, int *out_cost,
                                 bool squeeze, int8_t *step_costs);
static fray_status path_check(const fa_setup *s, const fa_state *st, int who,
                              const fray_pos *path, int n, int allowance,
                              bool shift, char *why, size_t ws, int *out_cost) {
    return path_check_sq(s, st, who, path, n, allowance, shift, why, ws, out_cost,
                         false, NULL);
}

/* path_check; squeeze: the move is a squeeze (narrow squares open to it);
 * step_costs (NULL: not wanted): each step's cost, n of them, when the
 * path is allowed. */
static fray_status path_check_sq(const fa_setup *s, const fa_state *st, int who,
                                 const fray_pos *path, int n, int allowance,
                                 bool shift, char *why, size_t ws, int *out_cost,
                                 bool squeeze, int8_t *step_costs) {
    fray_reach_map map, *m = &map;
    fray_footprint fp = st->c[who].fp;
    int parity = 0, cost = 0;
    if (n < 1 || n > FA_MAX_PATH)
        return fa_refuse(why, ws, "%s must name the squares of its move", fa_nm(s, who));
    for (int i = 0; i < n; i++) {
        int c = step_cost(s, st, who, fp, path[i], parity, m, squeeze);
        if (c < 0)
            return fa_refuse(why, ws, "%s cannot move from square (%d, %d) to square (%d, %d)",
                          fa_nm(s, who), fp.at.x, fp.at.y, path[i].x, path[i].y);
        if (shift && c > 1)
            return fa_refuse(why, ws, "%s cannot adjust into difficult terrain (%d, %d)",
                          fa_nm(s, who), path[i].x, path[i].y);
        if (diagonal(fp.at, path[i]))
            parity ^= 1;
        cost += c;
        fp.at = path[i];
        if (step_costs)
            step_costs[i] = (int8_t)(c < INT8_MAX ? c : INT8_MAX);
    }
    if (cost > allowance)
        return fa_refuse(why, ws, "%s can move only %d feet with this action, not %d",
                      fa_nm(s, who), allowance * 5, cost * 5);
    if (!may_end(s, st, who, fp))
        return fa_refuse(why, ws, "%s cannot end its move in square (%d, %d): it is occupied",
                      fa_nm(s, who), fp.at.x, fp.at.y);
    if (out_cost)
        *out_cost = cost;
    return FRAY_OK;
}

/* ---- Commands: their action types ------------------------------------------------ */

static bool readiable(int kind) {
    switch (kind) {
    case FA_CMD_ATTACK: case FA_CMD_COUP: case FA_CMD_BULL_RUSH:
    case FA_CMD_TRIP: case FA_CMD_GRAPPLE: case FA_CMD_HELD_OBJECT:
    case FA_CMD_TOTAL_DEFENSE: case FA_CMD_SECOND_WIND: case FA_CMD_STAND:
    case FA_CMD_ESCAPE: case FA_CMD_DROP_PRONE: case FA_CMD_DRAW:
    case FA_CMD_RELOAD:
    /* (alloy-space) moves and charges: their squares are chosen when they
     * fire (space.c fa_ready_fill) */
    case FA_CMD_WALK: case FA_CMD_SHIFT: case FA_CMD_RUN: case FA_CMD_CRAWL:
    case FA_CMD_SQUEEZE: case FA_CMD_CHARGE:
        return true;
    default:
        return false;
    }
}

static bool attack_kind(int kind) {
    switch (kind) {
    case FA_CMD_ATTACK: case FA_CMD_CHARGE: case FA_CMD_COUP:
    case FA_CMD_BULL_RUSH: case FA_CMD_TRIP: case FA_CMD_GRAPPLE:
    case FA_CMD_HELD_OBJECT: case FA_CMD_AID: case FA_CMD_SPRAY:
    case FA_CMD_SUPPRESS:
        return true;
    default:
        return false;
    }
}

static fa_action_type type_of(const fa_setup *s, int who, int kind,
                              int power) {
    switch (kind) {
    case FA_CMD_ATTACK:
        if (power >= 0 && power < fa_sb_of(s, who)->n_powers)
            return (fa_action_type)fa_sb_of(s, who)->powers[power].action;
        return FA_ACT_STANDARD;
    case FA_CMD_CHARGE: case FA_CMD_COUP: case FA_CMD_BULL_RUSH:
    case FA_CMD_TRIP: case FA_CMD_GRAPPLE: case FA_CMD_MOVE_GRAPPLED:
    case FA_CMD_HELD_OBJECT: case FA_CMD_AID: case FA_CMD_SPRAY:
    case FA_CMD_SUPPRESS: case FA_CMD_TOTAL_DEFENSE: case FA_CMD_SECOND_WIND:
    case FA_CMD_FEINT:
        return FA_ACT_STANDARD;
    case FA_CMD_WALK: case FA_CMD_SQUEEZE: case FA_CMD_SHIFT:
    case FA_CMD_RUN: case FA_CMD_CRAWL: case FA_CMD_STAND: case FA_CMD_ESCAPE:
        return FA_ACT_MOVE;
    case FA_CMD_DROP_PRONE:
        /* L7.1: swift (004:332, 989) unless option drop_prone says free. */
        return s->opt.drop_prone == FA_ACT_FREE ? FA_ACT_FREE : FA_ACT_SWIFT;
    case FA_CMD_DRAW: case FA_CMD_RELOAD: case FA_CMD_SUSTAIN:
        return FA_ACT_SWIFT;
    case FA_CMD_SPEND_AP: case FA_CMD_END_GRAB:
        return FA_ACT_FREE;
    default:
        return FA_ACT_NONE;
    }
}

static fa_action_type cmd_type(const fa_setup *s, const fa_command *cmd) {
    if (cmd->kind == FA_CMD_READY) /* 004:649: the readied action's type */
        return type_of(s, cmd->actor, cmd->ready.kind, cmd->ready.power);
    if (cmd->kind == FA_CMD_SQUEEZE && cmd->n_path == 0)
        return FA_ACT_FREE; /* ending a squeeze (004:717) */
    if (cmd->kind == FA_CMD_SKILL)
        return fa_skill_action_type(cmd); /* standard or move (004:313, 325) */
    return type_of(s, cmd->actor, cmd->kind, cmd->power);
}

/* A ranged or area attack (it provokes when threatened: 004:90, 113, 444,
 * 460; the action table's Yes rows for ranged basic and autofire). */
static bool ranged_or_area(const fa_setup *s, const fa_state *st,
                           const fa_command *cmd) {
    int who = cmd->actor;
    switch (cmd->kind) {
    case FA_CMD_SPRAY: case FA_CMD_SUPPRESS:
        return true;
    case FA_CMD_ATTACK: case FA_CMD_HELD_OBJECT: case FA_CMD_AID:
    case FA_CMD_COUP:
        break;
    default:
        return false;
    }
    if (cmd->kind == FA_CMD_ATTACK && cmd->power >= 0 &&
        cmd->power < fa_sb_of(s, who)->n_powers) {
        const fa_power *p = &fa_sb_of(s, who)->powers[cmd->power];
        return p->ranged || p->area != FA_AREA_NONE;
    }
    const fa_weapon *w = weapon_of(s, st, who, cmd->weapon);
    bool ranged = false;
    if (w && w->area != FA_AREA_NONE)
        return true; /* an area weapon */
    if (w && w->kind == FA_WK_RANGED)
        ranged = true;
    else if (w && w->kind == FA_WK_THROWN && cmd->n_targets > 0) {
        int t = cmd->targets[0];
        ranged = t >= 0 && t < st->n &&
                 !fa_within(s, st->c[who].fp, st->c[t].fp, melee_reach(s, st, who));
    }
    /* L7.19: aid another with a ranged attack provokes (option). */
    if (cmd->kind == FA_CMD_AID)
        return ranged && s->opt.aid_ranged_provokes;
    return ranged;
}

/* ---- Checking ---------------------------------------------------------------------- */

static const char *why_cannot_act(const fa_cstate *c) {
    if (fa_has(c, FA_C_DEAD)) return "dead";
    if (fa_has(c, FA_C_DYING) || (c->flags & FA_F_OUT)) return "dying";
    if (fa_has(c, FA_C_UNCONSCIOUS)) return "unconscious";
    if (fa_has(c, FA_C_STUNNED)) return "stunned";
    if (fa_has(c, FA_C_SURPRISED)) return "surprised";
    return "unable to act";
}

static fray_status target_ok(const fa_setup *s, const fa_state *st, int who,
                             int t, char *why, size_t ws) {
    if (t < 0 || t >= st->n)
        return fa_refuse(why, ws, "%s has no such target", fa_nm(s, who));
    if (t == who)
        return fa_refuse(why, ws, "%s cannot target itself", fa_nm(s, who));
    if (fa_has(&st->c[t], FA_C_DEAD))
        return fa_refuse(why, ws, "%s is dead", fa_nm(s, t));
    return FRAY_OK;
}

static fray_status adjacent_ok(const fa_setup *s, const fa_state *st, int who,
                               int t, int reach, char *why, size_t ws) {
    /* Within reach: adjacent, or (a Tiny creature, 004:824) in the same
     * square. */
    if (!fa_within(s, st->c[who].fp, st->c[t].fp, reach < 1 ? 1 : reach))
        return fa_refuse(why, ws, reach <= 1 ? "%s is not adjacent to %s"
                                          : "%s is not within %s's reach",
                      fa_nm(s, t), fa_nm(s, who));
    return FRAY_OK;
}

/* Movement allowed now, in squares, for a move of `kind`; refuses with
 * the reason when none. */
static fray_status allowance(const fa_setup *s, const fa_state *st, int who,
                             int kind, int *out, char *why, size_t ws) {
    const fa_cstate *c = &st->c[who];
    int speed = fa_sb_of(s, who)->speed;
    if (fa_has(c, FA_C_GRAPPLED))
        return fa_refuse(why, ws, "%s is grappled and cannot leave its square", fa_nm(s, who));
    if (fa_has(c, FA_C_IMMOBILIZED))
        return fa_refuse(why, ws, "%s is immobilized and cannot leave its square", fa_nm(s, who));
    if (fa_has(c, FA_C_SNARED))
        return fa_refuse(why, ws, "%s is snared and cannot leave its square", fa_nm(s, who));
    bool prone = fa_has(c, FA_C_PRONE);
    if (kind == FA_CMD_CRAWL && !prone)
        return fa_refuse(why, ws, "%s must be prone to crawl", fa_nm(s, who));
    if (kind != FA_CMD_CRAWL && kind != FA_CMD_STAND && kind != FA_CMD_ESCAPE && prone)
        return fa_refuse(why, ws, "%s is prone: it can only crawl or stand up", fa_nm(s, who));
    int a;
    switch (kind) {
    case FA_CMD_RUN: a = speed + 2; break;                 /* 004:666 */
    case FA_CMD_CRAWL: case FA_CMD_SQUEEZE: case FA_CMD_MOVE_GRAPPLED:
        a = speed / 2; break;                              /* 004:560, 714, 638 */
    case FA_CMD_SHIFT: case FA_CMD_STAND: case FA_CMD_ESCAPE:
        a = 1; break;                                      /* 004:415 */
    default: a = speed; break;                             /* walk, charge */
    }
    /* 004:810: moving without sight (Blinded, or from a dark square) is
     * at half speed; Blind-Fight makes it three quarters (MSRD). Never
     * below one square. */
    if (a > 1 && (fa_has(c, FA_C_BLINDED) || fray_area_has_fp(&s->dark, c->fp))) {
        a = fa_sb_of(s, who)->blind_fight ? a * 3 / 4 : a / 2;
        if (a < 1)
            a = 1;
    }
    if (fa_has(c, FA_C_SLOWED)) {
        if (slowed_left(c) <= 0)
            return fa_refuse(why, ws, "Slowed: %s has already moved 10 feet this turn", fa_nm(s, who));
        if (a > slowed_left(c))
            a = slowed_left(c);
    }
    *out = a;
    return FRAY_OK;
}

int fa_move_allowance(const fa_setup *s, const fa_state *st, int who,
                      int kind) {
    int a = 0;
    return allowance(s, st, who, kind, &a, NULL, 0) == FRAY_OK ? a : 0;
}

/* A bull rush's push square, when the command names one (origin.x >= 0;
 * else attack.c chooses): a square next to the target's, away from the
 * pusher standing at `me` (004:512). */
static fray_status push_ok(const fa_setup *s, int who, fray_footprint me,
                          fray_footprint target, fray_pos to, char *why, size_t ws) {
    if (to.x < 0)
        return FRAY_OK;
    int dx = to.x - target.at.x, dy = to.y - target.at.y;
    fray_footprint n = {to, target.side};
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0) ||
        fa_range(s, me, n) <= 1)
        return fa_refuse(why, ws, "%s cannot push into square (%d, %d): it must be next to the "
                               "target and away from %s", fa_nm(s, who), to.x, to.y, fa_nm(s, who));
    return FRAY_OK;
}

/* Charge's move (004:523-525; L7.24). */
static fray_status charge_check(const fa_setup *s, const fa_state *st,
                                const fa_command *cmd, char *why, size_t ws,
                                const fa_reach_kept *kept) {
    int who = cmd->actor;
    if (cmd->n_targets != 1)
        return fa_refuse(why, ws, "%s must charge one target", fa_nm(s, who));
    int t = cmd->targets[0];
    fray_status ok = target_ok(s, st, who, t, why, ws);
    if (ok != FRAY_OK)
        return ok;
    if (cmd->power >= 0)
        return fa_refuse(why, ws, "a charge ends in a melee basic attack or a bull rush (004:523)");
    if (cmd->option == FA_CHARGE_BULL_RUSH) {
        int d = (int)fa_sb_of(s, t)->size - (int)fa_sb_of(s, who)->size;
        if (d > 1 || d < -1)
            return fa_refuse(why, ws, "%s is not within one size category of %s",
                          fa_nm(s, t), fa_nm(s, who));        /* 004:510 */
    }
    int a = 0, cost = 0;
    if ((ok = allowance(s, st, who, FA_CMD_CHARGE, &a, why, ws)) != FRAY_OK)
        return ok;
    if ((ok = path_check(s, st, who, cmd->path, cmd->n_path, a, false, why, ws,
                         &cost)) != FRAY_OK)
        return ok;
    fray_pos start = st->c[who].fp.at, end = cmd->path[cmd->n_path - 1];
    if (fa_count(s, start, end) < 2)
        return fa_refuse(why, ws, "%s must move at least 10 feet to charge", fa_nm(s, who));
    int reach = melee_reach(s, st, who);
    fray_footprint efp = {end, st->c[who].fp.side};
    if (!fa_within(s, efp, st->c[t].fp, reach))
        return fa_refuse(why, ws, "%s cannot attack %s from square (%d, %d)",
                      fa_nm(s, who), fa_nm(s, t), end.x, end.y);
    if (cmd->option == FA_CHARGE_BULL_RUSH) {
        if (!fray_grid_adjacent(efp, st->c[t].fp))
            return fa_refuse(why, ws, "%s must end its charge adjacent to %s to bull rush it",
                          fa_nm(s, who), fa_nm(s, t));
        if ((ok = push_ok(s, who, efp, st->c[t].fp, cmd->origin, why, ws)) != FRAY_OK)
            return ok;
    }
    /* The nearest square from which the target can be attacked (the
     * tactics' map when they built this one: reach_or_kept). */
    fray_reach_map map;
    const fray_reach_map *m = reach_or_kept(s, st, who, a, kept, &map);
    int best = -1;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            if (m->cost[y][x] < 0 || !m->can_stop[y][x])
                continue;
            fray_pos p = {(int16_t)x, (int16_t)y};
            fray_footprint fp = {p, st->c[who].fp.side};
            if (fa_count(s, start, p) < 2 || !fa_within(s, fp, st->c[t].fp, reach))
                continue;
            if (best < 0 || m->cost[y][x] < best)
                best = m->cost[y][x];
        }
    if (best >= 0 && cost > best)
        return fa_refuse(why, ws, "%s must charge to the nearest square from which it can attack %s",
                      fa_nm(s, who), fa_nm(s, t));
    fray_pos prev = start;
    for (int i = 0; i < cmd->n_path; i++) {
        if (fa_count(s, cmd->path[i], end) >= fa_count(s, prev, end))
            return fa_refuse(why, ws, "every step of a charge must bring %s closer to square (%d, %d)",
                          fa_nm(s, who), end.x, end.y);
        prev = cmd->path[i];
    }
    return FRAY_OK;
}

/* What attack.c cannot attack at all (total cover, beyond reach or long
 * range: fa_attack_mods says impossible) is refused here, in words, not
 * failed there: the command's power (ATTACK) or basic attack on t. */
static fray_status attackable(const fa_setup *s, const fa_state *st,
                              const fa_command *cmd, int t, char *why, size_t ws) {
    int who = cmd->actor;
    int power = cmd->kind == FA_CMD_ATTACK ? cmd->power : -1;
    fa_command basic = *cmd;
    basic.kind = FA_CMD_ATTACK;
    basic.power = (int8_t)power;
    basic.n_targets = 1;
    basic.targets[0] = (int8_t)t;
    bool melee = power < 0 && !ranged_or_area(s, st, &basic);
    fa_attack_line line = fa_attack_line_of(s, st, who, power, cmd->weapon, melee);
    /* Speed (issue 16): the range, reach and cover tests of
     * fa_attack_mods alone, not its modifiers. */
    bool possible = fa_attack_possible(s, st, who, t, &line, st->c[who].fp.at);
#ifndef NDEBUG
    fa_mods m; /* (the long way) */
    memset(&m, 0, sizeof m);
    fa_attack_mods(s, st, who, t, &line, false, st->c[who].fp.at, &m);
    assert(possible == !m.impossible);
#endif
    if (!possible)
        return fa_refuse(why, ws, "%s cannot attack %s from where it stands", fa_nm(s, who), fa_nm(s, t));
    return FRAY_OK;
}

/* Standing up where someone stands with no square named: the first
 * square it may adjust into (004:728), orthogonal ones first, clockwise
 * from the north; false when there is none. */
static bool stand_square(const fa_setup *s, const fa_state *st, int who,
                         fray_pos *out) {
    static const int8_t dir[8][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0},
                                     {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
    fray_pos at = st->c[who].fp.at;
    for (int k = 0; k < 8; k++) {
        fray_pos to = {(int16_t)(at.x + dir[k][0]), (int16_t)(at.y + dir[k][1])};
        if (path_check(s, st, who, &to, 1, 1, true, NULL, 0, NULL) == FRAY_OK) {
            *out = to;
            return true;
        }
    }
    return false;
}

/* An area attack's origin (004:110, 125, 131, 137): a blast placed
 * against the user, a burst's origin on the map within `range` and in
 * line of effect, a wall of `size` contiguous squares within range. A
 * close burst needs nothing. */
static fray_status area_origin_ok(const fa_setup *s, const fa_state *st,
                                  const fa_command *cmd, int size, int range,
                                  int kind, char *why, size_t ws) {
    int who = cmd->actor;
    fray_footprint me = st->c[who].fp;
    switch (kind) {
    case FA_AREA_BLAST: {
        fray_area a;
        if (fray_area_blast(&s->map, me, size, cmd->origin, &a) != FRAY_OK)
            return fa_refuse(why, ws, "a blast must be placed against %s's space", fa_nm(s, who));
        return FRAY_OK;
    }
    case FA_AREA_BURST: {
        fray_footprint o = {cmd->origin, 1};
        if (!fray_grid_in(&s->map, cmd->origin) || !fray_grid_effect_fp(&s->map, me, o))
            return fa_refuse(why, ws, "%s has no line of effect to square (%d, %d)",
                          fa_nm(s, who), cmd->origin.x, cmd->origin.y);
        if (fa_range(s, me, o) > range)
            return fa_refuse(why, ws, "square (%d, %d) is beyond %s's range",
                          cmd->origin.x, cmd->origin.y, fa_nm(s, who));
        return FRAY_OK;
    }
    case FA_AREA_WALL: {
        if (cmd->n_path > FA_MAX_PATH ||
            fray_area_wall_check(&s->map, cmd->path, cmd->n_path, size, NULL, NULL) != FRAY_WALL_OK)
            return fa_refuse(why, ws, "%s's wall must be %d squares in a line of touching sides",
                          fa_nm(s, who), size);
        for (int i = 0; i < cmd->n_path; i++)
            if (fa_range(s, me, (fray_footprint){cmd->path[i], 1}) > range)
                return fa_refuse(why, ws, "square (%d, %d) is beyond %s's range",
                              cmd->path[i].x, cmd->path[i].y, fa_nm(s, who));
        if (!fray_grid_effect_fp(&s->map, me, (fray_footprint){cmd->path[0], 1}))
            return fa_refuse(why, ws, "%s has no line of effect to square (%d, %d)",
                          fa_nm(s, who), cmd->path[0].x, cmd->path[0].y);
        return FRAY_OK;
    }
    default:
        return FRAY_OK;
    }
}

/* An area attack's ammunition (004:101, 112): a round (or thrown weapon)
 * for each creature the area affects, at least one, from weapon slot
 * `slot` when it counts rounds. */
static fray_status area_ammo_ok(const fa_setup *s, const fa_state *st,
                                const fa_command *cmd, int kind, int size,
                                int slot, char *why, size_t ws) {
    int who = cmd->actor;
    const fa_statblock *sb = fa_sb_of(s, who);
    if (slot < 0 || slot >= sb->n_weapons)
        return FRAY_OK;
    const fa_weapon *w = &s->weapons[sb->weapons[slot].weapon];
    if (w->magazine <= 0 || w->kind == FA_WK_MELEE)
        return FRAY_OK;
    fray_footprint me = st->c[who].fp, from = me;
    fray_area a;
    fray_area_clear(&a);
    fray_area_metric metric = (fray_area_metric)s->opt.burst;
    switch (kind) {
    case FA_AREA_BLAST:
        if (fray_area_blast(&s->map, me, size, cmd->origin, &a) != FRAY_OK)
            return FRAY_OK; /* refused by area_origin_ok */
        break;
    case FA_AREA_CLOSE_BURST:
        fray_area_aura(&s->map, me, size, metric, false, &a);
        break;
    case FA_AREA_BURST:
        fray_area_burst(&s->map, cmd->origin, size, metric, &a);
        from = (fray_footprint){cmd->origin, 1};
        break;
    case FA_AREA_WALL:
        if (cmd->n_path < 1 ||
            fray_area_wall_check(&s->map, cmd->path, cmd->n_path, size, NULL, &a) != FRAY_WALL_OK)
            return FRAY_OK;
        from = (fray_footprint){cmd->path[0], 1};
        break;
    default:
        return FRAY_OK;
    }
    int n = 0;
    for (int i = 0; i < st->n; i++) {
        if ((st->c[i].flags & FA_F_OUT) || fa_has(&st->c[i], FA_C_DEAD))
            continue;
        if (i == who && kind != FA_AREA_BURST)
            continue; /* blasts and close bursts never affect the user */
        if (fray_area_affects(&s->map, &a, from, st->c[i].fp))
            n++;
    }
    if (n < 1)
        n = 1;
    if (st->c[who].ammo[slot] < n)
        return fa_refuse(why, ws, "%s's %s has %d rounds, not the %d this attack needs",
                      fa_nm(s, who), w->name, st->c[who].ammo[slot], n);
    return FRAY_OK;
}

/* The rules of one action, whoever's turn it is (a readied action
 * fires on another's turn: immediate). */
static fray_status check_action(const fa_setup *s, const fa_state *st,
                                const fa_command *cmd, char *why, size_t ws,
                                int8_t *walk_costs, const fa_reach_kept *kept) {
    int who = cmd->actor;
    const fa_cstate *c = &st->c[who];
    const fa_statblock *sb = fa_sb_of(s, who);
    fray_status ok = FRAY_OK;
    int a = 0;
    if (cmd->kind == FA_CMD_FEINT || cmd->kind == FA_CMD_SKILL || fa_aid_is_check(cmd))
        return fa_skill_check_cmd(s, st, cmd, why, ws); /* skills.c */
    if (fa_has(c, FA_C_DOMINATED)) {
        /* 004:948-949: Dazed, and only its non-encounter, non-daily
         * abilities (second wind: once an encounter). */
        if (cmd->kind == FA_CMD_ATTACK && cmd->power >= 0 && cmd->power < sb->n_powers &&
            sb->powers[cmd->power].usage != FA_AT_WILL)
            return fa_refuse(why, ws, "Dominated: %s may use only its at-will abilities, "
                          "and %s is not one", fa_nm(s, who), sb->powers[cmd->power].name);
        if (cmd->kind == FA_CMD_SECOND_WIND)
            return fa_refuse(why, ws, "Dominated: %s may use only its at-will abilities, "
                          "and second wind is once an encounter", fa_nm(s, who));
        if (cmd->kind == FA_CMD_SPEND_AP || cmd->kind == FA_CMD_DELAY)
            return fa_refuse(why, ws, "Dominated (dazed): %s can take only one action",
                          fa_nm(s, who));
    }
    switch (cmd->kind) {
    case FA_CMD_ATTACK: case FA_CMD_COUP: case FA_CMD_BULL_RUSH:
    case FA_CMD_TRIP: case FA_CMD_GRAPPLE: case FA_CMD_HELD_OBJECT:
    case FA_CMD_AID: case FA_CMD_SPRAY: case FA_CMD_SUPPRESS: {
        bool area = false;
        /* thrown weapons counted, taking a weapon (objects.c) */
        if ((ok = fa_obj_check(s, st, cmd, why, ws)) != FRAY_OK)
            return ok;
        if (cmd->kind == FA_CMD_ATTACK && cmd->power >= 0) {
            if (cmd->power >= sb->n_powers)
                return fa_refuse(why, ws, "%s has no such special ability", fa_nm(s, who));
            const fa_power *p = &sb->powers[cmd->power];
            if (p->usage != FA_AT_WILL && (c->powers_used >> cmd->power) & 1u)
                return fa_refuse(why, ws, "%s has already used %s", fa_nm(s, who), p->name);
            if (fa_is_teleport(s, who, cmd->power))   /* (alloy-space) */
                return fa_teleport_check(s, st, cmd, why, ws);
            area = p->area != FA_AREA_NONE;
        }
        if (cmd->weapon < -1 || cmd->weapon >= sb->n_weapons)
            return fa_refuse(why, ws, "%s has no such weapon", fa_nm(s, who));
        if (cmd->weapon >= 0 && cmd->weapon != c->wield)
            return fa_refuse(why, ws, "%s does not hold the %s", fa_nm(s, who),
                          s->weapons[sb->weapons[cmd->weapon].weapon].name);
        const fa_weapon *w = weapon_of(s, st, who, cmd->weapon);
        int slot = cmd->weapon >= 0 ? cmd->weapon : c->wield;
        if (cmd->kind == FA_CMD_SPRAY || cmd->kind == FA_CMD_SUPPRESS) {
            if (!w || !w->autofire)
                return fa_refuse(why, ws, "%s holds no weapon with automatic fire", fa_nm(s, who));
            /* 004:701: ten rounds even with no attack. */
            if (cmd->kind == FA_CMD_SUPPRESS && w->magazine > 0 && c->ammo[slot] < 10)
                return fa_refuse(why, ws, "%s's %s has fewer than the 10 rounds suppressing fire spends",
                              fa_nm(s, who), w->name);
            int range = w->range_short > w->range_long ? w->range_short : w->range_long;
            if ((ok = area_origin_ok(s, st, cmd, 6, range, FA_AREA_BURST, why, ws)) != FRAY_OK)
                return ok;
            /* Spray: a 5-ft burst, a round for each creature in it (004:694-695). */
            return cmd->kind == FA_CMD_SPRAY
                       ? area_ammo_ok(s, st, cmd, FA_AREA_BURST, 1, slot, why, ws) : FRAY_OK;
        }
        if (cmd->kind == FA_CMD_ATTACK && cmd->power < 0 && w && w->area != FA_AREA_NONE)
            area = true; /* an area weapon (a flamethrower, a grenade) */
        if (area) {
            if (cmd->power >= 0) {
                const fa_power *p = &sb->powers[cmd->power];
                if ((ok = area_origin_ok(s, st, cmd, p->area_size, p->range, p->area, why,
                                         ws)) != FRAY_OK)
                    return ok;
                return area_ammo_ok(s, st, cmd, p->area, p->area_size, p->weapon, why, ws);
            }
            if ((ok = area_origin_ok(s, st, cmd, w->area_size,
                                     w->range_short > w->range_long ? w->range_short
                                                                    : w->range_long,
                                     w->area, why, ws)) != FRAY_OK)
                return ok;
            return area_ammo_ok(s, st, cmd, w->area, w->area_size, slot, why, ws);
        }
        if (cmd->n_targets < 1 || cmd->n_targets > FA_MAX_TARGETS)
            return fa_refuse(why, ws, "%s must name a target", fa_nm(s, who));
        if (cmd->kind != FA_CMD_ATTACK && cmd->kind != FA_CMD_AID && cmd->n_targets != 1)
            return fa_refuse(why, ws, "%s must name one target", fa_nm(s, who));
        for (int i = 0; i < cmd->n_targets; i++)
            if ((ok = target_ok(s, st, who, cmd->targets[i], why, ws)) != FRAY_OK)
                return ok;
        int t = cmd->targets[0];
        int unarmed = sb->reach > 0 ? sb->reach : 1;
        if ((cmd->kind == FA_CMD_COUP || cmd->kind == FA_CMD_BULL_RUSH ||
             cmd->kind == FA_CMD_TRIP || cmd->kind == FA_CMD_GRAPPLE) &&
            fray_grid_cover(&s->map, c->fp, st->c[t].fp) == FRAY_COVER_TOTAL)
            return fa_refuse(why, ws, "%s cannot reach %s through the wall", fa_nm(s, who), fa_nm(s, t));
        switch (cmd->kind) {
        case FA_CMD_COUP:
            if (!fa_has(&st->c[t], FA_C_HELPLESS))
                return fa_refuse(why, ws, "%s is not helpless", fa_nm(s, t));
            return adjacent_ok(s, st, who, t, 1, why, ws);   /* 004:547 */
        case FA_CMD_BULL_RUSH: {
            int d = (int)fa_sb_of(s, t)->size - (int)sb->size;
            if (d > 1 || d < -1)
                return fa_refuse(why, ws, "%s is not within one size category of %s",
                              fa_nm(s, t), fa_nm(s, who));        /* 004:510 */
            if ((ok = adjacent_ok(s, st, who, t, 1, why, ws)) != FRAY_OK)
                return ok;
            return push_ok(s, who, c->fp, st->c[t].fp, cmd->origin, why, ws);
        }
        case FA_CMD_GRAPPLE: {
            int d = (int)fa_sb_of(s, t)->size - (int)sb->size;
            if (c->grappling >= 0)
                return fa_refuse(why, ws, "%s already grapples %s", fa_nm(s, who),
                              fa_nm(s, c->grappling));
            if (d > 1 || d < -1)
                return fa_refuse(why, ws, "%s is not within one size category of %s",
                              fa_nm(s, t), fa_nm(s, who));        /* 004:612 */
            if (w && w->hands >= 2)
                return fa_refuse(why, ws, "%s has no free hand to grapple with", fa_nm(s, who));
            return adjacent_ok(s, st, who, t, unarmed, why, ws);
        }
        case FA_CMD_TRIP:
            return adjacent_ok(s, st, who, t, unarmed, why, ws);  /* 004:734 */
        case FA_CMD_HELD_OBJECT:
            if (st->c[t].wield < 0 && st->c[t].taken_owner1 == 0)
                return fa_refuse(why, ws, "%s holds nothing", fa_nm(s, t));
            return attackable(s, st, cmd, t, why, ws);
        case FA_CMD_AID: {
            /* targets[0] the enemy, targets[1] the ally (004:428). */
            int ally = cmd->n_targets == 2 ? cmd->targets[1] : -1;
            if (ally < 0 || ally >= st->n || ally == who || !fa_allies(s, who, ally) ||
                out_or_dead(&st->c[ally]))
                return fa_refuse(why, ws, "%s must name an enemy and the ally it aids", fa_nm(s, who));
            if (fa_allies(s, who, t))
                return fa_refuse(why, ws, "%s is not an enemy of %s", fa_nm(s, t), fa_nm(s, who));
            if (cmd->option != FA_AID_ATTACK && cmd->option != FA_AID_DEFENSE)
                return fa_refuse(why, ws, "%s must aid an attack or defenses", fa_nm(s, who));
            return attackable(s, st, cmd, t, why, ws);
        }
        case FA_CMD_ATTACK: {
            if (cmd->power < 0 && cmd->n_targets != 1)
                return fa_refuse(why, ws, "a basic attack has one target (004:482)");
            bool melee = cmd->power < 0 && !ranged_or_area(s, st, cmd);
            if (melee && (ok = adjacent_ok(s, st, who, t, melee_reach(s, st, who), why, ws)) != FRAY_OK)
                return ok;
            if (!melee && cmd->power < 0 && w && w->magazine > 0 && c->ammo[slot] < 1)
                return fa_refuse(why, ws, "%s's %s is empty", fa_nm(s, who), w->name);
            for (int i = 0; i < cmd->n_targets; i++)
                if ((ok = attackable(s, st, cmd, cmd->targets[i], why, ws)) != FRAY_OK)
                    return ok;
            /* L7.16: the square guessed for a totally concealed target
             * (its own field: journals of old wrote origin [0,0] on plain
             * attacks, and path holds a push's squares). */
            if (cmd->has_guess && cmd->n_targets != 1)
                return fa_refuse(why, ws, "a square is guessed for one target only");
            if (cmd->has_guess && !fray_grid_in(&s->map, cmd->guess))
                return fa_refuse(why, ws, "the square guessed, %d,%d, is not on the map",
                              cmd->guess.x, cmd->guess.y);
            return fa_forced_check(s, st, cmd, why, ws);   /* (alloy-space) */
        }
        default:
            return FRAY_OK;
        }
    }
    case FA_CMD_CHARGE:
        return charge_check(s, st, cmd, why, ws, kept);
    case FA_CMD_MOVE_GRAPPLED:
        if (cmd->n_path < 1 || cmd->n_path > FA_MAX_PATH)
            return fa_refuse(why, ws, "%s must name the squares of its move", fa_nm(s, who));
        if (c->grappling < 0)
            return fa_refuse(why, ws, "%s grapples nobody", fa_nm(s, who));
        if ((ok = allowance(s, st, who, cmd->kind, &a, why, ws)) != FRAY_OK)
            return ok;
        for (int i = 0; i < cmd->n_path; i++)
            if (covers(st->c[c->grappling].fp, cmd->path[i]))
                return fa_refuse(why, ws, "%s cannot move through %s, whom it drags",
                              fa_nm(s, who), fa_nm(s, c->grappling));
        return path_check(s, st, who, cmd->path, cmd->n_path, a, false, why, ws, NULL);
    case FA_CMD_TOTAL_DEFENSE:
        return FRAY_OK;
    case FA_CMD_SECOND_WIND:
        if (c->flags & FA_F_SECOND_WIND)
            return fa_refuse(why, ws, "%s has already used its second wind this encounter",
                          fa_nm(s, who));                    /* 004:681 */
        if (c->surges <= 0)
            return fa_refuse(why, ws, "%s has no heroic surges left", fa_nm(s, who));
        return FRAY_OK;
    case FA_CMD_WALK: case FA_CMD_RUN: case FA_CMD_CRAWL: case FA_CMD_SHIFT:
        if ((ok = allowance(s, st, who, cmd->kind, &a, why, ws)) != FRAY_OK)
            return ok;
        if (cmd->kind == FA_CMD_SHIFT && cmd->n_path != 1)
            return fa_refuse(why, ws, "%s can adjust only 5 feet", fa_nm(s, who));
        return path_check_sq(s, st, who, cmd->path, cmd->n_path, a,
                             cmd->kind == FA_CMD_SHIFT, why, ws, NULL, false,
                             cmd->kind == FA_CMD_WALK ? walk_costs : NULL);
    case FA_CMD_SQUEEZE:
        if (cmd->n_path == 0) {
            if (!fa_has(c, FA_C_SQUEEZING))
                return fa_refuse(why, ws, "%s is not squeezing", fa_nm(s, who));
            fray_footprint fp = {c->fp.at, s->c[who].side_len > 0 ? s->c[who].side_len : 1};
            if (!fa_room_for(s, fp) || !may_end(s, st, who, fp) || !fa_narrow_ok(s, fp, false))
                return fa_refuse(why, ws, "%s has no room to end its squeeze here", fa_nm(s, who));
            return FRAY_OK;
        }
        if ((ok = allowance(s, st, who, cmd->kind, &a, why, ws)) != FRAY_OK)
            return ok;
        return path_check_sq(s, st, who, cmd->path, cmd->n_path, a, false, why, ws, NULL,
                             true, NULL);
    case FA_CMD_STAND: {
        if (!fa_has(c, FA_C_PRONE))
            return fa_refuse(why, ws, "%s is not prone", fa_nm(s, who));
        /* 004:727-728: if someone stands where it lies, it adjusts 5 feet
         * as part of standing up. */
        bool occupied = false;
        for (int j = 0; j < st->n && !occupied; j++)
            if (j != who && !fa_has(&st->c[j], FA_C_DEAD) && overlap(c->fp, st->c[j].fp))
                occupied = true;
        if (occupied && cmd->n_path == 0) {
            fray_pos to;
            if (!stand_square(s, st, who, &to))
                return fa_refuse(why, ws,
                              "someone stands where %s lies and there is no square to adjust "
                              "into as it stands", fa_nm(s, who));
            return FRAY_OK; /* the engine picks the square (stand_square) */
        }
        if (occupied && cmd->n_path != 1)
            return fa_refuse(why, ws,
                          "someone stands where %s lies: %s must adjust 5 feet as it stands",
                          fa_nm(s, who), fa_nm(s, who));
        if (!occupied && cmd->n_path != 0)
            return fa_refuse(why, ws, "%s stands up where it lies", fa_nm(s, who));
        if (cmd->n_path == 1) {
            if (fa_has(c, FA_C_IMMOBILIZED) || fa_has(c, FA_C_GRAPPLED) ||
                fa_has(c, FA_C_SNARED))
                return fa_refuse(why, ws, "%s cannot leave its square", fa_nm(s, who));
            return path_check(s, st, who, cmd->path, 1, 1, true, why, ws, NULL);
        }
        return FRAY_OK;
    }
    case FA_CMD_ESCAPE: {
        const fa_cond *g = fa_cond_find(c, FA_C_GRAPPLED, -1);
        if (!g)
            return fa_refuse(why, ws, "%s is not grappled", fa_nm(s, who));
        if (g->other < 0 || g->other >= st->n)
            return fa_refuse(why, ws, "%s is held by nothing it can escape", fa_nm(s, who));
        if (cmd->n_path > 1)
            return fa_refuse(why, ws, "%s can adjust only 5 feet as it escapes", fa_nm(s, who));
        if (cmd->n_path == 1) /* the adjust if it escapes (004:600) */
            return path_check(s, st, who, cmd->path, 1, 1, true, why, ws, NULL);
        return FRAY_OK;
    }
    case FA_CMD_DROP_PRONE:
        if (fa_has(c, FA_C_PRONE))
            return fa_refuse(why, ws, "%s is already prone", fa_nm(s, who));
        return FRAY_OK;
    case FA_CMD_DRAW:
        return fa_obj_check(s, st, cmd, why, ws);   /* objects.c (alloy-objects) */
    case FA_CMD_RELOAD: {
        int w = cmd->weapon >= 0 ? cmd->weapon : c->wield;
        if (cmd->weapon < -1 || w < 0 || w >= sb->n_weapons)
            return fa_refuse(why, ws, "%s holds no weapon to reload", fa_nm(s, who));
        const fa_weapon *wp = &s->weapons[sb->weapons[w].weapon];
        if (wp->magazine <= 0)
            return fa_refuse(why, ws, "the %s has no magazine", wp->name);
        if (c->ammo[w] >= wp->magazine)
            return fa_refuse(why, ws, "%s's %s is fully loaded", fa_nm(s, who), wp->name);
        if (c->spare[w] == 0)
            return fa_refuse(why, ws, "%s has no spare ammunition for the %s", fa_nm(s, who), wp->name);
        return FRAY_OK;
    }
    case FA_CMD_SUSTAIN: {
        bool any = c->grappling >= 0;
        for (int j = 0; j < st->n && !any; j++)
            for (int i = 0; i < st->c[j].n_cond; i++)
                if (st->c[j].cond[i].ends == FA_ENDS_SUSTAIN && st->c[j].cond[i].whose == who)
                    any = true;
        if (!any)
            return fa_refuse(why, ws, "%s has nothing to sustain", fa_nm(s, who));
        return FRAY_OK;
    }
    case FA_CMD_END_GRAB:
        if (c->grappling < 0)
            return fa_refuse(why, ws, "%s grapples nobody", fa_nm(s, who));
        return FRAY_OK;
    case FA_CMD_SPEND_AP:
        if (st->round == 0)
            return fa_refuse(why, ws, "no action points can be spent in the surprise round");
        if (c->ap <= 0)
            return fa_refuse(why, ws, "%s has no action points left", fa_nm(s, who));
        if (c->ap_spent >= s->opt.ap_per_turn)
            return fa_refuse(why, ws, "%s has already spent an action point this turn", fa_nm(s, who));
        if (fa_has(c, FA_C_DAZED))
            return fa_refuse(why, ws, "Dazed: %s can take only one action", fa_nm(s, who));
        return FRAY_OK;
    case FA_CMD_READY: {
        const fa_ready *rd = &cmd->ready;
        if (rd->trigger == FA_TRIG_NONE || rd->trigger >= FA_TRIG_KINDS)
            return fa_refuse(why, ws, "%s must say what triggers its readied action", fa_nm(s, who));
        if (!readiable(rd->kind))
            return fa_refuse(why, ws, "%s cannot ready that action", fa_nm(s, who));
        if (rd->who < -1 || rd->who >= st->n || rd->who == who)
            return fa_refuse(why, ws, "%s's trigger names no other combatant", fa_nm(s, who));
        if (rd->target < -1 || rd->target >= st->n)
            return fa_refuse(why, ws, "%s's readied action has no such target", fa_nm(s, who));
        if (rd->kind == FA_CMD_ATTACK && rd->power >= 0) {
            if (rd->power >= sb->n_powers)
                return fa_refuse(why, ws, "%s has no such special ability", fa_nm(s, who));
            if (sb->powers[rd->power].area == FA_AREA_WALL)
                return fa_refuse(why, ws, "%s cannot ready a wall: its squares are chosen "
                                       "when it is made", fa_nm(s, who));
            if (fa_is_teleport(s, who, rd->power))
                return fa_refuse(why, ws, "%s cannot ready a teleport", fa_nm(s, who));
        }
        return FRAY_OK;
    }
    case FA_CMD_DELAY:
        /* 004:572 */
        if ((c->flags & FA_F_TOOK_ACTION) || c->ap_spent > 0 || c->moved > 0)
            return fa_refuse(why, ws, "%s has already acted this turn and cannot delay", fa_nm(s, who));
        if (fa_has(c, FA_C_DAZED))
            return fa_refuse(why, ws, "Dazed: %s cannot delay", fa_nm(s, who));
        return FRAY_OK;
    case FA_CMD_END_TURN:
        return FRAY_OK;
    default:
        return fa_refuse(why, ws, "that is not an action %s can take", fa_nm(s, who));
    }
}

/* fa_check; walk_costs (NULL: not wanted): a walk's step costs, one a
 * square of its path, when it is allowed (fa_run.walk_cost); kept (NULL:
 * none): the tactics' reach map for this command (fa_reach_kept). */
static fray_status check_all(const fa_setup *s, const fa_state *st,
                             const fa_command *cmd, char *why, size_t why_size,
                             int8_t *walk_costs, const fa_reach_kept *kept) {
    if (why && why_size > 0)
        why[0] = '\0';
    if (cmd->kind >= FA_CMD_KINDS)
        return fa_refuse(why, why_size, "unknown action");
    if (cmd->kind == FA_CMD_BEGIN)
        return st->started ? fa_refuse(why, why_size, "the fight has already begun") : FRAY_OK;
    if (!st->started)
        return fa_refuse(why, why_size, "the fight has not begun");
    if (st->over)
        return fa_refuse(why, why_size, "the fight is over");
    if (cmd->kind == FA_CMD_NEXT)
        return FRAY_OK;
    if (cmd->kind == FA_CMD_GM)   /* (alloygm) the GM's overrides, issue 14 */
        return fa_gm_check(s, st, cmd, why, why_size);
    int who = cmd->actor;
    if (who >= st->n && who < s->n && s->c[who].joins > 0)   /* 004:241 (skills.c) */
        return fa_refuse(why, why_size, "%s has not joined the battle yet (it joins at the "
                      "start of round %d)", fa_nm(s, who), s->c[who].joins);
    if (who < 0 || who >= st->n)
        return fa_refuse(why, why_size, "no such combatant");
    const fa_cstate *c = &st->c[who];
    if (!fa_can_act(st, who))
        return fa_refuse(why, why_size, "%s is %s and cannot act", fa_nm(s, who), why_cannot_act(c));
    if (cmd->kind == FA_CMD_RESUME) {
        if (!fa_has(c, FA_C_DELAYING))
            return fa_refuse(why, why_size, "%s is not delaying", fa_nm(s, who));
        if (!st->between)
            return fa_refuse(why, why_size, "%s can come back only after another combatant's turn",
                          fa_nm(s, who));
        return FRAY_OK;
    }
    if (st->cur != who)
        return fa_refuse(why, why_size, "it is not %s's turn", fa_nm(s, who));
    if (c->flags & FA_F_DONE)
        return fa_refuse(why, why_size, "%s's actions are over this turn", fa_nm(s, who));
    fa_action_type type = cmd_type(s, cmd);
    if (type <= FA_ACT_SWIFT) {
        fa_action_type slot = (fa_action_type)cmd->slot;
        if (slot != FA_ACT_NONE && (slot > FA_ACT_SWIFT || slot > type))
            return fa_refuse(why, why_size, "a %s action cannot be taken in place of a %s action",
                          type_word[type], slot <= FA_ACT_NONE ? type_word[slot] : "?");
        if (!fa_can_pay(st, who, type, slot)) {
            if ((fa_has(c, FA_C_DAZED) || fa_has(c, FA_C_DOMINATED)) &&
                (c->flags & FA_F_TOOK_ACTION))
                return fa_refuse(why, why_size,
                              "%s: %s has already taken its one action this round",
                              fa_has(c, FA_C_DAZED) ? "Dazed" : "Dominated (dazed)",
                              fa_nm(s, who));
            if (st->round == 0 && (c->flags & FA_F_TOOK_ACTION))
                return fa_refuse(why, why_size,
                              "%s has taken its one action of the surprise round", fa_nm(s, who));
            if (st->round == 0 && type == FA_ACT_SWIFT && slot == FA_ACT_SWIFT)
                return fa_refuse(why, why_size, "there are no swift actions in the surprise round");
            return fa_refuse(why, why_size, "%s has no %s action left", fa_nm(s, who),
                          type_word[slot != FA_ACT_NONE ? slot : type]);
        }
    }
    return check_action(s, st, cmd, why, why_size, walk_costs, kept);
}

fray_status fa_check(const fa_setup *s, const fa_state *st,
                     const fa_command *cmd, char *why, size_t why_size) {
    return check_all(s, st, cmd, why, why_size, NULL, NULL);
}

/* ---- Opportunity attacks --------------------------------------------------------- */

/* Every enemy that threatens who (but `except`) may make its opportunity
 * attack, in initiative order, before who's action goes on (004:449-462):
 * one per attacker on each other combatant's turn, never on its own. */
static fray_status provoke_except(fa_run *r, int who, int what, int except) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int8_t order[FA_MAX_COMBATANTS];
    int n = st->n_order;
    memcpy(order, st->order, sizeof order);
    for (int p = 0; p < n; p++) {
        int a = order[p];
        /* (speed, issue 16: fa_threatens' own first test, the
         * nearness of one without threatening reach, asked here before
         * the rest: most of a crowd is farther than a square; every test
         * here only reads) */
        if (!fa_sb_of(s, a)->threatening_reach && !within1(s, st->c[a].fp, st->c[who].fp))
            continue;
        if (a == who || a == except || a == st->cur || st->c[a].oa_turn == st->turn_serial ||
            fa_allies(s, a, who) || !fa_threatens(s, st, a, who))
            continue;
        fa_fact_add(r, FA_FACT_PROVOKE, who, a, what, 0, 0, 0);
        /* A replay takes the recorded choice: the table is not asked. */
        bool made = !r->replay && r->hooks && r->hooks->opportunity
                        ? r->hooks->opportunity(r->hooks->ctx, r, a, who) : true;
        int take = fa_choose(r, FA_CH_OPPORTUNITY, a, who, made ? 1 : 0);
        if (r->failed != FRAY_OK)
            return r->failed;
        fa_fact_add(r, FA_FACT_OPPORTUNITY, a, who, take ? 1 : 0, 0, 0, 0);
        if (!take)
            continue;
        r->interrupts++;
        st->c[a].oa_turn = st->turn_serial;
        fray_status ok = fa_opportunity_attack(r, a, who);
        if (ok != FRAY_OK) {
            fa_fail(r, ok);
            return ok;
        }
        if (!fa_can_act(st, who))
            break; /* it dropped: its action does not go on (004:461) */
    }
    return r->failed;
}

fray_status fa_provoke(fa_run *r, int who, int what) {
    return provoke_except(r, who, what, -1);
}

/* ---- Readied actions ---------------------------------------------------------------- */

static void do_action(fa_run *r, const fa_command *cmd);

/* The squares a readied action reaches (FA_TRIG_ENTERS_REACH). */
static int ready_reach(const fa_setup *s, const fa_state *st, int q) {
    const fa_ready *rd = &st->c[q].ready;
    if (rd->kind == FA_CMD_CHARGE)   /* (alloy-space) the charge's reach: its speed */
        return fa_sb_of(s, q)->speed;
    if (rd->kind == FA_CMD_ATTACK) {
        if (rd->power >= 0 && rd->power < fa_sb_of(s, q)->n_powers) {
            const fa_power *p = &fa_sb_of(s, q)->powers[rd->power];
            if (p->range > 0)
                return p->range;
        } else {
            const fa_weapon *w = weapon_of(s, st, q, -1);
            if (w && w->kind != FA_WK_MELEE)
                return w->range_long > w->range_short ? w->range_long : w->range_short;
        }
    }
    return melee_reach(s, st, q);
}

/* After `actor`'s action or move step (trig: what it did; before: its
 * footprint before), every readied action it triggers fires now, in
 * initiative order (004:651-656, L7.5): an immediate action, and the
 * readier's initiative moves to just before the actor. */
static void ready_after(fa_run *r, int actor, int trig, fray_footprint before) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    /* (speed, issue 16) Nobody has readied an action: no trigger to ask
     * (turn.c keeps the count; debug builds look at everyone). */
#ifndef NDEBUG
    if (st->n_ready == 0)
        for (int i = 0; i < st->n; i++)
            assert(!fa_has(&st->c[i], FA_C_READY));
#endif
    if (st->n_ready == 0)
        return;
    int8_t order[FA_MAX_COMBATANTS];
    int n = st->n_order;
    memcpy(order, st->order, sizeof order);
    for (int p = 0; p < n && r->failed == FRAY_OK; p++) {
        int q = order[p];
        fa_cstate *c = &st->c[q];
        if (q == actor || !fa_has(c, FA_C_READY) || c->ready.trigger != trig)
            continue;
        if (c->ready.who >= 0 ? c->ready.who != actor : fa_allies(s, q, actor))
            continue;
        fray_footprint now = st->c[actor].fp;
        if (trig == FA_TRIG_MOVES_ADJACENT &&
            !(fray_grid_adjacent(c->fp, now) && !fray_grid_adjacent(c->fp, before)))
            continue;
        if (trig == FA_TRIG_ENTERS_REACH) {
            int reach = ready_reach(s, st, q);
            if (!(fa_within(s, c->fp, now, reach) && !fa_within(s, c->fp, before, reach)))
                continue;
        }
        if (!fa_can_pay(st, q, FA_ACT_IMMEDIATE, FA_ACT_NONE))
            continue;
        fa_command cmd;
        memset(&cmd, 0, sizeof cmd);
        cmd.kind = c->ready.kind;
        cmd.actor = (int8_t)q;
        cmd.slot = FA_ACT_NONE;
        cmd.power = c->ready.power;
        cmd.weapon = -1;
        cmd.option = -1;
        cmd.n_targets = 1;
        cmd.targets[0] = (int8_t)(c->ready.target >= 0 ? c->ready.target : actor);
        cmd.origin.x = cmd.origin.y = -1;
        /* (alloy-space) a readied move's squares, a charge's, an area's origin */
        if (!fa_ready_fill(s, st, q, actor, &cmd))
            continue; /* no such move or placement now: the trigger passes */
        char why[160];
        if (check_action(s, st, &cmd, why, sizeof why, NULL, NULL) != FRAY_OK)
            continue; /* it cannot be done now: the trigger passes */
        bool fire = !r->replay && r->hooks && r->hooks->ready
                        ? r->hooks->ready(r->hooks->ctx, r, q, actor) : true;
        if (!fa_choose(r, FA_CH_READY_FIRES, q, actor, fire ? 1 : 0) ||
            r->failed != FRAY_OK)
            continue; /* held for a later trigger (004:651) */
        r->interrupts++;
        if (fa_pay_from(r, q, FA_ACT_IMMEDIATE, FA_ACT_NONE) == FA_ACT_NONE)
            return;
        fa_cond_remove(r, q, FA_C_READY, -1);
        c->ready.trigger = FA_TRIG_NONE;
        int place = -1;
        if (fa_order_move_before(r, q, actor, &place) != FRAY_OK)
            return;
        fa_fact_add(r, FA_FACT_READY_FIRES, q, actor, place, 0, 0, 0);
        do_action(r, &cmd);
        if (r->failed == FRAY_OK && attack_kind(cmd.kind))
            ready_after(r, q, FA_TRIG_ATTACKS, st->c[q].fp);
        if (!fa_can_act(st, actor))
            return;
    }
}

/* ---- Moving ---------------------------------------------------------------------------- */

/* Can who go on moving (after an opportunity attack or a readied action)? */
static bool still_moving(const fa_state *st, int who, bool prone_ok) {
    const fa_cstate *c = &st->c[who];
    if (!fa_can_act(st, who) || fa_has(c, FA_C_IMMOBILIZED) ||
        fa_has(c, FA_C_GRAPPLED) || fa_has(c, FA_C_SNARED))
        return false;
    if (!prone_ok && fa_has(c, FA_C_PRONE))
        return false;
    if (fa_has(c, FA_C_SLOWED) && slowed_left(c) <= 0)
        return false; /* 004:996 */
    return true;
}

/* Moves who along path; provokes: leaving threatened squares provokes
 * (not shifting, 004:416, 459); what: the action (facts); except: the one
 * it drags (Move Grappled Target, 004:639); drag: that one follows. */
static void move_steps(fa_run *r, int who, const fray_pos *path, int n,
                       bool provokes, int what, int drag, bool prone_ok) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    fa_cstate *c = &st->c[who];
    fray_pos from = c->fp.at;
    int total = 0, parity = 0, steps = 0;
    fray_reach_map map;
    /* Speed (issue 16): a walk's step costs as fa_check weighed them just
     * before (fa_run.walk_cost, the same path from the same square with
     * the others where they stood), taken while nobody else has moved or
     * changed: no opportunity attack taken, no readied action fired, no
     * grapple ended (interrupts), nobody dragged. Debug builds weigh
     * every step again (the long way). */
    int kept = 0;
    if (r->walk_n == n && n > 0 && r->walk_who == who && r->walk_path == path && drag < 0 &&
        what == FA_CMD_WALK)
        kept = n;
    r->walk_n = 0; /* (used once: a readied walk inside is weighed afresh) */
    uint32_t interrupts = r->interrupts;
    for (int i = 0; i < n && r->failed == FRAY_OK; i++) {
        if (provokes && provoke_except(r, who, what, drag) != FRAY_OK)
            return;
        if (!still_moving(st, who, prone_ok))
            break;
        fray_footprint before = c->fp;
        if (r->interrupts != interrupts)
            kept = 0;
        int cost;
        if (i < kept) {
            cost = r->walk_cost[i];
            assert(cost == step_cost(s, st, who, before, path[i], parity, &map,
                                     what == FA_CMD_SQUEEZE)); /* (the long way) */
        } else {
            cost = step_cost(s, st, who, before, path[i], parity, &map,
                             what == FA_CMD_SQUEEZE);
        }
        if (cost < 0)
            break; /* something now stands in the way: the move ends here */
        if (diagonal(before.at, path[i]))
            parity ^= 1;
        c->fp.at = path[i];
        int moved = c->moved + cost;
        c->moved = (int8_t)(moved > INT8_MAX ? INT8_MAX : moved);
        total += cost;
        steps++;
        if (drag >= 0)
            st->c[drag].fp.at = before.at;
        /* 004:618: a grapple ends when the target is out of unarmed reach. */
        int g = c->grappling;
        if (g >= 0 && !fa_within(s, c->fp, st->c[g].fp,
                                        fa_sb_of(s, who)->reach > 0 ? fa_sb_of(s, who)->reach : 1)) {
            fa_end_grapple(r, who);
            kept = 0;
        }
        ready_after(r, who, FA_TRIG_MOVES_ADJACENT, before);
        ready_after(r, who, FA_TRIG_ENTERS_REACH, before);
    }
    if (steps > 0) {
        fa_fact_add(r, FA_FACT_MOVE, who, drag, from.x, from.y, c->fp.at.x, c->fp.at.y);
        fa_fact_more(r, total, 0);
    }
}

fray_status fa_move(fa_run *r, int who, const fray_pos *path, int n,
                    bool provokes) {
    move_steps(r, who, path, n, provokes, FA_CMD_WALK, -1, false);
    return r->failed;
}

/* ---- Applying ------------------------------------------------------------------------------ */

static void add_effect(fa_run *r, int who, fa_cond_kind kind, fa_ends ends,
                       int value) {
    fa_cond c;
    memset(&c, 0, sizeof c);
    c.kind = (uint8_t)kind;
    c.ends = (uint8_t)ends;
    c.whose = (int8_t)who;
    c.other = -1;
    c.value = (int8_t)value;
    c.source = (int8_t)who;
    c.round = r->st->round;
    if (fa_cond_add(r, who, c) != FRAY_OK)
        fa_fail(r, FRAY_ERR_RANGE);
}

static void attack_now(fa_run *r, const fa_command *cmd, bool charge) {
    /* attack.c marks an encounter or daily power spent when it is used. */
    fray_status ok = fa_attack(r, cmd, charge);
    if (ok != FRAY_OK)
        fa_fail(r, ok);
}

static void do_action(fa_run *r, const fa_command *cmd) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int who = cmd->actor;
    fa_cstate *c = &st->c[who];
    const fa_statblock *sb = fa_sb_of(s, who);
    if (cmd->kind == FA_CMD_FEINT || cmd->kind == FA_CMD_SKILL || fa_aid_is_check(cmd)) {
        /* skills.c; Use a Skill provokes (004:313, 325; option skill_provokes). */
        if (fa_skill_provokes(s, cmd)) {
            if (fa_provoke(r, who, cmd->kind) != FRAY_OK)
                return;
            if (!fa_can_act(st, who)) {
                fa_fact_add(r, FA_FACT_NO_EFFECT, who, -1, 0, 0, 0, 0);
                return;
            }
        }
        if (fa_skill_apply(r, cmd) != FRAY_OK)
            fa_fail(r, r->failed != FRAY_OK ? r->failed : FRAY_ERR_INVALID);
        return;
    }
    switch (cmd->kind) {
    case FA_CMD_ATTACK: case FA_CMD_COUP: case FA_CMD_BULL_RUSH:
    case FA_CMD_TRIP: case FA_CMD_GRAPPLE: case FA_CMD_HELD_OBJECT:
    case FA_CMD_AID: case FA_CMD_SPRAY: case FA_CMD_SUPPRESS:
        if (cmd->kind == FA_CMD_ATTACK && fa_is_teleport(s, who, cmd->power)) {
            fray_status tp = fa_teleport(r, cmd);   /* (alloy-space): no provoking */
            if (tp != FRAY_OK)
                fa_fail(r, tp);
            return;
        }
        if (ranged_or_area(s, st, cmd)) {
            if (fa_provoke(r, who, cmd->kind) != FRAY_OK)
                return;
            if (!fa_can_act(st, who)) {
                fa_fact_add(r, FA_FACT_NO_EFFECT, who, -1, 0, 0, 0, 0);
                return;
            }
        }
        /* A square named for one target: the guess at a totally concealed
         * one (L7.16, skills.c); areas name no target. */
        r->guess_given = cmd->kind == FA_CMD_ATTACK && cmd->n_targets == 1 &&
                         cmd->has_guess;
        r->guess_for = cmd->targets[0];
        r->guess = cmd->guess;
        attack_now(r, cmd, false);
        r->guess_given = false;
        if (cmd->kind == FA_CMD_GRAPPLE && c->grappling >= 0)
            c->flags |= FA_F_SUSTAINED; /* made this turn: no sustain needed (L7.17) */
        return;
    case FA_CMD_CHARGE: {
        int t = cmd->targets[0];
        move_steps(r, who, cmd->path, cmd->n_path, true, FA_CMD_CHARGE, -1, false);
        if (r->failed != FRAY_OK)
            return;
        if (fa_can_act(st, who) && !fa_has(&st->c[t], FA_C_DEAD) &&
            fa_within(s, c->fp, st->c[t].fp, melee_reach(s, st, who)))
            attack_now(r, cmd, true);
        else
            fa_fact_add(r, FA_FACT_NO_EFFECT, who, t, 0, 0, 0, 0);
        /* 004:527: charge ends its actions, unless it spends an action
         * point afterwards. */
        c->slots = 0;
        c->extra_standard = 0;
        return;
    }
    case FA_CMD_MOVE_GRAPPLED: {
        int t = c->grappling;
        int bonus = sb->mod[FA_STR] + sb->attack_bonus;
        int def = fa_defense_value(s, st, t, FA_DEF_FORTITUDE, who, false);
        if (!fa_check_vs(r, who, bonus, def)) {
            if (r->failed == FRAY_OK)
                fa_fact_add(r, FA_FACT_NO_EFFECT, who, t, 0, 0, 0, 0);
            return;
        }
        /* The mover provokes; the dragged one does not (004:639). */
        move_steps(r, who, cmd->path, cmd->n_path, true, cmd->kind, t, false);
        return;
    }
    case FA_CMD_TOTAL_DEFENSE:
        add_effect(r, who, FA_C_TOTAL_DEFENSE, FA_ENDS_START_OF_TURN, 2); /* 004:749 */
        return;
    case FA_CMD_SECOND_WIND: {
        /* fa_second_wind spends the surge and marks it used (004:681). */
        fray_status ok = fa_second_wind(r, who);
        if (ok != FRAY_OK)
            fa_fail(r, ok);
        return;
    }
    case FA_CMD_RUN:
        /* 004:667-668: from the moment it begins running. */
        add_effect(r, who, FA_C_RUNNING, FA_ENDS_START_OF_TURN, 0);
        if (r->failed == FRAY_OK)
            move_steps(r, who, cmd->path, cmd->n_path, true, cmd->kind, -1, false);
        return;
    case FA_CMD_WALK:
        move_steps(r, who, cmd->path, cmd->n_path, true, cmd->kind, -1, false);
        return;
    case FA_CMD_CRAWL:
        move_steps(r, who, cmd->path, cmd->n_path, true, cmd->kind, -1, true);
        return;
    case FA_CMD_SHIFT:
        move_steps(r, who, cmd->path, cmd->n_path, false, cmd->kind, -1, false);
        return;
    case FA_CMD_SQUEEZE:
        if (cmd->n_path == 0) {
            fa_cond_remove(r, who, FA_C_SQUEEZING, -1);
            c->fp.side = (int8_t)(s->c[who].side_len > 0 ? s->c[who].side_len : 1);
            return;
        }
        if (!fa_has(c, FA_C_SQUEEZING)) {
            add_effect(r, who, FA_C_SQUEEZING, FA_ENDS_EVENT, 0); /* 004:715 */
            if (c->fp.side > 1)
                c->fp.side--; /* 004:713: a space smaller by one */
        }
        if (r->failed == FRAY_OK)
            move_steps(r, who, cmd->path, cmd->n_path, true, cmd->kind, -1, false);
        return;
    case FA_CMD_STAND: {
        bool occupied = false;
        for (int j = 0; j < st->n && !occupied; j++)
            if (j != who && !fa_has(&st->c[j], FA_C_DEAD) && overlap(c->fp, st->c[j].fp))
                occupied = true;
        fray_pos to;
        fa_cond_remove(r, who, FA_C_PRONE, -1);
        if (cmd->n_path == 1)
            move_steps(r, who, cmd->path, 1, false, FA_CMD_SHIFT, -1, false);
        else if (occupied && stand_square(s, st, who, &to))
            move_steps(r, who, &to, 1, false, FA_CMD_SHIFT, -1, false);
        return;
    }
    case FA_CMD_ESCAPE: {
        /* 004:599: Acrobatics vs Reflex or Athletics vs Fortitude; the
         * better unless the command names one; Aid Another on the check
         * (004:429, skills.c) counted in (fa_escape_check). */
        int bonus = 0, def = 0, skill = 0, from = -1;
        if (!fa_escape_check(s, st, who, cmd->option, &bonus, &def, &skill, &from)) {
            fa_fail(r, FRAY_ERR_INVALID);
            return;
        }
        fa_skill_aid_take(r, who, skill);
        bool ok = fa_check_vs(r, who, bonus, def);
        if (r->failed != FRAY_OK)
            return;
        if (!ok) {
            fa_fact_add(r, FA_FACT_NO_EFFECT, who, from, 0, 0, 0, 0);
            return;
        }
        if (st->c[from].grappling == who)
            fa_end_grapple(r, from);
        else
            fa_cond_remove(r, who, FA_C_GRAPPLED, -1);
        if (cmd->n_path == 1 && still_moving(st, who, false))
            move_steps(r, who, cmd->path, 1, false, FA_CMD_SHIFT, -1, false);
        return;
    }
    case FA_CMD_DROP_PRONE:
        add_effect(r, who, FA_C_PRONE, FA_ENDS_EVENT, 0);
        return;
    case FA_CMD_DRAW:
        if (fa_obj_apply(r, cmd) != FRAY_OK)   /* objects.c (alloy-objects) */
            fa_fail(r, FRAY_ERR_INVALID);
        return;
    case FA_CMD_RELOAD: {
        int w = cmd->weapon >= 0 ? cmd->weapon : c->wield;
        int mag = s->weapons[sb->weapons[w].weapon].magazine;
        int want = mag - c->ammo[w];
        int load = c->spare[w] < 0 || c->spare[w] >= want ? want : c->spare[w];
        c->ammo[w] = (int16_t)(c->ammo[w] + load);
        if (c->spare[w] > 0)
            c->spare[w] = (int16_t)(c->spare[w] - load);
        fa_fact_add(r, FA_FACT_AMMO, who, -1, -load, c->ammo[w], 0, 0);
        return;
    }
    case FA_CMD_SUSTAIN:
        c->flags |= FA_F_SUSTAINED;
        return;
    case FA_CMD_END_GRAB:
        fa_end_grapple(r, who);
        return;
    case FA_CMD_SPEND_AP:
        c->ap--;
        c->ap_spent++;
        c->extra_standard++;
        fa_fact_add(r, FA_FACT_AP, who, -1, c->ap, 0, 0, 0);
        return;
    case FA_CMD_READY:
        c->ready = cmd->ready;
        add_effect(r, who, FA_C_READY, FA_ENDS_EVENT, 0);
        fa_fact_add(r, FA_FACT_READY, who, cmd->ready.who, cmd->ready.trigger, 0, 0, 0);
        c->flags |= FA_F_DONE; /* 004:653 */
        return;
    case FA_CMD_DELAY:
        if (fa_delay(r, who) != FRAY_OK)
            fa_fail(r, FRAY_ERR_INVALID);
        return;
    case FA_CMD_END_TURN:
        c->flags |= FA_F_DONE;
        return;
    default:
        fa_fail(r, FRAY_ERR_INVALID);
        return;
    }
}

fray_status fa_apply(fa_run *r, const fa_command *cmd) {
    if (r->failed != FRAY_OK)
        return r->failed;
    char why[200];
    /* (speed, issue 16) a walk's step costs kept from the check for
     * move_steps (fa_run.walk_cost) */
    bool walk = cmd->kind == FA_CMD_WALK && cmd->n_path >= 1 &&
                cmd->n_path <= FA_MAX_PATH && !r->walk_long;
    r->walk_n = 0;
    /* (speed, issue 16) the tactics' reach map, for this check only */
    const fa_reach_kept *kept = r->reach_kept;
    r->reach_kept = NULL;
    if (check_all(r->s, r->st, cmd, why, sizeof why, walk ? r->walk_cost : NULL, kept) !=
        FRAY_OK)
        return FRAY_ERR_INVALID;
    if (walk) {
        r->walk_n = cmd->n_path;
        r->walk_who = cmd->actor;
        r->walk_path = cmd->path;
    }
    fa_state *st = r->st;
    switch (cmd->kind) {
    case FA_CMD_BEGIN:
        return fa_begin(r);
    case FA_CMD_NEXT:
        return fa_next(r);
    case FA_CMD_GM:   /* (alloygm) */
        return fa_gm_apply(r, cmd);
    case FA_CMD_RESUME: {
        fray_status ok = fa_resume(r, cmd->actor);
        if (ok == FRAY_OK && !st->over)
            fa_fact_add(r, FA_FACT_ACTION, cmd->actor, -1, cmd->kind, FA_ACT_NONE, 0, 0);
        return ok != FRAY_OK ? ok : r->failed;
    }
    default:
        break;
    }
    int who = cmd->actor;
    fray_footprint before = st->c[who].fp;
    fa_action_type type = cmd_type(r->s, cmd);
    fa_action_type paid = fa_pay_from(r, who, type, (fa_action_type)cmd->slot);
    if (r->failed != FRAY_OK)
        return r->failed;
    fa_fact_add(r, FA_FACT_ACTION, who, cmd->n_targets > 0 ? cmd->targets[0] : -1,
                cmd->kind, (int32_t)paid, 0, 0);
    {   /* 004:949: the dominator chose this action (told; skills.c's ruling). */
        const fa_cond *dom = fa_cond_find(&st->c[who], FA_C_DOMINATED, -1);
        if (dom && dom->source >= 0 && dom->source != who)
            fa_fact_add(r, FA_FACT_CHOSEN, who, dom->source, 0, 0, 0, 0);
    }
    do_action(r, cmd);
    if (r->failed == FRAY_OK && attack_kind(cmd->kind) && !fa_aid_is_check(cmd))
        ready_after(r, who, FA_TRIG_ATTACKS, before);
    if (r->failed == FRAY_OK)
        fa_grapple_upkeep(r);
    if (r->failed == FRAY_OK)
        fa_seen_update(r);   /* where each side saw each one last (L7.16) */
    if (r->failed == FRAY_OK && fa_check_over(r))
        return FRAY_OK; /* the fight is over (FACT OVER told) */
    return r->failed;
}

/* The reach of a's melee basic attack when it can strike now (as
 * fa_threatens reads it), 0 when it cannot: for the view (view_reach.c). */
int fa_strike_reach(const fa_setup *s, const fa_state *st, int a) {
    if (a < 0 || a >= st->n)
        return 0;
    const fa_cstate *ca = &st->c[a];
    if (out_or_dead(ca) || fa_has(ca, FA_C_DAZED) || fa_has(ca, FA_C_STUNNED) ||
        fa_has(ca, FA_C_SURPRISED) || fa_has(ca, FA_C_UNCONSCIOUS) ||
        fa_has(ca, FA_C_HELPLESS) || fa_has(ca, FA_C_DOMINATED))
        return 0;
    const fa_weapon *w = weapon_of(s, st, a, -1);
    if (w && w->kind == FA_WK_RANGED)
        return 0;
    return melee_reach(s, st, a);
}

/* The check of an escape by who (004:599), for the apply of FA_CMD_ESCAPE
 * and the chances at the table (chances.c): Acrobatics against
 * the grappler's Reflex or Athletics against its Fortitude, the better
 * unless option names one (FA_SKILL_ACROBATICS, FA_SKILL_ATHLETICS), the
 * aid on the check counted in. false when who is held by nothing. */
bool fa_escape_check(const fa_setup *s, const fa_state *st, int who, int option,
                     int *bonus, int *defense, int *skill, int *from) {
    const fa_cstate *c = &st->c[who];
    const fa_statblock *sb = fa_sb_of(s, who);
    const fa_cond *g = fa_cond_find(c, FA_C_GRAPPLED, -1);
    if (!g || g->other < 0 || g->other >= st->n)
        return false;
    *from = g->other;
    int acro = sb->skill[FA_SKILL_ACROBATICS], ath = sb->skill[FA_SKILL_ATHLETICS];
    acro += fa_skill_aid_peek(c, FA_SKILL_ACROBATICS);
    ath += fa_skill_aid_peek(c, FA_SKILL_ATHLETICS);
    int ref = fa_defense_value(s, st, *from, FA_DEF_REFLEX, who, false);
    int fort = fa_defense_value(s, st, *from, FA_DEF_FORTITUDE, who, false);
    bool use_acro = option == FA_SKILL_ACROBATICS ||
                    (option != FA_SKILL_ATHLETICS && acro - ref >= ath - fort);
    *bonus = use_acro ? acro : ath;
    *defense = use_acro ? ref : fort;
    *skill = use_acro ? FA_SKILL_ACROBATICS : FA_SKILL_ATHLETICS;
    return true;
}

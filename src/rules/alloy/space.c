/*
 * space.c - Alloy's space beyond walking (seed 004): distances by the
 * option diagonals (L7.9), forced movement (push, pull, slide) and
 * teleporting (004:459, 976-978, 993-997, 1005), and the squares a
 * readied move, charge or area attack takes when it fires (004:643-656)
 * (alloy_int.h "Space").
 */
#include "alloy_int.h"
#include "grid_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Distances ------------------------------------------------------------------ */

int fa_range(const fa_setup *s, fray_footprint a, fray_footprint b) {
    return fray_grid_range_m(a, b, (fray_area_metric)s->opt.diagonals);
}

int fa_count(const fa_setup *s, fray_pos a, fray_pos b) {
    return fray_grid_count_m(a, b, (fray_area_metric)s->opt.diagonals);
}

/* The gap between [a0, a0 + na) and [b0, b0 + nb) counted like a
 * displacement (grid.c's): 0 when they overlap, 1 when they touch. */
static int axis_gap(int a0, int na, int b0, int nb) {
    if (b0 >= a0 + na)
        return b0 - (a0 + na - 1);
    if (a0 >= b0 + nb)
        return a0 - (b0 + nb - 1);
    return 0;
}

/* Speed (issue 16): a range is its count over the gaps along
 * each axis, never less than the larger gap and, with both gaps at most
 * 1, at most 1 (either diagonal rule: 1 + 1/2 rounds down to 1). Those
 * two cases, most of a crowd's questions, are answered from the gaps;
 * the rest ask fa_range. */
bool fa_within(const fa_setup *s, fray_footprint a, fray_footprint b, int reach) {
    int na = a.side < 1 ? 1 : a.side > 5 ? 5 : a.side;
    int nb = b.side < 1 ? 1 : b.side > 5 ? 5 : b.side;
    int gx = axis_gap(a.at.x, na, b.at.x, nb), gy = axis_gap(a.at.y, na, b.at.y, nb);
    int big = gx > gy ? gx : gy;
    bool v;
    if (big > reach)
        v = false;
    else if (big <= 1 && reach >= 1)
        v = true;
    else
        return fa_range(s, a, b) <= reach;
    assert(v == (fa_range(s, a, b) <= reach)); /* (the long way) */
    return v;
}

/* Speed (issue 16): a range is its count over the gaps between the
 * footprints along each axis, and a count is never less than the larger
 * gap (either diagonal rule), so a footprint of `side` within `reach` of
 * tf has its top-left inside this box; every square outside it is out of
 * reach. (The sides as grid.c reads them: 1 to 5.) */
void fa_within_box(fray_footprint tf, int side, int reach, int *x0, int *y0,
                   int *x1, int *y1) {
    int na = side < 1 ? 1 : side > 5 ? 5 : side;
    int nb = tf.side < 1 ? 1 : tf.side > 5 ? 5 : tf.side;
    if (reach < 0)
        reach = 0; /* (nothing is within it: fa_within still says so) */
    *x0 = tf.at.x - reach - (na - 1);
    *y0 = tf.at.y - reach - (na - 1);
    *x1 = tf.at.x + (nb - 1) + reach;
    *y1 = tf.at.y + (nb - 1) + reach;
}

/* Speed (issue 19): the index of a single square of a small map with its
 * lines tabled (fa_setup_steps), -1 otherwise. */
static int line_index(const fa_setup *s, fray_footprint f) {
    if (!s->has_lines || f.side > 1 || f.at.x < 0 || f.at.y < 0 || f.at.x >= s->map.w ||
        f.at.y >= s->map.h)
        return -1;
    return f.at.y * s->map.w + f.at.x;
}

bool fa_effect_fp(const fa_setup *s, fray_footprint a, fray_footprint b) {
    int i = line_index(s, a), j = line_index(s, b);
    if (i < 0 || j < 0)
        return fray_grid_effect_fp(&s->map, a, b);
    bool v = (s->line_effect[i][j / 64] >> (j % 64) & 1u) != 0;
    assert(v == fray_grid_effect_fp(&s->map, a, b)); /* (the long way) */
    return v;
}

bool fa_sight_fp(const fa_setup *s, fray_footprint a, fray_footprint b) {
    int i = line_index(s, a), j = line_index(s, b);
    if (i < 0 || j < 0)
        return fray_grid_sight_fp(&s->map, a, b);
    bool v = (s->line_sight[i][j / 64] >> (j % 64) & 1u) != 0;
    assert(v == fray_grid_sight_fp(&s->map, a, b)); /* (the long way) */
    return v;
}

/* ---- Narrow squares (004:713) ---------------------------------------------------------- */

bool fa_narrow_ok(const fa_setup *s, fray_footprint fp, bool squeezing) {
    if (squeezing || s->opt.narrow == FA_NARROW_OPEN)
        return true;
    return !fray_area_has_fp(&s->narrow, fp);
}

/* ---- Who stands where ------------------------------------------------------------- */

static bool overlap(fray_footprint a, fray_footprint b) {
    int sa = a.side > 0 ? a.side : 1, sb = b.side > 0 ? b.side : 1;
    return a.at.x < b.at.x + sb && b.at.x < a.at.x + sa &&
           a.at.y < b.at.y + sb && b.at.y < a.at.y + sa;
}

/* No living creature but `who` in fp, and every space of it on the map
 * and open to standing (no wall, window or pit). */
static bool free_for(const fa_setup *s, const fa_state *st, int who,
                     fray_footprint fp) {
    if (!fa_room_for(s, fp))
        return false;
    for (int j = 0; j < st->n; j++)
        if (j != who && !fa_has(&st->c[j], FA_C_DEAD) && overlap(fp, st->c[j].fp))
            return false;
    return fa_narrow_ok(s, fp, fa_has(&st->c[who], FA_C_SQUEEZING));
}

typedef struct forced_ctx {
    const fa_state *st;
    int who;
} forced_ctx;

/* A creature moved by force meets everyone as a wall (a square occupied
 * stops it); the dead are rubble it passes over. */
static fray_occupant forced_occ(void *ctx, fray_pos p) {
    const forced_ctx *o = ctx;
    for (int j = 0; j < o->st->n; j++) {
        const fa_cstate *c = &o->st->c[j];
        fray_footprint one = {p, 1};
        if (!overlap(c->fp, one))
            continue;
        if (j == o->who)
            return FRAY_OCC_SELF;
        if (!fa_has(c, FA_C_DEAD))
            return FRAY_OCC_ENEMY;
    }
    return FRAY_OCC_EMPTY;
}

/* One square of forced movement from `from` to the neighbouring top-left
 * `to`: on the map, free, and not through a wall or a wall's corner. */
static bool forced_step_ok(const fa_setup *s, const fa_state *st, int target,
                           fray_footprint from, fray_pos to, fray_reach_map *m) {
    fray_footprint fp = {to, from.side};
    if (!free_for(s, st, target, fp))
        return false;
    forced_ctx o = {st, target};
    fray__grid_reach_to(&s->map, from, 0, 4, forced_occ, &o, to, m);
    return m->cost[to.y][to.x] >= 0 && m->prev_x[to.y][to.x] == from.at.x &&
           m->prev_y[to.y][to.x] == from.at.y;
}

static int sign(int v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

/* ---- Forced movement ----------------------------------------------------------------- */

/* Is `to` a square the forced move may take from `from` (how, away from
 * or toward the mover at me)? */
static bool forced_rule(const fa_setup *s, fray_footprint me, fray_footprint from,
                        fray_pos to, int how) {
    int dx = to.x - from.at.x, dy = to.y - from.at.y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
        return false;
    fray_footprint fp = {to, from.side};
    int now = fa_range(s, me, from), d = fa_range(s, me, fp);
    if (how == FA_FORCED_PUSH)
        return d > now;
    if (how == FA_FORCED_PULL)
        return d < now && d >= 1;
    return d >= 1;
}

/* The squares the table named for this forced move (the event's command:
 * an attack by who on target alone with squares), or 0. */
static int named_squares(const fa_run *r, int who, int target, const fray_pos **out) {
    const fa_command *c = &r->ev->cmd;
    if (c->kind != FA_CMD_ATTACK || c->actor != who || c->n_targets != 1 ||
        c->targets[0] != target || c->n_path == 0 || c->power < 0)
        return 0;
    *out = c->path;
    return c->n_path;
}

fray_status fa_forced_check(const fa_setup *s, const fa_state *st,
                            const fa_command *cmd, char *why, size_t ws) {
    int who = cmd->actor;
    if (cmd->kind != FA_CMD_ATTACK || cmd->power < 0 || cmd->n_path == 0)
        return FRAY_OK;
    const fa_power *p = &fa_sb_of(s, who)->powers[cmd->power];
    if (p->area != FA_AREA_NONE)
        return FRAY_OK; /* a wall's squares */
    if (p->forced_n <= 0)
        return fa_refuse(why, ws, "%s moves nobody: it takes no squares", p->name);
    if (cmd->n_targets != 1)
        return fa_refuse(why, ws, "the squares of a forced move go with one target");
    if (cmd->n_path > p->forced_n)
        return fa_refuse(why, ws, "%s moves its target at most %d square%s, not %d", p->name,
                      p->forced_n, p->forced_n == 1 ? "" : "s", cmd->n_path);
    static const char *const verb[] = {"pushed", "pulled", "slid"};
    static const char *const rule[] = {"farther from", "nearer to", ""};
    int t = cmd->targets[0];
    fray_footprint me = st->c[who].fp, fp = st->c[t].fp;
    fray_reach_map m;
    for (int i = 0; i < cmd->n_path; i++) {
        fray_pos to = cmd->path[i];
        if (!forced_rule(s, me, fp, to, p->forced) && p->forced == FA_FORCED_SLIDE)
            return fa_refuse(why, ws, "%s cannot be slid into square (%d, %d): each square is "
                          "next to the last, outside %s's space", fa_nm(s, t), to.x, to.y,
                          fa_nm(s, who));
        if (!forced_rule(s, me, fp, to, p->forced))
            return fa_refuse(why, ws, "%s cannot be %s into square (%d, %d): each square is "
                          "next to the last and %s %s", fa_nm(s, t), verb[p->forced], to.x,
                          to.y, rule[p->forced], fa_nm(s, who));
        if (!forced_step_ok(s, st, t, fp, to, &m))
            return fa_refuse(why, ws, "%s cannot be %s into square (%d, %d): it is not free",
                          fa_nm(s, t), verb[p->forced], to.x, to.y);
        fp.at = to;
    }
    return FRAY_OK;
}

fray_status fa_forced_move(fa_run *r, int who, int target, int how, int n) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    if (r->failed != FRAY_OK)
        return r->failed;
    if (how < FA_FORCED_PUSH || how > FA_FORCED_SLIDE || n <= 0 || target < 0 ||
        target >= st->n || who < 0 || who >= st->n) {
        r->failed = FRAY_ERR_INVALID;
        return r->failed;
    }
    fa_cstate *c = &st->c[target];
    if (fa_has(c, FA_C_DEAD))
        return FRAY_OK;
    if (fa_has(c, FA_C_SNARED)) {
        /* 004:1005: a snared creature cannot be forced to move. */
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, target, FA_NOTE_SNARED, 0, 0, 0);
        return r->failed;
    }
    fray_footprint me = st->c[who].fp;
    fray_reach_map map;
    int moved = 0;
    const fray_pos *named = NULL;
    int n_named = named_squares(r, who, target, &named);
    if (n_named > 0) {
        /* the table's squares: followed until one is taken (a square that
         * became occupied since, 004:459's "stops") */
        for (int k = 0; k < n_named && k < n; k++) {
            if (!forced_rule(s, me, c->fp, named[k], how) ||
                !forced_step_ok(s, st, target, c->fp, named[k], &map))
                break;
            c->fp.at = named[k];
            moved++;
        }
        n = n_named < n ? n_named : n;
    }
    for (int k = 0; k < n && n_named == 0; k++) {
        fray_footprint from = c->fp;
        int now = fa_range(s, me, from);
        /* The straight line away from (or toward) the mover first. */
        int cx = 2 * from.at.x + from.side - (2 * me.at.x + me.side);
        int cy = 2 * from.at.y + from.side - (2 * me.at.y + me.side);
        int sx = sign(cx), sy = sign(cy);
        if (how == FA_FORCED_PULL) {
            sx = -sx;
            sy = -sy;
        }
        static const int8_t dirs[8][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0},
                                          {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
        int best = -1, best_d = 0;
        for (int i = -1; i < 8; i++) {
            int dx = i < 0 ? sx : dirs[i][0], dy = i < 0 ? sy : dirs[i][1];
            if (dx == 0 && dy == 0)
                continue;
            fray_pos to = {(int16_t)(from.at.x + dx), (int16_t)(from.at.y + dy)};
            fray_footprint fp = {to, from.side};
            int d = fa_range(s, me, fp);
            /* push and slide: farther each square; pull: nearer, never
             * into the puller's space */
            bool ok = how == FA_FORCED_PULL ? (d < now && d >= 1) : d > now;
            if (!ok)
                continue;
            bool better = best < 0 || (how == FA_FORCED_PULL ? d < best_d : d > best_d);
            if (!better || !forced_step_ok(s, st, target, from, to, &map))
                continue;
            best = i < 0 ? 8 : i;
            best_d = d;
            if (i < 0)
                break;       /* the straight line is free: taken */
        }
        if (best < 0)
            break; /* occupied or blocked: the forced move stops */
        int dx = best == 8 ? sx : dirs[best][0], dy = best == 8 ? sy : dirs[best][1];
        c->fp.at.x = (int16_t)(from.at.x + dx);
        c->fp.at.y = (int16_t)(from.at.y + dy);
        moved++;
    }
    if (moved == 0 && how == FA_FORCED_PULL && fa_range(s, me, c->fp) <= 1)
        return r->failed; /* already as near as a pull brings it */
    if (moved == 0) {
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, target, FA_NOTE_NO_ROOM, 0, 0, 0);
        return r->failed;
    }
    fa_fact_add(r, FA_FACT_PUSH, who, target, c->fp.at.x, c->fp.at.y, how, moved);
    fa_fact_more(r, n, 0);
    /* 004:618: a grapple ends when the two are no longer within reach. */
    fa_grapple_upkeep(r);
    return r->failed;
}

/* ---- Teleporting ----------------------------------------------------------------------- */

bool fa_is_teleport(const fa_setup *s, int who, int power) {
    const fa_statblock *sb = fa_sb_of(s, who);
    return power >= 0 && power < sb->n_powers && sb->powers[power].teleport > 0;
}

fray_status fa_teleport_check(const fa_setup *s, const fa_state *st,
                              const fa_command *cmd, char *why, size_t ws) {
    int who = cmd->actor;
    const fa_cstate *c = &st->c[who];
    const fa_power *p = &fa_sb_of(s, who)->powers[cmd->power];
    fray_footprint to = {cmd->origin, c->fp.side};
    if (cmd->n_targets > 0)
        return fa_refuse(why, ws, "%s targets nobody: it moves %s", p->name, fa_nm(s, who));
    if (!fray_grid_in(&s->map, cmd->origin))
        return fa_refuse(why, ws, "%s must name the square it teleports to", fa_nm(s, who));
    if (cmd->origin.x == c->fp.at.x && cmd->origin.y == c->fp.at.y)
        return fa_refuse(why, ws, "%s is already in square (%d, %d)", fa_nm(s, who),
                      cmd->origin.x, cmd->origin.y);
    int d = fa_count(s, c->fp.at, cmd->origin);
    if (d > p->teleport)
        return fa_refuse(why, ws, "square (%d, %d) is %d feet away: %s teleports at most %d feet",
                      cmd->origin.x, cmd->origin.y, d * 5, p->name, p->teleport * 5);
    if (fa_has(c, FA_C_BLINDED) || !fray_grid_sight_fp(&s->map, c->fp, to))
        return fa_refuse(why, ws, "%s cannot see square (%d, %d) to teleport there",
                      fa_nm(s, who), cmd->origin.x, cmd->origin.y);
    if (!free_for(s, st, who, to))
        return fa_refuse(why, ws, "%s cannot teleport into square (%d, %d): it is not free",
                      fa_nm(s, who), cmd->origin.x, cmd->origin.y);
    return FRAY_OK;
}

fray_status fa_teleport(fa_run *r, const fa_command *cmd) {
    int who = cmd->actor;
    fa_state *st = r->st;
    const fa_power *p = &fa_sb_of(r->s, who)->powers[cmd->power];
    if (p->usage != FA_AT_WILL)
        st->c[who].powers_used |= (uint8_t)(1u << cmd->power);
    fray_pos from = st->c[who].fp.at;
    st->c[who].fp.at = cmd->origin;
    fa_fact_add(r, FA_FACT_PUSH, who, who, cmd->origin.x, cmd->origin.y,
                FA_FORCED_TELEPORT,
                fa_count(r->s, from, cmd->origin));
    fa_fact_more(r, p->teleport, 0);
    fa_grapple_upkeep(r);
    return r->failed;
}

/* The range from fp to the nearest enemy of who (a large number: none). */
static int nearest_enemy_range(const fa_setup *s, const fa_state *st, int who,
                               fray_footprint fp) {
    int best = 1 << 20;
    for (int j = 0; j < st->n; j++) {
        const fa_cstate *c = &st->c[j];
        if (j == who || fa_allies(s, who, j) || (c->flags & FA_F_OUT) ||
            fa_has(c, FA_C_DEAD))
            continue;
        int d = fa_range(s, fp, c->fp);
        if (d < best)
            best = d;
    }
    return best;
}

bool fa_teleport_away(const fa_setup *s, const fa_state *st, int who, int power,
                      fray_pos *out) {
    if (!fa_is_teleport(s, who, power))
        return false;
    int n = fa_sb_of(s, who)->powers[power].teleport;
    fray_footprint me = st->c[who].fp;
    int best = nearest_enemy_range(s, st, who, me);
    bool found = false;
    fa_command c;
    memset(&c, 0, sizeof c);
    c.kind = FA_CMD_ATTACK;
    c.actor = (int8_t)who;
    c.power = (int8_t)power;
    for (int y = me.at.y - n; y <= me.at.y + n; y++)
        for (int x = me.at.x - n; x <= me.at.x + n; x++) {
            fray_pos p = {(int16_t)x, (int16_t)y};
            if (!fray_grid_in(&s->map, p))
                continue;
            fray_footprint fp = {p, me.side};
            int d = nearest_enemy_range(s, st, who, fp);
            if (d <= best)
                continue;
            c.origin = p;
            if (fa_teleport_check(s, st, &c, NULL, 0) != FRAY_OK)
                continue;
            best = d;
            *out = p;
            found = true;
        }
    return found;
}

/* ---- Readied moves, charges and area attacks ----------------------------------------------- */

static int melee_reach(const fa_setup *s, const fa_state *st, int who) {
    const fa_statblock *sb = fa_sb_of(s, who);
    int reach = sb->reach > 0 ? sb->reach : 1;
    int slot = st->c[who].wield;
    if (slot >= 0 && slot < sb->n_weapons) {
        const fa_weapon *w = &s->weapons[sb->weapons[slot].weapon];
        if (w->kind != FA_WK_RANGED && w->reach > reach)
            reach = w->reach;
    }
    return reach;
}

/* The readied move: the square farthest from the trigger (fewest feet
 * spent among equals), when it is farther than now. */
static bool fill_move(const fa_setup *s, const fa_state *st, int q, int t,
                      fa_command *cmd) {
    int a = fa_move_allowance(s, st, q, cmd->kind);
    if (a <= 0)
        return false;
    fray_reach_map m;
    fa_reach(s, st, q, a, &m);
    fray_footprint them = st->c[t].fp;
    int now = fa_range(s, st->c[q].fp, them);
    int bx = -1, by = -1, bd = now, bc = 0;
    for (int y = 0; y < m.h; y++)
        for (int x = 0; x < m.w; x++) {
            if (m.cost[y][x] < 0 || m.cost[y][x] > a || !m.can_stop[y][x])
                continue;
            fray_footprint fp = {{(int16_t)x, (int16_t)y}, st->c[q].fp.side};
            int d = fa_range(s, fp, them);
            if (d > bd || (d == bd && bx >= 0 && m.cost[y][x] < bc)) {
                bx = x;
                by = y;
                bd = d;
                bc = m.cost[y][x];
            }
        }
    if (bx < 0)
        return false;
    fray_pos to = {(int16_t)bx, (int16_t)by};
    int n = fray_grid_path(&m, to, cmd->path, FA_MAX_PATH);
    if (n <= 0)
        return false;
    cmd->n_path = (uint8_t)n;
    cmd->n_targets = 0;
    return true;
}

/* The readied charge at the trigger: the nearest square (at least two
 * squares away) from which the charger can attack it. */
static bool fill_charge(const fa_setup *s, const fa_state *st, int q, int t,
                        fa_command *cmd) {
    int a = fa_move_allowance(s, st, q, FA_CMD_CHARGE);
    if (a < 2)
        return false;
    fray_reach_map m;
    fa_reach(s, st, q, a, &m);
    int reach = melee_reach(s, st, q);
    fray_pos start = st->c[q].fp.at;
    int bx = -1, by = -1, bc = 0;
    for (int y = 0; y < m.h; y++)
        for (int x = 0; x < m.w; x++) {
            if (m.cost[y][x] < 0 || m.cost[y][x] > a || !m.can_stop[y][x])
                continue;
            fray_pos p = {(int16_t)x, (int16_t)y};
            fray_footprint fp = {p, st->c[q].fp.side};
            if (fa_count(s, start, p) < 2 || !fa_within(s, fp, st->c[t].fp, reach))
                continue;
            if (bx < 0 || m.cost[y][x] < bc) {
                bx = x;
                by = y;
                bc = m.cost[y][x];
            }
        }
    if (bx < 0)
        return false;
    fray_pos to = {(int16_t)bx, (int16_t)by};
    int n = fray_grid_path(&m, to, cmd->path, FA_MAX_PATH);
    if (n <= 0)
        return false;
    cmd->n_path = (uint8_t)n;
    cmd->n_targets = 1;
    cmd->targets[0] = (int8_t)t;
    cmd->option = FA_CHARGE_ATTACK;
    return true;
}

/* The readied area attack placed on the trigger: a burst centred on its
 * (top-left) square, a blast against the user's space holding it (the
 * first such placement), a close burst as it is. */
static bool fill_area(const fa_setup *s, const fa_state *st, int q, int t,
                      int kind, int size, fa_command *cmd) {
    fray_footprint me = st->c[q].fp, them = st->c[t].fp;
    cmd->n_targets = 0;
    switch (kind) {
    case FA_AREA_CLOSE_BURST:
        cmd->origin = me.at;
        return true;
    case FA_AREA_BURST:
        cmd->origin = them.at;
        return true;
    case FA_AREA_BLAST: {
        fray_pos corners[4 * (FRAY_GRID_MAX + 5)];
        int n = fray_area_blast_placements(&s->map, me, size, corners,
                                           (int)(sizeof corners / sizeof corners[0]));
        if (n > (int)(sizeof corners / sizeof corners[0]))
            n = (int)(sizeof corners / sizeof corners[0]);
        for (int i = 0; i < n; i++) {
            fray_area a;
            if (fray_area_blast(&s->map, me, size, corners[i], &a) != FRAY_OK)
                continue;
            if (fray_area_has_fp(&a, them) ||
                fray_area_has(&a, them.at)) {
                cmd->origin = corners[i];
                return true;
            }
        }
        return false;
    }
    default:
        return false; /* a wall is not readied (act.c refuses it) */
    }
}

bool fa_ready_fill(const fa_setup *s, const fa_state *st, int q, int trigger,
                   fa_command *cmd) {
    const fa_ready *rd = &st->c[q].ready;
    int t = rd->target >= 0 ? rd->target : trigger;
    if (t < 0 || t >= st->n)
        return false;
    switch (rd->kind) {
    case FA_CMD_WALK: case FA_CMD_SHIFT: case FA_CMD_RUN: case FA_CMD_CRAWL:
    case FA_CMD_SQUEEZE:
        return fill_move(s, st, q, t, cmd);
    case FA_CMD_CHARGE:
        return fill_charge(s, st, q, t, cmd);
    case FA_CMD_ATTACK: {
        const fa_statblock *sb = fa_sb_of(s, q);
        if (rd->power >= 0 && rd->power < sb->n_powers) {
            const fa_power *p = &sb->powers[rd->power];
            if (p->area != FA_AREA_NONE)
                return fill_area(s, st, q, t, p->area, p->area_size, cmd);
            return true;
        }
        int slot = st->c[q].wield;
        if (slot >= 0 && slot < sb->n_weapons) {
            const fa_weapon *w = &s->weapons[sb->weapons[slot].weapon];
            if (w->area != FA_AREA_NONE)
                return fill_area(s, st, q, t, w->area, w->area_size, cmd);
        }
        return true;
    }
    default:
        return true; /* the rest need nothing filled in */
    }
}

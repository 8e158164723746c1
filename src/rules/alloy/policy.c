/*
 * policy.c - Alloy tactics (alloy_int.h "Tactics"): the command a
 * combatant gives now, one at a time through its turn, deterministic (no
 * dice: the same state gives the same command).
 *
 * What a gamemaster would recognise, in the order the policy looks:
 *   - nothing when it cannot act (dying, stunned, surprised ...);
 *   - stand up when prone (a move action, 004:721-728);
 *   - second wind when bloodied (hp <= max / 2) with a heroic surge left
 *     and the second wind unused (004:673-681), unless aggressive;
 *   - cautious, bloodied: teleport (a teleport power) or shift away from
 *     the enemies next to it, then
 *     total defense (004:743-749), then, with the move action left and
 *     no enemy next to it, ready a walk away for when an enemy comes
 *     adjacent (004:643-656);
 *   - reload a ranged weapon that is empty (a swift action, 004:334); out
 *     of ammunition, draw a melee weapon (004:583); empty-handed with none,
 *     strike unarmed;
 *   - an area attack (a power or weapon with an area) placed where it hits
 *     two or more enemies and no ally, itself included (004:94-137);
 *   - the target: the weakest enemy it can reach this turn (lowest hit
 *     points; ties: the nearest, then the first listed); aggressive: the
 *     one it can hurt most (expected damage); an enemy already next to a
 *     melee fighter keeps it (walking away would provoke, 004:457);
 *   - ranged: shift away when an enemy is adjacent (004:90: shooting
 *     there provokes), walk into range, shoot;
 *   - melee: shift to flank when an ally is next to the target
 *     (004:794-804) and it is next to it too; charge when the target is
 *     2..speed squares away and the nearest attack square lies straight
 *     ahead (004:517-527); else walk to the nearest attack square (the
 *     flanking one first) and attack, the standard action paying for the
 *     walk when the move is spent and no attack is possible (004:289);
 *   - an action point for one more attack when the target is low (one
 *     hit's maximum can drop it; aggressive: whenever it can attack)
 *     (004:291);
 *   - end the turn.
 */
#include "alloy_int.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

/* Speed (issue 16): the allies next to target t (flanks_at,
 * ally_next_to), listed the first time they are asked for in a choice
 * (the state does not change during one). */
typedef struct flankers {
    int t;            /* whose; -1: none listed yet */
    int n;
    int8_t who[FA_MAX_COMBATANTS];
} flankers;

typedef struct pol {
    const fa_setup *s;
    const fa_state *st;
    int who;
    const fa_combatant_def *def;
    const fa_statblock *sb;
    const fa_cstate *me;
    int tactics;
    int speed;        /* what it may move now: set with the reach map (reach_of) */
    bool any_slot;    /* judge attacks as if the standard action were left */
    /* (added by alloy-skills) */
    int side;         /* whose side it fights for: its own, or its dominator's */
    bool at_will_only; /* dominated: only at-will abilities (004:949) */
    flankers *fl;     /* NULL: asked of every combatant each time */
    struct best_kept *bk; /* NULL: best_option works each one out */
    fa_reach_kept *kept; /* NULL: the reach map is not kept for the check */
} pol;

/* What one attack option is worth against one target. */
typedef struct option {
    int power;        /* -1: basic attack */
    int weapon;       /* weapon slot, -1 unarmed */
    bool ranged;
    int reach;        /* squares for melee, range for ranged */
    int action;       /* fa_action_type */
    double expected;  /* expected damage */
    int max_hit;      /* one normal hit's maximum */
} option;

/* ---- Small facts ------------------------------------------------------------ */

static bool out_of_fight(const fa_cstate *c) {
    return (c->flags & FA_F_OUT) != 0 || fa_has(c, FA_C_DEAD) ||
           fa_has(c, FA_C_DYING);
}

static bool is_enemy(const pol *p, int i) {
    return i != p->who && p->s->c[i].side != p->side &&
           !out_of_fight(&p->st->c[i]);
}

static bool is_ally(const pol *p, int i) {
    return i != p->who && p->s->c[i].side == p->side &&
           !out_of_fight(&p->st->c[i]);
}

static bool bloodied(const pol *p) {
    return p->me->hp <= p->sb->hp / 2;
}

/* The slot an action of `type` would spend now, asked of the turn code
 * (fa_can_pay: the slots left, action points' extra standard actions,
 * Dazed, a turn whose actions are over): its own slot first, then the
 * ones that trade down to it (004:289); -1 when none is left. */
static int slot_for(const pol *p, fa_action_type type) {
    if (type == FA_ACT_FREE || type == FA_ACT_NONE)
        return FA_ACT_NONE;
    if (type > FA_ACT_SWIFT)
        return -1;
    for (int k = (int)type; k >= FA_ACT_STANDARD; k--)
        if (fa_can_pay(p->st, p->who, type, (fa_action_type)k))
            return k;
    return -1;
}

/* A fresh command: every field zero but the path's squares past n_path
 * (never read; clearing them cost more than the rest of a choice). */
static void cmd_init(const pol *p, fa_command *c, fa_cmd_kind kind, int slot) {
    memset(c, 0, offsetof(fa_command, path));
    /* the readied action and whatever follows it (fields added later) */
    memset(&c->ready, 0, sizeof *c - offsetof(fa_command, ready));
    c->kind = (uint8_t)kind;
    c->actor = (int8_t)p->who;
    c->slot = (uint8_t)(slot < 0 ? FA_ACT_NONE : slot);
    c->power = -1;
    c->weapon = -1;
    /* No square and no readied action unless said (as parse.c's). */
    c->origin.x = c->origin.y = -1;
    c->ready.who = c->ready.power = c->ready.target = -1;
    c->ready.kind = FA_CMD_ATTACK;
}

static fray_footprint fp_at(const pol *p, fray_pos at) {
    fray_footprint f = p->me->fp;
    f.at = at;
    return f;
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

/* fray_grid_adjacent, here where the tactics ask it of every combatant
 * (speed, issue 16: no call into grid.c; debug builds hold it to
 * grid.c's answer): the larger gap along the axes is 1. */
static bool next_to_any(fray_footprint a, fray_footprint b);

static inline bool next_to(fray_footprint a, fray_footprint b) {
    if (a.side <= 1 && b.side <= 1) {
        /* one square each: one apart along one axis or both (speed,
         * issue 16: inline, the larger footprints in next_to_any) */
        int dx = b.at.x - a.at.x, dy = b.at.y - a.at.y;
        bool v1 = dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx != 0 || dy != 0);
        assert(v1 == fray_grid_adjacent(a, b)); /* (the long way) */
        return v1;
    }
    return next_to_any(a, b);
}

static bool next_to_any(fray_footprint a, fray_footprint b) {
    int na = a.side < 1 ? 1 : a.side > 5 ? 5 : a.side;
    int nb = b.side < 1 ? 1 : b.side > 5 ? 5 : b.side;
    int gx = axis_gap(a.at.x, na, b.at.x, nb), gy = axis_gap(a.at.y, na, b.at.y, nb);
    bool v = (gx > gy ? gx : gy) == 1;
    assert(v == fray_grid_adjacent(a, b)); /* (the long way) */
    return v;
}

/* fa_range here, where the tactics ask it of every square they weigh
 * (speed, issue 16: no call into space.c and grid.c; debug
 * builds hold it to fa_range): the count over the gaps along the axes,
 * grid.c's count_delta_m (diagonals one: the larger gap; else every
 * second diagonal counts 2, rounded down over the whole count). */
static int range_of_any(const pol *p, fray_footprint a, fray_footprint b);

static inline int range_of(const pol *p, fray_footprint a, fray_footprint b) {
    if (a.side <= 1 && b.side <= 1) {
        /* one square each (speed, issue 16: inline, the larger
         * footprints in range_of_any): the gaps are the distances */
        int gx = b.at.x - a.at.x, gy = b.at.y - a.at.y;
        gx = gx < 0 ? -gx : gx;
        gy = gy < 0 ? -gy : gy;
        int v = p->s->opt.diagonals == FRAY_AREA_SQUARE ? (gx > gy ? gx : gy)
                : gx > gy                               ? gx + gy / 2
                                                        : gy + gx / 2;
        assert(v == fa_range(p->s, a, b)); /* (the long way) */
        return v;
    }
    return range_of_any(p, a, b);
}

static int range_of_any(const pol *p, fray_footprint a, fray_footprint b) {
    int na = a.side < 1 ? 1 : a.side > 5 ? 5 : a.side;
    int nb = b.side < 1 ? 1 : b.side > 5 ? 5 : b.side;
    int gx = axis_gap(a.at.x, na, b.at.x, nb), gy = axis_gap(a.at.y, na, b.at.y, nb);
    int v = p->s->opt.diagonals == FRAY_AREA_SQUARE ? (gx > gy ? gx : gy)
            : gx > gy                               ? gx + gy / 2
                                                    : gy + gx / 2;
    assert(v == fa_range(p->s, a, b)); /* (the long way) */
    return v;
}

static bool adjacent_enemy_at(const pol *p, fray_footprint f) {
    for (int i = 0; i < p->st->n; i++)
        if (p->s->c[i].side != p->side && next_to(f, p->st->c[i].fp) && is_enemy(p, i))
            return true;
    return false;
}

/* ---- Movement ------------------------------------------------------------------ */

/* The squares it can move to this turn, worked out the first time they
 * are asked for (most turns of a fight toe to toe never ask). */
static bool can_move(const pol *p);

typedef struct lazy_map {
    pol *p;
    int max_cost;
    bool ready;
    fray_reach_map m;
} lazy_map;

static const fray_reach_map *reach_of(lazy_map *lm) {
    if (!lm->ready) {
        /* What the rules let it move now (darkness, Slowed ...): the same
         * number fa_check holds its walk and charge to; asked only when a
         * move is considered, as the map is. */
        lm->p->speed = fa_move_allowance(lm->p->s, lm->p->st, lm->p->who, FA_CMD_WALK);
        lm->max_cost = can_move(lm->p) ? lm->p->speed : 0;
        /* act.c's map (who may pass, who may stop where), so that the
         * squares chosen are the ones the rules allow. */
        fa_reach_kept *k = lm->p->kept;
        if (k) {
            /* (speed, issue 16) built where the command's check will
             * find it (fa_reach_kept) */
            fa_reach(lm->p->s, lm->p->st, lm->p->who, lm->max_cost, &k->m);
            k->valid = true;
            k->st = lm->p->st;
            k->who = lm->p->who;
            k->max_cost = lm->max_cost;
        } else {
            fa_reach(lm->p->s, lm->p->st, lm->p->who, lm->max_cost, &lm->m);
        }
        lm->ready = true;
    }
    return lm->p->kept ? &lm->p->kept->m : &lm->m;
}

/* A move command along the reach map's path to `to`. */
static bool move_cmd(const pol *p, const fray_reach_map *m, fray_pos to,
                     fa_cmd_kind kind, int slot, fa_command *out) {
    fray_pos path[FA_MAX_PATH];
    int n = fray_grid_path(m, to, path, FA_MAX_PATH);
    if (n <= 0 || n > FA_MAX_PATH)
        return false;
    cmd_init(p, out, kind, slot);
    out->n_path = (uint8_t)n;
    memcpy(out->path, path, (size_t)n * sizeof path[0]);
    return true;
}

/* Can stand with its top-left at (x, y) within cost `max`. */
static bool stand_ok(const fray_reach_map *m, int x, int y, int max) {
    return m->cost[y][x] >= 0 && m->cost[y][x] <= max && m->can_stop[y][x];
}

/* ---- Attacks ------------------------------------------------------------------- */

static double mean_dice(fa_dice d) {
    return d.n > 0 ? d.n * (d.sides + 1) / 2.0 : 0.0;
}

static double p_hit(int bonus, int defense) {
    int need = defense - bonus; /* d20 >= need */
    int faces = 21 - need;
    if (faces < 1)
        faces = 1;  /* a natural 20 always hits (004:53) */
    if (faces > 19)
        faces = 19; /* a natural 1 always misses */
    return faces / 20.0;
}

/* The basic attack with the weapon in hand or a power, on target t:
 * false when it cannot be used now (spent, no slot, no weapon, no
 * ammunition). */
static bool option_of(const pol *p, int power, int t, option *o) {
    const fa_setup *s = p->s;
    memset(o, 0, sizeof *o);
    o->power = power;
    o->weapon = p->me->wield;
    int ability, mult = 1, bonus = p->sb->attack_bonus, dmg_bonus = 0;
    fa_dice dice = {0, 0};
    fa_defense def = FA_DEF_DEFENSE;
    const fa_weapon *w = NULL;
    if (o->weapon >= 0 && o->weapon < p->sb->n_weapons) {
        const fa_sb_weapon *sw = &p->sb->weapons[o->weapon];
        if (sw->weapon >= 0 && sw->weapon < s->n_weapons)
            w = &s->weapons[sw->weapon];
        if (w && sw->proficient && power < 0)
            bonus += w->proficiency; /* 004:57 */
    }
    if (power < 0 && !w) {
        /* Empty-handed: an unarmed strike, 1d4 (attack.c's ruling). */
        ability = FA_STR;
        dice = (fa_dice){1, 4};
        o->weapon = -1;
        o->reach = p->sb->reach;
        o->action = FA_ACT_STANDARD;
    } else if (power < 0) {
        if (w->area != FA_AREA_NONE)
            return false;
        o->ranged = w->kind != FA_WK_MELEE;
        if (o->ranged && w->magazine > 0 && p->me->ammo[o->weapon] <= 0)
            return false;
        ability = o->ranged ? FA_DEX : FA_STR;
        dice = w->w;
        /* the long range is the farthest (load.c, attack.c) */
        o->reach = o->ranged ? (w->range_long > w->range_short ? w->range_long
                                                               : w->range_short)
                             : (w->reach > p->sb->reach ? w->reach : p->sb->reach);
        o->action = FA_ACT_STANDARD;
    } else {
        const fa_power *pw = &p->sb->powers[power];
        if (pw->area != FA_AREA_NONE || pw->teleport > 0)   /* a teleport is no attack */
            return false;
        if (pw->usage != FA_AT_WILL && (p->me->powers_used >> power) & 1u)
            return false;
        if (pw->usage != FA_AT_WILL && p->at_will_only)
            return false;
        ability = pw->ability;
        def = (fa_defense)pw->defense;
        mult = pw->mult; /* 0: effects only, no damage (load.c) */
        int wreach = 1;
        if (pw->weapon >= 0) {
            if (pw->weapon >= p->sb->n_weapons)
                return false;
            /* The engine takes a power with a weapon only with that weapon
             * in hand (act.c: "does not hold the ..."): not a choice now. */
            if (pw->weapon != p->me->wield)
                return false;
            o->weapon = pw->weapon;
            const fa_sb_weapon *sw = &p->sb->weapons[pw->weapon];
            if (sw->weapon < 0 || sw->weapon >= s->n_weapons)
                return false;
            dice = s->weapons[sw->weapon].w;
            wreach = s->weapons[sw->weapon].reach;
            if (sw->proficient)
                bonus += s->weapons[sw->weapon].proficiency; /* 004:57 */
        } else {
            dice = pw->dice;
        }
        bonus += pw->attack_bonus;
        dmg_bonus += pw->damage_bonus;
        o->ranged = pw->ranged;
        o->reach = pw->range > 0 ? pw->range
                                 : (wreach > p->sb->reach ? wreach : p->sb->reach);
        o->action = pw->action;
    }
    if (!p->any_slot && slot_for(p, (fa_action_type)o->action) < 0)
        return false;
    bonus += p->sb->mod[ability];
    dmg_bonus += p->sb->mod[ability];
    if (o->reach < 1)
        o->reach = 1;
    int defense = s->sb[s->c[t].sb].defense[def];
    double mean = mult > 0 ? mult * mean_dice(dice) + dmg_bonus : 0.0;
    o->expected = p_hit(bonus, defense) * (mean > 0 ? mean : 0);
    o->max_hit = mult > 0 ? mult * dice.n * dice.sides + dmg_bonus : 0;
    return true;
}

/* Speed (issue 16): best_option's last answer. option_of reads
 * the target only for its defense, from its stat block (s->c[t].sb), and
 * otherwise what does not change during one choice but p->any_slot; so
 * the answer for a target of the same stat block with the same any_slot
 * is the same (a crowd of one stat block: one answer per choice). */
typedef struct best_kept {
    bool ready;
    bool any_slot;
    int sb;           /* the target's stat block */
    bool any;         /* best_option's result */
    option o;
} best_kept;

static bool best_option_long(const pol *p, int t, option *best);

static inline bool best_option(const pol *p, int t, option *best) {
    best_kept *k = p->bk;
    if (!k)
        return best_option_long(p, t, best);
    int sb = p->s->c[t].sb;
    if (!k->ready || k->sb != sb || k->any_slot != p->any_slot) {
        k->any = best_option_long(p, t, &k->o);
        k->ready = true;
        k->sb = sb;
        k->any_slot = p->any_slot;
    }
#ifndef NDEBUG
    option o;
    bool any = best_option_long(p, t, &o); /* (the long way) */
    assert(any == k->any);
    assert(!any || (o.power == k->o.power && o.weapon == k->o.weapon &&
                    o.ranged == k->o.ranged && o.reach == k->o.reach &&
                    o.action == k->o.action && o.expected == k->o.expected &&
                    o.max_hit == k->o.max_hit));
#endif
    if (k->any)
        *best = k->o;
    return k->any;
}

/* The best attack on t now (expected damage; ties: the basic attack,
 * then the first power). */
static bool best_option_long(const pol *p, int t, option *best) {
    bool any = false;
    for (int k = -1; k < p->sb->n_powers; k++) {
        option o;
        if (!option_of(p, k, t, &o))
            continue;
        if (!any || o.expected > best->expected) {
            *best = o;
            any = true;
        }
    }
    return any;
}

/* attack_from once t is known to be within reach from f: the lines. */
static bool attack_lines(const pol *p, const option *o, fray_footprint f, int t) {
    fray_footprint tf = p->st->c[t].fp;
    /* Line of effect always (004:110, 866); sight for shooting only (a
     * fighter swings at an enemy next to it even unseen, at -5). */
    if (fa_open_neighbours(&p->s->map, f, tf))
        return true; /* grid.c's answer for neighbours on open floor */
    return fa_effect_fp(p->s, f, tf) && (!o->ranged || fa_sight_fp(p->s, f, tf));
}

/* Can attack t with o from footprint f (range, line of effect, sight). */
static bool attack_from(const pol *p, const option *o, fray_footprint f, int t) {
    if (range_of(p, f, p->st->c[t].fp) > o->reach)
        return false;
    return attack_lines(p, o, f, t);
}

/* Speed (issue 16): the squares of the reach map a scan for those within
 * o's reach of t need look at (fa_within_box, clipped to the map), in the
 * scans' order, x then y: no square outside can be within reach. */
typedef struct scan_box {
    int x0, y0, x1, y1;   /* [x0, x1) x [y0, y1) */
} scan_box;

static scan_box reach_box(const pol *p, const fray_reach_map *m, int reach, int t) {
    int x0, y0, x1, y1;
    fa_within_box(p->st->c[t].fp, p->me->fp.side, reach, &x0, &y0, &x1, &y1);
    scan_box b = {x0 > 0 ? x0 : 0, y0 > 0 ? y0 : 0, x1 + 1 < m->w ? x1 + 1 : m->w,
                  y1 + 1 < m->h ? y1 + 1 : m->h};
    return b;
}

static void attack_cmd(const pol *p, const option *o, int t, fa_command *out) {
    cmd_init(p, out, FA_CMD_ATTACK, slot_for(p, (fa_action_type)o->action));
    out->power = (int8_t)o->power;
    out->weapon = (int8_t)o->weapon;
    out->n_targets = 1;
    out->targets[0] = (int8_t)t;
}

/* ---- Areas ----------------------------------------------------------------------- */

typedef struct area_pick {
    int enemies;
    fray_pos origin;
    int n_targets;
    int8_t targets[FA_MAX_TARGETS];
} area_pick;

/* Counts who an area from `origin` affects: enemies into pick, false
 * when it affects an ally or the user. */
static bool area_count(const pol *p, const fray_area *a, fray_footprint origin,
                       area_pick *pick) {
    pick->enemies = 0;
    pick->n_targets = 0;
    for (int i = 0; i < p->st->n; i++) {
        const fa_cstate *c = &p->st->c[i];
        if (fa_has(c, FA_C_DEAD))
            continue;
        if (!fray_area_affects(&p->s->map, a, origin, c->fp))
            continue;
        if (i == p->who || p->s->c[i].side == p->side)
            return false;
        if (out_of_fight(c))
            continue;
        pick->enemies++;
        if (pick->n_targets < FA_MAX_TARGETS)
            pick->targets[pick->n_targets++] = (int8_t)i;
    }
    return true;
}

static void area_consider(const pol *p, const fray_area *a, fray_footprint origin,
                          fray_pos named, area_pick *best) {
    area_pick pk;
    if (!area_count(p, a, origin, &pk) || pk.enemies < 2 ||
        pk.enemies <= best->enemies)
        return;
    pk.origin = named;
    *best = pk;
}

/* How many of the footprints (up to two) touch the box [x0, x1] x [y0, y1]. */
static int foes_in(const fray_footprint *foes, int n, int x0, int y0, int x1,
                   int y1) {
    int near = 0;
    for (int i = 0; i < n && near < 2; i++) {
        int fs = foes[i].side > 0 ? foes[i].side : 1;
        if (foes[i].at.x <= x1 && foes[i].at.x + fs > x0 &&
            foes[i].at.y <= y1 && foes[i].at.y + fs > y0)
            near++;
    }
    return near;
}

/* The best placement of an area of kind/size/range (squares). */
static void area_best(const pol *p, int kind, int size, int range,
                      area_pick *best) {
    const fray_grid *g = &p->s->map;
    fray_footprint me = p->me->fp;
    fray_area a;
    memset(best, 0, sizeof *best);
    /* The enemies an area could count (area_count): a placement whose
     * area's bounding square touches fewer than two of them cannot be
     * chosen (area_consider wants two), so it is passed over unweighed. */
    fray_footprint foes[FA_MAX_COMBATANTS];
    int n_foes = 0;
    for (int i = 0; i < p->st->n; i++) {
        const fa_cstate *c = &p->st->c[i];
        if (i != p->who && p->s->c[i].side != p->side &&
            !fa_has(c, FA_C_DEAD) && !out_of_fight(c))
            foes[n_foes++] = c->fp;
    }
    if (n_foes < 2)
        return;
    if (kind == FA_AREA_BLAST) {
        fray_pos corners[4 * (FRAY_GRID_MAX + 5)];
        int n = fray_area_blast_placements(g, me, size, corners,
                                           (int)(sizeof corners / sizeof corners[0]));
        if (n > (int)(sizeof corners / sizeof corners[0]))
            n = (int)(sizeof corners / sizeof corners[0]);
        for (int i = 0; i < n; i++) {
            /* a blast is the square of `size` from its corner (core/area.c) */
            if (foes_in(foes, n_foes, corners[i].x, corners[i].y,
                        corners[i].x + size - 1, corners[i].y + size - 1) < 2)
                continue;
            if (fray_area_blast(g, me, size, corners[i], &a) != FRAY_OK)
                continue;
            area_consider(p, &a, me, corners[i], best);
        }
    } else if (kind == FA_AREA_CLOSE_BURST) {
        fray_area_aura(g, me, size, (fray_area_metric)p->s->opt.burst, false, &a);
        area_consider(p, &a, me, me.at, best);
    } else if (kind == FA_AREA_BURST) {
        /* A burst of `size` lies inside the square of side 2 size + 1 about
         * its origin (core/area.c, any metric). */
        for (int x = me.at.x - range; x <= me.at.x + range; x++)
            for (int y = me.at.y - range; y <= me.at.y + range; y++) {
                fray_pos o = {(int16_t)x, (int16_t)y};
                if (!fray_grid_in(g, o))
                    continue;
                if (foes_in(foes, n_foes, x - size, y - size, x + size, y + size) < 2)
                    continue;
                fray_footprint of = {o, 1};
                if (range_of(p, me, of) > range ||
                    !fa_effect_fp(p->s, me, of))
                    continue;
                fray_area_burst(g, o, size, (fray_area_metric)p->s->opt.burst, &a);
                area_consider(p, &a, of, o, best);
            }
    }
}

/* An area attack (power or area weapon in hand) hitting 2+ enemies and no
 * ally. */
static bool area_attack(const pol *p, fa_command *out) {
    area_pick best = {0};
    int best_power = -2;
    for (int k = 0; k < p->sb->n_powers; k++) {
        const fa_power *pw = &p->sb->powers[k];
        if (pw->area == FA_AREA_NONE || pw->area == FA_AREA_WALL)
            continue;
        if (pw->usage != FA_AT_WILL && (p->me->powers_used >> k) & 1u)
            continue;
        if (pw->usage != FA_AT_WILL && p->at_will_only)
            continue;
        if (slot_for(p, (fa_action_type)pw->action) < 0)
            continue;
        area_pick pk;
        area_best(p, pw->area, pw->area_size, pw->range, &pk);
        if (pk.enemies > best.enemies) {
            best = pk;
            best_power = k;
        }
    }
    int wslot = p->me->wield;
    if (wslot >= 0 && wslot < p->sb->n_weapons && slot_for(p, FA_ACT_STANDARD) >= 0) {
        int wi = p->sb->weapons[wslot].weapon;
        const fa_weapon *w = wi >= 0 && wi < p->s->n_weapons ? &p->s->weapons[wi] : NULL;
        if (w && w->area != FA_AREA_NONE && w->area != FA_AREA_WALL &&
            (w->magazine == 0 || p->me->ammo[wslot] > 0)) {
            area_pick pk;
            area_best(p, w->area, w->area_size,
                      w->range_long > w->range_short ? w->range_long : w->range_short,
                      &pk);
            if (pk.enemies > best.enemies) {
                best = pk;
                best_power = -1;
            }
        }
    }
    if (best.enemies < 2)
        return false;
    int action = best_power >= 0 ? p->sb->powers[best_power].action : FA_ACT_STANDARD;
    cmd_init(p, out, FA_CMD_ATTACK, slot_for(p, (fa_action_type)action));
    out->power = (int8_t)(best_power >= 0 ? best_power : -1);
    out->weapon = (int8_t)(best_power >= 0 ? -1 : wslot);
    out->origin = best.origin;
    out->n_targets = (uint8_t)best.n_targets;
    memcpy(out->targets, best.targets, (size_t)best.n_targets);
    /* Only what the rules allow: a magazine short of one round per
     * creature in the area (004:87, 101, 112), say, leaves the area
     * attack for another turn. */
    return fa_check(p->s, p->st, out, NULL, 0) == FRAY_OK;
}

/* ---- Choosing the target -------------------------------------------------------- */

/* The same answer by a scan of every square (cost_to_attack's way when
 * more squares than it holds are within reach). */
static int cost_to_attack_scan(const pol *p, const option *o, int t,
                               const fray_reach_map *m, fray_pos *out_at) {
    int best = -1, best_d2 = 0;
    fray_pos from = p->me->fp.at;
    for (int x = 0; x < m->w; x++)
        for (int y = 0; y < m->h; y++) {
            if (!stand_ok(m, x, y, p->speed))
                continue;
            fray_pos at = {(int16_t)x, (int16_t)y};
            int c = m->cost[y][x];
            int d2 = (x - from.x) * (x - from.x) + (y - from.y) * (y - from.y);
            if (best >= 0 && (c > best || (c == best && d2 >= best_d2)))
                continue;
            if (attack_from(p, o, fp_at(p, at), t)) {
                best = c;
                best_d2 = d2;
                *out_at = at;
            }
        }
    return best;
}

/* Squares it must move to attack t with o: 0 when it can from here, the
 * reach map's cheapest cost to an attack square, -1 none within speed. */
static int cost_to_attack(const pol *p, const option *o, int t,
                          lazy_map *lm, fray_pos *out_at) {
    if (attack_from(p, o, p->me->fp, t)) {
        *out_at = p->me->fp.at;
        return 0;
    }
    const fray_reach_map *m = reach_of(lm);
    /* Ties on cost: the straightest (least squared distance between the
     * squares' corners), so that a charge goes straight (L7.24); then the
     * first in the order x, y. The squares within reach of t are tried
     * in that order and the first from which the attack can be made is
     * the answer: the lines of effect, the costly part, are traced only
     * until then. */
    enum { CANDIDATES = 512 };
    /* Each candidate's order as one number (speed, issue 19): cost, then
     * d2 (< 2^14 on a 64x64 map), then its place in the scan (< 2^10), so
     * that the least left is found with one comparison per candidate and
     * taken out by a swap. */
    uint64_t key[CANDIDATES];
    fray_pos pos[CANDIDATES];
    int n = 0;
    fray_pos from = p->me->fp.at;
    fray_footprint tf = p->st->c[t].fp;
    scan_box box = reach_box(p, m, o->reach, t);
    for (int x = box.x0; x < box.x1; x++)
        for (int y = box.y0; y < box.y1; y++) {
            if (!stand_ok(m, x, y, p->speed))
                continue;
            fray_pos at = {(int16_t)x, (int16_t)y};
            if (range_of(p, fp_at(p, at), tf) > o->reach)
                continue;
            if (n == CANDIDATES)
                return cost_to_attack_scan(p, o, t, m, out_at);
            int d2 = (x - from.x) * (x - from.x) + (y - from.y) * (y - from.y);
            key[n] = (uint64_t)m->cost[y][x] << 32 | (uint64_t)d2 << 10 | (uint64_t)n;
            pos[n++] = at;
        }
    for (int k = 0; k < n; k++) {
        /* the least (cost, d2) left; the earliest on ties */
        int b = k;
        for (int j = k + 1; j < n; j++)
            if (key[j] < key[b])
                b = j;
        uint64_t pick = key[b];
        key[b] = key[k];
        key[k] = pick;
        fray_pos at = pos[pick & 1023u];
        if (attack_lines(p, o, fp_at(p, at), t)) { /* (within reach: above) */
            *out_at = at;
            return (int)(pick >> 32);
        }
    }
    return -1;
}

/* The target: among enemies it can attack this turn (from here, or
 * after a move within speed), the weakest (aggressive: the most expected
 * damage), ties the nearest then the first listed. A melee fighter next
 * to enemies keeps to them. -1: none reachable. The long way: every
 * enemy's cost asked in the order listed. */
static int choose_target_long(const pol *p, lazy_map *m, bool melee_locked,
                              option *out_o, bool *out_here) {
    int best = -1;
    double best_key = 0;
    int best_range = 0;
    for (int i = 0; i < p->st->n; i++) {
        if (!is_enemy(p, i))
            continue;
        option o;
        if (!best_option(p, i, &o))
            continue;
        fray_pos at;
        int cost;
        /* (its range asked once: for the attack from here and the ties) */
        int range = range_of(p, p->me->fp, p->st->c[i].fp);
        if (melee_locked) {
            /* Only the enemies it can attack from here count: cost_to_attack's
             * 0 (speed, issue 16: without the reach map, which would only
             * say how far the others are); attack_from with the range
             * known. */
            if (range > o.reach || !attack_lines(p, &o, p->me->fp, i))
                continue;
            cost = 0;
        } else {
            cost = cost_to_attack(p, &o, i, m, &at);
        }
        if (cost < 0)
            continue;
        double key = p->tactics == FA_TACTICS_AGGRESSIVE ? -o.expected
                                                         : (double)p->st->c[i].hp;
        if (best < 0 || key < best_key || (key == best_key && range < best_range)) {
            best = i;
            *out_o = o;
            *out_here = cost == 0;
            best_key = key;
            best_range = range;
        }
    }
    return best;
}

/* choose_target_long's answer (speed, issue 16): the least (key,
 * range, place in the list) among the enemies it can attack; so a fighter
 * not locked in melee asks the enemies' costs (cost_to_attack: the attack
 * squares and their lines) in that order and stops at the first it can
 * attack, instead of asking every enemy's. A fighter locked in melee
 * asks only from here, as the long way. Debug builds hold every answer to
 * the long way. */
static int choose_target(const pol *p, lazy_map *m, bool melee_locked, option *out_o,
                         bool *out_here) {
    if (melee_locked)
        return choose_target_long(p, m, true, out_o, out_here);
    struct cand {
        double key;
        int range, i;
        option o;
    } c[FA_MAX_COMBATANTS];
    int n = 0;
    for (int i = 0; i < p->st->n; i++) {
        if (!is_enemy(p, i) || !best_option(p, i, &c[n].o))
            continue;
        c[n].range = range_of(p, p->me->fp, p->st->c[i].fp);
        c[n].key = p->tactics == FA_TACTICS_AGGRESSIVE ? -c[n].o.expected
                                                       : (double)p->st->c[i].hp;
        c[n].i = i;
        n++;
    }
    int best = -1;
    for (int left = n; left > 0 && best < 0; left--) {
        /* the least (key, range) left; the first listed on ties */
        int b = 0;
        for (int j = 1; j < left; j++)
            if (c[j].key < c[b].key ||
                (c[j].key == c[b].key &&
                 (c[j].range < c[b].range || (c[j].range == c[b].range && c[j].i < c[b].i))))
                b = j;
        fray_pos at;
        int cost = cost_to_attack(p, &c[b].o, c[b].i, m, &at);
        if (cost >= 0) {
            best = c[b].i;
            *out_o = c[b].o;
            *out_here = cost == 0;
        } else {
            c[b] = c[left - 1];
        }
    }
#ifndef NDEBUG
    option lo;
    bool lh = false;
    int lt = choose_target_long(p, m, false, &lo, &lh); /* (the long way) */
    assert(lt == best);
    assert(lt < 0 || (lh == *out_here && lo.power == out_o->power &&
                      lo.weapon == out_o->weapon && lo.reach == out_o->reach &&
                      lo.expected == out_o->expected));
#endif
    return best;
}

static int nearest_enemy(const pol *p) {
    int best = -1, best_range = 0;
    for (int i = 0; i < p->st->n; i++) {
        if (!is_enemy(p, i))
            continue;
        int r = range_of(p, p->me->fp, p->st->c[i].fp);
        if (best < 0 || r < best_range) {
            best = i;
            best_range = r;
        }
    }
    return best;
}

/* The allies next to t (listed in p->fl once per choice), or NULL when
 * there is no list to keep. */
static const flankers *allies_next_to(const pol *p, int t) {
    flankers *l = p->fl;
    if (!l)
        return NULL;
    if (l->t != t) {
        l->t = t;
        l->n = 0;
        for (int i = 0; i < p->st->n; i++)
            if (p->s->c[i].side == p->side && next_to(p->st->c[i].fp, p->st->c[t].fp) &&
                is_ally(p, i))
                l->who[l->n++] = (int8_t)i;
    }
    return l;
}

/* Would standing at `at` flank t with an ally? The long way: every ally
 * next to t asked (fray_grid_flanks). */
static bool flanks_at_long(const pol *p, fray_pos at, int t) {
    fray_footprint f = fp_at(p, at);
    fray_footprint tf = p->st->c[t].fp;
    for (int i = 0; i < p->st->n; i++)
        if (is_ally(p, i) && fray_grid_adjacent(p->st->c[i].fp, tf) &&
            fray_grid_flanks(&p->s->map, tf, f, p->st->c[i].fp))
            return true;
    return false;
}

/* A footprint covers square q (its side as the map reads it: 1 to 5). */
static bool fp_holds(fray_footprint f, fray_pos q) {
    int n = f.side < 1 ? 1 : f.side > 5 ? 5 : f.side;
    return q.x >= f.at.x && q.x < f.at.x + n && q.y >= f.at.y && q.y < f.at.y + n;
}

/* flanks_at_long with the allies next to t listed once per choice, and
 * (speed, issue 16: attack.c flanking's shortcut) when the mover
 * and t fill one square each, only an ally holding the square straight
 * across t from `at` can flank with it (test_alloy_attack_speed.c holds
 * this to fray_grid_flanks), so only that one is asked. */
static bool flanks_at(const pol *p, fray_pos at, int t) {
    const flankers *l = allies_next_to(p, t);
    if (!l)
        return flanks_at_long(p, at, t);
    fray_footprint f = fp_at(p, at);
    fray_footprint tf = p->st->c[t].fp;
    bool v = false;
    if (f.side <= 1 && tf.side <= 1) {
        int dx = tf.at.x - at.x, dy = tf.at.y - at.y;
        if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx != 0 || dy != 0)) {
            fray_pos across = {(int16_t)(tf.at.x + dx), (int16_t)(tf.at.y + dy)};
            for (int k = 0; k < l->n && !v; k++) {
                fray_footprint af = p->st->c[l->who[k]].fp;
                v = fp_holds(af, across) && fray_grid_flanks(&p->s->map, tf, f, af);
            }
        }
    } else {
        for (int k = 0; k < l->n && !v; k++)
            v = fray_grid_flanks(&p->s->map, tf, f, p->st->c[l->who[k]].fp);
    }
    assert(v == flanks_at_long(p, at, t)); /* (the long way) */
    return v;
}

static bool ally_next_to(const pol *p, int t) {
    const flankers *l = allies_next_to(p, t);
    if (l)
        return l->n > 0;
    for (int i = 0; i < p->st->n; i++)
        if (is_ally(p, i) && fray_grid_adjacent(p->st->c[i].fp, p->st->c[t].fp))
            return true;
    return false;
}

/* ---- The turn ---------------------------------------------------------------------- */

static bool can_act(const fa_cstate *c) {
    return !out_of_fight(c) && !fa_has(c, FA_C_STUNNED) &&
           !fa_has(c, FA_C_SURPRISED) && !fa_has(c, FA_C_UNCONSCIOUS) &&
           !fa_has(c, FA_C_HELPLESS);
}

static bool can_move(const pol *p) {
    return !fa_has(p->me, FA_C_IMMOBILIZED) && !fa_has(p->me, FA_C_SNARED) &&
           !fa_has(p->me, FA_C_GRAPPLED) && !fa_has(p->me, FA_C_PRONE);
}

/* A shift (one square, no opportunity attacks, 004:409-418) to a square
 * that `good` approves, or false. */
typedef bool (*square_test)(const pol *p, fray_pos at, int t);

static bool shift_to(pol *p, square_test good, int t, fa_command *out) {
    int slot = slot_for(p, FA_ACT_MOVE);
    if (slot < 0 || !can_move(p) || p->me->moved > 0)
        return false;
    static const int8_t d[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1},
                                   {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    for (int k = 0; k < 8; k++) {
        fray_pos at = {(int16_t)(p->me->fp.at.x + d[k][0]),
                       (int16_t)(p->me->fp.at.y + d[k][1])};
        if (!fray_grid_in(&p->s->map, at))
            continue;
        fray_pos far = {(int16_t)(at.x + p->me->fp.side - 1),
                        (int16_t)(at.y + p->me->fp.side - 1)};
        if (!fray_grid_in(&p->s->map, far))
            continue;
        bool free_sq = true; /* open ground: a shift never enters difficult terrain */
        for (int x = at.x; x <= far.x && free_sq; x++)
            for (int y = at.y; y <= far.y && free_sq; y++)
                if (p->s->map.terrain[y][x] != FRAY_TERRAIN_OPEN)
                    free_sq = false;
        if (!free_sq || !good(p, at, t))
            continue;
        /* the single step must be possible (walls, corners), at cost 1
         * and to a square it may stop on: fa_reach's map with cost 1
         * (speed, issue 16: asked of the step alone) */
        if (!fa_one_step_ok(p->s, p->st, p->who, at))
            continue;
        cmd_init(p, out, FA_CMD_SHIFT, slot);
        out->n_path = 1;
        out->path[0] = at;
        return true;
    }
    return false;
}

static bool away_from_enemies(const pol *p, fray_pos at, int t) {
    (void)t;
    return !adjacent_enemy_at(p, fp_at(p, at));
}

static bool flanking_square(const pol *p, fray_pos at, int t) {
    return fray_grid_adjacent(fp_at(p, at), p->st->c[t].fp) && flanks_at(p, at, t);
}

/* walk_toward's best square among those of box b (in the scan's order,
 * x then y): the least score (0: an attack square, flanking when
 * flank_wanted; 1: an attack square that does not flank; 2: a shooter's
 * attack square next to an enemy; 10 + range: none), then the least
 * cost, then the first. best_cost -1: no square. */
typedef struct walk_best {
    int cost, score;
    fray_pos at;
} walk_best;

static walk_best walk_scan(const pol *p, const option *o, int t,
                           const fray_reach_map *m, scan_box b, bool flank_wanted) {
    walk_best wb = {-1, 0, p->me->fp.at};
    for (int x = b.x0; x < b.x1; x++)
        for (int y = b.y0; y < b.y1; y++) {
            if (!stand_ok(m, x, y, p->speed) || m->cost[y][x] == 0)
                continue;
            /* a square no better than the best already found (score 0,
             * the least, at no lower cost) need not be weighed */
            if (wb.cost >= 0 && wb.score == 0 && m->cost[y][x] >= wb.cost)
                continue;
            fray_pos at = {(int16_t)x, (int16_t)y};
            fray_footprint f = fp_at(p, at);
            int score;
            /* (attack_from, its range asked once for both uses) */
            int range = range_of(p, f, p->st->c[t].fp);
            if (range <= o->reach && attack_lines(p, o, f, t)) {
                score = 0;
                if (flank_wanted && !flanks_at(p, at, t))
                    score = 1;
                if (o->ranged && adjacent_enemy_at(p, f))
                    score = 2;
            } else {
                score = 10 + range;
            }
            int c = m->cost[y][x];
            if (wb.cost < 0 || score < wb.score || (score == wb.score && c < wb.cost)) {
                wb.cost = c;
                wb.score = score;
                wb.at = at;
            }
        }
    return wb;
}

/* Walks (move slot, or the standard when no attack is left to make) to
 * the best square for attacking t with o, or toward t. */
static bool walk_toward(pol *p, const option *o, int t, lazy_map *lm,
                        bool standard_ok, fa_command *out) {
    int slot = slot_for(p, FA_ACT_MOVE);
    if (slot == FA_ACT_STANDARD && !standard_ok)
        return false;
    if (slot < 0 || !can_move(p))
        return false;
    const fray_reach_map *m = reach_of(lm);
    bool flank_wanted = !o->ranged && ally_next_to(p, t);
    /* Speed (issue 16): every square scoring under 10 (an attack square)
     * is within o's reach of t, so inside reach_box, scanned in the same
     * order: when the box holds one, the best of the box is the best of
     * the map (the least score, cost and place in the scan). Else the
     * whole map is scanned (the long way). */
    scan_box all = {0, 0, m->w, m->h};
    walk_best wb = walk_scan(p, o, t, m, reach_box(p, m, o->reach, t), flank_wanted);
    if (wb.cost < 0 || wb.score >= 10)
        wb = walk_scan(p, o, t, m, all, flank_wanted);
#ifndef NDEBUG
    walk_best lw = walk_scan(p, o, t, m, all, flank_wanted); /* (the long way) */
    assert(lw.cost == wb.cost && lw.score == wb.score && lw.at.x == wb.at.x &&
           lw.at.y == wb.at.y);
#endif
    if (wb.cost < 0)
        return false;
    /* moving closer must help: not from an attack square to a worse one */
    int here = attack_from(p, o, p->me->fp, t)
                   ? 0 : 10 + range_of(p, p->me->fp, p->st->c[t].fp);
    if (wb.score >= here)
        return false;
    return move_cmd(p, m, wb.at, FA_CMD_WALK, slot, out);
}

/* Charge (004:517-527, L7.24): to the nearest square (by move cost, at
 * least 2 squares from the start) within reach of the target, when that
 * square lies straight ahead (its cost is the count from here: every step
 * shortens the count to it), is within speed and the attack can be made
 * from it (line of effect and sight). */
static bool charge(pol *p, const option *o, int t, lazy_map *lm,
                   fa_command *out) {
    if (o->ranged || o->power >= 0 || slot_for(p, FA_ACT_STANDARD) < 0 ||
        !can_move(p) || p->me->moved > 0)
        return false;
    const fray_reach_map *m = reach_of(lm);
    fray_pos from = p->me->fp.at, at = from;
    fray_footprint tf = p->st->c[t].fp;
    int best = -1, best_d2 = 0;
    scan_box box = reach_box(p, m, o->reach, t);
    for (int x = box.x0; x < box.x1; x++)
        for (int y = box.y0; y < box.y1; y++) {
            if (!stand_ok(m, x, y, p->speed))
                continue;
            fray_pos q = {(int16_t)x, (int16_t)y};
            if (fa_count(p->s, from, q) < 2 ||
                range_of(p, fp_at(p, q), tf) > o->reach)
                continue;
            int c = m->cost[y][x];
            int d2 = (x - from.x) * (x - from.x) + (y - from.y) * (y - from.y);
            if (best < 0 || c < best || (c == best && d2 < best_d2)) {
                best = c;
                best_d2 = d2;
                at = q;
            }
        }
    if (best < 2 || best > p->speed || fa_count(p->s, from, at) != best ||
        !attack_from(p, o, fp_at(p, at), t))
        return false;
    if (!move_cmd(p, m, at, FA_CMD_CHARGE, FA_ACT_STANDARD, out))
        return false;
    /* "directly": every step brings it closer to that square */
    fray_pos prev = from;
    for (int i = 0; i < out->n_path; i++) {
        if (fa_count(p->s, out->path[i], at) >= fa_count(p->s, prev, at))
            return false;
        prev = out->path[i];
    }
    out->weapon = (int8_t)o->weapon;
    out->n_targets = 1;
    out->targets[0] = (int8_t)t;
    return true;
}

static bool reload(pol *p, fa_command *out) {
    int ws = p->me->wield;
    if (ws < 0 || ws >= p->sb->n_weapons)
        return false;
    int wi = p->sb->weapons[ws].weapon;
    if (wi < 0 || wi >= p->s->n_weapons)
        return false;
    const fa_weapon *w = &p->s->weapons[wi];
    if (w->magazine <= 0 || p->me->ammo[ws] > 0 || p->me->spare[ws] == 0)
        return false;
    int slot = slot_for(p, FA_ACT_SWIFT);
    if (slot < 0)
        return false;
    cmd_init(p, out, FA_CMD_RELOAD, slot);
    out->weapon = (int8_t)ws;
    return true;
}

/* Out of ammunition (an empty magazine and none carried), or empty-
 * handed: draw the first melee weapon it carries (a swift action,
 * 004:583-589). */
static bool draw_melee(pol *p, fa_command *out) {
    int ws = p->me->wield;
    if (ws < 0 && fa_obj_taken_melee(p->s, p->st, p->who))
        return false;   /* it fights with the weapon it took (alloy-objects) */
    if (ws >= 0 && ws < p->sb->n_weapons) {
        int wi = p->sb->weapons[ws].weapon;
        if (wi < 0 || wi >= p->s->n_weapons)
            return false;
        const fa_weapon *w = &p->s->weapons[wi];
        if (w->magazine <= 0 || p->me->ammo[ws] > 0 || p->me->spare[ws] != 0)
            return false;
    }
    int slot = slot_for(p, FA_ACT_SWIFT);
    if (slot < 0)
        return false;
    /* (alloy-objects) Empty-handed after a throw, no enemy next to it: the
     * next of a thrown weapon it still carries (004:101, 112); none left,
     * it stops throwing. */
    if (ws < 0 && !adjacent_enemy_at(p, p->me->fp))
        for (int k = 0; k < p->sb->n_weapons; k++) {
            int wi = p->sb->weapons[k].weapon;
            if (wi < 0 || wi >= p->s->n_weapons || p->s->weapons[wi].kind != FA_WK_THROWN ||
                p->s->weapons[wi].area != FA_AREA_NONE || !((p->me->away >> k) & 1u) ||
                fa_obj_stowed(p->s, p->st, p->who, k) == 0)
                continue;
            cmd_init(p, out, FA_CMD_DRAW, slot);
            out->weapon = (int8_t)k;
            return true;
        }
    for (int k = 0; k < p->sb->n_weapons; k++) {
        int wi = p->sb->weapons[k].weapon;
        if (k == ws || wi < 0 || wi >= p->s->n_weapons ||
            p->s->weapons[wi].kind != FA_WK_MELEE ||
            p->s->weapons[wi].area != FA_AREA_NONE ||
            fa_obj_stowed(p->s, p->st, p->who, k) == 0 ||   /* on the floor, taken */
            (ws < 0 && strcmp(p->s->weapons[wi].id, "unarmed") == 0)) /* bare hands */
            continue;
        cmd_init(p, out, FA_CMD_DRAW, slot);
        out->weapon = (int8_t)k;
        return true;
    }
    return false;
}

/* (alloy-objects) Disarmed, its own weapon lying in reach (its square or
 * next to it): it picks it up (Manipulate an Object, a swift action,
 * 004:622-626) rather than draw another. */
static bool pick_up_own(pol *p, fa_command *out) {
    if (p->me->wield >= 0 || p->me->taken_owner1 != 0 || p->st->n_floor == 0)
        return false;
    int i = fa_obj_floor_in_reach(p->s, p->st, p->who, true);
    int slot = slot_for(p, FA_ACT_SWIFT);
    if (i < 0 || slot < 0)
        return false;
    const fa_floor_obj *o = &p->st->floor[i];
    cmd_init(p, out, FA_CMD_DRAW, slot);
    out->option = (int8_t)(FA_OBJ_PICK_UP + o->slot);
    out->n_targets = 1;
    out->targets[0] = (int8_t)p->who;
    out->origin = o->at;
    return true;
}

/* (alloy-objects) Bloodied with no second wind left (used, or no heroic
 * surge): a healing item it carries, drawn (a swift action) and then
 * consumed (a swift action bought with the move, 004:289, 531-537). */
static bool use_item(pol *p, fa_command *out) {
    if (!bloodied(p) || p->sb->n_items == 0 ||
        (p->me->surges > 0 && !(p->me->flags & FA_F_SECOND_WIND)))
        return false;
    int slot = slot_for(p, FA_ACT_SWIFT);
    if (slot < 0)
        return false;
    int k = p->me->item_hand1 - 1;
    if (k >= 0 && k < p->sb->n_items &&
        (!p->sb->items[k].surge || p->me->surges > 0)) {
        cmd_init(p, out, FA_CMD_DRAW, slot);
        out->option = (int8_t)(FA_OBJ_CONSUME + k);
        return true;
    }
    for (k = 0; k < p->sb->n_items; k++) {
        const fa_item *it = &p->sb->items[k];
        if (p->me->items_used[k] >= it->count || (it->surge && p->me->surges <= 0))
            continue;
        cmd_init(p, out, FA_CMD_DRAW, slot);
        out->option = (int8_t)(FA_OBJ_DRAW_ITEM + k);
        return true;
    }
    return false;
}

/* Stand up (a move action, 004:721-728); when someone stands where it
 * lies, with the adjust of 5 feet that goes with it (004:727-728): to a
 * free square, next to an enemy for a melee fighter, away for a shooter. */
static bool stand_up(pol *p, fa_command *out) {
    int slot = slot_for(p, FA_ACT_MOVE);
    if (slot < 0 || fa_has(p->me, FA_C_GRAPPLED))
        return false;
    bool occupied = false;
    for (int j = 0; j < p->st->n && !occupied; j++)
        if (j != p->who && !fa_has(&p->st->c[j], FA_C_DEAD) &&
            range_of(p, p->me->fp, p->st->c[j].fp) == 0)
            occupied = true;
    cmd_init(p, out, FA_CMD_STAND, slot);
    if (!occupied)
        return true;
    if (fa_has(p->me, FA_C_IMMOBILIZED) || fa_has(p->me, FA_C_SNARED))
        return false;
    int ws = p->me->wield;
    bool shooter = ws >= 0 && ws < p->sb->n_weapons &&
                   p->sb->weapons[ws].weapon >= 0 &&
                   p->sb->weapons[ws].weapon < p->s->n_weapons &&
                   p->s->weapons[p->sb->weapons[ws].weapon].kind != FA_WK_MELEE;
    fray_reach_map rm;
    fa_reach(p->s, p->st, p->who, 1, &rm);
    int best = -1;
    fray_pos best_at = p->me->fp.at;
    static const int8_t d[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1},
                                   {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    for (int k = 0; k < 8; k++) {
        fray_pos at = {(int16_t)(p->me->fp.at.x + d[k][0]),
                       (int16_t)(p->me->fp.at.y + d[k][1])};
        if (!fray_grid_in(&p->s->map, at) || rm.cost[at.y][at.x] != 1 ||
            !rm.can_stop[at.y][at.x] ||
            p->s->map.terrain[at.y][at.x] != FRAY_TERRAIN_OPEN)
            continue;
        int score = adjacent_enemy_at(p, fp_at(p, at)) != shooter ? 1 : 2;
        if (best < 0 || score < best) {
            best = score;
            best_at = at;
        }
    }
    if (best < 0)
        return false;
    out->n_path = 1;
    out->path[0] = best_at;
    return true;
}

/* (alloy-skills) The square its side last saw t at is not where t is
 * (it moved unseen: L7.16), so an attack with total concealment would
 * guess wrong. */
static bool lost_track(const pol *p, int t) {
    int side = p->side;
    if (side < 0 || side >= FA_MAX_SIDES)
        return false;
    fray_pos g = p->st->c[t].seen[side];
    fray_footprint tf = p->st->c[t].fp;
    int ts = tf.side > 0 ? tf.side : 1;
    bool stale = g.x < tf.at.x || g.x >= tf.at.x + ts || g.y < tf.at.y || g.y >= tf.at.y + ts;
    return stale && !fa_side_sees(p->s, p->st, side, t);
}

/* (alloy-skills) Feint (004:307, skills.c), conservatively: default
 * tactics (never aggressive, never cautious, never dominated) with a good
 * Bluff (+5 or more), whose standard action is left at the end of all
 * else, feint at an enemy in reach that it has no feint on yet. */
static bool feint(const pol *p, bool dominated, fa_command *out) {
    if (dominated || p->tactics != FA_TACTICS_DEFAULT ||
        p->sb->skill[FA_SKILL_BLUFF] < 5 || slot_for(p, FA_ACT_STANDARD) < 0)
        return false;
    int reach = p->sb->reach > 0 ? p->sb->reach : 1;
    for (int i = 0; i < p->st->n; i++) {
        if (!is_enemy(p, i) || fa_cond_find(p->me, FA_C_FEINTED, i) ||
            !fray_grid_within(p->me->fp, p->st->c[i].fp, reach))
            continue;
        cmd_init(p, out, FA_CMD_FEINT, FA_ACT_STANDARD);
        out->n_targets = 1;
        out->targets[0] = (int8_t)i;
        return true;
    }
    return false;
}

fray_status fa_choose_command(const fa_setup *s, const fa_state *st, int who,
                              fa_command *out) {
    return fa_choose_command_kept(s, st, who, out, NULL);
}

fray_status fa_choose_command_kept(const fa_setup *s, const fa_state *st, int who,
                                   fa_command *out, fa_reach_kept *kept) {
    if (kept)
        kept->valid = false;
    if (!s || !st || !out || who < 0 || who >= st->n)
        return FRAY_ERR_INVALID;
    flankers fl;
    fl.t = -1;
    fl.n = 0;
    best_kept bk;
    bk.ready = false;
    pol p = {.s = s, .st = st, .who = who, .def = &s->c[who],
             .sb = &s->sb[s->c[who].sb], .me = &st->c[who], .fl = &fl, .bk = &bk,
             .kept = kept};
    p.tactics = s->c[who].tactics;
    p.side = p.def->side;
    /* Dominated (004:946-949): its dominator (the effect's source) chooses
     * its one action, by the dominator's tactics, for the dominator's
     * side, with its at-will abilities only: no second wind, no action
     * point, no total defense or retreat of its own. */
    const fa_cond *dom = fa_cond_find(p.me, FA_C_DOMINATED, -1);
    bool dominated = dom && dom->source >= 0 && dom->source < st->n;
    if (dominated) {
        p.side = s->c[dom->source].side;
        p.tactics = s->c[dom->source].tactics == FA_TACTICS_CAUTIOUS
                        ? FA_TACTICS_DEFAULT : s->c[dom->source].tactics;
        p.at_will_only = true;
    }
    /* Delaying (at the table: the tactics never delay), and another's
     * turn has just ended: it comes back now (004:573-574). */
    if (st->cur != who && fa_has(p.me, FA_C_DELAYING)) {
        cmd_init(&p, out, FA_CMD_RESUME, -1);
        return FRAY_OK;
    }
    bool any_enemy = false;
    for (int i = 0; i < st->n && !any_enemy; i++)
        any_enemy = is_enemy(&p, i);
    if (!can_act(p.me) || !any_enemy) {
        cmd_init(&p, out, FA_CMD_END_TURN, -1);
        return FRAY_OK;
    }

    /* Stand up (004:721-728). */
    if (fa_has(p.me, FA_C_PRONE) && stand_up(&p, out))
        return FRAY_OK;

    /* Second wind when bloodied (004:673-681). */
    if (!dominated && p.tactics != FA_TACTICS_AGGRESSIVE && bloodied(&p) && p.me->surges > 0 &&
        !(p.me->flags & FA_F_SECOND_WIND) && slot_for(&p, FA_ACT_STANDARD) >= 0) {
        cmd_init(&p, out, FA_CMD_SECOND_WIND, FA_ACT_STANDARD);
        return FRAY_OK;
    }

    /* A healing item when second wind is spent (alloy-objects). */
    if (p.tactics != FA_TACTICS_AGGRESSIVE && use_item(&p, out))
        return FRAY_OK;

    /* Cautious and bloodied: step away, then total defense. */
    if (p.tactics == FA_TACTICS_CAUTIOUS && bloodied(&p)) {
        /* (alloy-space) a teleport power away from the enemies next to it
         * first: it provokes nothing (004:459) */
        for (int k = 0; k < p.sb->n_powers && adjacent_enemy_at(&p, p.me->fp); k++) {
            const fa_power *pw = &p.sb->powers[k];
            int ts = slot_for(&p, (fa_action_type)pw->action);
            fray_pos to;
            if (pw->teleport <= 0 || ts < 0 ||
                (pw->usage != FA_AT_WILL && ((p.me->powers_used >> k) & 1u)) ||
                !fa_teleport_away(s, st, who, k, &to))
                continue;
            cmd_init(&p, out, FA_CMD_ATTACK, ts);
            out->power = (int8_t)k;
            out->origin = to;
            return FRAY_OK;
        }
        if (adjacent_enemy_at(&p, p.me->fp) &&
            shift_to(&p, away_from_enemies, -1, out))
            return FRAY_OK;
        if (slot_for(&p, FA_ACT_STANDARD) >= 0 &&
            !fa_has(p.me, FA_C_TOTAL_DEFENSE)) {
            cmd_init(&p, out, FA_CMD_TOTAL_DEFENSE, FA_ACT_STANDARD);
            return FRAY_OK;
        }
        /* (alloy-space) the move left, no enemy next to it: a readied
         * retreat, a walk away when an enemy comes adjacent (004:655). */
        int ms = slot_for(&p, FA_ACT_MOVE);
        if (ms >= 0 && !adjacent_enemy_at(&p, p.me->fp) && !fa_has(p.me, FA_C_READY) &&
            fa_move_allowance(s, st, who, FA_CMD_WALK) > 0) {
            cmd_init(&p, out, FA_CMD_READY, ms);
            out->ready.trigger = FA_TRIG_MOVES_ADJACENT;
            out->ready.kind = FA_CMD_WALK;
            return FRAY_OK;
        }
        cmd_init(&p, out, FA_CMD_END_TURN, -1);
        return FRAY_OK;
    }

    if (reload(&p, out) || pick_up_own(&p, out) || draw_melee(&p, out))
        return FRAY_OK;
    if (area_attack(&p, out))
        return FRAY_OK;

    /* The reach map (about 33 KB, on the stack as fray_grid_reach's own
     * work is) is filled only when a move is considered. */
    lazy_map m;   /* not zeroed: 33 KB a call would cost a microsecond */
    m.p = &p;
    m.max_cost = 0; /* with p.speed, when the map is first asked for */
    m.ready = false;

    bool ranged = false;
    {
        int ws = p.me->wield;
        if (ws >= 0 && ws < p.sb->n_weapons) {
            int wi = p.sb->weapons[ws].weapon;
            ranged = wi >= 0 && wi < s->n_weapons &&
                     s->weapons[wi].kind != FA_WK_MELEE;
        }
    }
    /* Targets and squares are judged as if the standard action were left
     * (what it would do with one); the slots decide below. */
    p.any_slot = true;
    bool locked = !ranged && adjacent_enemy_at(&p, p.me->fp);
    option o;
    bool here = false;
    int t = choose_target(&p, &m, locked, &o, &here);
    if (t < 0) {
        /* No one to attack this turn: walk toward the nearest enemy. */
        t = nearest_enemy(&p);
        if (!best_option(&p, t, &o)) {
            memset(&o, 0, sizeof o);
            o.power = -1;
            o.weapon = p.me->wield;
            o.reach = 1;
        }
        p.any_slot = false;
        if (!walk_toward(&p, &o, t, &m, true, out) && !feint(&p, dominated, out))
            cmd_init(&p, out, FA_CMD_END_TURN, -1);
        return FRAY_OK;
    }
    p.any_slot = false;
    bool std = slot_for(&p, (fa_action_type)o.action) >= 0;

    if (ranged && adjacent_enemy_at(&p, p.me->fp) &&
        shift_to(&p, away_from_enemies, t, out))
        return FRAY_OK;
    if (!ranged && here && std && ally_next_to(&p, t) &&
        !flanks_at(&p, p.me->fp.at, t) && shift_to(&p, flanking_square, t, out))
        return FRAY_OK;
    if (here && std && lost_track(&p, t) &&
        fa_can_pay(st, who, FA_ACT_MOVE, FA_ACT_MOVE)) {
        /* L7.16: its side lost track of the target (it moved unseen):
         * a Notice check with the move action first (skills.c). */
        cmd_init(&p, out, FA_CMD_SKILL, FA_ACT_MOVE);
        out->option = FA_SKILL_NOTICE | FA_SKILL_AS_MOVE;
        return FRAY_OK;
    }
    if (here && std) {
        attack_cmd(&p, &o, t, out);
        return FRAY_OK;
    }
    if (!here) {
        /* A charge unless an ally waits by the target (flanking, +2, is
         * worth more than the charge's +1). */
        if (std && !ally_next_to(&p, t) && charge(&p, &o, t, &m, out))
            return FRAY_OK;
        if (walk_toward(&p, &o, t, &m, false, out))
            return FRAY_OK;
        if (std && charge(&p, &o, t, &m, out))
            return FRAY_OK;
        if (walk_toward(&p, &o, t, &m, true, out))
            return FRAY_OK;
    }

    /* The standard action spent: an action point for one more attack
     * when the target is low (aggressive: whenever it can attack). */
    if (!dominated && here && slot_for(&p, FA_ACT_STANDARD) < 0 && p.me->ap > 0 &&
        !fa_has(p.me, FA_C_DAZED) && /* 004:927: one action, no more */
        p.me->ap_spent < s->opt.ap_per_turn &&
        (p.tactics == FA_TACTICS_AGGRESSIVE || st->c[t].hp <= o.max_hit)) {
        cmd_init(&p, out, FA_CMD_SPEND_AP, -1);
        return FRAY_OK;
    }
    if (feint(&p, dominated, out))
        return FRAY_OK;
    cmd_init(&p, out, FA_CMD_END_TURN, -1);
    return FRAY_OK;
}

int fa_tactics_pick(const fa_setup *s, int who, int target, uint32_t powers_used,
                    int *out_max_hit) {
    fa_cstate me;
    memset(&me, 0, sizeof me);
    me.wield = s->c[who].wield;
    me.powers_used = (uint8_t)powers_used;
    for (int k = 0; k < FA_SB_WEAPONS; k++)
        me.ammo[k] = 1; /* (melee duels: ammunition is not read) */
    pol p = {.s = s, .who = who, .def = &s->c[who], .sb = &s->sb[s->c[who].sb],
             .me = &me, .tactics = s->c[who].tactics, .any_slot = true,
             .side = s->c[who].side};
    option o;
    if (!best_option(&p, target, &o))
        return -2;
    if (out_max_hit)
        *out_max_hit = o.max_hit;
    return o.power;
}

/*
 * quick.c - Alloy's simulation shortcut (alloy_int.h "Shortcut",
 * docs/architecture.md "Shortcuts"): a duel that qualifies runs each
 * trial through a tight loop doing exactly what the engine does -- turn.c's
 * initiative and rounds, policy.c's choice (a melee basic attack on the
 * one enemy, then the end of the turn), attack.c's roll and crits,
 * damage.c's dying and death, act.c's order of events -- with the same
 * dice drawn from the same trial stream in the same order, and leaves the
 * same state and counts. tests/unit/test_alloy_quick.c holds it to the
 * long way trial by trial; any change to those rules must keep that test
 * passing (or narrow the whitelist below).
 *
 * What the long way does in the class, turn by turn (the events):
 *   NEXT     the end of the turn under way (flags ACTED, DONE), at the
 *            order's end a new round (ACTED cleared; past the round limit
 *            the fight is over with no winner), the next turn's start
 *            (turn serial, all three actions, flags cleared);
 *   ATTACK   the standard action (acted, slots, TOOK_ACTION); d20 + bonus
 *            against Defense (004:49), natural 1 misses and 20 hits
 *            (004:53), a crit on a natural >= crit_min that would hit
 *            (004:175-181: the dice's maximum + the crit dice), else the
 *            weapon dice + Str; damage at least 0 (004:155); dead at
 *            hp <= -(max / 2) (004:211), else dying at hp <= 0 (L7.8:
 *            Dying, Unconscious, Helpless, prone); one falls: over;
 *   END_TURN (the tactics have nothing left: no move wanted, no action
 *            point) flag DONE.
 */
#include "alloy_int.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Fields the whitelist knows. A new field in one of these structs is a
 * feature the shortcut has not been taught: the build stops here until
 * its author (or the integrator) decides whether fa_quick_plan must
 * refuse it, and updates the size. (Every field is one of int8/uint8/
 * int16/char arrays: the sizes are the same on every ABI fray builds on.) */
_Static_assert(sizeof(fa_options) == 13,
               "quick.c: a new Alloy option: add it to same_options (the "
               "shortcut runs only at every default) and update this size");
_Static_assert(sizeof(fa_weapon) == 132,
               "quick.c: a new weapon field: refuse it in fa_quick_plan unless "
               "it changes nothing in a melee basic attack, then update this size");
_Static_assert(sizeof(fa_statblock) == 960,
               "quick.c: a new stat-block field: refuse it in fa_quick_plan "
               "unless it changes nothing in the class, then update this size");
_Static_assert(sizeof(fa_combatant_def) == 92,
               "quick.c: a new combatant field (a starting condition?): refuse "
               "it in fa_quick_plan, then update this size");

static bool refuse(char *why, size_t size, const char *fmt, const char *a,
                   const char *b) {
    if (why && size)
        snprintf(why, size, fmt, a, b);
    return false;
}

/* Every option at its default, field by field (and the whole struct, so
 * that a field this list does not name is not let through); the option's
 * name as encounter files write it. */
static const char *option_off_default(const fa_options *o) {
    fa_options d;
    fa_options_default(&d);
    if (o->diagonals != d.diagonals) return "diagonals";
    if (o->burst != d.burst) return "burst";
    if (o->dying != d.dying) return "dying";
    if (o->save_target != d.save_target) return "save";
    if (o->drop_prone != d.drop_prone) return "drop-prone";
    if (o->suppress_unlimited != d.suppress_unlimited) return "suppress-unlimited";
    if (o->ap_per_turn != d.ap_per_turn) return "action-points-per-turn";
    if (o->area_crit_max != d.area_crit_max) return "area-crit";
    if (o->coup_rolls != d.coup_rolls) return "coup-de-grace-rolls";
    if (o->aid_ranged_provokes != d.aid_ranged_provokes) return "aid-ranged-provokes";
    if (o->creature_cover != d.creature_cover) return "creature-cover";
    if (o->init_ties != d.init_ties) return "initiative-ties";
    if (o->surprise_action != d.surprise_action) return "surprise-action";
    /* (all one-byte fields: no padding) */
    if (memcmp(o, &d, sizeof d) != 0) return "an option quick.c does not know";
    return NULL;
}

static bool dice_ok(fa_dice d) {
    return d.n == 0 || (d.n > 0 && d.sides >= 2 && d.sides <= 100);
}

static uint32_t threshold(int sides) {
    uint32_t b = (uint32_t)(sides > 1 ? sides : 2);
    return (uint32_t)(-b) % b;
}

/* The square of a one-square footprint is plain floor. */
static bool plain_floor(const fa_setup *s, fray_footprint fp) {
    if (!fray_grid_in(&s->map, fp.at))
        return false;
    return s->map.terrain[fp.at.y][fp.at.x] == FRAY_TERRAIN_OPEN &&
           s->map.elevation[fp.at.y][fp.at.x] == 0;
}

bool fa_quick_plan(const fa_setup *s, fa_quick *out, char *why,
                   size_t why_size) {
    memset(out, 0, sizeof *out);
    if (why && why_size)
        why[0] = '\0';
    if (!s)
        return refuse(why, why_size, "no setup%s%s", "", "");
    if (s->n != 2)
        return refuse(why, why_size, "not a duel: %s%s", "not two combatants", "");
    if (s->surprise)
        return refuse(why, why_size, "a surprise round%s%s", "", "");
    const char *opt = option_off_default(&s->opt);
    if (opt)
        return refuse(why, why_size, "option %s is not at its default%s", opt, "");
    if (fray_area_count(&s->obscured) != 0 || fray_area_count(&s->dark) != 0)
        return refuse(why, why_size, "the map has obscured or dark squares%s%s", "", "");
    fray_footprint fp[2];
    for (int i = 0; i < 2; i++) {
        const fa_combatant_def *d = &s->c[i];
        const char *name = d->name;
        if (d->sb < 0 || d->sb >= s->n_sb)
            return refuse(why, why_size, "%s has no stat block%s", name, "");
        const fa_statblock *b = &s->sb[d->sb];
        if (d->side < 0 || d->side >= FA_MAX_SIDES || d->side == s->c[1 - i].side)
            return refuse(why, why_size, "%s: not one side against the other%s", name, "");
        if (!d->aware)
            return refuse(why, why_size, "%s is unaware%s", name, "");
        if (d->tactics != FA_TACTICS_DEFAULT && d->tactics != FA_TACTICS_AGGRESSIVE)
            return refuse(why, why_size, "%s has cautious tactics%s", name, "");
        if (d->side_len != 1 || b->size != FA_SIZE_MEDIUM)
            return refuse(why, why_size, "%s is not Medium%s", name, "");
        if (b->hp < 1)
            return refuse(why, why_size, "%s has no hit points%s", name, "");
        if (b->surges != 0)
            return refuse(why, why_size, "%s has heroic surges%s", name, "");
        if (b->action_points != 0)
            return refuse(why, why_size, "%s has action points%s", name, "");
        if (b->n_powers != 0)
            return refuse(why, why_size, "%s has special abilities%s", name, "");
        if (d->wield < 0 || d->wield >= b->n_weapons)
            return refuse(why, why_size, "%s has no weapon in hand%s", name, "");
        const fa_sb_weapon *sw = &b->weapons[d->wield];
        if (sw->weapon < 0 || sw->weapon >= s->n_weapons)
            return refuse(why, why_size, "%s has no weapon in hand%s", name, "");
        const fa_weapon *w = &s->weapons[sw->weapon];
        if (w->kind != FA_WK_MELEE || w->area != FA_AREA_NONE || w->autofire ||
            w->magazine != 0)
            return refuse(why, why_size, "%s's %s is not a plain melee weapon",
                          name, w->name);
        if (!dice_ok(w->w) || !dice_ok(w->crit))
            return refuse(why, why_size, "%s's %s has dice fray cannot roll",
                          name, w->name);
        fp[i].at = d->at;
        fp[i].side = 1;
        if (!plain_floor(s, fp[i]))
            return refuse(why, why_size, "%s does not stand on plain floor%s", name, "");
    }
    if (!fray_grid_adjacent(fp[0], fp[1]) || !fa_open_neighbours(&s->map, fp[0], fp[1]))
        return refuse(why, why_size, "the two are not side by side on open "
                      "ground%s%s", "", "");
    for (int i = 0; i < 2; i++) {
        const fa_combatant_def *d = &s->c[i];
        const fa_statblock *b = &s->sb[d->sb];
        const fa_sb_weapon *sw = &b->weapons[d->wield];
        const fa_weapon *w = &s->weapons[sw->weapon];
        const fa_statblock *o = &s->sb[s->c[1 - i].sb];
        out->side[i] = d->side;
        out->init_mod[i] = b->init_mod;
        out->crit_min[i] = (int8_t)(b->crit_min > 0 ? b->crit_min : 20);
        out->hp[i] = b->hp;
        out->dead_at[i] = (int16_t)(-(b->hp / 2));
        int prof = sw->proficient ? w->proficiency : 0;   /* 004:57 */
        out->bonus[i] = (int16_t)(b->mod[FA_STR] + b->attack_bonus + prof);
        out->def[i] = o->defense[FA_DEF_DEFENSE];
        out->dmg[i] = b->mod[FA_STR];
        out->w[i] = w->w;
        out->crit[i] = w->crit;
        out->dmg_max[i] = (int16_t)(w->w.n * w->w.sides + b->mod[FA_STR]);
        out->w_thr[i] = threshold(w->w.sides);
        out->crit_thr[i] = threshold(w->crit.sides);
    }
    out->round_limit = s->round_limit > 0 ? s->round_limit : 100;
    out->ok = true;
    return true;
}

/* ---- The dice: fray_rng's PCG32 and fray_rng_below, inlined ------------------- */

static inline uint32_t pcg_next(fray_rng *rng) {
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* 1..20 (the d20's threshold: 2^32 mod 20 = 16). */
static inline int d20(fray_rng *rng) {
    for (;;) {
        uint32_t r = pcg_next(rng);
        if (r >= 16u)
            return (int)(r % 20u) + 1;
    }
}

static inline int roll_sum(fray_rng *rng, fa_dice d, uint32_t thr) {
    int sum = 0;
    uint32_t sides = (uint32_t)d.sides;
    for (int k = 0; k < d.n; k++) {
        uint32_t r;
        do
            r = pcg_next(rng);
        while (r < thr);
        sum += (int)(r % sides) + 1;
    }
    return sum;
}

/* ---- The begin event -------------------------------------------------------------- */

fray_status fa_quick_begin(const fa_setup *s, const fa_quick *q, fa_state *st,
                           uint64_t seed, uint64_t trial) {
    if (!q->ok)
        return FRAY_ERR_INVALID;
    fa_state_init(s, st, seed, trial);
    /* 004:235: d20 + modifier each, in the encounter's order. */
    int i0 = d20(&st->rng) + q->init_mod[0];
    int i1 = d20(&st->rng) + q->init_mod[1];
    st->c[0].init = (int16_t)i0;
    st->c[1].init = (int16_t)i1;
    int first;
    if (i0 != i1)
        first = i0 > i1 ? 0 : 1;
    else if (q->init_mod[0] != q->init_mod[1])
        first = q->init_mod[0] > q->init_mod[1] ? 0 : 1;
    else {
        /* Still tied: a die each, again while tied, at most eight times,
         * then the encounter's order (turn.c roll_off, option init_ties). */
        first = 0;
        for (int pass = 0; pass < 8; pass++) {
            int a = d20(&st->rng), b = d20(&st->rng);
            if (a != b) {
                first = a > b ? 0 : 1;
                break;
            }
        }
    }
    fray__track_init(&st->track, FRAY__TRACK_DESCENDING);
    fray_status rc = fray__track_insert(&st->track, first, st->c[first].init, 2, NULL);
    if (rc == FRAY_OK)
        rc = fray__track_insert(&st->track, 1 - first, st->c[1 - first].init, 1, NULL);
    if (rc != FRAY_OK)
        return rc;
    fa_order_sync(st);
    st->round = 1;
    st->started = true;
    st->cur = -1;
    st->cur_pos = -1;
    st->between = false;
    return FRAY_OK;
}

/* ---- The fight -------------------------------------------------------------------- */

static void fall(fa_cstate *c, bool dead) {
    static const uint8_t dying[] = {FA_C_DYING, FA_C_UNCONSCIOUS, FA_C_HELPLESS,
                                    FA_C_PRONE};
    c->flags |= FA_F_OUT;
    int n = dead ? 1 : 4;
    for (int k = 0; k < n; k++) {
        fa_cond cd;
        memset(&cd, 0, sizeof cd);
        cd.kind = dead ? (uint8_t)FA_C_DEAD : dying[k];
        cd.ends = FA_ENDS_EVENT;
        cd.whose = -1;
        cd.other = -1;
        cd.source = -1;
        c->cond[c->n_cond++] = cd;
        c->has |= 1u << cd.kind;
    }
}

fray_status fa_quick_run(const fa_setup *s, const fa_quick *q, fa_state *st,
                         int until, const void *cancel, fa_quick_counts *out) {
    (void)s;
    memset(out, 0, sizeof *out);
    if (!q->ok || !st->started || st->over || st->n != 2 || st->round != 1 ||
        st->cur >= 0)
        return FRAY_ERR_INVALID;
    const atomic_bool *stop = cancel;
    fray_rng rng = st->rng;
    int order[2] = {st->order[0], st->order[1]};
    int hp[2] = {st->c[0].hp, st->c[1].hp};
    uint8_t flags[2] = {st->c[0].flags, st->c[1].flags};
    uint8_t slots[2] = {st->c[0].slots, st->c[1].slots};
    uint8_t acted[2] = {st->c[0].acted, st->c[1].acted};
    int round = 1, pos = -1, cur = -1, serial = st->turn_serial, events = 0;
    int lim = until > 0 ? until : s->round_limit;   /* alloy.c limit_of */
    int winner = -1, fell = -1;
    bool over = false, stopped = false, dead = false;
    const uint8_t turn_clear = (uint8_t)~(FA_F_IMMEDIATE | FA_F_SUPPRESS_FIRED |
                                          FA_F_DONE | FA_F_SUSTAINED |
                                          FA_F_TOOK_ACTION);
    for (;;) {
        /* NEXT: the end of the turn under way, a new round at the order's
         * end, the next turn's start. */
        bool wraps = pos + 1 >= 2;
        if (wraps) {
            if (round >= q->round_limit) {
                if (cur >= 0)
                    flags[cur] |= FA_F_ACTED | FA_F_DONE;
                flags[0] &= (uint8_t)~FA_F_ACTED;
                flags[1] &= (uint8_t)~FA_F_ACTED;
                cur = -1;
                over = true;
                events++;
                break;
            }
            if (lim > 0 && round + 1 > lim) {
                stopped = true;    /* the step is dropped: the state as it was */
                break;
            }
            if ((round & 255) == 0 && stop &&
                atomic_load_explicit(stop, memory_order_relaxed)) {
                st->rng = rng;
                return FRAY_ERR_CANCELED;
            }
        }
        if (cur >= 0)
            flags[cur] |= FA_F_ACTED | FA_F_DONE;
        if (wraps) {
            flags[0] &= (uint8_t)~FA_F_ACTED;
            flags[1] &= (uint8_t)~FA_F_ACTED;
            round++;
            pos = 0;
        } else {
            pos++;
        }
        int me = order[pos], you = 1 - me;
        serial++;
        slots[me] = FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT;
        acted[me] = 0;
        flags[me] &= turn_clear;
        cur = me;
        events++;
        /* ATTACK: a melee basic attack on the other. */
        acted[me] |= 1u << FA_ACT_STANDARD;
        slots[me] &= (uint8_t)~FA_SLOT_STANDARD;
        flags[me] |= FA_F_TOOK_ACTION;
        out->actions[me]++;
        out->attacks[me]++;
        events++;
        int d = d20(&rng);
        bool would = d + q->bonus[me] >= q->def[me];
        /* (a weapon without dice deals nothing, not even its Str: attack.c
         * attack_one's "effects only") */
        if ((d == 20 || (d != 1 && would)) && q->w[me].n > 0) {
            int amount;
            if (d >= q->crit_min[me] && would)
                amount = q->dmg_max[me] + roll_sum(&rng, q->crit[me], q->crit_thr[me]);
            else
                amount = roll_sum(&rng, q->w[me], q->w_thr[me]) + q->dmg[me];
            if (amount < 0)
                amount = 0;
            int after = hp[you] - amount;
            if (after < -30000)
                after = -30000;
            int lost = hp[you] - after;
            hp[you] = after;
            if (lost > 0) {
                out->taken[you] += lost;
                out->dealt[me] += lost;
            }
            if (after <= 0) {
                dead = after <= q->dead_at[you];
                fell = you;
                over = true;
                winner = q->side[me];
                cur = -1;
                break;
            }
        }
        /* END_TURN: nothing else the tactics want. */
        flags[me] |= FA_F_DONE;
        out->actions[me]++;
        out->end_turns[me]++;
        events++;
    }
    for (int i = 0; i < 2; i++) {
        fa_cstate *c = &st->c[i];
        c->hp = (int16_t)hp[i];
        c->flags = flags[i];
        c->slots = slots[i];
        c->acted = acted[i];
    }
    if (fell >= 0)
        fall(&st->c[fell], dead);
    st->rng = rng;
    st->round = (int16_t)round;
    st->turn_serial = serial;
    st->cur = (int8_t)cur;
    st->cur_pos = (int8_t)pos;
    st->over = over;
    st->winner = (int8_t)(over ? winner : -1);
    st->between = false;
    out->n_events = events;
    out->stopped = stopped;
    return FRAY_OK;
}

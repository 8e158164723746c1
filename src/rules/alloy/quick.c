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
 *   SECOND_WIND instead of the ATTACK, default tactics bloodied (hp at
 *            most max / 2) with a surge, once a fight (004:673-681): a
 *            surge's hit points, +2 to defenses to the start of its next
 *            turn;
 *   SPEND_AP, ATTACK after the standard action, an action point left and
 *            the other low (hp at most one hit's maximum; aggressive:
 *            always), one a turn (004:291, L7.12);
 *   END_TURN (the tactics have nothing left: no move wanted) flag DONE.
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
_Static_assert(sizeof(fa_options) == 20,
               "quick.c: a new Alloy option: add it to same_options (the "
               "shortcut runs only at every default) and update this size");
_Static_assert(sizeof(fa_weapon) == 132,
               "quick.c: a new weapon field: refuse it in fa_quick_plan unless "
               "it changes nothing in a melee basic attack, then update this size");
_Static_assert(sizeof(fa_statblock) == 1334,
               "quick.c: a new stat-block field: refuse it in fa_quick_plan "
               "unless it changes nothing in the class, then update this size");
_Static_assert(sizeof(fa_combatant_def) == 94,
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
    if (o->pick_up_reach != d.pick_up_reach) return "pick-up-reach";
    if (o->taken_proficiency != d.taken_proficiency) return "taken-proficiency";
    if (o->item_draw != d.item_draw) return "item-draw";
    if (o->narrow != d.narrow) return "narrow-squares";
    if (o->feint_against != d.feint_against) return "feint-against";
    if (o->skill_provokes != d.skill_provokes) return "skill-provokes";
    if (o->notice_dc != d.notice_dc) return "notice-dc";
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
    if (fray_area_count(&s->narrow) != 0)
        return refuse(why, why_size, "the map has narrow squares%s%s", "", "");
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
        if (b->n_powers != 0)
            return refuse(why, why_size, "%s has special abilities%s", name, "");
        if (b->n_items != 0)   /* (a healing item the tactics would use) */
            return refuse(why, why_size, "%s carries items%s", name, "");
        if (d->joins != 0)     /* (004:241: not there from the start) */
            return refuse(why, why_size, "%s joins the battle later%s", name, "");
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
        /* policy.c: second wind when bloodied, unless aggressive */
        out->wind[i] = d->tactics != FA_TACTICS_AGGRESSIVE && b->surges > 0;
        out->aggressive[i] = d->tactics == FA_TACTICS_AGGRESSIVE;
        out->bloodied[i] = (int16_t)(b->hp / 2);
        out->heal[i] = (int16_t)(b->surge_value > 0 ? b->surge_value : b->hp / 4);
        out->crit_thr[i] = threshold(w->crit.sides);
    }
    out->round_limit = s->round_limit > 0 ? s->round_limit : 100;
    fa_state_init(s, &out->fresh, 0, 0);
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
    /* fa_state_init(s, st, seed, trial), from the copy made once: the
     * parts a duel's state reads (the head, its two combatants, the time
     * track and what follows it). */
    (void)s;
    memcpy(st, &q->fresh, offsetof(fa_state, c));
    for (int i = 0; i < 2; i++) {
        /* (the conditions past n_cond, 0 here, are never read) */
        memcpy(&st->c[i], &q->fresh.c[i], offsetof(fa_cstate, cond));
        memcpy(&st->c[i].flags, &q->fresh.c[i].flags,
               sizeof st->c[i] - offsetof(fa_cstate, flags));
    }
    /* the track's entries are written below; what follows it as it was,
     * but for the floor's piles past n_floor (none at the start: never
     * read) */
    memcpy(&st->between, &q->fresh.between,
           offsetof(fa_state, floor) - offsetof(fa_state, between));
    fray_rng_for_trial(&st->rng, seed, trial);
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
    /* The time track (fray__track_insert's order: the higher key first,
     * equal keys the higher tie; turn.c gives tie n - place). */
    st->track.dir = FRAY__TRACK_DESCENDING;
    st->track.n = 2;
    st->track.e[0].who = (int16_t)first;
    st->track.e[0].key = st->c[first].init;
    st->track.e[0].tie = 2;
    st->track.e[1].who = (int16_t)(1 - first);
    st->track.e[1].key = st->c[1 - first].init;
    st->track.e[1].tie = 1;
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

/* The loop is written once and compiled twice (with and without second
 * wind and action points): inlined at both calls where the compiler
 * allows it. */
#if defined(__GNUC__)
#define QUICK_INLINE static inline __attribute__((always_inline))
#else
#define QUICK_INLINE static inline
#endif

/* A duel under way (fa_quick_run's locals). */
typedef struct duel {
    fray_rng rng;
    int hp[2];
    int32_t attacks[2], winds[2], taken[2], aps[2];
    /* second wind: may it still (a surge left, not used), and the round
     * its +2 to defenses was put on (0: none; it ends at the start of
     * the user's next turn) */
    bool may_wind[2];
    int wind_on[2];
    /* action points: left, and whether spent in its latest turn (its
     * acted and ap_spent at the end) */
    int ap[2];
    bool ap_last[2];
    int round, pos, me;
    bool fell;
} duel;

/* One melee basic attack of me on the other (attack.c attack_one):
 * true when the other falls (dying or dead). */
QUICK_INLINE bool strike(const fa_quick *q, duel *x, int me, bool extras) {
    int you = 1 - me;
    int d = d20(&x->rng);
    int def = q->def[me] + (extras && x->wind_on[you] ? 2 : 0);
    bool would = d + q->bonus[me] >= def;
    /* (a weapon without dice deals nothing, not even its Str: attack.c
     * attack_one's "effects only") */
    if (!((d == 20 || (d != 1 && would)) && q->w[me].n > 0))
        return false;
    int amount;
    if (d >= q->crit_min[me] && would)
        amount = q->dmg_max[me] + roll_sum(&x->rng, q->crit[me], q->crit_thr[me]);
    else
        amount = roll_sum(&x->rng, q->w[me], q->w_thr[me]) + q->dmg[me];
    if (amount <= 0)
        return false;
    int after = x->hp[you] - amount;
    if (after < -30000)
        after = -30000;
    x->taken[you] += x->hp[you] - after;
    x->hp[you] = after;
    return after <= 0;
}

/* Rounds from 1 to `last` or a fall (x->fell, x->me and x->pos say
 * whose attack in which turn); extras: someone may second-wind or has
 * action points (a constant at each call: the plain duel's loop is
 * compiled without them). */
QUICK_INLINE fray_status rounds(const fa_quick *q, duel *x, int first,
                                 int last, const atomic_bool *stop,
                                 bool extras) {
    duel l = *x;   /* (a local copy the compiler may keep in registers) */
    fray_status rc = FRAY_OK;
    for (int round = 1;; round++) {
        if ((round & 255) == 0 && stop &&
            atomic_load_explicit(stop, memory_order_relaxed)) {
            rc = FRAY_ERR_CANCELED;
            break;
        }
        int pos = 0, me = first;
        for (; pos < 2; pos++) {
            me = pos == 0 ? first : 1 - first;
            bool winded = false;
            if (extras) {
                l.wind_on[me] = 0;   /* its turn starts: its second wind's +2 ends */
                l.ap_last[me] = false;
                if (l.may_wind[me] && l.hp[me] <= q->bloodied[me]) {
                    /* 004:675-681: a surge's hit points (not above the
                     * maximum), +2 to all defenses, its standard action */
                    int h = l.hp[me] + q->heal[me];
                    l.hp[me] = h < q->hp[me] ? h : q->hp[me];
                    l.may_wind[me] = false;
                    l.wind_on[me] = round;
                    l.winds[me]++;
                    winded = true;
                }
            }
            if (!winded) {
                l.attacks[me]++;
                if (strike(q, &l, me, extras)) {
                    l.fell = true;
                    break;
                }
            }
            /* The standard action spent: an action point for one more
             * attack when the other is low (one hit's maximum can drop
             * it; aggressive: always) (004:291, policy.c). */
            if (extras && l.ap[me] > 0 &&
                (q->aggressive[me] || l.hp[1 - me] <= q->dmg_max[me])) {
                l.ap[me]--;
                l.ap_last[me] = true;
                l.aps[me]++;
                l.attacks[me]++;
                if (strike(q, &l, me, extras)) {
                    l.fell = true;
                    break;
                }
            }
        }
        if (l.fell || round >= last) {
            l.round = round;
            l.pos = pos;
            l.me = me;
            break;
        }
    }
    *x = l;
    return rc;
}

/* The fight from the begin event: round after round, each turn (in
 * initiative order) an attack on the other (NEXT, ATTACK and, unless the
 * attack ends the fight, END_TURN); the bookkeeping the long way does
 * turn by turn (flags, slots, the turn serial, the counts) is worked out
 * once at the end from how it ended. */
fray_status fa_quick_run(const fa_setup *s, const fa_quick *q, fa_state *st,
                         int until, const void *cancel, fa_quick_counts *out) {
    memset(out, 0, sizeof *out);
    if (!q->ok || !st->started || st->over || st->n != 2 || st->round != 1 ||
        st->cur >= 0)
        return FRAY_ERR_INVALID;
    duel x;
    memset(&x, 0, sizeof x);
    x.rng = st->rng;
    const int first = st->order[0];
    for (int i = 0; i < 2; i++) {
        x.hp[i] = st->c[i].hp;
        x.may_wind[i] = q->wind[i] && st->c[i].surges > 0 &&
                        !(st->c[i].flags & FA_F_SECOND_WIND);
        x.ap[i] = st->c[i].ap;
    }
    bool extras = x.may_wind[0] || x.may_wind[1] || x.ap[0] > 0 || x.ap[1] > 0;
    int lim = until > 0 ? until : s->round_limit;   /* alloy.c limit_of */
    /* The last round the fight may start: the engine's limit ends the
     * fight after round_limit (over, no winner: new_round), `until` stops
     * it before round until + 1 (not over: alloy.c's step drops it). */
    int last = q->round_limit;
    bool limit_is_until = lim > 0 && lim < last;
    if (limit_is_until)
        last = lim;
    fray_status rc = extras ? rounds(q, &x, first, last, cancel, true)
                            : rounds(q, &x, first, last, cancel, false);
    if (rc != FRAY_OK) {
        st->rng = x.rng;
        return rc;
    }
    int round = x.round, pos = x.pos, me = x.me;
    bool fell = x.fell;
    int *hp = x.hp, *wind_on = x.wind_on, *ap = x.ap;
    int32_t *winds = x.winds, *attacks = x.attacks, *taken = x.taken, *aps = x.aps;
    bool *ap_last = x.ap_last;
    fray_rng rng = x.rng;

    /* How it ended: one fell in me's attack (pos: its place); or the
     * last round ended (pos 2). */
    int turns = 2 * (round - 1) + (fell ? pos + 1 : 2);
    bool over = fell || !limit_is_until;
    int you = 1 - me;
    fa_cstate *cm = &st->c[me], *cy = &st->c[you];
    cm->hp = (int16_t)hp[me];
    cy->hp = (int16_t)hp[you];
    for (int i = 0; i < 2; i++) {
        if (!winds[i])
            continue;
        st->c[i].surges--;
        if (wind_on[i]) {
            fa_cstate *c = &st->c[i];
            fa_cond cd;
            memset(&cd, 0, sizeof cd);
            cd.kind = FA_C_SECOND_WIND;
            cd.ends = FA_ENDS_START_OF_TURN;
            cd.whose = (int8_t)i;
            cd.other = -1;
            cd.value = 2;
            cd.source = (int8_t)i;
            cd.round = (int16_t)wind_on[i];
            c->cond[c->n_cond++] = cd;
            c->has |= 1u << FA_C_SECOND_WIND;
        }
    }
    const uint8_t took_done = FA_F_TOOK_ACTION | FA_F_DONE;
    const uint8_t spent = FA_SLOT_MOVE | FA_SLOT_SWIFT;   /* after the standard action */
    if (fell) {
        /* me: its turn under way, its standard action taken */
        cm->flags = FA_F_TOOK_ACTION;
        cm->slots = spent;
        cm->acted = 1u << FA_ACT_STANDARD;
        if (turns > 1) {   /* you had a turn: its end (ACTED when this round) */
            cy->flags = (uint8_t)(took_done | (pos == 1 ? FA_F_ACTED : 0));
            cy->slots = spent;
            cy->acted = 1u << FA_ACT_STANDARD;
        }
        fall(cy, hp[you] <= q->dead_at[you]);
    } else {
        /* the round's last turn ended; the round limit's new round clears
         * ACTED (over), the drop past `until` keeps the state before it */
        for (int i = 0; i < 2; i++) {
            st->c[i].slots = spent;
            st->c[i].acted = 1u << FA_ACT_STANDARD;
            st->c[i].flags = took_done;
        }
        if (!over)
            st->c[first].flags |= FA_F_ACTED;
    }
    for (int i = 0; i < 2; i++) {
        if (winds[i])
            st->c[i].flags |= FA_F_SECOND_WIND;
        st->c[i].ap = (int8_t)ap[i];
        if (ap_last[i]) {   /* its latest turn: a free action, one point */
            st->c[i].acted |= 1u << FA_ACT_FREE;
            st->c[i].ap_spent = 1;
        }
    }
    for (int i = 0; i < 2; i++) {
        out->taken[i] = taken[i];
        out->dealt[1 - i] = out->taken[i];
        out->attacks[i] = attacks[i];
        out->winds[i] = winds[i];
        out->aps[i] = aps[i];
        /* a turn: a standard action (attack or second wind), then END_TURN */
        out->end_turns[i] = attacks[i] - aps[i] + winds[i] - (fell && i == me ? 1 : 0);
        out->actions[i] = out->attacks[i] + out->winds[i] + out->aps[i] + out->end_turns[i];
    }
    st->rng = rng;
    st->round = (int16_t)round;
    st->turn_serial += turns;
    st->cur = (int8_t)(!fell && !over ? 1 - first : -1);
    st->cur_pos = (int8_t)(fell ? pos : 1);
    st->over = over;
    st->winner = (int8_t)(fell ? q->side[me] : -1);
    st->between = false;
    /* events: a NEXT, an ATTACK and an END_TURN a turn (not the END_TURN
     * of the fall's turn), and the NEXT that found the round limit */
    out->n_events = 3 * turns + 2 * (aps[0] + aps[1]) - (fell ? 1 : 0) +
                    (!fell && over ? 1 : 0);
    out->stopped = !over;
    return FRAY_OK;
}

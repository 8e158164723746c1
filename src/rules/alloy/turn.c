/*
 * turn.c - Alloy's time (seed 004 "Combat Basics", "Initiative",
 * "Surprise", "The Combat Round", "Actions on your Turn", "Delay"):
 * initiative, the surprise round, rounds, the three parts of a turn,
 * action slots with trading down and action points, Delay, whose turn it
 * is and the end of the fight (alloy_int.h "Time").
 *
 * The initiative order is a core time track (src/core/track.h) kept in
 * st->track; st->order[] mirrors it for the rest of the ruleset.
 */
#include "alloy_int.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

/* ---- The state at the start ------------------------------------------------ */

void fa_state_init(const fa_setup *s, fa_state *st, uint64_t seed,
                   uint64_t trial) {
    /* Only what a fight of s->n combatants reads is cleared: the rest of
     * c[] is never looked at (every loop stops at st->n), and clearing the
     * whole state was a tenth of a simulated duel. */
    int n = s->n < FA_MAX_COMBATANTS ? s->n : FA_MAX_COMBATANTS;
    memset(st, 0, offsetof(fa_state, c));
    memset(st->c, 0, (size_t)(n > 0 ? n : 0) * sizeof st->c[0]);
    memset(st->turn_conds, 0, sizeof st->turn_conds);
    st->n_delaying = 0;
    st->over_seen[0] = st->over_seen[1] = 0;
    st->n_grappled = 0;
    st->grapple_begun = false;
    st->n_ready = 0;
    st->n_suppressing = 0;
    st->between = false;
    /* Those who join later (joins: N, 004:241) come last in the setup
     * (load.c): they are set up here, away, and counted in st->n when they
     * join (skills.c fa_join_round). */
    int present = n;
    while (present > 0 && s->c[present - 1].joins > 0)
        present--;
    st->n = (int8_t)present;
    st->winner = -1;
    st->cur = -1;
    st->cur_pos = -1;
    fray_rng_for_trial(&st->rng, seed, trial);
    fray__track_init(&st->track, FRAY__TRACK_DESCENDING);
    for (int i = 0; i < n; i++) {
        const fa_combatant_def *d = &s->c[i];
        const fa_statblock *sb = &s->sb[d->sb];
        fa_cstate *c = &st->c[i];
        c->absent = i >= present;
        for (int k = 0; k < FA_MAX_SIDES; k++)
            c->seen[k] = d->at;   /* known at the start (L7.16) */
        c->hp = sb->hp;
        c->surges = sb->surges;
        c->ap = sb->action_points;
        c->fp.at = d->at;
        c->fp.side = (int8_t)(d->side_len > 0 ? d->side_len : 1);
        c->oa_turn = -1;
        c->grappling = -1;
        c->wield = (int8_t)(d->wield >= 0 && d->wield < sb->n_weapons ? d->wield : -1);
        for (int w = 0; w < sb->n_weapons && w < FA_SB_WEAPONS; w++) {
            const fa_weapon *wp = &s->weapons[sb->weapons[w].weapon];
            c->ammo[w] = wp->magazine; /* a full magazine */
            c->spare[w] = sb->weapons[w].ammo;
        }
        c->ready.trigger = FA_TRIG_NONE;
        c->ready.who = -1;
        c->ready.target = -1;
    }
}

void fa_order_sync(fa_state *st) {
    st->n_order = st->track.n;
    for (int i = 0; i < st->track.n; i++) {
        const fray__track_entry *e = &st->track.e[i];
        st->order[i] = (int8_t)e->who;
        st->c[e->who].init = (int16_t)e->key;
        st->c[e->who].init_tie = (int16_t)e->tie;
    }
}

bool fa_can_act(const fa_state *st, int who) {
    const fa_cstate *c = &st->c[who];
    if (c->flags & FA_F_OUT)
        return false;
    return !(fa_has(c, FA_C_DEAD) || fa_has(c, FA_C_DYING) ||
             fa_has(c, FA_C_STUNNED) || fa_has(c, FA_C_SURPRISED) ||
             fa_has(c, FA_C_UNCONSCIOUS));
}

/* ---- The begin event: initiative and the surprise round --------------------- */

/* Sorting order before the tie dice: the check, then the modifier. */
static int init_cmp(const fa_setup *s, const fa_state *st, int a, int b) {
    int ia = st->c[a].init, ib = st->c[b].init;
    if (ia != ib)
        return ia > ib ? -1 : 1;
    int ma = s->sb[s->c[a].sb].init_mod, mb = s->sb[s->c[b].sb].init_mod;
    if (ma != mb)
        return ma > mb ? -1 : 1;
    return 0;
}

/* Seeded roll-off among idx[lo..hi) (all tied on check and modifier):
 * each rolls a d20, the higher first; those tied again roll again (up to
 * eight times, then the encounter's order). score[] gets the result. */
static void roll_off(fa_run *r, const int *idx, int lo, int hi,
                     int64_t *score) {
    for (int k = lo; k < hi; k++)
        score[idx[k]] = 0;
    bool tied[FA_MAX_COMBATANTS] = {false};
    for (int k = lo; k < hi; k++)
        tied[idx[k]] = true;
    for (int pass = 0; pass < 8; pass++) {
        bool any = false;
        for (int k = lo; k < hi; k++) {
            int who = idx[k];
            if (!tied[who])
                continue;
            int d = fa_roll(r, 20, FA_DIE_TIE, who);
            if (r->failed != FRAY_OK)
                return;
            score[who] = score[who] * 21 + d;
            fa_fact_add(r, FA_FACT_TIE, who, -1, d, 0, 0, 0);
        }
        /* Still tied: equal scores among those that rolled this pass. */
        bool again[FA_MAX_COMBATANTS] = {false};
        for (int k = lo; k < hi; k++)
            for (int j = lo; j < hi; j++)
                if (j != k && tied[idx[k]] && tied[idx[j]] &&
                    score[idx[k]] == score[idx[j]]) {
                    again[idx[k]] = true;
                    any = true;
                }
        for (int k = lo; k < hi; k++) {
            int who = idx[k];
            if (tied[who] && !again[who])
                score[who] *= 21; /* keep scale with those rolling again */
            tied[who] = again[who];
        }
        if (!any)
            return;
    }
}

fray_status fa_begin(fa_run *r) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    if (st->started)
        return FRAY_ERR_INVALID;
    int n = st->n;
    int idx[FA_MAX_COMBATANTS];
    /* 004:235: an initiative check is a Dexterity check, d20 + modifier. */
    for (int i = 0; i < n; i++) {
        int mod = s->sb[s->c[i].sb].init_mod;
        int d = fa_roll(r, 20, FA_DIE_INITIATIVE, i);
        if (r->failed != FRAY_OK)
            return r->failed;
        st->c[i].init = (int16_t)(d + mod);
        fa_fact_add(r, FA_FACT_INITIATIVE, i, -1, d, mod, d + mod, 0);
        idx[i] = i;
    }
    /* Highest first; ties by the higher modifier (004:235); stable, so the
     * encounter's order stands until the tie dice. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && init_cmp(s, st, idx[j - 1], idx[j]) > 0; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    /* "If there is still a tie, roll a die" (004:235; option init_ties). */
    int64_t score[FA_MAX_COMBATANTS] = {0};
    if (s->opt.init_ties == FA_TIES_RANDOM) {
        for (int lo = 0; lo < n;) {
            int hi = lo + 1;
            while (hi < n && init_cmp(s, st, idx[lo], idx[hi]) == 0)
                hi++;
            if (hi - lo > 1) {
                roll_off(r, idx, lo, hi, score);
                if (r->failed != FRAY_OK)
                    return r->failed;
                for (int i = lo + 1; i < hi; i++)
                    for (int j = i; j > lo && score[idx[j - 1]] < score[idx[j]]; j--) {
                        int t = idx[j];
                        idx[j] = idx[j - 1];
                        idx[j - 1] = t;
                    }
            }
            lo = hi;
        }
    }
    fray__track_init(&st->track, FRAY__TRACK_DESCENDING);
    for (int p = 0; p < n; p++) {
        int who = idx[p];
        fray_status ok = fray__track_insert(&st->track, who, st->c[who].init,
                                            n - p, NULL);
        if (ok != FRAY_OK) {
            fa_fail(r, ok);
            return ok;
        }
    }
    fa_order_sync(st);
    for (int p = 0; p < st->n_order; p++)
        fa_fact_add(r, FA_FACT_ORDER, st->order[p], -1, p, 0, 0, 0);
    /* The surprise round (004:40, 245-259): only when some but not all are
     * aware. */
    int aware = 0;
    for (int i = 0; i < n; i++)
        aware += s->c[i].aware ? 1 : 0;
    if (aware > 0 && aware < n) {
        st->round = 0;
        for (int i = 0; i < n; i++) {
            if (s->c[i].aware)
                continue;
            fa_cond c = {0};
            c.kind = FA_C_SURPRISED;
            c.ends = FA_ENDS_ROUND_END;
            c.whose = -1;
            c.other = -1;
            c.source = -1;
            c.round = 0; /* to the end of the surprise round (L2) */
            if (fa_cond_add(r, i, c) != FRAY_OK)
                return r->failed;
            fa_fact_add(r, FA_FACT_SURPRISE, i, -1, 0, 0, 0, 0);
        }
    } else {
        st->round = 1;
    }
    fa_fact_add(r, FA_FACT_ROUND, -1, -1, st->round, 0, 0, 0);
    st->started = true;
    st->cur = -1;
    st->cur_pos = -1;
    st->between = false;
    if (fa_check_over(r))
        return r->failed; /* a fight with one side is over at once */
    return r->failed;
}

/* ---- Kept counts (issue 16) ----------------------------------------------------- */

/* The conditions a turn's start or end looks for (turn_start, turn_end,
 * end_of_turn_effects, fa_delay): ending at whose's turn, or with its
 * sustain. */
static bool ends_with_turn(const fa_cond *k) {
    return k->ends == FA_ENDS_START_OF_TURN || k->ends == FA_ENDS_END_OF_TURN ||
           k->ends == FA_ENDS_USED || k->ends == FA_ENDS_SUSTAIN;
}

void fa_cond_counted(fa_state *st, const fa_cond *k, int delta) {
    if (k->kind == FA_C_DELAYING)
        st->n_delaying = (uint8_t)(st->n_delaying + delta);
    if (k->kind == FA_C_GRAPPLED)
        st->n_grappled = (uint8_t)(st->n_grappled + delta);
    if (k->kind == FA_C_READY)
        st->n_ready = (uint8_t)(st->n_ready + delta);
    if (k->kind == FA_C_SUPPRESSING)
        st->n_suppressing = (uint8_t)(st->n_suppressing + delta);
    if (ends_with_turn(k) && k->whose >= 0 && k->whose < FA_MAX_COMBATANTS)
        st->turn_conds[k->whose] = (uint16_t)(st->turn_conds[k->whose] + delta);
}

#ifndef NDEBUG
/* The long way: every condition of everyone counted again, each kind's
 * count and (who >= 0) who's turn_conds held to it. */
static void counts_check(const fa_state *st, int who) {
    int tc = 0, nd = 0, ng = 0, nr = 0, ns = 0;
    for (int j = 0; j < st->n; j++)
        for (int i = 0; i < st->c[j].n_cond; i++) {
            const fa_cond *k = &st->c[j].cond[i];
            nd += k->kind == FA_C_DELAYING;
            ng += k->kind == FA_C_GRAPPLED;
            nr += k->kind == FA_C_READY;
            ns += k->kind == FA_C_SUPPRESSING;
            tc += ends_with_turn(k) && k->whose == who;
        }
    assert(nd == st->n_delaying);
    assert(ng == st->n_grappled);
    assert(nr == st->n_ready);
    assert(ns == st->n_suppressing);
    assert(who < 0 || who >= FA_MAX_COMBATANTS || tc == st->turn_conds[who]);
}
#define COUNTS_CHECK(st, who) counts_check(st, who)
#else
#define COUNTS_CHECK(st, who) ((void)0)
#endif

/* Whether any condition on anyone ends at who's turn or with its
 * sustain: when none does, the loops over everyone's conditions at its
 * turn's start and end would find nothing. */
static bool turn_conds_of(const fa_state *st, int who) {
    COUNTS_CHECK(st, who);
    return who < 0 || who >= FA_MAX_COMBATANTS || st->turn_conds[who] > 0;
}

/* ---- Conditions that end with time -------------------------------------------- */

void fa_cond_drop(fa_run *r, int who, int i) {
    fa_cstate *c = &r->st->c[who];
    if (i < 0 || i >= c->n_cond)
        return;
    fa_cond_counted(r->st, &c->cond[i], -1);
    int kind = fray__cond_drop(c->cond, &c->n_cond, i);
    c->has = fray__cond_mask(c->cond, c->n_cond);
    if (!fa_has(c, (fa_cond_kind)kind))
        fa_fact_add(r, FA_FACT_COND_OFF, who, -1, kind, 0, 0, 0);
}

void fa_end_grapple(fa_run *r, int grappler) {
    fa_state *st = r->st;
    int t = st->c[grappler].grappling;
    st->c[grappler].grappling = -1;
    if (t >= 0)
        fa_cond_remove(r, t, FA_C_GRAPPLED, grappler);
}

/* 004:617-618: a grapple ends at once when the grappler can no longer
 * make opportunity attacks, or the target is out of its unarmed reach
 * (or gone). */
void fa_grapple_upkeep(fa_run *r) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    COUNTS_CHECK(st, -1);
    if (st->n_grappled == 0 && !st->grapple_begun) {
        /* Nobody is Grappled and no grapple was made: nobody grapples. */
#ifndef NDEBUG
        for (int g = 0; g < st->n; g++)
            assert(st->c[g].grappling < 0);
#endif
        return;
    }
    for (int g = 0; g < st->n; g++) {
        int t = st->c[g].grappling;
        if (t < 0)
            continue;
        const fa_cstate *c = &st->c[g];
        int reach = s->sb[s->c[g].sb].reach > 0 ? s->sb[s->c[g].sb].reach : 1;
        bool holds = t < st->n && !(c->flags & FA_F_OUT) &&
                     !fa_has(c, FA_C_DEAD) && !fa_has(c, FA_C_DYING) &&
                     !fa_has(c, FA_C_DAZED) && !fa_has(c, FA_C_STUNNED) &&
                     !fa_has(c, FA_C_SURPRISED) && !fa_has(c, FA_C_UNCONSCIOUS) &&
                     !fa_has(c, FA_C_HELPLESS) && !fa_has(&st->c[t], FA_C_DEAD) &&
                     fa_within(s, c->fp, st->c[t].fp, reach);
        if (!holds)
            fa_end_grapple(r, g);
    }
}

/* Effects that help the side of `who` (Delay, 004:576-578): a bonus on
 * one of its side, or a hindrance on an enemy. */
static bool bonus_kind(int kind) {
    return kind == FA_C_TOTAL_DEFENSE || kind == FA_C_SECOND_WIND ||
           kind == FA_C_AID_ATTACK || kind == FA_C_AID_DEFENSE;
}
static bool helps_side_of(const fa_setup *s, int who, int bearer, int kind) {
    bool friend = s->c[bearer].side == s->c[who].side;
    return friend ? bonus_kind(kind) : !bonus_kind(kind);
}

/* Effects "until the end of <who>'s next turn" (and used-once ones not
 * used): cond.round is the round the effect was put on (attack.c's
 * convention), and it ends at the end of who's turn in a later round, so
 * an effect made during who's own turn outlasts that turn (004:428). (One
 * made by who's immediate action earlier in the same round, before its
 * turn, lasts a round longer than the letter: round alone cannot tell.)
 * which: 0 every one, 1 only those helping who's side, 2 only the
 * others. */
static void end_of_turn_effects(fa_run *r, int who, int which) {
    fa_state *st = r->st;
    if (!turn_conds_of(st, who))
        return;
    for (int j = 0; j < st->n; j++) {
        fa_cstate *c = &st->c[j];
        for (int i = c->n_cond - 1; i >= 0; i--) {
            const fa_cond *k = &c->cond[i];
            if ((k->ends != FA_ENDS_END_OF_TURN && k->ends != FA_ENDS_USED) ||
                k->whose != who || k->round >= st->round)
                continue;
            bool helps = helps_side_of(r->s, who, j, k->kind);
            if ((which == 1 && !helps) || (which == 2 && helps))
                continue;
            fa_cond_drop(r, j, i);
        }
    }
}

/* Saving throws at the end of who's turn (004:279; L7.8: d20 >= option
 * save_target). */
static void saves(fa_run *r, int who) {
    fa_cstate *c = &r->st->c[who];
    int need = r->s->opt.save_target;
    for (int i = c->n_cond - 1; i >= 0 && r->failed == FRAY_OK; i--) {
        if (c->cond[i].ends != FA_ENDS_SAVE)
            continue;
        int kind = c->cond[i].kind;
        int d = fa_roll(r, 20, FA_DIE_SAVE, who);
        if (r->failed != FRAY_OK)
            return;
        bool saved = d >= need;
        fa_fact_add(r, FA_FACT_SAVE, who, -1, d, need, saved ? 1 : 0, kind);
        if (saved)
            fa_cond_drop(r, who, i);
    }
}

/* The end of who's turn (004:279): saving throws, the check that what
 * must be sustained was, effects ending. */
static void turn_end(fa_run *r, int who) {
    fa_state *st = r->st;
    fa_cstate *c = &st->c[who];
    /* 004:701: suppressing fire answers a standard action or no action. */
    bool none = (c->acted & ((1u << FA_ACT_STANDARD) | (1u << FA_ACT_MOVE) |
                             (1u << FA_ACT_SWIFT))) == 0;
    fray_status ok = fa_suppress_turn_end(r, who, none || (c->acted & (1u << FA_ACT_STANDARD)));
    if (ok != FRAY_OK) {
        fa_fail(r, ok);
        return;
    }
    saves(r, who);
    if (r->failed != FRAY_OK)
        return;
    /* Option dying: death-saves (skills.c): a dying combatant's death save. */
    if (fa_has(c, FA_C_DYING) && fa_death_save(r, who) != FRAY_OK)
        return;
    if (!(c->flags & FA_F_SUSTAINED)) {
        /* L7.17: a grapple not sustained this turn ends. */
        if (c->grappling >= 0)
            fa_end_grapple(r, who);
        if (turn_conds_of(st, who))
            for (int j = 0; j < st->n; j++)
                for (int i = st->c[j].n_cond - 1; i >= 0; i--)
                    if (st->c[j].cond[i].ends == FA_ENDS_SUSTAIN &&
                        st->c[j].cond[i].whose == who)
                        fa_cond_drop(r, j, i);
    }
    end_of_turn_effects(r, who, 0);
    c->flags |= FA_F_ACTED | FA_F_DONE;
}

/* The start of who's turn (004:277): ongoing damage, then effects ending
 * "at the start of <who>'s next turn", a readied action not used is
 * wasted (004:651), then its actions: standard, move and swift (004:278),
 * one immediate action again (L7.13). */
static void turn_start(fa_run *r, int who) {
    fa_state *st = r->st;
    fa_cstate *c = &st->c[who];
    st->turn_serial++;
    fa_fact_add(r, FA_FACT_TURN, who, -1, st->round, 0, 0, 0);
    int dmg[FA_MAX_CONDS], n_dmg = 0;
    for (int i = 0; i < c->n_cond; i++)
        if (c->cond[i].kind == FA_C_ONGOING)
            dmg[n_dmg++] = c->cond[i].value;
    for (int i = 0; i < n_dmg && !(c->flags & FA_F_OUT) &&
                    !fa_has(c, FA_C_DEAD); i++) {
        fa_fact_add(r, FA_FACT_ONGOING, who, -1, dmg[i], 0, 0, 0);
        fray_status ok = fa_damage(r, -1, who, dmg[i]);
        if (ok != FRAY_OK) {
            fa_fail(r, ok);
            return;
        }
    }
    if (turn_conds_of(st, who))
        for (int j = 0; j < st->n; j++)
            for (int i = st->c[j].n_cond - 1; i >= 0; i--)
                if (st->c[j].cond[i].ends == FA_ENDS_START_OF_TURN &&
                    st->c[j].cond[i].whose == who)
                    fa_cond_drop(r, j, i);
    if (fa_has(c, FA_C_READY)) {
        fa_fact_add(r, FA_FACT_LOST, who, -1, 1, 0, 0, 0);
        fa_cond_remove(r, who, FA_C_READY, -1);
    }
    c->ready.trigger = FA_TRIG_NONE;
    c->slots = st->round == 0 ? (FA_SLOT_STANDARD | FA_SLOT_MOVE)
                              : (FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT);
    c->extra_standard = 0;
    c->acted = 0;
    c->ap_spent = 0;
    c->moved = 0;
    c->flags &= (uint8_t)~(FA_F_IMMEDIATE | FA_F_SUPPRESS_FIRED | FA_F_DONE |
                           FA_F_SUSTAINED | FA_F_TOOK_ACTION);
}

/* ---- Delay ---------------------------------------------------------------------- */

fray_status fa_delay(fa_run *r, int who) {
    fa_state *st = r->st;
    fa_cond c = {0};
    c.kind = FA_C_DELAYING;
    c.ends = FA_ENDS_EVENT;
    c.whose = (int8_t)who;
    c.other = -1;
    c.source = (int8_t)who;
    if (fa_cond_add(r, who, c) != FRAY_OK)
        return r->failed;
    fa_fact_add(r, FA_FACT_DELAY, who, -1, 0, 0, 0, 0);
    /* 004:576: beneficial effects ending at the end of its turn end now. */
    end_of_turn_effects(r, who, 1);
    /* 004:577: it cannot sustain effects when it delays: what needs
     * sustaining lapses now (the grapple too, L7.17). */
    if (st->c[who].grappling >= 0)
        fa_end_grapple(r, who);
    if (turn_conds_of(st, who))
        for (int j = 0; j < st->n; j++)
            for (int i = st->c[j].n_cond - 1; i >= 0; i--)
                if (st->c[j].cond[i].ends == FA_ENDS_SUSTAIN && st->c[j].cond[i].whose == who)
                    fa_cond_drop(r, j, i);
    st->c[who].flags |= FA_F_DONE;
    st->c[who].slots = 0;
    return r->failed;
}

/* The part of a delayed turn's end left for later (004:578-579): saves,
 * then the harmful effects ending at the end of its turn. */
static void delay_end(fa_run *r, int who) {
    saves(r, who);
    if (r->failed == FRAY_OK)
        end_of_turn_effects(r, who, 2);
}

/* ---- Rounds ----------------------------------------------------------------------- */

static int side_of(const fa_setup *s, int who) { return s->c[who].side; }

/* The side fa_check_over counts i with (out of range: one side of its
 * own). */
static int over_side(const fa_setup *s, int i) {
    int sd = side_of(s, i);
    return sd < 0 || sd > FA_MAX_SIDES ? FA_MAX_SIDES : sd;
}

/* Whether i still counts as standing for the fight's end: neither out
 * nor dead; those still to join (004:241, skills.c) count as standing,
 * unless they would come after the round limit. */
static bool over_stands(const fa_run *r, int i, int limit) {
    const fa_state *st = r->st;
    if (i >= st->n)
        return r->s->c[i].joins <= limit;
    return !((st->c[i].flags & FA_F_OUT) || fa_has(&st->c[i], FA_C_DEAD));
}

bool fa_check_over(fa_run *r) {
    fa_state *st = r->st;
    if (st->over)
        return true;
    int limit = r->s->round_limit > 0 ? r->s->round_limit : 100;
    int n = r->s->n < FA_MAX_COMBATANTS ? r->s->n : FA_MAX_COMBATANTS;
    /* The two last found standing on two sides (issue 16): while both
     * stand, two sides stand and the loop over everyone is not needed. */
    int a = st->over_seen[0] - 1, b = st->over_seen[1] - 1;
    if (a >= 0 && b >= 0 && a < n && b < n && over_stands(r, a, limit) &&
        over_stands(r, b, limit) && over_side(r->s, a) != over_side(r->s, b)) {
#ifndef NDEBUG
        /* The long way agrees: two sides standing. */
        int sides = 0;
        bool seen[FA_MAX_SIDES + 1] = {false};
        for (int i = 0; i < n; i++)
            if (over_stands(r, i, limit) && !seen[over_side(r->s, i)]) {
                seen[over_side(r->s, i)] = true;
                sides++;
            }
        assert(sides > 1);
#endif
        return false;
    }
    int standing_side = -1, sides = 0, first = -1;
    bool seen[FA_MAX_SIDES + 1] = {false};
    for (int i = 0; i < n; i++) {
        if (!over_stands(r, i, limit))
            continue;
        int sd = over_side(r->s, i);
        if (!seen[sd]) {
            seen[sd] = true;
            sides++;
            standing_side = sd;
            if (sides > 1) {
                /* two sides standing: not over */
                st->over_seen[0] = (uint8_t)(first + 1);
                st->over_seen[1] = (uint8_t)(i + 1);
                return false;
            }
            first = i;
        }
    }
    st->over = true;
    st->winner = (int8_t)(sides == 1 ? standing_side : -2);
    st->cur = -1;
    st->between = false;
    fa_fact_add(r, FA_FACT_OVER, -1, -1, st->winner, 0, 0, 0);
    return true;
}

/* The end of a round: effects lasting to it end (Surprised, L2), a new
 * round starts, unless the round limit has passed (no winner). */
static bool new_round(fa_run *r) {
    fa_state *st = r->st;
    for (int j = 0; j < st->n; j++) {
        fa_cstate *c = &st->c[j];
        for (int i = c->n_cond - 1; i >= 0; i--)
            if (c->cond[i].ends == FA_ENDS_ROUND_END && c->cond[i].round <= st->round)
                fa_cond_drop(r, j, i);
        c->flags &= (uint8_t)~FA_F_ACTED;
    }
    int limit = r->s->round_limit > 0 ? r->s->round_limit : 100;
    if (st->round >= limit) {
        st->over = true;
        st->winner = -1;
        st->cur = -1;
        st->between = false;
        fa_fact_add(r, FA_FACT_OVER, -1, -1, -1, 0, 0, 0);
        return false;
    }
    st->round++;
    fa_fact_add(r, FA_FACT_ROUND, -1, -1, st->round, 0, 0, 0);
    /* 004:241: those joining now roll initiative and enter the order. */
    if (st->n < r->s->n && fa_join_round(r) != FRAY_OK)
        return false;
    return true;
}

/* true when some delaying combatant could come back now. */
static bool someone_delaying(const fa_state *st) {
    COUNTS_CHECK(st, -1);
    if (st->n_delaying == 0)
        return false;
    for (int i = 0; i < st->n; i++)
        if (fa_has(&st->c[i], FA_C_DELAYING) && fa_can_act(st, i))
            return true;
    return false;
}

fray_status fa_next(fa_run *r) {
    fa_state *st = r->st;
    if (!st->started || st->over)
        return FRAY_ERR_INVALID;
    if (st->cur >= 0) {
        int who = st->cur;
        bool delayed = fa_has(&st->c[who], FA_C_DELAYING);
        if (!delayed)
            turn_end(r, who);
        st->cur = -1;
        if (r->failed != FRAY_OK)
            return r->failed;
        if (fa_check_over(r))
            return FRAY_OK;
        /* 004:573: a delaying combatant may come back after any other
         * combatant's turn: wait for its word (FA_CMD_RESUME or NEXT). */
        if (!delayed && someone_delaying(st)) {
            st->between = true;
            return FRAY_OK;
        }
    }
    st->between = false;
    /* At most two rounds of turns that pass in one event: after them the
     * event ends with nobody's turn under way (fa_actor -1) and the next
     * FA_CMD_NEXT goes on, so one event's work stays bounded. */
    for (int guard = 0; guard < 2 * st->n_order + 1; guard++) {
        bool wrapped = false;
        int p = fray__track_next(&st->track, st->cur_pos, &wrapped);
        if (p < 0)
            return FRAY_ERR_INVALID;
        if (wrapped && !new_round(r))
            return r->failed;
        st->cur_pos = (int8_t)p;
        int who = st->order[p];
        fa_cstate *c = &st->c[who];
        if (fa_has(c, FA_C_DEAD))
            continue; /* the dead have no turns */
        if (fa_has(c, FA_C_DELAYING)) {
            /* 004:574: its initiative came round again: the delayed turn is
             * lost; what waited for it to act happens now. */
            fa_fact_add(r, FA_FACT_LOST, who, -1, 0, 0, 0, 0);
            fa_cond_remove(r, who, FA_C_DELAYING, -1);
            delay_end(r, who);
        }
        turn_start(r, who);
        if (r->failed != FRAY_OK)
            return r->failed;
        fa_grapple_upkeep(r);
        if (fa_check_over(r))
            return FRAY_OK;
        if (fa_can_act(st, who)) {
            st->cur = (int8_t)who;
            return FRAY_OK;
        }
        /* Stunned, Surprised, Unconscious, dying: the turn passes, its
         * start and end still happen. */
        turn_end(r, who);
        if (r->failed != FRAY_OK)
            return r->failed;
        if (fa_check_over(r))
            return FRAY_OK;
        if (someone_delaying(st)) {
            st->between = true;
            return FRAY_OK;
        }
    }
    return FRAY_OK; /* nobody could act yet: step again */
}

fray_status fa_order_move_before(fa_run *r, int who, int before,
                                 int *out_place) {
    fa_state *st = r->st;
    int at_cur = st->cur_pos >= 0 && st->cur_pos < st->n_order
                     ? st->order[st->cur_pos] : -1;
    int place = -1;
    fray_status ok = fray__track_move_before(&st->track, who, before, &place);
    if (ok != FRAY_OK) {
        fa_fail(r, ok);
        return ok;
    }
    fa_order_sync(st);
    if (at_cur >= 0)
        st->cur_pos = (int8_t)fray__track_find(&st->track, at_cur);
    if (out_place)
        *out_place = place;
    return FRAY_OK;
}

fray_status fa_resume(fa_run *r, int who) {
    fa_state *st = r->st;
    bool wrapped = false;
    int p = fray__track_next(&st->track, st->cur_pos, &wrapped);
    if (p < 0)
        return FRAY_ERR_INVALID;
    if (wrapped) {
        /* Coming back after the round's last turn: it acts first in the
         * new round. */
        if (!new_round(r))
            return r->failed;
        st->cur_pos = -1;
    }
    int next = st->order[p];
    if (next != who) {
        int place = -1;
        if (fa_order_move_before(r, who, next, &place) != FRAY_OK)
            return r->failed;
        st->cur_pos = (int8_t)place;
    } else {
        st->cur_pos = (int8_t)p;
    }
    fa_cond_remove(r, who, FA_C_DELAYING, -1);
    st->between = false;
    st->cur = (int8_t)who;
    st->turn_serial++;
    fa_fact_add(r, FA_FACT_TURN, who, -1, st->round, 1, 0, 0);
    fa_cstate *c = &st->c[who];
    /* Its turn's start happened when it delayed (004:571). */
    c->slots = st->round == 0 ? (FA_SLOT_STANDARD | FA_SLOT_MOVE)
                              : (FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT);
    c->extra_standard = 0;
    c->acted = 0;
    c->flags &= (uint8_t)~(FA_F_DONE | FA_F_TOOK_ACTION);
    return r->failed;
}

int fa_actor(const fa_setup *s, const fa_state *st) {
    if (!st->started || st->over)
        return -1;
    if (st->cur >= 0) {
        int who = st->cur;
        const fa_cstate *c = &st->c[who];
        if ((c->flags & FA_F_DONE) || !fa_can_act(st, who))
            return -1;
        bool ap_left = st->round > 0 && c->ap > 0 &&
                       c->ap_spent < s->opt.ap_per_turn &&
                       !fa_has(c, FA_C_DAZED) && !fa_has(c, FA_C_DOMINATED);
        if (c->slots == 0 && c->extra_standard == 0 && !ap_left)
            return -1;
        return who;
    }
    if (st->between)
        for (int p = 0; p < st->n_order; p++) {
            int who = st->order[p];
            if (fa_has(&st->c[who], FA_C_DELAYING) && fa_can_act(st, who))
                return who;
        }
    return -1;
}

/* ---- Action slots ------------------------------------------------------------------ */

/* The slot that pays for an action of `type` (004:289: a move may replace
 * a standard, a swift a move; 004:291: an action point's standard can be
 * traded down too): 0..2 the slot bits STANDARD, MOVE, SWIFT, 3 an
 * action point's extra standard action, -1 none. */
static int pick_slot(const fa_cstate *c, fa_action_type type,
                     fa_action_type slot) {
    if (type > FA_ACT_SWIFT)
        return -1;
    if (slot != FA_ACT_NONE) {
        if (slot > FA_ACT_SWIFT || slot > type)
            return -1;
        if (c->slots & (1u << slot))
            return (int)slot;
        if (slot == FA_ACT_STANDARD && c->extra_standard > 0)
            return 3;
        return -1;
    }
    for (int k = (int)type; k >= FA_ACT_STANDARD; k--)
        if (c->slots & (1u << k))
            return k;
    return c->extra_standard > 0 ? 3 : -1;
}

bool fa_can_pay(const fa_state *st, int who, fa_action_type type,
                fa_action_type slot) {
    if (who < 0 || who >= st->n || !fa_can_act(st, who))
        return false;
    const fa_cstate *c = &st->c[who];
    switch (type) {
    case FA_ACT_FREE:
    case FA_ACT_NONE:
        return true;
    case FA_ACT_IMMEDIATE:
        /* 004:397 one a round (reset at the start of its turn, L7.13);
         * 004:927 none when Dazed; never on its own turn. */
        return !(c->flags & FA_F_IMMEDIATE) && !fa_has(c, FA_C_DAZED) &&
               !fa_has(c, FA_C_DOMINATED) && /* Dominated is Dazed (004:948) */
               st->cur != who;
    default:
        break;
    }
    if (c->flags & FA_F_DONE)
        return false;
    /* 004:927: Dazed, one action a round. */
    if ((fa_has(c, FA_C_DAZED) || fa_has(c, FA_C_DOMINATED)) && (c->flags & FA_F_TOOK_ACTION))
        return false;
    return pick_slot(c, type, slot) >= 0;
}

fa_action_type fa_pay_from(fa_run *r, int who, fa_action_type type,
                           fa_action_type slot) {
    fa_state *st = r->st;
    if (!fa_can_pay(st, who, type, slot)) {
        fa_fail(r, FRAY_ERR_INVALID);
        return FA_ACT_NONE;
    }
    fa_cstate *c = &st->c[who];
    if (type <= FA_ACT_FREE)
        c->acted |= (uint8_t)(1u << type);
    if (type == FA_ACT_IMMEDIATE) {
        c->flags |= FA_F_IMMEDIATE;
        return type;
    }
    if (type == FA_ACT_FREE || type == FA_ACT_NONE)
        return type;
    int k = pick_slot(c, type, slot);
    fa_action_type paid;
    if (k == 3) {
        c->extra_standard--;
        paid = FA_ACT_STANDARD;
    } else {
        c->slots &= (uint8_t)~(1u << k);
        paid = (fa_action_type)k;
    }
    c->flags |= FA_F_TOOK_ACTION;
    /* The surprise round: one standard or one move action (004:253, L7.2,
     * option surprise_action); Dazed: one action (004:927). */
    if ((st->round == 0 && r->s->opt.surprise_action == FA_SURPRISE_STANDARD_OR_MOVE) ||
        fa_has(c, FA_C_DAZED) || fa_has(c, FA_C_DOMINATED)) {
        c->slots = 0;
        c->extra_standard = 0;
    }
    return paid;
}

void fa_pay(fa_run *r, int who, fa_action_type type, fa_action_type slot) {
    fa_action_type paid = fa_pay_from(r, who, type, slot);
    if (paid == FA_ACT_NONE && type != FA_ACT_NONE)
        fa_fail(r, FRAY_ERR_INVALID); /* (fa_pay_from has set it already) */
}

/*
 * chances_fixture.h - set-up shared by the tests of the odds at the table
 * (issue 19; tests/unit/test_chances_*.c): an encounter from a file, a
 * fight with the journal, a command through the fight API, one outcome of
 * a fray_chances by name, and the tolerance of a share of N trials; for
 * Alloy's (test_chances_alloy_*.c): a fight with dice given by hand (the
 * initiative) at its first turn, a combatant's condition and hit points
 * as the view shows them, and `fray odds roll d20+B --attack --vs D`
 * (cf_odds_hit); for 99 Towers' (included after towers_int.h): two counts
 * of the same blow, `fray odds attack` for an attack's flips, the clock
 * set to a combatant's turn and a command played many times by engine.c.
 */
#ifndef CHANCES_FIXTURE_H
#define CHANCES_FIXTURE_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"
#include "fray/dice.h"
#include "fray/fray.h"
#include "fray/view.h"

static inline fray_setup *cf_load(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", path, d.message);
    return s;
}

static inline fray_fight *cf_start(const fray_setup *s, uint64_t seed) {
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true, .facts = true};
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

static inline void cf_command(fray_fight *f, const char *words) {
    fray_diag d;
    cr_assert_eq(fray_fight_command(f, words, NULL, &d), FRAY_OK, "%s: %s",
                 words, d.message);
}

static inline int cf_who(const fray_fight *f, const char *id) {
    int i = fray_fight_combatant_index(f, id);
    cr_assert(i >= 0, "no combatant '%s'", id);
    return i;
}

static inline const fray_chance_outcome *
cf_outcome(const fray_chance_outcome *oc, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(oc[i].name, name) == 0)
            return &oc[i];
    cr_assert_fail("no outcome '%s'", name);
    return NULL;
}

/* A share of n trials against its chance p: 4.5 standard errors. */
static inline double cf_tolerance(double p, int n) {
    return 4.5 * sqrt(p * (1 - p) / n) + 1e-9;
}

/* ---- Alloy (test_chances_alloy_*.c) ----------------------------------------- */

/* A fight of s with the dice given by hand (the initiative first: Vance
 * first is {13, 8}, Lyra first {8, 13}), at its first turn (`next`). */
static inline fray_fight *cf_given(const fray_setup *s, uint64_t seed,
                                   const int *dice, int n) {
    fray_given g;
    memset(&g, 0, sizeof g);
    g.dice = dice;
    g.n_dice = (size_t)n;
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true};
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    cf_command(f, "next");
    return f;
}

/* The combatant `who` of view v. */
static inline const fray_view_combatant *cf_view_of(const fray_fight_view *v,
                                                    int who) {
    for (int k = 0; k < v->n_combatants; k++)
        if (v->combatants[k].index == who)
            return &v->combatants[k];
    cr_assert_fail("no combatant %d in the view", who);
    return NULL;
}

/* Whether who has a condition whose name holds `name`. */
static inline bool cf_has_condition(const fray_fight *f, int who,
                                    const char *name) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    const fray_view_combatant *c = cf_view_of(v, who);
    bool has = false;
    for (int i = 0; i < c->n_conditions; i++)
        has |= strstr(c->conditions[i].name, name) != NULL;
    fray_fight_view_free(v);
    return has;
}

/* Who's hit points (the view's first track). */
static inline int cf_hp_of(const fray_fight *f, int who) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    int hp = cf_view_of(v, who)->tracks[0].value;
    fray_fight_view_free(v);
    return hp;
}

/* `fray odds roll d20+bonus --attack --vs defense`: the chance to hit. */
static inline fray_ratio cf_odds_hit(int bonus, int defense) {
    fray_d20_attack_query q = {.bonus = bonus, .defense = defense};
    fray_d20_attack_odds ao;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &ao), FRAY_OK);
    fray_ratio p = ao.p_hit;
    fray_d20_attack_odds_free(&ao);
    return p;
}

/* `fray odds roll d20+bonus --vs dc`: a check's chance, no natural 1 or 20. */
static inline fray_ratio cf_odds_check(int bonus, int dc) {
    char text[16];
    snprintf(text, sizeof text, "d20%+d", bonus);
    fray_dice *dd = NULL;
    fray_diag d;
    cr_assert_eq(fray_dice_parse(text, NULL, NULL, &dd, &d), FRAY_OK);
    fray_dist D;
    cr_assert_eq(fray_dice_dist(dd, 0, NULL, &D), FRAY_OK);
    fray_ratio p = fray_dist_at_least(&D, dc);
    fray_dist_free(&D);
    fray_dice_free(dd);
    return p;
}

/* ---- 99 Towers (test_chances_charge.c, test_chances_shift.c: include
 * layer.h and towers_int.h before this file) ---------------------------- */
#ifdef FRAY_TOWERS_INT_H

/* Two counts of the same blow: modifiers, outcomes, amounts and chances. */
static inline void cf_same_chances(const fray_chances *a, const fray_chances *b) {
    cr_expect_str_eq(a->modifiers, b->modifiers);
    cr_assert_eq(a->n_outcomes, b->n_outcomes);
    for (int i = 0; i < a->n_outcomes; i++)
        cr_expect(fray_ratio_equal(a->outcomes[i].p, b->outcomes[i].p));
    cr_assert_eq(a->n_damage, b->n_damage);
    for (int i = 0; i < a->n_damage; i++) {
        cr_expect(fray_ratio_equal(a->damage[i].p, b->damage[i].p));
        cr_expect_eq(a->damage[i].amount[0], b->damage[i].amount[0]);
        cr_expect_eq(a->damage[i].amount[1], b->damage[i].amount[1]);
    }
}

/* `fray odds attack` for a's <PA> (shift `shift`) against t's <PD> with
 * `def_flip` (the flat-footed flip-2 ...): c's miss and critical. */
static inline void cf_expect_attack_odds(const fray_fight *f, int a, int t,
                                         int shift, int def_flip,
                                         const fray_chances *c) {
    const fray_towers_fight *rf = fray__fight_rf(f);
    const ft_setup *ts = &rf->setup->s;
    fray_attack_query q;
    fray_attack_query_init(&q, ts->c[a].sb.cv[FT_CV_PA],
                           ts->c[t].sb.cv[FT_CV_PD] + def_flip);
    q.attack_shift = shift;
    q.deck = ts->opt.deck;
    q.rules = ts->opt.flip;
    fray_attack_odds ao;
    cr_assert_eq(fray_odds_attack(&q, &ao), FRAY_OK);
    cr_expect(fray_ratio_equal(cf_outcome(c->outcomes, 3, "miss")->p,
                               fray_ratio_one_minus(fray_attack_odds_hit(&ao))));
    cr_expect(fray_ratio_equal(cf_outcome(c->outcomes, 3, "critical")->p,
                               fray_attack_odds_crit(&ao)));
}

/* The clock set so that it is who's turn (everyone else a phase later). */
static inline void cf_turn_of(fray_fight *f, int who) {
    fray_towers_fight *wf = fray__fight_rf(f);
    for (int i = 0; i < wf->st.n; i++)
        if (i != who && wf->st.c[i].phase <= wf->st.c[who].phase)
            wf->st.c[i].phase = (int16_t)(wf->st.c[who].phase + 1);
    ft_clock_sync(&wf->st);
    cr_assert_eq(ft_next_actor(&wf->st), who);
}

/* engine.c's `words` (the actor's id first) applied n times from f's
 * state, trial i with fray_rng_for_trial(seed, i), the actor `a` ending
 * at `end`: each amount of STUN and LETHAL t takes as often as c says
 * (4.5 standard errors). */
static inline void cf_played(const fray_fight *f, const char *words, int a,
                             int t, fray_pos end, const fray_chances *c, int n,
                             uint64_t seed) {
    const fray_towers_fight *rf = fray__fight_rf(f);
    const ft_setup *ts = &rf->setup->s;
    fray_diag d;
    ft_command cmd;
    int w = 0;
    cr_assert_eq(ft_table_parse(ts, words, &cmd, &w, &d), FRAY_OK, "%s",
                 d.message);
    ft_state *st = malloc(sizeof *st);
    ft_event *ev = malloc(sizeof *ev);
    int *counts = calloc(FRAY_CHANCES_DAMAGE, sizeof *counts);
    cr_assert(st && ev && counts);
    for (int i = 0; i < n; i++) {
        memcpy(st, &rf->st, sizeof *st);
        fray_rng_for_trial(&st->rng, seed, (uint64_t)i);
        st->phase = st->c[a].phase;
        memset(ev, 0, sizeof *ev);
        ft_run r;
        ft_run_clear(&r);
        r.setup = ts;
        r.st = st;
        r.ev = ev;
        r.diag = &d;
        ev->cmd = cmd;
        cr_assert_eq(ft_apply(&r), FRAY_OK, "%s", d.message);
        cr_assert(st->c[a].pos.x == end.x && st->c[a].pos.y == end.y);
        int stun = rf->st.c[t].stun - st->c[t].stun;
        int lethal = rf->st.c[t].lethal - st->c[t].lethal;
        int k = 0;
        while (k < c->n_damage && (c->damage[k].amount[0] != stun ||
                                   c->damage[k].amount[1] != lethal))
            k++;
        cr_assert(k < c->n_damage, "%s dealt %d STUN %d LETHAL", words, stun,
                  lethal);
        counts[k]++;
    }
    for (int k = 0; k < c->n_damage; k++) {
        double p = c->damage[k].share, share = (double)counts[k] / n;
        cr_expect(fabs(share - p) <= cf_tolerance(p, n),
                  "%d STUN %d LETHAL: %.4f of %d, the chances say %.4f",
                  c->damage[k].amount[0], c->damage[k].amount[1], share, n, p);
    }
    free(counts);
    free(ev);
    free(st);
}

#endif

#endif

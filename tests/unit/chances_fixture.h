/*
 * chances_fixture.h - set-up shared by the tests of the odds at the table
 * (issue 19; tests/unit/test_chances_*.c): an encounter from a file, a
 * fight with the journal, a command through the fight API, one outcome of
 * a fray_chances by name, and the tolerance of a share of N trials.
 */
#ifndef CHANCES_FIXTURE_H
#define CHANCES_FIXTURE_H

#include <criterion/criterion.h>
#include <math.h>
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
    g.n_dice = n;
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

#endif

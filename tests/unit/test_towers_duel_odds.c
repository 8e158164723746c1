/*
 * test_towers_duel_odds.c - exact duel odds (include/fray/duel.h; issue 4,
 * section 3; docs/rules/towers.md "Exact duel odds"): hand-checkable
 * duels, what the chain refuses, and the check against a
 * simulation of the same duel with every flip from a fresh deck
 * (fresh-decks: true, hand-of-fate: 0, no chips).
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fray/duel.h"
#include "fray/fray.h"
#include "fray/sim.h"

#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"
#define EXAMPLES FRAY_SOURCE_DIR "/examples/towers/"

static fray_towers_setup *load(const char *path) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d: %s", d.file ? d.file : path, d.line,
                 d.message);
    return s;
}

/* Writes an encounter to a temporary file next to the test data (so that
 * its relative paths work) and loads it. */
static fray_towers_setup *load_text(const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%sduel_tmp_%ld.yaml", DATA, (long)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    fray_towers_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    remove(path);
    cr_assert_eq(rc, FRAY_OK, "line %d: %s", d.line, d.message);
    return s;
}

static double hit_chance(int attack_n, int defense_n) {
    fray_attack_query q;
    fray_attack_query_init(&q, attack_n, defense_n);
    fray_attack_odds o;
    cr_assert_eq(fray_odds_attack(&q, &o), FRAY_OK);
    return fray_ratio_to_double(fray_attack_odds_hit(&o));
}

/* ---- Hand-checkable duels ---------------------------------------------------- */

/*
 * Issue 4 section 3 (1); seed 000 "Entering Combat and Initiative",
 * "STUN Damage"; RULINGS 17: a striker who always acts first (N 20: CI
 * over 20, phase 0) and fells its foe with any hit (PX 30 against 8
 * STUN), against a foe who only ever takes Forced Delay (tactics idle).
 * With a phase limit of 12 the striker attacks at phases 0, 5 and 10:
 * P(win) = 1 - (1 - p)^3, P(unfinished) = (1 - p)^3, p the exact chance of
 * a flip of PA 3 + 1 (the longblade) cards against PD 2 (the foe has no
 * [SS]: never flat-footed's (flip-1)).
 */
static const char ONE_BLOW[] =
    "fray: encounter\n"
    "name: one blow\n"
    "catalog: [../../../data/towers/equipment.yaml]\n"
    "options: {fresh-decks: true, hand-of-fate: 0, phase-limit: 12}\n"
    "sides: [striker, foe]\n"
    "combatants:\n"
    "  - id: striker\n"
    "    side: striker\n"
    "    at: [0, 0]\n"
    "    tactics: attack\n"
    "    statblock:\n"
    "      aspects: {HS: 2, SS: 0, EE: 1}\n"
    "      combat: {N: 20, PA: 3, PD: 2, SA: 0, ID: 1, PX: 30, ER: 0, IR: 0, SPD: 5}\n"
    "      endurance: 1\n"
    "      weapons: [Longblade]\n"
    "  - id: foe\n"
    "    side: foe\n"
    "    at: [1, 0]\n"
    "    tactics: idle\n"
    "    statblock:\n"
    "      aspects: {HS: 2, SS: 0, EE: 1}\n"
    "      combat: {N: 0, PA: 3, PD: 2, SA: 0, ID: 1, PX: 1, ER: 0, IR: 0, SPD: 5}\n"
    "      endurance: 1\n"
    "      weapons: [Longblade]\n";

Test(duel_odds, one_blow_against_an_idle_foe) {
    fray_towers_setup *s = load_text(ONE_BLOW);
    fray_duel_odds o;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_odds(s, 0, 1, &o, &d), FRAY_OK, "%s", d.message);
    double p = hit_chance(4, 2), miss3 = pow(1 - p, 3);
    cr_expect_float_eq(o.p_first[0], 1.0, 1e-15);
    cr_expect_float_eq(o.p_win[0], 1 - miss3, 1e-14, "%.17g vs %.17g", o.p_win[0], 1 - miss3);
    cr_expect_float_eq(o.p_win[1], 0.0, 1e-15);
    cr_expect_float_eq(o.p_unfinished, miss3, 1e-14);
    /* The blow lands at phase 0, 5 or 10. */
    cr_expect_float_eq(o.length[0], p, 1e-14);
    cr_expect_float_eq(o.length[5], (1 - p) * p, 1e-14);
    cr_expect(o.mass_error < 1e-14);
    fray_towers_setup_free(s);
}

/*
 * Seed 000 "Entering Combat and Initiative"; RULINGS 9: two equal
 * one-blow fighters who always hit each other (both flat-footed: PD 0
 * with SS 0 still flips 2 cards and keeps the lowest, so not "always";
 * we use the exact hit chance instead). Both have N 20: both start at
 * phase 0 and the tie order decides; by symmetry each goes first half the
 * time, so each wins half the time; blows alternate, two per 5 phases.
 */
static const char MIRROR[] =
    "fray: encounter\n"
    "name: mirror\n"
    "catalog: [../../../data/towers/equipment.yaml]\n"
    "options: {fresh-decks: true, hand-of-fate: 0, phase-limit: 0}\n"
    "sides: [left, right]\n"
    "combatants:\n"
    "  - id: left\n"
    "    side: left\n"
    "    at: [0, 0]\n"
    "    tactics: attack\n"
    "    statblock: &fighter\n"
    "      aspects: {HS: 2, SS: 0, EE: 1}\n"
    "      combat: {N: 20, PA: 3, PD: 2, SA: 0, ID: 1, PX: 30, ER: 0, IR: 0, SPD: 5}\n"
    "      endurance: 1\n"
    "      weapons: [Longblade]\n"
    "  - id: right\n"
    "    side: right\n"
    "    at: [1, 0]\n"
    "    tactics: attack\n"
    "    statblock: *fighter\n";

Test(duel_odds, mirror_match_is_even_and_first_strike_counts) {
    fray_towers_setup *s = load_text(MIRROR);
    fray_duel_odds o;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_odds(s, 0, 1, &o, &d), FRAY_OK, "%s", d.message);
    /* Even, but for the flip-off's eighth tie (RULINGS 9 as the engine
     * plays it: then the encounter's order stands): about 1e-10. */
    cr_expect_float_eq(o.p_first[0], 0.5, 1e-8);
    cr_expect_float_eq(o.p_win[0], 0.5, 1e-8);
    cr_expect_float_eq(o.p_win[1], 0.5, 1e-8);
    double p = hit_chance(4, 2);
    /* Every fight ends on a blow at phase 0 (first striker), 0 (second),
     * 5, 5, ...: P(ends at phase 0) = 1 - (1-p)^2. */
    cr_expect_float_eq(o.length[0], 1 - (1 - p) * (1 - p), 1e-13);
    double mean = 0;
    for (int k = 0; k < 400; k++) /* rounds of two blows, 5 phases each */
        mean += 5.0 * k * pow((1 - p) * (1 - p), k) * (1 - (1 - p) * (1 - p));
    cr_expect_float_eq(o.mean_length, mean, 1e-9, "%.12g vs %.12g", o.mean_length, mean);
    fray_towers_setup_free(s);
}

/* ---- What the chain refuses ------------------------------------------------------ */

/* Issue 4 section 3: the chain does not model the Hand of Fate, chips,
 * "Crit:" keywords or ranged weapons, and says so in rules words. */
Test(duel_odds, refuses_what_it_does_not_model) {
    fray_towers_setup *s = load(EXAMPLES "duel.yaml");
    fray_duel_odds o;
    fray_diag d;
    cr_expect_eq(fray_towers_duel_odds(s, 0, 1, &o, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Hand of Fate") && strstr(d.message, "hand-of-fate: 0"),
              "%s", d.message);
    fray_towers_setup_free(s);

    /* Chips: the knights hold a white chip each. */
    char text[4096];
    snprintf(text, sizeof text, "%s", ONE_BLOW);
    char *w = strstr(text, "      weapons: [Longblade]\n  - id: foe");
    cr_assert(w);
    memmove(w + 30, w, strlen(w) + 1);
    memcpy(w, "      chips: {white: 1}      \n", 30);
    s = load_text(text);
    cr_expect_eq(fray_towers_duel_odds(s, 0, 1, &o, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "chips"), "%s", d.message);
    fray_towers_setup_free(s);

    /* "Crit: Bleed" on the Sellsword's Great Axe. */
    fray_towers_setup *x = NULL;
    cr_assert_eq(fray_towers_duel_setup(EXAMPLES "statblocks.yaml", "Sellsword",
                                        EXAMPLES "statblocks.yaml", "Bandit",
                                        NULL, NULL, NULL, &x, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(fray_towers_duel_odds(x, 0, 1, &o, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Crit:"), "%s", d.message);
    fray_towers_setup_free(x);

    /* A rifle. */
    cr_assert_eq(fray_towers_duel_setup(EXAMPLES "statblocks.yaml", "Rifleman",
                                        EXAMPLES "statblocks.yaml", "Bandit",
                                        NULL, NULL, NULL, &x, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(fray_towers_duel_odds(x, 0, 1, &o, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "melee"), "%s", d.message);
    fray_towers_setup_free(x);

    /* A file of many stat blocks needs a name. */
    cr_expect_eq(fray_towers_duel_setup(EXAMPLES "statblocks.yaml", NULL,
                                        EXAMPLES "statblocks.yaml", "Bandit",
                                        NULL, NULL, NULL, &x, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "stat blocks"), "%s", d.message);
    cr_expect_null(x);
}

/* ---- Against the simulation (issue 4 section 3 (2)) ------------------------------- */

/*
 * Runs n fights of the duel (fresh decks, as the chain assumes) and checks
 * each side's win rate within 4 standard errors of the exact odds, and the
 * mean length within 4 standard errors of the exact mean.
 */
static void check_against_sim(const fray_towers_setup *s, int n, uint64_t seed) {
    fray_duel_odds o;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_odds(s, 0, 1, &o, &d), FRAY_OK, "%s", d.message);
    cr_expect(o.mass_error < 1e-12, "mass error %g", o.mass_error);
    /* Issue 11: the estimate of the chain's size, made before it is
     * built, is good to a factor of 4 (docs/rules/towers.md "Cost"). */
    double estimate = 0;
    cr_assert_eq(fray_towers_duel_estimate(s, 0, 1, &estimate, &d), FRAY_OK);
    cr_expect(o.states > estimate / 4 && o.states < estimate * 4,
              "%ld states, estimated %.3g", o.states, estimate);
    fray_towers_fight_options fo = {false, false, 0};
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, seed, &fo, NULL, &f), FRAY_OK);
    long wins[2] = {0, 0}, other = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, seed, (uint64_t)i), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        int w = fray_towers_fight_winner(f);
        if (w == fray_towers_setup_combatant_side(s, 0))
            wins[0]++;
        else if (w == fray_towers_setup_combatant_side(s, 1))
            wins[1]++;
        else
            other++;
        sum += fray_towers_fight_phase(f);
    }
    fray_towers_fight_free(f);
    for (int k = 0; k < 2; k++) {
        double p = o.p_win[k], ps = (double)wins[k] / n;
        double tol = 4 * sqrt(p * (1 - p) / n);
        cr_expect(fabs(ps - p) <= tol, "side %d: simulated %.5f, exact %.5f (tolerance %.5f)",
                  k, ps, p, tol);
    }
    double pn = o.p_both_out + o.p_unfinished, ps = (double)other / n;
    cr_expect(fabs(ps - pn) <= 4 * sqrt(pn * (1 - pn) / n) + 1.0 / n,
              "nobody wins: simulated %.5f, exact %.5f", ps, pn);
    double mean = sum / n, se = o.sd_length / sqrt(n);
    cr_expect(fabs(mean - o.mean_length) <= 4 * se,
              "length: simulated %.3f, exact %.3f (4 SE %.3f)", mean, o.mean_length, 4 * se);
}

/* examples/towers/duel.yaml's knights (Sir Aldric attacks, the Black
 * Knight Power Attacks; chain, shield, plate, dual-wield stance,
 * flat-footed, Power Attack's (flip-1) on defense until the next
 * activation: RULINGS 10, 12). */
Test(duel_odds, knights_match_the_simulation, .timeout = 600) {
    fray_towers_setup *s = load(DATA "duel_knights.yaml");
    check_against_sim(s, 20000, 4242);
    fray_towers_setup_free(s);
}

/* A second pairing from stat-block files (fray_towers_duel_setup, no
 * map): a Bandit with default tactics (Power Attack when it pays) against
 * a defensive Knight (Full Defense when hurt below half its STUN: RULINGS
 * 11), different armor and Resilience. */
Test(duel_odds, bandit_and_defensive_knight_match_the_simulation, .timeout = 600) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_setup(EXAMPLES "statblocks.yaml", "Bandit",
                                        EXAMPLES "statblocks.yaml", "Knight of Areast",
                                        "default", "defensive", NULL, &s, &d),
                 FRAY_OK, "%s", d.message);
    check_against_sim(s, 20000, 99);
    fray_towers_setup_free(s);
}

/* ---- Bounded time and memory (issue 11) --------------------------------------------- */

/*
 * Issue 11 "`fray odds duel` with large STUN runs for minutes and ends out
 * of memory": two Stone Giants of 999 STUN and LETHAL (the most a stat
 * block may have; tests/data/towers/giants.yaml) are refused before the
 * chain is built, at once, with its estimated size and the bound.
 */
Test(duel_odds, a_chain_too_large_is_refused_at_once_with_its_size, .timeout = 10) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_setup(DATA "giants.yaml", "Stone Giant",
                                        DATA "giants.yaml", "Stone Giant", NULL,
                                        NULL, NULL, &s, &d),
                 FRAY_OK, "%s", d.message);
    double estimate = 0;
    cr_assert_eq(fray_towers_duel_estimate(s, 0, 1, &estimate, &d), FRAY_OK);
    cr_expect_gt(estimate, 1e10);
    fray_duel_odds *o = malloc(sizeof *o);
    cr_assert(o);
    cr_expect_eq(fray_towers_duel_odds(s, 0, 1, o, &d), FRAY_ERR_TOO_LARGE);
    char figure[32];
    snprintf(figure, sizeof figure, "about %.2g states", estimate);
    cr_expect(strstr(d.message, figure), "%s", d.message);
    cr_expect(strstr(d.message, "999 STUN"), "%s", d.message);
    cr_expect(strstr(d.message, "100000000"), "names the bound: %s", d.message);
    /* A larger bound of the caller's is heeded, and still refuses this. */
    cr_expect_eq(fray_towers_duel_odds_max(s, 0, 1, 2000000000L, o, &d),
                 FRAY_ERR_TOO_LARGE);
    cr_expect(strstr(d.message, "2000000000"), "%s", d.message);
    cr_expect_eq(fray_towers_duel_odds_max(s, 0, 1, -1, o, &d), FRAY_ERR_INVALID);
    free(o);
    fray_towers_setup_free(s);
}

/* The bound holds whatever the estimate says: two defensive Knights of
 * Areast (who Recover and Full Defend: 13.2 million states, estimated at
 * 6.5 million) under a bound of 7 million stop when the chain passes it,
 * with the figure, and free everything (ASan). */
Test(duel_odds, a_chain_stops_when_it_passes_its_bound, .timeout = 120) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_setup(EXAMPLES "statblocks.yaml", "Knight of Areast",
                                        EXAMPLES "statblocks.yaml", "Knight of Areast",
                                        "defensive", "defensive", NULL, &s, &d),
                 FRAY_OK, "%s", d.message);
    double estimate = 0;
    cr_assert_eq(fray_towers_duel_estimate(s, 0, 1, &estimate, &d), FRAY_OK);
    cr_assert_lt(estimate, 7e6, "the estimate must not refuse it first");
    fray_duel_odds *o = malloc(sizeof *o);
    cr_assert(o);
    cr_expect_eq(fray_towers_duel_odds_max(s, 0, 1, 7000000, o, &d),
                 FRAY_ERR_TOO_LARGE);
    cr_expect(strstr(d.message, "passed 7000000 states"), "%s", d.message);
    free(o);
    fray_towers_setup_free(s);
}

/* The estimate heeds the phase limit: Hill Giants of 160 STUN, too many
 * for a duel to the end (about 1.6e9 states), are counted when a limit of
 * 12 phases leaves room for a few blows each (tests/data/towers/
 * duel_giants_short.yaml). */
Test(duel_odds, a_short_phase_limit_keeps_large_stun_countable, .timeout = 30) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_setup(DATA "giants.yaml", "Hill Giant",
                                        DATA "giants.yaml", "Hill Giant", NULL,
                                        NULL, NULL, &s, &d),
                 FRAY_OK, "%s", d.message);
    fray_duel_odds *o = malloc(sizeof *o);
    cr_assert(o);
    cr_expect_eq(fray_towers_duel_odds(s, 0, 1, o, &d), FRAY_ERR_TOO_LARGE);
    fray_towers_setup_free(s);
    s = load(DATA "duel_giants_short.yaml");
    cr_assert_eq(fray_towers_duel_odds(s, 0, 1, o, &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(o->phase_limit, 12);
    cr_expect_lt(o->states, 100000);
    cr_expect(o->mass_error < 1e-12, "mass error %g", o->mass_error);
    free(o);
    fray_towers_setup_free(s);
}

/* ---- Exact fractions (issue 15: "exact fractions in its JSON like every
 * other odds command") --------------------------------------------------- */

/* mpq of a fray_bigratio's digits. */
static void big_q(mpq_t q, const fray_bigratio *r) {
    cr_assert_eq(mpz_set_str(mpq_numref(q), r->num, 10), 0);
    cr_assert_eq(mpz_set_str(mpq_denref(q), r->den, 10), 0);
    mpq_canonicalize(q);
}

/*
 * The one-blow duel above, exactly: the striker attacks at phases 0, 5
 * and 10 before the phase limit of 12, so P(win) = 1 - (1 - p)^3 and
 * P(unfinished) = (1 - p)^3 as fractions, p the exact hit chance of 4
 * cards against 2 (fray_odds_attack's own count, an independent path).
 */
Test(duel_odds, exact_fractions_of_the_one_blow_duel) {
    fray_towers_setup *s = load_text(ONE_BLOW);
    fray_duel_odds o;
    fray_duel_exact x;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_odds_exact(s, 0, 1, 0, 0, &o, &x, &d), FRAY_OK,
                 "%s", d.message);
    fray_attack_query q;
    fray_attack_query_init(&q, 4, 2);
    fray_attack_odds a;
    cr_assert_eq(fray_odds_attack(&q, &a), FRAY_OK);
    fray_ratio hit = fray_attack_odds_hit(&a);
    mpq_t p, miss3, want_win, got;
    mpq_inits(p, miss3, want_win, got, NULL);
    uint64_t n[2] = {hit.num.lo, hit.num.hi}, dn[2] = {hit.den.lo, hit.den.hi};
    mpz_import(mpq_numref(p), 2, -1, sizeof n[0], 0, 0, n);
    mpz_import(mpq_denref(p), 2, -1, sizeof dn[0], 0, 0, dn);
    mpq_canonicalize(p);
    mpq_set_ui(miss3, 1, 1);
    mpq_sub(miss3, miss3, p);
    mpq_mul(want_win, miss3, miss3);
    mpq_mul(miss3, want_win, miss3);          /* (1 - p)^3 */
    mpq_set_ui(want_win, 1, 1);
    mpq_sub(want_win, want_win, miss3);       /* 1 - (1 - p)^3 */
    big_q(got, &x.p_win[0]);
    cr_expect(mpq_equal(got, want_win), "P(win) %s/%s", x.p_win[0].num, x.p_win[0].den);
    big_q(got, &x.p_unfinished);
    cr_expect(mpq_equal(got, miss3));
    cr_expect_str_eq(x.p_win[1].num, "0");
    cr_expect_str_eq(x.p_first[0].num, "1");
    cr_expect_str_eq(x.p_first[0].den, "1");
    /* The doubles are the fractions rounded. */
    cr_expect_float_eq(o.p_win[0], x.p_win[0].value, 1e-15);
    mpq_clears(p, miss3, want_win, got, NULL);
    fray_duel_exact_free(&x);
    fray_towers_setup_free(s);
}

/* Two sellswords (tests/data/towers/duel_small.yaml): the fractions sum to
 * exactly 1 (no cut-off: every fight ends, by the phase limit at the
 * latest), and each is the double the ordinary chain gives, to its
 * rounding. */
Test(duel_odds, exact_fractions_sum_to_one_and_match_the_doubles) {
    fray_towers_setup *s = load(DATA "duel_small.yaml");
    fray_duel_odds o, od;
    fray_duel_exact x;
    fray_diag d;
    cr_assert_eq(fray_towers_duel_odds_exact(s, 0, 1, 200000, 0, &o, &x, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_towers_duel_odds(s, 0, 1, &od, &d), FRAY_OK, "%s", d.message);
    mpq_t sum, t;
    mpq_inits(sum, t, NULL);
    const fray_bigratio *parts[4] = {&x.p_win[0], &x.p_win[1], &x.p_both_out,
                                     &x.p_unfinished};
    for (int i = 0; i < 4; i++) {
        big_q(t, parts[i]);
        mpq_add(sum, sum, t);
    }
    cr_expect_eq(mpq_cmp_ui(sum, 1, 1), 0, "the fractions sum to 1");
    cr_expect_float_eq(x.p_win[0].value, od.p_win[0], 1e-13);
    cr_expect_float_eq(x.p_win[1].value, od.p_win[1], 1e-13);
    cr_expect_float_eq(x.p_first[0].value, od.p_first[0], 1e-15);
    cr_expect_float_eq(x.mean_length.value, od.mean_length, 1e-9);
    cr_expect(x.digits > 50, "denominators grow with the blows: %ld digits", x.digits);
    mpq_clears(sum, t, NULL);
    fray_duel_exact_free(&x);
    fray_towers_setup_free(s);
}

/* What exact fractions refuse: a chain past their bound (the knights:
 * millions of states, refused before it is built), and a duel without a
 * phase limit (the sum would never end). */
Test(duel_odds, exact_fractions_refuse_big_chains_and_no_phase_limit) {
    fray_towers_setup *s = load(DATA "duel_knights.yaml");
    fray_duel_odds o;
    fray_duel_exact x;
    fray_diag d;
    cr_expect_eq(fray_towers_duel_odds_exact(s, 0, 1, 0, 0, &o, &x, &d),
                 FRAY_ERR_TOO_LARGE);
    cr_expect(strstr(d.message, "exact fractions are counted up to 50000"), "%s",
              d.message);
    fray_towers_setup_free(s);
    char text[sizeof ONE_BLOW];
    memcpy(text, ONE_BLOW, sizeof ONE_BLOW);
    char *lim = strstr(text, "phase-limit: 12");
    cr_assert(lim);
    memcpy(lim, "phase-limit: 0 ", 15);
    s = load_text(text);
    cr_expect_eq(fray_towers_duel_odds_exact(s, 0, 1, 0, 0, &o, &x, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "need a phase limit"), "%s", d.message);
    fray_towers_setup_free(s);
}

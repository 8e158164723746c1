/*
 * test_odds_duel_enc.c - `fray odds duel` on encounter files as they are
 * (issue 15, section 2; include/fray/duel.h fray_towers_duel_odds_leaving):
 * a formal duel (the `duel:` key, seed 000 "Dueling") is refused in rules
 * words; a Hand of Fate is refused with the size it would take; leaving
 * it (and chips) out equals the file with them turned off, and matches a
 * simulation of that duel.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fray/duel.h"
#include "fray/fray.h"
#include "fray/sim.h"

#define EXAMPLES FRAY_SOURCE_DIR "/examples/towers/"
#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"

static fray_towers_setup *load(const char *path) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d: %s", d.file ? d.file : path, d.line,
                 d.message);
    return s;
}

/* An encounter written next to the test data (its relative paths work). */
static fray_towers_setup *load_text(const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%sodds_duel_enc_%ld.yaml", DATA, (long)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    fray_towers_setup *s = load(path);
    remove(path);
    return s;
}

/* Two Bandits toe to toe; OPTIONS and TACTICS filled in. */
#define BANDITS(OPTIONS, TACTICS)                                              \
    "fray: encounter\n"                                                        \
    "name: Bandits\n"                                                          \
    "catalog: [../../../data/towers/equipment.yaml]\n"                         \
    "statblocks: [../../../examples/towers/statblocks.yaml]\n"                 \
    "options: {fresh-decks: true" OPTIONS "}\n"                                \
    "sides: [A, B]\n"                                                          \
    "combatants:\n"                                                            \
    "  - {id: a, name: Ana, statblock: Bandit, side: A, at: [0, 0],"           \
    " tactics: {preset: attack" TACTICS "}}\n"                                 \
    "  - {id: b, name: Bo, statblock: Bandit, side: B, at: [1, 0],"            \
    " tactics: {preset: power-attack" TACTICS "}}\n"

/* 000 "Dueling": the chain is a plain fight, so a formal duel (Showdown,
 * Focus, blows landing at once, first blood) is refused by name, with or
 * without the Hand of Fate left out. */
Test(odds_duel_enc, a_formal_duel_is_refused_in_rules_words) {
    fray_towers_setup *s = load(EXAMPLES "first-blood.yaml");
    fray_duel_odds *o = malloc(sizeof *o);
    fray_diag d;
    cr_expect_eq(fray_towers_duel_odds(s, 0, 1, o, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "formal duel"), "%s", d.message);
    cr_expect(strstr(d.message, "first-blood"), "%s", d.message);
    cr_expect(strstr(d.message, "Showdown"), "%s", d.message);
    cr_expect_eq(fray_towers_duel_odds_leaving(s, 0, 1, 0,
                                               FRAY_DUEL_LEAVE_HAND_OF_FATE |
                                                   FRAY_DUEL_LEAVE_CHIPS,
                                               o, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "formal duel"), "%s", d.message);
    free(o);
    fray_towers_setup_free(s);
}

/* rules-facts "Hand of Fate": 3 cards; exactly, each side could hold any
 * of C(52, 3) = 22100 hands: refused, and the message says so. */
Test(odds_duel_enc, the_hand_of_fate_is_refused_with_its_size) {
    fray_towers_setup *s = load(EXAMPLES "duel.yaml");
    fray_duel_odds *o = malloc(sizeof *o);
    fray_diag d;
    cr_expect_eq(fray_towers_duel_odds(s, 0, 1, o, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Hand of Fate"), "%s", d.message);
    cr_expect(strstr(d.message, "22100 hands of 3 cards"), "%s", d.message);
    /* Left out, the knights' chips come next. */
    cr_expect_eq(fray_towers_duel_odds_leaving(s, 0, 1, 0,
                                               FRAY_DUEL_LEAVE_HAND_OF_FATE, o, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "chips"), "%s", d.message);
    free(o);
    fray_towers_setup_free(s);
}

/* Leaving the Hand of Fate and chips out is the file with them turned
 * off (options: {hand-of-fate: 0}, tactics: {chips: false}): the same
 * chain, the same numbers to the last bit; the setup itself unchanged. */
Test(odds_duel_enc, leaving_out_equals_turning_off, .timeout = 120) {
    fray_towers_setup *with = load_text(BANDITS("", ""));
    fray_towers_setup *without =
        load_text(BANDITS(", hand-of-fate: 0", ", hand-of-fate: false, chips: false"));
    fray_duel_odds *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    fray_diag d;
    cr_expect_eq(fray_towers_duel_odds(with, 0, 1, a, &d), FRAY_ERR_INVALID);
    cr_assert_eq(fray_towers_duel_odds_leaving(with, 0, 1, 0,
                                               FRAY_DUEL_LEAVE_HAND_OF_FATE |
                                                   FRAY_DUEL_LEAVE_CHIPS,
                                               a, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_towers_duel_odds(without, 0, 1, b, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect_eq(a->p_win[0], b->p_win[0]);
    cr_expect_eq(a->p_win[1], b->p_win[1]);
    cr_expect_eq(a->mean_length, b->mean_length);
    cr_expect_eq(a->states, b->states);
    cr_expect(a->p_win[0] > 0.05 && a->p_win[1] > 0.05);
    /* The setup still holds its Hand of Fate. */
    cr_expect_eq(fray_towers_duel_odds(with, 0, 1, a, &d), FRAY_ERR_INVALID);
    free(a);
    free(b);
    fray_towers_setup_free(with);
    fray_towers_setup_free(without);
}

/* Issue 15: the odds with the Hand of Fate left out against a Monte
 * Carlo run of the same duel (hand-of-fate 0, no chips, fresh decks):
 * each side's wins within 4 standard errors of the sample. */
Test(odds_duel_enc, left_out_matches_the_simulation, .timeout = 300) {
    fray_towers_setup *with = load_text(BANDITS("", ""));
    fray_towers_setup *same =
        load_text(BANDITS(", hand-of-fate: 0", ", hand-of-fate: false, chips: false"));
    fray_duel_odds *o = malloc(sizeof *o);
    fray_diag d;
    cr_assert_eq(fray_towers_duel_odds_leaving(with, 0, 1, 0,
                                               FRAY_DUEL_LEAVE_HAND_OF_FATE |
                                                   FRAY_DUEL_LEAVE_CHIPS,
                                               o, &d),
                 FRAY_OK, "%s", d.message);
    enum { N = 20000 };
    uint64_t seed = 1515;
    fray_towers_fight_options fo = {false, false, 0};
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(same, seed, &fo, NULL, &f), FRAY_OK);
    long wins[2] = {0, 0};
    for (int i = 0; i < N; i++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, seed, (uint64_t)i), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        int w = fray_towers_fight_winner(f);
        for (int k = 0; k < 2; k++)
            if (w == fray_towers_setup_combatant_side(same, k))
                wins[k]++;
    }
    fray_towers_fight_free(f);
    for (int k = 0; k < 2; k++) {
        double p = o->p_win[k], ps = (double)wins[k] / N;
        double tol = 4 * sqrt(p * (1 - p) / N);
        cr_expect(fabs(ps - p) <= tol, "side %d: simulated %.5f, exact %.5f (tolerance %.5f)",
                  k, ps, p, tol);
    }
    free(o);
    fray_towers_setup_free(with);
    fray_towers_setup_free(same);
}

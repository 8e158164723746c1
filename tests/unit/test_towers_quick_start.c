/*
 * test_towers_quick_start.c - the duel shortcut's start (quick.c
 * ft_quick_begin: the reset and the begin event of a trial, issue 16
 * "the duel's start and choices") held to the long way (engine.c
 * ft_state_reset_trial and begin): for the example duel, twins who tie on
 * Calculated Initiative (the flip-off), a duel on one shared deck and one
 * on two decks, every trial started both ways must leave the same
 * combatants byte for byte, the same decks and stream, the same clock, and
 * the same begin event (its cards and the Hand of Fate's deal).
 *
 * The rules held: seed 000 "Initiative" (Calculated Initiative: the kept
 * card of an [N] flip plus [N]; the first phase 20 - CI, at most 20),
 * RULINGS 9 (the tie order: CI, then [N], then [SS], then a flip-off that
 * holds for the encounter), RULINGS 2 (whose deck; a short deck
 * reshuffles) and the Hand of Fate dealt at the start (seed 000 "Hand of
 * Fate", option hand-of-fate).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ruleset.h"
#include "towers_int.h"

static const fray__ruleset *RS = &fray__towers_ruleset;

#define CATALOG FRAY_SOURCE_DIR "/data/towers/equipment.yaml"

static fray_towers_setup *load_path(const char *path) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d:%d: %s", path, d.line, d.column, d.message);
    return s;
}

static fray_towers_setup *load(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    return load_path(path);
}

static fray_towers_setup *load_text(const char *text) {
    char path[] = "/tmp/fray_test_quick_start_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    cr_assert_not_null(fp);
    cr_assert(fputs(text, fp) >= 0);
    cr_assert_eq(fclose(fp), 0);
    fray_towers_setup *s = load_path(path);
    cr_assert_eq(unlink(path), 0);
    return s;
}

/* Two duellists with one stat block, so that they tie on [N] and [SS]
 * (the flip-off decides when their CI ties too); `gm`: both the GM's,
 * one deck shared (RULINGS 2), else each its own. */
static fray_towers_setup *twins_with(bool gm, int hand, const char *red,
                                     const char *blue) {
    char text[4096], sb[1024];
    snprintf(sb, sizeof sb,
             "    statblock:\n%s"
             "      aspects: {HS: 2, SS: 2, EE: 1}\n"
             "      combat: {N: 2, PA: 3, PD: 3, SA: 0, ID: 1, PX: 6, ER: 1, IR: 0, SPD: 5}\n"
             "      endurance: 2\n      weapons: [Longblade]\n      armor: [Leather]\n"
             "      chips: {white: 1}\n",
             gm ? "      controller: gm\n" : "      controller: player\n");
    snprintf(text, sizeof text,
             "fray: encounter\nname: twins\ncatalog: [%s]\n"
             "options: {hand-of-fate: %d}\nsides: [red, blue]\ncombatants:\n"
             "  - id: red\n    side: red\n    at: [0, 0]\n"
             "    tactics: {preset: attack, chips: true, hand-of-fate: true}\n%s%s"
             "  - id: blue\n    side: blue\n    at: [1, 0]\n"
             "    tactics: {preset: attack, chips: true, hand-of-fate: true}\n%s%s",
             CATALOG, hand, sb, red, sb, blue);
    return load_text(text);
}

static fray_towers_setup *twins(bool gm, int hand) {
    return twins_with(gm, hand, "", "");
}

/* What the two starts must share, beyond the table's `same`. */
static void same_start(const fray_towers_fight *q, const fray_towers_fight *l,
                       const char *what, long t) {
    cr_assert(RS->same(q, l), "%s trial %ld: the begin events differ", what, t);
    const ft_state *a = &q->st, *b = &l->st;
    cr_assert_eq(a->n, b->n, "%s trial %ld", what, t);
    for (int i = 0; i < a->n; i++)
        cr_assert_eq(memcmp(&a->c[i], &b->c[i], sizeof a->c[i]), 0,
                     "%s trial %ld: combatant %d differs after the start "
                     "(CI, phase, Initiative rank, slot: 000 \"Initiative\", "
                     "RULINGS 9)", what, t, i);
    cr_assert(a->phase == b->phase && a->round == b->round &&
                  a->n_events == b->n_events && a->next_slot == b->next_slot &&
                  a->winner == b->winner && a->over == b->over &&
                  a->active == b->active && a->n_decks == b->n_decks &&
                  a->pairs == b->pairs && a->stance_chosen == b->stance_chosen &&
                  a->companion_alone == b->companion_alone,
              "%s trial %ld: the fight's state differs after the start", what, t);
    cr_assert_eq(memcmp(&a->rng, &b->rng, sizeof a->rng), 0,
                 "%s trial %ld: the stream", what, t);
    for (int d = 0; d < a->n_decks; d++) {
        const fray_deck *x = &a->decks[d], *y = &b->decks[d];
        cr_assert(x->n_draw == y->n_draw && x->n_discard == y->n_discard &&
                      memcmp(x->draw, y->draw, x->n_draw * sizeof x->draw[0]) == 0 &&
                      memcmp(x->discard, y->discard,
                             x->n_discard * sizeof x->discard[0]) == 0 &&
                      memcmp(x->place, y->place, sizeof x->place) == 0,
                  "%s trial %ld: deck %d (the Hand of Fate's deal, RULINGS 2)",
                  what, t, d);
    }
    cr_assert_eq(a->clock.n, b->clock.n, "%s trial %ld: clock", what, t);
    for (int i = 0; i < a->clock.n; i++)
        cr_assert(a->clock.e[i].who == b->clock.e[i].who &&
                      a->clock.e[i].key == b->clock.e[i].key &&
                      a->clock.e[i].tie == b->clock.e[i].tie,
                  "%s trial %ld: the clock's order (RULINGS 9)", what, t);
    const ft_event *x = &q->scratch, *y = &l->scratch;
    cr_assert(x->cmd.action == FT_CMD_BEGIN && y->cmd.action == FT_CMD_BEGIN &&
                  x->n_cards == y->n_cards && x->n_choices == y->n_choices &&
                  x->n_facts == y->n_facts &&
                  x->flip_off_rounds == y->flip_off_rounds,
              "%s trial %ld: the begin event", what, t);
    /* the cards the Hands of Fate were dealt (the rest of a quiet event's
     * cards are counted, not written) */
    int dealt = 0;
    for (int d = 0; d < a->n_decks; d++)
        dealt += (int)fray_deck_held(&a->decks[d], NULL, 0);
    cr_assert(memcmp(x->cards, y->cards, (size_t)dealt * sizeof x->cards[0]) == 0 &&
                  memcmp(x->card_deck, y->card_deck,
                         (size_t)dealt * sizeof x->card_deck[0]) == 0,
              "%s trial %ld: the Hand of Fate's cards in the begin event", what, t);
    cr_assert_eq(q->failed, l->failed, "%s trial %ld", what, t);
}

/* Starts (and runs) trials [0, n) of s both ways; returns the trials
 * whose two CI tied (a flip-off). */
static long starts_both_ways(const fray_towers_setup *s, uint64_t seed, long n,
                             const char *what) {
    void *q = NULL, *l = NULL;
    cr_assert_eq(RS->sim_fight_new(s, seed, 0, NULL, NULL, &q), FRAY_OK);
    cr_assert_eq(RS->sim_fight_new(s, seed, 0, NULL, NULL, &l), FRAY_OK);
    cr_assert(ft_quick_eligible(q), "%s: not in the shortcut's class", what);
    ft_quick_set_off(l, true);
    long ties = 0;
    for (long t = 0; t < n; t++) {
        cr_assert_eq(RS->reset_trial(q, seed, (uint64_t)t), FRAY_OK, "%s trial %ld", what, t);
        cr_assert_eq(RS->reset_trial(l, seed, (uint64_t)t), FRAY_OK, "%s trial %ld", what, t);
        same_start(q, l, what, t);
        const ft_state *st = &((const fray_towers_fight *)q)->st;
        ties += st->c[0].ci == st->c[1].ci;
        /* the fight after it, so that the next start begins from a used
         * state (its decks run down, its clock moved) */
        cr_assert_eq(RS->run(q), FRAY_OK, "%s trial %ld", what, t);
        cr_assert_eq(RS->run(l), FRAY_OK, "%s trial %ld", what, t);
        cr_assert(RS->same(q, l), "%s trial %ld: the end differs", what, t);
    }
    /* (and the start sim_fight_new makes) */
    cr_assert_eq(ft_quick_begun(q), n + 1, "%s: a start went the long way", what);
    /* (the long way's fight made its first start before it was set off) */
    cr_assert_eq(ft_quick_begun(l), 1, "%s: the long way took the shortcut", what);
    RS->fight_free(q);
    RS->fight_free(l);
    return ties;
}

Test(towers_quick_start, example_duel_same_both_ways) {
    fray_towers_setup *s = load("examples/towers/duel.yaml");
    starts_both_ways(s, 7, 3000, "duel.yaml");
    starts_both_ways(s, 1187, 1000, "duel.yaml seed 1187");
    fray_towers_setup_free(s);
}

Test(towers_quick_start, test_duels_same_both_ways) {
    static const char *const files[] = {
        "tests/data/towers/duel_small.yaml",
        "tests/data/towers/quick_knights.yaml",
        "tests/data/towers/quick_brawlers.yaml",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        fray_towers_setup *s = load(files[i]);
        starts_both_ways(s, 99, 1000, files[i]);
        fray_towers_setup_free(s);
    }
}

/* Twins tie on [N] and [SS]; when their CI ties as well, the flip-off
 * orders them for the encounter (RULINGS 9): met, and the same both
 * ways, on one shared deck and on two, with and without a Hand of Fate. */
Test(towers_quick_start, twins_flip_off_same_both_ways) {
    for (int gm = 0; gm < 2; gm++)
        for (int hand = 0; hand <= 5; hand += 5) {
            fray_towers_setup *s = twins(gm != 0, hand);
            cr_assert_eq(s->s.n_decks, gm ? 1 : 2, "RULINGS 2: whose deck");
            char what[64];
            snprintf(what, sizeof what, "twins (%s, hand of fate %d)",
                     gm ? "one deck" : "two decks", hand);
            long ties = starts_both_ways(s, 3, 2000, what);
            cr_assert_gt(ties, 0, "%s: no flip-off met", what);
            fray_towers_setup_free(s);
        }
}

/* Initiative advantages and disadvantages (seed 000 "Initiative": [N]
 * cards plus initiative advantages; their flips and shifts,
 * ft_advantage_mods) change the Calculated Initiative, not the tie's
 * [N] and [SS]: the same both ways, a flip-off still met. */
Test(towers_quick_start, initiative_advantages_same_both_ways) {
    static const char *const red =
        "      advantages:\n"
        "        - {name: Quick, rank: 1, applies: initiative}\n";
    static const char *const blue =
        "      disadvantages:\n"
        "        - {name: Slow, rank: 2, applies: initiative}\n";
    fray_towers_setup *s = twins_with(true, 3, red, blue);
    int flip = 0, shift = 0, bflip = 0, bshift = 0;
    ft_advantage_mods(&s->s.c[0].sb, FT_APPLIES_INITIATIVE, &flip, &shift);
    ft_advantage_mods(&s->s.c[1].sb, FT_APPLIES_INITIATIVE, &bflip, &bshift);
    cr_assert((flip | shift) != 0 && (bflip | bshift) != 0,
              "the initiative advantages count (%d %d, %d %d)", flip, shift,
              bflip, bshift);
    long ties = starts_both_ways(s, 21, 3000, "twins with initiative advantages");
    cr_assert_gt(ties, 0, "no flip-off met");
    fray_towers_setup_free(s);
}

/*
 * test_towers_quick.c - 99 Towers' duel shortcut (quick.c, towers_int.h
 * "Shortcut (quick.c)"; issue 16 "the duel within 3x of the lazy-draw
 * loop") held to the long way: for examples/towers/duel.yaml, the test
 * duels under tests/data/towers/ and a few hundred random duels of its
 * class, every trial run both ways through the ruleset's table
 * (sim_fight_new, reset_trial, run, count) must leave the identical state
 * (the table's `same`: every combatant's STUN, LETHAL, flags, conditions,
 * clock place and statistics, every deck's piles, the events, the winner,
 * the random stream; and here also the round, the clock's track, whose
 * activation is under way and the zero-cost slot count) and the identical
 * counts; and each feature off the whitelist sends a setup the long way.
 *
 * The rules these tests hold the loop to are the long way's, which the
 * loop repeats: seed 000 "Attack" and "Power Attack" (their costs on the
 * Combat Clock, Power Attack's (flip-1) and +2 damage), RULINGS 9 (the
 * tie order of a phase: slots), RULINGS 12 (Power Attack and Full Defense
 * end at the start of the next activation), seed "Zero Phases" (the
 * clock's steps), and the end of the fight when one side is out.
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

/* ---- Setups ---------------------------------------------------------------------- */

static fray_towers_setup *load(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_towers_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d:%d: %s", path, d.line, d.column, d.message);
    return s;
}

/* Loads an encounter written as text (the catalog named by its absolute
 * path: the text says CATALOG where it goes). */
static fray_towers_setup *load_text(const char *text) {
    char path[] = "/tmp/fray_test_quick_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    cr_assert_not_null(fp);
    cr_assert(fputs(text, fp) >= 0);
    cr_assert_eq(fclose(fp), 0);
    fray_towers_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rc, FRAY_OK, "%d:%d: %s\n%s", d.line, d.column, d.message, text);
    return s;
}

#define CATALOG FRAY_SOURCE_DIR "/data/towers/equipment.yaml"

/* ---- Both ways ------------------------------------------------------------------- */

static void same_state(const fray_towers_fight *q, const fray_towers_fight *l,
                       const char *what, long t) {
    cr_assert(RS->same(q, l),
              "%s trial %ld: the end differs (STUN, LETHAL, flags, conditions, "
              "clock, decks, events or stream)", what, t);
    const ft_state *a = &q->st, *b = &l->st;
    cr_assert_eq(a->round, b->round, "%s trial %ld: round", what, t);
    cr_assert_eq(a->active, b->active, "%s trial %ld: activation", what, t);
    cr_assert_eq(a->next_slot, b->next_slot, "%s trial %ld", what, t);
    cr_assert_eq(a->clock.n, b->clock.n, "%s trial %ld: clock", what, t);
    /* Entry by entry (who, phase, tie), not their bytes: an entry's
     * padding is no part of the clock, and quick.c writes its entries
     * itself. */
    for (int i = 0; i < a->clock.n; i++)
        cr_assert(a->clock.e[i].who == b->clock.e[i].who &&
                      a->clock.e[i].key == b->clock.e[i].key &&
                      a->clock.e[i].tie == b->clock.e[i].tie,
                  "%s trial %ld: the clock's order", what, t);
    cr_assert_eq(q->failed, l->failed, "%s trial %ld", what, t);
    /* The last event's cards counted and its Hand of Fate and chip
     * choices, each round's marker numbering its round (fate.c: what a
     * journal would record of them; a quiet run keeps them in its scratch
     * event). */
    const ft_event *qe = &q->scratch, *le = &l->scratch;
    cr_assert_eq(qe->n_cards, le->n_cards, "%s trial %ld: the cards counted", what, t);
    cr_assert_eq(qe->n_choices, le->n_choices, "%s trial %ld: the choices", what, t);
    for (int i = 0; i < qe->n_choices; i++)
        cr_assert(qe->choices[i].kind == le->choices[i].kind &&
                      qe->choices[i].who == le->choices[i].who &&
                      qe->choices[i].a == le->choices[i].a &&
                      qe->choices[i].b == le->choices[i].b,
                  "%s trial %ld: choice %d of the last event", what, t, i);
}

/* What the shortcut's side did in both_ways_seen: the attacks the loop
 * applied, those of them its model of the attack applied (quick.c
 * quick_attack), and the Hand of Fate cards and chips spent, the hits of
 * a Power Attack's +2 included, summed over the trials' ends. */
typedef struct quick_seen {
    long quick, modelled, fate, chips;
} quick_seen;

/* Runs trials [0, n) of s both ways (seed, until) and asserts, trial by
 * trial, the identical state after the begin event and at the end, and
 * identical counts; what the shortcut's side did goes to *seen. */
static void both_ways_seen(const fray_towers_setup *s, uint64_t seed, int until,
                           long n, const char *what, quick_seen *seen) {
    void *q = NULL, *l = NULL;
    cr_assert_eq(RS->sim_fight_new(s, seed, until, NULL, NULL, &q), FRAY_OK);
    cr_assert_eq(RS->sim_fight_new(s, seed, until, NULL, NULL, &l), FRAY_OK);
    ft_quick_set_off(l, true);
    fray_sim_counts *cq = calloc(1, sizeof *cq), *cl = calloc(1, sizeof *cl);
    cr_assert(cq && cl);
    for (long t = 0; t < n; t++) {
        cr_assert_eq(RS->reset_trial(q, seed, (uint64_t)t), FRAY_OK, "%s trial %ld", what, t);
        cr_assert_eq(RS->reset_trial(l, seed, (uint64_t)t), FRAY_OK, "%s trial %ld", what, t);
        cr_assert(RS->same(q, l), "%s trial %ld: the begin events differ", what, t);
        cr_assert_eq(RS->run(q), FRAY_OK, "%s trial %ld", what, t);
        cr_assert_eq(RS->run(l), FRAY_OK, "%s trial %ld", what, t);
        same_state(q, l, what, t);
        const ft_state *qs = &((const fray_towers_fight *)q)->st;
        for (int i = 0; i < qs->n; i++) {
            seen->fate += qs->c[i].fate_used;
            seen->chips += qs->c[i].chips_used;
        }
        RS->count(q, cq);
        RS->count(l, cl);
        cr_assert_eq(memcmp(cq, cl, sizeof *cq), 0, "%s trial %ld: the counts differ",
                     what, t);
    }
    seen->quick += ft_quick_actions(q);
    seen->modelled += ft_quick_modelled(q);
    cr_assert_eq(ft_quick_actions(l), 0, "%s: the long way took the shortcut", what);
    cr_assert_leq(ft_quick_modelled(q), ft_quick_actions(q), "%s", what);
    free(cq);
    free(cl);
    RS->fight_free(q);
    RS->fight_free(l);
}

/* both_ways_seen; returns the attacks the shortcut applied. */
static long both_ways(const fray_towers_setup *s, uint64_t seed, int until,
                      long n, const char *what) {
    quick_seen seen;
    memset(&seen, 0, sizeof seen);
    both_ways_seen(s, seed, until, n, what, &seen);
    return seen.quick;
}

static bool eligible(const fray_towers_setup *s) {
    void *f = NULL;
    cr_assert_eq(RS->sim_fight_new(s, 1, 0, NULL, NULL, &f), FRAY_OK);
    bool yes = ft_quick_eligible(f);
    RS->fight_free(f);
    char why[200];
    cr_assert_eq(yes, ft_quick_plan(&s->s, why, sizeof why));
    return yes;
}

/* ---- The example duel and the test duels ----------------------------------------- */

Test(towers_quick, example_duel_same_both_ways) {
    /* examples/towers/duel.yaml: the Hand of Fate, chips, two weapons in
     * hand, the aggressive stance, armor, a shield and advantages, on
     * the bridge. */
    fray_towers_setup *s = load("examples/towers/duel.yaml");
    char why[200];
    cr_assert(ft_quick_plan(&s->s, why, sizeof why), "%s", why);
    cr_assert_gt(both_ways(s, 7, 0, 3000, "duel.yaml"), 3000);
    cr_assert_gt(both_ways(s, 1187, 0, 1000, "duel.yaml seed 1187"), 1000);
    /* --until-phase: stopped before the end */
    cr_assert_gt(both_ways(s, 7, 6, 1000, "duel.yaml until 6"), 0);
    fray_towers_setup_free(s);
}

Test(towers_quick, test_duels_same_both_ways) {
    static const char *const files[] = {
        "tests/data/towers/duel_small.yaml",
        "tests/data/towers/quick_knights.yaml",
        "tests/data/towers/quick_brawlers.yaml",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        fray_towers_setup *s = load(files[i]);
        char why[200];
        cr_assert(ft_quick_plan(&s->s, why, sizeof why), "%s: %s", files[i], why);
        cr_assert_gt(both_ways(s, 7, 0, 2000, files[i]), 2000, "%s", files[i]);
        cr_assert_gt(both_ways(s, 99, 9, 500, files[i]), 0, "%s", files[i]);
        fray_towers_setup_free(s);
    }
}

/* quick.c places the mover on the clock itself when both are on
 * it (one comparison instead of the engine's insertion step). Twins (the
 * same stat block, the same tactics) share their Initiative rank, so that
 * they often stand in one phase with equal slots and the order within it
 * falls to the index (RULINGS 9: the tie order of a phase): the hardest
 * case for that comparison. Held to the long way, stopped at every phase
 * of the first 30 (so that the clock is compared mid-fight), and the tie
 * must have been met. */
Test(towers_quick, twins_clock_ties_same_both_ways) {
    char text[4096];
    static const char *const sb =
        "    statblock:\n"
        "      aspects: {HS: 2, SS: 2, EE: 1}\n"
        "      combat: {N: 2, PA: 3, PD: 3, SA: 0, ID: 1, PX: 6, ER: 1, IR: 0, SPD: 5}\n"
        "      endurance: 2\n      weapons: [Longblade]\n      armor: [Leather]\n";
    snprintf(text, sizeof text,
             "fray: encounter\nname: twins\ncatalog: [%s]\n"
             "options: {hand-of-fate: 0}\nsides: [red, blue]\ncombatants:\n"
             "  - id: red\n    side: red\n    at: [0, 0]\n    tactics: attack\n%s"
             "  - id: blue\n    side: blue\n    at: [1, 0]\n    tactics: attack\n%s",
             CATALOG, sb, sb);
    fray_towers_setup *s = load_text(text);
    char why[200];
    cr_assert(ft_quick_plan(&s->s, why, sizeof why), "%s", why);
    long quick = 0, ties = 0;
    for (int until = 1; until <= 30; until++) {
        char what[64];
        snprintf(what, sizeof what, "twins until %d", until);
        quick += both_ways(s, 11, until, 200, what);
        void *f = NULL;
        cr_assert_eq(RS->sim_fight_new(s, 11, until, NULL, NULL, &f), FRAY_OK);
        for (long t = 0; t < 200; t++) {
            cr_assert_eq(RS->reset_trial(f, 11, (uint64_t)t), FRAY_OK);
            cr_assert_eq(RS->run(f), FRAY_OK);
            const fray__track *c = &((const fray_towers_fight *)f)->st.clock;
            ties += c->n == 2 && c->e[0].key == c->e[1].key;
        }
        RS->fight_free(f);
    }
    cr_assert_gt(quick, 0);
    cr_assert_gt(ties, 0, "no trial ended with the twins in one phase");
    fray_towers_setup_free(s);
}

/* ---- Random duels of the class ----------------------------------------------------- */

static uint32_t next_rand(uint64_t *x) {
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*x >> 33);
}

static int pick(uint64_t *x, int lo, int hi) {
    return lo + (int)(next_rand(x) % (uint32_t)(hi - lo + 1));
}

static void statblock_text(uint64_t *x, char *buf, size_t size) {
    static const char *const weapons[] = {"Longblade", "Shortblade", "Spear",
                                          "Unarmed Strike"};
    static const char *const armor[] = {"[]", "[Leather]", "[Chain]", "[Plate]",
                                        "[Shield]", "[Chain, Shield]"};
    snprintf(buf, size,
             "      aspects: {HS: %d, SS: %d, EE: %d}\n"
             "      combat: {N: %d, PA: %d, PD: %d, SA: 0, ID: 1, PX: %d, ER: %d, "
             "IR: 0, SPD: 5}\n"
             "      endurance: %d\n"
             "      weapons: [%s]\n"
             "      armor: %s\n"
             "      chips: {white: %d, red: %d}\n",
             pick(x, 1, 4), pick(x, 1, 4), pick(x, 1, 4), pick(x, 1, 4),
             pick(x, 1, 5), pick(x, 1, 5), pick(x, 0, 6), pick(x, 0, 3),
             pick(x, 1, 4), weapons[pick(x, 0, 3)], armor[pick(x, 0, 5)],
             pick(x, 0, 2), pick(x, 0, 1));
}

Test(towers_quick, random_duels_same_both_ways) {
    static const char *const presets[] = {"default", "attack", "power-attack"};
    uint64_t x = 20261126;
    long quick = 0, modelled = 0;
    for (int k = 0; k < 300; k++) {
        char sb[2][600], text[4096];
        statblock_text(&x, sb[0], sizeof sb[0]);
        statblock_text(&x, sb[1], sizeof sb[1]);
        int limit = pick(&x, 0, 3) * 15, fate = pick(&x, 0, 3);
        bool map = pick(&x, 0, 1);
        int dx = map ? pick(&x, 0, 1) : 1, dy = dx ? pick(&x, -1, 1) : 1;
        snprintf(text, sizeof text,
                 "fray: encounter\nname: random duel %d\ncatalog: [%s]\n"
                 "options: {hand-of-fate: %d, phase-limit: %d}\n"
                 "sides: [red, blue]\n%s"
                 "combatants:\n"
                 "  - id: red\n    side: red\n    at: [3, 3]\n"
                 "    tactics: {preset: %s, chips: %s, hand-of-fate: %s, "
                 "recover-below: %d}\n    statblock:\n%s"
                 "  - id: blue\n    side: blue\n    at: [%d, %d]\n"
                 "    tactics: {preset: %s, chips: %s, hand-of-fate: %s}\n"
                 "    statblock:\n%s",
                 k, CATALOG, fate, limit,
                 map ? "map:\n  art: |\n    ........\n    ........\n    ........\n"
                       "    ........\n    ........\n    ........\n    ........\n"
                       "    ........\n"
                     : "",
                 presets[pick(&x, 0, 2)], pick(&x, 0, 1) ? "true" : "false",
                 pick(&x, 0, 1) ? "true" : "false", pick(&x, 0, 3) * 20, sb[0],
                 3 + dx, 3 + dy, presets[pick(&x, 0, 2)],
                 pick(&x, 0, 1) ? "true" : "false",
                 pick(&x, 0, 1) ? "true" : "false", sb[1]);
        fray_towers_setup *s = load_text(text);
        char why[200];
        cr_assert(ft_quick_plan(&s->s, why, sizeof why), "random duel %d: %s\n%s",
                  k, why, text);
        char what[64];
        snprintf(what, sizeof what, "random duel %d", k);
        int until = pick(&x, 0, 3) == 0 ? pick(&x, 1, 20) : 0;
        quick_seen seen;
        memset(&seen, 0, sizeof seen);
        both_ways_seen(s, (uint64_t)k + 1, until, 1000, what, &seen);
        quick += seen.quick;
        modelled += seen.modelled;
        fray_towers_setup_free(s);
    }
    /* the class takes the loop: most attacks of 300,000 trials; and the
     * model of the attack (quick.c quick_attack) most of those */
    cr_assert_gt(quick, 300000);
    cr_log_info("random duels: %ld attacks, %ld modelled", quick, modelled);
    cr_assert_gt(modelled, quick * 9 / 10, "%ld of %ld attacks modelled", modelled,
                 quick);
}

/* ---- The model of the attack (quick.c quick_attack) -------------------------------- */

/* The model takes the example duel's attacks (seed 000 "Attack", "Power
 * Attack"; rules-facts.md "Hand of Fate", "Chips"), and they end as the
 * engine's (ft_attack) do, trial by trial: the Black Knight's Power
 * Attacks and Sir Aldric's Hand of Fate and white chip among them. */
Test(towers_quick, model_example_duel_same_both_ways) {
    fray_towers_setup *s = load("examples/towers/duel.yaml");
    quick_seen seen;
    memset(&seen, 0, sizeof seen);
    both_ways_seen(s, 7, 0, 3000, "duel.yaml", &seen);
    cr_log_info("duel.yaml: %ld attacks, %ld modelled, %ld Hand of Fate cards, "
                "%ld chips", seen.quick, seen.modelled, seen.fate, seen.chips);
    cr_assert_gt(seen.quick, 30000);
    /* every attack of the loop: none is off the model's class here */
    cr_assert_eq(seen.modelled, seen.quick, "%ld of %ld attacks modelled",
                 seen.modelled, seen.quick);
    cr_assert_gt(seen.fate, 100, "the Hand of Fate played %ld cards", seen.fate);
    cr_assert_gt(seen.chips, 100, "%ld chips spent", seen.chips);
    fray_towers_setup_free(s);
}

/* Duels of the model's class with what it takes, each in its turn: the
 * Hand of Fate from 0 to 5 cards (a swap and a reflip: rules-facts.md
 * "Hand of Fate"), white, red and blue chips ((shift+1), (flip+1), one
 * standing for another: "Chips"), flips of 0 or less that keep the
 * lowest (RULINGS 3, a Power Attack's (flip-1) on a low [PA]), one deck
 * shared (the GM's) or one each (players' decks, RULINGS 2), large flips
 * that turn over most of a deck and its reshuffles, and weapons of every
 * kind the class holds (the harm table: seed 000 "Damage", Hearts and
 * Resilience). Each held to the long way, trial by
 * trial; the model must take most attacks, and the choices must come. */
Test(towers_quick, model_options_same_both_ways) {
    static const char *const weapons[] = {
        "Longblade", "Shortblade", "Spear", "Unarmed Strike",
        "Longblade, Shortblade]\n      wield: [Longblade, Shortblade"};
    static const char *const presets[] = {"default", "attack", "power-attack"};
    /* (at most 3 chips held) */
    static const char *const chips[] = {
        "white: 0", "white: 1", "white: 3", "white: 2, red: 1",
        "white: 1, red: 1, blue: 1", "red: 2, blue: 1", "blue: 2"};
    uint64_t x = 16;
    quick_seen seen;
    memset(&seen, 0, sizeof seen);
    long lowest = 0, big = 0;
    for (int k = 0; k < 120; k++) {
        char sb[2][700], text[4096];
        for (int i = 0; i < 2; i++) {
            int pa = pick(&x, 0, 5) == 0 ? pick(&x, 10, 30) : pick(&x, 0, 5);
            lowest += pa <= 1;
            big += pa >= 10;
            snprintf(sb[i], sizeof sb[i],
                     "      controller: %s\n"
                     "      aspects: {HS: 2, SS: 2, EE: %d}\n"
                     "      combat: {N: %d, PA: %d, PD: %d, SA: 0, ID: 1, PX: %d, "
                     "ER: %d, IR: 0, SPD: 5}\n"
                     "      endurance: %d\n"
                     "      weapons: [%s]\n"
                     "      chips: {%s}\n",
                     pick(&x, 0, 1) ? "player" : "gm", pick(&x, 1, 3),
                     pick(&x, 1, 4), pa, pick(&x, 0, 6), pick(&x, 0, 6),
                     pick(&x, 0, 3), pick(&x, 1, 4), weapons[pick(&x, 0, 4)],
                     chips[pick(&x, 0, 6)]);
        }
        int fate = pick(&x, 0, 5);
        snprintf(text, sizeof text,
                 "fray: encounter\nname: model duel %d\ncatalog: [%s]\n"
                 "options: {hand-of-fate: %d}\n"
                 "sides: [red, blue]\n"
                 "combatants:\n"
                 "  - id: red\n    side: red\n    at: [3, 3]\n"
                 "    tactics: {preset: %s, chips: %s, hand-of-fate: %s}\n"
                 "    statblock:\n%s"
                 "  - id: blue\n    side: blue\n    at: [4, 3]\n"
                 "    tactics: {preset: %s, chips: %s, hand-of-fate: %s}\n"
                 "    statblock:\n%s",
                 k, CATALOG, fate, presets[pick(&x, 0, 2)],
                 pick(&x, 0, 3) ? "true" : "false", pick(&x, 0, 3) ? "true" : "false",
                 sb[0], presets[pick(&x, 0, 2)], pick(&x, 0, 3) ? "true" : "false",
                 pick(&x, 0, 3) ? "true" : "false", sb[1]);
        fray_towers_setup *s = load_text(text);
        char why[200];
        cr_assert(ft_quick_plan(&s->s, why, sizeof why), "model duel %d: %s\n%s", k,
                  why, text);
        char what[64];
        snprintf(what, sizeof what, "model duel %d", k);
        both_ways_seen(s, (uint64_t)k + 3, 0, 400, what, &seen);
        fray_towers_setup_free(s);
    }
    cr_log_info("model duels: %ld attacks, %ld modelled, %ld Hand of Fate cards, "
                "%ld chips; %ld low and %ld large attack ranks", seen.quick,
                seen.modelled, seen.fate, seen.chips, lowest, big);
    cr_assert_gt(lowest, 10);
    cr_assert_gt(big, 10);
    cr_assert_gt(seen.quick, 100000);
    cr_assert_gt(seen.modelled, seen.quick * 9 / 10, "%ld of %ld attacks modelled",
                 seen.modelled, seen.quick);
    cr_assert_gt(seen.fate, 1000, "the Hand of Fate played %ld cards", seen.fate);
    cr_assert_gt(seen.chips, 1000, "%ld chips spent", seen.chips);
}

/* The model's rounds read the Hand of Fate's held cards from what the
 * loop keeps of them through a trial (quick.c quick_idle): held cards
 * change only in the engine's own rounds, so what is kept is dropped after
 * each. Hardest for that: both duellists drawing from one shared deck (the
 * GM's, RULINGS 2), each holding a full Hand of Fate (rules-facts.md "Hand
 * of Fate": a swap puts a held card in the flip and the flipped card in the
 * Hand), so that one's swap changes what the other's next round must see;
 * chips beside them ("Chips"). Held to the long way trial by trial, and
 * both must have played Hand of Fate cards. */
Test(towers_quick, model_shared_hand_same_both_ways) {
    char text[4096];
    static const char *const sb =
        "    statblock:\n"
        "      controller: gm\n"
        "      aspects: {HS: 2, SS: 2, EE: 2}\n"
        "      combat: {N: 2, PA: 3, PD: 3, SA: 0, ID: 1, PX: 4, ER: 2, IR: 0, SPD: 5}\n"
        "      endurance: 3\n      weapons: [Longblade]\n"
        "      chips: {white: 1, red: 1}\n";
    snprintf(text, sizeof text,
             "fray: encounter\nname: shared hands\ncatalog: [%s]\n"
             "options: {hand-of-fate: 5}\nsides: [red, blue]\ncombatants:\n"
             "  - id: red\n    side: red\n    at: [0, 0]\n"
             "    tactics: {preset: attack, chips: true, hand-of-fate: true}\n%s"
             "  - id: blue\n    side: blue\n    at: [1, 0]\n"
             "    tactics: {preset: power-attack, chips: true, hand-of-fate: true}\n%s",
             CATALOG, sb, sb);
    fray_towers_setup *s = load_text(text);
    char why[200];
    cr_assert(ft_quick_plan(&s->s, why, sizeof why), "%s", why);
    cr_assert_eq(s->s.c[0].deck, s->s.c[1].deck, "one deck shared (RULINGS 2)");
    quick_seen seen;
    memset(&seen, 0, sizeof seen);
    both_ways_seen(s, 5, 0, 3000, "shared hands", &seen);
    /* and each side's Hand of Fate, counted apart over the same trials */
    void *f = NULL;
    cr_assert_eq(RS->sim_fight_new(s, 5, 0, NULL, NULL, &f), FRAY_OK);
    long fate[2] = {0, 0};
    for (long t = 0; t < 3000; t++) {
        cr_assert_eq(RS->reset_trial(f, 5, (uint64_t)t), FRAY_OK);
        cr_assert_eq(RS->run(f), FRAY_OK);
        const ft_state *st = &((const fray_towers_fight *)f)->st;
        fate[0] += st->c[0].fate_used;
        fate[1] += st->c[1].fate_used;
    }
    RS->fight_free(f);
    cr_log_info("shared hands: %ld attacks, %ld modelled, Hand of Fate cards "
                "%ld and %ld, %ld chips", seen.quick, seen.modelled, fate[0],
                fate[1], seen.chips);
    cr_assert_gt(seen.modelled, seen.quick * 9 / 10);
    cr_assert_gt(fate[0], 300, "red played %ld Hand of Fate cards", fate[0]);
    cr_assert_gt(fate[1], 300, "blue played %ld Hand of Fate cards", fate[1]);
    fray_towers_setup_free(s);
}

/* The loop with the model off (every attack through ft_attack: what it
 * does whenever the model refuses one) ends as the long way too. In the
 * class the model's refusals were not met in any duel of the tests above
 * (the policy's modifiers were always reusable; a flip turns over at most
 * some 33 cards, [PA] being at most 30, against the 42 a deck shared by
 * two full Hands of Fate can give; no standard deck holds 16 Hearts), so
 * the path they take is held here as a whole. */
Test(towers_quick, model_off_same_both_ways) {
    fray_towers_setup *s = load("examples/towers/duel.yaml");
    void *q = NULL, *l = NULL;
    cr_assert_eq(RS->sim_fight_new(s, 7, 0, NULL, NULL, &q), FRAY_OK);
    cr_assert_eq(RS->sim_fight_new(s, 7, 0, NULL, NULL, &l), FRAY_OK);
    ft_quick_set_off(l, true);
    ft_quick_set_model_off(q, true);
    for (long t = 0; t < 500; t++) {
        cr_assert_eq(RS->reset_trial(q, 7, (uint64_t)t), FRAY_OK);
        cr_assert_eq(RS->reset_trial(l, 7, (uint64_t)t), FRAY_OK);
        cr_assert_eq(RS->run(q), FRAY_OK);
        cr_assert_eq(RS->run(l), FRAY_OK);
        same_state(q, l, "model off", t);
    }
    cr_assert_gt(ft_quick_actions(q), 5000);
    cr_assert_eq(ft_quick_modelled(q), 0);
    RS->fight_free(q);
    RS->fight_free(l);
    fray_towers_setup_free(s);
}

/* ---- The whitelist: each feature sends the setup the long way ------------------------ */

/* A duel that qualifies, with room for one feature at each place:
 * %1$s options, %2$s top-level keys, %3$s/%4$s the two combatants' extra
 * lines, %5$s the first's statblock lines, %6$s a third combatant. */
static fray_towers_setup *feature(const char *options, const char *top,
                                  const char *red, const char *blue,
                                  const char *red_sb, const char *third) {
    char text[4096];
    snprintf(text, sizeof text,
             "fray: encounter\nname: feature\ncatalog: [%s, %s/data/towers/talents.yaml, "
             "%s/data/towers/spells.yaml]\n"
             "options: {hand-of-fate: 0%s}\n%s"
             "sides: [red, blue]\n"
             "combatants:\n"
             "  - id: red\n    side: red\n    at: [0, 0]\n    tactics: attack\n%s"
             "    statblock:\n"
             "      aspects: {HS: 2, SS: 1, EE: 1}\n"
             "      combat: {N: 2, PA: 3, PD: 2, SA: 2, ID: 1, PX: 6, ER: 1, IR: 0, SPD: 5}\n"
             "      endurance: 1\n%s"
             "  - id: blue\n    side: blue\n    at: [1, 0]\n    tactics: attack\n%s"
             "    statblock:\n"
             "      aspects: {HS: 2, SS: 1, EE: 1}\n"
             "      combat: {N: 1, PA: 2, PD: 3, SA: 0, ID: 1, PX: 8, ER: 1, IR: 0, SPD: 5}\n"
             "      endurance: 1\n      weapons: [Longblade]\n%s",
             CATALOG, FRAY_SOURCE_DIR, FRAY_SOURCE_DIR, options, top, red,
             red_sb[0] ? red_sb : "      weapons: [Longblade]\n", blue, third);
    return load_text(text);
}

static void refused(fray_towers_setup *s, const char *what) {
    char why[200];
    cr_assert(!ft_quick_plan(&s->s, why, sizeof why), "%s: taken", what);
    cr_assert(why[0], "%s: no reason given", what);
    cr_assert(!eligible(s), "%s", what);
    /* and the long way runs it */
    void *f = NULL;
    cr_assert_eq(RS->sim_fight_new(s, 3, 0, NULL, NULL, &f), FRAY_OK);
    cr_assert_eq(RS->run(f), FRAY_OK, "%s", what);
    cr_assert_eq(ft_quick_actions(f), 0, "%s", what);
    RS->fight_free(f);
    fray_towers_setup_free(s);
}

Test(towers_quick, whitelist_base_qualifies) {
    fray_towers_setup *s = feature("", "", "", "", "", "");
    cr_assert(eligible(s));
    cr_assert_gt(both_ways(s, 5, 0, 200, "base"), 200);
    fray_towers_setup_free(s);
}

Test(towers_quick, whitelist_three_combatants) {
    refused(feature("", "", "", "", "",
                    "  - {id: green, side: blue, at: [2, 0], statblock: "
                    "{combat: {N: 1, PA: 2, PD: 2, SA: 0, ID: 1, PX: 1, ER: 0, IR: 0, SPD: 5}, endurance: 1, weapons: [Longblade]}}\n"),
            "three combatants");
}

Test(towers_quick, whitelist_one_side) {
    fray_towers_setup *s = feature("", "", "", "", "", "");
    s->s.c[1].side = 0;   /* (a file refuses one side: made by hand) */
    char why[200];
    cr_assert(!ft_quick_plan(&s->s, why, sizeof why));
    fray_towers_setup_free(s);
}

Test(towers_quick, whitelist_formal_duel) {
    refused(feature("", "duel: {to: first-blood}\n", "", "", "", ""), "a formal duel");
}

Test(towers_quick, whitelist_reinforcements) {
    refused(feature("", "", "", "    joins: later\n", "", ""), "joins: later");
}

Test(towers_quick, whitelist_option_off_default) {
    refused(feature(", fresh-decks: true", "", "", "", "", ""), "fresh-decks");
    refused(feature(", dying-loses-lethal: false", "", "", "", "", ""),
            "dying-loses-lethal");
}

Test(towers_quick, whitelist_companion) {
    refused(feature("", "", "",  "", "",
                    "  - {id: hawk, side: red, at: [0, 1], companion-of: red, "
                    "statblock: {combat: {N: 1, PA: 2, PD: 2, SA: 0, ID: 1, PX: 1, ER: 0, IR: 0, SPD: 5}, endurance: 1, weapons: [Longblade]}}\n"),
            "a companion");
}

Test(towers_quick, whitelist_surprise) {
    refused(feature("", "", "    unaware-of: [blue]\n", "", "", ""), "surprise");
}

Test(towers_quick, whitelist_tactics_preset) {
    static const char *const p[] = {"defensive", "aim", "ranged", "hold-ground",
                                    "idle", "grapple"};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        fray_towers_setup *s = feature("", "", "", "", "", "");
        char why[200];
        cr_assert(ft_quick_plan(&s->s, why, sizeof why), "%s", why);
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(fray_towers_setup_vary(s, "red.tactics", p[i], &d), FRAY_OK,
                     "%s", d.message);
        refused(s, p[i]);
    }
}

Test(towers_quick, whitelist_talents) {
    refused(feature("", "", "", "", "      weapons: [Longblade]\n"
                                    "      talents: [Heavy Hitter]\n", ""),
            "talents");
}

Test(towers_quick, whitelist_ranged_or_spell_in_hand) {
    refused(feature("", "", "", "", "      weapons: [Pistol]\n", ""), "a pistol");
    refused(feature("", "", "", "", "      weapons: [Bolt of Fire]\n"
                                    "      mana: {fire: 3}\n", ""), "a spell");
}

Test(towers_quick, whitelist_crit_keyword) {
    refused(feature("", "", "", "", "      weapons: [Great Axe]\n", ""),
            "Crit: Bleed");
    refused(feature("", "", "", "", "      weapons: [Mace]\n", ""), "Crit: Stun");
}

Test(towers_quick, whitelist_gm_strength_limit) {
    /* an improvised weapon with no limit in the data: the GM's call */
    refused(feature("", "", "", "", "      weapons: [Club]\n", ""), "a club");
}

Test(towers_quick, whitelist_mana) {
    refused(feature("", "", "", "", "      weapons: [Longblade]\n"
                                    "      mana: {fire: 2}\n", ""), "mana");
}

Test(towers_quick, whitelist_table_and_journal_fights_go_the_long_way) {
    /* Only sim_fight_new's fights take it: a fight made for the table or
     * a journal never holds the table of choices. */
    fray_towers_setup *s = load("examples/towers/duel.yaml");
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 7, &o, NULL, &f), FRAY_OK);
    cr_assert(!ft_quick_eligible(f));
    cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
    cr_assert_eq(ft_quick_actions(f), 0);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

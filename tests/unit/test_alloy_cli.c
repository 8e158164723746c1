/* test_alloy_cli.c - what the Alloy tests at the CLI (tests/cli, the fuzz
 * targets tests/fuzz/fuzz_alloy_*.c) found in the rules engine, as tests
 * through the public API (include/fray/fight.h), all fixed and enabled;
 * and the table commands the CLI tests rely on. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "fray/fight.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

static fray_setup *load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK, "%s: %s", rel,
                 diag.message);
    return s;
}

static fray_fight *start(const fray_setup *s, uint64_t seed) {
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

static void command(fray_fight *f, const char *line) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_fight_command(f, line, NULL, &diag);
    cr_assert_eq(st, FRAY_OK, "'%s': %s", line, diag.message);
}

/* The duel at the table (tests/cli/input/table_alloy.txt): a refusal
 * leaves the fight as it was and says why in rules words; dice given by
 * hand are the dice rolled (004 "Dice": the d20, then the weapon's die). */
Test(alloy_cli, table_refusals_and_dice_by_hand) {
    fray_setup *s = load("examples/alloy/duel.yaml");
    fray_fight *f = start(s, 3);
    command(f, "next");
    int events = fray_fight_events(f);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_command(f, "lyra attack vance", NULL, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "not Lyra's turn"), "%s", diag.message);
    cr_assert_eq(fray_fight_events(f), events);
    int dice[] = {15, 4};
    fray_given given = {NULL, 0, dice, 2, NULL};
    cr_assert_eq(fray_fight_command(f, "vance attack lyra", &given, &diag),
                 FRAY_OK, "%s", diag.message);
    char buf[1024];
    fray_event_narrate(f, events, buf, sizeof buf);
    cr_assert(strstr(buf, "d20 15 + 7 = 22 vs Defense 17: hit"), "%s", buf);
    cr_assert(strstr(buf, "Lyra takes 6 damage from Vance (d6 4 + 2 = 6)"), "%s",
              buf);
    /* one standard action a turn */
    cr_assert_eq(fray_fight_command(f, "vance attack lyra", NULL, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "no standard action left"), "%s",
              diag.message);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* examples/alloy/skirmish.yaml, seed 1, at the table: Lyra delays
 * (004:572), Vance readies an attack (004:645-653, "Ready Ends Actions"),
 * then `next`: Vance's turn ends, and a delayed turn may come back "after
 * any other combatant's turn" (004:573), so Lyra has the word (the GM's
 * `next` would pass it on to Kessler). The tactics bring her back (they
 * chose End Turn, which the rules refused, and the fight stopped). Found
 * by fuzz_alloy_command. */
Test(alloy_cli, delay_then_ready_then_next) {
    fray_setup *s = load("examples/alloy/skirmish.yaml");
    fray_fight *f = start(s, 1);
    command(f, "next");
    command(f, "trooper shift 4,2");
    command(f, "trooper total-defense");
    command(f, "next");
    command(f, "duelist delay");
    command(f, "next");
    command(f, "merc ready attack thug-1 when thug-1 moves-adjacent");
    command(f, "next");
    const char *who = fray_fight_turn(f, NULL, 0);
    cr_assert(who && strcmp(who, "Lyra") == 0, "the word is %s's",
              who ? who : "nobody's");
    fray_status st = fray_fight_step(f);
    char why[256] = "";
    fray_fight_failure(f, why, sizeof why);
    cr_assert_eq(st, FRAY_OK, "%s", why);
    int n = fray_fight_events(f);
    const char *action = fray_event_action(f, n - 1);
    cr_assert(action && strcmp(action, "resume") == 0, "%s",
              action ? action : "(none)");
    who = fray_fight_turn(f, NULL, 0);
    cr_assert(who && strcmp(who, "Lyra") == 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* L7.8: the option `dying: death-saves` is built (skills.c): a file that
 * says it loads; a word that is not a setting of dying is refused at its
 * line (fuzz_alloy_load found the older refusal's gap). */
Test(alloy_cli, dying_option_death_saves_loads_nonsense_refused_L7_8) {
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/alloy/good_death_saves.yaml",
             FRAY_SOURCE_DIR);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s", d.message);
    cr_assert_not_null(s);
    fray_setup_free(s);
    s = NULL;
    snprintf(path, sizeof path, "%s/tests/data/alloy/bad_dying.yaml", FRAY_SOURCE_DIR);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_assert_null(s);
    cr_expect_eq(d.line, 15);
    cr_expect(strstr(d.message, "expected stable or death-saves") != NULL, "%s",
              d.message);
}

/* A Tiny creature may end its move in a larger creature's square
 * (004:824); the Rat of tests/cli/input/alloy_tiny_in_square.json charges
 * into the Guard's square (seed 1). A creature in one's own square is
 * within reach (fray's reading), so the Guard's attack on it is allowed
 * (it was refused, "Rat is not adjacent to G", and the fight stopped).
 * Found by fuzz_alloy_load. */
Test(alloy_cli, tiny_creature_in_the_square) {
    fray_setup *s = load("tests/cli/input/alloy_tiny_in_square.json");
    fray_fight *f = start(s, 1);
    fray_status st = FRAY_OK;
    for (int i = 0; i < 20 && st == FRAY_OK && !fray_fight_over(f); i++)
        st = fray_fight_step(f);
    char why[256] = "";
    fray_fight_failure(f, why, sizeof why);
    cr_assert_eq(st, FRAY_OK, "%s", why);
    fray_fight_free(f);
    fray_setup_free(s);
}

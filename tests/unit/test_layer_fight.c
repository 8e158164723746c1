/*
 * test_layer_fight.c - the generic fight and its journal (src/encounter/
 * fight.c; include/fray/fight.h; docs/journal.md; issue 12 steps 2-4):
 * a fight of any ruleset through fray_fight_*, the journal the layer
 * keeps (packed events, undo by rebuilding, redo, replay of JSON Lines
 * with the "rules" key), the simulation through fray_sim, and 99 Towers'
 * older API giving the same fights (docs/rules/towers.md).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"
#include "layer.h"

static fray_setup *load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s: %s", path,
                 d.message);
    return s;
}

static fray_fight *fight(const fray_setup *s, uint64_t seed) {
    fray_fight_options o = {true, true, 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

/* The whole journal as JSON Lines: every event recorded, then `tail`. */
static char *journal_of(const fray_fight *f, const char *tail) {
    size_t cap = 1 << 16, len = 0;
    char *p = malloc(cap);
    cr_assert_not_null(p);
    for (int i = 0; i < fray_fight_recorded(f); i++) {
        size_t n = fray_event_json(f, i, NULL, 0);
        while (len + n + 2 + strlen(tail) + 1 > cap) {
            cap *= 2;
            p = realloc(p, cap);
            cr_assert_not_null(p);
        }
        fray_event_json(f, i, p + len, n + 1);
        len += n;
        p[len++] = '\n';
    }
    if (len + strlen(tail) + 1 > cap) {
        cap = len + strlen(tail) + 1;
        p = realloc(p, cap);
        cr_assert_not_null(p);
    }
    memcpy(p + len, tail, strlen(tail) + 1);
    return p;
}

/* The generic fight is the same fight as 99 Towers' own API gives: the
 * same events, state and winner for the same seed (the checksums of
 * bench_fight hold the quiet path; this holds the journal's). */
Test(layer_fight, same_fight_as_the_towers_api) {
    fray_setup *s = load("examples/towers/skirmish.yaml");
    const fray_towers_setup *t = fray_setup_ruleset_data(s);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        fray_fight *g = fight(s, seed);
        fray_towers_fight_options o = {true, true, 0};
        fray_towers_fight *tf = NULL;
        cr_assert_eq(fray_towers_fight_new(t, seed, &o, NULL, &tf), FRAY_OK);
        cr_assert_eq(fray_fight_run(g), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(tf), FRAY_OK);
        cr_expect_eq(fray_fight_events(g), fray_towers_fight_events(tf));
        cr_expect_eq(fray_fight_winner(g), fray_towers_fight_winner(tf));
        cr_expect_eq(fray_fight_now(g), fray_towers_fight_phase(tf));
        cr_expect(fray_towers_fight_same(fray_towers_fight_of(g), tf),
                  "seed %d", (int)seed);
        for (int i = 0; i < fray_fight_events(g); i += 7) {
            char a[8192], b[8192];
            fray_event_json(g, i, a, sizeof a);
            fray_towers_event_json(tf, i, b, sizeof b);
            cr_expect_str_eq(a, b, "seed %d event %d", (int)seed, i);
        }
        fray_towers_fight_free(tf);
        fray_fight_free(g);
    }
    fray_setup_free(s);
}

/* docs/journal.md: the first (begin) line names the ruleset, after the
 * seed; the journal replays to the identical fight. */
Test(layer_fight, journal_names_rules_and_replays) {
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_fight *a = fight(s, 42);
    cr_assert_eq(fray_fight_run(a), FRAY_OK);
    char *j = journal_of(a, "{\"end\":{\"events\":0}}\n");
    cr_expect(strncmp(j, "{\"seed\":42,\"rules\":\"towers\",", 28) == 0,
              "%.60s", j);
    cr_expect(strstr(j + 1, "\"rules\"") == strstr(j, "\"rules\""),
              "only the first line names the rules");
    /* The end mark must count the events: write the right one. */
    char mark[64];
    fray_journal_mark(FRAY_MARK_END, fray_fight_events(a), mark, sizeof mark);
    char *end = strstr(j, "{\"end\"");
    strcpy(end, mark);
    strcat(end, "\n");
    fray_fight *b = fight(s, 1);
    fray_replay_info info;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_replay_journal(b, j, strlen(j), &info, &d), FRAY_OK,
                 "line %d:%d: %s", d.line, d.column, d.message);
    cr_expect(info.ended);
    cr_expect_eq(fray_fight_seed(b), 42);
    cr_expect(fray_fight_same(a, b));
    cr_expect_eq(fray_fight_events(b), fray_fight_events(a));
    free(j);
    fray_fight_free(b);
    fray_fight_free(a);
    fray_setup_free(s);
}

/* docs/journal.md: a journal without "rules" is 99 Towers' (journals
 * written before the key replay); one of other rules is refused at the
 * key, by name. */
Test(layer_fight, journal_rules_key_checked) {
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_fight *a = fight(s, 7);
    for (int k = 0; k < 6; k++)
        cr_assert_eq(fray_fight_step(a), FRAY_OK);
    char *j = journal_of(a, "");
    /* Without the key: as written before it. */
    char *old = malloc(strlen(j) + 1);
    cr_assert_not_null(old);
    const char *key = "\"rules\":\"towers\",";
    char *at = strstr(j, key);
    cr_assert_not_null(at);
    size_t pre = (size_t)(at - j);
    memcpy(old, j, pre);
    strcpy(old + pre, at + strlen(key));
    fray_fight *b = fight(s, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_fight_replay_journal(b, old, strlen(old), NULL, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(fray_fight_same(a, b));
    /* Another ruleset's journal. */
    memcpy(at, "\"rules\":\"alloy\", ", strlen(key));
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_fight_replay_journal(b, j, strlen(j), NULL, &d),
                 FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 1);
    cr_expect_eq(d.column, (int)pre + 9, "the column of the value: %d",
                 d.column);
    cr_expect(strncmp(d.message, "rules: ", 7) == 0, "%s", d.message);
    cr_expect(strstr(d.message, "alloy") != NULL, "%s", d.message);
    free(old);
    free(j);
    fray_fight_free(b);
    fray_fight_free(a);
    fray_setup_free(s);
}

/* Undo rebuilds from the journal (begin and the events before), redo
 * applies the undone event again: the same states as the way there. */
Test(layer_fight, undo_redo_rebuild) {
    fray_setup *s = load("examples/towers/skirmish.yaml");
    fray_fight *a = fight(s, 3), *ref = fight(s, 3);
    for (int k = 0; k < 12; k++)
        cr_assert_eq(fray_fight_step(a), FRAY_OK);
    for (int k = 0; k < 9; k++)
        cr_assert_eq(fray_fight_step(ref), FRAY_OK);
    int n = fray_fight_events(a);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(fray_fight_undo(a), FRAY_OK);
    cr_expect_eq(fray_fight_events(a), fray_fight_events(ref));
    cr_expect_eq(fray_fight_recorded(a), n, "the undone are kept for redo");
    cr_expect(fray_fight_same(a, ref), "undone to the state of 9 steps");
    cr_assert_eq(fray_fight_redo(a), FRAY_OK);
    cr_assert_eq(fray_fight_step(ref), FRAY_OK);
    cr_expect(fray_fight_same(a, ref), "redone");
    /* A new step forgets what was undone. */
    cr_assert_eq(fray_fight_step(a), FRAY_OK);
    cr_expect_eq(fray_fight_recorded(a), fray_fight_events(a));
    cr_expect_eq(fray_fight_redo(a), FRAY_ERR_INVALID);
    /* Nothing to undo at the start of the fight. */
    fray_fight *c = fight(s, 3);
    cr_expect_eq(fray_fight_undo(c), FRAY_ERR_INVALID);
    fray_fight_free(c);
    fray_fight_free(ref);
    fray_fight_free(a);
    fray_setup_free(s);
}

/* Randomness made by hand: cards go to the ruleset; 99 Towers rolls no
 * dice and says so in rules words, the fight unchanged. */
Test(layer_fight, given_dice_refused_by_towers) {
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_fight *a = fight(s, 3), *ref = fight(s, 3);
    cr_assert_eq(fray_fight_command(a, "next", NULL, NULL), FRAY_OK);
    cr_assert_eq(fray_fight_command(ref, "next", NULL, NULL), FRAY_OK);
    int dice[] = {14, 6};
    fray_given g = {NULL, 0, dice, 2, NULL};
    fray_diag d;
    memset(&d, 0, sizeof d);
    char when[32];
    const char *who = fray_fight_turn(a, when, sizeof when);
    cr_assert_not_null(who);
    cr_expect(strncmp(when, "phase ", 6) == 0, "%s", when);
    cr_expect_eq(fray_fight_command(a, "aldric attack black-knight", &g, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "no dice") != NULL, "%s", d.message);
    cr_expect(fray_fight_same(a, ref));
    cr_expect_eq(fray_fight_events(a), fray_fight_events(ref));
    /* Given at the start: the initiative is drawn. */
    fray_fight_options o = {true, true, 0};
    fray_fight *c = NULL;
    cr_expect_eq(fray_fight_new(s, 3, &o, &g, NULL, &c), FRAY_ERR_INVALID);
    cr_expect_null(c);
    fray_fight_free(ref);
    fray_fight_free(a);
    fray_setup_free(s);
}

/* A fight without a journal runs the ruleset's quiet path: the same
 * fight as the journal's. */
Test(layer_fight, quiet_run_same_as_stepped) {
    fray_setup *s = load("examples/towers/skirmish.yaml");
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fray_fight_options q = {false, false, 0};
        fray_fight *a = NULL, *b = fight(s, seed);
        cr_assert_eq(fray_fight_new(s, seed, &q, NULL, NULL, &a), FRAY_OK);
        cr_assert_eq(fray_fight_run(a), FRAY_OK);
        cr_assert_eq(fray_fight_run(b), FRAY_OK);
        cr_expect_eq(fray_fight_events(a), 0, "no journal, no events kept");
        cr_expect_eq(fray_fight_winner(a), fray_fight_winner(b));
        cr_expect_eq(fray_fight_now(a), fray_fight_now(b));
        cr_expect_eq(fray_fight_step(a), FRAY_ERR_INVALID, "over");
        fray_fight_free(a);
        fray_fight_free(b);
    }
    fray_setup_free(s);
}

/* Issue 12 step 4: fray_sim on a setup of any ruleset counts what
 * fray_towers_sim counts, in the ruleset's words. */
Test(layer_fight, sim_counts_and_words) {
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    o.trials = 600;
    o.threads = 2;
    fray_sim_counts *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    cr_assert(a && b);
    cr_assert_eq(fray_sim(s, &o, NULL, a), FRAY_OK);
    cr_assert_eq(fray_towers_sim(fray_setup_ruleset_data(s), &o, NULL, b),
                 FRAY_OK);
    cr_expect_eq(memcmp(a, b, sizeof *a), 0);
    cr_expect_eq(a->trials, 600);
    cr_expect_str_eq(fray_sim_harm_name(s, 0), "STUN");
    cr_expect_str_eq(fray_sim_harm_name(s, 1), "LETHAL");
    cr_expect_null(fray_sim_harm_name(s, 2));
    cr_expect_str_eq(fray_sim_spent_name(s, 0), "Hand of Fate cards");
    cr_expect_str_eq(fray_sim_spent_name(s, 1), "chips");
    cr_expect_null(fray_sim_spent_name(s, 2));
    cr_expect_str_eq(fray_sim_action_name(s, 0), fray_towers_action_name(0));
    cr_expect_null(fray_sim_action_name(s, FRAY_SIM_ACTION_KINDS));
    /* 99 Towers' older names are kinds 0 and 1. */
    uint64_t dealt = 0, stun = 0;
    for (int i = 0; i < 2; i++) {
        dealt += a->c[i].dealt[0];
        stun += a->c[i].stun_dealt;
        cr_expect_eq(a->c[i].taken[1], a->c[i].lethal_taken);
        cr_expect_eq(a->c[i].spent[1], a->c[i].chips);
    }
    cr_expect_eq(dealt, stun);
    cr_expect_gt(dealt, 0, "a duel deals STUN");
    free(a);
    free(b);
    fray_setup_free(s);
}

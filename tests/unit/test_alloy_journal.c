/* test_alloy_journal.c - Alloy's journal round trip through the public,
 * ruleset-neutral API (include/fray/fight.h; docs/journal.md), as `fray
 * fight --json` and `fray replay` use it: for 200 seeds of each example
 * (examples/alloy/duel.yaml, skirmish.yaml, ambush.yaml) the fight the
 * tactics play, written out one event a line (fray_event_json), replays
 * into a fresh fight to the identical state (fray_fight_same), the same
 * summary, the same events each told the same way; a journal cut short
 * replays to the fight as it was then, and a table's undo and redo marks
 * replay to the state last told.
 *
 * Seed 004's rules are not what is checked here: the journal is (every
 * d20 and damage die rolled, 004 "Dice", recorded and rolled again the
 * same). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fight.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

enum { SEEDS = 200 };

static fray_setup *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/examples/alloy/%s", FRAY_SOURCE_DIR, name);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_setup_load(path, NULL, &s, &diag);
    cr_assert_eq(st, FRAY_OK, "%s: %s", name, diag.message);
    cr_assert_str_eq(fray_setup_rules(s), "alloy");
    return s;
}

static fray_fight *new_fight(const fray_setup *s, uint64_t seed) {
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

/* A rendering into a fresh string (free it). */
static char *render(const fray_fight *f,
                    size_t (*fn)(const fray_fight *, char *, size_t)) {
    size_t n = fn(f, NULL, 0);
    char *p = malloc(n + 1);
    cr_assert_not_null(p);
    cr_assert_eq(fn(f, p, n + 1), n);
    return p;
}

static char *render_event(const fray_fight *f, int i,
                          size_t (*fn)(const fray_fight *, int, char *, size_t)) {
    size_t n = fn(f, i, NULL, 0);
    char *p = malloc(n + 1);
    cr_assert_not_null(p);
    cr_assert_eq(fn(f, i, p, n + 1), n);
    return p;
}

/* The fight's journal as `fray fight --json` prints it: events [0, upto)
 * one a line; then the undone events kept for redo, each with its undo
 * mark (as the table writes them) when marks; then the end mark when end. */
static void put_line(char **t, size_t *len, size_t *cap, const char *line) {
    size_t n = strlen(line);
    while (*len + n + 2 > *cap) {
        *cap *= 2;
        *t = realloc(*t, *cap);
        cr_assert_not_null(*t);
    }
    memcpy(*t + *len, line, n);
    *len += n;
    (*t)[(*len)++] = '\n';
    (*t)[*len] = '\0';
}

static char *journal_text(const fray_fight *f, int upto, bool marks, bool end,
                          size_t *out_len) {
    size_t cap = 4096, len = 0;
    char *t = malloc(cap);
    cr_assert_not_null(t);
    t[0] = '\0';
    int kept = marks ? fray_fight_recorded(f) : upto;
    for (int i = 0; i < kept; i++) {
        char *line = render_event(f, i, fray_event_json);
        put_line(&t, &len, &cap, line);
        free(line);
    }
    char mark[64];
    for (int i = kept - 1; i >= upto; i--) {
        fray_journal_mark(FRAY_MARK_UNDO, i, mark, sizeof mark);
        put_line(&t, &len, &cap, mark);
    }
    if (end) {
        fray_journal_mark(FRAY_MARK_END, upto, mark, sizeof mark);
        put_line(&t, &len, &cap, mark);
    }
    *out_len = len;
    return t;
}

/* Replays text into a fresh fight of s; asserts it is accepted. */
static fray_fight *replayed(const fray_setup *s, const char *text, size_t len,
                            fray_replay_info *info) {
    fray_fight *g = new_fight(s, 999); /* the journal's seed replaces it */
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_fight_replay_journal(g, text, len, info, &diag);
    cr_assert_eq(st, FRAY_OK, "line %d:%d: %s", diag.line, diag.column,
                 diag.message);
    return g;
}

/* The fight f and its replay g agree in everything the CLI shows. */
static void same_fight(const fray_fight *f, const fray_fight *g,
                       const char *what, uint64_t seed) {
    cr_assert(fray_fight_same(f, g), "%s seed %llu: the replay's state differs",
              what, (unsigned long long)seed);
    cr_assert_eq(fray_fight_seed(f), fray_fight_seed(g));
    cr_assert_eq(fray_fight_events(f), fray_fight_events(g));
    cr_assert_eq(fray_fight_over(f), fray_fight_over(g));
    cr_assert_eq(fray_fight_winner(f), fray_fight_winner(g));
    cr_assert_eq(fray_fight_now(f), fray_fight_now(g));
    char *a = render(f, fray_fight_summary), *b = render(g, fray_fight_summary);
    cr_assert_str_eq(a, b, "%s seed %llu: the summaries differ", what,
                     (unsigned long long)seed);
    free(a);
    free(b);
    for (int i = 0; i < fray_fight_events(f); i++) {
        char *x = render_event(f, i, fray_event_narrate);
        char *y = render_event(g, i, fray_event_narrate);
        cr_assert_str_eq(x, y, "%s seed %llu event %d told differently", what,
                         (unsigned long long)seed, i);
        free(x);
        free(y);
        x = render_event(f, i, fray_event_json);
        y = render_event(g, i, fray_event_json);
        cr_assert_str_eq(x, y, "%s seed %llu event %d written differently",
                         what, (unsigned long long)seed, i);
        free(x);
        free(y);
    }
}

static void round_trip(const char *example) {
    fray_setup *s = load(example);
    int over = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        fray_fight *f = new_fight(s, seed);
        fray_status st = fray_fight_run(f);
        char why[256] = "";
        if (st != FRAY_OK)
            fray_fight_failure(f, why, sizeof why);
        cr_assert_eq(st, FRAY_OK, "%s seed %llu: the fight failed: %s", example,
                     (unsigned long long)seed, why);
        over += fray_fight_over(f);
        int n = fray_fight_events(f);
        cr_assert_gt(n, 1);
        /* The whole journal (with its end mark). */
        size_t len;
        char *text = journal_text(f, n, false, true, &len);
        fray_replay_info info;
        fray_fight *g = replayed(s, text, len, &info);
        cr_assert(info.ended, "%s seed %llu: the end mark was not read", example,
                  (unsigned long long)seed);
        cr_assert(!info.torn);
        same_fight(f, g, example, seed);
        fray_fight_free(g);
        free(text);
        /* Cut short at half its events (no end mark): the fight as it was
         * after them, which undo gives back from the whole fight. */
        int half = n / 2 > 0 ? n / 2 : 1;
        text = journal_text(f, half, false, false, &len);
        g = replayed(s, text, len, &info);
        cr_assert(!info.ended);
        cr_assert_eq(fray_fight_events(g), half);
        free(text);
        /* The same half, as a table's journal: every event, then undo
         * marks back to the half; its replay keeps the rest for redo. */
        while (fray_fight_events(f) > half)
            cr_assert_eq(fray_fight_undo(f), FRAY_OK);
        same_fight(f, g, example, seed);
        text = journal_text(f, half, true, true, &len);
        fray_fight *h = replayed(s, text, len, &info);
        same_fight(f, h, example, seed);
        cr_assert_eq(fray_fight_recorded(h), fray_fight_recorded(f));
        /* Redo to the end: the whole fight again, in both. */
        while (fray_fight_events(f) < n) {
            cr_assert_eq(fray_fight_redo(f), FRAY_OK);
            cr_assert_eq(fray_fight_redo(h), FRAY_OK);
        }
        same_fight(f, h, example, seed);
        fray_fight_free(h);
        fray_fight_free(g);
        free(text);
        fray_fight_free(f);
    }
    /* The examples are fights to a finish, well within the round limit. */
    cr_assert_gt(over, SEEDS * 9 / 10, "%s: only %d of %d fights ended", example,
                 over, SEEDS);
    fray_setup_free(s);
}

Test(alloy_journal, round_trip_duel, .timeout = 600) { round_trip("duel.yaml"); }
Test(alloy_journal, round_trip_skirmish, .timeout = 600) {
    round_trip("skirmish.yaml");
}
Test(alloy_journal, round_trip_ambush, .timeout = 600) {
    round_trip("ambush.yaml");
}

/* A journal of one encounter is refused by another's fight, at the
 * combatant it names, and the journal's ruleset must be the fight's. */
Test(alloy_journal, other_encounter_refused) {
    fray_setup *duel = load("duel.yaml");
    fray_setup *skirmish = load("skirmish.yaml");
    fray_fight *f = new_fight(duel, 3);
    cr_assert_eq(fray_fight_run(f), FRAY_OK);
    size_t len;
    char *text = journal_text(f, fray_fight_events(f), false, true, &len);
    fray_fight *g = new_fight(skirmish, 3);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK);
    cr_assert_eq(diag.line, 1);
    cr_assert(strstr(diag.message, "'vance' is not a combatant"), "%s",
              diag.message);
    fray_fight_free(g);
    free(text);
    fray_fight_free(f);
    fray_setup_free(skirmish);
    fray_setup_free(duel);
}

/* A 99 Towers journal (no "rules" key: of towers, docs/journal.md)
 * replayed on an Alloy fight is refused for its ruleset, as the other way
 * round is ("this journal is of rules alloy, the fight of towers"): the
 * layer asks the first line's rules before the ruleset reads the line
 * (src/encounter/fight.c replay_event). */
Test(alloy_journal, towers_journal_refused_for_its_ruleset) {
    fray_setup *duel = load("duel.yaml");
    char path[512];
    snprintf(path, sizeof path, "%s/tests/cli/input/duel_seed3.jsonl",
             FRAY_SOURCE_DIR);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text, fp);
    fclose(fp);
    fray_fight *g = new_fight(duel, 3);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "of towers") ||
                  strstr(diag.message, "names no rules"),
              "%s", diag.message);
    fray_fight_free(g);
    fray_setup_free(duel);
}

/* `fray odds duel A.yaml B.yaml --a NAME --b NAME` takes two stat-block
 * files (its help; 99 Towers does), for Alloy too (fa_load_blocks). */
Test(alloy_journal, duel_of_two_stat_block_files) {
    char path[512];
    snprintf(path, sizeof path, "%s/examples/alloy/statblocks.yaml",
             FRAY_SOURCE_DIR);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_setup_duel(path, "Mercenary", path, "Duelist", NULL,
                                     NULL, NULL, &s, &diag);
    cr_assert_eq(st, FRAY_OK, "%s", diag.message);
    cr_assert_eq(fray_setup_combatants(s), 2);
    fray_setup_free(s);
}

/*
 * test_towers_journal.c - the journal read back (fray_towers_fight_replay,
 * fray_towers_fight_replay_journal; docs/journal.md): issue 11, "Nothing
 * acknowledged is lost" and "Smaller things that are wrong":
 *   - every seed fray accepts replays (2^64 - 1 included);
 *   - an edited journal is refused field by field, with the line, the
 *     column of the value and the field's name (actor 256, an unknown
 *     choice kind, card id 200, ...);
 *   - undo, redo and end marks replay to the state the table last told;
 *     a journal cut short says so; NUL bytes are refused.
 * The table's writing of the journal (kill -9 and the rest) is
 * tests/cli/run_journal.sh's.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"
#include "fray/encounter.h"
#include "towers_fixture.h"

/* A journal being written, as the table writes it: lines appended. */
typedef struct jbuf {
    char *p;
    size_t len, cap;
} jbuf;

static void jb_add(jbuf *b, const char *s, size_t n) {
    while (b->len + n + 2 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1 << 16;
        b->p = realloc(b->p, b->cap);
        cr_assert_not_null(b->p);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len++] = '\n';
    b->p[b->len] = '\0';
}

static void jb_events(jbuf *b, const fray_towers_fight *f, int from, int to) {
    for (int i = from; i < to; i++) {
        size_t n = fray_towers_event_json(f, i, NULL, 0);
        char *line = malloc(n + 1);
        cr_assert_eq(fray_towers_event_json(f, i, line, n + 1), n);
        jb_add(b, line, n);
        free(line);
    }
}

static void jb_mark(jbuf *b, fray_towers_mark mark, int n) {
    char line[64];
    size_t len = fray_towers_journal_mark(mark, n, line, sizeof line);
    cr_assert_lt(len, sizeof line);
    jb_add(b, line, len);
}

static void steps(fray_towers_fight *f, int n) {
    for (int i = 0; i < n && !fray_towers_fight_over(f); i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
}

/* ---- Seeds ------------------------------------------------------------------- */

/* Issue 11: "Seeds past 2^63 are accepted but their journals do not
 * replay (too big integer)": the largest seed and a trial past 2^63 are
 * written unsigned and replay to the identical fight, the summary line of
 * fray fight --json with that seed included. */
Test(towers_journal, seed_past_2_63_replays) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    const uint64_t seeds[] = {UINT64_MAX, (uint64_t)1 << 63,
                              ((uint64_t)1 << 63) - 1};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        fray_towers_fight *a = tf_fight(s, seeds[k]);
        if (k == 1)
            cr_assert_eq(fray_towers_fight_reset_trial(a, seeds[k], UINT64_MAX - 1), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
        jbuf b = {NULL, 0, 0};
        jb_events(&b, a, 0, fray_towers_fight_events(a));
        char head[64];
        snprintf(head, sizeof head, "{\"seed\":%llu,",
                 (unsigned long long)seeds[k]);
        cr_assert(strncmp(b.p, head, strlen(head)) == 0,
                  "the seed is written unsigned: %.60s", b.p);
        char summary[128];
        snprintf(summary, sizeof summary,
                 "{\"summary\":{\"seed\":%llu,\"phase\":1}}",
                 (unsigned long long)seeds[k]);
        jb_add(&b, summary, strlen(summary));
        fray_towers_fight *r = tf_fight(s, 1);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_towers_replay_info info;
        cr_assert_eq(fray_towers_fight_replay_journal(r, b.p, b.len, &info,
                                                      &d),
                     FRAY_OK, "seed %llu: line %d:%d: %s",
                     (unsigned long long)seeds[k], d.line, d.column,
                     d.message);
        cr_expect_eq(fray_towers_fight_seed(r), seeds[k]);
        cr_expect(fray_towers_fight_same(a, r), "seed %llu",
                  (unsigned long long)seeds[k]);
        cr_expect(info.ended, "the summary line ends a journal");
        free(b.p);
        fray_towers_fight_free(a);
        fray_towers_fight_free(r);
    }
    fray_towers_setup_free(s);
}

/* Issue 11: a seed past 2^64 - 1 cannot be any fight's: refused at its
 * column, naming the seed; so is a negative one. */
Test(towers_journal, seed_out_of_range_is_refused) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    const char *bad[] = {
        "{\"seed\":18446744073709551616,\"command\":{\"action\":\"begin\"},"
        "\"cards\":[],\"choices\":[]}\n",
        "{\"seed\":-5,\"command\":{\"action\":\"begin\"},\"cards\":[],"
        "\"choices\":[]}\n"};
    for (size_t k = 0; k < 2; k++) {
        fray_towers_fight *f = tf_fight(s, 1);
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(fray_towers_fight_replay(f, bad[k], &d), FRAY_ERR_PARSE);
        cr_expect_eq(d.line, 1);
        cr_expect_eq(d.column, 9, "the column of the seed's value: %d",
                     d.column);
        cr_expect(strncmp(d.message, "seed: ", 6) == 0, "%s", d.message);
        fray_towers_fight_free(f);
    }
    fray_towers_setup_free(s);
}

/* ---- Every field checked ----------------------------------------------------- */

typedef struct edit {
    const char *find;    /* in the journal's line `line` */
    const char *replace; /* the edit */
    const char *value;   /* where the refused value starts (in replace) */
    const char *field;   /* the field the message names */
    const char *words;   /* and what it says */
} edit;

/* Issue 11: "an edited journal with actor: 256, an unknown choice kind or
 * card id 200 is accepted (cast) instead of refused": each edit below of
 * a real journal (the duel, seed 3: line 1 begin, 2 the clock, 3 Sir
 * Aldric's attack) is refused with FRAY_ERR_PARSE on its line, at the
 * column of the value, naming the field. */
Test(towers_journal, every_field_is_checked) {
    static const edit edits[] = {
        {"\"actor\":\"aldric\"", "\"actor\":256", "256", "command.actor",
         "256 is not a combatant"},
        {"\"actor\":\"aldric\"", "\"actor\":-1", "-1", "command.actor",
         "not a combatant"},
        {"\"actor\":\"aldric\"", "\"actor\":\"nobody\"", "\"nobody\"",
         "command.actor", "no combatant 'nobody'"},
        {"\"target\":\"black-knight\"", "\"target\":2", "2",
         "command.target", "not a combatant"},
        {"\"choices\":[]", "\"choices\":[{\"kind\":9,\"who\":null,\"a\":0,"
         "\"b\":0}]", "9,", "choices[0].kind", "9 is not a kind of choice"},
        {"\"choices\":[]", "\"choices\":[{\"kind\":0,\"who\":\"aldric\","
         "\"a\":0,\"b\":200}]", "200", "choices[0].b", "200 is not a card's id"},
        {"\"choices\":[]", "\"choices\":[{\"kind\":4,\"who\":\"aldric\","
         "\"a\":7,\"b\":1}]", "7,", "choices[0].a", "7 is not a combatant"},
        {"\"choices\":[]", "\"choices\":[{\"kind\":2,\"who\":\"aldric\","
         "\"a\":0,\"b\":3}]", "3}", "choices[0].b", "3 is not a chip"},
        {"\"choices\":[]", "\"choices\":[{\"kind\":0,\"who\":5,"
         "\"a\":0,\"b\":1}]", "5,", "choices[0].who", "not a combatant"},
        {"\"choices\":[]", "\"choices\":[7]", "7", "choices[0]",
         "expected a choice"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"weapon\":7", "7", "command.weapon", "not one of the actor's weapons"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"dest\":[99,0]", "[99,0]", "command.dest", "not a space of the map"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"dest\":[1]", "[1]", "command.dest", "expected a space"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"hold_kind\":5", "5", "command.hold_kind", "not a kind of Hold"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"hold_phase\":4294967296", "4294967296", "command.hold_phase",
         "out of range"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"chip\":3", "3", "command.chip", "not a chip"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"condition\":13", "13", "command.condition", "not a condition"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"element\":7", "7", "command.element", "not a mana element"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"off_hand\":1", "1", "command.off_hand", "true or false"},
        {"\"target\":\"black-knight\"", "\"target\":\"black-knight\","
         "\"cost\":\"two\"", "\"two\"", "command.cost", "expected an integer"},
        {"\"action\":\"attack\"", "\"action\":\"dance\"", "\"dance\"",
         "command.action", "unknown action"},
        {"\"cards\":[[", "\"cards\":[[\"KH\",40],[", "40", "cards[0][1]",
         "not one of the encounter's decks"},
        {"\"cards\":[[", "\"cards\":[[\"1X\",0],[", "\"1X\"", "cards[0][0]",
         "expected a card"},
        {"\"cards\":[[", "\"cards\":[\"KH\",[", "\"KH\"", "cards[0]",
         "expected [card, deck]"},
    };
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    steps(a, 3);
    char *jl = tf_journal(a);
    /* Line 3: Sir Aldric's attack. */
    char *l3 = strchr(strchr(jl, '\n') + 1, '\n') + 1;
    cr_assert(strstr(l3, "\"action\":\"attack\"") != NULL, "%.80s", l3);
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        const edit *e = &edits[k];
        char *at = strstr(l3, e->find);
        cr_assert_not_null(at, "%s", e->find);
        size_t head = (size_t)(at - jl), flen = strlen(e->find);
        size_t rlen = strlen(e->replace), total = strlen(jl);
        char *ed = malloc(total + rlen + 1);
        memcpy(ed, jl, head);
        memcpy(ed + head, e->replace, rlen);
        strcpy(ed + head + rlen, at + flen);
        /* The value's column in line 3. */
        int column = (int)((size_t)(at - l3) +
                           (size_t)(strstr(e->replace, e->value) - e->replace)) +
                     1;
        fray_towers_fight *b = tf_fight(s, 3);
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_expect_eq(fray_towers_fight_replay(b, ed, &d), FRAY_ERR_PARSE,
                     "%s: accepted", e->replace);
        cr_expect_eq(d.line, 3, "%s: line %d", e->replace, d.line);
        cr_expect_eq(d.column, column, "%s: column %d, not %d", e->replace,
                     d.column, column);
        cr_expect(strncmp(d.message, e->field, strlen(e->field)) == 0 &&
                      d.message[strlen(e->field)] == ':',
                  "%s: the message names %s: %s", e->replace, e->field,
                  d.message);
        cr_expect(strstr(d.message, e->words) != NULL, "%s: %s", e->replace,
                  d.message);
        cr_expect_eq(fray_towers_fight_events(b), 2,
                     "the fight holds the events before the bad line");
        free(ed);
        fray_towers_fight_free(b);
    }
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* ---- Marks: undo, redo, the end ---------------------------------------------- */

/* Issue 11: "undo/redo must be representable ... so the file on disk
 * always replays to the state the GM was last told": a journal written as
 * the table writes it (each event appended, undo and redo marked) replays,
 * after every line, to the fight as it stood then, redo history
 * included. */
Test(towers_journal, undo_and_redo_marks_replay) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    fray_towers_fight *a = tf_fight(s, 5);
    jbuf b = {NULL, 0, 0};
    jb_events(&b, a, 0, fray_towers_fight_events(a));
    /* step step step undo undo redo step undo: a redo history is kept
     * at the end. */
    const char *script = "sssuurs" "u";
    for (const char *op = script; *op; op++) {
        int n = fray_towers_fight_events(a);
        if (*op == 's') {
            cr_assert_eq(fray_towers_fight_step(a), FRAY_OK);
            jb_events(&b, a, n, fray_towers_fight_events(a));
        } else if (*op == 'u') {
            cr_assert_eq(fray_towers_fight_undo(a), FRAY_OK);
            jb_mark(&b, FRAY_TOWERS_MARK_UNDO, n - 1);
        } else {
            cr_assert_eq(fray_towers_fight_redo(a), FRAY_OK);
            jb_mark(&b, FRAY_TOWERS_MARK_REDO, n);
        }
        fray_towers_fight *r = tf_fight(s, 1);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_towers_replay_info info;
        cr_assert_eq(fray_towers_fight_replay_journal(r, b.p, b.len, &info,
                                                      &d),
                     FRAY_OK, "after '%c': line %d: %s", *op, d.line,
                     d.message);
        cr_expect(fray_towers_fight_same(a, r), "after '%c'", *op);
        cr_expect_eq(fray_towers_fight_events(r), fray_towers_fight_events(a));
        cr_expect_eq(fray_towers_fight_recorded(r),
                     fray_towers_fight_recorded(a));
        cr_expect(!info.ended && !info.torn);
        fray_towers_fight_free(r);
    }
    /* The undone event is kept, and rendered, for redo. */
    int n = fray_towers_fight_events(a);
    cr_assert_eq(fray_towers_fight_recorded(a), n + 1);
    cr_expect_gt(fray_towers_event_json(a, n, NULL, 0), 0);
    cr_expect_eq(fray_towers_event_json(a, n + 1, NULL, 0), 0);
    /* The end mark: the journal is whole. */
    jb_mark(&b, FRAY_TOWERS_MARK_END, n);
    fray_towers_fight *r = tf_fight(s, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_towers_replay_info info;
    cr_assert_eq(fray_towers_fight_replay_journal(r, b.p, b.len, &info, &d),
                 FRAY_OK, "line %d: %s", d.line, d.message);
    cr_expect(info.ended);
    cr_expect(fray_towers_fight_same(a, r));
    fray_towers_fight_free(r);
    free(b.p);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* Replays text and expects the error st on line `line`, with `words` in
 * the message. */
static void refused(const fray_towers_setup *s, const char *text,
                    fray_status st, int line, const char *words) {
    fray_towers_fight *f = tf_fight(s, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_replay(f, text, &d), st, "%s: %s", words,
                 d.message);
    cr_expect_eq(d.line, line, "%s: line %d", words, d.line);
    cr_expect(strstr(d.message, words) != NULL, "%s: %s", words, d.message);
    fray_towers_fight_free(f);
}

/* Marks that do not fit the journal are refused on their line: an undo of
 * another event than the last, an undo at the start, a redo with nothing
 * undone, an end mark counting other events, a line after the end. */
Test(towers_journal, marks_that_do_not_fit_are_refused) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    steps(a, 3);
    char *jl = tf_journal(a); /* 4 events */
    size_t n = strlen(jl);
    char *t = malloc(n + 200);
    snprintf(t, n + 200, "%s{\"undo\":{\"event\":2}}\n", jl);
    refused(s, t, FRAY_ERR_INVALID, 5, "the last event is 3");
    snprintf(t, n + 200, "%s{\"redo\":{\"event\":4}}\n", jl);
    refused(s, t, FRAY_ERR_INVALID, 5, "nothing to redo");
    snprintf(t, n + 200, "%s{\"end\":{\"events\":9}}\n", jl);
    refused(s, t, FRAY_ERR_INVALID, 5, "counts 9 events");
    snprintf(t, n + 200, "%s{\"end\":{\"events\":4}}\n%s", jl,
             strchr(jl, '\n') + 1);
    refused(s, t, FRAY_ERR_INVALID, 6, "goes on after its end (line 5)");
    snprintf(t, n + 200, "%s{\"undo\":{}}\n", jl);
    refused(s, t, FRAY_ERR_PARSE, 5, "undo.event");
    char *first = strchr(jl, '\n') + 1;
    snprintf(t, n + 200, "%.*s{\"undo\":{\"event\":0}}\n",
             (int)(first - jl), jl);
    refused(s, t, FRAY_ERR_INVALID, 2, "nothing to undo");
    free(t);
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* Issue 11: "a journal cut short says so": without its end mark a
 * journal replays but is not whole; a last line cut in the middle of its
 * writing (no newline, not JSON) is left out, and said so; a cut that is
 * not on the last line is an error on its line. */
Test(towers_journal, a_journal_cut_short_says_so) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    steps(a, 5);
    char *jl = tf_journal(a);
    size_t n = strlen(jl);
    int events = fray_towers_fight_events(a);
    fray_towers_replay_info info;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_towers_fight *r = tf_fight(s, 1);
    cr_assert_eq(fray_towers_fight_replay_journal(r, jl, n, &info, &d),
                 FRAY_OK);
    cr_expect(!info.ended && !info.torn, "no end mark: not whole");
    /* Cut in the middle of the last line. */
    char *last = jl + n - 1;
    while (last > jl && last[-1] != '\n')
        last--;
    size_t cut = (size_t)(last - jl) + 20;
    cr_assert_eq(fray_towers_fight_replay_journal(r, jl, cut, &info, &d),
                 FRAY_OK, "line %d: %s", d.line, d.message);
    cr_expect(info.torn);
    cr_expect_eq(fray_towers_fight_events(r), events - 1);
    /* The same cut with a line after it: an error on that line. */
    char *mid = malloc(2 * n + 2);
    memcpy(mid, jl, cut);
    strcpy(mid + cut, "\n");
    strcat(mid, strchr(jl, '\n') + 1);
    fray_towers_fight_free(r);
    r = tf_fight(s, 1);
    cr_expect_eq(fray_towers_fight_replay(r, mid, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, events);
    free(mid);
    fray_towers_fight_free(r);
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* Issue 11: NUL bytes silently ended files; in a journal one is refused
 * with its line and column, not taken for the journal's end. */
Test(towers_journal, nul_byte_is_refused) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    steps(a, 3);
    char *jl = tf_journal(a);
    size_t n = strlen(jl);
    char *second = strchr(jl, '\n') + 1;
    second[4] = '\0'; /* line 2, column 5 */
    fray_towers_fight *r = tf_fight(s, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_replay_journal(r, jl, n, NULL, &d),
                 FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 2);
    cr_expect_eq(d.column, 5);
    cr_expect(strstr(d.message, "NUL") != NULL, "%s", d.message);
    fray_towers_fight_free(r);
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

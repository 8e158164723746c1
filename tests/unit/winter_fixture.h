/* winter_fixture.h - Silent Winter fights for the unit tests: load an
 * encounter, begin it with the opening d6s given by hand, table commands
 * (with dice by hand), and the ruleset's state to look at. */
#ifndef WINTER_FIXTURE_H
#define WINTER_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fight.h"
#include "layer.h"
#include "winter_int.h"
#include "journal_fixture.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

static inline fray_setup *sw_t_load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK, "%s: %s", rel,
                 diag.message);
    return s;
}

/* fray check refuses the file `rel` at line `line` (and a column), in
 * words containing `words`. */
static inline void sw_t_refused_file(const char *rel, int line, const char *words) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_setup *s = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK, "%s", rel);
    cr_assert_eq(diag.line, line, "%s: %d: %s", rel, diag.line, diag.message);
    cr_assert_gt(diag.column, 0, "%s", rel);
    cr_assert(strstr(diag.message, words), "%s: %s", rel, diag.message);
}

/* The setup's options, to try a ruling's other setting. */
static inline sw_setup *sw_t_setup(fray_setup *s) { return s->data; }

/* A fight whose opening d6s are given (one per combatant but the
 * initiator, in the file's order). */
static inline fray_fight *sw_t_start(const fray_setup *s, const int *d6, size_t n) {
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    fray_given g = {NULL, 0, d6, n, NULL};
    cr_assert_eq(fray_fight_new(s, 1, &o, n ? &g : NULL, NULL, &f), FRAY_OK);
    return f;
}

static inline sw_state *sw_t_st(fray_fight *f) { return sw_fight_state(fray__fight_rf(f)); }

static inline int sw_t_who(fray_fight *f, const char *id) {
    int i = sw_find_combatant(sw_fight_setup(fray__fight_rf(f)), id);
    cr_assert_geq(i, 0, "no %s", id);
    return i;
}

static inline void sw_t_do(fray_fight *f, const char *line, const int *dice,
                           size_t n) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_given g = {NULL, 0, dice, n, NULL};
    fray_status st = fray_fight_command(f, line, dice ? &g : NULL, &diag);
    cr_assert_eq(st, FRAY_OK, "'%s': %s", line, diag.message);
}

/* Refused, in rules words containing `words`, and nothing changed. */
static inline void sw_t_refused(fray_fight *f, const char *line, const char *words) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    int before = fray_fight_events(f);
    cr_assert_neq(fray_fight_command(f, line, NULL, &diag), FRAY_OK, "'%s' allowed", line);
    cr_assert(strstr(diag.message, words), "'%s': %s", line, diag.message);
    cr_assert_eq(fray_fight_events(f), before);
}

/* "next" until the segment is `seg`. */
static inline void sw_t_to(fray_fight *f, int seg) {
    while (sw_t_st(f)->seg < seg)
        sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(sw_t_st(f)->seg, seg);
}

/* The last event's narration. */
static inline const char *sw_t_told(fray_fight *f, char *buf, size_t size) {
    fray_event_narrate(f, fray_fight_events(f) - 1, buf, size);
    return buf;
}

/* Lets `who` declare now, engaging `target` (-1: nobody): a scene set up
 * by hand for a rule's test. */
static inline void sw_t_ready(fray_fight *f, int who, int target) {
    sw_state *st = sw_t_st(f);
    st->c[who].ready = st->seg;
    st->c[who].decl_seg = 0;
    st->c[who].engages = (int8_t)target;
}

/* What a test looks at in each command the tactics choose, before it is
 * played (sw_t_play). */
typedef void (*sw_t_look_fn)(const sw_setup *sd, const sw_state *st,
                             const sw_event *cmd, uint64_t seed, void *ctx);

/* Plays the fight of `seed` to its end by the tactics (`look`, unless
 * NULL, sees each command first), then reads its journal back into a new
 * fight, which must be the same; the journal's text into *journal (the
 * caller frees it) unless journal is NULL. */
static inline void sw_t_play(const fray_setup *s, uint64_t seed, sw_t_look_fn look,
                             void *ctx, char **journal) {
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL, *g = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    while (!fray_fight_over(f)) {
        if (look) {
            sw_event cmd;
            sw_state *st = sw_t_st(f);
            sw_choose(sd, st, &cmd);
            look(sd, st, &cmd, seed, ctx);
        }
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
    }
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g), "seed %llu: the journal read back is another fight",
              (unsigned long long)seed);
    if (journal)
        *journal = text;
    else
        free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* How many times `needle` stands in the journals of the tactics' fights of
 * seeds 1 to n (each played to its end by sw_t_play, which also reads
 * each journal back to the same fight). */
static inline int sw_t_count_in_plays(const fray_setup *s, uint64_t n, const char *needle) {
    int count = 0;
    for (uint64_t seed = 1; seed <= n; seed++) {
        char *text = NULL;
        sw_t_play(s, seed, NULL, NULL, &text);
        for (const char *p = text; (p = strstr(p, needle)); p++)
            count++;
        free(text);
    }
    return count;
}

#endif

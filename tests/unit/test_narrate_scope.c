/*
 * test_narrate_scope.c - an event narrated for a scope (issue 14 "never
 * GM-only data: ... exact numbers of enemies the GM keeps hidden
 * (descriptors instead)"; include/fray/fight.h fray_event_narrate_for).
 *
 * Whole fights of 99 Towers (skirmish), Alloy (skirmish) and Silent Winter
 * (brawl), every event narrated for the GM and for a player of the first
 * side whose scope hides the enemies' numbers:
 *   - no line about an enemy (its first-named combatant) holds a number
 *     next to a track's word (STUN, LETHAL; hit points; Health, Pain);
 *   - every line about the player's own side, and every line that told no
 *     number of a track or a resource (the cards flipped, the dice
 *     rolled, hit or miss), is the GM's line, byte for byte;
 *   - as many hits and misses are told as the GM's narration tells;
 *   - enemies' damage is told with the view's descriptors;
 * and with enemy_numbers true (or the GM's scope) the narration is
 * fray_event_narrate's, byte for byte.
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"

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

static char *gm_text(const fray_fight *f, int i) {
    size_t n = fray_event_narrate(f, i, NULL, 0);
    char *b = malloc(n + 1);
    cr_assert_not_null(b);
    fray_event_narrate(f, i, b, n + 1);
    return b;
}

static char *scope_text(const fray_fight *f, int i, const fray_view_scope *sc) {
    size_t n = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_event_narrate_for(f, i, sc, NULL, 0, &n, &d), FRAY_OK,
                 "%s", d.message);
    char *b = malloc(n + 1);
    cr_assert_not_null(b);
    size_t m = 0;
    cr_assert_eq(fray_event_narrate_for(f, i, sc, b, n + 1, &m, &d), FRAY_OK);
    cr_assert_eq(m, n, "the length asked for is the length written");
    return b;
}

/* The combatant a line is about: the one named first (the longest name
 * at the earliest place); -1 none. */
static int subject(const fray_setup *s, const char *line) {
    int best = -1;
    const char *at = NULL;
    size_t blen = 0;
    for (int c = 0; c < fray_setup_combatants(s); c++) {
        const char *nm = fray_setup_combatant_name(s, c);
        const char *p = strstr(line, nm);
        if (!p)
            continue;
        if (!at || p < at || (p == at && strlen(nm) > blen)) {
            at = p;
            best = c;
            blen = strlen(nm);
        }
    }
    return best;
}

/* A number next to one of the track words: "3 STUN", "7/10 STUN",
 * "Health 4", "Pain: -1", "(Pain 2)", "7 hit points". */
static bool number_by_track(const char *line, const char *const *words) {
    for (int w = 0; words[w]; w++) {
        size_t wl = strlen(words[w]);
        for (const char *p = strstr(line, words[w]); p;
             p = strstr(p + 1, words[w])) {
            const char *q = p;
            while (q > line && q[-1] == ' ')
                q--;
            if (q > line && isdigit((unsigned char)q[-1]))
                return true;
            const char *r = p + wl;
            while (*r == ' ' || *r == ':' || *r == '-')
                r++;
            if (isdigit((unsigned char)*r))
                return true;
        }
    }
    return false;
}

/* Lines told without numbers: resources' counts too ("(3 left)", mana). */
static bool tells_resource(const char *line) {
    return strstr(line, " left") || strstr(line, " mana") ||
           strstr(line, "action point");
}

static int count_of(const char *text, const char *word) {
    int n = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        n++;
    return n;
}

static int hits_and_misses(const char *text) {
    return count_of(text, ": hit") + count_of(text, ": miss") +
           count_of(text, "hit:") + count_of(text, "miss:") +
           count_of(text, ": critical hit") + count_of(text, "missed,");
}

static bool has_descriptor(const char *line) {
    static const char *const d[] = {"unhurt", "hurt", "bloodied", "out",
                                    "fresh",  "tiring", "winded", "blown"};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
        if (strstr(line, d[k]))
            return true;
    return false;
}

/* One line of s up to '\n' into buf; the rest after it (NULL at the end). */
static const char *next_line(const char *s, char *buf, size_t size) {
    if (!*s)
        return NULL;
    const char *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    cr_assert_lt(n, size);
    memcpy(buf, s, n);
    buf[n] = '\0';
    return e ? e + 1 : s + n;
}

typedef struct tally {
    int hidden_told; /* lines about an enemy's damage told with words */
    int own_numbers; /* lines about the player's side with a track number */
    int events;
} tally;

/* Fight `rel` with `seed` to its end, every event checked as the file's
 * comment says, for a player of side 0's first combatant. */
static void check_fight(const char *rel, uint64_t seed,
                        const char *const *words, tally *out) {
    fray_setup *s = load(rel);
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &fo, NULL, NULL, &f), FRAY_OK);
    cr_assert_eq(fray_fight_run(f), FRAY_OK);
    int n = fray_setup_combatants(s);
    int mine = -1;
    for (int c = 0; c < n && mine < 0; c++)
        if (fray_setup_combatant_side(s, c) == 0)
            mine = c;
    cr_assert_geq(mine, 0);
    fray_view_scope hidden = fray_view_scope_player(&mine, 1);
    hidden.enemy_numbers = false;
    fray_view_scope shown = fray_view_scope_player(&mine, 1);
    shown.enemy_numbers = true;
    fray_view_scope gm = fray_view_scope_gm();
    gm.enemy_numbers = false; /* the GM sees every number whatever it says */
    for (int i = 0; i < fray_fight_events(f); i++) {
        char *g = gm_text(f, i);
        char *a = scope_text(f, i, &shown);
        char *b = scope_text(f, i, &gm);
        cr_assert_str_eq(a, g, "%s seed %llu event %d: enemy_numbers true "
                         "narrates as the GM's", rel, (unsigned long long)seed, i);
        cr_assert_str_eq(b, g, "event %d: the GM's scope narrates as the GM's", i);
        free(a);
        free(b);
        char *p = scope_text(f, i, &hidden);
        cr_assert_eq(hits_and_misses(p), hits_and_misses(g),
                     "%s event %d: every hit and miss told:\n%s\n--\n%s", rel, i,
                     g, p);
        const char *gs = g, *ps = p;
        char gl[2048], pl[2048];
        for (;;) {
            gs = next_line(gs, gl, sizeof gl);
            ps = next_line(ps, pl, sizeof pl);
            cr_assert_eq(gs == NULL, ps == NULL,
                         "%s event %d: a line for each of the GM's:\n%s\n--\n%s",
                         rel, i, g, p);
            if (!gs)
                break;
            int who = subject(s, gl);
            bool enemy = who >= 0 && fray_setup_combatant_side(s, who) != 0;
            cr_assert_eq(subject(s, pl), who, "%s event %d: the same one told "
                         "of:\n%s\n%s", rel, i, gl, pl);
            if (enemy) {
                cr_assert(!number_by_track(pl, words),
                          "%s event %d: no number of %s's tracks:\n%s", rel, i,
                          fray_setup_combatant_name(s, who), pl);
                if (number_by_track(gl, words) && has_descriptor(pl))
                    out->hidden_told++;
                if (!number_by_track(gl, words) && !tells_resource(gl))
                    cr_assert_str_eq(pl, gl, "%s event %d: a line without "
                                     "numbers of a track (cards, dice) stays",
                                     rel, i);
            } else {
                cr_assert_str_eq(pl, gl, "%s event %d: the player's side's "
                                 "line stays", rel, i);
                out->own_numbers += who >= 0 && number_by_track(gl, words);
            }
        }
        free(p);
        free(g);
        out->events++;
    }
    fray_fight_free(f);
    fray_setup_free(s);
}

static void check_many(const char *rel, const char *const *words) {
    tally t = {0, 0, 0};
    for (uint64_t seed = 1; seed <= 6; seed++)
        check_fight(rel, seed, words, &t);
    /* The fights did what the checks are about. */
    cr_assert_gt(t.hidden_told, 0, "%s: some enemy's harm told in words", rel);
    cr_assert_gt(t.own_numbers, 0, "%s: some of the player's side's numbers "
                 "told", rel);
}

Test(narrate_scope, towers_skirmish_never_gm_only_data_issue14) {
    static const char *const words[] = {"STUN", "LETHAL", NULL};
    check_many("examples/towers/skirmish.yaml", words);
}

Test(narrate_scope, alloy_skirmish_never_gm_only_data_issue14) {
    static const char *const words[] = {"hit point", "HP", NULL};
    check_many("examples/alloy/skirmish.yaml", words);
}

Test(narrate_scope, winter_brawl_never_gm_only_data_issue14) {
    static const char *const words[] = {"Health", "Pain", NULL};
    check_many("examples/silent-winter/brawl.yaml", words);
}

Test(narrate_scope, refusals_issue14) {
    fray_setup *s = load("examples/towers/skirmish.yaml");
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, 1, &fo, NULL, NULL, &f), FRAY_OK);
    int mine = 0;
    fray_view_scope sc = fray_view_scope_player(&mine, 1);
    sc.enemy_numbers = false;
    size_t n = 1;
    char buf[16] = "x";
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_event_narrate_for(f, fray_fight_events(f), &sc, buf,
                                        sizeof buf, &n, &d),
                 FRAY_ERR_INVALID, "no such event");
    cr_assert_str_eq(buf, "");
    cr_assert(strstr(d.message, "no event"), "%s", d.message);
    cr_assert_eq(fray_event_narrate_for(f, 0, NULL, buf, sizeof buf, &n, &d),
                 FRAY_ERR_INVALID, "no scope");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Issue 14 "the GM's overrides" told to a player who may not see the
 * enemies' numbers: the GM setting an enemy's hit points (Alloy's `gm set`)
 * is told as a word ("bloodied": half or less, 004's word), never as the
 * numbers the GM gave; the GM's own narration keeps them. */
Test(narrate_scope, alloy_gm_set_keeps_the_number_issue14) {
    fray_setup *s = load("examples/alloy/skirmish.yaml");
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, 1, &fo, NULL, NULL, &f), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_command(f, "gm set thug-1 hp 5", NULL, &d), FRAY_OK,
                 "%s", d.message);
    int i = fray_fight_events(f) - 1, mine = 0;
    fray_view_scope sc = fray_view_scope_player(&mine, 1);
    sc.enemy_numbers = false;
    char *gm = gm_text(f, i), *pl = scope_text(f, i, &sc);
    cr_expect(strstr(gm, "set to 5"), "the GM reads the number: %s", gm);
    cr_expect(!strstr(pl, "5") && !strstr(pl, "14"), "no number: %s", pl);
    cr_expect(strstr(pl, "Thug 1 is bloodied"), "a word instead: %s", pl);
    free(gm);
    free(pl);
    fray_fight_free(f);
    fray_setup_free(s);
}

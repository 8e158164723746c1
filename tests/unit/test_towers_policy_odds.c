/*
 * test_towers_policy_odds.c - the tactics policy's hit chances (policy.c,
 * ft_policy_prepare): counted once per load from the exact odds
 * (fray_odds_attack) for the encounter's own deck and flip options, and the
 * same numbers the policy used to carry as a typed table for the defaults
 * (seed 000 "Attacking and Defending"; RULINGS 1, 3, 6).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

static int at(const ft_setup *s, int a, int d, int shift) {
    return s->hit_permille[a - FT_HIT_FLIP_MIN][d - FT_HIT_FLIP_MIN]
                          [shift + FT_HIT_SHIFT_MAX];
}

static ft_setup *prepared(const ft_options *opt) {
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    ft_options_default(&s->opt);
    if (opt)
        s->opt = *opt;
    ft_policy_prepare(s);
    cr_assert(s->hit_ready);
    return s;
}

/*
 * Rows of the table policy.c held before it was computed: P(hit) in
 * thousandths, rounded half up, for attack flip a vs defense flip d (rank +
 * flip mods) and attack minus defense shifts -3..+3. They come from the
 * exact odds (`fray odds attack A D --attack-shift S`: fresh 52-card decks,
 * one per side; RULINGS 1 aces high, no Jokers; RULINGS 3 n < 1 flips 2 - n
 * cards and keeps the lowest; RULINGS 6 a tie hits). Rows -1 and 0 check
 * the keep-lowest flips, 3 and 8 the keep-highest ones. (All 700 entries of
 * the old table were compared when it was removed: none differed.)
 */
static const struct {
    int a, d;
    int permille[7];
} OLD_ROWS[] = {
    {-1, -1, { 224,  315,  430,  570,  685,  776,  847}},
    {-1,  0, { 173,  246,  340,  456,  561,  654,  734}},
    {-1,  1, { 102,  148,  208,  285,  362,  439,  515}},
    {-1,  2, {  31,   50,   77,  114,  163,  224,  296}},
    {-1,  3, {  12,   21,   35,   56,   88,  132,  189}},
    {-1,  4, {   5,   10,   18,   32,   54,   87,  133}},
    {-1,  5, {   2,    5,   10,   20,   36,   62,  101}},
    {-1,  6, {   1,    3,    6,   13,   26,   48,   81}},
    {-1,  7, {   1,    2,    4,    9,   20,   38,   68}},
    {-1,  8, {   0,    1,    3,    7,   15,   32,   59}},
    { 0, -1, { 346,  439,  544,  660,  754,  827,  884}},
    { 0,  0, { 277,  357,  448,  552,  643,  723,  791}},
    { 0,  1, { 172,  227,  293,  370,  446,  521,  595}},
    { 0,  2, {  67,   97,  137,  187,  249,  320,  398}},
    { 0,  3, {  31,   50,   77,  114,  163,  224,  296}},
    { 0,  4, {  16,   28,   48,   77,  118,  171,  237}},
    { 0,  5, {   9,   17,   32,   56,   92,  140,  200}},
    { 0,  6, {   5,   11,   22,   42,   75,  119,  176}},
    { 0,  7, {   3,    7,   16,   33,   63,  105,  158}},
    { 0,  8, {   2,    5,   12,   27,   55,   94,  146}},
    { 3, -1, { 868,  912,  944,  965,  979,  988,  994}},
    { 3,  0, { 776,  837,  886,  923,  950,  969,  981}},
    { 3,  1, { 561,  638,  715,  792,  852,  898,  933}},
    { 3,  2, { 346,  439,  544,  660,  754,  827,  884}},
    { 3,  3, { 224,  315,  430,  570,  685,  776,  847}},
    { 3,  4, { 149,  232,  349,  505,  634,  738,  819}},
    { 3,  5, { 100,  174,  288,  456,  595,  708,  797}},
    { 3,  6, {  68,  132,  241,  418,  565,  684,  779}},
    { 3,  7, {  47,  102,  204,  388,  540,  665,  764}},
    { 3,  8, {  32,   78,  174,  363,  520,  649,  752}},
    { 8, -1, { 968,  985,  993,  997,  999, 1000, 1000}},
    { 8,  0, { 906,  945,  973,  988,  995,  998,  999}},
    { 8,  1, { 700,  777,  854,  931,  969,  988,  995}},
    { 8,  2, { 494,  609,  735,  874,  944,  977,  991}},
    { 8,  3, { 351,  480,  637,  826,  922,  968,  988}},
    { 8,  4, { 250,  379,  555,  785,  903,  960,  985}},
    { 8,  5, { 178,  301,  485,  750,  887,  953,  982}},
    { 8,  6, { 127,  239,  425,  720,  872,  946,  980}},
    { 8,  7, {  90,  190,  374,  694,  860,  941,  978}},
    { 8,  8, {  64,  151,  329,  671,  849,  936,  976}},
};

/* Default options: the computed table is the old typed one. */
Test(towers_policy_odds, defaults_give_the_old_table) {
    ft_setup *s = prepared(NULL);
    for (size_t i = 0; i < sizeof OLD_ROWS / sizeof OLD_ROWS[0]; i++)
        for (int sh = -3; sh <= 3; sh++)
            cr_expect_eq(at(s, OLD_ROWS[i].a, OLD_ROWS[i].d, sh),
                         OLD_ROWS[i].permille[sh + 3],
                         "%d vs %d, shift %+d: %d, expected %d", OLD_ROWS[i].a,
                         OLD_ROWS[i].d, sh, at(s, OLD_ROWS[i].a, OLD_ROWS[i].d, sh),
                         OLD_ROWS[i].permille[sh + 3]);
    free(s);
}

/*
 * One card against one (seed 000 "Attacking and Defending": the attack hits
 * when its card is at least the defense's; RULINGS 6 ties hit), counted by
 * hand. 52 cards, 13 values of 4: ties 13 * 16 of 52 * 52 = 2704 pairs, and
 * the rest split evenly, so hits = (2704 - 208) / 2 + 208 = 1456: 538.46
 * per mille. RULINGS 1 with two Jokers worth 15: 54 cards, ties
 * 13 * 16 + 2 * 2 = 212 of 2916, hits = (2916 - 212) / 2 + 212 = 1564:
 * 536.35 per mille.
 */
Test(towers_policy_odds, one_card_each_by_hand) {
    ft_setup *s = prepared(NULL);
    cr_expect_eq(at(s, 1, 1, 0), 538);
    free(s);
    ft_options o;
    ft_options_default(&o);
    o.deck.jokers = 2;
    o.deck.joker_value = 15;
    s = prepared(&o);
    cr_expect_eq(at(s, 1, 1, 0), 536);
    free(s);
}

/* RULINGS 3 option min-one-card: a flip of n < 1 turns over one card, so
 * flips of -1 and 0 are worth exactly a flip of 1, on both sides. Without
 * the option they are not (-1 vs 1 is 3 cards keeping the lowest). */
Test(towers_policy_odds, min_one_card_flips_one_card) {
    ft_options o;
    ft_options_default(&o);
    o.flip.min_one_card = true;
    ft_setup *s = prepared(&o);
    for (int low = -1; low <= 0; low++)
        for (int x = FT_HIT_FLIP_MIN; x <= FT_HIT_FLIP_MAX; x++)
            for (int sh = -3; sh <= 3; sh++) {
                cr_expect_eq(at(s, low, x, sh), at(s, 1, x, sh),
                             "%d vs %d, shift %+d", low, x, sh);
                cr_expect_eq(at(s, x, low, sh), at(s, x, 1, sh),
                             "%d vs %d, shift %+d", x, low, sh);
            }
    ft_setup *def = prepared(NULL);
    cr_expect_neq(at(def, -1, 1, 0), at(def, 1, 1, 0));
    cr_expect_eq(at(s, -1, 1, 0), at(def, 1, 1, 0));
    free(def);
    free(s);
}

/* Every load prepares the table, for the encounter's own options (RULINGS 1
 * Jokers, RULINGS 3 min-one-card), through the text loader too. */
Test(towers_policy_odds, a_load_prepares_for_its_options) {
    static const char text[] =
        "fray: encounter\n"
        "name: Odds\n"
        "catalog: [../../data/towers/equipment.yaml]\n"
        "statblocks: [statblocks.yaml]\n"
        "options: {jokers: 2, min-one-card: true}\n"
        "sides: [a, b]\n"
        "combatants:\n"
        "  - {id: x, statblock: Knight of Areast, side: a}\n"
        "  - {id: y, statblock: Black Knight, side: b}\n";
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(ft_load_text(text, strlen(text),
                              FRAY_SOURCE_DIR "/examples/towers/odds.yaml", NULL,
                              s, &diag),
                 FRAY_OK, "%s:%d: %s", diag.file ? diag.file : "", diag.line,
                 diag.message);
    cr_assert(s->hit_ready);
    cr_expect_eq(s->opt.deck.jokers, 2);
    ft_setup *want = prepared(&s->opt);
    cr_expect_eq(memcmp(s->hit_permille, want->hit_permille,
                        sizeof s->hit_permille), 0);
    cr_expect_eq(at(s, 1, 1, 0), 536);             /* two Jokers, as above */
    cr_expect_eq(at(s, -1, 1, 0), at(s, 1, 1, 0)); /* min-one-card */
    free(want);

    /* A file with the default options: the default table. */
    const char *path = FRAY_SOURCE_DIR "/examples/towers/duel.yaml";
    cr_assert_eq(ft_load_files(&path, 1, s, &diag), FRAY_OK, "%s", diag.message);
    cr_assert(s->hit_ready);
    want = prepared(NULL);
    cr_expect_eq(memcmp(s->hit_permille, want->hit_permille,
                        sizeof s->hit_permille), 0);
    free(want);
    free(s);
}

/*
 * A setup built by hand (hit_ready false) gets the same chances counted on
 * the spot: whole fights of the example encounters, with every decision
 * asked of the prepared setup and of an unprepared copy, choose alike
 * (seed 000 "Power Attack", "Aim"; docs/rules/towers.md "Tactics").
 */
static void fights_agree(const char *file, int fights) {
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/towers/%s", FRAY_SOURCE_DIR, file);
    const char *paths[1] = {path};
    ft_setup *s = calloc(1, sizeof *s), *raw = calloc(1, sizeof *raw);
    ft_state *st = calloc(1, sizeof *st);
    ft_event *ev = calloc(1, sizeof *ev);
    cr_assert(s && raw && st && ev);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(ft_load_files(paths, 1, s, &diag), FRAY_OK, "%s", diag.message);
    cr_assert(s->hit_ready);
    *raw = *s;
    raw->hit_ready = false;
    memset(raw->hit_permille, 0xff, sizeof raw->hit_permille); /* never read */
    int decisions = 0;
    for (int fight = 0; fight < fights; fight++) {
        ft_state_reset(s, st, (uint64_t)fight + 1);
        ft_run r;
        memset(&r, 0, sizeof r);
        r.setup = s;
        r.st = st;
        r.ev = ev;
        r.hooks = &ft_policy_hooks;
        memset(ev, 0, sizeof *ev);
        ev->cmd = tf_cmd(FT_CMD_BEGIN, -1);
        cr_assert_eq(ft_apply(&r), FRAY_OK);
        for (int step = 0; step < 400 && !st->over; step++) {
            int next = ft_next_actor(st);
            if (next < 0)
                break;
            ft_command cmd, other;
            if (st->c[next].phase > st->phase) {
                cmd = tf_cmd(FT_CMD_PHASE, -1);
            } else {
                ft_policy_choose(s, st, next, &cmd);
                ft_policy_choose(raw, st, next, &other);
                cr_assert_eq(memcmp(&cmd, &other, sizeof cmd), 0,
                             "%s fight %d step %d: %s chose %s, counted %s",
                             file, fight, step, s->c[next].name,
                             ft_actions[cmd.action].name,
                             ft_actions[other.action].name);
                decisions++;
            }
            memset(ev, 0, sizeof *ev);
            ev->cmd = cmd;
            if (ft_apply(&r) != FRAY_OK)
                break;
        }
    }
    cr_expect_gt(decisions, fights, "%s: the fights took decisions", file);
    free(ev);
    free(st);
    free(raw);
    free(s);
}

Test(towers_policy_odds, prepared_and_counted_choose_alike) {
    fights_agree("duel.yaml", 20);
    fights_agree("skirmish.yaml", 5);
}

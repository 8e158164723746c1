/*
 * test_dice.c - reading, writing, bounds and rolls of dice expressions
 * (fray/dice.h). D6 die codes and the Wild Die: OpenD6, the basics seed
 * 003 builds on ("4D", "+2D (+6)"). X{W}: seed 004 "Damage" and
 * "Multiplying Damage". The exact odds are in test_dice_odds.c.
 */
#include <criterion/criterion.h>

#include "fail_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/dice.h"

static fray_dice *parse_ok(const char *text, const char *weapon) {
    fray_dice *d = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_dice_parse(text, weapon, NULL, &d, &diag);
    cr_assert_eq(st, FRAY_OK, "\"%s\": %s", text, diag.message);
    cr_assert_not_null(d);
    return d;
}

static void format_of(const fray_dice *d, char *buf, size_t cap) {
    size_t len = fray_dice_format(d, buf, cap);
    cr_assert_lt(len, cap);
}

/* ---- Valid forms and the canonical text
 * ------------------------------------ */

typedef struct valid_case {
    const char *text;
    const char *weapon;
    const char *canonical;
    int64_t min;
    bool bounded;
    int64_t max;
    bool d20;
    bool wild;
} valid_case;

static const valid_case VALID[] = {
    /* plain NdS; "d20" is 1d20; letters are case-insensitive */
    {"d20", NULL, "1d20", 1, true, 20, true, false},
    {"1d20+5", NULL, "1d20+5", 6, true, 25, true, false},
    {"D20 - 3", NULL, "1d20-3", -2, true, 17, true, false},
    {" 3 d 6 + 2 ", NULL, "3d6+2", 5, true, 20, false, false},
    {"2d6-1d4", NULL, "2d6-1d4", -2, true, 11, false, false},
    {"-1d4+2", NULL, "-1d4+2", -2, true, 1, false, false},
    {"+7", NULL, "7", 7, true, 7, false, false},
    {"-7", NULL, "-7", -7, true, -7, false, false},
    {"1000d1000", NULL, "1000d1000", 1000, true, 1000000, false, false},
    /* keep: 'k' is 'kh' */
    {"4d6kh3", NULL, "4d6kh3", 3, true, 18, false, false},
    {"4D6K3", NULL, "4d6kh3", 3, true, 18, false, false},
    {"4d6KL1", NULL, "4d6kl1", 1, true, 6, false, false},
    {"3d6kh0", NULL, "3d6kh0", 0, true, 0, false, false},
    {"2d20kh1", NULL, "2d20kh1", 1, true, 20, false, false},
    /* D6 die codes: 'D' (or 'd') not followed by a number, as dice.h's
     * grammar says; "4D6" is 4d6 */
    {"4D", NULL, "4D", 4, true, 24, false, false},
    {"4d", NULL, "4D", 4, true, 24, false, false},
    {"4D+2", NULL, "4D+2", 6, true, 26, false, false},
    {"4D6", NULL, "4d6", 4, true, 24, false, false},
    /* the Wild Die: no highest total; a first 1 removes itself and the
     * highest other die, so 3D! can be as low as 1 and 1D! as 0 */
    {"4D!+2", NULL, "4D!+2", 4, false, 0, false, true},
    {"4d!", NULL, "4D!", 2, false, 0, false, true},
    {"3D!", NULL, "3D!", 1, false, 0, false, true},
    {"1D!", NULL, "1D!", 0, false, 0, false, true},
    {"2D!", NULL, "2D!", 0, false, 0, false, true},
    /* seed 004 "Multiplying Damage": the dice X times, static modifiers
     * once: 2{1d8+3} is 2..16 plus 3 */
    {"2{1d8+3}", NULL, "2{1d8+3}", 5, true, 19, false, false},
    {"2{W}", "1d8+3", "2{W}", 5, true, 19, false, false},
    {"2{ w }+1", "1d8+3", "2{W}+1", 6, true, 20, false, false},
    {"1{W}+1{W}", "1d4", "1{W}+1{W}", 2, true, 8, false, false},
    {"3{1d6-1d4+1}", NULL, "3{1d6-1d4+1}", -8, true, 16, false, false},
    {"10-2{1d4+1}", NULL, "10-2{1d4+1}", 1, true, 7, false, false},
    {"2{1D!}", NULL, "2{1D!}", 0, false, 0, false, true},
    {"2147483647", NULL, "2147483647", 2147483647, true, 2147483647, false,
     false},
};

/* Canonical text, bounds and classification of every valid form. */
Test(dice_parse, valid_forms) {
    for (size_t i = 0; i < sizeof VALID / sizeof VALID[0]; i++) {
        const valid_case *c = &VALID[i];
        fray_dice *d = parse_ok(c->text, c->weapon);
        char buf[128];
        format_of(d, buf, sizeof buf);
        cr_expect_str_eq(buf, c->canonical, "\"%s\"", c->text);
        cr_expect_eq(fray_dice_min(d), c->min, "min of \"%s\"", c->text);
        int64_t max = -12345;
        cr_expect_eq(fray_dice_max(d, &max), c->bounded, "\"%s\"", c->text);
        if (c->bounded)
            cr_expect_eq(max, c->max, "max of \"%s\"", c->text);
        cr_expect_eq(fray_dice_is_d20(d), c->d20, "is_d20 \"%s\"", c->text);
        cr_expect_eq(fray_dice_has_wild(d), c->wild, "wild \"%s\"", c->text);
        fray_dice_free(d);
    }
}

/* Reading the canonical text back gives the same expression. */
Test(dice_parse, canonical_round_trip) {
    for (size_t i = 0; i < sizeof VALID / sizeof VALID[0]; i++) {
        fray_dice *d = parse_ok(VALID[i].text, VALID[i].weapon);
        char a[128], b[128];
        format_of(d, a, sizeof a);
        fray_dice *again = parse_ok(a, VALID[i].weapon);
        format_of(again, b, sizeof b);
        cr_expect_str_eq(a, b);
        cr_expect_eq(fray_dice_min(d), fray_dice_min(again));
        fray_dice_free(again);
        fray_dice_free(d);
    }
}

/* fray_dice_format works like snprintf: the full length, a cut but
 * terminated text. */
Test(dice_parse, format_reports_needed_length) {
    fray_dice *d = parse_ok("4d6kh3+2", NULL);
    char small[5];
    cr_expect_eq(fray_dice_format(d, small, sizeof small), 8u);
    cr_expect_str_eq(small, "4d6k");
    cr_expect_eq(fray_dice_format(d, NULL, 0), 8u);
    fray_dice_free(d);
}

/* dice.h: "exactly one d20 plus constants". */
Test(dice_parse, is_d20_only_for_one_plain_d20) {
    static const char *const not_d20[] = {"1d20+1d4", "2d20kh1", "-1d20",
                                          "1d20kh1", "1{1d20}", "1d12", "5"};
    for (size_t i = 0; i < sizeof not_d20 / sizeof not_d20[0]; i++) {
        fray_dice *d = parse_ok(not_d20[i], NULL);
        cr_expect_not(fray_dice_is_d20(d), "\"%s\"", not_d20[i]);
        fray_dice_free(d);
    }
}

/* ---- Errors: code, column and the offending token
 * --------------------------- */

typedef struct bad_case {
    const char *text;
    const char *weapon;
    fray_status status;
    int column;
    const char *must_contain; /* the offending token, as quoted */
} bad_case;

static const bad_case BAD[] = {
    {"", NULL, FRAY_ERR_PARSE, 1, "empty"},
    {"   ", NULL, FRAY_ERR_PARSE, 1, "empty"},
    {"d", NULL, FRAY_ERR_PARSE, 2, "end of the text"},
    {"4d0", NULL, FRAY_ERR_PARSE, 3, "'0'"},
    {"d1", NULL, FRAY_ERR_PARSE, 2, "'1'"},
    {"2d1001", NULL, FRAY_ERR_PARSE, 3, "'1001'"},
    {"0d6", NULL, FRAY_ERR_PARSE, 1, "'0'"},
    {"1001d6", NULL, FRAY_ERR_PARSE, 1, "'1001'"},
    {"3d6kh4", NULL, FRAY_ERR_PARSE, 6, "'4'"},
    {"4d6kh", NULL, FRAY_ERR_PARSE, 6, "'kh'"},
    {"4d6khx", NULL, FRAY_ERR_PARSE, 6, "'x'"},
    {"2{W}", NULL, FRAY_ERR_PARSE, 3, "'W' needs a weapon expression"},
    {"4d6x", NULL, FRAY_ERR_PARSE, 4, "'x'"},
    {"4d6 xyz", NULL, FRAY_ERR_PARSE, 5, "'xyz'"},
    {"1d6++2", NULL, FRAY_ERR_PARSE, 5, "'+'"},
    {"1d6+", NULL, FRAY_ERR_PARSE, 5, "end of the text"},
    {"+", NULL, FRAY_ERR_PARSE, 2, "end of the text"},
    {"-4D!", NULL, FRAY_ERR_PARSE, 2, "'4D!'"},
    {"1d6-2D!", NULL, FRAY_ERR_PARSE, 5, "'2D!'"},
    {"99999999999", NULL, FRAY_ERR_PARSE, 1, "'99999999999'"},
    {"1d6+3000000000", NULL, FRAY_ERR_PARSE, 5, "'3000000000'"},
    {"2147483647+1", NULL, FRAY_ERR_PARSE, 12, "'1'"},
    {"4d6!!", NULL, FRAY_ERR_PARSE, 5, "'!'"},
    {"4D!!", NULL, FRAY_ERR_PARSE, 4, "'!'"},
    {"4Dkh3", NULL, FRAY_ERR_PARSE, 3, "'kh3'"},
    {"2{1d8", NULL, FRAY_ERR_PARSE, 6, "end of the text"},
    {"2{}", NULL, FRAY_ERR_PARSE, 3, "'}'"},
    {"2{1d6}}", NULL, FRAY_ERR_PARSE, 7, "'}'"},
    {"2{3{1d6}}", NULL, FRAY_ERR_PARSE, 4, "'{'"},
    {"0{1d6}", NULL, FRAY_ERR_PARSE, 1, "'0'"},
    {"2{1000d6}", NULL, FRAY_ERR_PARSE, 1, "'2{1000d6}'"},
    {"1d6 2", NULL, FRAY_ERR_PARSE, 5, "'2'"},
    {"1d6\x01", NULL, FRAY_ERR_PARSE, 4, "'\\x01'"},
    /* errors in the weapon text are located in it and say so */
    {"2{W}", "1d8x", FRAY_ERR_PARSE, 4, "in the weapon expression"},
    {"2{W}", "", FRAY_ERR_PARSE, 1, "in the weapon expression"},
    {"2{W}", "1{W}", FRAY_ERR_PARSE, 2, "'{'"},
    {"-2{W}", "1D!", FRAY_ERR_PARSE, 2, "'2{W}'"},
};

/* Issue 2 section 5: a parse error names the offending token and its column. */
Test(dice_parse, bad_input_names_token_and_column) {
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const bad_case *c = &BAD[i];
        fray_dice *d = (fray_dice *)&d; /* must be reset to NULL */
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        fray_status st = fray_dice_parse(c->text, c->weapon, NULL, &d, &diag);
        cr_expect_eq(st, c->status, "\"%s\": status %d", c->text, st);
        cr_expect_null(d, "\"%s\"", c->text);
        cr_expect_eq(diag.column, c->column, "\"%s\": column %d (%s)", c->text,
                     diag.column, diag.message);
        cr_expect(strstr(diag.message, c->must_contain) != NULL,
                  "\"%s\": message \"%s\" lacks \"%s\"", c->text, diag.message,
                  c->must_contain);
        if (c->column > 0) {
            char where[32];
            snprintf(where, sizeof where, "column %d", c->column);
            cr_expect(strstr(diag.message, where) != NULL || c->column == 1,
                      "\"%s\": \"%s\"", c->text, diag.message);
        }
    }
}

/* The exact wording of the messages the brief asks for. */
Test(dice_parse, message_wording) {
    fray_dice *d;
    fray_diag diag;
    cr_assert_eq(fray_dice_parse("4d6x", NULL, NULL, &d, &diag), FRAY_ERR_PARSE);
    cr_expect_str_eq(diag.message, "unexpected 'x' at column 4 of \"4d6x\"");
    cr_assert_eq(fray_dice_parse("2{W}", NULL, NULL, &d, &diag), FRAY_ERR_PARSE);
    cr_expect(strstr(diag.message,
                     "'W' needs a weapon expression (none was given)") != NULL);
    cr_assert_eq(fray_dice_parse("2{W}", "1d8x", NULL, &d, &diag),
                 FRAY_ERR_PARSE);
    cr_expect_str_eq(diag.message, "in the weapon expression: unexpected 'x' "
                                   "at column 4 of \"1d8x\"");
}

/* dice.h limits: 64 terms. */
Test(dice_parse, at_most_64_terms) {
    char text[64 * 4 + 8] = "1";
    for (int i = 1; i < 64; i++)
        strcat(text, "+1");
    fray_dice *d = parse_ok(text, NULL);
    cr_expect_eq(fray_dice_min(d), 64);
    fray_dice_free(d);
    strcat(text, "+1");
    fray_diag diag;
    cr_expect_eq(fray_dice_parse(text, NULL, NULL, &d, &diag), FRAY_ERR_PARSE);
    cr_expect_eq(diag.column, 129); /* the 65th "1" */
    cr_expect(strstr(diag.message, "at most 64 terms") != NULL, "%s",
              diag.message);
}

/* Programmer errors (NULL text or out) are refused, not crashed on. */
Test(dice_parse, null_arguments_are_invalid) {
    fray_dice *d;
    cr_expect_eq(fray_dice_parse(NULL, NULL, NULL, &d, NULL), FRAY_ERR_INVALID);
    cr_expect_null(d);
    cr_expect_eq(fray_dice_parse("1d6", NULL, NULL, NULL, NULL),
                 FRAY_ERR_INVALID);
    fray_dice_free(NULL); /* accepted, like free(NULL) */
}

/* ---- Rolls
 * ------------------------------------------------------------------- */

static int64_t sum_counted(const fray_roll *r) {
    int64_t s = 0;
    for (size_t i = 0; i < r->n_dice; i++) {
        const fray_die_roll *die = &r->dice[i];
        if (die->flags & (FRAY_DIE_DROPPED | FRAY_DIE_REMOVED))
            continue;
        s += (die->flags & FRAY_DIE_NEGATIVE) ? -die->value : die->value;
    }
    return s;
}

/* Every total lies in [min, max]; fray_dice_roll and fray_dice_roll_total
 * draw the same numbers, so one seed gives one total either way. */
Test(dice_roll, totals_in_bounds_and_both_rollers_agree) {
    static const char *const exprs[] = {"3d6+2",     "4d6kh3",   "4d6kl3",
                                        "2d6-1d4",   "1d20+5",   "4D!+2",
                                        "1D!",       "2{1d8+3}", "10-2{1d4+1}",
                                        "3d6kh0",    "2{1D!}+1", "6d10kl2-3"};
    for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++) {
        fray_dice *d = parse_ok(exprs[e], NULL);
        int64_t lo = fray_dice_min(d), hi = 0;
        bool bounded = fray_dice_max(d, &hi);
        fray_rng a, b;
        fray_rng_seed(&a, 77u, e);
        fray_rng_seed(&b, 77u, e);
        fray_roll r;
        fray_roll_init(&r, NULL);
        for (int i = 0; i < 2000; i++) {
            cr_assert_eq(fray_dice_roll(d, &a, &r), FRAY_OK);
            int64_t t = fray_dice_roll_total(d, &b);
            cr_assert_eq(r.total, t, "\"%s\" roll %d", exprs[e], i);
            cr_assert_geq(r.total, lo, "\"%s\"", exprs[e]);
            if (bounded)
                cr_assert_leq(r.total, hi, "\"%s\"", exprs[e]);
        }
        fray_roll_free(&r);
        fray_dice_free(d);
    }
}

/* The recorded dice explain the total: constants aside, the total is the
 * sum of the dice that are neither dropped nor removed, with subtracted
 * dice counted against it. Checks the keep, Wild Die and sign flags. */
Test(dice_roll, recorded_dice_add_up) {
    static const struct {
        const char *text;
        int64_t constant;
    } cases[] = {{"4d6kh3", 0}, {"5d10kl2", 0},    {"2d6-1d4", 0},
                 {"3D!+2", 2},  {"2{1d8+3}", 3},   {"10-2{1d4+1}", 9},
                 {"1D!", 0},    {"2{1d4-1d2}", 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fray_dice *d = parse_ok(cases[c].text, NULL);
        fray_rng rng;
        fray_rng_seed(&rng, 5u, c);
        fray_roll r;
        fray_roll_init(&r, NULL);
        for (int i = 0; i < 500; i++) {
            cr_assert_eq(fray_dice_roll(d, &rng, &r), FRAY_OK);
            cr_assert_eq(r.total, sum_counted(&r) + cases[c].constant,
                         "\"%s\" roll %d", cases[c].text, i);
        }
        fray_roll_free(&r);
        fray_dice_free(d);
    }
}

/* kh/kl: exactly N - k dice dropped, and every kept die is at least (kh)
 * or at most (kl) every dropped one. */
Test(dice_roll, keep_flags) {
    static const char *const exprs[] = {"4d6kh3", "4d6kl3", "6d4kh2", "3d6kh0",
                                        "3d6kh3"};
    static const int dropped[] = {1, 1, 4, 3, 0};
    for (size_t e = 0; e < 5; e++) {
        fray_dice *d = parse_ok(exprs[e], NULL);
        bool high = strstr(exprs[e], "kl") == NULL;
        fray_rng rng;
        fray_rng_seed(&rng, 9u, e);
        fray_roll r;
        fray_roll_init(&r, NULL);
        for (int i = 0; i < 300; i++) {
            cr_assert_eq(fray_dice_roll(d, &rng, &r), FRAY_OK);
            int n_dropped = 0;
            for (size_t x = 0; x < r.n_dice; x++) {
                if (!(r.dice[x].flags & FRAY_DIE_DROPPED))
                    continue;
                n_dropped++;
                for (size_t y = 0; y < r.n_dice; y++) {
                    if (r.dice[y].flags & FRAY_DIE_DROPPED)
                        continue;
                    if (high)
                        cr_assert_geq(r.dice[y].value, r.dice[x].value);
                    else
                        cr_assert_leq(r.dice[y].value, r.dice[x].value);
                }
            }
            cr_assert_eq(n_dropped, dropped[e], "\"%s\"", exprs[e]);
        }
        fray_roll_free(&r);
        fray_dice_free(d);
    }
}

/* The natural value is the d20's face (seed 004 "Attacks": natural 1 and
 * natural 20 are read off the die, not the total). */
Test(dice_roll, natural_is_the_d20_face) {
    fray_dice *d = parse_ok("1d20+5", NULL);
    fray_dice *not20 = parse_ok("1d20+1d4", NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 20u, 1u);
    fray_roll r;
    fray_roll_init(&r, NULL);
    for (int i = 0; i < 200; i++) {
        cr_assert_eq(fray_dice_roll(d, &rng, &r), FRAY_OK);
        cr_assert(r.natural >= 1 && r.natural <= 20);
        cr_assert_eq(r.total, r.natural + 5);
        cr_assert_eq(fray_dice_roll(not20, &rng, &r), FRAY_OK);
        cr_assert_eq(r.natural, 0);
    }
    fray_roll_free(&r);
    fray_dice_free(not20);
    fray_dice_free(d);
}

/* Looks through seeds for a roll of `d` that `want` accepts. */
static bool find_roll(const fray_dice *d, bool (*want)(const fray_roll *),
                      fray_roll *r) {
    for (uint64_t seed = 0; seed < 100000; seed++) {
        fray_rng rng;
        fray_rng_seed(&rng, seed, 3u);
        cr_assert_eq(fray_dice_roll(d, &rng, r), FRAY_OK);
        if (want(r))
            return true;
    }
    return false;
}

static const fray_die_roll *wild_first(const fray_roll *r) {
    for (size_t i = 0; i < r->n_dice; i++)
        if (r->dice[i].flags & FRAY_DIE_WILD)
            return &r->dice[i];
    return NULL;
}

static bool wild_one_first(const fray_roll *r) {
    return wild_first(r)->value == 1;
}
static bool wild_exploded_twice(const fray_roll *r) {
    return r->wild_explosions >= 2;
}
static bool wild_six_then_one(const fray_roll *r) {
    const fray_die_roll *w = wild_first(r);
    return w->value == 6 && w[1].value == 1;
}

/* OpenD6 Wild Die, first roll 1: the 1 and the highest other die are
 * removed; the others count as rolled. */
Test(dice_roll, wild_die_one_removes_itself_and_highest) {
    fray_dice *d = parse_ok("3D!", NULL);
    fray_roll r;
    fray_roll_init(&r, NULL);
    cr_assert(find_roll(d, wild_one_first, &r));
    cr_expect(r.wild_one);
    cr_expect_eq(r.wild_explosions, 0);
    cr_assert_eq(r.n_dice, 3u);
    int a = r.dice[0].value, b = r.dice[1].value;
    int removed = 0;
    for (size_t i = 0; i < 3; i++)
        removed += (r.dice[i].flags & FRAY_DIE_REMOVED) != 0;
    cr_expect_eq(removed, 2, "the Wild Die and one other");
    cr_expect(r.dice[2].flags & FRAY_DIE_REMOVED);
    cr_expect(r.dice[2].flags & FRAY_DIE_WILD);
    cr_expect_eq(r.total, (a < b ? a : b), "only the lower die is left");
    fray_dice_free(d);

    /* With one die, only the Wild Die itself goes: total 0. */
    d = parse_ok("1D!", NULL);
    cr_assert(find_roll(d, wild_one_first, &r));
    cr_expect_eq(r.n_dice, 1u);
    cr_expect_eq(r.total, 0);
    cr_expect_eq(r.dice[0].flags, FRAY_DIE_WILD | FRAY_DIE_REMOVED);
    fray_roll_free(&r);
    fray_dice_free(d);
}

/* First roll 6: add it and roll again, again on every 6; each re-roll is
 * marked WILD and counted in wild_explosions. */
Test(dice_roll, wild_die_six_explodes) {
    fray_dice *d = parse_ok("2D!", NULL);
    fray_roll r;
    fray_roll_init(&r, NULL);
    cr_assert(find_roll(d, wild_exploded_twice, &r));
    cr_expect_not(r.wild_one);
    int sixes = 0;
    int64_t sum = 0;
    for (size_t i = 0; i < r.n_dice; i++) {
        sum += r.dice[i].value;
        if (i >= 1) {
            cr_expect(r.dice[i].flags & FRAY_DIE_WILD);
            if (i + 1 < r.n_dice)
                cr_expect_eq(r.dice[i].value, 6, "only a 6 rolls again");
            sixes += r.dice[i].value == 6;
        }
        cr_expect_not(r.dice[i].flags & FRAY_DIE_REMOVED);
    }
    cr_expect_neq(r.dice[r.n_dice - 1].value, 6, "the chain ends on a non-6");
    cr_expect_eq(r.wild_explosions, sixes);
    cr_expect_eq(r.n_dice, 2u + (size_t)sixes);
    cr_expect_eq(r.total, sum);
    fray_roll_free(&r);
    fray_dice_free(d);
}

/* A 1 after a 6 is just 1: only the Wild Die's first roll can remove. */
Test(dice_roll, wild_die_later_one_is_just_one) {
    fray_dice *d = parse_ok("2D!", NULL);
    fray_roll r;
    fray_roll_init(&r, NULL);
    cr_assert(find_roll(d, wild_six_then_one, &r));
    cr_expect_not(r.wild_one);
    cr_expect_eq(r.n_dice, 3u);
    cr_expect_eq(r.total, r.dice[0].value + 6 + 1);
    for (size_t i = 0; i < r.n_dice; i++)
        cr_expect_not(r.dice[i].flags & FRAY_DIE_REMOVED);
    fray_roll_free(&r);
    fray_dice_free(d);
}

/* Seed 004 "Multiplying Damage": "roll weapon damage twice, then add any
 * static modifiers" - once. 2{1d8+3} records 2 dice and adds 3 once; both
 * dice belong to term 0. */
Test(dice_roll, weapon_multiple_adds_constant_once) {
    fray_dice *d = parse_ok("2{W}+1", "1d8+3");
    fray_rng rng;
    fray_rng_seed(&rng, 4u, 4u);
    fray_roll r;
    fray_roll_init(&r, NULL);
    for (int i = 0; i < 200; i++) {
        cr_assert_eq(fray_dice_roll(d, &rng, &r), FRAY_OK);
        cr_assert_eq(r.n_dice, 2u);
        cr_assert_eq(r.dice[0].term, 0);
        cr_assert_eq(r.dice[1].term, 0);
        cr_assert_eq(r.dice[0].sides, 8);
        cr_assert_eq(r.total, r.dice[0].value + r.dice[1].value + 3 + 1);
    }
    fray_roll_free(&r);
    fray_dice_free(d);
}

/* Dice of subtracted terms are marked; a subtracted X{W} subtracts its
 * weapon's constant too, and a subtracted die inside it counts for. */
Test(dice_roll, negative_flags) {
    fray_dice *d = parse_ok("1d6-2{1d4-1d2+1}", NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 6u, 6u);
    fray_roll r;
    fray_roll_init(&r, NULL);
    cr_assert_eq(fray_dice_roll(d, &rng, &r), FRAY_OK);
    cr_assert_eq(r.n_dice, 5u);
    static const unsigned neg[] = {0, FRAY_DIE_NEGATIVE, 0, FRAY_DIE_NEGATIVE,
                                   0};
    for (size_t i = 0; i < 5; i++)
        cr_expect_eq(r.dice[i].flags & FRAY_DIE_NEGATIVE, neg[i], "die %zu", i);
    cr_expect_eq(r.total, r.dice[0].value - r.dice[1].value + r.dice[2].value -
                              r.dice[3].value + r.dice[4].value - 1);
    fray_roll_free(&r);
    fray_dice_free(d);
}

/* ---- Allocation failures
 * ------------------------------------------------------- */


/* Failing the Nth allocation of a parse, for every N until one succeeds:
 * NOMEM, no expression, nothing left allocated; the sizes passed to free
 * match the allocations (live_bytes returns to 0). */
Test(dice_alloc, parse_survives_every_failure) {
    const char *text = "2{W}+1{W}-3{1d6kh1+2}+4D!+1d4+1d4+1d4+1d4+5";
    bool done = false;
    for (long n = 1; n < 1000 && !done; n++) {
        fail_alloc fa = {0, n, 0, 0};
        fray_allocator alloc = {fail_realloc, &fa};
        fray_dice *d = NULL;
        fray_diag diag;
        fray_status st = fray_dice_parse(text, "1d8+3", &alloc, &d, &diag);
        if (st == FRAY_OK) {
            done = true;
            cr_expect_gt(n, 3);
            fray_dice_free(d);
        } else {
            cr_expect_eq(st, FRAY_ERR_NOMEM, "failure %ld: %s", n, diag.message);
            cr_expect_null(d);
        }
        cr_expect_eq(fa.live, 0, "failure %ld leaks", n);
        cr_expect_eq(fa.live_bytes, 0u, "failure %ld", n);
    }
    cr_expect(done);
}

/* A roll whose dice array cannot grow reports NOMEM and stays freeable. */
Test(dice_alloc, roll_survives_every_failure) {
    fray_dice *d = parse_ok("20d6+2{10d4}+3D!", NULL);
    bool done = false;
    for (long n = 1; n < 100 && !done; n++) {
        fail_alloc fa = {0, n, 0, 0};
        fray_allocator alloc = {fail_realloc, &fa};
        fray_roll r;
        fray_roll_init(&r, &alloc);
        fray_rng rng;
        fray_rng_seed(&rng, 1u, 1u);
        fray_status st = fray_dice_roll(d, &rng, &r);
        if (st == FRAY_OK)
            done = true;
        else
            cr_expect_eq(st, FRAY_ERR_NOMEM);
        fray_roll_free(&r);
        cr_expect_eq(fa.live, 0);
        cr_expect_eq(fa.live_bytes, 0u);
    }
    cr_expect(done);
    fray_dice_free(d);
}

/*
 * test_dice_notation.c - issue 15 section 1: the notation of AnyDice and
 * icepool users (docs/rules/dice.md "Notation") and exact odds without
 * the 2^127 limit ("Exact odds"). Every distribution is checked against an
 * independent count: an odometer over every die's rolls, written here
 * without the library, or a closed form.
 */
#include <criterion/criterion.h>

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fray/dice.h"
#include "xml_check.h"

static fray_dice *parse_ok(const char *text) {
    fray_dice *d = NULL;
    fray_diag diag;
    cr_assert_eq(fray_dice_parse(text, NULL, NULL, &d, &diag), FRAY_OK,
                 "\"%s\": %s", text, diag.message);
    return d;
}

static fray_bigdist *big_ok(const char *text, int64_t exact_through) {
    fray_dice *d = parse_ok(text);
    fray_bigdist *b = NULL;
    cr_assert_eq(fray_dice_bigdist(d, exact_through, NULL, &b), FRAY_OK,
                 "\"%s\"", text);
    fray_dice_free(d);
    return b;
}

/* The library's exact P(event, t) as an mpq. */
static void big_prob(const fray_bigdist *b, fray_dist_event ev, int64_t t,
                     mpq_t out) {
    fray_bigratio r;
    cr_assert_eq(fray_bigdist_prob(b, ev, t, &r), FRAY_OK);
    char text[8192];
    snprintf(text, sizeof text, "%s%s/%s", r.negative ? "-" : "", r.num, r.den);
    cr_assert_eq(mpq_set_str(out, text, 10), 0, "%s", text);
    fray_bigratio_free(&r);
}

/* ---- The brute force ----------------------------------------------------- */

/*
 * Every sequence of `slots` rolls of a die of `sides` faces (1..sides), all
 * equally likely; value() reads as many as it needs (a reroll or an
 * explosion reads more slots, unused slots only multiply every count
 * alike). counts[v - lo] for values lo .. lo + n - 1.
 */
enum { BMAX = 512 };
typedef struct brute {
    int64_t lo;
    uint64_t count[BMAX];
    uint64_t den;
} brute;

typedef int64_t (*value_fn)(const int *rolls);

static void enumerate(int slots, int sides, value_fn value, int64_t lo,
                      brute *out) {
    memset(out, 0, sizeof *out);
    out->lo = lo;
    int rolls[32];
    for (int i = 0; i < slots; i++)
        rolls[i] = 1;
    for (;;) {
        int64_t v = value(rolls);
        cr_assert(v >= lo && v - lo < BMAX, "value %lld out of range", (long long)v);
        out->count[v - lo]++;
        out->den++;
        int i = 0;
        while (i < slots && rolls[i] == sides)
            rolls[i++] = 1;
        if (i == slots)
            break;
        rolls[i]++;
    }
}

/* The library agrees with the brute force on every total, by GMP and,
 * when it fits, by the 128-bit fray_dice_dist. */
static void expect_dist(const char *text, const brute *br) {
    fray_bigdist *b = big_ok(text, INT64_MIN);
    cr_expect(!fray_bigdist_tail(b));
    mpq_t want, got;
    mpq_inits(want, got, NULL);
    uint64_t seen = 0;
    for (int64_t t = br->lo - 2; t < br->lo + BMAX; t++) {
        uint64_t c = t >= br->lo ? br->count[t - br->lo] : 0;
        seen += c;
        mpq_set_ui(want, c, br->den);
        mpq_canonicalize(want);
        big_prob(b, FRAY_DIST_EQ, t, got);
        cr_expect(mpq_equal(want, got), "\"%s\": P(total = %lld)", text,
                  (long long)t);
        if (seen == br->den && c == 0)
            break;
    }
    fray_dice *d = parse_ok(text);
    fray_dist small;
    cr_assert_eq(fray_dice_dist(d, 0, NULL, &small), FRAY_OK, "\"%s\"", text);
    for (size_t i = 0; i < small.n; i++) {
        int64_t t = small.lo + (int64_t)i;
        uint64_t c = t >= br->lo && t - br->lo < BMAX ? br->count[t - br->lo] : 0;
        fray_ratio r = fray_dist_eq(&small, t);
        cr_expect(fabs(fray_ratio_to_double(r) - (double)c / (double)br->den) < 1e-12,
                  "\"%s\" (128 bits): P(total = %lld)", text, (long long)t);
    }
    fray_dist_free(&small);
    fray_dice_free(d);
    mpq_clears(want, got, NULL);
    fray_bigdist_free(b);
}

/* ---- Drop and keep --------------------------------------------------------- */

static int64_t four_d6_drop_lowest(const int *r) {
    int lo = r[0], sum = 0;
    for (int i = 0; i < 4; i++) {
        sum += r[i];
        lo = r[i] < lo ? r[i] : lo;
    }
    return sum - lo;
}

/* docs/rules/dice.md "Notation": 4d6dl1 drops the lowest die. P(>= 15)
 * from the 1296 rolls, through both counting paths. */
Test(dice_notation, drop_lowest_4d6_against_1296_rolls) {
    brute br;
    enumerate(4, 6, four_d6_drop_lowest, 3, &br);
    cr_assert_eq(br.den, 1296u);
    uint64_t at_least_15 = 0;
    for (int v = 15; v <= 18; v++)
        at_least_15 += br.count[v - 3];
    cr_expect_eq(at_least_15, 300u); /* 21 + 54 + 94 + 131 of 1296 */
    expect_dist("4d6dl1", &br);
    /* the same through GMP (parentheses make it a new-notation term) */
    expect_dist("(4d6dl1)", &br);
    fray_bigdist *b = big_ok("4d6dl1", 0);
    mpq_t got, want;
    mpq_inits(got, want, NULL);
    big_prob(b, FRAY_DIST_AT_LEAST, 15, got);
    mpq_set_ui(want, 300, 1296);
    mpq_canonicalize(want);
    cr_expect(mpq_equal(got, want));
    mpq_clears(got, want, NULL);
    fray_bigdist_free(b);
}

static int64_t three_d6_drop_highest(const int *r) {
    int hi = 0, sum = 0;
    for (int i = 0; i < 3; i++) {
        sum += r[i];
        hi = r[i] > hi ? r[i] : hi;
    }
    return sum - hi;
}

Test(dice_notation, drop_highest_is_keep_lowest) {
    brute br;
    enumerate(3, 6, three_d6_drop_highest, 2, &br);
    expect_dist("3d6dh1", &br);
    expect_dist("(3d6dh1)", &br);
    fray_dice *d = parse_ok("3d6dh1");
    char buf[32];
    fray_dice_format(d, buf, sizeof buf);
    cr_expect_str_eq(buf, "3d6dh1");
    fray_dice_free(d);
}

/* ---- Exploding dice ---------------------------------------------------------- */

/* One exploding d6 with depth `depth`, reading rolls from r. */
static int64_t explode_d6(const int *r, int depth, int *used) {
    int64_t total = r[0];
    int k = 1;
    while (r[k - 1] == 6 && k <= depth) {
        total += r[k];
        k++;
    }
    *used = depth + 1;
    return total;
}

static int64_t one_d6_explode(const int *r) {
    int used;
    return explode_d6(r, 2, &used);
}

static int64_t two_d6_explode_keep_high(const int *r) {
    int used;
    int64_t a = explode_d6(r, 2, &used);
    int64_t b = explode_d6(r + used, 2, &used);
    return a > b ? a : b;
}

static int64_t one_d6_explode_3(const int *r) {
    int used;
    return explode_d6(r, 3, &used);
}

/* docs/rules/dice.md "Exploding dice": explodes on the highest face, at
 * most 2 extra rolls by default (AnyDice's explode depth), "!N" for N. */
Test(dice_notation, exploding_d6_depth_2_and_3) {
    brute br;
    enumerate(3, 6, one_d6_explode, 1, &br);
    cr_expect_eq(br.count[18 - 1], 1u); /* 6, 6, 6 and no more */
    cr_expect_eq(br.count[6 - 1], 0u);  /* a 6 never stands alone */
    expect_dist("1d6!", &br);
    enumerate(4, 6, one_d6_explode_3, 1, &br);
    expect_dist("1d6!3", &br);
    enumerate(6, 6, two_d6_explode_keep_high, 1, &br);
    expect_dist("2d6!kh1", &br);
}

/* ---- Rerolls ------------------------------------------------------------------ */

static int64_t two_d6_reroll_ones(const int *r) {
    int a = r[0] == 1 ? r[1] : r[0];
    int b = r[2] == 1 ? r[3] : r[2];
    return a + b;
}

static int64_t one_d6_reroll_below_3(const int *r) {
    return r[0] < 3 ? r[1] : r[0];
}

/* docs/rules/dice.md "Rerolls": once; the new roll stands even if it
 * matches again. */
Test(dice_notation, reroll_once) {
    brute br;
    enumerate(4, 6, two_d6_reroll_ones, 2, &br);
    expect_dist("2d6r1", &br);
    enumerate(2, 6, one_d6_reroll_below_3, 1, &br);
    expect_dist("1d6r<3", &br);
}

/* ---- Counting successes ---------------------------------------------------------- */

static int64_t five_d10_at_least_8(const int *r) {
    int n = 0;
    for (int i = 0; i < 5; i++)
        n += r[i] >= 8;
    return n;
}

static int64_t four_d6_equal_6(const int *r) {
    int n = 0;
    for (int i = 0; i < 4; i++)
        n += r[i] == 6;
    return n;
}

/* docs/rules/dice.md "Counting successes": 5d10>=8 counts the dice. */
Test(dice_notation, counting_successes) {
    brute br;
    enumerate(5, 10, five_d10_at_least_8, 0, &br);
    expect_dist("5d10>=8", &br);
    enumerate(4, 6, four_d6_equal_6, 0, &br);
    expect_dist("4d6=6", &br);
}

/* ---- Fudge dice, d% ---------------------------------------------------------------- */

static int64_t four_fudge(const int *r) {
    int64_t s = 0;
    for (int i = 0; i < 4; i++)
        s += r[i] - 2;
    return s;
}

Test(dice_notation, fudge_and_percent) {
    brute br;
    enumerate(4, 3, four_fudge, -4, &br);
    cr_expect_eq(br.den, 81u);
    expect_dist("4dF", &br);
    fray_dice *d = parse_ok("d%+4dF");
    int64_t hi = 0;
    cr_expect_eq(fray_dice_min(d), 1 - 4);
    cr_expect(fray_dice_max(d, &hi) && hi == 104);
    char buf[32];
    fray_dice_format(d, buf, sizeof buf);
    cr_expect_str_eq(buf, "1d%+4dF");
    fray_dice_free(d);
}

/* ---- Arithmetic and comparisons ---------------------------------------------------- */

static int64_t d6_times_d6(const int *r) { return (int64_t)r[0] * r[1]; }
static int64_t d6_minus_4_halved(const int *r) { return (r[0] - 4) / 2; }
static int64_t d20_plus_5_vs_15(const int *r) { return r[0] + 5 >= 15; }
static int64_t two_d6_above_7(const int *r) { return r[0] + r[1] > 7; }
static int64_t paren_times(const int *r) { return (r[0] + 1) * 2 - 7 / 2; }

/* docs/rules/dice.md "Arithmetic": each die rolled once, integer division
 * rounds toward zero as AnyDice's does ((1 - 4) / 2 is -1, not -2). */
Test(dice_notation, products_divisions_parentheses) {
    brute br;
    enumerate(2, 6, d6_times_d6, 1, &br);
    expect_dist("1d6*1d6", &br);
    enumerate(1, 6, d6_minus_4_halved, -2, &br);
    cr_expect_eq(br.count[-1 + 2], 2u); /* -3/2 and -2/2 are -1 */
    expect_dist("(1d6-4)/2", &br);
    enumerate(1, 6, paren_times, -10, &br);
    expect_dist("(1d6+1)*2-7/2", &br);
    fray_dice *d = parse_ok("-7/2");
    cr_expect_eq(fray_dice_min(d), -3);
    fray_dice_free(d);
}

/* docs/rules/dice.md "Comparisons": 1 when it holds, else 0. */
Test(dice_notation, comparisons_of_totals) {
    brute br;
    enumerate(1, 20, d20_plus_5_vs_15, 0, &br);
    expect_dist("1d20+5>=15", &br);
    enumerate(2, 6, two_d6_above_7, 0, &br);
    expect_dist("(2d6)>7", &br);
    cr_expect_eq(br.count[1], 15u);
}

/* ---- Errors name the token and its column --------------------------------------------- */

typedef struct bad {
    const char *text;
    int column;
    const char *must_contain;
} bad;

static const bad BAD[] = {
    {"2d6>7", 4, "To compare the total, write (2d6)>7"},
    {"5d10>=1", 5, "every d10"},
    {"1d6/(1d3-2)", 5, "cannot be divided by 0"},
    {"(2d6+1", 7, "expected ')' to close the '(' of column 1"},
    {"(2d6)>7>1", 8, "a second comparison needs parentheses"},
    {"1d6r<7", 4, "rerolls every face"},
    {"1d6r9", 4, "rerolls no face"},
    {"1d6!0", 5, "'0' is not an explode depth"},
    {"1d6!!", 5, "a second '!'"},
    {"4dF!", 4, "a Fudge die does not explode"},
    {"4d6kh2dl1", 7, "already kept or dropped"},
    {"4d6dl5", 6, "'5' is more dice than the 4 rolled"},
    {"4d6kh3>=4", 7, "cannot be combined"},
    {"(4D!)", 1, "Wild Die"},
    {"4D!*2", 1, "Wild Die"},
    {"4D!>=10", 1, "Wild Die"},
    {"2*", 3, "after '*'"},
    {"1d6)", 4, "nothing to close"},
    {"()", 2, "')'"},
    {"1000d6*1000d6*1000", 1, "past 32 bits"},
};

Test(dice_notation, errors_name_token_and_column) {
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        fray_dice *d = NULL;
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_expect_eq(fray_dice_parse(BAD[i].text, NULL, NULL, &d, &diag),
                     FRAY_ERR_PARSE, "\"%s\"", BAD[i].text);
        cr_expect_null(d);
        cr_expect_eq(diag.column, BAD[i].column, "\"%s\": column %d (%s)",
                     BAD[i].text, diag.column, diag.message);
        cr_expect(strstr(diag.message, BAD[i].must_contain) != NULL,
                  "\"%s\": \"%s\" lacks \"%s\"", BAD[i].text, diag.message,
                  BAD[i].must_contain);
    }
}

/* Canonical text reads back as itself; rolls stay in bounds and the two
 * rollers draw the same numbers. */
Test(dice_notation, format_round_trip_and_rolls) {
    static const char *const ok[] = {
        "4d6dl1", "3d6dh1", "1d6!", "1d6!5", "2d6r1", "2d6r<3", "5d10>=8",
        "5d10<2", "4dF", "1d%", "(1d6+1)*2", "1d6*1d6/2", "1d20+5>=15",
        "(2d6)>7", "(1d20>=11)+(1d20>=11)", "-(2d6)*3+1", "3d6!kh2",
        "2{1d6!}+1", "4dF=-1", "4dFr-1+2", "10d10!r1>=8",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        fray_dice *d = parse_ok(ok[i]), *again;
        char a[128], b[128];
        fray_dice_format(d, a, sizeof a);
        again = parse_ok(a);
        fray_dice_format(again, b, sizeof b);
        cr_expect_str_eq(a, b, "\"%s\"", ok[i]);
        int64_t lo = fray_dice_min(d), hi = 0;
        cr_expect(fray_dice_max(d, &hi));
        fray_rng x, y;
        fray_rng_seed(&x, 99, 0);
        fray_rng_seed(&y, 99, 0);
        fray_roll r;
        fray_roll_init(&r, NULL);
        for (int k = 0; k < 200; k++) {
            cr_assert_eq(fray_dice_roll(d, &x, &r), FRAY_OK);
            cr_expect_eq(r.total, fray_dice_roll_total(d, &y), "\"%s\"", ok[i]);
            cr_expect(r.total >= lo && r.total <= hi, "\"%s\": %lld", ok[i],
                      (long long)r.total);
        }
        fray_roll_free(&r);
        fray_dice_free(again);
        fray_dice_free(d);
    }
    fray_dice *d = parse_ok("1d6!2");
    char buf[16];
    fray_dice_format(d, buf, sizeof buf);
    cr_expect_str_eq(buf, "1d6!"); /* 2 is the default depth */
    fray_dice_free(d);
}

/* The roll marks what the notation did to each die. */
Test(dice_notation, roll_marks_rerolls_explosions_successes) {
    fray_dice *d = parse_ok("20d6!r1>=6");
    fray_rng rng;
    fray_rng_seed(&rng, 5, 0);
    fray_roll r;
    fray_roll_init(&r, NULL);
    cr_assert_eq(fray_dice_roll(d, &rng, &r), FRAY_OK);
    int rerolled = 0, exploded = 0, successes = 0;
    int64_t counted = 0;
    for (size_t i = 0; i < r.n_dice; i++) {
        unsigned f = r.dice[i].flags;
        rerolled += (f & FRAY_DIE_REROLLED) != 0;
        exploded += (f & FRAY_DIE_EXPLODED) != 0;
        if ((f & FRAY_DIE_SUCCESS) && !(f & FRAY_DIE_EXPLODED))
            successes++;
        if (f & FRAY_DIE_REROLLED)
            cr_expect_eq(r.dice[i].value, 1);
    }
    counted = successes;
    cr_expect_eq(r.total, counted);
    cr_expect(rerolled > 0 && exploded > 0, "%d rerolled, %d exploded", rerolled,
              exploded);
    fray_roll_free(&r);
    fray_dice_free(d);
}

/* ---- Exact odds without the 2^127 limit ------------------------------------------------ */

/* The ways for 100d6 to total 350, by inclusion-exclusion:
 * sum_k (-1)^k C(100, k) C(350 - 6k - 1, 99). */
Test(dice_big, hundred_d6_total_350_closed_form) {
    fray_bigdist *b = big_ok("100d6", 0);
    mpz_t ways, term, den;
    mpz_inits(ways, term, den, NULL);
    for (unsigned long k = 0; 6 * k + 100 <= 350; k++) {
        mpz_bin_uiui(term, 100, k);
        mpz_t c;
        mpz_init(c);
        mpz_bin_uiui(c, 350 - 6 * k - 1, 99);
        mpz_mul(term, term, c);
        mpz_clear(c);
        if (k % 2)
            mpz_sub(ways, ways, term);
        else
            mpz_add(ways, ways, term);
    }
    mpz_ui_pow_ui(den, 6, 100);
    mpq_t want, got;
    mpq_inits(want, got, NULL);
    mpq_set_num(want, ways);
    mpq_set_den(want, den);
    mpq_canonicalize(want);
    big_prob(b, FRAY_DIST_EQ, 350, got);
    cr_expect(mpq_equal(want, got));
    /* mean 350, variance 100 * 35/12 */
    fray_bigratio m, v;
    cr_assert_eq(fray_bigdist_mean(b, &m), FRAY_OK);
    cr_assert_eq(fray_bigdist_variance(b, &v), FRAY_OK);
    cr_expect_str_eq(m.num, "350");
    cr_expect_str_eq(m.den, "1");
    cr_expect_str_eq(v.num, "875");
    cr_expect_str_eq(v.den, "3");
    fray_bigratio_free(&m);
    fray_bigratio_free(&v);
    /* the 128-bit path refuses it, as documented */
    fray_dice *d = parse_ok("100d6");
    fray_dist small;
    cr_expect_eq(fray_dice_dist(d, 0, NULL, &small), FRAY_ERR_TOO_LARGE);
    fray_dice_free(d);
    mpq_clears(want, got, NULL);
    mpz_clears(ways, term, den, NULL);
    fray_bigdist_free(b);
}

/* Past 2^127 the keep DP runs on GMP: P(60d6kh1 = 6) = 1 - (5/6)^60. */
Test(dice_big, keep_highest_past_2_127) {
    fray_bigdist *b = big_ok("60d6kh1", 0);
    mpz_t five, six;
    mpz_inits(five, six, NULL);
    mpz_ui_pow_ui(five, 5, 60);
    mpz_ui_pow_ui(six, 6, 60);
    mpz_sub(five, six, five);
    mpq_t want, got;
    mpq_inits(want, got, NULL);
    mpq_set_num(want, five);
    mpq_set_den(want, six);
    mpq_canonicalize(want);
    big_prob(b, FRAY_DIST_EQ, 6, got);
    cr_expect(mpq_equal(want, got));
    mpq_clears(want, got, NULL);
    mpz_clears(five, six, NULL);
    fray_bigdist_free(b);
}

/* 30D!: the Wild Die's rows are exact through the tail (the 128-bit path
 * refused it), and the closed-form mean and variance agree with the rows
 * of a distribution followed far enough that the tail is negligible. */
Test(dice_big, wild_die_30_and_closed_form_moments) {
    fray_bigdist *b = big_ok("30D!", 200);
    cr_expect(fray_bigdist_tail(b));
    int64_t lo = fray_bigdist_lo(b);
    size_t n = fray_bigdist_n(b);
    double s1 = 0, s2 = 0, total = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        double p = fray_bigdist_p(b, FRAY_DIST_EQ, lo + (int64_t)i);
        double v = (double)(lo + (int64_t)i);
        s1 += p * v;
        s2 += p * v * v;
        total += p;
    }
    cr_expect(1 - total < 1e-12, "tail %g", 1 - total);
    fray_bigratio m, v;
    cr_assert_eq(fray_bigdist_mean(b, &m), FRAY_OK);
    cr_assert_eq(fray_bigdist_variance(b, &v), FRAY_OK);
    cr_expect(fabs(m.value - s1) < 1e-6, "mean %f vs %f", m.value, s1);
    cr_expect(fabs(v.value - (s2 - s1 * s1)) < 1e-5, "variance %f vs %f", v.value,
              s2 - s1 * s1);
    fray_bigratio_free(&m);
    fray_bigratio_free(&v);
    fray_bigdist_free(b);
    /* 1D!: mean 121/30 (dice.md), variance from the same closed form */
    b = big_ok("1D!", 0);
    cr_assert_eq(fray_bigdist_mean(b, &m), FRAY_OK);
    cr_expect_str_eq(m.num, "121");
    cr_expect_str_eq(m.den, "30");
    fray_bigratio_free(&m);
    fray_bigdist_free(b);
}

/* P(A > B), P(A = B), P(A < B) against the brute force over 3d6 and 2d10. */
static int64_t three_d6_vs_two_d10(const int *r) {
    int a = r[0] + r[1] + r[2], b = r[3] + r[4];
    if (r[0] > 6 || r[1] > 6 || r[2] > 6)
        return 3; /* not a d6 roll: counted apart */
    return a > b ? 2 : a == b ? 1 : 0;
}

Test(dice_big, compare_two_expressions) {
    brute br;
    enumerate(5, 10, three_d6_vs_two_d10, 0, &br);
    uint64_t den = br.count[0] + br.count[1] + br.count[2];
    cr_assert_eq(den, 216u * 100u);
    fray_bigdist *a = big_ok("3d6", 0), *b = big_ok("2d10", 0);
    fray_bigratio gt, eq, lt;
    cr_assert_eq(fray_bigdist_compare(a, b, &gt, &eq, &lt), FRAY_OK);
    mpq_t want, got;
    mpq_inits(want, got, NULL);
    const fray_bigratio *r[3] = {&lt, &eq, &gt};
    for (int k = 0; k < 3; k++) {
        char text[256];
        snprintf(text, sizeof text, "%s/%s", r[k]->num, r[k]->den);
        mpq_set_str(got, text, 10);
        mpq_set_ui(want, br.count[k], den);
        mpq_canonicalize(want);
        cr_expect(mpq_equal(want, got), "outcome %d", k);
    }
    mpq_clears(want, got, NULL);
    fray_bigratio_free(&gt);
    fray_bigratio_free(&eq);
    fray_bigratio_free(&lt);
    /* two Wild Dice cannot be compared exactly */
    fray_bigdist *w1 = big_ok("2D!", 0), *w2 = big_ok("3D!", 0);
    cr_expect_eq(fray_bigdist_compare(w1, w2, NULL, NULL, NULL), FRAY_ERR_RANGE);
    fray_bigdist_free(w1);
    fray_bigdist_free(w2);
    fray_bigdist_free(a);
    fray_bigdist_free(b);
}

/* Refused with FRAY_ERR_TOO_LARGE, not a hang: 1000d1000. */
Test(dice_big, too_much_work_is_refused) {
    fray_dice *d = parse_ok("1000d1000");
    fray_bigdist *b = NULL;
    cr_expect_eq(fray_dice_bigdist(d, 0, NULL, &b), FRAY_ERR_TOO_LARGE);
    cr_expect_null(b);
    fray_dice_free(d);
}

/* --report: the SVG and the HTML page are well formed and name the
 * expressions in their titles. */
Test(dice_big, report_svg_and_html_are_well_formed) {
    fray_bigdist *a = big_ok("3d6", 0), *b = big_ok("2D!", 20);
    const fray_bigdist *dists[2] = {a, b};
    const char *names[2] = {"3d6<&>", "2D!"};
    for (int html = 0; html <= 1; html++) {
        for (int n = 1; n <= 2; n++) {
            size_t len = html ? fray_dice_report_html(dists, names, n, NULL, 0)
                              : fray_dice_report_svg(dists, names, n, NULL, 0);
            char *buf = malloc(len + 1);
            cr_assert_not_null(buf);
            size_t again = html ? fray_dice_report_html(dists, names, n, buf, len + 1)
                                : fray_dice_report_svg(dists, names, n, buf, len + 1);
            cr_expect_eq(again, len);
            char err[200];
            cr_expect(xml_check(buf, len, html != 0, err, sizeof err), "%s: %s",
                      html ? "html" : "svg", err);
            cr_expect(strstr(buf, "3d6&lt;&amp;&gt;") != NULL);
            cr_expect(strstr(buf, "the chance of each total") != NULL);
            if (n == 2)
                cr_expect(strstr(buf, "3d6&lt;&amp;&gt; vs 2D!") != NULL);
            free(buf);
        }
    }
    fray_bigdist_free(a);
    fray_bigdist_free(b);
}

/* Failing the Nth allocation of parsing, counting (both paths) and
 * writing the exact fractions, for every N until it succeeds: NOMEM and
 * nothing left allocated (GMP's digits are malloc's, not counted here). */
#include "fail_alloc.h"

Test(dice_alloc, notation_and_bigdist_survive_every_failure) {
    static const char *const texts[] = {"(4d6dl1)*2+1d6!r1>=4", "50d6+1D!"};
    for (size_t k = 0; k < 2; k++) {
        bool done = false;
        long n;
        for (n = 1; n < 100000 && !done; n++) {
            fail_alloc fa = {0, n, 0, 0};
            fray_allocator alloc = {fail_realloc, &fa};
            fray_dice *d = NULL;
            fray_diag diag;
            fray_status st = fray_dice_parse(texts[k], NULL, &alloc, &d, &diag);
            fray_bigdist *b = NULL;
            fray_bigratio r;
            memset(&r, 0, sizeof r);
            if (st == FRAY_OK)
                st = fray_dice_bigdist(d, 30, &alloc, &b);
            if (st == FRAY_OK)
                st = fray_bigdist_prob(b, FRAY_DIST_AT_LEAST, 20, &r);
            if (st == FRAY_OK) {
                done = true;
                cr_expect(r.value > 0 && r.value <= 1);
            } else {
                cr_expect_eq(st, FRAY_ERR_NOMEM, "\"%s\" failure %ld", texts[k], n);
            }
            fray_bigratio_free(&r);
            fray_bigdist_free(b);
            fray_dice_free(d);
            cr_expect_eq(fa.live, 0, "\"%s\" failure %ld leaks", texts[k], n);
            cr_expect_eq(fa.live_bytes, 0u, "\"%s\" failure %ld", texts[k], n);
        }
        cr_expect(done, "\"%s\"", texts[k]);
        cr_expect_gt(n, 5);
    }
}

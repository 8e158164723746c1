/*
 * test_dice_odds.c - exact distributions of dice expressions and the odds
 * of a d20 attack (fray/dice.h), checked against brute-force enumeration,
 * hand computation and Monte Carlo. Seed 004 "Attacks", "Damage" and
 * "Critical Hits" for the d20 attack; OpenD6's Wild Die for "ND!".
 */
#include <criterion/criterion.h>

#include "fail_alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fray/dice.h"
#include "internal.h"

static fray_dice *parse_ok(const char *text) {
    fray_dice *d = NULL;
    fray_diag diag;
    cr_assert_eq(fray_dice_parse(text, NULL, NULL, &d, &diag), FRAY_OK,
                 "\"%s\": %s", text, diag.message);
    return d;
}

static fray_dist dist_ok(const char *text, int64_t exact_through) {
    fray_dice *d = parse_ok(text);
    fray_dist dist;
    cr_assert_eq(fray_dice_dist(d, exact_through, NULL, &dist), FRAY_OK,
                 "\"%s\"", text);
    fray_dice_free(d);
    return dist;
}

static fray_ratio ratio(uint64_t num, uint64_t den) {
    return fray__ratio(num, den, false);
}

static bool ratio_is(fray_ratio r, uint64_t num, uint64_t den) {
    return fray_ratio_equal(r, ratio(num, den));
}

static fray_ratio signed_ratio(int64_t num, uint64_t den) {
    return fray__ratio(num < 0 ? (fray__u128)(-num) : (fray__u128)num, den,
                       num < 0);
}

static fray__u128 count_sum(const fray_dist *d) {
    fray__u128 s = 0;
    for (size_t i = 0; i < d->n; i++)
        s += fray__u128_from(d->count[i]);
    return s;
}

/* ---- Brute force
 * ---------------------------------------------------------------- */

enum { KEEP_ALL, KEEP_HIGH, KEEP_LOW };

typedef struct bterm {
    int n, sides, keep_mode, keep, sign;
} bterm;

typedef struct brute {
    int64_t lo;
    size_t n;
    uint64_t count[512];
    uint64_t total;
    int64_t sum; /* of every outcome's total, for the mean */
} brute;

static int cmp_int(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* Lists every roll of the terms (an odometer over all their dice) and
 * counts the totals. */
static void enumerate(const bterm *t, int nt, int constant, brute *out) {
    int faces[32], n_dice = 0;
    for (int i = 0; i < nt; i++)
        n_dice += t[i].n;
    cr_assert_leq(n_dice, 32);
    for (int i = 0; i < n_dice; i++)
        faces[i] = 1;
    memset(out, 0, sizeof *out);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    static int64_t totals[1 << 20];
    size_t n_out = 0;
    for (;;) {
        int64_t total = constant;
        int at = 0;
        for (int i = 0; i < nt; i++) {
            int v[32];
            memcpy(v, faces + at, (size_t)t[i].n * sizeof *v);
            at += t[i].n;
            qsort(v, (size_t)t[i].n, sizeof *v, cmp_int);
            int from = 0, to = t[i].n;
            if (t[i].keep_mode == KEEP_HIGH)
                from = t[i].n - t[i].keep;
            else if (t[i].keep_mode == KEEP_LOW)
                to = t[i].keep;
            for (int k = from; k < to; k++)
                total += t[i].sign * v[k];
        }
        cr_assert_lt(n_out, sizeof totals / sizeof totals[0]);
        totals[n_out++] = total;
        lo = total < lo ? total : lo;
        hi = total > hi ? total : hi;
        int d = 0, at2 = 0, ti = 0;
        /* advance the odometer; each die's sides come from its term */
        for (d = 0; d < n_dice; d++) {
            while (d >= at2 + t[ti].n) {
                at2 += t[ti].n;
                ti++;
            }
            if (faces[d] < t[ti].sides) {
                faces[d]++;
                break;
            }
            faces[d] = 1;
        }
        if (d == n_dice)
            break;
    }
    out->lo = lo;
    out->n = (size_t)(hi - lo + 1);
    cr_assert_leq(out->n, 512u);
    for (size_t i = 0; i < n_out; i++) {
        out->count[totals[i] - lo]++;
        out->sum += totals[i];
    }
    out->total = n_out;
}

/* Every bucket and the mean of `text` equal the enumeration's. */
static void check_against(const char *text, const bterm *t, int nt,
                          int constant) {
    static brute b;
    enumerate(t, nt, constant, &b);
    fray_dist d = dist_ok(text, 0);
    cr_expect_not(d.tail, "\"%s\"", text);
    cr_expect_eq(d.lo, b.lo, "\"%s\" lo", text);
    cr_expect_eq(d.n, b.n, "\"%s\" n", text);
    cr_expect(count_sum(&d) == fray__u128_from(d.den), "\"%s\" sums to den",
              text);
    for (int64_t v = b.lo - 1; v <= b.lo + (int64_t)b.n; v++) {
        uint64_t c = v >= b.lo && v < b.lo + (int64_t)b.n ? b.count[v - b.lo] : 0;
        cr_expect(fray_ratio_equal(fray_dist_eq(&d, v), ratio(c, b.total)),
                  "\"%s\": P(%lld)", text, (long long)v);
    }
    char got[84], want[84];
    cr_expect(fray_ratio_equal(d.mean, signed_ratio(b.sum, b.total)),
              "\"%s\": mean %s, enumeration %s", text,
              fray_ratio_format(d.mean, got),
              fray_ratio_format(signed_ratio(b.sum, b.total), want));
    fray_dist_free(&d);
}

/* 3d6: 216 rolls, P(10) = 27/216 = 1/8. */
Test(dice_odds, three_d6) {
    fray_dist d = dist_ok("3d6", 0);
    cr_expect_eq(fray__u128_from(d.den), 216u);
    cr_expect(ratio_is(fray_dist_eq(&d, 10), 1, 8));
    cr_expect(ratio_is(fray_dist_eq(&d, 3), 1, 216));
    cr_expect(ratio_is(fray_dist_at_least(&d, 11), 1, 2));
    cr_expect(ratio_is(fray_dist_at_least(&d, 3), 1, 1));
    cr_expect(ratio_is(fray_dist_at_least(&d, -50), 1, 1));
    cr_expect(ratio_is(fray_dist_at_least(&d, 19), 0, 1));
    cr_expect(ratio_is(fray_dist_eq(&d, 19), 0, 1));
    cr_expect(ratio_is(d.mean, 21, 2));
    fray_dist_free(&d);
    check_against("3d6", (const bterm[]){{3, 6, KEEP_ALL, 0, 1}}, 1, 0);
}

/* kh/kl by the face-value DP against all 1296 (or more) rolls. */
Test(dice_odds, keep_matches_enumeration) {
    check_against("4d6kh3", (const bterm[]){{4, 6, KEEP_HIGH, 3, 1}}, 1, 0);
    check_against("4d6kl3", (const bterm[]){{4, 6, KEEP_LOW, 3, 1}}, 1, 0);
    check_against("5d4kh2", (const bterm[]){{5, 4, KEEP_HIGH, 2, 1}}, 1, 0);
    check_against("5d4kl1", (const bterm[]){{5, 4, KEEP_LOW, 1, 1}}, 1, 0);
    check_against("2d20kh1", (const bterm[]){{2, 20, KEEP_HIGH, 1, 1}}, 1, 0);
    check_against("2d20kl1", (const bterm[]){{2, 20, KEEP_LOW, 1, 1}}, 1, 0);
    check_against("6d3kh4", (const bterm[]){{6, 3, KEEP_HIGH, 4, 1}}, 1, 0);
    check_against("3d6kh3", (const bterm[]){{3, 6, KEEP_ALL, 0, 1}}, 1, 0);
    check_against("3d6kh0", (const bterm[]){{3, 6, KEEP_HIGH, 0, 1}}, 1, 0);
    /* 4d6 drop lowest: mean 15869/1296, a well-known 12.2446... */
    fray_dist d = dist_ok("4d6kh3", 0);
    cr_expect(ratio_is(d.mean, 15869, 1296));
    fray_dist_free(&d);
}

/* Sums, differences, constants, die codes and X{W}. */
Test(dice_odds, expressions_match_enumeration) {
    check_against("2d6-1d4",
                  (const bterm[]){{2, 6, KEEP_ALL, 0, 1}, {1, 4, KEEP_ALL, 0, -1}},
                  2, 0);
    check_against("-1d4+2", (const bterm[]){{1, 4, KEEP_ALL, 0, -1}}, 1, 2);
    check_against("1d20+5", (const bterm[]){{1, 20, KEEP_ALL, 0, 1}}, 1, 5);
    check_against("4D+2", (const bterm[]){{4, 6, KEEP_ALL, 0, 1}}, 1, 2);
    check_against("3d3kh2-1d2+4",
                  (const bterm[]){{3, 3, KEEP_HIGH, 2, 1}, {1, 2, KEEP_ALL, 0, -1}},
                  2, 4);
    /* seed 004: X{W} rolls the dice X times and adds the constant once, so
     * 2{1d6+1} is 2d6+1, not 2d6+2 */
    check_against("2{1d6}+1", (const bterm[]){{2, 6, KEEP_ALL, 0, 1}}, 1, 1);
    check_against("2{1d6+1}", (const bterm[]){{2, 6, KEEP_ALL, 0, 1}}, 1, 1);
    check_against("2{1d4-1d2}+1",
                  (const bterm[]){{1, 4, KEEP_ALL, 0, 1},
                                  {1, 2, KEEP_ALL, 0, -1},
                                  {1, 4, KEEP_ALL, 0, 1},
                                  {1, 2, KEEP_ALL, 0, -1}},
                  4, 1);
    check_against("5-2{1d3kh1+1}",
                  (const bterm[]){{1, 3, KEEP_ALL, 0, -1}, {1, 3, KEEP_ALL, 0, -1}},
                  2, 4);
    check_against("7", NULL, 0, 7);
}

/* ---- The Wild Die
 * ------------------------------------------------------------------ */

/*
 * An independent count of ND! by listing the Wild Die's chains up to
 * `depth` 6s: a chain of r rolls has weight 6^(depth + 1 - r) over
 * 6^(depth + 1), times the 6^(N-1) plain rolls. Totals that a chain deeper
 * than `depth` could reach are not complete here; the caller only compares
 * totals below what depth + 1 sixes reach.
 */
static void enumerate_wild(int n, int depth, uint64_t *count, size_t cap,
                           uint64_t *den) {
    memset(count, 0, cap * sizeof *count);
    int others = n - 1;
    int faces[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    uint64_t plain = 1;
    for (int i = 0; i < others; i++)
        plain *= 6;
    uint64_t full = 1;
    for (int i = 0; i <= depth; i++)
        full *= 6;
    *den = plain * full;
    for (uint64_t p = 0; p < plain; p++) {
        int sum = 0, high = 0;
        for (int i = 0; i < others; i++) {
            sum += faces[i];
            high = faces[i] > high ? faces[i] : high;
        }
        /* first roll 1: remove it and the highest plain die */
        count[sum - high] += full / 6;
        for (int w = 2; w <= 5; w++)
            count[sum + w] += full / 6;
        /* 6, then j more 6s, then s in 1..5 */
        uint64_t weight = full / 6;
        for (int j = 0; j < depth; j++) {
            weight /= 6;
            for (int s = 1; s <= 5; s++) {
                size_t t = (size_t)(sum + 6 * (j + 1) + s);
                if (t < cap)
                    count[t] += weight;
            }
        }
        for (int i = 0; i < others; i++) {
            if (faces[i] < 6) {
                faces[i]++;
                break;
            }
            faces[i] = 1;
        }
    }
}

/* 3D!: every exact bucket below the tail against the listing to depth 6,
 * the tail's promises (past exact_through, under a millionth), and the
 * counts adding up to den. */
Test(dice_odds, wild_die_buckets_match_listing) {
    static uint64_t want[128];
    uint64_t den;
    enumerate_wild(3, 6, want, 128, &den);
    fray_dist d = dist_ok("3D!", 30);
    cr_assert(d.tail);
    int64_t tail_at = d.lo + (int64_t)d.n - 1;
    cr_expect_gt(tail_at, 30, "exact through 30 as asked");
    cr_expect(count_sum(&d) == fray__u128_from(d.den));
    fray__u128 tail = fray__u128_from(d.count[d.n - 1]);
    cr_expect(tail * 1000000 < fray__u128_from(d.den), "tail under 1e-6");
    cr_expect_eq(d.lo, 1);
    /* chains of 7 or more 6s give the Wild Die at least 6 * 7 + 1 = 43,
     * so with the plain dice (at least 2) the listing is complete up to 44 */
    int64_t top = tail_at - 1 < 44 ? tail_at - 1 : 44;
    for (int64_t t = 0; t <= top; t++)
        cr_expect(fray_ratio_equal(fray_dist_eq(&d, t), ratio(want[t], den)),
                  "P(3D! = %lld)", (long long)t);
    fray_dist_free(&d);
}

/*
 * Exact means, by hand.
 * 1D!: the first roll 1 gives 0; 2..5 give themselves; 6 gives 6 plus an
 * exploding die X with E[X] = 7/2 + E[X]/6, so E[X] = 21/5:
 *   (0 + 2 + 3 + 4 + 5 + 6 + 21/5) / 6 = (20 + 21/5) / 6 = (121/5) / 6
 *   = 121/30.
 * 3D!: over the 36 rolls (a, b) of the plain dice and the Wild Die's first
 * roll w, 1 gives a + b - max(a, b), w in 2..5 gives a + b + w, 6 gives
 * a + b + 6 + 21/5: summed below in fifths.
 */
Test(dice_odds, wild_die_means) {
    fray_dist d = dist_ok("1D!", 0);
    cr_expect(ratio_is(d.mean, 121, 30));
    fray_dist_free(&d);

    int64_t fifths = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int w = 1; w <= 6; w++) {
                int hi = a > b ? a : b;
                if (w == 1)
                    fifths += 5 * (a + b - hi);
                else if (w < 6)
                    fifths += 5 * (a + b + w);
                else
                    fifths += 5 * (a + b + 6) + 21;
            }
    d = dist_ok("3D!", 0);
    char got[84];
    cr_expect(fray_ratio_equal(d.mean, ratio((uint64_t)fifths, 216 * 5)),
              "3D! mean %s", fray_ratio_format(d.mean, got));
    fray_dist_free(&d);

    /* the constant and a second code add by linearity */
    d = dist_ok("3D!+2-1d4", 0);
    fray_ratio want = fray__ratio((fray__u128)(fifths + 216 * 5 * 2 -
                                               216 * 5 * 5 / 2),
                                  216 * 5, false);
    cr_expect(fray_ratio_equal(d.mean, want), "%s",
              fray_ratio_format(d.mean, got));
    fray_dist_free(&d);
}

/* The tail is "total >= its value": P(total >= t) is exact up to it; past
 * it at_least falls back to the tail (an upper bound). */
Test(dice_odds, wild_die_tail_semantics) {
    fray_dist d = dist_ok("2D!", 100);
    int64_t tail_at = d.lo + (int64_t)d.n - 1;
    cr_expect_gt(tail_at, 100);
    fray_ratio at_tail = fray_dist_at_least(&d, tail_at);
    cr_expect(fray_ratio_equal(at_tail, fray_dist_eq(&d, tail_at)));
    cr_expect(fray_ratio_equal(fray_dist_at_least(&d, tail_at + 50), at_tail));
    cr_expect(ratio_is(fray_dist_at_least(&d, d.lo), 1, 1));
    fray_dist_free(&d);
}

/* Monte Carlo against the exact odds: 200000 rolls of 4D!+2. Each bucket
 * with at least 5 expected hits is within 5 standard errors
 * sqrt(p(1-p)/n) of the exact p; so are the rarer totals taken together
 * and the sample mean. */
Test(dice_odds, wild_die_monte_carlo) {
    fray_dice *dice = parse_ok("4D!+2");
    fray_dist d;
    cr_assert_eq(fray_dice_dist(dice, 40, NULL, &d), FRAY_OK);
    enum { N = 200000 };
    static uint32_t seen[512];
    memset(seen, 0, sizeof seen);
    fray_rng rng;
    fray_rng_seed(&rng, 2024u, 6u);
    double sum = 0, sum_sq = 0;
    int64_t tail_at = d.lo + (int64_t)d.n - 1;
    for (int i = 0; i < N; i++) {
        int64_t t = fray_dice_roll_total(dice, &rng);
        sum += (double)t;
        sum_sq += (double)t * (double)t;
        cr_assert_geq(t, d.lo);
        seen[(t > tail_at ? tail_at : t) - d.lo]++;
    }
    uint32_t rare_seen = 0;
    double rare_p = 0;
    for (size_t i = 0; i < d.n; i++) {
        double p = fray_ratio_to_double(fray_dist_eq(&d, d.lo + (int64_t)i));
        if (p * N < 5) {
            rare_p += p;
            rare_seen += seen[i];
            continue;
        }
        double se = sqrt(p * (1 - p) / N);
        double f = (double)seen[i] / N;
        cr_expect(fabs(f - p) <= 5 * se, "total %lld: %f vs exact %f",
                  (long long)(d.lo + (int64_t)i), f, p);
    }
    double rare_f = (double)rare_seen / N;
    cr_expect(fabs(rare_f - rare_p) <= 5 * sqrt(rare_p * (1 - rare_p) / N) +
                                           1e-12,
              "rare totals: %f vs %f", rare_f, rare_p);
    double mean = sum / N, sd = sqrt(sum_sq / N - mean * mean);
    double exact = fray_ratio_to_double(d.mean);
    cr_expect(fabs(mean - exact) <= 5 * sd / sqrt(N), "mean %f vs %f", mean,
              exact);
    fray_dist_free(&d);
    fray_dice_free(dice);
}

/* ---- Limits
 * ------------------------------------------------------------------------ */

/* Past 2^127 outcomes: FRAY_ERR_TOO_LARGE, never a wrapped count. 6^49 is
 * about 2^126.7 and 6^50 about 2^129.2; 1000^13 about 2^129.6. A Wild Die
 * adds a factor 6 per 6 followed, and its tail must hold under a
 * millionth: 28D! still fits, 30D! does not. */
Test(dice_odds, too_large) {
    static const char *const big[] = {"200d100", "100d6", "50d6",
                                      "13d1000", "30D!",  "30{1d20}"};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        fray_dice *d = parse_ok(big[i]);
        fray_dist dist;
        cr_expect_eq(fray_dice_dist(d, 0, NULL, &dist), FRAY_ERR_TOO_LARGE,
                     "\"%s\"", big[i]);
        cr_expect_null(dist.count);
        fray_dist_free(&dist);
        fray_dice_free(d);
    }
    fray_dist d = dist_ok("49d6", 0);
    cr_expect(count_sum(&d) == fray__u128_from(d.den));
    cr_expect(ratio_is(d.mean, 343, 2));
    fray_dist_free(&d);
    /* a tail asked to start too far away cannot be counted either */
    fray_dice *w = parse_ok("2D!");
    fray_dist dist;
    cr_expect_eq(fray_dice_dist(w, INT64_MAX, NULL, &dist), FRAY_ERR_TOO_LARGE);
    fray_dice_free(w);
}

/* ---- A d20 attack (seed 004 "Attacks" and "Critical Hits")
 * ------------------------- */

static fray_d20_attack_odds attack(int bonus, int defense, int crit_min,
                                   const fray_dice *damage,
                                   const fray_dice *crit_dice) {
    fray_d20_attack_query q = {bonus, defense, crit_min, damage, crit_dice};
    fray_d20_attack_odds o;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &o), FRAY_OK);
    return o;
}

/* Bonus 5 against Defense 15 hits on 10..20 (11/20); only the natural 20
 * crits. Against 25 only the natural 20 hits, and 20 + 0 < 25 is no crit.
 * Bonus 30 against 10: all but the natural 1. */
Test(d20_attack, hit_and_crit_chances) {
    fray_d20_attack_odds o = attack(5, 15, 0, NULL, NULL);
    cr_expect(ratio_is(o.p_hit, 11, 20));
    cr_expect(ratio_is(o.p_crit, 1, 20));
    cr_expect_not(o.has_damage);
    fray_d20_attack_odds_free(&o);

    o = attack(0, 25, 0, NULL, NULL);
    cr_expect(ratio_is(o.p_hit, 1, 20), "natural 20 always hits");
    cr_expect(ratio_is(o.p_crit, 0, 1), "but is no crit when 20 + 0 < 25");

    o = attack(30, 10, 0, NULL, NULL);
    cr_expect(ratio_is(o.p_hit, 19, 20), "natural 1 always misses");
    cr_expect(ratio_is(o.p_crit, 1, 20));

    /* a wider crit range (crit_min 19) still needs the total to hit */
    o = attack(5, 15, 19, NULL, NULL);
    cr_expect(ratio_is(o.p_crit, 2, 20));
    o = attack(1, 20, 19, NULL, NULL);
    cr_expect(ratio_is(o.p_hit, 2, 20));
    cr_expect(ratio_is(o.p_crit, 2, 20), "19 + 1 and 20 + 1 reach 20");
    o = attack(0, 20, 19, NULL, NULL);
    cr_expect(ratio_is(o.p_hit, 1, 20));
    cr_expect(ratio_is(o.p_crit, 1, 20), "a natural 19 that misses is no crit");
    o = attack(-5, 15, 15, NULL, NULL);
    cr_expect(ratio_is(o.p_crit, 1, 20), "only 20 reaches 15 with -5");
}

/* "A critical hit maximizes the character's damage": 1d8+2 crits for 10.
 * Bonus 5 vs 15: naturals 1..9 miss (0 damage), 10..19 hit for 1d8+2,
 * 20 crits for 10. */
Test(d20_attack, damage_with_maximized_crits) {
    fray_dice *dmg = parse_ok("1d8+2");
    fray_d20_attack_odds o = attack(5, 15, 0, dmg, NULL);
    cr_assert(o.has_damage);
    const fray_dist *d = &o.damage;
    cr_expect_eq(d->lo, 0);
    cr_expect_not(d->tail);
    cr_expect(ratio_is(fray_dist_eq(d, 0), 9, 20));
    cr_expect(ratio_is(fray_dist_eq(d, 1), 0, 1));
    cr_expect(ratio_is(fray_dist_eq(d, 3), 10, 160));
    cr_expect(ratio_is(fray_dist_eq(d, 9), 10, 160));
    cr_expect(ratio_is(fray_dist_eq(d, 10), 10 + 8, 160));
    cr_expect(ratio_is(fray_dist_eq(d, 11), 0, 1));
    cr_expect(count_sum(d) == fray__u128_from(d->den));
    /* mean: 10/20 * 13/2 + 1/20 * 10 = 15/4 */
    cr_expect(ratio_is(d->mean, 15, 4));
    fray_d20_attack_odds_free(&o);
    fray_dice_free(dmg);
}

/* "The minimum damage an attack can deal is 0": 1d4-3 deals 0 on 1..3, 1
 * on a 4; its crit deals the maximum, 1. */
Test(d20_attack, damage_never_below_zero) {
    fray_dice *dmg = parse_ok("1d4-3");
    fray_d20_attack_odds o = attack(5, 15, 0, dmg, NULL);
    const fray_dist *d = &o.damage;
    cr_expect_eq(d->lo, 0);
    cr_expect(ratio_is(fray_dist_eq(d, -1), 0, 1));
    /* 0: misses 9/20 + hits 10/20 * 3/4 */
    cr_expect(ratio_is(fray_dist_eq(d, 0), 9 * 4 + 30, 80));
    cr_expect(ratio_is(fray_dist_eq(d, 1), 10 + 4, 80));
    cr_expect(ratio_is(d->mean, 14, 80));
    fray_d20_attack_odds_free(&o);
    fray_dice_free(dmg);

    /* a damage whose maximum is below 0 still crits for 0 */
    dmg = parse_ok("1d4-10");
    o = attack(5, 15, 0, dmg, NULL);
    cr_expect_eq(o.damage.n, 1u);
    cr_expect(ratio_is(fray_dist_eq(&o.damage, 0), 1, 1));
    cr_expect(ratio_is(o.damage.mean, 0, 1));
    fray_d20_attack_odds_free(&o);
    fray_dice_free(dmg);
}

/* Crit dice "are not maximized, but are rolled normally and added". */
Test(d20_attack, crit_dice_are_rolled) {
    fray_dice *dmg = parse_ok("1d8+2");
    fray_dice *extra = parse_ok("1d6");
    fray_d20_attack_odds o = attack(5, 15, 0, dmg, extra);
    const fray_dist *d = &o.damage;
    /* over 20 * 8 * 6 = 960: a hit for 3..9 has 10 * 6 outcomes; 10 also
     * has nothing from crits (they start at 11); 11..16 are crits only */
    cr_expect(ratio_is(fray_dist_eq(d, 5), 60, 960));
    cr_expect(ratio_is(fray_dist_eq(d, 10), 60, 960));
    cr_expect(ratio_is(fray_dist_eq(d, 11), 8, 960));
    cr_expect(ratio_is(fray_dist_eq(d, 16), 8, 960));
    cr_expect(ratio_is(fray_dist_eq(d, 17), 0, 1));
    /* mean: 10/20 * 13/2 + 1/20 * (10 + 7/2) = 13/4 + 27/40 = 157/40 */
    cr_expect(ratio_is(d->mean, 157, 40));
    fray_d20_attack_odds_free(&o);
    fray_dice_free(extra);
    fray_dice_free(dmg);
}

/* A Wild Die has no maximum to deal on a crit. */
Test(d20_attack, invalid_queries) {
    fray_dice *wild = parse_ok("2D!");
    fray_d20_attack_query q = {5, 15, 0, wild, NULL};
    fray_d20_attack_odds o;
    cr_expect_eq(fray_odds_d20_attack(&q, NULL, &o), FRAY_ERR_INVALID);
    cr_expect_not(o.has_damage);
    fray_d20_attack_odds_free(&o);
    q.damage = NULL;
    q.crit_min = 21;
    cr_expect_eq(fray_odds_d20_attack(&q, NULL, &o), FRAY_ERR_INVALID);
    cr_expect_eq(fray_odds_d20_attack(NULL, NULL, &o), FRAY_ERR_INVALID);
    fray_dice_free(wild);
}

/* ---- Allocation failures
 * ------------------------------------------------------------ */


/* Failing the Nth allocation of a distribution (Wild Die, keep, X{W}) and
 * of an attack's odds, for every N until it succeeds: NOMEM, nothing left
 * allocated, and free sizes that match. */
Test(dice_alloc, dist_survives_every_failure) {
    fray_dice *d = parse_ok("3D!+4d6kh3+2{1d6-1d2}+1");
    bool done = false;
    long n;
    for (n = 1; n < 10000 && !done; n++) {
        fail_alloc fa = {0, n, 0, 0};
        fray_allocator alloc = {fail_realloc, &fa};
        fray_dist dist;
        fray_status st = fray_dice_dist(d, 20, &alloc, &dist);
        if (st == FRAY_OK) {
            done = true;
            cr_expect(count_sum(&dist) == fray__u128_from(dist.den));
            fray_dist_free(&dist);
        } else {
            cr_expect_eq(st, FRAY_ERR_NOMEM, "failure %ld", n);
            cr_expect_null(dist.count);
        }
        cr_expect_eq(fa.live, 0, "failure %ld leaks", n);
        cr_expect_eq(fa.live_bytes, 0u, "failure %ld", n);
    }
    cr_expect(done);
    cr_expect_gt(n, 10);
    fray_dice_free(d);
}

/* Failing the Nth allocation of a d20 attack's odds, for every N until it
 * succeeds: NOMEM and nothing left allocated. */
Test(dice_alloc, attack_survives_every_failure) {
    fray_dice *dmg = parse_ok("2{1d8}+4d6kh3-2");
    fray_dice *extra = parse_ok("1D!");
    fray_d20_attack_query q = {5, 15, 19, dmg, extra};
    bool done = false;
    for (long n = 1; n < 10000 && !done; n++) {
        fail_alloc fa = {0, n, 0, 0};
        fray_allocator alloc = {fail_realloc, &fa};
        fray_d20_attack_odds o;
        fray_status st = fray_odds_d20_attack(&q, &alloc, &o);
        if (st == FRAY_OK) {
            done = true;
            cr_expect(o.has_damage);
            cr_expect(o.damage.tail, "the crit dice's Wild Die");
        } else {
            cr_expect_eq(st, FRAY_ERR_NOMEM, "failure %ld", n);
        }
        fray_d20_attack_odds_free(&o);
        cr_expect_eq(fa.live, 0, "failure %ld leaks", n);
        cr_expect_eq(fa.live_bytes, 0u, "failure %ld", n);
    }
    cr_expect(done);
    fray_dice_free(extra);
    fray_dice_free(dmg);
}

/*
 * test_d6_odds.c - exact odds of D6 rolls (src/rules/d6/d6_odds.h; issue
 * 18: "the Wild Die's exact odds checked against an independent count").
 *
 * The independent count: a brute-force enumeration of every plain die and
 * every chain of Wild Die tosses up to a depth (weight 6^-tosses); the
 * chains of `depth` 6s in a row are left out and their mass (6^-depth) is
 * kept apart. Below the lowest total such a chain can reach, the
 * enumeration is exact and must agree with d6_odds exactly; past it the
 * left-out mass bounds the difference. A second method is the core dice
 * (fray_dice_bigdist of "ND!+P", which follows the 6s to a depth and
 * lumps the rest in a tail bucket) for the cancel-highest rule, and a
 * Monte Carlo of 10^6 rolls for two Wild Dice against each other.
 *
 * Rules: core "Die codes" and the Wild Die (checklist D-0; both wild-one
 * options, D7.23), "Success" (meet or beat), "Combat difficulty" (the
 * floor of 3: 003:2; GM-rolled modifiers: 003:3, no Wild Die on them by
 * default: D7.11), Disarm's strictly greater (003:61, D7.13), damage
 * against resistance with the Wound-level ladder and Body Points (D-0).
 */
#include <criterion/criterion.h>

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "d6_odds.h"
#include "fray/dice.h"
#include "fray/rng.h"

/* ---- The enumeration ------------------------------------------------------- */

enum { EN_SPAN = 400, EN_OFF = 100 };

typedef struct en {
    mpq_t p[EN_SPAN];   /* p[t + EN_OFF]: P(total == t) from the chains kept */
    mpq_t rest;         /* mass of the chains left out */
    int64_t exact_below; /* totals below it are exact */
} en;

static void en_init(en *e) {
    for (int i = 0; i < EN_SPAN; i++)
        mpq_init(e->p[i]);
    mpq_init(e->rest);
}

static void en_clear(en *e) {
    for (int i = 0; i < EN_SPAN; i++)
        mpq_clear(e->p[i]);
    mpq_clear(e->rest);
}

static void en_add(en *e, int64_t t, const mpq_t w) {
    cr_assert(t + EN_OFF >= 0 && t + EN_OFF < EN_SPAN, "total %lld out of the test's span",
              (long long)t);
    mpq_add(e->p[t + EN_OFF], e->p[t + EN_OFF], w);
}

/* The Wild Die's tosses after `tosses` of them, `acc` so far, each chain
 * weighing 6^-tosses times `base`. */
static void en_chain(en *e, int64_t acc, int tosses, int depth, const mpq_t w, int64_t base,
                     int64_t cancelled, d6_wild_one rule) {
    mpq_t w6;
    mpq_init(w6);
    mpq_set_ui(w6, 1, 6);
    mpq_mul(w6, w6, w);
    for (int f = 1; f <= 6; f++) {
        if (tosses == 0 && f == 1 && rule == D6_WILD_ONE_CANCEL_HIGHEST) {
            en_add(e, cancelled, w6); /* the 1 and the highest die count 0 */
        } else if (f == 6) {
            if (tosses + 1 == depth)
                mpq_add(e->rest, e->rest, w6);
            else
                en_chain(e, acc + 6, tosses + 1, depth, w6, base, cancelled, rule);
        } else {
            en_add(e, base + acc + f, w6);
        }
    }
    mpq_clear(w6);
}

/* Every roll of `dice` D + `pips`, the Wild Die followed `depth` tosses. */
static void en_code(en *e, int dice, int pips, bool wild, d6_wild_one rule, int depth) {
    en_init(e);
    int m = wild ? dice - 1 : dice;
    long outcomes = 1;
    for (int i = 0; i < m; i++)
        outcomes *= 6;
    mpq_t w;
    mpq_init(w);
    mpq_set_ui(w, 1, (unsigned long)outcomes);
    for (long idx = 0; idx < outcomes; idx++) {
        long x = idx;
        int sum = 0, high = 0;
        for (int i = 0; i < m; i++) {
            int face = (int)(x % 6) + 1;
            x /= 6;
            sum += face;
            high = face > high ? face : high;
        }
        if (!wild)
            en_add(e, sum + pips, w);
        else
            en_chain(e, 0, 0, depth, w, sum + pips, sum - high + pips, rule);
    }
    mpq_clear(w);
    /* A chain left out shows `depth` 6s: at least 6 depth + 1 + the plain
     * dice's lowest. */
    e->exact_below = wild ? 6 * depth + 1 + m + pips : INT64_MAX;
}

/* ---- Helpers ------------------------------------------------------------------ */

static void q_of(mpq_t q, const fray_bigratio *r) {
    mpz_set_str(mpq_numref(q), r->num, 10);
    mpz_set_str(mpq_denref(q), r->den, 10);
    if (r->negative)
        mpq_neg(q, q);
}

static bool ratio_is_q(const fray_bigratio *r, const mpq_t q) {
    mpq_t x;
    mpq_init(x);
    q_of(x, r);
    bool same = mpq_equal(x, q) != 0;
    mpq_clear(x);
    return same;
}

static d6_dist *code_dist(int dice, int pips, bool wild, d6_wild_one rule) {
    d6_dist *d = NULL;
    d6_code c = {dice, pips};
    cr_assert_eq(d6_dist_code(c, wild, rule, NULL, &d), FRAY_OK);
    return d;
}

/* Every total below the enumeration's depth agrees exactly; the mass at
 * or past it is 1 - the rest, and the left-out chains weigh 6^-depth. */
static void check_code(int dice, int pips, bool wild, d6_wild_one rule) {
    const int depth = 5;
    en e;
    en_code(&e, dice, pips, wild, rule, depth);
    d6_dist *d = code_dist(dice, pips, wild, rule);
    int64_t top = e.exact_below == INT64_MAX ? EN_SPAN - EN_OFF - 1 : e.exact_below - 1;
    for (int64_t t = -EN_OFF; t <= top; t++) {
        fray_bigratio r;
        cr_assert_eq(d6_dist_eq(d, t, &r), FRAY_OK);
        cr_assert(ratio_is_q(&r, e.p[t + EN_OFF]),
                  "%dD+%d wild %d rule %d: P(total = %lld) = %s/%s differs from the count",
                  dice, pips, wild, rule, (long long)t, r.num, r.den);
        fray_bigratio_free(&r);
    }
    if (wild) { /* the left-out chains: exactly 6^-depth */
        mpq_t bound;
        mpq_init(bound);
        mpq_set_ui(bound, 1, 6 * 6 * 6 * 6 * 6);
        cr_assert(mpq_equal(e.rest, bound));
        mpq_clear(bound);
    }
    d6_dist_free(d);
    en_clear(&e);
}

/* Core "Die codes", the Wild Die, wild-one cancel-highest (checklist D-0). */
Test(d6_odds, wild_die_matches_enumeration_cancel_highest) {
    for (int n = 1; n <= 5; n++)
        for (int p = 0; p <= 2; p++)
            check_code(n, p, true, D6_WILD_ONE_CANCEL_HIGHEST);
}

/* D-0 wild-one complication: the 1 adds normally, a 6 still explodes. */
Test(d6_odds, wild_die_matches_enumeration_complication) {
    for (int n = 1; n <= 5; n++)
        check_code(n, n % 3, true, D6_WILD_ONE_COMPLICATION);
}

/* A code rolled without a Wild Die (D7.11's modifier dice, --no-wild). */
Test(d6_odds, plain_dice_match_enumeration) {
    for (int n = 0; n <= 5; n++)
        check_code(n, 1, false, D6_WILD_ONE_CANCEL_HIGHEST);
}

/* The two wild-one settings differ exactly where the first toss is 1:
 * 1D! is 0 (cancel) or 1 (complication) with chance 1/6 (D-0, D7.23). */
Test(d6_odds, wild_one_settings_by_hand) {
    d6_dist *c = code_dist(1, 0, true, D6_WILD_ONE_CANCEL_HIGHEST);
    d6_dist *k = code_dist(1, 0, true, D6_WILD_ONE_COMPLICATION);
    fray_bigratio r;
    cr_assert_eq(d6_dist_eq(c, 0, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "1");
    cr_assert_str_eq(r.den, "6");
    fray_bigratio_free(&r);
    cr_assert_eq(d6_dist_eq(c, 1, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "0");
    fray_bigratio_free(&r);
    cr_assert_eq(d6_dist_eq(k, 0, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "0");
    fray_bigratio_free(&r);
    cr_assert_eq(d6_dist_eq(k, 1, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "1");
    cr_assert_str_eq(r.den, "6");
    fray_bigratio_free(&r);
    /* 6 then 6 then 1: 13, 1/216, under both. */
    cr_assert_eq(d6_dist_eq(k, 13, &r), FRAY_OK);
    cr_assert_str_eq(r.den, "216");
    fray_bigratio_free(&r);
    /* Mean of the exploding die with a first 1 adding 1: E = 21/5 (6 K + R:
     * 6/5 + 3); cancelled it is 21/5 - 1/6. */
    cr_assert_eq(d6_dist_mean(k, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "21");
    cr_assert_str_eq(r.den, "5");
    fray_bigratio_free(&r);
    cr_assert_eq(d6_dist_mean(c, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "121");
    cr_assert_str_eq(r.den, "30");
    fray_bigratio_free(&r);
    d6_dist_free(c);
    d6_dist_free(k);
}

/* The second method: the core dice's "ND!+P" (cancel-highest), whose rows
 * below its tail bucket are exact, and its closed-form mean. */
Test(d6_odds, wild_die_matches_core_dice) {
    const char *texts[] = {"1D!", "2D!+1", "4D!+2", "7D!", "12D!+1"};
    int dice[] = {1, 2, 4, 7, 12}, pips[] = {0, 1, 2, 0, 1};
    for (int k = 0; k < 5; k++) {
        fray_dice *x = NULL;
        fray_diag diag;
        cr_assert_eq(fray_dice_parse(texts[k], NULL, NULL, &x, &diag), FRAY_OK);
        fray_bigdist *b = NULL;
        cr_assert_eq(fray_dice_bigdist(x, 120, NULL, &b), FRAY_OK);
        d6_dist *d = code_dist(dice[k], pips[k], true, D6_WILD_ONE_CANCEL_HIGHEST);
        int64_t lo = fray_bigdist_lo(b), last = lo + (int64_t)fray_bigdist_n(b) - 1;
        for (int64_t t = lo - 2; t < last; t++) {
            fray_bigratio core, mine;
            cr_assert_eq(fray_bigdist_prob(b, FRAY_DIST_EQ, t, &core), FRAY_OK);
            cr_assert_eq(d6_dist_eq(d, t, &mine), FRAY_OK);
            cr_assert_str_eq(core.num, mine.num, "%s total %lld", texts[k], (long long)t);
            cr_assert_str_eq(core.den, mine.den, "%s total %lld", texts[k], (long long)t);
            fray_bigratio_free(&core);
            fray_bigratio_free(&mine);
        }
        /* The core's tail bucket is P(total >= last): the same. */
        fray_bigratio core, mine;
        cr_assert_eq(fray_bigdist_prob(b, FRAY_DIST_AT_LEAST, last, &core), FRAY_OK);
        cr_assert_eq(d6_dist_at_least(d, last, &mine), FRAY_OK);
        cr_assert_str_eq(core.num, mine.num);
        cr_assert_str_eq(core.den, mine.den);
        fray_bigratio_free(&core);
        fray_bigratio_free(&mine);
        cr_assert_eq(fray_bigdist_mean(b, &core), FRAY_OK);
        cr_assert_eq(d6_dist_mean(d, &mine), FRAY_OK);
        cr_assert_str_eq(core.num, mine.num, "%s mean", texts[k]);
        cr_assert_str_eq(core.den, mine.den, "%s mean", texts[k]);
        fray_bigratio_free(&core);
        fray_bigratio_free(&mine);
        d6_dist_free(d);
        fray_bigdist_free(b);
        fray_dice_free(x);
    }
}

/* ---- Two Wild Dice ----------------------------------------------------------- */

/* P(A - B >= c) from two enumerations; the left-out chains bound the gap:
 * 0 <= exact - counted <= restA + restB. */
static void check_vs(int da, int pa, int db, int pb, d6_wild_one rule, int64_t c) {
    const int depth = 9;
    en a, b;
    en_code(&a, da, pa, true, rule, depth);
    en_code(&b, db, pb, true, rule, depth);
    mpq_t counted, t;
    mpq_inits(counted, t, NULL);
    for (int i = 0; i < EN_SPAN; i++) {
        if (mpq_sgn(a.p[i]) == 0)
            continue;
        for (int j = 0; j < EN_SPAN; j++) {
            if (mpq_sgn(b.p[j]) == 0 || (i - EN_OFF) - (j - EN_OFF) < c)
                continue;
            mpq_mul(t, a.p[i], b.p[j]);
            mpq_add(counted, counted, t);
        }
    }
    d6_dist *x = code_dist(da, pa, true, rule), *y = code_dist(db, pb, true, rule), *z = NULL;
    cr_assert_eq(d6_dist_add(x, y, -1, &z), FRAY_OK);
    fray_bigratio r;
    cr_assert_eq(d6_dist_at_least(z, c, &r), FRAY_OK);
    mpq_t exact, gap, bound;
    mpq_inits(exact, gap, bound, NULL);
    q_of(exact, &r);
    mpq_sub(gap, exact, counted);
    mpq_add(bound, a.rest, b.rest);
    cr_assert(mpq_sgn(gap) >= 0, "%dD!+%d - %dD!+%d >= %lld: below the count", da, pa, db, pb,
              (long long)c);
    cr_assert(mpq_cmp(gap, bound) <= 0, "%dD!+%d - %dD!+%d >= %lld: gap %g over %g", da, pa, db,
              pb, (long long)c, mpq_get_d(gap), mpq_get_d(bound));
    cr_assert(mpq_get_d(bound) < 1e-6); /* 2 / 6^9: negligible */
    fray_bigratio_free(&r);
    mpq_clears(counted, t, exact, gap, bound, NULL);
    d6_dist_free(x);
    d6_dist_free(y);
    d6_dist_free(z);
    en_clear(&a);
    en_clear(&b);
}

/* A skill against an active defense, both with a Wild Die (D-0 "Combat
 * difficulty": the dodge or parry roll replaces 10). */
Test(d6_odds, two_wild_dice_match_enumeration) {
    for (int64_t c = -12; c <= 14; c += 2) {
        check_vs(4, 2, 3, 0, D6_WILD_ONE_CANCEL_HIGHEST, c);
        check_vs(2, 0, 3, 1, D6_WILD_ONE_COMPLICATION, c);
    }
    check_vs(1, 0, 1, 0, D6_WILD_ONE_CANCEL_HIGHEST, 0);
    check_vs(1, 0, 1, 0, D6_WILD_ONE_CANCEL_HIGHEST, 30);
}

/* By hand: 1D! against 1D! (complication: both exploding d6). Each is
 * 6K + R; a tie needs equal K and equal R: P = sum_k P(K = k)^2 * 1/5 =
 * (25/36) / (1 - 1/36) / 5 = 1/7; the rest splits evenly: 3/7 above. */
Test(d6_odds, two_exploding_dice_tie_by_hand) {
    d6_dist *x = code_dist(1, 0, true, D6_WILD_ONE_COMPLICATION);
    d6_dist *z = NULL;
    cr_assert_eq(d6_dist_add(x, x, -1, &z), FRAY_OK);
    fray_bigratio r;
    cr_assert_eq(d6_dist_eq(z, 0, &r), FRAY_OK);
    cr_assert_str_eq(r.num, "1");
    cr_assert_str_eq(r.den, "7");
    fray_bigratio_free(&r);
    cr_assert_eq(d6_dist_at_least(z, 1, &r), FRAY_OK); /* the rest, halved */
    cr_assert_str_eq(r.num, "3");
    cr_assert_str_eq(r.den, "7");
    fray_bigratio_free(&r);
    d6_dist_free(x);
    d6_dist_free(z);
}

/* A roll of the code with a local roller (the core's Wild Die as
 * docs/rules/dice.md describes it). */
static int roll_code(int dice, int pips, bool wild, d6_wild_one rule, fray_rng *rng) {
    int m = wild ? dice - 1 : dice, sum = 0, high = 0;
    for (int i = 0; i < m; i++) {
        int f = (int)fray_rng_below(rng, 6) + 1;
        sum += f;
        high = f > high ? f : high;
    }
    if (!wild || dice <= 0)
        return sum + pips;
    int f = (int)fray_rng_below(rng, 6) + 1;
    if (f == 1)
        return (rule == D6_WILD_ONE_CANCEL_HIGHEST ? sum - high : sum + 1) + pips;
    int w = f;
    while (f == 6) {
        f = (int)fray_rng_below(rng, 6) + 1;
        w += f;
    }
    return sum + w + pips;
}

/* 10^6 rolls of 4D!+2 against 3D! (skill against a dodge): the exact
 * P(A >= B) within 5 standard errors, sqrt(p(1-p)/10^6) (fixed seed). */
Test(d6_odds, two_wild_dice_match_monte_carlo) {
    for (int rule = 0; rule <= 1; rule++) {
        d6_success_query q;
        memset(&q, 0, sizeof q);
        q.skill = (d6_code){4, 2};
        q.wild_one = (d6_wild_one)rule;
        q.defense_roll = true;
        q.defense = (d6_code){3, 0};
        fray_bigratio r;
        cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
        fray_rng rng;
        fray_rng_seed(&rng, 18, (uint64_t)rule + 1);
        const long n = 1000000;
        long wins = 0;
        for (long i = 0; i < n; i++) {
            int a = roll_code(4, 2, true, q.wild_one, &rng);
            int b = roll_code(3, 0, true, q.wild_one, &rng);
            wins += a >= b;
        }
        double p = r.value, got = (double)wins / (double)n;
        double se = sqrt(p * (1 - p) / (double)n);
        cr_assert(fabs(got - p) < 5 * se, "rule %d: exact %.6f, sampled %.6f (se %.6f)", rule, p,
                  got, se);
        fray_bigratio_free(&r);
    }
}

/* ---- Difficulties ------------------------------------------------------------- */

static fray_bigratio check_ok(const d6_success_query *q) {
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(q, NULL, &r), FRAY_OK);
    return r;
}

/* Core "Success": meet or beat; Disarm (003:61, D7.13): strictly greater. */
Test(d6_odds, fixed_difficulty_meets_or_beats) {
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = (d6_code){2, 0};
    q.no_wild = true;
    q.difficulty = 7;
    fray_bigratio r = check_ok(&q);
    cr_assert_str_eq(r.num, "7"); /* 21/36 */
    cr_assert_str_eq(r.den, "12");
    fray_bigratio_free(&r);
    q.tie = D6_TIE_BEATS;
    r = check_ok(&q);
    cr_assert_str_eq(r.num, "5"); /* 15/36 */
    cr_assert_str_eq(r.den, "12");
    fray_bigratio_free(&r);
}

/* 003:2 and checklist D6.3: base 10 with a Sweep -6 and a blind target
 * -12 gives 3, not -8: the odds are those of meeting 3. */
Test(d6_odds, floor_of_three_standard_modifiers) {
    d6_code mods[2] = {{0, -6}, {0, -12}};
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = (d6_code){1, 0};
    q.difficulty = 10;
    q.modifiers = mods;
    q.n_modifiers = 2;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r = check_ok(&q);
    d6_dist *s = code_dist(1, 0, true, D6_WILD_ONE_CANCEL_HIGHEST);
    fray_bigratio want;
    cr_assert_eq(d6_dist_at_least(s, 3, &want), FRAY_OK);
    cr_assert_str_eq(r.num, want.num);
    cr_assert_str_eq(r.den, want.den);
    cr_assert_str_eq(r.num, "2"); /* 1D!: 3, 4, 5 or a 6: 4/6 */
    cr_assert_str_eq(r.den, "3");
    fray_bigratio_free(&r);
    fray_bigratio_free(&want);
    /* Without the floor the difficulty would be -8: always met. */
    q.floor = 0;
    r = check_ok(&q);
    cr_assert_str_eq(r.num, "1");
    cr_assert_str_eq(r.den, "1");
    fray_bigratio_free(&r);
    d6_dist_free(s);
}

/* 003:3 (the GM rolls the modifier) with 003:2's floor: 2D against
 * 10 - 2D (Sweep) - 4D (blind target) rolled, every roll of the six
 * modifier dice enumerated: P = sum_M P(M) P(S >= max(3, 10 + M)). */
Test(d6_odds, floor_of_three_rolled_modifiers) {
    d6_code mods[2] = {{-2, 0}, {-4, 0}};
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = (d6_code){2, 0};
    q.difficulty = 10;
    q.modifiers = mods;
    q.n_modifiers = 2;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r = check_ok(&q);
    d6_dist *s = code_dist(2, 0, true, D6_WILD_ONE_CANCEL_HIGHEST);
    mpq_t sum, t, w;
    mpq_inits(sum, t, w, NULL);
    mpq_set_ui(w, 1, 46656);
    for (int idx = 0; idx < 46656; idx++) {
        int x = idx, m = 0;
        for (int i = 0; i < 6; i++) {
            m -= x % 6 + 1;
            x /= 6;
        }
        int diff = 10 + m < 3 ? 3 : 10 + m;
        fray_bigratio p;
        cr_assert_eq(d6_dist_at_least(s, diff, &p), FRAY_OK);
        q_of(t, &p);
        fray_bigratio_free(&p);
        mpq_mul(t, t, w);
        mpq_add(sum, sum, t);
    }
    cr_assert(ratio_is_q(&r, sum), "got %s/%s", r.num, r.den);
    fray_bigratio_free(&r);
    mpq_clears(sum, t, w, NULL);
    d6_dist_free(s);
}

/* 003:3 with a positive rolled modifier and D7.11's option: +2D rolled
 * without (default) and with a Wild Die, against the enumeration of the
 * modifier (depth 8 for the Wild Die, bounded by the left-out mass). */
Test(d6_odds, rolled_modifier_with_and_without_wild_die) {
    for (int wild = 0; wild <= 1; wild++) {
        d6_code mods[1] = {{2, 0}};
        d6_success_query q;
        memset(&q, 0, sizeof q);
        q.skill = (d6_code){4, 1};
        q.difficulty = 10;
        q.modifiers = mods;
        q.n_modifiers = 1;
        q.modifier_wild = wild;
        q.floor = D6_DIFFICULTY_FLOOR;
        fray_bigratio r = check_ok(&q);
        d6_dist *s = code_dist(4, 1, true, D6_WILD_ONE_CANCEL_HIGHEST);
        en m;
        en_code(&m, 2, 0, wild, D6_WILD_ONE_CANCEL_HIGHEST, 8);
        mpq_t sum, t, gap;
        mpq_inits(sum, t, gap, NULL);
        for (int i = 0; i < EN_SPAN; i++) {
            if (mpq_sgn(m.p[i]) == 0)
                continue;
            int diff = 10 + (i - EN_OFF);
            diff = diff < 3 ? 3 : diff;
            fray_bigratio p;
            cr_assert_eq(d6_dist_at_least(s, diff, &p), FRAY_OK);
            q_of(t, &p);
            fray_bigratio_free(&p);
            mpq_mul(t, t, m.p[i]);
            mpq_add(sum, sum, t);
        }
        q_of(t, &r);
        mpq_sub(gap, t, sum);
        if (!wild) {
            cr_assert(mpq_sgn(gap) == 0, "no Wild Die: exact");
        } else {
            cr_assert(mpq_sgn(gap) >= 0 && mpq_cmp(gap, m.rest) <= 0);
            cr_assert(mpq_sgn(gap) > 0); /* the Wild Die's long chains count */
        }
        /* A Wild Die on the modifier makes the difficulty higher on
         * average: the odds of success differ between the settings. */
        fray_bigratio_free(&r);
        mpq_clears(sum, t, gap, NULL);
        en_clear(&m);
        d6_dist_free(s);
    }
}

/* Active defense with a rolled modifier, full defense (+10). */
Test(d6_odds, active_defense_with_modifier_and_full_defense) {
    d6_code mods[1] = {{1, 0}};
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = (d6_code){5, 0};
    q.defense_roll = true;
    q.defense = (d6_code){3, 1};
    q.defense_bonus = 10;
    q.modifiers = mods;
    q.n_modifiers = 1;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r = check_ok(&q);
    /* The same as 5D! - (3D!+11 + 1D) >= 0 (the floor cannot bite: the
     * difficulty is at least 12). */
    d6_dist *s = code_dist(5, 0, true, D6_WILD_ONE_CANCEL_HIGHEST);
    d6_dist *dfn = code_dist(3, 11, true, D6_WILD_ONE_CANCEL_HIGHEST);
    d6_dist *m = code_dist(1, 0, false, D6_WILD_ONE_CANCEL_HIGHEST);
    d6_dist *y = NULL, *z = NULL;
    cr_assert_eq(d6_dist_add(dfn, m, 1, &y), FRAY_OK);
    cr_assert_eq(d6_dist_add(s, y, -1, &z), FRAY_OK);
    fray_bigratio want;
    cr_assert_eq(d6_dist_at_least(z, 0, &want), FRAY_OK);
    cr_assert_str_eq(r.num, want.num);
    cr_assert_str_eq(r.den, want.den);
    cr_assert(r.value > 0.1 && r.value < 0.5);
    fray_bigratio_free(&r);
    fray_bigratio_free(&want);
    d6_dist_free(s);
    d6_dist_free(dfn);
    d6_dist_free(m);
    d6_dist_free(y);
    d6_dist_free(z);
}

/* No silent wrong answer: three Wild Dice meeting (skill, defense and a
 * modifier with D7.11's option on) are refused, not approximated. */
Test(d6_odds, three_wild_dice_refused) {
    d6_code mods[1] = {{1, 0}};
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = (d6_code){3, 0};
    q.defense_roll = true;
    q.defense = (d6_code){3, 0};
    q.modifiers = mods;
    q.n_modifiers = 1;
    q.modifier_wild = true;
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_ERR_RANGE);
    cr_assert_null(r.num);
    d6_code big = {D6_ODDS_DICE_MAX + 1, 0};
    d6_dist *d = NULL;
    cr_assert_eq(d6_dist_code(big, true, D6_WILD_ONE_CANCEL_HIGHEST, NULL, &d),
                 FRAY_ERR_INVALID);
    cr_assert_null(d);
}

/* ---- Damage against resistance ------------------------------------------------- */

/* D-0 "Wound levels": <= 0 no wound, 1-3 Stunned, 4-8 Wounded, 9-12
 * Incapacitated, 13-15 Mortally Wounded, 16+ Dead. */
Test(d6_odds, wound_ladder) {
    int64_t edges[][2] = {{-5, 0}, {0, 0},  {1, 1},  {3, 1},  {4, 2},  {8, 2},
                          {9, 3},  {12, 3}, {13, 4}, {15, 4}, {16, 5}, {99, 5}};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        cr_assert_eq((int)d6_odds_wound_of(edges[i][0]), (int)edges[i][1], "excess %lld",
                     (long long)edges[i][0]);
}

/* Damage - resistance against the enumeration of both rolls: each Wound
 * level and each Body Points row (max(0, excess)). Both without a Wild
 * Die: exact; both with: within the left-out mass. */
static void check_damage(int dd, int dp, bool dw, int rd, int rp, bool rw) {
    const int depth = 7;
    en a, b;
    en_code(&a, dd, dp, dw, D6_WILD_ONE_CANCEL_HIGHEST, depth);
    en_code(&b, rd, rp, rw, D6_WILD_ONE_CANCEL_HIGHEST, depth);
    mpq_t level[D6_ODDS_WOUND_LEVELS], body[12], t, gap, bound, lost_mean;
    mpq_init(lost_mean);
    for (int k = 0; k < D6_ODDS_WOUND_LEVELS; k++)
        mpq_init(level[k]);
    for (int k = 0; k < 12; k++)
        mpq_init(body[k]);
    mpq_inits(t, gap, bound, NULL);
    for (int i = 0; i < EN_SPAN; i++) {
        if (mpq_sgn(a.p[i]) == 0)
            continue;
        for (int j = 0; j < EN_SPAN; j++) {
            if (mpq_sgn(b.p[j]) == 0)
                continue;
            int64_t x = (int64_t)(i - j);
            mpq_mul(t, a.p[i], b.p[j]);
            int lv = (int)d6_odds_wound_of(x);
            mpq_add(level[lv], level[lv], t);
            int64_t lost = x < 0 ? 0 : x;
            int row = lost >= 11 ? 11 : (int)lost;
            mpq_add(body[row], body[row], t);
            mpq_t v;
            mpq_init(v);
            mpq_set_si(v, (long)lost, 1);
            mpq_mul(v, v, t);
            mpq_add(lost_mean, lost_mean, v);
            mpq_clear(v);
        }
    }
    mpq_add(bound, a.rest, b.rest);
    d6_damage_query q = {{dd, dp}, dw, {rd, rp}, rw, D6_WILD_ONE_CANCEL_HIGHEST, 12};
    d6_damage_odds o;
    cr_assert_eq(d6_odds_damage(&q, NULL, &o), FRAY_OK);
    cr_assert_eq(o.n_body, 12);
    bool exact = !dw && !rw;
    for (int k = 0; k < D6_ODDS_WOUND_LEVELS + 12; k++) {
        const fray_bigratio *r = k < D6_ODDS_WOUND_LEVELS ? &o.level[k]
                                                          : &o.body[k - D6_ODDS_WOUND_LEVELS];
        mpq_t *want = k < D6_ODDS_WOUND_LEVELS ? &level[k] : &body[k - D6_ODDS_WOUND_LEVELS];
        q_of(t, r);
        mpq_sub(gap, t, *want);
        if (exact) {
            cr_assert(mpq_sgn(gap) == 0, "%dD vs %dD row %d: %s/%s", dd, rd, k, r->num, r->den);
        } else {
            mpq_abs(gap, gap);
            cr_assert(mpq_cmp(gap, bound) <= 0, "%dD! vs %dD! row %d: off by %g", dd, rd, k,
                      mpq_get_d(gap));
        }
    }
    cr_assert(mpq_get_d(bound) < 1e-5);
    /* E[Body Points lost]: the count misses only the left-out chains,
     * whose losses are at most 6 depth + 6 (dice) + 50 each: exact without
     * a Wild Die, else within that times their mass. */
    q_of(t, &o.mean_body);
    mpq_sub(gap, t, lost_mean);
    if (exact) {
        cr_assert(mpq_sgn(gap) == 0, "%dD vs %dD: mean lost %s/%s", dd, rd, o.mean_body.num,
                  o.mean_body.den);
    } else {
        cr_assert(mpq_sgn(gap) >= 0, "%dD vs %dD: mean lost below the count", dd, rd);
        cr_assert(mpq_get_d(gap) <= mpq_get_d(bound) * (6 * depth + 6 * (dd + rd) + 50),
                  "%dD vs %dD: mean lost off by %g", dd, rd, mpq_get_d(gap));
    }
    mpq_clear(lost_mean);
    d6_damage_odds_free(&o);
    for (int k = 0; k < D6_ODDS_WOUND_LEVELS; k++)
        mpq_clear(level[k]);
    for (int k = 0; k < 12; k++)
        mpq_clear(body[k]);
    mpq_clears(t, gap, bound, NULL);
    en_clear(&a);
    en_clear(&b);
}

Test(d6_odds, damage_vs_resistance_plain) {
    check_damage(4, 0, false, 2, 1, false);
    check_damage(5, 2, false, 3, 0, false);
}

Test(d6_odds, damage_vs_resistance_wild) {
    check_damage(5, 0, true, 3, 0, true);
    check_damage(3, 1, true, 2, 0, false);
    check_damage(2, 0, false, 2, 2, true);
}

/* Body Points with no armour: resistance 0D (D-0: "0 when there are
 * none"): the whole damage comes off; the rows sum to 1. */
Test(d6_odds, body_points_no_armour) {
    d6_damage_query q = {{2, 0}, false, {0, 0}, false, D6_WILD_ONE_CANCEL_HIGHEST, 0};
    d6_damage_odds o;
    cr_assert_eq(d6_odds_damage(&q, NULL, &o), FRAY_OK);
    cr_assert_eq(o.n_body, 13); /* 0 .. 11 and "12 or more" */
    cr_assert_str_eq(o.body[0].num, "0");
    cr_assert_str_eq(o.body[7].num, "1"); /* 6/36 */
    cr_assert_str_eq(o.body[7].den, "6");
    cr_assert_str_eq(o.body[12].num, "1");
    cr_assert_str_eq(o.body[12].den, "36");
    cr_assert_str_eq(o.mean_excess.num, "7");
    cr_assert_str_eq(o.mean_body.num, "7");
    cr_assert_str_eq(o.mean_body.den, "1");
    d6_damage_odds_free(&o);
}

/* Two Wild Dice on one side (the closed form of K1 + K2): 2D! + 1D!
 * against the count of both (every total below the depth's reach within
 * the left-out mass), and a roll without a Wild Die against a defense
 * roll and a modifier that each have one (D7.11's option on). */
Test(d6_odds, two_wild_dice_one_side_match_enumeration) {
    const int depth = 9;
    en a, b;
    en_code(&a, 2, 0, true, D6_WILD_ONE_CANCEL_HIGHEST, depth);
    en_code(&b, 1, 0, true, D6_WILD_ONE_CANCEL_HIGHEST, depth);
    d6_dist *x = code_dist(2, 0, true, D6_WILD_ONE_CANCEL_HIGHEST);
    d6_dist *y = code_dist(1, 0, true, D6_WILD_ONE_CANCEL_HIGHEST), *z = NULL;
    cr_assert_eq(d6_dist_add(x, y, 1, &z), FRAY_OK);
    mpq_t bound, t, gap, counted;
    mpq_inits(bound, t, gap, counted, NULL);
    mpq_add(bound, a.rest, b.rest);
    for (int64_t c = 0; c <= 40; c++) {
        mpq_set_ui(counted, 0, 1);
        for (int i = 0; i < EN_SPAN; i++)
            for (int j = 0; j < EN_SPAN; j++)
                if (mpq_sgn(a.p[i]) && mpq_sgn(b.p[j]) && (i - EN_OFF) + (j - EN_OFF) >= c) {
                    mpq_mul(t, a.p[i], b.p[j]);
                    mpq_add(counted, counted, t);
                }
        fray_bigratio r;
        cr_assert_eq(d6_dist_at_least(z, c, &r), FRAY_OK);
        q_of(t, &r);
        fray_bigratio_free(&r);
        mpq_sub(gap, t, counted);
        cr_assert(mpq_sgn(gap) >= 0 && mpq_cmp(gap, bound) <= 0, "2D!+1D! >= %lld: gap %g",
                  (long long)c, mpq_get_d(gap));
    }
    /* 3D (no Wild Die) against 1D! + 1D! (defense and modifier): the same
     * as 3D - (1D! + 1D!) >= 0, whose K1 + K2 is subtracted. */
    d6_code mods[1] = {{1, 0}};
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = (d6_code){3, 0};
    q.no_wild = true;
    q.defense_roll = true;
    q.defense = (d6_code){1, 0};
    q.modifiers = mods;
    q.n_modifiers = 1;
    q.modifier_wild = true;
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
    en s;
    en_code(&s, 3, 0, false, D6_WILD_ONE_CANCEL_HIGHEST, depth);
    mpq_set_ui(counted, 0, 1);
    for (int i = 0; i < EN_SPAN; i++)
        for (int j = 0; j < EN_SPAN; j++)
            for (int k = 0; k < EN_SPAN; k++) {
                if (!mpq_sgn(s.p[i]) || !mpq_sgn(b.p[j]) || !mpq_sgn(b.p[k]))
                    continue;
                if ((i - EN_OFF) < (j - EN_OFF) + (k - EN_OFF))
                    continue;
                mpq_mul(t, s.p[i], b.p[j]);
                mpq_mul(t, t, b.p[k]);
                mpq_add(counted, counted, t);
            }
    q_of(t, &r);
    fray_bigratio_free(&r);
    mpq_sub(gap, t, counted);
    mpq_abs(gap, gap);
    cr_assert(mpq_cmp(gap, bound) <= 0, "3D vs 1D!+1D!: off by %g", mpq_get_d(gap));
    en_clear(&s);
    mpq_clears(bound, t, gap, counted, NULL);
    d6_dist_free(x);
    d6_dist_free(y);
    d6_dist_free(z);
    en_clear(&a);
    en_clear(&b);
}

/* E[max(0, total)] for two Wild Dice on one side, added (K1 + K2) or
 * subtracted (-(K1 + K2)), against the count to depth 9 (the left-out
 * chains' share is under 2 * 6^-9 times their totals, about 120). */
Test(d6_odds, mean_positive_two_wild_dice_one_side) {
    const int depth = 9;
    en a, b;
    en_code(&a, 2, 0, true, D6_WILD_ONE_COMPLICATION, depth);
    en_code(&b, 1, 0, true, D6_WILD_ONE_COMPLICATION, depth);
    d6_dist *x = code_dist(2, 0, true, D6_WILD_ONE_COMPLICATION);
    d6_dist *y = code_dist(1, 0, true, D6_WILD_ONE_COMPLICATION);
    for (int sign = -1; sign <= 1; sign += 2) {
        int64_t shift = sign > 0 ? -14 : 14; /* 2D! + 1D! - 14, 14 - (2D! + 1D!) */
        d6_dist *z = NULL, *c = NULL, *w = NULL;
        cr_assert_eq(d6_dist_add(x, y, 1, &z), FRAY_OK);
        cr_assert_eq(d6_dist_const(shift, NULL, &c), FRAY_OK);
        if (sign > 0) {
            cr_assert_eq(d6_dist_add(z, c, 1, &w), FRAY_OK);
        } else {
            cr_assert_eq(d6_dist_add(c, z, -1, &w), FRAY_OK);
        }
        mpq_t counted, t, gap;
        mpq_inits(counted, t, gap, NULL);
        for (int i = 0; i < EN_SPAN; i++)
            for (int j = 0; j < EN_SPAN; j++) {
                if (!mpq_sgn(a.p[i]) || !mpq_sgn(b.p[j]))
                    continue;
                int64_t tot = sign * ((i - EN_OFF) + (j - EN_OFF)) + (sign > 0 ? -14 : 14);
                if (tot <= 0)
                    continue;
                mpq_mul(t, a.p[i], b.p[j]);
                mpq_set_si(gap, (long)tot, 1);
                mpq_mul(t, t, gap);
                mpq_add(counted, counted, t);
            }
        fray_bigratio r;
        cr_assert_eq(d6_dist_mean_positive(w, &r), FRAY_OK);
        q_of(t, &r);
        fray_bigratio_free(&r);
        mpq_sub(gap, t, counted);
        cr_assert(mpq_sgn(gap) >= 0 && mpq_get_d(gap) < 2 * 120 / pow(6, depth),
                  "sign %d: off by %g", sign, mpq_get_d(gap));
        if (sign < 0)
            cr_assert(mpq_sgn(gap) == 0); /* bounded: every positive total counted */
        mpq_clears(counted, t, gap, NULL);
        d6_dist_free(z);
        d6_dist_free(c);
        d6_dist_free(w);
    }
    d6_dist_free(x);
    d6_dist_free(y);
    en_clear(&a);
    en_clear(&b);
}

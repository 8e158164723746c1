/* test_towers_damage.c - STUN and LETHAL of a 99 Towers hit and their
 * exact odds (seed 000 "Damage", "STUN Damage", "LETHAL Damage", "Damage
 * Types"; rules-facts.md "Equipment"; RULINGS 18). */
#include <criterion/criterion.h>

#include <limits.h>
#include <math.h>
#include <string.h>

#include "fray/towers.h"

typedef unsigned __int128 u128;

static u128 U(fray_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static fray_u128 F(u128 v) {
    fray_u128 r = {(uint64_t)(v >> 64), (uint64_t)v};
    return r;
}
static bool ratio_is(fray_ratio r, u128 num, u128 den) {
    return !r.negative && U(r.num) * den == num * U(r.den);
}

/* Seed 000 "STUN Damage" / "LETHAL Damage": the heavy rifle (damage 7) hits
 * with two Hearts: 9 STUN, less the bandit's <ER> 1 = 8 STUN; two LETHAL. */
Test(towers_damage, heavy_rifle_example) {
    fray_towers_hit h = fray_towers_hit_damage(7, 2, 1, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 8);
    cr_expect_eq(h.lethal, 2);
}

/* Seed 000 "STUN Damage": a longblade does 4 + <PX> + Hearts. PX 3, one
 * Heart, ER 2: 4 + 3 + 1 - 2 = 6 STUN, 1 LETHAL. */
Test(towers_damage, longblade_adds_px_and_hearts) {
    int px = 3;
    fray_towers_hit h = fray_towers_hit_damage(4 + px, 1, 2, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 6);
    cr_expect_eq(h.lethal, 1);
    h = fray_towers_hit_damage(4 + px, 0, 0, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 7);
    cr_expect_eq(h.lethal, 0, "no Heart, no LETHAL");
}

/* Seed 000 "STUN Damage": "a hit will still do a minimum of one STUN". */
Test(towers_damage, minimum_one_stun) {
    fray_towers_hit h = fray_towers_hit_damage(2, 0, 5, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 1);
    cr_expect_eq(h.lethal, 0);
    h = fray_towers_hit_damage(-10, 0, 0, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 1);
}

/* Seed 000 "LETHAL Damage": "A target cannot take more LETHAL damage than
 * he takes STUN damage": damage 1, 3 Hearts, resilience 5 -> 1 and 1. */
Test(towers_damage, lethal_never_above_stun) {
    fray_towers_hit h = fray_towers_hit_damage(1, 3, 5, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 1);
    cr_expect_eq(h.lethal, 1);
    h = fray_towers_hit_damage(1, 3, 2, FRAY_TOWERS_NORMAL); /* 2 STUN */
    cr_expect_eq(h.stun, 2);
    cr_expect_eq(h.lethal, 2);
}

/* Seed 000 "Damage Types": Berhardt is susceptible to cold; 8 Arcane (cold)
 * is reduced by his <IR> "and then the remainder is doubled". IR 3: 10.
 * RULINGS 18: LETHAL doubles too. */
Test(towers_damage, susceptibility_doubles_after_resilience) {
    fray_towers_hit h = fray_towers_hit_damage(8, 0, 3, FRAY_TOWERS_SUSCEPTIBLE);
    cr_expect_eq(h.stun, 10);
    cr_expect_eq(h.lethal, 0);
    h = fray_towers_hit_damage(8, 1, 3, FRAY_TOWERS_SUSCEPTIBLE);
    cr_expect_eq(h.stun, 12);
    cr_expect_eq(h.lethal, 2);
    /* The minimum of one is applied before doubling. */
    h = fray_towers_hit_damage(1, 3, 9, FRAY_TOWERS_SUSCEPTIBLE);
    cr_expect_eq(h.stun, 2);
    cr_expect_eq(h.lethal, 2);
}

/* Seed 000 "Damage Types": Immunity - "cannot take STUN or LETHAL damage";
 * not even the minimum of one. */
Test(towers_damage, immunity_blocks_both) {
    fray_towers_hit h = fray_towers_hit_damage(6, 3, 0, FRAY_TOWERS_IMMUNE);
    cr_expect_eq(h.stun, 0);
    cr_expect_eq(h.lethal, 0);
}

/* Huge damage and Resilience values saturate instead of overflowing. */
Test(towers_damage, absurd_numbers_do_not_overflow) {
    fray_towers_hit h = fray_towers_hit_damage(INT_MAX, 13, INT_MIN,
                                               FRAY_TOWERS_SUSCEPTIBLE);
    cr_expect_eq(h.stun, INT_MAX);
    cr_expect_eq(h.lethal, 26);
    h = fray_towers_hit_damage(INT_MIN, 0, INT_MAX, FRAY_TOWERS_NORMAL);
    cr_expect_eq(h.stun, 1);
}

/* ---- Exact odds ------------------------------------------------------ */

static fray_attack_odds made_up(u128 den, const u128 *hit, int n) {
    fray_attack_odds a;
    memset(&a, 0, sizeof a);
    a.den = F(den);
    for (int k = 0; k < n; k++)
        a.hit[k] = F(hit[k]);
    return a;
}

/* Row 0 is the miss; hit rows are sorted by STUN; means count misses as 0. */
Test(towers_damage_odds, rows_and_means) {
    u128 hit[] = {30, 20, 10}; /* of 100 */
    fray_attack_odds a = made_up(100, hit, 3);
    fray_towers_damage_odds o;
    fray_odds_towers_damage(&a, 7, 1, FRAY_TOWERS_NORMAL, &o);
    cr_assert_eq(o.n_rows, 4);
    cr_expect(!o.rows[0].hit);
    cr_expect_eq(o.rows[0].dealt.stun, 0);
    cr_expect(U(o.rows[0].count) == 40);
    int stun[] = {0, 6, 7, 8}, lethal[] = {0, 0, 1, 2};
    u128 count[] = {40, 30, 20, 10};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(o.rows[i].dealt.stun, stun[i], "row %d", i);
        cr_expect_eq(o.rows[i].dealt.lethal, lethal[i], "row %d", i);
        cr_expect(ratio_is(fray_towers_damage_odds_row(&o, i), count[i], 100));
        cr_expect_eq(o.rows[i].hit, i > 0);
    }
    /* (30*6 + 20*7 + 10*8) / 100 = 400/100 = 4; LETHAL (20 + 20)/100 = 2/5. */
    cr_expect(ratio_is(o.mean_stun, 4, 1));
    cr_expect(ratio_is(o.mean_lethal, 2, 5));
    cr_expect(ratio_is(fray_towers_damage_odds_row(&o, 4), 0, 1));
    cr_expect(ratio_is(fray_towers_damage_odds_row(&o, -1), 0, 1));
}

/* Equal (STUN, LETHAL) outcomes merge: damage 1 against resilience 10 is
 * 1 STUN for up to 9 Hearts, with LETHAL capped at 1 (RULINGS 18). */
Test(towers_damage_odds, equal_rows_merge_and_sort) {
    u128 hit[14];
    for (int k = 0; k < 14; k++)
        hit[k] = (u128)(k + 1);
    fray_attack_odds a = made_up(1000, hit, 14);
    fray_towers_damage_odds o;
    fray_odds_towers_damage(&a, 1, 10, FRAY_TOWERS_NORMAL, &o);
    /* k=0: 1/0; k=1..10: 1/1 (k=10: 1 STUN); k=11: 2/2; 12: 3/3; 13: 4/4 */
    cr_assert_eq(o.n_rows, 6);
    cr_expect(U(o.rows[1].count) == 1);
    cr_expect_eq(o.rows[2].dealt.stun, 1);
    cr_expect_eq(o.rows[2].dealt.lethal, 1);
    cr_expect(U(o.rows[2].count) == 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11);
    cr_expect_eq(o.rows[3].dealt.stun, 2);
    cr_expect_eq(o.rows[5].dealt.stun, 4);
    u128 sum = 0;
    for (int i = 0; i < o.n_rows; i++) {
        sum += U(o.rows[i].count);
        if (i > 1)
            cr_expect(o.rows[i].dealt.stun > o.rows[i - 1].dealt.stun ||
                      (o.rows[i].dealt.stun == o.rows[i - 1].dealt.stun &&
                       o.rows[i].dealt.lethal > o.rows[i - 1].dealt.lethal));
    }
    cr_expect(sum == 1000);

    /* Immunity: every hit deals 0/0, one hit row. */
    fray_odds_towers_damage(&a, 9, 0, FRAY_TOWERS_IMMUNE, &o);
    cr_expect_eq(o.n_rows, 2);
    cr_expect(o.rows[1].hit);
    cr_expect(ratio_is(o.mean_stun, 0, 1));
    cr_expect(ratio_is(o.mean_lethal, 0, 1));
}

/* A real attack (heavy rifle, 3 cards against 2, ER 1): rows add up to
 * the whole, the means match a direct sum, susceptibility doubles them. */
Test(towers_damage_odds, from_an_attack) {
    fray_attack_query q;
    fray_attack_query_init(&q, 3, 2);
    fray_attack_odds a;
    cr_assert_eq(fray_odds_attack(&q, &a), FRAY_OK);
    fray_towers_damage_odds o, s;
    fray_odds_towers_damage(&a, 7, 1, FRAY_TOWERS_NORMAL, &o);
    fray_odds_towers_damage(&a, 7, 1, FRAY_TOWERS_SUSCEPTIBLE, &s);
    cr_expect(U(o.den) == U(a.den));
    u128 sum = 0, st = 0, le = 0;
    for (int i = 0; i < o.n_rows; i++) {
        sum += U(o.rows[i].count);
        st += U(o.rows[i].count) * (u128)o.rows[i].dealt.stun;
        le += U(o.rows[i].count) * (u128)o.rows[i].dealt.lethal;
    }
    cr_expect(sum == U(a.den));
    cr_expect(ratio_is(o.mean_stun, st, U(a.den)));
    cr_expect(ratio_is(o.mean_lethal, le, U(a.den)));
    cr_expect(ratio_is(s.mean_stun, 2 * st, U(a.den)));
    cr_expect(ratio_is(s.mean_lethal, 2 * le, U(a.den)));
    /* 3 cards: 0..3 Hearts, so 4 hit rows: 7 + k - 1 STUN, k LETHAL. */
    cr_expect_eq(o.n_rows, 5);
    for (int k = 0; k <= 3; k++) {
        cr_expect_eq(o.rows[k + 1].dealt.stun, 6 + k);
        cr_expect_eq(o.rows[k + 1].dealt.lethal, k);
        cr_expect(U(o.rows[k + 1].count) == U(a.hit[k]));
    }
}

/* A huge denominator with huge damage: the mean is still exact when it
 * fits, and never crashes. */
Test(towers_damage_odds, huge_numbers) {
    fray_attack_query q;
    fray_attack_query_init(&q, 27, 27);
    fray_attack_odds a;
    cr_assert_eq(fray_odds_attack(&q, &a), FRAY_OK);
    fray_towers_damage_odds o;
    fray_odds_towers_damage(&a, 1000000, 0, FRAY_TOWERS_SUSCEPTIBLE, &o);
    u128 sum = 0;
    for (int i = 0; i < o.n_rows; i++)
        sum += U(o.rows[i].count);
    cr_expect(sum == U(a.den));
    double m = fray_ratio_to_double(o.mean_stun);
    double p = fray_ratio_to_double(fray_attack_odds_hit(&a));
    cr_expect(m > 2000000.0 * p && m < 2000030.0 * p, "mean %f p %f", m, p);
    fray_odds_towers_damage(&a, INT_MAX, 0, FRAY_TOWERS_NORMAL, &o);
    m = fray_ratio_to_double(o.mean_stun);
    cr_expect(m > 0.99 * INT_MAX * p && m <= INT_MAX * p * 1.0000001,
              "mean %f", m);

    /* 24 against 24 cards and damage near INT_MAX: the exact numerator
     * passes 2^128, so the mean's fraction part is rounded down to 64 bits;
     * it must still be right to double precision. */
    fray_attack_query_init(&q, 24, 24);
    cr_assert_eq(fray_odds_attack(&q, &a), FRAY_OK);
    fray_odds_towers_damage(&a, INT_MAX - 40, 0, FRAY_TOWERS_NORMAL, &o);
    long double want = 0;
    for (int i = 1; i < o.n_rows; i++)
        want += (long double)U(o.rows[i].count) * o.rows[i].dealt.stun;
    want /= (long double)U(o.den);
    m = fray_ratio_to_double(o.mean_stun);
    cr_expect(fabsl((long double)m - want) <= want * 1e-12L, "mean %f vs %Lf",
              m, want);
    cr_expect(U(o.mean_stun.den) <= (u128)1 << 64, "rounded to 64 bits");
}

/* Over a sweep of damage, Resilience and affinities with every Hearts count
 * possible: rows strictly increase in (STUN, LETHAL), every k is counted
 * in the row of its own damage, and nothing is lost. */
Test(towers_damage_odds, sweep_rows_sorted_and_complete) {
    u128 hit[14];
    for (int k = 0; k < 14; k++)
        hit[k] = (u128)1 << k;
    fray_attack_odds a = made_up((u128)1 << 14, hit, 14); /* 1 miss */
    fray_towers_affinity aff[] = {FRAY_TOWERS_NORMAL, FRAY_TOWERS_SUSCEPTIBLE,
                                  FRAY_TOWERS_IMMUNE};
    for (int f = 0; f < 3; f++)
        for (int dmg = -3; dmg <= 14; dmg++)
            for (int res = 0; res <= 14; res++) {
                fray_towers_damage_odds o;
                fray_odds_towers_damage(&a, dmg, res, aff[f], &o);
                u128 seen = 0;
                for (int i = 2; i < o.n_rows; i++)
                    cr_assert(o.rows[i].dealt.stun > o.rows[i - 1].dealt.stun ||
                                  (o.rows[i].dealt.stun == o.rows[i - 1].dealt.stun &&
                                   o.rows[i].dealt.lethal > o.rows[i - 1].dealt.lethal),
                              "dmg %d res %d aff %d row %d", dmg, res, f, i);
                for (int k = 0; k < 14; k++) {
                    fray_towers_hit h = fray_towers_hit_damage(dmg, k, res, aff[f]);
                    int found = 0;
                    for (int i = 1; i < o.n_rows; i++)
                        if (o.rows[i].dealt.stun == h.stun &&
                            o.rows[i].dealt.lethal == h.lethal) {
                            found++;
                            cr_assert(U(o.rows[i].count) & hit[k]);
                        }
                    cr_assert_eq(found, 1, "dmg %d res %d k %d", dmg, res, k);
                }
                for (int i = 0; i < o.n_rows; i++)
                    seen += U(o.rows[i].count);
                cr_assert(seen == (u128)1 << 14);
                cr_assert(U(o.rows[0].count) == 1);
            }
}

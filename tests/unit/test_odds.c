/* test_odds.c - exact odds of flips (99 Towers: seed 000 "Attacking and
 * Defending", "Critical Hits"; seed 001 "Opposed Skill Flips"; RULINGS 1,
 * 3, 5, 6).
 *
 * The reference counts here are made by enumerating every set of cards
 * (and every pair of sets, disjoint ones for a shared deck) with the
 * test's own idea of the deck, independently of odds.c. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fray/odds.h"

typedef unsigned __int128 u128;

static u128 U(fray_u128 v) { return ((u128)v.hi << 64) | v.lo; }

static bool ratio_is(fray_ratio r, u128 num, u128 den) {
    /* r is in lowest terms: compare cross products (small numbers here). */
    return !r.negative && U(r.num) * den == num * U(r.den);
}

static u128 binom(int n, int k) {
    if (k < 0 || n < 0 || k > n)
        return 0;
    u128 r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (u128)(n - k + i) / (u128)i;
    return r;
}

/* ---- The test's own deck (RULINGS 1; ids as documented in cards.h) ---- */

typedef struct bf_deck {
    int n;
    int value[54];
    bool heart[54];
} bf_deck;

static void bf_deck_init(bf_deck *d, bool aces_low, int jokers, int joker_value) {
    d->n = 52 + jokers;
    for (int id = 0; id < 52; id++) {
        int rank = id % 13 + 2;
        d->value[id] = rank == 14 && aces_low ? 1 : rank;
        d->heart[id] = id / 13 == 2;
    }
    for (int j = 0; j < jokers; j++) {
        d->value[52 + j] = joker_value;
        d->heart[52 + j] = false;
    }
}

static void opts_of(fray_deck_options *o, bool aces_low, int jokers, int jv) {
    fray_deck_options_default(o);
    o->aces_low = aces_low;
    o->jokers = jokers;
    o->joker_value = jv;
}

typedef struct bf_set {
    uint64_t mask;
    int kept;
    int hearts;
} bf_set;

/* Every m-set of the deck with its kept value (RULINGS 3) and Hearts
 * (RULINGS 5: all cards). Returns a malloc'd array of *out_n sets. */
static bf_set *bf_sets(const bf_deck *d, int n_flip, size_t *out_n) {
    int m = n_flip >= 1 ? n_flip : 2 - n_flip;
    bool low = n_flip < 1;
    size_t cap = (size_t)binom(d->n, m);
    bf_set *sets = malloc(cap * sizeof *sets);
    cr_assert(sets != NULL);
    int idx[8];
    for (int i = 0; i < m; i++)
        idx[i] = i;
    size_t n = 0;
    for (;;) {
        bf_set s = {0, low ? 99 : -1, 0};
        for (int i = 0; i < m; i++) {
            int v = d->value[idx[i]];
            s.mask |= (uint64_t)1 << idx[i];
            if (low ? v < s.kept : v > s.kept)
                s.kept = v;
            s.hearts += d->heart[idx[i]];
        }
        sets[n++] = s;
        int i = m - 1;
        while (i >= 0 && idx[i] == d->n - m + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int j = i + 1; j < m; j++)
            idx[j] = idx[j - 1] + 1;
    }
    cr_assert_eq(n, cap);
    *out_n = n;
    return sets;
}

/* pairs[x][y][k]: pairs (A, D) where A keeps x with k Hearts and D keeps
 * y; D disjoint from A when shared. */
typedef struct bf_pairs {
    uint64_t c[16][16][14];
    uint64_t total;
} bf_pairs;

static bf_pairs *bf_pairs_make(const bf_deck *d, int a, int b, bool shared) {
    size_t na, nb;
    bf_set *sa = bf_sets(d, a, &na);
    bf_set *sb = bf_sets(d, b, &nb);
    bf_pairs *p = calloc(1, sizeof *p);
    cr_assert(p != NULL);
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) {
            if (shared && (sa[i].mask & sb[j].mask))
                continue;
            p->c[sa[i].kept][sb[j].kept][sa[i].hearts]++;
            p->total++;
        }
    free(sa);
    free(sb);
    return p;
}

/* ---- Single flips ------------------------------------------------------ */

static void check_flip(bool aces_low, int jokers, int jv, int n) {
    bf_deck d;
    bf_deck_init(&d, aces_low, jokers, jv);
    size_t ns;
    bf_set *sets = bf_sets(&d, n, &ns);
    uint64_t cnt[16][14] = {{0}};
    for (size_t i = 0; i < ns; i++)
        cnt[sets[i].kept][sets[i].hearts]++;
    free(sets);

    fray_deck_options o;
    opts_of(&o, aces_low, jokers, jv);
    fray_flip_odds odds;
    cr_assert_eq(fray_odds_flip(&o, n, NULL, &odds), FRAY_OK);
    cr_expect(U(odds.den) == ns, "n=%d den", n);
    for (int v = 0; v < 16; v++)
        for (int k = 0; k < 14; k++) {
            cr_expect(U(odds.count[v][k]) == cnt[v][k],
                      "n=%d value %d hearts %d: %llu vs %llu", n, v, k,
                      (unsigned long long)U(odds.count[v][k]),
                      (unsigned long long)cnt[v][k]);
            cr_expect(ratio_is(fray_flip_odds_joint(&odds, v, k), cnt[v][k], ns));
        }
}

/* Every (kept value, Hearts) entry of flips of 1, 2 and 3 cards. */
Test(odds_flip, matches_enumeration_n1_n2_n3) {
    check_flip(false, 0, 15, 1);
    check_flip(false, 0, 15, 2);
    check_flip(false, 0, 15, 3);
}

/* RULINGS 3: n = 0 and n = -1 keep the lowest of 2 and 3 cards. */
Test(odds_flip, matches_enumeration_keep_lowest) {
    check_flip(false, 0, 15, 0);
    check_flip(false, 0, 15, -1);
}

/* RULINGS 1 options "jokers: 2" and "aces: low". */
Test(odds_flip, matches_enumeration_jokers_and_aces_low) {
    check_flip(true, 2, 15, 2);
    check_flip(true, 2, 15, 0);
    check_flip(false, 1, 0, 2);
}

/* One card: P(King) = 4/52 = 1/13; P(Heart) = 1/4. */
Test(odds_flip, one_card_closed_forms) {
    fray_flip_odds odds;
    cr_assert_eq(fray_odds_flip(NULL, 1, NULL, &odds), FRAY_OK);
    fray_ratio king = fray_flip_odds_value(&odds, FRAY_RANK_KING);
    cr_expect(U(king.num) == 1 && U(king.den) == 13);
    cr_expect(ratio_is(fray_flip_odds_hearts(&odds, 1), 1, 4));
    cr_expect(ratio_is(fray_flip_odds_value(&odds, 1), 0, 1), "no 1 with aces high");
    cr_expect(ratio_is(fray_flip_odds_value(&odds, 99), 0, 1));
    /* Two cards: P(at least one King kept) = 1 - C(48,2)/C(52,2). */
    cr_assert_eq(fray_odds_flip(NULL, 2, NULL, &odds), FRAY_OK);
    cr_expect(ratio_is(fray_flip_odds_value(&odds, 14),
                       binom(52, 2) - binom(48, 2), binom(52, 2)));
}

/* RULINGS 3 option "min-one-card": n = 0 is a plain one-card flip. */
Test(odds_flip, min_one_card_option) {
    fray_flip_rules one = {.min_one_card = true};
    fray_flip_odds a, b;
    cr_assert_eq(fray_odds_flip(NULL, 0, &one, &a), FRAY_OK);
    cr_assert_eq(fray_odds_flip(NULL, 1, NULL, &b), FRAY_OK);
    cr_expect_eq(a.n_cards, 1);
    cr_expect(memcmp(a.count, b.count, sizeof a.count) == 0);
}

/* Seed 001 "Unopposed Skill Flips": success when total >= DTN. One card,
 * bonus 3, DTN 15: the card must be 12 or more: Q, K, A = 12/52. */
Test(odds_flip, success_against_a_dtn) {
    fray_flip_odds odds;
    cr_assert_eq(fray_odds_flip(NULL, 1, NULL, &odds), FRAY_OK);
    cr_expect(ratio_is(fray_flip_odds_success(&odds, 3, 15), 12, 52));
    cr_expect(ratio_is(fray_flip_odds_success(&odds, 0, 2), 1, 1));
    cr_expect(ratio_is(fray_flip_odds_success(&odds, 0, 15), 0, 1));
}

/* A flip larger than the deck has no odds: FRAY_ERR_RANGE. */
Test(odds_flip, too_many_cards_is_a_range_error) {
    fray_flip_odds odds;
    cr_expect_eq(fray_odds_flip(NULL, 53, NULL, &odds), FRAY_ERR_RANGE);
    cr_expect_eq(fray_odds_flip(NULL, -51, NULL, &odds), FRAY_ERR_RANGE);
    cr_expect_eq(fray_odds_flip(NULL, 52, NULL, &odds), FRAY_OK);
    fray_deck_options bad;
    opts_of(&bad, false, 3, 15);
    cr_expect_eq(fray_odds_flip(&bad, 1, NULL, &odds), FRAY_ERR_RANGE);
}

/* Exact rationals: the value distribution sums to exactly 1, and the Hearts
 * marginal is hypergeometric C(13,h) C(N-13, m-h) / C(N, m). */
Test(odds_flip, sums_to_one_sweep) {
    for (int opt = 0; opt < 2; opt++) {
        fray_deck_options o;
        opts_of(&o, opt == 1, opt == 1 ? 2 : 0, 15);
        int deck_n = 52 + o.jokers;
        for (int n = -6; n <= 14; n++) {
            fray_flip_odds odds;
            cr_assert_eq(fray_odds_flip(&o, n, NULL, &odds), FRAY_OK);
            int m = odds.n_cards;
            cr_expect(U(odds.den) == binom(deck_n, m));
            /* Sum of the reduced fractions, exactly. */
            u128 sn = 0, sd = 1;
            for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
                fray_ratio r = fray_flip_odds_value(&odds, v);
                u128 rn = U(r.num), rd = U(r.den);
                sn = sn * rd + rn * sd;
                sd = sd * rd;
                u128 a = sn, b = sd;
                while (b) {
                    u128 t = a % b;
                    a = b;
                    b = t;
                }
                sn /= a;
                sd /= a;
            }
            cr_expect(sn == 1 && sd == 1, "n=%d opt=%d", n, opt);
            for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
                cr_expect(ratio_is(fray_flip_odds_hearts(&odds, h),
                                   binom(13, h) * binom(deck_n - 13, m - h),
                                   binom(deck_n, m)),
                          "n=%d hearts %d", n, h);
        }
    }
}

/* ---- Attack against defense -------------------------------------------- */

static const int SHIFTS[][2] = {{0, 0},  {1, 0},  {0, 1},  {3, 0},   {0, 4},
                                {-2, 1}, {2, -3}, {0, 12}, {20, 0},  {0, 20},
                                {-3, 3}, {5, 2}};

/* Seed 000 "Attacking and Defending" (a hit when attack >= defense) and
 * "Critical Hits" (a hit with a Heart), RULINGS 2 (a shared deck: the
 * defender flips from what the attacker left) and RULINGS 5 (Hearts over
 * the whole flip), against enumeration, for every shift pair in SHIFTS. */
static void check_attack(bool aces_low, int jokers, int jv, int a, int d,
                         bool shared, const fray_flip_rules *rules) {
    bf_deck deck;
    bf_deck_init(&deck, aces_low, jokers, jv);
    /* min-one-card only matters for n < 1; the test turns it into n = 1. */
    int ba = rules && rules->min_one_card && a < 1 ? 1 : a;
    int bd = rules && rules->min_one_card && d < 1 ? 1 : d;
    bf_pairs *p = bf_pairs_make(&deck, ba, bd, shared);
    for (size_t s = 0; s < sizeof SHIFTS / sizeof SHIFTS[0]; s++) {
        fray_attack_query q;
        fray_attack_query_init(&q, a, d);
        q.attack_shift = SHIFTS[s][0];
        q.defense_shift = SHIFTS[s][1];
        q.shared_deck = shared;
        opts_of(&q.deck, aces_low, jokers, jv);
        if (rules)
            q.rules = *rules;
        fray_attack_odds odds;
        cr_assert_eq(fray_odds_attack(&q, &odds), FRAY_OK);
        cr_expect(U(odds.den) == p->total, "%dv%d shared=%d den", a, d, shared);
        uint64_t hit[14] = {0};
        for (int x = 0; x < 16; x++)
            for (int y = 0; y < 16; y++)
                if (x + q.attack_shift >= y + q.defense_shift) /* seed 000 */
                    for (int k = 0; k < 14; k++)
                        hit[k] += p->c[x][y][k];
        uint64_t hits = 0;
        for (int k = 0; k < 14; k++) {
            hits += hit[k];
            cr_expect(U(odds.hit[k]) == hit[k],
                      "%dv%d shared=%d shifts %+d %+d hearts %d: %llu vs %llu",
                      a, d, shared, q.attack_shift, q.defense_shift, k,
                      (unsigned long long)U(odds.hit[k]),
                      (unsigned long long)hit[k]);
        }
        cr_expect(ratio_is(fray_attack_odds_hit(&odds), hits, p->total));
        cr_expect(ratio_is(fray_attack_odds_crit(&odds), hits - hit[0], p->total));
    }
    free(p);
}

Test(odds_attack, one_vs_one) {
    check_attack(false, 0, 15, 1, 1, false, NULL);
    check_attack(false, 0, 15, 1, 1, true, NULL);
}

Test(odds_attack, two_vs_one_and_one_vs_two) {
    check_attack(false, 0, 15, 2, 1, false, NULL);
    check_attack(false, 0, 15, 2, 1, true, NULL);
    check_attack(false, 0, 15, 1, 2, false, NULL);
    check_attack(false, 0, 15, 1, 2, true, NULL);
}

Test(odds_attack, two_vs_two) {
    check_attack(false, 0, 15, 2, 2, false, NULL);
    check_attack(false, 0, 15, 2, 2, true, NULL);
}

Test(odds_attack, three_vs_two_shared) {
    check_attack(false, 0, 15, 3, 2, true, NULL);
}

/* RULINGS 3: n = 0 keeps the lowest of two (either side). */
Test(odds_attack, keep_lowest_sides) {
    check_attack(false, 0, 15, 0, 1, false, NULL);
    check_attack(false, 0, 15, 0, 1, true, NULL);
    check_attack(false, 0, 15, 1, 0, true, NULL);
    check_attack(false, 0, 15, 0, 0, true, NULL);
    check_attack(false, 0, 15, -1, 1, true, NULL);
}

/* RULINGS 3 option "min-one-card": n = 0 flips one card. */
Test(odds_attack, min_one_card_option) {
    fray_flip_rules one = {.min_one_card = true};
    check_attack(false, 0, 15, 0, 2, true, &one);
}

/* RULINGS 1 options: two Jokers (worth 15, or 0) and aces low. */
Test(odds_attack, jokers_and_aces_low) {
    check_attack(true, 2, 15, 2, 1, false, NULL);
    check_attack(true, 2, 15, 2, 1, true, NULL);
    check_attack(true, 1, 0, 1, 0, true, NULL);
}

/* Larger flips, against a count that enumerates every attacker set and
 * counts the defender's sets in closed form from what the attacker left:
 * #(D in the rest keeping <= t) = C(rest <= t, d) keeping the highest, or
 * C(rest, d) - C(rest >= t+1, d) keeping the lowest. */
static void check_attack_by_attacker_sets(int a, int d, int shift, bool shared) {
    bf_deck deck;
    bf_deck_init(&deck, false, 0, 15);
    size_t na;
    bf_set *sa = bf_sets(&deck, a, &na);
    int dm = d >= 1 ? d : 2 - d;
    bool dlow = d < 1;
    u128 hit[14] = {0}, den = 0;
    for (size_t i = 0; i < na; i++) {
        int le[17] = {0}, total = 0; /* le[v+1]: remaining cards worth <= v */
        for (int c = 0; c < deck.n; c++)
            if (!shared || !(sa[i].mask >> c & 1)) {
                le[deck.value[c] + 1]++;
                total++;
            }
        for (int v = 1; v < 17; v++)
            le[v] += le[v - 1];
        den += binom(total, dm);
        int t = sa[i].kept + shift;
        if (t < 0)
            continue;
        if (t > 15)
            t = 15;
        u128 ok = dlow ? binom(total, dm) - binom(total - le[t + 1], dm)
                       : binom(le[t + 1], dm);
        hit[sa[i].hearts] += ok;
    }
    free(sa);
    fray_attack_query q;
    fray_attack_query_init(&q, a, d);
    q.attack_shift = shift;
    q.shared_deck = shared;
    fray_attack_odds odds;
    cr_assert_eq(fray_odds_attack(&q, &odds), FRAY_OK);
    cr_expect(U(odds.den) == den);
    for (int k = 0; k < 14; k++)
        cr_expect(U(odds.hit[k]) == hit[k], "%dv%d shift %d shared %d hearts %d",
                  a, d, shift, shared, k);
}

Test(odds_attack, larger_flips_by_attacker_enumeration) {
    check_attack_by_attacker_sets(4, 5, 0, true);
    check_attack_by_attacker_sets(4, 5, -2, true);
    check_attack_by_attacker_sets(4, 6, 1, false);
    check_attack_by_attacker_sets(3, -2, -1, true); /* 4 cards keep lowest */
    check_attack_by_attacker_sets(-2, 3, 3, true);  /* attacker keeps lowest of 4 */
}

Test(odds_attack, range_errors) {
    fray_attack_query q;
    fray_attack_odds odds;
    fray_attack_query_init(&q, 30, 30);
    cr_expect_eq(fray_odds_attack(&q, &odds), FRAY_OK, "separate decks: 30 each");
    q.shared_deck = true;
    cr_expect_eq(fray_odds_attack(&q, &odds), FRAY_ERR_RANGE, "60 cards from 52");
    fray_attack_query_init(&q, 53, 1);
    cr_expect_eq(fray_odds_attack(&q, &odds), FRAY_ERR_RANGE);
    fray_attack_query_init(&q, 26, 26);
    q.shared_deck = true;
    cr_expect_eq(fray_odds_attack(&q, &odds), FRAY_OK, "exactly the whole deck");
}

/* Exact sums over a sweep: a certain hit counts every outcome, split by
 * Hearts like the attacker's flip alone; a certain miss counts none; the
 * chance to hit grows with the shift; the Hearts given a hit sum to 1. */
Test(odds_attack, sweep_sums_and_monotonicity) {
    for (int shared = 0; shared < 2; shared++)
        for (int a = -2; a <= 10; a += 3)
            for (int d = -1; d <= 10; d += 2) {
                fray_attack_query q;
                fray_attack_query_init(&q, a, d);
                q.shared_deck = shared;
                int am = a >= 1 ? a : 2 - a, dm = d >= 1 ? d : 2 - d;
                u128 dd = binom(shared ? 52 - am : 52, dm);
                fray_attack_odds odds;
                q.attack_shift = 30;
                cr_assert_eq(fray_odds_attack(&q, &odds), FRAY_OK);
                cr_expect(U(odds.den) == binom(52, am) * dd);
                for (int k = 0; k <= FRAY_HEARTS_MAX; k++)
                    cr_expect(U(odds.hit[k]) ==
                                  binom(13, k) * binom(39, am - k) * dd,
                              "a=%d d=%d shared=%d k=%d", a, d, shared, k);
                q.attack_shift = -30;
                cr_assert_eq(fray_odds_attack(&q, &odds), FRAY_OK);
                cr_expect(ratio_is(fray_attack_odds_hit(&odds), 0, 1));
                cr_expect(ratio_is(fray_attack_odds_hearts_given_hit(&odds, 0), 0, 1));
                u128 prev = 0;
                for (int s = -13; s <= 13; s++) {
                    q.attack_shift = s;
                    cr_assert_eq(fray_odds_attack(&q, &odds), FRAY_OK);
                    u128 hits = 0;
                    for (int k = 0; k <= FRAY_HEARTS_MAX; k++)
                        hits += U(odds.hit[k]);
                    cr_expect(hits >= prev);
                    cr_expect(hits <= U(odds.den));
                    prev = hits;
                    if (hits > 0) {
                        u128 sum_num = 0;
                        for (int k = 0; k <= FRAY_HEARTS_MAX; k++) {
                            fray_ratio r = fray_attack_odds_hearts_given_hit(&odds, k);
                            /* Each is hit[k]/hits reduced: scale back. */
                            sum_num += U(r.num) * (hits / U(r.den));
                        }
                        cr_expect(sum_num == hits);
                    }
                }
                cr_expect(prev == U(odds.den), "shift +13 always hits");
            }
}

/* ---- Opposed skill flips (seed 001) ---------------------------------- */

static void check_opposed(int a, int b, int ib, int ob, int ia, int oa,
                          bool shared) {
    bf_deck deck;
    bf_deck_init(&deck, false, 0, 15);
    bf_pairs *p = bf_pairs_make(&deck, a, b, shared);
    uint64_t wins = 0, ties = 0;
    for (int x = 0; x < 16; x++)
        for (int y = 0; y < 16; y++) {
            uint64_t n = 0;
            for (int k = 0; k < 14; k++)
                n += p->c[x][y][k];
            int ti = x + ib, to = y + ob;
            if (ti == to)
                ties += n;
            /* Higher total; tie: higher Aspect; then the initiator. */
            if (ti > to || (ti == to && (ia > oa || ia == oa)))
                wins += n;
        }
    fray_opposed_query q = {0};
    q.initiator_n = a;
    q.opponent_n = b;
    q.initiator_bonus = ib;
    q.opponent_bonus = ob;
    q.initiator_aspect = ia;
    q.opponent_aspect = oa;
    q.shared_deck = shared;
    fray_deck_options_default(&q.deck);
    fray_opposed_odds odds;
    cr_assert_eq(fray_odds_opposed(&q, &odds), FRAY_OK);
    cr_expect(U(odds.den) == p->total);
    cr_expect(U(odds.initiator_wins) == wins, "%dv%d %+d/%+d aspects %d/%d",
              a, b, ib, ob, ia, oa);
    cr_expect(U(odds.ties) == ties);
    cr_expect(ratio_is(fray_opposed_odds_initiator(&odds), wins, p->total));
    cr_expect(ratio_is(fray_opposed_odds_opponent(&odds), p->total - wins, p->total));
    cr_expect(ratio_is(fray_opposed_odds_tie(&odds), ties, p->total));
    free(p);
}

/* Seed 001 "Opposed Skill Flips": equal Aspects give ties to the
 * initiator; a higher opponent Aspect takes them. */
Test(odds_opposed, two_vs_two_aspects_equal_and_different) {
    for (int shared = 0; shared < 2; shared++) {
        check_opposed(2, 2, 3, 3, 3, 3, shared);  /* ties to the initiator */
        check_opposed(2, 2, 3, 3, 2, 3, shared);  /* ties to the opponent */
        check_opposed(2, 2, 5, 3, 4, 1, shared);
        check_opposed(2, 2, 1, 4, 1, 4, shared);
    }
}

/* RULINGS 3 on the initiator's side of an opposed flip (seed 001). */
Test(odds_opposed, keep_lowest_initiator) {
    check_opposed(0, 1, 2, 0, 2, 2, true);
    check_opposed(0, 1, 2, 0, 1, 2, false);
}

/* Ties at a bonus difference are exactly the hits that appear when the
 * attack shift rises by one (two independent routes to the same count). */
Test(odds_opposed, ties_match_attack_steps) {
    for (int shared = 0; shared < 2; shared++)
        for (int s = -5; s <= 5; s++) {
            fray_attack_query q;
            fray_attack_query_init(&q, 4, 3);
            q.shared_deck = shared;
            q.attack_shift = s;
            fray_attack_odds hi, lo;
            cr_assert_eq(fray_odds_attack(&q, &hi), FRAY_OK);
            q.attack_shift = s - 1;
            cr_assert_eq(fray_odds_attack(&q, &lo), FRAY_OK);
            u128 nh = 0, nl = 0;
            for (int k = 0; k <= FRAY_HEARTS_MAX; k++) {
                nh += U(hi.hit[k]);
                nl += U(lo.hit[k]);
            }
            fray_opposed_query o = {0};
            o.initiator_n = 4;
            o.opponent_n = 3;
            o.initiator_bonus = s;
            o.shared_deck = shared;
            fray_deck_options_default(&o.deck);
            fray_opposed_odds od;
            cr_assert_eq(fray_odds_opposed(&o, &od), FRAY_OK);
            cr_expect(U(od.ties) == nh - nl);
            cr_expect(U(od.initiator_wins) == nh, "equal Aspects: ties to initiator");
        }
}

/* ---- Monte Carlo against the exact odds ------------------------------- */

/* 200000 attacks of 3 cards against 2 from freshly shuffled decks, drawn
 * by fray_flip_draw: P(hit) and P(critical) within 5 standard errors
 * sqrt(p(1-p)/n) of the exact values (seed 000 "Attacking and Defending",
 * "Critical Hits"). */
static void monte_carlo(bool shared, int trials) {
    fray_deck *da = NULL, *dd = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &da), FRAY_OK);
    cr_assert_eq(fray_deck_new(NULL, NULL, &dd), FRAY_OK);
    int hits = 0, crits = 0;
    for (int t = 0; t < trials; t++) {
        fray_rng rng;
        fray_rng_for_trial(&rng, 20240501u, (uint64_t)t);
        fray_deck_reset(da, &rng);
        fray_flip a, d;
        cr_assert_eq(fray_flip_draw(da, &rng, 3, NULL, &a), FRAY_OK);
        if (shared) {
            cr_assert_eq(fray_flip_draw(da, &rng, 2, NULL, &d), FRAY_OK);
        } else {
            fray_deck_reset(dd, &rng);
            cr_assert_eq(fray_flip_draw(dd, &rng, 2, NULL, &d), FRAY_OK);
        }
        fray_combat_result r = fray_combat_resolve(&a, 0, &d, 0);
        hits += r.hit;
        crits += r.critical;
    }
    fray_deck_free(da);
    fray_deck_free(dd);

    fray_attack_query q;
    fray_attack_query_init(&q, 3, 2);
    q.shared_deck = shared;
    fray_attack_odds odds;
    cr_assert_eq(fray_odds_attack(&q, &odds), FRAY_OK);
    double p_hit = fray_ratio_to_double(fray_attack_odds_hit(&odds));
    double p_crit = fray_ratio_to_double(fray_attack_odds_crit(&odds));
    double se_hit = sqrt(p_hit * (1 - p_hit) / trials);
    double se_crit = sqrt(p_crit * (1 - p_crit) / trials);
    double f_hit = (double)hits / trials, f_crit = (double)crits / trials;
    cr_expect(fabs(f_hit - p_hit) < 5 * se_hit, "shared=%d hit %f vs exact %f",
              shared, f_hit, p_hit);
    cr_expect(fabs(f_crit - p_crit) < 5 * se_crit,
              "shared=%d crit %f vs exact %f", shared, f_crit, p_crit);
}

Test(odds_monte_carlo, three_vs_two_separate_decks) { monte_carlo(false, 200000); }

Test(odds_monte_carlo, three_vs_two_shared_deck) { monte_carlo(true, 200000); }

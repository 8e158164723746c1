/*
 * odds.c - exact odds of card flips (99 Towers), counted over sets of cards.
 *
 * A flip of m cards is a uniformly random m-set of the deck, so every count
 * here is a number of sets (order does not matter): one flip has C(N, m)
 * outcomes; two flips from separate decks C(N, a) * C(N, d); two flips from
 * one shared deck, the second from what the first left, C(N, a) * C(N-a, d).
 *
 * Counting by regions. Every event used below is "all cards of a flip lie
 * in a value region", where a region is a ray of values (<= x or >= x):
 *   - a keep-highest flip keeps exactly x  <=>  in (<= x) but not in (<= x-1)
 *   - a keep-lowest flip keeps exactly x   <=>  in (>= x) but not in (>= x+1)
 *   - a keep-highest flip keeps <= t       <=>  in (<= t)
 *   - a keep-lowest flip keeps <= t        <=>  not in (>= t+1)
 * so every probability is a signed sum of pair counts
 *   F(RA, RD)[k] = #{(A, D): A in RA with k Hearts, D in RD, disjoint}.
 * With separate decks F is just W(RA)[k] * C(|RD|, d). With a shared deck
 * the defender cannot reuse the attacker's cards: split RA into I = RA∩RD
 * and O = RA\RD; if A puts hi Hearts and ni other cards into I, the
 * defender chooses from |RD| - hi - ni cards, so
 *   F[k] = sum over hi, ni, ho: C(Hi,hi) C(Ni,ni) C(|RD|-hi-ni, d)
 *                                * C(Ho,ho) C(No, a-hi-ni-ho),  k = hi+ho.
 *
 * Overflow: every C(n, k) with n <= 54 is below 2^51 (C(54,27) is about
 * 1.95e15). A term above multiplies one attacker split, whose product
 * C(Hi,hi)C(Ni,ni)C(Ho,ho)C(No,no) is at most C(54, a) < 2^51 (Vandermonde),
 * by one defender binomial < 2^51: below 2^102. Every partial sum counts a
 * subset of all outcomes, so it stays below the denominator, itself below
 * C(54,27)^2 < 2^102. Differences are of nested regions, never negative.
 * Hence plain fray__u128 arithmetic cannot overflow for decks of at most
 * FRAY_CARDS_MAX cards (asserted below).
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

#include "fray/odds.h"

_Static_assert(FRAY_CARDS_MAX <= 54,
               "the overflow argument at the top of odds.c needs <= 54 cards");
_Static_assert((int)FRAY_CARDS_MAX <= (int)FRAY__BINOM_N,
               "the binomial table is too small for a deck");

enum { VMAX = FRAY_CARD_VALUE_MAX, HMAX = FRAY_HEARTS_MAX };

/* How a deck's cards spread over values. lt_h[v] / lt_o[v]: Hearts / other
 * cards (Jokers included) worth less than v, for v = 0..VMAX+1. */
typedef struct deck_stats {
    int size;
    int lt_h[VMAX + 2];
    int lt_o[VMAX + 2];
    bool present[VMAX + 1];
} deck_stats;

/* A region of values [lo, hi] (empty when lo > hi), already clamped. */
typedef struct region {
    int lo, hi;
} region;

/* One side of a count: m cards, keeping the highest or the lowest. */
typedef struct side {
    int m;
    bool keep_lowest;
} side;

/* Everything a query computes once and reuses. */
typedef struct ctx {
    fray__binom binom;
    deck_stats deck;
    side att, def;
    bool shared;
} ctx;

static void deck_stats_init(deck_stats *s, const fray_deck_options *opts) {
    int h[VMAX + 1] = {0}, o[VMAX + 1] = {0};
    s->size = fray_deck_options_size(opts);
    for (int c = 0; c < s->size; c++) {
        int v = fray_card_value(opts, (fray_card)c);
        if (fray_card_is_heart((fray_card)c))
            h[v]++;
        else
            o[v]++;
    }
    s->lt_h[0] = s->lt_o[0] = 0;
    for (int v = 0; v <= VMAX; v++) {
        s->lt_h[v + 1] = s->lt_h[v] + h[v];
        s->lt_o[v + 1] = s->lt_o[v] + o[v];
        s->present[v] = h[v] + o[v] > 0;
    }
}

static region region_make(int lo, int hi) {
    region r;
    r.lo = lo < 0 ? 0 : lo;
    r.hi = hi > VMAX ? VMAX : hi;
    return r;
}

static int region_hearts(const deck_stats *s, region r) {
    return r.lo > r.hi ? 0 : s->lt_h[r.hi + 1] - s->lt_h[r.lo];
}

static int region_others(const deck_stats *s, region r) {
    return r.lo > r.hi ? 0 : s->lt_o[r.hi + 1] - s->lt_o[r.lo];
}

static region region_and(region a, region b) {
    region r;
    r.lo = a.lo > b.lo ? a.lo : b.lo;
    r.hi = a.hi < b.hi ? a.hi : b.hi;
    return r;
}

/* W(R)[k]: m-sets inside R with exactly k Hearts. */
static void sets_in(const ctx *c, region r, int m, fray__u128 out[HMAX + 1]) {
    int h = region_hearts(&c->deck, r), o = region_others(&c->deck, r);
    for (int k = 0; k <= HMAX; k++)
        out[k] = k <= m ? fray__binom_get(&c->binom, h, k) *
                              fray__binom_get(&c->binom, o, m - k)
                        : 0;
}

/* out[k] += F(ra, rd)[k] * sign (see the top of the file). */
static void pairs_in(const ctx *c, region ra, region rd, int sign,
                     fray__u128 out[HMAX + 1]) {
    const fray__binom *b = &c->binom;
    const int a = c->att.m, d = c->def.m;
    const int r_all = region_hearts(&c->deck, rd) + region_others(&c->deck, rd);
    fray__u128 f[HMAX + 1] = {0};

    if (!c->shared || a == 0) {
        fray__u128 w[HMAX + 1];
        fray__u128 dsets = fray__binom_get(b, r_all, d);
        if (dsets == 0)
            return;
        sets_in(c, ra, a, w);
        for (int k = 0; k <= HMAX; k++)
            f[k] = w[k] * dsets;
    } else {
        region in = region_and(ra, rd);
        const int hi_n = region_hearts(&c->deck, in);
        const int ni_n = region_others(&c->deck, in);
        const int ho_n = region_hearts(&c->deck, ra) - hi_n;
        const int no_n = region_others(&c->deck, ra) - ni_n;
        if (ho_n + no_n == 0) {
            /* RA inside RD: every attacker card is lost to the defender. */
            fray__u128 dsets = fray__binom_get(b, r_all - a, d);
            if (dsets == 0)
                return;
            sets_in(c, ra, a, f);
            for (int k = 0; k <= HMAX; k++)
                f[k] *= dsets;
        } else {
            /* outer[rest][ho]: ways to put `rest` attacker cards, ho of them
             * Hearts, into O. Independent of the split inside I. */
            fray__u128 outer[FRAY_CARDS_MAX + 1][HMAX + 1];
            int ho_cap = ho_n < HMAX ? ho_n : HMAX;
            for (int rest = 0; rest <= a; rest++)
                for (int ho = 0; ho <= ho_cap; ho++)
                    outer[rest][ho] = fray__binom_get(b, ho_n, ho) *
                                      fray__binom_get(b, no_n, rest - ho);
            int hi_cap = hi_n < a ? hi_n : a;
            for (int hi = 0; hi <= hi_cap; hi++) {
                fray__u128 ch = fray__binom_get(b, hi_n, hi);
                int ni_cap = ni_n < a - hi ? ni_n : a - hi;
                for (int ni = 0; ni <= ni_cap; ni++) {
                    fray__u128 dsets = fray__binom_get(b, r_all - hi - ni, d);
                    if (dsets == 0)
                        break; /* fewer cards left for D as ni grows */
                    fray__u128 base =
                        ch * fray__binom_get(b, ni_n, ni) * dsets;
                    int rest = a - hi - ni;
                    int top = rest < ho_cap ? rest : ho_cap;
                    int low = rest - no_n > 0 ? rest - no_n : 0;
                    for (int ho = low; ho <= top && hi + ho <= HMAX; ho++)
                        f[hi + ho] += base * outer[rest][ho];
                }
            }
        }
    }
    for (int k = 0; k <= HMAX; k++) {
        if (sign > 0)
            out[k] += f[k];
        else
            out[k] -= f[k];
    }
}

/*
 * out[k] = pairs whose attacker keeps exactly x with k Hearts and whose
 * defender keeps at most t (t already clamped to -1..VMAX).
 */
static void exact_vs_at_most(const ctx *c, int x, int t,
                             fray__u128 out[HMAX + 1]) {
    memset(out, 0, sizeof(fray__u128) * (HMAX + 1));
    if (t < 0 || !c->deck.present[x])
        return;
    region plus, minus;
    if (c->att.keep_lowest) {
        plus = region_make(x, VMAX);
        minus = region_make(x + 1, VMAX);
    } else {
        plus = region_make(0, x);
        minus = region_make(0, x - 1);
    }
    /* Each difference is of nested regions, so the sum is never negative;
     * the order also keeps every partial sum non-negative. */
    if (c->def.keep_lowest) {
        region all = region_make(0, VMAX), above = region_make(t + 1, VMAX);
        pairs_in(c, plus, all, +1, out);
        pairs_in(c, minus, above, +1, out);
        pairs_in(c, minus, all, -1, out);
        pairs_in(c, plus, above, -1, out);
    } else {
        region below = region_make(0, t);
        pairs_in(c, plus, below, +1, out);
        pairs_in(c, minus, below, -1, out);
    }
}

static int clamp_t(long long t) {
    if (t < -1)
        return -1;
    if (t > VMAX)
        return VMAX;
    return (int)t;
}

/* Sets up a context; FRAY_ERR_RANGE when the options are bad or the flips
 * need more cards than the deck (or, shared, than remain) holds. */
static fray_status ctx_init(ctx *c, const fray_deck_options *opts,
                            const fray_flip_rules *rules, int att_n,
                            int def_n, bool two_sides, bool shared) {
    fray_deck_options def_opts;
    if (!opts) {
        fray_deck_options_default(&def_opts);
        opts = &def_opts;
    }
    if (fray_deck_options_check(opts) != FRAY_OK)
        return FRAY_ERR_RANGE;
    deck_stats_init(&c->deck, opts);
    fray_flip_plan(att_n, rules, &c->att.m, &c->att.keep_lowest);
    c->def.m = 0;
    c->def.keep_lowest = false;
    if (two_sides)
        fray_flip_plan(def_n, rules, &c->def.m, &c->def.keep_lowest);
    c->shared = shared;
    int n = c->deck.size;
    if (c->att.m > n || c->def.m > n || (shared && c->att.m + c->def.m > n))
        return FRAY_ERR_RANGE;
    fray__binom_init(&c->binom);
    return FRAY_OK;
}

static fray__u128 ctx_den(const ctx *c) {
    int n = c->deck.size;
    fray__u128 da = fray__binom_get(&c->binom, n, c->att.m);
    fray__u128 dd = fray__binom_get(&c->binom,
                                    c->shared ? n - c->att.m : n, c->def.m);
    return da * dd;
}

/* ---- One flip ------------------------------------------------------------ */

fray_status fray_odds_flip(const fray_deck_options *opts, int n,
                           const fray_flip_rules *rules, fray_flip_odds *out) {
    /* Heap-free but large (the binomial table): lives on this stack frame
     * only for the call. */
    ctx c;
    fray_status st = ctx_init(&c, opts, rules, n, 0, false, false);
    if (st != FRAY_OK)
        return st;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->n_cards = c.att.m;
    out->keep_lowest = c.att.keep_lowest;
    out->den = fray__u128_to(fray__binom_get(&c.binom, c.deck.size, c.att.m));
    for (int v = 0; v <= VMAX; v++) {
        if (!c.deck.present[v])
            continue;
        fray__u128 plus[HMAX + 1], minus[HMAX + 1];
        if (c.att.keep_lowest) {
            sets_in(&c, region_make(v, VMAX), c.att.m, plus);
            sets_in(&c, region_make(v + 1, VMAX), c.att.m, minus);
        } else {
            sets_in(&c, region_make(0, v), c.att.m, plus);
            sets_in(&c, region_make(0, v - 1), c.att.m, minus);
        }
        for (int k = 0; k <= HMAX; k++)
            out->count[v][k] = fray__u128_to(plus[k] - minus[k]);
    }
    return FRAY_OK;
}

static fray_ratio ratio_of(fray__u128 num, fray_u128 den) {
    return fray__ratio(num, fray__u128_from(den), false);
}

fray_ratio fray_flip_odds_value(const fray_flip_odds *odds, int value) {
    fray__u128 num = 0;
    if (value >= 0 && value <= VMAX)
        for (int k = 0; k <= HMAX; k++)
            num += fray__u128_from(odds->count[value][k]);
    return ratio_of(num, odds->den);
}

fray_ratio fray_flip_odds_hearts(const fray_flip_odds *odds, int hearts) {
    fray__u128 num = 0;
    if (hearts >= 0 && hearts <= HMAX)
        for (int v = 0; v <= VMAX; v++)
            num += fray__u128_from(odds->count[v][hearts]);
    return ratio_of(num, odds->den);
}

fray_ratio fray_flip_odds_joint(const fray_flip_odds *odds, int value,
                                int hearts) {
    fray__u128 num = 0;
    if (value >= 0 && value <= VMAX && hearts >= 0 && hearts <= HMAX)
        num = fray__u128_from(odds->count[value][hearts]);
    return ratio_of(num, odds->den);
}

fray_ratio fray_flip_odds_success(const fray_flip_odds *odds, int bonus,
                                  int dtn) {
    fray__u128 num = 0;
    for (int v = 0; v <= VMAX; v++)
        if ((long long)v + bonus >= (long long)dtn)
            for (int k = 0; k <= HMAX; k++)
                num += fray__u128_from(odds->count[v][k]);
    return ratio_of(num, odds->den);
}

/* ---- Attack against defense ---------------------------------------------- */

void fray_attack_query_init(fray_attack_query *q, int attack_n, int defense_n) {
    memset(q, 0, sizeof *q); /* no shifts, separate decks, RULINGS 3 */
    q->attack_n = attack_n;
    q->defense_n = defense_n;
    fray_deck_options_default(&q->deck);
}

/* By Hearts k: pairs in which the second flip keeps at most x + delta when
 * the first keeps x, summed over x. With delta = attack shift - defense
 * shift these are the hits (seed 000 "Attacking and Defending"). */
static void pairs_at_most_by_hearts(const ctx *c, long long delta,
                                    fray__u128 out[HMAX + 1]) {
    memset(out, 0, (HMAX + 1) * sizeof *out);
    for (int x = 0; x <= VMAX; x++) {
        fray__u128 part[HMAX + 1];
        exact_vs_at_most(c, x, clamp_t(x + delta), part);
        for (int k = 0; k <= HMAX; k++)
            out[k] += part[k];
    }
}

fray_status fray_odds_attack(const fray_attack_query *q, fray_attack_odds *out) {
    ctx c;
    fray_status st = ctx_init(&c, &q->deck, &q->rules, q->attack_n,
                              q->defense_n, true, q->shared_deck);
    if (st != FRAY_OK)
        return st;
    /* Hit iff x + attack_shift >= y + defense_shift, i.e. the defender
     * keeps at most x + delta (seed 000 "Attacking and Defending"). */
    long long delta = (long long)q->attack_shift - (long long)q->defense_shift;
    fray__u128 hit[HMAX + 1];
    pairs_at_most_by_hearts(&c, delta, hit);
    memset(out, 0, sizeof *out);
    fray__u128 den = ctx_den(&c), hits = 0;
    for (int k = 0; k <= HMAX; k++) {
        out->hit[k] = fray__u128_to(hit[k]);
        hits += hit[k];
    }
    /* The overflow argument at the top of the file, checked in debug
     * builds: every count is a count of outcomes. */
    assert(hits <= den);
    out->den = fray__u128_to(den);
    return FRAY_OK;
}

static fray__u128 attack_hits(const fray_attack_odds *odds) {
    fray__u128 n = 0;
    for (int k = 0; k <= HMAX; k++)
        n += fray__u128_from(odds->hit[k]);
    return n;
}

fray_ratio fray_attack_odds_hit(const fray_attack_odds *odds) {
    return ratio_of(attack_hits(odds), odds->den);
}

fray_ratio fray_attack_odds_crit(const fray_attack_odds *odds) {
    return ratio_of(attack_hits(odds) - fray__u128_from(odds->hit[0]),
                    odds->den);
}

fray_ratio fray_attack_odds_hit_hearts(const fray_attack_odds *odds, int k) {
    fray__u128 n = k >= 0 && k <= HMAX ? fray__u128_from(odds->hit[k]) : 0;
    return ratio_of(n, odds->den);
}

fray_ratio fray_attack_odds_hearts_given_hit(const fray_attack_odds *odds,
                                             int k) {
    fray__u128 n = k >= 0 && k <= HMAX ? fray__u128_from(odds->hit[k]) : 0;
    return fray__ratio(n, attack_hits(odds), false);
}

/* ---- Opposed skill flips (seed 001) -------------------------------------- */

/* Pairs in which the opponent keeps at most x + delta when the initiator
 * keeps x, whatever the Hearts. */
static fray__u128 pairs_at_most(const ctx *c, long long delta) {
    fray__u128 by_hearts[HMAX + 1], n = 0;
    pairs_at_most_by_hearts(c, delta, by_hearts);
    for (int k = 0; k <= HMAX; k++)
        n += by_hearts[k];
    return n;
}

fray_status fray_odds_opposed(const fray_opposed_query *q,
                              fray_opposed_odds *out) {
    ctx c;
    fray_status st = ctx_init(&c, &q->deck, &q->rules, q->initiator_n,
                              q->opponent_n, true, q->shared_deck);
    if (st != FRAY_OK)
        return st;
    /* Totals x + ib and y + ob: tie when y = x + delta, initiator ahead
     * when y < x + delta. */
    long long delta = (long long)q->initiator_bonus - (long long)q->opponent_bonus;
    fray__u128 le = pairs_at_most(&c, delta);
    fray__u128 lt = pairs_at_most(&c, delta - 1);
    memset(out, 0, sizeof *out);
    assert(lt <= le && le <= ctx_den(&c));
    out->den = fray__u128_to(ctx_den(&c));
    out->ties = fray__u128_to(le - lt);
    /* Ties go to the higher Aspect, then to the initiator. */
    bool initiator_takes_ties = q->initiator_aspect >= q->opponent_aspect;
    out->initiator_wins = fray__u128_to(initiator_takes_ties ? le : lt);
    return FRAY_OK;
}

fray_ratio fray_opposed_odds_initiator(const fray_opposed_odds *odds) {
    return ratio_of(fray__u128_from(odds->initiator_wins), odds->den);
}

fray_ratio fray_opposed_odds_opponent(const fray_opposed_odds *odds) {
    return ratio_of(fray__u128_from(odds->den) -
                        fray__u128_from(odds->initiator_wins),
                    odds->den);
}

fray_ratio fray_opposed_odds_tie(const fray_opposed_odds *odds) {
    return ratio_of(fray__u128_from(odds->ties), odds->den);
}

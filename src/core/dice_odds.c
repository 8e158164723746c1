/*
 * dice_odds.c - exact distributions of dice expressions and the odds of a
 * d20 attack (seed 004 "Attacks", "Damage" and "Critical Hits").
 *
 * Everything is counted: count[i] equally likely outcomes out of den, in
 * 128-bit integers. Every denominator is checked against 2^127 before the
 * counts under it are summed; since no count or partial sum can exceed its
 * denominator, the convolutions below need no per-addition check.
 */
#include "dice_int.h"

#include <string.h>

/* ---- Signed exact rationals, for means ------------------------------------------ */

/* num/den in lowest terms, den > 0; zero is never negative. Every
 * operation reports overflow rather than wrapping. */
typedef struct srat {
    fray__u128 num;
    fray__u128 den;
    bool neg;
} srat;

static srat srat_make(fray__u128 num, fray__u128 den, bool neg) {
    srat r;
    fray__u128 g = num == 0 ? den : fray__u128_gcd(num, den);
    r.num = num / g;
    r.den = den / g;
    r.neg = neg && num != 0;
    return r;
}

static srat srat_int(int64_t v) {
    fray__u128 mag = v < 0 ? (fray__u128)(-(v + 1)) + 1 : (fray__u128)v;
    return srat_make(mag, 1, v < 0);
}

static srat srat_neg(srat a) {
    a.neg = !a.neg && a.num != 0;
    return a;
}

static bool srat_add(srat a, srat b, srat *out) {
    fray__u128 g = fray__u128_gcd(a.den, b.den);
    fray__u128 den, x, y;
    if (!fray__u128_mul(a.den / g, b.den, &den) ||
        !fray__u128_mul(a.num, b.den / g, &x) ||
        !fray__u128_mul(b.num, a.den / g, &y))
        return false;
    if (a.neg == b.neg) {
        fray__u128 s;
        if (!fray__u128_add(x, y, &s))
            return false;
        *out = srat_make(s, den, a.neg);
    } else if (x >= y) {
        *out = srat_make(x - y, den, a.neg);
    } else {
        *out = srat_make(y - x, den, b.neg);
    }
    return true;
}

static bool srat_mul_int(srat a, int64_t k, srat *out) {
    srat kk = srat_int(k);
    fray__u128 g = fray__u128_gcd(kk.num == 0 ? 1 : kk.num, a.den);
    fray__u128 num;
    if (!fray__u128_mul(a.num, kk.num / g, &num))
        return false;
    *out = srat_make(num, a.den / g, a.neg != kk.neg);
    return true;
}

/* a / k for k > 0. */
static bool srat_div_int(srat a, uint64_t k, srat *out) {
    fray__u128 g = fray__u128_gcd(a.num == 0 ? k : a.num, k);
    fray__u128 den;
    if (!fray__u128_mul(a.den, k / g, &den))
        return false;
    *out = srat_make(a.num / g, den, a.neg);
    return true;
}

/* ---- Working distributions ------------------------------------------------------ */

/* Like fray_dist, with native counts. With `tail` the last bucket holds
 * every total >= its value. */
typedef struct wdist {
    int64_t lo;
    size_t n;
    fray__u128 *c;
    fray__u128 den;
    bool tail;
    size_t cap; /* buckets allocated; n may shrink below it */
} wdist;

typedef struct octx {
    const fray_allocator *alloc;
    int depth;             /* K: 6s of a Wild Die followed exactly */
    fray__binom *binom;    /* built on first use by keep terms */
} octx;

#define DEN_LIMIT ((fray__u128)1 << 127)

/* Distributions are dense. Dice alone stay far below this (counting their
 * outcomes stops first), but an attack's damage spans 0 (a miss) to its
 * crit, and "1d4+1000000000" would ask for 16 GB. */
enum { BUCKETS_MAX = 1 << 22 };

/* a * b as a denominator: false past 2^127 ("too many outcomes"). */
static bool den_mul(fray__u128 a, fray__u128 b, fray__u128 *out) {
    return fray__u128_mul(a, b, out) && *out <= DEN_LIMIT;
}

static bool den_pow(fray__u128 base, int e, fray__u128 *out) {
    fray__u128 r = 1;
    for (int i = 0; i < e; i++)
        if (!den_mul(r, base, &r))
            return false;
    *out = r;
    return true;
}

static const wdist WDIST_EMPTY = {0, 0, NULL, 0, false, 0};

static fray_status wd_make(octx *ctx, wdist *w, int64_t lo, size_t n,
                           fray__u128 den) {
    *w = WDIST_EMPTY;
    if (n == 0 || n > BUCKETS_MAX)
        return FRAY_ERR_TOO_LARGE;
    w->c = fray__alloc(ctx->alloc, n * sizeof *w->c);
    if (!w->c)
        return FRAY_ERR_NOMEM;
    memset(w->c, 0, n * sizeof *w->c);
    w->lo = lo;
    w->n = n;
    w->cap = n;
    w->den = den;
    return FRAY_OK;
}

static void wd_free(octx *ctx, wdist *w) {
    fray__free(ctx->alloc, w->c, w->cap * sizeof *w->c);
    *w = WDIST_EMPTY;
}

static fray_status wd_point(octx *ctx, wdist *w, int64_t value) {
    fray_status st = wd_make(ctx, w, value, 1, 1);
    if (st == FRAY_OK)
        w->c[0] = 1;
    return st;
}

static int64_t wd_hi(const wdist *w) { return w->lo + (int64_t)w->n - 1; }

/* Puts every total >= t into the bucket of t, which becomes the tail.
 * Needs lo <= t <= the highest total. */
static void wd_fold(wdist *w, int64_t t) {
    size_t at = (size_t)(t - w->lo);
    for (size_t i = at + 1; i < w->n; i++)
        w->c[at] += w->c[i];
    w->n = at + 1;
    w->tail = true;
}

/* Drops empty buckets at both ends (never the tail). */
static void wd_trim(wdist *w) {
    size_t first = 0, end = w->n;
    while (!w->tail && end > 1 && w->c[end - 1] == 0)
        end--;
    while (first + 1 < end && w->c[first] == 0)
        first++;
    if (first > 0)
        memmove(w->c, w->c + first, (end - first) * sizeof *w->c);
    w->lo += (int64_t)first;
    w->n = end - first;
}

/*
 * The distribution of a + b. A tail bucket is treated as a point at its
 * value, then every total at or past the first place a tail can reach
 * (tail value + the other's lowest) is folded into the new tail: below it
 * every outcome is exact, at or above it is exactly "total >= T".
 */
static fray_status wd_conv(octx *ctx, const wdist *a, const wdist *b,
                           wdist *out) {
    fray__u128 den;
    if (!den_mul(a->den, b->den, &den))
        return FRAY_ERR_TOO_LARGE;
    fray_status st = wd_make(ctx, out, a->lo + b->lo, a->n + b->n - 1, den);
    if (st != FRAY_OK)
        return st;
    for (size_t i = 0; i < a->n; i++) {
        if (a->c[i] == 0)
            continue;
        for (size_t j = 0; j < b->n; j++)
            out->c[i + j] += a->c[i] * b->c[j];
    }
    int64_t t = INT64_MAX;
    if (a->tail && wd_hi(a) + b->lo < t)
        t = wd_hi(a) + b->lo;
    if (b->tail && wd_hi(b) + a->lo < t)
        t = wd_hi(b) + a->lo;
    if (t != INT64_MAX)
        wd_fold(out, t);
    return FRAY_OK;
}

/* Replaces *acc by *acc + *b; frees the old *acc (not b). */
static fray_status wd_conv_into(octx *ctx, wdist *acc, const wdist *b) {
    wdist sum;
    fray_status st = wd_conv(ctx, acc, b, &sum);
    if (st != FRAY_OK)
        return st;
    wd_free(ctx, acc);
    *acc = sum;
    return FRAY_OK;
}

/* The distribution of -X (never called with a tail: the parser forbids
 * subtracting a Wild Die). */
static void wd_negate(wdist *w) {
    for (size_t i = 0, j = w->n - 1; i < j; i++, j--) {
        fray__u128 t = w->c[i];
        w->c[i] = w->c[j];
        w->c[j] = t;
    }
    w->lo = -wd_hi(w);
}

/*
 * Sum of N dice of faces 1..m: N rounds of a sliding window (each new count
 * is the sum of the m counts below it), so the work is N * N * m, not
 * N * N * m * m. N = 0 gives the point 0.
 */
static fray_status wd_uniform(octx *ctx, int n_dice, int m, wdist *out) {
    fray__u128 den;
    if (!den_pow((fray__u128)m, n_dice, &den))
        return FRAY_ERR_TOO_LARGE;
    size_t n = (size_t)n_dice * (size_t)(m - 1) + 1;
    fray_status st = wd_make(ctx, out, n_dice, n, den);
    if (st != FRAY_OK)
        return st;
    fray__u128 *tmp = fray__alloc(ctx->alloc, n * sizeof *tmp);
    if (!tmp) {
        wd_free(ctx, out);
        return FRAY_ERR_NOMEM;
    }
    fray__u128 *cur = out->c, *next = tmp;
    cur[0] = 1;
    size_t len = 1;
    for (int d = 0; d < n_dice; d++) {
        size_t new_len = len + (size_t)m - 1;
        fray__u128 window = 0;
        for (size_t t = 0; t < new_len; t++) {
            if (t < len)
                window += cur[t];
            if (t >= (size_t)m)
                window -= cur[t - (size_t)m];
            next[t] = window;
        }
        fray__u128 *swap = cur;
        cur = next;
        next = swap;
        len = new_len;
    }
    if (cur != out->c)
        memcpy(out->c, cur, n * sizeof *cur);
    fray__free(ctx->alloc, tmp, n * sizeof *tmp);
    return FRAY_OK;
}

/*
 * NdS keeping the k highest (or lowest) dice, 0 < k < N. A DP over the face
 * values from the best to the worst: the state is (dice given a value so
 * far, sum of the kept ones among them); giving m more dice the current
 * face v has C(N - j, m) ways to choose which dice they are. Once k dice
 * have values the kept sum is settled, so such a state is finished at once:
 * the dice still free take any of the `rest` faces not yet reached, and
 * the m dice at v may be any number from k - j up to all of them:
 *   sum over m >= k - j of C(N - j, m) * rest^(N - j - m).
 * This counts each ordered roll exactly once (by its multiset of values
 * and the positions of each value) without listing the S^N rolls.
 */
static fray_status wd_keep(octx *ctx, int n_dice, int sides, int keep,
                           bool high, wdist *out) {
    fray__u128 den;
    if (!den_pow((fray__u128)sides, n_dice, &den))
        return FRAY_ERR_TOO_LARGE;
    if (n_dice > FRAY__BINOM_N)
        return FRAY_ERR_TOO_LARGE; /* only d2 and d3 get here: 3^80 < 2^127 */
    if (!ctx->binom) {
        ctx->binom = fray__alloc(ctx->alloc, sizeof *ctx->binom);
        if (!ctx->binom)
            return FRAY_ERR_NOMEM;
        fray__binom_init(ctx->binom);
    }
    const fray__binom *bin = ctx->binom;

    size_t width = (size_t)keep * (size_t)sides + 1; /* kept sums 0..kS */
    size_t cells = (size_t)keep * width;             /* j = 0..k-1 */
    fray_status st = wd_make(ctx, out, 0, width, den);
    if (st != FRAY_OK)
        return st;
    fray__u128 *cur = fray__alloc(ctx->alloc, 2 * cells * sizeof *cur);
    fray__u128 *pw = fray__alloc(ctx->alloc,
                                 (size_t)(n_dice + 1) * sizeof *pw);
    if (!cur || !pw) {
        fray__free(ctx->alloc, cur, 2 * cells * sizeof *cur);
        fray__free(ctx->alloc, pw, (size_t)(n_dice + 1) * sizeof *pw);
        wd_free(ctx, out);
        return FRAY_ERR_NOMEM;
    }
    fray__u128 *next = cur + cells;
    memset(cur, 0, cells * sizeof *cur);
    cur[0] = 1;

    for (int step = 0; step < sides; step++) {
        int v = high ? sides - step : 1 + step;
        int rest = sides - 1 - step;
        pw[0] = 1;
        for (int e = 1; e <= n_dice; e++)
            pw[e] = pw[e - 1] * (fray__u128)(unsigned)rest;
        memset(next, 0, cells * sizeof *next);
        for (int j = 0; j < keep; j++) {
            int free_dice = n_dice - j;
            fray__u128 finish = 0;
            for (int m = keep - j; m <= free_dice; m++)
                finish += fray__binom_get(bin, free_dice, m) *
                          pw[free_dice - m];
            /* kept sums of j dice valued >= v (or <= v) lie in 0..j*S */
            size_t s_end = (size_t)j * (size_t)sides;
            for (size_t s = 0; s <= s_end; s++) {
                fray__u128 x = cur[(size_t)j * width + s];
                if (x == 0)
                    continue;
                for (int m = 0; m < keep - j; m++)
                    next[(size_t)(j + m) * width + s + (size_t)(m * v)] +=
                        x * fray__binom_get(bin, free_dice, m);
                out->c[s + (size_t)((keep - j) * v)] += x * finish;
            }
        }
        fray__u128 *swap = cur;
        cur = next;
        next = swap;
    }
    /* States still short of k dice after the last face cannot happen. */
    wd_trim(out);
    fray__free(ctx->alloc, cur < next ? cur : next, 2 * cells * sizeof *cur);
    fray__free(ctx->alloc, pw, (size_t)(n_dice + 1) * sizeof *pw);
    return FRAY_OK;
}

/* sum_i c[i] * (a + b*i) / den over i in [i0, i1], where every weight
 * a + b*i is >= 0 and b is 1 or -1. Kept as whole + remainder/den so that
 * count * weight never needs more than 128 bits (den <= 2^127). */
static bool weighted_sum(const wdist *w, size_t i0, size_t i1, int64_t a,
                         int b, srat *out) {
    fray__u128 whole = 0, rem = 0, den = w->den;
    for (size_t i = i0; i <= i1 && i < w->n; i++) {
        uint64_t k = (uint64_t)(a + (int64_t)b * (int64_t)i);
        fray__u128 cq = w->c[i] / den, cr = w->c[i] % den;
        /* (pq, pr) = c * k by doubling; 2 * pr < 2 * den <= 2^128 */
        fray__u128 pq = 0, pr = 0;
        for (int bit = 63; bit >= 0; bit--) {
            pq = pq * 2;
            pr = pr * 2;
            if (pr >= den) {
                pr -= den;
                pq++;
            }
            if ((k >> bit) & 1u) {
                pq += cq;
                pr += cr;
                if (pr >= den) {
                    pr -= den;
                    pq++;
                }
            }
        }
        rem += pr;
        if (rem >= den) {
            rem -= den;
            pq++;
        }
        if (!fray__u128_add(whole, pq, &whole))
            return false;
    }
    srat frac = srat_make(rem, den, false);
    srat whole_r = srat_make(whole, 1, false);
    return srat_add(whole_r, frac, out);
}

/* The mean of a distribution with no tail, straight from its counts. */
static fray_status wd_mean(const wdist *w, srat *out) {
    srat part;
    if (!weighted_sum(w, 0, w->n - 1, 0, 1, &part) ||
        !srat_add(srat_int(w->lo), part, out))
        return FRAY_ERR_TOO_LARGE;
    return FRAY_OK;
}

/*
 * A D6 code of N dice whose last is the Wild Die, following K 6s of the
 * Wild Die exactly (ctx->depth). Over den = 6^(N-1) * 6^(K+1):
 *  - the Wild Die's value W: 2..5 have 6^K rolls each; 6(j+1)+s (j further
 *    6s, then s in 1..5) has 6^(K-1-j) for j < K; K+1 6s in a row (count
 *    1) give W >= 6K+7, the tail;
 *  - a first 1 (6^K rolls of the Wild Die) counts the plain dice's sum
 *    minus their highest: tuples with sum s and highest exactly h are
 *    A_h(s) - A_(h-1)(s), A_h being the sum of N-1 dice of faces 1..h.
 */
static fray_status wd_wild(octx *ctx, int n_dice, wdist *out) {
    int k = ctx->depth;
    int others = n_dice - 1;
    fray__u128 six_k, w_den;
    if (!den_pow(6, k, &six_k) || !den_mul(six_k, 6, &w_den))
        return FRAY_ERR_TOO_LARGE;

    wdist w = WDIST_EMPTY, plain = WDIST_EMPTY, with_w = WDIST_EMPTY;
    wdist minus_high = WDIST_EMPTY, a_prev = WDIST_EMPTY, a_cur = WDIST_EMPTY;
    fray_status st;

    /* The Wild Die when its first roll is not 1. */
    if ((st = wd_make(ctx, &w, 2, (size_t)(6 * k + 6), w_den)) != FRAY_OK)
        goto done;
    for (int v = 2; v <= 5; v++)
        w.c[v - 2] = six_k;
    fray__u128 weight = six_k;
    for (int j = 0; j < k; j++) {
        weight /= 6; /* 6^(K-1-j) */
        for (int s = 1; s <= 5; s++)
            w.c[6 * (j + 1) + s - 2] = weight;
    }
    w.c[w.n - 1] = 1;
    w.tail = true;

    if ((st = wd_uniform(ctx, others, 6, &plain)) != FRAY_OK ||
        (st = wd_conv(ctx, &plain, &w, &with_w)) != FRAY_OK)
        goto done;

    /* The first roll 1: the plain dice's sum minus their highest. */
    if (others == 0) {
        st = wd_point(ctx, &minus_high, 0);
    } else {
        st = wd_make(ctx, &minus_high, others - 1,
                     (size_t)(5 * (others - 1) + 1), plain.den);
        for (int h = 1; h <= 6 && st == FRAY_OK; h++) {
            if ((st = wd_uniform(ctx, others, h, &a_cur)) != FRAY_OK)
                break;
            for (size_t i = 0; i < a_cur.n; i++) {
                int64_t s = a_cur.lo + (int64_t)i;
                fray__u128 below =
                    a_prev.n > 0 && s <= wd_hi(&a_prev) ? a_prev.c[i] : 0;
                fray__u128 exact = a_cur.c[i] - below;
                if (exact != 0)
                    minus_high.c[(size_t)(s - h - minus_high.lo)] += exact;
            }
            wd_free(ctx, &a_prev);
            a_prev = a_cur;
            a_cur = WDIST_EMPTY;
        }
    }
    if (st != FRAY_OK)
        goto done;

    /* Mix: with_w already weighs the plain dice; the 1 case has 6^K rolls
     * of the Wild Die. Totals at or past the tail fold into it. */
    {
        int64_t tail_at = wd_hi(&with_w);
        int64_t lo = minus_high.lo < with_w.lo ? minus_high.lo : with_w.lo;
        if ((st = wd_make(ctx, out, lo, (size_t)(tail_at - lo + 1),
                          with_w.den)) != FRAY_OK)
            goto done;
        out->tail = true;
        for (size_t i = 0; i < with_w.n; i++)
            out->c[(size_t)(with_w.lo - lo) + i] += with_w.c[i];
        for (size_t i = 0; i < minus_high.n; i++) {
            int64_t v = minus_high.lo + (int64_t)i;
            if (v > tail_at)
                v = tail_at;
            out->c[(size_t)(v - lo)] += minus_high.c[i] * six_k;
        }
    }
done:
    wd_free(ctx, &w);
    wd_free(ctx, &plain);
    wd_free(ctx, &with_w);
    wd_free(ctx, &minus_high);
    wd_free(ctx, &a_prev);
    wd_free(ctx, &a_cur);
    return st;
}

/*
 * The exact mean of a Wild Die code of N dice, by linearity (the tail is
 * not truncated here). The Wild Die's first roll: 1 leaves the plain sum
 * minus its highest, 2..5 add themselves, 6 adds 6 plus an exploding die
 * whose mean E solves E = 7/2 + E/6, so E = 21/5. With S the plain sum
 * (mean 7(N-1)/2) and H its highest,
 *   mean = (5/6) E[S] + (1/6)(E[S] - E[H]) + (2+3+4+5)/6 + (6 + 21/5)/6
 *        = 7(N-1)/2 + 121/30 - E[H]/6,
 * and E[H] = sum over h of P(H >= h) = 6 - sum_{h=1..5} (h/6)^(N-1) for
 * N >= 2 (E[H] = 0 when there are no plain dice).
 */
static fray_status wild_mean(int n_dice, srat *out) {
    srat mean = srat_make(121, 30, false);
    if (n_dice == 1) {
        *out = mean;
        return FRAY_OK;
    }
    int others = n_dice - 1;
    fray__u128 den, powsum = 0;
    if (!den_pow(6, others, &den))
        return FRAY_ERR_TOO_LARGE;
    for (int h = 1; h <= 5; h++) {
        fray__u128 p;
        if (!den_pow((fray__u128)h, others, &p))
            return FRAY_ERR_TOO_LARGE;
        powsum += p; /* the five powers add to at most 5^N: no overflow */
    }
    srat high;
    if (!srat_add(srat_int(6), srat_neg(srat_make(powsum, den, false)), &high) ||
        !srat_div_int(high, 6, &high))
        return FRAY_ERR_TOO_LARGE;
    srat plain = srat_make((fray__u128)(7 * others), 2, false);
    if (!srat_add(mean, plain, &mean) || !srat_add(mean, srat_neg(high), out))
        return FRAY_ERR_TOO_LARGE;
    return FRAY_OK;
}

static fray_status expr_dist(octx *ctx, const fray_dice *d, bool dice_only,
                             wdist *out, srat *mean);

/* A term of issue 15's notation (rerolls, explosions, Fudge dice,
 * counts, parentheses, products and comparisons): counted by dice_big.c
 * and handed back in 128 bits when it fits. */
static fray_status big_term(octx *ctx, const fray__term *t, wdist *out,
                            srat *mean) {
    int64_t lo;
    size_t n;
    fray__u128 *c, den;
    fray_status st = fray__dice_term_u128(t, ctx->alloc, &lo, &n, &c, &den);
    if (st != FRAY_OK)
        return st;
    out->lo = lo;
    out->n = n;
    out->cap = n;
    out->c = c;
    out->den = den;
    out->tail = false;
    return wd_mean(out, mean);
}

/* One term's distribution and mean, signed. */
static fray_status term_dist(octx *ctx, const fray__term *t, wdist *out,
                             srat *mean) {
    fray_status st = FRAY_OK;
    *out = WDIST_EMPTY;
    if (!fray__term_is_plain(t))
        st = big_term(ctx, t, out, mean);
    else switch (t->kind) {
    case FRAY__TERM_CONST:
        st = wd_point(ctx, out, t->value);
        *mean = srat_int(t->value);
        break;
    case FRAY__TERM_DICE:
        if (t->wild) {
            st = wd_wild(ctx, t->count, out);
            if (st == FRAY_OK)
                st = wild_mean(t->count, mean);
        } else if (t->keep_mode == FRAY__KEEP_ALL || t->keep == t->count) {
            st = wd_uniform(ctx, t->count, t->sides, out);
            *mean = srat_make((fray__u128)t->count * (fray__u128)(t->sides + 1),
                              2, false);
        } else if (t->keep == 0) {
            st = wd_point(ctx, out, 0);
            *mean = srat_int(0);
        } else {
            st = wd_keep(ctx, t->count, t->sides, t->keep,
                         t->keep_mode == FRAY__KEEP_HIGH, out);
            if (st == FRAY_OK)
                st = wd_mean(out, mean);
        }
        break;
    case FRAY__TERM_WEAPON: {
        /* X{W}: the weapon's dice X times, its constant once. */
        wdist once;
        srat once_mean;
        st = expr_dist(ctx, t->weapon, true, &once, &once_mean);
        if (st != FRAY_OK)
            break;
        st = wd_point(ctx, out, 0);
        for (int x = 0; x < t->count && st == FRAY_OK; x++)
            st = wd_conv_into(ctx, out, &once);
        wd_free(ctx, &once);
        if (st == FRAY_OK) {
            out->lo += t->weapon->constant;
            if (!srat_mul_int(once_mean, t->count, mean) ||
                !srat_add(*mean, srat_int(t->weapon->constant), mean))
                st = FRAY_ERR_TOO_LARGE;
        }
        break;
    }
    case FRAY__TERM_GROUP:
    case FRAY__TERM_BINOP:
        break; /* not plain: big_term */
    }
    if (st != FRAY_OK) {
        wd_free(ctx, out);
        return st;
    }
    if (t->negative) {
        wd_negate(out);
        *mean = srat_neg(*mean);
    }
    return FRAY_OK;
}

/* The sum of d's terms (only the dice part when `dice_only`). */
static fray_status expr_dist(octx *ctx, const fray_dice *d, bool dice_only,
                             wdist *out, srat *mean) {
    int64_t shift = 0;
    srat total = srat_int(0);
    fray_status st = wd_point(ctx, out, 0);
    for (size_t i = 0; i < d->n_terms && st == FRAY_OK; i++) {
        const fray__term *t = &d->terms[i];
        if (t->kind == FRAY__TERM_CONST) {
            /* A constant only moves the distribution. */
            if (!dice_only)
                shift += t->negative ? -(int64_t)t->value : t->value;
            continue;
        }
        wdist td;
        srat tm;
        st = term_dist(ctx, t, &td, &tm);
        if (st != FRAY_OK)
            break;
        st = wd_conv_into(ctx, out, &td);
        wd_free(ctx, &td);
        if (st == FRAY_OK && !srat_add(total, tm, &total))
            st = FRAY_ERR_TOO_LARGE;
    }
    if (st != FRAY_OK) {
        wd_free(ctx, out);
        return st;
    }
    out->lo += shift;
    if (!srat_add(total, srat_int(shift), mean)) {
        wd_free(ctx, out);
        return FRAY_ERR_TOO_LARGE;
    }
    return FRAY_OK;
}

/*
 * The whole expression. A Wild Die's chain is followed K 6s deep, K growing
 * until the tail starts past exact_through and holds under a millionth of
 * the outcomes; K only adds a factor 6 per Wild Die to den, so a K too deep
 * to count is FRAY_ERR_TOO_LARGE.
 */
static fray_status dist_compute(octx *ctx, const fray_dice *d,
                                int64_t exact_through, wdist *out,
                                srat *mean) {
    ctx->depth = 1;
    for (;;) {
        fray_status st = expr_dist(ctx, d, false, out, mean);
        if (st != FRAY_OK || !out->tail)
            return st;
        int64_t tail_at = wd_hi(out);
        fray__u128 scaled;
        bool thin = fray__u128_mul(out->c[out->n - 1], 1000000, &scaled) &&
                    scaled < out->den;
        if (tail_at > exact_through && thin)
            return FRAY_OK;
        int step = 1;
        if (tail_at <= exact_through) {
            /* Each step moves the tail by at least 6: jump there at once. */
            int64_t gap = exact_through / 2 - tail_at / 2; /* no overflow */
            step = gap >= 64 ? 64 : (int)(gap / 3) + 1;
        }
        wd_free(ctx, out);
        ctx->depth += step;
        if (ctx->depth > 64) /* 6^65 > 2^127 */
            return FRAY_ERR_TOO_LARGE;
    }
}

/* Moves a working distribution into the caller's fray_dist. */
static fray_status dist_publish(octx *ctx, wdist *w, srat mean,
                                const fray_allocator *alloc, fray_dist *out) {
    fray_u128 *count = fray__alloc(alloc, w->n * sizeof *count);
    if (!count) {
        wd_free(ctx, w);
        return FRAY_ERR_NOMEM;
    }
    for (size_t i = 0; i < w->n; i++)
        count[i] = fray__u128_to(w->c[i]);
    out->lo = w->lo;
    out->n = w->n;
    out->count = count;
    out->den = fray__u128_to(w->den);
    out->tail = w->tail;
    out->mean = fray__ratio(mean.num, mean.den, mean.neg);
    out->alloc = alloc;
    wd_free(ctx, w);
    return FRAY_OK;
}

static void ctx_done(octx *ctx) {
    fray__free(ctx->alloc, ctx->binom, sizeof *ctx->binom);
    ctx->binom = NULL;
}

fray_status fray_dice_dist(const fray_dice *dice, int64_t exact_through,
                           const fray_allocator *alloc, fray_dist *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    if (!dice)
        return FRAY_ERR_INVALID;
    octx ctx = {alloc, 1, NULL};
    wdist w;
    srat mean;
    fray_status st = dist_compute(&ctx, dice, exact_through, &w, &mean);
    ctx_done(&ctx);
    if (st != FRAY_OK)
        return st;
    return dist_publish(&ctx, &w, mean, alloc, out);
}

void fray_dist_free(fray_dist *dist) {
    if (!dist)
        return;
    fray__free(dist->alloc, dist->count, dist->n * sizeof *dist->count);
    const fray_allocator *alloc = dist->alloc;
    memset(dist, 0, sizeof *dist);
    dist->alloc = alloc;
}

fray_ratio fray_dist_eq(const fray_dist *dist, int64_t t) {
    if (!dist->count || t < dist->lo || t > dist->lo + (int64_t)dist->n - 1)
        return fray__ratio(0, 1, false);
    return fray__ratio(fray__u128_from(dist->count[t - dist->lo]),
                       fray__u128_from(dist->den), false);
}

fray_ratio fray_dist_at_least(const fray_dist *dist, int64_t t) {
    if (!dist->count)
        return fray__ratio(0, 1, false);
    int64_t hi = dist->lo + (int64_t)dist->n - 1;
    if (t > hi && !dist->tail)
        return fray__ratio(0, 1, false);
    /* Past the tail's value only the tail's share is known: an upper
     * bound, as documented. */
    size_t from = t <= dist->lo ? 0 : t > hi ? dist->n - 1 : (size_t)(t - dist->lo);
    fray__u128 sum = 0;
    for (size_t i = from; i < dist->n; i++)
        sum += fray__u128_from(dist->count[i]);
    return fray__ratio(sum, fray__u128_from(dist->den), false);
}

/* ---- A d20 attack ------------------------------------------------------------------ */

/* Every total below 0 moves to 0 (seed 004: "The minimum damage an attack
 * can deal is 0"); *mean becomes E[max(0, X)] = E[X] + sum over v < 0 of
 * -v P(v). Needs the tail, if any, to start above 0. */
static fray_status wd_floor_zero(octx *ctx, wdist *w, srat *mean) {
    if (w->lo >= 0)
        return FRAY_OK;
    size_t zero_at = (size_t)(-w->lo); /* index of total 0 */
    srat below;
    if (!weighted_sum(w, 0, zero_at - 1, -w->lo, -1, &below) ||
        !srat_add(*mean, below, mean))
        return FRAY_ERR_TOO_LARGE;
    wdist f;
    size_t n = zero_at < w->n ? w->n - zero_at : 1;
    fray_status st = wd_make(ctx, &f, 0, n, w->den);
    if (st != FRAY_OK)
        return st;
    f.tail = w->tail;
    for (size_t i = 0; i < w->n; i++)
        f.c[i < zero_at ? 0 : i - zero_at] += w->c[i];
    wd_free(ctx, w);
    *w = f;
    return FRAY_OK;
}

/*
 * Misses (weight n_miss), ordinary hits (damage dist D) and crits (C) over
 * one denominator 20 * den(D) * den(C). A tail in C stays the tail of the
 * mix: totals at or past it fold into it.
 */
static fray_status attack_mix(octx *ctx, int n_miss, int n_hit, int n_crit,
                              const wdist *dmg, const wdist *crit,
                              wdist *out) {
    fray__u128 dd = dmg->den, dc = crit->den, den, w_miss, w_hit, w_crit;
    if (!den_mul(dd, dc, &den) || !den_mul(den, 20, &den) ||
        !den_mul(dd * dc, (fray__u128)n_miss, &w_miss) ||
        !den_mul(dc, (fray__u128)n_hit, &w_hit) ||
        !den_mul(dd, (fray__u128)n_crit, &w_crit))
        return FRAY_ERR_TOO_LARGE;
    int64_t hi = wd_hi(dmg) > wd_hi(crit) ? wd_hi(dmg) : wd_hi(crit);
    if (crit->tail && n_crit > 0)
        hi = wd_hi(crit);
    if (hi >= BUCKETS_MAX)
        return FRAY_ERR_TOO_LARGE;
    fray_status st = wd_make(ctx, out, 0, (size_t)hi + 1, den);
    if (st != FRAY_OK)
        return st;
    out->c[0] += w_miss;
    for (size_t i = 0; i < dmg->n; i++) {
        int64_t v = dmg->lo + (int64_t)i;
        out->c[v > hi ? hi : v] += dmg->c[i] * w_hit;
    }
    for (size_t i = 0; i < crit->n; i++)
        out->c[crit->lo + (int64_t)i] += crit->c[i] * w_crit;
    out->tail = crit->tail && n_crit > 0;
    wd_trim(out); /* with no crits possible, the top may be empty */
    return FRAY_OK;
}

fray_status fray_odds_d20_attack(const fray_d20_attack_query *q,
                                 const fray_allocator *alloc,
                                 fray_d20_attack_odds *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    out->damage.alloc = alloc;
    if (!q)
        return FRAY_ERR_INVALID;
    int crit_min = q->crit_min == 0 ? 20 : q->crit_min;
    if (crit_min < 1 || crit_min > 20)
        return FRAY_ERR_INVALID;

    /* Seed 004 "Attacks": a natural 1 misses and a natural 20 hits whatever
     * the total; "Critical Hits": a crit needs the total to hit as well. */
    int n_miss = 0, n_hit = 0, n_crit = 0;
    for (int nat = 1; nat <= 20; nat++) {
        bool reaches = (int64_t)nat + q->bonus >= q->defense;
        bool hit = nat != 1 && (nat == 20 || reaches);
        if (hit && reaches && nat >= crit_min)
            n_crit++;
        else if (hit)
            n_hit++;
        else
            n_miss++;
    }
    out->p_hit = fray__ratio((fray__u128)(n_hit + n_crit), 20, false);
    out->p_crit = fray__ratio((fray__u128)n_crit, 20, false);
    if (!q->damage)
        return FRAY_OK;

    int64_t dmax;
    if (!fray_dice_max(q->damage, &dmax))
        return FRAY_ERR_INVALID;

    octx ctx = {alloc, 1, NULL};
    wdist dmg = WDIST_EMPTY, crit = WDIST_EMPTY, mix = WDIST_EMPTY;
    srat m_dmg, m_crit, mean;
    fray_status st = dist_compute(&ctx, q->damage, INT64_MIN, &dmg, &m_dmg);
    if (st == FRAY_OK)
        st = wd_floor_zero(&ctx, &dmg, &m_dmg);
    /* A crit deals the damage's maximum plus crit_dice rolled; those dice
     * must be exact through -dmax so that flooring at 0 sees no tail. */
    if (st == FRAY_OK && q->crit_dice)
        st = dist_compute(&ctx, q->crit_dice, -dmax, &crit, &m_crit);
    else if (st == FRAY_OK) {
        st = wd_point(&ctx, &crit, 0);
        m_crit = srat_int(0);
    }
    if (st == FRAY_OK) {
        crit.lo += dmax;
        if (!srat_add(m_crit, srat_int(dmax), &m_crit))
            st = FRAY_ERR_TOO_LARGE;
    }
    if (st == FRAY_OK)
        st = wd_floor_zero(&ctx, &crit, &m_crit);
    if (st == FRAY_OK)
        st = attack_mix(&ctx, n_miss, n_hit, n_crit, &dmg, &crit, &mix);
    /* mean = (n_hit E[D] + n_crit E[C]) / 20 */
    srat a, b;
    if (st == FRAY_OK &&
        (!srat_mul_int(m_dmg, n_hit, &a) || !srat_mul_int(m_crit, n_crit, &b) ||
         !srat_add(a, b, &mean) || !srat_div_int(mean, 20, &mean)))
        st = FRAY_ERR_TOO_LARGE;
    ctx_done(&ctx);
    wd_free(&ctx, &dmg);
    wd_free(&ctx, &crit);
    if (st != FRAY_OK) {
        wd_free(&ctx, &mix);
        return st;
    }
    st = dist_publish(&ctx, &mix, mean, alloc, &out->damage);
    if (st == FRAY_OK)
        out->has_damage = true;
    return st;
}

void fray_d20_attack_odds_free(fray_d20_attack_odds *odds) {
    if (!odds)
        return;
    if (odds->has_damage)
        fray_dist_free(&odds->damage);
    odds->has_damage = false;
}

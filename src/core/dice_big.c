/*
 * dice_big.c - exact distributions of dice expressions with no limit on
 * the number of outcomes (issue 15 section 1): counts are GMP integers
 * (mpz), distributions are built by convolution.
 *
 * Two users: dice_odds.c hands the terms of the new notation (rerolls,
 * explosions, Fudge dice, counts of successes, parentheses, products,
 * divisions, comparisons) here and takes them back in 128 bits when they
 * fit; fray_dice_bigdist answers any expression, taking the 128-bit path
 * of dice_odds.c first and coming here only when it is too large.
 *
 * GMP allocates the digits of its numbers with its own allocator (the C
 * library's malloc): fray's allocator hook holds the arrays of numbers
 * only, and GMP ends the program when memory runs out. The work is
 * bounded before it starts (WORK_MAX, BUCKETS_MAX): an expression too
 * large to count in a few seconds is FRAY_ERR_TOO_LARGE, not a hang.
 */
#include "dice_int.h"
#include "bigq.h"

#include <gmp.h>
#include <math.h>
#include <string.h>

#include "fray/dice.h"

/* ---- Working distributions ---------------------------------------------------- */

/* count[i] outcomes of total lo + i out of den; with `tail` the last bucket
 * holds every total >= its value. cap: numbers allocated (n may shrink). */
typedef struct bd {
    int64_t lo;
    size_t n, cap;
    mpz_t *c;
    mpz_t den;
    bool tail;
    bool live; /* den initialised */
} bd;

typedef struct bctx {
    const fray_allocator *alloc;
    int depth;   /* 6s of a Wild Die followed exactly */
    double work; /* limb operations so far */
} bctx;

enum { BUCKETS_MAX = 1 << 22, BINOP_BUCKETS_MAX = 1 << 20 };
/* About ten seconds of mpz additions at the very most; 100d6 needs 10^5,
 * 1000d6 about 3 * 10^8. */
#define WORK_MAX 3e9

static const bd BD_EMPTY = {0, 0, 0, NULL, {{0, 0, NULL}}, false, false};

static bool spend(bctx *ctx, double n, const mpz_t den) {
    ctx->work += n * (double)(mpz_size(den) + 1);
    return ctx->work <= WORK_MAX;
}

static fray_status bd_make(bctx *ctx, bd *w, int64_t lo, size_t n) {
    *w = BD_EMPTY;
    if (n == 0 || n > BUCKETS_MAX)
        return FRAY_ERR_TOO_LARGE;
    w->c = fray__alloc(ctx->alloc, n * sizeof *w->c);
    if (!w->c)
        return FRAY_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        mpz_init(w->c[i]);
    mpz_init_set_ui(w->den, 1);
    w->live = true;
    w->lo = lo;
    w->n = n;
    w->cap = n;
    return FRAY_OK;
}

static void bd_free(bctx *ctx, bd *w) {
    if (w->c) {
        for (size_t i = 0; i < w->cap; i++)
            mpz_clear(w->c[i]);
        fray__free(ctx->alloc, w->c, w->cap * sizeof *w->c);
    }
    if (w->live)
        mpz_clear(w->den);
    *w = BD_EMPTY;
}

static fray_status bd_point(bctx *ctx, bd *w, int64_t v) {
    fray_status st = bd_make(ctx, w, v, 1);
    if (st == FRAY_OK)
        mpz_set_ui(w->c[0], 1);
    return st;
}

static int64_t bd_hi(const bd *w) { return w->lo + (int64_t)w->n - 1; }

static fray_status bd_copy(bctx *ctx, const bd *a, bd *out) {
    fray_status st = bd_make(ctx, out, a->lo, a->n);
    if (st != FRAY_OK)
        return st;
    for (size_t i = 0; i < a->n; i++)
        mpz_set(out->c[i], a->c[i]);
    mpz_set(out->den, a->den);
    out->tail = a->tail;
    return FRAY_OK;
}

/* Every total >= t into the bucket of t, which becomes the tail. */
static void bd_fold(bd *w, int64_t t) {
    size_t at = (size_t)(t - w->lo);
    for (size_t i = at + 1; i < w->n; i++) {
        mpz_add(w->c[at], w->c[at], w->c[i]);
        mpz_set_ui(w->c[i], 0);
    }
    w->n = at + 1;
    w->tail = true;
}

/* Drops empty buckets at both ends (never the tail). */
static void bd_trim(bd *w) {
    size_t first = 0, end = w->n;
    while (!w->tail && end > 1 && mpz_sgn(w->c[end - 1]) == 0)
        end--;
    while (first + 1 < end && mpz_sgn(w->c[first]) == 0)
        first++;
    for (size_t i = first; i < end; i++)
        mpz_swap(w->c[i - first], w->c[i]);
    w->lo += (int64_t)first;
    w->n = end - first;
}

static void bd_negate(bd *w) {
    for (size_t i = 0, j = w->n - 1; i < j; i++, j--)
        mpz_swap(w->c[i], w->c[j]);
    w->lo = -bd_hi(w);
}

/* a + b; a tail is handled as in dice_odds.c's wd_conv. */
static fray_status bd_conv(bctx *ctx, const bd *a, const bd *b, bd *out) {
    *out = BD_EMPTY;
    if (!spend(ctx, (double)a->n * (double)b->n, a->den) ||
        !spend(ctx, 0, b->den))
        return FRAY_ERR_TOO_LARGE;
    fray_status st = bd_make(ctx, out, a->lo + b->lo, a->n + b->n - 1);
    if (st != FRAY_OK)
        return st;
    mpz_mul(out->den, a->den, b->den);
    for (size_t i = 0; i < a->n; i++) {
        if (mpz_sgn(a->c[i]) == 0)
            continue;
        for (size_t j = 0; j < b->n; j++)
            mpz_addmul(out->c[i + j], a->c[i], b->c[j]);
    }
    int64_t t = INT64_MAX;
    if (a->tail && bd_hi(a) + b->lo < t)
        t = bd_hi(a) + b->lo;
    if (b->tail && bd_hi(b) + a->lo < t)
        t = bd_hi(b) + a->lo;
    if (t != INT64_MAX)
        bd_fold(out, t);
    return FRAY_OK;
}

static fray_status bd_conv_into(bctx *ctx, bd *acc, const bd *b) {
    bd sum;
    fray_status st = bd_conv(ctx, acc, b, &sum);
    if (st != FRAY_OK)
        return st;
    bd_free(ctx, acc);
    *acc = sum;
    return FRAY_OK;
}

/* The sum of N dice of faces first .. first + m - 1, by a sliding window:
 * N * N * m additions. */
static fray_status bd_uniform(bctx *ctx, int n_dice, int first, int m,
                              bd *out) {
    size_t n = (size_t)n_dice * (size_t)(m - 1) + 1;
    *out = BD_EMPTY;
    mpz_t den;
    mpz_init(den);
    mpz_ui_pow_ui(den, (unsigned long)m, (unsigned long)n_dice);
    bool ok = spend(ctx, (double)n_dice * (double)n, den);
    mpz_clear(den);
    if (!ok)
        return FRAY_ERR_TOO_LARGE;
    bd tmp;
    fray_status st = bd_make(ctx, out, (int64_t)n_dice * first, n);
    if (st != FRAY_OK)
        return st;
    if ((st = bd_make(ctx, &tmp, 0, n)) != FRAY_OK) {
        bd_free(ctx, out);
        return st;
    }
    mpz_ui_pow_ui(out->den, (unsigned long)m, (unsigned long)n_dice);
    mpz_t *cur = out->c, *next = tmp.c, window;
    mpz_init(window);
    mpz_set_ui(cur[0], 1);
    size_t len = 1;
    for (int d = 0; d < n_dice; d++) {
        size_t new_len = len + (size_t)m - 1;
        mpz_set_ui(window, 0);
        for (size_t t = 0; t < new_len; t++) {
            if (t < len)
                mpz_add(window, window, cur[t]);
            if (t >= (size_t)m)
                mpz_sub(window, window, cur[t - (size_t)m]);
            mpz_set(next[t], window);
        }
        mpz_t *swap = cur;
        cur = next;
        next = swap;
        len = new_len;
    }
    mpz_clear(window);
    if (cur != out->c)
        for (size_t i = 0; i < n; i++)
            mpz_swap(out->c[i], cur[i]);
    bd_free(ctx, &tmp);
    return FRAY_OK;
}

/* The sum of N independent copies of a die: by squaring. */
static fray_status bd_power(bctx *ctx, const bd *die, int n_dice, bd *out) {
    bd base;
    fray_status st = bd_point(ctx, out, 0);
    if (st != FRAY_OK)
        return st;
    if ((st = bd_copy(ctx, die, &base)) != FRAY_OK) {
        bd_free(ctx, out);
        return st;
    }
    for (unsigned k = (unsigned)n_dice; k > 0 && st == FRAY_OK; k >>= 1) {
        if (k & 1u)
            st = bd_conv_into(ctx, out, &base);
        if (st == FRAY_OK && k > 1) {
            bd sq;
            st = bd_conv(ctx, &base, &base, &sq);
            if (st == FRAY_OK) {
                bd_free(ctx, &base);
                base = sq;
            }
        }
    }
    bd_free(ctx, &base);
    if (st != FRAY_OK)
        bd_free(ctx, out);
    return st;
}

/* `first` with its highest face M (the last bucket) replaced by M plus a
 * roll of `rest`: an explosion. */
static fray_status bd_explode_step(bctx *ctx, const bd *first, const bd *rest,
                                   bd *out) {
    int64_t m = bd_hi(first);
    int64_t hi = m + bd_hi(rest);
    fray_status st = bd_make(ctx, out, first->lo, (size_t)(hi - first->lo + 1));
    if (st != FRAY_OK)
        return st;
    mpz_mul(out->den, first->den, rest->den);
    for (size_t i = 0; i + 1 < first->n; i++)
        mpz_mul(out->c[i], first->c[i], rest->den);
    for (size_t j = 0; j < rest->n; j++)
        mpz_addmul(out->c[(size_t)(m + rest->lo + (int64_t)j - first->lo)],
                   first->c[first->n - 1], rest->c[j]);
    return FRAY_OK;
}

/* One die of a DICE term: its first roll (rerolled once when it matches)
 * and its explosions (extra rolls are never rerolled). */
static fray_status bd_die(bctx *ctx, const fray__term *t, bd *out) {
    int s = t->sides;
    int first = t->fudge ? -1 : 1;
    bd plain, roll = BD_EMPTY, e = BD_EMPTY;
    fray_status st = bd_uniform(ctx, 1, first, s, &plain);
    if (st != FRAY_OK)
        return st;
    if (t->reroll_cmp != FRAY__CMP_NONE) {
        /* over s * s: a face that matches is rolled again (s ways each) */
        unsigned long matching = 0;
        for (int f = first; f < first + s; f++)
            matching += fray__cmp_holds(t->reroll_cmp, f, t->reroll_at);
        if ((st = bd_make(ctx, &roll, first, (size_t)s)) == FRAY_OK) {
            mpz_set_ui(roll.den, (unsigned long)s * (unsigned long)s);
            for (int f = first; f < first + s; f++)
                mpz_set_ui(roll.c[f - first],
                           matching + (fray__cmp_holds(t->reroll_cmp, f, t->reroll_at)
                                           ? 0
                                           : (unsigned long)s));
        }
    } else {
        st = bd_copy(ctx, &plain, &roll);
    }
    if (st == FRAY_OK && t->explode > 0) {
        /* e: a die that may explode t->explode - 1 more times */
        st = bd_copy(ctx, &plain, &e);
        for (int k = 1; k < t->explode && st == FRAY_OK; k++) {
            bd next;
            st = bd_explode_step(ctx, &plain, &e, &next);
            if (st == FRAY_OK) {
                bd_free(ctx, &e);
                e = next;
            }
        }
        if (st == FRAY_OK)
            st = bd_explode_step(ctx, &roll, &e, out);
    } else if (st == FRAY_OK) {
        *out = roll;
        roll = BD_EMPTY;
    }
    bd_free(ctx, &plain);
    bd_free(ctx, &roll);
    bd_free(ctx, &e);
    return st;
}

/* How many of N dice pass a comparison: a binomial. */
static fray_status bd_count(bctx *ctx, const bd *die, int n_dice,
                            fray__cmp cmp, int32_t at, bd *out) {
    mpz_t p, q, a, b;
    mpz_inits(p, q, a, b, NULL);
    for (size_t i = 0; i < die->n; i++)
        if (fray__cmp_holds(cmp, die->lo + (int64_t)i, at))
            mpz_add(p, p, die->c[i]);
    mpz_sub(q, die->den, p);
    fray_status st = bd_make(ctx, out, 0, (size_t)n_dice + 1);
    if (st == FRAY_OK) {
        mpz_pow_ui(out->den, die->den, (unsigned long)n_dice);
        for (int c = 0; c <= n_dice; c++) {
            mpz_bin_uiui(out->c[c], (unsigned long)n_dice, (unsigned long)c);
            mpz_pow_ui(a, p, (unsigned long)c);
            mpz_pow_ui(b, q, (unsigned long)(n_dice - c));
            mpz_mul(out->c[c], out->c[c], a);
            mpz_mul(out->c[c], out->c[c], b);
        }
        bd_trim(out);
    }
    mpz_clears(p, q, a, b, NULL);
    return st;
}

/*
 * N dice of a die keeping the k highest (or lowest), 0 < k < N: the DP of
 * dice_odds.c's wd_keep with weighted faces. Faces go from the best to
 * the worst; a state is (dice given a face so far j < k, their sum). At a
 * face v of weight w, m more dice take it in C(N - j, m) w^m ways; once k
 * dice have faces the kept sum is settled and the N - j - m others take
 * any worse face, R^(N - j - m) ways with R the weight of the worse faces.
 */
static fray_status bd_keep(bctx *ctx, const bd *die, int n_dice, int keep,
                           bool high, bd *out) {
    int64_t vmin = die->lo, vmax = bd_hi(die);
    int64_t s_lo = keep * vmin < 0 ? keep * vmin : 0;
    int64_t s_hi = keep * vmax > 0 ? keep * vmax : 0;
    size_t width = (size_t)(s_hi - s_lo + 1);
    size_t cells = (size_t)keep * width;
    if (!spend(ctx, (double)die->n * (double)cells * (double)keep, die->den) ||
        cells > BUCKETS_MAX)
        return FRAY_ERR_TOO_LARGE;
    fray_status st = bd_make(ctx, out, s_lo, width);
    if (st != FRAY_OK)
        return st;
    mpz_pow_ui(out->den, die->den, (unsigned long)n_dice);
    bd cur, next, pw, pr, coef;
    cur = next = pw = pr = coef = BD_EMPTY;
    if ((st = bd_make(ctx, &cur, 0, cells)) != FRAY_OK ||
        (st = bd_make(ctx, &next, 0, cells)) != FRAY_OK ||
        (st = bd_make(ctx, &pw, 0, (size_t)n_dice + 1)) != FRAY_OK ||
        (st = bd_make(ctx, &pr, 0, (size_t)n_dice + 1)) != FRAY_OK ||
        (st = bd_make(ctx, &coef, 0, (size_t)keep)) != FRAY_OK)
        goto done;
    mpz_t rest, finish, term, x;
    mpz_inits(rest, finish, term, x, NULL);
    mpz_set(rest, die->den);
    mpz_set_ui(cur.c[(size_t)(0 - s_lo)], 1);
    for (size_t step = 0; step < die->n; step++) {
        size_t fi = high ? die->n - 1 - step : step;
        int64_t v = die->lo + (int64_t)fi;
        mpz_srcptr w = die->c[fi];
        if (mpz_sgn(w) == 0)
            continue;
        mpz_sub(rest, rest, w);
        mpz_set_ui(pw.c[0], 1);
        mpz_set_ui(pr.c[0], 1);
        for (int e = 1; e <= n_dice; e++) {
            mpz_mul(pw.c[e], pw.c[e - 1], w);
            mpz_mul(pr.c[e], pr.c[e - 1], rest);
        }
        for (size_t i = 0; i < cells; i++)
            mpz_set_ui(next.c[i], 0);
        for (int j = 0; j < keep; j++) {
            unsigned long free_dice = (unsigned long)(n_dice - j);
            mpz_set_ui(finish, 0);
            for (unsigned long m = (unsigned long)(keep - j); m <= free_dice; m++) {
                mpz_bin_uiui(term, free_dice, m);
                mpz_mul(term, term, pw.c[m]);
                mpz_addmul(finish, term, pr.c[free_dice - m]);
            }
            for (int m = 0; m < keep - j; m++) {
                mpz_bin_uiui(coef.c[m], free_dice, (unsigned long)m);
                mpz_mul(coef.c[m], coef.c[m], pw.c[m]);
            }
            for (size_t si = 0; si < width; si++) {
                mpz_srcptr cx = cur.c[(size_t)j * width + si];
                if (mpz_sgn(cx) == 0)
                    continue;
                int64_t s = s_lo + (int64_t)si;
                for (int m = 0; m < keep - j; m++)
                    mpz_addmul(next.c[(size_t)(j + m) * width +
                                      (size_t)(s + m * v - s_lo)],
                               cx, coef.c[m]);
                mpz_addmul(out->c[(size_t)(s + (keep - j) * v - s_lo)], cx,
                           finish);
            }
        }
        bd tmp = cur;
        cur = next;
        next = tmp;
    }
    mpz_clears(rest, finish, term, x, NULL);
    bd_trim(out);
done:
    bd_free(ctx, &cur);
    bd_free(ctx, &next);
    bd_free(ctx, &pw);
    bd_free(ctx, &pr);
    bd_free(ctx, &coef);
    if (st != FRAY_OK)
        bd_free(ctx, out);
    return st;
}

/* a op b over every pair of independent outcomes. */
static fray_status bd_binop(bctx *ctx, fray__op op, fray__cmp cmp, const bd *a,
                            const bd *b, bd *out) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    int64_t x[2] = {a->lo, bd_hi(a)}, y[2] = {b->lo, bd_hi(b)};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int64_t v = op == FRAY__OP_MUL ? x[i] * y[j]
                        : op == FRAY__OP_DIV ? x[i] / y[j]
                                             : 0;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    if (op == FRAY__OP_CMP) {
        lo = 0;
        hi = 1;
    }
    /* Products spread few outcomes over wide ranges, and distributions
     * are dense: at most a million totals here ("88828*1d6*1d6" spans 3
     * million for 36 outcomes; refused rather than slow). */
    if (hi - lo >= BINOP_BUCKETS_MAX ||
        !spend(ctx, (double)a->n * (double)b->n, a->den) ||
        !spend(ctx, 0, b->den))
        return FRAY_ERR_TOO_LARGE;
    fray_status st = bd_make(ctx, out, lo, (size_t)(hi - lo + 1));
    if (st != FRAY_OK)
        return st;
    mpz_mul(out->den, a->den, b->den);
    for (size_t i = 0; i < a->n; i++) {
        if (mpz_sgn(a->c[i]) == 0)
            continue;
        int64_t u = a->lo + (int64_t)i;
        for (size_t j = 0; j < b->n; j++) {
            int64_t v = b->lo + (int64_t)j;
            int64_t r = op == FRAY__OP_MUL ? u * v
                        : op == FRAY__OP_DIV ? u / v
                                             : (fray__cmp_holds(cmp, u, v) ? 1 : 0);
            mpz_addmul(out->c[(size_t)(r - lo)], a->c[i], b->c[j]);
        }
    }
    bd_trim(out);
    return FRAY_OK;
}

/*
 * A D6 code of N dice whose last is the Wild Die, its 6s followed
 * ctx->depth deep (dice_odds.c's wd_wild, whose comment derives it).
 * With out_minus_high, the sum of the plain dice less their highest (what
 * a first 1 leaves) is handed back too.
 */
static fray_status bd_minus_high(bctx *ctx, int others, bd *out) {
    if (others == 0)
        return bd_point(ctx, out, 0);
    fray_status st = bd_make(ctx, out, others - 1, (size_t)(5 * (others - 1) + 1));
    if (st != FRAY_OK)
        return st;
    mpz_ui_pow_ui(out->den, 6, (unsigned long)others);
    bd prev = BD_EMPTY, cur = BD_EMPTY;
    mpz_t exact;
    mpz_init(exact);
    for (int h = 1; h <= 6 && st == FRAY_OK; h++) {
        if ((st = bd_uniform(ctx, others, 1, h, &cur)) != FRAY_OK)
            break;
        for (size_t i = 0; i < cur.n; i++) {
            int64_t s = cur.lo + (int64_t)i;
            if (prev.n > 0 && s <= bd_hi(&prev))
                mpz_sub(exact, cur.c[i], prev.c[i]);
            else
                mpz_set(exact, cur.c[i]);
            if (mpz_sgn(exact) != 0) /* a highest of h needs s >= h + m - 1 */
                mpz_add(out->c[(size_t)(s - h - out->lo)],
                        out->c[(size_t)(s - h - out->lo)], exact);
        }
        bd_free(ctx, &prev);
        prev = cur;
        cur = BD_EMPTY;
    }
    mpz_clear(exact);
    bd_free(ctx, &prev);
    bd_free(ctx, &cur);
    if (st != FRAY_OK)
        bd_free(ctx, out);
    return st;
}

static fray_status bd_wild(bctx *ctx, int n_dice, bd *out) {
    int k = ctx->depth, others = n_dice - 1;
    bd w = BD_EMPTY, plain = BD_EMPTY, with_w = BD_EMPTY, mh = BD_EMPTY;
    mpz_t six_k;
    mpz_init(six_k);
    mpz_ui_pow_ui(six_k, 6, (unsigned long)k);
    fray_status st = bd_make(ctx, &w, 2, (size_t)(6 * k + 6));
    if (st != FRAY_OK)
        goto done;
    mpz_mul_ui(w.den, six_k, 6);
    for (int v = 2; v <= 5; v++)
        mpz_set(w.c[v - 2], six_k);
    {
        mpz_t weight;
        mpz_init_set(weight, six_k);
        for (int j = 0; j < k; j++) {
            mpz_divexact_ui(weight, weight, 6); /* 6^(K-1-j) */
            for (int s = 1; s <= 5; s++)
                mpz_set(w.c[6 * (j + 1) + s - 2], weight);
        }
        mpz_clear(weight);
    }
    mpz_set_ui(w.c[w.n - 1], 1);
    w.tail = true;
    if ((st = bd_uniform(ctx, others, 1, 6, &plain)) != FRAY_OK ||
        (st = bd_conv(ctx, &plain, &w, &with_w)) != FRAY_OK ||
        (st = bd_minus_high(ctx, others, &mh)) != FRAY_OK)
        goto done;
    {
        int64_t tail_at = bd_hi(&with_w);
        int64_t lo = mh.lo < with_w.lo ? mh.lo : with_w.lo;
        if ((st = bd_make(ctx, out, lo, (size_t)(tail_at - lo + 1))) != FRAY_OK)
            goto done;
        out->tail = true;
        mpz_set(out->den, with_w.den);
        for (size_t i = 0; i < with_w.n; i++)
            mpz_add(out->c[(size_t)(with_w.lo - lo) + i],
                    out->c[(size_t)(with_w.lo - lo) + i], with_w.c[i]);
        for (size_t i = 0; i < mh.n; i++) {
            int64_t v = mh.lo + (int64_t)i;
            if (v > tail_at)
                v = tail_at;
            mpz_addmul(out->c[(size_t)(v - lo)], mh.c[i], six_k);
        }
    }
done:
    mpz_clear(six_k);
    bd_free(ctx, &w);
    bd_free(ctx, &plain);
    bd_free(ctx, &with_w);
    bd_free(ctx, &mh);
    return st;
}

static fray_status big_expr(bctx *ctx, const fray_dice *d, bool dice_only,
                            bd *out);

/* One term's distribution, its sign left out. */
static fray_status big_term(bctx *ctx, const fray__term *t, bd *out) {
    fray_status st;
    bd die = BD_EMPTY, a = BD_EMPTY, b = BD_EMPTY;
    *out = BD_EMPTY;
    switch (t->kind) {
    case FRAY__TERM_CONST:
        return bd_point(ctx, out, t->value);
    case FRAY__TERM_DICE: {
        bool keeps = t->keep_mode != FRAY__KEEP_ALL && t->keep < t->count;
        if (t->wild)
            return bd_wild(ctx, t->count, out);
        if (keeps && t->keep == 0)
            return bd_point(ctx, out, 0);
        if (!keeps && t->count_cmp == FRAY__CMP_NONE && t->explode == 0 &&
            t->reroll_cmp == FRAY__CMP_NONE)
            return bd_uniform(ctx, t->count, t->fudge ? -1 : 1, t->sides, out);
        if ((st = bd_die(ctx, t, &die)) != FRAY_OK)
            return st;
        if (t->count_cmp != FRAY__CMP_NONE)
            st = bd_count(ctx, &die, t->count, t->count_cmp, t->count_at, out);
        else if (keeps)
            st = bd_keep(ctx, &die, t->count, t->keep,
                         t->keep_mode == FRAY__KEEP_HIGH, out);
        else
            st = bd_power(ctx, &die, t->count, out);
        bd_free(ctx, &die);
        return st;
    }
    case FRAY__TERM_WEAPON:
        if ((st = big_expr(ctx, t->weapon, true, &a)) != FRAY_OK)
            return st;
        st = bd_power(ctx, &a, t->count, out);
        bd_free(ctx, &a);
        if (st == FRAY_OK)
            out->lo += t->weapon->constant;
        return st;
    case FRAY__TERM_GROUP:
        return big_expr(ctx, t->sub, false, out);
    case FRAY__TERM_BINOP:
    default:
        if ((st = big_expr(ctx, t->sub, false, &a)) == FRAY_OK &&
            (st = big_expr(ctx, t->sub2, false, &b)) == FRAY_OK)
            st = bd_binop(ctx, t->op, t->cmp, &a, &b, out);
        bd_free(ctx, &a);
        bd_free(ctx, &b);
        return st;
    }
}

/* The sum of d's terms (only the dice part when `dice_only`). */
static fray_status big_expr(bctx *ctx, const fray_dice *d, bool dice_only,
                            bd *out) {
    int64_t shift = 0;
    fray_status st = bd_point(ctx, out, 0);
    for (size_t i = 0; i < d->n_terms && st == FRAY_OK; i++) {
        const fray__term *t = &d->terms[i];
        if (t->kind == FRAY__TERM_CONST) {
            if (!dice_only)
                shift += t->negative ? -(int64_t)t->value : t->value;
            continue;
        }
        bd td;
        if ((st = big_term(ctx, t, &td)) != FRAY_OK)
            break;
        if (t->negative)
            bd_negate(&td);
        st = bd_conv_into(ctx, out, &td);
        bd_free(ctx, &td);
    }
    if (st != FRAY_OK) {
        bd_free(ctx, out);
        return st;
    }
    out->lo += shift;
    return FRAY_OK;
}

/* ---- Back to 128 bits, for dice_odds.c -------------------------------------------- */

static bool fits_127(const mpz_t v) {
    return mpz_sizeinbase(v, 2) <= 127 ||
           (mpz_sizeinbase(v, 2) == 128 && mpz_scan1(v, 0) == 127);
}

static fray__u128 to_u128(const mpz_t v) {
    fray__u128 r = 0;
    size_t words = 0;
    uint64_t buf[2] = {0, 0};
    mpz_export(buf, &words, -1, sizeof buf[0], 0, 0, v);
    r = ((fray__u128)buf[1] << 64) | buf[0];
    return r;
}

void fray__mpq_set_u128(mpq_t q, fray_u128 num, fray_u128 den) {
    uint64_t n[2] = {num.lo, num.hi}, d[2] = {den.lo, den.hi};
    mpz_import(mpq_numref(q), 2, -1, sizeof n[0], 0, 0, n);
    mpz_import(mpq_denref(q), 2, -1, sizeof d[0], 0, 0, d);
    mpq_canonicalize(q);
}

static void from_u128(mpz_t out, fray__u128 v) {
    uint64_t buf[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
    mpz_import(out, 2, -1, sizeof buf[0], 0, 0, buf);
}

fray_status fray__dice_term_u128(const fray__term *t,
                                 const fray_allocator *alloc, int64_t *lo,
                                 size_t *n, fray__u128 **counts,
                                 fray__u128 *den) {
    bctx ctx = {alloc, 1, 0};
    bd w;
    *counts = NULL;
    fray_status st = big_term(&ctx, t, &w);
    if (st != FRAY_OK)
        return st;
    if (!fits_127(w.den)) {
        bd_free(&ctx, &w);
        return FRAY_ERR_TOO_LARGE;
    }
    fray__u128 *c = fray__alloc(alloc, w.n * sizeof *c);
    if (!c) {
        bd_free(&ctx, &w);
        return FRAY_ERR_NOMEM;
    }
    for (size_t i = 0; i < w.n; i++)
        c[i] = to_u128(w.c[i]);
    *lo = w.lo;
    *n = w.n;
    *counts = c;
    *den = to_u128(w.den);
    bd_free(&ctx, &w);
    return FRAY_OK;
}

/* ---- Moments ---------------------------------------------------------------------- */

/* mean and variance of a distribution with no tail, from its counts. */
static void bd_moments(const bd *w, mpq_t mean, mpq_t var) {
    mpz_t s1, s2, v, t;
    mpz_inits(s1, s2, v, t, NULL);
    for (size_t i = 0; i < w->n; i++) {
        if (mpz_sgn(w->c[i]) == 0)
            continue;
        mpz_set_si(v, (long)(w->lo + (int64_t)i));
        mpz_mul(t, w->c[i], v);
        mpz_add(s1, s1, t);
        mpz_mul(t, t, v);
        mpz_add(s2, s2, t);
    }
    mpq_t e2;
    mpq_init(e2);
    mpq_set_num(mean, s1);
    mpq_set_den(mean, w->den);
    mpq_canonicalize(mean);
    mpq_set_num(e2, s2);
    mpq_set_den(e2, w->den);
    mpq_canonicalize(e2);
    mpq_mul(var, mean, mean);
    mpq_sub(var, e2, var);
    mpq_clear(e2);
    mpz_clears(s1, s2, v, t, NULL);
}

static void q_set(mpq_t q, long num, unsigned long den) {
    mpq_set_si(q, num, den);
    mpq_canonicalize(q);
}

/*
 * The exact mean and variance of a Wild Die code of N dice (unbounded, so
 * not from a truncated distribution). With S the sum of the N - 1 plain
 * dice and H their highest, the Wild Die's first roll F: F = 1 (1/6)
 * leaves S - H; otherwise T = S + Y, Y independent of S, where Y is 2..5
 * (4/5 of the time) or 6 + E, E a die exploding on 6 without end:
 *   E[E] = 21/5, E[E^2] = 707/25 (from E = X + [X = 6] E'),
 *   E[Y] = 121/25, E[Y^2] = 4217/125,
 *   E[T] = E[S - H]/6 + 5/6 (E[S] + E[Y]),
 *   E[T^2] = E[(S - H)^2]/6 + 5/6 (E[S^2] + 2 E[S] E[Y] + E[Y^2]).
 */
static fray_status wild_moments(bctx *ctx, int n_dice, mpq_t mean, mpq_t var) {
    int m = n_dice - 1;
    bd mh;
    fray_status st = bd_minus_high(ctx, m, &mh);
    if (st != FRAY_OK)
        return st;
    mpq_t mh_mean, mh_var, mh_e2, es, es2, ey, ey2, a, b;
    mpq_inits(mh_mean, mh_var, mh_e2, es, es2, ey, ey2, a, b, NULL);
    bd_moments(&mh, mh_mean, mh_var);
    mpq_mul(mh_e2, mh_mean, mh_mean);
    mpq_add(mh_e2, mh_e2, mh_var); /* E[(S-H)^2] */
    q_set(es, 7 * m, 2);
    q_set(es2, 35 * m, 12);
    mpq_mul(a, es, es);
    mpq_add(es2, es2, a); /* E[S^2] */
    q_set(ey, 121, 25);
    q_set(ey2, 4217, 125);
    /* mean */
    mpq_add(a, es, ey);
    q_set(b, 5, 6);
    mpq_mul(a, a, b);
    q_set(b, 1, 6);
    mpq_mul(b, b, mh_mean);
    mpq_add(mean, a, b);
    /* second moment */
    mpq_mul(a, es, ey);
    mpq_add(a, a, a);
    mpq_add(a, a, es2);
    mpq_add(a, a, ey2);
    q_set(b, 5, 6);
    mpq_mul(a, a, b);
    q_set(b, 1, 6);
    mpq_mul(b, b, mh_e2);
    mpq_add(a, a, b);
    mpq_mul(b, mean, mean);
    mpq_sub(var, a, b);
    mpq_clears(mh_mean, mh_var, mh_e2, es, es2, ey, ey2, a, b, NULL);
    bd_free(ctx, &mh);
    return FRAY_OK;
}

/* Mean and variance by linearity over independent terms: what a Wild
 * Die's tail hides is then still counted exactly. */
static fray_status expr_moments(bctx *ctx, const fray_dice *d, bool dice_only,
                                mpq_t mean, mpq_t var) {
    mpq_t tm, tv;
    mpq_inits(tm, tv, NULL);
    mpq_set_ui(mean, 0, 1);
    mpq_set_ui(var, 0, 1);
    fray_status st = FRAY_OK;
    for (size_t i = 0; i < d->n_terms && st == FRAY_OK; i++) {
        const fray__term *t = &d->terms[i];
        if (t->kind == FRAY__TERM_CONST) {
            if (dice_only)
                continue;
            mpq_set_si(tm, t->value, 1);
            mpq_set_ui(tv, 0, 1);
        } else if (t->kind == FRAY__TERM_DICE && t->wild) {
            st = wild_moments(ctx, t->count, tm, tv);
        } else if (t->kind == FRAY__TERM_WEAPON && t->weapon->has_wild) {
            st = expr_moments(ctx, t->weapon, true, tm, tv);
            mpq_t x;
            mpq_init(x);
            mpq_set_si(x, t->count, 1);
            mpq_mul(tm, tm, x);
            mpq_mul(tv, tv, x);
            mpq_set_si(x, t->weapon->constant, 1);
            mpq_add(tm, tm, x);
            mpq_clear(x);
        } else {
            bd w;
            if ((st = big_term(ctx, t, &w)) == FRAY_OK) {
                bd_moments(&w, tm, tv);
                bd_free(ctx, &w);
            }
        }
        if (t->negative)
            mpq_neg(tm, tm);
        mpq_add(mean, mean, tm);
        mpq_add(var, var, tv);
    }
    mpq_clears(tm, tv, NULL);
    return st;
}

/* ---- The public big distribution ---------------------------------------------------- */

struct fray_bigdist {
    const fray_allocator *alloc;
    bd w;
    bd cum; /* cum.c[i]: the outcomes of totals lo .. lo + i */
    mpq_t mean, var;
};

/* The whole expression with GMP; Wild Dice followed deeper until the
 * tail starts past exact_through and holds under a millionth (as
 * dice_odds.c's dist_compute). */
static fray_status big_compute(bctx *ctx, const fray_dice *d,
                               int64_t exact_through, bd *out) {
    ctx->depth = 1;
    for (;;) {
        fray_status st = big_expr(ctx, d, false, out);
        if (st != FRAY_OK || !out->tail)
            return st;
        int64_t tail_at = bd_hi(out);
        mpz_t scaled;
        mpz_init(scaled);
        mpz_mul_ui(scaled, out->c[out->n - 1], 1000000);
        bool thin = mpz_cmp(scaled, out->den) < 0;
        mpz_clear(scaled);
        if (tail_at > exact_through && thin)
            return FRAY_OK;
        int step = 1;
        if (tail_at <= exact_through) {
            int64_t gap = exact_through / 2 - tail_at / 2;
            step = gap >= 64 ? 64 : (int)(gap / 3) + 1;
        }
        bd_free(ctx, out);
        ctx->depth += step;
        if (ctx->depth > 2000)
            return FRAY_ERR_TOO_LARGE;
    }
}

fray_status fray_dice_bigdist(const fray_dice *dice, int64_t exact_through,
                              const fray_allocator *alloc,
                              fray_bigdist **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    if (!dice)
        return FRAY_ERR_INVALID;
    fray_bigdist *b = fray__alloc(alloc, sizeof *b);
    if (!b)
        return FRAY_ERR_NOMEM;
    b->alloc = alloc;
    b->w = BD_EMPTY;
    b->cum = BD_EMPTY;
    bctx ctx = {alloc, 1, 0};
    /* The 128-bit path first: small rolls stay as fast as they were. */
    fray_dist small;
    fray_status st = fray_dice_dist(dice, exact_through, alloc, &small);
    if (st == FRAY_OK) {
        st = bd_make(&ctx, &b->w, small.lo, small.n);
        if (st == FRAY_OK) {
            for (size_t i = 0; i < small.n; i++)
                from_u128(b->w.c[i], fray__u128_from(small.count[i]));
            from_u128(b->w.den, fray__u128_from(small.den));
            b->w.tail = small.tail;
        }
        fray_dist_free(&small);
    } else if (st == FRAY_ERR_TOO_LARGE) {
        st = big_compute(&ctx, dice, exact_through, &b->w);
    }
    if (st != FRAY_OK) {
        bd_free(&ctx, &b->w);
        fray__free(alloc, b, sizeof *b);
        return st;
    }
    mpq_inits(b->mean, b->var, NULL);
    if ((st = bd_make(&ctx, &b->cum, b->w.lo, b->w.n)) != FRAY_OK) {
        fray_bigdist_free(b);
        return st;
    }
    for (size_t i = 0; i < b->w.n; i++) {
        if (i == 0)
            mpz_set(b->cum.c[0], b->w.c[0]);
        else
            mpz_add(b->cum.c[i], b->cum.c[i - 1], b->w.c[i]);
    }
    if (!b->w.tail) {
        bd_moments(&b->w, b->mean, b->var);
    } else {
        ctx.work = 0;
        st = expr_moments(&ctx, dice, false, b->mean, b->var);
        if (st != FRAY_OK) {
            fray_bigdist_free(b);
            return st;
        }
    }
    *out = b;
    return FRAY_OK;
}

void fray_bigdist_free(fray_bigdist *dist) {
    if (!dist)
        return;
    bctx ctx = {dist->alloc, 1, 0};
    bd_free(&ctx, &dist->w);
    bd_free(&ctx, &dist->cum);
    mpq_clears(dist->mean, dist->var, NULL);
    fray__free(dist->alloc, dist, sizeof *dist);
}

int64_t fray_bigdist_lo(const fray_bigdist *dist) { return dist->w.lo; }
size_t fray_bigdist_n(const fray_bigdist *dist) { return dist->w.n; }
bool fray_bigdist_tail(const fray_bigdist *dist) { return dist->w.tail; }

/* num/den (den > 0) as the nearest double: a 64-bit quotient, which the
 * conversion to double rounds to nearest (mpq_get_d and mpz_get_d
 * truncate: 5/36 came out one unit low). */
static double ratio_double(const mpz_t num, const mpz_t den) {
    if (mpz_sgn(num) == 0)
        return 0;
    mpz_t t, q;
    mpz_inits(t, q, NULL);
    mpz_abs(t, num);
    long shift = 64 - ((long)mpz_sizeinbase(t, 2) - (long)mpz_sizeinbase(den, 2));
    if (shift >= 0)
        mpz_mul_2exp(t, t, (mp_bitcnt_t)shift);
    else
        mpz_tdiv_q_2exp(t, t, (mp_bitcnt_t)-shift);
    mpz_tdiv_q(q, t, den); /* 2^63 <= q < 2^65 */
    while (mpz_sizeinbase(q, 2) > 64) {
        mpz_tdiv_q_2exp(q, q, 1);
        shift--;
    }
    uint64_t buf = 0;
    size_t words = 0;
    mpz_export(&buf, &words, -1, sizeof buf, 0, 0, q);
    double v = ldexp((double)buf, (int)-shift);
    mpz_clears(t, q, NULL);
    return mpz_sgn(num) < 0 ? -v : v;
}

/* Decimal digits of v into a new string of exactly the right size. */
static char *z_text(const fray_allocator *alloc, const mpz_t v) {
    size_t cap = mpz_sizeinbase(v, 10) + 2;
    char *s = fray__alloc(alloc, cap);
    if (!s)
        return NULL;
    mpz_get_str(s, 10, v);
    size_t len = strlen(s) + 1;
    if (len == cap)
        return s;
    char *t = fray__alloc(alloc, len);
    if (t)
        memcpy(t, s, len);
    fray__free(alloc, s, cap);
    return t;
}

fray_status fray__bigratio_set(const fray_allocator *alloc, mpq_t q,
                               fray_bigratio *out) {
    mpq_canonicalize(q);
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    mpz_t num;
    mpz_init(num);
    mpz_abs(num, mpq_numref(q));
    out->negative = mpq_sgn(q) < 0;
    out->num = z_text(alloc, num);
    out->den = z_text(alloc, mpq_denref(q));
    out->value = ratio_double(mpq_numref(q), mpq_denref(q));
    mpz_clear(num);
    if (!out->num || !out->den) {
        fray_bigratio_free(out);
        return FRAY_ERR_NOMEM;
    }
    return FRAY_OK;
}

static void event_count(const fray_bigdist *dist, fray_dist_event ev,
                        int64_t t, mpz_t sum);

void fray_bigratio_free(fray_bigratio *r) {
    if (!r)
        return;
    if (r->num)
        fray__free(r->alloc, r->num, strlen(r->num) + 1);
    if (r->den)
        fray__free(r->alloc, r->den, strlen(r->den) + 1);
    r->num = r->den = NULL;
}

fray_status fray_bigdist_prob(const fray_bigdist *dist, fray_dist_event ev,
                              int64_t t, fray_bigratio *out) {
    mpz_t sum;
    mpz_init(sum);
    event_count(dist, ev, t, sum);
    mpq_t q;
    mpq_init(q);
    mpq_set_num(q, sum);
    mpq_set_den(q, dist->w.den);
    fray_status st = fray__bigratio_set(dist->alloc, q, out);
    mpq_clear(q);
    mpz_clear(sum);
    return st;
}

/* The outcomes of the event, into sum. */
static void event_count(const fray_bigdist *dist, fray_dist_event ev,
                        int64_t t, mpz_t sum) {
    const bd *w = &dist->w;
    int64_t hi = bd_hi(w);
    size_t from = 0, to = 0; /* [from, to) */
    switch (ev) {
    case FRAY_DIST_EQ:
        if (t >= w->lo && t <= hi) {
            from = (size_t)(t - w->lo);
            to = from + 1;
        }
        break;
    case FRAY_DIST_AT_LEAST:
        if (t <= hi || w->tail) {
            from = t <= w->lo ? 0 : t > hi ? w->n - 1 : (size_t)(t - w->lo);
            to = w->n;
        }
        break;
    case FRAY_DIST_AT_MOST:
    default:
        if (t >= w->lo)
            to = t >= hi ? w->n : (size_t)(t - w->lo) + 1;
        break;
    }
    mpz_set_ui(sum, 0);
    if (to > from) { /* cum[to - 1] - cum[from - 1] */
        mpz_set(sum, dist->cum.c[to - 1]);
        if (from > 0)
            mpz_sub(sum, sum, dist->cum.c[from - 1]);
    }
}

double fray_bigdist_p(const fray_bigdist *dist, fray_dist_event ev,
                      int64_t t) {
    mpz_t sum;
    mpz_init(sum);
    event_count(dist, ev, t, sum);
    double p = ratio_double(sum, dist->w.den);
    mpz_clear(sum);
    return p;
}

fray_status fray_bigdist_mean(const fray_bigdist *dist, fray_bigratio *out) {
    mpq_t q;
    mpq_init(q);
    mpq_set(q, dist->mean);
    fray_status st = fray__bigratio_set(dist->alloc, q, out);
    mpq_clear(q);
    return st;
}

fray_status fray_bigdist_variance(const fray_bigdist *dist,
                                  fray_bigratio *out) {
    mpq_t q;
    mpq_init(q);
    mpq_set(q, dist->var);
    fray_status st = fray__bigratio_set(dist->alloc, q, out);
    mpq_clear(q);
    return st;
}

fray_status fray_bigdist_compare(const fray_bigdist *a, const fray_bigdist *b,
                                 fray_bigratio *out_gt, fray_bigratio *out_eq,
                                 fray_bigratio *out_lt) {
    const bd *x = &a->w, *y = &b->w;
    /* A tail is exact only against totals below it. */
    if ((x->tail && (y->tail || bd_hi(y) >= bd_hi(x))) ||
        (y->tail && bd_hi(x) >= bd_hi(y)))
        return FRAY_ERR_RANGE;
    if (out_gt)
        memset(out_gt, 0, sizeof *out_gt);
    if (out_eq)
        memset(out_eq, 0, sizeof *out_eq);
    if (out_lt)
        memset(out_lt, 0, sizeof *out_lt);
    mpz_t gt, eq, below, t;
    mpz_inits(gt, eq, below, t, NULL);
    /* Walk y's totals upward, keeping the count of x's totals below. */
    size_t i = 0;
    for (size_t j = 0; j < y->n; j++) {
        int64_t v = y->lo + (int64_t)j;
        while (i < x->n && x->lo + (int64_t)i < v)
            mpz_add(below, below, x->c[i++]);
        if (mpz_sgn(y->c[j]) == 0)
            continue;
        /* x > v: den(x) - below - (x == v) */
        mpz_sub(t, x->den, below);
        if (i < x->n && x->lo + (int64_t)i == v) {
            mpz_addmul(eq, y->c[j], x->c[i]);
            mpz_sub(t, t, x->c[i]);
        }
        mpz_addmul(gt, y->c[j], t);
    }
    mpz_t den, lt;
    mpz_inits(den, lt, NULL);
    mpz_mul(den, x->den, y->den);
    mpz_sub(lt, den, gt);
    mpz_sub(lt, lt, eq);
    fray_status st = FRAY_OK;
    mpq_t q;
    mpq_init(q);
    mpz_t *parts[3] = {&gt, &eq, &lt};
    fray_bigratio *outs[3] = {out_gt, out_eq, out_lt};
    for (int k = 0; k < 3 && st == FRAY_OK; k++) {
        if (!outs[k])
            continue;
        mpq_set_num(q, *parts[k]);
        mpq_set_den(q, den);
        st = fray__bigratio_set(a->alloc, q, outs[k]);
    }
    mpq_clear(q);
    mpz_clears(gt, eq, below, t, den, lt, NULL);
    if (st != FRAY_OK) {
        fray_bigratio_free(out_gt);
        fray_bigratio_free(out_eq);
        fray_bigratio_free(out_lt);
    }
    return st;
}

void fray__bigdist_moments_d(const fray_bigdist *dist, double *mean,
                             double *sd) {
    double v = ratio_double(mpq_numref(dist->var), mpq_denref(dist->var));
    *mean = ratio_double(mpq_numref(dist->mean), mpq_denref(dist->mean));
    *sd = sqrt(v > 0 ? v : 0);
}

/*
 * dice.c - dice expressions: reading them, writing them back, their bounds
 * and rolling them. D6 die codes and the Wild Die are OpenD6's (the basics
 * seed 003 builds on); X{W} and "minimum damage is 0" are seed 004's
 * "Damage" and "Multiplying Damage". The exact odds are in dice_odds.c.
 */
#include "dice_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Reading ---------------------------------------------------------------- */

typedef struct parser {
    const char *text;   /* the whole text, for columns and messages */
    const char *p;      /* the next character to read */
    const char *where;  /* "" or "in the weapon expression: " */
    const char *weapon; /* what W stands for; NULL when nothing does */
    fray_dice *top;     /* the top-level expression, which owns the parsed W;
                           NULL while reading a weapon */
    const fray_allocator *alloc;
    fray_diag *diag;
} parser;

static void skip_space(parser *ps) {
    while (*ps->p != '\0' && isspace((unsigned char)*ps->p))
        ps->p++;
}

static int column_of(const parser *ps, const char *at) {
    return (int)(at - ps->text) + 1;
}

/* Appends `n` bytes of s to buf as printable text (control bytes as \xNN),
 * never past cap - 1. */
static size_t put_escaped(char *buf, size_t len, size_t cap, const char *s,
                          size_t n) {
    for (size_t i = 0; i < n && len + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            len += (size_t)snprintf(buf + len, cap - len, "\\x%02x", c);
        else
            buf[len++] = (char)c;
    }
    buf[len] = '\0';
    return len;
}

/* The token starting at `at`, quoted, for messages: a run of letters and
 * digits ("xyz"), a whole UTF-8 sequence, or one character. */
static void describe_token(const char *at, char *buf, size_t cap) {
    if (*at == '\0') {
        snprintf(buf, cap, "the end of the text");
        return;
    }
    size_t n = 1;
    unsigned char c = (unsigned char)*at;
    if (isalnum(c)) {
        while (n < 16 && isalnum((unsigned char)at[n]))
            n++;
    } else if (c >= 0x80) {
        while (n < 4 && ((unsigned char)at[n] & 0xc0) == 0x80)
            n++;
    }
    size_t len = 0;
    buf[len++] = '\'';
    len = put_escaped(buf, len, cap - 1, at, n);
    buf[len++] = '\'';
    buf[len] = '\0';
}

/*
 * Reports a parse error at `at`: "<where><what> at column C of "<text>"",
 * then ", found <token>" when `found` is given. The message always names
 * the offending token, either inside `what` or through `found`.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static fray_status fail(const parser *ps, const char *at, const char *found,
                        const char *fmt, ...) {
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);

    /* Long texts are cut: the column still locates the error. */
    char quoted[72];
    size_t text_len = strlen(ps->text);
    size_t shown = text_len > 60 ? 60 : text_len;
    size_t len = put_escaped(quoted, 0, sizeof quoted - 4, ps->text, shown);
    if (shown < text_len)
        snprintf(quoted + len, sizeof quoted - len, "...");

    char tok[48] = "";
    if (found) {
        char desc[40];
        describe_token(found, desc, sizeof desc);
        snprintf(tok, sizeof tok, ", found %s", desc);
    }
    return fray__diag_set(ps->diag, FRAY_ERR_PARSE, column_of(ps, at),
                          "%s%s at column %d of \"%s\"%s", ps->where, what,
                          column_of(ps, at), quoted, tok);
}

/* Digits at ps->p into *out; a constant that does not fit in 32 bits is an
 * error naming it. */
static fray_status read_int(parser *ps, int32_t *out) {
    const char *start = ps->p;
    int64_t v = 0;
    bool too_big = false;
    while (isdigit((unsigned char)*ps->p)) {
        if (!too_big) {
            v = v * 10 + (*ps->p - '0');
            too_big = v > INT32_MAX;
        }
        ps->p++;
    }
    if (too_big) {
        int n = (int)(ps->p - start);
        return fail(ps, start, NULL,
                    "the number '%.*s%s' is too large (the limit is %d)",
                    n > 24 ? 24 : n, start, n > 24 ? "..." : "",
                    (int)INT32_MAX);
    }
    *out = (int32_t)v;
    return FRAY_OK;
}

static fray_status parse_expr(parser *ps, fray_dice *d, char close);

static fray_dice *dice_new(const fray_allocator *alloc) {
    fray_dice *d = fray__alloc(alloc, sizeof *d);
    if (d) {
        memset(d, 0, sizeof *d);
        d->bounded = true;
        /* Keep a copy: the caller's allocator struct may be a temporary
         * (as fray_deck_new does). */
        if (alloc) {
            d->alloc_store = *alloc;
            d->alloc = &d->alloc_store;
        }
    }
    return d;
}

/* Frees what a term owns (a term not yet given to add_term). */
static void term_release(fray__term *t) {
    if (t->kind == FRAY__TERM_WEAPON && !t->weapon_is_w)
        fray_dice_free(t->weapon);
    fray_dice_free(t->sub);
    fray_dice_free(t->sub2);
    t->weapon = t->sub = t->sub2 = NULL;
}

/* The values one die of a DICE term can show, after its reroll and its
 * explosions: [-1, 1] for Fudge dice, [1, sides * (depth + 1)] else. */
static void die_range(const fray__term *t, int64_t *lo, int64_t *hi) {
    if (t->fudge) {
        *lo = -1;
        *hi = 1;
    } else {
        *lo = 1;
        *hi = (int64_t)t->sides * (t->explode + 1);
    }
}

static int64_t sub_lo(const fray_dice *d) { return d->dice_min + d->constant; }
static int64_t sub_hi(const fray_dice *d) { return d->dice_max + d->constant; }

/* C's division rounds toward zero, as AnyDice's does. */
static int64_t apply_op(fray__op op, fray__cmp cmp, int64_t a, int64_t b) {
    switch (op) {
    case FRAY__OP_MUL: return a * b;
    case FRAY__OP_DIV: return a / b;
    case FRAY__OP_CMP:
    default: return fray__cmp_holds(cmp, a, b) ? 1 : 0;
    }
}

/* Bounds of one term's contribution; *bounded false for a Wild Die. */
static void term_bounds(const fray__term *t, int64_t *lo, int64_t *hi,
                        bool *bounded) {
    int64_t a, b;
    *bounded = true;
    switch (t->kind) {
    case FRAY__TERM_CONST:
        a = b = t->value;
        break;
    case FRAY__TERM_DICE:
        if (t->wild) {
            /* A first 1 removes the Wild Die and the highest other die:
             * the others at 1 leave N - 2 (nothing at all when N = 1). */
            a = t->count >= 2 ? t->count - 2 : 0;
            b = a;
            *bounded = false;
        } else if (t->count_cmp != FRAY__CMP_NONE) {
            a = 0;
            b = t->count;
        } else {
            int kept = t->keep_mode == FRAY__KEEP_ALL ? t->count : t->keep;
            int64_t dlo, dhi;
            die_range(t, &dlo, &dhi);
            a = kept * dlo;
            b = kept * dhi;
        }
        break;
    case FRAY__TERM_GROUP:
        a = sub_lo(t->sub);
        b = sub_hi(t->sub);
        break;
    case FRAY__TERM_BINOP: {
        /* Each operation is monotone in each side (a divisor never spans
         * 0): the extremes are at the corners. */
        int64_t x[2] = {sub_lo(t->sub), sub_hi(t->sub)};
        int64_t y[2] = {sub_lo(t->sub2), sub_hi(t->sub2)};
        a = INT64_MAX;
        b = INT64_MIN;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                int64_t v = apply_op(t->op, t->cmp, x[i], y[j]);
                a = v < a ? v : a;
                b = v > b ? v : b;
            }
        if (t->op == FRAY__OP_CMP) {
            a = 0; /* a comparison may come out either way */
            b = 1;
        }
        break;
    }
    case FRAY__TERM_WEAPON:
    default:
        a = (int64_t)t->count * t->weapon->dice_min + t->weapon->constant;
        b = (int64_t)t->count * t->weapon->dice_max + t->weapon->constant;
        *bounded = t->weapon->bounded;
        break;
    }
    if (t->negative) {
        *lo = -b;
        *hi = -a;
    } else {
        *lo = a;
        *hi = b;
    }
}

static bool term_is_fancy(const fray__term *t) {
    return !fray__term_is_plain(t) ||
           (t->kind == FRAY__TERM_WEAPON && t->weapon->fancy);
}

/* Adds a read term, checking the limits that depend on what came before. */
static fray_status add_term(parser *ps, fray_dice *d, const fray__term *t,
                            const char *start) {
    int tok_len = (int)(ps->p - start);
    if (tok_len > 40)
        tok_len = 40;
    if (d->n_terms == FRAY__TERMS_MAX)
        return fail(ps, start, NULL,
                    "'%.*s' is one term too many (at most %d terms)", tok_len,
                    start, (int)FRAY__TERMS_MAX);
    if (t->negative && (t->wild || (t->kind == FRAY__TERM_WEAPON &&
                                    t->weapon->has_wild)))
        return fail(ps, start, NULL,
                    "'%.*s' has a Wild Die, which cannot be subtracted (its "
                    "total has no upper bound)",
                    tok_len, start);

    int64_t lo, hi;
    bool bounded;
    term_bounds(t, &lo, &hi, &bounded);
    int64_t sum_lo = d->dice_min + d->constant + lo;
    int64_t sum_hi = d->dice_max + d->constant + (bounded ? hi : lo);
    if (lo < INT32_MIN || hi > INT32_MAX || sum_lo < INT32_MIN ||
        sum_lo > INT32_MAX || sum_hi < INT32_MIN || sum_hi > INT32_MAX)
        return fail(ps, start, NULL,
                    "'%.*s' takes the totals past 32 bits", tok_len, start);

    if (d->n_terms == d->cap_terms) {
        size_t cap = d->cap_terms ? d->cap_terms * 2 : 4;
        fray__term *terms =
            fray__realloc(d->alloc, d->terms, d->cap_terms * sizeof *terms,
                          cap * sizeof *terms);
        if (!terms)
            return fray__diag_set(ps->diag, FRAY_ERR_NOMEM, 0,
                                  "out of memory");
        d->terms = terms;
        d->cap_terms = cap;
    }
    d->terms[d->n_terms++] = *t;
    d->fancy = d->fancy || term_is_fancy(t);

    if (t->kind == FRAY__TERM_CONST) {
        d->constant += t->negative ? -(int64_t)t->value : t->value;
    } else {
        d->dice_min += lo;
        d->dice_max += bounded ? hi : lo;
        d->bounded = d->bounded && bounded;
        d->has_wild = d->has_wild || !bounded;
        if (t->kind == FRAY__TERM_DICE)
            d->n_dice += t->count;
        else if (t->kind == FRAY__TERM_WEAPON)
            d->n_dice += t->count * t->weapon->n_dice;
        else
            d->n_dice += t->sub->n_dice + (t->sub2 ? t->sub2->n_dice : 0);
    }
    return FRAY_OK;
}

/* A comparison operator at ps->p: read and returned; NONE (nothing read)
 * when there is none. "==" reads as "=". */
static fray__cmp read_cmp(parser *ps) {
    const char *p = ps->p;
    fray__cmp c = FRAY__CMP_NONE;
    if (p[0] == '>' && p[1] == '=')
        c = FRAY__CMP_GE, ps->p += 2;
    else if (p[0] == '<' && p[1] == '=')
        c = FRAY__CMP_LE, ps->p += 2;
    else if (p[0] == '=' && p[1] == '=')
        c = FRAY__CMP_EQ, ps->p += 2;
    else if (p[0] == '>')
        c = FRAY__CMP_GT, ps->p += 1;
    else if (p[0] == '<')
        c = FRAY__CMP_LT, ps->p += 1;
    else if (p[0] == '=')
        c = FRAY__CMP_EQ, ps->p += 1;
    return c;
}

static const char *cmp_text(fray__cmp c) {
    switch (c) {
    case FRAY__CMP_EQ: return "=";
    case FRAY__CMP_LT: return "<";
    case FRAY__CMP_LE: return "<=";
    case FRAY__CMP_GT: return ">";
    case FRAY__CMP_GE: return ">=";
    case FRAY__CMP_NONE:
    default: return "";
    }
}

/* A die's name for messages: "d6", "dF", "d%". */
static void die_name(const fray__term *t, char *buf, size_t cap) {
    if (t->fudge)
        snprintf(buf, cap, "dF");
    else if (t->percent)
        snprintf(buf, cap, "d%%");
    else
        snprintf(buf, cap, "d%d", t->sides);
}

/* An integer after a modifier, with an optional '-' (Fudge faces). */
static fray_status read_signed(parser *ps, const char *after, int after_len,
                               int32_t *out) {
    skip_space(ps);
    bool neg = false;
    if (*ps->p == '-' && isdigit((unsigned char)ps->p[1])) {
        neg = true;
        ps->p++;
    }
    if (!isdigit((unsigned char)*ps->p))
        return fail(ps, ps->p, ps->p, "expected a number after '%.*s'",
                    after_len, after);
    fray_status st = read_int(ps, out);
    if (neg)
        *out = -*out;
    return st;
}

/* The modifiers after NdS, dF or d%, in any order, each at most once:
 * kh/kl/k N, dh/dl N, ! [depth], r [cmp] N, and last a comparison that
 * counts the dice passing it ("5d10>=8"). `start` is the term's first
 * character (for messages). */
static fray_status parse_mods(parser *ps, fray__term *t, const char *start) {
    char die[16];
    die_name(t, die, sizeof die);
    for (;;) {
        skip_space(ps);
        const char *at = ps->p;
        char c = (char)tolower((unsigned char)*at);
        char c1 = c ? (char)tolower((unsigned char)at[1]) : '\0';
        if (c == 'k' || (c == 'd' && (c1 == 'h' || c1 == 'l'))) {
            if (t->keep_mode != FRAY__KEEP_ALL)
                return fail(ps, at, at, "the dice are already kept or "
                                        "dropped once");
            bool drop = c == 'd';
            ps->p++;
            t->keep_mode = drop ? FRAY__KEEP_LOW : FRAY__KEEP_HIGH;
            if (c1 == 'h') {
                ps->p++;
            } else if (c1 == 'l') {
                t->keep_mode = drop ? FRAY__KEEP_HIGH : FRAY__KEEP_LOW;
                ps->p++;
            }
            int k_len = (int)(ps->p - at);
            skip_space(ps);
            if (!isdigit((unsigned char)*ps->p))
                return fail(ps, ps->p, ps->p, "expected how many dice to %s "
                            "after '%.*s'", drop ? "drop" : "keep", k_len, at);
            const char *num = ps->p;
            int32_t k;
            fray_status st = read_int(ps, &k);
            if (st != FRAY_OK)
                return st;
            if (k > t->count)
                return fail(ps, num, NULL,
                            "'%d' is more dice than the %d rolled (%s 0 to %d)",
                            (int)k, t->count, drop ? "drop" : "keep", t->count);
            t->drop = drop;
            t->keep = drop ? t->count - k : k;
        } else if (c == '!') {
            if (t->fudge)
                return fail(ps, at, NULL, "a Fudge die does not explode "
                                          "(found '!')");
            if (t->explode)
                return fail(ps, at, NULL, "the dice already explode "
                                          "(a second '!')");
            ps->p++;
            t->explode = FRAY__EXPLODE_DEFAULT;
            if (isdigit((unsigned char)*ps->p)) {
                const char *num = ps->p;
                int32_t depth;
                fray_status st = read_int(ps, &depth);
                if (st != FRAY_OK)
                    return st;
                if (depth < 1 || depth > FRAY__EXPLODE_MAX)
                    return fail(ps, num, NULL,
                                "'%d' is not an explode depth (1 to %d extra "
                                "rolls)", (int)depth, (int)FRAY__EXPLODE_MAX);
                t->explode = depth;
            }
        } else if (c == 'r') {
            if (t->reroll_cmp != FRAY__CMP_NONE)
                return fail(ps, at, NULL, "the dice are already rerolled "
                                          "(a second 'r')");
            ps->p++;
            skip_space(ps);
            fray__cmp cmp = read_cmp(ps);
            if (cmp == FRAY__CMP_NONE)
                cmp = FRAY__CMP_EQ;
            const char *num = ps->p;
            int32_t v;
            fray_status st = read_signed(ps, at, (int)(num - at), &v);
            if (st != FRAY_OK)
                return st;
            int lo = t->fudge ? -1 : 1, hi = t->fudge ? 1 : t->sides, n = 0;
            for (int f = lo; f <= hi; f++)
                n += fray__cmp_holds(cmp, f, v);
            if (n == 0 || n == hi - lo + 1)
                return fail(ps, at, NULL,
                            "'%.*s' rerolls %s face of a %s: reroll some faces "
                            "and not others", (int)(ps->p - at), at,
                            n == 0 ? "no" : "every", die);
            t->reroll_cmp = cmp;
            t->reroll_at = v;
        } else {
            fray__cmp cmp = read_cmp(ps);
            if (cmp == FRAY__CMP_NONE)
                break;
            const char *num = ps->p;
            int32_t v;
            fray_status st = read_signed(ps, at, (int)(num - at), &v);
            if (st != FRAY_OK)
                return st;
            if (t->keep_mode != FRAY__KEEP_ALL)
                return fail(ps, at, NULL, "'%.*s' counts successes, which "
                            "cannot be combined with keeping or dropping dice",
                            (int)(ps->p - at), at);
            int64_t dlo, dhi, pass = 0;
            die_range(t, &dlo, &dhi);
            for (int64_t f = dlo; f <= dhi; f++)
                pass += fray__cmp_holds(cmp, f, v);
            if (pass == 0 || pass == dhi - dlo + 1) {
                /* Counting would be a constant: surely a comparison of the
                 * total was meant. */
                return fail(ps, at, NULL,
                            "'%.*s' counts the dice that roll %s%d, and %s %s "
                            "does: that count is always %d. To compare the "
                            "total, write (%.*s)%s%d",
                            (int)(ps->p - start), start, cmp_text(cmp), (int)v,
                            pass == 0 ? "no" : "every", die,
                            pass == 0 ? 0 : t->count, (int)(at - start), start,
                            cmp_text(cmp), (int)v);
            }
            t->count_cmp = cmp;
            t->count_at = v;
            break; /* the count comes last */
        }
    }
    return FRAY_OK;
}

/* After the 'd' of NdS: the sides ("6", "%" or "F") and the modifiers. */
static fray_status parse_sides(parser *ps, fray__term *t, const char *start) {
    const char *at = ps->p;
    if (*at == '%') {
        ps->p++;
        t->sides = 100;
        t->percent = true;
    } else if (*at == 'F' || *at == 'f') {
        ps->p++;
        t->sides = 3;
        t->fudge = true;
    } else {
        fray_status st = read_int(ps, &t->sides);
        if (st != FRAY_OK)
            return st;
        if (t->sides < FRAY__SIDES_MIN || t->sides > FRAY__SIDES_MAX)
            return fail(ps, at, NULL,
                        "'%d' is not a number of sides (a die has %d to %d)",
                        (int)t->sides, (int)FRAY__SIDES_MIN,
                        (int)FRAY__SIDES_MAX);
    }
    return parse_mods(ps, t, start);
}

/* After X '{': the weapon, inline or W, and the closing '}'. */
static fray_status parse_weapon(parser *ps, fray__term *t, const char *open) {
    if (!ps->top)
        return fail(ps, open, NULL,
                    "'{' cannot be used inside a weapon expression");
    skip_space(ps);
    const char *at = ps->p;
    if ((*at == 'W' || *at == 'w') && !isalnum((unsigned char)at[1])) {
        ps->p++;
        if (!ps->weapon)
            return fail(ps, at, NULL,
                        "'W' needs a weapon expression (none was given)");
        if (!ps->top->w) {
            /* Read once, however many {W} terms there are. */
            fray_dice *w = dice_new(ps->alloc);
            if (!w)
                return fray__diag_set(ps->diag, FRAY_ERR_NOMEM, 0,
                                      "out of memory");
            parser sub = {ps->weapon, ps->weapon, "in the weapon expression: ",
                          NULL, NULL, ps->alloc, ps->diag};
            fray_status st = parse_expr(&sub, w, '\0');
            if (st != FRAY_OK) {
                fray_dice_free(w);
                return st;
            }
            ps->top->w = w;
        }
        t->weapon = ps->top->w;
        t->weapon_is_w = true;
    } else {
        fray_dice *w = dice_new(ps->alloc);
        if (!w)
            return fray__diag_set(ps->diag, FRAY_ERR_NOMEM, 0,
                                  "out of memory");
        parser sub = *ps;
        sub.top = NULL; /* no X{...} inside a weapon */
        fray_status st = parse_expr(&sub, w, '}');
        ps->p = sub.p;
        if (st != FRAY_OK) {
            fray_dice_free(w);
            return st;
        }
        t->weapon = w;
    }
    skip_space(ps);
    if (*ps->p != '}') {
        return fail(ps, ps->p, ps->p, "expected '}' to close the '{' of "
                                      "column %d", column_of(ps, open));
    }
    ps->p++;
    return FRAY_OK;
}

static fray_status wild_inside(parser *ps, const char *start, const char *how) {
    int n = (int)(ps->p - start);
    return fail(ps, start, NULL,
                "'%.*s' has a Wild Die, which cannot be %s (its total has no "
                "upper bound)", n > 40 ? 40 : n, start, how);
}

/* One factor: a number, dice, a weapon multiple or ( expr ). On error
 * whatever the term owns is freed; on success the caller owns it. */
static fray_status parse_factor(parser *ps, fray__term *t, const char *sign) {
    skip_space(ps);
    const char *start = ps->p;
    memset(t, 0, sizeof *t);
    fray_status st = FRAY_OK;

    if (isdigit((unsigned char)*ps->p)) {
        int32_t n;
        if ((st = read_int(ps, &n)) != FRAY_OK)
            return st;
        skip_space(ps);
        if (*ps->p == 'd' || *ps->p == 'D') {
            ps->p++;
            skip_space(ps);
            t->kind = FRAY__TERM_DICE;
            t->count = n;
            if (n < 1 || n > FRAY__DICE_MAX)
                return fail(ps, start, NULL,
                            "'%d' is not a number of dice (1 to %d per term)",
                            (int)n, (int)FRAY__DICE_MAX);
            char c = *ps->p;
            if (isdigit((unsigned char)c) || c == '%' || c == 'F' || c == 'f') {
                st = parse_sides(ps, t, start);
            } else {
                /* A D6 die code: 'D' not followed by a number. */
                t->code = true;
                t->sides = 6;
                if (*ps->p == '!') {
                    t->wild = true;
                    ps->p++;
                }
            }
        } else if (*ps->p == '{') {
            const char *open = ps->p++;
            t->kind = FRAY__TERM_WEAPON;
            t->count = n;
            if (n < 1 || n > FRAY__MULTIPLE_MAX)
                return fail(ps, start, NULL,
                            "'%d' is not a weapon multiple (1 to %d)", (int)n,
                            (int)FRAY__MULTIPLE_MAX);
            st = parse_weapon(ps, t, open);
            if (st == FRAY_OK &&
                (int64_t)n * t->weapon->n_dice > FRAY__DICE_MAX) {
                st = fail(ps, start, NULL,
                          "'%.*s' rolls %lld dice (at most %d per term)",
                          (int)(ps->p - start > 40 ? 40 : ps->p - start),
                          start, (long long)n * t->weapon->n_dice,
                          (int)FRAY__DICE_MAX);
            }
        } else {
            t->kind = FRAY__TERM_CONST;
            t->value = n;
        }
    } else if (*ps->p == 'd' || *ps->p == 'D') {
        const char *dpos = ps->p++;
        skip_space(ps);
        char c = *ps->p;
        if (!isdigit((unsigned char)c) && c != '%' && c != 'F' && c != 'f')
            return fail(ps, ps->p, ps->p,
                        "expected a number of sides after '%c'", *dpos);
        t->kind = FRAY__TERM_DICE;
        t->count = 1;
        st = parse_sides(ps, t, start);
    } else if (*ps->p == '(') {
        const char *open = ps->p++;
        t->kind = FRAY__TERM_GROUP;
        t->sub = dice_new(ps->alloc);
        if (!t->sub)
            return fray__diag_set(ps->diag, FRAY_ERR_NOMEM, 0,
                                  "out of memory");
        st = parse_expr(ps, t->sub, ')');
        if (st == FRAY_OK) {
            skip_space(ps);
            if (*ps->p != ')')
                st = fail(ps, ps->p, ps->p, "expected ')' to close the '(' "
                          "of column %d", column_of(ps, open));
            else
                ps->p++;
        }
        if (st == FRAY_OK && t->sub->has_wild)
            st = wild_inside(ps, start, "put in parentheses");
    } else if (sign && *ps->p != '\0') {
        char tok[40];
        describe_token(ps->p, tok, sizeof tok);
        return fail(ps, ps->p, NULL,
                    "unexpected %s after '%c' (expected a number or dice)",
                    tok, *sign);
    } else if (sign) {
        return fail(ps, ps->p, ps->p,
                    "expected a number or dice after '%c'", *sign);
    } else {
        return fail(ps, ps->p, ps->p, "expected a number or dice");
    }
    if (st != FRAY_OK)
        term_release(t);
    return st;
}

/* *t op (the next factor): *t becomes the BINOP term, or is released on
 * error. `start` is where *t began. */
static fray_status make_binop(parser *ps, fray__term *t, fray__op op,
                              const char *op_at, const char *start) {
    fray_dice *left = dice_new(ps->alloc), *right = dice_new(ps->alloc);
    if (!left || !right) {
        fray_dice_free(left);
        fray_dice_free(right);
        term_release(t);
        return fray__diag_set(ps->diag, FRAY_ERR_NOMEM, 0, "out of memory");
    }
    fray_status st = add_term(ps, left, t, start);
    if (st != FRAY_OK) {
        term_release(t);
    } else if (left->has_wild) {
        st = wild_inside(ps, start, "multiplied or divided");
    }
    skip_space(ps);
    const char *rs = ps->p;
    fray__term u;
    if (st == FRAY_OK && (st = parse_factor(ps, &u, op_at)) == FRAY_OK &&
        (st = add_term(ps, right, &u, rs)) != FRAY_OK)
        term_release(&u);
    if (st == FRAY_OK && right->has_wild)
        st = wild_inside(ps, rs, "multiplied or divided");
    if (st == FRAY_OK && op == FRAY__OP_DIV && sub_lo(right) <= 0 &&
        sub_hi(right) >= 0) {
        int n = (int)(ps->p - rs);
        st = fail(ps, rs, NULL, "'%.*s' can be 0, and a total cannot be "
                  "divided by 0", n > 40 ? 40 : n, rs);
    }
    if (st != FRAY_OK) {
        fray_dice_free(left);
        fray_dice_free(right);
        memset(t, 0, sizeof *t);
        return st;
    }
    memset(t, 0, sizeof *t);
    t->kind = FRAY__TERM_BINOP;
    t->op = op;
    t->sub = left;
    t->sub2 = right;
    return FRAY_OK;
}

/* prod := factor (('*'|'/') factor)*, added to d as one term. */
static fray_status parse_prod(parser *ps, fray_dice *d, bool negative,
                              const char *sign) {
    skip_space(ps);
    const char *start = ps->p;
    fray__term t;
    fray_status st = parse_factor(ps, &t, sign);
    while (st == FRAY_OK) {
        skip_space(ps);
        char c = *ps->p;
        if (c != '*' && c != '/')
            break;
        const char *op_at = ps->p++;
        st = make_binop(ps, &t, c == '*' ? FRAY__OP_MUL : FRAY__OP_DIV, op_at,
                        start);
    }
    if (st != FRAY_OK)
        return st;
    t.negative = negative;
    st = add_term(ps, d, &t, start);
    if (st != FRAY_OK)
        term_release(&t);
    return st;
}

/* sum := ['+'|'-'] prod (('+'|'-') prod)* */
static fray_status parse_sum(parser *ps, fray_dice *d) {
    skip_space(ps);
    const char *sign = NULL;
    if (*ps->p == '+' || *ps->p == '-')
        sign = ps->p++;
    for (;;) {
        fray_status st = parse_prod(ps, d, sign && *sign == '-', sign);
        if (st != FRAY_OK)
            return st;
        skip_space(ps);
        if (*ps->p != '+' && *ps->p != '-')
            return FRAY_OK;
        sign = ps->p++;
    }
}

/* Moves what d holds into a new expression (d is left empty). */
static fray_dice *take_terms(parser *ps, fray_dice *d) {
    fray_dice *left = dice_new(ps->alloc);
    if (!left)
        return NULL;
    left->terms = d->terms;
    left->n_terms = d->n_terms;
    left->cap_terms = d->cap_terms;
    left->constant = d->constant;
    left->dice_min = d->dice_min;
    left->dice_max = d->dice_max;
    left->bounded = d->bounded;
    left->has_wild = d->has_wild;
    left->n_dice = d->n_dice;
    left->fancy = d->fancy;
    d->terms = NULL;
    d->n_terms = d->cap_terms = 0;
    d->constant = d->dice_min = d->dice_max = 0;
    d->bounded = true;
    d->has_wild = d->fancy = false;
    d->n_dice = 0;
    return left;
}

/* expr := sum [cmp sum], ending at the end of the text or before `close`
 * ('}' or ')'). A comparison of two totals is 1 when it holds, else 0. */
static fray_status parse_expr(parser *ps, fray_dice *d, char close) {
    d->bounded = true;
    skip_space(ps);
    if (*ps->p == '\0' && close == '\0')
        return fray__diag_set(ps->diag, FRAY_ERR_PARSE, 1,
                              "%sthe dice expression is empty", ps->where);
    const char *start = ps->p;
    fray_status st = parse_sum(ps, d);
    if (st != FRAY_OK)
        return st;
    skip_space(ps);
    const char *op_at = ps->p;
    fray__cmp cmp = read_cmp(ps);
    if (cmp != FRAY__CMP_NONE) {
        if (d->has_wild) {
            ps->p = op_at;
            return wild_inside(ps, start, "compared (use --vs)");
        }
        fray__term t;
        memset(&t, 0, sizeof t);
        t.kind = FRAY__TERM_BINOP;
        t.op = FRAY__OP_CMP;
        t.cmp = cmp;
        t.sub = take_terms(ps, d);
        t.sub2 = dice_new(ps->alloc);
        if (!t.sub || !t.sub2) {
            term_release(&t);
            return fray__diag_set(ps->diag, FRAY_ERR_NOMEM, 0, "out of memory");
        }
        skip_space(ps);
        const char *rs = ps->p;
        st = parse_sum(ps, t.sub2);
        if (st == FRAY_OK && t.sub2->has_wild)
            st = wild_inside(ps, rs, "compared (use --vs)");
        if (st == FRAY_OK)
            st = add_term(ps, d, &t, start);
        if (st != FRAY_OK) {
            term_release(&t);
            return st;
        }
        skip_space(ps);
    }
    char c = *ps->p;
    if (c == '\0' || (close != '\0' && c == close)) {
        /* One d20 and constants: its face is the roll's natural value. */
        int d20 = 0, other = 0;
        for (size_t i = 0; i < d->n_terms; i++) {
            const fray__term *t = &d->terms[i];
            if (t->kind == FRAY__TERM_CONST)
                continue;
            if (t->kind == FRAY__TERM_DICE && t->count == 1 &&
                t->sides == 20 && !t->negative &&
                t->keep_mode == FRAY__KEEP_ALL && fray__term_is_plain(t))
                d20++;
            else
                other++;
        }
        d->is_d20 = d20 == 1 && other == 0;
        return FRAY_OK;
    }
    if (c == '!')
        return fail(ps, ps->p, NULL,
                    "unexpected '!': a Wild Die follows a D6 die code, as in "
                    "4D!, and an exploding die its sides, as in 1d6!");
    const char *save = ps->p;
    if (read_cmp(ps) != FRAY__CMP_NONE) {
        ps->p = save;
        return fail(ps, save, save, "a second comparison needs parentheses");
    }
    if (c == ')' || c == '}')
        return fail(ps, ps->p, NULL, "unexpected '%c' (nothing to close)", c);
    char tok[40];
    describe_token(ps->p, tok, sizeof tok);
    return fail(ps, ps->p, NULL, "unexpected %s", tok);
}

fray_status fray_dice_parse(const char *text, const char *weapon,
                            const fray_allocator *alloc, fray_dice **out,
                            fray_diag *diag) {
    if (out)
        *out = NULL;
    if (!text || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "fray_dice_parse: NULL text or out");
    fray_dice *d = dice_new(alloc);
    if (!d)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    parser ps = {text, text, "", weapon, d, alloc, diag};
    fray_status st = parse_expr(&ps, d, '\0');
    if (st != FRAY_OK) {
        fray_dice_free(d);
        return st;
    }
    *out = d;
    return FRAY_OK;
}

void fray_dice_free(fray_dice *dice) {
    if (!dice)
        return;
    for (size_t i = 0; i < dice->n_terms; i++) {
        const fray__term *t = &dice->terms[i];
        if (t->kind == FRAY__TERM_WEAPON && !t->weapon_is_w)
            fray_dice_free(t->weapon);
        fray_dice_free(t->sub);
        fray_dice_free(t->sub2);
    }
    fray_dice_free(dice->w);
    fray__free(dice->alloc, dice->terms, dice->cap_terms * sizeof *dice->terms);
    fray__free(dice->alloc, dice, sizeof *dice);
}

/* ---- Writing ---------------------------------------------------------------- */

/* Into a fray__text (internal.h): keeps counting once the buffer is full. */
static void format_expr(const fray_dice *d, fray__text *o) {
    for (size_t i = 0; i < d->n_terms; i++) {
        const fray__term *t = &d->terms[i];
        if (t->negative)
            fray__text_f(o, "-");
        else if (i > 0)
            fray__text_f(o, "+");
        switch (t->kind) {
        case FRAY__TERM_CONST:
            fray__text_f(o, "%d", (int)t->value);
            break;
        case FRAY__TERM_DICE:
            if (t->code) {
                fray__text_f(o, "%dD%s", t->count, t->wild ? "!" : "");
                break;
            }
            if (t->fudge)
                fray__text_f(o, "%ddF", t->count);
            else if (t->percent)
                fray__text_f(o, "%dd%%", t->count);
            else
                fray__text_f(o, "%dd%d", t->count, t->sides);
            if (t->reroll_cmp != FRAY__CMP_NONE)
                fray__text_f(o, "r%s%d",
                             t->reroll_cmp == FRAY__CMP_EQ ? "" : cmp_text(t->reroll_cmp),
                             (int)t->reroll_at);
            if (t->explode == FRAY__EXPLODE_DEFAULT)
                fray__text_f(o, "!");
            else if (t->explode)
                fray__text_f(o, "!%d", t->explode);
            if (t->keep_mode != FRAY__KEEP_ALL && t->drop)
                fray__text_f(o, "%s%d", t->keep_mode == FRAY__KEEP_HIGH ? "dl" : "dh",
                             t->count - t->keep);
            else if (t->keep_mode != FRAY__KEEP_ALL)
                fray__text_f(o, "%s%d", t->keep_mode == FRAY__KEEP_HIGH ? "kh" : "kl",
                             t->keep);
            if (t->count_cmp != FRAY__CMP_NONE)
                fray__text_f(o, "%s%d", cmp_text(t->count_cmp), (int)t->count_at);
            break;
        case FRAY__TERM_GROUP:
            fray__text_f(o, "(");
            format_expr(t->sub, o);
            fray__text_f(o, ")");
            break;
        case FRAY__TERM_BINOP:
            format_expr(t->sub, o);
            fray__text_f(o, "%s", t->op == FRAY__OP_MUL ? "*"
                                  : t->op == FRAY__OP_DIV ? "/" : cmp_text(t->cmp));
            format_expr(t->sub2, o);
            break;
        case FRAY__TERM_WEAPON:
            fray__text_f(o, "%d{", t->count);
            if (t->weapon_is_w)
                fray__text_f(o, "W");
            else
                format_expr(t->weapon, o);
            fray__text_f(o, "}");
            break;
        }
    }
}

size_t fray_dice_format(const fray_dice *dice, char *buf, size_t cap) {
    fray__text o;
    fray__text_init(&o, buf, cap);
    if (dice)
        format_expr(dice, &o);
    return o.len;
}

/* ---- Bounds ------------------------------------------------------------------ */

int64_t fray_dice_min(const fray_dice *dice) {
    return dice->dice_min + dice->constant;
}

bool fray_dice_max(const fray_dice *dice, int64_t *out_max) {
    if (!dice->bounded)
        return false;
    if (out_max)
        *out_max = dice->dice_max + dice->constant;
    return true;
}

bool fray_dice_is_d20(const fray_dice *dice) { return dice->is_d20; }

bool fray_dice_has_wild(const fray_dice *dice) { return dice->has_wild; }

/* ---- Rolling ------------------------------------------------------------------ */

void fray_roll_init(fray_roll *roll, const fray_allocator *alloc) {
    memset(roll, 0, sizeof *roll);
    roll->alloc = alloc;
}

void fray_roll_free(fray_roll *roll) {
    if (!roll)
        return;
    fray__free(roll->alloc, roll->dice, roll->cap * sizeof *roll->dice);
    fray_roll_init(roll, roll->alloc);
}

/*
 * One roller serves fray_dice_roll and fray_dice_roll_total, so both draw
 * the same numbers from the stream in the same order: a seed gives the same
 * total either way. Without `rec` nothing is recorded or allocated.
 */
typedef struct roller {
    fray_rng *rng;
    fray_roll *rec;
    bool wild_one;
    int wild_explosions;
    uint16_t counts[FRAY__SIDES_MAX + 1]; /* dice per face, for keep */
    /* roll_fancy: each die's total and its first record; the keys sort
     * the dice for keep (total, then rolling order). */
    int32_t totals[FRAY__DICE_MAX];
    uint32_t first_rec[FRAY__DICE_MAX + 1];
    int64_t keys[FRAY__DICE_MAX];
} roller;

static fray_status record(roller *r, int term, int sides, int value,
                          unsigned flags) {
    fray_roll *rec = r->rec;
    if (!rec)
        return FRAY_OK;
    if (rec->n_dice == rec->cap) {
        size_t cap = rec->cap ? rec->cap * 2 : 16;
        fray_die_roll *dice =
            fray__realloc(rec->alloc, rec->dice, rec->cap * sizeof *dice,
                          cap * sizeof *dice);
        if (!dice)
            return FRAY_ERR_NOMEM;
        rec->dice = dice;
        rec->cap = cap;
    }
    fray_die_roll *die = &rec->dice[rec->n_dice++];
    die->term = term;
    die->sides = sides;
    die->value = value;
    die->flags = flags;
    return FRAY_OK;
}

static int roll_die(roller *r, int sides) {
    return (int)fray_rng_range(r->rng, 1, sides);
}

/* A D6 code with a Wild Die (OpenD6): the N - 1 plain dice, then the Wild
 * Die. Its first 6 adds and rolls again while 6s come; its first 1 removes
 * itself and the highest plain die (the first of equals, for the record). */
static fray_status roll_wild(roller *r, const fray__term *t, int term,
                             unsigned neg, int64_t *out) {
    fray_status st = FRAY_OK;
    int64_t sum = 0;
    int high = 0;
    size_t high_at = 0;
    for (int i = 0; i < t->count - 1 && st == FRAY_OK; i++) {
        int v = roll_die(r, 6);
        sum += v;
        if (v > high) {
            high = v;
            high_at = r->rec ? r->rec->n_dice : 0;
        }
        st = record(r, term, 6, v, neg);
    }
    int w = roll_die(r, 6);
    if (st == FRAY_OK)
        st = record(r, term, 6, w, neg | FRAY_DIE_WILD);
    if (w == 1) {
        r->wild_one = true;
        *out = sum - high;
        if (st == FRAY_OK && r->rec) {
            r->rec->dice[r->rec->n_dice - 1].flags |= FRAY_DIE_REMOVED;
            if (high > 0)
                r->rec->dice[high_at].flags |= FRAY_DIE_REMOVED;
        }
        return st;
    }
    sum += w;
    while (w == 6) {
        r->wild_explosions++;
        w = roll_die(r, 6);
        sum += w;
        if (st == FRAY_OK)
            st = record(r, term, 6, w, neg | FRAY_DIE_WILD);
    }
    *out = sum;
    return st;
}

/* NdS, keeping the highest or lowest `keep` when asked. Ties at the edge
 * of the kept dice keep the earliest rolled (only the flags can tell). */
static fray_status roll_plain(roller *r, const fray__term *t, int term,
                              unsigned neg, int64_t *out) {
    fray_status st = FRAY_OK;
    int64_t sum = 0;
    size_t first = r->rec ? r->rec->n_dice : 0;
    bool keep = t->keep_mode != FRAY__KEEP_ALL;
    if (keep)
        memset(r->counts, 0, (size_t)(t->sides + 1) * sizeof r->counts[0]);
    for (int i = 0; i < t->count; i++) {
        int v = roll_die(r, t->sides);
        sum += v;
        if (keep)
            r->counts[v]++;
        if (st == FRAY_OK)
            st = record(r, term, t->sides, v, neg);
    }
    if (!keep) {
        *out = sum;
        return st;
    }

    bool high = t->keep_mode == FRAY__KEEP_HIGH;
    int need = t->keep, edge = 0, edge_kept = 0;
    sum = 0;
    for (int i = 0; i < t->sides && need > 0; i++) {
        int v = high ? t->sides - i : 1 + i;
        int take = r->counts[v] < need ? r->counts[v] : need;
        sum += (int64_t)take * v;
        need -= take;
        edge = v;
        edge_kept = take;
    }
    *out = sum;
    if (st != FRAY_OK || !r->rec)
        return st;
    for (size_t i = first; i < r->rec->n_dice; i++) {
        fray_die_roll *die = &r->rec->dice[i];
        bool kept;
        if (t->keep == 0)
            kept = false;
        else if (die->value == edge)
            kept = edge_kept-- > 0;
        else
            kept = high ? die->value > edge : die->value < edge;
        if (!kept)
            die->flags |= FRAY_DIE_DROPPED;
    }
    return FRAY_OK;
}

static int cmp_key(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/*
 * NdS, dF or d% with the notation of issue 15, each die in turn: a first
 * roll matching the reroll is recorded (FRAY_DIE_REROLLED) and rolled
 * once more, the new roll standing; then while the die shows its highest
 * face and explosions are left, one more roll is added to it
 * (FRAY_DIE_EXPLODED). Keep or drop then works on the dice's totals (ties:
 * the earliest rolled is kept); a count of successes counts the dice
 * whose total passes (FRAY_DIE_SUCCESS on every roll of those dice).
 */
static fray_status roll_fancy(roller *r, const fray__term *t, int term,
                              unsigned neg, int64_t *out) {
    fray_status st = FRAY_OK;
    int sides = t->fudge ? 3 : t->sides;
    int shift = t->fudge ? -2 : 0; /* a Fudge die: 1..3 shown as -1..+1 */
    for (int i = 0; i < t->count; i++) {
        r->first_rec[i] = r->rec ? (uint32_t)r->rec->n_dice : 0;
        int v = roll_die(r, sides) + shift;
        if (t->reroll_cmp != FRAY__CMP_NONE &&
            fray__cmp_holds(t->reroll_cmp, v, t->reroll_at)) {
            if (st == FRAY_OK)
                st = record(r, term, sides, v, neg | FRAY_DIE_REROLLED);
            v = roll_die(r, sides) + shift;
        }
        if (st == FRAY_OK)
            st = record(r, term, sides, v, neg);
        int32_t total = v;
        for (int e = 0; e < t->explode && v == sides; e++) {
            v = roll_die(r, sides);
            total += v;
            if (st == FRAY_OK)
                st = record(r, term, sides, v, neg | FRAY_DIE_EXPLODED);
        }
        r->totals[i] = total;
    }
    r->first_rec[t->count] = r->rec ? (uint32_t)r->rec->n_dice : 0;
    bool marks = st == FRAY_OK && r->rec;
    int64_t sum = 0;
    if (t->count_cmp != FRAY__CMP_NONE) {
        for (int i = 0; i < t->count; i++) {
            if (!fray__cmp_holds(t->count_cmp, r->totals[i], t->count_at))
                continue;
            sum++;
            for (uint32_t k = r->first_rec[i]; marks && k < r->first_rec[i + 1]; k++)
                if (!(r->rec->dice[k].flags & FRAY_DIE_REROLLED))
                    r->rec->dice[k].flags |= FRAY_DIE_SUCCESS;
        }
    } else if (t->keep_mode == FRAY__KEEP_ALL) {
        for (int i = 0; i < t->count; i++)
            sum += r->totals[i];
    } else {
        /* Sorted ascending by key: the kept dice come first. */
        bool high = t->keep_mode == FRAY__KEEP_HIGH;
        for (int i = 0; i < t->count; i++)
            r->keys[i] = (high ? -(int64_t)r->totals[i] : r->totals[i]) * 4096 + i;
        qsort(r->keys, (size_t)t->count, sizeof r->keys[0], cmp_key);
        for (int j = 0; j < t->count; j++) {
            int i = (int)(((r->keys[j] % 4096) + 4096) % 4096);
            if (j < t->keep) {
                sum += r->totals[i];
                continue;
            }
            for (uint32_t k = r->first_rec[i]; marks && k < r->first_rec[i + 1]; k++)
                r->rec->dice[k].flags |= FRAY_DIE_DROPPED;
        }
    }
    *out = sum;
    return st;
}

static fray_status roll_expr(roller *r, const fray_dice *d, int term,
                             bool flip, bool dice_only, int64_t *out);

/*
 * Rolls d's terms into *out with their own signs. `flip` marks every die
 * as subtracted or not the other way round (the dice of a subtracted X{W}
 * count against the total); `term` >= 0 labels every die with that outer
 * term (a weapon's dice belong to its X{W}). With `dice_only` the
 * constants are left out: X{W} adds them once, not X times.
 */
static fray_status roll_expr(roller *r, const fray_dice *d, int term,
                             bool flip, bool dice_only, int64_t *out) {
    fray_status st = FRAY_OK;
    int64_t total = 0;
    for (size_t i = 0; i < d->n_terms && st == FRAY_OK; i++) {
        const fray__term *t = &d->terms[i];
        int label = term >= 0 ? term : (int)i;
        bool neg = t->negative != flip;
        unsigned flags = neg ? FRAY_DIE_NEGATIVE : 0u;
        int64_t v = 0;
        switch (t->kind) {
        case FRAY__TERM_CONST:
            if (!dice_only)
                v = t->value;
            break;
        case FRAY__TERM_DICE:
            if (t->wild)
                st = roll_wild(r, t, label, flags, &v);
            else if (fray__term_is_plain(t))
                st = roll_plain(r, t, label, flags, &v);
            else
                st = roll_fancy(r, t, label, flags, &v);
            break;
        case FRAY__TERM_GROUP:
            st = roll_expr(r, t->sub, label, neg, false, &v);
            break;
        case FRAY__TERM_BINOP: {
            int64_t a = 0, b = 0;
            st = roll_expr(r, t->sub, label, neg, false, &a);
            if (st == FRAY_OK)
                st = roll_expr(r, t->sub2, label, neg, false, &b);
            /* The parser made sure a divisor is never 0. */
            v = st == FRAY_OK ? apply_op(t->op, t->cmp, a, b) : 0;
            break;
        }
        case FRAY__TERM_WEAPON:
            for (int x = 0; x < t->count && st == FRAY_OK; x++) {
                int64_t part;
                st = roll_expr(r, t->weapon, label, neg, true, &part);
                v += part;
            }
            v += t->weapon->constant;
            break;
        }
        total += t->negative ? -v : v;
    }
    *out = total;
    return st;
}

fray_status fray_dice_roll(const fray_dice *dice, fray_rng *rng,
                           fray_roll *out) {
    if (!dice || !rng || !out)
        return FRAY_ERR_INVALID;
    out->n_dice = 0;
    out->total = 0;
    out->natural = 0;
    out->wild_one = false;
    out->wild_explosions = 0;
    roller r;
    r.rng = rng;
    r.rec = out;
    r.wild_one = false;
    r.wild_explosions = 0;
    fray_status st = roll_expr(&r, dice, -1, false, false, &out->total);
    out->wild_one = r.wild_one;
    out->wild_explosions = r.wild_explosions;
    /* Constants leave no dice, so the d20 is the only one recorded. */
    if (st == FRAY_OK && dice->is_d20 && out->n_dice == 1)
        out->natural = out->dice[0].value;
    return st;
}

int64_t fray_dice_roll_total(const fray_dice *dice, fray_rng *rng) {
    roller r;
    r.rng = rng;
    r.rec = NULL;
    r.wild_one = false;
    r.wild_explosions = 0;
    int64_t total = 0;
    (void)roll_expr(&r, dice, -1, false, false, &total);
    return total;
}

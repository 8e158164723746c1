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

static fray_status parse_expr(parser *ps, fray_dice *d, bool braced);

static fray_dice *dice_new(const fray_allocator *alloc) {
    fray_dice *d = fray__alloc(alloc, sizeof *d);
    if (d) {
        memset(d, 0, sizeof *d);
        /* Keep a copy: the caller's allocator struct may be a temporary
         * (as fray_deck_new does). */
        if (alloc) {
            d->alloc_store = *alloc;
            d->alloc = &d->alloc_store;
        }
    }
    return d;
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
        } else {
            int kept = t->keep_mode == FRAY__KEEP_ALL ? t->count : t->keep;
            a = kept;
            b = (int64_t)kept * t->sides;
        }
        break;
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
    if (sum_lo < INT32_MIN || sum_lo > INT32_MAX || sum_hi < INT32_MIN ||
        sum_hi > INT32_MAX)
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

    if (t->kind == FRAY__TERM_CONST) {
        d->constant += t->negative ? -(int64_t)t->value : t->value;
    } else {
        d->dice_min += lo;
        d->dice_max += bounded ? hi : lo;
        d->bounded = d->bounded && bounded;
        d->has_wild = d->has_wild || !bounded;
        d->n_dice += t->kind == FRAY__TERM_DICE
                         ? t->count
                         : t->count * t->weapon->n_dice;
    }
    return FRAY_OK;
}

/* After the 'd' of NdS: the sides and an optional keep. */
static fray_status parse_sides(parser *ps, fray__term *t) {
    const char *at = ps->p;
    fray_status st = read_int(ps, &t->sides);
    if (st != FRAY_OK)
        return st;
    if (t->sides < FRAY__SIDES_MIN || t->sides > FRAY__SIDES_MAX)
        return fail(ps, at, NULL,
                    "'%d' is not a number of sides (a die has %d to %d)",
                    (int)t->sides, (int)FRAY__SIDES_MIN,
                    (int)FRAY__SIDES_MAX);
    skip_space(ps);
    if (*ps->p != 'k' && *ps->p != 'K')
        return FRAY_OK;
    const char *k = ps->p++;
    t->keep_mode = FRAY__KEEP_HIGH;
    if (*ps->p == 'h' || *ps->p == 'H') {
        ps->p++;
    } else if (*ps->p == 'l' || *ps->p == 'L') {
        t->keep_mode = FRAY__KEEP_LOW;
        ps->p++;
    }
    int k_len = (int)(ps->p - k);
    skip_space(ps);
    if (!isdigit((unsigned char)*ps->p))
        return fail(ps, ps->p, ps->p, "expected how many dice to keep after "
                                      "'%.*s'", k_len, k);
    at = ps->p;
    int32_t keep;
    st = read_int(ps, &keep);
    if (st != FRAY_OK)
        return st;
    if (keep > t->count)
        return fail(ps, at, NULL,
                    "'%d' is more dice than the %d rolled (keep 0 to %d)",
                    (int)keep, t->count, t->count);
    t->keep = keep;
    return FRAY_OK;
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
            fray_status st = parse_expr(&sub, w, false);
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
        fray_status st = parse_expr(&sub, w, true);
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

/* One term. On error a weapon it owns is freed; on success add_term takes
 * the term. */
static fray_status parse_term(parser *ps, fray_dice *d, bool negative,
                              const char *sign) {
    skip_space(ps);
    const char *start = ps->p;
    fray__term t;
    memset(&t, 0, sizeof t);
    t.negative = negative;
    fray_status st = FRAY_OK;

    if (isdigit((unsigned char)*ps->p)) {
        int32_t n;
        if ((st = read_int(ps, &n)) != FRAY_OK)
            return st;
        skip_space(ps);
        if (*ps->p == 'd' || *ps->p == 'D') {
            ps->p++;
            skip_space(ps);
            t.kind = FRAY__TERM_DICE;
            t.count = n;
            if (n < 1 || n > FRAY__DICE_MAX)
                return fail(ps, start, NULL,
                            "'%d' is not a number of dice (1 to %d per term)",
                            (int)n, (int)FRAY__DICE_MAX);
            if (isdigit((unsigned char)*ps->p)) {
                st = parse_sides(ps, &t);
            } else {
                /* A D6 die code: 'D' not followed by a number. */
                t.code = true;
                t.sides = 6;
                if (*ps->p == '!') {
                    t.wild = true;
                    ps->p++;
                }
            }
        } else if (*ps->p == '{') {
            const char *open = ps->p++;
            t.kind = FRAY__TERM_WEAPON;
            t.count = n;
            if (n < 1 || n > FRAY__MULTIPLE_MAX)
                return fail(ps, start, NULL,
                            "'%d' is not a weapon multiple (1 to %d)", (int)n,
                            (int)FRAY__MULTIPLE_MAX);
            st = parse_weapon(ps, &t, open);
            if (st == FRAY_OK &&
                (int64_t)n * t.weapon->n_dice > FRAY__DICE_MAX) {
                st = fail(ps, start, NULL,
                          "'%.*s' rolls %lld dice (at most %d per term)",
                          (int)(ps->p - start > 40 ? 40 : ps->p - start),
                          start, (long long)n * t.weapon->n_dice,
                          (int)FRAY__DICE_MAX);
            }
        } else {
            t.kind = FRAY__TERM_CONST;
            t.value = n;
        }
    } else if (*ps->p == 'd' || *ps->p == 'D') {
        const char *dpos = ps->p++;
        skip_space(ps);
        if (!isdigit((unsigned char)*ps->p))
            return fail(ps, ps->p, ps->p,
                        "expected a number of sides after '%c'", *dpos);
        t.kind = FRAY__TERM_DICE;
        t.count = 1;
        st = parse_sides(ps, &t);
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

    if (st == FRAY_OK)
        st = add_term(ps, d, &t, start);
    if (st != FRAY_OK && t.weapon && !t.weapon_is_w)
        fray_dice_free(t.weapon);
    return st;
}

/* expr := ['+'|'-'] term (('+'|'-') term)*, ending at the end of the text
 * or, when `braced`, before a '}'. */
static fray_status parse_expr(parser *ps, fray_dice *d, bool braced) {
    d->bounded = true;
    skip_space(ps);
    if (*ps->p == '\0' && !braced)
        return fray__diag_set(ps->diag, FRAY_ERR_PARSE, 1,
                              "%sthe dice expression is empty", ps->where);
    const char *sign = NULL;
    if (*ps->p == '+' || *ps->p == '-')
        sign = ps->p++;
    for (;;) {
        fray_status st = parse_term(ps, d, sign && *sign == '-', sign);
        if (st != FRAY_OK)
            return st;
        skip_space(ps);
        char c = *ps->p;
        if (c == '+' || c == '-') {
            sign = ps->p++;
            continue;
        }
        if (c == '\0' || (braced && c == '}'))
            break;
        if (c == '!')
            return fail(ps, ps->p, NULL,
                        "unexpected '!': a Wild Die follows a D6 die code, "
                        "as in 4D!");
        char tok[40];
        describe_token(ps->p, tok, sizeof tok);
        return fail(ps, ps->p, NULL, "unexpected %s", tok);
    }

    /* One d20 and constants: its face is the roll's natural value. */
    int d20 = 0, other = 0;
    for (size_t i = 0; i < d->n_terms; i++) {
        const fray__term *t = &d->terms[i];
        if (t->kind == FRAY__TERM_CONST)
            continue;
        if (t->kind == FRAY__TERM_DICE && t->count == 1 && t->sides == 20 &&
            !t->negative && t->keep_mode == FRAY__KEEP_ALL)
            d20++;
        else
            other++;
    }
    d->is_d20 = d20 == 1 && other == 0;
    return FRAY_OK;
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
    fray_status st = parse_expr(&ps, d, false);
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
            } else {
                fray__text_f(o, "%dd%d", t->count, t->sides);
                if (t->keep_mode != FRAY__KEEP_ALL)
                    fray__text_f(o, "%s%d", t->keep_mode == FRAY__KEEP_HIGH ? "kh" : "kl",
                        t->keep);
            }
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
            st = t->wild ? roll_wild(r, t, label, flags, &v)
                         : roll_plain(r, t, label, flags, &v);
            break;
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

/*
 * fray/dice.h - dice expressions, rolls and their exact odds (for Silent
 * Winter, D6 and Alloy).
 *
 * Grammar (whitespace allowed between tokens; letters case-insensitive
 * except where noted; docs/rules/dice.md gives it in EBNF with every
 * choice):
 *
 *   expr    := sum [cmp sum]                a comparison of totals: 1 or 0
 *   sum     := ['+'|'-'] product (('+'|'-') product)*
 *   product := factor (('*'|'/') factor)*   '/' rounds toward zero
 *   factor  := INT                          a constant
 *            | [INT] 'd' SIDES mod* [cmp SIGNED]
 *                                           NdS ("3d6", "d20", "4dF", "d%");
 *                                           a comparison right after the
 *                                           dice counts the dice passing it
 *                                           ("5d10>=8")
 *            | INT 'D' ['!']                a D6 die code ("4D"); '!' makes one of
 *                                           its dice the Wild Die ("4D!+2")
 *            | INT '{' ('W' | expr) '}'     weapon multiple X{W} (seed 004)
 *            | '(' expr ')'
 *   SIDES   := INT | '%' | 'F'
 *   mod     := ('kh' | 'kl' | 'k' | 'dl' | 'dh') INT   keep / drop ("4d6dl1")
 *            | '!' [INT]                    explode on the highest face, at
 *                                           most 2 (or INT) extra rolls
 *            | 'r' [cmp] SIGNED             reroll once ("2d6r1", "2d6r<3")
 *   cmp     := '>=' | '<=' | '>' | '<' | '=' | '=='
 *
 * A D6 die code is an INT followed by a capital or small 'D' that is NOT
 * followed by a number, '%' or 'F'; its pips are simply the constant that
 * follows ("4D+2"). The Wild Die (OpenD6): a 6 adds and is rolled again,
 * repeatedly; a 1 on its first roll removes itself and the highest other
 * die of the code. X{W} rolls the weapon's dice X times and adds the
 * weapon's own constant once; `W` stands for the weapon expression given
 * to fray_dice_parse, or write the weapon inline: "2{1d8}+3".
 *
 * Limits: at most 1000 dice per term (X{W} counts X times its weapon's),
 * 2 to 1000 sides, 64 terms per sum; constants, totals and products fit
 * in 32 bits. A Wild Die can only be added (not subtracted, multiplied,
 * divided, compared or put in parentheses); a divisor that can be 0 is
 * refused; a weapon expression cannot hold another X{...}. Columns count
 * bytes.
 *
 * Thread-safety: a parsed expression is immutable and may be shared by
 * threads; each thread needs its own fray_rng.
 */
#ifndef FRAY_DICE_H
#define FRAY_DICE_H

#include "fray/common.h"
#include "fray/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fray_dice fray_dice;

/*
 * Parses an expression. `weapon` is the text that `W` stands for in X{W}
 * (NULL when there is none: then X{W} is an error). On success the caller
 * owns *out and frees it with fray_dice_free. On FRAY_ERR_PARSE the diag
 * names the offending token and its 1-based column (diag->column) in
 * `text` (or in `weapon`, said so in the message). `weapon` is read only
 * if some {W} uses it, and copied: it need not outlive the call. The
 * expression keeps a copy of *alloc (the struct need not outlive the call).
 * Errors: FRAY_ERR_PARSE, FRAY_ERR_NOMEM, FRAY_ERR_INVALID (NULL text or
 * out). *out is NULL on any error.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_dice_parse(const char *text, const char *weapon,
                                     const fray_allocator *alloc,
                                     fray_dice **out, fray_diag *diag);
FRAY_API void fray_dice_free(fray_dice *dice);

/* The expression written back in canonical form ("4d6kh3+2"). Returns the
 * length it needs (like snprintf). */
FRAY_API size_t fray_dice_format(const fray_dice *dice, char *buf, size_t cap);

/* The lowest and highest totals. A Wild Die has no highest total:
 * fray_dice_max then returns false. With a comparison, or a count of
 * successes that cannot go both ways, these are bounds that a roll may
 * never reach ("(1d6)>9" is always 0; its bounds are 0 and 1). */
FRAY_API int64_t fray_dice_min(const fray_dice *dice);
FRAY_API bool fray_dice_max(const fray_dice *dice, int64_t *out_max);
/* true when the expression is exactly one d20 plus constants (so its
 * rolls have a natural value). */
FRAY_API bool fray_dice_is_d20(const fray_dice *dice);
/* true when some term has a Wild Die. */
FRAY_API bool fray_dice_has_wild(const fray_dice *dice);

/* ---- Rolling ------------------------------------------------------------ */

enum {
    FRAY_DIE_DROPPED = 1 << 0,  /* not kept (kh/kl) */
    FRAY_DIE_WILD = 1 << 1,     /* the Wild Die or one of its re-rolls */
    FRAY_DIE_REMOVED = 1 << 2,  /* removed by a Wild Die's 1 (and the 1) */
    FRAY_DIE_NEGATIVE = 1 << 3, /* counts against the total (a subtracted
                                   term; inside a subtracted X{W} the
                                   weapon's own subtracted dice count for) */
    FRAY_DIE_REROLLED = 1 << 4, /* a first roll that was rerolled ("r"):
                                   it does not count, the next one does */
    FRAY_DIE_EXPLODED = 1 << 5, /* an extra roll of an exploding die ("!"),
                                   added to the die before it */
    FRAY_DIE_SUCCESS = 1 << 6   /* a roll of a die counted as a success */
};

typedef struct fray_die_roll {
    int term;       /* index of the term in the expression */
    int sides;
    int value;
    unsigned flags; /* FRAY_DIE_* */
} fray_die_roll;

/* A roll with every die shown. Initialise with fray_roll_init; the roll
 * owns its dice array; release with fray_roll_free. The roll keeps the
 * allocator POINTER: *alloc must stay valid until fray_roll_free. */
typedef struct fray_roll {
    int64_t total;
    int natural;       /* the d20's face when fray_dice_is_d20, else 0 */
    bool wild_one;     /* a Wild Die came up 1 first */
    int wild_explosions;
    size_t n_dice;
    fray_die_roll *dice;
    size_t cap;
    const fray_allocator *alloc;
} fray_roll;

FRAY_API void fray_roll_init(fray_roll *roll, const fray_allocator *alloc);
FRAY_API void fray_roll_free(fray_roll *roll);

/* Rolls the expression, recording every die in rolling order (a Wild
 * Die after its code's other dice, then its re-rolls). `out` is reused:
 * its dice array grows as needed. Errors: FRAY_ERR_NOMEM (the roll is then
 * incomplete but still released with fray_roll_free). fray_dice_roll and
 * fray_dice_roll_total draw the same numbers: one seed, one total. */
FRAY_API FRAY_MUST_CHECK fray_status fray_dice_roll(const fray_dice *dice, fray_rng *rng,
                                    fray_roll *out);
/* Rolls and returns only the total: no allocation (for simulations). */
FRAY_API int64_t fray_dice_roll_total(const fray_dice *dice, fray_rng *rng);

/* ---- Exact odds ---------------------------------------------------------- */

/*
 * The exact distribution of an expression's total: count[i] outcomes of
 * total lo + i, over den equally weighted outcomes. When the expression has
 * a Wild Die its totals are unbounded: the last bucket (`tail` true) then
 * holds every total >= lo + n - 1, and all buckets before it are exact.
 */
typedef struct fray_dist {
    int64_t lo;
    size_t n;
    fray_u128 *count;
    fray_u128 den;
    bool tail;
    fray_ratio mean;   /* exact, including what the tail holds */
    const fray_allocator *alloc;
} fray_dist;

/*
 * Computes the distribution. For a Wild Die, `exact_through` asks that
 * every total up to it be its own exact bucket (P(total >= t) is then exact
 * for t <= exact_through + 1); fray also keeps going until the tail holds
 * less than one part in a million. FRAY_ERR_TOO_LARGE when the number of
 * outcomes passes 2^127 (28D! is the largest Wild Die code that fits;
 * fray_dice_bigdist counts past it) or the totals span more than 2^22
 * values. Terms of issue 15's notation (rerolls, explosions, Fudge dice,
 * counts, parentheses, products, comparisons) are counted with GMP and
 * handed back here when they fit. On error *out holds nothing to free.
 * Release with fray_dist_free. The distribution keeps the allocator
 * POINTER: *alloc must stay valid until fray_dist_free.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_dice_dist(const fray_dice *dice,
                                    int64_t exact_through,
                                    const fray_allocator *alloc,
                                    fray_dist *out);
FRAY_API void fray_dist_free(fray_dist *dist);
/* P(total == t); for the tail bucket, P(total >= that bucket); 0 past
 * the last bucket (past a tail, not known). */
FRAY_API fray_ratio fray_dist_eq(const fray_dist *dist, int64_t t);
/* P(total >= t); exact whenever t is at most the tail's bucket. Past the
 * tail's bucket it is the tail's share, an upper bound under 1e-6. */
FRAY_API fray_ratio fray_dist_at_least(const fray_dist *dist, int64_t t);

/* ---- Exact odds without a limit (issue 15) --------------------------------- */

/*
 * The same distribution as fray_dice_dist, with counts of any size (GMP):
 * `100d6`, `50d6`, `30D!` and `200d100` are counted exactly. The 128-bit
 * path is taken first when it fits, so small rolls cost what they did.
 * Errors: FRAY_ERR_TOO_LARGE when the totals span more than 2^22 values
 * (a product or a division more than 2^20) or the counting would take
 * more than a few seconds (about 3 * 10^9 limb operations: 1000d6 takes
 * about 0.5 s, 1000d1000 is refused);
 * FRAY_ERR_NOMEM; FRAY_ERR_INVALID (NULL dice or out). *out is NULL on
 * error. The digits of the big numbers are allocated by GMP (malloc),
 * not through `alloc`, and GMP ends the program when they cannot be.
 * Release with fray_bigdist_free. Thread-safety: a distribution is
 * immutable once made; each call makes its own.
 */
typedef struct fray_bigdist fray_bigdist;

FRAY_API FRAY_MUST_CHECK fray_status fray_dice_bigdist(const fray_dice *dice,
                                       int64_t exact_through,
                                       const fray_allocator *alloc,
                                       fray_bigdist **out);
FRAY_API void fray_bigdist_free(fray_bigdist *dist);
/* Totals lo .. lo + n - 1; with `tail` the last holds every higher total
 * (a Wild Die), as in fray_dist. */
FRAY_API int64_t fray_bigdist_lo(const fray_bigdist *dist);
FRAY_API size_t fray_bigdist_n(const fray_bigdist *dist);
FRAY_API bool fray_bigdist_tail(const fray_bigdist *dist);

/* An exact rational as decimal text, in lowest terms: num and den are
 * NUL-terminated digits (no sign), owned by the ratio: release with
 * fray_bigratio_free (safe on a zeroed ratio and after an error). */
typedef struct fray_bigratio {
    char *num;
    char *den;
    bool negative;
    double value;                /* the nearest double */
    const fray_allocator *alloc; /* what num and den were allocated with */
} fray_bigratio;
FRAY_API void fray_bigratio_free(fray_bigratio *r);

typedef enum fray_dist_event {
    FRAY_DIST_EQ,       /* total == t (the tail bucket: total >= it) */
    FRAY_DIST_AT_LEAST, /* total >= t: exact up to the tail's bucket */
    FRAY_DIST_AT_MOST   /* total <= t: exact below the tail's bucket */
} fray_dist_event;

/* P(event) for total t. Errors: FRAY_ERR_NOMEM (out then holds nothing). */
FRAY_API FRAY_MUST_CHECK fray_status fray_bigdist_prob(const fray_bigdist *dist,
                                       fray_dist_event ev, int64_t t,
                                       fray_bigratio *out);
/* The same probability as a double, without the exact fraction (cheap:
 * for choosing what to show). */
FRAY_API double fray_bigdist_p(const fray_bigdist *dist, fray_dist_event ev,
                               int64_t t);
/* The exact mean and variance, a Wild Die's unbounded tail included
 * (worked out in closed form, docs/rules/dice.md). */
FRAY_API FRAY_MUST_CHECK fray_status fray_bigdist_mean(const fray_bigdist *dist,
                                       fray_bigratio *out);
FRAY_API FRAY_MUST_CHECK fray_status fray_bigdist_variance(const fray_bigdist *dist,
                                           fray_bigratio *out);
/* Two independent totals: P(a > b), P(a == b), P(a < b) (any out may be
 * NULL). FRAY_ERR_RANGE when a tail hides the answer (both have one, or
 * one's tail starts at or below the other's highest total: compute that
 * one with exact_through at the other's maximum). */
FRAY_API FRAY_MUST_CHECK fray_status fray_bigdist_compare(const fray_bigdist *a,
                                          const fray_bigdist *b,
                                          fray_bigratio *out_gt,
                                          fray_bigratio *out_eq,
                                          fray_bigratio *out_lt);

/*
 * The distribution of one or two (n = 1 or 2) expressions drawn as one
 * SVG document: a bar per total (side by side when two), axes with
 * ticks, a title and a legend naming the expressions (names[k], escaped)
 * with their means and standard deviations. fray_dice_report_html: an
 * HTML page holding the chart and a table of every total (exactly, at
 * least, at most). snprintf-style: returns the length needed and writes
 * at most size bytes, NUL included (buf may be NULL when size is 0).
 */
FRAY_API size_t fray_dice_report_svg(const fray_bigdist *const *dists,
                                     const char *const *names, int n,
                                     char *buf, size_t size);
FRAY_API size_t fray_dice_report_html(const fray_bigdist *const *dists,
                                      const char *const *names, int n,
                                      char *buf, size_t size);

/* ---- A d20 attack (seed 004 "Critical Hits") ---------------------------- */

typedef struct fray_d20_attack_query {
    int bonus;                  /* added to the d20 */
    int defense;                /* hits when d20 + bonus >= defense */
    int crit_min;               /* natural roll that may crit; 0 means 20 */
    const fray_dice *damage;    /* may be NULL (no damage odds) */
    const fray_dice *crit_dice; /* extra dice on a crit, rolled; may be NULL */
} fray_d20_attack_query;

typedef struct fray_d20_attack_odds {
    fray_ratio p_hit;    /* natural 1 always misses, natural 20 always hits */
    fray_ratio p_crit;   /* natural >= crit_min and the total would hit */
    fray_dist damage;    /* damage dealt, misses as 0, minimum 0; crits
                            deal the damage's maximum plus crit_dice */
    bool has_damage;
} fray_d20_attack_odds;

/* Errors: FRAY_ERR_INVALID (damage with a Wild Die has no maximum;
 * crit_min outside 0..20), FRAY_ERR_TOO_LARGE, FRAY_ERR_NOMEM. crit_dice
 * may have a Wild Die: the damage then has a tail. Release with
 * fray_d20_attack_odds_free (safe after an error too). */
FRAY_API FRAY_MUST_CHECK fray_status fray_odds_d20_attack(const fray_d20_attack_query *q,
                                          const fray_allocator *alloc,
                                          fray_d20_attack_odds *out);
FRAY_API void fray_d20_attack_odds_free(fray_d20_attack_odds *odds);

#ifdef __cplusplus
}
#endif
#endif

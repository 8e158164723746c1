/*
 * dice_int.h - the inside of a parsed dice expression, shared by dice.c
 * (parsing, text, rolls) and dice_odds.c (exact distributions). Not part of
 * the public API (as SQLite's btreeInt.h is to btree.h).
 */
#ifndef FRAY_DICE_INT_H
#define FRAY_DICE_INT_H

#include "internal.h"

#include "fray/dice.h"

/* The limits promised by fray/dice.h. Sides start at 2: a "d1" is a
 * constant written as a die, and rejecting it catches typos like "4d1". */
enum {
    FRAY__DICE_MAX = 1000,  /* dice per term (X{W} counts X times its dice) */
    FRAY__SIDES_MIN = 2,
    FRAY__SIDES_MAX = 1000,
    FRAY__TERMS_MAX = 64,   /* per expression; a weapon's are counted apart */
    FRAY__MULTIPLE_MAX = 1000,
    FRAY__EXPLODE_DEFAULT = 2, /* "1d6!": AnyDice's explode depth */
    FRAY__EXPLODE_MAX = 100
};

typedef enum fray__term_kind {
    FRAY__TERM_CONST,  /* value */
    FRAY__TERM_DICE,   /* count d sides [keep], or a D6 die code */
    FRAY__TERM_WEAPON, /* count { weapon } : seed 004 "Multiplying Damage" */
    FRAY__TERM_GROUP,  /* ( sub ) */
    FRAY__TERM_BINOP   /* sub op sub2: '*', '/' or a comparison (0 or 1) */
} fray__term_kind;

/* A comparison: of a die against a number (rerolls, successes) or of two
 * totals. NONE: not used. */
typedef enum fray__cmp {
    FRAY__CMP_NONE,
    FRAY__CMP_EQ,
    FRAY__CMP_LT,
    FRAY__CMP_LE,
    FRAY__CMP_GT,
    FRAY__CMP_GE
} fray__cmp;

typedef enum fray__op {
    FRAY__OP_MUL = 1,
    FRAY__OP_DIV,      /* integer division rounding toward zero (AnyDice) */
    FRAY__OP_CMP       /* `cmp` says which */
} fray__op;

static inline bool fray__cmp_holds(fray__cmp c, int64_t a, int64_t b) {
    switch (c) {
    case FRAY__CMP_EQ: return a == b;
    case FRAY__CMP_LT: return a < b;
    case FRAY__CMP_LE: return a <= b;
    case FRAY__CMP_GT: return a > b;
    case FRAY__CMP_GE: return a >= b;
    case FRAY__CMP_NONE:
    default: return false;
    }
}

typedef enum fray__keep {
    FRAY__KEEP_ALL,
    FRAY__KEEP_HIGH,
    FRAY__KEEP_LOW
} fray__keep;

typedef struct fray__term {
    fray__term_kind kind;
    bool negative;        /* subtracted */
    int32_t value;        /* CONST: the magnitude; the sign is `negative` */
    int count;            /* DICE: number of dice; WEAPON: the multiple X */
    int sides;            /* DICE */
    fray__keep keep_mode; /* DICE */
    int keep;             /* DICE, when keep_mode != KEEP_ALL */
    bool code;            /* DICE written as a D6 die code ("4D"), sides 6 */
    bool wild;            /* the code's last die is the Wild Die ("4D!") */
    /* WEAPON: the weapon's expression. Owned by the term when written
     * inline ("2{1d8+1}"); for {W} it is the top-level expression's `w`,
     * shared by every {W} term and freed with it. */
    fray_dice *weapon;
    bool weapon_is_w;

    /* Issue 15: the notation of AnyDice and icepool users. A DICE term
     * with any of these is "fancy": its odds come from dice_big.c. */
    bool fudge;           /* dF: faces -1, 0, +1 (sides is 3) */
    bool percent;         /* written d% (sides is 100) */
    bool drop;            /* keep written as drop: dl (keep high), dh */
    int explode;          /* '!': extra rolls on the highest face, 0: none */
    fray__cmp reroll_cmp; /* 'r': reroll once a die that matches */
    int32_t reroll_at;
    fray__cmp count_cmp;  /* '>=8' after the dice: count the dice that pass */
    int32_t count_at;
    /* GROUP: sub; BINOP: sub op sub2. Owned by the term. */
    fray__op op;
    fray__cmp cmp;        /* BINOP with FRAY__OP_CMP */
    fray_dice *sub;
    fray_dice *sub2;
} fray__term;

/* true when the term is one the 128-bit counting of dice_odds.c knows
 * (constants, NdS with keep, D6 codes with a Wild Die, weapon multiples). */
static inline bool fray__term_is_plain(const fray__term *t) {
    return (t->kind == FRAY__TERM_CONST || t->kind == FRAY__TERM_DICE ||
            t->kind == FRAY__TERM_WEAPON) &&
           !t->fudge && t->explode == 0 && t->reroll_cmp == FRAY__CMP_NONE &&
           t->count_cmp == FRAY__CMP_NONE;
}

struct fray_dice {
    const fray_allocator *alloc; /* &alloc_store, or NULL for malloc */
    fray_allocator alloc_store;
    size_t n_terms;
    size_t cap_terms;
    fray__term *terms;
    fray_dice *w;          /* the parsed `weapon` text, when some {W} used it */

    /* Derived once the text is read. The "dice part" is every term but the
     * constants: X{W} rolls a weapon's dice part X times and adds its
     * constant once. */
    int64_t constant;      /* sum of the signed constant terms */
    int64_t dice_min;      /* lowest total of the dice part */
    int64_t dice_max;      /* highest, when `bounded` */
    bool bounded;          /* false when some term has a Wild Die */
    bool has_wild;
    bool is_d20;
    int n_dice;            /* dice rolled per roll, before any explosion */
    bool fancy;            /* some term, at any depth, is not plain */
};

/*
 * dice_big.c: the distribution of one term that fray__term_is_plain says
 * no to (its sign left out), counted with GMP and handed back in 128 bits:
 * counts[i] outcomes of total lo + i over *den. FRAY_ERR_TOO_LARGE when
 * den passes 2^127 or the work would take too long. The caller frees
 * *counts (n of them) with fray__free(alloc, ...).
 */
fray_status fray__dice_term_u128(const fray__term *t,
                                 const fray_allocator *alloc, int64_t *lo,
                                 size_t *n, fray__u128 **counts,
                                 fray__u128 *den);


/* dice_big.c: a big distribution's mean and standard deviation as
 * doubles (for charts). */
void fray__bigdist_moments_d(const fray_bigdist *dist, double *mean,
                             double *sd);

#endif

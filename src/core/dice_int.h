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
    FRAY__MULTIPLE_MAX = 1000
};

typedef enum fray__term_kind {
    FRAY__TERM_CONST,  /* value */
    FRAY__TERM_DICE,   /* count d sides [keep], or a D6 die code */
    FRAY__TERM_WEAPON  /* count { weapon } : seed 004 "Multiplying Damage" */
} fray__term_kind;

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
} fray__term;

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
};

#endif

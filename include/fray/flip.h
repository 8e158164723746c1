/*
 * fray/flip.h - flips and checks (99 Towers: seed 001 "Opposed Skill
 * Flips", "Unopposed Skill Flips", "Skill Flip Modifiers"; seed 000
 * "Attacking and Defending", "Skill, Aspect, and Attribute Checks";
 * RULINGS 3-6).
 *
 * A flip turns over n = rank + flip mods cards and keeps the highest. When
 * n < 1 it flips 2 - n cards and keeps the LOWEST (RULINGS 3; the option
 * min_one_card flips a single card instead). Shifts are added after.
 *
 * Thread-safety: functions work only on the objects passed in.
 */
#ifndef FRAY_FLIP_H
#define FRAY_FLIP_H

#include "fray/cards.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options of a flip (RULINGS 3). */
typedef struct fray_flip_rules {
    bool min_one_card; /* "min-one-card": n < 1 flips 1 card */
} fray_flip_rules;

/*
 * How many cards a flip of `n` (rank + flip mods) turns over and whether it
 * keeps the lowest: n >= 1 flips n keeping the highest; n < 1 flips 2 - n
 * keeping the lowest, or with min_one_card a single card (reported as
 * keep-highest: with one card it is the same). rules NULL means the
 * defaults. Never fails: the count is clamped to FRAY_CARDS_MAX cards
 * (callers that care check the result against the deck's size).
 */
FRAY_API void fray_flip_plan(int n, const fray_flip_rules *rules,
                             int *out_cards, bool *out_keep_lowest);

/* One flip as it happened. */
typedef struct fray_flip {
    int n;              /* rank + flip mods asked for */
    int n_cards;        /* cards turned over */
    bool keep_lowest;   /* RULINGS 3 */
    fray_card cards[FRAY_CARDS_MAX];
    int kept;           /* index of the kept card in cards[] (the first
                           card of the best value) */
    int kept_value;     /* its value under the deck's options */
    int hearts;         /* Hearts among all cards (RULINGS 5) */
} fray_flip;

/*
 * Flips n (rank + flip mods) cards from the deck: draws them (reshuffling
 * the discards under the draw pile when it runs short), keeps the highest
 * (or lowest), counts Hearts over every card, then discards them. Values
 * follow the deck's options; rules NULL means the defaults. Errors:
 * FRAY_ERR_DECK_EMPTY (nothing drawn, *out unchanged).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_flip_draw(fray_deck *deck, fray_rng *rng, int n,
                                    const fray_flip_rules *rules,
                                    fray_flip *out);

/*
 * Builds a flip from cards turned over by hand at the table. The number of
 * cards must be what fray_flip_plan says for n. When deck is not NULL the
 * cards are taken out of it (from its draw or discard pile) and discarded.
 * Values follow opts; opts NULL means the deck's options, or the defaults
 * when deck is NULL too. Both Jokers are written "JK" (id 52), so Jokers
 * given are interchangeable: each becomes a Joker of the deck not yet used
 * by this flip, an available one first. diag (may be NULL) gets a message.
 * Errors, after which the deck and *out are unchanged:
 *   FRAY_ERR_INVALID - wrong number of cards ("a flip of 3 needs 3 cards,
 *     got 2"), a card given twice (the message names it), more Jokers than
 *     the options have, or an id that is not a card;
 *   FRAY_ERR_RANGE - bad options;
 *   FRAY_ERR_CARD_UNAVAILABLE - a card is held, in play or not in the deck.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_flip_from_cards(fray_deck *deck,
                                          const fray_deck_options *opts,
                                          const fray_card *cards,
                                          size_t n_cards, int n,
                                          const fray_flip_rules *rules,
                                          fray_flip *out, fray_diag *diag);

/*
 * Hand of Fate swap (rules-facts.md): replaces cards[index] of a finished
 * flip with a held card of the deck, which is played and discarded with the
 * flip; the replaced card goes to the discard pile (a flip from
 * fray_flip_draw is already there). The kept card and Hearts are worked out
 * again (RULINGS 5: the final flip), with the deck's options. Errors, with
 * nothing changed: FRAY_ERR_INVALID (index outside the flip),
 * FRAY_ERR_CARD_UNAVAILABLE (the card is not held in this deck).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_flip_swap_held(fray_flip *flip, fray_deck *deck,
                                         int index, fray_card held);

/* ---- Checks ------------------------------------------------------------ */

/* Sums of user numbers (rank + flip mods, card + Aspect + shifts) saturate
 * at INT_MIN/INT_MAX instead of overflowing. */

typedef enum fray_check_kind {
    FRAY_CHECK_COMBAT,     /* a Combat Value (PA, PD, SA, ID, N): card only */
    FRAY_CHECK_SKILL,      /* skill rank cards, Aspect added */
    FRAY_CHECK_ASPECT,     /* raw Aspect: Aspect cards, Aspect not added */
    FRAY_CHECK_ATTR_HIGH,  /* the better of two Aspects, not added */
    FRAY_CHECK_ATTR_LOW    /* the worse of two Aspects, not added */
} fray_check_kind;

typedef struct fray_check {
    fray_check_kind kind;
    int rank;     /* COMBAT: the Combat Value; SKILL: the skill rank */
    int aspect;   /* SKILL: the Aspect added; ASPECT/ATTR: the (first) Aspect */
    int aspect2;  /* ATTR_HIGH/ATTR_LOW: the second Aspect */
    int flip_mod; /* (flip+X) */
    int shift;    /* (shift+X) */
} fray_check;

/* n for the flip of a check: its rank (or Aspect) plus flip mods. */
FRAY_API int fray_check_n(const fray_check *check);
/* What is added to the kept card: the Aspect for a skill check, plus
 * shifts. */
FRAY_API int fray_check_bonus(const fray_check *check);
/* The check's total for a flip: kept value + fray_check_bonus. */
FRAY_API int fray_check_total(const fray_check *check, const fray_flip *flip);

/* Unopposed: success when total >= DTN (seed 001). */
FRAY_API bool fray_check_succeeds(int total, int dtn);

/*
 * Opposed skill flip (seed 001): the higher total wins; on a tie the higher
 * Aspect wins; then the initiator. true when the initiator wins.
 */
FRAY_API bool fray_opposed_initiator_wins(int initiator_total,
                                          int initiator_aspect,
                                          int opponent_total,
                                          int opponent_aspect);

/* The outcome of an attack flip against a defense flip. */
typedef struct fray_combat_result {
    int attack_total;
    int defense_total;
    bool hit;      /* attack >= defense (seed 000 "Attacking and Defending") */
    int hearts;    /* Hearts in the attacker's whole flip (RULINGS 5) */
    bool critical; /* hit with at least one Heart (seed 000 "Critical Hits") */
} fray_combat_result;

/* Resolves flipped attack and defense (each with its shifts). */
FRAY_API fray_combat_result fray_combat_resolve(const fray_flip *attack,
                                                int attack_shift,
                                                const fray_flip *defense,
                                                int defense_shift);

#ifdef __cplusplus
}
#endif
#endif

/*
 * fray/cards.h - playing cards and decks (99 Towers; RULINGS 1, 2 and 7).
 *
 * A card is a small integer id: 0..51 are the standard cards
 * (id = suit * 13 + rank - 2, rank 2..14 with 11 J, 12 Q, 13 K, 14 A),
 * 52 and 53 are the two Jokers. What a card is WORTH depends on the deck's
 * options (aces high or low, the Jokers' value), so values are asked of a
 * deck or of a fray_deck_options.
 *
 * A deck holds every card in exactly one place: the draw pile, the discard
 * pile, the Hand of Fate (held out of the deck), or in play (drawn, not yet
 * discarded).
 */
#ifndef FRAY_CARDS_H
#define FRAY_CARDS_H

#include "fray/common.h"
#include "fray/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t fray_card;

enum {
    FRAY_CARDS_STANDARD = 52,
    FRAY_CARDS_MAX = 54, /* with both Jokers */
    FRAY_JOKER_FIRST = 52,
    FRAY_RANK_JACK = 11,
    FRAY_RANK_QUEEN = 12,
    FRAY_RANK_KING = 13,
    FRAY_RANK_ACE = 14,
    FRAY_CARD_VALUE_MAX = 15 /* the largest value any option gives a card */
};

typedef enum fray_suit {
    FRAY_SUIT_CLUBS,
    FRAY_SUIT_DIAMONDS,
    FRAY_SUIT_HEARTS,
    FRAY_SUIT_SPADES,
    FRAY_SUIT_NONE /* a Joker */
} fray_suit;

/* Rank 2..14 of a standard card, 0 for a Joker. */
FRAY_API int fray_card_rank(fray_card card);
FRAY_API fray_suit fray_card_suit(fray_card card);
FRAY_API bool fray_card_is_heart(fray_card card);
FRAY_API bool fray_card_is_joker(fray_card card);
/* The id of a standard card; rank 2..14, suit not NONE. */
FRAY_API fray_card fray_card_make(int rank, fray_suit suit);

/*
 * Reads one card in plain notation: rank (2-10, J, Q, K, A; T for 10)
 * then suit (C, D, H, S), case-insensitive: "KH", "10s", "AS", "4D".
 * "JK" or "Joker" is a Joker (the first one; *out_card = 52).
 * On error returns FRAY_ERR_PARSE and, when diag is not NULL, writes a
 * message naming the token.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_card_parse(const char *token, fray_card *out_card,
                                     fray_diag *diag);
/*
 * Reads a list of cards separated by spaces or commas ("KH 4S, 10d").
 * Stores at most `cap` cards; *out_n is how many were read. Errors name the
 * token and its 1-based column.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_card_parse_list(const char *text, fray_card *out,
                                          size_t cap, size_t *out_n,
                                          fray_diag *diag);

/* Formats: FRAY_CARD_PLAIN gives "KH", "10S", "JK"; FRAY_CARD_PRETTY gives
 * "K♥", "10♠", "Joker" (UTF-8). buf needs 16 bytes. Returns buf. */
typedef enum fray_card_style { FRAY_CARD_PLAIN, FRAY_CARD_PRETTY } fray_card_style;
FRAY_API char *fray_card_format(fray_card card, fray_card_style style,
                                char buf[16]);

/* ---- Deck composition (RULINGS 1) ------------------------------------- */

typedef struct fray_deck_options {
    bool aces_low;   /* "aces: low": A = 1 (default high: A = 14) */
    int jokers;      /* 0 (default), 1 or 2 */
    int joker_value; /* what a Joker is worth when kept; default 15, 0..15 */
} fray_deck_options;

/* The defaults of RULINGS 1: 52 cards, aces high, no Jokers. */
FRAY_API void fray_deck_options_default(fray_deck_options *out);
/* FRAY_ERR_RANGE when jokers or joker_value are out of range. */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_options_check(const fray_deck_options *opts);
/* How many cards a deck with these options holds (52..54). */
FRAY_API int fray_deck_options_size(const fray_deck_options *opts);
/* The value of a card under these options (2..14 by default). */
FRAY_API int fray_card_value(const fray_deck_options *opts, fray_card card);

/* ---- Decks (RULINGS 2 and 7) ------------------------------------------ */

typedef struct fray_deck fray_deck;

/*
 * Creates a deck with every card in the draw pile, in id order (not
 * shuffled: call fray_deck_shuffle). opts NULL means the defaults; alloc
 * NULL means malloc (the deck keeps a copy of *alloc, so the struct itself
 * need not outlive the call). The caller owns *out_deck and frees it with
 * fray_deck_free. Errors: FRAY_ERR_RANGE (bad options), FRAY_ERR_NOMEM.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_new(const fray_deck_options *opts,
                                   const fray_allocator *alloc,
                                   fray_deck **out_deck);
/* Frees a deck; NULL is allowed. */
FRAY_API void fray_deck_free(fray_deck *deck);
/* The deck's options (borrowed, valid while the deck lives). */
FRAY_API const fray_deck_options *fray_deck_options_of(const fray_deck *deck);
/* Copies the whole state of src into dst (same options required), for
 * snapshots and undo. FRAY_ERR_INVALID when the options differ. */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_copy(fray_deck *dst, const fray_deck *src);

/* Gathers every card (discards, in play, Hand of Fate) into the draw pile
 * and shuffles it. */
FRAY_API void fray_deck_reset(fray_deck *deck, fray_rng *rng);
/* Shuffles the draw pile only (Fisher-Yates with unbiased draws). */
FRAY_API void fray_deck_shuffle(fray_deck *deck, fray_rng *rng);

/*
 * Draws n cards from the top of the draw pile into play. When the draw pile
 * holds fewer than n cards, the discard pile is shuffled and put under it
 * first (so a stacked top stays on top). FRAY_ERR_DECK_EMPTY when even
 * that is not enough (nothing is drawn then).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_draw(fray_deck *deck, fray_rng *rng, size_t n,
                                    fray_card *out_cards);
/*
 * Takes one given card into play: a card a player flipped by hand at the
 * table. The card may be in the draw pile or the discard pile (the physical
 * deck may have been reshuffled). FRAY_ERR_CARD_UNAVAILABLE when it is held
 * in a Hand of Fate, already in play, or not part of this deck.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_take(fray_deck *deck, fray_card card);
/* Moves cards from play (or from the Hand of Fate) to the discard pile.
 * FRAY_ERR_CARD_UNAVAILABLE for a card that is in neither place. */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_discard(fray_deck *deck, const fray_card *cards,
                                       size_t n);
/*
 * Stacks the deck: the next draws return exactly these cards, in this
 * order, before the rest of the draw pile. Each card must be in the draw or
 * discard pile, and appear once. FRAY_ERR_CARD_UNAVAILABLE otherwise (the
 * deck is then unchanged).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_stack(fray_deck *deck, const fray_card *cards,
                                     size_t n);
/*
 * Draws n cards into the Hand of Fate: they are out of the deck while held
 * (the rules facts, "Hand of Fate"; docs/rules/towers.md). Same reshuffle rule as fray_deck_draw.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_hold(fray_deck *deck, fray_rng *rng, size_t n,
                                    fray_card *out_cards);
/* Moves a held card into play (it replaces a flipped card or becomes a
 * flip). FRAY_ERR_CARD_UNAVAILABLE when the card is not held. */
FRAY_API FRAY_MUST_CHECK fray_status fray_deck_play_held(fray_deck *deck, fray_card card);

typedef enum fray_card_place {
    FRAY_PLACE_ABSENT, /* not part of this deck (a Joker of a 52-card deck) */
    FRAY_PLACE_DRAW,
    FRAY_PLACE_DISCARD,
    FRAY_PLACE_HELD,
    FRAY_PLACE_IN_PLAY
} fray_card_place;

FRAY_API fray_card_place fray_deck_place(const fray_deck *deck, fray_card card);
/* How many cards are in a place. */
FRAY_API size_t fray_deck_count(const fray_deck *deck, fray_card_place place);
/* The held cards (Hand of Fate); returns how many, writes at most cap. */
FRAY_API size_t fray_deck_held(const fray_deck *deck, fray_card *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif

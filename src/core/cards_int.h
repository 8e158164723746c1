/*
 * cards_int.h - the deck's layout, shared inside libfray so that an
 * encounter can embed its decks in one flat state (copied, reset and
 * snapshotted without allocation), and the inline card and flip helpers
 * that the engine's flips use card by card. Not part of the public API.
 */
#ifndef FRAY_CARDS_INT_H
#define FRAY_CARDS_INT_H

#include "fray/cards.h"
#include "fray/flip.h"

#include <assert.h>
#include <limits.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

struct fray_deck {
    fray_deck_options opts;
    /* A copy: the caller's struct need not outlive the deck. A zeroed one
     * (realloc NULL) means malloc/free. */
    fray_allocator alloc;
    int size;
    uint8_t place[FRAY_CARDS_MAX];
    fray_card draw[FRAY_CARDS_MAX];
    size_t n_draw;
    fray_card discard[FRAY_CARDS_MAX];
    size_t n_discard;
    /* fray__card_look of every card under opts (filled with them by
     * fray__deck_init): a flip reads each card's value and Heart here. */
    uint8_t look[FRAY_CARDS_MAX];
};

/*
 * A card's value under the options (fray_card_value) and whether it is a
 * Heart, in one byte: the value in the FRAY__LOOK_VALUE bits, plus
 * FRAY__LOOK_HEART for a Heart. opts NULL means the defaults; a card
 * beyond the Jokers is worth 0.
 */
enum { FRAY__LOOK_VALUE = 0x7f, FRAY__LOOK_HEART = 0x80 };
/* The look of each standard card with Aces high (cards.c). */
extern const uint8_t fray__rank_look[FRAY_CARDS_STANDARD];

static inline unsigned fray__card_look(const fray_deck_options *opts,
                                       fray_card card) {
    if (card >= FRAY_CARDS_STANDARD)
        return card >= FRAY_CARDS_MAX ? 0u
               : opts                 ? (unsigned)opts->joker_value
                                      : (unsigned)FRAY_CARD_VALUE_MAX;
    unsigned look = fray__rank_look[card];
    if ((look & FRAY__LOOK_VALUE) == FRAY_RANK_ACE && opts && opts->aces_low)
        return (look & FRAY__LOOK_HEART) | 1u;
    return look;
}

/* Whether any card of the deck is held in a Hand of Fate: fray_deck_held
 * (deck, NULL, 0) > 0. Places past the deck's size stay FRAY_PLACE_ABSENT
 * (a deck never puts a card it does not have anywhere), so with SSE2 all
 * FRAY_CARDS_MAX places are compared, sixteen at a time. */
static inline bool fray__deck_any_held(const fray_deck *deck) {
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i want = _mm_set1_epi8((char)FRAY_PLACE_HELD);
    __m128i any = _mm_setzero_si128();
    /* Three blocks, then the last sixteen places (overlapping). */
    for (int b = 0; b < 4; b++) {
        int at = b < 3 ? 16 * b : FRAY_CARDS_MAX - 16;
        __m128i pl =
            _mm_loadu_si128((const __m128i *)(const void *)(deck->place + at));
        any = _mm_or_si128(any, _mm_cmpeq_epi8(pl, want));
    }
    return _mm_movemask_epi8(any) != 0;
#else
    return fray_deck_held(deck, NULL, 0) > 0;
#endif
}

/* fray_flip_plan, inline for the engine's flips (flip.c exports it). */
static inline void fray__flip_plan(int n, const fray_flip_rules *rules,
                                   int *out_cards, bool *out_keep_lowest) {
    if (n >= 1) {
        *out_cards = n < FRAY_CARDS_MAX ? n : FRAY_CARDS_MAX;
        *out_keep_lowest = false;
    } else if (rules && rules->min_one_card) {
        /* One card: highest and lowest are the same card. */
        *out_cards = 1;
        *out_keep_lowest = false;
    } else {
        /* 2 - n without overflow for very negative n. */
        *out_cards = n > 2 - FRAY_CARDS_MAX ? 2 - n : FRAY_CARDS_MAX;
        *out_keep_lowest = true;
    }
}

/* a + b, saturated at INT_MIN and INT_MAX: flip.c's sums of a kept value
 * and shifts (which come from user input). */
static inline int fray__sat_add(int a, int b) {
#if defined(__GNUC__)
    int s;
    if (__builtin_add_overflow(a, b, &s))
        return b > 0 ? INT_MAX : INT_MIN;
    return s;
#else
    long long s = (long long)a + (long long)b;
    if (s > INT_MAX)
        return INT_MAX;
    if (s < INT_MIN)
        return INT_MIN;
    return (int)s;
#endif
}

/* fray_combat_resolve, inline for the engine's attacks (flip.c exports
 * it). */
static inline fray_combat_result fray__combat_resolve(const fray_flip *attack,
                                                      int attack_shift,
                                                      const fray_flip *defense,
                                                      int defense_shift) {
    fray_combat_result r;
    r.attack_total = fray__sat_add(attack->kept_value, attack_shift);
    r.defense_total = fray__sat_add(defense->kept_value, defense_shift);
    r.hit = r.attack_total >= r.defense_total;
    r.hearts = attack->hearts;
    r.critical = r.hit && r.hearts >= 1;
    return r;
}

/*
 * Initialises a deck in place (an embedded deck: never passed to
 * fray_deck_free): every card in the draw pile in id order. FRAY_ERR_RANGE
 * for bad options.
 */
fray_status fray__deck_init(fray_deck *deck, const fray_deck_options *opts);

/*
 * Puts the discards back into the draw pile and shuffles the whole draw
 * pile: the next draw comes from a freshly shuffled deck (less the cards
 * held in a Hand of Fate or in play). For the 99 Towers option
 * "fresh-decks", which makes a simulation match exact odds.
 */
void fray__deck_refresh(fray_deck *deck, fray_rng *rng);

/*
 * Shuffles the discard pile and slides it under the draw pile: what
 * fray_deck_draw does before drawing n cards when fewer than n are left in
 * the draw pile (and the discards make up the difference).
 */
void fray__deck_reshuffle(fray_deck *deck, fray_rng *rng);

/*
 * Turns over flip->n_cards cards (flip->keep_lowest set; n_draw +
 * n_discard must hold them) straight onto the discard pile: the same
 * draws, piles, flip->cards, kept card and Hearts as fray_deck_draw,
 * fray_deck_discard and fray__flip_evaluate one after the other (flip.c).
 */
void fray__deck_flip(fray_deck *deck, fray_rng *rng, fray_flip *flip);

/* (internal.h's, for the flip of no cards below) */
void fray__flip_evaluate(fray_flip *flip, const fray_deck_options *opts);

/* fray__deck_flip's cards, keep_lowest known (each case its own loop:
 * most flips keep the highest). */
static inline void fray__deck_flip_cards(fray_deck *deck, fray_flip *flip,
                                         size_t k, bool keep_lowest) {
    /* Pointers, not counters: the card stores are bytes, which may alias
     * the counters (the arrays' own addresses do not change). */
    const fray_card *top = deck->draw + deck->n_draw;
    fray_card *discard = deck->discard + deck->n_discard;
    /* Keeping the lowest is keeping the highest of ~value; the first card
     * of the best value is then the first one above all before it. */
    int flipbits = keep_lowest ? -1 : 0;
    int best = INT_MIN, kept = 0, hearts = 0;
    for (size_t i = 0; i < k; i++) {
        fray_card c = *--top;
        deck->place[c] = FRAY_PLACE_DISCARD;
        discard[i] = c;
        flip->cards[i] = c;
        unsigned x = deck->look[c];
        int key = (int)(x & FRAY__LOOK_VALUE) ^ flipbits;
        if (key > best) {
            best = key;
            kept = (int)i;
        }
        hearts += (x & FRAY__LOOK_HEART) != 0;
    }
    deck->n_draw -= k;
    deck->n_discard += k;
    flip->kept = kept;
    flip->kept_value = best ^ flipbits;
    flip->hearts = hearts;
}

/* fray__deck_flip, inline for the engine's quickest flips (99 Towers'
 * duel shortcut, src/rules/towers/quick.c); flip.c's is this. */
static inline void fray__deck_flip_inline(fray_deck *deck, fray_rng *rng,
                                          fray_flip *flip) {
    size_t k = (size_t)flip->n_cards;
    assert(k <= deck->n_draw + deck->n_discard);
    if (k == 0) {
        fray__flip_evaluate(flip, &deck->opts);
        return;
    }
    if (k > deck->n_draw)
        fray__deck_reshuffle(deck, rng);
    if (flip->keep_lowest)
        fray__deck_flip_cards(deck, flip, k, true);
    else
        fray__deck_flip_cards(deck, flip, k, false);
}

#endif

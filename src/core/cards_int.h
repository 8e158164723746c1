/*
 * cards_int.h - the deck's layout, shared inside libfray so that an
 * encounter can embed its decks in one flat state (copied, reset and
 * snapshotted without allocation). Not part of the public API.
 */
#ifndef FRAY_CARDS_INT_H
#define FRAY_CARDS_INT_H

#include "fray/cards.h"

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
};

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

#endif

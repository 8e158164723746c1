/* test_cards_shuffle.c - the deck's shuffle draws exactly what a
 * Fisher-Yates shuffle with fray_rng_below draws (issue 2 "Random streams"
 * and RULINGS 2: the same seed gives the same deck; issue 4 speed work must
 * not change a single shuffle). cards.c inlines the draw with a table of
 * rejection thresholds and a multiply-based remainder; a wrong remainder
 * for any bound 2..54 changes the order and fails here (a threshold only
 * matters for the rare draws below it, at most 48 of 2^32). */
#include <criterion/criterion.h>

#include "fray/cards.h"
#include "fray/rng.h"

/* The reference: the deck starts in id order with card 0 on top (the end
 * of the pile), is shuffled by Fisher-Yates with fray_rng_below, and is
 * drawn from the top. */
static void reference_order(int size, uint64_t seed, fray_card *out) {
    fray_card pile[FRAY_CARDS_MAX];
    for (int i = 0; i < size; i++)
        pile[i] = (fray_card)(size - 1 - i);
    fray_rng rng;
    fray_rng_seed(&rng, seed, 7u);
    for (int i = size; i > 1; i--) {
        uint32_t j = fray_rng_below(&rng, (uint32_t)i);
        fray_card t = pile[i - 1];
        pile[i - 1] = pile[j];
        pile[j] = t;
    }
    for (int i = 0; i < size; i++)
        out[i] = pile[size - 1 - i];
}

Test(cards_shuffle, same_draws_as_fray_rng_below) {
    for (int jokers = 0; jokers <= 2; jokers++) {
        fray_deck_options o;
        fray_deck_options_default(&o);
        o.jokers = jokers;
        int size = fray_deck_options_size(&o);
        for (uint64_t seed = 0; seed < 3000; seed++) {
            fray_deck *d = NULL;
            cr_assert_eq(fray_deck_new(&o, NULL, &d), FRAY_OK);
            fray_rng rng;
            fray_rng_seed(&rng, seed, 7u);
            fray_deck_shuffle(d, &rng);
            fray_card got[FRAY_CARDS_MAX], want[FRAY_CARDS_MAX];
            cr_assert_eq(fray_deck_draw(d, &rng, (size_t)size, got), FRAY_OK);
            reference_order(size, seed, want);
            for (int i = 0; i < size; i++)
                cr_assert_eq(got[i], want[i], "jokers %d seed %llu card %d",
                             jokers, (unsigned long long)seed, i);
            fray_deck_free(d);
        }
    }
}

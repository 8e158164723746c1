/* fuzz_cards.c - libFuzzer target for the card notation parser: any input
 * must give a card list or a clean error naming a token, never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    fray_card cards[FRAY_CARDS_MAX];
    size_t n = 0;
    fray_diag diag = {0};
    if (fray_card_parse_list(text, cards, FRAY_CARDS_MAX, &n, &diag) == FRAY_OK) {
        /* Whatever parsed must format back and parse to the same card. */
        for (size_t i = 0; i < n; i++) {
            char buf[16];
            fray_card again;
            fray_card_format(cards[i], FRAY_CARD_PLAIN, buf);
            if (fray_card_parse(buf, &again, NULL) != FRAY_OK || again != cards[i])
                abort();
        }
        /* And a flip made of them must either be accepted or refused
         * cleanly. */
        fray_deck *deck = NULL;
        fray_deck_options opts;
        fray_deck_options_default(&opts);
        opts.jokers = 2;
        if (fray_deck_new(&opts, NULL, &deck) == FRAY_OK) {
            fray_flip flip;
            (void)fray_flip_from_cards(deck, &opts, cards, n, (int)n, NULL,
                                       &flip, &diag);
            fray_deck_free(deck);
        }
    } else if (diag.message[0] == '\0') {
        abort(); /* every error must say what went wrong */
    }
    free(text);
    return 0;
}

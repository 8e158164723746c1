/* cards.c - cards, their notation, and decks (RULINGS 1, 2 and 7). */
#include "internal.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fray/cards.h"
#include "cards_int.h"

/* ---- Cards ---------------------------------------------------------------- */

/* The public functions below are exported (and so not inlined into each
 * other): the static versions are what the hot paths here use. */
static inline int rank_of(fray_card card) {
    return card < FRAY_CARDS_STANDARD ? card % 13 + 2 : 0;
}

static inline bool joker(fray_card card) {
    return card >= FRAY_JOKER_FIRST && card < FRAY_CARDS_MAX;
}

int fray_card_rank(fray_card card) { return rank_of(card); }

fray_suit fray_card_suit(fray_card card) {
    return card < FRAY_CARDS_STANDARD ? (fray_suit)(card / 13) : FRAY_SUIT_NONE;
}

bool fray_card_is_heart(fray_card card) {
    return fray_card_suit(card) == FRAY_SUIT_HEARTS;
}

bool fray_card_is_joker(fray_card card) { return joker(card); }

static inline fray_card make(int rank, fray_suit suit) {
    return (fray_card)((int)suit * 13 + rank - 2);
}

fray_card fray_card_make(int rank, fray_suit suit) { return make(rank, suit); }

static const char SUIT_LETTER[] = "CDHS";
static const char *const SUIT_PRETTY[] = {"\xe2\x99\xa3", "\xe2\x99\xa6",
                                          "\xe2\x99\xa5", "\xe2\x99\xa0"};

static const char *rank_text(int rank) {
    static const char *const names[] = {"2", "3", "4",  "5", "6", "7", "8",
                                        "9", "10", "J", "Q", "K", "A"};
    return names[rank - 2];
}

char *fray_card_format(fray_card card, fray_card_style style, char buf[16]) {
    if (fray_card_is_joker(card)) {
        snprintf(buf, 16, "%s", style == FRAY_CARD_PRETTY ? "Joker" : "JK");
    } else if (card < FRAY_CARDS_STANDARD) {
        int suit = (int)fray_card_suit(card);
        if (style == FRAY_CARD_PRETTY)
            snprintf(buf, 16, "%s%s", rank_text(fray_card_rank(card)),
                     SUIT_PRETTY[suit]);
        else
            snprintf(buf, 16, "%s%c", rank_text(fray_card_rank(card)),
                     SUIT_LETTER[suit]);
    } else {
        snprintf(buf, 16, "?");
    }
    return buf;
}

/* Parses the `len` characters at `s` as one card. */
static fray_status parse_card(const char *s, size_t len, fray_card *out) {
    char t[8];
    if (len == 0 || len >= sizeof t)
        return FRAY_ERR_PARSE;
    for (size_t i = 0; i < len; i++)
        t[i] = (char)toupper((unsigned char)s[i]);
    t[len] = '\0';
    if (strcmp(t, "JK") == 0 || strcmp(t, "JOKER") == 0) {
        *out = FRAY_JOKER_FIRST;
        return FRAY_OK;
    }
    const char *suit = strchr(SUIT_LETTER, t[len - 1]);
    if (!suit || t[len - 1] == '\0')
        return FRAY_ERR_PARSE;
    t[len - 1] = '\0';
    int rank;
    if (strcmp(t, "J") == 0)
        rank = FRAY_RANK_JACK;
    else if (strcmp(t, "Q") == 0)
        rank = FRAY_RANK_QUEEN;
    else if (strcmp(t, "K") == 0)
        rank = FRAY_RANK_KING;
    else if (strcmp(t, "A") == 0)
        rank = FRAY_RANK_ACE;
    else if (strcmp(t, "T") == 0 || strcmp(t, "10") == 0)
        rank = 10;
    else if (t[0] >= '2' && t[0] <= '9' && t[1] == '\0')
        rank = t[0] - '0';
    else
        return FRAY_ERR_PARSE;
    *out = fray_card_make(rank, (fray_suit)(suit - SUIT_LETTER));
    return FRAY_OK;
}

static fray_status card_error(fray_diag *diag, const char *tok, size_t len,
                              int column) {
    return fray__diag_set(diag, FRAY_ERR_PARSE, column,
                          "'%.*s' is not a card: write a rank (2-10, J, Q, K, "
                          "A) then a suit (C, D, H, S), like KH or 10S",
                          (int)(len > 32 ? 32 : len), tok);
}

fray_status fray_card_parse(const char *token, fray_card *out_card,
                            fray_diag *diag) {
    size_t len = strlen(token);
    if (parse_card(token, len, out_card) != FRAY_OK)
        return card_error(diag, token, len, 1);
    return FRAY_OK;
}

fray_status fray_card_parse_list(const char *text, fray_card *out, size_t cap,
                                 size_t *out_n, fray_diag *diag) {
    size_t n = 0;
    const char *p = text;
    *out_n = 0;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n')
            p++;
        if (*p == '\0')
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != ',' && *p != '\t' && *p != '\n')
            p++;
        size_t len = (size_t)(p - start);
        int column = (int)(start - text) + 1;
        fray_card c;
        if (parse_card(start, len, &c) != FRAY_OK)
            return card_error(diag, start, len, column);
        if (n == cap)
            return fray__diag_set(diag, FRAY_ERR_RANGE, column,
                                  "too many cards: at most %zu fit here", cap);
        out[n++] = c;
    }
    *out_n = n;
    return FRAY_OK;
}

/* ---- Deck options --------------------------------------------------------- */

void fray_deck_options_default(fray_deck_options *out) {
    out->aces_low = false;
    out->jokers = 0;
    out->joker_value = FRAY_CARD_VALUE_MAX;
}

fray_status fray_deck_options_check(const fray_deck_options *opts) {
    if (opts->jokers < 0 || opts->jokers > 2)
        return FRAY_ERR_RANGE;
    if (opts->joker_value < 0 || opts->joker_value > FRAY_CARD_VALUE_MAX)
        return FRAY_ERR_RANGE;
    return FRAY_OK;
}

int fray_deck_options_size(const fray_deck_options *opts) {
    return FRAY_CARDS_STANDARD + opts->jokers;
}

/* Ranks 2..14 per suit; the Hearts (suit 2) carry FRAY__LOOK_HEART. */
#define RANKS(h)                                                              \
    2 | (h), 3 | (h), 4 | (h), 5 | (h), 6 | (h), 7 | (h), 8 | (h), 9 | (h),   \
        10 | (h), 11 | (h), 12 | (h), 13 | (h), 14 | (h)
const uint8_t fray__rank_look[FRAY_CARDS_STANDARD] = {
    RANKS(0), RANKS(0), RANKS(FRAY__LOOK_HEART), RANKS(0)};

/* The deck fray__deck_init builds for the default options (RULINGS 1: 52
 * cards, Aces high, no Jokers), byte for byte: every card in the draw
 * pile, card 0 on top; the Jokers' places ABSENT, their looks the default
 * Joker value; all else zero (the padding too). Every trial of a
 * simulation starts its decks from it with one copy. */
#define DRAW4 FRAY_PLACE_DRAW, FRAY_PLACE_DRAW, FRAY_PLACE_DRAW, FRAY_PLACE_DRAW
#define DRAW13 DRAW4, DRAW4, DRAW4, FRAY_PLACE_DRAW
static const fray_deck default_deck = {
    .opts = {false, 0, FRAY_CARD_VALUE_MAX},
    .size = FRAY_CARDS_STANDARD,
    .place = {DRAW13, DRAW13, DRAW13, DRAW13, FRAY_PLACE_ABSENT,
              FRAY_PLACE_ABSENT},
    .draw = {51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39,
             38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
             25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
             12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0},
    .n_draw = FRAY_CARDS_STANDARD,
    .look = {RANKS(0), RANKS(0), RANKS(FRAY__LOOK_HEART), RANKS(0),
             FRAY_CARD_VALUE_MAX, FRAY_CARD_VALUE_MAX},
};
#undef DRAW13
#undef DRAW4
#undef RANKS

int fray_card_value(const fray_deck_options *opts, fray_card card) {
    return (int)(fray__card_look(opts, card) & FRAY__LOOK_VALUE);
}

/* ---- Decks ----------------------------------------------------------------- */

/*
 * Every card sits in exactly one place. The draw pile is an array whose END
 * is the top, so drawing pops; the other places are unordered except the
 * discard pile, which keeps discard order (that is what gets reshuffled).
 */
/* struct fray_deck lives in cards_int.h so that encounters can embed decks. */

/* fray__deck_init the long way, for options already checked. */
static void deck_build(fray_deck *d, const fray_deck_options *opts) {
    memset(d, 0, sizeof *d);
    d->opts = *opts;
    d->size = fray_deck_options_size(opts);
    /* Only the Aces and the Jokers depend on the options. */
    memcpy(d->look, fray__rank_look, sizeof fray__rank_look);
    for (int suit = 0; suit < 4; suit++) {
        fray_card ace = make(FRAY_RANK_ACE, (fray_suit)suit);
        d->look[ace] = (uint8_t)fray__card_look(opts, ace);
    }
    for (int c = FRAY_CARDS_STANDARD; c < FRAY_CARDS_MAX; c++)
        d->look[c] = (uint8_t)fray__card_look(opts, (fray_card)c);
    /* Top of the pile is the end: put card 0 on top so a fresh deck draws
     * in id order. Every deck has the 52 standard cards (a fixed-size
     * copy), then its Jokers. */
    static const fray_card deal[FRAY_CARDS_MAX] = {
        53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
        39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
        25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
        11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
    assert(d->size >= FRAY_CARDS_STANDARD && d->size <= FRAY_CARDS_MAX);
    memcpy(d->draw, deal + (FRAY_CARDS_MAX - d->size), FRAY_CARDS_STANDARD);
    memset(d->place, FRAY_PLACE_DRAW, FRAY_CARDS_STANDARD);
    for (int i = FRAY_CARDS_STANDARD; i < d->size; i++) {
        d->draw[i] = (fray_card)(d->size - 1 - i);
        d->place[i] = FRAY_PLACE_DRAW;
    }
    d->n_draw = (size_t)d->size;
}

fray_status fray__deck_init(fray_deck *d, const fray_deck_options *opts) {
    fray_deck_options def;
    if (!opts) {
        fray_deck_options_default(&def);
        opts = &def;
    }
    if (fray_deck_options_check(opts) != FRAY_OK)
        return FRAY_ERR_RANGE;
    if (!opts->aces_low && opts->jokers == 0 &&
        opts->joker_value == FRAY_CARD_VALUE_MAX) {
        memcpy(d, &default_deck, sizeof *d);
#ifndef NDEBUG
        /* The long way gives the same bytes (with options whose padding
         * is zero: it copies theirs). */
        fray_deck check;
        fray_deck_options clean;
        memset(&clean, 0, sizeof clean);
        clean.aces_low = opts->aces_low;
        clean.jokers = opts->jokers;
        clean.joker_value = opts->joker_value;
        deck_build(&check, &clean);
        assert(memcmp(&check, d, sizeof check) == 0);
#endif
        return FRAY_OK;
    }
    deck_build(d, opts);
    return FRAY_OK;
}

fray_status fray_deck_new(const fray_deck_options *opts,
                          const fray_allocator *alloc, fray_deck **out_deck) {
    if (opts && fray_deck_options_check(opts) != FRAY_OK)
        return FRAY_ERR_RANGE;
    fray_deck *d = fray__alloc(alloc, sizeof *d);
    if (!d)
        return FRAY_ERR_NOMEM;
    fray__deck_init(d, opts);
    if (alloc)
        d->alloc = *alloc;
    *out_deck = d;
    return FRAY_OK;
}

void fray_deck_free(fray_deck *deck) {
    if (deck) {
        fray_allocator alloc = deck->alloc;
        fray__free(&alloc, deck, sizeof *deck);
    }
}

const fray_deck_options *fray_deck_options_of(const fray_deck *deck) {
    return &deck->opts;
}

fray_status fray_deck_copy(fray_deck *dst, const fray_deck *src) {
    if (dst->size != src->size || dst->opts.aces_low != src->opts.aces_low ||
        dst->opts.joker_value != src->opts.joker_value)
        return FRAY_ERR_INVALID;
    fray_allocator alloc = dst->alloc;
    *dst = *src;
    dst->alloc = alloc;
    return FRAY_OK;
}

/* fray_rng_below (rng.c), inlined for the shuffle: the same PCG32 step
 * and the same rejection, so the same draws (every fight starts with a
 * shuffle of each deck: a call per card adds up). A deck holds at most
 * FRAY_CARDS_MAX cards, so the bounds are 2..54: their rejection
 * thresholds ((2^32 - bound) mod bound) come from a table, and the
 * remainder r % bound from Lemire's exact "fastmod" (M = 2^64 / bound
 * rounded up; r % bound = ((M * r mod 2^64) * bound) >> 64 for every
 * 32-bit r and bound: Lemire, Kaser, Kurz, "Faster Remainder by Direct
 * Computation", 2019) instead of two divisions. */
static const uint32_t below_threshold[FRAY_CARDS_MAX + 1] = {
    0u, 0u, 0u, 1u, 0u, 1u, 4u, 4u, 0u, 4u, 6u, 4u, 4u, 9u, 4u, 1u, 0u, 1u, 4u,
    6u, 16u, 4u, 4u, 12u, 16u, 21u, 22u, 22u, 4u, 16u, 16u, 4u, 0u, 4u, 18u,
    11u, 4u, 7u, 6u, 22u, 16u, 37u, 4u, 16u, 4u, 31u, 12u, 42u, 16u, 39u, 46u,
    1u, 48u, 42u, 22u,
};
#if defined(__SIZEOF_INT128__)
static const uint64_t below_magic[FRAY_CARDS_MAX + 1] = {
    0x0000000000000000u, 0x0000000000000000u, 0x8000000000000000u,
    0x5555555555555556u, 0x4000000000000000u, 0x3333333333333334u,
    0x2aaaaaaaaaaaaaabu, 0x2492492492492493u, 0x2000000000000000u,
    0x1c71c71c71c71c72u, 0x199999999999999au, 0x1745d1745d1745d2u,
    0x1555555555555556u, 0x13b13b13b13b13b2u, 0x124924924924924au,
    0x1111111111111112u, 0x1000000000000000u, 0x0f0f0f0f0f0f0f10u,
    0x0e38e38e38e38e39u, 0x0d79435e50d79436u, 0x0ccccccccccccccdu,
    0x0c30c30c30c30c31u, 0x0ba2e8ba2e8ba2e9u, 0x0b21642c8590b217u,
    0x0aaaaaaaaaaaaaabu, 0x0a3d70a3d70a3d71u, 0x09d89d89d89d89d9u,
    0x097b425ed097b426u, 0x0924924924924925u, 0x08d3dcb08d3dcb09u,
    0x0888888888888889u, 0x0842108421084211u, 0x0800000000000000u,
    0x07c1f07c1f07c1f1u, 0x0787878787878788u, 0x0750750750750751u,
    0x071c71c71c71c71du, 0x06eb3e45306eb3e5u, 0x06bca1af286bca1bu,
    0x0690690690690691u, 0x0666666666666667u, 0x063e7063e7063e71u,
    0x0618618618618619u, 0x05f417d05f417d06u, 0x05d1745d1745d175u,
    0x05b05b05b05b05b1u, 0x0590b21642c8590cu, 0x0572620ae4c415cau,
    0x0555555555555556u, 0x05397829cbc14e5fu, 0x051eb851eb851eb9u,
    0x0505050505050506u, 0x04ec4ec4ec4ec4edu, 0x04d4873ecade304eu,
    0x04bda12f684bda13u,
};
#endif

/* The largest entry of below_threshold: a draw at or above it is never
 * rejected, whatever the bound, so the table need not be read then. */
enum { BELOW_THRESHOLD_CEIL = 64 };

/* One step of the Fisher-Yates below: fray_rng_below(rng, i) with the
 * stream `state` (returned advanced), then cards[i - 1] swapped with the
 * card it names (marked in the draw pile when place is given). */
static inline uint64_t shuffle_step(fray_card *cards, size_t i,
                                    uint64_t state, uint64_t inc,
                                    uint8_t *place) {
    uint32_t bound = (uint32_t)i, r;
    bool rejected;
    do {
        uint64_t old = state;
        state = old * 6364136223846793005ULL + inc;
        uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
        uint32_t rot = (uint32_t)(old >> 59u);
        r = (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
        rejected = r < BELOW_THRESHOLD_CEIL;
#if defined(__GNUC__)
        rejected = __builtin_expect(rejected, 0);
#endif
    } while (rejected && r < below_threshold[bound]);
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    uint64_t low = below_magic[bound] * r;
    size_t j = (size_t)(((u128)low * bound) >> 64);
#else
    size_t j = r % bound;
#endif
    /* cards[i - 1] takes cards[j] (itself when j == i - 1): final. */
    fray_card t = cards[i - 1], u = cards[j];
    cards[i - 1] = u;
    cards[j] = t;
    if (place)
        place[u] = FRAY_PLACE_DRAW;
    return state;
}

/* Fisher-Yates over cards[0..n) with fray_rng_below(rng, i) for i = n..2,
 * as above, four steps a turn (fewer moves of the loop's registers). The
 * stream is kept in locals: the card stores are bytes, which may alias
 * anything, and would otherwise make the compiler store and reload
 * rng->state on every card. */
static inline void shuffle_marking(fray_card *cards, size_t n,
                                   fray_rng *rng, uint8_t *place) {
    assert(n <= FRAY_CARDS_MAX);
    uint64_t state = rng->state;
    const uint64_t inc = rng->inc;
    size_t i = n;
    for (; i > 4; i -= 4) {
        state = shuffle_step(cards, i, state, inc, place);
        state = shuffle_step(cards, i - 1, state, inc, place);
        state = shuffle_step(cards, i - 2, state, inc, place);
        state = shuffle_step(cards, i - 3, state, inc, place);
    }
    for (; i > 1; i--)
        state = shuffle_step(cards, i, state, inc, place);
    if (place && n > 0)
        place[cards[0]] = FRAY_PLACE_DRAW;
    rng->state = state;
}

static void shuffle(fray_card *cards, size_t n, fray_rng *rng) {
    shuffle_marking(cards, n, rng, NULL);
}

void fray_deck_shuffle(fray_deck *deck, fray_rng *rng) {
    shuffle(deck->draw, deck->n_draw, rng);
}

void fray_deck_reset(fray_deck *deck, fray_rng *rng) {
    for (int i = 0; i < deck->size; i++) {
        deck->draw[i] = (fray_card)i;
        deck->place[i] = FRAY_PLACE_DRAW;
    }
    deck->n_draw = (size_t)deck->size;
    deck->n_discard = 0;
    fray_deck_shuffle(deck, rng);
}

static void remove_from(fray_card *pile, size_t *n, fray_card card) {
    for (size_t i = 0; i < *n; i++) {
        if (pile[i] == card) {
            memmove(pile + i, pile + i + 1, (*n - i - 1) * sizeof *pile);
            (*n)--;
            return;
        }
    }
}

/* Shuffles the discards and slides them under the draw pile. */
void fray__deck_reshuffle(fray_deck *deck, fray_rng *rng) {
    /* Every discard goes back to the draw pile: marked as it is shuffled. */
    shuffle_marking(deck->discard, deck->n_discard, rng, deck->place);
    /* The draw pile's cards move up (a deck reshuffles when they are
     * fewer than a flip: a few, one by one, top first), and the discards
     * go under them. */
    size_t nd = deck->n_discard;
    for (size_t i = deck->n_draw; i > 0; i--)
        deck->draw[i - 1 + nd] = deck->draw[i - 1];
    memcpy(deck->draw, deck->discard, nd * sizeof *deck->draw);
    deck->n_draw += deck->n_discard;
    deck->n_discard = 0;
}

void fray__deck_refresh(fray_deck *deck, fray_rng *rng) {
    for (size_t i = 0; i < deck->n_discard; i++) {
        deck->place[deck->discard[i]] = FRAY_PLACE_DRAW;
        deck->draw[deck->n_draw++] = deck->discard[i];
    }
    deck->n_discard = 0;
    shuffle(deck->draw, deck->n_draw, rng);
}

static fray_status draw_to(fray_deck *deck, fray_rng *rng, size_t n,
                           fray_card *out, fray_card_place to) {
    if (deck->n_draw < n) {
        if (deck->n_draw + deck->n_discard < n)
            return FRAY_ERR_DECK_EMPTY;
        fray__deck_reshuffle(deck, rng);
    }
    for (size_t i = 0; i < n; i++) {
        fray_card c = deck->draw[--deck->n_draw];
        deck->place[c] = (uint8_t)to;
        out[i] = c;
    }
    return FRAY_OK;
}

fray_status fray_deck_draw(fray_deck *deck, fray_rng *rng, size_t n,
                           fray_card *out_cards) {
    return draw_to(deck, rng, n, out_cards, FRAY_PLACE_IN_PLAY);
}

fray_status fray_deck_hold(fray_deck *deck, fray_rng *rng, size_t n,
                           fray_card *out_cards) {
    return draw_to(deck, rng, n, out_cards, FRAY_PLACE_HELD);
}

fray_card_place fray_deck_place(const fray_deck *deck, fray_card card) {
    if (card >= deck->size)
        return FRAY_PLACE_ABSENT;
    return (fray_card_place)deck->place[card];
}

fray_status fray_deck_take(fray_deck *deck, fray_card card) {
    switch (fray_deck_place(deck, card)) {
    case FRAY_PLACE_DRAW:
        remove_from(deck->draw, &deck->n_draw, card);
        break;
    case FRAY_PLACE_DISCARD:
        remove_from(deck->discard, &deck->n_discard, card);
        break;
    default:
        return FRAY_ERR_CARD_UNAVAILABLE;
    }
    deck->place[card] = FRAY_PLACE_IN_PLAY;
    return FRAY_OK;
}

fray_status fray_deck_discard(fray_deck *deck, const fray_card *cards,
                              size_t n) {
    for (size_t i = 0; i < n; i++) {
        fray_card_place p = fray_deck_place(deck, cards[i]);
        if (p != FRAY_PLACE_IN_PLAY && p != FRAY_PLACE_HELD)
            return FRAY_ERR_CARD_UNAVAILABLE;
    }
    for (size_t i = 0; i < n; i++) {
        /* A card listed twice is moved once. */
        if (deck->place[cards[i]] == FRAY_PLACE_DISCARD)
            continue;
        deck->place[cards[i]] = FRAY_PLACE_DISCARD;
        deck->discard[deck->n_discard++] = cards[i];
    }
    return FRAY_OK;
}

fray_status fray_deck_stack(fray_deck *deck, const fray_card *cards,
                            size_t n) {
    bool seen[FRAY_CARDS_MAX] = {false};
    for (size_t i = 0; i < n; i++) {
        fray_card_place p = fray_deck_place(deck, cards[i]);
        if ((p != FRAY_PLACE_DRAW && p != FRAY_PLACE_DISCARD) || seen[cards[i]])
            return FRAY_ERR_CARD_UNAVAILABLE;
        seen[cards[i]] = true;
    }
    for (size_t i = 0; i < n; i++) {
        if (deck->place[cards[i]] == FRAY_PLACE_DRAW)
            remove_from(deck->draw, &deck->n_draw, cards[i]);
        else
            remove_from(deck->discard, &deck->n_discard, cards[i]);
    }
    /* The first given card must be drawn first: it goes on top (the end). */
    for (size_t i = n; i > 0; i--) {
        deck->draw[deck->n_draw++] = cards[i - 1];
        deck->place[cards[i - 1]] = FRAY_PLACE_DRAW;
    }
    return FRAY_OK;
}

fray_status fray_deck_play_held(fray_deck *deck, fray_card card) {
    if (fray_deck_place(deck, card) != FRAY_PLACE_HELD)
        return FRAY_ERR_CARD_UNAVAILABLE;
    deck->place[card] = FRAY_PLACE_IN_PLAY;
    return FRAY_OK;
}

size_t fray_deck_count(const fray_deck *deck, fray_card_place place) {
    switch (place) {
    case FRAY_PLACE_DRAW:
        return deck->n_draw;
    case FRAY_PLACE_DISCARD:
        return deck->n_discard;
    case FRAY_PLACE_ABSENT:
        return (size_t)(FRAY_CARDS_MAX - deck->size);
    default:
        break;
    }
    size_t n = 0;
    for (int i = 0; i < deck->size; i++)
        n += deck->place[i] == (uint8_t)place;
    return n;
}

size_t fray_deck_held(const fray_deck *deck, fray_card *out, size_t cap) {
    /* A Hand of Fate is a few cards of 54: memchr finds them fast. */
    size_t n = 0;
    const uint8_t *p = deck->place, *end = deck->place + deck->size;
    while (p < end &&
           (p = memchr(p, FRAY_PLACE_HELD, (size_t)(end - p))) != NULL) {
        if (n < cap)
            out[n] = (fray_card)(p - deck->place);
        n++;
        p++;
    }
    return n;
}

/* test_cards.c - cards, their notation and decks (99 Towers: RULINGS 1,
 * 2 and 7; rules-facts.md "Hand of Fate"). */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "fray/cards.h"

static fray_card C(int rank, fray_suit suit) { return fray_card_make(rank, suit); }

static fray_deck *new_deck(const fray_deck_options *opts) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(opts, NULL, &d), FRAY_OK);
    return d;
}

/* Every card is in exactly one place (cards.h). */
static void expect_conserved(const fray_deck *d) {
    size_t total = 0;
    for (int p = FRAY_PLACE_ABSENT; p <= FRAY_PLACE_IN_PLAY; p++)
        total += fray_deck_count(d, (fray_card_place)p);
    cr_expect_eq(total, FRAY_CARDS_MAX);
}

/* ---- Cards and notation (RULINGS 1, 7) --------------------------------- */

Test(cards, ids_ranks_suits) {
    fray_card kh = C(FRAY_RANK_KING, FRAY_SUIT_HEARTS);
    cr_expect_eq(kh, 2 * 13 + 13 - 2);
    cr_expect_eq(fray_card_rank(kh), 13);
    cr_expect_eq(fray_card_suit(kh), FRAY_SUIT_HEARTS);
    cr_expect(fray_card_is_heart(kh));
    cr_expect(!fray_card_is_joker(kh));
    cr_expect_eq(fray_card_rank(52), 0);
    cr_expect_eq(fray_card_suit(53), FRAY_SUIT_NONE);
    cr_expect(fray_card_is_joker(53));
    cr_expect(!fray_card_is_heart(52), "a Joker is not a Heart (RULINGS 5)");
    int hearts = 0;
    for (int c = 0; c < FRAY_CARDS_MAX; c++)
        hearts += fray_card_is_heart((fray_card)c);
    cr_expect_eq(hearts, 13, "one Heart per rank (RULINGS 1)");
}

/* RULINGS 7: cards entered by hand in plain notation ("KH", "10S", "AS",
 * "4D"), any case. */
Test(cards, parse_good_tokens) {
    struct {
        const char *text;
        int rank;
        fray_suit suit;
    } good[] = {{"KH", 13, FRAY_SUIT_HEARTS},   {"10s", 10, FRAY_SUIT_SPADES},
                {"ts", 10, FRAY_SUIT_SPADES},   {"AS", 14, FRAY_SUIT_SPADES},
                {"4D", 4, FRAY_SUIT_DIAMONDS},  {"2c", 2, FRAY_SUIT_CLUBS},
                {"qh", 12, FRAY_SUIT_HEARTS},   {"jD", 11, FRAY_SUIT_DIAMONDS}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        fray_card c;
        cr_assert_eq(fray_card_parse(good[i].text, &c, NULL), FRAY_OK, "%s",
                     good[i].text);
        cr_expect_eq(c, C(good[i].rank, good[i].suit), "%s", good[i].text);
    }
    fray_card c;
    cr_expect_eq(fray_card_parse("JK", &c, NULL), FRAY_OK);
    cr_expect_eq(c, FRAY_JOKER_FIRST);
    cr_expect_eq(fray_card_parse("joker", &c, NULL), FRAY_OK);
    cr_expect_eq(c, FRAY_JOKER_FIRST);
}

/* RULINGS 7: anything else is refused with a message naming the token. */
Test(cards, parse_bad_tokens) {
    const char *bad[] = {"",   "H",   "1H",  "11H", "KX",  "K",    "10",
                         "0S", "QK",  "JKH", "AAS", "KH ", "Jokers", "xyzzyxyzzy"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fray_card c = 77;
        fray_diag diag = {0};
        cr_expect_eq(fray_card_parse(bad[i], &c, &diag), FRAY_ERR_PARSE,
                     "'%s'", bad[i]);
        cr_expect_eq(c, 77, "'%s' left the output alone", bad[i]);
        cr_expect_eq(diag.column, 1);
        cr_expect(strstr(diag.message, "is not a card") != NULL, "%s",
                  diag.message);
    }
    fray_diag diag = {0};
    fray_card c;
    cr_expect_eq(fray_card_parse("KX", &c, &diag), FRAY_ERR_PARSE);
    cr_expect(strstr(diag.message, "'KX'") != NULL, "%s", diag.message);
}

/* RULINGS 7: a list of cards; an error names the bad token and its column. */
Test(cards, parse_list_and_columns) {
    fray_card out[8];
    size_t n = 99;
    fray_diag diag = {0};
    cr_assert_eq(fray_card_parse_list("KH 4S, 10d", out, 8, &n, &diag), FRAY_OK);
    cr_expect_eq(n, 3);
    cr_expect_eq(out[0], C(13, FRAY_SUIT_HEARTS));
    cr_expect_eq(out[1], C(4, FRAY_SUIT_SPADES));
    cr_expect_eq(out[2], C(10, FRAY_SUIT_DIAMONDS));

    cr_assert_eq(fray_card_parse_list("  ,, ", out, 8, &n, &diag), FRAY_OK);
    cr_expect_eq(n, 0);

    /* The bad token and its 1-based column. */
    cr_expect_eq(fray_card_parse_list("KH ZZ 4S", out, 8, &n, &diag),
                 FRAY_ERR_PARSE);
    cr_expect_eq(diag.column, 4);
    cr_expect(strstr(diag.message, "'ZZ'") != NULL, "%s", diag.message);
    cr_expect_eq(n, 0, "nothing is reported read on an error");

    cr_expect_eq(fray_card_parse_list("AS,,  1H", out, 8, &n, &diag),
                 FRAY_ERR_PARSE);
    cr_expect_eq(diag.column, 7);
    cr_expect(strstr(diag.message, "'1H'") != NULL, "%s", diag.message);

    cr_expect_eq(fray_card_parse_list("QH\tKH\nZ", out, 8, &n, &diag),
                 FRAY_ERR_PARSE);
    cr_expect_eq(diag.column, 7);

    /* More cards than fit. */
    cr_expect_eq(fray_card_parse_list("2C 3C 4C", out, 2, &n, &diag),
                 FRAY_ERR_RANGE);
    cr_expect_eq(diag.column, 7);
}

/* Every card formats to notation that reads back as the same card. */
Test(cards, format_round_trips) {
    char buf[16];
    cr_expect_str_eq(fray_card_format(C(10, FRAY_SUIT_SPADES), FRAY_CARD_PLAIN, buf),
                     "10S");
    cr_expect_str_eq(fray_card_format(C(13, FRAY_SUIT_HEARTS), FRAY_CARD_PRETTY, buf),
                     "K\xe2\x99\xa5");
    cr_expect_str_eq(fray_card_format(53, FRAY_CARD_PLAIN, buf), "JK");
    cr_expect_str_eq(fray_card_format(52, FRAY_CARD_PRETTY, buf), "Joker");
    cr_expect_str_eq(fray_card_format(200, FRAY_CARD_PLAIN, buf), "?");
    for (int c = 0; c < FRAY_CARDS_STANDARD; c++) {
        fray_card back;
        fray_card_format((fray_card)c, FRAY_CARD_PLAIN, buf);
        cr_assert_eq(fray_card_parse(buf, &back, NULL), FRAY_OK, "%s", buf);
        cr_expect_eq(back, c, "%s", buf);
    }
}

/* ---- Options (RULINGS 1) --------------------------------------------- */

Test(cards, options_values) {
    fray_deck_options o;
    fray_deck_options_default(&o);
    cr_expect(!o.aces_low);
    cr_expect_eq(o.jokers, 0);
    cr_expect_eq(fray_deck_options_size(&o), 52);
    fray_card ace = C(FRAY_RANK_ACE, FRAY_SUIT_CLUBS);
    cr_expect_eq(fray_card_value(&o, ace), 14, "aces high by default");
    cr_expect_eq(fray_card_value(NULL, ace), 14);
    cr_expect_eq(fray_card_value(&o, C(11, FRAY_SUIT_CLUBS)), 11);
    o.aces_low = true;
    cr_expect_eq(fray_card_value(&o, ace), 1, "aces: low");
    o.jokers = 2;
    o.joker_value = 0;
    cr_expect_eq(fray_deck_options_check(&o), FRAY_OK);
    cr_expect_eq(fray_deck_options_size(&o), 54);
    cr_expect_eq(fray_card_value(&o, 53), 0);
    o.jokers = 3;
    cr_expect_eq(fray_deck_options_check(&o), FRAY_ERR_RANGE);
    o.jokers = -1;
    cr_expect_eq(fray_deck_options_check(&o), FRAY_ERR_RANGE);
    o.jokers = 1;
    o.joker_value = 16;
    cr_expect_eq(fray_deck_options_check(&o), FRAY_ERR_RANGE);
    fray_deck *d = NULL;
    cr_expect_eq(fray_deck_new(&o, NULL, &d), FRAY_ERR_RANGE);
}

/* RULINGS 1: 52 cards by default; option "jokers: 2" adds the two Jokers. */
Test(deck, jokers_are_part_of_the_deck_only_when_asked) {
    fray_deck *plain = new_deck(NULL);
    cr_expect_eq(fray_deck_place(plain, 52), FRAY_PLACE_ABSENT);
    cr_expect_eq(fray_deck_count(plain, FRAY_PLACE_DRAW), 52);
    cr_expect_eq(fray_deck_count(plain, FRAY_PLACE_ABSENT), 2);
    cr_expect_eq(fray_deck_take(plain, 52), FRAY_ERR_CARD_UNAVAILABLE);
    fray_deck_free(plain);
    fray_deck_options o;
    fray_deck_options_default(&o);
    o.jokers = 1;
    fray_deck *one = new_deck(&o);
    cr_expect_eq(fray_deck_place(one, 52), FRAY_PLACE_DRAW);
    cr_expect_eq(fray_deck_place(one, 53), FRAY_PLACE_ABSENT);
    cr_expect_eq(fray_deck_count(one, FRAY_PLACE_DRAW), 53);
    expect_conserved(one);
    fray_deck_free(one);
}

/* ---- Draw, discard, reshuffle (RULINGS 2 and 7) --------------------- */

Test(deck, fresh_deck_draws_in_id_order) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 1, 1);
    fray_card out[52];
    cr_assert_eq(fray_deck_draw(d, &rng, 52, out), FRAY_OK);
    for (int i = 0; i < 52; i++)
        cr_expect_eq(out[i], i);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 52);
    cr_expect_eq(fray_deck_draw(d, &rng, 1, out), FRAY_ERR_DECK_EMPTY);
    fray_deck_free(d);
}

/* RULINGS 2: a shuffle reorders the same cards, and the same stream gives
 * the same order. */
Test(deck, shuffle_is_a_permutation_and_seeded) {
    fray_deck *a = new_deck(NULL), *b = new_deck(NULL);
    fray_rng ra, rb;
    fray_rng_seed(&ra, 5, 5);
    fray_rng_seed(&rb, 5, 5);
    fray_deck_shuffle(a, &ra);
    fray_deck_shuffle(b, &rb);
    fray_card x[52], y[52];
    cr_assert_eq(fray_deck_draw(a, &ra, 52, x), FRAY_OK);
    cr_assert_eq(fray_deck_draw(b, &rb, 52, y), FRAY_OK);
    cr_expect(memcmp(x, y, sizeof x) == 0, "same seed, same order");
    bool seen[52] = {false};
    int in_place = 0;
    for (int i = 0; i < 52; i++) {
        cr_expect(!seen[x[i]]);
        seen[x[i]] = true;
        in_place += x[i] == i;
    }
    cr_expect_lt(in_place, 10, "the deck was shuffled");
    fray_deck_free(a);
    fray_deck_free(b);
}

/* RULINGS 2: flipped cards go to the discard pile; cards not in play are
 * refused. */
Test(deck, discard_moves_cards_and_rejects_others) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 2, 2);
    fray_card out[3];
    cr_assert_eq(fray_deck_draw(d, &rng, 3, out), FRAY_OK);
    cr_expect_eq(fray_deck_place(d, out[0]), FRAY_PLACE_IN_PLAY);
    /* A card still in the draw pile cannot be discarded; nothing moves. */
    fray_card mixed[] = {out[0], C(13, FRAY_SUIT_SPADES)};
    cr_expect_eq(fray_deck_discard(d, mixed, 2), FRAY_ERR_CARD_UNAVAILABLE);
    cr_expect_eq(fray_deck_place(d, out[0]), FRAY_PLACE_IN_PLAY);
    cr_assert_eq(fray_deck_discard(d, out, 3), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 3);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 0);
    cr_expect_eq(fray_deck_discard(d, out, 1), FRAY_ERR_CARD_UNAVAILABLE,
                 "already discarded");
    expect_conserved(d);
    fray_deck_free(d);
}

/* RULINGS 2: "a deck with too few cards reshuffles its discards"; the
 * discards go UNDER the rest, so a stacked top still comes first. */
Test(deck, reshuffle_when_short_keeps_the_stacked_top) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 3, 3);
    fray_deck_shuffle(d, &rng);
    fray_card first[50];
    cr_assert_eq(fray_deck_draw(d, &rng, 50, first), FRAY_OK);
    cr_assert_eq(fray_deck_discard(d, first, 50), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 2);
    /* The two cards left, in the order they would come. */
    fray_deck *peek = new_deck(NULL);
    cr_assert_eq(fray_deck_copy(peek, d), FRAY_OK);
    fray_card left[2];
    cr_assert_eq(fray_deck_draw(peek, &rng, 2, left), FRAY_OK);
    fray_deck_free(peek);
    /* Stack the KH (now in the discard pile) on top. */
    fray_card kh = C(13, FRAY_SUIT_HEARTS);
    bool kh_left = left[0] == kh || left[1] == kh;
    fray_card top = kh_left ? C(12, FRAY_SUIT_HEARTS) : kh;
    if (kh_left && (left[0] == top || left[1] == top))
        top = C(11, FRAY_SUIT_HEARTS);
    cr_assert_eq(fray_deck_place(d, top), FRAY_PLACE_DISCARD);
    cr_assert_eq(fray_deck_stack(d, &top, 1), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 3);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 49);

    fray_card out[5];
    cr_assert_eq(fray_deck_draw(d, &rng, 5, out), FRAY_OK);
    cr_expect_eq(out[0], top, "the stacked card stays on top");
    cr_expect_eq(out[1], left[0], "then what was left of the draw pile");
    cr_expect_eq(out[2], left[1]);
    for (int i = 3; i < 5; i++)
        cr_expect(out[i] != top && out[i] != left[0] && out[i] != left[1]);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 0);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 47);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 5);
    expect_conserved(d);
    fray_deck_free(d);
}

/* RULINGS 2: even after reshuffling the discards a deck can run short: then
 * nothing is drawn. */
Test(deck, not_enough_cards_draws_nothing) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 4, 4);
    fray_card out[52];
    cr_assert_eq(fray_deck_draw(d, &rng, 40, out), FRAY_OK);
    cr_assert_eq(fray_deck_discard(d, out, 10), FRAY_OK);
    /* 12 in the draw pile + 10 discarded = 22 < 23. */
    cr_expect_eq(fray_deck_draw(d, &rng, 23, out), FRAY_ERR_DECK_EMPTY);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 12);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 10);
    cr_expect_eq(fray_deck_draw(d, &rng, 22, out), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 52);
    fray_deck_free(d);
}

/* ---- Cards by hand (RULINGS 7) --------------------------------------- */

Test(deck, take_from_draw_or_discard) {
    fray_deck *d = new_deck(NULL);
    fray_card as = C(FRAY_RANK_ACE, FRAY_SUIT_SPADES);
    cr_assert_eq(fray_deck_take(d, as), FRAY_OK);
    cr_expect_eq(fray_deck_place(d, as), FRAY_PLACE_IN_PLAY);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 51);
    cr_expect_eq(fray_deck_take(d, as), FRAY_ERR_CARD_UNAVAILABLE, "in play");
    cr_assert_eq(fray_deck_discard(d, &as, 1), FRAY_OK);
    cr_assert_eq(fray_deck_take(d, as), FRAY_OK, "from the discard pile");
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 0);
    /* The taken card is never drawn afterwards. */
    fray_rng rng;
    fray_rng_seed(&rng, 6, 6);
    fray_card out[51];
    cr_assert_eq(fray_deck_draw(d, &rng, 51, out), FRAY_OK);
    for (int i = 0; i < 51; i++)
        cr_expect(out[i] != as);
    expect_conserved(d);
    fray_deck_free(d);
}

/* RULINGS 7: a stacked deck; a bad card leaves the deck unchanged. */
Test(deck, stack_checks_every_card_first) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 7, 7);
    fray_card held;
    cr_assert_eq(fray_deck_hold(d, &rng, 1, &held), FRAY_OK);
    fray_card twice[] = {C(5, FRAY_SUIT_CLUBS), C(5, FRAY_SUIT_CLUBS)};
    cr_expect_eq(fray_deck_stack(d, twice, 2), FRAY_ERR_CARD_UNAVAILABLE);
    fray_card with_held[] = {C(6, FRAY_SUIT_CLUBS), held};
    cr_expect_eq(fray_deck_stack(d, with_held, 2), FRAY_ERR_CARD_UNAVAILABLE);
    /* Unchanged: the next card is still the 3C (id 1). */
    fray_card next;
    cr_assert_eq(fray_deck_draw(d, &rng, 1, &next), FRAY_OK);
    cr_expect_eq(next, 1);
    fray_card order[] = {C(9, FRAY_SUIT_HEARTS), C(2, FRAY_SUIT_SPADES),
                         C(14, FRAY_SUIT_DIAMONDS)};
    cr_assert_eq(fray_deck_stack(d, order, 3), FRAY_OK);
    fray_card out[3];
    cr_assert_eq(fray_deck_draw(d, &rng, 3, out), FRAY_OK);
    cr_expect(memcmp(out, order, sizeof out) == 0, "drawn in the given order");
    fray_deck_free(d);
}

/* ---- Hand of Fate (rules-facts.md; RULINGS 2) ------------------------ */

/* Held cards are out of the deck: never drawn, never reshuffled in. */
Test(deck, held_cards_stay_out_of_reshuffles) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 8, 8);
    fray_deck_shuffle(d, &rng);
    fray_card hand[3];
    cr_assert_eq(fray_deck_hold(d, &rng, 3, hand), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_HELD), 3);
    fray_card got[3];
    cr_expect_eq(fray_deck_held(d, got, 3), 3);
    for (int round = 0; round < 5; round++) {
        fray_card out[49];
        cr_assert_eq(fray_deck_draw(d, &rng, 30, out), FRAY_OK);
        for (int i = 0; i < 30; i++)
            for (int h = 0; h < 3; h++)
                cr_expect(out[i] != hand[h], "round %d drew a held card", round);
        cr_assert_eq(fray_deck_discard(d, out, 30), FRAY_OK);
    }
    fray_card all[50];
    cr_expect_eq(fray_deck_draw(d, &rng, 50, all), FRAY_ERR_DECK_EMPTY,
                 "only 49 cards are in the deck");
    cr_expect_eq(fray_deck_draw(d, &rng, 49, all), FRAY_OK);
    for (int h = 0; h < 3; h++)
        cr_expect_eq(fray_deck_place(d, hand[h]), FRAY_PLACE_HELD);
    /* A held card cannot be taken by hand; it can be played, then
     * discarded; or discarded straight from the Hand. */
    cr_expect_eq(fray_deck_take(d, hand[0]), FRAY_ERR_CARD_UNAVAILABLE);
    cr_assert_eq(fray_deck_play_held(d, hand[0]), FRAY_OK);
    cr_expect_eq(fray_deck_place(d, hand[0]), FRAY_PLACE_IN_PLAY);
    cr_expect_eq(fray_deck_play_held(d, hand[0]), FRAY_ERR_CARD_UNAVAILABLE);
    cr_assert_eq(fray_deck_discard(d, &hand[1], 1), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_HELD), 1);
    expect_conserved(d);
    fray_deck_free(d);
}

/* fray_deck_reset gathers everything, Hand of Fate included. */
Test(deck, reset_gathers_every_card) {
    fray_deck *d = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 9, 9);
    fray_card x[10];
    cr_assert_eq(fray_deck_hold(d, &rng, 3, x), FRAY_OK);
    cr_assert_eq(fray_deck_draw(d, &rng, 10, x), FRAY_OK);
    cr_assert_eq(fray_deck_discard(d, x, 4), FRAY_OK);
    fray_deck_reset(d, &rng);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 52);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_HELD), 0);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 0);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 0);
    fray_deck_free(d);
}

/* ---- Copy (snapshots) -------------------------------------------------- */

Test(deck, copy_continues_identically) {
    fray_deck *a = new_deck(NULL), *b = new_deck(NULL);
    fray_rng rng;
    fray_rng_seed(&rng, 10, 10);
    fray_deck_shuffle(a, &rng);
    fray_card x[45];
    cr_assert_eq(fray_deck_hold(a, &rng, 2, x), FRAY_OK);
    cr_assert_eq(fray_deck_draw(a, &rng, 45, x), FRAY_OK);
    cr_assert_eq(fray_deck_discard(a, x, 40), FRAY_OK);
    cr_assert_eq(fray_deck_copy(b, a), FRAY_OK);
    fray_rng r2 = rng;
    fray_card ya[20], yb[20];
    cr_assert_eq(fray_deck_draw(a, &rng, 20, ya), FRAY_OK); /* reshuffles */
    cr_assert_eq(fray_deck_draw(b, &r2, 20, yb), FRAY_OK);
    cr_expect(memcmp(ya, yb, sizeof ya) == 0);
    for (int c = 0; c < FRAY_CARDS_MAX; c++)
        cr_expect_eq(fray_deck_place(a, (fray_card)c),
                     fray_deck_place(b, (fray_card)c));
    fray_deck_options o;
    fray_deck_options_default(&o);
    o.aces_low = true;
    fray_deck *low = new_deck(&o);
    cr_expect_eq(fray_deck_copy(low, a), FRAY_ERR_INVALID);
    o.aces_low = false;
    o.jokers = 2;
    fray_deck *jk = new_deck(&o);
    cr_expect_eq(fray_deck_copy(jk, a), FRAY_ERR_INVALID);
    cr_expect_eq(fray_deck_options_of(jk)->jokers, 2);
    fray_deck_free(a);
    fray_deck_free(b);
    fray_deck_free(low);
    fray_deck_free(jk);
    fray_deck_free(NULL);
}

/* ---- Allocation through the hook (STYLE.md) --------------------------- */

typedef struct counting {
    int allocs, frees, fail;
} counting;

static void *counting_realloc(void *ud, void *p, size_t old, size_t n) {
    counting *c = ud;
    (void)old;
    if (n == 0) {
        c->frees++;
        free(p);
        return NULL;
    }
    if (c->fail)
        return NULL;
    c->allocs++;
    return realloc(p, n);
}

/* STYLE "Route allocation through one place": the deck allocates through the
 * hook and fails cleanly. */
Test(deck, allocator_hook) {
    counting c = {0, 0, 0};
    fray_allocator a = {counting_realloc, &c};
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, &a, &d), FRAY_OK);
    cr_expect_eq(c.allocs, 1);
    fray_deck_free(d);
    cr_expect_eq(c.frees, 1);
    c.fail = 1;
    d = NULL;
    cr_expect_eq(fray_deck_new(NULL, &a, &d), FRAY_ERR_NOMEM);
    cr_expect(d == NULL);
}

/* The deck keeps its own copy of the allocator: the caller's struct may be
 * a temporary that is reused or gone by the time the deck is freed. */
Test(deck, allocator_struct_is_copied) {
    counting first = {0, 0, 0}, other = {0, 0, 0};
    fray_allocator a = {counting_realloc, &first};
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, &a, &d), FRAY_OK);
    a.ud = &other; /* the caller reuses its struct */
    fray_deck *e = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &e), FRAY_OK);
    cr_assert_eq(fray_deck_copy(e, d), FRAY_OK);
    fray_deck_free(d);
    cr_expect_eq(first.frees, 1, "freed through the allocator it came from");
    cr_expect_eq(other.frees, 0);
    fray_deck_free(e); /* malloc'd: the copy must not take d's allocator */
    cr_expect_eq(first.frees, 1);
}

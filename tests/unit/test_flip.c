/* test_flip.c - flips and checks (99 Towers: seed 000 "Entering Combat and
 * Initiative", "Attacking and Defending", "Skill, Aspect, and Attribute
 * Checks", "Critical Hits"; seed 001 "Opposed Skill Flips", "Unopposed
 * Skill Flips"; RULINGS 1, 3, 4, 5, 6; rules-facts.md "Hand of Fate"). */
#include <criterion/criterion.h>

#include <limits.h>
#include <string.h>

#include "fray/flip.h"

static fray_card C(int rank, fray_suit suit) { return fray_card_make(rank, suit); }

/* A fresh deck (default options unless given) whose next cards are these. */
static fray_deck *stacked(const fray_deck_options *opts, const fray_card *cards,
                          size_t n) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(opts, NULL, &d), FRAY_OK);
    fray_rng rng;
    fray_rng_seed(&rng, 1, 1);
    fray_deck_shuffle(d, &rng);
    cr_assert_eq(fray_deck_stack(d, cards, n), FRAY_OK);
    return d;
}

/* ---- fray_flip_plan: RULINGS 3 ---------------------------------------- */

Test(flip_plan, positive_n_flips_n_keeping_highest) {
    int cards;
    bool low;
    fray_flip_plan(1, NULL, &cards, &low);
    cr_expect_eq(cards, 1);
    cr_expect(!low);
    fray_flip_plan(5, NULL, &cards, &low);
    cr_expect_eq(cards, 5);
    cr_expect(!low);
}

/* RULINGS 3: n < 1 flips 2 - n cards and keeps the LOWEST. */
Test(flip_plan, below_one_flips_two_minus_n_keeping_lowest) {
    int cards;
    bool low;
    fray_flip_plan(0, NULL, &cards, &low);
    cr_expect_eq(cards, 2);
    cr_expect(low);
    fray_flip_plan(-1, NULL, &cards, &low);
    cr_expect_eq(cards, 3);
    cr_expect(low);
    fray_flip_plan(-4, NULL, &cards, &low);
    cr_expect_eq(cards, 6);
    cr_expect(low);
}

/* RULINGS 3 option "min-one-card": n < 1 flips a single card. */
Test(flip_plan, min_one_card_option_flips_one) {
    fray_flip_rules rules = {.min_one_card = true};
    int cards;
    bool low;
    fray_flip_plan(0, &rules, &cards, &low);
    cr_expect_eq(cards, 1);
    fray_flip_plan(-3, &rules, &cards, &low);
    cr_expect_eq(cards, 1);
    fray_flip_plan(3, &rules, &cards, &low);
    cr_expect_eq(cards, 3);
    cr_expect(!low);
}

/* RULINGS 3 with a very negative n: never more cards than the largest deck. */
Test(flip_plan, clamps_to_the_largest_deck) {
    int cards;
    bool low;
    fray_flip_plan(1000, NULL, &cards, &low);
    cr_expect_eq(cards, FRAY_CARDS_MAX);
    fray_flip_plan(INT_MAX, NULL, &cards, &low);
    cr_expect_eq(cards, FRAY_CARDS_MAX);
    fray_flip_plan(-52, NULL, &cards, &low);
    cr_expect_eq(cards, FRAY_CARDS_MAX);
    cr_expect(low);
    fray_flip_plan(INT_MIN, NULL, &cards, &low);
    cr_expect_eq(cards, FRAY_CARDS_MAX);
    cr_expect(low);
}

/* ---- fray_flip_draw ---------------------------------------------------- */

/* Seed 000 "Entering Combat and Initiative": Tony has <N> 2, flips a King
 * and a Four, keeps the King (13), adds his <N> of 2: 15, first acts in
 * phase 20 - 15 = 5. */
Test(flip_draw, tony_initiative) {
    fray_card cards[] = {C(13, FRAY_SUIT_SPADES), C(4, FRAY_SUIT_CLUBS)};
    fray_deck *d = stacked(NULL, cards, 2);
    fray_rng rng;
    fray_rng_seed(&rng, 2, 2);
    fray_check n = {.kind = FRAY_CHECK_COMBAT, .rank = 2};
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, fray_check_n(&n), NULL, &f), FRAY_OK);
    cr_expect_eq(f.n_cards, 2);
    cr_expect_eq(f.kept_value, 13);
    cr_expect_eq(f.cards[f.kept], C(13, FRAY_SUIT_SPADES));
    int calculated = f.kept_value + n.rank; /* initiative adds <N> again */
    cr_expect_eq(calculated, 15);
    cr_expect_eq(20 - calculated, 5);
    fray_deck_free(d);
}

/* RULINGS 2: flipped cards go to the deck's discard pile. */
Test(flip_draw, cards_go_to_the_discard_pile) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &d), FRAY_OK);
    fray_rng rng;
    fray_rng_seed(&rng, 3, 3);
    fray_deck_shuffle(d, &rng);
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 3, NULL, &f), FRAY_OK);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 3);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 0);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 49);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(fray_deck_place(d, f.cards[i]), FRAY_PLACE_DISCARD);
    fray_deck_free(d);
}

/* RULINGS 5: Hearts are counted over every card, not only the kept one. */
Test(flip_draw, hearts_count_every_card) {
    fray_card cards[] = {C(2, FRAY_SUIT_HEARTS), C(5, FRAY_SUIT_HEARTS),
                         C(13, FRAY_SUIT_SPADES)};
    fray_deck *d = stacked(NULL, cards, 3);
    fray_rng rng;
    fray_rng_seed(&rng, 4, 4);
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 3, NULL, &f), FRAY_OK);
    cr_expect_eq(f.kept_value, 13);
    cr_expect_eq(f.hearts, 2);
    fray_deck_free(d);
}

/* RULINGS 3: n = 0 flips two and keeps the lowest; n = -1 flips three. */
Test(flip_draw, zero_and_negative_keep_the_lowest) {
    fray_card cards[] = {C(13, FRAY_SUIT_SPADES), C(3, FRAY_SUIT_HEARTS),
                         C(9, FRAY_SUIT_CLUBS)};
    fray_deck *d = stacked(NULL, cards, 3);
    fray_rng rng;
    fray_rng_seed(&rng, 5, 5);
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 0, NULL, &f), FRAY_OK);
    cr_expect_eq(f.n_cards, 2);
    cr_expect(f.keep_lowest);
    cr_expect_eq(f.kept_value, 3);
    cr_expect_eq(f.kept, 1);
    cr_expect_eq(f.hearts, 1);
    fray_deck_free(d);

    d = stacked(NULL, cards, 3);
    cr_assert_eq(fray_flip_draw(d, &rng, -1, NULL, &f), FRAY_OK);
    cr_expect_eq(f.n_cards, 3);
    cr_expect_eq(f.kept_value, 3);
    fray_deck_free(d);

    fray_flip_rules one = {.min_one_card = true};
    d = stacked(NULL, cards, 3);
    cr_assert_eq(fray_flip_draw(d, &rng, -1, &one, &f), FRAY_OK);
    cr_expect_eq(f.n_cards, 1);
    cr_expect_eq(f.kept_value, 13);
    fray_deck_free(d);
}

/* RULINGS 1 option "aces: low": an Ace is worth 1, so it loses to a 2 and
 * is the kept card of a keep-lowest flip. */
Test(flip_draw, aces_low_option) {
    fray_deck_options opts;
    fray_deck_options_default(&opts);
    opts.aces_low = true;
    fray_card cards[] = {C(FRAY_RANK_ACE, FRAY_SUIT_SPADES), C(2, FRAY_SUIT_CLUBS)};
    fray_deck *d = stacked(&opts, cards, 2);
    fray_rng rng;
    fray_rng_seed(&rng, 6, 6);
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 2, NULL, &f), FRAY_OK);
    cr_expect_eq(f.kept_value, 2);
    fray_deck_free(d);
    d = stacked(&opts, cards, 2);
    cr_assert_eq(fray_flip_draw(d, &rng, 0, NULL, &f), FRAY_OK);
    cr_expect_eq(f.kept_value, 1);
    fray_deck_free(d);
    /* Default aces high: the Ace is 14. */
    d = stacked(NULL, cards, 2);
    cr_assert_eq(fray_flip_draw(d, &rng, 2, NULL, &f), FRAY_OK);
    cr_expect_eq(f.kept_value, 14);
    fray_deck_free(d);
}

/* RULINGS 1 option "jokers: 2": a Joker is worth joker_value and is not a
 * Heart (RULINGS 5). */
Test(flip_draw, jokers_are_not_hearts) {
    fray_deck_options opts;
    fray_deck_options_default(&opts);
    opts.jokers = 2;
    fray_card cards[] = {FRAY_JOKER_FIRST, C(2, FRAY_SUIT_HEARTS)};
    fray_deck *d = stacked(&opts, cards, 2);
    fray_rng rng;
    fray_rng_seed(&rng, 7, 7);
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 2, NULL, &f), FRAY_OK);
    cr_expect_eq(f.kept_value, 15);
    cr_expect_eq(f.hearts, 1);
    fray_deck_free(d);
}

/* RULINGS 2: a flip larger than the deck fails and draws nothing. */
Test(flip_draw, too_many_cards_is_deck_empty) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &d), FRAY_OK);
    fray_rng rng;
    fray_rng_seed(&rng, 8, 8);
    fray_card held[3];
    cr_assert_eq(fray_deck_hold(d, &rng, 3, held), FRAY_OK);
    fray_flip f;
    cr_expect_eq(fray_flip_draw(d, &rng, 50, NULL, &f), FRAY_ERR_DECK_EMPTY);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 49);
    fray_deck_free(d);
}

/* ---- fray_flip_from_cards (RULINGS 7: cards entered by hand) ---------- */

Test(flip_from_cards, builds_a_flip_without_a_deck) {
    fray_card cards[] = {C(13, FRAY_SUIT_HEARTS), C(4, FRAY_SUIT_HEARTS)};
    fray_flip f;
    fray_diag diag = {0};
    cr_assert_eq(fray_flip_from_cards(NULL, NULL, cards, 2, 2, NULL, &f, &diag),
                 FRAY_OK);
    cr_expect_eq(f.kept_value, 13);
    cr_expect_eq(f.hearts, 2);
    cr_expect_eq(f.n, 2);
}

/* RULINGS 7: cards entered by hand must be as many as the flip turns over
 * (RULINGS 3). */
Test(flip_from_cards, wrong_count_is_invalid) {
    fray_card cards[] = {C(13, FRAY_SUIT_HEARTS), C(4, FRAY_SUIT_HEARTS)};
    fray_flip f;
    fray_diag diag = {0};
    cr_expect_eq(fray_flip_from_cards(NULL, NULL, cards, 2, 3, NULL, &f, &diag),
                 FRAY_ERR_INVALID);
    cr_expect_str_eq(diag.message, "a flip of 3 needs 3 cards, got 2");
    /* RULINGS 3: a flip of 0 needs two cards. */
    cr_expect_eq(fray_flip_from_cards(NULL, NULL, cards, 1, 0, NULL, &f, &diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(diag.message, "needs 2 cards") != NULL, "%s", diag.message);
}

/* RULINGS 7: the same card entered twice is refused, naming it. */
Test(flip_from_cards, duplicate_card_is_named) {
    fray_card cards[] = {C(13, FRAY_SUIT_HEARTS), C(4, FRAY_SUIT_SPADES),
                         C(13, FRAY_SUIT_HEARTS)};
    fray_flip f;
    fray_diag diag = {0};
    cr_expect_eq(fray_flip_from_cards(NULL, NULL, cards, 3, 3, NULL, &f, &diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(diag.message, "KH") != NULL, "%s", diag.message);
}

/* RULINGS 1: a Joker exists only with the "jokers" option. */
Test(flip_from_cards, joker_needs_a_deck_with_jokers) {
    fray_card cards[] = {FRAY_JOKER_FIRST, C(4, FRAY_SUIT_SPADES)};
    fray_flip f;
    fray_diag diag = {0};
    cr_expect_eq(fray_flip_from_cards(NULL, NULL, cards, 2, 2, NULL, &f, &diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(diag.message, "JK") != NULL, "%s", diag.message);
}

/* Both Jokers are written "JK": a second one given is the deck's other
 * Joker, not a duplicate; a third is too many. */
Test(flip_from_cards, two_jokers_by_hand) {
    fray_deck_options opts;
    fray_deck_options_default(&opts);
    opts.jokers = 2;
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(&opts, NULL, &d), FRAY_OK);
    fray_card cards[] = {FRAY_JOKER_FIRST, FRAY_JOKER_FIRST, C(4, FRAY_SUIT_SPADES)};
    fray_flip f;
    fray_diag diag = {0};
    cr_assert_eq(fray_flip_from_cards(d, NULL, cards, 3, 3, NULL, &f, &diag),
                 FRAY_OK, "%s", diag.message);
    cr_expect_eq(f.cards[0], 52);
    cr_expect_eq(f.cards[1], 53);
    cr_expect_eq(f.kept_value, 15);
    cr_expect_eq(fray_deck_place(d, 52), FRAY_PLACE_DISCARD);
    cr_expect_eq(fray_deck_place(d, 53), FRAY_PLACE_DISCARD);
    fray_card three[] = {52, 52, 52};
    cr_expect_eq(fray_flip_from_cards(NULL, &opts, three, 3, 3, NULL, &f, &diag),
                 FRAY_ERR_INVALID);
    fray_deck_free(d);
}

/* With a deck the cards are taken (from draw or discard) and discarded. */
Test(flip_from_cards, takes_and_discards_from_the_deck) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &d), FRAY_OK);
    fray_card first = C(9, FRAY_SUIT_DIAMONDS);
    fray_flip f;
    cr_assert_eq(fray_flip_from_cards(d, NULL, &first, 1, 1, NULL, &f, NULL),
                 FRAY_OK);
    cr_expect_eq(fray_deck_place(d, first), FRAY_PLACE_DISCARD);
    /* A card now in the discard pile can be flipped by hand again (the
     * physical deck may have been reshuffled). */
    fray_card cards[] = {first, C(2, FRAY_SUIT_CLUBS)};
    cr_assert_eq(fray_flip_from_cards(d, NULL, cards, 2, 2, NULL, &f, NULL),
                 FRAY_OK);
    cr_expect_eq(f.kept_value, 9);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 2);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 50);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_IN_PLAY), 0);
    fray_deck_free(d);
}

/* A card held in a Hand of Fate cannot be flipped; nothing changes. */
Test(flip_from_cards, unavailable_card_changes_nothing) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &d), FRAY_OK);
    fray_rng rng;
    fray_rng_seed(&rng, 9, 9);
    fray_card held[1];
    cr_assert_eq(fray_deck_hold(d, &rng, 1, held), FRAY_OK); /* the 2C */
    uint8_t before[FRAY_CARDS_MAX];
    for (int c = 0; c < FRAY_CARDS_MAX; c++)
        before[c] = (uint8_t)fray_deck_place(d, (fray_card)c);
    fray_card cards[] = {C(13, FRAY_SUIT_SPADES), held[0]};
    fray_flip f;
    fray_diag diag = {0};
    cr_expect_eq(fray_flip_from_cards(d, NULL, cards, 2, 2, NULL, &f, &diag),
                 FRAY_ERR_CARD_UNAVAILABLE);
    cr_expect(strstr(diag.message, "2C") != NULL, "%s", diag.message);
    for (int c = 0; c < FRAY_CARDS_MAX; c++)
        cr_expect_eq(fray_deck_place(d, (fray_card)c), before[c], "card %d", c);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DRAW), 51);
    fray_deck_free(d);
}

/* Values follow the options given (aces low); with a deck and no options
 * the deck's own options. */
Test(flip_from_cards, values_follow_the_options) {
    fray_deck_options low;
    fray_deck_options_default(&low);
    low.aces_low = true;
    fray_card cards[] = {C(FRAY_RANK_ACE, FRAY_SUIT_SPADES), C(3, FRAY_SUIT_CLUBS)};
    fray_flip f;
    cr_assert_eq(fray_flip_from_cards(NULL, &low, cards, 2, 2, NULL, &f, NULL),
                 FRAY_OK);
    cr_expect_eq(f.kept_value, 3);
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(&low, NULL, &d), FRAY_OK);
    cr_assert_eq(fray_flip_from_cards(d, NULL, cards, 2, 0, NULL, &f, NULL),
                 FRAY_OK);
    cr_expect_eq(f.kept_value, 1);
    fray_deck_free(d);
}

/* ---- Hand of Fate swap (rules-facts.md "Hand of Fate"; RULINGS 5) ----- */

Test(flip_swap_held, replaces_a_card_and_recounts) {
    /* Hold the 5H, then flip 2S and KS. */
    fray_card order[] = {C(5, FRAY_SUIT_HEARTS), C(2, FRAY_SUIT_SPADES),
                         C(13, FRAY_SUIT_SPADES)};
    fray_deck *d = stacked(NULL, order, 3);
    fray_rng rng;
    fray_rng_seed(&rng, 10, 10);
    fray_card held;
    cr_assert_eq(fray_deck_hold(d, &rng, 1, &held), FRAY_OK);
    cr_assert_eq(held, C(5, FRAY_SUIT_HEARTS));
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 0, NULL, &f), FRAY_OK);
    cr_expect_eq(f.kept_value, 2);
    cr_expect_eq(f.hearts, 0);
    /* Replace the 2S (the kept lowest) with the held 5H: now keeps 5. */
    int idx = f.cards[0] == C(2, FRAY_SUIT_SPADES) ? 0 : 1;
    cr_assert_eq(fray_flip_swap_held(&f, d, idx, held), FRAY_OK);
    cr_expect_eq(f.kept_value, 5);
    cr_expect_eq(f.hearts, 1);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_HELD), 0);
    cr_expect_eq(fray_deck_place(d, held), FRAY_PLACE_DISCARD);
    cr_expect_eq(fray_deck_place(d, C(2, FRAY_SUIT_SPADES)), FRAY_PLACE_DISCARD);
    cr_expect_eq(fray_deck_count(d, FRAY_PLACE_DISCARD), 3);
    fray_deck_free(d);
}

/* rules-facts.md "Hand of Fate": only a held card can replace a flipped one. */
Test(flip_swap_held, card_not_held_or_bad_index) {
    fray_deck *d = NULL;
    cr_assert_eq(fray_deck_new(NULL, NULL, &d), FRAY_OK);
    fray_rng rng;
    fray_rng_seed(&rng, 11, 11);
    fray_card held;
    cr_assert_eq(fray_deck_hold(d, &rng, 1, &held), FRAY_OK);
    fray_flip f;
    cr_assert_eq(fray_flip_draw(d, &rng, 2, NULL, &f), FRAY_OK);
    fray_flip copy = f;
    cr_expect_eq(fray_flip_swap_held(&f, d, 0, C(13, FRAY_SUIT_SPADES)),
                 FRAY_ERR_CARD_UNAVAILABLE);
    cr_expect_eq(fray_flip_swap_held(&f, d, 2, held), FRAY_ERR_INVALID);
    cr_expect_eq(fray_flip_swap_held(&f, d, -1, held), FRAY_ERR_INVALID);
    cr_expect(memcmp(&f, &copy, sizeof f) == 0);
    cr_expect_eq(fray_deck_place(d, held), FRAY_PLACE_HELD);
    fray_deck_free(d);
}

/* ---- Checks --------------------------------------------------------- */

/* Seed 000 "Skill, Aspect, and Attribute Checks": a skill check adds the
 * matching Aspect; a check against a raw Aspect flips Aspect cards and
 * does NOT add it; High/Low Attribute checks use the better/worse Aspect. */
Test(check, n_and_bonus_per_kind) {
    fray_check combat = {.kind = FRAY_CHECK_COMBAT, .rank = 4, .flip_mod = 1,
                         .shift = -2, .aspect = 9};
    cr_expect_eq(fray_check_n(&combat), 5);
    cr_expect_eq(fray_check_bonus(&combat), -2);

    fray_check skill = {.kind = FRAY_CHECK_SKILL, .rank = 3, .aspect = 4,
                        .flip_mod = -1, .shift = 2};
    cr_expect_eq(fray_check_n(&skill), 2);
    cr_expect_eq(fray_check_bonus(&skill), 6);

    fray_check aspect = {.kind = FRAY_CHECK_ASPECT, .rank = 7, .aspect = 2,
                         .flip_mod = 1, .shift = 1};
    cr_expect_eq(fray_check_n(&aspect), 3);
    cr_expect_eq(fray_check_bonus(&aspect), 1);

    fray_check high = {.kind = FRAY_CHECK_ATTR_HIGH, .aspect = 2, .aspect2 = 5};
    fray_check low = {.kind = FRAY_CHECK_ATTR_LOW, .aspect = 2, .aspect2 = 5,
                      .shift = 3};
    cr_expect_eq(fray_check_n(&high), 5);
    cr_expect_eq(fray_check_bonus(&high), 0);
    cr_expect_eq(fray_check_n(&low), 2);
    cr_expect_eq(fray_check_bonus(&low), 3);
}

/* Seed 000 "Skill, Aspect, and Attribute Checks": the poison (Attack 5, five
 * cards, keep the highest) against Tony's External Endurance 2: he draws
 * two cards, keeps the high one and adds nothing. */
Test(check, poison_against_external_endurance) {
    fray_check poison = {.kind = FRAY_CHECK_COMBAT, .rank = 5};
    fray_check tony = {.kind = FRAY_CHECK_ASPECT, .aspect = 2};
    cr_expect_eq(fray_check_n(&poison), 5);
    cr_expect_eq(fray_check_n(&tony), 2);

    fray_card gm_cards[] = {C(3, FRAY_SUIT_CLUBS), C(9, FRAY_SUIT_DIAMONDS),
                            C(6, FRAY_SUIT_SPADES), C(4, FRAY_SUIT_CLUBS),
                            C(7, FRAY_SUIT_HEARTS)};
    fray_card tony_cards[] = {C(10, FRAY_SUIT_SPADES), C(5, FRAY_SUIT_CLUBS)};
    fray_deck *gm = stacked(NULL, gm_cards, 5);
    fray_deck *own = stacked(NULL, tony_cards, 2);
    fray_rng rng;
    fray_rng_seed(&rng, 12, 12);
    fray_flip a, d;
    cr_assert_eq(fray_flip_draw(gm, &rng, fray_check_n(&poison), NULL, &a), FRAY_OK);
    cr_assert_eq(fray_flip_draw(own, &rng, fray_check_n(&tony), NULL, &d), FRAY_OK);
    cr_expect_eq(a.n_cards, 5);
    cr_expect_eq(d.n_cards, 2);
    cr_expect_eq(fray_check_total(&poison, &a), 9);
    /* Tony keeps the 10 and does not add his Aspect 2. */
    cr_expect_eq(fray_check_total(&tony, &d), 10);
    fray_combat_result r = fray_combat_resolve(&a, fray_check_bonus(&poison), &d,
                                               fray_check_bonus(&tony));
    cr_expect(!r.hit, "9 against 10 misses");
    fray_deck_free(gm);
    fray_deck_free(own);
}

/* Seed 001 "Unopposed Skill Flips": "If the total equals or exceeds the
 * DTN, the character succeeds". */
Test(check, unopposed_success_at_dtn) {
    cr_expect(fray_check_succeeds(15, 15));
    cr_expect(fray_check_succeeds(16, 15));
    cr_expect(!fray_check_succeeds(14, 15));
    fray_card cards[] = {C(12, FRAY_SUIT_CLUBS), C(3, FRAY_SUIT_CLUBS)};
    fray_flip f;
    cr_assert_eq(fray_flip_from_cards(NULL, NULL, cards, 2, 2, NULL, &f, NULL), FRAY_OK);
    fray_check skill = {.kind = FRAY_CHECK_SKILL, .rank = 2, .aspect = 3};
    cr_expect_eq(fray_check_total(&skill, &f), 15);
    cr_expect(fray_check_succeeds(fray_check_total(&skill, &f), 15));
}

/* Seed 001 "Opposed Skill Flips": higher total wins; on a tie the higher
 * Aspect; then the initiator. */
Test(check, opposed_ties) {
    cr_expect(fray_opposed_initiator_wins(15, 1, 14, 9));
    cr_expect(!fray_opposed_initiator_wins(14, 9, 15, 1));
    /* Equal totals: higher Aspect wins, either way round. */
    cr_expect(fray_opposed_initiator_wins(15, 4, 15, 3));
    cr_expect(!fray_opposed_initiator_wins(15, 3, 15, 4));
    /* Equal totals and Aspects: the initiator. */
    cr_expect(fray_opposed_initiator_wins(15, 3, 15, 3));
}

/* Seed 000 "Attacking and Defending" (hit when attack >= defense) and
 * "Critical Hits" (a hit with a Heart in the attacker's flip). */
Test(check, combat_hits_on_ties_and_crits_with_hearts) {
    fray_card att[] = {C(10, FRAY_SUIT_SPADES), C(4, FRAY_SUIT_HEARTS)};
    fray_card def[] = {C(12, FRAY_SUIT_HEARTS)};
    fray_flip a, d;
    cr_assert_eq(fray_flip_from_cards(NULL, NULL, att, 2, 2, NULL, &a, NULL), FRAY_OK);
    cr_assert_eq(fray_flip_from_cards(NULL, NULL, def, 1, 1, NULL, &d, NULL), FRAY_OK);
    fray_combat_result r = fray_combat_resolve(&a, 2, &d, 0);
    cr_expect_eq(r.attack_total, 12);
    cr_expect_eq(r.defense_total, 12);
    cr_expect(r.hit, "equal totals hit");
    cr_expect_eq(r.hearts, 1, "only the attacker's Hearts count");
    cr_expect(r.critical);
    r = fray_combat_resolve(&a, 1, &d, 0);
    cr_expect(!r.hit);
    cr_expect(!r.critical, "a miss is never critical");
    fray_card plain[] = {C(13, FRAY_SUIT_SPADES)};
    cr_assert_eq(fray_flip_from_cards(NULL, NULL, plain, 1, 1, NULL, &a, NULL), FRAY_OK);
    r = fray_combat_resolve(&a, 0, &d, 0);
    cr_expect(r.hit);
    cr_expect(!r.critical, "no Heart, no critical");
}

/* Huge ranks and shifts saturate instead of overflowing. */
Test(check, absurd_numbers_saturate) {
    fray_check c = {.kind = FRAY_CHECK_SKILL, .rank = INT_MAX, .flip_mod = 5,
                    .aspect = INT_MAX, .shift = INT_MAX};
    cr_expect_eq(fray_check_n(&c), INT_MAX);
    cr_expect_eq(fray_check_bonus(&c), INT_MAX);
}

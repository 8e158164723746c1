/*
 * flip.c - flips and checks (99 Towers: seed 001 "Opposed Skill Flips",
 * "Unopposed Skill Flips"; seed 000 "Attacking and Defending", "Skill,
 * Aspect, and Attribute Checks", "Critical Hits"; RULINGS 3-6).
 */
#include "internal.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

#include "fray/flip.h"
#include "cards_int.h"

/* rank + flip mods and card + shifts come from user input: saturate
 * instead of overflowing (fray__sat_add), so absurd numbers stay defined
 * behaviour. */
static int sat_add(int a, int b) { return fray__sat_add(a, b); }

void fray_flip_plan(int n, const fray_flip_rules *rules, int *out_cards,
                    bool *out_keep_lowest) {
    fray__flip_plan(n, rules, out_cards, out_keep_lowest);
}

/* fray__flip_evaluate, each card's look read from `look` (a deck's:
 * fray__card_look of each card id under its options) when given, else
 * worked out from opts. */
static inline void evaluate(fray_flip *flip, const fray_deck_options *opts,
                            const uint8_t *look) {
    int kept = 0, best = 0, hearts = 0;
    for (int i = 0; i < flip->n_cards; i++) {
        fray_card c = flip->cards[i];
        unsigned x = look && c < FRAY_CARDS_MAX ? look[c]
                                                : fray__card_look(opts, c);
        int v = (int)(x & FRAY__LOOK_VALUE);
        if (i == 0 || (flip->keep_lowest ? v < best : v > best)) {
            best = v;
            kept = i;
        }
        hearts += (x & FRAY__LOOK_HEART) != 0;
    }
    flip->kept = kept;
    flip->kept_value = best;
    flip->hearts = hearts;
}

void fray__flip_evaluate(fray_flip *flip, const fray_deck_options *opts) {
    evaluate(flip, opts, NULL);
}

void fray__deck_flip(fray_deck *deck, fray_rng *rng, fray_flip *flip) {
    fray__deck_flip_inline(deck, rng, flip);
}

static void flip_start(fray_flip *flip, int n, const fray_flip_rules *rules) {
    memset(flip, 0, sizeof *flip);
    flip->n = n;
    fray_flip_plan(n, rules, &flip->n_cards, &flip->keep_lowest);
}

fray_status fray_flip_draw(fray_deck *deck, fray_rng *rng, int n,
                           const fray_flip_rules *rules, fray_flip *out) {
    fray_flip f;
    flip_start(&f, n, rules);
    fray_status st = fray_deck_draw(deck, rng, (size_t)f.n_cards, f.cards);
    if (st != FRAY_OK)
        return st;
    fray__flip_evaluate(&f, fray_deck_options_of(deck));
    /* The cards were just drawn into play, so discarding cannot fail. */
    st = fray_deck_discard(deck, f.cards, (size_t)f.n_cards);
    if (st != FRAY_OK)
        return st;
    *out = f;
    return FRAY_OK;
}

static const char *place_text(fray_card_place place) {
    switch (place) {
    case FRAY_PLACE_HELD:
        return "it is held in a Hand of Fate";
    case FRAY_PLACE_IN_PLAY:
        return "it is already in play";
    case FRAY_PLACE_ABSENT:
        return "this deck has no such card";
    default:
        return "it is in the deck";
    }
}

static bool joker_free(const fray_deck *deck, fray_card joker) {
    if (!deck)
        return true;
    fray_card_place p = fray_deck_place(deck, joker);
    return p == FRAY_PLACE_DRAW || p == FRAY_PLACE_DISCARD;
}

fray_status fray_flip_from_cards(fray_deck *deck, const fray_deck_options *opts,
                                 const fray_card *cards, size_t n_cards, int n,
                                 const fray_flip_rules *rules, fray_flip *out,
                                 fray_diag *diag) {
    fray_deck_options def;
    if (!opts && deck)
        opts = fray_deck_options_of(deck);
    if (!opts) {
        fray_deck_options_default(&def);
        opts = &def;
    }
    if (fray_deck_options_check(opts) != FRAY_OK)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                              "the deck options are out of range");

    fray_flip f;
    flip_start(&f, n, rules);
    if (n_cards != (size_t)f.n_cards) {
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a flip of %d needs %d card%s%s, got %zu", n,
                              f.n_cards, f.n_cards == 1 ? "" : "s",
                              f.keep_lowest ? " (keeping the lowest)" : "",
                              n_cards);
    }

    /* A Joker is written "JK" whichever of the two it is, so Jokers are
     * interchangeable here: each one given gets a Joker of the deck not yet
     * used by this flip, an available one first. */
    bool used[FRAY_CARDS_MAX] = {false};
    int jokers = 0;
    for (size_t i = 0; i < n_cards; i++) {
        fray_card c = cards[i];
        char name[16];
        if (c >= FRAY_CARDS_MAX)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "card id %d is not a card", (int)c);
        if (fray_card_is_joker(c)) {
            jokers++;
            if (jokers > opts->jokers) {
                if (opts->jokers == 0)
                    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                          "JK: this deck has no Jokers");
                return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                      "JK appears %d times but the deck has "
                                      "%d Joker%s",
                                      jokers, opts->jokers,
                                      opts->jokers == 1 ? "" : "s");
            }
            fray_card pick = FRAY_CARDS_MAX;
            for (int pass = 0; pass < 2 && pick == FRAY_CARDS_MAX; pass++) {
                for (int j = 0; j < opts->jokers; j++) {
                    fray_card jk = (fray_card)(FRAY_JOKER_FIRST + j);
                    if (!used[jk] && (pass == 1 || joker_free(deck, jk))) {
                        pick = jk;
                        break;
                    }
                }
            }
            c = pick;
        } else if (used[c]) {
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s appears twice in the flip",
                                  fray_card_format(c, FRAY_CARD_PLAIN, name));
        }
        used[c] = true;
        f.cards[i] = c;
    }

    if (deck) {
        /* Check every card before taking any, so that a failure leaves the
         * deck exactly as it was. */
        for (int i = 0; i < f.n_cards; i++) {
            fray_card_place p = fray_deck_place(deck, f.cards[i]);
            if (p != FRAY_PLACE_DRAW && p != FRAY_PLACE_DISCARD) {
                char name[16];
                return fray__diag_set(
                    diag, FRAY_ERR_CARD_UNAVAILABLE, 0,
                    "%s is not available: %s",
                    fray_card_format(f.cards[i], FRAY_CARD_PLAIN, name),
                    place_text(p));
            }
        }
        for (int i = 0; i < f.n_cards; i++) {
            fray_status st = fray_deck_take(deck, f.cards[i]);
            if (st != FRAY_OK)
                return st; /* not reached: checked above */
        }
        fray_status st = fray_deck_discard(deck, f.cards, (size_t)f.n_cards);
        if (st != FRAY_OK)
            return st;
    }
    fray__flip_evaluate(&f, opts);
    *out = f;
    return FRAY_OK;
}

fray_status fray_flip_swap_held(fray_flip *flip, fray_deck *deck, int index,
                                fray_card held) {
    if (flip->n_cards < 1 || flip->n_cards > FRAY_CARDS_MAX || index < 0 ||
        index >= flip->n_cards)
        return FRAY_ERR_INVALID;
    /* What fray_deck_play_held, then fray_deck_discard of the old card
     * (when still in play) and of the held one do, on the places and the
     * discard pile directly: each card is in the place they check. */
    if (fray_deck_place(deck, held) != FRAY_PLACE_HELD)
        return FRAY_ERR_CARD_UNAVAILABLE;
    fray_card old = flip->cards[index];
    /* A flip from fray_flip_draw has already been discarded; one whose
     * cards are still in play goes to the discard pile now. */
    if (fray_deck_place(deck, old) == FRAY_PLACE_IN_PLAY) {
        deck->place[old] = FRAY_PLACE_DISCARD;
        deck->discard[deck->n_discard++] = old;
    }
    deck->place[held] = FRAY_PLACE_DISCARD;
    deck->discard[deck->n_discard++] = held;
    flip->cards[index] = held;
    /* The deck's looks are its options' (fray__deck_init). */
    evaluate(flip, &deck->opts, deck->look);
    return FRAY_OK;
}

/* ---- Checks ------------------------------------------------------------ */

int fray_check_n(const fray_check *check) {
    int base;
    switch (check->kind) {
    case FRAY_CHECK_ASPECT:
        base = check->aspect;
        break;
    case FRAY_CHECK_ATTR_HIGH:
        base = check->aspect > check->aspect2 ? check->aspect : check->aspect2;
        break;
    case FRAY_CHECK_ATTR_LOW:
        base = check->aspect < check->aspect2 ? check->aspect : check->aspect2;
        break;
    case FRAY_CHECK_COMBAT:
    case FRAY_CHECK_SKILL:
    default:
        base = check->rank;
        break;
    }
    return sat_add(base, check->flip_mod);
}

int fray_check_bonus(const fray_check *check) {
    /* Only a skill check adds its Aspect; a check against a raw Aspect
     * "only take[s] the value of the flip" (seed 000, "Skill, Aspect, and
     * Attribute Checks"). */
    if (check->kind == FRAY_CHECK_SKILL)
        return sat_add(check->aspect, check->shift);
    return check->shift;
}

int fray_check_total(const fray_check *check, const fray_flip *flip) {
    return sat_add(flip->kept_value, fray_check_bonus(check));
}

bool fray_check_succeeds(int total, int dtn) { return total >= dtn; }

bool fray_opposed_initiator_wins(int initiator_total, int initiator_aspect,
                                 int opponent_total, int opponent_aspect) {
    if (initiator_total != opponent_total)
        return initiator_total > opponent_total;
    /* Tie: the higher Aspect, then the initiator (seed 001). */
    return initiator_aspect >= opponent_aspect;
}

fray_combat_result fray_combat_resolve(const fray_flip *attack,
                                       int attack_shift,
                                       const fray_flip *defense,
                                       int defense_shift) {
    return fray__combat_resolve(attack, attack_shift, defense, defense_shift);
}

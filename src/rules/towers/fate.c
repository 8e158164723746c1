/*
 * fate.c - every card a 99 Towers fight turns over goes through here: flips
 * from the combatants' decks, the Hand of Fate and chips (rules-facts.md
 * "Hand of Fate", "Chips"; seed 000 "Combined Damage"; RULINGS 2-5, 7).
 *
 * Where the cards come from (towers_int.h, ft_run):
 *   recording   - drawn from the deck with st->rng; appended to ev->cards
 *                 with their deck; choices asked of the hooks, appended to
 *                 ev->choices.
 *   cards_given - a table command: the cards are ev->cards in order, as
 *                 flipped by hand; each is taken out of its deck (draw or
 *                 discard pile) and its deck written in ev->card_deck.
 *                 Choices still come from the hooks.
 *   replay      - choices are read back from ev->choices; cards are taken
 *                 by hand again when ev->cards_given, else drawn again with
 *                 st->rng and checked equal to the recorded ones.
 *
 * Choices are recorded by rounds: each time a combatant may use its Hand of
 * Fate or chips on a flip is one round (ft_run.round_i counts them). A
 * round in which something was chosen is recorded as an FT_CHOICE_NONE
 * marker (a = the round's number, low 8 bits) followed by its choices; a
 * round without choices records nothing. So replay knows exactly which flip
 * each choice belongs to, also when one side answers the other's choice
 * after seeing the result (ft_flip_answers).
 *
 * Flipped cards go to their deck's discard pile as soon as they are turned
 * over (RULINGS 2), like fray_flip_draw: a Hand of Fate swap later puts the
 * held card there too.
 */
#include "towers_int.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

/* The parts of a flip every flip goes through, inlined whole into the two
 * callers (so that each is specialised for a quiet run: quiet_run). */
#if defined(__GNUC__)
#define FLIP_INLINE inline __attribute__((always_inline))
#else
#define FLIP_INLINE inline
#endif

const char *ft_flip_purpose_text(ft_flip_purpose p) {
    switch (p) {
    case FT_FLIP_INITIATIVE: return "the Initiative flip";
    case FT_FLIP_TIEBREAK: return "the tie-break flip";
    case FT_FLIP_ATTACK: return "the attack flip";
    case FT_FLIP_DEFENSE: return "the defense flip";
    case FT_FLIP_DAMAGE: return "the damage flips";
    case FT_FLIP_GRAPPLE: return "the Grapple Test";
    case FT_FLIP_SKILL: return "the skill flip";
    case FT_FLIP_CHECK: return "the check";
    default: return "a flip";
    }
}

/* Why deck_index fails (out of line: every flip asks deck_index). */
__attribute__((cold, noinline)) static fray_status deck_error(ft_run *r,
                                                              int who) {
    if (who < 0 || who >= r->st->n)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                              "no combatant %d flips", who);
    return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0, "%s has no deck",
                          r->setup->c[who].name);
}

static inline fray_status deck_index(ft_run *r, int who, int *out_d) {
    /* 0 <= x < n in one unsigned comparison (n >= 0). */
    if ((unsigned)who < (unsigned)r->st->n) {
        int d = r->setup->c[who].deck;
        if ((unsigned)d < (unsigned)r->st->n_decks) {
            *out_d = d;
            return FRAY_OK;
        }
    }
    return deck_error(r, who);
}

/*
 * Turns over n cards of deck d into out (in play; or held in a Hand of Fate
 * when `hold`), from wherever this run gets its cards, and keeps ev's record
 * of them. `what` names the flip for messages.
 */
static fray_status get_cards(ft_run *r, int d, int n, fray_card *out,
                             bool hold, const char *what) {
    ft_event *ev = r->ev;
    fray_deck *deck = &r->st->decks[d];
    if (n <= 0)
        return FRAY_OK;
    bool by_hand = r->replay ? ev->cards_given : r->cards_given;
    if (by_hand) {
        int left = ev->n_cards - r->card_i;
        if (left < n)
            return r->replay ? fray__diag_set(r->diag, FRAY_ERR_DECK_EMPTY, 0,
                                              "this action needs more cards: "
                                              "%d more for %s, from %s's deck",
                                              n - (left > 0 ? left : 0), what,
                                              r->setup->deck_names[d])
                             : ft_hand_short(r, d, n, what);
        if (!r->replay)
            ft_hand_log(r, d, n, what);
        for (int i = 0; i < n; i++) {
            fray_card c = ev->cards[r->card_i];
            char name[16];
            if (r->replay && ev->card_deck[r->card_i] != d)
                return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                      "the journal does not match this "
                                      "fight: %s was recorded from another "
                                      "deck",
                                      fray_card_format(c, FRAY_CARD_PLAIN,
                                                       name));
            fray_card_place p = fray_deck_place(deck, c);
            if (fray_deck_take(deck, c) != FRAY_OK)
                return r->replay
                           ? fray__diag_set(
                                 r->diag, FRAY_ERR_CARD_UNAVAILABLE, 0,
                                 "%s is not available for %s: %s",
                                 fray_card_format(c, FRAY_CARD_PLAIN, name),
                                 what,
                                 p == FRAY_PLACE_HELD
                                     ? "it is held in a Hand of Fate"
                                 : p == FRAY_PLACE_IN_PLAY
                                     ? "it is already in play"
                                     : "this deck has no such card")
                           : ft_hand_unavailable(r, d, c, (int)p, what);
            if (hold)
                deck->place[c] = FRAY_PLACE_HELD;
            ev->card_deck[r->card_i] = (uint8_t)d;
            out[i] = c;
            r->card_i++;
        }
        return FRAY_OK;
    }
    /* Option fresh-decks: every flip from a freshly shuffled deck (the
     * assumption of exact odds), so that a simulation can be checked
     * against them. Replays draw the same way. */
    if (r->setup->opt.fresh_decks && !hold)
        fray__deck_refresh(deck, &r->st->rng);
    if (r->replay) {
        if (ev->n_cards - r->card_i < n)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "the journal does not match this fight: "
                                  "%s turns over more cards than recorded",
                                  what);
        fray_status st = hold ? fray_deck_hold(deck, &r->st->rng, (size_t)n, out)
                              : fray_deck_draw(deck, &r->st->rng, (size_t)n, out);
        if (st != FRAY_OK)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "the journal does not match this fight: "
                                  "the deck runs out for %s", what);
        for (int i = 0; i < n; i++, r->card_i++) {
            if (ev->cards[r->card_i] != out[i] || ev->card_deck[r->card_i] != d) {
                char got[16], want[16];
                return fray__diag_set(
                    r->diag, FRAY_ERR_INVALID, 0,
                    "the journal does not match this fight: %s was "
                    "recorded for %s, the deck gives %s",
                    fray_card_format(ev->cards[r->card_i], FRAY_CARD_PLAIN, want),
                    what, fray_card_format(out[i], FRAY_CARD_PLAIN, got));
            }
        }
        return FRAY_OK;
    }
    if (ev->n_cards + n > FT_EVENT_CARDS)
        return fray__diag_set(r->diag, FRAY_ERR_RANGE, 0,
                              "one action may turn over at most %d cards",
                              FT_EVENT_CARDS);
    fray_status st = hold ? fray_deck_hold(deck, &r->st->rng, (size_t)n, out)
                          : fray_deck_draw(deck, &r->st->rng, (size_t)n, out);
    if (st != FRAY_OK)
        return fray__diag_set(r->diag, st, 0,
                              "the deck %s has too few cards for %s",
                              r->setup->deck_names[d], what);
    for (int i = 0; i < n; i++) {
        ev->cards[ev->n_cards] = out[i];
        ev->card_deck[ev->n_cards] = (uint8_t)d;
        ev->n_cards++;
    }
    r->card_i = ev->n_cards;
    return FRAY_OK;
}

static void emit_flip(ft_run *r, int who, ft_flip_purpose p,
                      const fray_flip *f, int shift) {
    ft_fact *x = ft_emit_fact(r, FT_FACT_FLIP, who, -1);
    if (!x)
        return;
    x->v[0] = (int32_t)p;
    x->v[1] = p == FT_FLIP_DAMAGE ? f->hearts : f->kept_value + shift;
    x->v[2] = f->n;
    x->v[3] = f->kept_value;
    x->v[4] = shift;
    int k = f->n_cards < 12 ? f->n_cards : 12;
    for (int i = 0; i < k; i++)
        x->cards[i] = f->cards[i];
    x->n_cards = (uint8_t)k;
}

/* ---- Choices ------------------------------------------------------------- */

static bool fate_kind(int k) {
    return k == FT_CHOICE_FATE_SWAP || k == FT_CHOICE_FATE_REFLIP ||
           k == FT_CHOICE_CHIP_SHIFT || k == FT_CHOICE_CHIP_FLIP;
}

/* What (flip+1) does to a finished flip: +1 one more card (keep the
 * highest), -1 one card fewer (a keep-the-lowest flip of RULINGS 3 loses
 * its lowest card), 0 nothing (the min-one-card plateau, or the card
 * limit). */
static int flip_plus_one(const ft_run *r, const fray_flip *f) {
    int cards;
    bool low;
    fray__flip_plan(f->n + 1, &r->setup->opt.flip, &cards, &low);
    if (!f->keep_lowest && !low && cards == f->n_cards + 1)
        return 1;
    if (f->keep_lowest && cards == f->n_cards - 1)
        return -1;
    return 0;
}

static bool deck_can_give(const ft_run *r, const fray_deck *deck) {
    /* Cards by hand or replayed: get_cards says what is missing. */
    if (r->replay || r->cards_given)
        return true;
    return fray_deck_count(deck, FRAY_PLACE_DRAW) +
               fray_deck_count(deck, FRAY_PLACE_DISCARD) >= 1;
}

/* Whether choice c can be made now on flip f of `who` (rules-facts.md:
 * the card is held in that deck; the combatant has the chip, a higher chip
 * standing for a lower one). */
static bool legal(const ft_run *r, int who, const fray_deck *deck,
                  const fray_flip *f, const ft_choice *c) {
    const ft_cstate *cs = &r->st->c[who];
    switch (c->kind) {
    case FT_CHOICE_FATE_SWAP:
        return c->a >= 0 && c->a < f->n_cards && c->b >= 0 &&
               c->b < FRAY_CARDS_MAX &&
               fray_deck_place(deck, (fray_card)c->b) == FRAY_PLACE_HELD;
    case FT_CHOICE_FATE_REFLIP:
        return c->b >= 0 && c->b < FRAY_CARDS_MAX &&
               fray_deck_place(deck, (fray_card)c->b) == FRAY_PLACE_HELD &&
               deck_can_give(r, deck);
    case FT_CHOICE_CHIP_SHIFT:
        /* White's effect; red and blue may stand for it. */
        return c->b >= 0 && c->b <= 2 && cs->chips[c->b] > 0;
    case FT_CHOICE_CHIP_FLIP: {
        /* Red's effect; blue may stand for it. */
        if (c->b < 1 || c->b > 2 || cs->chips[c->b] <= 0)
            return false;
        int d = flip_plus_one(r, f);
        return d < 0 || (d > 0 && deck_can_give(r, deck));
    }
    default:
        return false;
    }
}

/* Anything to choose at all? Saves asking the hooks in simulations. */
static bool can_choose(const ft_run *r, int who, const fray_deck *deck) {
    const ft_cstate *cs = &r->st->c[who];
    if (cs->chips[0] > 0 || cs->chips[1] > 0 || cs->chips[2] > 0)
        return true;
    return fray__deck_any_held(deck);
}

/* ft_emit_fact of a FATE fact, asked only when facts are recorded. */
static inline ft_fact *fate_fact(ft_run *r, int who) {
    return r->facts ? ft_emit_fact(r, FT_FACT_FATE, who, -1) : NULL;
}

static fray_status apply_choice(ft_run *r, int who, int d,
                                ft_flip_purpose p, fray_flip *f, int *shift,
                                const ft_choice *c) {
    fray_deck *deck = &r->st->decks[d];
    ft_cstate *cs = &r->st->c[who];
    fray_status st;
    switch (c->kind) {
    case FT_CHOICE_FATE_SWAP: {
        fray_card old = f->cards[c->a];
        fray_card held = (fray_card)c->b;
        st = fray_flip_swap_held(f, deck, c->a, held);
        if (st != FRAY_OK)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "that Hand of Fate card cannot be played");
        cs->fate_used++;
        ft_fact *x = fate_fact(r, who);
        if (x) {
            x->v[0] = FT_CHOICE_FATE_SWAP;
            x->v[1] = c->a;
            x->cards[0] = held;
            x->cards[1] = old;
            x->n_cards = 2;
        }
        return FRAY_OK;
    }
    case FT_CHOICE_FATE_REFLIP: {
        /* Discard a Hand of Fate card and the whole flip (already in the
         * discard pile), then flip one single card: it is the flip. */
        fray_card held = (fray_card)c->b;
        st = fray_deck_discard(deck, &held, 1);
        if (st != FRAY_OK)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "that Hand of Fate card cannot be played");
        fray_card nc;
        st = get_cards(r, d, 1, &nc, false, ft_flip_purpose_text(p));
        if (st == FRAY_OK) /* (the card just drawn: it is in play) */
            st = fray_deck_discard(deck, &nc, 1);
        if (st != FRAY_OK)
            return st;
        f->n = 1;
        f->n_cards = 1;
        f->keep_lowest = false;
        f->cards[0] = nc;
        fray__flip_evaluate(f, &deck->opts);
        cs->fate_used++;
        ft_fact *x = fate_fact(r, who);
        if (x) {
            x->v[0] = FT_CHOICE_FATE_REFLIP;
            x->cards[0] = held;
            x->cards[1] = nc;
            x->n_cards = 2;
        }
        return FRAY_OK;
    }
    case FT_CHOICE_CHIP_SHIFT:
        cs->chips[c->b]--;
        cs->chips_used++;
        *shift += 1;
        if (r->facts) /* (ft_emit records nothing without facts) */
            ft_emit(r, FT_FACT_CHIP, who, -1, c->b, FT_CHOICE_CHIP_SHIFT, 0, 0);
        return FRAY_OK;
    case FT_CHOICE_CHIP_FLIP: {
        int delta = flip_plus_one(r, f);
        if (delta > 0) {
            fray_card nc;
            st = get_cards(r, d, 1, &nc, false, ft_flip_purpose_text(p));
            if (st == FRAY_OK) /* (the card just drawn: it is in play) */
                st = fray_deck_discard(deck, &nc, 1);
            if (st != FRAY_OK)
                return st;
            f->cards[f->n_cards++] = nc;
        } else {
            /* (flip+1) on a keep-the-lowest flip: one card fewer, and the
             * one to lose is the lowest (with two cards left this keeps
             * the higher one, as a flip of 1 would). */
            memmove(f->cards + f->kept, f->cards + f->kept + 1,
                    (size_t)(f->n_cards - f->kept - 1) * sizeof f->cards[0]);
            f->n_cards--;
            int cards;
            bool low;
            fray__flip_plan(f->n + 1, &r->setup->opt.flip, &cards, &low);
            f->keep_lowest = low && f->n_cards > 1;
        }
        f->n++;
        fray__flip_evaluate(f, &deck->opts);
        cs->chips[c->b]--;
        cs->chips_used++;
        if (r->facts) /* (ft_emit records nothing without facts) */
            ft_emit(r, FT_FACT_CHIP, who, -1, c->b, FT_CHOICE_CHIP_FLIP, 0, 0);
        return FRAY_OK;
    }
    default:
        return FRAY_ERR_INVALID;
    }
}

/* Whether the hooks are the tactics policy (known when `is_policy`) and it
 * would choose nothing on flip f of `who` now (ft_policy_fate_idle): then
 * asking it has no effect. `who`'s deck passed deck_index (every round
 * comes after it). Builds without NDEBUG ask it all the same and check. */
static FLIP_INLINE bool policy_idle(const ft_run *r, int who,
                                    ft_flip_purpose p, const fray_flip *f,
                                    int shift, int against, bool is_policy) {
#ifndef NDEBUG
    {
        /* What ft_policy_fate_idle may take for granted: deck_index's
         * checks, and places past the deck's size never used (its held
         * cards are read from all FRAY_CARDS_MAX places: ft_deck_held_mask);
         * and
         * ft_held_top_value against the held cards one by one. */
        assert(f && who >= 0 && who < r->st->n);
        int d = r->setup->c[who].deck;
        assert(d >= 0 && d < r->st->n_decks);
        const fray_deck *deck = &r->st->decks[d];
        for (int c = deck->size; c < FRAY_CARDS_MAX; c++)
            assert(deck->place[c] == FRAY_PLACE_ABSENT);
        assert(ft_deck_held_mask(deck) == ft_deck_held_bits(deck));
        fray_card held[FRAY_CARDS_MAX];
        int nh = ft_deck_held(deck, held), top = INT_MIN;
        for (int h = 0; h < nh; h++)
            if (ft_card_value(&r->setup->opt.deck, held[h]) > top)
                top = ft_card_value(&r->setup->opt.deck, held[h]);
        assert(nh == 0 || top == ft_held_top_value(&r->setup->opt.deck,
                                                   ft_deck_held_bits(deck)));
        /* ft_policy_fate_none's answers are among its own. */
        assert(!ft_policy_fate_none(r, who, p == FT_FLIP_DEFENSE, f, shift,
                                    against) ||
               ft_policy_fate_idle(r, who, p, f, shift, against));
    }
#endif
    if ((!is_policy && r->hooks != &ft_policy_hooks) ||
        !ft_policy_fate_idle(r, who, p, f, shift, against))
        return false;
#ifndef NDEBUG
    ft_flip_view v = {who, p, f, shift, against, p == FT_FLIP_DEFENSE};
    assert(r->hooks->fate(r->hooks->ctx, r, &v).kind == FT_CHOICE_NONE);
#endif
    return true;
}

/* Whether a round of choices on flip f of `who` is over before it starts
 * (nothing chosen, nothing recorded, nothing asked that could change
 * anything): no hooks to ask, or the tactics policy, which would answer
 * "nothing" (ft_policy_fate_idle; asking it has no effect). A replay reads
 * the record instead. `quiet`: the caller knows that the run is quiet
 * (quiet_run). */
static FLIP_INLINE bool round_empty(const ft_run *r, int who,
                                    ft_flip_purpose p, const fray_flip *f,
                                    int shift, int against, bool quiet) {
    if (quiet)
        return policy_idle(r, who, p, f, shift, against, true);
    if (r->replay)
        return false;
    /* The policy's hooks (the usual case) have a fate hook. */
    if (r->hooks == &ft_policy_hooks)
        return policy_idle(r, who, p, f, shift, against, true);
    return !r->hooks || !r->hooks->fate;
}

/* The choices of the round fate_round just counted on flip f of `who`
 * (whose deck deck_index checked), when the round is not empty: read back
 * on replay, else asked of the hooks. Whether any was made goes to
 * *out_any (when not NULL). Few arguments, so that it can be a tail call. */
static fray_status round_choices(ft_run *r, int who, ft_flip_purpose p,
                                 fray_flip *f, int *shift, int against,
                                 bool *out_any) {
    ft_event *ev = r->ev;
    int d = r->setup->c[who].deck;
    uint8_t tag = (uint8_t)((r->round_i - 1) & 0xff);
    fray_deck *deck = &r->st->decks[d];
    fray_status rc = FRAY_OK;
    bool any = false;

    if (r->replay) {
        if (r->choice_i >= ev->n_choices)
            return FRAY_OK;
        const ft_choice *m = &ev->choices[r->choice_i];
        if (m->kind != FT_CHOICE_NONE || (uint8_t)m->a != tag || m->who != who)
            return FRAY_OK;
        r->choice_i++;
        while (r->choice_i < ev->n_choices &&
               fate_kind(ev->choices[r->choice_i].kind)) {
            ft_choice c = ev->choices[r->choice_i++];
            if (c.who != who || !legal(r, who, deck, f, &c)) {
                rc = fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                    "the journal does not match this "
                                    "fight: a recorded Hand of Fate or "
                                    "chip choice cannot be made on %s",
                                    ft_flip_purpose_text(p));
                goto done;
            }
            rc = apply_choice(r, who, d, p, f, shift, &c);
            if (rc != FRAY_OK)
                goto done;
            any = true;
        }
        if (any && r->facts)
            emit_flip(r, who, p, f, *shift);
        goto done;
    }

    bool marked = false;
    /* Each choice spends a held card or a chip, so this ends; the guard
     * only protects against a hook that never says NONE. With the
     * policy's hooks, round_empty found the round not idle, so the first
     * pass can choose (ft_policy_fate_idle says false only with a white
     * chip or a held card): can_choose is asked from the second on, after
     * policy_idle, its usual answer. */
    bool policy = r->hooks == &ft_policy_hooks;
    for (int guard = 0; guard < FT_EVENT_CHOICES; guard++) {
        assert(guard > 0 || !policy || can_choose(r, who, deck));
        if ((any && policy_idle(r, who, p, f, *shift, against, policy)) ||
            ((guard > 0 || !policy) && !can_choose(r, who, deck)))
            break;
        ft_flip_view v;
        v.who = who;
        v.purpose = p;
        v.flip = f;
        v.shift = *shift;
        v.against = against;
        v.is_defense = p == FT_FLIP_DEFENSE;
        ft_choice c = r->hooks->fate(r->hooks->ctx, r, &v);
        c.who = (int8_t)who;
        /* An illegal choice counts as "nothing more". So does one that
         * could not be recorded (the event is full): it is not made. */
        if (c.kind == FT_CHOICE_NONE || !legal(r, who, deck, f, &c) ||
            ev->n_choices + (marked ? 1 : 2) > FT_EVENT_CHOICES)
            break;
        if (!marked) {
            ft_choice m;
            memset(&m, 0, sizeof m);
            m.kind = FT_CHOICE_NONE;
            m.who = (int8_t)who;
            m.a = (int8_t)tag;
            ev->choices[ev->n_choices++] = m;
            marked = true;
        }
        ev->choices[ev->n_choices++] = c;
        rc = apply_choice(r, who, d, p, f, shift, &c);
        if (rc != FRAY_OK)
            goto done;
        any = true;
    }
    if (any && r->facts) /* (emit_flip records nothing without facts) */
        emit_flip(r, who, p, f, *shift);
done:
    if (out_any)
        *out_any = any;
    return rc;
}

/* round_choices for quick.c's model of the duel's attack (towers_int.h). */
fray_status ft_fate_round_choices(ft_run *r, int who, ft_flip_purpose p,
                                  fray_flip *f, int *shift, int against,
                                  bool *out_any) {
    return round_choices(r, who, p, f, shift, against, out_any);
}

/* One round of choices on flip f of `who`, whose deck deck_index checked;
 * *out_any (when not NULL) tells whether any was made.
 * Most rounds of a simulation are empty: this part is inline, the rest
 * (round_choices) is not. */
static FLIP_INLINE fray_status fate_round(ft_run *r, int who,
                                          ft_flip_purpose p, fray_flip *f,
                                          int *shift, int against,
                                          bool *out_any, bool quiet) {
    r->round_i++;
    if (out_any)
        *out_any = false;
    if (round_empty(r, who, p, f, *shift, against, quiet))
        return FRAY_OK;
    return round_choices(r, who, p, f, shift, against, out_any);
}

/* ---- Flips ---------------------------------------------------------------- */

/* fray_deck_discard of the n cards get_cards just turned over: they are
 * all in play and all different (a card taken twice fails in get_cards),
 * so none of its checks can fail and each card goes once, in order. */
static void discard_flipped(fray_deck *deck, const fray_card *cards, int n) {
    for (int i = 0; i < n; i++) {
        assert(deck->place[cards[i]] == FRAY_PLACE_IN_PLAY);
        deck->place[cards[i]] = FRAY_PLACE_DISCARD;
        deck->discard[deck->n_discard++] = cards[i];
    }
}

/* The cards of flip f, just drawn from deck d by the engine, in the
 * event: counted always (FT_EVENT_CARDS bounds an event), written in
 * ev->cards only when the event is recorded (r->facts). A quiet event is
 * the fight's scratch, which nobody reads back. */
static FLIP_INLINE void count_drawn(ft_run *r, int d, const fray_flip *f,
                                    bool quiet) {
    ft_event *ev = r->ev;
    if (!quiet && r->facts) {
        memcpy(ev->cards + ev->n_cards, f->cards, (size_t)f->n_cards);
        memset(ev->card_deck + ev->n_cards, d, (size_t)f->n_cards);
    }
    ev->n_cards = (int16_t)(ev->n_cards + f->n_cards);
    r->card_i = ev->n_cards;
}

/* A run that draws its cards itself, records nothing and asks the
 * tactics policy (a quiet simulation): what the inline parts below are
 * specialised for, so that they ask none of it again. */
static inline bool quiet_run(const ft_run *r) {
    return !r->replay && !r->cards_given && !r->facts &&
           !r->setup->opt.fresh_decks && r->hooks == &ft_policy_hooks;
}

/* ft_flip, inline for ft_flip and ft_flip_opposed (which makes two flips
 * in one call); `quiet`: quiet_run(r) is known to hold. *out is written as
 * the flip goes (callers read it only on success). */
static FLIP_INLINE fray_status flip_one(ft_run *r, int who, int n,
                                        ft_flip_purpose purpose, int shift,
                                        int against, fray_flip *out,
                                        int *out_shift, bool quiet) {
    int d = 0;
    fray_status rc = deck_index(r, who, &d);
    if (rc != FRAY_OK)
        return rc;
    fray_deck *deck = &r->st->decks[d];
    fray_flip *f = out;
    int k;
    bool low;
    fray__flip_plan(n, &r->setup->opt.flip, &k, &low);
    /* A flip can never hold more cards than the deck. */
    if (k > deck->size)
        k = deck->size;
    /* Drawn by the engine with enough cards left and room in the event:
     * nothing can fail (get_cards reports those failures), and the cards
     * go straight to the discard pile (get_cards, discard_flipped and
     * fray__flip_evaluate in one pass). fray__deck_flip writes every
     * field past these three but the cards[] it does not turn over, which
     * nobody reads (a flip's cards are cards[0..n_cards)): no memset. */
    if ((quiet ||
         (!r->replay && !r->cards_given && !r->setup->opt.fresh_decks)) &&
        k > 0 && r->ev->n_cards + k <= FT_EVENT_CARDS &&
        (size_t)k <= deck->n_draw + deck->n_discard) {
        f->n = n;
        f->n_cards = k;
        f->keep_lowest = low;
        fray__deck_flip(deck, &r->st->rng, f);
        count_drawn(r, d, f, quiet);
    } else {
        memset(f, 0, sizeof *f);
        f->n = n;
        f->n_cards = k;
        f->keep_lowest = low;
        rc = get_cards(r, d, k, f->cards, false, ft_flip_purpose_text(purpose));
        if (rc != FRAY_OK)
            return rc;
        discard_flipped(deck, f->cards, k);
        fray__flip_evaluate(f, &deck->opts);
    }
    if (!quiet && r->facts)
        emit_flip(r, who, purpose, f, shift);
    rc = fate_round(r, who, purpose, f, &shift, against, NULL, quiet);
    if (rc != FRAY_OK)
        return rc;
    if (out_shift)
        *out_shift = shift;
    return FRAY_OK;
}

fray_status ft_flip(ft_run *r, int who, int n, ft_flip_purpose purpose,
                    int shift, int against, fray_flip *out, int *out_shift) {
    return flip_one(r, who, n, purpose, shift, against, out, out_shift,
                    false);
}

/* ft_flip_answers, inline for it and ft_flip_opposed. `checked`: both
 * decks already passed deck_index (each flip of the pair did), so the
 * rounds need not look them up again; `quiet` as for flip_one. */
static FLIP_INLINE fray_status answers(ft_run *r, int a, ft_flip_purpose ap,
                                       fray_flip *af, int *ash, int t,
                                       ft_flip_purpose dp, fray_flip *df,
                                       int *dsh, bool checked, bool quiet) {
    /* A round for a, then one for t, until one makes no choice; each
     * side's deck is looked up once, when its first round comes (so a
     * missing deck fails at that round). */
    int d = 0;
    fray_status rc = FRAY_OK;
    if (!checked && (rc = deck_index(r, a, &d)) != FRAY_OK)
        return rc;
    bool t_checked = checked;
    for (int guard = 0; guard < 64; guard++) {
        bool changed;
        rc = fate_round(r, a, ap, af, ash, df->kept_value + *dsh, &changed,
                        quiet);
        if (rc != FRAY_OK || !changed)
            return rc;
        if (!t_checked) {
            rc = deck_index(r, t, &d);
            if (rc != FRAY_OK)
                return rc;
            t_checked = true;
        }
        rc = fate_round(r, t, dp, df, dsh, af->kept_value + *ash, &changed,
                        quiet);
        if (rc != FRAY_OK || !changed)
            return rc;
    }
    return FRAY_OK;
}

fray_status ft_flip_answers(ft_run *r, int a, ft_flip_purpose ap,
                            fray_flip *af, int *ash, int t,
                            ft_flip_purpose dp, fray_flip *df, int *dsh) {
    return answers(r, a, ap, af, ash, t, dp, df, dsh, false, false);
}

/* ft_flip_opposed; `quiet` as for flip_one. */
static FLIP_INLINE fray_status opposed_flips(ft_run *r, ft_opposed *o,
                                             bool quiet) {
    /* Cards by hand: the second flip's cards are known before the first
     * (for the message of too few; gm.c ft_hand_short). */
    if (!quiet && r->cards_given && !r->replay)
        ft_hand_next(r, o->t, o->dn, o->dp);
    /* The attacker's round cannot know the defense yet (INT_MIN). */
    fray_status rc = flip_one(r, o->a, o->an, o->ap, o->ash, INT_MIN, &o->af,
                              &o->ash, quiet);
    if (rc != FRAY_OK)
        return rc;
    rc = flip_one(r, o->t, o->dn, o->dp, o->dsh, o->af.kept_value + o->ash,
                  &o->df, &o->dsh, quiet);
    if (rc != FRAY_OK)
        return rc;
    /* Both flips found their decks (deck_index), and nothing since can
     * have changed that. */
    return answers(r, o->a, o->ap, &o->af, &o->ash, o->t, o->dp, &o->df,
                   &o->dsh, true, quiet);
}

fray_status ft_flip_opposed(ft_run *r, ft_opposed *o) {
    /* Nothing in a flip or a round changes what quiet_run reads. */
    if (quiet_run(r))
        return opposed_flips(r, o, true);
    return opposed_flips(r, o, false);
}

fray_status ft_flip_plain(ft_run *r, int deck, int n, fray_flip *out) {
    fray_flip f;
    memset(&f, 0, sizeof f);
    f.n = n;
    if (n > 0) {
        if (deck < 0 || deck >= r->st->n_decks)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "no deck %d", deck);
        fray_deck *dk = &r->st->decks[deck];
        f.n_cards = n < dk->size ? n : dk->size;
        fray_status rc = get_cards(r, deck, f.n_cards, f.cards, false,
                                   ft_flip_purpose_text(FT_FLIP_DAMAGE));
        if (rc != FRAY_OK)
            return rc;
        discard_flipped(dk, f.cards, f.n_cards);
        fray__flip_evaluate(&f, &dk->opts);
        emit_flip(r, -1, FT_FLIP_DAMAGE, &f, 0);
    }
    *out = f;
    return FRAY_OK;
}

fray_status ft_fate_deal(ft_run *r) {
    int want = r->setup->opt.hand_of_fate;
    if (want > FT_HAND_MAX)
        want = FT_HAND_MAX;
    for (int d = 0; d < r->st->n_decks; d++) {
        fray_deck *deck = &r->st->decks[d];
        int have = (int)fray_deck_held(deck, NULL, 0);
        int n = want - have;
        if (n <= 0)
            continue;
        fray_card cards[FT_HAND_MAX];
        fray_status rc = get_cards(r, d, n, cards, true, "the Hand of Fate");
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

/* issue 7: the Hand of Fate exchange's new card (talent.c). */
fray_status ft_fate_hold_one(ft_run *r, int d, fray_card *out) {
    if (d < 0 || d >= r->st->n_decks)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0, "no deck %d", d);
    return get_cards(r, d, 1, out, true, "the Hand of Fate exchange");
}

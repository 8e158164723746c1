/*
 * test_towers_fight.c - whole fights through the public API
 * (include/fray/encounter.h): the journal replays to the identical state,
 * undo and redo restore it exactly, table commands with hand-flipped cards,
 * and clear errors for impossible commands (issue 3, sections 8 and 11;
 * docs/architecture.md "One event at a time"; docs/journal.md).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"
#include "fray/encounter.h"
#include "towers_fixture.h"

/* The journal as JSON Lines (docs/journal.md). */
static char *journal(const fray_towers_fight *f) {
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    for (int i = 0; i < fray_towers_fight_events(f); i++) {
        size_t n = fray_towers_event_json(f, i, NULL, 0);
        while (len + n + 2 > cap)
            out = realloc(out, cap *= 2);
        fray_towers_event_json(f, i, out + len, n + 1);
        len += n;
        out[len++] = '\n';
    }
    out[len] = '\0';
    return out;
}

static void steps(fray_towers_fight *f, int n) {
    for (int i = 0; i < n && !fray_towers_fight_over(f); i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
}

/* Issue 3 section 8: "a fight can be logged, replayed exactly from its
 * events": the JSON Lines journal of a whole fight, read back into a fresh
 * fight, gives the identical final state (clock, combatants, decks and the
 * random stream). */
Test(towers_fight, journal_replays_to_the_identical_state) {
    const char *files[] = {"duel.yaml", "skirmish.yaml", "ambush.yaml"};
    for (size_t k = 0; k < 3; k++) {
        fray_towers_setup *s = tf_load_example(files[k]);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            fray_towers_fight *a = tf_fight(s, seed);
            cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
            cr_assert(fray_towers_fight_over(a));
            char *jl = journal(a);
            fray_towers_fight *b = tf_fight(s, 999); /* the journal has the seed */
            fray_diag d;
            memset(&d, 0, sizeof d);
            cr_assert_eq(fray_towers_fight_replay(b, jl, &d), FRAY_OK,
                         "%s seed %d: line %d: %s", files[k], (int)seed,
                         d.line, d.message);
            cr_assert(fray_towers_fight_same(a, b), "%s seed %d", files[k],
                      (int)seed);
            cr_assert_eq(fray_towers_fight_winner(a),
                         fray_towers_fight_winner(b));
            free(jl);
            fray_towers_fight_free(a);
            fray_towers_fight_free(b);
        }
        fray_towers_setup_free(s);
    }
}

/* A journal whose cards were edited does not replay: the engine draws the
 * same cards again and finds they differ. */
Test(towers_fight, edited_journal_is_refused) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    steps(a, 6);
    char *jl = journal(a);
    /* Change the first card of the first line after "begin" that has
     * cards. */
    char *line = strchr(jl, '\n') + 1;
    int line_no = 2;
    char *card = NULL;
    while (*line) {
        char *end = strchr(line, '\n');
        char *c = strstr(line, "\"cards\":[[\"");
        if (c && c < end) {
            card = c + strlen("\"cards\":[[\"");
            break;
        }
        line = end + 1;
        line_no++;
    }
    cr_assert_not_null(card);
    card[0] = card[0] == '2' ? '3' : '2';
    fray_towers_fight *b = tf_fight(s, 3);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_replay(b, jl, &d), FRAY_ERR_INVALID);
    cr_assert_eq(d.line, line_no, "the error names the journal's line");
    cr_assert(strstr(d.message, "does not match") != NULL, "%s", d.message);
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_setup_free(s);
}

/* Issue 3 section 8: "undone step by step (undo restores durations and the
 * clock too)": undoing 5 events equals the fight stopped 5 events earlier;
 * redoing them returns to the same state. */
Test(towers_fight, undo_then_redo) {
    const char *files[] = {"duel.yaml", "skirmish.yaml"};
    for (size_t k = 0; k < 2; k++) {
        fray_towers_setup *s = tf_load_example(files[k]);
        fray_towers_fight *a = tf_fight(s, 11), *early = tf_fight(s, 11),
                          *late = tf_fight(s, 11);
        steps(a, 30);
        int n = fray_towers_fight_events(a);
        cr_assert_gt(n, 10);
        steps(late, n - 1);
        steps(early, n - 6);
        cr_assert(fray_towers_fight_same(a, late));
        for (int i = 0; i < 5; i++)
            cr_assert_eq(fray_towers_fight_undo(a), FRAY_OK);
        cr_assert_eq(fray_towers_fight_events(a), n - 5);
        cr_assert(fray_towers_fight_same(a, early), "%s", files[k]);
        for (int i = 0; i < 5; i++)
            cr_assert_eq(fray_towers_fight_redo(a), FRAY_OK);
        cr_assert_eq(fray_towers_fight_redo(a), FRAY_ERR_INVALID,
                     "nothing more to redo");
        cr_assert(fray_towers_fight_same(a, late), "%s", files[k]);
        fray_towers_fight_free(a);
        fray_towers_fight_free(early);
        fray_towers_fight_free(late);
        fray_towers_setup_free(s);
    }
}

/* Undo cannot go before the start of the fight (the initiative event). */
Test(towers_fight, nothing_to_undo_at_the_start) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 1);
    cr_assert_eq(fray_towers_fight_events(a), 1);
    cr_assert_eq(fray_towers_fight_undo(a), FRAY_ERR_INVALID);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* A fight is reset without parsing: the same seed gives the same fight. */
Test(towers_fight, reset_repeats_the_fight) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    fray_towers_fight *a = tf_fight(s, 21), *b = tf_fight(s, 5);
    cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
    cr_assert_eq(fray_towers_fight_run(b), FRAY_OK);
    cr_assert_eq(fray_towers_fight_reset(b, 21), FRAY_OK);
    cr_assert_eq(fray_towers_fight_run(b), FRAY_OK);
    cr_assert(fray_towers_fight_same(a, b));
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_setup_free(s);
}

/* ---- Table commands -------------------------------------------------------------- */

/* Seed 000 "Actions and Timings": only the combatant whose turn it is may
 * act; the clock must reach its phase first. The error says who acts. */
Test(towers_fight, acting_out_of_turn) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3); /* Aldric acts first, in phase 4 */
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, "black-knight attack aldric",
                                           NULL, 0, &d),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "not The Black Knight's turn") != NULL, "%s",
              d.message);
    cr_assert(strstr(d.message, "Sir Aldric acts next") != NULL, "%s",
              d.message);
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, "aldric attack black-knight",
                                           NULL, 0, &d),
                 FRAY_ERR_INVALID, "the clock is still at phase 0");
    cr_assert(strstr(d.message, "later phase") != NULL, "%s", d.message);
    cr_assert_eq(fray_towers_fight_command(a, "next", NULL, 0, NULL), FRAY_OK);
    cr_assert_eq(fray_towers_fight_phase(a), 4);
    cr_assert_eq(fray_towers_fight_command(a, "aldric attack black-knight",
                                           NULL, 0, NULL),
                 FRAY_OK);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* A bad command names the offending word and its column. */
Test(towers_fight, bad_command_names_the_token) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, "aldric dance", NULL, 0, &d),
                 FRAY_ERR_PARSE);
    cr_assert_eq(d.column, 8);
    cr_assert(strstr(d.message, "'dance'") != NULL, "%s", d.message);
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, "zed attack aldric", NULL, 0, &d),
                 FRAY_ERR_PARSE);
    cr_assert_eq(d.column, 1);
    /* Issue 13: "an unknown id is an error that lists the ids". */
    cr_assert(strstr(d.message, "(aldric, black-knight)") != NULL, "%s",
              d.message);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* Seed 000 "Tactical Map": a move beyond the combatant's Speed, or onto a
 * pit, is refused and changes nothing. */
Test(towers_fight, impossible_move_changes_nothing) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3), *twin = tf_fight(s, 3);
    cr_assert_eq(fray_towers_fight_command(a, "next", NULL, 0, NULL), FRAY_OK);
    cr_assert_eq(fray_towers_fight_command(twin, "next", NULL, 0, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, "aldric move 5,0", NULL, 0, &d),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "cannot reach") != NULL, "%s", d.message);
    cr_assert(fray_towers_fight_same(a, twin));
    fray_towers_fight_free(a);
    fray_towers_fight_free(twin);
    fray_towers_setup_free(s);
}

/* RULINGS 7: the engine accepts cards flipped by hand at the table. A King
 * kept in the attack against a 2 in the defense hits; the cards go into
 * the journal and replay exactly; too few cards is a clear error that
 * leaves the fight unchanged. */
Test(towers_fight, cards_flipped_by_hand) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3), *twin = tf_fight(s, 3);
    cr_assert_eq(fray_towers_fight_command(a, "next", NULL, 0, NULL), FRAY_OK);
    cr_assert_eq(fray_towers_fight_command(twin, "next", NULL, 0, NULL),
                 FRAY_OK);
    fray_card few[2];
    size_t n = 0;
    cr_assert_eq(fray_card_parse_list("KS 3C", few, 2, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_fight_command(a, "aldric attack black-knight",
                                               few, n, &d);
    cr_assert_eq(rc, FRAY_ERR_DECK_EMPTY, "%s", d.message);
    cr_assert(strstr(d.message, "needs at least 6 in all") != NULL, "%s",
              d.message); /* (issue 13: the total, flip by flip) */
    cr_assert(fray_towers_fight_same(a, twin), "nothing changed");
    fray_towers_fight_free(a);
    fray_towers_fight_free(twin);
    fray_towers_setup_free(s);
}

/* Flip cards by hand that are not in any Hand of Fate: the n lowest
 * clubs and diamonds not held by `a`'s or `b`'s deck. */
static size_t free_low_cards(const fray_towers_fight *f, const char *a,
                             const char *b, fray_card *out, size_t n) {
    fray_card held[10];
    size_t nh = fray_towers_fight_hand(f, a, held, 5);
    nh += fray_towers_fight_hand(f, b, held + nh, 5);
    size_t k = 0;
    for (int rank = 2; rank <= 14 && k < n; rank++)
        for (int suit = 0; suit < 2 && k < n; suit++) {
            fray_card c = fray_card_make(rank, (fray_suit)suit);
            bool is_held = false;
            for (size_t i = 0; i < nh; i++)
                is_held |= held[i] == c;
            if (!is_held)
                out[k++] = c;
        }
    return k;
}

/* rules-facts.md "Hand of Fate", at the table: "fate HELD for CARD" in a
 * command puts a Hand of Fate card in place of a flipped card; it is
 * recorded (the journal replays it), and a word that fits no flip is
 * refused with the fight unchanged. */
Test(towers_fight, hand_of_fate_words_at_the_table) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3), *twin = tf_fight(s, 3);
    cr_assert_eq(fray_towers_fight_command(a, "next", NULL, 0, NULL), FRAY_OK);
    cr_assert_eq(fray_towers_fight_command(twin, "next", NULL, 0, NULL),
                 FRAY_OK);
    fray_card hand[5];
    size_t nh = fray_towers_fight_hand(a, "aldric", hand, 5);
    cr_assert_eq(nh, 3, "a Hand of Fate of 3 cards (rules-facts.md)");
    /* Aldric's attack turns over 4 cards, the Black Knight's defense 2. */
    fray_card cards[6];
    cr_assert_eq(free_low_cards(a, "aldric", "black-knight", cards, 6), 6);
    char held[16], low[16], cmd[128];
    fray_card_format(hand[0], FRAY_CARD_PLAIN, held);
    fray_card_format(cards[0], FRAY_CARD_PLAIN, low);

    /* A card that is not in any flip: refused, nothing changes. */
    snprintf(cmd, sizeof cmd, "aldric attack black-knight fate %s for AS", held);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, cmd, cards, 6, &d),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "fits no flip") != NULL, "%s", d.message);
    cr_assert(fray_towers_fight_same(a, twin));

    snprintf(cmd, sizeof cmd, "aldric attack black-knight fate %s for %s",
             held, low);
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, cmd, cards, 6, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(fray_towers_fight_hand(a, "aldric", hand, 5), 2,
                 "the card left the Hand of Fate");
    char text[4096];
    int last = fray_towers_fight_events(a) - 1;
    fray_towers_event_narrate(a, last, text, sizeof text);
    cr_assert(strstr(text, "Hand of Fate") != NULL, "%s", text);
    cr_assert(strstr(text, held) != NULL || strstr(text, "from the Hand") != NULL,
              "%s", text);

    /* The journal, with hand-flipped cards and the choice, replays. */
    char *jl = journal(a);
    fray_towers_fight *b = tf_fight(s, 1);
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_replay(b, jl, &d), FRAY_OK, "line %d: %s",
                 d.line, d.message);
    cr_assert(fray_towers_fight_same(a, b));
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_fight_free(twin);
    fray_towers_setup_free(s);
}

/* An empty journal is refused (it has no "begin" event), and the fight
 * is left at its start, able to go on. */
Test(towers_fight, empty_journal_is_refused) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_replay(a, "\n  \n", &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "empty") != NULL, "%s", d.message);
    cr_assert_eq(fray_towers_fight_events(a), 1);
    cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/* Issue 4 section 1: trial i of a simulation can be replayed: a fight reset
 * as (seed, trial) differs from trial 0, its journal records the trial and
 * replays to the identical state, and fresh decks (option fresh-decks)
 * replay too. */
Test(towers_fight, trial_journal_replays) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    for (int fresh = 0; fresh < 2; fresh++) {
        s->s.opt.fresh_decks = fresh;
        fray_towers_fight *a = tf_fight(s, 7);
        fray_towers_fight *z = tf_fight(s, 7);
        cr_assert_eq(fray_towers_fight_reset_trial(a, 7, 12345), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(z), FRAY_OK);
        cr_expect(!fray_towers_fight_same(a, z), "trial 12345 is not trial 0");
        char *jl = journal(a);
        cr_expect(strstr(jl, "\"trial\":12345") != NULL);
        fray_towers_fight *b = tf_fight(s, 999);
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(fray_towers_fight_replay(b, jl, &d), FRAY_OK,
                     "line %d: %s", d.line, d.message);
        cr_expect(fray_towers_fight_same(a, b));
        /* Undo rebuilds from (seed, trial) too. */
        cr_assert_eq(fray_towers_fight_undo(b), FRAY_OK);
        cr_assert_eq(fray_towers_fight_redo(b), FRAY_OK);
        cr_expect(fray_towers_fight_same(a, b));
        free(jl);
        fray_towers_fight_free(a);
        fray_towers_fight_free(b);
        fray_towers_fight_free(z);
    }
    fray_towers_setup_free(s);
}

/* ---- Issue 11: no silent wrong answer, bounded memory ------------------------ */

#include "fail_alloc.h"

/* Issue 11, "Initiative past the deck's 128-card cap": sixteen identical
 * knights against sixteen flip 96 initiative cards from one GM deck, and
 * their many ties flip off; the begin event once ran out of room for the
 * cards, failed, and the fight went on without initiative. Now every
 * combatant has its Calculated Initiative, a start phase and a place of
 * its own in the tie order, whatever the seed. */
Test(towers_fight, issue11_begin_sets_every_initiative) {
    fray_towers_setup *s = tf_load_data("mirror_16.yaml");
    for (uint64_t seed = 1; seed <= 40; seed++) {
        fray_towers_fight *f = tf_fight(s, seed);
        cr_assert_eq(fray_towers_fight_events(f), 1);
        cr_assert_str_eq(fray_towers_event_action(f, 0), "begin");
        bool rank_taken[FT_MAX_COMBATANTS] = {false};
        for (int i = 0; i < f->st.n; i++) {
            const ft_cstate *c = &f->st.c[i];
            /* [N] 3: the kept card (at least 2) plus 3. */
            cr_assert_geq(c->ci, 5, "seed %llu: %s has no initiative",
                          (unsigned long long)seed, s->s.c[i].name);
            cr_assert_eq(c->phase, 20 - (c->ci > 20 ? 20 : c->ci));
            cr_assert(c->init_rank >= 0 && c->init_rank < f->st.n);
            cr_assert(!rank_taken[c->init_rank], "seed %llu: two share "
                      "place %d", (unsigned long long)seed, c->init_rank);
            rank_taken[c->init_rank] = true;
        }
        /* The tie order follows CI (all else is equal here). */
        for (int i = 0; i < f->st.n; i++)
            for (int j = 0; j < f->st.n; j++)
                if (f->st.c[i].ci > f->st.c[j].ci)
                    cr_assert_lt(f->st.c[i].init_rank, f->st.c[j].init_rank);
        fray_towers_fight_free(f);
    }
    fray_towers_setup_free(s);
}

/* Issue 11, "Narration caps facts at 48 per event": the begin event of a
 * 32-combatant fight tells every initiative (8 of 32 went untold). */
Test(towers_fight, issue11_begin_of_32_tells_every_initiative) {
    fray_towers_setup *s = tf_load_data("mirror_16.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    size_t n = fray_towers_event_narrate(f, 0, NULL, 0);
    char *text = malloc(n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fray_towers_event_narrate(f, 0, text, n + 1), n);
    for (int i = 0; i < s->s.n_combatants; i++) {
        char want[64];
        snprintf(want, sizeof want, "Initiative: %s flips", s->s.c[i].name);
        cr_expect(strstr(text, want) != NULL, "not told: %s", want);
    }
    free(text);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Issue 11, "Step errors in fray fight": a step that fails (here the
 * journal cannot grow) is an error, and the fight refuses to go on: every
 * later step, run and table command gives the same error and changes
 * nothing, the summary says so (never "The fight goes on"), and an undo
 * makes it whole again. */
Test(towers_fight, issue11_failed_step_stops_the_fight) {
    fray_towers_setup *s = tf_load_data("idle_pair.yaml");
    fail_alloc fa = {0, 0, 0, 0};
    fray_allocator a = {fail_realloc, &fa};
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    o.journal = true;
    o.facts = true;
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 1, &o, &a, &f), FRAY_OK);
    for (int k = 0; k < 300; k++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    fa.fail_at = fa.calls + 1; /* the journal's next growth */
    fray_status rc = FRAY_OK;
    int steps_ok = 300;
    while (rc == FRAY_OK && steps_ok < 100000) {
        rc = fray_towers_fight_step(f);
        if (rc == FRAY_OK)
            steps_ok++;
    }
    cr_assert_eq(rc, FRAY_ERR_NOMEM);
    cr_assert(!fray_towers_fight_over(f));
    int events = fray_towers_fight_events(f);
    cr_assert_eq(events, steps_ok + 1);
    /* It refuses to go on, though memory is there again. */
    cr_expect_eq(fray_towers_fight_step(f), FRAY_ERR_NOMEM);
    cr_expect_eq(fray_towers_fight_run(f), FRAY_ERR_NOMEM);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(f, "next", NULL, 0, &d),
                 FRAY_ERR_NOMEM);
    cr_expect(strstr(d.message, "cannot go on") != NULL, "%s", d.message);
    cr_expect_eq(fray_towers_fight_events(f), events);
    char sum[4096];
    fray_towers_summary(f, sum, sizeof sum);
    cr_expect(strstr(sum, "cannot go on") != NULL, "%s", sum);
    cr_expect(strstr(sum, "goes on") == NULL, "%s", sum);
    /* An undo takes back the failed step (the journal never got it): a
     * whole state again, from the journal, which may go on. */
    fray_status u = fray_towers_fight_undo(f);
    cr_assert_eq(u, FRAY_OK, "%s after %d events", fray_strerror(u), events);
    cr_expect_eq(fray_towers_fight_events(f), events);
    cr_expect_eq(fray_towers_fight_step(f), FRAY_OK);
    cr_expect_eq(fray_towers_fight_events(f), events + 1);
    fray_towers_fight_free(f);
    cr_expect_eq(fa.live, 0);
    cr_expect_eq(fa.live_bytes, 0);
    fray_towers_setup_free(s);
}

/* Issue 11, "Bounded time and memory": an idle fight (two bandits taking
 * Forced Delays) kept 3.3 KB per event, 2.6 KB per phase, 1.9 GB over a
 * long phase limit. The journal packs each event to what it holds: the
 * whole fight, journal included, stays under 64 KB plus 200 bytes per
 * event (docs/architecture.md "The journal"), a hundred times less. */
Test(towers_fight, issue11_idle_journal_memory_is_bounded) {
    fray_towers_setup *s = tf_load_data("idle_pair.yaml");
    fail_alloc fa = {0, 0, 0, 0};
    fray_allocator a = {fail_realloc, &fa};
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    o.journal = true;
    o.facts = true;
    o.until_phase = 100000;
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 1, &o, &a, &f), FRAY_OK);
    size_t fixed = fa.live_bytes; /* the fight and room for one event */
    cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
    cr_assert_geq(fray_towers_fight_phase(f), 99990);
    size_t events = (size_t)fray_towers_fight_events(f);
    /* A Forced Delay each every 5 phases, and the clock's steps. */
    cr_assert_gt(events, 50000);
    size_t journal = fa.live_bytes - fixed;
    /* Doubling keeps at most twice what is used. */
    cr_expect_leq(journal, 64 * 1024 + 2 * 200 * events,
                  "%zu bytes for %zu events", journal, events);
    cr_expect_leq(fa.live_bytes / 100000, 500, "%zu bytes per phase",
                  fa.live_bytes / 100000);
    /* Packed, it still narrates and undoes as before. */
    char line[512];
    cr_expect_gt(fray_towers_event_narrate(f, (int)events - 1, line,
                                           sizeof line), 0);
    fray_towers_fight *copy = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 1, &o, NULL, &copy), FRAY_OK);
    for (size_t e = 1; e + 1 < events; e++)
        cr_assert_eq(fray_towers_fight_step(copy), FRAY_OK);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect(fray_towers_fight_same(f, copy));
    cr_assert_eq(fray_towers_fight_redo(f), FRAY_OK);
    cr_assert_eq(fray_towers_fight_step(copy), FRAY_OK);
    cr_expect(fray_towers_fight_same(f, copy));
    fray_towers_fight_free(copy);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Issue 11 item 1: the fair flip-off draws other cards than the pairwise
 * one did for three or more tied, so a journal says when its begin event
 * flipped off the new way ("flip_off_rounds": true), and one without it
 * (written before issue 11: tests/data/towers/journal_before_issue11.jsonl,
 * the first lines of `fray fight examples/towers/ambush.yaml --seed 25
 * --journal`, three bandits tied) replays the old way. A journal written
 * now of the same fight replays to the identical state. */
Test(towers_fight, issue11_journals_of_both_flip_offs_replay) {
    fray_towers_setup *s = tf_load_example("ambush.yaml");
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/towers/journal_before_issue11.jsonl",
             FRAY_SOURCE_DIR);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "%s", path);
    char old[16384];
    size_t n = fread(old, 1, sizeof old - 1, fp);
    old[n] = '\0';
    fclose(fp);
    cr_assert(strstr(old, "flip_off_rounds") == NULL);
    fray_towers_fight *b = tf_fight(s, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_replay(b, old, &d), FRAY_OK, "line %d: %s",
                 d.line, d.message);
    cr_assert_eq(fray_towers_fight_events(b), 5);
    /* Undo replays it again, the old way too. */
    cr_assert_eq(fray_towers_fight_undo(b), FRAY_OK);
    fray_towers_fight_free(b);

    fray_towers_fight *a = tf_fight(s, 25);
    steps(a, 30);
    char *jl = journal(a);
    cr_assert(strstr(jl, "\"flip_off_rounds\":true") != NULL);
    b = tf_fight(s, 1);
    cr_assert_eq(fray_towers_fight_replay(b, jl, &d), FRAY_OK, "line %d: %s",
                 d.line, d.message);
    cr_assert(fray_towers_fight_same(a, b));
    free(jl);
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_setup_free(s);
}

/* Issue 13: at the table, names with spaces in quotes, as the narration
 * writes them. */
Test(towers_fight, names_with_spaces_in_quotes) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    cr_assert_eq(fray_towers_fight_command(a, "next", NULL, 0, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(
                     a, "\"Sir Aldric\" attack \"The Black Knight\"", NULL, 0, &d),
                 FRAY_OK, "%s", d.message);
    fray_towers_fight_free(a);
    fray_towers_setup_free(s);
}

/*
 * test_sim_quiet.c - a simulated fight is the fight `fray fight` tells
 * (issue 4 section 1: "the same engine and policies as `fray fight`, with
 * narration off"; issue 4 "Speed").
 *
 * What a simulation runs takes shortcuts the recorded fight does not: no
 * facts or words, the clock's step folded into the next action
 * (fight.c run_quiet), the policy's attack modifiers reused by the attack
 * and remembered between decisions (ft_attack_memo, ft_mods_cache), whole
 * decisions remembered in fights of up to four (ft_decision_cache), flips
 * straight onto the discard pile, the policy's map search answering the
 * engine's path check. Each is meant to change nothing. These tests run
 * the same trials both ways, a fight keeping its journal and facts and a
 * fight keeping nothing, and require the whole end state to be equal:
 * every combatant's STUN, LETHAL, flags, conditions, place, actions and
 * statistics, the clock, the number of events, the winner, every deck's
 * piles and the random stream. (Builds without NDEBUG also check each
 * shortcut against the long way as it is taken.)
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cards_int.h"
#include "towers_fixture.h"
#include "towers_int.h"

static fray_towers_fight *quiet_fight(const fray_towers_setup *s) {
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &o, NULL, &f), FRAY_OK);
    return f;
}

static void expect_same_combatant(const ft_cstate *a, const ft_cstate *b,
                                  int c, uint64_t trial) {
    cr_expect_eq(a->stun, b->stun, "trial %d, combatant %d: STUN",
                 (int)trial, c);
    cr_expect_eq(a->lethal, b->lethal, "trial %d, combatant %d: LETHAL",
                 (int)trial, c);
    cr_expect_eq(a->temp_stun, b->temp_stun);
    cr_expect_eq(a->temp_lethal, b->temp_lethal);
    cr_expect_eq(a->phase, b->phase, "trial %d, combatant %d: next phase",
                 (int)trial, c);
    cr_expect_eq(a->slot, b->slot);
    cr_expect(a->pos.x == b->pos.x && a->pos.y == b->pos.y,
              "trial %d, combatant %d: place", (int)trial, c);
    cr_expect_eq(a->flags, b->flags, "trial %d, combatant %d: flags",
                 (int)trial, c);
    cr_expect_eq(a->n_cond, b->n_cond, "trial %d, combatant %d: conditions",
                 (int)trial, c);
    for (int i = 0; i < a->n_cond && i < FT_MAX_CONDITIONS; i++)
        cr_expect_eq(a->cond[i].kind, b->cond[i].kind);
    cr_expect_eq(a->aim, b->aim);
    cr_expect(memcmp(a->wielded, b->wielded, sizeof a->wielded) == 0);
    cr_expect(memcmp(a->ammo, b->ammo, sizeof a->ammo) == 0);
    cr_expect(memcmp(a->chips, b->chips, sizeof a->chips) == 0);
    cr_expect(memcmp(a->mana, b->mana, sizeof a->mana) == 0);
    cr_expect_eq(a->grappled_by, b->grappled_by);
    cr_expect_eq(a->actions, b->actions, "trial %d, combatant %d: actions",
                 (int)trial, c);
    cr_expect(memcmp(a->by_kind, b->by_kind, sizeof a->by_kind) == 0,
              "trial %d, combatant %d: actions by kind", (int)trial, c);
    cr_expect_eq(a->stun_dealt, b->stun_dealt);
    cr_expect_eq(a->lethal_dealt, b->lethal_dealt);
    cr_expect_eq(a->stun_taken, b->stun_taken);
    cr_expect_eq(a->lethal_taken, b->lethal_taken);
    cr_expect_eq(a->fate_used, b->fate_used,
                 "trial %d, combatant %d: Hand of Fate cards", (int)trial, c);
    cr_expect_eq(a->chips_used, b->chips_used);
}

static void expect_same_deck(const fray_deck *a, const fray_deck *b, int d,
                             uint64_t trial) {
    cr_expect_eq(a->n_draw, b->n_draw, "trial %d, deck %d: draw pile",
                 (int)trial, d);
    cr_expect_eq(a->n_discard, b->n_discard, "trial %d, deck %d: discards",
                 (int)trial, d);
    if (a->n_draw == b->n_draw)
        cr_expect(memcmp(a->draw, b->draw, a->n_draw * sizeof a->draw[0]) == 0,
                  "trial %d, deck %d: draw pile order", (int)trial, d);
    if (a->n_discard == b->n_discard)
        cr_expect(memcmp(a->discard, b->discard,
                         a->n_discard * sizeof a->discard[0]) == 0,
                  "trial %d, deck %d: discard order", (int)trial, d);
    cr_expect(memcmp(a->place, b->place, (size_t)a->size) == 0,
              "trial %d, deck %d: where each card is", (int)trial, d);
}

/* Trials [0, n) of encounter s (called `name`) with master seed `seed`,
 * both ways. */
static void same_both_ways_of(fray_towers_setup *s, const char *name,
                              uint64_t seed, int n) {
    fray_towers_fight *told = tf_fight(s, seed);
    fray_towers_fight *quiet = quiet_fight(s);
    for (uint64_t t = 0; t < (uint64_t)n; t++) {
        cr_assert_eq(fray_towers_fight_reset_trial(told, seed, t), FRAY_OK);
        cr_assert_eq(fray_towers_fight_reset_trial(quiet, seed, t), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(told), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(quiet), FRAY_OK);
        const ft_state *a = &told->st, *b = &quiet->st;
        cr_assert_eq(a->over, b->over);
        cr_expect_eq(a->winner, b->winner, "%s trial %d: the winner", name,
                     (int)t);
        cr_expect_eq(a->phase, b->phase, "%s trial %d: the phase it ended",
                     name, (int)t);
        cr_expect_eq(a->n_events, b->n_events, "%s trial %d: events", name,
                     (int)t);
        cr_expect_eq(a->next_slot, b->next_slot);
        cr_assert_eq(a->n, b->n);
        for (int c = 0; c < a->n; c++)
            expect_same_combatant(&a->c[c], &b->c[c], c, t);
        cr_assert_eq(a->n_decks, b->n_decks);
        for (int d = 0; d < a->n_decks; d++)
            expect_same_deck(&a->decks[d], &b->decks[d], d, t);
        cr_expect(a->rng.state == b->rng.state && a->rng.inc == b->rng.inc,
                  "%s trial %d: the random stream", name, (int)t);
    }
    fray_towers_fight_free(told);
    fray_towers_fight_free(quiet);
    fray_towers_setup_free(s);
}

/* The same for example `name`. */
static void same_both_ways(const char *name, uint64_t seed, int n) {
    same_both_ways_of(tf_load_example(name), name, seed, n);
}

/* The duel: Hand of Fate on one side, Power Attack on the other, no
 * movement; the modifiers are remembered between decisions here. */
Test(sim_quiet, duel_same_as_told) {
    same_both_ways("duel.yaml", 11, 3000);
}

/* The skirmish: six combatants moving on a map (the policy's search
 * answers the engine's path check), shooters and a spell caster. */
Test(sim_quiet, skirmish_same_as_told) {
    same_both_ways("skirmish.yaml", 12, 300);
}

/* The ambush: an unaware side, a counted group of bandits. */
Test(sim_quiet, ambush_same_as_told) {
    same_both_ways("ambush.yaml", 13, 300);
}

/* Four on a small map (tests/data/towers/band_of_four.yaml): a fight of up
 * to four remembers its decisions (ft_decision_cache) and gives one asked
 * again on an equal state without working it out; here they move, shoot,
 * reload, Aim, cast, Recover and guard, and some burn. */
Test(sim_quiet, band_of_four_same_as_told) {
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/towers/band_of_four.yaml",
             FRAY_SOURCE_DIR);
    fray_towers_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_load(path, NULL, &s, &d), FRAY_OK, "%s:%d:%d: %s",
                 path, d.line, d.column, d.message);
    same_both_ways_of(s, "band_of_four.yaml", 14, 1500);
}

/* An allocator that refuses any block larger than *(size_t *)ud. */
static void *small_realloc(void *ud, void *ptr, size_t old_size,
                           size_t new_size) {
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    if (new_size > *(const size_t *)ud)
        return NULL;
    return realloc(ptr, new_size);
}

/* Without the room to remember decisions (include/fray/encounter.h,
 * fray_towers_fight_new: "only slower, not different"), a quiet duel is
 * made all the same, remembers nothing, and fights as the one that
 * remembers. */
Test(sim_quiet, duel_without_room_to_remember) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    size_t limit = sizeof(ft_decision_cache) - 1;
    cr_assert_gt(limit, sizeof(fray_towers_fight), "the fight itself fits");
    fray_allocator small = {small_realloc, &limit};
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    fray_towers_fight *bare = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &o, &small, &bare), FRAY_OK);
    cr_expect_null(bare->decide, "no room: nothing remembered");
    fray_towers_fight *full = quiet_fight(s);
    cr_expect_not_null(full->decide);
    for (uint64_t t = 0; t < 500; t++) {
        cr_assert_eq(fray_towers_fight_reset_trial(bare, 15, t), FRAY_OK);
        cr_assert_eq(fray_towers_fight_reset_trial(full, 15, t), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(bare), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(full), FRAY_OK);
        cr_expect_eq(bare->st.winner, full->st.winner, "trial %d", (int)t);
        cr_expect_eq(bare->st.phase, full->st.phase, "trial %d", (int)t);
        for (int c = 0; c < bare->st.n; c++)
            expect_same_combatant(&bare->st.c[c], &full->st.c[c], c, t);
        cr_expect(bare->st.rng.state == full->st.rng.state);
    }
    fray_towers_fight_free(bare);
    fray_towers_fight_free(full);
    fray_towers_setup_free(s);
}

/*
 * test_towers_crowd.c - the kept threats of a fight (ft_threat_cache in
 * its path cache, attack.c) known to be up to date by the state's count
 * of changes (ft_state.threat_gen; issue 16, "keep what the modifiers
 * need up to date as combatants move and fall instead of searching
 * again"). Whatever changes what seed 000 "Threatened Areas" and
 * "Outnumbering" read (a place, weapons in hand, falling, fleeing,
 * joining, a condition) counts a change; a state put back (a refused
 * command, an undo) or copied over makes the fight forget the count. These
 * tests drive crowds through moves, falls, conditions, joins and the GM's
 * overrides, and after every step hold the fight's own kept threats, taken
 * by the count, to a fresh look at every combatant and the melee chains
 * they give to the search over the whole melee. A walk's steps count as
 * changes of the walker alone (ft_threat_touch_one, "This round: the
 * crowds' search kept" in docs/architecture.md), and so does every other
 * change of one combatant (a fall, a condition, a throw, the GM's word, a
 * weapon drawn or dropped: "This round: the conditions' upkeep"): the kept
 * threats then read only those combatants' signatures again; reading none
 * of them fails four of these tests. The conditions' upkeep looks only at
 * the combatants on its list (ft_state.cond_timed): the last three tests;
 * with nobody on it, the end of a turn takes the short way and finds the
 * sides standing on the Combat Clock (turn_end_by_the_list_and_the_clock).
 * The tactics' look at everyone that opens a decision is kept by the same
 * count and held to the look at everyone (kept_look_same_as_everyone).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"
#include "towers_int.h"

/* A run reading fight f's state (what the engine's own runs read). */
static ft_run run_of(fray_towers_fight *f) {
    ft_run r;
    ft_run_clear(&r);
    r.setup = &f->setup->s;
    r.st = &f->st;
    return r;
}

/* Seed 000 "Outnumbering" of every attacker on every target, through the
 * fight's kept threats and by the search (a run without them): the same
 * answers. Returns how many were outnumbering. */
static int chains_agree(fray_towers_fight *f, const char *when) {
    ft_run search = run_of(f), keeping = run_of(f);
    keeping.threat = &f->paths.threat;
    int yes = 0;
    for (int a = 0; a < f->st.n; a++)
        for (int t = 0; t < f->st.n; t++) {
            if (a == t)
                continue;
            bool s1 = ft_outnumbering(&search, a, t);
            bool s2 = ft_outnumbering(&keeping, a, t);
            cr_assert_eq(s1, s2, "%s: outnumbering of %d on %d: searched %d, kept %d",
                         when, a, t, s1, s2);
            yes += s1;
        }
    return yes;
}

/* The fight's own kept threats, taken by the count of changes when it
 * says nothing changed, are what a fresh look says. Returns whether the
 * count said so (the one comparison was enough). */
static bool kept_current(fray_towers_fight *f, const char *when) {
    ft_threat_cache *tc = &f->paths.threat;
    bool by_count = f->st.threat_gen != 0 && tc->gen == f->st.threat_gen &&
                    tc->gen_st == &f->st && tc->n == f->st.n;
    ft_run r = run_of(f);
    cr_assert(ft_threat_kept_current(&r, tc), "%s: the kept threats are stale", when);
    return by_count;
}

/* Issue 16 (crowd): 20 fights of six against six (melee_crowd.yaml: a
 * wall and a pillar; Sellswords, Knights and Bandits close, fight, fall,
 * get Stunned and Prone): after every step the fight's kept threats are
 * current, and the melee chains they give are the search's. The count
 * does save the look at every combatant: on many steps it alone says
 * the kept threats hold. */
Test(towers_crowd, kept_threats_follow_moves_and_falls) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    long steps = 0, by_count = 0, outnumbered = 0;
    char when[64];
    for (int trial = 0; trial < 20; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial),
                     FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            snprintf(when, sizeof when, "trial %d, step %d", trial, step);
            by_count += kept_current(f, when);
            outnumbered += chains_agree(f, when);
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
            steps++;
        }
        cr_assert(fray_towers_fight_over(f), "trial %d ends", trial);
    }
    cr_expect_gt(outnumbered, 100, "the fights make melee chains");
    cr_expect_gt(by_count, steps / 4, "the count alone holds on %ld of %ld steps",
                 by_count, steps);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* A table command that must be taken. */
static void take(fray_towers_fight *f, const char *cmd) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_fight_command(f, cmd, NULL, 0, &d);
    cr_assert_eq(rc, FRAY_OK, "'%s': %s", cmd, d.message);
}

/* A table command that must be refused, the fight unchanged. */
static void refused(fray_towers_fight *f, const char *cmd) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_neq(fray_towers_fight_command(f, cmd, NULL, 0, &d), FRAY_OK,
                  "'%s' is refused", cmd);
}

/* Both checks after a table command. */
static void both(fray_towers_fight *f, const char *when) {
    kept_current(f, when);
    chains_agree(f, when);
}

/* Issue 16 (crowd), docs/file-formats.md "the GM's overrides": a
 * condition put on and taken off (Stunned and Helpless: no threat;
 * Blinded: out of the chains), a token placed into a melee and away, a
 * combatant knocked out and woken (gm set stun), one that flees, refused
 * commands and undone events (the state put back): after each, the
 * kept threats are current and give the search's chains. */
Test(towers_crowd, kept_threats_follow_the_gms_overrides) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight *f = tf_fight(s, 5);
    /* Into melee first: the fight's own steps until some chain forms. */
    int chains = 0;
    for (int i = 0; i < 400 && !chains && !fray_towers_fight_over(f); i++) {
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        chains = chains_agree(f, "closing");
    }
    cr_assert_gt(chains, 0, "a melee chain formed");
    static const char *const cmds[] = {
        "gm condition w2 stunned",   "gm condition e2 blinded",
        "gm condition w3 helpless",  "gm place e6 2,3",
        "gm condition w2 stunned off", "gm condition e2 blinded off",
        "gm set w1 stun 0",          "gm place e6 9,7",
        "gm set w1 stun 5",          "gm condition w3 helpless off",
        "gm flee e3",                "gm place w6 7,3",
    };
    char when[96];
    int told = 0;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        /* Each changes one combatant: counted as a change of that one
         * alone (ft_threat_touch_one, "This round: the conditions'
         * upkeep"), the kept threats then reading its signature only. */
        uint64_t all_gen = f->st.threat_all_gen, gen = f->st.threat_gen;
        bool room = __builtin_popcount(f->st.threat_moved) < FT_THREAT_MOVED_MAX;
        take(f, cmds[i]);
        cr_expect_gt(f->st.threat_gen, gen, "'%s' counts a change", cmds[i]);
        if (room) {
            cr_expect_eq(f->st.threat_all_gen, all_gen,
                         "'%s' counts a change of one combatant", cmds[i]);
            cr_expect_neq(f->st.threat_moved, 0u, "'%s': who changed", cmds[i]);
            told++;
        }
        snprintf(when, sizeof when, "after '%s'", cmds[i]);
        both(f, when);
        /* The same again after the engine's next step (the kept threats
         * were last brought up to date before the command). */
        if (!fray_towers_fight_over(f)) {
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
            snprintf(when, sizeof when, "a step after '%s'", cmds[i]);
            both(f, when);
        }
    }
    cr_expect_gt(told, 6, "most commands found room in the set (%d)", told);
    /* Refused: into a wall-less occupied space, off the map. */
    refused(f, "gm place w6 99,99");
    both(f, "after a refused place");
    /* Undone: the state put back (by replaying from the start). */
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
        snprintf(when, sizeof when, "undo %d", i + 1);
        both(f, when);
    }
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(fray_towers_fight_redo(f), FRAY_OK);
        snprintf(when, sizeof when, "redo %d", i + 1);
        both(f, when);
    }
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Issue 16 (crowd), seed 000 "Entering Combat and Initiative": a
 * combatant who joins later (examples/towers/reinforcements.yaml,
 * `joins: later`, brought in by `gm join`) steps into the kept threats. */
Test(towers_crowd, kept_threats_follow_a_join) {
    fray_towers_setup *s = tf_load_example("reinforcements.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    both(f, "the start");
    cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    both(f, "a step");
    take(f, "gm join bandit-2 at 2,2");
    both(f, "after the join");
    for (int i = 0; i < 40 && !fray_towers_fight_over(f); i++) {
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        both(f, "after the join, stepping");
    }
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Issue 16 (crowd): checking a command that moves first (a Shift, a
 * Charge's end) puts its actor on a trial place and takes it back: the
 * state is byte for byte what it was (the count too), and the kept
 * threats still hold it. */
Test(towers_crowd, a_check_leaves_the_state_and_its_count) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight *f = tf_fight(s, 9);
    for (int i = 0; i < 30 && !fray_towers_fight_over(f); i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    both(f, "before the checks");
    ft_state *before = malloc(sizeof *before);
    cr_assert_not_null(before);
    memcpy(before, &f->st, sizeof *before);
    int checked = 0;
    for (int a = 0; a < f->st.n; a++)
        for (int t = 0; t < f->st.n; t++) {
            if (a == t)
                continue;
            ft_command c = tf_cmd(FT_ACT_ATTACK, a);
            c.target = (int8_t)t;
            c.shift_first = true;
            c.shift_to = (fray_pos){(int16_t)(f->st.c[t].pos.x - 1),
                                    f->st.c[t].pos.y};
            fray_status rc =
                ft_check_command_paths(&f->setup->s, &f->st, &c, NULL, &f->paths);
            cr_assert(rc == FRAY_OK || rc == FRAY_ERR_INVALID);
            ft_command ch = tf_cmd(FT_ACT_CHARGE, a);
            ch.target = (int8_t)t;
            ch.dest = c.shift_to;
            rc = ft_check_command_paths(&f->setup->s, &f->st, &ch, NULL, &f->paths);
            cr_assert(rc == FRAY_OK || rc == FRAY_ERR_INVALID);
            checked += 2;
            cr_assert(memcmp(before, &f->st, sizeof *before) == 0,
                      "the checks of %d on %d changed the state", a, t);
        }
    cr_assert_gt(checked, 100);
    both(f, "after the checks");
    free(before);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/*
 * Issue 16 ("This round: the crowds' search kept"): the engine's move
 * check (engine.c find_path) takes the kept path's occupants without
 * listing them again while the state's count of changes is the one they
 * were compared at. Held to the long way (no kept path): in 20 fights of
 * melee_crowd.yaml, at every step the actor whose turn it is has a Move
 * to each space within two of it checked through a kept path of its own
 * (one per space, kept from step to step: the actor's place the same and
 * others moved or fell since) and without; the same answer, asked twice
 * in a row (the second by the count) and across steps.
 */
Test(towers_crowd, kept_path_occupants_follow_the_count) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *su = &f->setup->s;
    enum { SIDE = 5, PER = SIDE * SIDE };
    int n = f->st.n;
    ft_path_cache *kept = calloc((size_t)(n * PER), sizeof *kept);
    cr_assert_not_null(kept);
    long asked = 0, by_count = 0, changed = 0, legal = 0;
    for (int trial = 0; trial < 20; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial),
                     FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            const ft_state *st = &f->st;
            int a = ft_next_actor(st);
            for (int k = 0; a >= 0 && k < PER; k++) {
                ft_command c = tf_cmd(FT_ACT_MOVE, a);
                c.dest = (fray_pos){(int16_t)(st->c[a].pos.x + k % SIDE - 2),
                                    (int16_t)(st->c[a].pos.y + k / SIDE - 2)};
                if (!fray_grid_in(&su->map, c.dest))
                    continue;
                ft_path_cache *pc = &kept[a * PER + k];
                fray_status want = ft_check_command_paths(su, st, &c, NULL, NULL);
                for (int twice = 0; twice < 2; twice++) {
                    const ft_threat_cache *tc = &pc->threat;
                    bool same_key = pc->valid && tc->path_st == st &&
                                    tc->path_mover == a &&
                                    pc->from.at.x == st->c[a].pos.x &&
                                    pc->from.at.y == st->c[a].pos.y &&
                                    pc->dest.x == c.dest.x &&
                                    pc->dest.y == c.dest.y;
                    by_count += same_key && tc->path_gen == st->threat_gen;
                    changed += same_key && tc->path_gen != st->threat_gen;
                    fray_status got = ft_check_command_paths(su, st, &c, NULL, pc);
                    cr_assert_eq(got, want,
                                 "trial %d, step %d: %d moving to (%d,%d): %d "
                                 "through the kept path, %d without",
                                 trial, step, a, c.dest.x, c.dest.y, (int)got,
                                 (int)want);
                    asked++;
                }
                legal += want == FRAY_OK;
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
    }
    cr_expect_gt(by_count, asked / 4, "%ld of %ld checks by the count",
                 by_count, asked);
    cr_expect_gt(changed, 200, "%ld checks on a kept path others moved about",
                 changed);
    cr_expect_gt(legal, 1000, "%ld legal moves", legal);
    free(kept);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- The conditions' upkeep by its list (issue 16) ------------------------ */

/* Whether combatant c holds a condition that ends at the start or end of
 * an activation (seed 000 "Conditions": "until the end of its next
 * activation" and the like). */
static bool holds_timed(const ft_state *st, int c) {
    for (int i = 0; i < st->c[c].n_cond && i < FT_MAX_CONDITIONS; i++)
        if (st->c[c].cond[i].ends == (uint8_t)FT_UNTIL_START_OF ||
            st->c[c].cond[i].ends == (uint8_t)FT_UNTIL_END_OF)
            return true;
    return false;
}

/* Issue 16, "This round: the conditions' upkeep" (docs/architecture.md):
 * the upkeep at the start and end of each activation looks only at the
 * combatants on the state's list (ft_state.cond_timed). Two fights of the
 * same setup and trial step side by side, the second with everyone put
 * on the list before each step (the long way: every combatant looked
 * at): after every step the list leaves nobody with a timed condition
 * off, and the two states are the same byte for byte (the list aside).
 * Leaving ft_cond_add's entry out of the list fails it. */
static void upkeep_same_as_everyone(fray_towers_setup *s, int trials,
                                    long *timed, long *listed, long *looked,
                                    long *untimed) {
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *a = NULL, *b = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &a), FRAY_OK);
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &b), FRAY_OK);
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(a, 7, (uint64_t)trial), FRAY_OK);
        cr_assert_eq(fray_towers_fight_reset_trial(b, 7, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(a); step++) {
            for (int c = 0; c < a->st.n; c++)
                if (holds_timed(&a->st, c)) {
                    (*timed)++;
                    cr_assert(a->st.cond_timed >> c & 1u,
                              "trial %d, step %d: combatant %d holds a timed "
                              "condition and is not on the upkeep's list",
                              trial, step, c);
                }
            *listed += __builtin_popcount(a->st.cond_timed);
            *looked += a->st.n;
            /* a condition held (the fallen's Prone) and none timed: the
             * turn's end by the list and the clock (engine.c
             * turn_end_quiet), b's the long way */
            bool held = false;
            for (int c = 0; c < a->st.n; c++)
                held = held || a->st.c[c].n_cond > 0;
            *untimed += held && a->st.cond_timed == 0;
            b->st.cond_timed = ~0u;
            cr_assert_eq(fray_towers_fight_step(a), FRAY_OK);
            cr_assert_eq(fray_towers_fight_step(b), FRAY_OK);
            uint32_t keep = b->st.cond_timed;
            b->st.cond_timed = a->st.cond_timed;
            cr_assert(memcmp(&a->st, &b->st, sizeof a->st) == 0,
                      "trial %d, step %d: the upkeep by its list and by "
                      "everyone differ", trial, step);
            b->st.cond_timed = keep;
        }
        cr_assert(fray_towers_fight_over(b), "trial %d ends both ways", trial);
    }
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
}

/* The melee crowd with maces (tests/data/towers/mace_crowd.yaml: Crit:
 * Stun, Stunned until the end of the victim's next activation, seed 000
 * "Critical Hits"), the melee crowd, the skirmish and the ambush (Prone
 * and Bleeding until removed: never listed): the same states both ways,
 * timed conditions met on many steps, and the list holding far fewer
 * than everyone. */
Test(towers_crowd, upkeep_list_same_as_everyone) {
    long timed = 0, listed = 0, looked = 0, untimed = 0;
    fray_towers_setup *s = tf_load_data("mace_crowd.yaml");
    upkeep_same_as_everyone(s, 60, &timed, &listed, &looked, &untimed);
    fray_towers_setup_free(s);
    s = tf_load_data("melee_crowd.yaml");
    upkeep_same_as_everyone(s, 20, &timed, &listed, &looked, &untimed);
    fray_towers_setup_free(s);
    s = tf_load_example("skirmish.yaml");
    upkeep_same_as_everyone(s, 20, &timed, &listed, &looked, &untimed);
    fray_towers_setup_free(s);
    s = tf_load_example("ambush.yaml");
    upkeep_same_as_everyone(s, 20, &timed, &listed, &looked, &untimed);
    fray_towers_setup_free(s);
    cr_log_info("timed conditions held %ld times; the list %ld of %ld",
                timed, listed, looked);
    cr_expect_gt(timed, 50, "timed conditions are met (%ld)", timed);
    cr_expect_lt(listed * 4, looked, "the list holds few (%ld of %ld)",
                 listed, looked);
}

/* Issue 16, "This round: a crowd's decision and turn": with nobody on
 * the upkeep's list, the end of a turn (engine.c turn_end_quiet) takes
 * the short way though the fallen lie Prone, and finds the sides still
 * standing on the Combat Clock; the tactics ask only the listed whether
 * a condition ends as the attacker's activation starts (policy.c
 * mods_survive_start). Side by side with the same fight whose list holds
 * everyone before each step (every turn's end the long way, everyone
 * asked), in the bench's 16v16 (column_crowd_16.yaml) and the wide crowd
 * of Large and Huge fighters with Spears (wide_crowd.yaml): the same
 * states byte for byte, every fight to its end, on many steps with a
 * condition held and none timed. Counting the clock's first side alone
 * as standing fails it. */
Test(towers_crowd, turn_end_by_the_list_and_the_clock, .timeout = 600) {
    long timed = 0, listed = 0, looked = 0, untimed = 0;
    fray_towers_setup *s = tf_load_data("column_crowd_16.yaml");
    upkeep_same_as_everyone(s, 3, &timed, &listed, &looked, &untimed);
    fray_towers_setup_free(s);
    long column = untimed;
    s = tf_load_data("wide_crowd.yaml");
    upkeep_same_as_everyone(s, 20, &timed, &listed, &looked, &untimed);
    fray_towers_setup_free(s);
    cr_log_info("steps with a condition held and none timed: %ld (the 16v16 "
                "%ld)", untimed, column);
    cr_expect_gt(column, 200, "the 16v16's fallen lie Prone (%ld)", column);
    cr_expect_gt(untimed, 1000, "the short way is taken (%ld)", untimed);
}

/* Seed 000 "Conditions", docs/file-formats.md "gm condition ... for N":
 * a condition for N activations put on by the GM enters the list and
 * ends at the end of its holder's Nth activation by it; one until
 * removed does not enter it. */
Test(towers_crowd, upkeep_list_takes_the_gms_timed_conditions) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight *f = tf_fight(s, 5);
    int w2 = -1;
    for (int c = 0; c < f->st.n; c++)
        if (strcmp(f->setup->s.c[c].id, "w2") == 0)
            w2 = c;
    cr_assert_geq(w2, 0);
    take(f, "gm condition w2 prone");
    cr_expect(!(f->st.cond_timed >> w2 & 1u), "Prone until removed: not listed");
    take(f, "gm condition w2 dazed for 1");
    cr_assert(f->st.cond_timed >> w2 & 1u, "Dazed for 1 activation: listed");
    for (int i = 0; i < 400 && holds_timed(&f->st, w2) &&
                    !fray_towers_fight_over(f); i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    cr_expect(!holds_timed(&f->st, w2), "the Dazed ended");
    cr_expect(!(f->st.cond_timed >> w2 & 1u), "and w2 left the list");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/*
 * Issue 16, "This round: the crowd's decision, second pass": the tactics'
 * look at everyone that opens each decision (policy.c pol_init: each
 * one's footprint, and whether each one is an enemy still in the fight,
 * seed 000 "Threatened Areas", "STUN Damage", "Dueling") is kept in the
 * fight's kept threats and only those changed since the last decision,
 * by the state's count of changes, are looked at again (look_kept). Side
 * by side after every step of each fight: every combatant able to act
 * chooses with the fight's own caches (the kept look) and with none (the
 * look at everyone): the same command byte for byte. Counts the choices
 * made with the look kept, those with it brought up to date by a few,
 * and the states with someone Disabled and still in the fight (seed 000
 * "LETHAL Damage": at 0 LETHAL; disabled_crowd.yaml, option
 * disabled-unconscious false), whom the tactics count as down: a change
 * to Disabled alone counts as a change too (harm.c status_change).
 */
static void kept_look_same(fray_towers_setup *s, int trials, long *choices,
                           long *kept, long *partial, long *disabled) {
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *setup = &f->setup->s;
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            ft_state *st = &f->st;
            ft_threat_cache *tc = &f->paths.threat;
            bool some = false; /* Disabled and still in the fight */
            for (int c = 0; c < st->n; c++)
                some = some || ((st->c[c].flags & FT_F_DISABLED) &&
                                ft_in_fight(st, c));
            *disabled += some;
            for (int c = 0; c < st->n; c++) {
                if (!ft_can_act(st, c))
                    continue;
                bool held = tc->look_st == st && tc->look_gen != 0;
                bool few = held && tc->look_gen < st->threat_gen &&
                           st->threat_all_gen <= tc->look_gen &&
                           st->threat_moved != 0;
                *kept += held && (few || tc->look_gen == st->threat_gen);
                ft_command a, b;
                bool checked;
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                ft_policy_choose_memo(setup, st, c, &a, &checked, &f->paths,
                                      NULL);
                ft_policy_choose(setup, st, c, &b);
                cr_assert(memcmp(&a, &b, sizeof a) == 0,
                          "trial %d, step %d, combatant %d: action %d (target "
                          "%d) with the kept look, %d (target %d) with the "
                          "look at everyone", trial, step, c, a.action,
                          a.target, b.action, b.target);
                (*choices)++;
                *partial += few;
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
        cr_assert(fray_towers_fight_over(f), "trial %d ends", trial);
    }
    fray_towers_fight_free(f);
}

Test(towers_crowd, kept_look_same_as_everyone, .timeout = 600) {
    long choices = 0, kept = 0, partial = 0, disabled = 0;
    static const char *const data[] = {"column_crowd_16.yaml", "wide_crowd.yaml",
                                       "mace_crowd.yaml", "disabled_crowd.yaml"};
    static const int trials[] = {3, 20, 20, 60};
    for (int i = 0; i < 4; i++) {
        fray_towers_setup *s = tf_load_data(data[i]);
        kept_look_same(s, trials[i], &choices, &kept, &partial, &disabled);
        fray_towers_setup_free(s);
    }
    static const char *const ex[] = {"skirmish.yaml", "ambush.yaml", "duel.yaml"};
    for (int i = 0; i < 3; i++) {
        fray_towers_setup *s = tf_load_example(ex[i]);
        kept_look_same(s, 20, &choices, &kept, &partial, &disabled);
        fray_towers_setup_free(s);
    }
    cr_log_info("%ld choices, %ld with the look kept, %ld of them brought "
                "up to date by a few; %ld states with someone Disabled",
                choices, kept, partial, disabled);
    cr_expect_gt(kept, choices * 9 / 10, "the look is kept (%ld of %ld)",
                 kept, choices);
    cr_expect_gt(partial, 1000, "the kept look is brought up to date by a "
                 "few (%ld of %ld)", partial, choices);
    cr_expect_gt(disabled, 100, "some are Disabled and still in the fight "
                 "(disabled_crowd.yaml: %ld states)", disabled);
}

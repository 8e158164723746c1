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
 * crowds' search kept" in docs/architecture.md): the kept threats then
 * read only the walkers' signatures again; reading none of them fails
 * four of these tests.
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
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        take(f, cmds[i]);
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

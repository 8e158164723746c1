/*
 * test_towers_grapple.c - what a grapple does after the Grapple Test
 * (seed 000 "Grappling": Restrain, Squeeze, Slam, Throw, Reverse the
 * Grapple, Knockback), falling (seed 000 "Falling", "Combined Damage"),
 * the Running Leap into a pit and improvised weapons (seed 000
 * "Improvised Weapons"), on hand-built encounters with stacked decks;
 * then a table session of them through the public API whose journal
 * replays (docs/journal.md).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "fray/fray.h"
#include "fray/sim.h"
#include "towers_fixture.h"

/* <PA> 3, <PD> 2, <PX> 1, <SPD> 5, [[E]] 3 (24 STUN, 11 LETHAL), no ER. */
static const tf_stats grapple_stats = {.pa = 3, .pd = 2, .px = 1, .spd = 5,
                                       .ss = 1, .endurance = 3,
                                       .max_stun = 24, .max_lethal = 11};

/* Combatant i at (x, y) on `side` with [N] n, Hard Strength hs and a
 * longblade (1+PA, 4+PX). */
static int add(fixture *f, const char *id, int side, int x, int y, int n,
               int hs) {
    int i = tf_add(f, id, side, x, y, &grapple_stats,
                   tf_weapon("Longblade", 1, 4, true, 1));
    f->s.c[i].sb.cv[FT_CV_N] = n;
    f->s.c[i].sb.aspects[FT_ASPECT_HS] = hs;
    return i;
}

static fixture *fixture_new(void) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0; /* stacked decks: nothing dealt first */
    return f;
}

static fray_status apply(fixture *f, ft_command cmd, fray_diag *diag) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = cmd;
    tf_run(f, diag);
    return ft_apply(&f->r);
}

/* Begins the fight (combatant 0 flips KS 4D, the others 2C: 0 acts first
 * in phase 5) and moves the clock to it. */
static void begin(fixture *f) {
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    for (int i = 1; i < f->s.n_combatants; i++)
        tf_stack(f, i, "2C");
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
    cr_assert_eq(ft_next_actor(&f->st), 0);
}

/* g holds v in a grapple. */
static void hold(fixture *f, int g, int v) {
    f->st.c[v].grappled_by = (int8_t)g;
    tf_run(f, NULL);
    ft_cond_add(&f->r, v, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED, -1, 0, g);
}

static ft_command move_cmd(int a, int t, int move) {
    ft_command c = tf_cmd(FT_ACT_ATTACK, a);
    c.target = (int8_t)t;
    c.grapple_move = (uint8_t)move;
    return c;
}

/* The event's facts of `kind` by `who` (-2: anyone). */
static int count_facts(const fixture *f, int kind, int who) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == kind && (who == -2 || f->ev.facts[i].who == who))
            n++;
    return n;
}

static bool has_modifier(const fixture *f, const char *text, int shift) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_MODIFIER &&
            strstr(f->ev.facts[i].text, text) && f->ev.facts[i].v[0] == shift)
            return true;
    return false;
}

/* ---- Squeeze and Slam ------------------------------------------------------ */

/* 000 "Grappling" Squeeze: "a damage flip with base Damage equal to your
 * Hard Strength plus your size modifier minus the victim's size modifier
 * (for character's less than medium treat them as size zero)"; fray: one
 * card whose Hearts add STUN and LETHAL, less <ER>. HS 4 on a Small
 * victim with ER 1: 4 + 0 - 0 - 1 = 3 STUN; the grapple holds. */
Test(towers_grapple, squeeze_hard_strength_and_size_small_counts_zero) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    f->s.c[1].sb.size_rank = -1; /* Small: counts as 0 */
    f->s.c[1].sb.cv[FT_CV_ER] = 1;
    begin(f);
    hold(f, 0, 1);
    tf_stack(f, 0, "2C");
    int now = f->st.phase;
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_SQUEEZE), NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].stun, 24 - 3);
    cr_expect_eq(f->st.c[1].lethal, 11);
    cr_expect_eq(f->st.c[1].grappled_by, 0, "Squeeze keeps the grapple");
    cr_expect_eq(f->st.c[0].phase, now + 5, "the Attack action: 5 phases");
    free(f);
}

/* 000 "Grappling" Squeeze: a Large grappler (+1) on a Large victim (-1),
 * and a Heart in the damage flip: 4 + 1 - 1 + 1 Heart = 5 STUN, 1
 * LETHAL. */
Test(towers_grapple, squeeze_sizes_and_a_heart) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 0, 1, 1, 4);
    add(f, "ogre", 1, 2, 1, 1, 1);
    f->s.c[0].sb.size_rank = 1;
    f->s.c[1].sb.size_rank = 1;
    begin(f);
    hold(f, 0, 1);
    tf_stack(f, 0, "7H");
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_SQUEEZE), NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].stun, 24 - 5);
    cr_expect_eq(f->st.c[1].lethal, 11 - 1);
    free(f);
}

/* 000 "Grappling" Slam: "the same damage as Squeezing but your foe is
 * knocked down and you break the grapple". */
Test(towers_grapple, slam_knocks_prone_and_breaks_the_grapple) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    begin(f);
    hold(f, 0, 1);
    tf_stack(f, 0, "2C");
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_SLAM), NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].stun, 24 - 4);
    cr_expect(ft_cond_has(&f->st, 1, FT_COND_PRONE));
    cr_expect_eq(f->st.c[1].grappled_by, -1);
    cr_expect(!ft_cond_has(&f->st, 1, FT_COND_GRAPPLED));
    free(f);
}

/* Option squeeze-flips 0: no damage flip, so no Hearts: HS 4 = 4 STUN. */
Test(towers_grapple, squeeze_flips_option_zero_flips_nothing) {
    fixture *f = fixture_new();
    f->s.opt.squeeze_flips = 0;
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    begin(f);
    hold(f, 0, 1);
    tf_stack(f, 0, "7H");
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_SQUEEZE), NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].stun, 24 - 4);
    cr_expect_eq(f->st.c[1].lethal, 11);
    cr_expect_eq(count_facts(f, FT_FACT_FLIP, -2), 0);
    free(f);
}

/* Only the grappler squeezes his own victim. */
Test(towers_grapple, grapple_moves_need_the_hold) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    begin(f);
    fray_diag d;
    memset(&d, 0, sizeof d);
    ft_command c = move_cmd(0, 1, FT_GM_SQUEEZE);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "does not hold") != NULL, "%s", d.message);
    c = move_cmd(0, 1, FT_GM_REVERSE);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, NULL), FRAY_ERR_INVALID);
    free(f);
}

/* Seed 000 "Grappling": a grapple is on an opponent; one's own space is
 * not next to oneself (a grapple on oneself passed the check and did
 * nothing at the table). */
Test(towers_grapple, nobody_grapples_itself) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    begin(f);
    fray_diag d;
    memset(&d, 0, sizeof d);
    ft_command c = tf_cmd(FT_ACT_GRAPPLE, 0);
    c.target = 0;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "cannot grapple itself") != NULL, "%s",
              d.message);
    c.target = 1;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, NULL), FRAY_OK);
    free(f);
}

/* ---- Restrain ------------------------------------------------------------- */

/* 000 "Grappling" Restrain: "a positive flip shift on your next Grapple
 * Test during this grapple". The victim's Escape: brom keeps 5 (+1) = 6
 * against the imp's 6: held (ties to the grappler); the next test has no
 * Restrain: 5 against 6, the imp escapes. */
Test(towers_grapple, restrain_shift_on_the_next_grapple_test_once) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    begin(f);
    hold(f, 0, 1);
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_RESTRAIN), NULL), FRAY_OK);
    cr_expect_eq(f->st.c[0].restrain_vs, 2);
    cr_expect_eq(f->st.c[1].grappled_by, 0);
    memset(&f->ev, 0, sizeof f->ev);
    tf_run(f, NULL);
    tf_stack(f, 0, "5C 4C 3C");
    tf_stack(f, 1, "6D 2D");
    bool win = false;
    cr_assert_eq(ft_grapple_test(&f->r, 0, 1, 0, &win), FRAY_OK);
    cr_expect(win, "5 (shift+1) = 6 against 6");
    cr_expect(has_modifier(f, "Restrain", 1));
    cr_expect_eq(f->st.c[0].restrain_vs, 0, "spent");
    memset(&f->ev, 0, sizeof f->ev);
    tf_run(f, NULL);
    tf_stack(f, 0, "5C 4C 3C");
    tf_stack(f, 1, "6D 2D");
    cr_assert_eq(ft_grapple_test(&f->r, 0, 1, 0, &win), FRAY_OK);
    cr_expect(!win, "no Restrain left: 5 against 6");
    free(f);
}

/* "These bonuses are not cumulative": two Restrains give (shift+1), not
 * (shift+2): 5 + 1 = 6 against 7 loses. */
Test(towers_grapple, restrain_is_not_cumulative) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 9, 9, 1, 1);
    begin(f);
    f->st.c[1].pos = (fray_pos){2, 1};
    hold(f, 0, 1);
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_RESTRAIN), NULL), FRAY_OK);
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_RESTRAIN), NULL), FRAY_OK);
    memset(&f->ev, 0, sizeof f->ev);
    tf_run(f, NULL);
    tf_stack(f, 0, "5C 4C 3C");
    tf_stack(f, 1, "7D 2D");
    bool win = true;
    cr_assert_eq(ft_grapple_test(&f->r, 0, 1, 0, &win), FRAY_OK);
    cr_expect(!win, "(shift+1) once: 6 against 7");
    free(f);
}

/* ---- Throw ----------------------------------------------------------------- */

/* A thrower (HS 4: range 8, increments of 2) holding the imp at (2,1),
 * and the imp's friend at (5,1): 4 spaces, increment 2, (shift-1). */
static fixture *throw_fixture(void) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "imp", 1, 2, 1, 1, 1);
    add(f, "bandit", 1, 5, 1, 1, 1);
    begin(f);
    hold(f, 0, 1);
    return f;
}

static ft_command throw_at(int x, int y) {
    ft_command c = move_cmd(0, 1, FT_GM_THROW);
    c.dest = (fray_pos){(int16_t)x, (int16_t)y};
    return c;
}

/* 000 "Grappling" Throw: "If the space is occupied, make a Physical Attack
 * <PA> roll against the Physical Defense <PD> of the person in the space
 * ... If you hit, both the thrown opponent and the target are knocked
 * prone. Randomly determine which direction from the target the thrown
 * character lands." KC (shift-1) = 12 against 4: a hit; the card 2S says
 * east (2 modulo 8: north, north-east, east): (6,1). */
Test(towers_grapple, throw_hit_knocks_both_prone) {
    fixture *f = throw_fixture();
    tf_stack(f, 0, "KC 2C 3C 2S");
    tf_stack(f, 2, "4D 2D");
    cr_assert_eq(apply(f, throw_at(5, 1), NULL), FRAY_OK);
    cr_expect(has_modifier(f, "range increment 2", -1));
    cr_expect_eq(count_facts(f, FT_FACT_HIT, 0), 1);
    cr_expect(ft_cond_has(&f->st, 1, FT_COND_PRONE));
    cr_expect(ft_cond_has(&f->st, 2, FT_COND_PRONE));
    cr_expect_eq(f->st.c[1].pos.x, 6);
    cr_expect_eq(f->st.c[1].pos.y, 1);
    cr_expect_eq(f->st.c[1].grappled_by, -1, "the throw lets go");
    cr_expect(!ft_cond_has(&f->st, 1, FT_COND_GRAPPLED));
    free(f);
}

/* "If you miss, the thrown opponent is prone. The target is unharmed. The
 * target will land in a random adjacent space." 4 (shift-1) = 3 against
 * KD 13: a miss; 4S: 4 modulo 8 is south: (5,2). */
Test(towers_grapple, throw_miss_thrown_prone_target_unharmed) {
    fixture *f = throw_fixture();
    tf_stack(f, 0, "2C 3C 4C 4S");
    tf_stack(f, 2, "KD 2D");
    cr_assert_eq(apply(f, throw_at(5, 1), NULL), FRAY_OK);
    cr_expect_eq(count_facts(f, FT_FACT_MISS, 0), 1);
    cr_expect(ft_cond_has(&f->st, 1, FT_COND_PRONE));
    cr_expect(!ft_cond_has(&f->st, 2, FT_COND_PRONE));
    cr_expect_eq(f->st.c[2].stun, 24);
    cr_expect_eq(f->st.c[1].pos.x, 5);
    cr_expect_eq(f->st.c[1].pos.y, 2);
    cr_expect_eq(f->st.c[1].grappled_by, -1);
    free(f);
}

/* "If the square is unoccupied, treat the Defense as 0": 4 (shift-1) = 3
 * against 0 hits; the imp lands there, prone, no card for the direction. */
Test(towers_grapple, throw_at_an_empty_space_defense_zero) {
    fixture *f = throw_fixture();
    tf_stack(f, 0, "2C 3C 4C");
    cr_assert_eq(apply(f, throw_at(4, 3), NULL), FRAY_OK);
    cr_expect_eq(count_facts(f, FT_FACT_HIT, 0), 1);
    cr_expect_eq(count_facts(f, FT_FACT_FLIP, -2), 1, "the attack flip only");
    cr_expect_eq(f->st.c[1].pos.x, 4);
    cr_expect_eq(f->st.c[1].pos.y, 3);
    cr_expect(ft_cond_has(&f->st, 1, FT_COND_PRONE));
    free(f);
}

/* Option throw-range: the default is 2 x Hard Strength (8 spaces); a
 * space 9 away is out of range, and in range with throw-range 10. */
Test(towers_grapple, throw_range_option) {
    fixture *f = throw_fixture();
    cr_expect_eq(ft_throw_range(&f->s, 0), 8);
    fray_diag d;
    memset(&d, 0, sizeof d);
    ft_command c = throw_at(10, 1);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "out of range") != NULL, "%s", d.message);
    f->s.opt.throw_range = 10;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, NULL), FRAY_OK);
    free(f);
}

/* ---- Reverse the Grapple ---------------------------------------------------- */

/* 000 "Grappling" Reverse the Grapple: "Hard Strength plus size versus
 * Hard Strength plus size check. The person attempting the reversal is at
 * a (flip-1)": the imp (HS 3) flips 2 cards, brom (HS 3) 3; the kept
 * card alone (000 "Skill, Aspect, and Attribute Checks"). KC against 5D:
 * the roles swap. */
Test(towers_grapple, reverse_at_flip_minus_one_swaps_roles) {
    fixture *f = fixture_new();
    add(f, "imp", 1, 2, 1, 1, 3);
    add(f, "brom", 0, 1, 1, 1, 3);
    begin(f);
    hold(f, 1, 0);
    tf_stack(f, 0, "KC 2C");
    tf_stack(f, 1, "5D 4D 3D");
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_REVERSE), NULL), FRAY_OK);
    int flips = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_FLIP) {
            int want = f->ev.facts[i].who == 0 ? 2 : 3;
            cr_expect_eq(f->ev.facts[i].n_cards, want, "who %d",
                         f->ev.facts[i].who);
            flips++;
        }
    cr_expect_eq(flips, 2);
    cr_expect_eq(f->st.c[0].grappled_by, -1);
    cr_expect(!ft_cond_has(&f->st, 0, FT_COND_GRAPPLED));
    cr_expect_eq(f->st.c[1].grappled_by, 0, "the imp holds brom now");
    cr_expect(ft_cond_has(&f->st, 1, FT_COND_GRAPPLED));
    free(f);
}

/* A failed reversal changes nothing. */
Test(towers_grapple, reverse_failed_keeps_the_grapple) {
    fixture *f = fixture_new();
    add(f, "imp", 1, 2, 1, 1, 3);
    add(f, "brom", 0, 1, 1, 1, 3);
    begin(f);
    hold(f, 1, 0);
    tf_stack(f, 0, "4C 2C");
    tf_stack(f, 1, "5D 4D 3D");
    cr_assert_eq(apply(f, move_cmd(0, 1, FT_GM_REVERSE), NULL), FRAY_OK);
    cr_expect_eq(f->st.c[0].grappled_by, 1);
    cr_expect_eq(f->st.c[1].grappled_by, -1);
    free(f);
}

/* ---- Knockback and falling ---------------------------------------------------- */

/* The knight (a hammer with Knockback 2) at (3,1), the grappler at (4,1)
 * holding the imp at (4,2). */
static fixture *knock_fixture(void) {
    fixture *f = fixture_new();
    int k = add(f, "knight", 1, 3, 1, 1, 3);
    f->s.c[k].sb.weapons[0].knockback = 2;
    add(f, "brom", 0, 4, 1, 1, 4);
    add(f, "imp", 1, 4, 2, 1, 1);
    begin(f);
    hold(f, 1, 2);
    return f;
}

/* 000 "Grappling": "If the attacker is hit by any attack with Knockback
 * ... another Grapple Test must be made to hold onto his target". Brom
 * loses it (5 against KD): the grapple breaks and he is pushed 2 spaces
 * east, straight away from the knight. */
Test(towers_grapple, knockback_breaks_a_grapple_on_a_failed_test) {
    fixture *f = knock_fixture();
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    tf_stack(f, 0, "KC 2C 3C 4C");   /* the knight's attack: 1+PA, 4 cards */
    tf_stack(f, 1, "2D 3D 5C 4C 3C"); /* brom's defense, his Grapple Test */
    tf_stack(f, 2, "KD 2D");         /* the imp's PD */
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[2].grappled_by, -1);
    cr_expect_eq(f->st.c[1].pos.x, 6);
    cr_expect_eq(f->st.c[1].pos.y, 1);
    cr_expect_eq(f->st.c[2].pos.x, 4, "the imp stays");
    free(f);
}

/* A won test: the hold stays and the victim is thrown about with him. */
Test(towers_grapple, knockback_held_grapple_drags_the_victim) {
    fixture *f = knock_fixture();
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    tf_stack(f, 0, "KC 2C 3C 4C");
    tf_stack(f, 1, "2D 3D KS 4C 3C");
    tf_stack(f, 2, "5D 2D");
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[2].grappled_by, 1);
    cr_expect_eq(f->st.c[1].pos.x, 6);
    cr_expect_eq(f->st.c[2].pos.x, 6);
    cr_expect_eq(f->st.c[2].pos.y, 2);
    free(f);
}

/* Knockback off a ledge: 000 "Falling": "5 Physical STUN and 2 damage
 * flips per 5 feet"; "Combined Damage": "each heart in the flip will do
 * LETHAL and additional STUN", and "armor and natural <ER> would reduce
 * it". The stage (elevation 2, 10 feet) ends at x 4: the hammer's blow
 * (KC, no Heart: 4 + 1 - ER 1 = 4 STUN) pushes brom to (5,1), he falls 10
 * feet: 10 STUN and 4 cards, 2H 3H 4C 5C: + 2 STUN, 2 LETHAL, - ER 1. */
Test(towers_grapple, knockback_off_a_ledge_falls) {
    fixture *f = fixture_new();
    int k = add(f, "knight", 1, 3, 1, 1, 3);
    f->s.c[k].sb.weapons[0].knockback = 1;
    int b = add(f, "brom", 0, 4, 1, 1, 4);
    f->s.c[b].sb.cv[FT_CV_ER] = 1;
    for (int y = 0; y < 12; y++)
        for (int x = 0; x <= 4; x++)
            f->s.map.elevation[y][x] = 2;
    begin(f);
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    tf_stack(f, 1, "2D 3D 2H 3H 4C 5C");
    tf_stack(f, 0, "KC 2C 3C 4C");
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].pos.x, 5);
    cr_expect_eq(f->st.c[1].stun, 24 - 4 - 11);
    cr_expect_eq(f->st.c[1].lethal, 11 - 2);
    free(f);
}

/* Option level-feet: one level of 10 feet; a fall of one level is 10
 * STUN and 4 cards (no Hearts here, no ER). */
Test(towers_grapple, fall_level_feet_option) {
    fixture *f = fixture_new();
    f->s.opt.level_feet = 10;
    add(f, "brom", 0, 4, 1, 1, 4);
    add(f, "imp", 1, 9, 9, 1, 1);
    begin(f);
    memset(&f->ev, 0, sizeof f->ev);
    tf_run(f, NULL);
    tf_stack(f, 0, "2C 3C 4C 5C 6H");
    cr_assert_eq(ft_fall(&f->r, 0, 1), FRAY_OK);
    cr_expect_eq(f->st.c[0].stun, 24 - 10);
    cr_expect_eq(f->st.c[0].lethal, 11);
    /* The default: 5 feet a level; one level is 5 STUN and 2 cards. */
    f->s.opt.level_feet = 5;
    tf_stack(f, 0, "6H 2C");
    cr_assert_eq(ft_fall(&f->r, 0, 1), FRAY_OK);
    cr_expect_eq(f->st.c[0].stun, 24 - 10 - 6);
    cr_expect_eq(f->st.c[0].lethal, 11 - 1);
    free(f);
}

/* ---- Running Leap into a pit --------------------------------------------- */

/* A leap that cannot land on solid ground falls (000 "Falling"): the pit
 * is pit-depth levels deep (2: 10 feet, 10 STUN and 4 cards). The run is
 * exactly SPD 5 east, then the leap 3 spaces into the pit at (8,1). */
Test(towers_grapple, running_leap_into_a_pit_falls) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 0, 1, 1, 4);
    add(f, "imp", 1, 11, 11, 1, 1);
    f->s.map.terrain[1][8] = FRAY_TERRAIN_PIT;
    begin(f);
    ft_command run = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
    run.dest = (fray_pos){5, 1};
    cr_assert_eq(apply(f, run, NULL), FRAY_OK);
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    ft_command leap = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
    leap.dest = (fray_pos){8, 1};
    tf_stack(f, 0, "2C 3C 4C 5C");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, leap, &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(f->st.c[0].pos.x, 8);
    cr_expect_eq(f->st.c[0].stun, 24 - 10);
    /* Option pit-depth 0: no fall. */
    free(f);
}

/* ---- Improvised weapons ----------------------------------------------------- */

/* 000 "Improvised Weapons": "Improvised weapons may also have limits on
 * just how much of a user's strength they can utilize": a chair (2+PX,
 * strength limit 1) in the hands of brom (<PX> 4) does 2 + 1 = 3, not 6. */
Test(towers_grapple, improvised_weapon_strength_limit) {
    fixture *f = fixture_new();
    int b = add(f, "brom", 0, 1, 1, 1, 4);
    ft_weapon chair = tf_weapon("Chair", 0, 2, true, 1);
    chair.keywords = FT_KW(IMPROVISED);
    chair.has_strength_limit = true;
    chair.strength_limit = 1;
    f->s.c[b].sb.weapons[0] = chair;
    f->s.c[b].sb.cv[FT_CV_PX] = 4;
    add(f, "imp", 1, 2, 1, 1, 1);
    begin(f);
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    tf_stack(f, 0, "KC 2C 3C");
    tf_stack(f, 1, "2D 3D");
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].stun, 24 - 3);
    cr_expect_eq(ft_px_used(&chair, 4), 1);
    cr_expect_eq(ft_px_used(&chair, 0), 0);
    chair.has_strength_limit = false;
    cr_expect_eq(ft_px_used(&chair, 4), 4, "no limit: all of it");
    free(f);
}

/* The example's catalog: improvised, strength-limit and knockback load. */
Test(towers_grapple, example_loads_improvised_and_knockback) {
    fray_towers_setup *s = tf_load_example("grappler.yaml");
    bool chair = false, hammer = false;
    for (int i = 0; i < s->s.n_catalog; i++) {
        const ft_weapon *w = &s->s.catalog[i];
        if (strcmp(w->name, "Chair") == 0) {
            chair = true;
            cr_expect(w->keywords & FT_KW(IMPROVISED));
            cr_expect(w->has_strength_limit);
            cr_expect_eq(w->strength_limit, 1);
        }
        if (strcmp(w->name, "Warhammer") == 0) {
            hammer = true;
            cr_expect_eq(w->knockback, 1);
            cr_expect(w->keywords & FT_KW(KNOCKBACK), "knockback: 1 has the keyword");
        }
    }
    cr_expect(chair && hammer);
    fray_towers_setup_free(s);
}

/* A table command with cards flipped by hand ("" none). */
static void table(fray_towers_fight *f, const char *command, const char *cards) {
    fray_card c[54];
    size_t n = 0;
    if (cards[0])
        cr_assert_eq(fray_card_parse_list(cards, c, 54, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, command, n ? c : NULL, n, &d),
                 FRAY_OK, "%s: %s", command, d.message);
}

/* The table session of tests/cli (table_grappler): each grapple move with
 * cards by hand (Initiate Grapple, Restrain, a failed Reverse, Squeeze,
 * an Escape held by Restrain's (shift+1), Slam, a knockback held with
 * the victim dragged, a knockback off the stage with its fall, a Throw at
 * Nim), then the journal replays to the same fight. */
Test(towers_grapple, journal_round_trip_of_the_grapple_moves) {
    fray_towers_setup *s = tf_load_example("grappler.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    static const char *const script[][2] = {
        {"next", ""},
        {"wrestler grapple knight", "KC 2C 3C 2D 3D 4D"},
        {"next", ""}, {"thrower delay", ""}, {"next", ""},
        {"wrestler attack knight restrain", ""},
        {"next", ""}, {"thrower delay", ""}, {"next", ""},
        {"knight attack wrestler reverse", "2C 3C KD QD JD 10D"},
        {"next", ""},
        {"wrestler attack knight squeeze", "5H"},
        {"next", ""}, {"thrower delay", ""}, {"next", ""},
        {"knight escape", "5C 4C 3C 6S 2S 3S"},
        {"next", ""},
        {"wrestler attack knight slam", "2S"},
        {"next", ""}, {"thrower delay", ""}, {"next", ""},
        {"knight stand", ""},
        {"next", ""}, {"thrower delay", ""}, {"knight delay", ""},
        {"next", ""},
        {"wrestler grapple knight", "KC 2C 3C 2D 3D 4D"},
        {"next", ""}, {"thrower delay", ""},
        {"knight attack wrestler", "KC 2C 2D 3D KS 4S 3S 5D 6D 7D"},
        {"next", ""},
        {"wrestler attack knight restrain", ""},
        {"next", ""}, {"thrower delay", ""},
        {"knight attack wrestler", "KC 2C 2D 3D KS 4S 3S 5D 6D 7D 2H 3C 4C 5C"},
        {"next", ""},
        {"wrestler attack knight throw 8,5", "KC QC 2D 3D 4D 3C"},
    };
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++)
        table(f, script[i][0], script[i][1]);
    const ft_state *st = &f->st;
    cr_expect_eq(st->c[0].pos.x, 1, "knocked off the stage");
    cr_expect_eq(st->c[0].stun, 32 - 3 - 3 - 10);
    cr_expect_eq(st->c[1].pos.x, 9, "thrown next to Nim");
    cr_expect(ft_cond_has(st, 1, FT_COND_PRONE));
    cr_expect(ft_cond_has(st, 2, FT_COND_PRONE));
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The tactics preset grapple, the engine flipping: whole fights of the
 * example replay from their journals (Initiate Grapple, Squeeze, Slam,
 * Throw, knockback and falls as the cards fall), and the wrestler does
 * grapple. */
Test(towers_grapple, journal_round_trip_of_tactics_fights) {
    fray_towers_setup *s = tf_load_example("grappler.yaml");
    int grapples = 0, moves = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        fray_towers_fight *f = tf_fight(s, seed);
        for (int i = 0; i < 400 && !fray_towers_fight_over(f); i++)
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        grapples += f->st.c[0].by_kind[FT_ACT_GRAPPLE];
        moves += f->st.c[0].by_kind[FT_ACT_ATTACK];
        tf_replays_same(s, f);
        fray_towers_fight_free(f);
    }
    cr_expect_gt(grapples, 0);
    cr_expect_gt(moves, 0);
    fray_towers_setup_free(s);
}

/* The Running Leap into a pit at the table, replayed. */
Test(towers_grapple, journal_round_trip_of_a_leap_into_a_pit) {
    fray_towers_setup *s = tf_load_example("grappler.yaml");
    fray_towers_setup *m = NULL;
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &m), FRAY_OK);
    m->s.map.terrain[6][7] = FRAY_TERRAIN_PIT;
    m->s.c[2].start = (fray_pos){0, 6};
    ft_policy_prepare(&m->s);
    fray_towers_fight *f = tf_fight(m, 3);
    table(f, "next", "");
    table(f, "wrestler delay", "");
    table(f, "next", "");
    table(f, "thrower running-leap 6,6", "");
    table(f, "next", "");
    table(f, "wrestler delay", "");
    table(f, "next", "");
    table(f, "thrower running-leap 7,6", "2C 3C 4C 5C");
    cr_expect_eq(f->st.c[2].pos.x, 7);
    cr_expect_eq(f->st.c[2].stun, 16 - 10);
    tf_replays_same(m, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(m);
    fray_towers_setup_free(s);
}

/* ---- Loading ------------------------------------------------------------------ */

/* The options by their names, the keyword Knockback alone (1 space) and an
 * improvised weapon's strength-limit (0 is a limit too: no <PX> at all). */
Test(towers_grapple, options_and_weapon_keys_load) {
    fray_towers_setup *s = tf_load_data("grapple_options.yaml");
    cr_expect_eq(s->s.opt.throw_range, 6);
    cr_expect_eq(s->s.opt.level_feet, 10);
    cr_expect_eq(s->s.opt.squeeze_flips, 2);
    cr_expect_eq(s->s.opt.pit_depth, 3);
    const ft_statblock *sb = &s->s.c[0].sb;
    cr_expect_eq(sb->weapons[0].knockback, 1);
    cr_expect(sb->weapons[0].keywords & FT_KW(KNOCKBACK));
    cr_expect(sb->weapons[1].keywords & FT_KW(IMPROVISED));
    cr_expect(sb->weapons[1].has_strength_limit);
    cr_expect_eq(ft_px_used(&sb->weapons[1], 2), 0);
    fray_towers_setup_free(s);
    /* The defaults. */
    ft_options o;
    ft_options_default(&o);
    cr_expect_eq(o.throw_range, 0, "2 x Hard Strength");
    cr_expect_eq(o.level_feet, 5);
    cr_expect_eq(o.squeeze_flips, 1);
    cr_expect_eq(o.pit_depth, 2);
}

/* Option pit-depth: a pit 1 level deep is a fall of 5 feet (5 STUN, 2
 * cards); 0: no fall at all. */
Test(towers_grapple, pit_depth_option) {
    for (int depth = 0; depth <= 1; depth++) {
        fixture *f = fixture_new();
        f->s.opt.pit_depth = depth;
        add(f, "brom", 0, 0, 1, 1, 4);
        add(f, "imp", 1, 11, 11, 1, 1);
        f->s.map.terrain[1][8] = FRAY_TERRAIN_PIT;
        begin(f);
        ft_command run = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
        run.dest = (fray_pos){5, 1};
        cr_assert_eq(apply(f, run, NULL), FRAY_OK);
        cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
        ft_command leap = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
        leap.dest = (fray_pos){8, 1};
        tf_stack(f, 0, "2C 3C");
        cr_assert_eq(apply(f, leap, NULL), FRAY_OK);
        cr_expect_eq(f->st.c[0].stun, 24 - 5 * depth, "depth %d", depth);
        free(f);
    }
}

/* Before this issue a leap that could not land on solid ground was
 * refused; a wall still is. */
Test(towers_grapple, running_leap_onto_a_wall_is_still_refused) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 0, 1, 1, 4);
    add(f, "imp", 1, 11, 11, 1, 1);
    f->s.map.terrain[1][8] = FRAY_TERRAIN_WALL;
    begin(f);
    ft_command run = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
    run.dest = (fray_pos){5, 1};
    cr_assert_eq(apply(f, run, NULL), FRAY_OK);
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
    ft_command leap = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
    leap.dest = (fray_pos){8, 1};
    cr_expect_eq(ft_check_command(&f->s, &f->st, &leap, NULL), FRAY_ERR_INVALID);
    free(f);
}

/* ---- The victim's restricted attack ------------------------------------------ */

/* 000 "Grappling" Restricted Attack: "he will be at a (flip-1) to his
 * attack, and his Hard Strength will be considered halved for purposes of
 * damage calculations": the imp (<PX> 3, longblade 1+PA 4+PX) flips 3 + 1
 * - 1 = 3 cards and does 4 + 1 (3 halved, rounded down) = 5 STUN. */
Test(towers_grapple, restricted_attack_flip_minus_one_strength_halved) {
    fixture *f = fixture_new();
    int i = add(f, "imp", 1, 2, 1, 1, 3);
    f->s.c[i].sb.cv[FT_CV_PX] = 3;
    add(f, "brom", 0, 1, 1, 1, 4);
    begin(f);
    hold(f, 1, 0);
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    tf_stack(f, 0, "KC 2C 3C 4C");
    tf_stack(f, 1, "2D 3D");
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_expect(has_modifier(f, "restricted attack", 0));
    for (int k = 0; k < f->ev.n_facts; k++)
        if (f->ev.facts[k].kind == FT_FACT_FLIP && f->ev.facts[k].who == 0)
            cr_expect_eq(f->ev.facts[k].n_cards, 3);
    cr_expect_eq(f->st.c[1].stun, 24 - 5);
    free(f);
}

/* 000 "Grappling" Throw: "If you are throwing a willing person (usually a
 * teammate) and you hit, you may choose not to knock your target prone. If
 * you choose this, the character you threw will not be prone either. You
 * can choose a space adjacent to the target". Brom throws his friend Ana at
 * the bandit, to land north of him: (5,0), nobody prone, no card for the
 * direction. A foe cannot be placed so. */
Test(towers_grapple, throw_a_willing_ally_lands_where_chosen) {
    fixture *f = fixture_new();
    add(f, "brom", 0, 1, 1, 1, 4);
    add(f, "ana", 0, 2, 1, 1, 1);
    add(f, "bandit", 1, 5, 1, 1, 1);
    begin(f);
    hold(f, 0, 1);
    ft_command c = throw_at(5, 1);
    c.throw_land = 1; /* north */
    tf_stack(f, 0, "KC 2C 3C 9S");
    tf_stack(f, 2, "4D 2D");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, c, &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(f->st.c[1].pos.x, 5);
    cr_expect_eq(f->st.c[1].pos.y, 0);
    cr_expect(!ft_cond_has(&f->st, 1, FT_COND_PRONE));
    cr_expect(!ft_cond_has(&f->st, 2, FT_COND_PRONE));
    cr_expect_eq(count_facts(f, FT_FACT_FLIP, -2), 2, "no card for where");
    free(f);
    f = throw_fixture(); /* the imp is brom's foe */
    c = throw_at(5, 1);
    c.throw_land = 1;
    memset(&d, 0, sizeof d);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "willing") != NULL, "%s", d.message);
    free(f);
}

/* The willing throw at the table ("land DIR") and its journal: Sir Hale
 * grapples his friend Nim and throws him at the wrestler, to land north
 * of him. */
Test(towers_grapple, journal_round_trip_of_a_willing_throw) {
    fray_towers_setup *s = tf_load_example("grappler.yaml");
    fray_towers_setup *m = NULL;
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &m), FRAY_OK);
    m->s.c[2].start = (fray_pos){5, 2};
    ft_policy_prepare(&m->s);
    fray_towers_fight *f = tf_fight(m, 3);
    static const char *const script[][2] = {
        {"next", ""}, {"wrestler delay", ""},
        {"next", ""}, {"thrower delay", ""},
        {"next", ""}, {"wrestler delay", ""},
        {"next", ""}, {"thrower delay", ""},
        {"next", ""}, {"knight grapple thrower", "KC 2C 3C 2D 3D"},
        {"next", ""}, {"wrestler delay", ""},
        {"next", ""}, {"thrower delay", ""},
        {"next", ""},
        {"knight attack thrower throw 3,2 land n", "KC 2C 3C 2D 3D"},
    };
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++)
        table(f, script[i][0], script[i][1]);
    cr_expect_eq(f->st.c[2].pos.x, 3);
    cr_expect_eq(f->st.c[2].pos.y, 1);
    cr_expect(!ft_cond_has(&f->st, 2, FT_COND_PRONE));
    cr_expect(!ft_cond_has(&f->st, 0, FT_COND_PRONE));
    tf_replays_same(m, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(m);
    fray_towers_setup_free(s);
}

/* Bad grapple words at the table say what was expected, in rules words. */
Test(towers_grapple, bad_grapple_words_are_refused) {
    fray_towers_setup *s = tf_load_example("grappler.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    table(f, "next", "");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(f, "wrestler attack knight throw",
                                           NULL, 0, &d),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "the space to throw at") != NULL, "%s",
              d.message);
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(
                     f, "wrestler attack knight throw 5,5 land up", NULL, 0, &d),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "direction") != NULL, "%s", d.message);
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(f, "wrestler attack knight squeeze",
                                           NULL, 0, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "does not hold") != NULL, "%s", d.message);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Knockback into a pit: it falls in, pit-depth levels (2: 10 feet, 10
 * STUN and 4 cards); the blow (KC, no Heart) did 5 first. */
Test(towers_grapple, knockback_into_a_pit_falls) {
    fixture *f = fixture_new();
    int k = add(f, "knight", 1, 3, 1, 1, 3);
    f->s.c[k].sb.weapons[0].knockback = 3;
    add(f, "brom", 0, 4, 1, 1, 4);
    f->s.map.terrain[1][5] = FRAY_TERRAIN_PIT;
    begin(f);
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    tf_stack(f, 1, "2D 3D 2C 3C 4C 5C");
    tf_stack(f, 0, "KC 2C 3C 4C");
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].pos.x, 5, "in the pit, no further");
    cr_expect_eq(f->st.c[1].stun, 24 - 5 - 10);
    free(f);
}

/*
 * test_towers_engine.c - the Combat Clock and the Action List (seed 000
 * "Time Scales" to "Use an Item", "Opportunity Attacks"; RULINGS 8-15),
 * on hand-built encounters with stacked decks.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"

/* ---- A hand-built encounter ------------------------------------------------ */

/* Everyone's numbers but [N]: <PA> 3, <PD> 2, <PX> 1, <SPD> 5, [SS] 1,
 * [[E]] 3 (24 STUN, 11 LETHAL), and a longblade. */
static const tf_stats engine_stats = {.pa = 3, .pd = 2, .px = 1, .spd = 5,
                                      .ss = 1, .endurance = 3,
                                      .max_stun = 24, .max_lethal = 11};

/* Combatant i on side `side` at (x, y) with its own deck i and [N] n. */
static void add(fixture *f, const char *id, int side, int x, int y, int n) {
    int i = tf_add(f, id, side, x, y, &engine_stats,
                   tf_weapon("Longblade", 1, 4, true, 1));
    f->s.c[i].sb.cv[FT_CV_N] = n;
    f->s.c[i].tactics.preset = FT_TAC_DEFAULT;
    f->s.c[i].tactics.opportunity_attacks = true;
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

static void begin(fixture *f) {
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
}

/* The clock moves to whoever acts next. */
static void next_phase(fixture *f) {
    int a = ft_next_actor(&f->st);
    if (a >= 0 && f->st.c[a].phase > f->st.phase)
        cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
}

/* ---- Initiative ------------------------------------------------------------- */

/* Seed 000 "Entering Combat and Initiative", worked example: Tony has N 2,
 * flips a King and a Four, keeps the King: 13 + 2 = 15, acts in phase 5. */
Test(towers_engine, tony_initiative_king_and_four) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 5, 5, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    cr_assert_eq(f->st.c[0].ci, 15);
    cr_assert_eq(f->st.c[0].phase, 5);
    /* The bandit: 2 + N 1 = 3, phase 17. */
    cr_assert_eq(f->st.c[1].phase, 17);
    free(f);
}

/* Seed 000 "Entering Combat and Initiative": surprised, Tony still flips,
 * but acts first in phase 15 instead of 5 (10 phases later). */
Test(towers_engine, tony_surprised_acts_in_phase_15) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 5, 5, 1);
    f->s.c[0].unaware_of = 1u << 1;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    begin(f);
    cr_assert_eq(f->st.c[0].ci, 15);
    cr_assert_eq(f->st.c[0].phase, 15);
    free(f);
}

/* Seed 000: a Calculated Initiative of 20 or more places at phase 0. */
Test(towers_engine, initiative_20_or_more_is_phase_0) {
    fixture *f = fixture_new();
    add(f, "fast", 0, 1, 1, 8);
    add(f, "slow", 1, 5, 5, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "AS 2C 3C 4C 5C 6C 7C 8C");
    begin(f);
    cr_assert_eq(f->st.c[0].ci, 22);
    cr_assert_eq(f->st.c[0].phase, 0);
    free(f);
}

/* RULINGS 9: in one phase, the higher Calculated Initiative acts first;
 * equal CI: higher [N]; then higher [SS]. */
Test(towers_engine, ties_in_a_phase) {
    fixture *f = fixture_new();
    add(f, "a", 0, 1, 1, 2); /* K + 2 = 15 */
    add(f, "b", 1, 5, 5, 3); /* Q + 3 = 15: higher N */
    add(f, "c", 1, 7, 7, 3); /* Q + 3 = 15, higher SS */
    f->s.c[2].sb.aspects[FT_ASPECT_SS] = 4;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 2C");
    tf_stack(f, 1, "QS 2C 3C");
    tf_stack(f, 2, "QD 2D 3D");
    begin(f);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(f->st.c[i].phase, 5);
    /* c (SS 4) before b (N 3) before a (N 2). */
    cr_assert_eq(ft_next_actor(&f->st), 2);
    cr_assert_lt(f->st.c[1].slot, f->st.c[0].slot);
    free(f);
}

/* RULINGS 9: a full tie is settled by a flip-off that holds for the whole
 * encounter: the high card goes first. */
Test(towers_engine, tie_flip_off) {
    fixture *f = fixture_new();
    add(f, "a", 0, 1, 1, 1);
    add(f, "b", 1, 5, 5, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "9S 3C");  /* initiative 9 + 1 = 10; flip-off 3 */
    tf_stack(f, 1, "9D JC");  /* initiative 9 + 1 = 10; flip-off J */
    begin(f);
    cr_assert_eq(f->st.c[0].phase, 10);
    cr_assert_eq(f->st.c[1].phase, 10);
    cr_assert_eq(ft_next_actor(&f->st), 1);
    free(f);
}

/* Seed 000 "Entering Combat and Initiative" (ties; RULINGS 9: CI, [N],
 * [SS], then a flip-off whose result holds for the encounter), as fray
 * reads a flip-off of three or more (docs/rules/towers.md "Ties").
 * Issue 11 item 1: a flip-off of three is one order. All three flip a card
 * in listing order; the best card goes first; the two whose cards tie
 * flip again between themselves. (Pairwise flip-offs counted wins: a
 * cycle a > b > c > a left everyone on one win.) */
Test(towers_engine, issue11_three_way_flip_off_is_one_order) {
    fixture *f = fixture_new();
    add(f, "a", 0, 1, 1, 1);
    add(f, "b", 1, 5, 5, 1);
    add(f, "c", 1, 7, 7, 1);
    ft_state_reset(&f->s, &f->st, 1);
    /* Initiative 9 + 1 = 10 each; round one: 5, J, 5; round two between
     * a and c: 2, K. */
    tf_stack(f, 0, "9S 5C 2C");
    tf_stack(f, 1, "9D JC");
    tf_stack(f, 2, "9H 5D KC");
    begin(f);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(f->st.c[i].phase, 10);
    cr_expect_eq(f->st.c[1].init_rank, 0);
    cr_expect_eq(f->st.c[2].init_rank, 1);
    cr_expect_eq(f->st.c[0].init_rank, 2);
    /* Eight cards: three initiative flips, three, then two. */
    cr_expect_eq(f->ev.n_cards, 8);
    free(f);
}

/* Seed 000 "Entering Combat and Initiative", RULINGS 9 (the flip-off).
 * Issue 11 item 1: the flip-off is fair. Four combatants tied in
 * everything flip off from one shuffled deck; over 4000 fresh shuffles
 * each is first about a quarter of the time (sd of a count:
 * sqrt(4000 * 1/4 * 3/4) = 27; 4 sd = 110). */
Test(towers_engine, issue11_flip_off_of_four_is_fair) {
    int first[4] = {0, 0, 0, 0};
    const int n = 4000;
    for (int t = 0; t < n; t++) {
        fixture *f = fixture_new();
        for (int i = 0; i < 4; i++) {
            char id[8];
            snprintf(id, sizeof id, "k%d", i);
            add(f, id, i % 2, 1 + 2 * i, 1, 1);
            f->s.c[i].deck = 0; /* one deck for all */
        }
        ft_state_reset(&f->s, &f->st, (uint64_t)t + 1);
        /* The same initiative for all (stacked on top), then whatever
         * the shuffle gives for the flip-off. */
        tf_stack(f, 0, "9S 9D 9H 9C");
        begin(f);
        for (int i = 0; i < 4; i++) {
            cr_assert_eq(f->st.c[i].ci, 10);
            if (f->st.c[i].init_rank == 0)
                first[i]++;
        }
        free(f);
    }
    for (int i = 0; i < 4; i++)
        cr_expect(abs(first[i] - n / 4) <= 110, "k%d first %d times of %d",
                  i, first[i], n);
}

/* ---- Costs ------------------------------------------------------------------- */

static fixture *two_apart(void) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 9, 9, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    next_phase(f);
    return f;
}

/* Seed 000 "Actions and Timings", worked example: Tony acts in phase 15
 * and uses Shift Position (3 phases): he acts next in phase 18. */
Test(towers_engine, shift_position_15_to_18) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 9, 9, 1);
    f->s.c[0].unaware_of = 1u << 1; /* surprised: phase 15 */
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    cr_assert_eq(f->st.c[0].phase, 15);
    next_phase(f);
    cr_assert_eq(f->st.phase, 15);
    ft_command c = tf_cmd(FT_ACT_SHIFT, 0);
    c.dest.x = 2;
    c.dest.y = 1;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 18);
    cr_assert_eq(f->st.c[0].pos.x, 2);
    free(f);
}

/* Seed 000 "Action List": each action's phase cost. */
Test(towers_engine, action_costs) {
    static const struct {
        int action, cost;
    } t[] = {{FT_ACT_AIM, 5},          {FT_ACT_CONCENTRATE, 5},
             {FT_ACT_DELAY, 5},        {FT_ACT_FULL_DEFENSE, 10},
             {FT_ACT_INTERACT, 5},     {FT_ACT_INVENTORY, 10},
             {FT_ACT_RECOVER, 5},      {FT_ACT_DROP_PRONE, 3},
             {FT_ACT_USE_ITEM, 5}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        fixture *f = two_apart();
        int before = f->st.c[0].phase;
        cr_assert_eq(apply(f, tf_cmd(t[i].action, 0), NULL), FRAY_OK,
                     "%s", ft_actions[t[i].action].text);
        cr_assert_eq(f->st.c[0].phase, before + t[i].cost, "%s",
                     ft_actions[t[i].action].text);
        free(f);
    }
    cr_assert_eq(ft_actions[FT_ACT_ATTACK].cost, 5);
    cr_assert_eq(ft_actions[FT_ACT_CHARGE].cost, 8);
    cr_assert_eq(ft_actions[FT_ACT_POWER_ATTACK].cost, 7);
    cr_assert_eq(ft_actions[FT_ACT_RECKLESS_MOVE].cost, 7);
    cr_assert_eq(ft_actions[FT_ACT_DRAW_WEAPON].cost, 6);
    cr_assert_eq(ft_actions[FT_ACT_STAND].cost, 4);
    cr_assert_eq(ft_actions[FT_ACT_PICK_UP].cost, 3);
    cr_assert_eq(ft_actions[FT_ACT_AID].cost, 3);
    cr_assert_eq(ft_actions[FT_ACT_RUNNING_LEAP].cost, 10);
    cr_assert_eq(ft_actions[FT_ACT_SPEAK].cost, FT_COST_FREE);
}

/* Seed 000 "Free and Zero-Cost Actions": free actions do not move the
 * combatant and do not end its turn. */
Test(towers_engine, free_action_keeps_the_turn) {
    fixture *f = two_apart();
    int before = f->st.c[0].phase;
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_SPEAK, 0), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, before);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 0), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, before + 5);
    free(f);
}

/* Seed 000 "Shift Position": added to another action it costs 2 + that
 * action's cost. */
Test(towers_engine, shift_added_to_an_action) {
    fixture *f = two_apart();
    int before = f->st.c[0].phase;
    ft_command c = tf_cmd(FT_ACT_AIM, 0);
    c.shift_first = true;
    c.shift_to.x = 2;
    c.shift_to.y = 2;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, before + 7);
    cr_assert_eq(f->st.c[0].pos.x, 2);
    cr_assert_eq(f->st.c[0].pos.y, 2);
    free(f);
}

/* Seed 000 "Shift Position": not with a free action, Forced Delay, Hold
 * or another Shift Position. */
Test(towers_engine, shift_not_with_free_or_delay) {
    fixture *f = two_apart();
    ft_command c = tf_cmd(FT_ACT_DELAY, 0);
    c.shift_first = true;
    c.shift_to.x = 2;
    c.shift_to.y = 2;
    fray_diag d;
    cr_assert_eq(apply(f, c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "Shift Position") != NULL, "%s", d.message);
    free(f);
}

/* Seed 000 "Free and Zero-Cost Actions": a zero-cost action moves the
 * actor to the bottom of its phase's order. */
Test(towers_engine, zero_cost_goes_to_the_bottom) {
    fixture *f = fixture_new();
    add(f, "a", 0, 1, 1, 2);
    add(f, "b", 1, 9, 9, 1);
    f->s.c[0].sb.n_skills = 1;
    snprintf(f->s.c[0].sb.skills[0].name, FT_NAME, "Notice");
    f->s.c[0].sb.skills[0].rank = 1;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "QS 2C");   /* 12 + 2 = 14: phase 6 */
    tf_stack(f, 1, "KS");      /* 13 + 1 = 14: phase 6, lower N */
    begin(f);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    ft_command c = tf_cmd(FT_ACT_USE_SKILL, 0);
    c.skill = 0;
    c.cost = 0;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 6);
    cr_assert_eq(ft_next_actor(&f->st), 1, "b acts before a now");
    free(f);
}

/* Seed 001 (skills) and seed 000 "Combat Modifiers": a skill check flips
 * its rank, (flip+1) for a specialization that applies and its advantage
 * (applies: skill) counted, and "you do get to use specialization bonuses
 * and also add in the matching Aspect score": the total is told with its
 * Aspect. */
Test(towers_engine, use_a_skill_counts_specialization_advantage_and_aspect) {
    fixture *f = two_apart();
    ft_statblock *sb = &f->s.c[0].sb;
    sb->n_skills = 1;
    ft_skill *sk = &sb->skills[0];
    snprintf(sk->name, FT_NAME, "Firearms");
    sk->aspect = FT_ASPECT_SP;
    sk->rank = 1;
    snprintf(sk->specs[0], FT_NAME, "Rifles");
    sk->n_specs = 1;
    sb->aspects[FT_ASPECT_SP] = 3;
    ft_advantage *adv = &sb->advantages[sb->n_advantages++];
    memset(adv, 0, sizeof *adv);
    snprintf(adv->name, sizeof adv->name, "Marksman");
    adv->rank = 2; /* (flip+1) */
    adv->applies = FT_APPLIES_SKILL;
    snprintf(adv->skill, sizeof adv->skill, "firearms");
    tf_stack(f, 0, "2C 9D 4S");
    ft_command c = tf_cmd(FT_ACT_USE_SKILL, 0);
    c.skill = 0;
    c.cost = 3;
    c.dtn = 12;
    c.skill_spec = 2;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(ft_check_command(&f->s, &f->st, &c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "specialization") != NULL, "%s", d.message);
    c.skill_spec = 1;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->ev.n_cards, 3, "rank 1 + specialization + advantage");
    bool told = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_NOTE &&
            strcmp(f->ev.facts[i].text, "= 12 (SP 3), succeeds") == 0)
            told = true;
    cr_assert(told, "9 kept + SP 3 = 12 against 12");
    free(f);
}

/* ---- Hold ------------------------------------------------------------------------ */

/* Seed 000 "Hold": never in the phase it was declared; entering a later
 * phase just after a named combatant. */
Test(towers_engine, hold_until_a_phase_after_someone) {
    fixture *f = two_apart();
    int now = f->st.phase;
    ft_command c = tf_cmd(FT_ACT_HOLD, 0);
    c.hold_kind = FT_HOLD_PHASE;
    c.hold_phase = now;
    fray_diag d;
    cr_assert_eq(apply(f, c, &d), FRAY_ERR_INVALID, "same phase refused");
    c.hold_phase = 17; /* the bandit's phase */
    c.hold_who = 1;
    c.hold_after = 1;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 17);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 1, "the bandit first");
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 1), NULL), FRAY_OK);
    cr_assert_eq(ft_next_actor(&f->st), 0, "then Tony, in the same phase");
    cr_assert_eq(f->st.c[0].phase, 17);
    free(f);
}

/* Seed 000 "Hold": waiting for an event (a foe coming within reach). */
Test(towers_engine, hold_until_enemy_in_reach) {
    fixture *f = two_apart();
    ft_command c = tf_cmd(FT_ACT_HOLD, 0);
    c.hold_kind = FT_HOLD_ENEMY_IN_REACH;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert(f->st.c[0].flags & FT_F_HOLDING);
    /* The bandit comes next to Tony. */
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 1);
    ft_command m = tf_cmd(FT_ACT_MOVE, 1);
    m.dest.x = 9;
    m.dest.y = 5;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    cr_assert(f->st.c[0].flags & FT_F_HOLDING, "not yet in reach");
    next_phase(f);
    ft_command m2 = tf_cmd(FT_ACT_MOVE, 1);
    m2.dest.x = 5;
    m2.dest.y = 2;
    cr_assert_eq(apply(f, m2, NULL), FRAY_OK);
    next_phase(f);
    ft_command m3 = tf_cmd(FT_ACT_MOVE, 1);
    m3.dest.x = 2;
    m3.dest.y = 1;
    cr_assert_eq(apply(f, m3, NULL), FRAY_OK);
    cr_assert(!(f->st.c[0].flags & FT_F_HOLDING), "released");
    cr_assert_eq(ft_next_actor(&f->st), 0, "Tony acts right after");
    free(f);
}

/* Seed 000 "Hold": "He does not have to announce what he is waiting
 * for. When he chooses to act, he moves into that phase ahead of ...
 * whoever is normally scheduled to go"; "You cannot act in the same phase
 * in which you chose to Hold." */
Test(towers_engine, hold_until_he_chooses) {
    fixture *f = two_apart();
    int held = f->st.phase;
    ft_command c = tf_cmd(FT_ACT_HOLD, 0);
    c.hold_kind = FT_HOLD_CHOOSE;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert(f->st.c[0].flags & FT_F_HOLDING);
    cr_assert_eq(f->ev.facts[f->ev.n_facts - 1].kind, FT_FACT_HOLD);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 0), &d), FRAY_ERR_INVALID,
                 "not in the phase of the Hold");
    cr_assert(strstr(d.message, "next phase on") != NULL, "%s", d.message);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 1, "the bandit is scheduled");
    int now = f->st.phase;
    cr_assert_gt(now, held);
    /* Tony chooses to act now: ahead of the bandit, in this phase. */
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 0), NULL), FRAY_OK);
    bool released = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        released |= f->ev.facts[i].kind == FT_FACT_RELEASE &&
                    f->ev.facts[i].v[0] == now;
    cr_assert(released, "he comes out of Hold in phase %d", now);
    cr_assert(!(f->st.c[0].flags & FT_F_HOLDING));
    cr_assert_eq(f->st.c[0].phase, now + 5, "Aim: 5 phases from now");
    cr_assert_eq(ft_next_actor(&f->st), 1, "then the bandit, as scheduled");
    cr_assert_eq(f->st.c[1].phase, now);
    free(f);
}

/* Seed 000 "Hold": "If two or more people are holding ... the person who
 * first started to Hold chooses who will go first": fray's reading, he
 * goes first. Tony (listed first) holds after Lyra did; both wait for the
 * bandit: Lyra acts first. */
Test(towers_engine, holders_go_in_the_order_they_began_to_hold) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "lyra", 0, 1, 3, 3);
    add(f, "bandit", 1, 9, 9, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D QS 3D");
    tf_stack(f, 1, "2C");
    begin(f);
    next_phase(f);
    /* Lyra acts first, then Tony, then the bandit. */
    int p0 = f->st.phase;
    f->st.c[1].phase = p0;
    f->st.c[0].phase = p0 + 1;
    f->st.c[2].phase = p0 + 2;
    ft_clock_sync(&f->st);
    cr_assert_eq(ft_next_actor(&f->st), 1);
    ft_command h = tf_cmd(FT_ACT_HOLD, 1);
    h.hold_kind = FT_HOLD_ACTS;
    h.hold_who = 2;
    h.hold_after = 1;
    cr_assert_eq(apply(f, h, NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    h.actor = 0;
    cr_assert_eq(apply(f, h, NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 2);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 2), NULL), FRAY_OK);
    cr_assert_eq(ft_next_actor(&f->st), 1, "Lyra began to hold first");
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 1), NULL), FRAY_OK);
    cr_assert_eq(ft_next_actor(&f->st), 0, "then Tony");
    free(f);
}

/* Seed 000 "Hold": "If there is a situation where two or more people are
 * waiting with Hold actions and no one wants to be the first to act, they
 * can all be forced to take the Delay action": when nobody is left on the
 * clock, every holder comes out 5 phases on, in the order they began to
 * hold (the fight does not end for want of anyone to act). */
Test(towers_engine, everyone_holding_is_forced_to_delay) {
    fixture *f = two_apart();
    ft_command c = tf_cmd(FT_ACT_HOLD, 0);
    c.hold_kind = FT_HOLD_CHOOSE;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    next_phase(f);
    int now = f->st.phase;
    c.actor = 1;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert(!(f->st.c[0].flags & FT_F_HOLDING));
    cr_assert(!(f->st.c[1].flags & FT_F_HOLDING));
    cr_assert_eq(f->st.c[0].phase, now + 5);
    cr_assert_eq(f->st.c[1].phase, now + 5);
    cr_assert_eq(ft_next_actor(&f->st), 0, "Tony began to hold first");
    cr_assert(!f->st.over);
    free(f);
}

/* ---- Turn order and errors --------------------------------------------------------- */

/* Acting out of turn is refused with the name of who acts next. */
Test(towers_engine, out_of_turn_is_refused) {
    fixture *f = two_apart();
    fray_diag d;
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 1), &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "not bandit's turn") != NULL, "%s", d.message);
    cr_assert(strstr(d.message, "tony") != NULL, "%s", d.message);
    free(f);
}

/* Seed 000 "Attacking and Defending": the target must be within range. */
Test(towers_engine, attack_out_of_range_is_refused) {
    fixture *f = two_apart();
    ft_command c = tf_cmd(FT_ACT_ATTACK, 0);
    c.target = 1;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "range") != NULL || strstr(d.message, "reach") != NULL,
              "%s", d.message);
    free(f);
}

/* ---- Opportunity attacks --------------------------------------------------------------- */

/* Seed 000 "Opportunity Attacks": moving out of a threatened space
 * provokes; the attacker moves back 3 phases (RULINGS 14); Shift Position
 * alone does not provoke. */
Test(towers_engine, moving_away_provokes) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 2, 1, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "2S 3S");           /* Tony: 3 + 2 = 5: phase 15 */
    tf_stack(f, 1, "KD 5C 5D 2C 2D");  /* bandit: 13 + 1 = 14: phase 6; then
                                       his opportunity attack flips */
    begin(f);
    /* The bandit acts first (not flat-footed after it): Aim, then a
     * Forced Delay, to phase 16. */
    next_phase(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 1), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[1].phase, 11);
    next_phase(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, 1), NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    int bandit_before = f->st.c[1].phase;
    ft_command m = tf_cmd(FT_ACT_MOVE, 0);
    m.dest.x = 1;
    m.dest.y = 6;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    bool oa = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_OPPORTUNITY)
            oa = true;
    cr_assert(oa, "the bandit took an opportunity attack");
    cr_assert_eq(f->st.c[1].phase, bandit_before + 3);
    free(f);
}

/* Seed 000 "Full Defense": "He may take no other actions during this
 * time": a bandit on Full Defense takes no opportunity attack when Tony
 * walks away (the same fight as moving_away_provokes, with Full Defense
 * for the Forced Delay). */
Test(towers_engine, full_defense_takes_no_opportunity_attack) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 2, 1, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "2S 3S");           /* Tony: phase 15 */
    tf_stack(f, 1, "KD 5C 5D 2C 2D");  /* bandit: phase 6 */
    begin(f);
    next_phase(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 1), NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_FULL_DEFENSE, 1), NULL), FRAY_OK);
    cr_assert(f->st.c[1].flags & FT_F_FULL_DEFENSE);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    int bandit_before = f->st.c[1].phase;
    ft_command m = tf_cmd(FT_ACT_MOVE, 0);
    m.dest.x = 1;
    m.dest.y = 6;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    for (int i = 0; i < f->ev.n_facts; i++)
        cr_assert_neq(f->ev.facts[i].kind, FT_FACT_OPPORTUNITY,
                      "no opportunity attack from Full Defense");
    cr_assert_eq(f->st.c[1].phase, bandit_before, "nor its 3 phases");
    free(f);
}

/* Seed 000 "Flat-Footed": no opportunity attacks before one's first action. */
Test(towers_engine, flat_footed_cannot_take_opportunity_attacks) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 2, 1, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");  /* phase 5 */
    tf_stack(f, 1, "2C");     /* phase 17 */
    begin(f);
    next_phase(f);
    ft_command m = tf_cmd(FT_ACT_MOVE, 0);
    m.dest.x = 1;
    m.dest.y = 6;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    for (int i = 0; i < f->ev.n_facts; i++)
        cr_assert_neq(f->ev.facts[i].kind, FT_FACT_OPPORTUNITY);
    cr_assert_eq(f->st.c[1].phase, 17);
    free(f);
}

/* ---- Zero phases --------------------------------------------------------------------------- */

/* Seed 000 "LETHAL Damage" + RULINGS 15: at the start of every zero phase,
 * anyone below 0 LETHAL loses one more; the option turns it off. */
Test(towers_engine, zero_phase_lethal_loss_and_option) {
    for (int on = 0; on < 2; on++) {
        fixture *f = fixture_new();
        f->s.opt.dying_loses_lethal = on;
        add(f, "tony", 0, 1, 1, 2);
        add(f, "bandit", 1, 9, 9, 1);
        add(f, "ally", 0, 1, 9, 1);
        ft_state_reset(&f->s, &f->st, 1);
        tf_stack(f, 0, "KS 4D");  /* phase 5 */
        tf_stack(f, 1, "2C");     /* phase 17 */
        tf_stack(f, 2, "3C");     /* phase 16 */
        begin(f);
        f->st.c[2].lethal = -1;
        f->st.c[2].flags |= FT_F_DYING | FT_F_UNCONSCIOUS;
        next_phase(f);
        cr_assert_eq(apply(f, tf_cmd(FT_ACT_FULL_DEFENSE, 0), NULL), FRAY_OK);
        next_phase(f); /* to phase 15: through zero phase 10 */
        cr_assert_eq(f->st.phase, 15);
        cr_assert_eq(f->st.c[2].lethal, on ? -2 : -1);
        free(f);
    }
}

/* Seed 000 "Zero Phases"; RULINGS 15: casters regain mana (1 per zero
 * phase by default), up to their pool. */
Test(towers_engine, zero_phase_mana) {
    fixture *f = fixture_new();
    add(f, "mage", 0, 1, 1, 2);
    add(f, "bandit", 1, 9, 9, 1);
    f->s.c[0].sb.mana[FT_ELEM_FIRE] = 2;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    f->st.c[0].mana[FT_ELEM_FIRE] = 0;
    next_phase(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_FULL_DEFENSE, 0), NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(f->st.c[0].mana[FT_ELEM_FIRE], 1);
    free(f);
}

/* Seed 000 "Running Leap": a straight run of exactly SPD ("a distance
 * equal to his Speed"; 5 phases), then at
 * the next activation a leap of up to SPD in a straight line over
 * unoccupied spaces (5 phases), landing on solid ground; a pit can be
 * leapt over (landing in it is a fall: test_towers_grapple), and nothing
 * else may come between. */
Test(towers_engine, running_leap_over_a_pit) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 0, 1, 2);
    add(f, "bandit", 1, 11, 11, 1);
    for (int y = 0; y < 12; y++)
        f->s.map.terrain[y][6] = FRAY_TERRAIN_PIT;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D"); /* phase 5 */
    tf_stack(f, 1, "2C");    /* phase 17 */
    begin(f);
    next_phase(f);
    ft_command run = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
    cr_assert_eq(ft_speed(&f->s, &f->st, 0), 5);
    run.dest.x = 4;
    run.dest.y = 1;
    fray_diag short_run;
    memset(&short_run, 0, sizeof short_run);
    cr_assert_eq(ft_check_command(&f->s, &f->st, &run, &short_run),
                 FRAY_ERR_INVALID, "a run of 4 is short of SPD 5");
    cr_assert(strstr(short_run.message, "exactly") != NULL, "%s",
              short_run.message);
    run.dest.x = 5;
    cr_assert_eq(apply(f, run, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 10, "the run takes 5 phases");
    cr_assert(f->st.c[0].flags & FT_F_LEAPING);
    next_phase(f);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 0), &d), FRAY_ERR_INVALID,
                 "nothing but the leap in between");
    ft_command leap = tf_cmd(FT_ACT_RUNNING_LEAP, 0);
    leap.dest.y = 1;
    /* (A leap into the pit is no longer refused: it falls, issue 13;
     * test_towers_grapple running_leap_into_a_pit_falls.) */
    leap.dest.x = 8; /* over it */
    cr_assert_eq(apply(f, leap, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].pos.x, 8);
    cr_assert_eq(f->st.c[0].phase, 15, "the leap takes 5 phases");
    cr_assert(!(f->st.c[0].flags & FT_F_LEAPING));
    free(f);
}

/* ---- More of the Action List ------------------------------------------------------ */

static void give_condition(fixture *f, int c, ft_condition k) {
    ft_cond *x = &f->st.c[c].cond[f->st.c[c].n_cond++];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)k;
    x->value = 1;
    x->ends = FT_UNTIL_REMOVED;
    x->whose = -1;
    x->other = -1;
    x->source = -1;
}

static bool has_condition(const fixture *f, int c, ft_condition k) {
    for (int i = 0; i < f->st.c[c].n_cond; i++)
        if (f->st.c[c].cond[i].kind == k)
            return true;
    return false;
}

/* Seed 000 "Recover" (5 phases): STUN equal to [[E]] (RULINGS 20; the
 * option recover-stun sets another number); rules-facts.md "Bleeding X":
 * Recover removes it and is the one action it does not charge. */
Test(towers_engine, recover_heals_endurance_and_ends_bleeding) {
    for (int option = 0; option < 2; option++) {
        fixture *f = two_apart();
        f->s.opt.recover_stun = option ? 5 : 0;
        f->st.c[0].stun = 10;
        give_condition(f, 0, FT_COND_BLEEDING);
        int lethal = f->st.c[0].lethal;
        cr_assert_eq(apply(f, tf_cmd(FT_ACT_RECOVER, 0), NULL), FRAY_OK);
        cr_assert_eq(f->st.c[0].stun, option ? 15 : 13, "[[E]] 3, or 5");
        cr_assert_eq(f->st.c[0].lethal, lethal, "Recover is not charged");
        cr_assert(!has_condition(f, 0, FT_COND_BLEEDING));
        cr_assert_eq(f->st.c[0].phase, 10);
        free(f);
    }
}

/* Seed 000 "Discard Chip to Heal" (free); rules-facts.md "Chips": a red
 * chip regains half of maximum STUN or LETHAL; without one it is refused. */
Test(towers_engine, chip_heal_is_free_and_heals_half) {
    fixture *f = two_apart();
    fray_diag d;
    memset(&d, 0, sizeof d);
    ft_command c = tf_cmd(FT_ACT_CHIP_HEAL, 0);
    c.chip = 1;
    cr_assert_eq(apply(f, c, &d), FRAY_ERR_INVALID, "no red chip yet");
    f->st.c[0].chips[1] = 2;
    f->st.c[0].stun = 4;
    f->st.c[0].lethal = 3;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].stun, 16, "4 + half of 24");
    c.heal_lethal = true;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].lethal, 9, "3 + half of 11, rounded up");
    cr_assert_eq(f->st.c[0].chips[1], 0);
    cr_assert_eq(f->st.c[0].phase, 5, "free: the turn goes on");
    cr_assert_eq(ft_next_actor(&f->st), 0);
    free(f);
}

/* Seed 000 "Shake Minor Condition" (5 phases) removes one minor
 * condition; rules-facts.md "Chips": with a white chip, as a free action;
 * a major condition is not shaken off. */
Test(towers_engine, shake_minor_condition) {
    fixture *f = two_apart();
    give_condition(f, 0, FT_COND_BLINDED); /* major */
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_SHAKE, 0), &d), FRAY_ERR_INVALID);
    give_condition(f, 0, FT_COND_DAZED);
    give_condition(f, 0, FT_COND_DEAFENED);
    f->st.c[0].chips[0] = 1;
    ft_command c = tf_cmd(FT_ACT_SHAKE, 0);
    c.chip = 0;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 5, "free with a chip");
    cr_assert_eq(f->st.c[0].chips[0], 0);
    cr_assert(has_condition(f, 0, FT_COND_BLINDED));
    int left = has_condition(f, 0, FT_COND_DAZED) +
               has_condition(f, 0, FT_COND_DEAFENED);
    cr_assert_eq(left, 1, "one minor condition per Shake");
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_SHAKE, 0), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 10, "5 phases without a chip");
    cr_assert(!has_condition(f, 0, FT_COND_DAZED));
    cr_assert(!has_condition(f, 0, FT_COND_DEAFENED));
    free(f);
}

/* Seed 000 "Reckless Move" (7 phases): double Speed, then (flip-1) on its
 * opposed combat flips until its next activation; a Combat Move (5) goes
 * only up to Speed. */
Test(towers_engine, reckless_move_doubles_speed) {
    fixture *f = two_apart();
    ft_command m = tf_cmd(FT_ACT_MOVE, 0);
    m.dest.x = 11;
    m.dest.y = 1;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, m, &d), FRAY_ERR_INVALID, "10 spaces, SPD 5");
    m.action = FT_ACT_RECKLESS_MOVE;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].pos.x, 11);
    cr_assert_eq(f->st.c[0].phase, 12);
    cr_assert(f->st.c[0].flags & FT_F_RECKLESS);
    free(f);
}

/* Seed 000 "Charge" (8 phases): a move of at least one space, then one
 * melee attack. */
Test(towers_engine, charge_moves_then_strikes) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 6, 1, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    next_phase(f);
    ft_command c = tf_cmd(FT_ACT_CHARGE, 0);
    c.target = 1;
    c.dest = f->st.c[0].pos;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "at least one space") != NULL, "%s", d.message);
    c.dest.x = 5;
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].pos.x, 5);
    cr_assert_eq(f->st.c[0].phase, 13);
    bool struck = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        struck |= f->ev.facts[i].kind == FT_FACT_HIT ||
                  f->ev.facts[i].kind == FT_FACT_MISS;
    cr_assert(struck, "the Charge ends in an attack");
    free(f);
}

/* Seed 000 "Charge": "The last three spaces of the move must be in a
 * straight line if the character moves that far": the mover chooses the
 * path, so a charge on open ground whose shortest path bends at its end
 * is legal when another path within Speed ends straight (issue 13: such
 * charges were refused). From (1,1) to (5,3), Speed 5: two diagonals and
 * two straight steps cost 5, and the path by (2,3) ends with three steps
 * east. By (2,0) it would end with three diagonals, 6 in all: refused. */
Test(towers_engine, charge_chooses_a_straight_ending) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 6, 3, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D 2C");
    tf_stack(f, 1, "2C 3C");
    begin(f);
    next_phase(f);
    fixture *g = malloc(sizeof *g);
    cr_assert_not_null(g);
    memcpy(g, f, sizeof *g);
    ft_command c = tf_cmd(FT_ACT_CHARGE, 0);
    c.target = 1;
    c.dest = (fray_pos){5, 3};
    cr_assert_eq(apply(f, c, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].pos.x, 5);
    cr_assert_eq(f->st.c[0].pos.y, 3);
    bool struck = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        struck |= f->ev.facts[i].kind == FT_FACT_HIT ||
                  f->ev.facts[i].kind == FT_FACT_MISS;
    cr_assert(struck, "the Charge ends in an attack");
    free(f);

    /* The GM names where the straight run begins. */
    fixture *h = malloc(sizeof *h);
    cr_assert_not_null(h);
    memcpy(h, g, sizeof *h);
    tf_run(h, NULL);
    c.charge_via = true;
    c.via = (fray_pos){2, 3};
    cr_assert_eq(apply(h, c, NULL), FRAY_OK);
    cr_assert_eq(h->st.c[0].pos.x, 5);
    free(h);

    tf_run(g, NULL);
    c.via = (fray_pos){2, 0};
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(g, c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "straight line") != NULL, "%s", d.message);
    cr_assert_eq(g->st.c[0].pos.x, 1, "nothing moved");
    free(g);
}

/* Seed 000 "Charge": when no path within Speed ends with three straight
 * spaces, the Charge is refused and says why. Speed 3 from (1,1) to
 * (2,4), next to a bandit at (2,5): a diagonal and two steps south cost 3,
 * but three straight steps south from (2,1) cost 4, and the diagonal way
 * in starts off the map. */
Test(towers_engine, charge_without_a_straight_ending_is_refused) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 2, 5, 1);
    f->s.c[0].sb.cv[FT_CV_SPD] = 3;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    next_phase(f);
    ft_command c = tf_cmd(FT_ACT_CHARGE, 0);
    c.target = 1;
    c.dest = (fray_pos){2, 4};
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "three spaces in a straight line") != NULL,
              "%s", d.message);
    ft_command m = tf_cmd(FT_ACT_MOVE, 0);
    m.dest = c.dest;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK, "a Combat Move gets there");
    free(f);
}

/* Seed 000 "Forced Delay": no free or zero-cost actions in the same phase
 * as the Delay. */
Test(towers_engine, no_forced_delay_after_a_free_action) {
    fixture *f = two_apart();
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_SPEAK, 0), NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, 0), &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "Forced Delay") != NULL, "%s", d.message);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 0), NULL), FRAY_OK);
    free(f);
}

/* Seed 000 "Drop Object" (free) and "Pick up an Object" (3 phases); "Draw
 * a Weapon" (6 phases) puts it in hand. */
Test(towers_engine, drop_pick_up_and_draw) {
    fixture *f = two_apart();
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DROP_OBJECT, 0), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[0], -1);
    cr_assert_eq(f->st.c[0].phase, 5, "free");
    ft_command a = tf_cmd(FT_ACT_ATTACK, 0);
    a.target = 1;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, a, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "Draw a Weapon") != NULL, "%s", d.message);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_PICK_UP, 0), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[0], 0);
    cr_assert_eq(f->st.c[0].phase, 8);
    free(f);

    f = two_apart();
    f->st.c[0].wielded[0] = -1;
    ft_command dw = tf_cmd(FT_ACT_DRAW_WEAPON, 0);
    dw.weapon = 0;
    cr_assert_eq(apply(f, dw, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[0], 0);
    cr_assert_eq(f->st.c[0].phase, 11);
    free(f);
}

/* Seed 000 "Draw a Weapon": "If both hands are free and you wish to draw
 * two different one-handed weapons, you may do so with the same action":
 * both in hand for the one action's 6 phases; not the same weapon twice,
 * not a two-handed one, not with a hand full. */
Test(towers_engine, draw_two_one_handed_weapons_in_one_action) {
    fixture *f = two_apart();
    ft_statblock *sb = &f->s.c[0].sb;
    sb->weapons[1] = sb->weapons[0];
    snprintf(sb->weapons[1].name, sizeof sb->weapons[1].name, "Dagger");
    sb->weapons[2] = sb->weapons[0];
    snprintf(sb->weapons[2].name, sizeof sb->weapons[2].name, "Great Axe");
    sb->weapons[2].keywords |= FT_KW(TWO_HANDED);
    sb->n_weapons = 3;
    ft_command dw = tf_cmd(FT_ACT_DRAW_WEAPON, 0);
    dw.weapon = 0;
    dw.draw_also = 1 + 1;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, dw, &d), FRAY_ERR_INVALID, "the main hand is full");
    cr_assert(strstr(d.message, "both hands free") != NULL, "%s", d.message);
    f->st.c[0].wielded[0] = f->st.c[0].wielded[1] = -1;
    ft_command same = dw;
    same.draw_also = 0 + 1;
    cr_assert_eq(apply(f, same, NULL), FRAY_ERR_INVALID, "the same weapon twice");
    ft_command axe = dw;
    axe.draw_also = 2 + 1;
    cr_assert_eq(apply(f, axe, NULL), FRAY_ERR_INVALID, "a two-handed weapon");
    cr_assert_eq(apply(f, dw, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[0], 0);
    cr_assert_eq(f->st.c[0].wielded[1], 1);
    cr_assert_eq(f->st.c[0].phase, 11, "one action: 5 + 6 phases");
    free(f);
}

/* Seed 000 "Drop Object" (free) and "Pick up an Object" (3): each
 * weapon dropped lies where it fell, and each can be picked up again, one
 * at a time, into a free hand (issue 13: a second dropped weapon used to
 * replace the first, which was lost without a word; a pick-up with both
 * hands full overwrote the off-hand weapon). A weapon on the floor cannot
 * be drawn. */
Test(towers_engine, dropped_weapons_each_lie_where_they_fell) {
    fixture *f = two_apart();
    ft_statblock *sb = &f->s.c[0].sb;
    sb->weapons[1] = sb->weapons[0];
    snprintf(sb->weapons[1].name, sizeof sb->weapons[1].name, "Dagger");
    sb->n_weapons = 2;
    f->st.c[0].wielded[0] = 0;
    f->st.c[0].wielded[1] = 1;
    ft_command drop = tf_cmd(FT_ACT_DROP_OBJECT, 0);
    drop.weapon = 1;
    cr_assert_eq(apply(f, drop, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[1], -1, "the dagger from the off hand");
    cr_assert_eq(f->st.c[0].wielded[0], 0);
    drop.weapon = -1;
    cr_assert_eq(apply(f, drop, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[0], -1);
    cr_assert_eq(f->st.c[0].dropped, 3u, "both lie on the floor");
    fray_diag d;
    memset(&d, 0, sizeof d);
    ft_command draw = tf_cmd(FT_ACT_DRAW_WEAPON, 0);
    draw.weapon = 1;
    cr_assert_eq(apply(f, draw, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "lies on the floor") != NULL, "%s", d.message);
    ft_command pick = tf_cmd(FT_ACT_PICK_UP, 0);
    pick.weapon = 1;
    cr_assert_eq(apply(f, pick, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[0], 1, "the dagger, into the main hand");
    cr_assert_eq(f->st.c[0].dropped, 1u, "the longblade still lies there");
    next_phase(f);
    next_phase(f);
    while (ft_next_actor(&f->st) != 0) {
        cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, ft_next_actor(&f->st)), NULL),
                     FRAY_OK);
        next_phase(f);
    }
    pick.weapon = -1;
    cr_assert_eq(apply(f, pick, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].wielded[1], 0, "the longblade, into the off hand");
    cr_assert_eq(f->st.c[0].dropped, 0u);
    next_phase(f);
    while (ft_next_actor(&f->st) != 0) {
        cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, ft_next_actor(&f->st)), NULL),
                     FRAY_OK);
        next_phase(f);
    }
    f->st.c[0].dropped = 1u; /* another longblade-like thing on the floor */
    f->st.c[0].dropped_at[0] = f->st.c[0].pos;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, pick, &d), FRAY_ERR_INVALID, "both hands full");
    cr_assert(strstr(d.message, "hands are not free") != NULL, "%s", d.message);
    free(f);
}

/* Seed 000 "Grappling": "When grappled, during his turn your opponent
 * only has a few options": Escape, or a restricted melee attack "against
 * either his grappler or another opponent he is adjacent to" (Reverse is
 * not built); fray adds the Forced Delay. No Aim, no move, no blow at a
 * foe across the room. */
Test(towers_engine, grappled_victim_has_only_the_sections_options) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 2, 1, 1);
    add(f, "archer", 1, 9, 9, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    tf_stack(f, 2, "2D");
    begin(f);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    f->st.c[0].grappled_by = 1;
    tf_run(f, NULL);
    ft_cond_add(&f->r, 0, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED, -1, 0, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    ft_command aim = tf_cmd(FT_ACT_AIM, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &aim, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "grappled") != NULL, "%s", d.message);
    ft_command mv = tf_cmd(FT_ACT_MOVE, 0);
    mv.dest.x = 1;
    mv.dest.y = 4;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &mv, NULL), FRAY_ERR_INVALID);
    ft_command far = tf_cmd(FT_ACT_ATTACK, 0);
    far.target = 2;
    memset(&d, 0, sizeof d);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &far, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "next to") != NULL, "%s", d.message);
    ft_command hit = tf_cmd(FT_ACT_ATTACK, 0);
    hit.target = 1;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &hit, NULL), FRAY_OK,
                 "the restricted attack on the grappler");
    ft_command esc = tf_cmd(FT_ACT_ESCAPE, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &esc, NULL), FRAY_OK);
    ft_command dl = tf_cmd(FT_ACT_DELAY, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &dl, NULL), FRAY_OK);
    free(f);
}

/* Seed 000 "Grappling": the grappler holds a foe within reach: one who
 * moves away lets go. */
Test(towers_engine, grapple_ends_when_the_grappler_moves_away) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1, 2);
    add(f, "bandit", 1, 2, 1, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    begin(f);
    next_phase(f);
    f->st.c[1].grappled_by = 0;
    tf_run(f, NULL);
    ft_cond_add(&f->r, 1, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED, -1, 0, 0);
    ft_command mv = tf_cmd(FT_ACT_MOVE, 0);
    mv.dest.x = 1;
    mv.dest.y = 2;
    cr_assert_eq(apply(f, mv, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].grappled_by, 0, "still next to him: still held");
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), 0);
    mv.dest.y = 5;
    cr_assert_eq(apply(f, mv, NULL), FRAY_OK);
    cr_expect_eq(f->st.c[1].grappled_by, -1);
    cr_expect(!ft_cond_has(&f->st, 1, FT_COND_GRAPPLED));
    free(f);
}

/* Seed 000 "Combat Move": "He may also use the Drop Prone action as part
 * of this move and incurs no additional time penalties"; "Drop Prone ...
 * can be done at the end of a Combat Move for free". Only a Combat Move. */
Test(towers_engine, combat_move_ends_prone_for_free) {
    fixture *f = two_apart();
    ft_command mv = tf_cmd(FT_ACT_MOVE, 0);
    mv.dest.x = 1;
    mv.dest.y = 4;
    mv.drop_prone = true;
    ft_command aim = tf_cmd(FT_ACT_AIM, 0);
    aim.drop_prone = true;
    cr_assert_eq(ft_check_command(&f->s, &f->st, &aim, NULL), FRAY_ERR_INVALID);
    cr_assert_eq(apply(f, mv, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].pos.y, 4);
    cr_assert(ft_cond_has(&f->st, 0, FT_COND_PRONE));
    cr_assert_eq(f->st.c[0].phase, 10, "the move's 5 phases, nothing more");
    free(f);
}

/* Seed 000 "Shift Position": "If you combine Shift Position with another
 * movement action, it counts as a single move for the purpose of diagonal
 * movement costs". From (2,2), SPD spaces east and one south is SPD
 * (the diagonal costs 1); after a diagonal Shift to (2,2) that diagonal is
 * the move's second and costs 2: out of reach. */
Test(towers_engine, shift_and_move_count_diagonals_as_one_move) {
    fixture *f = two_apart();
    int spd = ft_speed(&f->s, &f->st, 0);
    cr_assert_lt(2 + spd, 12, "the fixture's map holds the move");
    ft_command mv = tf_cmd(FT_ACT_MOVE, 0);
    mv.dest.x = (int16_t)(2 + spd);
    mv.dest.y = 3;
    mv.shift_first = true;
    mv.shift_to.x = 2;
    mv.shift_to.y = 2;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(ft_check_command(&f->s, &f->st, &mv, &d), FRAY_ERR_INVALID,
                 "the diagonal Shift makes the move's diagonal its second");
    cr_assert(strstr(d.message, "cannot reach") != NULL, "%s", d.message);
    /* The same move alone from (2,2) reaches. */
    f->st.c[0].pos = (fray_pos){2, 2};
    mv.shift_first = false;
    cr_assert_eq(ft_check_command(&f->s, &f->st, &mv, NULL), FRAY_OK);
    free(f);
}

/* Seed 000 "Shift Position": "This square cannot be into difficult
 * terrain unless the character has the Sure-Footed advantage"; the
 * advantage is a capability, no flip modifier. */
Test(towers_engine, sure_footed_shifts_into_difficult_terrain) {
    fixture *f = two_apart();
    f->s.map.terrain[1][2] = FRAY_TERRAIN_DIFFICULT;
    ft_command sh = tf_cmd(FT_ACT_SHIFT, 0);
    sh.dest.x = 2;
    sh.dest.y = 1;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(ft_check_command(&f->s, &f->st, &sh, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "difficult") != NULL, "%s", d.message);
    ft_statblock *sb = &f->s.c[0].sb;
    ft_advantage *adv = &sb->advantages[sb->n_advantages++];
    memset(adv, 0, sizeof *adv);
    snprintf(adv->name, sizeof adv->name, "Sure-Footed");
    adv->rank = 1;
    adv->applies = FT_APPLIES_NONE;
    cr_assert_eq(ft_check_command(&f->s, &f->st, &sh, NULL), FRAY_OK);
    int flip = 0, shift = 0;
    ft_advantage_mods(sb, FT_APPLIES_ATTACK, &flip, &shift);
    cr_assert_eq(flip, 0);
    cr_assert_eq(shift, 0, "no flip modifier from a capability");
    cr_assert(ft_is_sure_footed("sure footed"));
    cr_assert(!ft_is_sure_footed("Sure-Foot"));
    free(f);
}

/* fray's ruling (docs/rules/towers.md): a Stunned combatant's turn is a
 * Forced Delay. */
Test(towers_engine, stunned_turn_is_a_forced_delay) {
    fixture *f = two_apart();
    give_condition(f, 0, FT_COND_STUNNED);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 0), &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "stunned") != NULL, "%s", d.message);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, 0), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[0].phase, 10);
    free(f);
}

/* Seed 000 "Hold": until another character acts, then right after it. */
Test(towers_engine, hold_until_someone_acts) {
    fixture *f = two_apart();
    ft_command h = tf_cmd(FT_ACT_HOLD, 0);
    h.hold_kind = FT_HOLD_ACTS;
    h.hold_who = 1;
    h.hold_after = 1;
    cr_assert_eq(apply(f, h, NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(f->st.phase, 17);
    cr_assert_eq(ft_next_actor(&f->st), 1);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_AIM, 1), NULL), FRAY_OK);
    cr_assert(!(f->st.c[0].flags & FT_F_HOLDING));
    cr_assert_eq(ft_next_actor(&f->st), 0, "Tony, right after the bandit");
    cr_assert_eq(f->st.c[0].phase, 17);
    free(f);
}

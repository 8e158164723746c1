/*
 * test_towers_duel.c - 99 Towers' formal duel (seed 000 "Dueling": Stage
 * One, Position; Stage Two, Showdown; Stage Three, Focus; Stage Four,
 * Strike) and opposed skill flips in play (seed 001 "Opposed Skill Flips";
 * seed 000 "Skill, Aspect, and Attribute Checks"), on hand-built duels with
 * stacked decks, the loader's refusals, and journals of
 * examples/towers/first-blood.yaml read back.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "towers_fixture.h"

/* ---- A hand-built duel ---------------------------------------------------- */

/* The RULINGS defaults, written out; no Hand of Fate (stacked decks). */
static void options(ft_options *o) {
    memset(o, 0, sizeof *o);
    fray_deck_options_default(&o->deck);
    o->decks = FT_DECKS_PER_COMBATANT;
    o->hand_of_fate = 0;
    o->flat_footed_loses_ss = true;
    o->full_defense_flip = 1;
    o->opportunity_delay = 3;
    o->mana_regen = 1;
    o->dying_loses_lethal = true;
    o->dead_at_multiple = 2;
    o->disabled_unconscious = true;
    o->crit_needs_heart = true;
    o->grapple_size_cards = true;
    o->surprise_delay = 10;
    o->unconscious_bonus = FT_UB_LETHAL;
    o->simultaneous_duel = true; /* the loader's default with a duel: */
}

/* A blade of 4 damage (no PX) and PA 2 + 1 = 3 attack cards. */
static ft_weapon blade(void) { return tf_weapon("blade", 1, 4, false, 1); }

/* PA 2, PD 1, SPD 5, [[E]] 2 (16 STUN, 10 LETHAL). */
static const tf_stats knight = {.n = 5, .pa = 2, .pd = 1, .spd = 5,
                                .endurance = 2};

/* A Dueling skill (Soft Strength) of `rank` with the specializations
 * given (NULL: none) on combatant c. */
static void dueling(fixture *f, int c, int rank, const char *spec1,
                    const char *spec2) {
    ft_statblock *sb = &f->s.c[c].sb;
    ft_skill *k = &sb->skills[sb->n_skills++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, FT_NAME, "Dueling");
    k->aspect = FT_ASPECT_SS;
    k->rank = rank;
    if (spec1)
        snprintf(k->specs[k->n_specs++], FT_NAME, "%s", spec1);
    if (spec2)
        snprintf(k->specs[k->n_specs++], FT_NAME, "%s", spec2);
}

/* Two knights a (SS 2) and b (SS 1), side by side, Dueling 2 with
 * Evaluation and Focus, in a duel `to` with or without the Showdown. */
static fixture *duel_new(int to, bool showdown) {
    fixture *f = tf_new(0, 0);
    options(&f->s.opt);
    tf_stats sa = knight, sbv = knight;
    sa.ss = 2;
    sbv.ss = 1;
    tf_add(f, "a", 0, 0, 0, &sa, blade());
    tf_add(f, "b", 1, 1, 0, &sbv, blade());
    dueling(f, 0, 2, "Evaluation", "Focus");
    dueling(f, 1, 2, "Evaluation", "Focus");
    f->s.duel.to = (uint8_t)to;
    f->s.duel.showdown = showdown;
    return f;
}

/* Resets the state (decks then stacked by the test) and the run. */
static void reset(fixture *f) {
    ft_state_reset(&f->s, &f->st, 42);
    memset(&f->ev, 0, sizeof f->ev);
    memset(&f->diag, 0, sizeof f->diag);
    tf_run(f, &f->diag);
}

static fray_status apply(fixture *f, ft_command cmd) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = cmd;
    memset(&f->diag, 0, sizeof f->diag);
    return ft_apply(&f->r);
}

/* The begin event (Showdown, Focus), which must pass. */
static void begin(fixture *f) {
    ft_command c = tf_cmd(FT_CMD_BEGIN, -1);
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
}

static int count(const fixture *f, ft_fact_kind k, int who) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == k && (who < 0 || f->ev.facts[i].who == who);
    return n;
}

static const ft_fact *fact(const fixture *f, ft_fact_kind k, int who) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == k && f->ev.facts[i].who == who)
            return &f->ev.facts[i];
    return NULL;
}

/* Both knights on the clock in phase 0, a first (lower slot), no longer
 * flat-footed: the Strike, without the begin event. */
static void strike(fixture *f) {
    reset(f);
    for (int i = 0; i < 2; i++) {
        f->st.c[i].flags |= FT_F_ACTED;
        f->st.c[i].phase = 0;
        f->st.c[i].slot = i;
    }
    f->st.phase = 0;
    ft_clock_sync(&f->st);
}

static ft_command attack(int a, int t) {
    ft_command c = tf_cmd(FT_ACT_ATTACK, a);
    c.target = (int8_t)t;
    return c;
}

/* ---- Stage Two: Showdown ------------------------------------------------- */

/* 000 "Dueling" Stage Two: "For each point he beats his opponent by, the
 * duelist gets to find out one piece of information", in the list's
 * order. a's Evaluation flip (2 + 1 cards) K = 13 + SS 2 = 15 against b's
 * J = 11 + SS 1 = 12: beaten by 3, three pieces (Physical Attack,
 * Physical Damage, Dueling rank); b (4 + 1 = 5 against 7 + 2 = 9) learns
 * nothing. Each flips twice: twelve cards in the Showdown. */
Test(towers_duel, showdown_beat_by_three_learns_three_pieces) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, true);
    reset(f);
    tf_stack(f, 0, "KS 2C 3C 5S 6S 7S 8C 9C 10C");
    tf_stack(f, 1, "JC 2D 3D 2H 3H 4H 8D 9D 10D");
    begin(f);
    const ft_fact *sd = fact(f, FT_FACT_SHOWDOWN, 0);
    cr_assert_not_null(sd);
    cr_expect_eq(sd->v[0], 15);
    cr_expect_eq(sd->v[1], 12);
    cr_expect_eq(sd->v[2], 3);
    cr_expect_eq(sd->v[3], 0, "3 is short of 5: no (flip+1)");
    cr_assert_eq(count(f, FT_FACT_LEARN, 0), 3);
    cr_expect_eq(count(f, FT_FACT_LEARN, 1), 0, "b beat nobody");
    int k = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_LEARN) {
            cr_expect_eq(f->ev.facts[i].v[0], k, "the seed's order");
            cr_expect_eq(f->ev.facts[i].target, 1);
            k++;
        }
    /* Physical Attack: PA 2 + the blade's 1; damage 4; Dueling rank 2. */
    const ft_fact *pa = fact(f, FT_FACT_LEARN, 0);
    cr_expect_eq(pa->v[1], 3);
    cr_expect_eq(pa[1].v[1], 4);
    cr_expect_eq(pa[2].v[1], 2);
    cr_expect_eq(f->st.duel_margin[0], 3);
    cr_expect_eq(f->st.duel_margin[1], 0);
    /* Narrated in rules words. */
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "a learns b's Physical Attack (3)") != NULL,
              "%s", f->buf);
    cr_expect(strstr(f->buf, "a learns 3 pieces of information") != NULL,
              "%s", f->buf);
    ft_render_event_json(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "\"piece\":\"physical-attack\",\"value\":3") !=
                  NULL,
              "%s", f->buf);
    free(f);
}

/* 000 "Dueling": "If the character's flip exceeds that of his opponent by
 * 5 or more, he will get a (flip+1) bonus in Stage Three". a beats b by 5
 * (15 against 9 + 1 = 10): its Focus flips 2 + Focus 1 + 1 = 4 cards and
 * keeps the fourth, an Ace: 14 + SS 2 = 16. */
Test(towers_duel, beat_by_five_gives_flip_plus_one_in_focus) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, true);
    reset(f);
    tf_stack(f, 0, "KS 2C 3C 5S 6S 7S 2S 3S 4S AD");
    tf_stack(f, 1, "9C 2D 3D 2H 3H 4H 8D 9D 10D");
    begin(f);
    const ft_fact *sd = fact(f, FT_FACT_SHOWDOWN, 0);
    cr_assert_not_null(sd);
    cr_expect_eq(sd->v[2], 5);
    cr_expect_eq(sd->v[3], 1, "(flip+1) earned");
    cr_expect_eq(count(f, FT_FACT_LEARN, 0), 5);
    cr_expect_eq(f->st.c[0].ci, 16, "the Ace of the fourth card");
    cr_expect_eq(f->st.c[1].ci, 11);
    free(f);
}

/* The same by 4 (15 against 10 + 1 = 11): no (flip+1), three cards, the
 * Ace stays in the deck: 4 + 2 = 6. */
Test(towers_duel, beat_by_four_gives_no_flip_plus_one) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, true);
    reset(f);
    tf_stack(f, 0, "KS 2C 3C 5S 6S 7S 2S 3S 4S AD");
    tf_stack(f, 1, "10C 2D 3D 2H 3H 4H 8D 9D 10D");
    begin(f);
    cr_expect_eq(fact(f, FT_FACT_SHOWDOWN, 0)->v[2], 4);
    cr_expect_eq(fact(f, FT_FACT_SHOWDOWN, 0)->v[3], 0);
    cr_expect_eq(count(f, FT_FACT_LEARN, 0), 4);
    cr_expect_eq(f->st.c[0].ci, 6);
    free(f);
}

/* 001 "Opposed Skill Flips" for the Showdown: a tie beats nobody: nothing
 * learned, no (flip+1). A duelist without the Dueling skill flips by the
 * rule for a skill it lacks (rank 0: RULINGS 3, two cards, the lowest
 * kept) and adds Soft Strength. */
Test(towers_duel, showdown_tie_and_missing_skill) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, true);
    f->s.c[1].sb.n_skills = 0; /* b has no Dueling skill */
    reset(f);
    /* a: 3 cards, 9 + 2 = 11; b: 2 cards, keeps the lowest 10 + 1 = 11. */
    tf_stack(f, 0, "9S 2C 3C 5S 6S 7S 8C 9C 10C");
    tf_stack(f, 1, "10D KD 2H 3H 8D 9D");
    begin(f);
    cr_expect_eq(fact(f, FT_FACT_SHOWDOWN, 0)->v[1], 11);
    cr_expect_eq(fact(f, FT_FACT_SHOWDOWN, 0)->v[2], 0, "a tie beats nobody");
    cr_expect_eq(count(f, FT_FACT_LEARN, -1), 0);
    /* b's Focus: two cards, the lowest (8) + SS 1. */
    cr_expect_eq(f->st.c[1].ci, 9);
    free(f);
}

/* ---- Stage Three: Focus -------------------------------------------------- */

/* 000 "Dueling" Stage Three: "the character's Initiative [N] is not used
 * for the flip. Each character makes a skill check using their Dueling
 * skill. The Focus specialization applies, and ... Soft Strength is
 * added". a has no Focus: 2 cards, Q = 12 + SS 2 = 14; b has it: 3 cards,
 * K = 13 + SS 1 = 14; [N] 5 is not added. Phase 20 - 14 = 6. */
Test(towers_duel, focus_initiative_adds_ss_and_the_specialization) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, false);
    f->s.c[0].sb.skills[0].n_specs = 1; /* Evaluation only */
    reset(f);
    tf_stack(f, 0, "QS 2C 9H");
    tf_stack(f, 1, "2D 3D KD");
    begin(f);
    cr_expect_eq(count(f, FT_FACT_SHOWDOWN, -1), 0, "showdown: false");
    cr_expect_eq(f->st.c[0].ci, 14);
    cr_expect_eq(f->st.c[1].ci, 14);
    cr_expect_eq(f->st.c[0].phase, 6);
    int n[2] = {0, 0};
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_FLIP &&
            f->ev.facts[i].v[0] == FT_FLIP_INITIATIVE)
            n[f->ev.facts[i].who] = f->ev.facts[i].v[2];
    cr_expect_eq(n[0], 2, "no Focus: the rank");
    cr_expect_eq(n[1], 3, "Focus: (flip+1)");
    /* The tie: higher CI none, then higher [N] none, then higher [SS]: a. */
    cr_expect_eq(f->st.c[0].init_rank, 0);
    free(f);
}

/* ---- Stage Four: Strike -------------------------------------------------- */

/* 000 "Dueling": to first blood, "it is over whenever one of the
 * combatants does STUN damage to his opponent that exceeds the opponent's
 * External Resilience": the blade's 4 against ER 3. b acts later (phase
 * 5): nothing held. */
Test(towers_duel, first_blood_by_a_hit_exceeding_er) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, false);
    f->s.c[1].sb.cv[FT_CV_ER] = 3;
    strike(f);
    f->st.c[1].phase = 5;
    ft_clock_sync(&f->st);
    tf_stack(f, 0, "KS 2C 3C");
    tf_stack(f, 1, "2D");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->st.c[1].stun, 16 - 1);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0);
    cr_expect_eq(f->st.duel_end, FT_DUEL_END_FIRST_BLOOD);
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "First blood: a wounds b") != NULL, "%s",
              f->buf);
    free(f);
}

/* 000 "Dueling": "if an attack hits but does equal or less damage than
 * the target has External Resilience, the target still takes 1 point of
 * STUN. However, in a duel to the first blood, this point does not count":
 * 4 against ER 4. */
Test(towers_duel, minimum_damage_point_is_not_first_blood) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, false);
    f->s.c[1].sb.cv[FT_CV_ER] = 4;
    strike(f);
    f->st.c[1].phase = 5;
    ft_clock_sync(&f->st);
    tf_stack(f, 0, "KS 2C 3C");
    tf_stack(f, 1, "2D");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->st.c[1].stun, 15, "the Minimum Damage point");
    cr_expect(!f->st.over);
    cr_expect_eq(f->st.duel_blood, 0);
    free(f);
}

/* 000 "Dueling": "if both combatants act in the same phase, any damage
 * done in that phase is applied simultaneously": a's blow would drop b
 * (20 STUN of 16), but b, acting later in the same phase, still strikes;
 * then both blows land (incapacitation: b is out, a wins). */
Test(towers_duel, simultaneous_damage_later_actor_still_strikes) {
    fixture *f = duel_new(FT_DUEL_INCAPACITATION, false);
    f->s.c[0].sb.weapons[0].damage = 20;
    strike(f);
    tf_stack(f, 0, "KS 2C 3C 2S");
    tf_stack(f, 1, "2D KD 2C 3C");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->st.c[1].stun, 16, "held to the phase's end");
    cr_expect(ft_can_act(&f->st, 1));
    cr_expect_eq(count(f, FT_FACT_DUEL, 0), 1, "the hold is told");
    cr_expect_eq(ft_next_actor(&f->st), 1);
    /* b: K 2 3 (13) against a's 2S (2): a hit of 4. */
    cr_assert_eq(apply(f, attack(1, 0)), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->st.c[0].stun, 12, "b's blow landed");
    cr_expect_eq(f->st.c[1].stun, 0, "a's blow lands with it");
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0);
    free(f);
}

/* The option simultaneous-duel off: a's blow lands at once and b, out of
 * the fight, never strikes. */
Test(towers_duel, simultaneous_duel_off_applies_at_once) {
    fixture *f = duel_new(FT_DUEL_INCAPACITATION, false);
    f->s.opt.simultaneous_duel = false;
    f->s.c[0].sb.weapons[0].damage = 20;
    strike(f);
    tf_stack(f, 0, "KS 2C 3C");
    tf_stack(f, 1, "2D");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->st.c[1].stun, 0);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0);
    cr_expect_eq(count(f, FT_FACT_DUEL, -1), 0, "nothing held");
    free(f);
}

/* 000 "Dueling": "If both combatants are wounded during such an event,
 * destiny has intervened. In a duel to the first blood, the duel is
 * considered dropped by both parties and neither is the victor." */
Test(towers_duel, both_wounded_in_one_phase_no_victor) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, false);
    strike(f);
    tf_stack(f, 0, "KS 2C 3C 2S");
    tf_stack(f, 1, "2D KD 2C 3C");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_expect(!f->st.over, "first blood held to the phase's end");
    cr_assert_eq(apply(f, attack(1, 0)), FRAY_OK, "%s", f->diag.message);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, -2, "a draw");
    cr_expect_eq(f->st.duel_end, FT_DUEL_END_DRAW);
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "destiny has intervened") != NULL, "%s",
              f->buf);
    free(f);
}

/* 000 "Dueling": "If the duel is to the death and neither is dead, the
 * fight continues": both wounded, both standing; b unconscious (0 STUN)
 * still does not end it; dead, it does. */
Test(towers_duel, to_the_death_continues_until_dead) {
    fixture *f = duel_new(FT_DUEL_DEATH, false);
    strike(f);
    tf_stack(f, 0, "KS 2C 3C 2S");
    tf_stack(f, 1, "2D KD 2C 3C");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_assert_eq(apply(f, attack(1, 0)), FRAY_OK, "%s", f->diag.message);
    cr_expect(!f->st.over, "both wounded, neither dead");
    /* b knocked out: out of the fight, not out of the duel. */
    ft_harm_apply(&f->r, 1, 100, 0, 0);
    cr_expect(f->st.c[1].flags & FT_F_UNCONSCIOUS);
    ft_duel_check_over(&f->r);
    cr_expect(!f->st.over, "unconscious is not dead");
    ft_harm_apply(&f->r, 1, 0, 100, 0);
    cr_expect(f->st.c[1].flags & FT_F_DEAD);
    ft_duel_check_over(&f->r);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0);
    free(f);
}

/* fray's ruling: to the death, both out of the fight and neither dead,
 * nobody is left to strike: the duel ends with no victor. */
Test(towers_duel, to_the_death_both_down_neither_dead_is_no_victor) {
    fixture *f = duel_new(FT_DUEL_DEATH, false);
    strike(f);
    ft_harm_apply(&f->r, 0, 100, 0, 1);
    ft_duel_check_over(&f->r);
    cr_expect(!f->st.over, "b still stands");
    ft_harm_apply(&f->r, 1, 100, 0, 0);
    ft_duel_check_over(&f->r);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, -2);
    free(f);
}

/* ---- Concession ------------------------------------------------------------ */

/* 000 "Dueling": "If the duel is to first blood or incapacitation, at this
 * point, either of the duelists can concede defeat": b concedes after the
 * Showdown, out of its turn; the other wins. */
Test(towers_duel, concession_ends_the_duel) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, false);
    reset(f);
    tf_stack(f, 0, "QS 2C 9H");
    tf_stack(f, 1, "2D 3D KD");
    begin(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_CONCEDE, 1)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0);
    cr_expect_eq(f->st.duel_end, FT_DUEL_END_CONCEDED);
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "b concedes the duel to a") != NULL, "%s",
              f->buf);
    free(f);
}

/* "Duels to the death cannot be stopped via concession"; and once the
 * Strike has begun, the moment has passed (fray's reading of "at this
 * point"). */
Test(towers_duel, concession_refused_to_the_death_and_after_a_blow) {
    fixture *f = duel_new(FT_DUEL_DEATH, false);
    reset(f);
    tf_stack(f, 0, "QS 2C 9H");
    tf_stack(f, 1, "2D 3D KD");
    begin(f);
    cr_expect_eq(apply(f, tf_cmd(FT_ACT_CONCEDE, 1)), FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "to the death") != NULL, "%s",
              f->diag.message);
    cr_expect(!f->st.over);
    f->s.duel.to = FT_DUEL_FIRST_BLOOD;
    f->st.c[0].flags |= FT_F_ACTED;
    cr_expect_eq(apply(f, tf_cmd(FT_ACT_CONCEDE, 1)), FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "Strike has begun") != NULL, "%s",
              f->diag.message);
    free(f);
}

/* The option duel-concede: "outmatched" concedes in the begin event, after
 * the Showdown, for whoever was beaten by 5 or more (no Focus flips
 * follow); "never" (the default) fights on. */
Test(towers_duel, option_duel_concede_outmatched_and_never) {
    for (int setting = 0; setting < 2; setting++) {
        fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, true);
        f->s.opt.duel_concede =
            (uint8_t)(setting ? FT_CONCEDE_OUTMATCHED : FT_CONCEDE_NEVER);
        reset(f);
        tf_stack(f, 0, "KS 2C 3C 5S 6S 7S 2S 3S 4S AD");
        tf_stack(f, 1, "9C 2D 3D 2H 3H 4H 8D 9D 10D");
        begin(f);
        if (setting) {
            cr_expect(f->st.over);
            cr_expect_eq(f->st.winner, 0);
            cr_expect_eq(f->st.duel_end, FT_DUEL_END_CONCEDED);
            cr_expect_eq(count(f, FT_FACT_INITIATIVE, -1), 0, "no Focus");
        } else {
            cr_expect(!f->st.over);
            cr_expect_eq(count(f, FT_FACT_INITIATIVE, -1), 2);
        }
        free(f);
    }
}

/* ---- Opposed skill flips (seed 001) --------------------------------------- */

/* Two combatants with Intimidate (Presence) rank 1, a at PC pa, b at PC pb;
 * a's turn in phase 0. */
static fixture *opposed_new(int pa, int pb) {
    fixture *f = tf_new(0, 0);
    options(&f->s.opt);
    tf_add(f, "a", 0, 0, 0, &knight, blade());
    tf_add(f, "b", 1, 1, 0, &knight, blade());
    for (int c = 0; c < 2; c++) {
        ft_statblock *sb = &f->s.c[c].sb;
        ft_skill *k = &sb->skills[sb->n_skills++];
        snprintf(k->name, FT_NAME, "Intimidate");
        k->aspect = FT_ASPECT_PC;
        k->rank = 1;
        sb->aspects[FT_ASPECT_PC] = c == 0 ? pa : pb;
    }
    strike(f);
    return f;
}

static ft_command use_against(int a, int t) {
    ft_command c = tf_cmd(FT_ACT_USE_SKILL, a);
    c.skill = 0;
    c.target = (int8_t)t;
    c.opposed = true;
    c.cost = 3;
    return c;
}

/* 001: "The participant with the higher final value is the winner": the
 * kept card plus the Aspect; a condition named in the command lands on
 * the loser (seed 000 "Skill, Aspect, and Attribute Checks": a check used
 * as an attack). */
Test(towers_duel, opposed_skill_flip_higher_total_wins) {
    fixture *f = opposed_new(2, 3);
    tf_stack(f, 0, "KS");
    tf_stack(f, 1, "9D");
    ft_command c = use_against(0, 1);
    c.condition = FT_COND_FRIGHTENED;
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
    const ft_fact *o = fact(f, FT_FACT_OPPOSED, 0);
    cr_assert_not_null(o);
    cr_expect_eq(o->v[0], 15);
    cr_expect_eq(o->v[1], 12);
    cr_expect_eq(o->v[2], 0);
    cr_expect_eq(o->v[3], 0);
    cr_expect(ft_cond_has(&f->st, 1, FT_COND_FRIGHTENED));
    cr_expect_eq(f->st.c[0].phase, 3, "Use a Skill's cost");
    free(f);
}

/* 001: "In the case of a tie, the Aspect values of the participants are
 * compared, with the higher one winning": 13 + 2 = 15 against 12 + 3 =
 * 15, b's Presence 3 wins (and no condition lands on b). */
Test(towers_duel, opposed_tie_goes_to_the_higher_aspect) {
    fixture *f = opposed_new(2, 3);
    tf_stack(f, 0, "KS");
    tf_stack(f, 1, "QD");
    ft_command c = use_against(0, 1);
    c.condition = FT_COND_FRIGHTENED;
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
    const ft_fact *o = fact(f, FT_FACT_OPPOSED, 0);
    cr_expect_eq(o->v[0], o->v[1]);
    cr_expect_eq(o->v[2], 1, "b, the higher Aspect");
    cr_expect_eq(o->v[3], 1);
    cr_expect(!ft_cond_has(&f->st, 1, FT_COND_FRIGHTENED));
    free(f);
}

/* 001: "If there's still a tie, the character who initiated the opposed
 * skill flip is the winner." */
Test(towers_duel, opposed_tie_of_aspects_goes_to_the_initiator) {
    fixture *f = opposed_new(3, 3);
    tf_stack(f, 0, "QS");
    tf_stack(f, 1, "QD");
    cr_assert_eq(apply(f, use_against(0, 1)), FRAY_OK, "%s", f->diag.message);
    const ft_fact *o = fact(f, FT_FACT_OPPOSED, 0);
    cr_expect_eq(o->v[2], 0, "a initiated");
    cr_expect_eq(o->v[3], 2);
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "a wins (a tie: the one who initiated)") != NULL,
              "%s", f->buf);
    free(f);
}

/* The target opposes with the skill named (its Discipline, rank 2 of
 * [II] 1): two cards; refused against oneself. */
Test(towers_duel, opposed_with_another_skill_and_refusals) {
    fixture *f = opposed_new(2, 2);
    ft_statblock *tsb = &f->s.c[1].sb;
    ft_skill *k = &tsb->skills[tsb->n_skills++];
    snprintf(k->name, FT_NAME, "Discipline");
    k->aspect = FT_ASPECT_II;
    k->rank = 2;
    tsb->aspects[FT_ASPECT_II] = 1;
    tf_stack(f, 0, "5S");
    tf_stack(f, 1, "2D KD");
    ft_command c = use_against(0, 1);
    c.opp_skill = 2; /* 1 + Discipline's index */
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
    const ft_fact *o = fact(f, FT_FACT_OPPOSED, 0);
    cr_expect_eq(o->v[1], 14, "K + II 1");
    cr_expect_eq(o->v[2], 1);
    ft_command self = use_against(1, 1);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &self, &f->diag),
                 FRAY_ERR_INVALID);
    free(f);
}

/* ---- Files and journals ---------------------------------------------------- */

static fray_status load_text(const char *yaml, fray_diag *d) {
    static ft_setup s;
    memset(d, 0, sizeof *d);
    return ft_load_text(yaml, strlen(yaml),
                        FRAY_SOURCE_DIR "/examples/towers/test.yaml", NULL, &s,
                        d);
}

static const char *const head =
    "fray: encounter\n"
    "name: t\n"
    "catalog: [../../data/towers/equipment.yaml]\n"
    "statblocks: [statblocks.yaml]\n";

/* 000 "Dueling": a duel is fought by two; refused otherwise, at the duel
 * key's line and column. Stage One: a melee duel starts adjacent. */
Test(towers_duel, loader_refuses_a_duel_of_three_and_apart) {
    char y[2048];
    fray_diag d;
    snprintf(y, sizeof y,
             "%sduel: {to: first-blood}\n"
             "combatants:\n"
             "  - {id: a, statblock: Knight of Areast, side: x}\n"
             "  - {id: b, statblock: Black Knight, side: y}\n"
             "  - {id: c, statblock: Black Knight, side: y}\n",
             head);
    cr_expect_eq(load_text(y, &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "two combatants") != NULL, "%s", d.message);
    cr_expect_eq(d.line, 5);
    cr_expect_eq(d.column, 7);
    snprintf(y, sizeof y,
             "%sduel: {to: death}\n"
             "map: {art: \"......\"}\n"
             "combatants:\n"
             "  - {id: a, statblock: Knight of Areast, side: x, at: [0, 0]}\n"
             "  - {id: b, statblock: Black Knight, side: y, at: [4, 0]}\n",
             head);
    cr_expect_eq(load_text(y, &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "adjacent") != NULL, "%s", d.message);
    /* Ranged: the file's distance stands. */
    snprintf(y, sizeof y,
             "%sduel: {to: death, ranged: true}\n"
             "map: {art: \"......\"}\n"
             "combatants:\n"
             "  - {id: a, statblock: Knight of Areast, side: x, at: [0, 0]}\n"
             "  - {id: b, statblock: Black Knight, side: y, at: [4, 0]}\n",
             head);
    cr_expect_eq(load_text(y, &d), FRAY_OK, "%d:%d: %s", d.line, d.column,
                 d.message);
}

/* The option simultaneous-duel is on with a duel unless options say; and
 * duel-concede reads never / outmatched. */
Test(towers_duel, loader_defaults_and_options) {
    fray_towers_setup *s = tf_load_example("first-blood.yaml");
    const ft_setup *x = &s->s;
    cr_expect_eq(x->duel.to, FT_DUEL_FIRST_BLOOD);
    cr_expect(x->duel.showdown);
    cr_expect(!x->duel.ranged);
    cr_expect(x->opt.simultaneous_duel);
    cr_expect_eq(x->opt.duel_concede, FT_CONCEDE_NEVER);
    fray_towers_setup_free(s);
    char y[2048];
    fray_diag d;
    snprintf(y, sizeof y,
             "%sduel: {to: incapacitation, showdown: false}\n"
             "options: {simultaneous-duel: false, duel-concede: outmatched}\n"
             "combatants:\n"
             "  - {id: a, statblock: Knight of Areast, side: x}\n"
             "  - {id: b, statblock: Black Knight, side: y}\n",
             head);
    static ft_setup t;
    memset(&d, 0, sizeof d);
    cr_assert_eq(ft_load_text(y, strlen(y),
                              FRAY_SOURCE_DIR "/examples/towers/test.yaml",
                              NULL, &t, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(t.duel.to, FT_DUEL_INCAPACITATION);
    cr_expect(!t.duel.showdown);
    cr_expect(!t.opt.simultaneous_duel);
    cr_expect_eq(t.opt.duel_concede, FT_CONCEDE_OUTMATCHED);
}

/* A journal of the duel replays to the same fight: the Showdown and Focus
 * of the begin event, an opposed Use a Skill and a concession given at the
 * table (docs/journal.md). */
static void round_trip(const char *const *commands, int n) {
    fray_towers_setup *s = tf_load_example("first-blood.yaml");
    fray_towers_fight *a = tf_fight(s, 4711);
    for (int i = 0; i < n; i++) {
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(fray_towers_fight_command(a, commands[i], NULL, 0, &d),
                     FRAY_OK, "%s: %s", commands[i], d.message);
    }
    if (!fray_towers_fight_over(a))
        cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
    size_t len = 0, cap = 1 << 16;
    char *j = malloc(cap);
    cr_assert_not_null(j);
    for (int i = 0; i < fray_towers_fight_events(a); i++) {
        size_t m = fray_towers_event_json(a, i, NULL, 0);
        while (len + m + 2 > cap) {
            cap *= 2;
            j = realloc(j, cap);
            cr_assert_not_null(j);
        }
        fray_towers_event_json(a, i, j + len, m + 1);
        len += m;
        j[len++] = '\n';
        j[len] = '\0';
    }
    fray_towers_fight *b = tf_fight(s, 1);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_replay(b, j, &d), FRAY_OK, "%d:%d: %s",
                 d.line, d.column, d.message);
    cr_expect(fray_towers_fight_same(a, b));
    free(j);
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_setup_free(s);
}

Test(towers_duel, journal_round_trip_of_a_duel) {
    const char *const cmds[] = {
        "next", "aldric use-skill dueling against black-knight frightened "
                "cost 3"};
    round_trip(cmds, 2);
}

Test(towers_duel, journal_round_trip_of_a_concession) {
    const char *const cmds[] = {"black-knight concede"};
    round_trip(cmds, 1);
}

/* 000 "Skill, Aspect, and Attribute Checks": "some effects may be
 * compared to the raw Aspect ranks, such as a poison check resisted by
 * External Endurance ... you do not add in the Aspect. You only take the
 * value of the flip": b's EE 2 flips two cards, keeps the high one (Q),
 * 12 without the 2; a's K + PC 2 = 15 wins. */
Test(towers_duel, opposed_by_a_raw_aspect_takes_only_the_card) {
    fixture *f = opposed_new(2, 2);
    f->s.c[1].sb.aspects[FT_ASPECT_EE] = 2;
    tf_stack(f, 0, "KS");
    tf_stack(f, 1, "5D QD");
    ft_command c = use_against(0, 1);
    c.opp_aspect = 1 + FT_ASPECT_EE;
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
    const ft_fact *o = fact(f, FT_FACT_OPPOSED, 0);
    cr_expect_eq(o->v[1], 12, "the card alone");
    cr_expect_eq(o->v[2], 0);
    int n = -1;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_FLIP && f->ev.facts[i].who == 1)
            n = f->ev.facts[i].v[2];
    cr_expect_eq(n, 2, "EE 2: two cards");
    free(f);
}

/* "A High Attribute check means that the target uses the better of the two
 * associated Aspect scores. A Low Attribute check means he uses the lower
 * of the two": b's EE 1, IE 3: high endurance flips 3 cards, low 1. */
Test(towers_duel, high_and_low_attribute_checks) {
    for (int low = 0; low < 2; low++) {
        fixture *f = opposed_new(2, 2);
        f->s.c[1].sb.aspects[FT_ASPECT_EE] = 1;
        f->s.c[1].sb.aspects[FT_ASPECT_IE] = 3;
        tf_stack(f, 0, "2S");
        tf_stack(f, 1, "5D 6D KD");
        ft_command c = use_against(0, 1);
        c.opp_attribute = (int8_t)(1 + 2 * FT_ATTR_ENDURANCE + low);
        cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
        const ft_fact *o = fact(f, FT_FACT_OPPOSED, 0);
        cr_expect_eq(o->v[1], low ? 5 : 13, "low %d", low);
        free(f);
    }
}

Test(towers_duel, journal_round_trip_of_checks_against_aspects) {
    const char *const cmds[] = {
        "next", "aldric use-skill dueling against black-knight high endurance "
                "cost 2",
        "next", "aldric use-skill dueling against black-knight aspect EE"};
    round_trip(cmds, 4);
}

/* fray's reading of "exceeds the opponent's External Resilience" for
 * Arcane damage: the Resilience that applies to it, <IR>: 4 against IR 3
 * is first blood though ER is 10. */
Test(towers_duel, first_blood_of_arcane_damage_against_ir) {
    fixture *f = duel_new(FT_DUEL_FIRST_BLOOD, false);
    f->s.c[0].sb.weapons[0].category = FT_CAT_ARCANE;
    f->s.c[1].sb.cv[FT_CV_ER] = 10;
    f->s.c[1].sb.cv[FT_CV_IR] = 3;
    strike(f);
    f->st.c[1].phase = 5;
    ft_clock_sync(&f->st);
    tf_stack(f, 0, "KS 2C 3C");
    tf_stack(f, 1, "2D");
    cr_assert_eq(apply(f, attack(0, 1)), FRAY_OK, "%s", f->diag.message);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.duel_end, FT_DUEL_END_FIRST_BLOOD);
    free(f);
}

/* To incapacitation: disabled (0 LETHAL) ends it even when the option
 * disabled-unconscious is off and the disabled could still act. */
Test(towers_duel, incapacitation_counts_disabled) {
    fixture *f = duel_new(FT_DUEL_INCAPACITATION, false);
    f->s.opt.disabled_unconscious = false;
    strike(f);
    ft_harm_apply(&f->r, 1, 0, 10, 0);
    cr_expect(f->st.c[1].flags & FT_F_DISABLED);
    cr_expect(ft_in_fight(&f->st, 1), "disabled but still in the fight");
    ft_duel_check_over(&f->r);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0);
    free(f);
}

/* fray sim --vary: the duel's options by their file names and values. */
Test(towers_duel, vary_the_duel_options) {
    fray_towers_setup *s = tf_load_example("first-blood.yaml");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_setup_vary(s, "duel-concede", "outmatched", &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(s->s.opt.duel_concede, FT_CONCEDE_OUTMATCHED);
    cr_assert_eq(fray_towers_setup_vary(s, "simultaneous-duel", "false", &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(!s->s.opt.simultaneous_duel);
    cr_expect_eq(fray_towers_setup_vary(s, "duel-concede", "maybe", &d),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "one of never, outmatched") != NULL, "%s",
              d.message);
    /* Any option of the file, as options.NAME (load.c ft_options_vary),
     * with the loader's checks; not the decks, settled at the load. */
    cr_assert_eq(fray_towers_setup_vary(s, "options.full-defense-cards", "2",
                                        &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(s->s.opt.full_defense_flip, 2);
    cr_assert_eq(fray_towers_setup_vary(s, "options.aces", "low", &d), FRAY_OK,
                 "%s", d.message);
    cr_expect(s->s.opt.deck.aces_low);
    cr_expect_eq(fray_towers_setup_vary(s, "options.decks", "one-for-table",
                                        &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "cannot be swept") != NULL, "%s", d.message);
    cr_expect_eq(fray_towers_setup_vary(s, "options.full-defence-cards", "2",
                                        &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "full-defense-cards") != NULL,
              "the unknown option's message suggests the known: %s", d.message);
    cr_expect_eq(fray_towers_setup_vary(s, "options.aces", "low: 3", &d),
                 FRAY_ERR_PARSE, "no YAML through a sweep's value");
    fray_towers_setup_free(s);
}

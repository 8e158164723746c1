/*
 * test_towers_companion.c - companions and minions, marked targets and the
 * dual-wielding stance of each action (companion.c; seed 000 "Companions
 * and Minions", "Marked Targets", "Off-Hand Weapons and Dual-Wielding").
 *
 * The hand-built pair: "ranger" (a master, N 2) and "falcon" (his
 * companion), against "goblin" (and "orc"). Decks are stacked so that the
 * ranger acts in phase 5 and the goblin in phase 17.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"

static const tf_stats comp_stats = {.pa = 3, .pd = 2, .px = 1, .spd = 5,
                                    .ss = 1, .endurance = 3,
                                    .max_stun = 24, .max_lethal = 11};

static int add(fixture *f, const char *id, int side, int x, int y, int n) {
    int i = tf_add(f, id, side, x, y, &comp_stats,
                   tf_weapon("Longblade", 1, 4, true, 1));
    f->s.c[i].sb.cv[FT_CV_N] = n;
    f->s.c[i].tactics.preset = FT_TAC_DEFAULT;
    f->s.c[i].tactics.opportunity_attacks = true;
    return i;
}

static fray_status apply(fixture *f, ft_command cmd, fray_diag *diag) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = cmd;
    tf_run(f, diag);
    return ft_apply(&f->r);
}

static void next_phase(fixture *f) {
    int a = ft_next_actor(&f->st);
    if (a >= 0 && f->st.c[a].phase > f->st.phase)
        cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
}

enum { RANGER, FALCON, GOBLIN };

/* The ranger at (1,1), his falcon at (1,2), the goblin at (8,8); the
 * ranger in phase 5, the goblin in phase 17, and the clock at phase 5. */
static fixture *pair_new(void) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0;
    add(f, "ranger", 0, 1, 1, 2);
    add(f, "falcon", 0, 1, 2, 1);
    add(f, "goblin", 1, 8, 8, 1);
    f->s.c[FALCON].master = RANGER + 1;
    f->s.c[RANGER].n_companions = 1;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, RANGER, "KS 4D"); /* 13 + 2 = 15: phase 5 */
    /* (The falcon flips no initiative: it activates with the ranger.) */
    tf_stack(f, GOBLIN, "2C");    /* 2 + 1 = 3: phase 17 */
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(f->st.phase, 5);
    return f;
}

/* ---- One turn for the pair ------------------------------------------------- */

/* 000 "Companions and Minions" (Combat Mechanics): "The player and their
 * companion activate simultaneously ... The player selects one action each
 * turn, performed either by the player or the companion": the falcon is
 * not on the clock by itself; at the ranger's turn the falcon acts, and
 * the pair's one place (the ranger's) moves by the action's cost, once. */
Test(towers_companion, pair_shares_one_turn_and_the_clock_moves_once) {
    fixture *f = pair_new();
    cr_assert(f->st.c[FALCON].flags & FT_F_RIDING);
    cr_assert_eq(ft_next_actor(&f->st), RANGER);
    /* The falcon's Forced Delay: 5 phases on the pair's place. */
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, FALCON), &f->diag), FRAY_OK,
                 "%s", f->diag.message);
    cr_assert_eq(f->st.c[RANGER].phase, 10);
    cr_assert_eq(f->st.c[FALCON].phase, 10);
    cr_assert_eq(f->st.c[FALCON].actions, 1);
    cr_assert_eq(f->st.c[RANGER].actions, 0);
    /* Both activated: neither is flat-footed now (seed 000
     * "Flat-Footed"), though only the falcon acted. */
    cr_assert(f->st.c[RANGER].flags & FT_F_ACTED);
    cr_assert(f->st.c[FALCON].flags & FT_F_ACTED);
    /* Only one acted: the pair's turn is over (the ranger may not act in
     * phase 5 now), and the next is the pair's again in phase 10. */
    ft_command again = tf_cmd(FT_ACT_DELAY, RANGER);
    cr_assert_neq(ft_check_command(&f->s, &f->st, &again, &f->diag), FRAY_OK);
    next_phase(f);
    cr_assert_eq(f->st.phase, 10);
    cr_assert_eq(ft_next_actor(&f->st), RANGER);
    /* Now the ranger acts (a naming of either is accepted). */
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, RANGER), NULL), FRAY_OK);
    cr_assert_eq(f->st.c[RANGER].phase, 15);
    free(f);
}

/* 000 "Companions and Minions": "The player and their companion activate
 * simultaneously": the falcon flips no initiative of its own (no card of
 * its deck, no initiative told) and its place is the ranger's. */
Test(towers_companion, companion_flips_no_initiative) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0;
    add(f, "ranger", 0, 1, 1, 2);
    add(f, "falcon", 0, 1, 2, 1);
    add(f, "goblin", 1, 8, 8, 1);
    f->s.c[FALCON].master = RANGER + 1;
    f->s.c[RANGER].n_companions = 1;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, RANGER, "KS 4D");
    tf_stack(f, FALCON, "AS");
    tf_stack(f, GOBLIN, "2C");
    int before = f->st.decks[FALCON].n_draw;
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    cr_assert_eq(f->st.decks[FALCON].n_draw, before);
    for (int i = 0; i < f->ev.n_facts; i++)
        cr_assert_not(f->ev.facts[i].kind == FT_FACT_INITIATIVE &&
                      f->ev.facts[i].who == FALCON);
    cr_assert_eq(f->st.c[FALCON].phase, 5);
    cr_assert_eq(ft_next_actor(&f->st), RANGER);
    free(f);
}

/* 000 "Companions and Minions": at the master's turn a command naming
 * anyone else is refused, in rules words naming the pair. */
Test(towers_companion, another_is_refused_at_the_pairs_turn) {
    fixture *f = pair_new();
    ft_command c = tf_cmd(FT_ACT_DELAY, GOBLIN);
    cr_assert_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    cr_assert_str_eq(f->diag.message,
                     "it is not goblin's turn: it is ranger's turn (or "
                     "falcon's)");
    free(f);
}

/* 000 "Companions and Minions": "Both the player and the companion can
 * move during Combat or Reckless Move actions, but one must complete their
 * movement before the other begins": the ranger moves first, then the
 * falcon into the space he left; one Combat Move on the clock (5). */
Test(towers_companion, both_move_in_one_combat_move_one_after_the_other) {
    fixture *f = pair_new();
    ft_command m = tf_cmd(FT_ACT_MOVE, RANGER);
    m.dest = (fray_pos){4, 1};
    m.also = FALCON + 1;
    m.also_dest = (fray_pos){1, 1}; /* where the ranger stood */
    cr_assert_eq(apply(f, m, &f->diag), FRAY_OK, "%s", f->diag.message);
    cr_assert_eq(f->st.c[RANGER].pos.x, 4);
    cr_assert_eq(f->st.c[RANGER].pos.y, 1);
    cr_assert_eq(f->st.c[FALCON].pos.x, 1);
    cr_assert_eq(f->st.c[FALCON].pos.y, 1);
    cr_assert_eq(f->st.c[RANGER].phase, 10);
    free(f);
}

/* Each moves within its own Speed: the falcon's SPD 2 does not take it 6
 * spaces, and the whole command is refused. */
Test(towers_companion, the_second_mover_keeps_its_own_speed) {
    fixture *f = pair_new();
    f->s.c[FALCON].sb.cv[FT_CV_SPD] = 2;
    ft_command m = tf_cmd(FT_ACT_MOVE, RANGER);
    m.dest = (fray_pos){4, 1};
    m.also = FALCON + 1;
    m.also_dest = (fray_pos){7, 2};
    cr_assert_eq(ft_check_command(&f->s, &f->st, &m, &f->diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(f->diag.message, "falcon cannot reach"), "%s",
              f->diag.message);
    /* and with someone who is not his companion: refused too. */
    m.also = GOBLIN + 1;
    m.also_dest = (fray_pos){8, 7};
    cr_assert_eq(ft_check_command(&f->s, &f->st, &m, &f->diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(f->diag.message, "not a master and his companion"));
    free(f);
}

/* 000 "Companions and Minions": "If the player is incapacitated (e.g.,
 * unconscious or dying), the companion may act on its own": knocked out in
 * phase 5, the ranger leaves the clock, and the falcon takes the pair's
 * place (option companion-alone: pair, the default) and acts by itself. */
Test(towers_companion, companion_acts_alone_once_the_master_is_unconscious) {
    fixture *f = pair_new();
    /* The ranger Delays (pair's place: phase 10), then is knocked out. */
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, RANGER), NULL), FRAY_OK);
    tf_run(f, NULL);
    ft_harm_apply(&f->r, RANGER, 40, 0, GOBLIN);
    cr_assert(f->st.c[RANGER].flags & FT_F_UNCONSCIOUS);
    cr_assert_not(f->st.c[FALCON].flags & FT_F_RIDING);
    cr_assert_eq(f->st.c[FALCON].phase, 10);
    next_phase(f);
    cr_assert_eq(ft_next_actor(&f->st), FALCON);
    ft_command c = tf_cmd(FT_ACT_DELAY, FALCON);
    cr_assert_eq(apply(f, c, &f->diag), FRAY_OK, "%s", f->diag.message);
    cr_assert_eq(f->st.c[FALCON].phase, 15);
    /* Its tactics act for it now: it heads for the goblin. */
    next_phase(f);
    ft_command p;
    ft_policy_choose(&f->s, &f->st, FALCON, &p);
    cr_assert_eq(p.actor, FALCON);
    cr_assert(p.action == FT_ACT_MOVE || p.action == FT_ACT_CHARGE,
              "action %d", p.action);
    free(f);
}

/* 000 "Companions and Minions": alone, "the range of actions is limited to
 * logical behaviors (e.g., defending the player, attacking threats ...)":
 * with the ranger down at (1,1), the falcon at (3,2) can strike the
 * goblin at (2,1), who threatens the ranger, or the orc at (4,2), hurt
 * and so the default tactics' pick; it defends the ranger. */
Test(towers_companion, companion_alone_defends_its_master) {
    fixture *f = pair_new();
    int orc = add(f, "orc", 1, 4, 2, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, RANGER, "KS 4D");
    tf_stack(f, GOBLIN, "2C");
    tf_stack(f, orc, "3C");
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    next_phase(f);
    f->st.c[FALCON].pos = (fray_pos){3, 2};
    f->st.c[GOBLIN].pos = (fray_pos){2, 1};
    f->st.c[orc].stun = 5;
    ft_clock_sync(&f->st);
    tf_run(f, NULL);
    ft_harm_apply(&f->r, RANGER, 40, 0, GOBLIN);
    cr_assert(f->st.c[RANGER].flags & FT_F_UNCONSCIOUS);
    cr_assert_eq(ft_next_actor(&f->st), FALCON);
    /* The tactics alone would strike the hurt orc. */
    ft_command plain;
    ft_policy_choose(&f->s, &f->st, FALCON, &plain);
    cr_assert_eq(plain.target, orc);
    ft_command c;
    bool checked = false;
    ft_attack_memo memo;
    memset(&memo, 0, sizeof memo);
    ft_policy_choose_remembered(&f->s, &f->st, FALCON, &c, &checked, NULL,
                                &memo, NULL);
    cr_assert(c.action == FT_ACT_ATTACK || c.action == FT_ACT_POWER_ATTACK,
              "action %d", c.action);
    cr_assert_eq(c.target, GOBLIN);
    cr_assert(checked);
    cr_assert_not(memo.valid);
    free(f);
}

/* Option companion-alone: next: the falcon's own place is the phase after
 * the one the ranger went down in (6, not the pair's 10). */
Test(towers_companion, companion_alone_next_option) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0;
    f->s.opt.companion_alone = FT_CA_NEXT;
    add(f, "ranger", 0, 1, 1, 2);
    add(f, "falcon", 0, 1, 2, 1);
    add(f, "goblin", 1, 8, 8, 1);
    f->s.c[FALCON].master = RANGER + 1;
    f->s.c[RANGER].n_companions = 1;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, RANGER, "KS 4D");
    tf_stack(f, GOBLIN, "2C");
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    next_phase(f);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, RANGER), NULL), FRAY_OK);
    tf_run(f, NULL);
    ft_harm_apply(&f->r, RANGER, 40, 0, GOBLIN);
    cr_assert_not(f->st.c[FALCON].flags & FT_F_RIDING);
    cr_assert_eq(f->st.c[FALCON].phase, 6);
    free(f);
}

/* 000 "Companions and Minions" (Healing): "The player can use healing
 * abilities ... on either themselves or their companion", and companions
 * "have STUN and LETHAL values and can be destroyed": the falcon takes
 * harm and healing as anyone, and its going down does not stop the
 * ranger. */
Test(towers_companion, companion_harm_and_healing_as_any) {
    fixture *f = pair_new();
    tf_run(f, NULL);
    ft_harm_apply(&f->r, FALCON, 10, 0, GOBLIN);
    cr_assert_eq(f->st.c[FALCON].stun, 14);
    ft_harm_heal(&f->r, FALCON, 5, 0);
    cr_assert_eq(f->st.c[FALCON].stun, 19);
    ft_harm_apply(&f->r, FALCON, 40, 0, GOBLIN);
    cr_assert(f->st.c[FALCON].flags & FT_F_UNCONSCIOUS);
    cr_assert_eq(ft_next_actor(&f->st), RANGER);
    cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, RANGER), NULL), FRAY_OK);
    free(f);
}

/* A companion cannot Hold: the master holds for the pair (fray). */
Test(towers_companion, only_the_master_holds) {
    fixture *f = pair_new();
    ft_command h = tf_cmd(FT_ACT_HOLD, FALCON);
    h.hold_kind = FT_HOLD_PHASE;
    h.hold_phase = 20;
    cr_assert_eq(ft_check_command(&f->s, &f->st, &h, &f->diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(f->diag.message, "only the master can Hold"));
    free(f);
}

/* Tactics of the pair: the falcon next to the goblin has an attack, the
 * ranger (far) none: the pair's choice is the falcon's attack. */
Test(towers_companion, pair_tactics_take_the_companions_attack) {
    fixture *f = pair_new();
    f->st.c[FALCON].pos = (fray_pos){7, 8};
    ft_clock_sync(&f->st);
    ft_command c;
    bool checked = false;
    ft_attack_memo memo;
    memset(&memo, 0, sizeof memo);
    ft_policy_choose_remembered(&f->s, &f->st, RANGER, &c, &checked, NULL,
                                &memo, NULL);
    cr_assert_eq(c.actor, FALCON);
    cr_assert(c.action == FT_ACT_ATTACK || c.action == FT_ACT_POWER_ATTACK,
              "action %d", c.action);
    cr_assert_eq(c.target, GOBLIN);
    cr_assert(checked);
    free(f);
}

/* ---- Marks ------------------------------------------------------------------ */

/* 000 "Marked Targets": "you may only have one marked ally, one marked
 * non-ally, and one marked space at a time. When a new marked target of
 * the same type is chosen, the old mark expires. When something says a
 * mark is spent, it is removed." Free by default (option mark-cost). */
Test(towers_companion, marks_replace_and_are_spent) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0;
    add(f, "ranger", 0, 1, 1, 2);
    add(f, "falcon", 0, 1, 2, 1);
    add(f, "goblin", 1, 8, 8, 1);
    add(f, "orc", 1, 9, 9, 1);
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2D");
    tf_stack(f, 2, "2C");
    tf_stack(f, 3, "3C");
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    next_phase(f);
    ft_command m = tf_cmd(FT_ACT_MARK, RANGER);
    m.target = GOBLIN;
    cr_assert_eq(apply(f, m, &f->diag), FRAY_OK, "%s", f->diag.message);
    cr_assert(ft_marked(&f->st, RANGER, GOBLIN));
    cr_assert_eq(f->st.c[RANGER].phase, 5); /* free: still his turn */
    m.target = 3; /* the orc: the goblin's mark expires */
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    cr_assert(ft_marked(&f->st, RANGER, 3));
    cr_assert_not(ft_marked(&f->st, RANGER, GOBLIN));
    m.target = FALCON; /* an ally: a mark of another type */
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    cr_assert(ft_marked(&f->st, RANGER, FALCON));
    cr_assert(ft_marked(&f->st, RANGER, 3));
    ft_command sp = tf_cmd(FT_ACT_MARK, RANGER);
    sp.mark_space = 1;
    sp.dest = (fray_pos){5, 5};
    cr_assert_eq(apply(f, sp, NULL), FRAY_OK);
    sp.dest = (fray_pos){6, 6};
    cr_assert_eq(apply(f, sp, NULL), FRAY_OK);
    cr_assert(ft_marked_space(&f->st, RANGER, (fray_pos){6, 6}));
    cr_assert_not(ft_marked_space(&f->st, RANGER, (fray_pos){5, 5}));
    /* Spent: removed; spending again finds none. */
    cr_assert(ft_mark_spend(&f->st, RANGER, 3));
    cr_assert_not(ft_marked(&f->st, RANGER, 3));
    cr_assert_not(ft_mark_spend(&f->st, RANGER, 3));
    cr_assert(ft_mark_spend(&f->st, RANGER, -1));
    cr_assert_not(ft_marked_space(&f->st, RANGER, (fray_pos){6, 6}));
    cr_assert(ft_marked(&f->st, RANGER, FALCON));
    /* Nobody marks himself. */
    m.target = RANGER;
    cr_assert_eq(apply(f, m, &f->diag), FRAY_ERR_INVALID);
    free(f);
}

/* Option mark-cost: 3 phases: a Mark then ends the turn and moves the
 * clock 3. */
Test(towers_companion, mark_cost_option) {
    fixture *f = pair_new();
    f->s.opt.mark_cost = 3;
    ft_command m = tf_cmd(FT_ACT_MARK, RANGER);
    m.target = GOBLIN;
    cr_assert_eq(apply(f, m, NULL), FRAY_OK);
    cr_assert_eq(f->st.c[RANGER].phase, 8);
    cr_assert(ft_marked(&f->st, RANGER, GOBLIN));
    free(f);
}

/* ---- Stance ------------------------------------------------------------------ */

/* Two melee weapons in hand, the stat block aggressive. */
static fixture *duelists_new(void) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0;
    add(f, "ranger", 0, 1, 1, 2);
    add(f, "goblin", 1, 2, 1, 1);
    ft_statblock *sb = &f->s.c[0].sb;
    sb->n_weapons = 2;
    sb->weapons[1] = tf_weapon("Shortblade", 1, 2, true, 1);
    sb->wielded[1] = 1;
    sb->dual_aggressive = true;
    ft_policy_prepare(&f->s); /* the speed tables: the remembered path */
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, 0, "KS 4D");
    tf_stack(f, 1, "2C");
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    next_phase(f);
    /* No longer flat-footed (its lost [SS] cards are not the point). */
    f->st.c[0].flags |= FT_F_ACTED;
    return f;
}

static ft_mods mods_of(fixture *f, int a, int t, ft_mods_cache *cache) {
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = 0;
    ft_mods m;
    tf_run(f, NULL);
    if (cache)
        ft_attack_mods_cached(&f->r, cache, a, t, &o, &m);
    else
        ft_attack_mods(&f->r, a, t, &o, &m);
    return m;
}

/* 000 "Off-Hand Weapons and Dual-Wielding": "If he chooses to fight
 * aggressively, he gains +1 <PA> but suffers -1 <PD>. If he chooses to
 * fight defensively, he gains +1 <PD> but has -1 <PA>. He may change his
 * style at the start of each of his actions": the word `defensive` on his
 * action turns the stat block's aggressive +1 PA into -1 PA, and the
 * goblin's attacks then meet +1 PD instead of -1, until he changes it. */
Test(towers_companion, stance_word_changes_pa_and_pd_for_that_action) {
    fixture *f = duelists_new();
    /* (The longblade's 1+PA is the other card of the flip.) */
    cr_assert_eq(mods_of(f, 0, 1, NULL).flip, 1 + 1);
    cr_assert_eq(mods_of(f, 1, 0, NULL).def_flip, -1);
    ft_command a = tf_cmd(FT_ACT_ATTACK, 0);
    a.target = 1;
    a.stance = FT_STANCE_DEFENSIVE;
    tf_stack(f, 0, "2S 3S 4S 5S");
    tf_stack(f, 1, "KH QH JH");
    cr_assert_eq(apply(f, a, &f->diag), FRAY_OK, "%s", f->diag.message);
    /* The attack's own modifier said "defensive stance", (flip-1). */
    bool told = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_MODIFIER &&
            strstr(f->ev.facts[i].text, "defensive"))
            told = f->ev.facts[i].v[1] == -1;
    cr_assert(told);
    cr_assert_eq(f->st.c[0].stance, FT_STANCE_DEFENSIVE);
    cr_assert_eq(mods_of(f, 0, 1, NULL).flip, 1 - 1);
    cr_assert_eq(mods_of(f, 1, 0, NULL).def_flip, 1);
    /* An area's defense flip reads the chosen stance too (attack.c
     * defender_state_mods; it read the stat block's before). */
    ft_mods am;
    tf_run(f, NULL);
    ft_area_mods(&f->r, 1, 0, &f->s.c[1].sb.weapons[0], &am);
    cr_assert_eq(am.def_flip, 1, "defensive: (flip+1) on his defense");
    free(f);
}

/* The remembered modifiers (attack.c ft_attack_mods_cached): the stance
 * changes between two attacks with all else equal, and the second answer
 * is the new stance's, not the remembered one. */
Test(towers_companion, remembered_modifiers_follow_the_stance) {
    fixture *f = duelists_new();
    ft_mods_cache cache;
    memset(&cache, 0, sizeof cache);
    /* (The longblade's 1+PA and the stance's +-1.) */
    cr_assert_eq(mods_of(f, 0, 1, &cache).flip, 2);
    cr_assert_eq(mods_of(f, 0, 1, &cache).flip, 2);
    cr_assert_eq(mods_of(f, 1, 0, &cache).def_flip, -1);
    /* (As a command's stance word does: the state says a stance was
     * chosen.) */
    f->st.c[0].stance = FT_STANCE_DEFENSIVE;
    f->st.stance_chosen = 1;
    cr_assert_eq(mods_of(f, 0, 1, &cache).flip, 0);
    cr_assert_eq(mods_of(f, 1, 0, &cache).def_flip, 1);
    f->st.c[0].stance = FT_STANCE_AGGRESSIVE;
    cr_assert_eq(mods_of(f, 0, 1, &cache).flip, 2);
    cr_assert_eq(mods_of(f, 1, 0, &cache).def_flip, -1);
    free(f);
}

static int idx(const fray_towers_fight *f, const char *id) {
    const ft_setup *s = &f->setup->s;
    for (int i = 0; i < s->n_combatants; i++)
        if (strcmp(s->c[i].id, id) == 0)
            return i;
    cr_assert_fail("no %s", id);
    return -1;
}

/* Steps the fight until it is the falconer's turn in his phase. */
static void to_falconers_turn(fray_towers_fight *f) {
    int fal = idx(f, "falconer");
    for (int k = 0; k < 200; k++) {
        int next = ft_next_actor(&f->st);
        if (next == fal && f->st.c[next].phase <= f->st.phase)
            return;
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    }
    cr_assert_fail("never the falconer's turn");
}

/* The falconer example at the table: a Mark, a Combat Move of both, the
 * hawk's stance-free attack at his turn, and a journal that replays to the
 * identical fight (companions, marks and stances are state). */
Test(towers_companion, falconer_journal_round_trip) {
    fray_towers_setup *s = tf_load_example("falconer.yaml");
    fray_towers_fight *f = tf_fight(s, 5);
    to_falconers_turn(f);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, "falconer mark bandit-1", NULL,
                                           0, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_towers_fight_command(f, "hawk mark 5,3", NULL, 0, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_towers_fight_command(f, "falconer aggressive move 3,2 "
                                              "and hawk 3,1",
                                           NULL, 0, &d),
                 FRAY_OK, "%s", d.message);
    int fal = idx(f, "falconer"), hawk = idx(f, "hawk");
    cr_assert(ft_marked(&f->st, fal, idx(f, "bandit-1")));
    cr_assert(ft_marked_space(&f->st, hawk, (fray_pos){5, 3}));
    cr_assert_eq(f->st.c[fal].stance, FT_STANCE_AGGRESSIVE);
    cr_assert_eq(f->st.c[fal].pos.x, 3);
    cr_assert_eq(f->st.c[hawk].pos.x, 3);
    cr_assert_eq(f->st.c[hawk].pos.y, 1);
    for (int k = 0; k < 6 && !fray_towers_fight_over(f); k++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    char *j = tf_journal(f);
    cr_assert(strstr(j, "\"also\":\"hawk\""), "%s", j);
    cr_assert(strstr(j, "\"stance\":\"aggressive\""));
    cr_assert(strstr(j, "\"mark_space\":true"));
    fray_towers_fight *g = tf_fight(s, 5);
    cr_assert_eq(fray_towers_fight_replay(g, j, &d), FRAY_OK, "%d:%d: %s",
                 d.line, d.column, d.message);
    cr_assert(fray_towers_fight_same(f, g));
    /* An edited journal whose Move takes along one who is not the
     * falconer's companion is refused, in rules words. */
    char *at = strstr(j, "\"also\":\"hawk\"");
    cr_assert_not_null(at);
    char *ed = malloc(strlen(j) + 16);
    cr_assert_not_null(ed);
    memcpy(ed, j, (size_t)(at - j));
    strcpy(ed + (at - j), "\"also\":\"bandit-2\"");
    strcat(ed, at + strlen("\"also\":\"hawk\""));
    fray_towers_fight *h = tf_fight(s, 5);
    cr_assert_eq(fray_towers_fight_replay(h, ed, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "not a master and his companion"), "%s",
              d.message);
    fray_towers_fight_free(h);
    free(ed);
    free(j);
    fray_towers_fight_free(g);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- Loading ----------------------------------------------------------------- */

static fray_status load_text(const char *text, fray_diag *d) {
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    memset(d, 0, sizeof *d);
    fray_status rc = ft_load_text(text, strlen(text), "inline.yaml", NULL, s, d);
    free(s);
    return rc;
}

#define ENC_HEAD                                                               \
    "fray: encounter\nrules: towers\nname: t\nsides: [a, b]\n"                         \
    "statblocks:\n"                                                            \
    "  - name: X\n"                                                            \
    "    combat: {N: 1, PA: 1, PD: 1, SA: 0, ID: 0, PX: 0, ER: 0, IR: 0, "     \
    "SPD: 5}\n"                                                                \
    "    endurance: 1\n"                                                       \
    "combatants:\n"                                                            \
    "  - {id: m, statblock: X, side: a}\n"

/* 000 "Companions and Minions": "Companions are considered allies for the
 * character": a companion on the other side is refused at its line; so is
 * an unknown master. */
Test(towers_companion, companion_of_loads_and_checks_the_side) {
    fray_diag d;
    cr_assert_eq(load_text(ENC_HEAD "  - {id: c, statblock: X, side: a, "
                                    "companion-of: m}\n"
                                    "  - {id: e, statblock: X, side: b}\n",
                           &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(load_text(ENC_HEAD "  - {id: c, statblock: X, side: b, "
                                    "companion-of: m}\n",
                           &d),
                 FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "master's side"), "%s", d.message);
    cr_assert_eq(d.line, 11, "line %d", d.line);
    cr_assert_eq(load_text(ENC_HEAD "  - {id: c, statblock: X, side: a, "
                                    "companion-of: nobody}\n"
                                    "  - {id: e, statblock: X, side: b}\n",
                           &d),
                 FRAY_ERR_PARSE);
}

/* The two options in a sweep (fray sim --vary options.KEY=...): each value
 * sets the option; a bad one is refused and changes nothing. */
Test(towers_companion, options_vary_in_a_sweep) {
    fray_towers_setup *s = tf_load_example("falconer.yaml");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(s->s.opt.mark_cost, FT_COST_FREE);
    cr_assert_eq(fray_towers_setup_vary(s, "options.mark-cost", "3", &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(s->s.opt.mark_cost, 3);
    cr_assert_eq(fray_towers_setup_vary(s, "options.mark-cost", "free", &d),
                 FRAY_OK);
    cr_assert_eq(s->s.opt.mark_cost, FT_COST_FREE);
    cr_assert_eq(fray_towers_setup_vary(s, "options.companion-alone", "next",
                                        &d),
                 FRAY_OK);
    cr_assert_eq(s->s.opt.companion_alone, FT_CA_NEXT);
    cr_assert_eq(fray_towers_setup_vary(s, "options.companion-alone", "far",
                                        &d),
                 FRAY_ERR_PARSE);
    cr_assert_eq(s->s.opt.companion_alone, FT_CA_NEXT);
    fray_towers_setup_free(s);
}

/*
 * test_alloy_render.c - Alloy told to a game master (render.c): the names
 * of actions, conditions, defenses and modifiers in rules words; the
 * narration of events (attacks with their modifiers, damage, initiative,
 * the surprise round, opportunity attacks, saves, conditions, moves,
 * dying and death, the winner); the initiative order, the map and the
 * summary; snprintf-style lengths.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "alloy_face_fixture.h"

static fa_setup *S;
static fa_state *ST;
static fa_event *EV;
static char BUF[16384];

static void setup(void) {
    S = fx_setup();
    ST = fx_state(S);
    EV = calloc(1, sizeof *EV);
}

static void teardown(void) {
    free(EV);
    free(ST);
    free(S);
}

TestSuite(alloy_render, .init = setup, .fini = teardown);

static void ev_cmd(int kind, int actor) {
    memset(EV, 0, sizeof *EV);
    EV->cmd.kind = (uint8_t)kind;
    EV->cmd.actor = (int8_t)actor;
    EV->cmd.slot = FA_ACT_NONE;
    EV->cmd.power = EV->cmd.weapon = -1;
    EV->cmd.origin.x = EV->cmd.origin.y = -1;
    EV->cmd.ready.who = EV->cmd.ready.target = EV->cmd.ready.power = -1;
}

static fa_fact *fact(int kind, int who, int target, int v0, int v1, int v2,
                     int v3, int v4, int v5) {
    fa_fact *f = &EV->facts[EV->n_facts++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->who = (int8_t)who;
    f->target = (int8_t)target;
    f->v[0] = v0;
    f->v[1] = v1;
    f->v[2] = v2;
    f->v[3] = v3;
    f->v[4] = v4;
    f->v[5] = v5;
    return f;
}

static const char *narrate(void) {
    size_t n = fa_narrate(S, EV, BUF, sizeof BUF);
    cr_assert_lt(n, sizeof BUF);
    cr_assert_eq(strlen(BUF), n);
    return BUF;
}

#define HAS(text, part) cr_assert(strstr((text), (part)), "no '%s' in:\n%s", (part), (text))

/* 004:300-354 the action table's names; the journal words are distinct. */
Test(alloy_render, names_in_rules_words_004_300) {
    cr_assert_str_eq(fa_cmd_title(FA_CMD_COUP), "Coup de Grace");
    cr_assert_str_eq(fa_cmd_title(FA_CMD_SHIFT), "Adjust");
    cr_assert_str_eq(fa_cmd_title(FA_CMD_HELD_OBJECT), "Attack Held Object");
    cr_assert_str_eq(fa_cmd_title(FA_CMD_AID), "Aid Another");
    cr_assert_str_eq(fa_cmd_name(FA_CMD_HELD_OBJECT), "disarm");
    cr_assert_str_eq(fa_cmd_name(FA_CMD_BULL_RUSH), "bull-rush");
    for (int a = 0; a < FA_CMD_KINDS; a++) {
        cr_assert_str_neq(fa_cmd_name(a), "?");
        cr_assert_str_neq(fa_cmd_title(a), "?");
        for (int b = a + 1; b < FA_CMD_KINDS; b++)
            cr_assert_str_neq(fa_cmd_name(a), fa_cmd_name(b));
    }
    cr_assert_str_eq(fa_cmd_name(-1), "?");
    cr_assert_str_eq(fa_cmd_name(FA_CMD_KINDS), "?");
}

/* 004:189 Defense, Fortitude, Reflex (+ Will); 004:904-1038 conditions;
 * 004:836-846 the attack modifiers. */
Test(alloy_render, defenses_conditions_modifiers_004_189) {
    cr_assert_str_eq(fa_defense_name(FA_DEF_DEFENSE), "Defense");
    cr_assert_str_eq(fa_defense_name(FA_DEF_FORTITUDE), "Fortitude");
    cr_assert_str_eq(fa_defense_name(FA_DEF_REFLEX), "Reflex");
    cr_assert_str_eq(fa_defense_name(FA_DEF_WILL), "Will");
    cr_assert_str_eq(fa_cond_name(FA_C_PRONE), "prone");
    cr_assert_str_eq(fa_cond_name(FA_C_DAZED), "dazed");
    cr_assert_str_eq(fa_mod_name(FA_MOD_BATTLE_SUPERIORITY), "battle superiority");
    cr_assert_str_eq(fa_mod_name(FA_MOD_COVER), "cover");
    for (int k = 0; k < FA_COND_KINDS; k++)
        cr_assert_str_neq(fa_cond_name(k), "?", "condition %d", k);
    for (int k = 0; k < FA_MOD_KINDS; k++)
        cr_assert_str_neq(fa_mod_name(k), "?", "modifier %d", k);
    cr_assert_str_eq(fa_defense_name(FA_DEFENSES), "?");
}

/* An attack: the d20, the bonus, the total against the defense with its
 * modifiers, hit; the damage and the hit points left. */
Test(alloy_render, attack_narrated_with_modifiers_and_damage) {
    ev_cmd(FA_CMD_ATTACK, FX_TONY);
    EV->round = 2;
    EV->cmd.n_targets = 1;
    EV->cmd.targets[0] = FX_ORC1;
    EV->cmd.weapon = 0;
    EV->cmd.origin.x = EV->cmd.origin.y = 0; /* as a policy leaves it: not an area */
    EV->cmd.slot = FA_ACT_STANDARD;
    fact(FA_FACT_ACTION, FX_TONY, -1, FA_CMD_ATTACK, FA_ACT_STANDARD, 0, 0, 0, 0);
    fact(FA_FACT_MODIFIER, FX_TONY, FX_ORC1, FA_MOD_COVER, -2, 0, 0, 0, 0);
    fact(FA_FACT_ATTACK, FX_TONY, FX_ORC1, 14, 6, 20, FA_DEF_DEFENSE, 16, FA_HIT);
    fact(FA_FACT_DAMAGE, FX_TONY, FX_ORC1, 11, 4, 11, 0, 0, 0);
    EV->dice[EV->n_dice++] = (fa_die){20, 14, FA_DIE_ATTACK, FX_TONY};
    EV->dice[EV->n_dice++] = (fa_die){6, 5, FA_DIE_DAMAGE, FX_TONY};
    EV->dice[EV->n_dice++] = (fa_die){6, 3, FA_DIE_DAMAGE, FX_TONY};
    const char *t = narrate();
    HAS(t, "Round 2 - Tony: Attack on orc 1 with the Pistol (standard action).\n");
    cr_assert_null(strstr(t, "Tony: Attack (standard action)."), "%s", t);
    HAS(t, "Tony attacks orc 1: d20 14 + 6 = 20 (cover -2) vs Defense 16: hit.");
    /* 004:169 damage: the dice, then the static modifiers. */
    HAS(t, "orc 1 takes 11 damage from Tony (d6 5 + d6 3 + 3 = 11): 4 hit points left.");
    cr_assert_null(strstr(t, " at 0,0"), "%s", t);
    /* The modifier is told once, with its attack. */
    cr_assert_null(strstr(t, "Tony's attack on orc 1"), "%s", t);
}

/* 004:53, 175: natural 20 a critical hit; a miss. */
/* 004:131 an area burst's origin is told; 004:685 autofire's burst. */
Test(alloy_render, area_origin_told_004_131) {
    ev_cmd(FA_CMD_ATTACK, FX_TONY);
    EV->round = 1;
    EV->cmd.power = 0;
    EV->cmd.origin.x = 8;
    EV->cmd.origin.y = 6;
    HAS(narrate(), "Round 1 - Tony: Attack with Burst Fire at 8,6.");
    ev_cmd(FA_CMD_SPRAY, FX_TONY);
    EV->round = 1;
    EV->cmd.origin.x = 0;
    EV->cmd.origin.y = 0;
    HAS(narrate(), "Round 1 - Tony: Autofire: Spray at 0,0.");
}

Test(alloy_render, crit_and_miss_004_175) {
    ev_cmd(FA_CMD_ATTACK, FX_ANA);
    EV->round = 3;
    EV->cmd.n_targets = 2;
    EV->cmd.targets[0] = FX_ORC1;
    EV->cmd.targets[1] = FX_ORC2;
    fact(FA_FACT_ATTACK, FX_ANA, FX_ORC1, 20, 5, 25, FA_DEF_REFLEX, 14, FA_CRIT);
    fact(FA_FACT_ATTACK, FX_ANA, FX_ORC2, 3, -1, 2, FA_DEF_REFLEX, 14, FA_MISS);
    fact(FA_FACT_MODIFIER, FX_ANA, FX_ORC2, FA_MOD_PRONE_ATTACKER, -2, 0, 0, 0, 0);
    const char *t = narrate();
    HAS(t, "Ana: Attack on orc 1 and orc 2.");
    HAS(t, "d20 20 + 5 = 25 vs Reflex 14: critical hit.");
    HAS(t, "d20 3 - 1 = 2 (prone attacker -2) vs Reflex 14: miss.");
}

/* 004:749 Total Defense and 004:680 Second Wind: +2 to the target's
 * defenses, told after the defense (MODIFIER v2 = 1); 004:57 not
 * proficient: the proficiency bonus not had. */
Test(alloy_render, defense_modifiers_told_with_the_defense_004_749) {
    ev_cmd(FA_CMD_ATTACK, FX_ORC1);
    EV->round = 2;
    EV->cmd.n_targets = 1;
    EV->cmd.targets[0] = FX_TONY;
    fact(FA_FACT_ATTACK, FX_ORC1, FX_TONY, 12, 3, 15, FA_DEF_DEFENSE, 19, FA_MISS);
    fact(FA_FACT_MODIFIER, FX_ORC1, FX_TONY, FA_MOD_FLANKING, 2, 0, 0, 0, 0);
    fact(FA_FACT_MODIFIER, FX_ORC1, FX_TONY, FA_MOD_TOTAL_DEFENSE, 2, 1, 0, 0, 0);
    fact(FA_FACT_MODIFIER, FX_ORC1, FX_TONY, FA_MOD_NOT_PROFICIENT, 0, 0, 2, 0, 0);
    const char *t = narrate();
    HAS(t, "orc 1 attacks Tony: d20 12 + 3 = 15 (flanking +2, not proficient: "
           "no +2) vs Defense 19 (total defense +2): miss.");
}

/* 004:870-878 a creature's cover takes the hit; a dropped weapon
 * (004:434-444); a check (004:593-602); no effect, with the reason. */
Test(alloy_render, cover_struck_drop_check_no_effect_004_870) {
    ev_cmd(FA_CMD_ATTACK, FX_TONY);
    EV->round = 2;
    fact(FA_FACT_COVER_STRUCK, FX_TONY, FX_ANA, FX_ORC1, 14, 1, 1, 0, 0);
    fact(FA_FACT_DROP, FX_TONY, FX_TONY, 1, 0, 0, 0, 0, 0);
    fact(FA_FACT_CHECK, FX_ANA, -1, 9, 5, 14, 13, 1, 0);
    fact(FA_FACT_NO_EFFECT, FX_ANA, -1, FA_NOTE_ALREADY_PRONE, 0, 0, 0, 0, 0);
    const char *t = narrate();
    HAS(t, "Tony's attack missed orc 1 only because of Ana's cover: against its "
           "defense of 14 it hits, and it takes the hit.");
    HAS(t, "Tony drops its Combat Knife in its space.");
    HAS(t, "Ana checks: d20 9 + 5 = 14 vs 13: success.");
    HAS(t, "Ana's action has no effect: the target is already prone.");
}

/* 004:235 initiative once at the start, in order; 004:245-259 the surprise round. */
Test(alloy_render, begin_initiative_and_surprise_004_235) {
    ev_cmd(FA_CMD_BEGIN, -1);
    fact(FA_FACT_INITIATIVE, FX_TONY, -1, 16, 1, 17, 0, 0, 0);
    fact(FA_FACT_INITIATIVE, FX_ORC1, -1, 8, 1, 9, 0, 0, 0);
    fact(FA_FACT_TIE, FX_ORC1, -1, 4, 0, 0, 0, 0, 0);
    fact(FA_FACT_ORDER, FX_TONY, -1, 0, 0, 0, 0, 0, 0);
    fact(FA_FACT_ORDER, FX_ORC1, -1, 1, 0, 0, 0, 0, 0);
    fact(FA_FACT_SURPRISE, FX_ORC2, -1, 0, 0, 0, 0, 0, 0);
    fact(FA_FACT_ROUND, -1, -1, 0, 0, 0, 0, 0, 0);
    fact(FA_FACT_TURN, FX_TONY, -1, 0, 0, 0, 0, 0, 0);
    const char *t = narrate();
    HAS(t, "Initiative.\n");
    HAS(t, "Tony rolls initiative: d20 16 + 1 = 17.");
    HAS(t, "orc 1 breaks a tie of initiative with a die of 4.");
    HAS(t, "Initiative order: 1. Tony, 2. orc 1.\n");
    HAS(t, "orc 2 is surprised.");
    HAS(t, "The surprise round begins.");
    HAS(t, "Tony's turn.");
    /* With its condition, the surprise is told once (004:1017-1021). */
    ev_cmd(FA_CMD_BEGIN, -1);
    fact(FA_FACT_COND_ON, FX_ORC2, -1, FA_C_SURPRISED, FA_ENDS_ROUND_END, 0, 0, 0, 0);
    fact(FA_FACT_SURPRISE, FX_ORC2, -1, 0, 0, 0, 0, 0, 0);
    t = narrate();
    HAS(t, "  orc 2 is surprised until the end of the round.\n");
    cr_assert_null(strstr(t, "orc 2 is surprised.\n"), "%s", t);
}

/* 004:453-461 opportunity attacks; 004:223 saves; conditions on and off;
 * 004:211 dying and death; moves; the winner. */
Test(alloy_render, every_kind_of_fact_004_453) {
    ev_cmd(FA_CMD_WALK, FX_TONY);
    EV->round = 4;
    EV->cmd.n_path = 2;
    EV->cmd.path[1].x = 3;
    EV->cmd.path[1].y = 2;
    fact(FA_FACT_PROVOKE, FX_TONY, FX_ORC1, FA_CMD_WALK, 0, 0, 0, 0, 0);
    fact(FA_FACT_OPPORTUNITY, FX_ORC1, FX_TONY, 1, 0, 0, 0, 0, 0);
    fact(FA_FACT_OPPORTUNITY, FX_ORC2, FX_TONY, 0, 0, 0, 0, 0, 0);
    fact(FA_FACT_MOVE, FX_TONY, -1, 1, 1, 3, 2, 2, 0);
    fact(FA_FACT_SAVE, FX_ANA, -1, 12, 10, 1, FA_C_DAZED, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC1, FX_ANA, FA_C_PRONE, FA_ENDS_EVENT, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_TONY, FX_TONY, FA_C_TOTAL_DEFENSE, FA_ENDS_START_OF_TURN, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC2, FX_ANA, FA_C_DAZED, FA_ENDS_SAVE, 0, 0, 0, 0);
    fact(FA_FACT_COND_OFF, FX_ORC1, -1, FA_C_PRONE, 0, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC2, FX_TONY, FA_C_ONGOING, FA_ENDS_SAVE, 5, 0, 0, 0);
    fact(FA_FACT_DYING, -1, FX_ORC1, -2, 0, 0, 0, 0, 0);
    fact(FA_FACT_DEAD, -1, FX_ORC2, -8, 0, 0, 0, 0, 0);
    fact(FA_FACT_OVER, -1, -1, 0, 0, 0, 0, 0, 0);
    const char *t = narrate();
    HAS(t, "Round 4 - Tony: Walk to 3,2.");
    HAS(t, "Tony provokes an opportunity attack from orc 1 (Walk).");
    HAS(t, "orc 1 makes an opportunity attack on Tony.");
    HAS(t, "orc 2 declines its opportunity attack on Tony.");
    HAS(t, "Tony moves from 1,1 to 3,2 (2 squares).");
    HAS(t, "Ana saves against dazed: d20 12 vs 10: saved.");
    HAS(t, "orc 1 is prone.");
    HAS(t, "Tony has total defense until the start of its next turn.");
    HAS(t, "orc 2 is dazed (save ends).");
    HAS(t, "orc 1 is no longer prone.");
    HAS(t, "orc 2 takes ongoing damage 5 (save ends).");
    HAS(t, "orc 1 falls dying at -2 hit points.");
    HAS(t, "orc 2 is dead (-8 hit points).");
    HAS(t, "The fight is over. Winner: heroes.");
    /* Every kind of fact has words of its own. */
    for (int k = 0; k < FA_FACT_KINDS; k++) {
        fa_fact f;
        memset(&f, 0, sizeof f);
        f.kind = (uint8_t)k;
        f.who = FX_TONY;
        f.target = FX_ORC1;
        size_t n = fa_narrate_fact(S, &f, BUF, sizeof BUF);
        cr_assert_gt(n, 0);
        cr_assert_null(strstr(BUF, "a fact of kind"), "fact %d", k);
    }
}

/* 004:211 a fall: dying, and the conditions that come with it, told once. */
Test(alloy_render, a_fall_told_once_004_211) {
    ev_cmd(FA_CMD_ATTACK, FX_TONY);
    EV->round = 2;
    fact(FA_FACT_DAMAGE, FX_TONY, FX_ORC1, 17, -2, 17, 0, 0, 0);
    fact(FA_FACT_DYING, -1, FX_ORC1, -2, 0, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC1, -1, FA_C_DYING, FA_ENDS_EVENT, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC1, -1, FA_C_UNCONSCIOUS, FA_ENDS_EVENT, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC1, -1, FA_C_HELPLESS, FA_ENDS_EVENT, 0, 0, 0, 0);
    fact(FA_FACT_COND_ON, FX_ORC1, -1, FA_C_PRONE, FA_ENDS_EVENT, 0, 0, 0, 0);
    const char *t = narrate();
    HAS(t, "  orc 1 falls dying at -2 hit points.\n  orc 1 is unconscious, "
           "helpless and prone.\n");
    cr_assert_null(strstr(t, "is dying"), "%s", t);
    ev_cmd(FA_CMD_NEXT, -1);
    EV->round = 3;
    fact(FA_FACT_TURN, FX_ANA, -1, 0, 0, 0, 0, 0, 0);
    HAS(narrate(), "Round 3 - Next turn.\n  Ana's turn.\n");
}

Test(alloy_render, surprise_round_and_given_dice) {
    ev_cmd(FA_CMD_ATTACK, FX_TONY);
    EV->round = 0;
    EV->dice_given = true;
    EV->cmd.n_targets = 1;
    EV->cmd.targets[0] = FX_ORC2;
    const char *t = narrate();
    HAS(t, "Surprise round - Tony: Attack on orc 2 (dice rolled at the table).");
}

Test(alloy_render, aid_and_ready_commands) {
    ev_cmd(FA_CMD_AID, FX_ANA);
    EV->round = 1;
    EV->cmd.option = FA_AID_DEFENSE;
    EV->cmd.n_targets = 2;
    EV->cmd.targets[0] = FX_ORC1;
    EV->cmd.targets[1] = FX_TONY;
    HAS(narrate(), "Ana: Aid Another for Tony (defenses) against orc 1.");
    ev_cmd(FA_CMD_READY, FX_ANA);
    EV->round = 1;
    EV->cmd.ready.kind = FA_CMD_TRIP;
    EV->cmd.ready.who = FX_ORC2;
    EV->cmd.ready.trigger = FA_TRIG_MOVES_ADJACENT;
    HAS(narrate(), "Ana: Ready an Action: Trip when orc 2 moves adjacent.");
}

/* snprintf-style: the length needed, whatever the room. */
Test(alloy_render, snprintf_style) {
    ev_cmd(FA_CMD_ATTACK, FX_TONY);
    EV->round = 2;
    fact(FA_FACT_ATTACK, FX_TONY, FX_ORC1, 14, 6, 20, FA_DEF_DEFENSE, 16, FA_HIT);
    size_t full = fa_narrate(S, EV, NULL, 0);
    char small[10];
    size_t n = fa_narrate(S, EV, small, sizeof small);
    cr_assert_eq(n, full);
    cr_assert_eq(strlen(small), sizeof small - 1);
    cr_assert_eq(fa_draw_order(S, ST, NULL, 0), fa_draw_order(S, ST, BUF, sizeof BUF));
    cr_assert_eq(fa_draw_map(S, ST, NULL, 0), fa_draw_map(S, ST, BUF, sizeof BUF));
    cr_assert_eq(fa_summary(S, ST, NULL, 0), fa_summary(S, ST, BUF, sizeof BUF));
}

/* 004:235, 565-579, 643-656: the order of the round, the current turn
 * marked, delaying and readied combatants, hit points. */
Test(alloy_render, initiative_order_004_235) {
    ST->c[FX_ANA].has |= 1u << FA_C_DELAYING;
    ST->c[FX_ORC2].has |= 1u << FA_C_READY;
    ST->c[FX_ORC2].ready.kind = FA_CMD_ATTACK;
    ST->c[FX_ORC2].ready.who = FX_TONY;
    ST->c[FX_ORC2].ready.trigger = FA_TRIG_ENTERS_REACH;
    ST->c[FX_ORC1].hp = 4;
    fa_draw_order(S, ST, BUF, sizeof BUF);
    HAS(BUF, "Round 2\n");
    HAS(BUF, ">  17  Tony   24/24 hp\n");
    HAS(BUF, "   12  orc 1  4/15 hp\n");
    HAS(BUF, "    9  Ana    28/28 hp, delaying\n");
    HAS(BUF, "    5  orc 2  15/15 hp, readied (Attack when Tony enters reach)\n");
    /* The order as the state has it: Tony, orc 1, Ana, orc 2. */
    cr_assert_lt(strstr(BUF, "Tony"), strstr(BUF, "orc 1"));
    cr_assert_lt(strstr(BUF, "orc 1"), strstr(BUF, "Ana"));
    cr_assert_lt(strstr(BUF, "Ana"), strstr(BUF, "orc 2"));
}

Test(alloy_render, map_with_symbols_and_legend) {
    ST->c[FX_ORC2].has |= 1u << FA_C_DEAD;
    ST->c[FX_ORC2].flags |= FA_F_OUT;
    ST->c[FX_ORC1].has |= 1u << FA_C_PRONE;
    fa_draw_map(S, ST, BUF, sizeof BUF);
    /* Row 1: Tony (A) at 1,1 and Ana (B) at 2,1. */
    char *row1 = strstr(BUF, "\n1 ");
    cr_assert_not_null(row1, "%s", BUF);
    cr_assert_eq(row1[3 + 1], 'A', "%s", BUF);
    cr_assert_eq(row1[3 + 2], 'B', "%s", BUF);
    char *row6 = strstr(BUF, "\n6 ");
    cr_assert_not_null(row6);
    cr_assert_eq(row6[3 + 8], 'c', "%s", BUF);   /* orc 1: the other side, lower case */
    char *row7 = strstr(BUF, "\n7 ");
    cr_assert_eq(row7[3 + 9], '%', "%s", BUF);   /* orc 2 dead */
    HAS(BUF, "  A  Tony   heroes, at 1,1, 24/24 hp\n");
    HAS(BUF, "  c  orc 1  orcs, at 8,6, 15/15 hp, prone\n");
    HAS(BUF, "  d  orc 2  orcs, at 9,7, 15/15 hp, dead\n");
}

Test(alloy_render, summary_tells_winner_and_who_stands) {
    ST->over = true;
    ST->winner = 0;
    ST->round = 3;
    ST->c[FX_ORC1].hp = -2;
    ST->c[FX_ORC1].has |= 1u << FA_C_DYING;
    ST->c[FX_ORC1].flags |= FA_F_OUT;
    ST->c[FX_ORC2].has |= 1u << FA_C_DEAD;
    ST->c[FX_ORC2].flags |= FA_F_OUT;
    ST->c[FX_TONY].hp = 20;
    fa_summary(S, ST, BUF, sizeof BUF);
    HAS(BUF, "Winner: heroes, after 3 rounds.\n");
    HAS(BUF, "  Tony   heroes: 20/24 hit points\n");
    HAS(BUF, "  orc 1  orcs: dying, -2/15 hit points\n");
    HAS(BUF, "  orc 2  orcs: dead\n");
    ST->winner = -1;
    fa_summary(S, ST, BUF, sizeof BUF);
    HAS(BUF, "No winner");
}

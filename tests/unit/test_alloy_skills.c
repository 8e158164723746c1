/*
 * test_alloy_skills.c - skills.c: Feint (004:307), Use a Skill (004:313,
 * 325, 753-759), Aid Another on a check (004:429-430), death saves
 * (option dying: death-saves, L7.8), joining a battle under way (004:241),
 * Dominated's dominator choosing (004:946-949). Each test names the seed
 * lines or the ruling it checks (docs/rules/alloy.md; rulings-alloy-skills).
 *
 * The engine is the real one (attack.c, damage.c): no stand-ins.
 */
#include "alloy_fixture.h"

enum { TONY, ANA, ORC, ORC2 };

/* Tony (Bluff +5, Notice +3, Athletics +4) and Ana on side 0, an orc (Will
 * 15, Notice +3) adjacent to Tony on side 1; swords for all; Tony acts
 * first (initiative 20, 15, 10). With `second_orc` another orc stands
 * adjacent to Tony too (initiative 5). */
static fixture *arena(bool second_orc) {
    fixture *f = af_new(12, 12);
    int sword = af_weapon(f, "sword", FA_WK_MELEE, 8, 1, 0);
    int hero = af_block(f, "hero", 6, 0, 20);
    int orc = af_block(f, "orc", 6, 0, 20);
    af_give(f, hero, sword, -1);
    af_give(f, orc, sword, -1);
    f->s.sb[hero].skill[FA_SKILL_BLUFF] = 5;
    f->s.sb[hero].skill[FA_SKILL_NOTICE] = 3;
    f->s.sb[hero].skill[FA_SKILL_ATHLETICS] = 4;
    f->s.sb[orc].skill[FA_SKILL_NOTICE] = 3;
    f->s.opt.skill_provokes = true;       /* fa_options_default's */
    af_add(f, "Tony", hero, 0, 2, 2);
    af_add(f, "Ana", hero, 0, 2, 3);
    af_add(f, "orc", orc, 1, 3, 2);
    if (second_orc)
        af_add(f, "orc2", orc, 1, 1, 2);
    for (int i = 0; i < f->s.n; i++)
        f->s.c[i].wield = 0;
    af_start(f);
    if (second_orc)
        cr_assert_eq(af_begin(f, (int[]){20, 15, 10, 5}, 4), FRAY_OK);
    else
        cr_assert_eq(af_begin(f, (int[]){20, 15, 10}, 3), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, TONY);
    return f;
}

/* The table's words -> a command (parse.c). */
static fa_command words(fixture *f, const char *text) {
    fa_command c;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fa_parse(&f->s, &f->st, text, &c, &d), FRAY_OK, "%s: %s", text,
                 d.message);
    return c;
}

static fray_status say(fixture *f, const char *text, const int *dice, int n) {
    fa_command c = words(f, text);
    fray_status rc = af_do_dice(f, &c, dice, n);
    f->ev.cmd = c;      /* for the narration */
    f->ev.round = f->st.round;
    return rc;
}

/* Every modifier of who's melee basic attack on target now. */
static fa_mods mods_of(fixture *f, int who, int target) {
    fa_attack_line line = fa_attack_line_of(&f->s, &f->st, who, -1, -1, true);
    fa_mods m;
    fa_attack_mods(&f->s, &f->st, who, target, &line, false, f->st.c[who].fp.at, &m);
    return m;
}

static bool has_mod(const fa_mods *m, int reason) {
    for (int i = 0; i < m->n; i++)
        if (m->m[i].reason == reason)
            return true;
    return false;
}

/* ---- Feint (004:307) ---------------------------------------------------------- */

/* 004:307 Feint, ruling feint-against: will: Bluff (d20 + 5) against Will
 * 15; a success gives battle superiority (+2) on the next attack on that
 * target, used up by it. */
Test(alloy_skills, feint_bluff_vs_will_gives_battle_superiority_004_307) {
    fixture *f = arena(false);
    cr_assert_not(has_mod((fa_mods[]){mods_of(f, TONY, ORC)}, FA_MOD_BATTLE_SUPERIORITY));
    cr_assert_eq(say(f, "tony feint orc", (int[]){10}, 1), FRAY_OK, "%s", f->why);
    const fa_fact *k = af_fact(f, FA_FACT_SKILL, TONY);
    cr_assert_not_null(k);
    cr_assert_eq(k->target, ORC);
    cr_assert_eq(k->v[0], 10);
    cr_assert_eq(k->v[1], 5);
    cr_assert_eq(k->v[2], 15);
    cr_assert_eq(k->v[3], 15, "the orc's Will");
    cr_assert_eq(k->v[4], 1);
    cr_assert_eq(k->v[5], FA_SKILL_BLUFF);
    cr_assert_not_null(fa_cond_find(&f->st.c[TONY], FA_C_FEINTED, ORC));
    fa_mods m = mods_of(f, TONY, ORC);
    cr_assert(has_mod(&m, FA_MOD_BATTLE_SUPERIORITY));
    /* Its standard action is spent: the attack comes next turn. */
    cr_assert_not(f->st.c[TONY].slots & FA_SLOT_STANDARD);
    fa_command end = af_cmd(FA_CMD_END_TURN, TONY);
    cr_assert_eq(af_do(f, &end), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    if (f->st.cur >= 0 && f->st.cur != TONY) {
        fa_command e = af_cmd(FA_CMD_END_TURN, f->st.cur);
        cr_assert_eq(af_do(f, &e), FRAY_OK);
    }
    for (int i = 0; i < 3 && f->st.cur != TONY; i++) {
        cr_assert_eq(af_next(f), FRAY_OK);
        if (f->st.cur >= 0 && f->st.cur != TONY) {
            fa_command e = af_cmd(FA_CMD_END_TURN, f->st.cur);
            cr_assert_eq(af_do(f, &e), FRAY_OK);
        }
    }
    cr_assert_eq(f->st.cur, TONY);
    cr_assert_not_null(fa_cond_find(&f->st.c[TONY], FA_C_FEINTED, ORC),
                       "it lasts to the end of Tony's next turn");
    /* The attack: battle superiority told, then the feint is used up. */
    cr_assert_eq(say(f, "tony attack orc", (int[]){2, 3}, 2), FRAY_OK, "%s", f->why);
    bool told = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        told |= f->ev.facts[i].kind == FA_FACT_MODIFIER &&
                f->ev.facts[i].v[0] == FA_MOD_BATTLE_SUPERIORITY;
    cr_assert(told, "the attack has battle superiority from the feint");
    cr_assert_null(fa_cond_find(&f->st.c[TONY], FA_C_FEINTED, ORC));
    free(f);
}

/* 004:307: a failed Bluff check gives nothing. */
Test(alloy_skills, feint_failed_gives_nothing_004_307) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "tony feint orc", (int[]){9}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[4], 0);
    cr_assert_null(fa_cond_find(&f->st.c[TONY], FA_C_FEINTED, -1));
    free(f);
}

/* Ruling feint-against: notice: 10 + the target's Notice (13) instead of
 * its Will (15): 8 + 5 = 13 succeeds here and fails with will. */
Test(alloy_skills, feint_against_notice_option) {
    fixture *f = arena(false);
    f->s.opt.feint_against = FA_FEINT_NOTICE;
    cr_assert_eq(say(f, "tony feint orc", (int[]){8}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[3], 13);
    cr_assert_not_null(fa_cond_find(&f->st.c[TONY], FA_C_FEINTED, ORC));
    free(f);
    f = arena(false);
    f->s.opt.feint_against = FA_FEINT_WILL;
    cr_assert_eq(say(f, "tony feint orc", (int[]){8}, 1), FRAY_OK, "%s", f->why);
    cr_assert_null(fa_cond_find(&f->st.c[TONY], FA_C_FEINTED, ORC));
    free(f);
}

/* The action table: Feint provokes no opportunity attack (004:307), is a
 * standard action; only against an enemy within reach (ruling). */
Test(alloy_skills, feint_no_opportunity_attack_standard_in_reach_004_307) {
    fixture *f = arena(true);
    cr_assert(fa_threatens(&f->s, &f->st, ORC2, TONY));
    cr_assert_eq(say(f, "tony feint orc", (int[]){10}, 1), FRAY_OK, "%s", f->why);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1));
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, TONY)->v[1], FA_ACT_STANDARD);
    /* A second feint: the standard action is gone. */
    cr_assert_eq(say(f, "tony feint orc2", (int[]){10}, 1), FRAY_ERR_INVALID);
    free(f);
    f = arena(false);
    cr_assert_eq(say(f, "tony feint ana", (int[]){10}, 1), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "ally"), "%s", f->why);
    f->st.c[ORC].fp.at.x = 6;
    cr_assert_eq(say(f, "tony feint orc", (int[]){10}, 1), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "reach"), "%s", f->why);
    free(f);
}

/* ---- Use a Skill (004:313, 325) ------------------------------------------------- */

/* 004:313, 753-759: Use a Skill: a standard action (or a move action,
 * 004:325): d20 + the skill, its total told. */
Test(alloy_skills, use_a_skill_standard_or_move_004_313_325) {
    fixture *f = arena(false);
    f->st.c[ORC].fp.at.x = 8;              /* nobody threatens Tony */
    cr_assert_eq(say(f, "tony skill athletics", (int[]){12}, 1), FRAY_OK, "%s", f->why);
    const fa_fact *k = af_fact(f, FA_FACT_SKILL, TONY);
    cr_assert_not_null(k);
    cr_assert_eq(k->v[2], 16);
    cr_assert_eq(k->v[5], FA_SKILL_ATHLETICS);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, TONY)->v[1], FA_ACT_STANDARD);
    cr_assert_eq(say(f, "tony skill notice move", (int[]){3}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, TONY)->v[1], FA_ACT_MOVE);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[2], 6);
    cr_assert_eq(say(f, "tony skill bluff move", (int[]){3}, 1), FRAY_ERR_INVALID,
                 "no move action left");
    free(f);
}

/* 004:313, 325 "Yes": Use a Skill provokes from a threatening enemy
 * (ruling skill-provokes, default true); with false it does not. */
Test(alloy_skills, use_a_skill_provokes_option_004_313_325) {
    fixture *f = arena(false);
    f->hooks.opportunity = NULL;
    cr_assert_eq(say(f, "tony skill notice", (int[]){11, 1, 10}, 3), FRAY_OK, "%s", f->why);
    const fa_fact *p = af_fact(f, FA_FACT_PROVOKE, TONY);
    cr_assert_not_null(p);
    cr_assert_eq(p->target, ORC);
    cr_assert_eq(p->v[0], FA_CMD_SKILL);
    cr_assert_not_null(af_fact(f, FA_FACT_SKILL, TONY), "the check after the attack");
    free(f);
    f = arena(false);
    f->s.opt.skill_provokes = false;
    cr_assert_eq(say(f, "tony skill notice", (int[]){11}, 1), FRAY_OK, "%s", f->why);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, TONY));
    free(f);
}

/* ---- Aid Another on a check (004:429-430) ------------------------------------------ */

/* 004:429: a DC 10 check aids an adjacent ally's next check of the same
 * skill by +2; the aid is used by that check. */
Test(alloy_skills, aid_another_check_plus_2_next_check_004_429) {
    fixture *f = arena(false);
    fa_command end = af_cmd(FA_CMD_END_TURN, TONY);
    cr_assert_eq(af_do(f, &end), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, ANA);
    cr_assert_eq(say(f, "ana aid tony athletics", (int[]){6}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, ANA)->v[4], 1, "6 + 4 = 10: DC 10 made");
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, ANA)->v[3], 10);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1), "Aid Another: No");
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[TONY], FA_SKILL_ATHLETICS), 2);
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[TONY], FA_SKILL_NOTICE), 0, "the same skill only");
    /* Tony's next turn: his Athletics check has +2, once. */
    af_do(f, &(fa_command){.kind = FA_CMD_END_TURN, .actor = ANA, .slot = FA_ACT_NONE});
    for (int i = 0; i < 3 && f->st.cur != TONY; i++) {
        cr_assert_eq(af_next(f), FRAY_OK);
        if (f->st.cur >= 0 && f->st.cur != TONY) {
            fa_command e = af_cmd(FA_CMD_END_TURN, f->st.cur);
            cr_assert_eq(af_do(f, &e), FRAY_OK);
        }
    }
    cr_assert_eq(f->st.cur, TONY);
    f->st.c[ORC].fp.at.x = 8;
    cr_assert_eq(say(f, "tony skill athletics", (int[]){10}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[1], 6, "4 + 2");
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[TONY], FA_SKILL_ATHLETICS), 0);
    free(f);
}

/* 004:429: a check under 10 aids nothing; the ally must be adjacent. */
Test(alloy_skills, aid_another_check_failed_or_not_adjacent_004_429) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "tony aid ana notice", (int[]){6}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[4], 0, "6 + 3 = 9 < 10");
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[ANA], FA_SKILL_NOTICE), 0);
    free(f);
    f = arena(false);
    f->st.c[ANA].fp.at.y = 6;
    cr_assert_eq(say(f, "tony aid ana notice", (int[]){15}, 1), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "adjacent"), "%s", f->why);
    cr_assert_eq(say(f, "tony aid orc notice", (int[]){15}, 1), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "ally"), "%s", f->why);
    free(f);
}

/* 004:429 "ends if not used by the end of the ally's next turn": Ana
 * aided by Tony before her turn this round loses it at its end. */
Test(alloy_skills, aid_another_check_ends_after_the_allys_next_turn_004_429) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "tony aid ana athletics", (int[]){10}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[ANA], FA_SKILL_ATHLETICS), 2);
    fa_command end = af_cmd(FA_CMD_END_TURN, TONY);
    cr_assert_eq(af_do(f, &end), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, ANA);
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[ANA], FA_SKILL_ATHLETICS), 2, "during her turn");
    end = af_cmd(FA_CMD_END_TURN, ANA);
    cr_assert_eq(af_do(f, &end), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[ANA], FA_SKILL_ATHLETICS), 0, "gone after it");
    free(f);
}

/* 004:429 with 004:599: the aid counts in the escape check of the same
 * skill (the engine's only check against another). */
Test(alloy_skills, aid_another_on_escape_check_004_429_599) {
    fixture *f = arena(false);
    fa_cond g = {.kind = FA_C_GRAPPLED, .ends = FA_ENDS_EVENT, .whose = -1,
                 .other = ORC, .source = ORC};
    cr_assert_eq(fa_cond_add(&f->r, ANA, g), FRAY_OK);
    f->st.c[ORC].grappling = ANA;
    f->st.c[ANA].fp.at = (fray_pos){3, 3};    /* adjacent to the orc and Tony */
    cr_assert_eq(say(f, "tony aid ana athletics", (int[]){10}, 1), FRAY_OK, "%s", f->why);
    fa_command end = af_cmd(FA_CMD_END_TURN, TONY);
    cr_assert_eq(af_do(f, &end), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, ANA);
    /* Athletics 4 + 2 vs Fortitude 15: 9 + 6 = 15 escapes. */
    cr_assert_eq(say(f, "ana escape athletics", (int[]){9}, 1), FRAY_OK, "%s", f->why);
    const fa_fact *c = af_fact(f, FA_FACT_CHECK, ANA);
    cr_assert_not_null(c);
    cr_assert_eq(c->v[1], 6);
    cr_assert_eq(c->v[4], 1);
    cr_assert_not(fa_has(&f->st.c[ANA], FA_C_GRAPPLED));
    cr_assert_eq(fa_skill_aid_peek(&f->st.c[ANA], FA_SKILL_ATHLETICS), 0);
    free(f);
}

/* ---- Death saves (option dying: death-saves, L7.8) -------------------------------- */

/* Tony falls dying on his own turn; his turn ends and the next turns pass
 * until his, which passes with its death save at its end. */
static fixture *dying_tony(int dying_option) {
    fixture *f = arena(false);
    f->s.opt.dying = (uint8_t)dying_option;
    cr_assert_eq(fa_damage(&f->r, ORC, TONY, 21), FRAY_OK);
    cr_assert(fa_has(&f->st.c[TONY], FA_C_DYING));
    fa_command end = af_cmd(FA_CMD_END_TURN, TONY);
    cr_assert_eq(af_do(f, &end), FRAY_ERR_INVALID, "the dying cannot act");
    return f;
}

/* The engine steps past Ana's and the orc's turns (ending them), then
 * Tony's turn passes with `die` given for his death save. */
static void to_tonys_turn_end(fixture *f, int die) {
    for (int i = 0; i < 4; i++) {
        if (f->st.cur == ANA || f->st.cur == ORC) {
            fa_command e = af_cmd(FA_CMD_END_TURN, f->st.cur);
            cr_assert_eq(af_do(f, &e), FRAY_OK);
        }
        /* The next step: Tony's turn (start and end) when his comes. */
        int next_pos = f->st.cur_pos + 1 >= f->st.n_order ? 0 : f->st.cur_pos + 1;
        if (f->st.order[next_pos] == TONY) {
            cr_assert_eq(af_next_dice(f, (int[]){die}, 1), FRAY_OK);
            return;
        }
        cr_assert_eq(af_next(f), FRAY_OK);
    }
    cr_assert_fail("Tony's turn never came");
}

/* L7.8 ruling: under the save target a failure; the third failure kills;
 * at or over it a success (the failures stay). */
Test(alloy_skills, death_saves_three_failures_dead_L7_8) {
    fixture *f = dying_tony(FA_DYING_DEATH_SAVES);
    to_tonys_turn_end(f, 9);
    const fa_fact *d = af_fact(f, FA_FACT_DEATH_SAVE, TONY);
    cr_assert_not_null(d);
    cr_assert_eq(d->v[0], 9);
    cr_assert_eq(d->v[1], 10);
    cr_assert_eq(d->v[2], 0);
    cr_assert_eq(d->v[3], 1);
    to_tonys_turn_end(f, 10);
    d = af_fact(f, FA_FACT_DEATH_SAVE, TONY);
    cr_assert_eq(d->v[2], 1, "10 saves");
    cr_assert_eq(f->st.c[TONY].death_fails, 1);
    to_tonys_turn_end(f, 1);
    cr_assert_not(fa_has(&f->st.c[TONY], FA_C_DEAD));
    to_tonys_turn_end(f, 2);
    cr_assert(fa_has(&f->st.c[TONY], FA_C_DEAD), "the third failure");
    cr_assert_not_null(af_fact(f, FA_FACT_DEAD, -1));
    cr_assert_eq(f->st.c[TONY].hp, -1, "death by saves leaves the hit points");
    free(f);
}

/* L7.8 ruling: a 20 spends a heroic surge: the surge's hit points from 0,
 * and Tony wakes (still prone) and acts on his next turn. */
Test(alloy_skills, death_save_20_wakes_with_a_surge_L7_8) {
    fixture *f = dying_tony(FA_DYING_DEATH_SAVES);
    to_tonys_turn_end(f, 9);
    int surges = f->st.c[TONY].surges;
    to_tonys_turn_end(f, 20);
    const fa_fact *d = af_fact(f, FA_FACT_DEATH_SAVE, TONY);
    cr_assert_eq(d->v[2], 2);
    cr_assert_eq(f->st.c[TONY].hp, 5, "the surge value, 20 / 4");
    cr_assert_eq(f->st.c[TONY].surges, surges - 1);
    cr_assert_eq(f->st.c[TONY].death_fails, 0);
    cr_assert_not(fa_has(&f->st.c[TONY], FA_C_DYING));
    cr_assert_not(fa_has(&f->st.c[TONY], FA_C_UNCONSCIOUS));
    cr_assert_not(fa_has(&f->st.c[TONY], FA_C_HELPLESS));
    cr_assert(fa_has(&f->st.c[TONY], FA_C_PRONE));
    cr_assert(fa_can_act(&f->st, TONY));
    free(f);
}

/* L7.8 ruling: with no heroic surge left a 20 is only a success. */
Test(alloy_skills, death_save_20_without_surges_is_a_success_L7_8) {
    fixture *f = dying_tony(FA_DYING_DEATH_SAVES);
    f->st.c[TONY].surges = 0;
    to_tonys_turn_end(f, 20);
    cr_assert_eq(af_fact(f, FA_FACT_DEATH_SAVE, TONY)->v[2], 1);
    cr_assert(fa_has(&f->st.c[TONY], FA_C_DYING));
    free(f);
}

/* L7.8 default dying: stable: no death save is rolled (the turn takes no
 * die). */
Test(alloy_skills, dying_stable_rolls_no_death_save_L7_8) {
    fixture *f = dying_tony(FA_DYING_STABLE);
    for (int round = 0; round < 4; round++)
        to_tonys_turn_end(f, 1);
    cr_assert_null(af_fact(f, FA_FACT_DEATH_SAVE, TONY));
    cr_assert_eq(f->ev.n_dice, 0);
    cr_assert(fa_has(&f->st.c[TONY], FA_C_DYING));
    cr_assert_not(fa_has(&f->st.c[TONY], FA_C_DEAD));
    free(f);
}

/* ---- The table's words and the narration ---------------------------------------- */

Test(alloy_skills, table_words_feint_skill_aid_check) {
    fixture *f = arena(false);
    fa_command c = words(f, "tony skill notice move");
    cr_assert_eq(c.kind, FA_CMD_SKILL);
    cr_assert_eq(c.option, FA_SKILL_NOTICE | FA_SKILL_AS_MOVE);
    c = words(f, "tony skill Bluff");
    cr_assert_eq(c.option, FA_SKILL_BLUFF);
    c = words(f, "ana aid tony acrobatics");
    cr_assert_eq(c.kind, FA_CMD_AID);
    cr_assert_eq(c.option, FA_AID_CHECK + FA_SKILL_ACROBATICS);
    cr_assert_eq(c.n_targets, 1);
    cr_assert_eq(c.targets[0], TONY);
    c = words(f, "tony feint orc");
    cr_assert_eq(c.kind, FA_CMD_FEINT);
    cr_assert_eq(c.targets[0], ORC);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fa_parse(&f->s, &f->st, "tony skill cooking", &c, &d), FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "expected a skill"), "%s", d.message);
    cr_assert(strstr(d.message, "'cooking'"), "%s", d.message);
    cr_assert_eq(fa_parse(&f->s, &f->st, "ana aid tony juggling", &c, &d), FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "or a skill"), "%s", d.message);
    cr_assert_eq(fa_parse(&f->s, &f->st, "tony feint", &c, &d), FRAY_ERR_PARSE);
    free(f);
}

Test(alloy_skills, narration_in_rules_words_004_307_313) {
    fixture *f = arena(false);
    char buf[2048];
    cr_assert_eq(say(f, "tony feint orc", (int[]){10}, 1), FRAY_OK, "%s", f->why);
    fa_narrate(&f->s, &f->ev, buf, sizeof buf);
    cr_assert(strstr(buf, "Tony: Feint on orc"), "%s", buf);
    cr_assert(strstr(buf, "Tony makes a Bluff check: d20 10 + 5 = 15 vs 15: success."), "%s", buf);
    cr_assert(strstr(buf, "battle superiority"), "%s", buf);
    f->s.opt.skill_provokes = false;
    cr_assert_eq(say(f, "tony skill athletics move", (int[]){7}, 1), FRAY_OK, "%s", f->why);
    fa_narrate(&f->s, &f->ev, buf, sizeof buf);
    cr_assert(strstr(buf, "Tony: Use a Skill: Athletics"), "%s", buf);
    cr_assert(strstr(buf, "Tony makes an Athletics check: d20 7 + 4 = 11."), "%s", buf);
    free(f);
}

/* ---- Joining a battle under way (004:241) ------------------------------------------ */

/* Tony and an orc from the start; orc2 joins at the start of round 2 at
 * (6, 6) (the setup holds it last, as load.c orders joiners). */
static fixture *joining(void) {
    fixture *f = af_new(12, 12);
    int sword = af_weapon(f, "sword", FA_WK_MELEE, 8, 1, 0);
    int hero = af_block(f, "hero", 6, 0, 20);
    int orc = af_block(f, "orc", 6, 3, 20);
    af_give(f, hero, sword, -1);
    af_give(f, orc, sword, -1);
    af_add(f, "Tony", hero, 0, 2, 2);
    af_add(f, "orc", orc, 1, 3, 2);
    int late = af_add(f, "orc2", orc, 1, 6, 6);
    f->s.c[late].joins = 2;
    af_start(f);
    cr_assert_eq(f->st.n, 2, "orc2 is not in the battle yet");
    cr_assert(f->st.c[late].absent);
    cr_assert_eq(af_begin(f, (int[]){10, 12}, 2), FRAY_OK);
    cr_assert_eq(f->st.n_order, 2);
    return f;
}

/* The engine steps to the end of round 1 (every turn ended). */
static void end_round_one(fixture *f) {
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(af_next(f), FRAY_OK);
        cr_assert_eq(f->st.round, 1);
        if (f->st.cur >= 0) {
            fa_command e = af_cmd(FA_CMD_END_TURN, f->st.cur);
            cr_assert_eq(af_do(f, &e), FRAY_OK);
        }
        if (f->st.cur == f->st.order[f->st.n_order - 1])
            return;
    }
}

/* 004:241: "roll initiative at that time and act whenever their turn
 * comes up in the existing order": at the start of round 2 orc2 rolls (a
 * die given by hand) and takes its place: 11 + 3 = 14, between the orc
 * (15) and Tony (10). */
Test(alloy_skills, joining_rolls_initiative_at_the_start_of_its_round_004_241) {
    fixture *f = joining();
    fa_command early = af_cmd(FA_CMD_END_TURN, 2);
    cr_assert_eq(fa_check(&f->s, &f->st, &early, f->why, sizeof f->why), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "has not joined the battle yet (it joins at the start of round 2)"),
              "%s", f->why);
    end_round_one(f);
    cr_assert_eq(af_next_dice(f, (int[]){11}, 1), FRAY_OK);
    cr_assert_eq(f->st.round, 2);
    const fa_fact *j = af_fact(f, FA_FACT_JOIN, 2);
    cr_assert_not_null(j);
    cr_assert_eq(j->v[0], 11);
    cr_assert_eq(j->v[1], 3);
    cr_assert_eq(j->v[2], 14);
    cr_assert_eq(j->v[3], 1, "second place");
    cr_assert_eq(f->st.n, 3);
    cr_assert_not(f->st.c[2].absent);
    cr_assert_eq(f->st.n_order, 3);
    cr_assert_eq(f->st.order[0], 1);
    cr_assert_eq(f->st.order[1], 2);
    cr_assert_eq(f->st.order[2], 0);
    cr_assert_eq(f->st.cur, 1, "round 2 starts with the first in the order");
    fa_command e = af_cmd(FA_CMD_END_TURN, 1);
    cr_assert_eq(af_do(f, &e), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, 2, "its turn comes up in the order");
    free(f);
}

/* Ruling: a joiner tied with one already there goes after it; its square
 * taken: the nearest free one. */
Test(alloy_skills, joining_ties_go_after_and_a_taken_square_moves_it_004_241) {
    fixture *f = joining();
    f->st.c[0].fp.at = (fray_pos){6, 6};       /* Tony stands on orc2's square */
    end_round_one(f);
    cr_assert_eq(af_next_dice(f, (int[]){12}, 1), FRAY_OK);   /* 15: the orc's */
    cr_assert_eq(f->st.order[0], 1);
    cr_assert_eq(f->st.order[1], 2, "after the orc of the same initiative");
    fray_pos at = f->st.c[2].fp.at;
    cr_assert(!(at.x == 6 && at.y == 6));
    cr_assert(abs(at.x - 6) <= 1 && abs(at.y - 6) <= 1, "next to it: %d,%d", at.x, at.y);
    free(f);
}

/* Ruling: the battle is not over while someone is still to join: the
 * orc falls in round 1, and the fight goes on to orc2's arrival. */
Test(alloy_skills, battle_not_over_before_a_joiner_comes_004_241) {
    fixture *f = joining();
    cr_assert_eq(fa_damage(&f->r, 0, 1, 25), FRAY_OK);
    cr_assert(f->st.c[1].flags & FA_F_OUT);
    cr_assert_not(fa_check_over(&f->r));
    cr_assert_not(f->st.over);
    f->s.round_limit = 1;                     /* unless it comes after the limit */
    cr_assert(fa_check_over(&f->r));
    cr_assert_eq(f->st.winner, 0);
    free(f);
}

/* load.c: joins: N from the file (examples/alloy/reinforcements.yaml):
 * the joiners last, in the order of their rounds. */
Test(alloy_skills, joins_read_from_the_file_004_241) {
    fa_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    char path[512];
    snprintf(path, sizeof path, "%s/examples/alloy/reinforcements.yaml", FRAY_SOURCE_DIR);
    cr_assert_eq(fa_load(path, NULL, &s, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(s->n, 6);
    cr_assert_eq(s->c[3].joins, 0);
    cr_assert_str_eq(s->c[4].id, "boss");
    cr_assert_eq(s->c[4].joins, 3);
    cr_assert_eq(s->c[5].joins, 3);
    fa_setup_free(s);
}

/* load.c: joins: 1 is refused (round 1 is the start), and so is a battle
 * nobody is in at its start; each at its file:line:column. */
Test(alloy_skills, joins_refused_where_said_004_241) {
    static const struct {
        const char *file;
        fray_status st;
        int line, col;
        const char *words;
    } bad[] = {
        {"bad_joins.yaml", FRAY_ERR_RANGE, 15, 47, "must be between 2 and 1000, got 1"},
        {"bad_joins_all.yaml", FRAY_ERR_PARSE, 14, 3,
         "someone must be in the battle at its start"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/data/alloy/%s", FRAY_SOURCE_DIR, bad[i].file);
        fa_setup *s = NULL;
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(fa_load(path, NULL, &s, &d), bad[i].st, "%s: %s", bad[i].file, d.message);
        cr_assert_null(s);
        cr_expect_eq(d.line, bad[i].line, "%s", bad[i].file);
        cr_expect_eq(d.column, bad[i].col, "%s", bad[i].file);
        cr_expect(strstr(d.message, bad[i].words) != NULL, "%s: %s", bad[i].file, d.message);
    }
}

/* ---- Dominated (004:946-949) -------------------------------------------------------- */

/* Tony dominated by the orc (save ends), with an encounter power. */
static fixture *dominated_tony(void) {
    fixture *f = arena(false);
    fa_statblock *b = &f->s.sb[f->s.c[TONY].sb];
    fa_power *pw = &b->powers[b->n_powers++];
    snprintf(pw->id, FA_ID_MAX, "haymaker");
    snprintf(pw->name, FA_NAME_MAX, "Haymaker");
    pw->action = FA_ACT_STANDARD;
    pw->usage = FA_ENCOUNTER;
    pw->ability = FA_STR;
    pw->defense = FA_DEF_DEFENSE;
    pw->weapon = 0;
    pw->mult = 3;
    fa_cond d = {.kind = FA_C_DOMINATED, .ends = FA_ENDS_SAVE, .whose = -1,
                 .other = -1, .source = ORC};
    cr_assert_eq(fa_cond_add(&f->r, TONY, d), FRAY_OK);
    return f;
}

/* 004:949 "The dominating character chooses your actions": the tactics
 * of the orc's side pick Tony's one action: an attack on Ana, his own
 * ally, with an at-will attack (never the encounter power); the fact says
 * who chose. */
Test(alloy_skills, dominated_dominator_chooses_its_action_004_949) {
    fixture *f = dominated_tony();
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, TONY, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_ATTACK, "not the end of its turn");
    cr_assert_eq(c.n_targets, 1);
    cr_assert_eq(c.targets[0], ANA, "the dominator's enemy");
    cr_assert_eq(c.power, -1, "the encounter power is not its to choose");
    cr_assert_eq(af_do_dice(f, &c, (int[]){15, 4}, 2), FRAY_OK, "%s", f->why);
    const fa_fact *ch = af_fact(f, FA_FACT_CHOSEN, TONY);
    cr_assert_not_null(ch);
    cr_assert_eq(ch->target, ORC);
    f->ev.cmd = c;
    char buf[2048];
    fa_narrate(&f->s, &f->ev, buf, sizeof buf);
    cr_assert(strstr(buf, "Tony is dominated: orc chooses its action."), "%s", buf);
    /* 004:948: Dazed: one action; then the tactics end the turn. */
    fa_command walk = af_cmd(FA_CMD_WALK, TONY);
    af_path(&walk, 1, 1, 1);
    cr_assert_eq(af_do(f, &walk), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "one action"), "%s", f->why);
    free(f);
}

/* 004:948-949 at the table: the GM types the command; an encounter power,
 * second wind, an action point and Delay are refused in rules words. */
Test(alloy_skills, dominated_at_will_only_and_dazed_004_948_949) {
    fixture *f = dominated_tony();
    cr_assert_eq(say(f, "tony attack ana with haymaker", (int[]){15, 4, 4, 4}, 4),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "only its at-will abilities"), "%s", f->why);
    cr_assert_eq(say(f, "tony second-wind", NULL, 0), FRAY_ERR_INVALID);
    cr_assert_eq(say(f, "tony action-point", NULL, 0), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "Dominated (dazed)"), "%s", f->why);
    cr_assert_eq(say(f, "tony delay", NULL, 0), FRAY_ERR_INVALID);
    cr_assert_eq(say(f, "tony attack ana", (int[]){15, 4}, 2), FRAY_OK, "%s", f->why);
    free(f);
}

/* Tactics and Feint (004:307, conservative): Tony, Bluff +5, holds an
 * empty pistol with no rounds to reload, the orc adjacent: no attack to
 * make, so default tactics feint; aggressive tactics never do, nor does a
 * poor bluffer. */
static fixture *empty_gun(int tactics, int bluff) {
    fixture *f = af_new(12, 12);
    int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 6);
    int sword = af_weapon(f, "sword", FA_WK_MELEE, 8, 1, 0);
    int hero = af_block(f, "hero", 0, 0, 20);
    int orc = af_block(f, "orc", 6, 0, 20);
    af_give(f, hero, pistol, 0);
    af_give(f, orc, sword, -1);
    f->s.sb[hero].skill[FA_SKILL_BLUFF] = (int8_t)bluff;
    f->s.sb[hero].tactics = (uint8_t)tactics;
    af_add(f, "Tony", hero, 0, 2, 2);
    af_add(f, "orc", orc, 1, 3, 2);
    f->s.c[0].wield = 0;
    f->s.c[0].tactics = (uint8_t)tactics;
    f->s.c[1].wield = 0;
    af_start(f);
    f->st.c[0].ammo[0] = 0;
    cr_assert_eq(af_begin(f, (int[]){20, 10}, 2), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    return f;
}

Test(alloy_skills, tactics_feint_only_when_nothing_better_004_307) {
    fixture *f = empty_gun(FA_TACTICS_DEFAULT, 5);
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, 0, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_FEINT, "%s", fa_cmd_name(c.kind));
    cr_assert_eq(c.targets[0], 1);
    cr_assert_eq(af_do_dice(f, &c, (int[]){10}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(fa_choose_command(&f->s, &f->st, 0, &c), FRAY_OK);
    cr_assert_neq(c.kind, FA_CMD_FEINT, "one feint");
    free(f);
    f = empty_gun(FA_TACTICS_AGGRESSIVE, 5);
    cr_assert_eq(fa_choose_command(&f->s, &f->st, 0, &c), FRAY_OK);
    cr_assert_neq(c.kind, FA_CMD_FEINT);
    free(f);
    f = empty_gun(FA_TACTICS_DEFAULT, 2);
    cr_assert_eq(fa_choose_command(&f->s, &f->st, 0, &c), FRAY_OK);
    cr_assert_neq(c.kind, FA_CMD_FEINT);
    free(f);
}

/* ---- Total concealment: guessing the square (004:898, L7.16) ---------------------- */

/* The orc steps from 3,2 into the dark at 3,3 (still adjacent to Tony and
 * Ana): Tony's side last saw it at 3,2. */
static fixture *orc_in_the_dark(void) {
    fixture *f = arena(false);
    f->fake.hook_declines = true;    /* opportunity attacks declined */
    fray_area_add(&f->s.dark, (fray_pos){3, 3});
    f->st.c[ORC].fp.at = (fray_pos){3, 3};
    fa_seen_update(&f->r);
    cr_assert_not(fa_side_sees(&f->s, &f->st, 0, ORC));
    cr_assert_eq(f->st.c[ORC].seen[0].x, 3);
    cr_assert_eq(f->st.c[ORC].seen[0].y, 2, "last seen before the dark");
    return f;
}

/* L7.16: no square named: the side's last seen square, wrong here: a
 * miss with nothing rolled. */
Test(alloy_skills, total_concealment_wrong_square_misses_unrolled_004_898_L7_16) {
    fixture *f = orc_in_the_dark();
    cr_assert_eq(say(f, "tony attack orc", (int[]){20, 8}, 2), FRAY_OK, "%s", f->why);
    const fa_fact *n = af_fact(f, FA_FACT_NO_EFFECT, TONY);
    cr_assert_not_null(n);
    cr_assert_eq(n->v[0], FA_NOTE_WRONG_SQUARE);
    cr_assert_eq(n->v[1], 3);
    cr_assert_eq(n->v[2], 2);
    cr_assert_null(af_fact(f, FA_FACT_ATTACK, TONY));
    cr_assert_eq(f->ev.n_dice, 0, "nothing rolled");
    cr_assert_eq(f->st.c[ORC].hp, 20);
    char buf[2048];
    fa_narrate(&f->s, &f->ev, buf, sizeof buf);
    cr_assert(strstr(buf, "Tony's attack misses: orc is not in the square guessed, 3,2."), "%s", buf);
    free(f);
}

/* 004:898 "even if you guess correctly you can still miss": the right
 * square named: the attack is rolled at -5 (total concealment). */
Test(alloy_skills, total_concealment_right_guess_rolls_at_minus_5_004_898) {
    fixture *f = orc_in_the_dark();
    cr_assert_eq(say(f, "tony attack orc at 3,3", (int[]){20, 8}, 2), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_ATTACK, TONY));
    bool minus5 = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        minus5 |= f->ev.facts[i].kind == FA_FACT_MODIFIER &&
                  f->ev.facts[i].v[0] == FA_MOD_TOTAL_CONCEALMENT && f->ev.facts[i].v[1] == -5;
    cr_assert(minus5);
    cr_assert_lt(f->st.c[ORC].hp, 20);
    free(f);
    f = orc_in_the_dark();
    fa_command c;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fa_parse(&f->s, &f->st, "tony attack orc at 30,3", &c, &d), FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "the square guessed on the map"), "%s", d.message);
    c = words(f, "tony attack orc at 3,3");
    cr_assert(c.has_guess, "the guess is the command's own field");
    cr_assert_eq(c.guess.x, 3);
    cr_assert_eq(c.guess.y, 3);
    cr_assert_eq(c.n_path, 0, "path is a push's squares, not a guess");
    cr_assert_eq(c.origin.x, -1);
    c.guess = (fray_pos){70, 3};
    cr_assert_eq(fa_check(&f->s, &f->st, &c, f->why, sizeof f->why), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "not on the map"), "%s", f->why);
    free(f);
}

/* L7.16 (fray's reading): Notice as a move action against the option
 * notice-dc (15) finds the hidden; then the side knows the square. */
Test(alloy_skills, notice_move_action_reveals_the_hidden_L7_16) {
    fixture *f = orc_in_the_dark();
    f->s.opt.notice_dc = 15;
    cr_assert_eq(say(f, "tony skill notice move", (int[]){11}, 1), FRAY_OK, "%s",
                 f->why);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[3], 15);
    cr_assert_eq(af_fact(f, FA_FACT_SKILL, TONY)->v[4], 0, "11 + 3 = 14");
    cr_assert_eq(f->st.c[ORC].seen[0].y, 2);
    free(f);
    f = orc_in_the_dark();
    f->s.opt.notice_dc = 15;
    cr_assert_eq(say(f, "tony skill notice move", (int[]){12}, 1), FRAY_OK, "%s",
                 f->why);
    cr_assert_eq(f->st.c[ORC].seen[0].y, 3, "found");
    cr_assert_eq(say(f, "tony attack orc", (int[]){20, 8}, 2), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_ATTACK, TONY), "the right square now");
    free(f);
    f = orc_in_the_dark();
    f->s.opt.notice_dc = 20;
    cr_assert_eq(say(f, "tony skill notice move", (int[]){12}, 1), FRAY_OK, "%s",
                 f->why);
    cr_assert_eq(f->st.c[ORC].seen[0].y, 2, "notice-dc 20: not found");
    free(f);
}

/* L7.16 tactics: the side lost track of the target: Notice with the move
 * action first; then the attack guesses the last seen square. */
Test(alloy_skills, tactics_notice_when_track_is_lost_L7_16) {
    fixture *f = orc_in_the_dark();
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, TONY, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_SKILL, "%s", fa_cmd_name(c.kind));
    cr_assert_eq(c.option, FA_SKILL_NOTICE | FA_SKILL_AS_MOVE);
    free(f);
}

/* In the light nothing changes: every move is seen, the square known. */
Test(alloy_skills, seen_square_follows_every_visible_move_L7_16) {
    fixture *f = arena(false);
    f->st.c[ORC].fp.at.x = 8;
    fa_command w = af_cmd(FA_CMD_WALK, TONY);
    af_path(&w, 2, 3, 2, 4, 2);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[TONY].seen[1].x, 4);
    cr_assert_eq(f->st.c[TONY].seen[1].y, 2);
    free(f);
}

/* 004:948 "Your character is dazed": a dominated creature grants battle
 * superiority and cannot flank, as a dazed one. */
Test(alloy_skills, dominated_is_dazed_battle_superiority_004_948) {
    fixture *f = dominated_tony();
    fa_mods m = mods_of(f, ORC, TONY);
    cr_assert(has_mod(&m, FA_MOD_BATTLE_SUPERIORITY));
    free(f);
}

/* ---- The simulation's counts (alloy.c) ------------------------------------------ */

#include "ruleset.h"

/* Trials 0..n-1 of examples/alloy/reinforcements.yaml (seed 7) with option
 * dying set, counted. */
static fray_sim_counts *reinforcements_counts(const char *dying, int n) {
    const fray__ruleset *rs = &fray__alloy_ruleset;
    char path[512];
    snprintf(path, sizeof path, "%s/examples/alloy/reinforcements.yaml", FRAY_SOURCE_DIR);
    void *setup = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(rs->load(path, NULL, &setup, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(rs->vary(setup, "dying", dying, &d), FRAY_OK, "%s", d.message);
    void *f = NULL;
    cr_assert_eq(rs->sim_fight_new(setup, 7, 0, NULL, NULL, &f), FRAY_OK);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    for (int t = 0; t < n; t++) {
        cr_assert_eq(rs->reset_trial(f, 7, (uint64_t)t), FRAY_OK);
        cr_assert_eq(rs->run(f), FRAY_OK);
        rs->count(f, c);
    }
    rs->fight_free(f);
    rs->setup_free(setup);
    return c;
}

/* 004:241 with the counts: a joiner's damage taken is what it lost (its
 * hit points before the step that brought it in are kept: no more than
 * its hit points and their half again, with second wind's surge, a
 * fight); L7.8: deaths by death saves show in the dead counts: the thugs,
 * dying while the fight goes on, die far more often with death-saves (the
 * same 300 trials; stable: only at -max/2). */
Test(alloy_skills, sim_counts_joiners_and_death_saves_004_241_L7_8) {
    enum { N = 300 };
    fray_sim_counts *st = reinforcements_counts("stable", N);
    fray_sim_counts *ds = reinforcements_counts("death-saves", N);
    /* boss (index 4: 32 hp, one surge of 8) and the late thug (5: 14 hp) */
    cr_assert_leq(st->c[4].taken[0], (uint64_t)N * (32 + 16 + 8));
    cr_assert_leq(ds->c[4].taken[0], (uint64_t)N * (32 + 16 + 8));
    cr_assert_leq(ds->c[5].taken[0], (uint64_t)N * (14 + 7 + 3));
    cr_assert_gt(ds->c[4].spent[1] + st->c[4].spent[1], 0, "its surges are counted");
    uint64_t dead_st = st->c[2].dead + st->c[3].dead, dead_ds = ds->c[2].dead + ds->c[3].dead;
    cr_assert_gt(dead_ds, dead_st + N / 4, "stable %llu, death-saves %llu",
                 (unsigned long long)dead_st, (unsigned long long)dead_ds);
    free(st);
    free(ds);
}

/* 004:241 told: those still to join are named, with their round, under
 * the order and in the summary. */
Test(alloy_skills, joiners_named_in_order_and_summary_004_241) {
    fixture *f = joining();
    char buf[4096];
    fa_draw_order(&f->s, &f->st, buf, sizeof buf);
    cr_assert(strstr(buf, "orc2 joins at the start of round 2"), "%s", buf);
    fa_summary(&f->s, &f->st, buf, sizeof buf);
    cr_assert(strstr(buf, "orc2"), "%s", buf);
    cr_assert(strstr(buf, "joins at the start of round 2"), "%s", buf);
    free(f);
}

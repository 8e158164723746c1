/* test_d6_options.c - seed 003's attack options (src/rules/d6/options.c)
 * through the fight API with the dice given by hand: the table of combat
 * difficulty modifiers (003:27-46, printed dice and standard values side
 * by side: rulesets-checklists D7.1), applied standard and rolled
 * (003:3), the floor of 3 (003:2), all-out, lunge, sweep, called shots,
 * a blind attacker, a blind target and an attack from behind; the
 * refusals in words; the journal out and back (docs/rules/d6.md
 * "Attack options"). */
#include "d6_fixture.h"

static d6_setup S;

/* The duel with Body Points (one die of leather to resist), the knight
 * first and standing at (x, y). */
static fray_fight *duel_at(fray_setup *fs, bool roll, int x, int y) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    S.o.modifiers_roll = roll;
    *fs = d6_fx_setup(&S);
    const int d[] = {5, 5, 5, 2, 2}; /* initiative 15 and 6 */
    fray_fight *f = d6_fx_start(fs, d, 5);
    char to[32];
    snprintf(to, sizeof to, "knight move %d,%d", x, y);
    d6_fx_ok(f, to, NULL, 0);
    return f;
}

/* 003:27-46: the table as printed: die modifier and standard value of
 * each entry (never one computed from the other), and the damage dice. */
Test(d6_options, table_as_printed) {
    const d6_modifier_row *r = d6_option_row(D6_OPT_ALL_OUT); /* 003:29 */
    cr_assert(r->dice == -2 && r->standard == -6 && r->damage == 1);
    r = d6_option_row(D6_OPT_LUNGE); /* 003:31 */
    cr_assert(r->dice == 1 && r->standard == 3 && r->damage == -1);
    r = d6_option_row(D6_OPT_SWEEP); /* 003:34 */
    cr_assert(r->dice == -2 && r->standard == -6 && r->damage == -3);
    const int cd[] = {1, 4, 8}, cs[] = {3, 12, 24}; /* 003:40-42 */
    for (int z = 1; z <= 3; z++) {
        r = d6_called_row(z);
        cr_assert(r->dice == cd[z - 1] && r->standard == cs[z - 1] && r->damage == 1,
                  "called shot size %d", z);
    }
    r = d6_sight_row(D6_SIGHT_BLIND); /* 003:45 */
    cr_assert(r->dice == 4 && r->standard == 12);
    r = d6_sight_row(D6_SIGHT_TARGET_BLIND); /* 003:46 */
    cr_assert(r->dice == -4 && r->standard == -12);
    r = d6_sight_row(D6_SIGHT_BEHIND); /* 003:46 */
    cr_assert(r->dice == -4 && r->standard == -12);
}

/* 003:6, 29: all-out -2D (-6) to the difficulty, +1D damage: 9 against
 * 10 - 6 = 4 hits; the damage 1D+1 + 2D Strength + 1D = 4D+1: 21. */
Test(d6_options, all_out_standard) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {2, 2, 2, 2, 1, 5, 5, 5, 5, 3};
    d6_fx_ok(f, "knight attack brigand all-out", d, 10);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"option\":\"all-out\"");
    d6_fx_has(j, "\"total\":9,\"difficulty\":4,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":21");
    fray_fight_free(f);
}

/* Without the option the same 9 misses the passive 10 (the check that
 * the -6 is the option's). */
Test(d6_options, no_option_misses) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {2, 2, 2, 2, 1};
    d6_fx_ok(f, "knight attack brigand", d, 5);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":9,\"difficulty\":10,\"result\":\"miss\"");
    fray_fight_free(f);
}

/* 003:6: all-out: no defense and no other action that round: refused
 * in words with 2 actions or a dodge. */
Test(d6_options, all_out_alone) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand all-out actions 2", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "no defense and no other action"), "%s", diag.message);
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand all-out defend", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "all-out"), "%s", diag.message);
    fray_fight_free(f);
}

/* modifiers: roll (003:3): the GM rolls the option's 2D and takes it
 * off: 10 - (3 + 4) = 3. */
Test(d6_options, all_out_rolled) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, true, 5, 0);
    const int d[] = {2, 2, 2, 2, 2, 3, 4, 2, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand all-out", d, 12);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":10,\"difficulty\":3,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":9");
    fray_fight_free(f);
}

/* 003:7, 31: a lunge reaches half a meter further (3.16 m: beyond Point
 * Blank's 3 m, within 3.5 m), +1D (+3) to the difficulty, -1D damage:
 * 20 against 13; 1D+1 + 2D - 1D = 2D+1: 11. */
Test(d6_options, lunge_reach_and_numbers) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 3, -1);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "out of reach"), "%s", diag.message);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 3};
    d6_fx_ok(f, "knight attack brigand lunge", d, 8);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":20,\"difficulty\":13,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":11");
    fray_fight_free(f);
}

/* 003:7: 4 m is beyond a lunge too. */
Test(d6_options, lunge_too_far) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 2, 0);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand lunge", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "out of reach"), "%s", diag.message);
    fray_fight_free(f);
}

/* 003:9, 34: sweep -2D (-6), -3D damage: 3D+1 - 3D leaves the pip: 1
 * damage, no dice rolled. */
Test(d6_options, sweep_numbers) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {2, 2, 2, 2, 1, 3};
    d6_fx_ok(f, "knight attack brigand sweep", d, 6);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":9,\"difficulty\":4,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":1,");
    fray_fight_free(f);
}

/* 003:36-43, 49: a called shot at something 1 to 10 cm: +4D (+12), and
 * on a hit +1D damage: 25 against 22; 4D+1: 9. */
Test(d6_options, called_small) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {5, 5, 5, 5, 5, 2, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand called small", d, 10);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"called\":\"small\"");
    d6_fx_has(j, "\"total\":25,\"difficulty\":22,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":9");
    fray_fight_free(f);
}

/* 003:40, 42: large +1D (+3), tiny +8D (+24): the difficulties 13, 34. */
Test(d6_options, called_large_and_tiny) {
    const char *cmd[] = {"knight attack brigand called large",
                         "knight attack brigand called tiny"};
    const char *want[] = {"\"difficulty\":13", "\"difficulty\":34"};
    for (int k = 0; k < 2; k++) {
        fray_setup fs;
        fray_fight *f = duel_at(&fs, false, 5, 0);
        const int d[] = {2, 2, 2, 2, 2};
        d6_fx_ok(f, cmd[k], d, 5);
        char j[8192];
        d6_fx_last_json(f, j, sizeof j);
        d6_fx_has(j, want[k]);
        fray_fight_free(f);
    }
}

/* 003:45-46 and 003:2: blind attacker +4D (+12) and from behind -4D
 * (-12) cancel (10); all-out from behind 10 - 6 - 12 = -8: the floor 3. */
Test(d6_options, blind_behind_and_floor) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {2, 2, 2, 2, 2, 2, 1, 1, 3};
    d6_fx_ok(f, "knight attack brigand blind behind", d, 9);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"blind\":true");
    d6_fx_has(j, "\"behind\":true");
    d6_fx_has(j, "\"total\":10,\"difficulty\":10,\"result\":\"hit\"");
    fray_fight_free(f);
    f = duel_at(&fs, false, 5, 0);
    const int e[] = {2, 1, 1, 1, 1, 2, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand all-out behind", e, 10);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":6,\"difficulty\":3,\"result\":\"hit\"");
    fray_fight_free(f);
}

/* 003:46: the blind target's -4D and from behind's are one modifier:
 * both refused in words; a ranged attack may not lunge. */
Test(d6_options, refusals_in_words) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand target-blind behind", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "taken once"), "%s", diag.message);
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(d6_fx_cmd(f, "knight attack brigand called huge", NULL, 0, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "called large|small|tiny"), "%s", diag.message);
    fray_fight_free(f);
}

/* The journal: the options go out in JSON and come back; the replay is
 * the same fight; the narration says the option and the called shot's
 * +1D (the disarm is not this option's). */
Test(d6_options, journal_and_narration) {
    fray_setup fs;
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    fs = d6_fx_setup(&S);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5), *g = NULL;
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {5, 5, 5, 5, 5, 2, 2, 2, 2, 2, 3}; /* damage 5D+1 */
    d6_fx_ok(f, "knight attack brigand all-out called large behind", d, 11);
    size_t n;
    char *text = fx_journal(f, 65536, &n);
    d6_fx_has(text, "\"option\":\"all-out\",\"called\":\"large\",\"behind\":true");
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    char say[4096];
    fray_event_narrate(f, fray_fight_events(f) - 1, say, sizeof say);
    cr_assert(strstr(say, "all-out"), "%s", say);
    cr_assert(strstr(say, "-15 to the difficulty"), "%s", say);
    cr_assert(strstr(say, "+1D damage"), "%s", say);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* 003:8, 32: knockdown +2D (+6), no damage: the brigand loses 2D from
 * its next Agility roll and is down; standing takes one of its actions:
 * a lone attack or a move is refused in words; `defend` stands it (-1D)
 * and its dodge 3D+2 loses 2D more: 0D+2, no die rolled. The knight's sword
 * is not blunt: the knight fights unarmed (fighting: Agility 3D+1). */
Test(d6_options, knockdown_no_damage_down_and_stand) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    S.c[0].b.weapon = -1; /* fighting */
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {5, 5, 5}; /* 3D+1: 16 against 10 + 6 */
    d6_fx_ok(f, "knight attack brigand knockdown", d, 3);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":16,\"difficulty\":16,\"result\":\"hit\"");
    d6_fx_has(j, "\"fact\":\"stumble\"");
    cr_assert(!strstr(j, "\"damage\""), "no damage: %s", j);
    d6_state *st = d6_fx_st(f);
    cr_assert(st->c[1].down);
    cr_assert_eq(st->c[1].agility_dice, 2);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "brigand attack knight", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "is down"), "%s", diag.message);
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "brigand move 9,0", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "is down"), "%s", diag.message);
    d6_fx_ok(f, "brigand defend", NULL, 0); /* 3D+2 - 1D - 2D: no dice, 2 */
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"stand\"");
    d6_fx_has(j, "\"roll\":2,\"difficulty\":2");
    cr_assert(!st->c[1].down);
    cr_assert_eq(st->c[1].agility_dice, 0, "spent by the roll");
    fray_fight_free(f);
}

/* 003:8, 33: push +1D (+3), no damage, -2D but not down. */
Test(d6_options, push_not_down) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    S.c[0].b.weapon = -1;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {5, 5, 3};
    d6_fx_ok(f, "knight attack brigand push", d, 3);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":14,\"difficulty\":13,\"result\":\"hit\"");
    d6_fx_has(j, "\"down\":false");
    cr_assert(!d6_fx_st(f)->c[1].down);
    cr_assert_eq(d6_fx_st(f)->c[1].agility_dice, 2);
    fray_fight_free(f);
}

/* 003:8: the sword is not blunt; the stronger foe (Physique 4D against
 * 3D+1) only with trained-knockdown. */
Test(d6_options, knockdown_who_and_with_what) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand knockdown", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "blunt weapon, not the sword"), "%s", diag.message);
    fray_fight_free(f);
    for (int trained = 0; trained < 2; trained++) {
        d6_fx_duel(&S);
        S.c[0].b.weapon = -1;
        S.c[1].b.attr[D6_PHYSIQUE] = d6_fx_code("4D");
        S.c[0].b.trained_knockdown = trained;
        fs = d6_fx_setup(&S);
        f = d6_fx_start(&fs, init, 5);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        memset(&diag, 0, sizeof diag);
        const int d[] = {2, 2, 2};
        fray_status rc = d6_fx_cmd(f, "knight attack brigand trip", d, 3, &diag);
        if (trained) {
            cr_assert_eq(rc, FRAY_OK, "%s", diag.message);
        } else {
            cr_assert_eq(rc, FRAY_ERR_INVALID);
            cr_assert(strstr(diag.message, "Physique is greater"), "%s", diag.message);
        }
        fray_fight_free(f);
    }
}

/* 003:131: an unwieldy weapon's modifier (the file's `unwieldy: 5`) adds
 * to the combat difficulty: 10 + 5 = 15; without it 10. */
Test(d6_options, unwieldy_weapon) {
    for (int u = 0; u < 2; u++) {
        d6_fx_duel(&S);
        S.w[D6_FX_SWORD].unwieldy = (int8_t)(u ? 5 : 0);
        fray_setup fs = d6_fx_setup(&S);
        const int init[] = {5, 5, 5, 2, 2};
        fray_fight *f = d6_fx_start(&fs, init, 5);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        const int d[] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}; /* a hit: damage, resistance */
        d6_fx_ok(f, "knight attack brigand", d, u ? 5 : 12);
        char j[8192];
        d6_fx_last_json(f, j, sizeof j);
        d6_fx_has(j, u ? "\"total\":10,\"difficulty\":15,\"result\":\"miss\""
                 : "\"total\":10,\"difficulty\":10,\"result\":\"hit\"");
        fray_fight_free(f);
    }
}

/* 003:73-78: the hit-location table as printed: the die modifier and
 * its standard value (+1D is +5 here, +4D is +15: never 3 a die), the
 * damage added to the total. */
Test(d6_options, hit_location_table) {
    const int dice[] = {0, 1, 4, 0, 1, 1, 4}, std[] = {0, 5, 15, 0, 5, 5, 15},
              dmg[] = {0, 12, 12, 0, -2, -1, -2};
    for (int z = 1; z < D6_LOC_KINDS; z++) {
        const d6_modifier_row *r = d6_location_row(z);
        cr_assert(r->dice == dice[z] && r->standard == std[z] && r->damage_pips == dmg[z],
                  "location %s", r->word);
    }
}

/* 003:74, 85, D7.9: at the head +1D (+5): 20 against 15; damage
 * 3D+1 = 7, +12 = 19 against 3: 16 Body Points (29 - 16 = 13); the
 * injury hurts the head: -1 to its initiative and Acumen totals, and it
 * stays in the view. Next round the brigand's 2D+2 [5,5] is 11. */
Test(d6_options, head_hit_damage_and_effect) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {4, 4, 4, 4, 4, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand at head", d, 9);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"location\":\"head\"");
    d6_fx_has(j, "\"total\":20,\"difficulty\":15,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":19,\"resistance\":3,\"body_points\":13");
    d6_fx_has(j, "\"fact\":\"location\",\"who\":\"brigand\",\"other\":\"knight\",\"location\":\"head\"");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].parts, D6_PART_HEAD);
    cr_assert_eq(d6_part_penalty(st, 1, D6_PART_INIT), 1);
    cr_assert_eq(d6_part_penalty(st, 1, D6_SK_SEARCH), 1, "Acumen-based");
    cr_assert_eq(d6_part_penalty(st, 1, D6_SK_MELEE), 0);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    const int n[] = {2, 2, 2, 5, 5};
    d6_fx_ok(f, "next", n, 5);
    cr_assert_eq(st->c[1].init, 11, "12 - 1 for the head");
    fray_fight_free(f);
}

/* 003:77, 84: at a hand +4D (+15), damage -2; the hurt hand takes 1 off
 * its melee totals (and not off its dodge). */
Test(d6_options, hand_hit_effect) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {5, 5, 5, 5, 5, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand at hand", d, 9);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":25,\"difficulty\":25,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":5,");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].parts, D6_PART_HAND);
    cr_assert_eq(d6_part_penalty(st, 1, D6_SK_MELEE), 1);
    cr_assert_eq(d6_part_penalty(st, 1, D6_SK_DODGE), 0);
    const int e[] = {4, 4, 4, 4, 2, 2, 2, 3, 3}; /* melee 4D: 16 - 1 = 15; a hit */
    d6_fx_ok(f, "brigand attack knight", e, 9);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":15,\"difficulty\":10,\"result\":\"hit\"");
    fray_fight_free(f);
}

/* 003:82, D7.8: at the chest (no modifier) an injury leaves passive
 * defense only next round: the brigand's dodge is refused in words then,
 * and allowed this round. */
Test(d6_options, chest_passive_next_round) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {4, 4, 4, 4, 4, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand at chest", d, 9);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].passive_round, 2);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    const int n[] = {2, 2, 2, 5, 5};
    d6_fx_ok(f, "next", n, 5);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "brigand defend", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "passive defense only"), "%s", diag.message);
    fray_fight_free(f);
}

/* 003:87, D7.5, D7.20: knockout at the head (+5): 25 against 15, margin
 * 10; 3D+1 + 12 = 29 against 8 (Physique 3D + leather 1D): 21 would be
 * Dead (6 levels): two levels or more: knocked out for 10 hours, and
 * only half the levels (3: Severely Wounded). */
Test(d6_options, knockout_wounds) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {5, 5, 5, 5, 5, 5, 5, 5, 2, 2, 2, 2};
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_NONE);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand knockout", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "at head"), "%s", diag.message);
    d6_fx_ok(f, "knight attack brigand knockout at head", d, 12);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"knockout\",\"who\":\"brigand\",\"other\":\"knight\",\"hours\":10");
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_SEVERE, "half of 6 levels");
    cr_assert(d6_out(&d6_fx_st(f)->c[1]));
    fray_fight_free(f);
}

/* 003:87: one level (excess 1 to 3: Stunned) is no knockout, and half of
 * it (round down) is none; D7.20: a margin of 0 would still be an hour
 * (the body-points test below). */
Test(d6_options, knockout_too_little) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    /* 20 vs 15; damage 3D+1 [2,2,2] + 1 + 12 = 19; resistance 4D [4,4,4,4] = 16: 3 */
    const int d[] = {4, 4, 4, 4, 4, 2, 2, 2, 4, 4, 4, 4};
    d6_fx_ok(f, "knight attack brigand knockout at head", d, 12);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    cr_assert(!strstr(j, "knockout\",\"who"), "%s", j);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_NONE);
    cr_assert(!d6_out(&d6_fx_st(f)->c[1]));
    fray_fight_free(f);
}

/* 003:87 with Body Points, D7.5, D7.20: 15 against 15 (margin 0: 1
 * hour); 3D+1 + 12 = 19 against 3: 16 lost is at least half of 29: out,
 * and only 8 taken off (29 - 8 = 21). */
Test(d6_options, knockout_body_points_one_hour) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    const int d[] = {3, 3, 3, 3, 3, 2, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand knockout at head", d, 9);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"body_points\":21");
    d6_fx_has(j, "\"hours\":1");
    cr_assert(d6_out(&d6_fx_st(f)->c[1]));
    fray_fight_free(f);
}

/* 003:91, 93: crouching is free (the turn goes on) and the attack on the
 * crouched knight is +1D (+3): 8 against 13. The journal keeps it. */
Test(d6_options, crouching_plus_3) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    d6_fx_ok(f, "knight crouch", NULL, 0);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"action\":\"posture\",\"actor\":\"knight\",\"posture\":\"crouch\"");
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Sir Aldo", "free: the turn goes on");
    d6_fx_ok(f, "knight wait", NULL, 0);
    const int d[] = {2, 2, 2, 2};
    d6_fx_ok(f, "brigand attack knight", d, 4);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":8,\"difficulty\":13,\"result\":\"miss\"");
    fray_fight_free(f);
}

/* 003:91: moving crouched halves the Move (5 m: 6 refused) and the
 * attack is +2D (+6) that round: 8 against 16. */
Test(d6_options, moving_crouched_plus_6_half_move) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight posture crouch", NULL, 0);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight move 0,6", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "at most 5 m"), "%s", diag.message);
    d6_fx_ok(f, "knight move 2,0", NULL, 0);
    d6_fx_ok(f, "knight wait", NULL, 0);
    d6_fx_ok(f, "brigand move 3,0", NULL, 0);
    const int d[] = {2, 2, 2, 2};
    d6_fx_ok(f, "brigand attack knight", d, 4);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":8,\"difficulty\":16,\"result\":\"miss\"");
    fray_fight_free(f);
}

/* 003:92: prone: -2D (-6) at Point Blank (melee) or Short, +2D (+6) at
 * Medium or Long; a prone combatant stands (free, 003:93) before moving. */
Test(d6_options, prone_by_band) {
    fray_setup fs;
    fray_fight *f = duel_at(&fs, false, 5, 0);
    d6_fx_ok(f, "knight prone", NULL, 0);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_posture_row(st, 0, D6_BAND_SHORT)->standard, -6);
    cr_assert_eq(d6_posture_row(st, 0, D6_BAND_POINT_BLANK)->dice, -2);
    cr_assert_eq(d6_posture_row(st, 0, D6_BAND_MEDIUM)->standard, 6);
    cr_assert_eq(d6_posture_row(st, 0, D6_BAND_LONG)->dice, 2);
    d6_fx_ok(f, "knight wait", NULL, 0);
    const int d[] = {1, 2, 2, 2, 2, 2, 2, 3, 3}; /* Wild Die 1: it and a 2 out: 4 */
    d6_fx_ok(f, "brigand attack knight", d, 9);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":4,\"difficulty\":4,\"result\":\"hit\"");
    fray_fight_free(f);
    f = duel_at(&fs, false, 5, 0);
    d6_fx_ok(f, "knight prone", NULL, 0);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight prone", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "prone already"), "%s", diag.message);
    d6_fx_ok(f, "knight stand", NULL, 0);
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Sir Aldo", "standing at will is free");
    fray_fight_free(f);
}

/* D7.16, 003:45-46, 91-92: the encounter's `blind` and `posture` keys
 * (examples/d6/blindfold.yaml) are read, and the fight begins so. */
Test(d6_options, file_blind_and_posture) {
    fray_diag dg;
    memset(&dg, 0, sizeof dg);
    d6_setup *s = NULL;
    cr_assert_eq(d6_load(FRAY_SOURCE_DIR "/examples/d6/blindfold.yaml", NULL, &s, &dg),
                 FRAY_OK, "%s", dg.message);
    cr_assert(s->c[0].blind);
    cr_assert_eq(s->c[1].posture, D6_POSTURE_CROUCHING);
    cr_assert_eq(s->c[2].posture, D6_POSTURE_PRONE);
    fray_setup fs = d6_fx_setup(s);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(&fs, 1, &o, NULL, NULL, &f), FRAY_OK);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].posture, D6_POSTURE_CROUCHING, "it begins crouching");
    char view[2048];
    fray_fight_summary(f, view, sizeof view);
    cr_assert(strstr(view, "crouching"), "%s", view);
    fray_fight_free(f);
    d6_setup_free(s);
}

/* D7.16, 003:45-46: a combatant blind for the whole fight: its attacks
 * +4D (+12): 20 against 22; attacks on it -4D (-12), once even with the
 * word `behind` (10 - 12: the floor 3). */
Test(d6_options, blind_combatant) {
    d6_fx_duel(&S);
    S.c[0].blind = true;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4};
    d6_fx_ok(f, "knight attack brigand", d, 5);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":20,\"difficulty\":22,\"result\":\"miss\"");
    const int e[] = {1, 1, 1, 2}; /* Wild Die 1: it and the 2 out: 2 */
    d6_fx_ok(f, "brigand attack knight behind", e, 4);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":2,\"difficulty\":3,\"result\":\"miss\"");
    fray_fight_free(f);
}

/* tactics-knockdown (docs/rules/d6.md ruling 35): no (default): the
 * tactics attack plainly; yes: an unarmed knight (Physique 3D+1) knocks
 * down the weaker brigand (3D), and not one already down; never with the
 * sword (not blunt). */
Test(d6_options, tactics_knockdown_each_setting) {
    for (int on = 0; on < 2; on++) {
        d6_fx_duel(&S);
        S.c[0].b.weapon = -1;
        S.o.tactics_knockdown = on;
        fray_setup fs = d6_fx_setup(&S);
        const int init[] = {5, 5, 5, 2, 2};
        fray_fight *f = d6_fx_start(&fs, init, 5);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        d6_state *st = d6_fx_st(f);
        static d6_event cmd;
        d6_choose(&S, st, &cmd);
        cr_assert_eq(cmd.kind, D6_EV_ATTACK);
        cr_assert_eq(cmd.option, on ? D6_OPT_KNOCKDOWN : D6_OPT_NONE, "setting %d", on);
        st->c[1].down = true;
        d6_choose(&S, st, &cmd);
        cr_assert_eq(cmd.option, D6_OPT_NONE, "not one already down");
        fray_fight_free(f);
    }
    d6_fx_duel(&S);
    S.o.tactics_knockdown = true;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    static d6_event cmd;
    d6_choose(&S, d6_fx_st(f), &cmd);
    cr_assert_eq(cmd.option, D6_OPT_NONE, "the sword is not blunt");
    fray_fight_free(f);
}

/* The journal out and back with a posture, a hit location and a
 * knockdown: the replay is the same fight. */
Test(d6_options, journal_posture_location_knockdown) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    S.c[0].b.weapon = -1;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5), *g = NULL;
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    d6_fx_ok(f, "knight crouch", NULL, 0);
    const int d[] = {5, 5, 5};
    d6_fx_ok(f, "knight attack brigand knockdown", d, 3);
    d6_fx_ok(f, "brigand stand", NULL, 0);
    d6_fx_ok(f, "next", init, 5);
    const int e[] = {6, 2, 5, 5, 2, 2, 3};
    fray_status rc = d6_fx_cmd(f, "knight attack brigand at leg", e, 7, NULL);
    cr_assert_eq(rc, FRAY_OK);
    size_t n;
    char *text = fx_journal(f, 65536, &n);
    d6_fx_has(text, "\"posture\":\"crouch\"");
    d6_fx_has(text, "\"location\":\"leg\"");
    d6_fx_has(text, "\"option\":\"knockdown\"");
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

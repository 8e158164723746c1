/* test_d6_grabs.c - the D6 grabs (src/rules/d6/grabs.c) through the
 * fight API with the dice given by hand: the grab's +2D and the tackle's
 * +1D to the combat difficulty (003:30, 003:35), fighting only (003:10,
 * 11), the hold's -3D to the damage total (003:14), the choke's Strength
 * Damage (003:12), the hold kept between two combatants and the later
 * rounds' Strength Damage only (003:10-11), the tackled one's only action
 * (003:10), the escape with its tie to the holder (003:65, checklist
 * D7.14), and the journal's round trip. The duel: the knight (Agility
 * 3D+1, so fighting 3D+1; Physique 3D+1, so Strength Damage 2D) and the
 * brigand (Physique 3D, leather 1D), health: body-points (resistance:
 * the leather's 1D). */
#include "d6_fixture.h"
#include "fray/view.h"

static d6_setup S;

/* The knight first (initiative 15 and 6), moved to 1 m of the brigand. */
/* 003:30: a grab is +2D (+6, standard) to the combat difficulty: 10
 * passive + 6 = 16; fighting 3D+1 [5,5,4] = 15 misses, [5,5,5] = 16
 * hits. */
Test(d6_grabs, grab_plus_2D_003_30) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    const int miss[] = {5, 5, 4};
    d6_fx_ok(f, "knight attack brigand grab choke", miss, 3);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":15,\"difficulty\":16,\"result\":\"miss\"");
    cr_assert_eq(d6_holder(d6_fx_st(f), 1), -1, "a miss holds nobody");
    fray_fight_free(f);
}

/* 003:12: a choke's first round is the Strength Damage (2D [5,4] = 9),
 * against the leather's 1D [2]; the brigand is held by the knight. */
Test(d6_grabs, choke_strength_damage_003_12) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    const int d[] = {5, 5, 5, 5, 4, 2};
    d6_fx_ok(f, "knight attack brigand grab choke", d, 6);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"grab\":\"choke\"");
    d6_fx_has(j, "\"damage\":9,\"resistance\":2");
    char words[1024];
    fray_event_narrate(f, fray_fight_events(f) - 1, words, sizeof words);
    d6_fx_has(words, "Sir Aldo chokes Brigand.");
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    const fray_view_combatant *b = &v->combatants[1];
    bool held = false;
    for (int k = 0; k < b->n_conditions; k++)
        held |= strcmp(b->conditions[k].name, "held by Sir Aldo") == 0;
    cr_assert(held, "the view shows the hold");
    fray_fight_view_free(v);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_holder(st, 1), 0);
    cr_assert_eq(st->c[1].hold_kind, D6_GRAB_CHOKE);
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points - 7);
    fray_fight_free(f);
}

/* 003:14: a hold takes 3D (9, standard) off the damage total: 2D [5,4]
 * = 9 - 9 = 0, no damage; the hold is made. With [6,...] the Wild Die
 * explodes: [6,2] + [5] = 13 - 9 = 4 against [3]. */
Test(d6_grabs, hold_minus_3D_003_14) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    const int d[] = {5, 5, 5, 5, 4};
    d6_fx_ok(f, "knight attack brigand grab hold", d, 5);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points, "no damage");
    cr_assert_eq(d6_holder(st, 1), 0);
    cr_assert_eq(st->c[1].hold_kind, D6_GRAB_HOLD);
    fray_fight_free(f);
    f = d6_fx_close_duel(&S, &fs);
    const int e[] = {5, 5, 5, 6, 2, 5, 3};
    d6_fx_ok(f, "knight attack brigand grab", e, 7); /* plain `grab`: a hold */
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":4,\"resistance\":3");
    fray_fight_free(f);
}

/* 003:65, D7.14: the escape is opposed Physique or lifting, an action;
 * a tie goes to the holder (brigand 3D [4,4,4] = 12 against the knight's
 * 3D+1 [3,4,4] = 12: still held); then 003:11: the holder's later round
 * is Strength Damage only (2D [3,3] = 6 against [2]). Then a win by 1
 * (13 against 12) frees the brigand. */
Test(d6_grabs, escape_tie_to_holder_then_squeeze_003_65_003_11) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    const int d[] = {5, 5, 5, 5, 4, 2}; /* 9 against 2 */
    d6_fx_ok(f, "knight attack brigand grab choke", d, 6);
    d6_state *st = d6_fx_st(f);
    int bp = st->c[1].bp;
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "brigand move 9,0", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "held by Sir Aldo"), "%s", diag.message);
    const int tie[] = {4, 4, 4, 3, 4, 4};
    d6_fx_ok(f, "brigand escape", tie, 6);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":12,\"holder_total\":12,\"result\":\"held\"");
    cr_assert_eq(d6_holder(st, 1), 0, "a tie goes to the holder");
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    const int sq[] = {3, 3, 2};
    d6_fx_ok(f, "knight squeeze", sq, 3);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":6,\"resistance\":2");
    cr_assert_eq(st->c[1].bp, bp - 4);
    char words[1024];
    fray_event_narrate(f, fray_fight_events(f) - 1, words, sizeof words);
    d6_fx_has(words, "Sir Aldo squeezes Brigand: its Strength Damage.");
    const int win[] = {4, 4, 5, 3, 4, 4};
    d6_fx_ok(f, "brigand escape", win, 6);
    cr_assert_eq(d6_holder(st, 1), -1, "13 against 12: free");
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    cr_assert_eq(d6_fx_try(f, "knight squeeze", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "holds nobody"), "%s", diag.message);
    fray_fight_free(f);
}

/* 003:35, 003:10: a tackle is +1D (+3): difficulty 13; normal damage
 * (unarmed: the Strength Damage, 2D [2,2] against [3]); the tackled one
 * may make no action but the escape. */
Test(d6_grabs, tackle_plus_1D_only_escape_003_35_003_10) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    const int d[] = {4, 4, 4, 2, 2, 3};
    d6_fx_ok(f, "knight attack brigand tackle", d, 6);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":13,\"difficulty\":13,\"result\":\"hit\"");
    d6_fx_has(j, "\"grab\":\"tackle\"");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].hold_kind, D6_GRAB_TACKLE);
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "brigand attack knight", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "may only try to escape"), "%s", diag.message);
    cr_assert_eq(d6_fx_try(f, "brigand defend", NULL, 0, &diag), FRAY_ERR_INVALID);
    /* the tactics: the tackled one escapes */
    d6_event cmd;
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_ESCAPE);
    fray_fight_free(f);
}

/* 003:10-11: fighting only (no weapon named), in reach of the hands. */
Test(d6_grabs, fighting_only_and_reach) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight attack brigand grab with sword", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "fighting only"), "%s", diag.message);
    cr_assert_eq(d6_fx_try(f, "knight attack brigand grab throttle", NULL, 0, &diag),
                 FRAY_ERR_PARSE);
    cr_assert_eq(d6_fx_try(f, "brigand escape", NULL, 0, &diag), FRAY_ERR_INVALID);
    fray_fight_free(f);
    d6_fx_duel(&S);
    fs = d6_fx_setup(&S);
    f = d6_fx_start(&fs, (const int[]){5, 5, 5, 2, 2}, 5);
    cr_assert_eq(d6_fx_try(f, "knight attack brigand tackle", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "out of reach"), "%s", diag.message);
    fray_fight_free(f);
}

/* The journal: a grab, an escape and a squeeze written as JSON, read back
 * and replayed to the same fight; a move lets go of the hold. */
Test(d6_grabs, journal_round_trip_and_release) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab choke", (const int[]){5, 5, 5, 5, 4, 2}, 6);
    d6_fx_ok(f, "brigand escape", (const int[]){4, 4, 4, 3, 4, 4}, 6);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight squeeze", (const int[]){3, 3, 2}, 3);
    size_t n;
    char *text = fx_journal(f, 1 << 16, &n);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    cr_assert_eq(d6_holder(d6_fx_st(g), 1), 0);
    d6_fx_ok(f, "brigand escape", (const int[]){2, 2, 2, 3, 3, 3}, 6);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight move 3,0", NULL, 0);
    cr_assert_eq(d6_holder(d6_fx_st(f), 1), -1, "the holder who moves lets go");
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"release\"");
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* D7.14, option escape-tie (set as a sweep sets it, by its words): a tie
 * of 12 against 12 goes to the holder under `holder` (the default) and
 * frees the escapee under `escapee`; 13 against 12 frees under both. */
Test(d6_grabs, escape_tie_option_D7_14) {
    const char *words[2] = {"holder", "escapee"};
    for (int k = 0; k < 2; k++) {
        for (int won = 0; won < 2; won++) {
            d6_fx_duel(&S);
            S.o.health = D6_HEALTH_BODY_POINTS;
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            cr_assert_eq(d6_vary(&S, "escape-tie", words[k], &diag), FRAY_OK, "%s",
                         diag.message);
            cr_assert_eq(S.o.escape_tie_escapee, k == 1);
            fray_setup fs = d6_fx_setup(&S);
            fray_fight *f = d6_fx_start(&fs, (const int[]){5, 5, 5, 2, 2}, 5);
            d6_fx_ok(f, "knight move 5,0", NULL, 0);
            d6_fx_ok(f, "knight attack brigand grab hold", (const int[]){5, 5, 5, 5, 4}, 5);
            const int tie[] = {4, 4, 4, 3, 4, 4}, win[] = {4, 4, 5, 3, 4, 4};
            d6_fx_ok(f, "brigand escape", won ? win : tie, 6);
            bool free_now = d6_holder(d6_fx_st(f), 1) < 0;
            cr_assert_eq(free_now, won || k == 1, "escape-tie %s, %s", words[k],
                         won ? "13 against 12" : "a tie");
            fray_fight_free(f);
        }
    }
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(d6_vary(&S, "escape-tie", "nobody", &diag), FRAY_OK);
}

/* 003:63: an entangling weapon (a bola: throwing, 3D, 10/20/30 m, in the
 * knight's hand) hit by throwing (Coordination 2D+2 [5,5] = 12 against
 * 10 at Short range) binds the brigand with its damage total (3D [4,4,4]
 * = 12) and does no damage unless spiked; the bound one may only break
 * free (Physique 3D [4,4,3] = 11 < 12: still bound) or slip free
 * (Agility 3D [4,4,4] = 12: meets it, free), each an action; the
 * journal replays it. Spiked: the 12 is damage too (against [2]). */
static void add_bola(bool spiked) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    d6_weapon *b = &S.w[S.n_weapons];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "bola");
    b->skill = D6_SK_THROWING;
    b->damage = d6_fx_code("3D");
    b->range[0] = 10;
    b->range[1] = 20;
    b->range[2] = 30;
    b->hands = 1;
    b->entangling = true;
    b->spiked = spiked;
    S.c[0].b.weapon = (int8_t)S.n_weapons++;
}

Test(d6_grabs, entangle_break_or_slip_free_003_63) {
    add_bola(false);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(&fs, (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight attack brigand", (const int[]){5, 5, 4, 4, 4}, 5);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"entangle\"");
    d6_fx_has(j, "\"damage\":12,\"spiked\":false");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].tangle, 12);
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points, "no damage unless spiked");
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "brigand attack knight", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "entangled"), "%s", diag.message);
    cr_assert_eq(d6_fx_try(f, "brigand escape", NULL, 0, &diag), FRAY_ERR_INVALID);
    d6_event cmd;
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_BREAK_FREE, "the tactics: Physique 3D, Agility 3D: break");
    d6_fx_ok(f, "brigand break-free", (const int[]){4, 4, 3}, 3);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"how\":\"break\",\"total\":11,\"difficulty\":12,\"result\":\"entangled\"");
    cr_assert_eq(st->c[1].tangle, 12);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight wait", NULL, 0);
    d6_fx_ok(f, "brigand slip-free", (const int[]){4, 4, 4}, 3);
    cr_assert_eq(st->c[1].tangle, 0, "12 meets 12: free");
    cr_assert_eq(d6_fx_try(f, "brigand slip-free", NULL, 0, &diag), FRAY_ERR_INVALID);
    size_t n;
    char *text = fx_journal(f, 1 << 16, &n);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
    add_bola(true);
    fs = d6_fx_setup(&S);
    f = d6_fx_start(&fs, (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight attack brigand", (const int[]){5, 5, 4, 4, 4, 2}, 6);
    cr_assert_eq(d6_fx_st(f)->c[1].bp, S.c[1].b.body_points - 10, "spiked: 12 against 2");
    cr_assert_eq(d6_fx_st(f)->c[1].tangle, 12);
    fray_fight_free(f);
}

/* 003:13, D7.7: a flip is a grab (+2D: 16 to hit, fighting [5,5,5]+1 =
 * 16); the ground does 3D (no Wild Die: [3,3,3] = 9, against the
 * leather's [2]); no hold after; the flipped one's next turn is spent
 * getting up, its only action (the tactics choose it too). */
Test(d6_grabs, flip_3D_then_get_up_003_13) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab flip", (const int[]){5, 5, 5, 3, 3, 3, 2}, 7);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"grab\":\"flip\"");
    d6_fx_has(j, "\"damage\":9,\"resistance\":2");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points - 7);
    cr_assert_eq(d6_holder(st, 1), -1, "a flip holds nobody after");
    cr_assert_eq(st->c[1].down, D6_GROUND_FLIP, "on the ground, a flip's way (D7.7)");
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "brigand attack knight", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "getting up"), "%s", diag.message);
    d6_event cmd;
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_GET_UP);
    d6_fx_ok(f, "brigand get-up", NULL, 0);
    cr_assert_eq(st->c[1].down, D6_GROUND_NO);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"get-up\"");
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight wait", NULL, 0);
    cr_assert_eq(d6_fx_try(f, "brigand get-up", NULL, 0, &diag), FRAY_ERR_INVALID);
    fray_fight_free(f);
}

/* The tactics (tactics: grapple): choke the weakest free foe in reach of
 * its hands that is no stronger (Physique or lifting) than itself; a foe
 * stronger is attacked as usual; a holder squeezes; one held by a holder
 * no stronger than itself escapes. The knight's Physique 3D+1 is above
 * the brigand's 3D. */
Test(d6_grabs, tactics_grapple_chokes_the_weaker) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    S.c[0].tactics = D6_TAC_GRAPPLE;
    d6_state *st = d6_fx_st(f);
    d6_event cmd;
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_ATTACK);
    cr_assert_eq(cmd.grab, D6_GRAB_CHOKE);
    cr_assert_eq(cmd.target, 1);
    S.c[1].b.attr[D6_PHYSIQUE] = d6_fx_code("4D");
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.grab, D6_GRAB_NONE, "a stronger foe: no grab");
    S.c[1].b.attr[D6_PHYSIQUE] = d6_fx_code("3D+1");
    d6_fx_ok(f, "knight attack brigand grab choke", (const int[]){5, 5, 5, 5, 4, 2}, 6);
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_ESCAPE, "held by one no stronger: escape");
    fray_fight_free(f);
}

/* examples/d6/grapple.yaml loads with its brawlers grappling and plays
 * 200 fights through (to the end or the 20 rounds) with no command
 * refused; chokes and squeezes happen (003:11-12 in a sim). */
Test(d6_grabs, grapple_example_plays) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    d6_setup *s = NULL;
    cr_assert_eq(d6_load(FRAY_SOURCE_DIR "/examples/d6/grapple.yaml", NULL, &s, &d), FRAY_OK,
                 "%s:%d:%d: %s", d.file ? d.file : "?", d.line, d.column, d.message);
    cr_assert_eq(s->c[3].tactics, D6_TAC_GRAPPLE);
    cr_assert_eq(s->c[0].tactics, D6_TAC_MELEE);
    fray_setup fs = d6_fx_setup(s);
    int chokes = 0, squeezes = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL;
        cr_assert_eq(fray_fight_new(&fs, seed, &o, NULL, NULL, &f), FRAY_OK);
        if (fray_fight_run(f) != FRAY_OK) {
            char why[256];
            fray_fight_failure(f, why, sizeof why);
            cr_assert_fail("seed %llu: %s", (unsigned long long)seed, why);
        }
        for (int i = 0; i < fray_fight_events(f); i++) {
            char j[8192];
            fray_event_json(f, i, j, sizeof j);
            chokes += strstr(j, "\"grab\":\"choke\"") != NULL;
            squeezes += strstr(j, "\"action\":\"squeeze\"") != NULL;
        }
        fray_fight_free(f);
    }
    cr_assert_gt(chokes, 0);
    cr_assert_gt(squeezes, 0);
    d6_setup_free(s);
}

/* 003:14 "-3D or more, at the player's option": `grab hold 4` takes 4D
 * (12, standard) off the damage total: 2D [6,6,2 | 4] = 18 - 12 = 6
 * against [3]; the journal keeps the 4 and replays it. */
Test(d6_grabs, hold_more_dice_003_14) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab hold 4", (const int[]){5, 5, 5, 6, 6, 2, 4, 3}, 8);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"grab\":\"hold\",\"hold_dice\":4");
    d6_fx_has(j, "\"damage\":6,\"resistance\":3");
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight attack brigand grab hold 2", NULL, 0, &diag),
                 FRAY_ERR_PARSE);
    size_t n;
    char *text = fx_journal(f, 1 << 16, &n);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

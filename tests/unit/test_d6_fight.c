/* test_d6_fight.c - D6 through the shared layer (issue 18 "Everywhere the
 * other rulesets are"): the simulation of the fixture's duel (statistics
 * with a fixed seed, tolerances from the sample size), a fight's journal
 * read back to the same state (dice drawn and dice given by hand), an
 * edited journal refused, undo and redo, commands refused in words, and
 * the tactics a GM would recognise (docs/rules/d6.md "The tactics"). */
#include "d6_fixture.h"

#include <math.h>

#include "fray/sim.h"
#include "fray/view.h"
#include "fray/chances.h"

static d6_setup S;

/* The duel, 4000 trials: every trial ends inside the 60 rounds with a
 * winner; the knight (melee 5D, sword, chain mail) beats the brigand
 * (4D, club, leather) in more than half of them by over 4 standard
 * errors of a fair coin; the counts are the same on 1 and 2 threads. */
Test(d6_fight, sim_duel) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_sim_counts *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    cr_assert(a && b);
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 7;
    o.trials = 4000;
    o.threads = 1;
    cr_assert_eq(fray_sim(&fs, &o, NULL, a), FRAY_OK);
    o.threads = 2;
    cr_assert_eq(fray_sim(&fs, &o, NULL, b), FRAY_OK);
    cr_assert_eq(memcmp(a, b, sizeof *a), 0);
    cr_assert_eq(a->trials, 4000);
    cr_assert_eq(a->wins[0] + a->wins[1], 4000, "every duel ends with a winner");
    double n = 4000, p = (double)a->wins[0] / n;
    cr_assert_gt(p, 0.5 + 4 * sqrt(0.25 / n), "the knight wins %f", p);
    cr_assert_gt(a->c[0].by_kind[0], 0, "attacks counted");
    cr_assert_gt(a->c[1].taken[0], 0, "harm counted");
    cr_assert_str_eq(fray_sim_action_name(&fs, 0), "Attack");
    free(a);
    free(b);
}

/* The same fighters, the armour taken off the knight: the share it wins
 * falls (the resistance roll adds the armour, core), by more than 4
 * standard errors of the difference. */
Test(d6_fight, sim_armour_counts) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_sim_counts *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    cr_assert(a && b);
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    o.trials = 4000;
    o.threads = 1;
    cr_assert_eq(fray_sim(&fs, &o, NULL, a), FRAY_OK);
    S.c[0].b.armour = -1;
    cr_assert_eq(fray_sim(&fs, &o, NULL, b), FRAY_OK);
    double n = 4000, pa = (double)a->wins[0] / n, pb = (double)b->wins[0] / n;
    double se = sqrt(pa * (1 - pa) / n + pb * (1 - pb) / n);
    cr_assert_gt(pa - pb, 4 * se, "with chain mail %f, without %f", pa, pb);
    free(a);
    free(b);
}

/* A whole fight of each fixture by the tactics, written as JSON Lines and
 * read back onto a new fight: the same state (the dice drawn again must
 * match). */
Test(d6_fight, journal_round_trip) {
    for (int k = 0; k < 3; k++) {
        if (k == 0)
            d6_fx_duel(&S);
        else if (k == 1)
            d6_fx_brawl(&S);
        else
            d6_fx_firefight(&S);
        fray_setup fs = d6_fx_setup(&S);
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL, *g = NULL;
        cr_assert_eq(fray_fight_new(&fs, 11, &o, NULL, NULL, &f), FRAY_OK);
        while (!fray_fight_over(f)) {
            fray_status rc = fray_fight_step(f);
            char why[300] = "";
            fray_fight_failure(f, why, sizeof why);
            cr_assert_eq(rc, FRAY_OK, "%s", why);
        }
        cr_assert_geq(fray_fight_winner(f), 0, "fixture %d ends with a winner", k);
        size_t len;
        char *text = fx_journal(f, 1 << 21, &len);
        cr_assert_eq(fray_fight_new(&fs, 11, &o, NULL, NULL, &g), FRAY_OK);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK,
                     "fixture %d: %s", k, diag.message);
        cr_assert(fray_fight_same(f, g), "fixture %d", k);
        free(text);
        fray_fight_free(f);
        fray_fight_free(g);
    }
}

/* Dice given by hand are kept in the journal and replayed as given; undo
 * takes back the attack and redo brings it again. */
Test(d6_fight, given_dice_replay_undo_redo) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5), *g = NULL;
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 3, 4, 1, 1, 1};
    d6_fx_ok(f, "knight attack brigand", d, 12); /* 14 against 7: Wounded */
    d6_state *st = d6_fx_st(f);
    int level = st->c[1].wound;
    cr_assert_eq(level, d6_wound_after(D6_W_NONE, 14 - 7));
    size_t len;
    char *text = fx_journal(f, 1 << 21, &len);
    cr_assert(strstr(text, "\"given\":true"), "%s", text);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_NONE, "undo takes the hit back");
    cr_assert_eq(fray_fight_redo(f), FRAY_OK);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, level, "redo brings it again");
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* A drawn die edited in the journal no longer fits the stream: refused
 * with the event named. */
Test(d6_fight, edited_journal_refused) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL, *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 5, &o, NULL, NULL, &f), FRAY_OK);
    size_t len;
    char *text = fx_journal(f, 1 << 21, &len);
    char *v = strstr(text, "\"dice\":[");
    cr_assert_not_null(v);
    v += 8;
    *v = *v == '1' ? '2' : '1';
    cr_assert_eq(fray_fight_new(&fs, 5, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "differ"), "%s", diag.message);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* Commands refused in rules words, the offending token named. */
Test(d6_fight, commands_refused_in_words) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_refused(f, "brigand attack knight", FRAY_ERR_INVALID,
                  "it is Sir Aldo's turn, not Brigand's");
    d6_fx_refused(f, "knight attack nobody", FRAY_ERR_PARSE, "'nobody': no combatant of that id");
    d6_fx_refused(f, "knight fly", FRAY_ERR_PARSE,
                  "'fly': expected attack, defend, move, wait or aim");
    d6_fx_refused(f, "knight attack brigand actions 9", FRAY_ERR_PARSE,
                  "'9': expected the actions");
    d6_fx_refused(f, "knight attack brigand with axe", FRAY_ERR_PARSE, "'axe': no weapon");
    d6_fx_refused(f, "knight attack brigand with club", FRAY_ERR_INVALID, "does not hold the club");
    d6_fx_refused(f, "knight move 3;4", FRAY_ERR_PARSE, "X,Y in whole meters");
    d6_fx_refused(f, "next", FRAY_ERR_INVALID, "the round goes on: it is Sir Aldo's turn");
    const int bad[] = {7};
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(d6_fx_cmd(f, "knight defend", bad, 1, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "is not a roll of a d6"), "%s", diag.message);
    fray_fight_free(f);
}

/* The tactics (docs/rules/d6.md): a melee fighter 6 m away closes by a
 * free move (half its Move) and strikes in the same turn; outnumbered, a
 * guard attacks and dodges (two actions); archers in range shoot and do
 * not move. */
Test(d6_fight, tactics_a_gm_would_recognise) {
    d6_fx_duel(&S);
    S.o.initiative = D6_INIT_FIRST_ACTION;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(&fs, NULL, 0);
    cr_assert_eq(fray_fight_step(f), FRAY_OK);
    cr_assert_str_eq(fray_event_action(f, fray_fight_events(f) - 1), "move");
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Sir Aldo", "a free move");
    cr_assert_eq(fray_fight_step(f), FRAY_OK);
    cr_assert_str_eq(fray_event_action(f, fray_fight_events(f) - 1), "attack");
    fray_fight_free(f);

    d6_fx_brawl(&S);
    S.o.initiative = D6_INIT_FIRST_ACTION;
    for (int i = 2; i < 5; i++)
        S.c[i].x = 1; /* the thugs close around the guards */
    fs = d6_fx_setup(&S);
    f = d6_fx_start(&fs, NULL, 0);
    cr_assert_eq(fray_fight_step(f), FRAY_OK);
    char j[8192];
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"action\":\"attack\""), "%s", j);
    cr_assert(strstr(j, "\"actions\":2,\"defend\":true"), "outnumbered: %s", j);
    fray_fight_free(f);

    d6_fx_firefight(&S);
    S.o.initiative = D6_INIT_FIRST_ACTION;
    fs = d6_fx_setup(&S);
    f = d6_fx_start(&fs, NULL, 0);
    for (int k = 0; k < 5; k++) {
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
        cr_assert_str_eq(fray_event_action(f, fray_fight_events(f) - 1), "attack");
    }
    fray_fight_free(f);
}

/* The narration speaks rules words. */
Test(d6_fight, narration) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    char t[2048];
    fray_event_narrate(f, 0, t, sizeof t);
    cr_assert(strstr(t, "Round 1. Initiative:"), "%s", t);
    cr_assert(strstr(t, "1st: Sir Aldo (15)"), "%s", t);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 3, 4, 1, 1, 1};
    d6_fx_ok(f, "knight attack brigand", d, 12);
    fray_event_narrate(f, fray_fight_events(f) - 1, t, sizeof t);
    cr_assert(strstr(t, "Sir Aldo attacks Brigand: 20 against 10, a hit."), "%s", t);
    cr_assert(strstr(t, "Brigand takes 14 damage against a resistance of 7: Wounded."), "%s", t);
    fray_fight_summary(f, t, sizeof t);
    cr_assert(strstr(t, "Wounded"), "%s", t);
    fray_fight_draw_time(f, t, sizeof t);
    cr_assert(strstr(t, "now"), "%s", t);
    fray_fight_free(f);
}

/* The fight as data (include/fray/view.h): the Wound level track, the
 * order, the active defense to the defender's next turn, and the actions
 * of whoever's turn it is (attack only on a foe in reach). */
Test(d6_fight, view_of_a_fight) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {4, 3, 2, 5, 5}; /* the brigand first */
    fray_fight *f = d6_fx_start(&fs, init, 5);
    const int dodge[] = {3, 1, 1};
    d6_fx_ok(f, "brigand defend", dodge, 3);
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_eq(v->turn, 0);
    const fray_view_combatant *k = &v->combatants[0], *b = &v->combatants[1];
    cr_assert_str_eq(k->tracks[0].name, "Wound level");
    cr_assert_str_eq(k->tracks[0].descriptor, "unhurt");
    cr_assert_eq(b->order, 0);
    cr_assert(b->acted);
    cr_assert_eq(b->n_conditions, 1);
    cr_assert_str_eq(b->conditions[0].name, "dodging 7");
    bool attack = false, defend = false;
    for (int i = 0; i < k->n_actions; i++) {
        attack |= strcmp(k->actions[i].word, "attack") == 0;
        defend |= strcmp(k->actions[i].word, "defend") == 0;
    }
    cr_assert_not(attack, "the brigand is 6 m away: out of reach");
    cr_assert(defend);
    fray_fight_view_free(v);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    attack = false;
    for (int i = 0; i < v->combatants[0].n_actions; i++)
        if (strcmp(v->combatants[0].actions[i].word, "attack") == 0)
            attack = v->combatants[0].actions[i].n_targets == 1 &&
                     v->combatants[0].actions[i].targets[0] == 1;
    cr_assert(attack, "in reach now");
    fray_fight_view_free(v);
    fray_fight_free(f);
}

/* Whom an event names (issue 14): the attacker and its target. */
Test(d6_fight, event_names) {
    d6_fx_brawl(&S);
    S.o.initiative = D6_INIT_FIRST_ACTION;
    S.c[2].x = 1;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(&fs, NULL, 0);
    const int miss[] = {2, 1, 1, 1}; /* melee 4D+1: 6 */
    d6_fx_ok(f, "guard-1 attack thug-1", miss, 4);
    bool named[8];
    cr_assert_eq(fray_event_names(f, fray_fight_events(f) - 1, named, 8), 2);
    cr_assert(named[0] && named[2] && !named[1] && !named[3] && !named[4]);
    cr_assert_eq(fray_event_names(f, 0, named, 8), 5, "the opening names everyone");
    fray_fight_free(f);
}

/* Who wins from here (issue 19's forecasts through sim_from): from the
 * opening the knight wins some share; with the brigand Incapacitated
 * (-3D) the knight's share is higher by over 4 standard errors of the
 * difference (2000 trials each, fixed seed). */
Test(d6_fight, forecast_from_here) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    fray_forecast_opts o;
    memset(&o, 0, sizeof o);
    o.trials = 2000;
    o.threads = 1;
    o.seed = 3;
    fray_forecast a, b;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_forecast_run(f, &o, &a, &diag), FRAY_OK, "%s", diag.message);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 5, 2, 1, 1, 1, 6, 2, 5, 5};
    d6_fx_ok(f, "knight attack brigand", d, 16);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_INCAP);
    cr_assert_eq(fray_forecast_run(f, &o, &b, &diag), FRAY_OK, "%s", diag.message);
    double pa = a.sides[0].p, pb = b.sides[0].p;
    double se = sqrt(pa * (1 - pa) / 2000 + pb * (1 - pb) / 2000);
    cr_assert_gt(pb - pa, 4 * se, "from the opening %f, the brigand down to -3D %f", pa, pb);
    cr_assert_eq(a.trials, 2000);
    fray_fight_free(f);
}

/* A journal whose command the rules refuse where it stands (an attack
 * out of reach) is refused in words, the event named. */
Test(d6_fight, journal_with_a_refused_command) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5), *g = NULL;
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int miss[] = {2, 1, 1, 1, 1};
    d6_fx_ok(f, "knight attack brigand", miss, 5);
    size_t len;
    char *text = fx_journal(f, 1 << 21, &len);
    char *mv = strstr(text, "\"x\":5,\"y\":0},");
    cr_assert_not_null(mv, "%s", text);
    mv[4] = '1'; /* the move now goes to (1, 0): 5 m from the brigand */
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(&fs, 1, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "Brigand is out of reach of Sir Aldo"), "%s", diag.message);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* A journal's bad field is named: a die of 7 is no d6's roll. */
Test(d6_fight, journal_field_errors) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL, *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 5, &o, NULL, NULL, &f), FRAY_OK);
    size_t len;
    char *text = fx_journal(f, 1 << 21, &len);
    char *v = strstr(text, "\"dice\":[");
    cr_assert_not_null(v);
    v[8] = '7';
    cr_assert_eq(fray_fight_new(&fs, 5, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "expected a d6's roll (1 to 6)"), "%s", diag.message);
    cr_assert_gt(diag.column, 0);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* The simulation stops each fight at the round asked (until): no fight
 * is longer, and those cut short count as unfinished. */
Test(d6_fight, sim_until_round) {
    d6_fx_brawl(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_sim_counts *a = calloc(1, sizeof *a);
    cr_assert_not_null(a);
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 4;
    o.trials = 500;
    o.threads = 1;
    o.until_phase = 2;
    cr_assert_eq(fray_sim(&fs, &o, NULL, a), FRAY_OK);
    cr_assert_eq(a->trials, 500);
    for (int k = 3; k < FRAY_SIM_LENGTH_BINS; k++)
        cr_assert_eq(a->length[k], 0, "a fight of %d rounds", k);
    cr_assert_gt(a->unfinished, 0);
    cr_assert_eq(a->wins[0] + a->wins[1] + a->all_out + a->unfinished, 500);
    free(a);
}

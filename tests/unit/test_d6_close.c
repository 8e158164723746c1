/* test_d6_close.c - where the tactics' step toward a foe ends (core
 * "Movement": up to half its Move free, up to its Move an action;
 * src/rules/d6/close.c, docs/rules/d6.md ruling 69): never onto or past
 * the foe (a melee fighter stops within its reach), never onto a point
 * another combatant is on; boxed in, it waits. Runs (tactics-run, ruling
 * 56) keep to the same points. Whole fights of examples/d6/tavern.yaml,
 * where thugs walked onto the guards' points before, never put two
 * combatants on one point. */
#include <math.h>

#include "d6_fixture.h"

static d6_setup S;

/* A state of S at round 1, c[0] to act (the order as listed). */
static void at_turn_of_first(d6_state *st) {
    d6_state_init(&S, st, 1, 0);
    st->started = true;
    st->round = 1;
    st->n_order = (int8_t)S.n;
    for (int i = 0; i < S.n; i++)
        st->order[i] = (int8_t)i;
}

static double meters(int x0, int y0, int x1, int y1) {
    double dx = x1 - x0, dy = y1 - y0;
    return sqrt(dx * dx + dy * dy);
}

/* Core "Movement" (Move 10): the knight closes on the brigand from 4 to
 * 30 m away, straight and on a slant. Its step ends nearer than the foe
 * and not on it; when the foe is within its Move it ends within reach of
 * its sword (3 m, Point Blank), in one step (free up to 5 m, an action
 * up to 10 m). Before ruling 69 a foe 7 to 10 m away was walked onto. */
Test(d6_close, the_step_stops_short_of_the_foe_core_movement) {
    int walked_onto = 0;
    for (int slant = 0; slant < 3; slant++)
        for (int d = 4; d <= 30; d++) {
            d6_fx_duel(&S);
            S.c[1].x = (int16_t)d;
            S.c[1].y = (int16_t)(slant * d / 3);
            d6_state st;
            at_turn_of_first(&st);
            d6_event cmd;
            d6_choose(&S, &st, &cmd);
            cr_assert_eq(cmd.kind, D6_EV_MOVE, "the knight closes from (%d, %d)", S.c[1].x,
                         S.c[1].y);
            cr_assert_eq(d6_check_cmd(&S, &st, &cmd, NULL, 0), FRAY_OK);
            double foe = meters(0, 0, S.c[1].x, S.c[1].y);
            double step = meters(0, 0, cmd.x, cmd.y);
            double left = meters(cmd.x, cmd.y, S.c[1].x, S.c[1].y);
            cr_assert(cmd.x != S.c[1].x || cmd.y != S.c[1].y,
                      "ruling 69: not onto the foe's point (%d, %d)", S.c[1].x, S.c[1].y);
            cr_assert_lt(step, foe, "ruling 69: not past the foe at (%d, %d)", S.c[1].x,
                         S.c[1].y);
            cr_assert_leq(step, 10 + 1e-9, "core: at most its Move");
            if (foe <= 11)
                cr_assert_leq(left, 3, "from (%d, %d): it ends within its reach (3 m), "
                                       "not %.2f m away", S.c[1].x, S.c[1].y, left);
            else
                cr_assert_gt(step, 9, "a far foe: nearly its whole Move (%.2f m)", step);
            walked_onto += d >= 7 && d <= 10 && slant == 0;
        }
    cr_assert_eq(walked_onto, 4, "the cases the old step walked onto the foe were tried");
}

/* Ruling 69: the point the step would end on is a friend's (or a foe's
 * out of the fight, lying there): it ends a meter shorter on the line;
 * every point on the line taken, it waits rather than moving nowhere. */
Test(d6_close, the_step_never_ends_on_a_taken_point_ruling_69) {
    d6_fx_duel(&S);
    S.c[1].x = 8; /* the step ends at 7 m: within reach */
    const char *a[D6_ATTRS] = {"3D", "3D", "3D", "2D", "2D", "2D"};
    int friend = d6_fx_add(&S, "squire", "Squire", 0, a, "3D", "", "3D", D6_FX_CLUB, -1, 7, 0);
    d6_state st;
    at_turn_of_first(&st);
    d6_event cmd;
    d6_choose(&S, &st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_MOVE);
    cr_assert(cmd.x == 6 && cmd.y == 0, "a meter short of the squire: (%d, %d)", cmd.x, cmd.y);
    st.c[friend].flags |= D6_F_OUT; /* out of the fight, it still lies there */
    d6_choose(&S, &st, &cmd);
    cr_assert(cmd.kind == D6_EV_MOVE && cmd.x == 6 && cmd.y == 0);
    /* the brigand 5 m away (step 4 m): friends on every meter of the line */
    d6_fx_duel(&S);
    S.c[1].x = 5;
    for (int k = 1; k <= 4; k++) {
        char id[16];
        snprintf(id, sizeof id, "squire-%d", k);
        d6_fx_add(&S, id, id, 0, a, "3D", "", "3D", D6_FX_CLUB, -1, k, 0);
    }
    at_turn_of_first(&st);
    d6_choose(&S, &st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_WAIT, "boxed in on the line: it waits (kind %d)", cmd.kind);
    cr_assert_eq(d6_check_cmd(&S, &st, &cmd, NULL, 0), FRAY_OK);
}

/* Ruling 56 with 69: a run (tactics-run: yes, twice its Move) ends on
 * the same line a meter short of a point taken. */
Test(d6_close, a_run_never_ends_on_a_taken_point_ruling_56) {
    d6_fx_duel(&S);
    S.c[1].x = 40;
    S.o.tactics_run = true;
    const char *a[D6_ATTRS] = {"3D", "3D", "3D", "2D", "2D", "2D"};
    d6_fx_add(&S, "squire", "Squire", 0, a, "3D", "", "3D", D6_FX_CLUB, -1, 20, 0);
    d6_state st;
    at_turn_of_first(&st);
    d6_event cmd;
    d6_choose(&S, &st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_RUN);
    cr_assert(cmd.x == 19 && cmd.y == 0, "a meter short of the squire: (%d, %d)", cmd.x,
              cmd.y);
    cr_assert_eq(d6_check_cmd(&S, &st, &cmd, NULL, 0), FRAY_OK);
}

/* examples/d6/tavern.yaml, 300 fights stepped through: after every step
 * no two combatants share a point (the thugs run and walk up to the
 * pikeman and the acrobat; ruling 69). */
Test(d6_close, tavern_fights_never_share_a_point_ruling_69) {
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_load(FRAY_SOURCE_DIR "/examples/d6/tavern.yaml", NULL, &s, &diag),
                 FRAY_OK, "%s", diag.message);
    fray_fight_options o = {.journal = false, .facts = false, .until = 0};
    long steps = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        fray_fight *f = NULL;
        cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
        while (!fray_fight_over(f)) {
            fray_status rc = fray_fight_step(f);
            char why[300] = "";
            fray_fight_failure(f, why, sizeof why);
            cr_assert_eq(rc, FRAY_OK, "%s", why);
            steps++;
            const d6_state *st = d6_fx_st(f);
            for (int i = 0; i < st->n; i++)
                for (int j = i + 1; j < st->n; j++)
                    cr_assert(st->c[i].x != st->c[j].x || st->c[i].y != st->c[j].y,
                              "fight %llu, round %d: %s and %s both at (%d, %d)",
                              (unsigned long long)seed, (int)st->round,
                              fray_setup_combatant_name(s, i),
                              fray_setup_combatant_name(s, j), st->c[i].x, st->c[i].y);
        }
        fray_fight_free(f);
    }
    cr_assert_gt(steps, 300);
    fray_setup_free(s);
}

/* The duel with the brigand at (brigand_x, 0) and a squire of the
 * knight's side at (squire_x, 0) (its index in *out_sq), begun with the
 * knight first (initiative 15, 6 and 2); *fs over S, borrowed by the
 * fight. */
static fray_fight *duel_with_squire(int brigand_x, int squire_x, fray_setup *fs, int *out_sq) {
    d6_fx_duel(&S);
    S.c[1].x = (int16_t)brigand_x;
    const char *a[D6_ATTRS] = {"3D", "3D", "3D", "2D", "2D", "2D"};
    *out_sq = d6_fx_add(&S, "squire", "Squire", 0, a, "3D", "", "3D", D6_FX_CLUB, -1,
                        squire_x, 0);
    *fs = d6_fx_setup(&S);
    const int d[] = {5, 5, 5, 2, 2, 1, 1};
    fray_fight *f = d6_fx_start(fs, d, 7);
    cr_assert_eq(d6_fx_st(f)->order[0], 0, "the knight acts first");
    return f;
}

/* Ruling 71: the GM's `move` onto a point another combatant holds is
 * refused, saying who stands (or lies) there; a point beside it is
 * taken. The knight (first: initiative 15 and 6) is 6 m from the
 * brigand; a squire of its side stands at (3, 0). */
Test(d6_close, the_gms_move_onto_a_taken_point_is_refused_ruling_71) {
    fray_setup fs;
    int sq;
    fray_fight *f = duel_with_squire(6, 3, &fs, &sq);
    d6_state *st = d6_fx_st(f);
    d6_fx_refused(f, "knight move 3,0", FRAY_ERR_INVALID,
                  "Sir Aldo cannot end its move on (3, 0): Squire stands there");
    d6_fx_refused(f, "knight move 6,0", FRAY_ERR_INVALID, "Brigand stands there");
    cr_assert(st->c[0].x == 0 && st->c[0].y == 0, "a refused move leaves it where it was");
    st->c[sq].flags |= D6_F_OUT; /* one lying there, out of the fight, still holds it */
    d6_fx_refused(f, "knight move 3,0", FRAY_ERR_INVALID,
                  "Squire lies, out of the fight, there");
    d6_fx_ok(f, "knight move 3,1", NULL, 0);
    cr_assert(st->c[0].x == 3 && st->c[0].y == 1, "beside the squire: (%d, %d)", st->c[0].x,
              st->c[0].y);
    fray_fight_free(f);
}

/* Ruling 71 for `run` (core running, ruling 53): onto the brigand's
 * point 30 m away it is refused; beside it, it is a run. */
Test(d6_close, the_gms_run_onto_a_taken_point_is_refused_ruling_71) {
    d6_fx_duel(&S);
    S.c[1].x = 30;
    fray_setup fs = d6_fx_setup(&S);
    const int d[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, d, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 0);
    d6_fx_refused(f, "knight run 30,0", FRAY_ERR_INVALID,
                  "Sir Aldo cannot end its run on (30, 0): Brigand stands there");
    d6_fx_ok(f, "knight run 29,0", NULL, 0);
    fray_fight_free(f);
}

/* 003:91: a crouching combatant's Move is halved. The tactics' step for
 * the crouching knight (Move 10) is at most 5 m, the step the move check
 * allows, from 4 to 30 m (before, it stepped up to 10 m, which the check
 * refuses: "moves at most 5 m a round"). */
Test(d6_close, a_crouching_step_is_half_the_move_003_91) {
    int longer_than_half = 0;
    for (int d = 4; d <= 30; d++) {
        d6_fx_duel(&S);
        S.c[0].posture = D6_POSTURE_CROUCHING;
        S.c[1].x = (int16_t)d;
        d6_state st;
        at_turn_of_first(&st);
        cr_assert_eq(st.c[0].posture, D6_POSTURE_CROUCHING);
        cr_assert_eq(d6_move_now(&S, &st, 0), 5, "003:91: Move 10 halved");
        d6_event cmd;
        d6_choose(&S, &st, &cmd);
        cr_assert_eq(cmd.kind, D6_EV_MOVE, "the knight closes from %d m", d);
        double step = meters(0, 0, cmd.x, cmd.y);
        cr_assert_leq(step, 5 + 1e-9, "003:91: from %d m a crouching step of %.2f m", d, step);
        char why[200] = "";
        cr_assert_eq(d6_check_cmd(&S, &st, &cmd, why, sizeof why), FRAY_OK,
                     "from %d m the move check refuses the tactics' step: %s", d, why);
        longer_than_half += d - 1 > 5; /* the foe farther than the halved Move */
    }
    cr_assert_gt(longer_than_half, 0, "steps the full Move would have made longer were tried");
}

/* Ruling 72 (with ruling 54): a failed running roll covers the Move only,
 * on the line; its point taken, it stops a meter shorter. The knight
 * (Move 10) runs for (25, 0) (difficulty 15, ruling 53) and rolls [2 2
 * 2] + 1 = 7: it stops at 10 m, where its squire stands, so at 9 m. */
Test(d6_close, a_failed_run_stops_on_a_free_point_ruling_72) {
    fray_setup fs;
    int sq;
    fray_fight *f = duel_with_squire(30, 10, &fs, &sq);
    d6_state *st = d6_fx_st(f);
    d6_fx_ok(f, "knight run 25,0", (const int[]){2, 2, 2}, 3);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"run\",\"who\":\"knight\",\"total\":7,\"difficulty\":15");
    cr_assert(st->c[0].x == 9 && st->c[0].y == 0,
              "ruling 72: a meter short of the squire at (10, 0), not (%d, %d)", st->c[0].x,
              st->c[0].y);
    cr_assert(st->c[sq].x == 10, "the squire stays");
    fray_fight_free(f);
}

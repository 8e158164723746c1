/*
 * test_alloy_turn_speed.c - the turn's kept counts (issue 16)
 * held to the long way.
 *
 * turn.c keeps, in fa_state, counts that let a turn with nothing to end
 * cost nothing whatever the crowd: turn_conds[w] (the conditions on
 * anyone ending at w's turn's start or end, or with w's sustain: 004:277,
 * 279, 576-577, 615), n_delaying (004:573), n_grappled and grapple_begun
 * (004:617-618), n_ready (004:651), n_suppressing (004:701); and fa_check_over remembers two
 * combatants of two sides it last found standing (over_seen). Here:
 *   - after every step of whole fights (every Alloy example with more
 *     than two combatants, the bench's mixed crowds of
 *     bench/alloy-crowds/ and an open 8-against-8), each count equals a
 *     recount of everyone's conditions, and the fight is over exactly
 *     when the long way (every combatant looked at) finds fewer than two
 *     sides standing, with its winner;
 *   - the same after each command of a hand-made fight that delays and
 *     comes back, readies an action, grapples and sustains it, and puts
 *     on conditions ending at the start or end of a turn, by a save, by
 *     a use, and taken off by the GM;
 *   - fa_check_over when those it remembered have fallen.
 * Debug builds also recount on every use in turn.c and act.c.
 */
#include "alloy_fixture.h"

#include "alloy_side_by_side.h"

/* What the fights met, so that a test can say it met each count at work. */
typedef struct seen {
    long steps, turn_conds, delaying, grappled, ready, overs, winners;
} seen;

/* The long way: every condition of everyone counted again, each count
 * equal to turn.c's. */
static void counts_hold(const fa_state *st, const char *what, long step, seen *sn) {
    uint16_t tc[FA_MAX_COMBATANTS] = {0};
    int nd = 0, ng = 0, nr = 0, ns = 0;
    for (int j = 0; j < st->n; j++)
        for (int i = 0; i < st->c[j].n_cond; i++) {
            const fa_cond *k = &st->c[j].cond[i];
            nd += k->kind == FA_C_DELAYING;
            ng += k->kind == FA_C_GRAPPLED;
            nr += k->kind == FA_C_READY;
            ns += k->kind == FA_C_SUPPRESSING;
            bool turn = k->ends == FA_ENDS_START_OF_TURN || k->ends == FA_ENDS_END_OF_TURN ||
                        k->ends == FA_ENDS_USED || k->ends == FA_ENDS_SUSTAIN;
            if (turn && k->whose >= 0 && k->whose < FA_MAX_COMBATANTS)
                tc[k->whose]++;
        }
    long any = 0;
    for (int w = 0; w < FA_MAX_COMBATANTS; w++) {
        cr_assert_eq(tc[w], st->turn_conds[w],
                     "%s, step %ld: %d conditions end with c%d's turn, kept %d", what, step,
                     tc[w], w, st->turn_conds[w]);
        any += tc[w];
    }
    cr_assert_eq(nd, st->n_delaying, "%s, step %ld: delaying %d, kept %d", what, step, nd,
                 st->n_delaying);
    cr_assert_eq(ng, st->n_grappled, "%s, step %ld: grappled %d, kept %d", what, step, ng,
                 st->n_grappled);
    cr_assert_eq(nr, st->n_ready, "%s, step %ld: readied %d, kept %d", what, step, nr,
                 st->n_ready);
    cr_assert_eq(ns, st->n_suppressing, "%s, step %ld: suppressing %d, kept %d", what, step,
                 ns, st->n_suppressing);
    /* fa_grapple_upkeep passes by only when nobody grapples. */
    if (ng == 0 && !st->grapple_begun)
        for (int g = 0; g < st->n; g++)
            cr_assert_lt(st->c[g].grappling, 0, "%s, step %ld: c%d grapples unseen", what,
                         step, g);
    if (sn) {
        sn->steps++;
        sn->turn_conds += any > 0;
        sn->delaying += nd > 0;
        sn->grappled += ng > 0;
        sn->ready += nr > 0;
    }
}

/* The long way of the fight's end (004:241 those still to join stand
 * unless they come after the round limit): how many sides stand, and
 * one of them in *only. */
static int sides_standing(const fa_setup *s, const fa_state *st, int *only) {
    int limit = s->round_limit > 0 ? s->round_limit : 100;
    bool side[FA_MAX_SIDES + 1] = {false};
    int k = 0;
    for (int i = 0; i < s->n && i < FA_MAX_COMBATANTS; i++) {
        bool stands = i < st->n ? !((st->c[i].flags & FA_F_OUT) || fa_has(&st->c[i], FA_C_DEAD))
                                : s->c[i].joins <= limit;
        if (!stands)
            continue;
        int sd = s->c[i].side;
        if (sd < 0 || sd > FA_MAX_SIDES)
            sd = FA_MAX_SIDES;
        if (!side[sd]) {
            side[sd] = true;
            k++;
            *only = sd;
        }
    }
    return k;
}

/* Not over while two sides stand; over by the sides with the long way's
 * winner (the round limit's end, winner -1, is the clock's). */
static void over_holds(const fa_setup *s, const fa_state *st, const char *what, long step,
                       seen *sn) {
    int only = -1;
    int k = sides_standing(s, st, &only);
    if (!st->over) {
        cr_assert_gt(k, 1, "%s, step %ld: one side stands, the fight goes on", what, step);
        return;
    }
    if (sn)
        sn->overs++;
    if (st->winner != -1) {
        cr_assert_leq(k, 1, "%s, step %ld: over with two sides standing", what, step);
        cr_assert_eq(st->winner, k == 1 ? only : -2, "%s, step %ld: winner", what, step);
        if (sn)
            sn->winners++;
    }
}

/* Each count held from each trial's start (step -1). */
static void start_holds(void *ctx, const fa_setup *s, fa_state *st, const char *file) {
    (void)s;   /* the counts are the state's alone */
    counts_hold(st, file, -1, ctx);
}

/* Each count and the end held after every step. */
static void step_holds(void *ctx, const fa_setup *s, fa_state *st, const fa_run *r,
                       const char *file, int trial, long step) {
    (void)r;
    (void)trial;
    counts_hold(st, file, step, ctx);
    over_holds(s, st, file, step, ctx);
}

/* Trials of the fight in file (under FRAY_SOURCE_DIR), stepped as
 * alloy.c's step does (the tactics' command, or the next turn), each
 * count and the end held after every step. */
static void run_fights(const char *file, int trials, seen *sn) {
    static const asbs_hooks hooks = {start_holds, NULL, step_holds};
    asbs_run(file, trials, &hooks, sn);
}

/* Issue 16 (004:277-279, 573, 617, 651; the fight's end): every count
 * and the end after every step of whole fights in crowds and the
 * examples; the fights end, most with a winner. */
Test(alloy_turn_speed, kept_counts_over_whole_fights_issue16) {
    seen sn;
    memset(&sn, 0, sizeof sn);
    for (size_t i = 0; i < ASBS_FILES; i++)
        run_fights(asbs_files[i], 12, &sn);
    cr_log_info("%ld steps: conditions ending with a turn at %ld, delaying %ld, grappled %ld, "
                "readied %ld; %ld over, %ld with a winner",
                sn.steps, sn.turn_conds, sn.delaying, sn.grappled, sn.ready, sn.overs,
                sn.winners);
    cr_assert_gt(sn.steps, 5000);
    cr_assert_eq(sn.overs, (long)ASBS_FILES * 12);
    cr_assert_gt(sn.winners, 50);
    /* the counts were met at work, not only at 0 */
    cr_assert_gt(sn.turn_conds, 100, "conditions ending with a turn: %ld steps", sn.turn_conds);
    cr_assert_gt(sn.ready, 0, "a readied action");
}

/* ---- A hand-made fight ------------------------------------------------------ */

/* Four on an open map, two a side: Ana (0) and Bo (1) against Cy (2)
 * and Di (3); Ana next to Cy. The listed order is the initiative. */
static fixture *four(void) {
    fixture *f = af_new(10, 10);
    int club = af_weapon(f, "club", FA_WK_MELEE, 6, 1, 0);
    int sb = af_block(f, "fighter", 6, 0, 30);
    af_give(f, sb, club, 0);
    af_add(f, "Ana", sb, 0, 2, 2);
    af_add(f, "Bo", sb, 0, 2, 6);
    af_add(f, "Cy", sb, 1, 3, 2);
    af_add(f, "Di", sb, 1, 7, 7);
    for (int i = 0; i < f->s.n; i++)
        f->s.c[i].wield = 0;
    af_go(f);
    return f;
}

#define HOLD(f, what) \
    do { \
        counts_hold(&(f)->st, what, 0, NULL); \
        over_holds(&(f)->s, &(f)->st, what, 0, NULL); \
    } while (0)

/* 004:277-279, 428, 576-579, 615-617, 651: conditions ending at a turn's
 * start or end, by a save and by a use, a delay and the return, a
 * readied action, a grapple sustained then lapsing; each count held to
 * the recount after every command. */
Test(alloy_turn_speed, kept_counts_by_hand_issue16_004_277) {
    fixture *f = four();
    HOLD(f, "begun");
    cr_assert_eq(f->st.cur, 0);
    af_cond(f, 2, FA_C_DAZED, FA_ENDS_END_OF_TURN, 0, 0);
    af_cond(f, 3, FA_C_SLOWED, FA_ENDS_START_OF_TURN, 1, 0);
    af_cond(f, 1, FA_C_AID_ATTACK, FA_ENDS_USED, 0, 2);
    af_cond(f, 2, FA_C_PRONE, FA_ENDS_SAVE, -1, 0);
    HOLD(f, "conditions on");
    cr_assert_eq(f->st.turn_conds[0], 2);
    cr_assert_eq(f->st.turn_conds[1], 1);
    /* the same effect again replaces the old: counted once */
    af_cond(f, 2, FA_C_DAZED, FA_ENDS_END_OF_TURN, 0, 0);
    HOLD(f, "the same again");
    cr_assert_eq(f->st.turn_conds[0], 2);
    /* Ana grapples Cy (d20 20: a hit) */
    fa_command g = af_target(FA_CMD_GRAPPLE, 0, 2);
    cr_assert_eq(af_do_dice(f, &g, (int[]){20, 20, 20}, 3), FRAY_OK, "%s", f->why);
    HOLD(f, "grapple");
    cr_assert(f->st.grapple_begun);
    cr_assert_eq(f->st.n_grappled, 1);
    cr_assert_eq(f->st.c[0].grappling, 2);
    af_end_turn(f);
    HOLD(f, "Ana's turn ended");
    /* Bo delays (004:571): Delaying counted; then Cy's turn, Bo back */
    cr_assert_eq(f->st.cur, 1);
    fa_command dl = af_cmd(FA_CMD_DELAY, 1);
    cr_assert_eq(af_do(f, &dl), FRAY_OK, "%s", f->why);
    HOLD(f, "Bo delays");
    cr_assert_eq(f->st.n_delaying, 1);
    cr_assert_eq(af_next(f), FRAY_OK);
    HOLD(f, "Cy's turn");
    cr_assert_eq(f->st.cur, 2);
    af_end_turn(f);
    HOLD(f, "Cy's turn ended");
    cr_assert(f->st.between, "Bo may come back");
    fa_command back = af_cmd(FA_CMD_RESUME, 1);
    cr_assert_eq(af_do(f, &back), FRAY_OK, "%s", f->why);
    HOLD(f, "Bo comes back");
    cr_assert_eq(f->st.n_delaying, 0);
    af_end_turn(f);
    HOLD(f, "Bo's turn ended");
    /* Di readies an attack on whoever comes next to it (004:643-651) */
    while (f->st.cur != 3 && !f->st.over) {
        af_end_turn(f);
        HOLD(f, "to Di's turn");
    }
    fa_command rd = af_cmd(FA_CMD_READY, 3);
    rd.ready.trigger = FA_TRIG_MOVES_ADJACENT;
    rd.ready.kind = FA_CMD_ATTACK;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    HOLD(f, "Di readies");
    cr_assert_eq(f->st.n_ready, 1);
    /* rounds go by: every condition ending with a turn comes off in time */
    for (int k = 0; k < 12 && !f->st.over; k++) {
        af_end_turn(f);
        HOLD(f, "rounds");
    }
    cr_assert_eq(f->st.n_ready, 0, "the readied action was lost at Di's turn (004:651)");
    /* Ana never sustained her grapple: it lapsed at a turn's end (L7.17) */
    cr_assert_eq(f->st.n_grappled, 0);
    cr_assert_lt(f->st.c[0].grappling, 0);
    for (int w = 0; w < 4; w++)
        cr_assert_eq(f->st.turn_conds[w], 0);
    free(f);
}

/* The fight's end (issue 16, fa_check_over's remembered pair): those it
 * remembered fall one by one; the fight goes on while someone of each
 * side stands, and ends with the side left. */
Test(alloy_turn_speed, over_when_the_remembered_fall_issue16) {
    fixture *f = four();
    af_end_turn(f);
    HOLD(f, "a turn");
    cr_assert(!f->st.over);
    cr_assert(f->st.over_seen[0] > 0 && f->st.over_seen[1] > 0);
    /* kill whoever is remembered until a side is down */
    for (int k = 0; k < 3 && !f->st.over; k++) {
        int who = f->st.over_seen[k & 1] - 1;
        cr_assert(who >= 0 && who < f->st.n);
        af_cond(f, who, FA_C_DEAD, FA_ENDS_EVENT, -1, 0);
        f->st.c[who].flags |= FA_F_OUT;
        bool over = fa_check_over(&f->r);
        int only = -1;
        int sides = sides_standing(&f->s, &f->st, &only);
        cr_assert_eq(over, sides < 2, "fall %d: %d sides stand", k, sides);
        HOLD(f, "a fall");
    }
    cr_assert(f->st.over);
    int only = -1;
    cr_assert_eq(sides_standing(&f->s, &f->st, &only), 1);
    cr_assert_eq(f->st.winner, only);
    free(f);
}

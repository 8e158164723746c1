/*
 * test_towers_clock_step.c - the clock's step of a quiet fight
 * (engine.c ft_phase_quiet, fight.c run_quiet) is the clock's step as
 * recorded (ft_apply of FT_CMD_PHASE): seed 000 "Start of Phase
 * Activities", "Zero Phases"; RULINGS 15.
 *
 * The quiet step finds the zero phases on its way from the quotient it
 * needs for the round (engine.c zero_on_way) instead of asking
 * first_zero_after. Here both steps start from the same state, for clock
 * moves that pass no zero phase, one, or several, that start or end on
 * one, and that lie before phase 0 (a table may put someone there), with
 * and without a dying combatant (who loses LETHAL in each zero phase), and
 * the whole states after them must be equal.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "towers_fixture.h"
#include "towers_int.h"

/* The duel after its initiative, with the clock at `from`, combatant 0
 * next at `to` (combatant 1 later), and combatant 1 at `lethal`. */
static void place(fray_towers_fight *f, int from, int to, int lethal) {
    ft_state *st = &f->st;
    st->phase = from;
    st->round = from / 10 + 1;
    st->c[0].phase = to;
    st->c[1].phase = to + 7;
    st->c[1].lethal = (int16_t)lethal;
}

static void same_step(fray_towers_fight *quiet, fray_towers_fight *told,
                      int from, int to, int lethal) {
    cr_assert_eq(fray_towers_fight_reset_trial(quiet, 5, 0), FRAY_OK);
    cr_assert_eq(fray_towers_fight_reset_trial(told, 5, 0), FRAY_OK);
    place(quiet, from, to, lethal);
    place(told, from, to, lethal);
    cr_assert_eq(memcmp(&quiet->st, &told->st, sizeof quiet->st), 0);
    cr_assert_eq(ft_next_actor(&quiet->st), 0);

    /* The quiet step, as run_quiet makes it. */
    ft_run r;
    memset(&r, 0, sizeof r);
    r.setup = &quiet->setup->s;
    r.st = &quiet->st;
    r.ev = &quiet->scratch;
    r.hooks = &ft_policy_hooks;
    int next = ft_phase_quiet(&r, 0, true);

    /* The step as recorded. */
    ft_event ev;
    memset(&ev, 0, sizeof ev);
    ev.cmd.action = FT_CMD_PHASE;
    ev.cmd.actor = -1;
    ev.cmd.target = -1;
    ft_run t;
    memset(&t, 0, sizeof t);
    t.setup = &told->setup->s;
    t.st = &told->st;
    t.ev = &ev;
    t.hooks = &ft_policy_hooks;
    t.facts = true;
    cr_assert_eq(ft_apply(&t), FRAY_OK, "%d -> %d", from, to);

    cr_expect_eq(next, ft_next_actor(&told->st), "%d -> %d: next", from, to);
    cr_expect_eq(quiet->st.phase, to);
    cr_expect_eq(quiet->st.round, told->st.round, "%d -> %d: round", from,
                 to);
    cr_expect_eq(quiet->st.c[1].lethal, told->st.c[1].lethal,
                 "%d -> %d: LETHAL lost in zero phases", from, to);
    cr_expect_eq(memcmp(&quiet->st, &told->st, sizeof quiet->st), 0,
                 "%d -> %d (LETHAL %d): the same state", from, to, lethal);
}

Test(towers_clock_step, quiet_step_is_the_recorded_one) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    fray_towers_fight *quiet = NULL, *told = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 5, &o, NULL, &quiet), FRAY_OK);
    cr_assert_eq(fray_towers_fight_new(s, 5, &o, NULL, &told), FRAY_OK);
    static const int moves[][2] = {
        {0, 5},   {3, 9},    {3, 10},  {9, 10},   {10, 11},  {10, 20},
        {10, 19}, {5, 35},   {19, 41}, {20, 29},  {21, 40},  {0, 100},
        {-7, -3}, {-7, 0},   {-10, -1}, {-11, -10}, {-25, -1}, {-25, 4},
        {-3, 17}, {-30, 30}, {-1, 0},  {0, 10},   {99, 100}, {100, 101}};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        same_step(quiet, told, moves[i][0], moves[i][1], 10);
        same_step(quiet, told, moves[i][0], moves[i][1], -1);
    }
    fray_towers_fight_free(quiet);
    fray_towers_fight_free(told);
    fray_towers_setup_free(s);
}

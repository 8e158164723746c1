/* test_winter_time.c - Silent Winter's segments (seed 002 "The Initiative
 * Count", 002:7-15): declaring costs one segment then the delay, Engage
 * takes effect at the end of its delay, the opening 1 + 1d6, waiting, the
 * minimum delay; the worked example of Lothaire and the Walking Corpse. */
#include "winter_fixture.h"

/* 002:15 with engage-delay: 5 (the example's number): Lothaire declares
 * Engage on 1 and may declare his first attack on 7; the corpse rolls a
 * 4, first declares on 5, Engages, and declares its first attack on 11.
 * Lothaire's Engage takes effect at the end of 6, the corpse's at the end
 * of 10 (002:9: Engage takes effect when the delay ends). */
Test(winter_time, lothaire_example_engage_delay_5) {
    fray_setup *s = sw_t_load("tests/data/winter/lothaire5.yaml");
    int d6[] = {4};
    fray_fight *f = sw_t_start(s, d6, 1);
    int lo = sw_t_who(f, "lothaire"), co = sw_t_who(f, "corpse");
    sw_state *st = sw_t_st(f);
    cr_assert_eq(st->c[lo].ready, 1, "the initiator declares on segment 1 (002:13)");
    cr_assert_eq(st->c[co].ready, 5, "a d6 of 4: first declaration on 5 (002:15)");
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    cr_assert_eq(st->c[lo].ready, 7);
    sw_t_refused(f, "corpse engage lothaire", "may declare again on segment 5");
    sw_t_to(f, 5);
    sw_t_do(f, "corpse engage lothaire", NULL, 0);
    cr_assert_eq(st->c[co].ready, 11);
    sw_t_to(f, 6);
    cr_assert_eq(st->c[lo].engages, -1, "not before the end of segment 6");
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(st->c[lo].engages, co, "Lothaire's Engage at the end of 6");
    /* 002:21: the corpse engages nobody (its own Engage is pending) and
     * takes the Reciprocal Engage at once */
    cr_assert_eq(st->c[co].engages, lo);
    sw_t_do(f, "lothaire attack corpse", (int[]){2, 19}, 2); /* a miss */
    sw_t_refused(f, "corpse attack lothaire", "may declare again on segment 11");
    sw_t_to(f, 11);
    cr_assert_eq(st->c[co].pend_kind, SW_PEND_NONE, "its Engage ended at 10");
    sw_t_do(f, "corpse attack lothaire", (int[]){2, 19}, 2);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The same scene with the rule text's delay of 3 (002:19, the default):
 * ready on 5 and on 9. With a delay of 3 Lothaire's Engage takes effect
 * at the end of 4, before the corpse may declare, so a corpse that takes
 * the Reciprocal Engage need not Engage at all: the example's own Engage
 * on 5 is the corpse that declines it (noreply.yaml). */
Test(winter_time, lothaire_example_engage_delay_3) {
    fray_setup *s = sw_t_load("tests/data/winter/noreply.yaml");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_vary(s, "engage-delay", "3", &diag), FRAY_OK);
    fray_fight *f = sw_t_start(s, (int[]){4}, 1);
    int lo = sw_t_who(f, "lothaire"), co = sw_t_who(f, "corpse");
    sw_state *st = sw_t_st(f);
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    cr_assert_eq(st->c[lo].ready, 5);
    sw_t_to(f, 5);
    sw_t_do(f, "corpse engage lothaire", NULL, 0);
    cr_assert_eq(st->c[co].ready, 9);
    cr_assert_eq(st->c[lo].engages, co, "Lothaire's Engage took effect at the end of 4");
    sw_t_to(f, 9);
    cr_assert_eq(st->c[co].engages, lo, "the corpse's at the end of 8");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:21, 27 (checklist A6.1's derived check): without the Reciprocal
 * Engage the corpse is Undefended against Lothaire from the end of 6 until
 * its own Engage takes effect at the end of 10. */
Test(winter_time, corpse_undefended_until_its_engage) {
    fray_setup *s = sw_t_load("tests/data/winter/noreply.yaml");
    fray_fight *f = sw_t_start(s, (int[]){4}, 1);
    int lo = sw_t_who(f, "lothaire"), co = sw_t_who(f, "corpse");
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    sw_t_to(f, 5);
    sw_t_do(f, "corpse engage lothaire", NULL, 0);
    sw_t_to(f, 7);
    cr_assert_eq(st->c[lo].engages, co);
    cr_assert_eq(st->c[co].engages, -1);
    cr_assert(sw_undefended(sd, st, co, lo, false));
    cr_assert_not(sw_undefended(sd, st, lo, co, false));
    sw_t_to(f, 11);
    cr_assert_eq(st->c[co].engages, lo);
    cr_assert_not(sw_undefended(sd, st, co, lo, false));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:11: "The minimum delay on any action is 1, which allows a character
 * to act every other segment": a delay-1 action repeated declares on s,
 * s + 2, s + 4 (Take Cover, 002:49). */
Test(winter_time, minimum_delay_every_other_segment) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    int ar = sw_t_who(f, "archer");
    sw_state *st = sw_t_st(f);
    st->c[ar].cover = SW_COVER_NONE;
    sw_t_do(f, "archer cover partial", NULL, 0);
    cr_assert_eq(st->c[ar].ready, 3);
    sw_t_refused(f, "archer cover partial", "may declare again on segment 3");
    sw_t_to(f, 3);
    st->c[ar].cover = SW_COVER_NONE;
    sw_t_do(f, "archer cover partial", NULL, 0);
    cr_assert_eq(st->c[ar].ready, 5);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:9 "Once those segments have passed, you may declare another
 * action" (ruling: waiting is free): one who waits may declare on a later
 * segment, and a wait is no declaration of a delay. */
Test(winter_time, waiting_costs_nothing) {
    fray_setup *s = sw_t_load("examples/silent-winter/duel.yaml");
    fray_fight *f = sw_t_start(s, (int[]){2}, 1);
    int lo = sw_t_who(f, "lothaire");
    sw_state *st = sw_t_st(f);
    sw_t_do(f, "lothaire wait", NULL, 0);
    sw_t_refused(f, "lothaire engage corpse", "has waited on segment 1");
    cr_assert_eq(st->c[lo].ready, 1);
    sw_t_to(f, 3);
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    cr_assert_eq(st->c[lo].ready, 3 + 1 + 3);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:13: every other character rolls 1d6 for its first declaration; a
 * d6 given out of 1..6 is refused. */
Test(winter_time, opening_dice_by_hand) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    fray_given g = {NULL, 0, (int[]){1, 7, 3, 4}, 4, NULL};
    cr_assert_neq(fray_fight_new(s, 1, &o, &g, NULL, &f), FRAY_OK);
    f = sw_t_start(s, (int[]){1, 6, 3, 4}, 4);
    sw_state *st = sw_t_st(f);
    cr_assert_eq(st->c[sw_t_who(f, "bandit-1")].ready, 1);
    cr_assert_eq(st->c[sw_t_who(f, "warrior")].ready, 2);
    cr_assert_eq(st->c[sw_t_who(f, "rogue")].ready, 7);
    cr_assert_eq(st->c[sw_t_who(f, "bandit-3")].ready, 5);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The delays table (002:19, 31, 47, 49, 83-90 and the rulings
 * attack-delay and Avoid 0). */
Test(winter_time, delays_table) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    fray_fight *f = sw_t_start(s, (int[]){1, 1, 1}, 3);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int ar = sw_t_who(f, "archer"), lo = sw_t_who(f, "lothaire");
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_ENGAGE, lo, ar), 3);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_SNIPE, ar, -1), 3);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_SWITCH, lo, ar), 1);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_DISENGAGE, lo, ar), 1);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_CHASE, lo, ar), 1);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_COVER, lo, -1), 1);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_AVOID, lo, ar), 0);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_MEDICINE, lo, ar), 10);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_MEDICINE, lo, lo), 15);
    cr_assert_eq(sw_delay_of(sd, st, SW_EV_ATTACK, lo, ar), 3, "attack-delay: 3");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* test_winter_melee.c - melee without a map (seed 002 "Melee Combat",
 * 002:17-31) and Sniping (002:47): Engage, Reciprocal Engage, Avoid,
 * Undefended, Switching Targets, Bugging Out, the limit of four engagers,
 * chasing a sniper. */
#include "winter_fixture.h"

/* 002:29, the scene as the text tells it: three attackers; the hero
 * reciprocally Engaged the first (the Warrior) and is Undefended against
 * the others (002:27); an Agility roll against the Warrior switches him
 * to the Rogue, and he is then Undefended against the Warrior. */
Test(winter_melee, switching_targets_scene) {
    fray_setup *s = sw_t_load("tests/data/winter/switch.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 1, 1, 6, 6}, 5);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "hero"), wa = sw_t_who(f, "warrior"),
        ro = sw_t_who(f, "rogue"), ba = sw_t_who(f, "bandit");
    sw_t_do(f, "warrior engage hero", NULL, 0);
    sw_t_to(f, 2);
    sw_t_do(f, "rogue engage hero", NULL, 0);
    sw_t_do(f, "bandit engage hero", NULL, 0);
    sw_t_to(f, 5);
    cr_assert_eq(st->c[he].engages, wa, "Reciprocal Engage of the first (002:21)");
    sw_t_to(f, 7);
    cr_assert_eq(st->c[ro].engages, he);
    cr_assert_eq(st->c[ba].engages, he);
    cr_assert_eq(st->c[he].engages, wa, "one opponent at a time (002:27)");
    cr_assert(sw_undefended(sd, st, he, ro, false));
    cr_assert(sw_undefended(sd, st, he, ba, false));
    cr_assert_not(sw_undefended(sd, st, he, wa, false));
    sw_t_refused(f, "hero engage rogue", "Switch Targets");
    sw_t_do(f, "hero switch rogue", (int[]){20, 1}, 2); /* 3+20 vs 2+1 */
    cr_assert_eq(st->c[he].engages, ro);
    cr_assert_eq(st->c[he].ready, 9, "a 1-segment delay (002:31)");
    cr_assert(sw_undefended(sd, st, he, wa, false));
    cr_assert_not(sw_undefended(sd, st, he, ro, false));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:29 "If you succeed, you switch": a failed Agility roll leaves the
 * engagement as it was (ruling: a failure costs only the segments). */
Test(winter_melee, switch_fails_on_a_lost_roll) {
    fray_setup *s = sw_t_load("tests/data/winter/switch.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "hero"), wa = sw_t_who(f, "warrior"), ro = sw_t_who(f, "rogue");
    sw_t_ready(f, he, wa);
    st->c[wa].engages = (int8_t)he;
    st->c[ro].engages = (int8_t)he;
    sw_t_refused(f, "hero switch bandit", "only to an opponent Engaging them");
    sw_t_do(f, "hero switch rogue", (int[]){1, 20}, 2);
    cr_assert_eq(st->c[he].engages, wa);
    cr_assert_eq(st->c[he].ready, st->seg + 2);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:23: Avoid is declared on the segment the Engage is declared, rolls
 * Agility against the engager, and on a success the Engage fails; it
 * uses up the declaration and has no delay (ruling A7.2). */
Test(winter_melee, avoid_on_the_same_segment) {
    fray_setup *s = sw_t_load("examples/silent-winter/duel.yaml");
    fray_fight *f = sw_t_start(s, (int[]){1}, 1);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), co = sw_t_who(f, "corpse");
    sw_t_refused(f, "corpse avoid lothaire", "on the segment Lothaire declares an Engage");
    sw_t_do(f, "lothaire wait", NULL, 0);
    sw_t_to(f, 2);
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    sw_t_do(f, "corpse avoid lothaire", (int[]){20, 1}, 2); /* 1+20 vs 3+1 */
    cr_assert_eq(st->c[lo].pend_kind, SW_PEND_NONE, "the Engage fails");
    cr_assert_eq(st->c[co].ready, 3, "no delay: next declaration on 3");
    cr_assert_eq(st->c[lo].ready, 6, "Lothaire's segments are spent all the same");
    sw_t_to(f, 6);
    cr_assert_eq(st->c[lo].engages, -1);
    /* a later segment is too late */
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    sw_t_do(f, "corpse wait", NULL, 0);
    sw_t_do(f, "next", NULL, 0);
    sw_t_refused(f, "corpse avoid lothaire", "on the segment Lothaire declares an Engage");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:23: a failed Avoid lets the Engage go on; one already Engaged may
 * not Avoid. */
Test(winter_melee, avoid_fails_or_is_refused) {
    fray_setup *s = sw_t_load("tests/data/winter/switch.yaml");
    fray_fight *f = sw_t_start(s, (int[]){1, 1, 1, 6, 6}, 5);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "hero"), wa = sw_t_who(f, "warrior"), ro = sw_t_who(f, "rogue");
    sw_t_to(f, 2);
    sw_t_do(f, "warrior engage hero", NULL, 0);
    sw_t_do(f, "hero avoid warrior", (int[]){1, 20}, 2);
    cr_assert_eq(st->c[wa].pend_kind, SW_PEND_ENGAGE);
    sw_t_to(f, 6);
    cr_assert_eq(st->c[wa].engages, he, "declared on 2, in effect at the end of 5");
    sw_t_ready(f, ro, -1);
    sw_t_do(f, "rogue engage hero", NULL, 0);
    sw_t_ready(f, he, wa);
    sw_t_refused(f, "hero avoid rogue", "Engaged already");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:31 "Bugging Out": a 1-delay Agility roll against each opponent,
 * one at a time; a success ends the engagement both ways. */
Test(winter_melee, disengage_one_opponent) {
    fray_setup *s = sw_t_load("tests/data/winter/switch.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "hero"), wa = sw_t_who(f, "warrior"), ro = sw_t_who(f, "rogue");
    sw_t_ready(f, he, wa);
    st->c[wa].engages = (int8_t)he;
    st->c[ro].engages = (int8_t)he;
    sw_t_do(f, "hero disengage warrior", (int[]){20, 1}, 2);
    cr_assert_eq(st->c[he].engages, -1);
    cr_assert_eq(st->c[wa].engages, -1);
    cr_assert_eq(st->c[ro].engages, he, "each opponent individually");
    cr_assert_eq(st->c[he].ready, st->seg + 2);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:27 "up to 4 opponents may Engage a single character": a fifth is
 * refused (Fully Engaged, 002:95), and an Engage that finds four there
 * when it takes effect ends without effect. */
Test(winter_melee, four_engagers_at_most) {
    fray_setup *s = sw_t_load("tests/data/winter/switch.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "hero");
    const char *ids[] = {"warrior", "rogue", "bandit", "bandit-2"};
    for (int k = 0; k < 3; k++)
        st->c[sw_t_who(f, ids[k])].engages = (int8_t)he;
    int b3 = sw_t_who(f, "bandit-3");
    sw_t_ready(f, b3, -1);
    sw_t_do(f, "bandit-3 engage hero", NULL, 0);
    st->c[sw_t_who(f, "bandit-2")].engages = (int8_t)he;
    char buf[2048];
    sw_t_to(f, st->c[b3].pend_at);
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(st->c[b3].engages, -1);
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "Fully Engaged"), "%s", buf);
    sw_t_ready(f, b3, -1);
    sw_t_refused(f, "bandit-3 engage hero", "Fully Engaged");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:47: one Sniping cannot be Engaged until an Agility roll against the
 * sniper (a 1-delay action) succeeds; a ranged weapon cannot Engage; the
 * sniper's own attacks take -5, and partial cover another -5 (002:49);
 * Sniping ends when the Engage lands (ruling A7.10). */
Test(winter_melee, chasing_a_sniper) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    fray_fight *f = sw_t_start(s, (int[]){1, 1, 1}, 3);
    sw_state *st = sw_t_st(f);
    int ar = sw_t_who(f, "archer"), b1 = sw_t_who(f, "bandit-1"), b2 = sw_t_who(f, "bandit-2");
    cr_assert(st->c[ar].flags & SW_F_SNIPING, "may begin Sniping (002:47)");
    sw_t_refused(f, "archer engage bandit-1", "ranged weapon");
    sw_t_to(f, 2);
    sw_t_refused(f, "bandit-1 engage archer", "Chase a Sniper first");
    sw_t_do(f, "bandit-1 chase archer", (int[]){20, 1}, 2);
    cr_assert_eq(st->c[b1].ready, 4);
    sw_t_to(f, 4);
    sw_t_do(f, "bandit-1 engage archer", NULL, 0);
    sw_t_to(f, 8);
    cr_assert_eq(st->c[b1].engages, ar);
    cr_assert_not(st->c[ar].flags & SW_F_SNIPING);
    cr_assert_eq(st->c[ar].engages, -1, "a bow takes no Reciprocal Engage");
    /* the penalties: Sniping -5 and partial cover -5 */
    st->c[ar].flags |= SW_F_SNIPING;
    st->c[b2].cover = SW_COVER_PARTIAL;
    sw_t_ready(f, ar, -1);
    sw_t_do(f, "archer attack bandit-2", (int[]){10, 10}, 2);
    char buf[2048];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                     "Archer attacks bandit 2: 6 against 17: miss"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

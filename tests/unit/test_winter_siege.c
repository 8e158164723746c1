/* test_winter_siege.c - Siege Weapons (seed 002:57): "they work like
 * normal ranged attacks except that they have a chance to hit multiple
 * opponents simultaneously and you take a -10 to the accuracy of your
 * attacks with them" (ruling 25, option siege-spread). */
#include "winter_fixture.h"

#define SIEGE "tests/data/winter/siege.yaml"

/* -10 to the attack; then an attack on each other member of the target's
 * Engaged cluster (anyone Engaged with or by it, 002:51), allies too. */
Test(winter_siege, minus_10_and_the_cluster) {
    fray_setup *s = sw_t_load(SIEGE);
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), ro = sw_t_who(f, "rogue"), wa = sw_t_who(f, "warrior");
    st->c[lo].engages = (int8_t)wa;
    st->c[ro].engages = (int8_t)wa;
    st->c[wa].engages = (int8_t)lo;
    /* the warrior: 8 - 10 + 20 = 18 against 4 + 2 + 2 + 1 = 9: a hit, 3d6;
     * Lothaire: 8 - 10 + 1 against 9 + ...: a miss; the Rogue likewise */
    sw_t_do(f, "crew attack warrior", (int[]){20, 1, 2, 2, 2, 1, 10, 1, 10}, 9);
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Crew attacks Warrior: 18 against 9: hit"), "%s", buf);
    cr_assert_eq(st->c[wa].health, 32 - (6 - 2), "3d6 less Physical Resistance 2");
    cr_assert(strstr(buf, "Crew attacks Lothaire (the siege weapon's spread, 002:57): -1 against 19: miss"),
              "%s", buf);
    cr_assert(strstr(buf, "Crew attacks Rogue (the siege weapon's spread"), "%s", buf);
    cr_assert_eq(st->c[sw_t_who(f, "crew")].ready, 1 + 1 + 6, "the ballista's delay of 6");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* siege-spread: none: the target alone (a miss then is a ranged miss:
 * friendly fire, ruling 18, may follow). */
Test(winter_siege, spread_none) {
    fray_setup *s = sw_t_load(SIEGE);
    sw_t_setup(s)->opt.siege_target_only = true;
    sw_t_setup(s)->opt.friendly_fire = false;
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
    st->c[lo].engages = (int8_t)wa;
    st->c[wa].engages = (int8_t)lo;
    sw_t_do(f, "crew attack warrior", (int[]){20, 1, 2, 2, 2}, 5);
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert_null(strstr(buf, "spread"), "%s", buf);
    cr_assert_eq(st->c[lo].health, 34);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* test_winter_obstacle.c - Obstacles (seed 002:25): "there are enemies you
 * cannot Engage in melee (and likewise, they cannot Engage your character
 * in melee) because of some interposing obstacle ... you will be required
 * to first take steps to surmount the obstacle ..., which may require a
 * successful skill or attribute roll. The amount of time for a given
 * attempt varies according to the GM's whim, but it should be the SAME
 * for EVERYONE" (scene: obstacle, obstacle-roll; ruling 26). */
#include "winter_fixture.h"

#define DITCH "tests/data/winter/obstacle.yaml"

Test(winter_obstacle, engage_waits_for_the_obstacle) {
    fray_setup *s = sw_t_load(DITCH);
    fray_fight *f = sw_t_start(s, (int[]){1}, 1);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), co = sw_t_who(f, "corpse");
    sw_t_refused(f, "lothaire engage corpse", "an obstacle stands between Lothaire and Walking Corpse");
    /* an attempt: 2 segments (the scene's), a flat Agility roll: 3 + 5 against 12 fails */
    sw_t_do(f, "lothaire surmount", (int[]){5, 12}, 2);
    cr_assert_eq(st->c[lo].ready, 1 + 1 + 2);
    cr_assert_not(st->c[lo].flags & SW_F_SURMOUNTED);
    sw_t_to(f, 2);
    sw_t_do(f, "corpse surmount", (int[]){19, 3}, 2); /* the same time for everyone */
    cr_assert_eq(st->c[co].ready, 2 + 1 + 2);
    cr_assert(st->c[co].flags & SW_F_SURMOUNTED);
    /* the corpse has crossed: either may now Engage the other */
    sw_t_to(f, 4);
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    sw_t_to(f, 5);
    sw_t_refused(f, "corpse surmount", "past the obstacle already");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Without obstacle-roll an attempt always succeeds, after its time; with
 * no obstacle there is nothing to surmount. The tactics surmount before
 * they Engage. */
Test(winter_obstacle, no_roll_and_no_obstacle_and_tactics) {
    fray_setup *s = sw_t_load(DITCH);
    sw_t_setup(s)->obstacle_roll = false;
    fray_fight *f = sw_t_start(s, (int[]){6}, 1);
    int lo = sw_t_who(f, "lothaire");
    sw_event cmd;
    sw_choose(sw_fight_setup(fray__fight_rf(f)), sw_t_st(f), &cmd);
    cr_assert_eq(cmd.kind, SW_EV_SURMOUNT, "the tactics surmount first");
    sw_t_do(f, "lothaire surmount", NULL, 0); /* no dice: no roll */
    cr_assert(sw_t_st(f)->c[lo].flags & SW_F_SURMOUNTED);
    fray_fight_free(f);
    fray_setup_free(s);
    s = sw_t_load("examples/silent-winter/duel.yaml");
    f = sw_t_start(s, (int[]){6}, 1);
    sw_t_refused(f, "lothaire surmount", "there is no obstacle here");
    fray_fight_free(f);
    fray_setup_free(s);
}

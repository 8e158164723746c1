/* test_winter_tactics2.c - the tactics' additions (issue 17; seed 002:53
 * "If an area effect causes Wounds or Stun, it works just as well on
 * allies as it does on foes", 002:57 a siege weapon's "chance to hit
 * multiple opponents simultaneously", 002:63 "talents that enable you to
 * engage multiple targets simultaneously"; docs/rules/silent-winter.md
 * 40, 47): a multi-engager strikes the weakest of its targets; the
 * option tactics-cluster: ignore | weigh spares the attacker's own side. */
#include "winter_fixture.h"

#define MULTI "tests/data/winter/multi.yaml"
#define AREA "tests/data/winter/area_attack.yaml"
#define GATE "tests/data/winter/siege_gm.yaml"

/* Only `who` may declare now (the others wait far ahead). */
static void only(fray_fight *f, int who, int target) {
    sw_state *st = sw_t_st(f);
    for (int j = 0; j < st->n; j++)
        st->c[j].ready = st->seg + 50;
    sw_t_ready(f, who, target);
}

static sw_event chosen(fray_fight *f) {
    sw_event cmd;
    memset(&cmd, 0, sizeof cmd);
    sw_choose(sw_fight_setup(fray__fight_rf(f)), sw_t_st(f), &cmd);
    return cmd;
}

/* 002:63 (ruling 40): the dancer engaging the bandit first and the
 * warrior too strikes the one with less Health, whichever it engaged
 * first; with one target it strikes that one. */
Test(winter_tactics2, multi_engager_strikes_the_weakest_002_63) {
    fray_setup *s = sw_t_load(MULTI);
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), wa = sw_t_who(f, "warrior");
    only(f, da, ba);
    st->c[da].eng_more = (uint16_t)(1u << wa);
    st->c[wa].health = 3;
    sw_event c = chosen(f);
    cr_assert(c.kind == SW_EV_ATTACK || c.kind == SW_EV_TALENT, "%d", c.kind);
    cr_assert_eq(c.target, wa, "the weaker of the two, not the first");
    st->c[wa].health = st->c[ba].health + 5;
    c = chosen(f);
    cr_assert_eq(c.target, ba, "now the bandit is the weaker");
    st->c[da].eng_more = 0;
    st->c[wa].health = 1;
    c = chosen(f);
    cr_assert_eq(c.target, ba, "one target: that one");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:53 with tactics-cluster (ruling 47): the warrior, weakest, stands
 * in a cluster with Lothaire and the flailer (the thrower's side): with
 * ignore (the default) the firepot falls there all the same; with weigh
 * the thrower throws at the bandit, whose cluster holds as many foes as
 * friends. */
Test(winter_tactics2, area_weapon_spares_its_side_settings_002_53) {
    for (int weigh = 0; weigh < 2; weigh++) {
        fray_setup *s = sw_t_load(AREA);
        cr_assert(!sw_t_setup(s)->opt.tactics_cluster_weigh, "default: ignore");
        sw_t_setup(s)->opt.tactics_cluster_weigh = weigh;
        sw_t_setup(s)->c[0].tactics = SW_TAC_MELEE; /* the thrower: no Sniping first */
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
        sw_state *st = sw_t_st(f);
        int th = sw_t_who(f, "thrower"), lo = sw_t_who(f, "lothaire"),
            fl = sw_t_who(f, "flailer"), wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
        st->c[lo].engages = (int8_t)wa;
        st->c[fl].engages = (int8_t)wa;
        st->c[wa].engages = (int8_t)lo;
        st->c[ba].engages = (int8_t)lo;
        st->c[wa].health = 2;
        only(f, th, -1);
        sw_event c = chosen(f);
        cr_assert_eq(c.kind, SW_EV_ATTACK, "kind %d actor %d", c.kind, c.actor);
        cr_assert_eq(c.target, weigh ? ba : wa, "weigh %d", weigh);
        /* a flail in the warrior's cluster: 2 of its side (Lothaire, the
         * thrower) against 1 foe; the flailer itself spared (area-attacker) */
        st->c[th].engages = (int8_t)wa;
        only(f, fl, wa);
        c = chosen(f);
        if (weigh)
            cr_assert_eq(c.kind, SW_EV_WAIT, "no flail into its own side");
        else
            cr_assert(c.kind == SW_EV_ATTACK && c.target == wa);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* 002:57 with siege-spread: cluster and tactics-cluster (ruling 47): the
 * engineer's scorpion, aimed at the weakest raider whose cluster holds
 * the hero and the guard, spreads onto them with ignore; with weigh it is
 * aimed at the rogue alone; siege-spread: none never spreads, so the
 * cluster weighs nothing. */
Test(winter_tactics2, siege_spread_spares_its_side_settings_002_57) {
    for (int k = 0; k < 3; k++) {
        fray_setup *s = sw_t_load(GATE);
        sw_t_setup(s)->opt.tactics_cluster_weigh = k > 0;
        sw_t_setup(s)->opt.siege_target_only = k == 2;
        sw_t_setup(s)->c[1].tactics = SW_TAC_MELEE; /* the engineer: no Sniping first */
        fray_fight *f = sw_t_start(s, (int[]){1, 6, 6, 6, 6, 6, 6}, 7);
        sw_state *st = sw_t_st(f);
        int en = sw_t_who(f, "engineer"), wa = sw_t_who(f, "warrior"), ro = sw_t_who(f, "rogue"),
            ba = sw_t_who(f, "bandit"), he = sw_t_who(f, "hero"), gu = sw_t_who(f, "guard");
        st->c[he].engages = (int8_t)wa;
        st->c[gu].engages = (int8_t)wa;
        st->c[wa].health = 2;
        st->c[ro].health = 4;
        st->c[ba].flags |= SW_F_DEAD;
        only(f, en, -1);
        sw_event c = chosen(f);
        cr_assert_eq(c.kind, SW_EV_ATTACK, "%d: kind %d actor %d", k, c.kind, c.actor);
        cr_assert_eq(c.target, k == 1 ? ro : wa, "setting %d", k);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The option in a file, and fray check's error at its line and column. */
Test(winter_tactics2, option_in_the_file_and_errors) {
    fray_setup *s = sw_t_load("tests/data/winter/tactics_cluster.yaml");
    cr_assert(sw_t_setup(s)->opt.tactics_cluster_weigh);
    fray_setup_free(s);
    sw_t_refused_file("tests/data/winter/bad_tactics_cluster.yaml", 6, "tactics-cluster");
}

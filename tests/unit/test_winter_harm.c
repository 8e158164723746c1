/* test_winter_harm.c - attacks and what they do (seed 002:33-55, 92-106):
 * opposed rolls, resistance with armour, two weapons, cover, friendly
 * fire, Pain, Winded, Blown, Wounded, Unconscious, bleeding and the
 * stop-bleeding rolls, Undefended during other combat actions; and every
 * ruling's other setting. */
#include "winter_fixture.h"

/* 002:33: Physical Attack against Physical Defense; on a success damage,
 * less Physical Resistance only with armour; 002:37 a damaging hit costs
 * a point of Pain. */
Test(winter_harm, attack_damage_and_resistance) {
    fray_setup *s = sw_t_load("examples/silent-winter/duel.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6}, 1);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), co = sw_t_who(f, "corpse");
    sw_t_ready(f, lo, co);
    /* 15 + 6 against 1 + 3 + 1 (Agility) + 0; 2d6 = 3 + 4; no armour */
    sw_t_do(f, "lothaire attack corpse", (int[]){15, 1, 3, 4}, 4);
    cr_assert_eq(st->c[co].health, 44 - 7);
    cr_assert_eq(st->c[co].pain, 9);
    /* the corpse's claws (1d6+2 = 5) against Lothaire's mail: 5 - 2 */
    sw_t_ready(f, co, lo);
    sw_t_do(f, "corpse attack lothaire", (int[]){20, 1, 3}, 3);
    cr_assert_eq(st->c[lo].health, 34 - 3);
    cr_assert_eq(st->c[lo].pain, 5);
    /* a melee attack needs an Engage first (002:17) */
    sw_t_ready(f, lo, -1);
    sw_t_refused(f, "lothaire attack corpse", "must Engage");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:41: an off-hand weapon gives -5 to the attack and adds its base
 * damage (the Rogue's sword 2d6 and dagger 1d6). */
Test(winter_harm, two_weapons) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int ro = sw_t_who(f, "rogue"), b1 = sw_t_who(f, "bandit-1");
    sw_t_ready(f, ro, b1);
    st->c[b1].engages = (int8_t)ro;
    sw_t_do(f, "rogue attack bandit-1", (int[]){12, 5}, 2);
    char buf[2048];
    /* 12 + 5 - 5 = 12 against 5 + 3 + 3 + 1 = 12: a tie, the defender's */
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "12 against 12: miss"), "%s", buf);
    sw_t_ready(f, ro, b1);
    sw_t_do(f, "rogue attack bandit-1", (int[]){13, 5, 3, 3, 4}, 5);
    cr_assert_eq(st->c[b1].health, 22 - (3 + 3 + 4 - 1));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:37, 103-104, rulings A7.3 and A7.4: each point of Pain lost below 0
 * costs 1d6 Health; negative Pain equal to the Pain is Blown (no combat
 * actions, Undefended even at range, 002:55); any more Pain is Wounded,
 * and Wounded out of Pain is Unconscious (002:39). */
Test(winter_harm, pain_winded_blown_wounded) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int wa = sw_t_who(f, "warrior"), b1 = sw_t_who(f, "bandit-1");
    sw_t_ready(f, wa, b1);
    st->c[b1].pain = 1;
    /* axe 2d6+1 = 1 + 1 + 1 = 3, less leather 1: 2 */
    sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1}, 4);
    cr_assert_eq(st->c[b1].pain, 0, "Winded at 0 (002:103)");
    cr_assert_eq(st->c[b1].health, 20);
    sw_t_ready(f, wa, b1);
    sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1, 5}, 5);
    cr_assert_eq(st->c[b1].pain, -1);
    cr_assert_eq(st->c[b1].health, 20 - 2 - 5, "1d6 for the point below 0");
    st->c[b1].pain = -4;
    sw_t_ready(f, wa, b1);
    sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1, 1}, 5);
    cr_assert(st->c[b1].flags & SW_F_BLOWN, "-5 against Pain 5: Blown");
    cr_assert_not(sw_can_act(&st->c[b1]));
    cr_assert(sw_undefended(sd, st, b1, wa, true), "Undefended at range too (002:55)");
    cr_assert_not(st->c[b1].flags & SW_F_WOUNDED);
    sw_t_ready(f, wa, b1);
    sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1, 1}, 5);
    cr_assert(st->c[b1].flags & SW_F_WOUNDED, "hit again while Blown (002:37)");
    cr_assert(st->c[b1].flags & SW_F_BLEEDING);
    cr_assert(st->c[b1].flags & SW_F_UNCONSCIOUS, "Wounded out of Pain (002:39)");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:39, 102: a Wounded character bleeds every segment, 1d6 and a point
 * of Pain (another 1d6 out of Pain: 2d6); a flat Endurance roll stops it,
 * a failure costs another 1d6; stopped while Unconscious, another roll
 * wakes. */
Test(winter_harm, bleeding_and_stopping_it) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int b1 = sw_t_who(f, "bandit-1");
    st->c[b1].flags |= SW_F_WOUNDED | SW_F_BLEEDING | SW_F_UNCONSCIOUS;
    st->c[b1].pain = -1;
    st->c[b1].health = 20;
    /* bleed 3, Pain -2 and 2 more; Endurance 1 + 3 against 5: fails, 4 more */
    sw_t_do(f, "next", (int[]){3, 2, 1, 5, 4}, 5);
    cr_assert_eq(st->c[b1].health, 20 - 3 - 2 - 4);
    cr_assert_eq(st->c[b1].pain, -2);
    cr_assert(st->c[b1].flags & SW_F_BLEEDING);
    /* bleed 1 and 1; 20 + 3 against 1: stopped; 20 + 3 against 1: awake */
    sw_t_do(f, "next", (int[]){1, 1, 20, 1, 20, 1}, 6);
    cr_assert_eq(st->c[b1].health, 11 - 2);
    cr_assert_not(st->c[b1].flags & SW_F_BLEEDING);
    cr_assert_not(st->c[b1].flags & SW_F_UNCONSCIOUS);
    cr_assert(st->c[b1].flags & SW_F_WOUNDED, "Wounded for the rest of the fight");
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(st->c[b1].health, 9, "no more bleeding");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:49, 101: Full Cover stops ranged attacks at you; 002:51 a ranged
 * miss into an Engaged cluster is rolled against one of it (ruling
 * friendly-fire: on); friendly-fire: off rolls nothing more. */
Test(winter_harm, cover_and_friendly_fire) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int ar = sw_t_who(f, "archer"), lo = sw_t_who(f, "lothaire"),
        b1 = sw_t_who(f, "bandit-1");
    st->c[b1].cover = SW_COVER_FULL;
    sw_t_refused(f, "archer attack bandit-1", "Full Cover");
    st->c[b1].cover = SW_COVER_NONE;
    st->c[lo].engages = (int8_t)b1;
    st->c[b1].engages = (int8_t)lo;
    /* a miss (1 - 5 + 6 against 20 + 7), then against Lothaire: 20 + 6 - 5
     * against 1 + 4 + 3 + 2, bow 2d6 = 6 less mail 2 */
    sw_t_do(f, "archer attack bandit-1", (int[]){1, 20, 20, 1, 3, 3}, 6);
    cr_assert_eq(st->c[lo].health, 34 - 4);
    sw_t_setup(s)->opt.friendly_fire = false;
    sw_t_ready(f, ar, -1);
    sw_t_do(f, "archer attack bandit-1", (int[]){1, 20}, 2);
    cr_assert_eq(st->c[lo].health, 30);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:83: Undefended while undertaking an Other Combat Action (Medicine
 * on another: 10 segments), even against the one you engage. */
Test(winter_harm, undefended_during_medicine) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int wa = sw_t_who(f, "warrior"), ro = sw_t_who(f, "rogue"),
        b2 = sw_t_who(f, "bandit-2");
    sw_t_ready(f, ro, b2);
    st->c[b2].engages = (int8_t)ro;
    sw_t_refused(f, "rogue medicine warrior", "not bleeding");
    st->c[wa].flags |= SW_F_BLEEDING;
    cr_assert_not(sw_undefended(sd, st, ro, b2, false));
    sw_t_do(f, "rogue medicine warrior", (int[]){20, 1}, 2);
    cr_assert_not(st->c[wa].flags & SW_F_BLEEDING);
    cr_assert_eq(st->c[ro].ready, st->seg + 11);
    cr_assert(sw_undefended(sd, st, ro, b2, false));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The rulings' other settings (docs/rules/silent-winter.md): ties: actor,
 * pain-on-any-hit: yes, stop-bleeding: none, sniping-resolves: end,
 * attack-delay; and the loader reads them. */
Test(winter_harm, rulings_other_settings) {
    fray_setup *o = sw_t_load("tests/data/winter/options.yaml");
    sw_options *op = &sw_t_setup(o)->opt;
    cr_assert_eq(op->ties, SW_TIES_ACTOR);
    cr_assert_not(op->friendly_fire);
    cr_assert(op->sniping_at_end);
    cr_assert(op->pain_on_any_hit);
    cr_assert_not(op->stop_bleeding);
    cr_assert_eq(op->attack_delay, 6);
    cr_assert(op->order_file);
    cr_assert(op->keep_fallen);
    cr_assert(op->busy_at_range);
    cr_assert(op->blown_melee_only);
    fray_setup_free(o);

    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    sw_options *opt = &sw_t_setup(s)->opt;
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int ro = sw_t_who(f, "rogue"), b1 = sw_t_who(f, "bandit-1");
    /* ties: the tie that missed in two_weapons hits with ties: actor */
    opt->ties = SW_TIES_ACTOR;
    sw_t_ready(f, ro, b1);
    sw_t_do(f, "rogue attack bandit-1", (int[]){12, 5, 1, 1, 1}, 5);
    cr_assert_eq(st->c[b1].health, 22 - 2);
    /* pain-on-any-hit: no (default): 0 damage after resistance, no Pain */
    opt->ties = SW_TIES_DEFENDER;
    st->c[b1].health = 22;
    int wa = sw_t_who(f, "warrior");
    sw_setup *sd = sw_t_setup(s);
    int16_t keep = sd->c[b1].b.physical_resistance;
    sd->c[b1].b.physical_resistance = 20;
    int pain = st->c[b1].pain;
    sw_t_ready(f, wa, b1);
    sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1}, 4);
    cr_assert_eq(st->c[b1].pain, pain);
    opt->pain_on_any_hit = true;
    sw_t_ready(f, wa, b1);
    sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1}, 4);
    cr_assert_eq(st->c[b1].pain, pain - 1);
    sd->c[b1].b.physical_resistance = keep;
    /* stop-bleeding: none: the bleeding rolls only its d6s */
    opt->stop_bleeding = false;
    st->c[b1].flags |= SW_F_WOUNDED | SW_F_BLEEDING;
    st->c[b1].pain = 3;
    sw_t_do(f, "next", (int[]){2}, 1);
    cr_assert(st->c[b1].flags & SW_F_BLEEDING);
    /* attack-delay: the Rogue's sword has no delay of its own */
    opt->attack_delay = 6;
    sw_t_ready(f, ro, b1);
    st->c[b1].flags &= (uint8_t)~(SW_F_WOUNDED | SW_F_BLEEDING);
    sw_t_do(f, "rogue attack bandit-1", (int[]){1, 20}, 2);
    cr_assert_eq(st->c[ro].ready, st->seg + 7);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling sniping-resolves: now (default) or end (002:47 "Like Engaging"). */
Test(winter_harm, sniping_resolves_now_or_at_the_end) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int ar = sw_t_who(f, "archer");
    st->c[ar].flags &= (uint8_t)~SW_F_SNIPING;
    sw_t_do(f, "archer snipe", NULL, 0);
    cr_assert(st->c[ar].flags & SW_F_SNIPING);
    fray_fight_free(f);
    sw_t_setup(s)->opt.sniping_at_end = true;
    f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    st = sw_t_st(f);
    st->c[ar].flags &= (uint8_t)~SW_F_SNIPING;
    sw_t_do(f, "archer snipe", NULL, 0);
    cr_assert_not(st->c[ar].flags & SW_F_SNIPING);
    sw_t_to(f, 4);
    cr_assert_not(st->c[ar].flags & SW_F_SNIPING);
    sw_t_to(f, 5);
    cr_assert(st->c[ar].flags & SW_F_SNIPING, "at the end of segment 4");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling order (docs/rules/silent-winter.md 5): within a segment the
 * higher Agility declares first (the Rogue, 5, before the Warrior, 2);
 * order: file takes the file's order. */
Test(winter_harm, order_of_declarations) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight *f = sw_t_start(s, (int[]){1, 1, 1, 1}, 4);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_t_do(f, "bandit-1 wait", NULL, 0);
    sw_t_to(f, 2);
    cr_assert_eq(sw_actor(sd, st), sw_t_who(f, "rogue"));
    fray_fight_free(f);
    sw_t_setup(s)->opt.order_file = true;
    f = sw_t_start(s, (int[]){1, 1, 1, 1}, 4);
    st = sw_t_st(f);
    sw_t_do(f, "bandit-1 wait", NULL, 0);
    sw_t_to(f, 2);
    cr_assert_eq(sw_actor(sd, st), sw_t_who(f, "warrior"));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling fallen-release (21): by default one Blown holds nobody and is held
 * by nobody; fallen-release: no keeps the engagements (the dead always
 * let go). */
Test(winter_harm, fallen_release) {
    for (int keep = 0; keep < 2; keep++) {
        fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
        sw_t_setup(s)->opt.keep_fallen = keep;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
        sw_state *st = sw_t_st(f);
        int wa = sw_t_who(f, "warrior"), b1 = sw_t_who(f, "bandit-1");
        sw_t_ready(f, wa, b1);
        st->c[b1].engages = (int8_t)wa;
        st->c[b1].pain = -4;
        sw_t_do(f, "warrior attack bandit-1", (int[]){20, 1, 1, 1, 1}, 5);
        cr_assert(st->c[b1].flags & SW_F_BLOWN);
        cr_assert_eq(st->c[wa].engages, keep ? b1 : -1);
        cr_assert_eq(st->c[b1].engages, keep ? wa : -1);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Rulings undefended-busy (22) and blown-undefended (14): busy with an
 * Other Combat Action is Undefended in melee only unless `all`; Blown is
 * Undefended at range too unless `melee` (002:37 against 002:55, 104). */
Test(winter_harm, undefended_at_range_settings) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    sw_setup *sd = sw_t_setup(s);
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int ar = sw_t_who(f, "archer"), b1 = sw_t_who(f, "bandit-1");
    st->c[b1].busy_until = st->seg + 5;
    cr_assert_not(sw_undefended(sd, st, b1, ar, true));
    sd->opt.busy_at_range = true;
    cr_assert(sw_undefended(sd, st, b1, ar, true));
    st->c[b1].busy_until = 0;
    st->c[b1].flags |= SW_F_BLOWN;
    cr_assert(sw_undefended(sd, st, b1, ar, true));
    sd->opt.blown_melee_only = true;
    cr_assert_not(sw_undefended(sd, st, b1, ar, true));
    cr_assert(sw_undefended(sd, st, b1, ar, false));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:83, 86-87, 90: using an item (2 on oneself, 4 on another) or any
 * other skill (15) takes its delay, Undefended meanwhile; the effect is
 * the GM's (the text gives none). */
Test(winter_harm, items_and_skills_take_their_delays) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int wa = sw_t_who(f, "warrior"), ro = sw_t_who(f, "rogue"), b1 = sw_t_who(f, "bandit-1");
    sw_t_ready(f, ro, -1);
    sw_t_do(f, "rogue item rogue", NULL, 0);
    cr_assert_eq(st->c[ro].ready, st->seg + 3);
    sw_t_ready(f, ro, -1);
    sw_t_do(f, "rogue item warrior", NULL, 0);
    cr_assert_eq(st->c[ro].ready, st->seg + 5);
    sw_t_ready(f, wa, b1);
    st->c[b1].engages = (int8_t)wa;
    cr_assert_not(sw_undefended(sd, st, wa, b1, false));
    sw_t_do(f, "warrior skill", NULL, 0);
    cr_assert_eq(st->c[wa].ready, st->seg + 16);
    cr_assert(sw_undefended(sd, st, wa, b1, false));
    char buf[1024];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "the GM's call"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

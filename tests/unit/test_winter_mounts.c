/* test_winter_mounts.c - mounted combat (seed 002 "Mounted Combat",
 * 002:59-67; docs/rules/silent-winter.md 28): the mount's own melee
 * attacks when its rider is Engaged (002:61), the Ride roll against the
 * mount's Willfulness to Engage and to stay in the saddle when either is
 * hit (002:61), rider and mount one target for Engaging, attacked either
 * (002:63), the mount Engaging the rider's target (002:63), +5 to moving
 * around, no cover and 2 more engagers (002:67), a fall (002:65; options
 * fall-stun and mounted-bonus), the GM's dismount; the table's words, the
 * journal, the view and the tactics. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"
#include "fray/view.h"

#define CAVALRY "examples/silent-winter/cavalry.yaml"

/* The lancer first; everyone else first declares on 7. */
static fray_fight *cavalry_fight(fray_setup **s) {
    *s = sw_t_load(CAVALRY);
    return sw_t_start(*s, (int[]){6, 6, 6, 6, 6}, 5);
}

/* 002:61 "When you wish to Engage, you must first succeed in a Ride roll
 * against your mount's Willfulness rating": Ride 6 against Willfulness 4. */
Test(winter_mounts, ride_roll_before_engaging_002_61) {
    fray_setup *s;
    fray_fight *f = cavalry_fight(&s);
    sw_state *st = sw_t_st(f);
    int la = sw_t_who(f, "lancer");
    sw_t_do(f, "lancer engage hound", (int[]){1, 20}, 2); /* 7 against 24 */
    cr_assert_eq(st->c[la].pend_kind, SW_PEND_NONE, "a failed Ride roll: no Engage");
    cr_assert_eq(st->c[la].ready, 5, "the segments spent all the same");
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                     "Lancer rolls Ride (002:61): 7 against Warhorse's 24: failure"), "%s", buf);
    sw_t_ready(f, la, -1);
    sw_t_do(f, "lancer engage hound", (int[]){5, 1}, 2);
    cr_assert_eq(st->c[la].pend_kind, SW_PEND_ENGAGE);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:61, 63: "When you Engage a target, the mount also Engages that
 * target"; "You and your mount count as a single target for the purposes
 * of Engaging and opponents may choose whether to attack you or your
 * mount ... without changing their Engage target". */
Test(winter_mounts, one_target_and_the_mount_follows_002_63) {
    fray_setup *s;
    fray_fight *f = cavalry_fight(&s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int la = sw_t_who(f, "lancer"), ho = sw_t_who(f, "horse"), hd = sw_t_who(f, "hound");
    sw_t_do(f, "lancer engage hound", (int[]){5, 1}, 2);
    sw_t_to(f, 5);
    cr_assert_eq(st->c[la].engages, hd);
    cr_assert_eq(st->c[ho].engages, hd, "the mount Engages the rider's target");
    cr_assert_eq(st->c[hd].engages, la, "the Reciprocal Engage: on the pair");
    cr_assert(!sw_undefended(sd, st, hd, ho, false), "the hound engages the pair");
    cr_assert(!sw_undefended(sd, st, ho, hd, false));
    sw_t_to(f, 7);
    sw_t_do(f, "hound attack horse", (int[]){1, 20}, 2); /* either, without a new Engage */
    sw_t_refused(f, "horse engage corpse", "ridden by Lancer");
    sw_t_do(f, "horse attack hound", (int[]){1, 20}, 2);  /* its own melee attacks (002:61) */
    cr_assert_eq(st->c[ho].ready, 7 + 1 + 4, "the hooves' delay");
    sw_t_do(f, "corpse engage horse", NULL, 0);
    cr_assert_eq(st->c[sw_t_who(f, "corpse")].pend_target, la, "an Engage on the mount is on the pair");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:67 "2 more human-sized foes may simultaneously Engage you": a
 * lancer of capacity 1 takes 3 while mounted, 1 once out of the saddle. */
Test(winter_mounts, two_more_engagers_002_67) {
    fray_setup *s = sw_t_load(CAVALRY);
    sw_setup *sd = sw_t_setup(s);
    int la = sw_find_combatant(sd, "lancer");
    sd->c[la].b.capacity = 1;
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
    sw_state *st = sw_t_st(f);
    int hd = sw_t_who(f, "hound"), co = sw_t_who(f, "corpse"), ba = sw_t_who(f, "bandit");
    st->c[hd].engages = (int8_t)la;
    st->c[co].engages = (int8_t)la;
    sw_t_ready(f, ba, -1);
    sw_t_do(f, "bandit engage lancer", NULL, 0);
    sw_t_do(f, "lancer dismount", NULL, 0);
    sw_t_ready(f, ba, -1);
    st->c[ba].pend_kind = SW_PEND_NONE;
    sw_t_refused(f, "bandit engage lancer", "Fully Engaged (1 may Engage");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:67 "The mount's extra speed enables you to add +5 to rolls that
 * involve moving around, such as Engaging, Disengaging": ruling
 * mounted-bonus (all: its side of any such roll; actor: its own moves). */
Test(winter_mounts, plus_5_to_moving_around_settings_002_67) {
    for (int actor = 0; actor < 2; actor++) {
        fray_setup *s = sw_t_load(CAVALRY);
        sw_t_setup(s)->opt.mounted_bonus_actor = actor;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
        sw_state *st = sw_t_st(f);
        int la = sw_t_who(f, "lancer"), hd = sw_t_who(f, "hound");
        sw_t_ready(f, la, hd);
        st->c[hd].engages = (int8_t)la;
        char buf[4096];
        sw_t_do(f, "lancer disengage hound", (int[]){10, 10}, 2); /* 3 + 5 + 10 against 4 + 10 */
        cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "18 against Grave-Hound's 14: success"),
                  "%s", buf);
        sw_t_ready(f, la, hd);
        sw_t_ready(f, hd, la);
        sw_t_do(f, "hound disengage lancer", (int[]){10, 10}, 2);
        cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                         actor ? "14 against Lancer's 13: success" : "14 against Lancer's 18: failure"),
                  "mounted-bonus: %s: %s", actor ? "actor" : "all", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* 002:67 "you cannot take cover when you are mounted"; the file refuses a
 * rider who begins in cover, and a mount of the other side, at its place. */
Test(winter_mounts, no_cover_while_mounted_and_file_errors_002_67) {
    fray_setup *s;
    fray_fight *f = cavalry_fight(&s);
    sw_t_refused(f, "lancer cover partial", "mounted and cannot take cover");
    sw_t_refused(f, "lothaire dismount", "not in the saddle");
    fray_fight_free(f);
    fray_setup_free(s);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, "tests/data/winter/bad_mount.yaml");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_setup *b = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &b, &diag), FRAY_OK);
    cr_assert_eq(diag.line, 5, "%d: %s", diag.line, diag.message);
    cr_assert(strstr(diag.message, "another side"), "%s", diag.message);
}

/* 002:61 "You must also roll Ride when you are hit in combat or when the
 * mount is hit in order to stay in the saddle" (a flat roll); 002:65 a
 * fall "will probably involve some Stun at the very least": ruling
 * fall-stun (d6: Stunned 1d6 segments; none). */
Test(winter_mounts, stay_in_the_saddle_and_fall_stun_settings_002_61) {
    for (int none = 0; none < 2; none++) {
        fray_setup *s = sw_t_load(CAVALRY);
        sw_t_setup(s)->opt.fall_no_stun = none;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
        sw_state *st = sw_t_st(f);
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        int la = sw_t_who(f, "lancer"), ho = sw_t_who(f, "horse"), co = sw_t_who(f, "corpse");
        sw_t_ready(f, co, la);
        /* a hit on the horse (20 against 1), claws 1d6+2: 3; the Ride roll
         * 6 + 20 against 1 holds */
        sw_t_do(f, "corpse attack horse", (int[]){20, 1, 3, 20, 1}, 5);
        cr_assert_eq(sw_mount_of(sd, st, la), ho, "still in the saddle");
        sw_t_ready(f, co, la);
        if (none)
            sw_t_do(f, "corpse attack lancer", (int[]){20, 1, 6, 1, 20}, 5);
        else
            sw_t_do(f, "corpse attack lancer", (int[]){20, 1, 6, 1, 20, 4}, 6);
        cr_assert(st->c[la].unhorsed);
        cr_assert_eq(sw_mount_of(sd, st, la), -1);
        cr_assert_eq(st->c[la].stun_until, none ? 0 : 1 + 4, "fall-stun: %s",
                     none ? "none" : "d6");
        char buf[4096];
        cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "out of Warhorse's saddle"), "%s", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The GM's dismount (002:65 leaves getting out of the saddle to the
 * circumstances): at once, no declaration; the pair is two targets. The
 * view shows the saddle while it lasts. */
Test(winter_mounts, gm_dismount_and_the_view) {
    fray_setup *s;
    fray_fight *f = cavalry_fight(&s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int la = sw_t_who(f, "lancer"), ho = sw_t_who(f, "horse");
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    bool seen = false;
    for (int k = 0; k < v->combatants[la].n_conditions; k++)
        seen |= strcmp(v->combatants[la].conditions[k].name, "mounted on Warhorse") == 0;
    cr_assert(seen, "the view shows the saddle");
    fray_fight_view_free(v);
    sw_t_do(f, "lancer dismount", NULL, 0);
    cr_assert_eq(st->c[la].ready, 1, "no segment spent");
    cr_assert_eq(sw_rider_of(sd, st, ho), -1);
    cr_assert_eq(sw_unit(sd, st, ho), ho, "two targets now");
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_rider_of(sd, sw_t_st(f), ho), la, "undo: in the saddle again");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Tactics a GM would recognise: the lancer fights mounted (it Engages
 * with its Ride roll), the horse attacks whom its rider engages and never
 * declares anything else while ridden; the journal reads back. */
static void mounts_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                        uint64_t seed, void *ctx) {
    int *horse_attacks = ctx;
    int ho = sw_find_combatant(sd, "horse");
    if (cmd->actor == ho && sw_rider_of(sd, st, ho) >= 0 && cmd->kind != SW_EV_NEXT) {
        cr_assert(cmd->kind == SW_EV_ATTACK || cmd->kind == SW_EV_WAIT ||
                  cmd->kind == SW_EV_TALENT, "seed %llu: kind %d",
                  (unsigned long long)seed, cmd->kind);
        if (cmd->kind == SW_EV_ATTACK) {
            (*horse_attacks)++;
            cr_assert_eq(sw_unit(sd, st, cmd->target), st->c[sw_rider_of(sd, st, ho)].engages);
        }
    }
}

Test(winter_mounts, tactics_and_journal) {
    fray_setup *s = sw_t_load(CAVALRY);
    int horse_attacks = 0;
    for (uint64_t seed = 1; seed <= 10; seed++)
        sw_t_play(s, seed, mounts_look, &horse_attacks, NULL);
    cr_assert_geq(horse_attacks, 5, "%d attacks by the ridden horse in 10 fights", horse_attacks);
    fray_setup_free(s);
}


/* The chances at the table (issue 19) of a mounted Disengage: the +5 of
 * 002:67 in the Agility roll. */
Test(winter_mounts, chances_count_the_mounted_bonus_002_67) {
    fray_setup *s;
    fray_fight *f = cavalry_fight(&s);
    sw_state *st = sw_t_st(f);
    int la = sw_t_who(f, "lancer"), hd = sw_t_who(f, "hound");
    sw_t_ready(f, la, hd);
    st->c[hd].engages = (int8_t)la;
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, la, "disengage hound", c, &d), FRAY_OK, "%s", d.message);
    cr_assert(strstr(c->assumed, "Agility d20+8 against the other's d20+4"), "%s", c->assumed);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

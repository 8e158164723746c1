/* test_winter_saddle.c - getting into the saddle and the GM's Ride checks
 * (seed 002:65: "I'm not going to list exactly how long it takes to get
 * in and out of the saddle ... as this will depend on the precise
 * circumstances"; 002:61: "Other situations may provoke Ride checks at
 * the GM's discretion"; 002:83: Undefended during Other Combat Actions;
 * docs/rules/silent-winter.md 43, 44, 45): `ID mount`, the options
 * mount-delay and mount-roll, `ID ride`. */
#include "winter_fixture.h"

#include "fray/chances.h"

#define CAVALRY "examples/silent-winter/cavalry.yaml"

/* lancer (initiator), horse, lothaire, hound, corpse, bandit */
static fray_fight *cav(fray_setup *s) {
    return sw_t_start(s, (int[]){6, 6, 6, 6, 6}, 5);
}

/* 002:65, 83: out of the saddle, `lancer mount` is a declaration of the
 * option mount-delay (5): ready again on 1 + 1 + 5, Undefended through
 * segment 6 (an Other Combat Action), in the saddle at the end of 6. */
Test(winter_saddle, mount_takes_its_delay_undefended_meanwhile_002_65_83) {
    fray_setup *s = sw_t_load(CAVALRY);
    fray_fight *f = cav(s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int la = sw_t_who(f, "lancer"), ho = sw_t_who(f, "horse"), hd = sw_t_who(f, "hound");
    sw_t_do(f, "lancer dismount", NULL, 0);
    cr_assert_eq(sw_mount_of(sd, st, la), -1);
    sw_t_do(f, "lancer mount", NULL, 0);
    cr_assert_eq(st->c[la].ready, 1 + 1 + 5);
    cr_assert(sw_undefended(sd, st, la, hd, false), "002:83: Undefended while getting up");
    cr_assert_eq(sw_mount_of(sd, st, la), -1, "not in the saddle before the delay ends");
    char buf[4096];
    sw_summary(sd, st, buf, sizeof buf);
    cr_assert(strstr(buf, "getting into the saddle (until the end of segment 6)"), "%s", buf);
    sw_t_to(f, 6);
    cr_assert_eq(sw_mount_of(sd, st, la), -1);
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(sw_mount_of(sd, st, la), ho, "in the saddle at the end of 6");
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "Lancer is in Warhorse's saddle again"),
              "%s", buf);
    cr_assert(!sw_undefended(sd, st, la, hd, false));
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_mount_of(sd, sw_t_st(f), la), -1, "undo: not yet");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling 43, mount-delay (1 to 30, default 5): with 2, ready on 4 and in
 * the saddle at the end of 3. */
Test(winter_saddle, mount_delay_settings) {
    fray_setup *s = sw_t_load(CAVALRY);
    cr_assert_eq(sw_mount_delay(sw_t_setup(s)), 5, "the default");
    sw_t_setup(s)->opt.mount_delay = 2;
    fray_fight *f = cav(s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int la = sw_t_who(f, "lancer");
    sw_t_do(f, "lancer dismount", NULL, 0);
    sw_t_do(f, "lancer mount horse", NULL, 0);
    cr_assert_eq(st->c[la].ready, 1 + 1 + 2);
    sw_t_to(f, 4);
    cr_assert_geq(sw_mount_of(sd, st, la), 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling 44, mount-roll: none (the default: no roll) or ride (a flat Ride
 * roll when the delay ends: 6 + 1 against 20 fails, and the lancer stays
 * on foot, the segments spent). */
Test(winter_saddle, mount_roll_settings) {
    for (int roll = 0; roll <= 1; roll++) {
        fray_setup *s = sw_t_load(CAVALRY);
        sw_t_setup(s)->opt.mount_roll = roll;
        fray_fight *f = cav(s);
        sw_state *st = sw_t_st(f);
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        int la = sw_t_who(f, "lancer");
        sw_t_do(f, "lancer dismount", NULL, 0);
        sw_t_do(f, "lancer mount", NULL, 0);
        sw_t_to(f, 6);
        sw_t_do(f, "next", roll ? (int[]){1, 20} : NULL, roll ? 2 : 0);
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        if (roll) {
            cr_assert_eq(sw_mount_of(sd, st, la), -1, "a failed Ride roll: on foot");
            cr_assert(strstr(buf, "a flat Ride roll to get into the saddle: 7 against 20"),
                      "%s", buf);
        } else {
            cr_assert_geq(sw_mount_of(sd, st, la), 0);
            cr_assert_null(strstr(buf, "Ride roll"), "%s", buf);
        }
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling 45, 002:61 "Ride checks at the GM's discretion": `ID ride` (the
 * rider, or its mount) asks for a flat Ride roll at once, no declaration
 * and no segment; a failure is a fall (ruling 28: out of the saddle,
 * Stunned 1d6 with fall-stun: d6). */
Test(winter_saddle, gm_ride_check_002_61) {
    fray_setup *s = sw_t_load(CAVALRY);
    fray_fight *f = cav(s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int la = sw_t_who(f, "lancer");
    sw_t_do(f, "horse ride", (int[]){20, 1}, 2);
    cr_assert_geq(sw_mount_of(sd, st, la), 0, "a success: still in the saddle");
    cr_assert_eq(st->c[la].ready, 1, "no segment spent");
    sw_t_do(f, "lancer ride", (int[]){1, 20, 3}, 3);
    cr_assert_eq(sw_mount_of(sd, st, la), -1, "a fall");
    cr_assert_eq(st->c[la].stun_until, 1 + 3, "Stunned 1d6 (3) segments");
    sw_t_refused(f, "lancer ride", "not in the saddle");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling 27's stun-interrupts holds for getting into the saddle (ruling
 * 43): yes (the default): a Stun ends it, the rider stays on foot; no: it
 * goes on and the rider is in the saddle at the end of its delay. The
 * hound's dread gaze Stuns with no roll. */
Test(winter_saddle, stun_interrupts_settings) {
    for (int keep = 0; keep <= 1; keep++) {
        fray_setup *s = sw_t_load(CAVALRY);
        sw_t_setup(s)->opt.stun_keeps_pending = keep;
        fray_fight *f = cav(s);
        sw_state *st = sw_t_st(f);
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        int la = sw_t_who(f, "lancer"), hd = sw_t_who(f, "hound");
        sw_t_do(f, "lancer dismount", NULL, 0);
        sw_t_do(f, "lancer mount", NULL, 0);
        sw_t_ready(f, hd, la);
        sw_t_do(f, "hound talent dread-gaze lancer", NULL, 0);
        cr_assert(sw_stunned(st, la));
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        cr_assert_eq(strstr(buf, "getting into Warhorse's saddle is interrupted") != NULL, !keep,
                     "stun-interrupts: %s: %s", keep ? "no" : "yes", buf);
        sw_t_to(f, 7);
        cr_assert_eq(sw_mount_of(sd, st, la) >= 0, keep == 1);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Refused in words: in the saddle already, no mount, another's mount,
 * getting up already; the chances at the table count the flat Ride roll
 * (Ride 6: 295 of 400) and refuse a mount with no roll. */
Test(winter_saddle, refusals_and_chances) {
    fray_setup *s = sw_t_load(CAVALRY);
    fray_fight *f = cav(s);
    int la = sw_t_who(f, "lancer");
    sw_t_refused(f, "lancer mount", "in Warhorse's saddle already");
    sw_t_ready(f, sw_t_who(f, "lothaire"), -1);
    sw_t_refused(f, "lothaire mount", "has no mount");
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, la, "ride", c, &d), FRAY_OK, "%s", d.message);
    bool seen = false;
    for (int k = 0; k < c->n_outcomes; k++)
        if (strcmp(c->outcomes[k].name, "succeeds") == 0) {
            cr_assert_float_eq(c->outcomes[k].share, 295.0 / 400.0, 1e-12);
            seen = true;
        }
    cr_assert(seen);
    sw_t_do(f, "lancer dismount", NULL, 0);
    sw_t_refused(f, "lancer mount hound", "rides Warhorse, not Grave-Hound");
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, la, "mount", c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "rolls no dice here (mount-roll: none)"), "%s", d.message);
    sw_t_do(f, "lancer mount", NULL, 0);
    sw_t_ready(f, la, -1);
    sw_t_refused(f, "lancer mount", "getting into the saddle already");
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics of a rider with remount: true: on foot, engaged by and
 * engaging nobody, it gets back into the saddle; the journal reads back
 * the same fight. (Without remount the tactics leave it on foot.) */
static void saddle_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                        uint64_t seed, void *ctx) {
    int *mounts = ctx;
    if (cmd->kind != SW_EV_MOUNT)
        return;
    (*mounts)++;
    cr_assert(st->c[cmd->actor].unhorsed, "seed %llu", (unsigned long long)seed);
    cr_assert_lt(st->c[cmd->actor].engages, 0);
    (void)sd;
}

Test(winter_saddle, tactics_and_journal) {
    fray_setup *s = sw_t_load(CAVALRY);
    sw_t_setup(s)->opt.fall_no_stun = true;
    sw_t_setup(s)->c[sw_find_combatant(sw_t_setup(s), "lancer")].remount = true;
    int mounts = 0;
    for (uint64_t seed = 1; seed <= 60; seed++)
        sw_t_play(s, seed, saddle_look, &mounts, NULL);
    cr_assert_gt(mounts, 0, "a rider got back into the saddle in 60 fights");
    fray_setup_free(s);
}

/* fray check: remount is a rider's (at its line and column). */
Test(winter_saddle, remount_file_error) {
    sw_t_refused_file("tests/data/winter/bad_remount.yaml", 6, "remount is a rider's");
}

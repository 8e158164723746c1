/* test_winter_bonus_talents.c - talents' bonuses to rolls other than the
 * attack (seed 002:23-31, 39, 47, 73, 77: Avoid, Switch Targets,
 * Disengage, chasing a Sniper and the flat Endurance rolls are rolls like
 * the attack, and 002:27 names "a part from skills and talents";
 * docs/rules/silent-winter.md 34): a passive talent's `roll:` and
 * `bonus:`, ruling talent-rolls (actor | all), the narration, the chances,
 * the tactics and the journal, the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"

#define NIMBLE "tests/data/winter/nimble.yaml"

/* The dancer free to declare on the warrior's segment 1 (002:23: Avoid on
 * the segment of the Engage). */
static fray_fight *nimble_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_t_ready(f, sw_t_who(f, "dancer"), -1);
    return f;
}

/* 002:23 Avoid: d20 10 + Agility 3 + nimble 5 = 18 against the warrior's
 * 12 + 2 = 14: avoided; without the talent 13 against 14 fails. */
Test(winter_bonus_talents, avoid_with_the_talent_002_23) {
    for (int with = 0; with < 2; with++) {
        fray_setup *s = sw_t_load(NIMBLE);
        if (!with)
            sw_t_setup(s)->c[sw_find_combatant(sw_t_setup(s), "dancer")].b.talents = 0;
        fray_fight *f = nimble_fight(s);
        sw_state *st = sw_t_st(f);
        int wa = sw_t_who(f, "warrior");
        sw_t_do(f, "warrior engage dancer", NULL, 0);
        sw_t_do(f, "dancer avoid warrior", (int[]){10, 12}, 2);
        cr_assert_eq(st->c[wa].pend_kind == SW_PEND_NONE, with == 1, "%s the talent",
                     with ? "with" : "without");
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        if (with)
            cr_assert(strstr(buf, "Dancer rolls Agility to Avoid: 18 against Warrior's 14 "
                                  "(talents: +5, +0 against): success"), "%s", buf);
        else
            cr_assert_null(strstr(buf, "talents:"), "%s", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling talent-rolls (actor | all): the warrior Disengages from the
 * dancer (002:31): 15 + 2 = 17 against the dancer's 10 + 3 = 13, or 18
 * with all (the dancer's nimble opposes the move too). */
Test(winter_bonus_talents, talent_rolls_settings_002_31) {
    for (int all = 0; all < 2; all++) {
        fray_setup *s = sw_t_load(NIMBLE);
        sw_t_setup(s)->opt.talent_rolls_all = all;
        fray_fight *f = nimble_fight(s);
        sw_state *st = sw_t_st(f);
        int wa = sw_t_who(f, "warrior"), da = sw_t_who(f, "dancer");
        sw_t_ready(f, wa, da);
        sw_t_ready(f, da, wa);
        sw_t_do(f, "warrior disengage dancer", (int[]){15, 10}, 2);
        cr_assert_eq(st->c[wa].engages == -1, all == 0, "talent-rolls: %s",
                     all ? "all" : "actor");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The flat Endurance roll to stop the bleeding (002:39): d20 5 +
 * Endurance 2 + stubborn 10 = 17 against 15 stops it; without the talent
 * 7 fails and costs another 1d6. */
Test(winter_bonus_talents, stop_the_bleeding_with_the_talent_002_39) {
    for (int with = 0; with < 2; with++) {
        fray_setup *s = sw_t_load(NIMBLE);
        if (!with)
            sw_t_setup(s)->c[sw_find_combatant(sw_t_setup(s), "dancer")].b.talents = 0;
        fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
        sw_state *st = sw_t_st(f);
        int da = sw_t_who(f, "dancer");
        st->c[da].flags |= SW_F_WOUNDED | SW_F_BLEEDING;
        if (with)
            sw_t_do(f, "next", (int[]){2, 5, 15}, 3);
        else
            sw_t_do(f, "next", (int[]){2, 5, 15, 3}, 4);
        cr_assert_eq((st->c[da].flags & SW_F_BLEEDING) == 0, with == 1);
        cr_assert_eq(st->c[da].health, 24 - 2 - (with ? 0 : 3));
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The chances at the table (issue 19) count the talent: Avoid is d20 + 8
 * against d20 + 2 (ties to the warrior). */
Test(winter_bonus_talents, chances_count_the_talent) {
    fray_setup *s = sw_t_load(NIMBLE);
    fray_fight *f = nimble_fight(s);
    sw_t_do(f, "warrior engage dancer", NULL, 0);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, sw_t_who(f, "dancer"), "avoid warrior", c, &d), FRAY_OK,
                 "%s", d.message);
    int wins = 0;
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + 8 > y + 2;
    cr_assert_float_eq(c->outcomes[1].share, wins / 400.0, 1e-12, "%f", c->outcomes[1].share);
    cr_assert(strstr(c->modifiers, "talents: +5"), "%s", c->modifiers);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics play with the talents at work (never declared), and each
 * journal reads back to the same fight. */
static void never_declared(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                           uint64_t seed, void *ctx) {
    (void)st;
    (void)ctx;
    cr_assert(cmd->kind != SW_EV_TALENT || sd->tl[cmd->arg].effect != SW_TE_ROLL_BONUS,
              "seed %llu: a passive talent declared", (unsigned long long)seed);
}

Test(winter_bonus_talents, tactics_and_journal) {
    fray_setup *s = sw_t_load(NIMBLE);
    for (uint64_t seed = 1; seed <= 10; seed++)
        sw_t_play(s, seed, never_declared, NULL, NULL);
    fray_setup_free(s);
}

/* One with a talent to Avoid, free on the segment an Engage on it is
 * declared, Avoids it (docs/rules/silent-winter.md "Tactics"); without
 * the talent (fresh, not a sniper) it does not. */
Test(winter_bonus_talents, tactics_avoid_with_the_talent) {
    for (int with = 0; with < 2; with++) {
        fray_setup *s = sw_t_load(NIMBLE);
        if (!with)
            sw_t_setup(s)->c[sw_find_combatant(sw_t_setup(s), "dancer")].b.talents = 0;
        fray_fight *f = nimble_fight(s);
        sw_t_do(f, "warrior engage dancer", NULL, 0);
        sw_event cmd;
        sw_choose(sw_fight_setup(fray__fight_rf(f)), sw_t_st(f), &cmd);
        cr_assert_eq(cmd.kind == SW_EV_AVOID && cmd.actor == sw_t_who(f, "dancer"), with == 1,
                     "%s the talent: kind %d", with ? "with" : "without", cmd.kind);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* fray check: roll is a passive talent's, with a bonus alone, among the
 * rolls there are; each at line 5 with its column. */
Test(winter_bonus_talents, talent_file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_roll_talent.yaml", "give it resolve: passive"},
        {"tests/data/winter/bad_roll_word.yaml", "avoid, switch, disengage, chase, endurance"},
        {"tests/data/winter/bad_roll_bonus.yaml", "a bonus alone: no pain"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}

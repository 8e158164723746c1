/* test_winter_area_attacks.c - area attacks that are not spells (seed
 * 002:53 "Area spells and attacks are a special case ... you don't have to
 * roll to hit with them - they automatically affect everyone in a given
 * Engaged cluster"; docs/rules/silent-winter.md 30): a weapon with
 * `area: true` falls on the target's cluster as an area spell does
 * (ruling 29's code: area-damage once | each), the attacker spared or not
 * (area-attacker), the file's errors, the words, the journal and the
 * chances refused (no roll). */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"

#define AREA "tests/data/winter/area_attack.yaml"

/* Lothaire and the warrior engage each other; the bandit engages
 * Lothaire (two hops from the warrior). */
static fray_fight *area_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
    st->c[lo].engages = (int8_t)wa;
    st->c[wa].engages = (int8_t)lo;
    st->c[ba].engages = (int8_t)lo;
    return f;
}

/* 002:53: no roll; the warrior and Lothaire (his own ally) take the
 * firepot's 1d6+2, the bandit (two hops) nothing; ruling area-damage:
 * once (one roll for all) or each. */
Test(winter_area_attacks, firepot_on_the_cluster_no_roll_002_53) {
    for (int each = 0; each < 2; each++) {
        fray_setup *s = sw_t_load(AREA);
        sw_t_setup(s)->opt.area_damage_each = each;
        fray_fight *f = area_fight(s);
        sw_state *st = sw_t_st(f);
        int lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
        if (each)
            sw_t_do(f, "thrower attack warrior", (int[]){3, 6}, 2);
        else
            sw_t_do(f, "thrower attack warrior", (int[]){3}, 1);
        cr_assert_eq(st->c[wa].health, 32 - (5 - 2), "1d6+2 less Physical Resistance 2");
        cr_assert_eq(st->c[lo].health, 34 - ((each ? 8 : 5) - 2), "area-damage: %s",
                     each ? "each" : "once");
        cr_assert_eq(st->c[ba].health, 22, "the bandit is two hops away");
        cr_assert_eq(st->c[lo].pain, 5, "002:37: a point of Pain");
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        cr_assert(strstr(buf, "Thrower's firepot falls on Lothaire (an area attack: no roll, 002:53)"),
                  "%s", buf);
        cr_assert_null(strstr(buf, " against "), "no roll to hit: %s", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling area-attacker (spared | hit): the flailer engages the warrior, so
 * it is in the warrior's cluster itself; Lothaire is too. */
Test(winter_area_attacks, area_attacker_settings) {
    for (int hit = 0; hit < 2; hit++) {
        fray_setup *s = sw_t_load(AREA);
        sw_t_setup(s)->opt.area_hits_attacker = hit;
        fray_fight *f = area_fight(s);
        sw_state *st = sw_t_st(f);
        int fl = sw_t_who(f, "flailer"), lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
        sw_t_ready(f, fl, wa);
        sw_t_do(f, "flailer attack warrior", (int[]){4, 3}, 2);
        cr_assert_eq(st->c[wa].health, 32 - 5);
        cr_assert_eq(st->c[lo].health, 34 - 5, "the ally beside the warrior");
        cr_assert_eq(st->c[fl].health, hit ? 20 - 7 : 20, "area-attacker: %s",
                     hit ? "hit" : "spared");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The chances at the table are refused in rules words: an area attack
 * rolls no dice to hit (002:53). */
Test(winter_area_attacks, chances_refused_no_roll) {
    fray_setup *s = sw_t_load(AREA);
    fray_fight *f = area_fight(s);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, sw_t_who(f, "thrower"), "attack warrior", c, &d),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "firepot rolls no dice to hit"), "%s", d.message);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics' fights with area weapons play to their end, the area
 * attacks fall, and each journal reads back to the same fight. */
Test(winter_area_attacks, tactics_and_journal) {
    fray_setup *s = sw_t_load(AREA);
    int area = sw_t_count_in_plays(s, 10, "\"area\":true");
    cr_assert_geq(area, 5, "%d area attacks in 10 fights", area);
    fray_setup_free(s);
}

/* fray check: an area weapon's `area` is true or false, and a siege
 * weapon cannot be one, each at its line and column. */
Test(winter_area_attacks, weapon_file_errors) {
    static const struct { const char *file; int line; const char *words; } bad[] = {
        {"tests/data/winter/bad_area_weapon.yaml", 5, "area"},
        {"tests/data/winter/bad_area_siege.yaml", 5, "siege weapon cannot be an area weapon"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, bad[i].file);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        fray_setup *s = NULL;
        cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK);
        cr_assert_eq(diag.line, bad[i].line, "%s: %d: %s", bad[i].file, diag.line, diag.message);
        cr_assert_gt(diag.column, 0);
        cr_assert(strstr(diag.message, bad[i].words), "%s", diag.message);
    }
}

/* test_winter_bonus.c - spells that grant bonus Health or Pain (seed
 * 002:75: "For spells that have effects that are 'used up' (such as ones
 * that animate creatures or grant extra health points), the mage does
 * immediately regain the Maintain cost if the spell is ended by an outside
 * agency (the bonus health is used up ...). Bonus health or pain points
 * are used up before regular health or pain points";
 * docs/rules/silent-winter.md 33): used up first, the Maintain back at
 * once, ruling bonus-pain-roll, the view and the players' narration, the
 * chances, the tactics and the journal, the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"
#include "fray/view.h"

#define BONUS "tests/data/winter/bonus.yaml"

/* The mage lays stoneskin (6 bonus Health) on Lothaire (delay 2: from the
 * end of segment 3); then Lothaire and the warrior engage each other. */
static fray_fight *stone_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_t_do(f, "mage cast stoneskin lothaire", NULL, 0);
    sw_t_to(f, 3);
    sw_t_do(f, "next", NULL, 0);
    int lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
    sw_t_ready(f, lo, wa);
    sw_t_ready(f, wa, lo);
    return f;
}

/* 002:75: the axe's 2d6+1 = 7 less mail's 2 = 5 falls on the bonus first
 * (1 left, Health 34 kept; the hit still costs a point of Pain, 002:37);
 * the next 5 uses the last point and 4 of Health, the spell is used up and
 * the mage has its Maintain of 2 back at once. */
Test(winter_bonus, bonus_health_used_first_maintain_back_002_75) {
    fray_setup *s = sw_t_load(BONUS);
    fray_fight *f = stone_fight(s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int ma = sw_t_who(f, "mage"), lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
    cr_assert_eq(st->c[ma].n_maint, 1, "Maintained (002:73)");
    cr_assert_eq(st->c[ma].magic, 12 - 1 - 2, "the cost and the Maintain set aside");
    cr_assert_eq(sw_bonus_left(sd, st, lo, SW_BONUS_HEALTH), 6);
    sw_t_do(f, "warrior attack lothaire", (int[]){20, 1, 3, 3}, 4);
    cr_assert_eq(st->c[lo].health, 34, "the bonus first");
    cr_assert_eq(sw_bonus_left(sd, st, lo, SW_BONUS_HEALTH), 1);
    cr_assert_eq(st->c[lo].pain, 6 - 1, "hit and took damage: a point of Pain (002:37)");
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Lothaire's stoneskin takes 5 of the damage first (bonus Health: 1 left)"),
              "%s", buf);
    sw_t_ready(f, wa, lo);
    sw_t_do(f, "warrior attack lothaire", (int[]){20, 1, 3, 3}, 4);
    cr_assert_eq(st->c[lo].health, 34 - 4);
    cr_assert_eq(st->c[ma].n_maint, 0, "used up: the spell ends");
    cr_assert_eq(st->c[ma].magic, 12 - 1, "the Maintain back at once (002:75)");
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Hedge-Mage's stoneskin is used up: Hedge-Mage has its Maintain "
                          "back at once (Magic 11, 002:75)"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Released (002:73): the Maintain back and the bonus gone with it. */
Test(winter_bonus, released_the_bonus_goes) {
    fray_setup *s = sw_t_load(BONUS);
    fray_fight *f = stone_fight(s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int ma = sw_t_who(f, "mage"), lo = sw_t_who(f, "lothaire");
    sw_t_ready(f, ma, -1);
    sw_t_do(f, "mage release stoneskin", NULL, 0);
    cr_assert_eq(sw_bonus_left(sd, st, lo, SW_BONUS_HEALTH), 0);
    cr_assert_eq(st->c[ma].magic, 11);
    sw_t_do(f, "warrior attack lothaire", (int[]){20, 1, 3, 3}, 4);
    cr_assert_eq(st->c[lo].health, 34 - 5);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Bonus Pain (002:75) and ruling bonus-pain-roll (no | yes): the mage's
 * iron will (2 bonus Pain) takes the point a hit costs; the mage Maintains
 * it, so a regular point lost would call for a flat Endurance roll
 * (002:73): with `no` a bonus point used up is not Pain lost for it, with
 * `yes` it is. */
Test(winter_bonus, bonus_pain_and_the_roll_settings_002_75) {
    for (int roll = 0; roll < 2; roll++) {
        fray_setup *s = sw_t_load(BONUS);
        sw_t_setup(s)->opt.bonus_pain_roll = roll;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        int ma = sw_t_who(f, "mage"), ba = sw_t_who(f, "bandit");
        sw_t_do(f, "mage cast iron-will", NULL, 0);
        sw_t_to(f, 3);
        sw_t_do(f, "next", NULL, 0);
        cr_assert_eq(sw_bonus_left(sd, st, ma, SW_BONUS_PAIN), 2);
        sw_t_ready(f, ba, ma);
        /* spear 1d6+3 = 4; the mage has no armour */
        if (roll)
            sw_t_do(f, "bandit attack mage", (int[]){20, 1, 1, 20, 1}, 5);
        else
            sw_t_do(f, "bandit attack mage", (int[]){20, 1, 1}, 3);
        cr_assert_eq(st->c[ma].health, 20 - 4);
        cr_assert_eq(st->c[ma].pain, 4, "the bonus Pain first");
        cr_assert_eq(sw_bonus_left(sd, st, ma, SW_BONUS_PAIN), 1);
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        cr_assert_eq(strstr(buf, "flat Endurance roll to keep casting and Maintaining") != NULL,
                     roll == 1, "bonus-pain-roll: %s: %s", roll ? "yes" : "no", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The view (include/fray/view.h): the bonus counted in the track as its
 * temporary points; a player who does not see the numbers reads it
 * without them (issue 14). */
Test(winter_bonus, view_and_players_narration) {
    fray_setup *s = sw_t_load(BONUS);
    fray_fight *f = stone_fight(s);
    int lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_eq(v->combatants[lo].tracks[0].value, 34 + 6);
    cr_assert_eq(v->combatants[lo].tracks[0].temporary, 6);
    fray_fight_view_free(v);
    sw_t_do(f, "warrior attack lothaire", (int[]){20, 1, 3, 3}, 4);
    int controls[] = {wa};
    fray_view_scope sc = fray_view_scope_player(controls, 1);
    sc.enemy_numbers = false;
    char buf[4096];
    size_t n = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_event_narrate_for(f, fray_fight_events(f) - 1, &sc, buf, sizeof buf, &n,
                                        &d), FRAY_OK, "%s", d.message);
    cr_assert(strstr(buf, "Lothaire's stoneskin takes some of the damage first (bonus Health)"), "%s",
              buf);
    cr_assert(!strstr(buf, "1 left"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The chances at the table (issue 19) count the bonus first: the warrior's
 * axe (2d6+1 less 2) on Lothaire with 6 bonus Health takes off Health only
 * what passes 6, and the Pain of the hit as before. */
Test(winter_bonus, chances_count_the_bonus_first) {
    fray_setup *s = sw_t_load(BONUS);
    fray_fight *f = stone_fight(s);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, sw_t_who(f, "warrior"), "attack lothaire", c, &d),
                 FRAY_OK, "%s", d.message);
    double e = 0, p = 0; /* E[max(0, 2d6 + 1 - 2 - 6)] and P(2d6 + 1 - 2 > 0) */
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++) {
            e += (a + b - 7 > 0 ? a + b - 7 : 0) / 36.0;
            p += (a + b - 1 > 0) / 36.0;
        }
    double hit = c->outcomes[1].share;
    cr_assert_float_eq(c->expected[0], hit * e, 1e-9, "%f", c->expected[0]);
    cr_assert_float_eq(c->expected[1], hit * p, 1e-9, "%f", c->expected[1]);
    cr_assert(strstr(c->modifiers, "bonus Health 6"), "%s", c->modifiers);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics lay the bonus spells (on an ally, on the caster), the bonus
 * is used up in the fights, and each journal reads back to the same fight. */
Test(winter_bonus, tactics_and_journal) {
    fray_setup *s = sw_t_load(BONUS);
    int used = sw_t_count_in_plays(s, 10, "\"bonus\":\"");
    cr_assert_geq(used, 10, "%d bonus points used up in 10 fights", used);
    fray_setup_free(s);
}

/* fray check: a bonus spell is Maintained, personal or beneficial, and
 * grants 1 to 99 points, each at its line and column. */
Test(winter_bonus, spell_file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_bonus.yaml", "while the spell is Maintained"},
        {"tests/data/winter/bad_bonus_kind.yaml", "personal or beneficial"},
        {"tests/data/winter/bad_bonus_amount.yaml", "between 1 and 99"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}

/* Undo and redo (the layer's journal): the segment end that Maintains the
 * stoneskin undone takes the bonus away; redone brings it back. */
Test(winter_bonus, undo_and_redo) {
    fray_setup *s = sw_t_load(BONUS);
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int lo = sw_t_who(f, "lothaire");
    sw_t_do(f, "mage cast stoneskin lothaire", NULL, 0);
    sw_t_to(f, 3);
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(sw_bonus_left(sd, sw_t_st(f), lo, SW_BONUS_HEALTH), 6);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_bonus_left(sd, sw_t_st(f), lo, SW_BONUS_HEALTH), 0);
    cr_assert_eq(fray_fight_redo(f), FRAY_OK);
    cr_assert_eq(sw_bonus_left(sd, sw_t_st(f), lo, SW_BONUS_HEALTH), 6);
    fray_fight_free(f);
    fray_setup_free(s);
}

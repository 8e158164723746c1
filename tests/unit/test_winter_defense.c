/* test_winter_defense.c - talents on a defence (seed 002:27 "she no
 * longer adds her Agility attribute or any bonuses from Skills or Talents
 * to her Physical Defense (other bonuses, say from Spells or those
 * granted by other characters, still apply)"; 002:69; docs/rules/
 * silent-winter.md 48): a passive talent's defense: N counted as the stat
 * block's defense bonus, lost when Undefended; the option talent-defense:
 * physical | both; the chances, the view, the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"
#include "fray/view.h"

#define PARRY "tests/data/winter/defense_talent.yaml"

/* duelist, warrior (initiator), bandit, mage: opening d6s for the three */
static fray_fight *parry_fight(fray_setup *s) { return sw_t_start(s, (int[]){6, 6, 6}, 3); }

/* Only `who` may declare now (the others wait far ahead). */
static void only(fray_fight *f, int who, int target) {
    sw_state *st = sw_t_st(f);
    for (int j = 0; j < st->n; j++)
        st->c[j].ready = st->seg + 50;
    sw_t_ready(f, who, target);
}

/* 002:27: the duelist's parry (+4) adds to its Physical Defense as its
 * Agility does (4 + 3 + 4 = 11), and is lost when Undefended (4). */
Test(winter_defense, talent_defense_lost_when_undefended_002_27) {
    fray_setup *s = sw_t_load(PARRY);
    fray_fight *f = parry_fight(s);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int du = sw_t_who(f, "duelist"), wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
    cr_assert_eq(sw_talent_defense(sd, du), 4);
    cr_assert_eq(sw_talent_defense(sd, wa), 0);
    sw_attack_terms_t at;
    st->c[du].engages = (int8_t)wa;
    st->c[wa].engages = (int8_t)du;
    sw_attack_terms(sd, st, wa, du, &at);
    cr_assert(!at.undefended);
    cr_assert_eq(at.talent_defense, 4);
    cr_assert_eq(at.def, 4 + 3 + 4, "Physical Defense, Agility and the talent");
    /* the warrior attacks: 10 + 6 = 16 against 10 + 11 = 21: a miss */
    only(f, wa, du);
    sw_t_do(f, "warrior attack duelist", (int[]){10, 10}, 2);
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "16 against 21: miss"), "%s", buf);
    /* the duelist engages the bandit: Undefended against the warrior */
    st->c[du].engages = (int8_t)ba;
    sw_attack_terms(sd, st, wa, du, &at);
    cr_assert(at.undefended);
    cr_assert_eq(at.def, 4, "Physical Defense alone: the talent's +4 lost (002:27)");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling 48, talent-defense: physical (default) | both: the mage's
 * firebolt (Magic Attack 6 + 10 = 16) against the duelist's Magic Defense
 * 2 + 10 = 12 hits; with both, 2 + 4 + 10 = 16: a tie, the defender's. */
Test(winter_defense, magic_defense_settings) {
    for (int both = 0; both < 2; both++) {
        fray_setup *s = sw_t_load(PARRY);
        cr_assert(!sw_t_setup(s)->opt.talent_defense_both, "default: physical");
        sw_t_setup(s)->opt.talent_defense_both = both;
        fray_fight *f = parry_fight(s);
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        int du = sw_t_who(f, "duelist"), ma = sw_t_who(f, "mage");
        cr_assert_eq(sw_talent_magic_defense(sd, du), both ? 4 : 0);
        only(f, ma, -1);
        sw_t_do(f, "mage cast firebolt duelist", NULL, 0);
        int at = sw_t_st(f)->c[ma].pend_at;
        sw_t_to(f, at);
        if (both)
            sw_t_do(f, "next", (int[]){10, 10}, 2);
        else
            sw_t_do(f, "next", (int[]){10, 10, 3, 3}, 4);
        char buf[4096];
        cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                         both ? "16 against 16: miss" : "16 against 12: hit"),
                  "both %d: %s", both, buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The chances name the talent's defence, and its loss when Undefended;
 * the view lists it among the duelist's conditions. */
Test(winter_defense, chances_and_view) {
    fray_setup *s = sw_t_load(PARRY);
    fray_fight *f = parry_fight(s);
    sw_state *st = sw_t_st(f);
    int du = sw_t_who(f, "duelist"), wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
    st->c[du].engages = (int8_t)wa;
    only(f, wa, du);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, wa, "attack duelist", c, &d), FRAY_OK, "%s", d.message);
    cr_assert(strstr(c->modifiers, "the target's talents: defense +4 (002:27)"), "%s",
              c->modifiers);
    st->c[du].engages = (int8_t)ba;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, wa, "attack duelist", c, &d), FRAY_OK, "%s", d.message);
    cr_assert(strstr(c->modifiers, "defense +4 lost: Undefended"), "%s", c->modifiers);
    free(c);
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    int seen = 0;
    for (int k = 0; k < v->combatants[du].n_conditions; k++)
        seen += strcmp(v->combatants[du].conditions[k].name, "talents: defense +4") == 0;
    cr_assert_eq(seen, 1, "the view shows the talent's defence");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* fray check: defense is a passive talent's, alone, 1 to 30; the option's
 * values; each at its line and column. */
Test(winter_defense, file_errors) {
    static const struct { const char *file; int line; const char *words; } bad[] = {
        {"tests/data/winter/bad_defense_talent.yaml", 5, "defense is a passive talent's"},
        {"tests/data/winter/bad_defense_talent2.yaml", 5, "has defense alone: no pain"},
        {"tests/data/winter/bad_defense_talent3.yaml", 5, "between 1 and 30"},
        {"tests/data/winter/bad_defense_option.yaml", 6, "talent-defense"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, bad[i].line, bad[i].words);
}

/* The tactics' fights with a defence talent play to their end and each
 * journal reads back to the same fight. */
Test(winter_defense, tactics_and_journal) {
    fray_setup *s = sw_t_load(PARRY);
    for (uint64_t seed = 1; seed <= 10; seed++)
        sw_t_play(s, seed, NULL, NULL, NULL);
    fray_setup_free(s);
}

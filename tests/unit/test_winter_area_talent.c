/* test_winter_area_talent.c - area talents (seed 002:53 "Area spells and
 * attacks are a special case (all area effects are indicated as such
 * under the description) ... they automatically affect everyone in a
 * given Engaged cluster. If an area effect causes Wounds or Stun, it
 * works just as well on allies as it does on foes"; docs/rules/
 * silent-winter.md 49): a talent with area: true falls on the target's
 * cluster with no roll through the area weapons' code (ruling 30's
 * options area-attacker and area-damage), the words, the journal, the
 * chances refused, the tactics sparing their own side, the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"

#define CRY "tests/data/winter/war_cry.yaml"

/* The shouter and the warrior engage each other; Lothaire engages the
 * warrior; the bandit engages Lothaire (two hops from the warrior). */
static fray_fight *cry_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int sh = sw_t_who(f, "shouter"), lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior"),
        ba = sw_t_who(f, "bandit");
    st->c[sh].engages = (int8_t)wa;
    st->c[wa].engages = (int8_t)sh;
    st->c[lo].engages = (int8_t)wa;
    st->c[ba].engages = (int8_t)lo;
    return f;
}

/* 002:53: the automatic war-cry (stun 2) Stuns the warrior and Lothaire
 * (the shouter's own ally) with no roll; the bandit, two hops away, is
 * spared; the shouter itself with area-attacker: spared (the default),
 * Stunned with hit; one point of Pain spent either way. */
Test(winter_area_talent, war_cry_on_the_cluster_no_roll_002_53) {
    for (int hit = 0; hit < 2; hit++) {
        fray_setup *s = sw_t_load(CRY);
        sw_t_setup(s)->opt.area_hits_attacker = hit;
        fray_fight *f = cry_fight(s);
        sw_state *st = sw_t_st(f);
        int sh = sw_t_who(f, "shouter"), lo = sw_t_who(f, "lothaire"),
            wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
        int pain = st->c[sh].pain, seg = st->seg;
        sw_t_do(f, "shouter talent war-cry warrior", NULL, 0);
        cr_assert(sw_stunned(st, wa) && st->c[wa].stun_until == seg + 2, "the target");
        cr_assert(sw_stunned(st, lo), "an ally as well as a foe (002:53)");
        cr_assert(!sw_stunned(st, ba), "two hops: not in the cluster");
        cr_assert_eq(sw_stunned(st, sh), hit == 1, "area-attacker %d", hit);
        cr_assert_eq(st->c[sh].pain, pain - 1, "its Pain once");
        cr_assert_eq(st->c[wa].health, sw_fight_setup(fray__fight_rf(f))->c[wa].b.health,
                     "no weapon damage from an automatic talent");
        char buf[4096];
        cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                         "Shouter's war-cry falls on Lothaire (an area talent: no roll, 002:53)"),
                  "%s", buf);
        size_t len;
        char *j = fx_journal(f, 1 << 20, &len);
        cr_assert(strstr(j, "\"talent\":\"war-cry\""), "%s", j);
        free(j);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* 002:53 with the sweep (an attack talent, wound): no attack roll; the
 * sword's 2d6 on the warrior and Lothaire (less armour, 002:33) and both
 * Wounded; ruling 29's area-damage: once (one roll, 3 + 4) or each (a
 * roll for each). */
Test(winter_area_talent, sweep_wounds_and_harms_the_cluster_settings) {
    for (int each = 0; each < 2; each++) {
        fray_setup *s = sw_t_load(CRY);
        sw_t_setup(s)->opt.area_damage_each = each;
        fray_fight *f = cry_fight(s);
        sw_state *st = sw_t_st(f);
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        int lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
        if (each)
            sw_t_do(f, "shouter talent sweep warrior", (int[]){3, 4, 6, 6}, 4);
        else
            sw_t_do(f, "shouter talent sweep warrior", (int[]){3, 4}, 2);
        int res_w = sd->c[wa].b.physical_resistance, res_l = sd->c[lo].b.physical_resistance;
        cr_assert_eq(st->c[wa].health, sd->c[wa].b.health - (7 - res_w), "each %d", each);
        cr_assert_eq(st->c[lo].health, sd->c[lo].b.health - ((each ? 12 : 7) - res_l),
                     "each %d", each);
        cr_assert(st->c[wa].flags & SW_F_WOUNDED);
        cr_assert(st->c[lo].flags & SW_F_WOUNDED, "its ally too (002:53)");
        cr_assert(!(st->c[ba].flags & SW_F_WOUNDED));
        cr_assert_eq(st->c[ba].health, sd->c[ba].b.health);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The chances of an area talent are refused in rules words: no roll. */
Test(winter_area_talent, chances_refused_no_roll) {
    fray_setup *s = sw_t_load(CRY);
    fray_fight *f = cry_fight(s);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, sw_t_who(f, "shouter"), "talent sweep warrior", c, &d),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "an area talent falls on the target's Engaged cluster with no roll"),
              "%s", d.message);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics (ruling 49): never an area talent on a cluster holding one
 * of their own side: with Lothaire at the warrior, the shouter attacks
 * with the sword; Lothaire gone, it sweeps. */
Test(winter_area_talent, tactics_spare_their_side) {
    fray_setup *s = sw_t_load(CRY);
    fray_fight *f = cry_fight(s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int sh = sw_t_who(f, "shouter"), lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
    for (int j = 0; j < st->n; j++)
        st->c[j].ready = st->seg + 50;
    st->c[sh].ready = st->seg;
    st->c[sh].decl_seg = 0;
    sw_event cmd;
    memset(&cmd, 0, sizeof cmd);
    sw_choose(sd, st, &cmd);
    cr_assert_eq(cmd.kind, SW_EV_ATTACK, "%d", cmd.kind);
    cr_assert_eq(cmd.target, wa);
    st->c[lo].engages = -1;
    sw_choose(sd, st, &cmd);
    cr_assert_eq(cmd.kind, SW_EV_TALENT, "%d", cmd.kind);
    cr_assert_eq(cmd.target, wa);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* fray check: area is a declared talent's, true or false, never with a
 * bonus to a roll it does not make; each at its line and column. */
Test(winter_area_talent, file_errors) {
    static const struct { const char *file; int line; const char *words; } bad[] = {
        {"tests/data/winter/bad_area_talent.yaml", 5, "not a passive one's"},
        {"tests/data/winter/bad_area_talent2.yaml", 5, "an area talent rolls no dice"},
        {"tests/data/winter/bad_area_talent3.yaml", 5, "area"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, bad[i].line, bad[i].words);
}

/* Undo takes the war-cry back: nobody Stunned, its Pain back. */
Test(winter_area_talent, undo) {
    fray_setup *s = sw_t_load(CRY);
    fray_fight *f = cry_fight(s);
    sw_state *st = sw_t_st(f);
    int sh = sw_t_who(f, "shouter"), lo = sw_t_who(f, "lothaire"), wa = sw_t_who(f, "warrior");
    int pain = st->c[sh].pain;
    sw_t_do(f, "shouter talent war-cry warrior", NULL, 0);
    cr_assert(sw_stunned(st, lo));
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    st = sw_t_st(f);
    cr_assert(!sw_stunned(st, lo) && !sw_stunned(st, wa));
    cr_assert_eq(st->c[sh].pain, pain);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics' fights with area talents play to their end, an area
 * talent falls in some, and each journal reads back to the same fight. */
Test(winter_area_talent, tactics_and_journal) {
    fray_setup *s = sw_t_load(CRY);
    int area = sw_t_count_in_plays(s, 10, "\"area\":true,\"talent\":");
    cr_assert_geq(area, 3, "%d area talents fell in 10 fights", area);
    fray_setup_free(s);
}

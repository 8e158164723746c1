/* test_winter_area.c - area spells on an Engaged cluster (seed 002:53
 * "Friendly Fire with Area Attacks": "you don't have to roll to hit with
 * them - they automatically affect everyone in a given Engaged cluster. If
 * an area effect causes Wounds or Stun, it works just as well on allies as
 * it does on foes"; 002:71 "Area spells require no roll"; the cluster of
 * 002:51, "Anyone Engaged with or by the target"; docs/rules/
 * silent-winter.md 29): damage rolled once or for each (area-damage), the
 * Stun on allies too, Full Cover (area-full-cover), the file's errors and
 * the tactics. */
#include "winter_fixture.h"

#include <stdlib.h>

#define STORM "examples/silent-winter/storm.yaml"

/* Lothaire engages corpse 1 and is engaged by corpses 1 and 2; corpse 3
 * engages nobody. Lothaire and the caller declare on 1, the others on 7. */
static fray_fight *storm_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6, 6}, 4);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), c1 = sw_t_who(f, "corpse-1"),
        c2 = sw_t_who(f, "corpse-2");
    st->c[lo].engages = (int8_t)c1;
    st->c[c1].engages = (int8_t)lo;
    st->c[c2].engages = (int8_t)lo;
    st->c[sw_t_who(f, "caller")].ready = 1; /* she declares now */
    return f;
}

/* 002:53, 71: no roll, everyone in the cluster; ruling area-damage (once:
 * one roll for all; each: a roll for each). The firestorm (2d6 and the
 * caller's spell power 1d6) on Lothaire's cluster: Lothaire and corpses
 * 1 and 2 (engaged with or by him), not corpse 3. */
Test(winter_area, damage_on_the_cluster_allies_too_002_53) {
    for (int each = 0; each < 2; each++) {
        fray_setup *s = sw_t_load(STORM);
        sw_t_setup(s)->opt.area_damage_each = each;
        fray_fight *f = storm_fight(s);
        sw_state *st = sw_t_st(f);
        int lo = sw_t_who(f, "lothaire"), c1 = sw_t_who(f, "corpse-1"),
            c2 = sw_t_who(f, "corpse-2"), c3 = sw_t_who(f, "corpse-3");
        sw_t_do(f, "caller cast firestorm lothaire", NULL, 0);
        sw_t_to(f, 5);
        if (each)
            sw_t_do(f, "next", (int[]){3, 3, 3, 1, 1, 1, 2, 2, 2}, 9);
        else
            sw_t_do(f, "next", (int[]){3, 3, 3}, 3);
        cr_assert_eq(st->c[lo].health, 34 - 9, "Lothaire burns too (mail is no ward)");
        cr_assert_eq(st->c[c1].health, 44 - (each ? 3 : 9), "area-damage: %s", each ? "each" : "once");
        cr_assert_eq(st->c[c2].health, 44 - (each ? 6 : 9));
        cr_assert_eq(st->c[c3].health, 44, "corpse 3 is not in the cluster");
        cr_assert_eq(st->c[lo].pain, 5, "002:37: a point of Pain each");
        char buf[4096];
        cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                         "firestorm falls on Lothaire (an area spell: no roll, 002:53)"), "%s", buf);
        cr_assert(!strstr(buf, "Magic Attack"), "no roll to hit: %s", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* 002:53 "If an area effect causes Wounds or Stun, it works just as well
 * on allies as it does on foes": the thunderclap (stun 2, delay 3). */
Test(winter_area, stun_on_allies_as_on_foes_002_53) {
    fray_setup *s = sw_t_load(STORM);
    fray_fight *f = storm_fight(s);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), c1 = sw_t_who(f, "corpse-1"),
        c2 = sw_t_who(f, "corpse-2"), c3 = sw_t_who(f, "corpse-3");
    sw_t_do(f, "caller cast thunderclap corpse-1", NULL, 0);
    sw_t_to(f, 4);
    sw_t_do(f, "next", NULL, 0);
    /* corpse 1's cluster: corpse 1 and Lothaire (corpse 2 is two hops) */
    cr_assert_eq(st->c[c1].stun_until, 6);
    cr_assert_eq(st->c[lo].stun_until, 6, "the ally is Stunned too");
    cr_assert_eq(st->c[c2].stun_until, 0, "one hop (002:51)");
    cr_assert_eq(st->c[c3].stun_until, 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling area-full-cover (spared | hit): one in Full Cover in the cluster
 * (002:49 "no one can make ranged attacks at you"). */
Test(winter_area, full_cover_settings) {
    for (int hit = 0; hit < 2; hit++) {
        fray_setup *s = sw_t_load(STORM);
        sw_t_setup(s)->opt.area_hits_full_cover = hit;
        fray_fight *f = storm_fight(s);
        sw_state *st = sw_t_st(f);
        int lo = sw_t_who(f, "lothaire"), c2 = sw_t_who(f, "corpse-2");
        st->c[c2].cover = SW_COVER_FULL;
        sw_t_do(f, "caller cast firestorm lothaire", NULL, 0);
        sw_t_to(f, 5);
        sw_t_do(f, "next", (int[]){3, 3, 3}, 3);
        cr_assert_eq(st->c[lo].health, 34 - 9);
        cr_assert_eq(st->c[c2].health, hit ? 44 - 9 : 44, "area-full-cover: %s",
                     hit ? "hit" : "spared");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* fray check: a Personal spell that Stuns, at its line. */
Test(winter_area, spell_file_errors) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, "tests/data/winter/bad_area.yaml");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_setup *s = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK);
    cr_assert_eq(diag.line, 4, "%d: %s", diag.line, diag.message);
    cr_assert(strstr(diag.message, "ranged or area"), "%s", diag.message);
}

/* Tactics a GM would recognise: an area spell only on a cluster of at
 * least two foes and more foes than allies (her own, when two corpses
 * are on her: the firestorm burns her too), never a Stun on herself; the
 * journal reads back. */
static void area_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                      uint64_t seed, void *ctx) {
    int *area = ctx;
    if (cmd->kind == SW_EV_CAST && sd->sp[cmd->arg].kind == SW_SPELL_AREA) {
        (*area)++;
        int foes = 0, allies = 0, t = cmd->target;
        for (int m = 0; m < st->n; m++)
            if ((m == t || st->c[m].engages == t || st->c[t].engages == m) &&
                !sw_out(&st->c[m])) {
                cr_assert(m != cmd->actor || sd->sp[cmd->arg].effect == SW_SPELL_DAMAGE,
                          "never Stuns itself");
                if (sd->c[m].side != sd->c[cmd->actor].side)
                    foes++;
                else
                    allies++;
            }
        cr_assert(foes >= 2 && foes > allies, "seed %llu: %d foes, %d allies",
                  (unsigned long long)seed, foes, allies);
    }
}

Test(winter_area, tactics_and_journal) {
    fray_setup *s = sw_t_load(STORM);
    int area = 0;
    for (uint64_t seed = 1; seed <= 20; seed++)
        sw_t_play(s, seed, area_look, &area, NULL);
    cr_assert_geq(area, 5, "%d area spells in 20 fights", area);
    fray_setup_free(s);
}

/* test_winter_speed.c - Silent Winter's simulation path (issue 17
 * "Speed"): what the simulation skips (facts, narration; the order of a
 * segment's end when nothing pending ends then; the loops over Maintained
 * spells before anyone Maintains one) changes nothing a fight does. */
#include "winter_fixture.h"

#include "fray/sim.h"
#include "ruleset.h"

extern const fray__ruleset fray__winter_ruleset;

/* Every example's fights as `fray sim` runs them (no facts, the quick
 * duel off) and as the table runs them (every fact recorded): the same
 * final state, trial by trial, and the same counts. */
Test(winter_speed, the_simulation_is_the_table) {
    const char *files[] = {"brawl", "witch", "storm", "sniper", "cavalry",
                           "huntress", "knight", "siege", "duel"};
    const fray__ruleset *rs = &fray__winter_ruleset;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "examples/silent-winter/%s.yaml", files[k]);
        fray_setup *s = sw_t_load(rel);
        fray_sim_counts *c[2] = {calloc(1, sizeof *c[0]), calloc(1, sizeof *c[1])};
        cr_assert(c[0] && c[1]);
        void *sim = NULL, *table = NULL;
        cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), 5, 0, NULL, NULL, &sim), FRAY_OK);
        sw_quick_set_off(sim, true);
        fray__fight_opts o = {.facts = true};
        cr_assert_eq(rs->fight_new(sw_t_setup(s), &o, NULL, &table), FRAY_OK);
        for (uint64_t t = 0; t < 300; t++) {
            cr_assert_eq(rs->reset_trial(sim, 5, t), FRAY_OK);
            cr_assert_eq(rs->run(sim), FRAY_OK);
            rs->count(sim, c[0]);
            cr_assert_eq(rs->begin(table, 5, t, NULL), FRAY_OK);
            cr_assert_eq(rs->run(table), FRAY_OK);
            rs->count(table, c[1]);
            cr_assert(rs->same(sim, table), "%s trial %llu", files[k], (unsigned long long)t);
        }
        cr_assert_eq(memcmp(c[0], c[1], sizeof *c[0]), 0, "%s", files[k]);
        cr_assert_eq(c[0]->trials, 300);
        rs->fight_free(sim);
        rs->fight_free(table);
        free(c[0]);
        free(c[1]);
        fray_setup_free(s);
    }
}

/* 002:73: a Maintained spell is kept until released, dropped or dead; the
 * loops over Maintained spells are skipped only while nobody has
 * Maintained one (sw_state.maintained), so once one is Maintained the flag
 * is up: the witch's fights Maintain spells, and every trial that ends
 * with one Maintained has the flag. */
Test(winter_speed, maintained_spells_raise_the_flag) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    fray_setup *s = sw_t_load("examples/silent-winter/witch.yaml");
    void *f = NULL;
    fray__fight_opts o = {.facts = true};
    cr_assert_eq(rs->fight_new(sw_t_setup(s), &o, NULL, &f), FRAY_OK);
    int seen = 0;
    for (uint64_t t = 0; t < 300; t++) {
        cr_assert_eq(rs->begin(f, 9, t, NULL), FRAY_OK);
        const sw_state *st = sw_fight_state(f);
        cr_assert_not(st->maintained, "nobody Maintains anything at the start");
        while (!rs->over(f)) {
            cr_assert_eq(rs->step(f), FRAY_OK);
            for (int i = 0; i < st->n; i++)
                if (st->c[i].n_maint > 0) {
                    cr_assert(st->maintained, "trial %llu", (unsigned long long)t);
                    seen++;
                }
        }
    }
    cr_assert_gt(seen, 0, "the witch Maintains spells in some fights");
    rs->fight_free(f);
    fray_setup_free(s);
}

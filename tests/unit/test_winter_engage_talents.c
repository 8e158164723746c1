/* test_winter_engage_talents.c - talents that change the Engage delay
 * (seed 002:19: "All of this is handled as a part of the Engage action,
 * which has a 3-segment delay ... Only Talents can change how long it
 * takes to Engage an enemy in melee"; docs/rules/silent-winter.md 32): a
 * passive talent's engage-delay, never declared; the file's errors. */
#include "winter_fixture.h"

#define SWIFT "tests/data/winter/swift.yaml"

/* The duellist's lunge (engage-delay 1): declared on 1, the Engage takes
 * effect at the end of segment 2 and it declares again on 3; the bandit's
 * Engage keeps the option engage-delay (3). */
Test(winter_engage_talents, a_talent_shortens_the_engage_002_19) {
    fray_setup *s = sw_t_load(SWIFT);
    fray_fight *f = sw_t_start(s, (int[]){1, 6}, 2);
    sw_state *st = sw_t_st(f);
    int du = sw_t_who(f, "duellist"), ba = sw_t_who(f, "bandit");
    sw_t_do(f, "duellist engage bandit", NULL, 0);
    cr_assert_eq(st->c[du].ready, 1 + 1 + 1, "1 to declare, then the lunge's 1 (not 3)");
    cr_assert_eq(st->c[du].pend_at, 2);
    sw_t_to(f, 2);
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(st->c[du].engages, ba, "engaged at the end of segment 2");
    cr_assert_eq(st->c[ba].ready, 2, "the bandit's opening d6 of 1");
    fray_fight_free(f);
    fray_setup_free(s);
    /* without the talent: the option's 3 */
    s = sw_t_load(SWIFT);
    sw_t_setup(s)->c[sw_find_combatant(sw_t_setup(s), "duellist")].b.talents = 0;
    f = sw_t_start(s, (int[]){1, 6}, 2);
    sw_t_do(f, "duellist engage bandit", NULL, 0);
    cr_assert_eq(sw_t_st(f)->c[du].ready, 1 + 1 + 3);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics' look at each command: a passive talent is never declared. */
static void never_the_talent(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                             uint64_t seed, void *ctx) {
    (void)sd;
    (void)st;
    (void)ctx;
    cr_assert_neq(cmd->kind, SW_EV_TALENT, "seed %llu: the tactics declare a passive talent",
                  (unsigned long long)seed);
}

/* A passive talent is always at work: 'talent lunge' is refused in words;
 * the tactics never declare it and play the fight through (its journal
 * read back to the same fight). */
Test(winter_engage_talents, never_declared) {
    fray_setup *s = sw_t_load(SWIFT);
    fray_fight *f = sw_t_start(s, (int[]){1, 6}, 2);
    sw_t_refused(f, "duellist talent lunge bandit", "always at work");
    fray_fight_free(f);
    for (uint64_t seed = 1; seed <= 10; seed++)
        sw_t_play(s, seed, never_the_talent, NULL, NULL);
    fray_setup_free(s);
}

/* fray check: a passive talent has engage-delay alone; engage-delay needs
 * resolve: passive; each at line 5 with its column. */
Test(winter_engage_talents, talent_file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_passive.yaml", "no pain"},
        {"tests/data/winter/bad_passive2.yaml", "resolve: passive"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}

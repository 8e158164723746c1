/* test_winter_siege_gm.c - Siege weapons and the Siege talent (seed
 * 002:57: "They are not normally usable in standard combat ... (GM's
 * discretion or you have the Siege talent and can override the GM), they
 * work like normal ranged attacks except that they have a chance to hit
 * multiple opponents simultaneously and you take a -10"; docs/rules/
 * silent-winter.md 41, 42): the scene's siege key, the talent, the option
 * siege-spread: weapon (up to the weapon's targets of one cluster). */
#include "winter_fixture.h"

#define GATE "tests/data/winter/siege_gm.yaml"

/* crew, engineer, lothaire, warrior, bandit, rogue, hero, guard: the
 * opening d6s of all but the crew */
static fray_fight *gate_fight(fray_setup *s) {
    return sw_t_start(s, (int[]){1, 6, 6, 6, 6, 6, 6}, 7);
}

/* 002:57: with the scene's siege: false the crew's ballista is refused in
 * words; the engineer's Siege talent overrides the GM (its attack at
 * -10); with the scene's siege: true (the default) the crew may shoot. */
Test(winter_siege_gm, gm_discretion_or_the_siege_talent_002_57) {
    fray_setup *s = sw_t_load(GATE);
    cr_assert(sw_t_setup(s)->scene_no_siege);
    fray_fight *f = gate_fight(s);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    cr_assert(!sw_siege_allowed(sd, sw_t_who(f, "crew")));
    cr_assert(sw_siege_talent(sd, sw_t_who(f, "engineer")));
    sw_t_refused(f, "crew attack warrior", "only one with the Siege talent");
    sw_t_ready(f, sw_t_who(f, "engineer"), -1);
    sw_t_refused(f, "engineer talent siege warrior", "always at work");
    /* 8 - 10 + 20 = 18 against the warrior's 8 + 1: a hit */
    sw_t_do(f, "engineer attack warrior", (int[]){20, 1, 3, 3}, 4);
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "Engineer attacks Warrior: 18 against 9: hit"),
              "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
    s = sw_t_load(GATE);
    sw_t_setup(s)->scene_no_siege = false; /* scene: siege: true */
    f = gate_fight(s);
    sw_t_do(f, "crew attack warrior", (int[]){20, 1, 1, 1, 1}, 5);
    fray_fight_free(f);
    fray_setup_free(s);
}

static int spread_lines(const char *buf) {
    int n = 0;
    for (const char *p = buf; (p = strstr(p, "(the siege weapon's spread, 002:57)")); p++)
        n++;
    return n;
}

/* Ruling 42, siege-spread (002:57 "a chance to hit multiple opponents
 * simultaneously"): cluster (every other member of the target's cluster),
 * none (the target alone), weapon (the scorpion's targets: 2, the target
 * and one more drawn with a die the size of the rest). The warrior's
 * cluster: Lothaire, the Hero, the Guard. */
Test(winter_siege_gm, spread_settings) {
    for (int mode = 0; mode < 3; mode++) {
        fray_setup *s = sw_t_load(GATE);
        sw_setup *so = sw_t_setup(s);
        so->opt.siege_target_only = mode == 1;
        so->opt.siege_spread_weapon = mode == 2;
        so->opt.friendly_fire = false;
        fray_fight *f = gate_fight(s);
        sw_state *st = sw_t_st(f);
        int wa = sw_t_who(f, "warrior"), lo = sw_t_who(f, "lothaire"), he = sw_t_who(f, "hero"),
            gu = sw_t_who(f, "guard");
        st->c[lo].engages = (int8_t)wa;
        st->c[he].engages = (int8_t)wa;
        st->c[gu].engages = (int8_t)wa;
        st->c[wa].engages = (int8_t)lo;
        sw_t_ready(f, sw_t_who(f, "engineer"), -1);
        /* the hit on the warrior (2d6: 3, 3), then (weapon) the draw d3: 2,
         * the Hero; each spread attack a miss (1 against 20) */
        int dice[] = {20, 1, 3, 3, 2, 1, 20, 1, 20, 1, 20};
        sw_t_do(f, "engineer attack warrior", mode == 2 ? dice : (int[]){20, 1, 3, 3, 1, 20, 1, 20, 1, 20},
                mode == 2 ? 7 : mode == 1 ? 4 : 10);
        char buf[8192];
        sw_t_told(f, buf, sizeof buf);
        cr_assert_eq(spread_lines(buf), mode == 0 ? 3 : mode == 1 ? 0 : 1, "mode %d: %s", mode, buf);
        if (mode == 2) {
            cr_assert(strstr(buf, "The siege weapon's spread into Warrior's cluster falls on Hero "
                                  "(d3: 2, 002:57)"), "%s", buf);
            cr_assert(strstr(buf, "Engineer attacks Hero (the siege weapon's spread"), "%s", buf);
            size_t len;
            char *text = fx_journal(f, 1 << 20, &len);
            cr_assert(strstr(text, "\"siege\":true"), "the draw in the journal");
            free(text);
        }
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The tactics: the crew, whom the GM allows no siege weapon, never
 * shoots it; the engineer does; the journal reads back. */
static void gate_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                      uint64_t seed, void *ctx) {
    int *shots = ctx;
    (void)st;
    if (cmd->kind == SW_EV_ATTACK && cmd->actor == sw_find_combatant(sd, "crew"))
        cr_assert_fail("seed %llu: the crew shot", (unsigned long long)seed);
    if (cmd->kind == SW_EV_ATTACK && cmd->actor == sw_find_combatant(sd, "engineer"))
        (*shots)++;
}

Test(winter_siege_gm, tactics_and_journal) {
    fray_setup *s = sw_t_load(GATE);
    sw_t_setup(s)->opt.siege_spread_weapon = true;
    int shots = 0;
    for (uint64_t seed = 1; seed <= 20; seed++)
        sw_t_play(s, seed, gate_look, &shots, NULL);
    cr_assert_gt(shots, 0);
    fray_setup_free(s);
}

/* fray check: targets only on a siege weapon; the Siege talent is
 * siege: true; each at line 5 with its column. */
Test(winter_siege_gm, file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_siege_targets.yaml", "give it kind: siege"},
        {"tests/data/winter/bad_siege_talent.yaml", "siege: true"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}

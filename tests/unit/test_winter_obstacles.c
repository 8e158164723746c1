/* test_winter_obstacles.c - obstacles between some combatants only, and
 * several of them (seed 002:25: "there are enemies you cannot Engage in
 * melee (and likewise, they cannot Engage your character in melee)
 * because of some interposing obstacle ... you will be required to first
 * take steps to surmount the obstacle ..., which may require a successful
 * skill or attribute roll. The amount of time for a given attempt varies
 * according to the GM's whim"; docs/rules/silent-winter.md 46): the
 * scene's obstacles: list, `ID surmount NAME`. */
#include "winter_fixture.h"

#define OBST "tests/data/winter/obstacles.yaml"

/* lothaire (initiator), hero, archer, rogue */
static fray_fight *obst_fight(fray_setup *s) {
    return sw_t_start(s, (int[]){6, 6, 6}, 3);
}

/* The wall stands between the archer and the Town, the door between the
 * rogue and Lothaire alone: each Engage across one is refused in words
 * (both ways), the hero may Engage the rogue (no door between them). */
Test(winter_obstacles, between_some_only_002_25) {
    fray_setup *s = sw_t_load(OBST);
    fray_fight *f = obst_fight(s);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), he = sw_t_who(f, "hero"), ar = sw_t_who(f, "archer"),
        ro = sw_t_who(f, "rogue");
    cr_assert_eq(sd->n_obstacles, 2);
    cr_assert_eq(sw_obstacle_between(sd, st, lo, ar), 0);
    cr_assert_eq(sw_obstacle_between(sd, st, ar, he), 0, "likewise the other way");
    cr_assert_eq(sw_obstacle_between(sd, st, lo, ro), 1);
    cr_assert_eq(sw_obstacle_between(sd, st, he, ro), -1);
    sw_t_refused(f, "lothaire engage archer", "the wall stands between Lothaire and Archer");
    sw_t_refused(f, "lothaire engage rogue", "the door stands between Lothaire and Rogue");
    sw_t_ready(f, ro, -1);
    sw_t_refused(f, "rogue engage lothaire", "the door stands between Rogue and Lothaire");
    sw_t_ready(f, he, -1);
    sw_t_do(f, "hero engage rogue", NULL, 0);
    char buf[4096];
    sw_draw_graph(sd, st, buf, sizeof buf);
    cr_assert(strstr(buf, "The wall stands between Archer and Lothaire, Hero (surmount: 4 "
                          "segments and a flat Agility roll)"), "%s", buf);
    cr_assert(strstr(buf, "The door stands between Rogue and Lothaire (surmount: 2 segments)"),
              "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Each obstacle its own time (002:25 "the amount of time for a given
 * attempt"): the wall 4 and a flat Agility roll (a failure spends the
 * segments), the door 2 and none; past one, the other still stands; one
 * of the pair past it is enough (ruling 26), the hero is not. */
Test(winter_obstacles, several_each_its_own_time_002_25) {
    fray_setup *s = sw_t_load(OBST);
    fray_fight *f = obst_fight(s);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire"), he = sw_t_who(f, "hero"), ar = sw_t_who(f, "archer"),
        ro = sw_t_who(f, "rogue");
    sw_t_do(f, "lothaire surmount wall", (int[]){1, 20}, 2); /* 4 + 1 against 20 */
    cr_assert_eq(st->c[lo].ready, 1 + 1 + 4);
    cr_assert_eq(st->c[lo].past, 0, "a failed roll");
    sw_t_ready(f, lo, -1);
    sw_t_do(f, "lothaire surmount wall", (int[]){20, 1}, 2);
    cr_assert_eq(st->c[lo].past, 1u << 0);
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "Lothaire is past the wall"), "%s", buf);
    cr_assert_eq(sw_obstacle_between(sd, st, lo, ar), -1);
    cr_assert_eq(sw_obstacle_between(sd, st, he, ar), 0, "the hero has not climbed it");
    cr_assert_eq(sw_obstacle_between(sd, st, lo, ro), 1, "the door still stands");
    sw_t_ready(f, lo, -1);
    sw_t_refused(f, "lothaire surmount wall", "past the wall already");
    sw_t_do(f, "lothaire surmount door", NULL, 0); /* no roll */
    cr_assert_eq(st->c[lo].ready, st->seg + 1 + 2);
    cr_assert_eq(sw_obstacle_between(sd, st, lo, ro), -1);
    sw_t_ready(f, he, -1);
    sw_t_refused(f, "hero surmount door", "on neither side of it");
    sw_t_refused(f, "hero surmount gate", "expected an obstacle of the scene");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The journal names the obstacle ("obstacle": "wall") and reads back the
 * same fight; undo takes the climb back. */
Test(winter_obstacles, journal_and_undo) {
    fray_setup *s = sw_t_load(OBST);
    fray_fight *f = obst_fight(s);
    int lo = sw_t_who(f, "lothaire");
    sw_t_do(f, "lothaire surmount wall", (int[]){20, 1}, 2);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    cr_assert(strstr(text, "\"obstacle\":\"wall\""), "%s", text);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(s, 1, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(g);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_t_st(f)->c[lo].past, 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics surmount an obstacle when it stands between them and every
 * foe they could Engage; the journal reads back. */
static void obst_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                      uint64_t seed, void *ctx) {
    int *climbs = ctx;
    if (cmd->kind != SW_EV_SURMOUNT)
        return;
    cr_assert_gt(cmd->arg, 0, "seed %llu: a named obstacle", (unsigned long long)seed);
    cr_assert(!((st->c[cmd->actor].past >> (cmd->arg - 1)) & 1u));
    (void)sd;
    (*climbs)++;
}

Test(winter_obstacles, tactics_and_journal) {
    fray_setup *s = sw_t_load(OBST);
    int climbs = 0;
    for (uint64_t seed = 1; seed <= 20; seed++)
        sw_t_play(s, seed, obst_look, &climbs, NULL);
    cr_assert_gt(climbs, 0);
    fray_setup_free(s);
}

/* fray check: who the obstacle stands between, two sides, its time; at
 * line 5 with the column. */
Test(winter_obstacles, file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_obstacle.yaml", "neither a side nor a combatant"},
        {"tests/data/winter/bad_obstacle2.yaml", "two sides of the obstacle"},
        {"tests/data/winter/bad_obstacle3.yaml", "between 1 and 30"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}

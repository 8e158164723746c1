/* test_d6_ends.c - how each D6 end is counted in the simulation's report
 * (`fray sim`: standing, unconscious, dying, dead, fled; d6.c rs_count,
 * docs/rules/d6.md ruling 70) and the view's word for it, which agree:
 * knocked out by a knockout blow (003:87) unconscious, in Wound levels
 * and in Body Points; Incapacitated and down (core) unconscious;
 * Mortally Wounded (core) dying; Dead (core) dead; no Body Points left
 * dead, or unconscious with zero-body-points: unconscious (ruling 70),
 * as the narration says; yielded to an arm pin (003:22-24) fled.
 * The ends are made by the engine with the dice given by hand (the
 * duel of d6_fixture.h, the knight striking the brigand from 1 m). A
 * bad zero-body-points is in test_d6_load_bad.c's table of bad values. */
#include "d6_fixture.h"
#include "fray/sim.h"
#include "fray/view.h"

static d6_setup S;

/* The duel with the knight at 5,0 (the brigand at 6,0) to act. */
static fray_fight *duel(fray_setup *fs, bool body_points) {
    d6_fx_duel(&S);
    if (body_points)
        S.o.health = D6_HEALTH_BODY_POINTS;
    *fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2}; /* initiative 15 and 6 */
    fray_fight *f = d6_fx_start(fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    return f;
}

static const char *const column[] = {"standing", "unconscious", "dying", "dead", "fled"};

/* The column the report counts combatant i in, now. */
static const char *counted(fray_fight *f, int i) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    fray__d6_ruleset.count(fray__fight_rf(f), c);
    const fray_sim_combatant_counts *cc = &c->c[i];
    uint64_t n[5] = {cc->standing, cc->unconscious, cc->dying, cc->dead, cc->fled};
    int k = -1;
    for (int j = 0; j < 5; j++) {
        cr_assert_leq(n[j], 1);
        if (n[j]) {
            cr_assert_eq(k, -1, "one column only");
            k = j;
        }
    }
    free(c);
    cr_assert_geq(k, 0);
    return column[k];
}

/* The view's word for combatant i (fray step, the server's panel). */
static void view_says(fray_fight *f, int i, const char *word) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_str_eq(v->combatants[i].status, word, "the view agrees with the report");
    fray_fight_view_free(v);
}

static void ends_as(fray_fight *f, const char *word, const char *rule) {
    cr_assert_str_eq(counted(f, 1), word, "%s: the brigand counts as %s", rule, word);
    view_says(f, 1, word);
    cr_assert_str_eq(counted(f, 0), "standing", "the knight is still in the fight");
}

/* 003:87: knockout at the head, 25 against 15; 29 damage against 8 is 6
 * levels, two or more: unconscious for 10 hours with half the levels
 * (Severely Wounded). Before ruling 70 the report counted it dying. */
Test(d6_ends, knocked_out_in_wound_levels_is_unconscious_003_87) {
    fray_setup fs;
    fray_fight *f = duel(&fs, false);
    const int d[] = {5, 5, 5, 5, 5, 5, 5, 5, 2, 2, 2, 2};
    d6_fx_ok(f, "knight attack brigand knockout at head", d, 12);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_SEVERE);
    cr_assert(d6_out(&d6_fx_st(f)->c[1]));
    ends_as(f, "unconscious", "003:87");
    fray_fight_free(f);
}

/* 003:87 in Body Points: 16 lost of 29 is half or more: out, only 8
 * taken off (21 left): unconscious under either zero-body-points (ruling
 * 70: the option is about 0 Body Points only). */
Test(d6_ends, knocked_out_in_body_points_is_unconscious_003_87) {
    for (int u = 0; u < 2; u++) {
        fray_setup fs;
        fray_fight *f = duel(&fs, true);
        S.o.zero_bp_unconscious = u == 1;
        const int d[] = {3, 3, 3, 3, 3, 2, 2, 2, 3};
        d6_fx_ok(f, "knight attack brigand knockout at head", d, 9);
        cr_assert_eq(d6_fx_st(f)->c[1].bp, 21);
        cr_assert(d6_out(&d6_fx_st(f)->c[1]));
        char w[1024];
        d6_fx_last_words(f, w, sizeof w);
        d6_fx_has(w, "Brigand is knocked out for");
        cr_assert(!strstr(w, "dead"), "003:87: %s", w);
        ends_as(f, "unconscious", u ? "003:87, zero-body-points: unconscious"
                                     : "003:87, zero-body-points: dead");
        fray_fight_free(f);
    }
}

/* Core: 20 against 10; 3D+1 [5 5 5] + 1 = 16 against Physique and leather
 * 4D [2 2 2 1] = 7: 9 over, Incapacitated; the stay-up roll (Physique
 * 3D, neither stamina nor mettle listed) [2 2 2] = 6 misses 15: down. */
Test(d6_ends, incapacitated_and_down_is_unconscious_core) {
    fray_setup fs;
    fray_fight *f = duel(&fs, false);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 5, 2, 2, 2, 1, 2, 2, 2};
    d6_fx_ok(f, "knight attack brigand", d, 15);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_INCAP);
    cr_assert(d6_out(&d6_fx_st(f)->c[1]));
    ends_as(f, "unconscious", "core: Incapacitated, a failed stay-up roll");
    fray_fight_free(f);
}

/* Core: the Wild Die's 6 rolls again: [6 3 | 5 5] + 1 = 20 against
 * [2 1 1 1] = 5: 15 over, Mortally Wounded. */
Test(d6_ends, mortally_wounded_is_dying_core) {
    fray_setup fs;
    fray_fight *f = duel(&fs, false);
    const int d[] = {4, 4, 4, 4, 4, 6, 3, 5, 5, 2, 1, 1, 1};
    d6_fx_ok(f, "knight attack brigand", d, 13);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_MORTAL);
    ends_as(f, "dying", "core: Mortally Wounded");
    fray_fight_free(f);
}

/* Core: [6 6 2 | 5 5] + 1 = 25 against 5: 20 over (16 or more), Dead. */
Test(d6_ends, dead_is_dead_core) {
    fray_setup fs;
    fray_fight *f = duel(&fs, false);
    const int d[] = {4, 4, 4, 4, 4, 6, 6, 2, 5, 5, 2, 1, 1, 1};
    d6_fx_ok(f, "knight attack brigand", d, 14);
    cr_assert_eq(d6_fx_st(f)->c[1].wound, D6_W_DEAD);
    ends_as(f, "dead", "core: Dead");
    char j[4096]; /* in Wound levels the "out" fact gives the level */
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "{\"fact\":\"out\",\"who\":\"brigand\",\"other\":\"knight\","
                 "\"wound\":\"Dead\"}");
    fray_fight_free(f);
}

/* Core, ruling 70: in Body Points, [6 6 6 6 6 3 | 5 5] + 1 = 44 against
 * leather 1D [2]: 42 off 29 Body Points, none left: out of the fight.
 * Under zero-body-points: dead (the default, the core's "gradual fall
 * into death") counted dead, the view says dead, the narration "falls
 * dead"; under unconscious counted unconscious, "out of the fight". */
static void no_body_points_left(bool unconscious, const char *column_word,
                                const char *sentence, const char *out_json) {
    fray_setup fs;
    fray_fight *f = duel(&fs, true);
    S.o.zero_bp_unconscious = unconscious;
    const int d[] = {4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 3, 5, 5, 2};
    d6_fx_ok(f, "knight attack brigand", d, 14);
    cr_assert_eq(d6_fx_st(f)->c[1].bp, 0);
    cr_assert(d6_out(&d6_fx_st(f)->c[1]));
    ends_as(f, column_word, "ruling 70: 0 Body Points");
    char w[1024];
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "Brigand takes 44 damage against a resistance of 2: 0 Body Points left.\n");
    d6_fx_has(w, sentence);
    /* the journal's "out" fact: Body Points have no wound level, so no
     * "wound" (it said "unhurt" before); body_points and the option's state */
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, out_json);
    cr_assert(!strstr(j, "\"wound\""), "no wound level under Body Points: %s", j);
    fray_fight_free(f);
}

Test(d6_ends, no_body_points_left_is_dead_by_default_ruling_70) {
    no_body_points_left(false, "dead", "Brigand falls dead (no Body Points left).\n",
                        "{\"fact\":\"out\",\"who\":\"brigand\",\"other\":\"knight\","
                        "\"body_points\":0,\"state\":\"dead\"}");
}

Test(d6_ends, no_body_points_left_is_unconscious_by_option_ruling_70) {
    no_body_points_left(true, "unconscious",
                        "Brigand is out of the fight (no Body Points left).\n",
                        "{\"fact\":\"out\",\"who\":\"brigand\",\"other\":\"knight\","
                        "\"body_points\":0,\"state\":\"unconscious\"}");
}

/* Ruling 70: a knockout blow (003:87) that takes the last Body Point
 * follows the option: 25 against 15 hits the head; [6 6 6 6 6 6 6 6 6 6
 * 3 | 5 5] + 1, +12 at the head (003:74) = 86 against [2]: 84 over, half
 * of it (42) off 29 Body Points, none left. */
Test(d6_ends, a_knockout_taking_the_last_body_point_follows_the_option_ruling_70) {
    for (int u = 0; u < 2; u++) {
        fray_setup fs;
        fray_fight *f = duel(&fs, true);
        S.o.zero_bp_unconscious = u == 1;
        const int d[] = {5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 3, 5, 5, 2};
        d6_fx_ok(f, "knight attack brigand knockout at head", d, 19);
        cr_assert_eq(d6_fx_st(f)->c[1].bp, 0);
        cr_assert(d6_out(&d6_fx_st(f)->c[1]));
        char w[1024];
        d6_fx_last_words(f, w, sizeof w);
        d6_fx_has(w, "Brigand takes 86 damage against a resistance of 2: 0 Body Points left.\n");
        cr_assert(!strstr(w, "knocked out for"), "no Body Points left: not a knockout: %s", w);
        d6_fx_has(w, u ? "Brigand is out of the fight (no Body Points left).\n"
                       : "Brigand falls dead (no Body Points left).\n");
        ends_as(f, u ? "unconscious" : "dead", "ruling 70: a knockout to 0 Body Points");
        fray_fight_free(f);
    }
}

/* 003:22-24: forced to submit by an arm pin (holds.c sets `submitted`
 * and out; test_d6_holds.c plays the pin itself) is counted fled, in
 * either health system. */
Test(d6_ends, yielded_is_fled_003_22) {
    for (int bp = 0; bp < 2; bp++) {
        fray_setup fs;
        fray_fight *f = duel(&fs, bp == 1);
        d6_state *st = d6_fx_st(f);
        st->c[1].submitted = true;
        st->c[1].flags |= D6_F_OUT;
        ends_as(f, "fled", "003:22-24");
        fray_fight_free(f);
    }
}

/* The report's words for the columns (fray sim's legend, its JSON
 * "states"): in Wound levels dying is Mortally Wounded and unconscious
 * names the knockout; in Body Points (ruling 70) nobody is dying, and
 * 0 Body Points is dead by default, unconscious with zero-body-points:
 * unconscious (then nobody is dead). */
Test(d6_ends, the_legend_says_what_each_column_holds_ruling_70) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_UNCONSCIOUS), "knocked out (003:87)"));
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_DYING), "Mortally Wounded"));
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_DEAD), "Dead"));
    S.o.zero_bp_unconscious = true; /* no effect in Wound levels */
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_DEAD), "Dead"));
    S.o.zero_bp_unconscious = false;
    S.o.health = D6_HEALTH_BODY_POINTS; /* zero-body-points: dead */
    const char *u = fray_sim_state_meaning(&fs, FRAY_SIM_UNCONSCIOUS);
    cr_assert(strstr(u, "knocked out (003:87) with Body Points left"), "%s", u);
    cr_assert(!strstr(u, "no Body Points left"), "%s", u);
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_DYING), "none under Body Points"));
    cr_assert_str_eq(fray_sim_state_meaning(&fs, FRAY_SIM_DEAD), "no Body Points left (core)");
    S.o.zero_bp_unconscious = true;
    u = fray_sim_state_meaning(&fs, FRAY_SIM_UNCONSCIOUS);
    cr_assert(strstr(u, "no Body Points left (core), or knocked out (003:87)"), "%s", u);
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_DYING), "none under Body Points"));
    cr_assert(strstr(fray_sim_state_meaning(&fs, FRAY_SIM_DEAD),
                     "none under Body Points: 0 Body Points is out, not dead"));
}

/* Ruling 70 in the files: zero-body-points is dead when not given
 * (tests/data/d6/duel_bp.yaml), unconscious in the tavern examples. */
Test(d6_ends, the_option_loads_dead_by_default_ruling_70) {
    const char *files[] = {FRAY_SOURCE_DIR "/tests/data/d6/duel_bp.yaml",
                           FRAY_SOURCE_DIR "/examples/d6/brawl.yaml",
                           FRAY_SOURCE_DIR "/examples/d6/grapple.yaml",
                           FRAY_SOURCE_DIR "/examples/d6/wrestle.yaml"};
    for (int k = 0; k < 4; k++) {
        fray_diag d;
        memset(&d, 0, sizeof d);
        d6_setup *s = NULL;
        cr_assert_eq(d6_load(files[k], NULL, &s, &d), FRAY_OK, "%s", d.message);
        cr_assert_eq(s->o.health, D6_HEALTH_BODY_POINTS, "%s", files[k]);
        cr_assert_eq(s->o.zero_bp_unconscious, k > 0, "%s", files[k]);
        d6_setup_free(s);
    }
}

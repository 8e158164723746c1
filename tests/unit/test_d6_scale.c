/* test_d6_scale.c - the scale modifier (src/rules/d6/scale.c) with the
 * dice given by hand: the Centaur and the rats (seed 003:106) with their
 * numbers, the modifier |a - b| on either side of a Human (003:104,
 * D7.2), a larger attacker's difficulty and damage, a smaller one's
 * attack total and the defender's resistance (003:105), a lightly built
 * target (003:107), a weapon's own scale (003:108, D7.3: the option
 * weapon-scale, each setting), and the loader's keys
 * (rulesets-checklists D4, D5, D6.2; docs/rules/d6.md). */
#define _POSIX_C_SOURCE 200809L
#include "d6_fixture.h"

#include <unistd.h>

static d6_setup S;

/* The duel's knight as the Centaur (scale 3) and the brigand as a rat
 * (scale -9). */
static void centaur_and_rat(void) {
    d6_fx_duel(&S);
    S.c[0].b.scale = 3;
    S.c[1].b.scale = -9;
}

/* 003:106 "the scale modifier is 12 (3 + 9)"; 003:104 the same side
 * subtracts (D7.2: |a - b| does both). */
Test(d6_scale, scale_mod_003_104_106) {
    cr_assert_eq(d6_scale_mod(3, -9), 12, "003:106 Centaur and rat: 3 + 9");
    cr_assert_eq(d6_scale_mod(-9, 3), 12);
    cr_assert_eq(d6_scale_mod(8, 3), 5, "003:118/120 elephant and horse: 8 - 3");
    cr_assert_eq(d6_scale_mod(-3, -9), 6, "003:122/124 child and rat: 9 - 3");
    cr_assert_eq(d6_scale_mod(0, 0), 0, "two Humans");
    cr_assert_eq(d6_scale_mod(24, -21), 45, "003:112/127 castle and ant");
}

/* 003:105-106: where the 12 goes, each way. */
Test(d6_scale, where_the_modifier_goes_003_105_106) {
    centaur_and_rat();
    d6_scale_adj c, r;
    d6_scale_attack(&S, 0, 1, D6_FX_SWORD, &c);
    cr_assert_eq(c.difficulty, 12, "the Centaur: +12 to the combat difficulty");
    cr_assert_eq(c.damage, 12, "the Centaur: +12 to the damage total");
    cr_assert_eq(c.attack, 0);
    cr_assert_eq(c.resistance, 0);
    d6_scale_attack(&S, 1, 0, D6_FX_CLUB, &r);
    cr_assert_eq(r.attack, 12, "each rat: +12 to its fighting roll");
    cr_assert_eq(r.resistance, 12, "the Centaur: +12 to its damage resistance total");
    cr_assert_eq(r.difficulty, 0);
    cr_assert_eq(r.damage, 0);
}

static fray_fight *first(fray_setup *fs, bool knight) {
    /* knight 3D, brigand 2D+2 */
    const int k[] = {5, 5, 5, 2, 2}, b[] = {2, 2, 2, 5, 5};
    fray_fight *f = d6_fx_start(fs, knight ? k : b, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], knight ? 0 : 1);
    return f;
}

/* 003:106 "When the Centaur attacks a rat, the scale modifier is added
 * to his combat difficulty and to his damage total". Melee 5D
 * [5,5,5,5,4] = 24 against 10 + 12 = 22: a hit; sword STR+1D+1 with
 * Physique 3D+1 (Strength Damage 2D): 3D+1 [5,5,5] = 16, + 12 = 28;
 * the rat's resistance 4D [2,1,1,1] = 5, no scale added. */
Test(d6_scale, centaur_attacks_a_rat_003_106) {
    centaur_and_rat();
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = first(&fs, true);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {5, 5, 5, 5, 4, 5, 5, 5, 2, 1, 1, 1};
    d6_fx_ok(f, "knight attack brigand", d, sizeof d / sizeof d[0]);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "{\"fact\":\"scale\",\"who\":\"knight\",\"other\":\"brigand\",\"modifier\":12,"
           "\"to\":\"difficulty\",\"damage_modifier\":12,\"damage_to\":\"damage\"}");
    d6_fx_has(j, "\"total\":24,\"difficulty\":22,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":28,\"resistance\":5");
    char n[2048];
    fray_event_narrate(f, fray_fight_events(f) - 1, n, sizeof n);
    cr_assert(strstr(n, "Sir Aldo is larger than Brigand (scale modifier 12): +12 to the "
                        "combat difficulty, +12 to the damage total."), "%s", n);
    fray_fight_free(f);
}

/* 003:105: the rat is harder to hit: [4,4,4,4,4] = 20 misses 10 + 12 =
 * 22 (it hits a Human's passive 10: same_scale_changes_nothing). */
Test(d6_scale, centaur_misses_by_the_scale_003_105) {
    centaur_and_rat();
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = first(&fs, true);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4};
    d6_fx_ok(f, "knight attack brigand", d, sizeof d / sizeof d[0]);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":20,\"difficulty\":22,\"result\":\"miss\"");
    fray_fight_free(f);
}

/* 003:106 "each rat gets a +12 to its fighting roll, while the
 * adventurer gets a +12 to his damage resistance total". Fighting 4D
 * [2,2,2,2] = 8 + 12 = 20 against 10; club STR+1D (Strength Damage 2D):
 * 3D [3,3,3] = 9; the Centaur's resistance 5D+1 [2,2,2,2,2] = 11 + 12 =
 * 23. */
Test(d6_scale, rat_attacks_the_centaur_003_106) {
    centaur_and_rat();
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = first(&fs, false);
    d6_fx_ok(f, "brigand move 1,0", NULL, 0);
    const int d[] = {2, 2, 2, 2, 3, 3, 3, 2, 2, 2, 2, 2};
    d6_fx_ok(f, "brigand attack knight", d, sizeof d / sizeof d[0]);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"modifier\":12,\"to\":\"attack\",\"damage_modifier\":12,\"damage_to\":\"resistance\"");
    d6_fx_has(j, "\"total\":20,\"difficulty\":10,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":9,\"resistance\":23");
    cr_assert_eq(d6_fx_st(f)->c[0].wound, D6_W_NONE);
    fray_fight_free(f);
}

/* 003:107: "large but lightly constructed": no scale on resistance. */
Test(d6_scale, lightly_built_takes_no_resistance_003_107) {
    centaur_and_rat();
    S.c[0].b.lightly_built = true;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = first(&fs, false);
    d6_fx_ok(f, "brigand move 1,0", NULL, 0);
    const int d[] = {2, 2, 2, 2, 3, 3, 3, 2, 2, 2, 2, 2};
    d6_fx_ok(f, "brigand attack knight", d, sizeof d / sizeof d[0]);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":20,\"difficulty\":10,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage_to\":\"none\"");
    d6_fx_has(j, "\"damage\":9,\"resistance\":11");
    fray_fight_free(f);
}

/* Two Humans: no scale fact, the numbers unchanged. */
Test(d6_scale, same_scale_changes_nothing) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = first(&fs, true);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 5, 2, 1, 1, 1, 6, 2, 5, 5};
    d6_fx_ok(f, "knight attack brigand", d, sizeof d / sizeof d[0]);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    cr_assert_null(strstr(j, "\"scale\""), "%s", j);
    d6_fx_has(j, "\"difficulty\":10");
    d6_fx_has(j, "\"damage\":16,\"resistance\":5");
    fray_fight_free(f);
}

/* 003:108 "an elephant's tusk has a scale of 10" (D7.3): a weapon's own
 * scale. weapon-scale: damage (default) uses it for the damage only;
 * all for hitting too. An elephant (8, 003:118) with a tusk (10) on a
 * Human. */
Test(d6_scale, weapon_scale_damage_and_all_003_108) {
    d6_fx_duel(&S);
    S.c[0].b.scale = 8;
    S.w[D6_FX_SWORD].has_scale = true;
    S.w[D6_FX_SWORD].scale = 10;
    d6_scale_adj a;
    d6_scale_attack(&S, 0, 1, D6_FX_SWORD, &a);
    cr_assert_eq(a.difficulty, 8, "weapon-scale: damage: hitting by the elephant's 8");
    cr_assert_eq(a.damage, 10, "the tusk's 10 to the damage total");
    S.o.weapon_scale = D6_WSCALE_ALL;
    d6_scale_attack(&S, 0, 1, D6_FX_SWORD, &a);
    cr_assert_eq(a.difficulty, 10, "weapon-scale: all: the tusk's 10 for hitting");
    cr_assert_eq(a.damage, 10);
    /* a weapon of a Human's scale in an elephant's trunk: no damage scale */
    S.w[D6_FX_SWORD].scale = 0;
    S.o.weapon_scale = D6_WSCALE_DAMAGE;
    d6_scale_attack(&S, 0, 1, D6_FX_SWORD, &a);
    cr_assert_eq(a.difficulty, 8);
    cr_assert_eq(a.damage, 0);
    cr_assert_eq(a.resistance, 0, "equal scales: nothing to resistance");
}

static void write_file(const char *path, const char *text) {
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    cr_assert_eq(fputs(text, fp) >= 0, true);
    cr_assert_eq(fclose(fp), 0);
}

/* The loader: lightly-built (a stat block) and weapon-scale (an
 * option); the example's Centaur 3 and rats -9 (003:106). */
Test(d6_scale, loader_keys_and_the_centaur_example) {
    char dir[] = "/tmp/d6scaleXXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char blocks[256], enc[256];
    snprintf(blocks, sizeof blocks, "%s/blocks.yaml", dir);
    snprintf(enc, sizeof enc, "%s/enc.yaml", dir);
    write_file(blocks, "fray: statblocks\nrules: d6\ncatalog: [" FRAY_SOURCE_DIR
                       "/data/d6/weapons.yaml]\nstatblocks:\n"
                       "  - {name: Balloon, agility: 1D, coordination: 1D, physique: 2D,\n"
                       "     intellect: 1D, acumen: 1D, charisma: 1D, scale: 12,\n"
                       "     lightly-built: true}\n"
                       "  - {name: Archer, agility: 3D, coordination: 3D, physique: 3D,\n"
                       "     intellect: 2D, acumen: 3D, charisma: 2D, weapon: bow}\n");
    write_file(enc, "fray: encounter\nrules: d6\nname: balloon\nstatblocks: [blocks.yaml]\n"
                    "options: {weapon-scale: all}\n"
                    "combatants:\n"
                    "  - {id: b, statblock: Balloon, side: Air, at: [0, 0]}\n"
                    "  - {id: a, statblock: Archer, side: Ground, at: [20, 0]}\n");
    fray_diag d;
    memset(&d, 0, sizeof d);
    d6_setup *s = NULL;
    cr_assert_eq(d6_load(enc, NULL, &s, &d), FRAY_OK, "%s", d.message);
    cr_assert(s->c[0].b.lightly_built);
    cr_assert_eq(s->c[0].b.scale, 12);
    cr_assert_eq(s->o.weapon_scale, D6_WSCALE_ALL);
    d6_scale_adj a;
    d6_scale_attack(s, 1, 0, s->c[1].b.weapon, &a);
    cr_assert_eq(a.attack, 12, "the archer is smaller: +12 to its attack");
    cr_assert_eq(a.resistance, 0, "the balloon is lightly built");
    d6_setup_free(s);
    write_file(enc, "fray: encounter\nrules: d6\nname: balloon\nstatblocks: [blocks.yaml]\n"
                    "options: {weapon-scale: most}\n"
                    "combatants:\n"
                    "  - {id: b, statblock: Balloon, side: Air, at: [0, 0]}\n"
                    "  - {id: a, statblock: Archer, side: Ground, at: [20, 0]}\n");
    memset(&d, 0, sizeof d);
    s = NULL;
    cr_assert_neq(d6_load(enc, NULL, &s, &d), FRAY_OK);
    cr_assert(strstr(d.message, "most"), "%s", d.message);
    cr_assert_eq(unlink(enc), 0);
    cr_assert_eq(unlink(blocks), 0);
    cr_assert_eq(rmdir(dir), 0);

    memset(&d, 0, sizeof d);
    s = NULL;
    cr_assert_eq(d6_load(FRAY_SOURCE_DIR "/examples/d6/centaur.yaml", NULL, &s, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(s->c[0].b.scale, 3);
    cr_assert_eq(s->c[1].b.scale, -9);
    d6_scale_attack(s, 1, 0, s->c[1].b.weapon, &a);
    cr_assert_eq(a.attack, 12);
    cr_assert_eq(a.resistance, 12);
    d6_setup_free(s);
}

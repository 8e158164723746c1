/*
 * test_alloy_load.c - Alloy's files (src/rules/alloy/load.c,
 * docs/file-formats.md "Alloy files"): the catalog, the example stat
 * blocks and encounters load with the numbers the rules need; bad files
 * are refused at file:line:column with what was expected; options and
 * sweeps (fa_setup_vary).
 */
#define _XOPEN_SOURCE 700 /* mkstemp */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloy_int.h"
#include "fail_alloc.h"

#define SRC FRAY_SOURCE_DIR "/"

static fa_setup *load_ok(const char *rel) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fa_setup *s = NULL;
    char path[1024];
    snprintf(path, sizeof path, SRC "%s", rel);
    fray_status st = fa_load(path, NULL, &s, &d);
    cr_assert_eq(st, FRAY_OK, "%s: %s:%d:%d: %s", rel, d.file ? d.file : "?", d.line,
                 d.column, d.message);
    cr_assert_not_null(s);
    return s;
}

static int find_c(const fa_setup *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->c[i].id, id) == 0)
            return i;
    cr_assert_fail("no combatant %s", id);
    return -1;
}

static int find_w(const fa_setup *s, const char *id) {
    for (int i = 0; i < s->n_weapons; i++)
        if (strcmp(s->weapons[i].id, id) == 0)
            return i;
    cr_assert_fail("no weapon %s", id);
    return -1;
}

static const fa_statblock *sb_of(const fa_setup *s, const char *id) {
    return &s->sb[s->c[find_c(s, id)].sb];
}

Test(alloy_load, examples_summaries) {
    static const char *const files[][2] = {
        {"data/alloy/weapons.yaml", "Alloy weapon catalog: 12 weapons"},
        {"examples/alloy/statblocks.yaml", "Alloy stat blocks: 7 stat blocks (12 weapons known)"},
        {"examples/alloy/duel.yaml",
         "Alloy encounter \"Duel in the Rain\": 2 combatants on 2 sides, no map"},
        {"examples/alloy/skirmish.yaml",
         "Alloy encounter \"Skirmish at the Warehouse\": 9 combatants on 2 sides, map 18x10"},
        {"examples/alloy/ambush.yaml",
         "Alloy encounter \"Ambush on the Forest Road\": 6 combatants on 2 sides, map 16x9, "
         "a surprise round"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        fray_diag d;
        char path[1024];
        snprintf(path, sizeof path, SRC "%s", files[i][0]);
        fray_status st = fa_check_file(path, &d);
        cr_assert_eq(st, FRAY_OK, "%s: %d:%d: %s", files[i][0], d.line, d.column, d.message);
        cr_expect_str_eq(d.message, files[i][1]);
    }
}

/* 004:125 flamethrower blast 25 ft; 004:131 grenade burst 25 ft, range 60
 * ft; 004:89 long range; 004:181 crit dice; distances in squares. */
Test(alloy_load, catalog_weapons_004_125_131) {
    fa_setup *s = load_ok("examples/alloy/duel.yaml");
    const fa_weapon *f = &s->weapons[find_w(s, "flamethrower")];
    cr_expect_eq(f->area, FA_AREA_BLAST);
    cr_expect_eq(f->area_size, 5);
    cr_expect_eq(f->area_defense, FA_DEF_REFLEX);
    cr_expect_eq(f->area_ability, FA_DEX);
    const fa_weapon *g = &s->weapons[find_w(s, "frag-grenade")];
    cr_expect_eq(g->area, FA_AREA_BURST);
    cr_expect_eq(g->area_size, 5);
    cr_expect_eq(g->range_short, 12);
    cr_expect_eq(g->range_long, 12);
    cr_expect_eq(g->kind, FA_WK_THROWN);
    const fa_weapon *p = &s->weapons[find_w(s, "pistol")];
    cr_expect_eq(p->kind, FA_WK_RANGED);
    cr_expect_eq(p->w.n, 2);
    cr_expect_eq(p->w.sides, 6);
    cr_expect_eq(p->range_short, 6);  /* 30 ft */
    cr_expect_eq(p->range_long, 12);  /* to 60 ft at -2 */
    cr_expect_eq(p->magazine, 15);
    cr_expect_eq(p->proficiency, 2);
    cr_expect_str_eq(p->group, "pistols");
    const fa_weapon *r = &s->weapons[find_w(s, "rifle")];
    cr_expect(r->autofire);
    cr_expect_eq(r->hands, 2);
    const fa_weapon *sw = &s->weapons[find_w(s, "sword")];
    cr_expect_eq(sw->kind, FA_WK_MELEE);
    cr_expect_eq(sw->reach, 1);       /* 5 ft, 004:77 */
    cr_expect_eq(sw->crit.n, 1);
    cr_expect_eq(sw->crit.sides, 8);
    cr_expect_eq(s->weapons[find_w(s, "spear")].reach, 2);
    cr_expect_eq(s->weapons[find_w(s, "unarmed")].w.sides, 4);
    find_w(s, "shotgun");
    find_w(s, "knife");
    find_w(s, "club");
    find_w(s, "baton");
    fa_setup_free(s);
}

/* L8 stat block: modifiers floor((score-10)/2), defenses stated (L7.8),
 * initiative the Dex modifier, surge value floor(hp/4), skills. */
Test(alloy_load, statblock_numbers_L8) {
    fa_setup *s = load_ok("examples/alloy/duel.yaml");
    const fa_statblock *m = sb_of(s, "vance");
    cr_expect_str_eq(m->name, "Mercenary");
    cr_expect_eq(m->score[FA_CHA], 8);
    cr_expect_eq(m->mod[FA_STR], 2);
    cr_expect_eq(m->mod[FA_CHA], -1);   /* floor(-2/2) */
    cr_expect_eq(m->mod[FA_INT], 0);
    cr_expect_eq(m->defense[FA_DEF_DEFENSE], 16);
    cr_expect_eq(m->defense[FA_DEF_FORTITUDE], 14);
    cr_expect_eq(m->defense[FA_DEF_REFLEX], 15);
    cr_expect_eq(m->defense[FA_DEF_WILL], 12);
    cr_expect_eq(m->attack_bonus, 3);
    cr_expect_eq(m->init_mod, 2);       /* Dex 14 */
    cr_expect_eq(m->hp, 28);
    cr_expect_eq(m->surge_value, 7);    /* floor(28 / 4) */
    cr_expect_eq(m->surges, 2);
    cr_expect_eq(m->action_points, 1);
    cr_expect_eq(m->speed, 6);
    cr_expect_eq(m->reach, 1);
    cr_expect_eq(m->skill[FA_SKILL_ATHLETICS], 5);
    cr_expect_eq(m->skill[FA_SKILL_ACROBATICS], 2); /* Dex modifier by default */
    cr_expect_eq(m->skill[FA_SKILL_BLUFF], -1);     /* Cha modifier */
    cr_expect_eq(m->crit_min, 20);
    cr_expect_eq(m->n_weapons, 2);
    cr_expect(m->weapons[0].proficient);
    cr_expect_eq(m->weapons[0].ammo, 30);           /* two magazines besides the one in */
    cr_expect_eq(m->weapons[1].ammo, -1);           /* a baton: not counted */
    /* Its power: Str vs Fortitude; 1[W]+2 with the baton; dazed (end of
     * your next turn). */
    cr_assert_eq(m->n_powers, 1);
    const fa_power *p = &m->powers[0];
    cr_expect_str_eq(p->id, "stunning-blow");
    cr_expect_eq(p->usage, FA_ENCOUNTER);
    cr_expect_eq(p->action, FA_ACT_STANDARD);
    cr_expect_eq(p->ability, FA_STR);
    cr_expect_eq(p->defense, FA_DEF_FORTITUDE);
    cr_expect_eq(p->weapon, 1);
    cr_expect_eq(p->mult, 1);
    cr_expect_eq(p->damage_bonus, 2);
    cr_expect_eq(p->n_effects, 1);
    cr_expect_eq(p->effects[0].cond, FA_C_DAZED);
    cr_expect_eq(p->effects[0].ends, FA_ENDS_END_OF_TURN);
    const fa_statblock *d = sb_of(s, "lyra");
    cr_expect_eq(d->crit_min, 19);
    cr_expect_eq(d->tactics, FA_TACTICS_AGGRESSIVE);
    cr_expect_eq(d->powers[0].mult, 2);              /* 2[W]+3 */
    cr_expect_eq(d->powers[0].effects[0].cond, FA_C_PRONE);
    cr_expect_eq(d->powers[0].effects[0].ends, FA_ENDS_EVENT);
    cr_expect_eq(d->defense[FA_DEF_WILL], 14);
    /* The duel: the wield, no map, toe to toe on open ground. */
    const fa_combatant_def *v = &s->c[find_c(s, "vance")];
    const fa_combatant_def *l = &s->c[find_c(s, "lyra")];
    cr_expect_eq(v->wield, 1);                        /* the baton */
    cr_expect_eq(l->wield, 0);                        /* the first weapon */
    cr_expect(!s->has_map);
    cr_expect_eq(s->map.w, 64);
    cr_expect_eq(abs(v->at.x - l->at.x) + abs(v->at.y - l->at.y), 1);
    cr_expect(v->aware && l->aware && !s->surprise);
    cr_expect(s->has_seed);
    cr_expect_eq(s->seed, 4004);
    cr_expect_eq(s->round_limit, 100);
    cr_expect_eq(s->n_sides, 2);
    fa_setup_free(s);
}

/* A group (count: 3) marked on the map; obscured and dark squares; the
 * pyro's blast power; ongoing damage (save ends) (004:277). */
Test(alloy_load, skirmish_map_groups_overlays) {
    fa_setup *s = load_ok("examples/alloy/skirmish.yaml");
    cr_expect(s->has_map);
    cr_expect_eq(s->map.w, 18);
    cr_expect_eq(s->map.h, 10);
    cr_expect_eq(s->n, 9);
    int t1 = find_c(s, "thug-1"), t2 = find_c(s, "thug-2"), t3 = find_c(s, "thug-3");
    cr_expect_str_eq(s->c[t1].name, "Thug 1");
    /* reading order: [16,4], [15,6], [15,8] */
    cr_expect_eq(s->c[t1].at.x, 16);
    cr_expect_eq(s->c[t1].at.y, 4);
    cr_expect_eq(s->c[t2].at.y, 6);
    cr_expect_eq(s->c[t3].at.y, 8);
    cr_expect_eq(s->c[t1].side, 1);
    cr_expect(fray_area_has(&s->obscured, (fray_pos){7, 7}));
    cr_expect(!fray_area_has(&s->obscured, (fray_pos){9, 7}));
    cr_expect_eq(fray_area_count(&s->obscured), 9);
    cr_expect(fray_area_has(&s->dark, (fray_pos){16, 1}));
    cr_expect_eq(fray_area_count(&s->dark), 1);
    const fa_statblock *p = sb_of(s, "pyro");
    cr_expect_eq(p->powers[0].area, FA_AREA_BLAST);
    cr_expect_eq(p->powers[0].area_size, 5);
    cr_expect_eq(p->powers[0].effects[0].cond, FA_C_ONGOING);
    cr_expect_eq(p->powers[0].effects[0].value, 5);
    cr_expect_eq(p->powers[0].effects[0].ends, FA_ENDS_SAVE);
    const fa_statblock *tr = sb_of(s, "trooper");
    cr_expect_eq(tr->powers[0].area, FA_AREA_BURST);
    cr_expect_eq(tr->powers[0].range, 12);
    cr_expect_eq(tr->powers[0].weapon, -1);
    cr_expect_eq(tr->powers[0].dice.n, 4);
    cr_expect_eq(tr->weapons[1].ammo, 2);   /* grenades: two more, as written */
    cr_expect_eq(tr->weapons[2].ammo, 0);   /* a knife: the one in hand (thrown) */
    cr_expect_eq(s->c[find_c(s, "boss")].tactics, FA_TACTICS_CAUTIOUS);
    const fa_statblock *thug = sb_of(s, "thug-1");
    cr_expect(!thug->weapons[1].proficient);
    cr_expect_eq(s->map.terrain[5][5], FRAY_TERRAIN_WALL);
    /* map.edges: the crates, a low wall south of [1..3, 3] */
    cr_expect_eq(fray_grid_edge(&s->map, (fray_pos){2, 3}, (fray_pos){2, 4}), FRAY_EDGE_LOW);
    cr_expect_eq(fray_grid_edge(&s->map, (fray_pos){4, 3}, (fray_pos){4, 4}), FRAY_EDGE_NONE);
    fa_setup_free(s);
}

/* 004:40 some unaware: a surprise round; a Large creature takes 2x2
 * (L7.10) and has threatening reach (004:462). */
Test(alloy_load, ambush_surprise_004_40) {
    fa_setup *s = load_ok("examples/alloy/ambush.yaml");
    cr_expect(s->surprise);
    for (int i = 0; i < s->n; i++)
        cr_expect_eq(s->c[i].aware, s->c[i].side == 1, "%s", s->c[i].id);
    const fa_combatant_def *o = &s->c[find_c(s, "ogre")];
    cr_expect_eq(o->side_len, 2);
    cr_expect_eq(o->at.x, 6);   /* drawn whole: its top-left square */
    cr_expect_eq(o->at.y, 7);
    const fa_statblock *sb = &s->sb[o->sb];
    cr_expect_eq(sb->reach, 2);
    cr_expect(sb->threatening_reach);
    cr_expect_eq(sb->speed, 8);
    cr_expect_eq(s->opt.surprise_action, FA_SURPRISE_STANDARD_OR_MOVE);
    fa_setup_free(s);
}

/* rulesets-checklists L7: every option's default. */
Test(alloy_load, options_defaults_L7) {
    fa_options o;
    fa_options_default(&o);
    cr_expect_eq(o.diagonals, FRAY_AREA_COUNTED);      /* L7.9 */
    cr_expect_eq(o.burst, FRAY_AREA_COUNTED);          /* L7.9 */
    cr_expect_eq(o.dying, FA_DYING_STABLE);            /* L7.8 */
    cr_expect_eq(o.save_target, 10);                   /* L7.8 */
    cr_expect_eq(o.drop_prone, FA_ACT_SWIFT);          /* L7.1, 004:332 */
    cr_expect(!o.suppress_unlimited);                  /* L7.6 */
    cr_expect_eq(o.ap_per_turn, 1);                    /* L7.12 */
    cr_expect(o.area_crit_max);                        /* L7.14 */
    cr_expect(o.coup_rolls);                           /* L7.18 */
    cr_expect(o.aid_ranged_provokes);                  /* L7.19 */
    cr_expect_eq(o.creature_cover, 2);                 /* L7.20 */
    cr_expect_eq(o.init_ties, FA_TIES_RANDOM);         /* L7.23 */
    cr_expect_eq(o.surprise_action, FA_SURPRISE_STANDARD_OR_MOVE); /* L7.2 */
}

Test(alloy_load, options_every_setting) {
    fa_setup *s = load_ok("tests/data/alloy/good_options.yaml");
    const fa_options *o = &s->opt;
    cr_expect_eq(o->diagonals, FRAY_AREA_SQUARE);
    cr_expect_eq(o->burst, FRAY_AREA_SQUARE);
    cr_expect_eq(o->dying, FA_DYING_STABLE); /* death-saves: good_death_saves.yaml */
    cr_expect_eq(o->save_target, 11);
    cr_expect_eq(o->drop_prone, FA_ACT_FREE);
    cr_expect(o->suppress_unlimited);
    cr_expect_eq(o->ap_per_turn, 2);
    cr_expect(!o->area_crit_max);
    cr_expect(!o->coup_rolls);
    cr_expect(!o->aid_ranged_provokes);
    cr_expect_eq(o->creature_cover, 0);
    cr_expect_eq(o->init_ties, FA_TIES_LISTED);
    cr_expect_eq(o->surprise_action, FA_SURPRISE_STANDARD_AND_MOVE);
    cr_expect_eq(s->round_limit, 20);
    fa_setup_free(s);
}

Test(alloy_load, json_and_inline_statblocks) {
    fa_setup *s = load_ok("tests/data/alloy/good_json.json");
    cr_expect_str_eq(s->name, "JSON duel");
    cr_expect_eq(s->n_sb, 2);
    const fa_statblock *rat = sb_of(s, "rat");
    cr_expect_eq(rat->size, FA_SIZE_TINY);
    cr_expect_eq(rat->score[FA_STR], 3);   /* ability keys without case */
    cr_expect_eq(rat->mod[FA_STR], -4);    /* floor(-7 / 2) */
    cr_expect_eq(rat->mod[FA_DEX], 2);
    cr_expect_eq(rat->init_mod, 2);
    cr_expect_eq(rat->defense[FA_DEF_WILL], 10); /* Will 10 unless given (L7.7) */
    cr_expect_eq(rat->n_weapons, 0);
    cr_expect_eq(s->c[find_c(s, "rat")].wield, -1);
    cr_expect_eq(s->c[find_c(s, "rat")].side_len, 1);
    cr_expect_eq(s->map.w, 4);
    cr_expect_eq(s->map.h, 2);
    fa_setup_free(s);
}

/* Every bad file: the status, the file:line:column of the value at fault
 * and the words of the message. */
static const struct bad_case {
    const char *file;
    fray_status st;
    int line, col;
    const char *words;
} bad_cases[] = {
    {"bad_dying.yaml", FRAY_ERR_PARSE, 15, 10, "expected stable or death-saves for the option dying"},
    {"bad_unknown_key.yaml", FRAY_ERR_PARSE, 9, 5, "unknown key 'speeed' in a stat block (did you mean 'speed'?)"},
    {"bad_missing_rules.yaml", FRAY_ERR_PARSE, 2, 1, "missing key 'rules': an Alloy file says rules: alloy"},
    {"bad_rules_towers.yaml", FRAY_ERR_PARSE, 2, 8, "reads Alloy files (rules: alloy), got 'towers'"},
    {"bad_kind.yaml", FRAY_ERR_PARSE, 1, 7, "(did you mean 'encounter'?)"},
    {"bad_damage.yaml", FRAY_ERR_PARSE, 4, 40, "expected dice for the weapon's damage [W] (such as 1d8 or 2d6), got '2x6'"},
    {"bad_dice_range.yaml", FRAY_ERR_RANGE, 4, 40, "1 to 20 dice of 2 to 100 sides, got '30d6'"},
    {"bad_range_feet.yaml", FRAY_ERR_PARSE, 4, 52, "range 32/60 ft: ranges are in 5-ft squares"},
    {"bad_range_order.yaml", FRAY_ERR_RANGE, 4, 52, "5 <= short <= long <= 5000, got 60/30"},
    {"bad_melee_range.yaml", FRAY_ERR_PARSE, 7, 12, "a melee weapon has no range"},
    {"bad_area.yaml", FRAY_ERR_PARSE, 7, 11, "expected an area (blast 25, burst 25, close burst 10 or wall 4"},
    {"bad_dup_weapon.yaml", FRAY_ERR_PARSE, 5, 10, "the weapon 'Pistol' is in the catalogs twice"},
    {"bad_unknown_weapon.yaml", FRAY_ERR_PARSE, 9, 22, "unknown weapon 'pistl' (did you mean 'pistol'?)"},
    {"bad_attack_line.yaml", FRAY_ERR_PARSE, 12, 17, "expected an attack line such as 'Str vs Reflex'"},
    {"bad_power_damage.yaml", FRAY_ERR_PARSE, 13, 17, "expected damage such as 2[W]+2"},
    {"bad_effect_cond.yaml", FRAY_ERR_PARSE, 14, 19, "unknown condition 'stunnned' (did you mean 'stunned'?)"},
    {"bad_effect_duration.yaml", FRAY_ERR_PARSE, 15, 13, "the effect needs a duration: (save ends)"},
    {"bad_missing_defense.yaml", FRAY_ERR_PARSE, 6, 15, "missing key 'Reflex' in the defenses"},
    {"bad_score.yaml", FRAY_ERR_RANGE, 6, 22, "Str must be between 1 and 40, got 55"},
    {"bad_ability_key.yaml", FRAY_ERR_PARSE, 6, 26, "unknown key 'Dexterity' in the ability scores"},
    {"bad_speed.yaml", FRAY_ERR_PARSE, 9, 12, "speed is 32 ft; distances are in 5-ft squares"},
    {"bad_hp_type.yaml", FRAY_ERR_PARSE, 8, 9, "expected a whole number for hit points, got 'lots'"},
    {"bad_too_many_weapons.yaml", FRAY_ERR_RANGE, 9, 14, "a stat block carries at most 4 weapons, got 5"},
    {"bad_crit_range.yaml", FRAY_ERR_PARSE, 9, 17, "expected a crit range such as 19-20 (or 19), got '18-19'"},
    {"bad_dup_statblock.yaml", FRAY_ERR_PARSE, 10, 5, "the stat block 'Guard' is given twice"},
    {"bad_option.yaml", FRAY_ERR_PARSE, 12, 14, "expected alternate or one for the option diagonals, got 'sometimes'"},
    {"bad_option_key.yaml", FRAY_ERR_PARSE, 12, 3, "unknown key 'dyng' in the options (did you mean 'dying'?)"},
    {"bad_option_range.yaml", FRAY_ERR_RANGE, 12, 9, "the option save must be between 2 and 20, got '25'"},
    {"bad_unknown_statblock.yaml", FRAY_ERR_PARSE, 12, 24, "unknown stat block 'Gaurd'"},
    {"bad_one_side.yaml", FRAY_ERR_PARSE, 12, 3, "an encounter needs at least 2 sides"},
    {"bad_unknown_side.yaml", FRAY_ERR_PARSE, 14, 37, "unknown side 'Theives' (did you mean 'Thieves'?)"},
    {"bad_too_many.yaml", FRAY_ERR_RANGE, 13, 5, "more than 32 combatants"},
    {"bad_dup_id.yaml", FRAY_ERR_PARSE, 13, 10, "two combatants with the id 'a'"},
    {"bad_wield.yaml", FRAY_ERR_PARSE, 12, 47, "'sword' is not a weapon Guard carries"},
    {"bad_on_wall.yaml", FRAY_ERR_PARSE, 18, 44, "B at [4, 1] stands on a wall"},
    {"bad_overlap.yaml", FRAY_ERR_PARSE, 13, 44, "A and B stand in the same space [3, 3]"},
    {"bad_map_symbol.yaml", FRAY_ERR_PARSE, 14, 7, "unknown map symbol 'Q'"},
    {"bad_no_place.yaml", FRAY_ERR_PARSE, 18, 5, "B has no place on the map"},
    {"bad_legend_count.yaml", FRAY_ERR_PARSE, 13, 1, "the map marks 'guard' on 3 squares; it has 2 combatants"},
    {"bad_overlay.yaml", FRAY_ERR_RANGE, 17, 5, "the space is off the map (5 x 2)"},
    {"bad_catalog_kind.yaml", FRAY_ERR_PARSE, 4, 11, "is a file of kind 'statblocks'; expected 'catalog' here"},
    {"bad_missing_file.yaml", FRAY_ERR_IO, 4, 11, "cannot open 'no_such_file.yaml'"},
    {"bad_yaml_syntax.yaml", FRAY_ERR_PARSE, 4, 1, "YAML syntax:"},
    {"bad_edge.yaml", FRAY_ERR_PARSE, 12, 28, "[0, 0] and [2, 0] are not side by side on the map"},
    {"bad_five_sides.yaml", FRAY_ERR_RANGE, 12, 37, "more than 4 sides"},
    {"bad_three_effects.yaml", FRAY_ERR_RANGE, 14, 18, "a power has at most 2 effects"},
    {"bad_long_name.yaml", FRAY_ERR_RANGE, 4, 11, "is 58 characters long; at most 47"},
    {"bad_burst_no_range.yaml", FRAY_ERR_PARSE, 9, 9, "missing key 'range' in a power with an area burst"},
    {"bad_drawn_whole.yaml", FRAY_ERR_PARSE, 10, 6, "'ogre' is drawn whole but its marks from [1, 1] do not make 2x2 squares"},
    {"bad_seed.yaml", FRAY_ERR_PARSE, 11, 7, "expected a seed (a whole number from 0 to 2^64-1), got '-3'"},
};

Test(alloy_load, bad_files_named_at_their_place) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *c = &bad_cases[i];
        char path[1024];
        snprintf(path, sizeof path, SRC "tests/data/alloy/%s", c->file);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status st = fa_check_file(path, &d);
        cr_expect_eq(st, c->st, "%s: status %d: %s", c->file, st, d.message);
        cr_expect_eq(d.line, c->line, "%s: line %d: %s", c->file, d.line, d.message);
        cr_expect_eq(d.column, c->col, "%s: column %d: %s", c->file, d.column, d.message);
        cr_expect(strstr(d.message, c->words) != NULL, "%s: '%s' lacks '%s'", c->file,
                  d.message, c->words);
        cr_expect_str_eq(d.file, path, "%s: in %s", c->file, d.file ? d.file : "(none)");
        /* fa_load refuses them too, and hands back nothing. */
        fa_setup *s = (fa_setup *)1;
        cr_expect_neq(fa_load(path, NULL, &s, &d), FRAY_OK, "%s", c->file);
        cr_expect_null(s);
    }
}

/* An error in a file the encounter names is told in that file. */
Test(alloy_load, error_in_named_file) {
    fray_diag d;
    fray_status st = fa_check_file(SRC "tests/data/alloy/bad_in_statblocks.yaml", &d);
    cr_expect_eq(st, FRAY_ERR_RANGE);
    cr_expect_null(d.file, "not a path the caller passed");
    cr_expect_str_eq(fray_diag_file(&d), SRC "tests/data/alloy/bad_score.yaml");
    cr_expect_eq(d.line, 6);
    cr_expect_eq(d.column, 22);
}

Test(alloy_load, load_needs_an_encounter) {
    fray_diag d;
    fa_setup *s = NULL;
    fray_status st = fa_load(SRC "data/alloy/weapons.yaml", NULL, &s, &d);
    cr_expect_eq(st, FRAY_ERR_PARSE);
    cr_expect_null(s);
    cr_expect(strstr(d.message, "a fight needs an encounter") != NULL, "%s", d.message);
}

/* fray sim --vary: options by their file words; a combatant's numbers
 * alone (its block is copied when others share it); unknown keys listed. */
Test(alloy_load, vary_options_and_numbers) {
    fa_setup *s = load_ok("examples/alloy/skirmish.yaml");
    fray_diag d;
    /* L7.8: dying: death-saves is built (skills.c); a word not a setting is refused. */
    cr_expect_eq(fa_setup_vary(s, "dying", "nonsense", &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "expected stable or death-saves") != NULL, "%s", d.message);
    cr_expect_eq(s->opt.dying, FA_DYING_STABLE);
    cr_expect_eq(fa_setup_vary(s, "dying", "death-saves", &d), FRAY_OK);
    cr_expect_eq(s->opt.dying, FA_DYING_DEATH_SAVES);
    cr_expect_eq(fa_setup_vary(s, "dying", "stable", &d), FRAY_OK);
    cr_expect_eq(s->opt.dying, FA_DYING_STABLE);
    cr_expect_eq(fa_setup_vary(s, "save", "12", &d), FRAY_OK);
    cr_expect_eq(s->opt.save_target, 12);
    cr_expect_eq(fa_setup_vary(s, "suppress-unlimited", "true", &d), FRAY_OK);
    cr_expect(s->opt.suppress_unlimited);
    cr_expect_eq(fa_setup_vary(s, "round-limit", "30", &d), FRAY_OK);
    cr_expect_eq(s->round_limit, 30);
    /* The pyros share a stat block: varying one leaves the other. */
    int p = find_c(s, "pyro"), gp = find_c(s, "gang-pyro");
    cr_assert_eq(s->c[p].sb, s->c[gp].sb);
    cr_expect_eq(fa_setup_vary(s, "pyro.hp", "40", &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(s->sb[s->c[p].sb].hp, 40);
    cr_expect_eq(s->sb[s->c[p].sb].surge_value, 10);
    cr_expect_eq(s->sb[s->c[gp].sb].hp, 24);
    cr_expect_eq(fa_setup_vary(s, "pyro.reflex", "18", &d), FRAY_OK);
    cr_expect_eq(s->sb[s->c[p].sb].defense[FA_DEF_REFLEX], 18);
    cr_expect_eq(fa_setup_vary(s, "boss.attack", "7", &d), FRAY_OK);
    cr_expect_eq(sb_of(s, "boss")->attack_bonus, 7);
    /* A counted group: thug is thug-1 .. thug-3 (they alone use Thug). */
    int n_sb = s->n_sb;
    cr_expect_eq(fa_setup_vary(s, "thug.defense", "15", &d), FRAY_OK);
    cr_expect_eq(sb_of(s, "thug-2")->defense[FA_DEF_DEFENSE], 15);
    cr_expect_eq(sb_of(s, "thug-3")->defense[FA_DEF_DEFENSE], 15);
    cr_expect_eq(s->n_sb, n_sb);
    /* A stat block by name: every combatant using it. */
    cr_expect_eq(fa_setup_vary(s, "Mercenary.will", "13", &d), FRAY_OK);
    cr_expect_eq(sb_of(s, "merc")->defense[FA_DEF_WILL], 13);
    /* A bad value changes nothing (no copy made). */
    n_sb = s->n_sb;
    cr_expect_eq(fa_setup_vary(s, "gang-pyro.hp", "9999", &d), FRAY_ERR_RANGE);
    cr_expect_eq(s->n_sb, n_sb);
    cr_expect_eq(fa_setup_vary(s, "merc.speed", "33", &d), FRAY_ERR_RANGE);
    cr_expect_eq(fa_setup_vary(s, "merc.speed", "35", &d), FRAY_OK);
    cr_expect_eq(sb_of(s, "merc")->speed, 7);
    cr_expect_eq(fa_setup_vary(s, "merc.hp", "0", &d), FRAY_ERR_RANGE);
    cr_expect_eq(fa_setup_vary(s, "save", "30", &d), FRAY_ERR_RANGE);
    cr_expect_eq(fa_setup_vary(s, "diagonals", "sometimes", &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "expected alternate or one") != NULL, "%s", d.message);
    cr_expect_eq(fa_setup_vary(s, "nobody.hp", "10", &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "no combatant or stat block 'nobody'") != NULL, "%s", d.message);
    cr_expect_eq(fa_setup_vary(s, "colour", "red", &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "unknown key 'colour'; the keys are the options") != NULL,
              "%s", d.message);
    fa_setup_free(s);
}

Test(alloy_load, copy_is_whole) {
    fa_setup *s = load_ok("examples/alloy/ambush.yaml");
    fa_setup *c = NULL;
    cr_assert_eq(fa_setup_copy(s, NULL, &c), FRAY_OK);
    cr_expect_eq(memcmp(c->c, s->c, sizeof s->c), 0);
    cr_expect_eq(memcmp(&c->map, &s->map, sizeof s->map), 0);
    cr_expect_eq(c->n, s->n);
    fa_setup_free(s);
    cr_expect_eq(c->n, 6);
    fa_setup_free(c);
    fa_setup_free(NULL);
}

/* 004:40: a surprise round only when some, but not all, are aware. */
Test(alloy_load, no_surprise_when_nobody_aware_004_40) {
    fa_setup *s = load_ok("tests/data/alloy/good_all_unaware.yaml");
    cr_expect(!s->c[0].aware && !s->c[1].aware);
    cr_expect(!s->surprise);
    fa_setup_free(s);
}

/* Every allocation that can fail does so cleanly: FRAY_ERR_NOMEM, nothing
 * handed back, nothing left allocated (STYLE.md "Route allocation"). */
Test(alloy_load, out_of_memory_at_every_step) {
    bool loaded = false;
    for (long n = 1; n < 200 && !loaded; n++) {
        fail_alloc fa = {0};
        fa.fail_at = n;
        fray_allocator a = {fail_realloc, &fa};
        fa_setup *s = NULL;
        fray_diag d;
        fray_status st = fa_load(SRC "examples/alloy/skirmish.yaml", &a, &s, &d);
        if (st == FRAY_OK) {
            loaded = true;
            fa.fail_at = 0;
            fa_setup *c = NULL;
            cr_expect_eq(fa_setup_copy(s, &a, &c), FRAY_OK);
            fa_setup_free(c);
            fa_setup_free(s);
        } else {
            cr_expect_eq(st, FRAY_ERR_NOMEM, "allocation %ld: %s", n, d.message);
            cr_expect_null(s);
        }
        cr_expect_eq(fa.live, 0, "allocation %ld: %ld blocks left", n, fa.live);
    }
    cr_expect(loaded);
}

/* FA_MAX_WEAPONS and FA_MAX_STATBLOCKS: one more is refused by name. */
static void write_many(const char *path, const char *head, const char *fmt, int n) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(head, f);
    for (int i = 0; i < n; i++)
        fprintf(f, fmt, i);
    fclose(f);
}

Test(alloy_load, limits_of_a_setup) {
    char cat[] = "/tmp/fray_alloy_cat_XXXXXX";
    int fd = mkstemp(cat);
    cr_assert(fd >= 0);
    close(fd);
    write_many(cat, "fray: catalog\nrules: alloy\nweapons:\n",
               "  - {id: w%d, kind: melee, damage: 1d6}\n", FA_MAX_WEAPONS + 1);
    fray_diag d;
    cr_expect_eq(fa_check_file(cat, &d), FRAY_ERR_RANGE);
    cr_expect_eq(d.line, 4 + FA_MAX_WEAPONS);
    cr_expect(strstr(d.message, "more than 64 weapons") != NULL, "%s", d.message);
    write_many(cat, "fray: statblocks\nrules: alloy\nstatblocks:\n",
               "  - {name: S%d, defenses: {Defense: 10, Fortitude: 10, Reflex: 10}, attack: 0, "
               "hp: 5}\n",
               FA_MAX_STATBLOCKS + 1);
    cr_expect_eq(fa_check_file(cat, &d), FRAY_ERR_RANGE);
    cr_expect(strstr(d.message, "more than 64 stat blocks") != NULL, "%s", d.message);
    write_many(cat, "fray: statblocks\nrules: alloy\nstatblocks:\n",
               "  - {name: S%d, defenses: {Defense: 10, Fortitude: 10, Reflex: 10}, attack: 0, "
               "hp: 5}\n",
               FA_MAX_STATBLOCKS);
    cr_expect_eq(fa_check_file(cat, &d), FRAY_OK, "%s", d.message);
    unlink(cat);
}

/* Robustness: every prefix of the skirmish and its stat blocks (cut every
 * few bytes) loads or is refused with a message; never a crash, a leak
 * (ASan) or a setup handed back on error. */
static char *slurp(const char *path, long *len) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)*len + 1);
    cr_assert_eq(fread(buf, 1, (size_t)*len, f), (size_t)*len);
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *buf, long len) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
}

Test(alloy_load, every_cut_file_refused_cleanly) {
    char root[] = "/tmp/fray_alloy_cut_XXXXXX";
    cr_assert_not_null(mkdtemp(root));
    char dir[256], data[256], p_enc[300], p_sb[300], p_cat[300];
    snprintf(dir, sizeof dir, "%s/examples", root);
    snprintf(data, sizeof data, "%s/data", root);
    cr_assert_eq(mkdir(dir, 0700), 0);
    cr_assert_eq(mkdir(data, 0700), 0);
    snprintf(dir, sizeof dir, "%s/examples/alloy", root);
    snprintf(data, sizeof data, "%s/data/alloy", root);
    cr_assert_eq(mkdir(dir, 0700), 0);
    cr_assert_eq(mkdir(data, 0700), 0);
    snprintf(p_enc, sizeof p_enc, "%s/skirmish.yaml", dir);
    snprintf(p_sb, sizeof p_sb, "%s/statblocks.yaml", dir);
    snprintf(p_cat, sizeof p_cat, "%s/weapons.yaml", data);
    long l_enc, l_sb, l_cat;
    char *enc = slurp(SRC "examples/alloy/skirmish.yaml", &l_enc);
    char *sb = slurp(SRC "examples/alloy/statblocks.yaml", &l_sb);
    char *cat = slurp(SRC "data/alloy/weapons.yaml", &l_cat);
    spit(p_cat, cat, l_cat);
    int ok = 0, refused = 0;
    for (int which = 0; which < 2; which++) {
        long len = which ? l_sb : l_enc;
        for (long cut = 0; cut <= len; cut += (cut < len && cut + 11 > len) ? len - cut : 11) {
            spit(p_enc, enc, which ? l_enc : cut);
            spit(p_sb, sb, which ? cut : l_sb);
            fa_setup *s = (fa_setup *)1;
            fray_diag d;
            fray_status st = fa_load(p_enc, NULL, &s, &d);
            if (st == FRAY_OK) {
                ok++;
                fa_setup_free(s);
            } else {
                refused++;
                cr_expect_null(s);
                cr_expect(d.message[0] != '\0', "cut %ld: no message", cut);
                cr_expect(st == FRAY_ERR_PARSE || st == FRAY_ERR_RANGE, "cut %ld: status %d",
                          cut, st);
            }
            if (cut == len)
                cr_expect_eq(st, FRAY_OK, "the whole file: %s", d.message);
        }
    }
    cr_expect(ok >= 2);
    cr_expect(refused > 100, "%d refused", refused);
    unlink(p_enc);
    unlink(p_sb);
    unlink(p_cat);
    rmdir(dir);
    rmdir(data);
    snprintf(dir, sizeof dir, "%s/examples", root);
    snprintf(data, sizeof data, "%s/data", root);
    rmdir(dir);
    rmdir(data);
    rmdir(root);
    free(enc);
    free(sb);
    free(cat);
}

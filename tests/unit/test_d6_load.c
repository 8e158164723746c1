/*
 * test_d6_load.c - D6's files (src/rules/d6/load.c, docs/file-formats.md
 * "D6 files"; issue 18 "Data" and "fray check"): every data file and
 * example loads with fray check's one-line summary; the seed's numbers
 * read back (the quick-draw ranger, 003:98; the Centaur and the rats,
 * 003:106, 003:111-127); die codes in normal form (3 pips make 1D); the
 * options; copy equals original; sweeps (d6_vary) change what they say
 * and refuse what they do not know; out of memory leaks nothing.
 */
#define _XOPEN_SOURCE 700 /* mkstemp */

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "d6_int.h"
#include "fail_alloc.h"
#include "yaml_read.h"

#define SRC FRAY_SOURCE_DIR "/"

static d6_setup *load_ok(const char *rel) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    d6_setup *s = NULL;
    char path[1024];
    snprintf(path, sizeof path, SRC "%s", rel);
    fray_status st = d6_load(path, NULL, &s, &d);
    cr_assert_eq(st, FRAY_OK, "%s: %s:%d:%d: %s", rel, d.file ? d.file : "?", d.line,
                 d.column, d.message);
    cr_assert_not_null(s);
    return s;
}

static void check_says(const char *rel, const char *want) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    char path[1024];
    snprintf(path, sizeof path, SRC "%s", rel);
    fray_status st = d6_check(path, &d);
    cr_assert_eq(st, FRAY_OK, "%s: %d:%d: %s", rel, d.line, d.column, d.message);
    cr_assert_str_eq(d.message, want, "%s", rel);
}

static int find_c(const d6_setup *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->c[i].id, id) == 0)
            return i;
    cr_assert_fail("no combatant %s", id);
    return -1;
}

static int find_w(const d6_setup *s, const char *name) {
    for (int i = 0; i < s->n_weapons; i++)
        if (strcmp(s->w[i].name, name) == 0)
            return i;
    cr_assert_fail("no weapon %s", name);
    return -1;
}

static void code_is(d6_code c, int dice, int pips, const char *what) {
    cr_assert(c.dice == dice && c.pips == pips, "%s: %dD+%d, expected %dD+%d", what, c.dice,
              c.pips, dice, pips);
}

/* issue 18 "fray check": every file of each kind, with its summary. */
Test(d6_load, fray_check_summarises_every_data_file_and_example) {
    check_says("data/d6/weapons.yaml", "D6 weapons: 15 weapons, 4 armours");
    check_says("data/d6/statblocks.yaml", "D6 stat blocks: 13 stat blocks (15 weapons known)");
    check_says("examples/d6/duel.yaml",
               "D6 encounter \"Two Swords at the Ford\": 2 combatants on 2 sides, "
               "20 rounds, health: wounds");
    check_says("examples/d6/firefight.yaml",
               "D6 encounter \"The Wall at Dusk\": 5 combatants on 2 sides, 30 rounds, "
               "health: wounds");
    check_says("examples/d6/centaur.yaml",
               "D6 encounter \"The Centaur and the Rats\": 5 combatants on 2 sides, "
               "20 rounds, health: wounds");
    check_says("examples/d6/brawl.yaml",
               "D6 encounter \"Brawl at the Crooked Tankard\": 6 combatants on 2 sides, "
               "20 rounds, health: body-points");
    check_says("examples/d6/tavern.yaml",
               "D6 encounter \"Broken Tables at the Crooked Tankard\": 5 combatants on 2 "
               "sides, 20 rounds, health: wounds");
}

/* Every example is an encounter a fight can be made from. */
Test(d6_load, every_example_loads) {
    const char *ex[] = {"duel", "firefight", "centaur", "brawl", "tavern"};
    for (int i = 0; i < 5; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "examples/d6/%s.yaml", ex[i]);
        d6_setup *s = load_ok(rel);
        cr_assert_geq(s->n_sides, 2, "%s", rel);
        cr_assert(s->has_seed, "%s has a seed", rel);
        cr_assert_gt(s->rounds, 0);
        d6_setup_free(s);
    }
}

/* A fight needs an encounter: d6_load refuses a weapons or stat-block
 * file in words, where d6_check takes it. */
Test(d6_load, a_fight_needs_an_encounter) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    d6_setup *s = (d6_setup *)1;
    fray_status st = d6_load(SRC "data/d6/statblocks.yaml", NULL, &s, &d);
    cr_assert_eq(st, FRAY_ERR_PARSE);
    cr_assert_null(s);
    cr_assert(strstr(d.message, "this is a statblocks file; a fight needs an encounter"),
              "%s", d.message);
}

/* 003:98 "The ranger has 4D in Acumen and 8D in throwing", two daggers
 * to throw, each suitable for quick drawing (003:95) and usable in either
 * hand (003:89). */
Test(d6_load, the_quick_draw_ranger_reads_back) {
    const char *text = "fray: encounter\nrules: d6\nname: Quick Draw\n"
                       "statblocks: [" FRAY_SOURCE_DIR "/data/d6/statblocks.yaml]\n"
                       "combatants:\n"
                       "  - {id: ranger, statblock: Ranger, side: Ranger, at: [0, 0]}\n"
                       "  - {id: sorceress, statblock: Bandit, side: Villain, at: [5, 0]}\n";
    char path[] = "/tmp/fray_d6_ranger_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    cr_assert_geq(fputs(text, f), 0);
    cr_assert_eq(fclose(f), 0);
    fray_diag d;
    memset(&d, 0, sizeof d);
    d6_setup *s = NULL;
    fray_status st = d6_load(path, NULL, &s, &d);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(st, FRAY_OK, "%d:%d: %s", d.line, d.column, d.message);
    int r = find_c(s, "ranger");
    const d6_block *b = &s->c[r].b;
    cr_assert_str_eq(s->c[r].name, "Ranger", "the name defaults to the stat block's");
    code_is(b->attr[D6_ACUMEN], 4, 0, "003:98 Acumen 4D");
    code_is(b->skill[D6_SK_THROWING], 8, 0, "003:98 throwing 8D");
    cr_assert(b->has_skill & (1u << D6_SK_THROWING));
    cr_assert_not(b->has_skill & (1u << D6_SK_MARKSMANSHIP), "not listed: its attribute");
    int td = find_w(s, "thrown dagger");
    cr_assert_eq(b->weapon, td);
    cr_assert_eq(b->off_hand, td, "a dagger in each hand: two throws (003:89)");
    const d6_weapon *w = &s->w[td];
    cr_assert(w->quick_draw, "003:95: a dagger is suitable for quick drawing");
    cr_assert(w->either_hand);
    cr_assert_eq(w->skill, D6_SK_THROWING);
    cr_assert(w->strength, "STR+1D adds Strength Damage");
    code_is(w->damage, 1, 0, "thrown dagger STR+1D");
    cr_assert(w->range[0] == 5 && w->range[1] == 10 && w->range[2] == 20);
    cr_assert_eq(b->carried, 1u << find_w(s, "dagger"));
    cr_assert_eq(b->move, 10, "the core's human Move");
    cr_assert_eq(s->c[r].tactics, D6_TAC_RANGED, "a thrown weapon in hand: ranged tactics");
    cr_assert_eq(s->rounds, 20, "the default time limit");
    cr_assert_not(s->has_seed);
    d6_setup_free(s);
}

/* 003:106: the Centaur's scale value is 3, the rats' 9 smaller than a
 * Human: signed, -9 (the table, 003:124). */
Test(d6_load, the_centaur_and_the_rats_read_back) {
    d6_setup *s = load_ok("examples/d6/centaur.yaml");
    int c = find_c(s, "centaur");
    cr_assert_eq(s->c[c].b.scale, 3, "003:106 the Centaur's scale value of 3");
    cr_assert_eq(s->c[c].b.move, 20);
    cr_assert_eq(s->c[c].tactics, D6_TAC_MELEE, "a spear in hand");
    cr_assert_eq(s->c[c].b.weapon, find_w(s, "spear"));
    cr_assert_eq(s->c[c].b.carried, 1u << find_w(s, "bow"));
    int rats = 0;
    for (int i = 0; i < s->n; i++)
        if (s->c[i].side != s->c[c].side) {
            rats++;
            cr_assert_eq(s->c[i].b.scale, -9, "003:124 Rat -9");
            cr_assert_eq(s->c[i].b.weapon, find_w(s, "rat bite"));
            int dx = s->c[i].x - s->c[c].x, dy = s->c[i].y - s->c[c].y;
            cr_assert_leq(dx * dx + dy * dy, 9, "every rat within Point Blank (3 m)");
        }
    cr_assert_eq(rats, 4);
    const d6_weapon *bite = &s->w[find_w(s, "rat bite")];
    cr_assert(bite->strength);
    code_is(bite->damage, 0, 1, "rat bite STR+1");
    cr_assert_eq(s->light, 1, "light: poor adds 1D to ranged difficulties");
    cr_assert_str_eq(s->side_name[s->c[c].side], "Adventurer");
    d6_setup_free(s);
}

/* The catalog as data file D8 lists it: damage with and without
 * Strength Damage, ranges, hands, ready (003:101), blunt (003:8),
 * entangling (003:63), unwieldy (003:131), armour codes. */
Test(d6_load, weapons_and_armour_read_back) {
    d6_setup *s = load_ok("examples/d6/firefight.yaml");
    const d6_weapon *cb = &s->w[find_w(s, "crossbow")];
    cr_assert_not(cb->strength);
    code_is(cb->damage, 4, 0, "crossbow 4D");
    cr_assert(cb->range[0] == 15 && cb->range[1] == 120 && cb->range[2] == 240);
    cr_assert_eq(cb->hands, 2);
    cr_assert_eq(cb->ready_actions, 2, "003:101: a crossbow takes longer to ready");
    cr_assert_eq(cb->skill, D6_SK_MARKSMANSHIP);
    const d6_weapon *sw = &s->w[find_w(s, "sword")];
    cr_assert(sw->strength);
    code_is(sw->damage, 1, 1, "sword STR+1D+1");
    cr_assert_eq(sw->range[2], 0, "a melee weapon has no ranges");
    cr_assert_eq(sw->length_cm, 90);
    cr_assert_eq(sw->hands, 1);
    cr_assert_eq(sw->ready_actions, 1);
    cr_assert_eq(sw->skill, D6_SK_MELEE);
    cr_assert(s->w[find_w(s, "club")].blunt, "003:8 a blunt weapon");
    const d6_weapon *net = &s->w[find_w(s, "net")];
    cr_assert(net->entangling && !net->spiked, "003:63");
    cr_assert_eq(net->unwieldy, 5, "003:131 +5");
    cr_assert_eq(s->w[find_w(s, "spear")].length_cm, 220, "over 2 m: Short range in melee");
    cr_assert_not(s->w[find_w(s, "sword")].has_scale);
    cr_assert_eq(s->n_armour, 4);
    code_is(s->ar[0].code, 0, 1, "padded cloth: a code of pips alone");
    code_is(s->ar[2].code, 2, 0, "mail 2D");
    d6_setup_free(s);
}

/* Positions in meters, cover per combatant, tactics by the weapon in hand
 * or as written, sides in the order met. */
Test(d6_load, the_firefight_places_and_covers) {
    d6_setup *s = load_ok("examples/d6/firefight.yaml");
    int wc = find_c(s, "wall-crossbow"), ra = find_c(s, "road-archer");
    int rc = find_c(s, "road-crossbow"), rb = find_c(s, "road-bandit");
    cr_assert_eq(s->c[wc].cover, D6_COVER_QUARTER);
    cr_assert_eq(s->c[find_c(s, "wall-archer")].cover, D6_COVER_HALF);
    cr_assert_eq(s->c[ra].cover, D6_COVER_QUARTER);
    cr_assert_eq(s->c[rc].cover, D6_COVER_NONE, "no cover by default");
    cr_assert(s->c[ra].x == 40 && s->c[ra].y == 20);
    cr_assert(s->c[rc].x == 100 && s->c[rc].y == 60);
    cr_assert_eq(s->c[wc].tactics, D6_TAC_RANGED);
    cr_assert_eq(s->c[rb].tactics, D6_TAC_RANGED, "tactics: ranged with a carried thrown dagger");
    cr_assert_eq(s->c[rb].b.weapon, find_w(s, "axe"));
    cr_assert_str_eq(s->side_name[0], "Wall");
    cr_assert_str_eq(s->side_name[1], "Road");
    cr_assert_eq(s->c[rc].side, 1);
    cr_assert_eq(s->seed, 3011u);
    cr_assert_eq(s->rounds, 30);
    code_is(s->c[wc].b.attr[D6_COORDINATION], 3, 2, "Crossbowman Coordination 3D+2");
    cr_assert_eq(s->c[wc].b.armour, 2, "mail");
    d6_setup_free(s);
}

/* The options (D7.23) as the encounter gives them; none given: every
 * default, a zeroed d6_options. */
Test(d6_load, options_default_and_as_given) {
    d6_setup *s = load_ok("examples/d6/duel.yaml");
    d6_options zero;
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(memcmp(&s->o, &zero, sizeof zero), 0, "every default");
    cr_assert_eq(s->light, 0, "light: full by default");
    d6_setup_free(s);
    s = load_ok("examples/d6/brawl.yaml");
    cr_assert_eq(s->o.health, D6_HEALTH_BODY_POINTS);
    for (int i = 0; i < s->n; i++)
        cr_assert_gt(s->c[i].b.body_points, 0);
    int b = find_c(s, "brawler-1");
    cr_assert_eq(s->c[b].b.weapon, -1, "no weapon: unarmed");
    cr_assert(s->c[b].b.trained_knockdown, "003:8");
    cr_assert_eq(s->c[b].tactics, D6_TAC_MELEE);
    d6_setup_free(s);
}

/* Every option word in a file, each read into its field. */
Test(d6_load, every_option_word_reads) {
    static const struct {
        const char *yaml;
        size_t off;
        int want;
    } cases[] = {
        {"health: body-points", offsetof(d6_options, health), D6_HEALTH_BODY_POINTS},
        {"wild-one: complication", offsetof(d6_options, wild_one), D6_WILD_ONE_COMPLICATION},
        {"modifiers: roll", offsetof(d6_options, modifiers_roll), 1},
        {"modifier-wild-die: yes", offsetof(d6_options, modifier_wild), 1},
        {"initiative: scene", offsetof(d6_options, initiative), D6_INIT_SCENE},
        {"initiative: first-action", offsetof(d6_options, initiative), D6_INIT_FIRST_ACTION},
        {"damage-bonus: yes", offsetof(d6_options, damage_bonus), 1},
        {"damage-bonus: yes, notes: every mapping takes notes",
         offsetof(d6_options, damage_bonus), 1},
        {"weapon-scale: all", offsetof(d6_options, weapon_scale), D6_WSCALE_ALL},
        {"escape-tie: escapee", offsetof(d6_options, escape_tie_escapee), 1},
        {"tactics-knockdown: yes", offsetof(d6_options, tactics_knockdown), 1},
        {"mortal-rolls: minutes", offsetof(d6_options, mortal_rolls), D6_MORTAL_MINUTES},
        {"mortal-rolls: rounds", offsetof(d6_options, mortal_rolls), D6_MORTAL_ROUNDS},
        {"tactics-run: yes", offsetof(d6_options, tactics_run), 1},
        {"uncalled-location: chest", offsetof(d6_options, uncalled_chest), 1},
        {"location-threshold: wounded", offsetof(d6_options, location_wounded), 1},
        {"trick-difficulty: 15", offsetof(d6_options, trick_difficulty), 15},
        /* ruling 70: what 0 Body Points is */
        {"health: body-points, zero-body-points: unconscious",
         offsetof(d6_options, zero_bp_unconscious), 1},
        {"health: body-points, zero-body-points: dead",
         offsetof(d6_options, zero_bp_unconscious), 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "fray: encounter\nrules: d6\nstatblocks: [" FRAY_SOURCE_DIR
                 "/data/d6/statblocks.yaml]\noptions: {%s}\ncombatants:\n"
                 "  - {id: a, name: Ann, statblock: Fighter, at: [0, 0]}\n"
                 "  - {id: b, name: Bo, statblock: Fighter, at: [1, 0]}\n",
                 cases[k].yaml);
        char path[] = "/tmp/fray_d6_opt_XXXXXX";
        int fd = mkstemp(path);
        cr_assert_geq(fd, 0);
        FILE *f = fdopen(fd, "w");
        cr_assert_not_null(f);
        cr_assert_geq(fputs(text, f), 0);
        cr_assert_eq(fclose(f), 0);
        d6_setup *s = NULL;
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status st = d6_load(path, NULL, &s, &d);
        cr_assert_eq(unlink(path), 0);
        cr_assert_eq(st, FRAY_OK, "%s: %s", cases[k].yaml, d.message);
        uint8_t v;
        memcpy(&v, (const char *)&s->o + cases[k].off, 1);
        cr_assert_eq(v, cases[k].want, "%s", cases[k].yaml);
        cr_assert_eq(s->n_sides, 2, "the side defaults to the combatant's name");
        d6_setup_free(s);
    }
}

/* A copy is the same setup, made with its own allocator. */
Test(d6_load, copy_equals_original) {
    d6_setup *s = load_ok("examples/d6/firefight.yaml");
    fail_alloc fa = {0};
    fray_allocator a = {fail_realloc, &fa};
    d6_setup *c = NULL;
    cr_assert_eq(d6_setup_copy(s, &a, &c), FRAY_OK);
    cr_assert_neq(c, s);
    cr_assert_eq(c->alloc.ud, &fa, "the copy's own allocator");
    d6_setup same = *c;
    same.alloc = s->alloc;
    cr_assert_eq(memcmp(&same, s, sizeof *s), 0, "the same setup");
    cr_assert_eq(fa.live, 1);
    d6_setup_free(c);
    cr_assert_eq(fa.live, 0, "freed with the allocator it was made with");
    fa.fail_at = fa.calls + 1;
    c = (d6_setup *)1;
    cr_assert_eq(d6_setup_copy(s, &a, &c), FRAY_ERR_NOMEM);
    cr_assert_null(c);
    d6_setup_free(s);
    d6_setup_free(NULL);
    /* a setup built in C (zeroed, from malloc) is freed too */
    d6_setup *z = calloc(1, sizeof *z);
    cr_assert_not_null(z);
    d6_setup_free(z);
}

/* Out of memory at every allocation of a load: FRAY_ERR_NOMEM, nothing
 * left allocated. */
Test(d6_load, out_of_memory_leaks_nothing) {
    for (long n = 1;; n++) {
        fail_alloc fa = {0};
        fa.fail_at = n;
        fray_allocator a = {fail_realloc, &fa};
        d6_setup *s = NULL;
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status st = d6_load(SRC "examples/d6/centaur.yaml", &a, &s, &d);
        if (st == FRAY_OK) {
            cr_assert_gt(n, 1);
            d6_setup_free(s);
            cr_assert_eq(fa.live, 0);
            break;
        }
        cr_assert_eq(st, FRAY_ERR_NOMEM, "allocation %ld: %s", n, d.message);
        cr_assert_null(s);
        cr_assert_eq(fa.live, 0, "allocation %ld leaks", n);
        cr_assert_lt(n, 10000);
    }
}

/* ---- Sweeps (d6_vary) -------------------------------------------------- */

static void vary_ok(d6_setup *s, const char *key, const char *value) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = d6_vary(s, key, value, &d);
    cr_assert_eq(st, FRAY_OK, "%s=%s: %s", key, value, d.message);
}

static void vary_bad(d6_setup *s, const char *key, const char *value, fray_status want,
                     const char *says) {
    d6_setup before = *s;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = d6_vary(s, key, value, &d);
    cr_assert_eq(st, want, "%s=%s: %s", key, value, d.message);
    cr_assert(strstr(d.message, says), "%s=%s: '%s' does not say '%s'", key, value, d.message,
              says);
    cr_assert_eq(memcmp(&before, s, sizeof before), 0, "%s=%s changed the setup", key, value);
}

/* Every option key by its words. */
Test(d6_load, vary_every_option) {
    d6_setup *s = load_ok("examples/d6/duel.yaml");
    vary_ok(s, "health", "body-points");
    cr_assert_eq(s->o.health, D6_HEALTH_BODY_POINTS);
    vary_ok(s, "health", "wounds");
    cr_assert_eq(s->o.health, D6_HEALTH_WOUNDS);
    vary_ok(s, "wild-one", "complication");
    cr_assert_eq(s->o.wild_one, D6_WILD_ONE_COMPLICATION);
    vary_ok(s, "modifiers", "roll");
    cr_assert(s->o.modifiers_roll);
    vary_ok(s, "modifier-wild-die", "yes");
    cr_assert(s->o.modifier_wild);
    vary_ok(s, "initiative", "first-action");
    cr_assert_eq(s->o.initiative, D6_INIT_FIRST_ACTION);
    vary_ok(s, "damage-bonus", "yes");
    cr_assert(s->o.damage_bonus);
    vary_ok(s, "rounds", "7");
    cr_assert_eq(s->rounds, 7);
    vary_bad(s, "initiative", "fastest", FRAY_ERR_PARSE,
             "initiative: expected one of round, scene, first-action, got 'fastest'");
    vary_bad(s, "rounds", "0", FRAY_ERR_RANGE, "rounds must be between 1 and 10000");
    vary_bad(s, "helth", "wounds", FRAY_ERR_PARSE,
             "no key 'helth' (did you mean 'health'?): health, wild-one, modifiers, "
             "modifier-wild-die, initiative, damage-bonus, rounds");
    vary_bad(s, "speed", "1", FRAY_ERR_PARSE, "no key 'speed': health, wild-one");
    d6_setup_free(s);
}

/* A combatant's attribute or skill code, its numbers; a weapon's damage. */
Test(d6_load, vary_codes_and_damage) {
    d6_setup *s = load_ok("examples/d6/duel.yaml");
    int b = find_c(s, "brand"), o = find_c(s, "osric");
    vary_ok(s, "brand.agility", "4D+2");
    code_is(s->c[b].b.attr[D6_AGILITY], 4, 2, "brand.agility");
    code_is(s->c[o].b.attr[D6_AGILITY], 3, 1, "osric's is his own");
    vary_ok(s, "brand.melee-combat", "6D");
    code_is(s->c[b].b.skill[D6_SK_MELEE], 6, 0, "brand.melee-combat");
    s->c[b].b.has_skill &= ~(1u << D6_SK_SEARCH);
    vary_ok(s, "brand.search", "3D+3");
    code_is(s->c[b].b.skill[D6_SK_SEARCH], 4, 0, "3 pips make 1D");
    cr_assert(s->c[b].b.has_skill & (1u << D6_SK_SEARCH), "a skill given is listed");
    vary_ok(s, "osric.body-points", "40");
    cr_assert_eq(s->c[o].b.body_points, 40);
    vary_ok(s, "osric.move", "12");
    cr_assert_eq(s->c[o].b.move, 12);
    vary_ok(s, "osric.scale", "-3");
    cr_assert_eq(s->c[o].b.scale, -3);
    int sw = find_w(s, "sword");
    vary_ok(s, "sword.damage", "STR+2D");
    cr_assert(s->w[sw].strength);
    code_is(s->w[sw].damage, 2, 0, "sword.damage");
    vary_ok(s, "sword.damage", "5D+1");
    cr_assert_not(s->w[sw].strength);
    code_is(s->w[sw].damage, 5, 1, "sword.damage without STR");
    vary_bad(s, "brand.agility", "4d6", FRAY_ERR_PARSE,
             "brand.agility: expected a die code like 3D or 4D+2, got '4d6'");
    vary_bad(s, "brand.agility", "21D", FRAY_ERR_RANGE, "between 0D+1 and 20D");
    vary_bad(s, "brand.agilty", "3D", FRAY_ERR_PARSE,
             "no key 'agilty' of a combatant (did you mean 'agility'?): agility");
    vary_bad(s, "brnd.agility", "3D", FRAY_ERR_PARSE,
             "no combatant or weapon 'brnd' (did you mean 'brand'?)");
    vary_bad(s, "nobody.agility", "3D", FRAY_ERR_PARSE, "no combatant or weapon 'nobody'");
    vary_bad(s, "sword.length", "3", FRAY_ERR_PARSE, "a weapon's sweep is WEAPON.damage");
    vary_bad(s, "sword.damage", "STR*2", FRAY_ERR_PARSE, "expected a damage code");
    vary_bad(s, "osric.body-points", "0", FRAY_ERR_RANGE, "between 1 and 999");
    d6_setup_free(s);
}

/* Where a combatant stands, its cover and its tactics (the firefight at
 * other distances: issue 18 "range bands"). */
Test(d6_load, vary_place_cover_and_tactics) {
    d6_setup *s = load_ok("examples/d6/firefight.yaml");
    int ra = find_c(s, "road-archer"), wc = find_c(s, "wall-crossbow");
    vary_ok(s, "road-archer.x", "150");
    vary_ok(s, "road-archer.y", "-20");
    cr_assert(s->c[ra].x == 150 && s->c[ra].y == -20);
    vary_ok(s, "wall-crossbow.cover", "full");
    cr_assert_eq(s->c[wc].cover, D6_COVER_FULL);
    vary_ok(s, "wall-crossbow.cover", "none");
    cr_assert_eq(s->c[wc].cover, D6_COVER_NONE);
    vary_ok(s, "road-archer.tactics", "melee");
    cr_assert_eq(s->c[ra].tactics, D6_TAC_MELEE);
    vary_ok(s, "road-archer.tactics", "ranged");
    cr_assert_eq(s->c[ra].tactics, D6_TAC_RANGED);
    vary_bad(s, "road-archer.x", "10001", FRAY_ERR_RANGE, "between -10000 and 10000");
    vary_bad(s, "road-archer.cover", "some", FRAY_ERR_PARSE,
             "expected one of none, quarter, half, three-quarters, full, got 'some'");
    d6_setup_free(s);
    s = load_ok("examples/d6/duel.yaml");
    vary_bad(s, "brand.tactics", "ranged", FRAY_ERR_INVALID,
             "Brand has no weapon with ranges in hand or carried");
    d6_setup_free(s);
}

/* health=body-points in a sweep needs every stat block's Body Points. */
Test(d6_load, vary_body_points_needs_them) {
    d6_setup *s = load_ok("examples/d6/duel.yaml");
    s->c[0].b.body_points = 0;
    vary_bad(s, "health", "body-points", FRAY_ERR_INVALID, "has no body-points");
    d6_setup_free(s);
}

/* docs/file-formats.md: JSON is YAML's flow style; the duel written in
 * JSON is the same setup as examples/d6/duel.yaml. */
Test(d6_load, json_reads_the_same) {
    d6_setup *y = load_ok("examples/d6/duel.yaml");
    d6_setup *j = load_ok("tests/data/d6/good_duel.json");
    cr_assert_eq(memcmp(y, j, sizeof *y), 0);
    d6_setup_free(y);
    d6_setup_free(j);
}

static void scope_is(const d6_setup *s, const char *key, const char *want) {
    char buf[256];
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(d6_vary_scope(s, key, buf, sizeof buf, &d), FRAY_OK, "%s: %s", key, d.message);
    cr_assert_str_eq(buf, want, "%s", key);
}

/* Whom a sweep's key changes (fray sim --vary, issue 15's report). */
Test(d6_load, vary_scope_says_whom_a_key_changes) {
    d6_setup *s = load_ok("examples/d6/firefight.yaml");
    scope_is(s, "health", "the whole encounter");
    scope_is(s, "rounds", "the whole encounter");
    scope_is(s, "road-archer.marksmanship", "archer on the road");
    scope_is(s, "road-archer.x", "archer on the road");
    scope_is(s, "bow.damage",
             "every combatant with bow in hand or carried: archer on the wall, archer on the road");
    scope_is(s, "thrown dagger.damage",
             "every combatant with thrown dagger in hand or carried: bandit in the ditch");
    scope_is(s, "net.damage", "every combatant with net in hand or carried: nobody");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(d6_vary_scope(s, "road-archr.x", NULL, 0, &d), FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "(did you mean 'road-archer'?)"), "%s", d.message);
    cr_assert_eq(d6_vary_scope(s, "bow.damage", NULL, 0, NULL), FRAY_OK, "a key alone");
    d6_setup_free(s);
}

/* The files a load read (ruleset.h load_files): the encounter first,
 * then each file it names, each once. */
Test(d6_load, load_files_lists_every_file_read) {
    fray__files files;
    memset(&files, 0, sizeof files);
    d6_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(d6_load_files(SRC "examples/d6/centaur.yaml", NULL, &s, &files, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(files.n, 3);
    cr_assert(strstr(files.path[0], "examples/d6/centaur.yaml"), "%s", files.path[0]);
    cr_assert(strstr(files.path[1], "data/d6/statblocks.yaml"), "%s", files.path[1]);
    cr_assert(strstr(files.path[2], "data/d6/weapons.yaml"), "%s", files.path[2]);
    fray__files_free(&files);
    d6_setup_free(s);
}

/* docs/file-formats.md "Every key is checked": every mapping takes notes,
 * the skills map too (notes is no skill). */
Test(d6_load, every_mapping_takes_notes) {
    const char *text =
        "fray: encounter\nrules: d6\nnotes: an encounter\n"
        "statblocks: [" FRAY_SOURCE_DIR "/data/d6/statblocks.yaml,\n"
        "  {name: Scout, agility: 3D, coordination: 3D, physique: 3D, intellect: 2D,\n"
        "   acumen: 2D, charisma: 2D, skills: {dodge: 4D, notes: a skill map}, notes: a block}]\n"
        "scene: {light: moonlit, notes: a scene}\n"
        "options: {notes: options}\n"
        "combatants:\n"
        "  - {id: a, statblock: Scout, side: A, at: [0, 0], notes: a combatant}\n"
        "  - {id: b, statblock: Fighter, side: B, at: [0, 2]}\n";
    char path[] = "/tmp/fray_d6_notes_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    cr_assert_geq(fputs(text, f), 0);
    cr_assert_eq(fclose(f), 0);
    d6_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = d6_load(path, NULL, &s, &d);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(st, FRAY_OK, "%d:%d: %s", d.line, d.column, d.message);
    const d6_block *b = &s->c[find_c(s, "a")].b;
    cr_assert_eq(b->has_skill, 1u << D6_SK_DODGE, "dodge alone");
    code_is(b->skill[D6_SK_DODGE], 4, 0, "dodge 4D");
    cr_assert_eq(b->weapon, -1, "unarmed");
    cr_assert_eq(s->light, 2, "moonlit: +2D");
    d6_setup_free(s);
}

/*
 * test_d6_load_bad.c - D6's files refused (src/rules/d6/load.c,
 * docs/file-formats.md "D6 files", "Errors"; issue 18 "fray check"): each
 * kind of bad input, in a weapons file, a stat-block file and an
 * encounter, is refused at the right file:line:column with a message in
 * rules words (a table of cases). The place expected is where the case's
 * token first appears in its text, so each case says both what is wrong
 * and where.
 */
#define _XOPEN_SOURCE 700 /* mkstemp */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "d6_int.h"

#define W_FILE FRAY_SOURCE_DIR "/data/d6/weapons.yaml"
#define S_FILE FRAY_SOURCE_DIR "/data/d6/statblocks.yaml"

#define WEAPONS "fray: weapons\nrules: d6\nweapons:\n"
#define BLOCKS "fray: statblocks\nrules: d6\ncatalog: [" W_FILE "]\nstatblocks:\n"
#define ATTRS "agility: 3D, coordination: 3D, physique: 3D, intellect: 2D, acumen: 2D, " \
              "charisma: 2D"
#define ENC "fray: encounter\nrules: d6\nname: t\nstatblocks: [" S_FILE "]\n"
#define TWO "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0]}\n" \
            "  - {id: b, name: B, statblock: Fighter, at: [2, 0]}\n"

typedef struct bad_case {
    const char *text;
    const char *token; /* where the error is: its first appearance */
    fray_status status;
    const char *says;
} bad_case;

static const bad_case cases[] = {
    /* ---- the file itself ---- */
    {"fray: weapons\nrules: d7\nweapons: []\n", "d7", FRAY_ERR_PARSE,
     "a D6 file says rules: d6"},
    {"fray: weapon\nrules: d6\n", "weapon\n", FRAY_ERR_PARSE,
     "expected one of encounter, statblocks, weapons for the kind of file (fray:), "
     "got 'weapon'"},
    {"fray: weapons\nrules: d6\nweapon: []\n", "weapon:", FRAY_ERR_PARSE,
     "unknown key 'weapon' in a weapons file (did you mean 'weapons'?)"},
    /* ---- weapons (D8 "Weapon") ---- */
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, rnage: 3/6/9}\n", "rnage",
     FRAY_ERR_PARSE, "unknown key 'rnage' in a weapon; expected one of: name, skill, damage, ranges, "},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4d6}\n", "4d6", FRAY_ERR_PARSE,
     "expected a damage code like 4D+1 or STR+1D for damage, got '4d6'"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: STRENGTH+1D}\n", "STRENGTH",
     FRAY_ERR_PARSE, "expected a damage code like 4D+1 or STR+1D for damage, got 'STRENGTH+1D'"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: STR+-1D}\n", "STR+-1D",
     FRAY_ERR_PARSE, "got 'STR+-1D'"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 31D}\n", "31D", FRAY_ERR_RANGE,
     "damage is at most 30D, got '31D'"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 0D}\n", "0D", FRAY_ERR_RANGE,
     "a weapon does some damage"},
    {WEAPONS "  - {name: x, skill: swords, damage: 4D}\n", "swords", FRAY_ERR_PARSE,
     "expected a skill for a weapon's skill (fighting, melee combat, dodge"},
    {WEAPONS "  - {name: x, damage: 4D}\n", "{name", FRAY_ERR_PARSE,
     "missing key 'skill' in a weapon"},
    {WEAPONS "  - {name: x, skill: dodge, damage: 4D}\n", "dodge", FRAY_ERR_PARSE,
     "a weapon attacks with fighting, melee combat, marksmanship or throwing, got 'dodge'"},
    {WEAPONS "  - {name: x, skill: marksmanship, damage: 4D}\n", "{name", FRAY_ERR_PARSE,
     "missing key 'ranges' in a marksmanship or throwing weapon"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, ranges: 3/6/9}\n", "3/6/9",
     FRAY_ERR_PARSE, "ranges are a marksmanship or throwing weapon's: melee combat reaches "
                     "Point Blank"},
    {WEAPONS "  - {name: x, skill: marksmanship, damage: 4D, ranges: 10/5/40}\n", "10/5/40",
     FRAY_ERR_RANGE, "Short, Medium and Long each reach at least as far as the one before, "
                     "got 5 after 10"},
    {WEAPONS "  - {name: x, skill: marksmanship, damage: 4D, ranges: 3-10-40}\n", "3-10-40",
     FRAY_ERR_PARSE, "ranges: expected Short/Medium/Long in meters like 3/10/40, got '3-10-40'"},
    {WEAPONS "  - {name: x, skill: marksmanship, damage: 4D, ranges: [3, 10]}\n", "[3, 10]",
     FRAY_ERR_PARSE, "ranges: expected three distances in meters"},
    {WEAPONS "  - {name: x, skill: marksmanship, damage: 4D, ranges: 0/10/40}\n", "0/10/40",
     FRAY_ERR_RANGE, "ranges: each distance is 1 to 10000 meters, got 0"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, hands: 3}\n", "3}",
     FRAY_ERR_RANGE, "a weapon's hands must be between 1 and 2, got 3"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, hands: 2, either-hand: true}\n",
     "true", FRAY_ERR_PARSE, "a two-handed weapon cannot be used in either hand (003:89)"},
    {WEAPONS "  - {name: x, skill: throwing, damage: 2D, ranges: 2/4/6, spiked: true}\n", "true",
     FRAY_ERR_PARSE, "spiked is an entangling weapon's (003:63)"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, quick-draw: maybe}\n", "maybe",
     FRAY_ERR_PARSE, "expected true or false for quick-draw (suitable for quick drawing, 003:95)"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, ready: 0}\n", "0}", FRAY_ERR_RANGE,
     "ready (actions to ready it, 003:101) must be between 1 and 10, got 0"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, unwieldy: 0}\n", "0}",
     FRAY_ERR_RANGE, "unwieldy (added to the combat difficulty, 003:131) must be between 1 and 30"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D, scale: 40}\n", "40",
     FRAY_ERR_RANGE, "a weapon's scale (003:108) must be between -30 and 30, got 40"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 4D}\n"
             "  - {name: X, skill: melee combat, damage: 4D}\n",
     "X,", FRAY_ERR_PARSE, "weapon 'X' is given twice"},
    {WEAPONS "armour:\n  - {name: leather, code: 1D+x}\n", "1D+x", FRAY_ERR_PARSE,
     "expected a die code like 3D or 4D+2 for an armour's code, got '1D+x'"},
    {WEAPONS "armour:\n  - {name: leather, code: 11D}\n", "11D", FRAY_ERR_RANGE,
     "an armour's code is at most 10D, got '11D'"},
    {WEAPONS "armour:\n  - {name: leather}\n", "{name", FRAY_ERR_PARSE,
     "missing key 'code' in an armour"},
    /* ---- stat blocks (D8 "Stat block") ---- */
    {BLOCKS "  - name: x\n    agilty: 3D\n", "agilty", FRAY_ERR_PARSE,
     "unknown key 'agilty' in a stat block (did you mean 'agility'?)"},
    {BLOCKS "  - {name: x, agility: 3D, coordination: 3D, intellect: 2D, acumen: 2D, "
            "charisma: 2D}\n",
     "{name", FRAY_ERR_PARSE, "missing key 'physique' in a stat block"},
    {BLOCKS "  - {name: x, agility: 3D, coordination: 3D, physique: 3d6, intellect: 2D, "
            "acumen: 2D, charisma: 2D}\n",
     "3d6", FRAY_ERR_PARSE, "expected a die code like 3D or 4D+2 for physique, got '3d6'"},
    {BLOCKS "  - {name: x, agility: 21D, coordination: 3D, physique: 3D, intellect: 2D, "
            "acumen: 2D, charisma: 2D}\n",
     "21D", FRAY_ERR_RANGE, "agility is at most 20D, got '21D'"},
    {BLOCKS "  - {name: x, agility: 0D, coordination: 3D, physique: 3D, intellect: 2D, "
            "acumen: 2D, charisma: 2D}\n",
     "0D", FRAY_ERR_RANGE, "agility is at least 0D+1, got '0D'"},
    {BLOCKS "  - {name: x, " ATTRS ", skills: {swordplay: 4D}}\n", "swordplay", FRAY_ERR_PARSE,
     "unknown skill 'swordplay'; known: fighting, melee combat"},
    {BLOCKS "  - {name: x, " ATTRS ", skills: {dodge: -1D}}\n", "-1D", FRAY_ERR_RANGE,
     "dodge cannot be below 0D, got '-1D'"},
    {BLOCKS "  - {name: x, " ATTRS ", skills: {dodge: 1D-4}}\n", "1D-4", FRAY_ERR_RANGE,
     "dodge cannot be below 0D, got '1D-4'"},
    {WEAPONS "armour:\n  - {name: leather, code: -1}\n", "-1", FRAY_ERR_RANGE,
     "an armour's code cannot be below 0D, got '-1'"},
    {WEAPONS "  - {name: x, skill: melee combat, damage: 30D+1}\n", "30D+1", FRAY_ERR_RANGE,
     "damage is at most 30D, got '30D+1'"},
    {BLOCKS "  - {name: x, " ATTRS ", skills: {dodge: 3D, Dodge: 4D}}\n", "Dodge",
     FRAY_ERR_PARSE, "skill 'dodge' is given twice"},
    {BLOCKS "  - {name: x, " ATTRS ", skills: [dodge]}\n", "[dodge]", FRAY_ERR_PARSE,
     "skills: expected a map from a skill to its die code"},
    {BLOCKS "  - {name: x, " ATTRS ", scale: 31}\n", "31", FRAY_ERR_RANGE,
     "scale (003:111-127: a horse 3, a rat -9) must be between -30 and 30, got 31"},
    {BLOCKS "  - {name: x, " ATTRS ", body-points: 0}\n", "0}", FRAY_ERR_RANGE,
     "body-points (the most Body Points) must be between 1 and 999, got 0"},
    {BLOCKS "  - {name: x, " ATTRS ", move: 101}\n", "101", FRAY_ERR_RANGE,
     "move (meters a round) must be between 0 and 100, got 101"},
    {BLOCKS "  - {name: x, " ATTRS ", weapon: sord}\n", "sord", FRAY_ERR_PARSE,
     "unknown weapon 'sord' (did you mean 'sword'?)"},
    {BLOCKS "  - {name: x, " ATTRS ", weapon: bow, off-hand: dagger}\n", "dagger}",
     FRAY_ERR_PARSE, "bow is two-handed: no hand is left for an off-hand weapon (003:89)"},
    {BLOCKS "  - {name: x, " ATTRS ", weapon: dagger, off-hand: sword}\n", "sword}",
     FRAY_ERR_PARSE, "an off-hand weapon is one-handed and usable in either hand (003:89): "
                     "sword is not"},
    {BLOCKS "  - {name: x, " ATTRS ", weapon: sword, carried: [dagger, dagger]}\n",
     "dagger]", FRAY_ERR_PARSE, "weapon 'dagger' is listed twice for x"},
    {BLOCKS "  - {name: x, " ATTRS ", armour: chainmail}\n", "chainmail", FRAY_ERR_PARSE,
     "unknown armour 'chainmail'"},
    {BLOCKS "  - {name: x, " ATTRS ", resistance: 2E}\n", "2E", FRAY_ERR_PARSE,
     "expected a die code like 3D or 4D+2 for resistance, got '2E'"},
    {BLOCKS "  - {name: x, " ATTRS ", trained-knockdown: 2}\n", "2}", FRAY_ERR_PARSE,
     "expected true or false for trained-knockdown"},
    {BLOCKS "  - {name: x, " ATTRS "}\n  - {name: X, " ATTRS "}\n", "X,", FRAY_ERR_PARSE,
     "stat block 'X' is given twice"},
    {"fray: statblocks\nrules: d6\ncatalog: [" S_FILE "]\nstatblocks: []\n", S_FILE,
     FRAY_ERR_PARSE, "expected a weapons file here, got fray: statblocks"},
    {"fray: statblocks\nrules: d6\nstatblocks:\n  - {name: x, " ATTRS ", weapon: sword}\n",
     "sword", FRAY_ERR_PARSE, "unknown weapon 'sword': no weapons are known"},
    /* ---- encounters (D8 "Encounter") ---- */
    {ENC "options: {helth: wounds}\n" TWO, "helth", FRAY_ERR_PARSE,
     "unknown key 'helth' in options (did you mean 'health'?)"},
    {ENC "options: {health: hp}\n" TWO, "hp", FRAY_ERR_PARSE,
     "expected one of wounds, body-points for health, got 'hp'"},
    {ENC "options: {wild-one: reroll}\n" TWO, "reroll", FRAY_ERR_PARSE,
     "expected one of cancel-highest, complication for wild-one"},
    {ENC "options: {modifiers: always}\n" TWO, "always", FRAY_ERR_PARSE,
     "expected one of standard, roll for modifiers"},
    {ENC "options: {modifier-wild-die: 2}\n" TWO, "2}", FRAY_ERR_PARSE,
     "expected one of no, yes for modifier-wild-die"},
    {ENC "options: {initiative: fastest}\n" TWO, "fastest", FRAY_ERR_PARSE,
     "expected one of round, scene, first-action for initiative"},
    {ENC "options: {damage-bonus: maybe}\n" TWO, "maybe", FRAY_ERR_PARSE,
     "expected one of no, yes for damage-bonus"},
    {ENC "scene: {light: dim}\n" TWO, "dim", FRAY_ERR_PARSE,
     "expected one of full, poor, moonlit, dark for the scene's light, got 'dim'"},
    {ENC "scene: {fog: thick}\n" TWO, "fog", FRAY_ERR_PARSE,
     "unknown key 'fog' in the scene; expected one of: light"},
    {ENC "rounds: 0\n" TWO, "0\n", FRAY_ERR_RANGE,
     "rounds (the time limit) must be between 1 and 10000, got 0"},
    {ENC "seed: -1\n" TWO, "-1", FRAY_ERR_PARSE, "expected a whole number from 0 for the seed"},
    {ENC "combatans: []\n", "combatans", FRAY_ERR_PARSE,
     "unknown key 'combatans' in an encounter (did you mean 'combatants'?)"},
    {ENC, "fray", FRAY_ERR_PARSE, "missing key 'combatants' in an encounter"},
    {ENC "combatants:\n  - {id: a, statblock: Figther, at: [0, 0]}\n", "Figther",
     FRAY_ERR_PARSE, "unknown stat block 'Figther' (did you mean 'Fighter'?)"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter}\n", "{id", FRAY_ERR_PARSE,
     "missing key 'at' in a combatant (where it stands: at: [x, y] in meters)"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [1]}\n", "[1]",
     FRAY_ERR_PARSE, "at: expected where it stands in meters, [x, y], got a list"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [20000, 0]}\n", "20000",
     FRAY_ERR_RANGE, "x (meters) must be between -10000 and 10000, got 20000"},
    {ENC "combatants:\n  - {id: A, name: A, statblock: Fighter, at: [0, 0]}\n", "A,",
     FRAY_ERR_PARSE, "an id is lower-case letters, digits, '-' and '_': got 'A'"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0]}\n"
         "  - {id: a, name: B, statblock: Fighter, at: [0, 0]}\n",
     "a, name: B", FRAY_ERR_PARSE, "combatant id 'a' is given twice"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0], cover: some}\n",
     "some", FRAY_ERR_PARSE,
     "expected one of none, quarter, half, three-quarters, full for the cover it stands in"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0], tactics: ranged}\n",
     "ranged", FRAY_ERR_PARSE, "tactics: ranged needs a weapon with ranges, and A has none"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0], tactics: sniper}\n",
     "sniper", FRAY_ERR_PARSE, "expected one of melee, ranged, grapple, wrestle for tactics"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0], side: X}\n"
         "  - {id: b, name: B, statblock: Fighter, at: [0, 0], side: X}\n",
     "- {id: a", FRAY_ERR_PARSE, "a fight needs at least two sides (got 1)"},
    {ENC "combatants:\n  - {id: a, statblock: Fighter, at: [0, 0], side: A}\n"
         "  - {id: b, statblock: Fighter, at: [0, 0], side: B}\n"
         "  - {id: c, statblock: Fighter, at: [0, 0], side: C}\n"
         "  - {id: d, statblock: Fighter, at: [0, 0], side: D}\n"
         "  - {id: e, statblock: Fighter, at: [0, 0], side: E}\n",
     "E}", FRAY_ERR_RANGE, "more than 4 sides"},
    {"fray: encounter\nrules: d6\noptions: {health: body-points}\nstatblocks: [" S_FILE
     ", {name: Ghost, " ATTRS "}]\n"
     "combatants:\n  - {id: a, statblock: Fighter, at: [0, 0]}\n"
     "  - {id: b, statblock: Ghost, at: [0, 0]}\n",
     "Ghost, at", FRAY_ERR_PARSE,
     "stat block 'Ghost' has no body-points, and the encounter counts Body Points"},
    {ENC "catalog: [" S_FILE "]\n" TWO, S_FILE "]\n" "comb", FRAY_ERR_PARSE,
     "expected a weapons file here, got fray: statblocks"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0], rides: b}\n",
     "rides", FRAY_ERR_PARSE, "unknown key 'rides' in a combatant"},
    /* ---- objects and the options of things.c (003:51-59, 003:5, core) ---- */
    {ENC TWO "objects:\n  - {id: door, toughness: solid}\n", "solid", FRAY_ERR_PARSE,
     "expected an object's toughness: flimsy, tough, sturdy, very sturdy, reinforced "
     "(003:55-59) or a die code like 2D+1, got 'solid'"},
    {ENC TWO "objects:\n  - {id: door, toughness: 0D}\n", "0D", FRAY_ERR_RANGE,
     "an object's toughness is 0D+1 to 30D, got '0D'"},
    {ENC TWO "objects:\n  - {id: door}\n", "{id: door", FRAY_ERR_PARSE, "toughness"},
    {ENC TWO "objects:\n  - {id: door, toughness: tough, covers: [c]}\n", "c]",
     FRAY_ERR_PARSE, "unknown combatant 'c'"},
    {ENC "combatants:\n  - {id: a, name: A, statblock: Fighter, at: [0, 0], cover: half}\n"
         "  - {id: b, name: B, statblock: Fighter, at: [2, 0]}\n"
         "objects:\n  - {id: door, toughness: tough, covers: [a]}\n",
     "a]", FRAY_ERR_PARSE, "A has its own cover in the combatants"},
    {ENC TWO "objects:\n  - {id: a, toughness: tough}\n", "a, tough", FRAY_ERR_PARSE,
     "the id 'a' is given twice"},
    {ENC TWO "objects:\n  - {id: door, toughness: tough, at: [1]}\n", "[1]", FRAY_ERR_PARSE,
     "at: expected where it stands in meters, [x, y]"},
    {ENC TWO "objects:\n  - {id: door, toughness: tough, cover: most}\n", "most",
     FRAY_ERR_PARSE, "for the cover it gives"},
    {ENC TWO "objects:\n  - {id: door, toughness: tough, hinges: 2}\n", "hinges",
     FRAY_ERR_PARSE, "unknown key 'hinges' in an object"},
    {ENC "options: {mortal-rolls: hours}\n" TWO, "hours", FRAY_ERR_PARSE,
     "expected one of no, minutes, rounds for mortal-rolls"},
    {ENC "options: {trick-difficulty: 0}\n" TWO, "0}", FRAY_ERR_RANGE,
     "trick-difficulty (an acrobatic trick's difficulty, 003:5)"},
    {ENC "options: {uncalled-location: head}\n" TWO, "head", FRAY_ERR_PARSE,
     "expected one of none, chest for uncalled-location"},
    {ENC "options: {location-threshold: some}\n" TWO, "some", FRAY_ERR_PARSE,
     "expected one of any, wounded for location-threshold"},
    {ENC "options: {tactics-run: maybe}\n" TWO, "maybe", FRAY_ERR_PARSE,
     "expected one of no, yes for tactics-run"},
    {ENC "options: {weapon-scale: some}\n" TWO, "some", FRAY_ERR_PARSE,
     "expected one of damage, all for weapon-scale"},
    {ENC "options: {escape-tie: nobody}\n" TWO, "nobody", FRAY_ERR_PARSE,
     "expected one of holder, escapee for escape-tie"},
    {ENC "options: {tactics-knockdown: often}\n" TWO, "often", FRAY_ERR_PARSE,
     "expected one of no, yes for tactics-knockdown"},
    /* ruling 70 (moved here from test_d6_ends.c: one table of bad values) */
    {ENC "options: {health: body-points, zero-body-points: asleep}\n" TWO, "asleep",
     FRAY_ERR_PARSE, "expected one of dead, unconscious for zero-body-points"},
};

static void write_file(const char *path_template, char *path, const char *text) {
    strcpy(path, path_template);
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    cr_assert_geq(fputs(text, f), 0);
    cr_assert_eq(fclose(f), 0);
}

/* Where token first appears in text, 1-based. */
static void place_of(const char *text, const char *token, int *line, int *col) {
    const char *at = strstr(text, token);
    cr_assert_not_null(at, "token '%s' not in the case", token);
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* D8 and issue 18: each bad input refused by fray check (d6_check) and by
 * a load (d6_load), at the token's line:column of the file at fault, with
 * its message in rules words. */
Test(d6_load_bad, each_bad_input_is_refused_where_it_is) {
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bad_case *c = &cases[k];
        char path[64];
        write_file("/tmp/fray_d6_bad_XXXXXX", path, c->text);
        int line, col;
        place_of(c->text, c->token, &line, &col);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status st = d6_check(path, &d);
        fray_diag d2;
        memset(&d2, 0, sizeof d2);
        d6_setup *s = (d6_setup *)1;
        fray_status st2 = d6_load(path, NULL, &s, &d2);
        cr_assert_eq(unlink(path), 0);
        cr_assert_eq(st, c->status, "case %zu: status %d: %d:%d: %s", k, (int)st, d.line,
                     d.column, d.message);
        cr_assert_eq(st2, st, "case %zu: load and check agree", k);
        cr_assert_null(s, "case %zu", k);
        cr_assert(d.file && strcmp(d.file, path) == 0 && !d.file_name[0],
                  "case %zu: the error is in the file checked", k);
        cr_assert(d.line == line && d.column == col, "case %zu: at %d:%d, expected %d:%d (%s)",
                  k, d.line, d.column, line, col, d.message);
        cr_assert(strstr(d.message, c->says), "case %zu: '%s' does not say '%s'", k, d.message,
                  c->says);
        cr_assert_str_eq(d2.message, d.message, "case %zu", k);
    }
}

/* The limits (D6_MAX_*) refused in words: 33 weapons, 33 stat blocks, 33
 * combatants. */
Test(d6_load_bad, limits_are_refused_in_words) {
    static char text[16384];
    /* weapons */
    int n = snprintf(text, sizeof text, WEAPONS);
    for (int i = 0; i <= D6_MAX_WEAPONS; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "  - {name: w%d, skill: fighting, damage: 1D}\n", i);
    char path[64];
    write_file("/tmp/fray_d6_lim_XXXXXX", path, text);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = d6_check(path, &d);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(st, FRAY_ERR_RANGE);
    cr_assert_str_eq(d.message, "more than 32 weapons");
    cr_assert_eq(d.line, 4 + D6_MAX_WEAPONS);
    /* stat blocks */
    n = snprintf(text, sizeof text, BLOCKS);
    for (int i = 0; i <= D6_MAX_SB; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "  - {name: b%d, " ATTRS "}\n", i);
    write_file("/tmp/fray_d6_lim_XXXXXX", path, text);
    memset(&d, 0, sizeof d);
    st = d6_check(path, &d);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(st, FRAY_ERR_RANGE);
    cr_assert_str_eq(d.message, "more than 32 stat blocks");
    cr_assert_eq(d.line, 5 + D6_MAX_SB);
    /* combatants */
    n = snprintf(text, sizeof text, ENC "combatants:\n");
    for (int i = 0; i <= D6_MAX_C; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "  - {id: c%d, statblock: Fighter, side: S%d, at: [0, %d]}\n", i, i % 2,
                      i);
    write_file("/tmp/fray_d6_lim_XXXXXX", path, text);
    memset(&d, 0, sizeof d);
    st = d6_check(path, &d);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(st, FRAY_ERR_RANGE);
    cr_assert_str_eq(d.message, "more than 32 combatants");
    cr_assert_eq(d.line, 6 + D6_MAX_C);
}

/* An error in a file another names is placed in that file
 * (diag->file_name), and a missing file named is blamed on the name. */
Test(d6_load_bad, errors_in_named_files_name_them) {
    char wpath[64], epath[64], text[1024];
    write_file("/tmp/fray_d6_w_XXXXXX", wpath,
               "fray: weapons\nrules: d6\nweapons:\n  - {name: x, skill: fighting, damage: 1E}\n");
    snprintf(text, sizeof text,
             "fray: encounter\nrules: d6\ncatalog: [%s]\n"
             "statblocks: [{name: x, " ATTRS ", weapon: x}]\n"
             "combatants:\n  - {id: a, statblock: x, at: [0, 0]}\n"
             "  - {id: b, statblock: x, at: [0, 0]}\n",
             wpath);
    write_file("/tmp/fray_d6_e_XXXXXX", epath, text);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = d6_check(epath, &d);
    cr_assert_eq(st, FRAY_ERR_PARSE, "%s", d.message);
    cr_assert_str_eq(d.file_name, wpath);
    cr_assert(d.line == 4 && d.column == 40, "%d:%d", d.line, d.column);
    cr_assert(strstr(d.message, "got '1E'"), "%s", d.message);
    cr_assert_eq(unlink(wpath), 0);
    memset(&d, 0, sizeof d);
    st = d6_check(epath, &d);
    cr_assert_eq(unlink(epath), 0);
    cr_assert_neq(st, FRAY_OK, "the weapons file is gone");
    cr_assert_eq(d.line, 3, "blamed on the catalog line: %s", d.message);
}

/* The errors docs/file-formats.md "D6 files" shows, from the files in
 * tests/data/d6/ (the CLI's goldens may use them too). */
Test(d6_load_bad, the_documented_errors) {
    static const struct {
        const char *file;
        int line, col;
        const char *message;
    } docs[] = {
        {"bad_key.yaml", 6, 5, "unknown key 'agilty' in a stat block (did you mean 'agility'?)"},
        {"bad_code.yaml", 7, 15, "expected a die code like 3D or 4D+2 for physique, got '3d6'"},
        {"bad_range.yaml", 4, 62,
         "ranges: Short, Medium and Long each reach at least as far as the one before, got 10 "
         "after 20"},
        {"bad_option.yaml", 4, 23,
         "expected one of round, scene, first-action for initiative, got 'fastest'"},
    };
    for (size_t k = 0; k < sizeof docs / sizeof docs[0]; k++) {
        char path[1024];
        snprintf(path, sizeof path, FRAY_SOURCE_DIR "/tests/data/d6/%s", docs[k].file);
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_neq(d6_check(path, &d), FRAY_OK, "%s", docs[k].file);
        cr_assert(d.line == docs[k].line && d.column == docs[k].col, "%s: %d:%d",
                  docs[k].file, d.line, d.column);
        cr_assert_str_eq(d.message, docs[k].message, "%s", docs[k].file);
    }
}

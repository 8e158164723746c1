/*
 * load.c - the D6 ruleset's files (docs/file-formats.md "D6 files"): a
 * catalog of weapons and armour, stat blocks, encounters; fray check; the
 * setup's copy and the sweeps' keys (vary).
 *
 * Read with the shared YAML reader (src/encounter/yaml_read.h): every
 * error is file:line:column with what was expected, in rules words, and
 * an unknown key is named with the keys there are.
 *
 * A setup remembers the allocator it was made with (d6_setup.alloc;
 * zeroed: malloc), so d6_setup_free also frees a zeroed setup from malloc.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "d6_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "yaml_read.h"

enum { DL_MAX_FILES = 16 };

/* What a file is (fray:). */
enum { DL_ENCOUNTER, DL_STATBLOCKS, DL_WEAPONS };
static const char *const kind_words[] = {"encounter", "statblocks", "weapons"};

/* The limits of numbers in files. */
enum {
    DL_MAX_ATTR_DICE = 20,
    DL_MAX_SKILL_DICE = 30,
    DL_MAX_DAMAGE_DICE = 30,
    DL_MAX_ARMOUR_DICE = 10,
    DL_MAX_RANGE = 10000,  /* meters */
    DL_MAX_AT = 10000,     /* |x|, |y| in meters */
    DL_MAX_SCALE = 30,
    DL_MAX_ROUNDS = 10000,
    DL_DEFAULT_ROUNDS = 20,
    DL_DEFAULT_MOVE = 10   /* meters a round: a human's (core) */
};

typedef struct dl {
    yr r;
    d6_setup *s;
    int n_blocks;
    d6_block blocks[D6_MAX_SB];
    int n_files;
    char *files[DL_MAX_FILES]; /* real paths read (each once) */
} dl;

#define FAIL(L, at, ...) yr_fail(&(L)->r, (at), FRAY_ERR_PARSE, __VA_ARGS__)
#define FAIL_RANGE(L, at, ...) yr_fail(&(L)->r, (at), FRAY_ERR_RANGE, __VA_ARGS__)

/* ---- Words --------------------------------------------------------------- */

static const char *const attr_words[D6_ATTRS] = {
    "agility", "coordination", "physique", "intellect", "acumen", "charisma"};

static const char *const skill_words[D6_SKILLS] = {
    "fighting", "melee combat", "dodge", "acrobatics", "marksmanship",
    "throwing", "lifting", "running", "stamina", "mettle", "search",
    "command"};

/* A skill by its words, without case, '-' or '_' standing for a space. */
static int find_skill(const char *w) {
    for (int k = 0; k < D6_SKILLS; k++) {
        const char *a = w, *b = skill_words[k];
        for (; *a && *b; a++, b++) {
            char x = *a, y = *b;
            if (x >= 'A' && x <= 'Z')
                x = (char)(x - 'A' + 'a');
            if (x == '-' || x == '_')
                x = ' ';
            if (x != y)
                break;
        }
        if (!*a && !*b)
            return k;
    }
    return -1;
}

static const char *const health_words[] = {"wounds", "body-points"};
static const char *const wild_words[] = {"cancel-highest", "complication"};
static const char *const modifier_words[] = {"standard", "roll"};
static const char *const yesno_words[] = {"no", "yes"};
static const char *const init_words[] = {"round", "scene", "first-action"};
static const char *const light_words[] = {"full", "poor", "moonlit", "dark"};
static const uint8_t light_dice[] = {0, 1, 2, 4};
static const char *const cover_words[] = {"none", "quarter", "half",
                                          "three-quarters", "full"};
static const char *const tactics_words[] = {"melee", "ranged", "grapple", "wrestle"};
static const char *const escape_tie_words[] = {"holder", "escapee"};

/* The options (docs/file-formats.md "D6 files"), in the order of d6_options. */
enum { OPT_HEALTH, OPT_WILD_ONE, OPT_MODIFIERS, OPT_MODIFIER_WILD,
       OPT_INITIATIVE, OPT_DAMAGE_BONUS, OPT_WEAPON_SCALE, OPT_ESCAPE_TIE,
       OPT_TACTICS_KNOCKDOWN, OPT_MORTAL_ROLLS, OPT_TACTICS_RUN, OPT_UNCALLED,
       OPT_LOCATION_THRESHOLD, OPT_ZERO_BP, N_OPTS };
/* things.c's options (rulings 33, 34, 55, 56) */
static const char *const mortal_words[] = {"no", "minutes", "rounds"};
static const char *const uncalled_words[] = {"none", "chest"};
static const char *const threshold_words[] = {"any", "wounded"};
static const char *const wscale_words[] = {"damage", "all"};
static const char *const zero_bp_words[] = {"dead", "unconscious"}; /* ruling 70 */
static const struct {
    const char *key;
    const char *const *words;
    int n;
} opt_table[N_OPTS] = {
    {"health", health_words, 2},
    {"wild-one", wild_words, 2},
    {"modifiers", modifier_words, 2},
    {"modifier-wild-die", yesno_words, 2},
    {"initiative", init_words, 3},
    {"damage-bonus", yesno_words, 2},
    {"weapon-scale", wscale_words, 2},
    {"escape-tie", escape_tie_words, 2}, /* grabs.c (D7.14) */
    {"tactics-knockdown", yesno_words, 2}, /* options.c (003:8) */
    {"mortal-rolls", mortal_words, 3},     /* things.c (core) */
    {"tactics-run", yesno_words, 2},       /* things.c (core running) */
    {"uncalled-location", uncalled_words, 2}, /* things.c (D7.10) */
    {"location-threshold", threshold_words, 2}, /* things.c (D7.9) */
    {"zero-body-points", zero_bp_words, 2},     /* ruling 70 */
};

static void opt_set(d6_options *o, int k, int v) {
    switch (k) {
    case OPT_HEALTH: o->health = (uint8_t)v; break;
    case OPT_WILD_ONE: o->wild_one = (uint8_t)v; break;
    case OPT_MODIFIERS: o->modifiers_roll = v != 0; break;
    case OPT_MODIFIER_WILD: o->modifier_wild = v != 0; break;
    case OPT_INITIATIVE: o->initiative = (uint8_t)v; break;
    case OPT_WEAPON_SCALE: o->weapon_scale = (uint8_t)v; break;
    case OPT_ESCAPE_TIE: o->escape_tie_escapee = v != 0; break;
    case OPT_TACTICS_KNOCKDOWN: o->tactics_knockdown = v != 0; break;
    case OPT_MORTAL_ROLLS: o->mortal_rolls = (uint8_t)v; break;
    case OPT_TACTICS_RUN: o->tactics_run = v != 0; break;
    case OPT_UNCALLED: o->uncalled_chest = v != 0; break;
    case OPT_LOCATION_THRESHOLD: o->location_wounded = v != 0; break;
    case OPT_ZERO_BP: o->zero_bp_unconscious = v != 0; break;
    default: o->damage_bonus = v != 0; break;
    }
}

/* ---- Die codes ----------------------------------------------------------- */


/* A code's value in pips (1D = 3). */
static long pips_of(d6_code c) { return (long)c.dice * 3 + c.pips; }

/* A die code from 0 (or min) up to max_dice D, named `what` in errors. */
static fray_status code_of(dl *L, const yn *v, const char *what, int max_dice,
                           bool nonzero, d6_code *out) {
    char b[64];
    if (!v || v->type != YN_SCALAR || yr_is_null(v))
        return FAIL(L, v, "expected a die code like 3D or 4D+2 for %s, got %s", what,
                    yr_got(v, b));
    d6_code c;
    if (!d6_code_parse(v->text, &c))
        return FAIL(L, v, "expected a die code like 3D or 4D+2 for %s, got '%.20s'", what,
                    v->text);
    if (pips_of(c) < 0)
        return FAIL_RANGE(L, v, "%s cannot be below 0D, got '%.20s'", what, v->text);
    if (pips_of(c) > max_dice * 3L)
        return FAIL_RANGE(L, v, "%s is at most %dD, got '%.20s'", what, max_dice, v->text);
    if (nonzero && pips_of(c) == 0)
        return FAIL_RANGE(L, v, "%s is at least 0D+1, got '%.20s'", what, v->text);
    *out = c;
    return FRAY_OK;
}

/* "STR+1D", "STR", "STR+2", "4D+1" (sets strength for the first three). */
static bool parse_damage(const char *text, d6_code *out, bool *strength) {
    if ((text[0] == 'S' || text[0] == 's') && (text[1] == 'T' || text[1] == 't') &&
        (text[2] == 'R' || text[2] == 'r')) {
        *strength = true;
        if (!text[3]) {
            out->dice = out->pips = 0;
            return true;
        }
        if (text[3] != '+')
            return false;
        return d6_code_parse(text + 4, out) && text[4] != '+' && text[4] != '-';
    }
    *strength = false;
    return d6_code_parse(text, out);
}

static fray_status damage_of(dl *L, const yn *v, d6_weapon *w) {
    char b[64];
    if (!v || v->type != YN_SCALAR || yr_is_null(v))
        return FAIL(L, v, "expected a damage code like 4D+1 or STR+1D for damage, got %s",
                    yr_got(v, b));
    if (!parse_damage(v->text, &w->damage, &w->strength))
        return FAIL(L, v, "expected a damage code like 4D+1 or STR+1D for damage, got '%.20s'",
                    v->text);
    if (pips_of(w->damage) < 0)
        return FAIL_RANGE(L, v, "damage cannot be below 0D, got '%.20s'", v->text);
    if (pips_of(w->damage) > DL_MAX_DAMAGE_DICE * 3L)
        return FAIL_RANGE(L, v, "damage is at most %dD, got '%.20s'", DL_MAX_DAMAGE_DICE,
                          v->text);
    if (!w->strength && pips_of(w->damage) == 0)
        return FAIL_RANGE(L, v, "a weapon does some damage: at least 0D+1 or STR, got '%.20s'",
                          v->text);
    return FRAY_OK;
}

/* ---- Helpers ----------------------------------------------------------- */

/* "dir/of/file.yaml" + "name" */
static char *join(dl *L, const char *from, const char *name) {
    if (name[0] == '/')
        return yr_strndup(&L->r, name, strlen(name));
    const char *slash = strrchr(from, '/');
    size_t d = slash ? (size_t)(slash - from) + 1 : 0;
    size_t n = strlen(name);
    char *p = yr_alloc(&L->r, d + n + 1);
    if (!p)
        return NULL;
    memcpy(p, from, d);
    memcpy(p + d, name, n + 1);
    return p;
}

static fray_status get_int(dl *L, const yn *map, const char *key, const char *what,
                           long lo, long hi, int def, int *out) {
    const yn *v = yr_get(map, key);
    if (!v) {
        *out = def;
        return FRAY_OK;
    }
    return yr_int(&L->r, v, what, lo, hi, out);
}

static fray_status get_bool(dl *L, const yn *map, const char *key, const char *what,
                            bool *out) {
    const yn *v = yr_get(map, key);
    if (!v)
        return FRAY_OK;
    return yr_bool(&L->r, v, what, out);
}

static int find_weapon(const d6_setup *s, const char *name) {
    for (int i = 0; i < s->n_weapons; i++)
        if (yr_ieq(s->w[i].name, name))
            return i;
    return -1;
}

static int find_armour(const d6_setup *s, const char *name) {
    for (int i = 0; i < s->n_armour; i++)
        if (yr_ieq(s->ar[i].name, name))
            return i;
    return -1;
}

static int find_combatant(const d6_setup *s, const char *word) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->c[i].id, word) == 0)
            return i;
    return -1;
}

static bool is_ranged(const d6_weapon *w) { return w->range[2] > 0; }

/* A weapon with ranges in hand, in the other hand or carried. */
static bool has_ranged(const d6_setup *s, const d6_block *b) {
    for (int i = 0; i < s->n_weapons; i++)
        if (is_ranged(&s->w[i]) &&
            (i == b->weapon || i == b->off_hand || (b->carried & (1u << i))))
            return true;
    return false;
}

/* A weapon of the catalogs by name, or an error listing the weapons. */
static fray_status weapon_named(dl *L, const yn *v, const char *what, int *out) {
    char w[D6_NAME];
    fray_status st = yr_text(&L->r, v, what, w, sizeof w);
    if (st != FRAY_OK)
        return st;
    int wi = find_weapon(L->s, w);
    if (wi < 0) {
        const char *names[D6_MAX_WEAPONS];
        for (int i = 0; i < L->s->n_weapons; i++)
            names[i] = L->s->w[i].name;
        return yr_unknown(&L->r, v, "weapon", w, names, L->s->n_weapons,
                          "no weapons are known: name a weapons file in catalog");
    }
    *out = wi;
    return FRAY_OK;
}

/* ---- Weapons and armour -------------------------------------------------- */

/* "3/10/40" or [3, 10, 40]: Short, Medium, Long maxima in meters. */
static fray_status ranges_of(dl *L, const yn *v, d6_weapon *w) {
    long r[3];
    char b[64];
    if (v->type == YN_SEQ) {
        if (v->n != 3)
            return FAIL(L, v, "ranges: expected three distances in meters (Short, Medium, "
                              "Long), got %d", v->n);
        const yn *it = v->first;
        for (int i = 0; i < 3; i++, it = it->next)
            if (it->type != YN_SCALAR || !yr_node_long(it, &r[i]))
                return FAIL(L, it, "ranges: expected a whole number of meters, got %s",
                            yr_got(it, b));
    } else if (v->type == YN_SCALAR && !yr_is_null(v)) {
        const char *p = v->text;
        for (int i = 0; i < 3; i++) {
            char *end;
            if (*p < '0' || *p > '9')
                goto bad;
            r[i] = strtol(p, &end, 10);
            p = end;
            if (i < 2 && *p++ != '/')
                goto bad;
        }
        if (*p)
            goto bad;
    } else {
        return FAIL(L, v, "ranges: expected Short/Medium/Long in meters like 3/10/40, got %s",
                    yr_got(v, b));
    }
    for (int i = 0; i < 3; i++) {
        if (r[i] < 1 || r[i] > DL_MAX_RANGE)
            return FAIL_RANGE(L, v, "ranges: each distance is 1 to %d meters, got %ld",
                              DL_MAX_RANGE, r[i]);
        if (i && r[i] < r[i - 1])
            return FAIL_RANGE(L, v, "ranges: Short, Medium and Long each reach at least as far "
                                    "as the one before, got %ld after %ld", r[i], r[i - 1]);
        w->range[i] = (int16_t)r[i];
    }
    return FRAY_OK;
bad:
    return FAIL(L, v, "ranges: expected Short/Medium/Long in meters like 3/10/40, got '%.20s'",
                v->text);
}

static fray_status read_weapon(dl *L, const yn *it) {
    static const char *const keys[] = {"name", "skill", "damage", "ranges", "length-cm",
                                       "hands", "either-hand", "quick-draw", "ready",
                                       "blunt", "entangling", "spiked", "unwieldy",
                                       "scale", "notes"};
    char b[64];
    if (it->type != YN_MAP)
        return FAIL(L, it, "expected a weapon (a mapping with name, skill, damage), got %s",
                    yr_got(it, b));
    fray_status st = yr_keys(&L->r, it, "a weapon", keys, (int)(sizeof keys / sizeof keys[0]),
                             false);
    if (st != FRAY_OK)
        return st;
    d6_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "a weapon");
    d6_weapon w;
    memset(&w, 0, sizeof w);
    if ((st = yr_text(&L->r, nm, "a weapon's name", w.name, sizeof w.name)) != FRAY_OK)
        return st;
    if (find_weapon(s, w.name) >= 0)
        return FAIL(L, nm, "weapon '%.40s' is given twice", w.name);
    if (s->n_weapons >= D6_MAX_WEAPONS)
        return FAIL_RANGE(L, nm, "more than %d weapons", D6_MAX_WEAPONS);
    const yn *sv = yr_get(it, "skill");
    if (!sv)
        return yr_missing(&L->r, it, "skill", "a weapon (the skill it attacks with)");
    if (sv->type != YN_SCALAR || yr_is_null(sv) || find_skill(sv->text) < 0) {
        char list[256];
        return FAIL(L, sv, "expected a skill for a weapon's skill (%s), got %s",
                    yr_join_names(list, sizeof list, skill_words, D6_SKILLS), yr_got(sv, b));
    }
    w.skill = (uint8_t)find_skill(sv->text);
    bool missile = w.skill == D6_SK_MARKSMANSHIP || w.skill == D6_SK_THROWING;
    if (!missile && w.skill != D6_SK_FIGHTING && w.skill != D6_SK_MELEE)
        return FAIL(L, sv, "a weapon attacks with fighting, melee combat, marksmanship or "
                           "throwing, got '%.40s'", sv->text);
    const yn *dv = yr_get(it, "damage");
    if (!dv)
        return yr_missing(&L->r, it, "damage", "a weapon");
    if ((st = damage_of(L, dv, &w)) != FRAY_OK)
        return st;
    const yn *rv = yr_get(it, "ranges");
    if (rv && !missile)
        return FAIL(L, rv, "ranges are a marksmanship or throwing weapon's: %s reaches Point "
                           "Blank (Short when longer than 2 m: length-cm)", skill_words[w.skill]);
    if (!rv && missile)
        return yr_missing(&L->r, it, "ranges", "a marksmanship or throwing weapon (Short, "
                                               "Medium and Long in meters)");
    if (rv && (st = ranges_of(L, rv, &w)) != FRAY_OK)
        return st;
    int x = 0;
    if ((st = get_int(L, it, "length-cm", "a weapon's length-cm", 1, 1000, 0, &x)) != FRAY_OK)
        return st;
    w.length_cm = (int16_t)x;
    if ((st = get_int(L, it, "hands", "a weapon's hands", 1, 2, 1, &x)) != FRAY_OK)
        return st;
    w.hands = (uint8_t)x;
    if ((st = get_bool(L, it, "either-hand", "either-hand (usable in either hand, 003:89)",
                       &w.either_hand)) != FRAY_OK ||
        (st = get_bool(L, it, "quick-draw", "quick-draw (suitable for quick drawing, 003:95)",
                       &w.quick_draw)) != FRAY_OK ||
        (st = get_bool(L, it, "blunt", "blunt (003:8)", &w.blunt)) != FRAY_OK ||
        (st = get_bool(L, it, "entangling", "entangling (003:63)", &w.entangling)) != FRAY_OK ||
        (st = get_bool(L, it, "spiked", "spiked (003:63)", &w.spiked)) != FRAY_OK)
        return st;
    if (w.either_hand && w.hands == 2)
        return FAIL(L, yr_get(it, "either-hand"),
                    "a two-handed weapon cannot be used in either hand (003:89)");
    if (w.spiked && !w.entangling)
        return FAIL(L, yr_get(it, "spiked"),
                    "spiked is an entangling weapon's (003:63): give it entangling: true");
    if ((st = get_int(L, it, "ready", "ready (actions to ready it, 003:101)", 1, 10, 1, &x)) !=
        FRAY_OK)
        return st;
    w.ready_actions = (uint8_t)x;
    if ((st = get_int(L, it, "unwieldy", "unwieldy (added to the combat difficulty, 003:131)",
                      1, 30, 0, &x)) != FRAY_OK)
        return st;
    w.unwieldy = (int8_t)x;
    const yn *scv = yr_get(it, "scale");
    if (scv) {
        if ((st = yr_int(&L->r, scv, "a weapon's scale (003:108)", -DL_MAX_SCALE,
                         DL_MAX_SCALE, &x)) != FRAY_OK)
            return st;
        w.has_scale = true;
        w.scale = (int8_t)x;
    }
    s->w[s->n_weapons++] = w;
    return FRAY_OK;
}

static fray_status read_armour(dl *L, const yn *it) {
    static const char *const keys[] = {"name", "code", "notes"};
    char b[64];
    if (it->type != YN_MAP)
        return FAIL(L, it, "expected an armour (a mapping with name and code), got %s",
                    yr_got(it, b));
    fray_status st = yr_keys(&L->r, it, "an armour", keys, 3, false);
    if (st != FRAY_OK)
        return st;
    d6_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "an armour");
    d6_armour a;
    memset(&a, 0, sizeof a);
    if ((st = yr_text(&L->r, nm, "an armour's name", a.name, sizeof a.name)) != FRAY_OK)
        return st;
    if (find_armour(s, a.name) >= 0)
        return FAIL(L, nm, "armour '%.40s' is given twice", a.name);
    if (s->n_armour >= D6_MAX_ARMOUR)
        return FAIL_RANGE(L, nm, "more than %d armours", D6_MAX_ARMOUR);
    const yn *cv = yr_get(it, "code");
    if (!cv)
        return yr_missing(&L->r, it, "code", "an armour (its die code, added to resistance)");
    if ((st = code_of(L, cv, "an armour's code", DL_MAX_ARMOUR_DICE, false, &a.code)) !=
        FRAY_OK)
        return st;
    s->ar[s->n_armour++] = a;
    return FRAY_OK;
}

/* ---- Stat blocks ------------------------------------------------------- */

static fray_status read_block(dl *L, const yn *it) {
    static const char *const keys[] = {
        "name", "agility", "coordination", "physique", "intellect", "acumen",
        "charisma", "skills", "move", "body-points", "resistance", "scale",
        "weapon", "off-hand", "armour", "carried", "trained-knockdown", "notes",
        "lightly-built"};
    char b[64];
    if (it->type != YN_MAP)
        return FAIL(L, it, "expected a stat block (a mapping with name and the six "
                           "attributes), got %s", yr_got(it, b));
    fray_status st = yr_keys(&L->r, it, "a stat block", keys,
                             (int)(sizeof keys / sizeof keys[0]), false);
    if (st != FRAY_OK)
        return st;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "a stat block");
    d6_block bl;
    memset(&bl, 0, sizeof bl);
    if ((st = yr_text(&L->r, nm, "a stat block's name", bl.name, sizeof bl.name)) != FRAY_OK)
        return st;
    for (int i = 0; i < L->n_blocks; i++)
        if (yr_ieq(L->blocks[i].name, bl.name))
            return FAIL(L, nm, "stat block '%.40s' is given twice", bl.name);
    if (L->n_blocks >= D6_MAX_SB)
        return FAIL_RANGE(L, nm, "more than %d stat blocks", D6_MAX_SB);
    for (int a = 0; a < D6_ATTRS; a++) {
        const yn *v = yr_get(it, attr_words[a]);
        if (!v)
            return yr_missing(&L->r, it, attr_words[a],
                              "a stat block (the six attributes as die codes)");
        if ((st = code_of(L, v, attr_words[a], DL_MAX_ATTR_DICE, true, &bl.attr[a])) != FRAY_OK)
            return st;
    }
    const yn *sk = yr_get(it, "skills");
    if (sk && !yr_is_null(sk)) {
        if (sk->type != YN_MAP)
            return FAIL(L, sk, "skills: expected a map from a skill to its die code "
                               "(skills: {dodge: 4D}), got %s", yr_got(sk, b));
        for (const yn *k = sk->first; k; k = k->next) {
            if (k->type == YN_SCALAR && strcmp(k->text, "notes") == 0)
                continue; /* every mapping takes notes */
            int s = k->type == YN_SCALAR ? find_skill(k->text) : -1;
            if (s < 0)
                return yr_unknown(&L->r, k, "skill", k->type == YN_SCALAR ? k->text : "?",
                                  skill_words, D6_SKILLS, NULL);
            if (bl.has_skill & (1u << s))
                return FAIL(L, k, "skill '%s' is given twice", skill_words[s]);
            if ((st = code_of(L, k->value, skill_words[s], DL_MAX_SKILL_DICE, true,
                              &bl.skill[s])) != FRAY_OK)
                return st;
            bl.has_skill |= 1u << s;
        }
    }
    int x = 0;
    if ((st = get_int(L, it, "move", "move (meters a round)", 0, 100, DL_DEFAULT_MOVE, &x)) !=
        FRAY_OK)
        return st;
    bl.move = (int16_t)x;
    if ((st = get_int(L, it, "body-points", "body-points (the most Body Points)", 1, 999, 0,
                      &x)) != FRAY_OK)
        return st;
    bl.body_points = (int16_t)x;
    const yn *v = yr_get(it, "resistance");
    if (v && (st = code_of(L, v, "resistance", DL_MAX_ARMOUR_DICE, false, &bl.resistance)) !=
                 FRAY_OK)
        return st;
    if ((st = get_int(L, it, "scale", "scale (003:111-127: a horse 3, a rat -9)",
                      -DL_MAX_SCALE, DL_MAX_SCALE, 0, &x)) != FRAY_OK)
        return st;
    bl.scale = (int8_t)x;
    bl.weapon = bl.off_hand = bl.armour = -1;
    int wi;
    if ((v = yr_get(it, "weapon"))) {
        if ((st = weapon_named(L, v, "weapon", &wi)) != FRAY_OK)
            return st;
        bl.weapon = (int8_t)wi;
    }
    if ((v = yr_get(it, "off-hand"))) {
        if ((st = weapon_named(L, v, "off-hand", &wi)) != FRAY_OK)
            return st;
        const d6_weapon *w = &L->s->w[wi];
        if (bl.weapon >= 0 && L->s->w[bl.weapon].hands == 2)
            return FAIL(L, v, "%.40s is two-handed: no hand is left for an off-hand weapon "
                              "(003:89)", L->s->w[bl.weapon].name);
        if (w->hands == 2 || !w->either_hand)
            return FAIL(L, v, "an off-hand weapon is one-handed and usable in either hand "
                              "(003:89): %.40s is not (either-hand: true)", w->name);
        bl.off_hand = (int8_t)wi;
    }
    if ((v = yr_get(it, "carried")) && !yr_is_null(v)) {
        for (const yn *e = yr_items(v); e; e = yr_next_item(v, e)) {
            if ((st = weapon_named(L, e, "carried", &wi)) != FRAY_OK)
                return st;
            uint32_t bit = 1u << wi;
            if (wi == bl.weapon || wi == bl.off_hand || (bl.carried & bit))
                return FAIL(L, e, "weapon '%.40s' is listed twice for %.40s (in hand or "
                                  "carried)", L->s->w[wi].name, bl.name);
            bl.carried |= bit;
        }
    }
    if ((v = yr_get(it, "armour"))) {
        char a[D6_NAME];
        if ((st = yr_text(&L->r, v, "armour", a, sizeof a)) != FRAY_OK)
            return st;
        int ai = find_armour(L->s, a);
        if (ai < 0) {
            const char *names[D6_MAX_ARMOUR];
            for (int i = 0; i < L->s->n_armour; i++)
                names[i] = L->s->ar[i].name;
            return yr_unknown(&L->r, v, "armour", a, names, L->s->n_armour,
                              "no armour is known: name a weapons file with armour in catalog");
        }
        bl.armour = (int8_t)ai;
    }
    if ((st = get_bool(L, it, "trained-knockdown",
                       "trained-knockdown (may knock down a stronger foe, 003:8)",
                       &bl.trained_knockdown)) != FRAY_OK)
        return st;
    if ((st = get_bool(L, it, "lightly-built",
                       "lightly-built (no scale on its damage resistance, 003:107)",
                       &bl.lightly_built)) != FRAY_OK)
        return st;
    L->blocks[L->n_blocks++] = bl;
    return FRAY_OK;
}

/* ---- Encounters -------------------------------------------------------- */

static fray_status read_options(dl *L, const yn *m) {
    const char *keys[N_OPTS + 2];
    for (int k = 0; k < N_OPTS; k++)
        keys[k] = opt_table[k].key;
    keys[N_OPTS] = "notes"; /* every mapping takes notes */
    keys[N_OPTS + 1] = "trick-difficulty"; /* things.c (003:5, D7.17) */
    char b[64];
    if (m->type != YN_MAP)
        return FAIL(L, m, "options: expected a mapping (options: {health: wounds}), got %s",
                    yr_got(m, b));
    fray_status st = yr_keys(&L->r, m, "options", keys, N_OPTS + 2, false);
    if (st != FRAY_OK)
        return st;
    int td;
    if ((st = get_int(L, m, "trick-difficulty",
                      "trick-difficulty (an acrobatic trick's difficulty, 003:5)", 1, 200, 10,
                      &td)) != FRAY_OK)
        return st;
    L->s->o.trick_difficulty = (uint8_t)td;
    for (int k = 0; k < N_OPTS; k++) {
        const yn *v = yr_get(m, opt_table[k].key);
        int x;
        if (!v)
            continue;
        if ((st = yr_choice(&L->r, v, opt_table[k].key, opt_table[k].words, opt_table[k].n,
                            &x)) != FRAY_OK)
            return st;
        opt_set(&L->s->o, k, x);
    }
    return FRAY_OK;
}

static fray_status read_scene(dl *L, const yn *m) {
    static const char *const keys[] = {"light", "notes"};
    char b[64];
    if (m->type != YN_MAP)
        return FAIL(L, m, "scene: expected a mapping (scene: {light: poor}), got %s",
                    yr_got(m, b));
    fray_status st = yr_keys(&L->r, m, "the scene", keys, 2, false);
    if (st != FRAY_OK)
        return st;
    const yn *v = yr_get(m, "light");
    int x;
    if (v) {
        if ((st = yr_choice(&L->r, v, "the scene's light", light_words, 4, &x)) != FRAY_OK)
            return st;
        L->s->light = light_dice[x];
    }
    return FRAY_OK;
}

static int find_side(d6_setup *s, const char *name) {
    for (int i = 0; i < s->n_sides; i++)
        if (strcmp(s->side_name[i], name) == 0)
            return i;
    return -1;
}

/* at: [x, y] in meters. */
static fray_status at_of(dl *L, const yn *v, int16_t *x, int16_t *y) {
    char b[64];
    if (v->type != YN_SEQ || v->n != 2)
        return FAIL(L, v, "at: expected where it stands in meters, [x, y], got %s",
                    yr_got(v, b));
    int xy[2];
    const yn *it = v->first;
    for (int i = 0; i < 2; i++, it = it->next) {
        fray_status st = yr_int(&L->r, it, i ? "y (meters)" : "x (meters)", -DL_MAX_AT,
                                DL_MAX_AT, &xy[i]);
        if (st != FRAY_OK)
            return st;
    }
    *x = (int16_t)xy[0];
    *y = (int16_t)xy[1];
    return FRAY_OK;
}

static fray_status read_combatant(dl *L, const yn *it) {
    static const char *const keys[] = {"id", "name", "statblock", "side", "at",
                                       "cover", "tactics", "notes", "surprise", "blind",
                                       "posture"};
    char b[64];
    if (it->type != YN_MAP)
        return FAIL(L, it, "expected a combatant (a mapping with id, statblock, at), got %s",
                    yr_got(it, b));
    fray_status st = yr_keys(&L->r, it, "a combatant", keys, 11, false);
    if (st != FRAY_OK)
        return st;
    d6_setup *s = L->s;
    if (s->n >= D6_MAX_C)
        return FAIL_RANGE(L, it, "more than %d combatants", D6_MAX_C);
    d6_combatant c;
    memset(&c, 0, sizeof c);
    const yn *v = yr_get(it, "statblock");
    if (!v)
        return yr_missing(&L->r, it, "statblock", "a combatant");
    char bn[D6_NAME];
    if ((st = yr_text(&L->r, v, "statblock", bn, sizeof bn)) != FRAY_OK)
        return st;
    int bi = -1;
    for (int i = 0; i < L->n_blocks; i++)
        if (yr_ieq(L->blocks[i].name, bn))
            bi = i;
    if (bi < 0) {
        const char *names[D6_MAX_SB];
        for (int i = 0; i < L->n_blocks; i++)
            names[i] = L->blocks[i].name;
        return yr_unknown(&L->r, v, "stat block", bn, names, L->n_blocks,
                          "no stat blocks are known: name a statblocks file");
    }
    c.b = L->blocks[bi];
    if (s->o.health == D6_HEALTH_BODY_POINTS && c.b.body_points <= 0)
        return FAIL(L, v, "stat block '%.40s' has no body-points, and the encounter counts "
                          "Body Points (options: health: body-points)", c.b.name);
    yr_copy(c.name, sizeof c.name, L->blocks[bi].name);
    if ((v = yr_get(it, "name")) &&
        (st = yr_text(&L->r, v, "a combatant's name", c.name, sizeof c.name)) != FRAY_OK)
        return st;
    const yn *idn = yr_get(it, "id");
    if (!idn)
        return yr_missing(&L->r, it, "id", "a combatant");
    if ((st = yr_text(&L->r, idn, "a combatant's id", c.id, sizeof c.id)) != FRAY_OK)
        return st;
    for (const char *p = c.id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return FAIL(L, idn, "an id is lower-case letters, digits, '-' and '_': got '%.40s'",
                        c.id);
    if (find_combatant(s, c.id) >= 0)
        return FAIL(L, idn, "combatant id '%.40s' is given twice", c.id);
    char side[D6_NAME];
    yr_copy(side, sizeof side, c.name);
    if ((v = yr_get(it, "side")) &&
        (st = yr_text(&L->r, v, "a side's name", side, sizeof side)) != FRAY_OK)
        return st;
    int si = find_side(s, side);
    if (si < 0) {
        if (s->n_sides >= D6_MAX_SIDES)
            return FAIL_RANGE(L, v ? v : it, "more than %d sides", D6_MAX_SIDES);
        si = s->n_sides++;
        yr_copy(s->side_name[si], sizeof s->side_name[si], side);
    }
    c.side = (int8_t)si;
    const yn *av = yr_get(it, "at");
    if (!av)
        return yr_missing(&L->r, it, "at", "a combatant (where it stands: at: [x, y] in meters)");
    if ((st = at_of(L, av, &c.x, &c.y)) != FRAY_OK)
        return st;
    int x;
    if ((v = yr_get(it, "cover"))) {
        if ((st = yr_choice(&L->r, v, "the cover it stands in", cover_words, 5, &x)) != FRAY_OK)
            return st;
        c.cover = (uint8_t)x;
    }
    x = c.b.weapon >= 0 && is_ranged(&s->w[c.b.weapon]) ? D6_TAC_RANGED : D6_TAC_MELEE;
    if ((v = yr_get(it, "tactics"))) {
        if ((st = yr_choice(&L->r, v, "tactics", tactics_words, 4, &x)) != FRAY_OK)
            return st;
        if (x == D6_TAC_RANGED && !has_ranged(s, &c.b))
            return FAIL(L, v, "tactics: ranged needs a weapon with ranges, and %.40s has none "
                              "in hand or carried", c.name);
    }
    c.tactics = (uint8_t)x;
    if ((v = yr_get(it, "surprise"))) { /* 003:129 */
        static const char *const surprise_words[] = {"none", "first", "bonus"};
        if ((st = yr_choice(&L->r, v, "surprise (first: acts first in round 1; bonus: "
                                      "+1D to its first action)",
                            surprise_words, 3, &x)) != FRAY_OK)
            return st;
        c.surprise = (uint8_t)x;
    }
    if ((st = get_bool(L, it, "blind", "blind (the whole fight, 003:45-46)", &c.blind)) !=
        FRAY_OK)
        return st;
    if ((v = yr_get(it, "posture"))) { /* 003:91-92 */
        static const char *const pw[] = {"standing", "crouching", "prone"};
        if ((st = yr_choice(&L->r, v, "the posture it begins in", pw, 3, &x)) != FRAY_OK)
            return st;
        c.posture = (uint8_t)x;
    }
    s->c[s->n++] = c;
    return FRAY_OK;
}

static fray_status read_file(dl *L, const char *path, const yn *from, int want,
                             int *kind_out);

static fray_status read_includes(dl *L, const yn *list, const char *from, int want) {
    char b[64];
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it)) {
        if (it->type != YN_SCALAR || yr_is_null(it))
            return FAIL(L, it, "expected a file's path, got %s", yr_got(it, b));
        char *p = join(L, from, it->text);
        if (!p)
            return yr_nomem(&L->r);
        fray_status st = read_file(L, p, it, want, NULL);
        L->r.cur_file = from;
        if (st != FRAY_OK)
            return st;
    }
    return FRAY_OK;
}

static fray_status read_encounter(dl *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "seed", "catalog",
                                       "statblocks", "rounds", "scene", "options",
                                       "combatants", "objects", "notes"};
    d6_setup *s = L->s;
    fray_status st = yr_keys(&L->r, root, "an encounter", keys, 12, false);
    if (st != FRAY_OK)
        return st;
    const char *here = L->r.cur_file;
    const yn *v;
    if ((v = yr_get(root, "name")) &&
        (st = yr_text(&L->r, v, "the encounter's name", s->name, sizeof s->name)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "seed"))) {
        long x;
        if (v->type != YN_SCALAR || !yr_node_long(v, &x) || x < 0)
            return FAIL(L, v, "expected a whole number from 0 for the seed");
        s->has_seed = true;
        s->seed = (uint64_t)x;
    }
    if ((v = yr_get(root, "options")) && (st = read_options(L, v)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "scene")) && (st = read_scene(L, v)) != FRAY_OK)
        return st;
    if ((st = get_int(L, root, "rounds", "rounds (the time limit)", 1, DL_MAX_ROUNDS,
                      DL_DEFAULT_ROUNDS, &s->rounds)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "catalog")) && (st = read_includes(L, v, here, DL_WEAPONS)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "statblocks"))) {
        for (const yn *it = yr_items(v); it; it = yr_next_item(v, it)) {
            if (it->type == YN_MAP) {
                st = read_block(L, it);
            } else {
                char b[64];
                if (it->type != YN_SCALAR || yr_is_null(it))
                    return FAIL(L, it, "expected a file's path or a stat block, got %s",
                                yr_got(it, b));
                char *p = join(L, here, it->text);
                if (!p)
                    return yr_nomem(&L->r);
                st = read_file(L, p, it, DL_STATBLOCKS, NULL);
                L->r.cur_file = here;
            }
            if (st != FRAY_OK)
                return st;
        }
    }
    const yn *cs = yr_get(root, "combatants");
    if (!cs)
        return yr_missing(&L->r, root, "combatants", "an encounter");
    if (cs->type != YN_SEQ)
        return FAIL(L, cs, "expected a list of combatants");
    for (const yn *it = yr_items(cs); it; it = yr_next_item(cs, it))
        if ((st = read_combatant(L, it)) != FRAY_OK)
            return st;
    if (s->n_sides < 2)
        return FAIL(L, cs, "a fight needs at least two sides (got %d)", s->n_sides);
    if ((v = yr_get(root, "objects")) && !yr_is_null(v) &&
        (st = d6_read_objects(&L->r, s, v)) != FRAY_OK) /* things.c (003:51-59) */
        return st;
    return FRAY_OK;
}

static fray_status read_file(dl *L, const char *path, const yn *from, int want,
                             int *kind_out) {
    const char *saved = L->r.cur_file;
    yn *root = NULL;
    int kind;
    fray_status st = yr_open_rules_file(&L->r, path, from, L->files, &L->n_files,
                                        DL_MAX_FILES, "d6", "D6", kind_words, 3,
                                        &root, &kind);
    if (st != FRAY_OK || !root)
        return st;
    const yn *fv = yr_get(root, "fray");
    if (want >= 0 && kind != want) {
        /* blamed on the name in the file that names it */
        L->r.cur_file = saved;
        return FAIL(L, from ? from : fv, "expected a %s file here, got fray: %s",
                    kind_words[want], kind_words[kind]);
    }
    if (kind_out)
        *kind_out = kind;
    if (kind == DL_WEAPONS) {
        static const char *const keys[] = {"fray", "rules", "weapons", "armour", "notes"};
        if ((st = yr_keys(&L->r, root, "a weapons file", keys, 5, false)) != FRAY_OK)
            return st;
        const yn *l = yr_get(root, "weapons");
        for (const yn *it = l ? yr_items(l) : NULL; it; it = yr_next_item(l, it))
            if ((st = read_weapon(L, it)) != FRAY_OK)
                return st;
        l = yr_get(root, "armour");
        for (const yn *it = l ? yr_items(l) : NULL; it; it = yr_next_item(l, it))
            if ((st = read_armour(L, it)) != FRAY_OK)
                return st;
    } else if (kind == DL_STATBLOCKS) {
        static const char *const keys[] = {"fray", "rules", "catalog", "statblocks", "notes"};
        if ((st = yr_keys(&L->r, root, "a stat-block file", keys, 5, false)) != FRAY_OK)
            return st;
        const yn *l = yr_get(root, "catalog");
        if (l && (st = read_includes(L, l, path, DL_WEAPONS)) != FRAY_OK)
            return st;
        l = yr_get(root, "statblocks");
        if (!l)
            return yr_missing(&L->r, root, "statblocks", "a stat-block file");
        for (const yn *it = yr_items(l); it; it = yr_next_item(l, it))
            if ((st = read_block(L, it)) != FRAY_OK)
                return st;
    } else {
        if ((st = read_encounter(L, root)) != FRAY_OK)
            return st;
    }
    L->r.cur_file = saved;
    return FRAY_OK;
}

/* Loads any D6 file into s; kind and the stat blocks read come back. */
static fray_status load_any(const char *path, const fray_allocator *alloc, d6_setup *s,
                            fray__files *files, fray_diag *diag, int *kind_out, int *blocks) {
    dl *L = fray__alloc(alloc, sizeof *L);
    if (!L)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    memset(L, 0, sizeof *L);
    memset(s, 0, sizeof *s);
    s->rounds = DL_DEFAULT_ROUNDS;
    L->r.alloc = alloc;
    L->r.suggest_keys = true;
    L->r.top_paths = &path;
    L->r.n_top = 1;
    L->r.cur_file = path;
    L->r.files = files;
    L->s = s;
    int kind = -1;
    fray_status st = read_file(L, path, NULL, -1, &kind);
    if (st == FRAY_OK) {
        *kind_out = kind;
        if (blocks)
            *blocks = L->n_blocks;
        if (diag)
            memset(diag, 0, sizeof *diag);
    } else {
        yr_publish(&L->r, diag);
    }
    yr_free_all(&L->r);
    fray__free(alloc, L, sizeof *L);
    return st;
}

fray_status d6_load(const char *path, const fray_allocator *alloc, d6_setup **out,
                    fray_diag *diag) {
    return d6_load_files(path, alloc, out, NULL, diag);
}

fray_status d6_load_files(const char *path, const fray_allocator *alloc, d6_setup **out,
                          struct fray__files *files, fray_diag *diag) {
    if (!out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nowhere to load into");
    *out = NULL;
    if (!path)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no file to load");
    d6_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    int kind = -1;
    fray_status st = load_any(path, alloc, s, files, diag, &kind, NULL);
    if (st == FRAY_OK && kind != DL_ENCOUNTER) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            diag->line = 1;
            diag->column = 1;
            snprintf(diag->message, sizeof diag->message,
                     "this is a %s file; a fight needs an encounter (fray: encounter)",
                     kind_words[kind]);
        }
        st = FRAY_ERR_PARSE;
    }
    if (st != FRAY_OK) {
        fray__free(alloc, s, sizeof *s);
        return st;
    }
    if (alloc)
        s->alloc = *alloc;
    *out = s;
    return FRAY_OK;
}

fray_status d6_check(const char *path, fray_diag *diag) {
    if (!path)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no file to check");
    d6_setup *s = malloc(sizeof *s);
    if (!s)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    int kind = -1, blocks = 0;
    fray_status st = load_any(path, NULL, s, NULL, diag, &kind, &blocks);
    if (st == FRAY_OK && diag) {
        diag->file = path;
        if (kind == DL_WEAPONS)
            snprintf(diag->message, sizeof diag->message, "D6 weapons: %d weapon%s, %d armour%s",
                     s->n_weapons, s->n_weapons == 1 ? "" : "s", s->n_armour,
                     s->n_armour == 1 ? "" : "s");
        else if (kind == DL_STATBLOCKS)
            snprintf(diag->message, sizeof diag->message,
                     "D6 stat blocks: %d stat block%s (%d weapon%s known)", blocks,
                     blocks == 1 ? "" : "s", s->n_weapons, s->n_weapons == 1 ? "" : "s");
        else
            snprintf(diag->message, sizeof diag->message,
                     "D6 encounter \"%.60s\": %d combatants on %d sides, %d rounds, "
                     "health: %s",
                     s->name, s->n, s->n_sides, s->rounds, health_words[s->o.health ? 1 : 0]);
    }
    free(s);
    return st;
}

void d6_setup_free(d6_setup *s) {
    if (!s)
        return;
    fray_allocator a = s->alloc;
    fray__free(&a, s, sizeof *s);
}

fray_status d6_setup_copy(const d6_setup *s, const fray_allocator *alloc, d6_setup **out) {
    if (!s || !out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    d6_setup *c = fray__alloc(alloc, sizeof *c);
    if (!c)
        return FRAY_ERR_NOMEM;
    memcpy(c, s, sizeof *c);
    memset(&c->alloc, 0, sizeof c->alloc);
    if (alloc)
        c->alloc = *alloc;
    *out = c;
    return FRAY_OK;
}

/* ---- Sweeps: "health", "rounds", "ID.agility", "ID.dodge", "sword.damage" -- */

/* What a key names. */
enum { VK_OPT, VK_ROUNDS, VK_ATTR, VK_SKILL, VK_BP, VK_MOVE, VK_SCALE, VK_X, VK_Y,
       VK_COVER, VK_TACTICS, VK_DAMAGE };
typedef struct vkey {
    int kind;
    int k;   /* the option, attribute or skill */
    int who; /* the combatant, or the weapon (VK_DAMAGE) */
} vkey;

static const char *const vary_fields[] = {"body-points", "move", "scale", "x", "y",
                                          "cover", "tactics"};
enum { N_VARY_FIELDS = sizeof vary_fields / sizeof vary_fields[0] };

/* " (did you mean 'x'?)" for a near name, else "". */
static const char *near_name(const char *w, const char *const *names, int n, char *buf,
                             size_t size) {
    int best = -1, best_d = 99;
    for (int i = 0; i < n; i++) {
        int d = yr_distance(w, names[i]);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    buf[0] = '\0';
    if (best >= 0 && best_d <= 2 && best_d * 3 <= (int)strlen(names[best]))
        snprintf(buf, size, " (did you mean '%s'?)", names[best]);
    return buf;
}

static fray_status vary_resolve(const d6_setup *s, const char *key, vkey *out,
                                fray_diag *diag) {
    memset(out, 0, sizeof *out);
    char hint[80];
    for (int k = 0; k < N_OPTS; k++)
        if (strcmp(key, opt_table[k].key) == 0) {
            out->kind = VK_OPT;
            out->k = k;
            return FRAY_OK;
        }
    if (strcmp(key, "rounds") == 0) {
        out->kind = VK_ROUNDS;
        return FRAY_OK;
    }
    const char *dot = strrchr(key, '.');
    char who[D6_NAME];
    size_t n = dot ? (size_t)(dot - key) : 0;
    if (!dot || n == 0 || n >= sizeof who) {
        const char *keys[N_OPTS + 1];
        for (int k = 0; k < N_OPTS; k++)
            keys[k] = opt_table[k].key;
        keys[N_OPTS] = "rounds";
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "no key '%.40s'%s: health, wild-one, modifiers, "
                              "modifier-wild-die, initiative, damage-bonus, rounds, ID.ATTRIBUTE "
                              "or ID.SKILL (a die code), ID.body-points, ID.move, ID.scale, "
                              "ID.x, ID.y, ID.cover, ID.tactics, or WEAPON.damage",
                              key, near_name(key, keys, N_OPTS + 1, hint, sizeof hint));
    }
    memcpy(who, key, n);
    who[n] = '\0';
    const char *field = dot + 1;
    int ci = find_combatant(s, who);
    if (ci < 0) {
        int wi = find_weapon(s, who);
        if (wi < 0) {
            const char *names[D6_MAX_C + D6_MAX_WEAPONS];
            int nn = 0;
            for (int i = 0; i < s->n; i++)
                names[nn++] = s->c[i].id;
            for (int i = 0; i < s->n_weapons; i++)
                names[nn++] = s->w[i].name;
            return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                  "no combatant or weapon '%.40s'%s (ID.FIELD or WEAPON.damage)",
                                  who, near_name(who, names, nn, hint, sizeof hint));
        }
        if (strcmp(field, "damage") != 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                  "no key '%.40s' of a weapon: a weapon's sweep is "
                                  "WEAPON.damage", field);
        out->kind = VK_DAMAGE;
        out->who = wi;
        return FRAY_OK;
    }
    out->who = ci;
    for (int a = 0; a < D6_ATTRS; a++)
        if (strcmp(field, attr_words[a]) == 0) {
            out->kind = VK_ATTR;
            out->k = a;
            return FRAY_OK;
        }
    int sk = find_skill(field);
    if (sk >= 0) {
        out->kind = VK_SKILL;
        out->k = sk;
        return FRAY_OK;
    }
    for (int f = 0; f < N_VARY_FIELDS; f++)
        if (strcmp(field, vary_fields[f]) == 0) {
            out->kind = VK_BP + f;
            return FRAY_OK;
        }
    const char *names[D6_ATTRS + D6_SKILLS + N_VARY_FIELDS];
    int nn = 0;
    for (int a = 0; a < D6_ATTRS; a++)
        names[nn++] = attr_words[a];
    for (int k = 0; k < D6_SKILLS; k++)
        names[nn++] = skill_words[k];
    for (int f = 0; f < N_VARY_FIELDS; f++)
        names[nn++] = vary_fields[f];
    return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                          "no key '%.40s' of a combatant%s: agility, coordination, physique, "
                          "intellect, acumen, charisma, a skill (fighting, melee-combat, dodge, "
                          "acrobatics, marksmanship, throwing, lifting, running, stamina, "
                          "mettle, search, command), body-points, move, scale, x, y, cover "
                          "or tactics",
                          field, near_name(field, names, nn, hint, sizeof hint));
}

/* A die code given to a sweep, checked as the loader checks it. */
static fray_status vary_code(const char *key, const char *value, int max_dice,
                             d6_code *out, fray_diag *diag) {
    d6_code c;
    if (!d6_code_parse(value, &c))
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: expected a die code like 3D or 4D+2, got '%.40s'", key, value);
    if (pips_of(c) <= 0 || pips_of(c) > max_dice * 3L)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0, "%s must be between 0D+1 and %dD, got "
                              "'%.40s'", key, max_dice, value);
    *out = c;
    return FRAY_OK;
}

static fray_status vary_int(const char *key, const char *value, long lo, long hi, int *out,
                            fray_diag *diag) {
    long v;
    if (!yr_parse_long(value, &v))
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: expected a whole number, got '%.40s'", key, value);
    if (v < lo || v > hi)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0, "%s must be between %ld and %ld, got %ld",
                              key, lo, hi, v);
    *out = (int)v;
    return FRAY_OK;
}

static fray_status vary_word(const char *key, const char *value, const char *const *words,
                             int n, int *out, fray_diag *diag) {
    int i = yr_find_name(value, words, n);
    if (i < 0) {
        char list[128];
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0, "%s: expected one of %s, got '%.40s'",
                              key, yr_join_names(list, sizeof list, words, n), value);
    }
    *out = i;
    return FRAY_OK;
}

fray_status d6_vary(d6_setup *s, const char *key, const char *value, fray_diag *diag) {
    if (!s || !key || !value)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nothing to vary");
    vkey v;
    fray_status st = vary_resolve(s, key, &v, diag);
    if (st != FRAY_OK)
        return st;
    int x = 0;
    if (v.kind == VK_OPT) {
        if ((st = vary_word(key, value, opt_table[v.k].words, opt_table[v.k].n, &x, diag)) !=
            FRAY_OK)
            return st;
        if (v.k == OPT_HEALTH && x == D6_HEALTH_BODY_POINTS)
            for (int c = 0; c < s->n; c++)
                if (s->c[c].b.body_points <= 0)
                    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                          "health=body-points: %s's stat block has no "
                                          "body-points", s->c[c].name);
        opt_set(&s->o, v.k, x);
        return FRAY_OK;
    }
    if (v.kind == VK_ROUNDS)
        return vary_int(key, value, 1, DL_MAX_ROUNDS, &s->rounds, diag);
    if (v.kind == VK_DAMAGE) {
        d6_weapon w = s->w[v.who];
        if (!parse_damage(value, &w.damage, &w.strength))
            return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                  "%s: expected a damage code like 4D+1 or STR+1D, got '%.40s'",
                                  key, value);
        if (pips_of(w.damage) < 0 || pips_of(w.damage) > DL_MAX_DAMAGE_DICE * 3L ||
            (!w.strength && pips_of(w.damage) == 0))
            return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                  "%s must be between 0D+1 (or STR) and %dD, got '%.40s'", key,
                                  DL_MAX_DAMAGE_DICE, value);
        s->w[v.who] = w;
        return FRAY_OK;
    }
    d6_combatant *c = &s->c[v.who];
    d6_block *b = &c->b;
    switch (v.kind) {
    case VK_ATTR:
        return vary_code(key, value, DL_MAX_ATTR_DICE, &b->attr[v.k], diag);
    case VK_SKILL:
        if ((st = vary_code(key, value, DL_MAX_SKILL_DICE, &b->skill[v.k], diag)) == FRAY_OK)
            b->has_skill |= 1u << v.k;
        return st;
    case VK_BP:
        if ((st = vary_int(key, value, 1, 999, &x, diag)) == FRAY_OK)
            b->body_points = (int16_t)x;
        return st;
    case VK_MOVE:
        if ((st = vary_int(key, value, 0, 100, &x, diag)) == FRAY_OK)
            b->move = (int16_t)x;
        return st;
    case VK_SCALE:
        if ((st = vary_int(key, value, -DL_MAX_SCALE, DL_MAX_SCALE, &x, diag)) == FRAY_OK)
            b->scale = (int8_t)x;
        return st;
    case VK_X:
    case VK_Y:
        if ((st = vary_int(key, value, -DL_MAX_AT, DL_MAX_AT, &x, diag)) == FRAY_OK)
            *(v.kind == VK_X ? &c->x : &c->y) = (int16_t)x;
        return st;
    case VK_COVER:
        if ((st = vary_word(key, value, cover_words, 5, &x, diag)) == FRAY_OK)
            c->cover = (uint8_t)x;
        return st;
    default: /* VK_TACTICS */
        if ((st = vary_word(key, value, tactics_words, 4, &x, diag)) != FRAY_OK)
            return st;
        if (x == D6_TAC_RANGED && !has_ranged(s, b))
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s=ranged: %s has no weapon with ranges in hand or carried",
                                  key, c->name);
        c->tactics = (uint8_t)x;
        return FRAY_OK;
    }
}

fray_status d6_vary_scope(const d6_setup *s, const char *key, char *buf, size_t size,
                          fray_diag *diag) {
    if (!s || !key || (!buf && size))
        return FRAY_ERR_INVALID;
    if (size)
        buf[0] = '\0';
    vkey v;
    fray_status st = vary_resolve(s, key, &v, diag);
    if (st != FRAY_OK || !size)
        return st;
    if (v.kind == VK_OPT || v.kind == VK_ROUNDS) {
        snprintf(buf, size, "the whole encounter");
    } else if (v.kind == VK_DAMAGE) {
        size_t len = 0;
        int w = snprintf(buf, size, "every combatant with %s in hand or carried:",
                         s->w[v.who].name);
        len = w > 0 ? (size_t)w : 0;
        int n = 0;
        for (int i = 0; i < s->n && len < size; i++) {
            const d6_block *b = &s->c[i].b;
            if (b->weapon != v.who && b->off_hand != v.who && !(b->carried & (1u << v.who)))
                continue;
            w = snprintf(buf + len, size - len, "%s %s", n++ ? "," : "", s->c[i].name);
            len += w > 0 ? (size_t)w : 0;
        }
        if (!n && len < size)
            snprintf(buf + len, size - len, " nobody");
    } else {
        snprintf(buf, size, "%s", s->c[v.who].name);
    }
    return FRAY_OK;
}

/* ---- A duel of two stat blocks (fray odds duel A.yaml a B.yaml b) ------------------ */

/* The stat blocks of a stat-block (or encounter) file at path, into
 * blocks (D6_MAX_SB), with the weapons and armour they name in *into. */
static fray_status duel_blocks(const char *path, const fray_allocator *alloc, d6_setup *into,
                               d6_block *blocks, int *n, fray_diag *diag) {
    dl *L = fray__alloc(alloc, sizeof *L);
    if (!L)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    memset(L, 0, sizeof *L);
    memset(into, 0, sizeof *into);
    L->r.alloc = alloc;
    L->r.suggest_keys = true;
    L->r.top_paths = &path;
    L->r.n_top = 1;
    L->r.cur_file = path;
    L->s = into;
    fray_status st = read_file(L, path, NULL, -1, NULL);
    if (st == FRAY_OK) {
        *n = L->n_blocks;
        memcpy(blocks, L->blocks, sizeof L->blocks);
    } else {
        yr_publish(&L->r, diag);
    }
    yr_free_all(&L->r);
    fray__free(alloc, L, sizeof *L);
    return st;
}

/* Weapon w of file f as a weapon of s (the same one when s knows it). */
static fray_status duel_weapon(d6_setup *s, const d6_setup *f, int w, int8_t *out,
                               fray_diag *diag) {
    if (w < 0) {
        *out = -1;
        return FRAY_OK;
    }
    for (int k = 0; k < s->n_weapons; k++)
        if (memcmp(&s->w[k], &f->w[w], sizeof s->w[k]) == 0) {
            *out = (int8_t)k;
            return FRAY_OK;
        }
    if (s->n_weapons >= D6_MAX_WEAPONS)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0, "more than %d weapons in the duel",
                              D6_MAX_WEAPONS);
    s->w[s->n_weapons] = f->w[w];
    *out = (int8_t)s->n_weapons++;
    return FRAY_OK;
}

/*
 * Stat block name_a of path_a against name_b of path_b (NULL: the file's
 * only block), two meters apart as in examples/d6/duel.yaml, every option
 * at its default and the default time limit; tactics by name (melee,
 * ranged, grapple, wrestle; NULL: the block's own, ranged with a ranged
 * weapon in hand). *out is a d6_setup made through alloc, freed with
 * d6_setup_free. Errors: the loader's, FRAY_ERR_INVALID (no such block,
 * several and none named, unknown tactics), FRAY_ERR_RANGE.
 */
fray_status d6_duel_setup(const char *path_a, const char *name_a, const char *path_b,
                          const char *name_b, const char *tactics_a, const char *tactics_b,
                          const fray_allocator *alloc, void **out, fray_diag *diag) {
    if (!path_a || !path_b || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "a duel needs two stat-block files");
    *out = NULL;
    const char *path[2] = {path_a, path_b}, *name[2] = {name_a, name_b};
    const char *tac[2] = {tactics_a, tactics_b};
    d6_setup *s = fray__alloc(alloc, sizeof *s), *f = fray__alloc(alloc, sizeof *f);
    d6_block *blocks = fray__alloc(alloc, sizeof(d6_block) * D6_MAX_SB);
    fray_status st = s && f && blocks ? FRAY_OK : FRAY_ERR_NOMEM;
    if (st != FRAY_OK)
        fray__diag_set(diag, st, 0, "out of memory");
    else
        memset(s, 0, sizeof *s);
    for (int i = 0; i < 2 && st == FRAY_OK; i++) {
        int nb = 0, k = -1;
        if ((st = duel_blocks(path[i], alloc, f, blocks, &nb, diag)) != FRAY_OK)
            break;
        if (diag)
            memset(diag, 0, sizeof *diag);
        for (int j = 0; j < nb && name[i]; j++)
            if (yr_ieq(blocks[j].name, name[i]))
                k = j;
        if (!name[i] && nb == 1)
            k = 0;
        if (k < 0) {
            char list[200] = "";
            for (int j = 0; j < nb; j++) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%s'%s'", j ? ", " : "", blocks[j].name);
            }
            st = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                nb == 0 ? "%s has no stat blocks"
                                : name[i] ? "%s has no stat block named '%.40s'; it has %s"
                                          : "%s has several stat blocks: name one of %s",
                                path[i], name[i] ? name[i] : list, list);
            break;
        }
        d6_combatant *c = &s->c[s->n];
        memset(c, 0, sizeof *c);
        c->b = blocks[k];
        d6_block *b = &c->b;
        if ((st = duel_weapon(s, f, b->weapon, &b->weapon, diag)) != FRAY_OK ||
            (st = duel_weapon(s, f, b->off_hand, &b->off_hand, diag)) != FRAY_OK)
            break;
        uint32_t carried = 0;
        for (int w = 0; w < f->n_weapons && st == FRAY_OK; w++) {
            int8_t to = -1;
            if ((b->carried >> w) & 1u && (st = duel_weapon(s, f, w, &to, diag)) == FRAY_OK)
                carried |= 1u << to;
        }
        if (st != FRAY_OK)
            break;
        b->carried = carried;
        if (b->armour >= 0) {
            int a = -1;
            for (int j = 0; j < s->n_armour; j++)
                if (memcmp(&s->ar[j], &f->ar[b->armour], sizeof s->ar[j]) == 0)
                    a = j;
            if (a < 0 && s->n_armour >= D6_MAX_ARMOUR) {
                st = fray__diag_set(diag, FRAY_ERR_RANGE, 0, "more than %d armours in the duel",
                                    D6_MAX_ARMOUR);
                break;
            }
            if (a < 0) {
                a = s->n_armour++;
                s->ar[a] = f->ar[b->armour];
            }
            b->armour = (int8_t)a;
        }
        int t = b->weapon >= 0 && is_ranged(&s->w[b->weapon]) ? D6_TAC_RANGED : D6_TAC_MELEE;
        if (tac[i]) {
            t = -1;
            for (int j = 0; j < D6_TAC_KINDS; j++)
                if (yr_ieq(tac[i], tactics_words[j]))
                    t = j;
            if (t < 0 || (t == D6_TAC_RANGED && !has_ranged(s, b))) {
                st = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                    t < 0 ? "unknown tactics '%.40s' for %.40s: melee, ranged, "
                                            "grapple or wrestle"
                                          : "tactics '%.40s' needs a weapon with ranges, and "
                                            "%.40s has none in hand or carried",
                                    tac[i], b->name);
                break;
            }
        }
        c->tactics = (uint8_t)t;
        c->side = (int8_t)i;
        c->x = (int16_t)(2 * i);
        bool twin = i == 1 && yr_ieq(b->name, s->c[0].b.name);
        char nm[D6_NAME];
        memcpy(nm, b->name, sizeof nm);
        nm[sizeof nm - 1] = '\0';
        size_t nl = strlen(nm);
        if (twin && nl + 2 < sizeof nm)
            memcpy(nm + nl, " 2", 3);
        memcpy(c->name, nm, sizeof c->name);
        size_t m = 0;
        for (const char *p = c->name; *p && m + 1 < sizeof c->id; p++, m++)
            c->id[m] = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a')
                       : (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ? *p
                                                                              : '-';
        c->id[m] = '\0';
        snprintf(s->side_name[i], sizeof s->side_name[i], "%s", c->name);
        s->n++;
    }
    if (f)
        fray__free(alloc, f, sizeof *f);
    if (blocks)
        fray__free(alloc, blocks, sizeof(d6_block) * D6_MAX_SB);
    if (st != FRAY_OK) {
        if (s)
            fray__free(alloc, s, sizeof *s);
        return st;
    }
    s->n_sides = 2;
    s->rounds = DL_DEFAULT_ROUNDS;
    snprintf(s->name, sizeof s->name, "Duel");
    if (alloc)
        s->alloc = *alloc;
    *out = s;
    return FRAY_OK;
}

/*
 * load.c - Alloy's data files -> fa_setup (docs/file-formats.md "Alloy
 * files", docs/rules/alloy.md).
 *
 * Three kinds of file, YAML or JSON, each a mapping that starts with
 * `fray:` (its kind) and `rules: alloy`:
 *   fray: catalog     weapons (data/alloy/weapons.yaml)
 *   fray: statblocks  stat blocks (with the catalogs they use)
 *   fray: encounter   sides, combatants, the map and its obscured and dark
 *                     spaces, options, and the files it uses (paths
 *                     relative to it)
 *
 * The files are read by the shared reader (src/encounter/yaml_read.h):
 * every error names file:line:column and what was expected in rules
 * words. Distances are written in feet and kept in squares (5 ft each).
 * The setup is filled in a scratch copy handed over only on success.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "alloy_int.h"
#include "internal.h"
#include "yaml_read.h"
#include "suggest.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libfyaml.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- Options (every ruling, docs/rules/alloy.md) ------------------------------ */

void fa_options_default(fa_options *o) {
    memset(o, 0, sizeof *o);
    o->diagonals = FRAY_AREA_COUNTED;        /* L7.9: 1-2-1-2 */
    o->burst = FRAY_AREA_COUNTED;            /* L7.9 */
    o->dying = FA_DYING_STABLE;              /* L7.8: no bleed-out */
    o->save_target = 10;                     /* L7.8: d20 >= 10 */
    o->drop_prone = FA_ACT_SWIFT;            /* L7.1: 004:332, 989 */
    o->suppress_unlimited = false;           /* L7.6 */
    o->ap_per_turn = 1;                      /* L7.12 */
    o->area_crit_max = true;                 /* L7.14 */
    o->coup_rolls = true;                    /* L7.18 */
    o->aid_ranged_provokes = true;           /* L7.19 */
    o->creature_cover = 2;                   /* L7.20 */
    o->init_ties = FA_TIES_RANDOM;           /* L7.23 */
    o->surprise_action = FA_SURPRISE_STANDARD_OR_MOVE; /* L7.2 */
    /* alloy-objects (docs/rules/alloy.md "Objects") */
    o->pick_up_reach = FA_PICK_UP_ADJACENT;
    o->taken_proficiency = FA_TAKEN_PROF_GROUP;
    o->item_draw = FA_ITEM_KEEPS_WEAPON;
    o->narrow = FA_NARROW_SQUEEZE;           /* (alloy-space) 004:713 */
    o->feint_against = FA_FEINT_WILL;        /* Feint, 004:307 (skills.c) */
    o->skill_provokes = true;                /* Use a Skill: Yes, 004:313, 325 */
    o->notice_dc = 15;                       /* L7.16: Notice reveals the hidden */
}

enum { OPT_WORDS, OPT_BOOL, OPT_INT };

typedef struct opt_def {
    const char *key;
    uint8_t type;
    const char *words[3];      /* OPT_WORDS: the settings, in value order */
    int lo, hi;                /* OPT_INT */
} opt_def;

static const opt_def options_table[] = {
    {"diagonals", OPT_WORDS, {"alternate", "one", NULL}, 0, 0},
    {"burst", OPT_WORDS, {"counted", "square", NULL}, 0, 0},
    {"dying", OPT_WORDS, {"stable", "death-saves", NULL}, 0, 0},
    {"save", OPT_INT, {NULL, NULL, NULL}, 2, 20},
    {"drop-prone", OPT_WORDS, {"swift", "free", NULL}, 0, 0},
    {"suppress-unlimited", OPT_BOOL, {NULL, NULL, NULL}, 0, 0},
    {"action-points-per-turn", OPT_INT, {NULL, NULL, NULL}, 0, 5},
    {"area-crit", OPT_WORDS, {"maximum", "roll", NULL}, 0, 0},
    {"coup-de-grace-rolls", OPT_BOOL, {NULL, NULL, NULL}, 0, 0},
    {"aid-ranged-provokes", OPT_BOOL, {NULL, NULL, NULL}, 0, 0},
    {"creature-cover", OPT_INT, {NULL, NULL, NULL}, 0, 5},
    {"initiative-ties", OPT_WORDS, {"die", "listed", NULL}, 0, 0},
    {"surprise-action", OPT_WORDS, {"standard-or-move", "standard-and-move", NULL}, 0, 0},
    /* alloy-objects */
    {"pick-up-reach", OPT_WORDS, {"adjacent", "own-square", NULL}, 0, 0},
    {"taken-proficiency", OPT_WORDS, {"group", "none", NULL}, 0, 0},
    {"item-draw", OPT_WORDS, {"keeps-weapon", "puts-weapon-away", NULL}, 0, 0},
    {"narrow-squares", OPT_WORDS, {"squeeze", "open", NULL}, 0, 0},   /* (alloy-space) */
    {"feint-against", OPT_WORDS, {"will", "notice", NULL}, 0, 0},
    {"skill-provokes", OPT_BOOL, {NULL, NULL, NULL}, 0, 0},
    {"notice-dc", OPT_INT, {NULL, NULL, NULL}, 5, 40},
};
enum { N_OPTIONS = N_OF(options_table) };

/* Stores option `which` of options_table (value v: the index of its word,
 * the number, or 0/1), by its key: a new option is one more line here. */
static void option_store(fa_options *o, int which, int v) {
    const char *key = options_table[which].key;
#define IS(k) (strcmp(key, k) == 0)
    if (IS("diagonals"))
        o->diagonals = (uint8_t)(v ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
    else if (IS("burst"))
        o->burst = (uint8_t)(v ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
    else if (IS("dying"))
        o->dying = (uint8_t)(v ? FA_DYING_DEATH_SAVES : FA_DYING_STABLE);
    else if (IS("save"))
        o->save_target = (int8_t)v;
    else if (IS("drop-prone"))
        o->drop_prone = (uint8_t)(v ? FA_ACT_FREE : FA_ACT_SWIFT);
    else if (IS("suppress-unlimited"))
        o->suppress_unlimited = v != 0;
    else if (IS("action-points-per-turn"))
        o->ap_per_turn = (int8_t)v;
    else if (IS("area-crit"))
        o->area_crit_max = v == 0;
    else if (IS("coup-de-grace-rolls"))
        o->coup_rolls = v != 0;
    else if (IS("aid-ranged-provokes"))
        o->aid_ranged_provokes = v != 0;
    else if (IS("creature-cover"))
        o->creature_cover = (int8_t)v;
    else if (IS("initiative-ties"))
        o->init_ties = (uint8_t)(v ? FA_TIES_LISTED : FA_TIES_RANDOM);
    else if (IS("surprise-action"))
        o->surprise_action = (uint8_t)(v ? FA_SURPRISE_STANDARD_AND_MOVE
                                         : FA_SURPRISE_STANDARD_OR_MOVE);
    else if (IS("pick-up-reach"))
        o->pick_up_reach = (uint8_t)v;
    else if (IS("taken-proficiency"))
        o->taken_proficiency = (uint8_t)v;
    else if (IS("item-draw"))
        o->item_draw = (uint8_t)v;
    else if (IS("narrow-squares"))
        o->narrow = (uint8_t)(v ? FA_NARROW_OPEN : FA_NARROW_SQUEEZE);
    else if (IS("feint-against"))
        o->feint_against = (uint8_t)(v ? FA_FEINT_NOTICE : FA_FEINT_WILL);
    else if (IS("skill-provokes"))
        o->skill_provokes = v != 0;
    else if (IS("notice-dc"))
        o->notice_dc = (int8_t)v;
    else
        assert(0 && "an option of options_table without its line in option_store");
#undef IS
}

static int option_find(const char *key) {
    for (int i = 0; i < N_OPTIONS; i++)
        if (strcmp(options_table[i].key, key) == 0)
            return i;
    return -1;
}

/* Reads one option's value from text into o: FRAY_OK, or FRAY_ERR_PARSE
 * (not one of its values) or FRAY_ERR_RANGE (a number out of range) with
 * a message (what is expected) in why. */
static fray_status option_parse(fa_options *o, int which, const char *text, char *why,
                         size_t why_size) {
    const opt_def *d = &options_table[which];
    if (d->type == OPT_WORDS) {
        for (int i = 0; i < 3 && d->words[i]; i++)
            if (yr_ieq(text, d->words[i])) {
                option_store(o, which, i);
                return FRAY_OK;
            }
        snprintf(why, why_size, "expected %s or %s for the option %s", d->words[0],
                 d->words[1], d->key);
        return FRAY_ERR_PARSE;
    }
    if (d->type == OPT_BOOL) {
        if (yr_ieq(text, "true") || yr_ieq(text, "yes")) {
            option_store(o, which, 1);
            return FRAY_OK;
        }
        if (yr_ieq(text, "false") || yr_ieq(text, "no")) {
            option_store(o, which, 0);
            return FRAY_OK;
        }
        snprintf(why, why_size, "expected true or false for the option %s", d->key);
        return FRAY_ERR_PARSE;
    }
    long v;
    if (!yr_parse_long(text, &v)) {
        snprintf(why, why_size, "expected a whole number for the option %s", d->key);
        return FRAY_ERR_PARSE;
    }
    if (v < d->lo || v > d->hi) {
        snprintf(why, why_size, "the option %s must be between %d and %d", d->key, d->lo,
                 d->hi);
        return FRAY_ERR_RANGE;
    }
    option_store(o, which, (int)v);
    return FRAY_OK;
}

/* ---- Closed vocabularies -------------------------------------------------------- */

static const char *const kind_names[] = {"catalog", "statblocks", "encounter"};
enum { K_CATALOG, K_STATBLOCKS, K_ENCOUNTER };

static const char *const weapon_kinds[] = {"melee", "ranged", "thrown"};
static const char *const defense_names[] = {"Defense", "Fortitude", "Reflex", "Will"};
static const char *const ability_names[] = {"Str", "Dex", "Con", "Int", "Wis", "Cha"};
static const char *const ability_long[] = {"Strength", "Dexterity", "Constitution",
                                           "Intelligence", "Wisdom", "Charisma"};
static const char *const size_names[] = {"fine", "diminutive", "tiny", "small",
                                         "medium", "large", "huge", "gargantuan",
                                         "colossal"};
static const char *const skill_names[] = {"Acrobatics", "Athletics", "Notice", "Bluff"};
/* The ability each skill uses when the block gives no bonus (MSRD). */
static const uint8_t skill_ability[] = {FA_DEX, FA_STR, FA_WIS, FA_CHA};
static const char *const tactics_names[] = {"default", "aggressive", "cautious"};
static const char *const action_names[] = {"standard", "move", "swift", "immediate",
                                           "free"};
static const char *const usage_names[] = {"at-will", "encounter", "daily"};

/* Conditions a power may put on its target (fa_cond_kind). */
static const struct {
    const char *name;
    uint8_t cond;
} effect_conds[] = {
    {"blinded", FA_C_BLINDED},       {"dazed", FA_C_DAZED},
    {"deafened", FA_C_DEAFENED},     {"dominated", FA_C_DOMINATED},
    {"immobilized", FA_C_IMMOBILIZED}, {"prone", FA_C_PRONE},
    {"slowed", FA_C_SLOWED},         {"snared", FA_C_SNARED},
    {"stunned", FA_C_STUNNED},       {"unconscious", FA_C_UNCONSCIOUS},
    {"withered", FA_C_WITHERED},
    {"grants battle superiority", FA_C_GRANTS_BS},
};

/* Footprint side by size (L7.10: MSRD spaces, Colossal capped at 5x5). */
static int size_side(int size) {
    return size <= FA_SIZE_MEDIUM ? 1 : size - FA_SIZE_MEDIUM + 1;
}

/* ---- The loader's state ---------------------------------------------------------- */

enum { AL_MAX_FILES = 32 };

typedef struct al_file {
    const char *display;       /* the path as messages name it */
    const char *dir;           /* its folder as given ("" for none) */
    yn *root;
    int kind;
    bool done;
} al_file;

/* One entry of `combatants:` (count: N makes N combatants). */
typedef struct al_group {
    const yn *node;
    char id[FA_ID_MAX];
    int first, count;
    bool placed_by_legend;
} al_group;

typedef struct al {
    yr r;
    fa_setup *s;
    int n_files;
    const char *real[AL_MAX_FILES];
    al_file *files[AL_MAX_FILES];
    const char *cur_dir;
    const yn *weapon_node[FA_MAX_WEAPONS];
    const char *weapon_file[FA_MAX_WEAPONS];
    const yn *sb_node[FA_MAX_STATBLOCKS];
    const char *sb_file[FA_MAX_STATBLOCKS];
    int n_groups;
    al_group groups[FA_MAX_COMBATANTS];
    const yn *c_node[FA_MAX_COMBATANTS];
    bool c_placed[FA_MAX_COMBATANTS];
    fray_grid_placement placements[FRAY_GRID_MAX * FRAY_GRID_MAX];
    bool mark_taken[FRAY_GRID_MAX * FRAY_GRID_MAX];
} al;

#define FAIL(L, at, ...) yr_fail(&(L)->r, (at), FRAY_ERR_PARSE, __VA_ARGS__)
#define FAIL_RANGE(L, at, ...) yr_fail(&(L)->r, (at), FRAY_ERR_RANGE, __VA_ARGS__)

/* ---- Small readers ------------------------------------------------------------------ */

static bool scalar(const yn *n) {
    return n && n->type == YN_SCALAR && !yr_is_null(n);
}

/* Skips blanks. */
static const char *blanks(const char *p) {
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A whole number at *p (optional sign); moves *p past it. */
static bool scan_int(const char **p, long *out) {
    const char *s = *p;
    char *end;
    if (!(isdigit((unsigned char)*s) ||
          ((*s == '+' || *s == '-') && isdigit((unsigned char)s[1]))))
        return false;
    long v = strtol(s, &end, 10);
    if (v > 100000 || v < -100000)
        return false;
    *out = v;
    *p = end;
    return true;
}

/* "ft" or "feet" (optional) and the end of the text. */
static bool feet_end(const char *p) {
    p = blanks(p);
    if (strncmp(p, "ft", 2) == 0) {
        p += 2;
        if (*p == '.')
            p++;
    } else if (strncmp(p, "feet", 4) == 0) {
        p += 4;
    }
    return *blanks(p) == '\0';
}

/* A distance in feet (a multiple of 5, lo..hi ft) into squares. */
static fray_status rd_feet(al *L, const yn *n, const char *what, int lo, int hi,
                           int *out) {
    char b[64];
    long v;
    const char *p = scalar(n) ? n->text : "";
    if (!scalar(n) || !scan_int(&p, &v) || !feet_end(p))
        return FAIL(L, n, "expected a distance in feet for %s (30 or 30 ft), got %s",
                    what, yr_got(n, b));
    if (v % 5 != 0)
        return FAIL(L, n, "%s is %ld ft; distances are in 5-ft squares (a multiple of 5)",
                    what, v);
    if (v < lo || v > hi)
        return FAIL_RANGE(L, n, "%s must be between %d and %d ft, got %ld", what, lo,
                          hi, v);
    *out = (int)(v / 5);
    return FRAY_OK;
}

/* Dice NdS ("2d6", "d8") from *p; moves *p past them. */
static bool scan_dice(const char **p, fa_dice *out, bool *bad_range) {
    const char *s = *p;
    long n = 1, sides;
    if (isdigit((unsigned char)*s)) {
        if (!scan_int(&s, &n))
            return false;
    }
    if (*s != 'd' && *s != 'D')
        return false;
    s++;
    if (!isdigit((unsigned char)*s) || !scan_int(&s, &sides))
        return false;
    if (n < 1 || n > 20 || sides < 2 || sides > 100) {
        *bad_range = true;
        return false;
    }
    out->n = (int8_t)n;
    out->sides = (int8_t)sides;
    *p = s;
    return true;
}

static fray_status rd_dice(al *L, const yn *n, const char *what, fa_dice *out) {
    char b[64];
    bool bad = false;
    const char *p = scalar(n) ? blanks(n->text) : "";
    if (scalar(n) && scan_dice(&p, out, &bad) && *blanks(p) == '\0')
        return FRAY_OK;
    if (bad)
        return FAIL_RANGE(L, n, "%s: dice are 1 to 20 dice of 2 to 100 sides, got %s",
                          what, yr_got(n, b));
    return FAIL(L, n, "expected dice for %s (such as 1d8 or 2d6), got %s", what,
                yr_got(n, b));
}

/* An area: "blast 25", "close blast 25 ft", "burst 25", "close burst 10",
 * "wall 4" (blasts and bursts in feet, walls in squares). */
static fray_status rd_area(al *L, const yn *n, uint8_t *kind, int8_t *size) {
    char b[64];
    const char *p = scalar(n) ? blanks(n->text) : "";
    bool close = false;
    if (strncmp(p, "area ", 5) == 0)
        p = blanks(p + 5);
    else if (strncmp(p, "close ", 6) == 0) {
        close = true;
        p = blanks(p + 6);
    }
    int k = FA_AREA_NONE;
    if (strncmp(p, "blast ", 6) == 0)
        k = FA_AREA_BLAST;
    else if (strncmp(p, "burst ", 6) == 0)
        k = close ? FA_AREA_CLOSE_BURST : FA_AREA_BURST;
    else if (strncmp(p, "wall ", 5) == 0 && !close)
        k = FA_AREA_WALL;
    long v = 0;
    if (k != FA_AREA_NONE) {
        p = blanks(p + (k == FA_AREA_WALL ? 5 : 6));
        if (!scan_int(&p, &v))
            k = FA_AREA_NONE;
        else if (k == FA_AREA_WALL ? *blanks(p) != '\0' : !feet_end(p))
            k = FA_AREA_NONE;
    }
    if (k == FA_AREA_NONE)
        return FAIL(L, n,
                    "expected an area (blast 25, burst 25, close burst 10 or wall 4; "
                    "blasts and bursts in feet, walls in squares), got %s",
                    yr_got(n, b));
    if (k == FA_AREA_WALL) {
        if (v < 1 || v > FA_MAX_PATH)
            return FAIL_RANGE(L, n, "a wall is 1 to %d squares long, got %ld",
                              FA_MAX_PATH, v);
        *kind = (uint8_t)k;
        *size = (int8_t)v;
        return FRAY_OK;
    }
    if (v % 5 != 0)
        return FAIL(L, n, "the area is %ld ft; areas are in 5-ft squares (a multiple of 5)",
                    v);
    long sq = v / 5;
    if (sq < 1 || sq > 20)
        return FAIL_RANGE(L, n, "%s must be between 5 and 100 ft, got %ld",
                          k == FA_AREA_BLAST ? "a blast" : "a burst", v);
    *kind = (uint8_t)k;
    *size = (int8_t)sq;
    return FRAY_OK;
}

/* Choice of a closed list, without case, with did-you-mean. */
static fray_status rd_choice(al *L, const yn *n, const char *what,
                             const char *const *names, int count, int *out) {
    if (scalar(n)) {
        int i = yr_find_name(n->text, names, count);
        if (i >= 0) {
            *out = i;
            return FRAY_OK;
        }
        for (int j = 0; j < count; j++)
            if (yr_distance(n->text, names[j]) <= 2 && strlen(names[j]) > 3)
                return FAIL(L, n, "unknown %s '%.40s' (did you mean '%s'?)", what,
                            n->text, names[j]);
    }
    return yr_choice(&L->r, n, what, names, count, out);
}

static bool valid_id(const char *s) {
    if (!isalpha((unsigned char)s[0]))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return false;
    return true;
}

/* "Orc Captain" -> "orc-captain". */
static void slug(const char *s, char *out, size_t size) {
    size_t o = 0;
    bool dash = false;
    for (; *s && o + 1 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c)) {
            if (dash && o > 0 && o + 2 < size)
                out[o++] = '-';
            out[o++] = (char)tolower(c);
            dash = false;
        } else {
            dash = true;
        }
    }
    out[o] = '\0';
}

/* "red-knight" -> "Red knight"; "pistol" -> "Pistol". */
static void name_from_id(const char *id, char *out, size_t size) {
    snprintf(out, size, "%s", id);
    for (char *p = out; *p; p++)
        if (*p == '-' || *p == '_')
            *p = ' ';
    out[0] = (char)toupper((unsigned char)out[0]);
}

static fray_status rd_id(al *L, const yn *n, const char *what, char *out) {
    fray_status st = yr_text(&L->r, n, what, out, FA_ID_MAX);
    if (st != FRAY_OK)
        return st;
    if (!valid_id(out))
        return FAIL(L, n,
                    "%s is a letter, then letters, digits, '-' or '_' (such as "
                    "orc-captain), got '%.40s'",
                    what, out);
    return FRAY_OK;
}

/* ---- Weapons ------------------------------------------------------------------------ */

static int find_weapon(const fa_setup *s, const char *id) {
    for (int i = 0; i < s->n_weapons; i++)
        if (yr_ieq(s->weapons[i].id, id))
            return i;
    return -1;
}

/* "30/60", "30/60 ft", 30: short / end of long range. */
static fray_status rd_range(al *L, const yn *n, fa_weapon *w) {
    char b[64];
    long a, c;
    const char *p = scalar(n) ? blanks(n->text) : "";
    if (scalar(n) && scan_int(&p, &a)) {
        p = blanks(p);
        c = a;
        bool ok = true;
        if (*p == '/') {
            p = blanks(p + 1);
            ok = scan_int(&p, &c);
        }
        if (ok && feet_end(p)) {
            if (a % 5 != 0 || c % 5 != 0)
                return FAIL(L, n, "range %ld/%ld ft: ranges are in 5-ft squares (multiples of 5)",
                            a, c);
            if (a < 5 || c > 5000 || c < a)
                return FAIL_RANGE(L, n,
                                  "range is short/long in feet, 5 <= short <= long <= "
                                  "5000, got %ld/%ld",
                                  a, c);
            w->range_short = (int16_t)(a / 5);
            w->range_long = (int16_t)(c / 5);
            return FRAY_OK;
        }
    }
    return FAIL(L, n,
                "expected a range in feet for the weapon: short/long (30/60) or one "
                "distance (60), got %s",
                yr_got(n, b));
}

static fray_status rd_weapon(al *L, const yn *n, fa_weapon *w) {
    static const char *const keys[] = {"id", "name", "kind", "damage", "proficiency",
                                       "group", "range", "reach", "hands", "autofire",
                                       "magazine", "crit", "area", "area-defense",
                                       "area-ability", "notes"};
    fray_status st = yr_keys(&L->r, n, "a weapon", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    memset(w, 0, sizeof *w);
    w->reach = 1;
    w->hands = 1;
    w->area_defense = FA_DEF_REFLEX;
    w->area_ability = FA_DEX;
    const yn *v;
    if (!(v = yr_get(n, "id")))
        return yr_missing(&L->r, n, "id", "a weapon");
    if ((st = rd_id(L, v, "the weapon's id", w->id)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "name")) != NULL) {
        if ((st = yr_text(&L->r, v, "the weapon's name", w->name, sizeof w->name)) != FRAY_OK)
            return st;
    } else {
        name_from_id(w->id, w->name, sizeof w->name);
    }
    int k;
    if (!(v = yr_get(n, "kind")))
        return yr_missing(&L->r, n, "kind", "a weapon (melee, ranged or thrown)");
    if ((st = rd_choice(L, v, "weapon kind", weapon_kinds, 3, &k)) != FRAY_OK)
        return st;
    w->kind = (uint8_t)k;
    if (!(v = yr_get(n, "damage")))
        return yr_missing(&L->r, n, "damage", "a weapon ([W], such as 1d8)");
    if ((st = rd_dice(L, v, "the weapon's damage [W]", &w->w)) != FRAY_OK)
        return st;
    int x;
    if ((v = yr_get(n, "proficiency")) != NULL) {
        if ((st = yr_int(&L->r, v, "the proficiency bonus", 0, 10, &x)) != FRAY_OK)
            return st;
        w->proficiency = (int8_t)x;
    }
    if ((v = yr_get(n, "group")) != NULL &&
        (st = yr_text(&L->r, v, "the weapon group", w->group, sizeof w->group)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "reach")) != NULL) {
        if ((st = rd_feet(L, v, "reach", 5, 30, &x)) != FRAY_OK)
            return st;
        w->reach = (int8_t)x;
    }
    if ((v = yr_get(n, "hands")) != NULL) {
        if ((st = yr_int(&L->r, v, "hands", 0, 2, &x)) != FRAY_OK)
            return st;
        w->hands = (int8_t)x;
    }
    if ((v = yr_get(n, "autofire")) != NULL &&
        (st = yr_bool(&L->r, v, "autofire", &w->autofire)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "magazine")) != NULL) {
        if ((st = yr_int(&L->r, v, "the magazine (rounds)", 0, 1000, &x)) != FRAY_OK)
            return st;
        w->magazine = (int16_t)x;
    }
    if ((v = yr_get(n, "crit")) != NULL &&
        (st = rd_dice(L, v, "the weapon's crit dice", &w->crit)) != FRAY_OK)
        return st;
    const yn *area = yr_get(n, "area");
    if (area && (st = rd_area(L, area, &w->area, &w->area_size)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "area-defense")) != NULL) {
        if (!area)
            return FAIL(L, v, "area-defense is for area weapons; this weapon has no area");
        if ((st = rd_choice(L, v, "defense", defense_names, FA_DEFENSES, &x)) != FRAY_OK)
            return st;
        w->area_defense = (uint8_t)x;
    }
    if ((v = yr_get(n, "area-ability")) != NULL) {
        if (!area)
            return FAIL(L, v, "area-ability is for area weapons; this weapon has no area");
        if ((st = rd_choice(L, v, "ability", ability_names, FA_ABILITIES, &x)) != FRAY_OK)
            return st;
        w->area_ability = (uint8_t)x;
    }
    const yn *range = yr_get(n, "range");
    bool close_area = w->area == FA_AREA_BLAST || w->area == FA_AREA_CLOSE_BURST;
    if (range) {
        if (w->kind == FA_WK_MELEE)
            return FAIL(L, range,
                        "a melee weapon has no range (its reach is its range); make it "
                        "kind: thrown to throw it");
        if ((st = rd_range(L, range, w)) != FRAY_OK)
            return st;
    } else if (w->kind != FA_WK_MELEE && !close_area) {
        return yr_missing(&L->r, n, "range", "a ranged or thrown weapon (short/long in feet)");
    }
    if (w->autofire && w->kind != FA_WK_RANGED)
        return FAIL(L, yr_get(n, "autofire"), "only a ranged weapon has autofire");
    if (w->magazine > 0 && w->kind != FA_WK_RANGED)
        return FAIL(L, yr_get(n, "magazine"), "only a ranged weapon has a magazine");
    return FRAY_OK;
}

static fray_status add_weapon(al *L, const yn *n) {
    fa_setup *s = L->s;
    if (s->n_weapons == FA_MAX_WEAPONS)
        return FAIL_RANGE(L, n, "more than %d weapons in the catalogs loaded", FA_MAX_WEAPONS);
    fa_weapon w;
    fray_status st = rd_weapon(L, n, &w);
    if (st != FRAY_OK)
        return st;
    int j = find_weapon(s, w.id);
    if (j >= 0)
        return FAIL(L, yr_get(n, "id"), "the weapon '%s' is in the catalogs twice (first in %s line %d)",
                    w.id, L->weapon_file[j], L->weapon_node[j]->line);
    L->weapon_node[s->n_weapons] = n;
    L->weapon_file[s->n_weapons] = L->r.cur_file;
    s->weapons[s->n_weapons++] = w;
    return FRAY_OK;
}

static fray_status unknown_weapon(al *L, const yn *at, const char *id) {
    const char *names[FA_MAX_WEAPONS];
    for (int i = 0; i < L->s->n_weapons; i++)
        names[i] = L->s->weapons[i].id;
    return yr_unknown(&L->r, at, "weapon", id, names, L->s->n_weapons,
                      "no catalog is loaded (catalog: [../../data/alloy/weapons.yaml])");
}

/* ---- Powers ----------------------------------------------------------------------------- */

/* "Str vs Reflex", "Str vs. Reflex +2". */
static fray_status rd_attack_line(al *L, const yn *n, fa_power *p) {
    char b[64];
    if (scalar(n)) {
        const char *s = blanks(n->text);
        int ab = -1;
        for (int i = 0; i < FA_ABILITIES && ab < 0; i++) {
            size_t l = strlen(ability_long[i]);
            if (strncasecmp(s, ability_long[i], l) == 0 && !isalpha((unsigned char)s[l])) {
                ab = i;
                s += l;
            } else if (strncasecmp(s, ability_names[i], 3) == 0 &&
                       !isalpha((unsigned char)s[3])) {
                ab = i;
                s += 3;
            }
        }
        s = blanks(s);
        int df = -1;
        if (ab >= 0 && strncasecmp(s, "vs", 2) == 0) {
            s = blanks(s + 2 + (s[2] == '.'));
            for (int i = 0; i < FA_DEFENSES && df < 0; i++) {
                size_t l = strlen(defense_names[i]);
                if (strncasecmp(s, defense_names[i], l) == 0 && !isalpha((unsigned char)s[l])) {
                    df = i;
                    s = blanks(s + l);
                }
            }
        }
        long bonus = 0;
        if (df >= 0 && (*s == '\0' || (scan_int(&s, &bonus) && *blanks(s) == '\0'))) {
            if (bonus < -20 || bonus > 20)
                return FAIL_RANGE(L, n, "the attack line's bonus must be between -20 and 20");
            p->ability = (uint8_t)ab;
            p->defense = (uint8_t)df;
            p->attack_bonus = (int8_t)bonus;
            return FRAY_OK;
        }
    }
    return FAIL(L, n,
                "expected an attack line such as 'Str vs Reflex' (an ability: Str, Dex, "
                "Con, Int, Wis, Cha; vs a defense: Defense, Fortitude, Reflex, Will), "
                "got %s",
                yr_got(n, b));
}

/* "2[W]+2", "2{W}", "[W]", "1d8+3", "3d6". */
static fray_status rd_power_damage(al *L, const yn *n, fa_power *p) {
    char b[64];
    bool bad = false;
    if (scalar(n)) {
        const char *s = blanks(n->text);
        long mult = 1;
        if (isdigit((unsigned char)*s) && (strchr(s, '[') || strchr(s, '{'))) {
            if (!scan_int(&s, &mult))
                mult = -1;
        }
        bool weapon = false;
        if ((s[0] == '[' && s[1] == 'W' && s[2] == ']') ||
            (s[0] == '{' && s[1] == 'W' && s[2] == '}')) {
            weapon = true;
            s += 3;
        } else if (!scan_dice(&s, &p->dice, &bad)) {
            mult = -1;
        }
        s = blanks(s);
        long bonus = 0;
        bool ok = mult >= 0;
        if (ok && (*s == '+' || *s == '-')) {
            char sign = *s;
            s = blanks(s + 1);
            ok = isdigit((unsigned char)*s) && scan_int(&s, &bonus);
            if (sign == '-')
                bonus = -bonus;
        }
        if (ok && *blanks(s) == '\0') {
            if (mult < 1 || mult > 10)
                return FAIL_RANGE(L, n, "X of X[W] must be between 1 and 10, got %ld", mult);
            if (bonus < -50 || bonus > 50)
                return FAIL_RANGE(L, n, "the damage bonus must be between -50 and 50");
            p->mult = (int8_t)(weapon ? mult : 1);
            p->weapon = weapon ? 0 : -1;
            p->damage_bonus = (int8_t)bonus;
            return FRAY_OK;
        }
    }
    if (bad)
        return FAIL_RANGE(L, n, "dice are 1 to 20 dice of 2 to 100 sides, got %s",
                          yr_got(n, b));
    return FAIL(L, n,
                "expected damage such as 2[W]+2 (weapon dice twice, plus 2), [W] or "
                "1d8+3, got %s",
                yr_got(n, b));
}

/* "prone (save ends)", "dazed (end of your next turn)", "ongoing 5 (save
 * ends)", "slowed (start of your next turn)", "immobilized (sustain)",
 * "prone" (ends when it stands). */
static fray_status rd_effect(al *L, const yn *n, fa_effect_def *e) {
    char b[64];
    if (!scalar(n))
        return FAIL(L, n, "expected an effect such as 'prone (save ends)', got %s",
                    yr_got(n, b));
    char text[96];
    if (n->len >= sizeof text)
        return FAIL(L, n, "an effect is at most %zu characters", sizeof text - 1);
    memcpy(text, n->text, n->len + 1);
    char *paren = strchr(text, '(');
    char *dur = NULL;
    if (paren) {
        char *close = strchr(paren, ')');
        if (!close || *blanks(close + 1) != '\0')
            return FAIL(L, n, "an effect's duration is in parentheses at its end: "
                              "'dazed (save ends)'");
        *close = '\0';
        dur = (char *)blanks(paren + 1);
        *paren = '\0';
    }
    size_t l = strlen(text);
    while (l > 0 && text[l - 1] == ' ')
        text[--l] = '\0';
    const char *c = blanks(text);
    memset(e, 0, sizeof *e);
    int cond = -1;
    if (strncasecmp(c, "ongoing ", 8) == 0) {
        const char *q = blanks(c + 8);
        long v;
        if (!scan_int(&q, &v) || *blanks(q) != '\0')
            return FAIL(L, n, "ongoing damage is 'ongoing N (save ends)', got %s", yr_got(n, b));
        if (v < 1 || v > 100)
            return FAIL_RANGE(L, n, "ongoing damage must be between 1 and 100, got %ld", v);
        cond = FA_C_ONGOING;
        e->value = (int8_t)v;
    } else {
        for (int i = 0; i < N_OF(effect_conds) && cond < 0; i++)
            if (yr_ieq(c, effect_conds[i].name))
                cond = effect_conds[i].cond;
    }
    if (cond < 0) {
        const char *names[N_OF(effect_conds) + 1];
        for (int i = 0; i < N_OF(effect_conds); i++)
            names[i] = effect_conds[i].name;
        names[N_OF(effect_conds)] = "ongoing N";
        return yr_unknown(&L->r, n, "condition", c, names, N_OF(effect_conds) + 1, "");
    }
    e->cond = (uint8_t)cond;
    static const struct {
        const char *words;
        uint8_t ends;
    } durs[] = {{"save ends", FA_ENDS_SAVE},
                {"end of your next turn", FA_ENDS_END_OF_TURN},
                {"start of your next turn", FA_ENDS_START_OF_TURN},
                {"sustain", FA_ENDS_SUSTAIN}};
    if (!dur) {
        if (cond != FA_C_PRONE)
            return FAIL(L, n,
                        "the effect needs a duration: (save ends), (end of your next "
                        "turn), (start of your next turn) or (sustain); only prone lasts "
                        "until its bearer stands");
        e->ends = FA_ENDS_EVENT;
        return FRAY_OK;
    }
    for (int i = 0; i < N_OF(durs); i++)
        if (yr_ieq(dur, durs[i].words)) {
            e->ends = durs[i].ends;
            return FRAY_OK;
        }
    return FAIL(L, n,
                "unknown duration '%.30s'; expected save ends, end of your next turn, "
                "start of your next turn or sustain",
                dur);
}

/* (alloy-space) "push N", "pull N", "slide N" (squares, 004:459): which,
 * or FA_FORCED_NONE when the effect is not one. */
static int rd_forced(const yn *n) {
    static const char *const words[] = {"push", "pull", "slide"};
    if (!scalar(n))
        return FA_FORCED_NONE;
    const char *c = blanks(n->text);
    for (int i = 0; i < N_OF(words); i++) {
        size_t l = strlen(words[i]);
        if (strncasecmp(c, words[i], l) == 0 && (c[l] == ' ' || c[l] == '\0'))
            return i;
    }
    return FA_FORCED_NONE;
}

static fray_status rd_forced_n(al *L, const yn *n, fa_power *p, int how) {
    static const char *const words[] = {"push", "pull", "slide"};
    const char *q = blanks(blanks(n->text) + strlen(words[how]));
    long v;
    if (!scan_int(&q, &v) || *blanks(q) != '\0')
        return FAIL(L, n, "a forced move is '%s N' (N squares), got '%.40s'", words[how],
                    n->text);
    if (v < 1 || v > 10)
        return FAIL_RANGE(L, n, "a %s moves 1 to 10 squares, got %ld", words[how], v);
    p->forced = (uint8_t)how;
    p->forced_n = (int8_t)v;
    return FRAY_OK;
}

static fray_status rd_power(al *L, const yn *n, const fa_statblock *sb, fa_power *p) {
    static const char *const keys[] = {"id", "name", "action", "usage", "attack",
                                       "damage", "weapon", "area", "range", "effects",
                                       "notes", "teleport"};
    fray_status st = yr_keys(&L->r, n, "a power", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    memset(p, 0, sizeof *p);
    p->weapon = -1;
    p->action = FA_ACT_STANDARD;
    p->usage = FA_AT_WILL;
    const yn *v;
    if (!(v = yr_get(n, "name")))
        return yr_missing(&L->r, n, "name", "a power");
    if ((st = yr_text(&L->r, v, "the power's name", p->name, sizeof p->name)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "id")) != NULL) {
        if ((st = rd_id(L, v, "the power's id", p->id)) != FRAY_OK)
            return st;
    } else {
        slug(p->name, p->id, sizeof p->id);
    }
    int x;
    if ((v = yr_get(n, "action")) != NULL) {
        if ((st = rd_choice(L, v, "action type", action_names, 5, &x)) != FRAY_OK)
            return st;
        p->action = (uint8_t)x;
    }
    if ((v = yr_get(n, "usage")) != NULL) {
        if ((st = rd_choice(L, v, "usage", usage_names, 3, &x)) != FRAY_OK)
            return st;
        p->usage = (uint8_t)x;
    }
    p->forced = FA_FORCED_NONE;
    const yn *tele = yr_get(n, "teleport");
    if (tele) {
        /* (alloy-space) a power that teleports its user: no attack */
        static const char *const no_attack[] = {"attack", "damage", "weapon", "area",
                                                "range", "effects"};
        for (int i = 0; i < N_OF(no_attack); i++)
            if ((v = yr_get(n, no_attack[i])) != NULL)
                return FAIL(L, v, "a teleport power has no %s: it only moves its user",
                            no_attack[i]);
        if ((st = rd_feet(L, tele, "the teleport's distance", 5, 600, &x)) != FRAY_OK)
            return st;
        p->teleport = (int8_t)x;
        p->mult = 0;
        return FRAY_OK;
    }
    if (!(v = yr_get(n, "attack")))
        return yr_missing(&L->r, n, "attack", "a power (its attack line: Str vs Reflex)");
    if ((st = rd_attack_line(L, v, p)) != FRAY_OK)
        return st;
    const yn *dmg = yr_get(n, "damage");
    if (dmg) {
        if ((st = rd_power_damage(L, dmg, p)) != FRAY_OK)
            return st;
    } else {
        p->mult = 0; /* effects only */
    }
    if ((v = yr_get(n, "weapon")) != NULL) {
        char b[64];
        if (!scalar(v))
            return FAIL(L, v, "expected the id of a weapon the stat block carries, got %s",
                        yr_got(v, b));
        int slot = -1;
        for (int i = 0; i < sb->n_weapons && slot < 0; i++)
            if (yr_ieq(L->s->weapons[sb->weapons[i].weapon].id, v->text))
                slot = i;
        if (slot < 0)
            return FAIL(L, v, "the power's weapon '%.40s' is not one the stat block carries",
                        v->text);
        if (p->weapon < 0 && dmg)
            return FAIL(L, v, "the power names a weapon but its damage is dice, not [W]");
        p->weapon = (int8_t)slot;
    } else if (p->weapon == 0 && sb->n_weapons == 0) {
        return FAIL(L, dmg, "[W] damage needs a weapon, and the stat block carries none");
    }
    const yn *area = yr_get(n, "area");
    if (area && (st = rd_area(L, area, &p->area, &p->area_size)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "range")) != NULL) {
        if (scalar(v) && yr_ieq(v->text, "melee")) {
            p->range = 0;
        } else {
            if ((st = rd_feet(L, v, "the power's range", 5, 1000, &x)) != FRAY_OK)
                return st;
            p->range = (int16_t)x;
            p->ranged = p->area != FA_AREA_BLAST && p->area != FA_AREA_CLOSE_BURST;
        }
    }
    if ((p->area == FA_AREA_BURST || p->area == FA_AREA_WALL) && p->range == 0)
        return yr_missing(&L->r, n, "range",
                          "a power with an area burst or a wall (the origin is within range)");
    const yn *eff = yr_get(n, "effects");
    if (yr_n_items(eff) > FA_POWER_EFFECTS)
        return FAIL_RANGE(L, eff, "a power has at most %d effects", FA_POWER_EFFECTS);
    for (const yn *it = yr_items(eff); it; it = yr_next_item(eff, it)) {
        int how = rd_forced(it);
        if (how != FA_FORCED_NONE) {
            if (p->forced != FA_FORCED_NONE)
                return FAIL(L, it, "a power moves its target once: one push, pull or slide");
            if ((st = rd_forced_n(L, it, p, how)) != FRAY_OK)
                return st;
            continue;
        }
        if ((st = rd_effect(L, it, &p->effects[p->n_effects])) != FRAY_OK)
            return st;
        p->n_effects++;
    }
    if (!dmg && p->n_effects == 0 && p->forced == FA_FORCED_NONE)
        return FAIL(L, n, "the power '%s' has neither damage nor effects", p->name);
    return FRAY_OK;
}

/* ---- Stat blocks ------------------------------------------------------------------------- */

static int find_sb(const fa_setup *s, const char *name) {
    for (int i = 0; i < s->n_sb; i++)
        if (yr_ieq(s->sb[i].id, name) || yr_ieq(s->sb[i].name, name))
            return i;
    return -1;
}

static fray_status rd_sb_weapon(al *L, const yn *n, fa_sb_weapon *out) {
    static const char *const keys[] = {"weapon", "proficient", "ammo", "notes"};
    const yn *idn = n;
    out->proficient = true;
    out->ammo = -2; /* not given */
    fray_status st;
    if (n && n->type == YN_MAP) {
        if ((st = yr_keys(&L->r, n, "a weapon carried", keys, N_OF(keys), false)) != FRAY_OK)
            return st;
        if (!(idn = yr_get(n, "weapon")))
            return yr_missing(&L->r, n, "weapon", "a weapon carried (its catalog id)");
        const yn *v;
        if ((v = yr_get(n, "proficient")) != NULL &&
            (st = yr_bool(&L->r, v, "proficient", &out->proficient)) != FRAY_OK)
            return st;
        if ((v = yr_get(n, "ammo")) != NULL) {
            int x;
            if (scalar(v) && yr_ieq(v->text, "unlimited")) {
                out->ammo = -1;
            } else {
                if ((st = yr_int(&L->r, v, "ammo (rounds carried besides the magazine, or unlimited)",
                                 0, 10000, &x)) != FRAY_OK)
                    return st;
                out->ammo = (int16_t)x;
            }
        }
    }
    char b[64];
    if (!scalar(idn))
        return FAIL(L, idn, "expected a weapon's catalog id (pistol) or {weapon: pistol, "
                            "proficient: false}, got %s",
                    yr_got(idn, b));
    int w = find_weapon(L->s, idn->text);
    if (w < 0)
        return unknown_weapon(L, idn, idn->text);
    out->weapon = (int16_t)w;
    /* Not given: two magazines besides the one loaded; a thrown weapon
     * only the one in hand; other weapons do not count ammunition. */
    if (out->ammo == -2)
        out->ammo = (int16_t)(L->s->weapons[w].magazine > 0       ? 2 * L->s->weapons[w].magazine
                              : L->s->weapons[w].kind == FA_WK_THROWN ? 0
                                                                     : -1);
    /* Thrown weapons count as their own ammunition (004:101, 112): ammo is how
     * many more are carried besides the one in hand. */
    if (out->ammo >= 0 && L->s->weapons[w].magazine == 0 &&
        L->s->weapons[w].kind != FA_WK_THROWN)
        return FAIL(L, yr_get(n, "ammo"),
                    "the %s has no magazine and is not thrown; its ammunition is not counted",
                    L->s->weapons[w].name);
    return FRAY_OK;
}

/* (alloy-objects) A catalog's item by id, -1 none. */
static int find_item(const fa_setup *s, const char *id) {
    for (int i = 0; i < s->n_items; i++)
        if (yr_ieq(s->items[i].id, id))
            return i;
    return -1;
}

static fray_status unknown_item(al *L, const yn *at, const char *id) {
    const char *names[FA_MAX_ITEMS];
    for (int i = 0; i < L->s->n_items; i++)
        names[i] = L->s->items[i].id;
    return yr_unknown(&L->r, at, "item", id, names, L->s->n_items,
                      "no item catalog is loaded (catalog: [../../data/alloy/items.yaml])");
}

/* (alloy-objects) An item to consume (004:531-537): {item: stim, name:
 * Stim, heals: 2d8+2, count: 1} or {item: medkit, surge: true}; in a
 * stat block (from_catalog) also a catalog's item by its id, `stim` or
 * {item: stim, count: 2}. */
static fray_status rd_item(al *L, const yn *n, fa_item *it, bool from_catalog) {
    static const char *const keys[] = {"item", "name", "heals", "surge", "count", "notes"};
    char b[64];
    fray_status st;
    memset(it, 0, sizeof *it);
    it->count = 1;
    if (from_catalog && scalar(n)) {
        int k = find_item(L->s, n->text);
        if (k < 0)
            return unknown_item(L, n, n->text);
        *it = L->s->items[k];
        it->count = 1;
        return FRAY_OK;
    }
    if (!n || n->type != YN_MAP)
        return FAIL(L, n, "expected an item {item: stim, heals: 2d8+2} or {item: medkit, "
                          "surge: true}, got %s", yr_got(n, b));
    if ((st = yr_keys(&L->r, n, "an item", keys, N_OF(keys), false)) != FRAY_OK)
        return st;
    const yn *v;
    if (!(v = yr_get(n, "item")))
        return yr_missing(&L->r, n, "item", "an item (its id)");
    if ((st = rd_id(L, v, "the item's id", it->id)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "name")) != NULL) {
        if ((st = yr_text(&L->r, v, "the item's name", it->name, sizeof it->name)) != FRAY_OK)
            return st;
    } else {
        name_from_id(it->id, it->name, sizeof it->name);
    }
    bool copied = false;
    if (from_catalog && !yr_get(n, "heals") && !yr_get(n, "surge")) {
        /* a catalog's item: its numbers; the block's name and count */
        int k = find_item(L->s, it->id);
        if (k < 0)
            return unknown_item(L, yr_get(n, "item"), it->id);
        char name[FA_NAME_MAX];
        memcpy(name, it->name, sizeof name);
        bool named = yr_get(n, "name") != NULL;
        *it = L->s->items[k];
        if (named)
            memcpy(it->name, name, sizeof name);
        it->count = 1;
        copied = true;
    }
    if ((v = yr_get(n, "surge")) != NULL &&
        (st = yr_bool(&L->r, v, "surge", &it->surge)) != FRAY_OK)
        return st;
    const yn *h = yr_get(n, "heals");
    if (h) {
        bool bad = false;
        const char *p = scalar(h) ? blanks(h->text) : "";
        long bonus = 0;
        if (!scalar(h) || !scan_dice(&p, &it->heals, &bad))
            return bad ? FAIL_RANGE(L, h, "heals: dice are 1 to 20 dice of 2 to 100 sides, "
                                          "got %s", yr_got(h, b))
                       : FAIL(L, h, "expected the hit points it heals (such as 2d8+2), got %s",
                              yr_got(h, b));
        p = blanks(p);
        if (*p == '+') {
            p = blanks(p + 1);
            if (!scan_int(&p, &bonus) || bonus > 100)
                return FAIL(L, h, "expected the hit points it heals (such as 2d8+2), got %s",
                            yr_got(h, b));
        }
        if (*blanks(p) != '\0')
            return FAIL(L, h, "expected the hit points it heals (such as 2d8+2), got %s",
                        yr_got(h, b));
        it->heal_bonus = (int8_t)bonus;
    }
    if (!copied && !h == !it->surge)
        return FAIL(L, n, "the item '%s' heals either its dice (heals: 2d8+2) or a heroic "
                          "surge (surge: true), one of the two", it->id);
    if ((v = yr_get(n, "count")) != NULL) {
        int x;
        if ((st = yr_int(&L->r, v, "count (how many are carried)", 1, 20, &x)) != FRAY_OK)
            return st;
        it->count = (int8_t)x;
    }
    return FRAY_OK;
}

/* Reads a stat block into sb. */
static fray_status rd_statblock(al *L, const yn *n, fa_statblock *sb) {
    static const char *const keys[] = {
        "id", "name", "size", "abilities", "level", "defenses", "attack", "initiative",
        "hp", "speed", "reach", "threatening-reach", "surges", "surge-value",
        "action-points", "skills", "crit-range", "blind-fight", "tactics", "weapons",
        "powers", "notes", "items"};
    fray_status st = yr_keys(&L->r, n, "a stat block", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    memset(sb, 0, sizeof *sb);
    const yn *v;
    int x;
    if (!(v = yr_get(n, "name")))
        return yr_missing(&L->r, n, "name", "a stat block");
    if ((st = yr_text(&L->r, v, "the stat block's name", sb->name, sizeof sb->name)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "id")) != NULL) {
        if ((st = rd_id(L, v, "the stat block's id", sb->id)) != FRAY_OK)
            return st;
    } else {
        slug(sb->name, sb->id, sizeof sb->id);
        if (!valid_id(sb->id))
            return FAIL(L, yr_get(n, "name"),
                        "the name '%s' makes no id (it must start with a letter); give id:",
                        sb->name);
    }
    sb->size = FA_SIZE_MEDIUM;
    if ((v = yr_get(n, "size")) != NULL) {
        if ((st = rd_choice(L, v, "size", size_names, N_OF(size_names), &x)) != FRAY_OK)
            return st;
        sb->size = (uint8_t)x;
    }
    for (int i = 0; i < FA_ABILITIES; i++)
        sb->score[i] = 10;
    if ((v = yr_get(n, "abilities")) != NULL) {
        if ((st = yr_keys(&L->r, v, "the ability scores (Str, Dex, Con, Int, Wis, Cha)",
                          ability_names, FA_ABILITIES, true)) != FRAY_OK)
            return st;
        for (int i = 0; i < FA_ABILITIES; i++) {
            const yn *k = yr_key_node(v, ability_names[i], true);
            if (k) {
                if ((st = yr_int(&L->r, k->value, ability_names[i], 1, 40, &x)) != FRAY_OK)
                    return st;
                sb->score[i] = (int8_t)x;
            }
        }
    }
    for (int i = 0; i < FA_ABILITIES; i++) {
        int sc = sb->score[i] - 10;
        sb->mod[i] = (int8_t)(sc >= 0 ? sc / 2 : -((1 - sc) / 2)); /* floor */
    }
    sb->level = 1;
    if ((v = yr_get(n, "level")) != NULL) {
        if ((st = yr_int(&L->r, v, "level", 1, 30, &x)) != FRAY_OK)
            return st;
        sb->level = (int8_t)x;
    }
    /* Defenses are stated (L7.8): Defense, Fortitude and Reflex required;
     * Will 10 unless given (L7.7). */
    if (!(v = yr_get(n, "defenses")))
        return yr_missing(&L->r, n, "defenses",
                          "a stat block (Defense, Fortitude, Reflex and Will, as the block states them)");
    if ((st = yr_keys(&L->r, v, "the defenses (Defense, Fortitude, Reflex, Will)",
                      defense_names, FA_DEFENSES, true)) != FRAY_OK)
        return st;
    for (int i = 0; i < FA_DEFENSES; i++) {
        const yn *k = yr_key_node(v, defense_names[i], true);
        if (!k && i != FA_DEF_WILL)
            return yr_missing(&L->r, v, defense_names[i], "the defenses");
        x = 10;
        if (k && (st = yr_int(&L->r, k->value, defense_names[i], 1, 60, &x)) != FRAY_OK)
            return st;
        sb->defense[i] = (int8_t)x;
    }
    if (!(v = yr_get(n, "attack")))
        return yr_missing(&L->r, n, "attack", "a stat block (its attack bonus, added to every attack)");
    if ((st = yr_int(&L->r, v, "the attack bonus", -10, 40, &x)) != FRAY_OK)
        return st;
    sb->attack_bonus = (int8_t)x;
    sb->init_mod = sb->mod[FA_DEX];
    if ((v = yr_get(n, "initiative")) != NULL) {
        if ((st = yr_int(&L->r, v, "the initiative modifier", -20, 40, &x)) != FRAY_OK)
            return st;
        sb->init_mod = (int8_t)x;
    }
    if (!(v = yr_get(n, "hp")))
        return yr_missing(&L->r, n, "hp", "a stat block (maximum hit points)");
    if ((st = yr_int(&L->r, v, "hit points", 1, 2000, &x)) != FRAY_OK)
        return st;
    sb->hp = (int16_t)x;
    sb->speed = 6;
    if ((v = yr_get(n, "speed")) != NULL) {
        if ((st = rd_feet(L, v, "speed", 0, 120, &x)) != FRAY_OK)
            return st;
        sb->speed = (int8_t)x;
    }
    sb->reach = 1;
    if ((v = yr_get(n, "reach")) != NULL) {
        if ((st = rd_feet(L, v, "reach", 5, 30, &x)) != FRAY_OK)
            return st;
        sb->reach = (int8_t)x;
    }
    if ((v = yr_get(n, "threatening-reach")) != NULL &&
        (st = yr_bool(&L->r, v, "threatening reach", &sb->threatening_reach)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "surges")) != NULL) {
        if ((st = yr_int(&L->r, v, "heroic surges", 0, 20, &x)) != FRAY_OK)
            return st;
        sb->surges = (int8_t)x;
    }
    sb->surge_value = (int16_t)(sb->hp / 4);
    if ((v = yr_get(n, "surge-value")) != NULL) {
        if ((st = yr_int(&L->r, v, "the surge value (hit points)", 1, 1000, &x)) != FRAY_OK)
            return st;
        sb->surge_value = (int16_t)x;
    }
    if ((v = yr_get(n, "action-points")) != NULL) {
        if ((st = yr_int(&L->r, v, "action points", 0, 10, &x)) != FRAY_OK)
            return st;
        sb->action_points = (int8_t)x;
    }
    for (int i = 0; i < FA_SKILLS; i++)
        sb->skill[i] = sb->mod[skill_ability[i]];
    if ((v = yr_get(n, "skills")) != NULL) {
        if ((st = yr_keys(&L->r, v, "the skills (Acrobatics, Athletics, Notice, Bluff)",
                          skill_names, FA_SKILLS, true)) != FRAY_OK)
            return st;
        for (int i = 0; i < FA_SKILLS; i++) {
            const yn *k = yr_key_node(v, skill_names[i], true);
            if (k) {
                if ((st = yr_int(&L->r, k->value, skill_names[i], -10, 40, &x)) != FRAY_OK)
                    return st;
                sb->skill[i] = (int8_t)x;
            }
        }
    }
    sb->crit_min = 20;
    if ((v = yr_get(n, "crit-range")) != NULL) {
        /* 19 or "19-20" */
        long a = 0, c = 20;
        const char *p = scalar(v) ? blanks(v->text) : "";
        bool ok = scalar(v) && scan_int(&p, &a);
        if (ok && *p == '-') {
            p++;
            ok = scan_int(&p, &c) && c == 20;
        }
        if (!ok || *blanks(p) != '\0') {
            char b[64];
            return FAIL(L, v, "expected a crit range such as 19-20 (or 19), got %s", yr_got(v, b));
        }
        if (a < 2 || a > 20)
            return FAIL_RANGE(L, v, "the crit range starts between 2 and 20, got %ld", a);
        sb->crit_min = (int8_t)a;
    }
    if ((v = yr_get(n, "blind-fight")) != NULL &&
        (st = yr_bool(&L->r, v, "Blind-Fight", &sb->blind_fight)) != FRAY_OK)
        return st;
    if ((v = yr_get(n, "tactics")) != NULL) {
        if ((st = rd_choice(L, v, "tactics", tactics_names, FA_TACTICS_KINDS, &x)) != FRAY_OK)
            return st;
        sb->tactics = (uint8_t)x;
    }
    const yn *ws = yr_get(n, "weapons");
    if (yr_n_items(ws) > FA_SB_WEAPONS)
        return FAIL_RANGE(L, ws, "a stat block carries at most %d weapons, got %d",
                          FA_SB_WEAPONS, yr_n_items(ws));
    for (const yn *it = yr_items(ws); it; it = yr_next_item(ws, it)) {
        if ((st = rd_sb_weapon(L, it, &sb->weapons[sb->n_weapons])) != FRAY_OK)
            return st;
        sb->n_weapons++;
    }
    const yn *ps = yr_get(n, "powers");
    if (yr_n_items(ps) > FA_SB_POWERS)
        return FAIL_RANGE(L, ps, "a stat block has at most %d powers, got %d", FA_SB_POWERS,
                          yr_n_items(ps));
    for (const yn *it = yr_items(ps); it; it = yr_next_item(ps, it)) {
        fa_power *p = &sb->powers[sb->n_powers];
        if ((st = rd_power(L, it, sb, p)) != FRAY_OK)
            return st;
        for (int j = 0; j < sb->n_powers; j++)
            if (yr_ieq(sb->powers[j].id, p->id))
                return FAIL(L, it, "two powers with the id '%s' in one stat block", p->id);
        sb->n_powers++;
    }
    const yn *is = yr_get(n, "items");   /* (alloy-objects) */
    if (yr_n_items(is) > FA_SB_ITEMS)
        return FAIL_RANGE(L, is, "a stat block carries at most %d items, got %d", FA_SB_ITEMS,
                          yr_n_items(is));
    for (const yn *it = yr_items(is); it; it = yr_next_item(is, it)) {
        fa_item *item = &sb->items[sb->n_items];
        if ((st = rd_item(L, it, item, true)) != FRAY_OK)
            return st;
        for (int j = 0; j < sb->n_items; j++)
            if (yr_ieq(sb->items[j].id, item->id))
                return FAIL(L, it, "two items with the id '%s' in one stat block", item->id);
        sb->n_items++;
    }
    return FRAY_OK;
}

static fray_status add_statblock(al *L, const yn *n, int *out) {
    fa_setup *s = L->s;
    if (s->n_sb == FA_MAX_STATBLOCKS)
        return FAIL_RANGE(L, n, "more than %d stat blocks", FA_MAX_STATBLOCKS);
    fa_statblock *sb = &s->sb[s->n_sb];
    fray_status st = rd_statblock(L, n, sb);
    if (st != FRAY_OK)
        return st;
    for (int j = 0; j < s->n_sb; j++)
        if (yr_ieq(s->sb[j].id, sb->id) || yr_ieq(s->sb[j].name, sb->name))
            return FAIL(L, n, "the stat block '%s' is given twice (first in %s line %d)",
                        sb->name, L->sb_file[j], L->sb_node[j]->line);
    L->sb_node[s->n_sb] = n;
    L->sb_file[s->n_sb] = L->r.cur_file;
    if (out)
        *out = s->n_sb;
    s->n_sb++;
    return FRAY_OK;
}

/* ---- Files ------------------------------------------------------------------------------ */

static fray_status process(al *L, al_file *f);

static fray_status check_kind(al *L, const yn *root, int *out) {
    static const char expected[] =
        "'fray: encounter', 'fray: statblocks' or 'fray: catalog' with 'rules: alloy'";
    if (root->type != YN_MAP)
        return FAIL(L, root, "not a fray file: expected a mapping that starts with %s, got %s",
                    expected,
                    root->type == YN_SEQ ? "a list" : yr_is_null(root) ? "nothing" : "text");
    const yn *k = yr_key_node(root, "fray", false);
    if (!k)
        return FAIL(L, root, "missing key 'fray': a fray file starts with %s", expected);
    const yn *v = k->value;
    int i = scalar(v) ? yr_find_name(v->text, kind_names, 3) : -1;
    if (i < 0) {
        for (int j = 0; j < 3 && scalar(v); j++)
            if (yr_distance(v->text, kind_names[j]) <= 2)
                return FAIL(L, v, "'fray:' names no kind of fray file (did you mean '%s'?)",
                            kind_names[j]);
        return FAIL(L, v && !yr_is_null(v) ? v : k,
                    "'fray:' names no kind of fray file; expected %s", expected);
    }
    const yn *r = yr_get(root, "rules");
    char b[64];
    if (!r)
        return FAIL(L, root, "missing key 'rules': an Alloy file says rules: alloy");
    if (!scalar(r) || strcmp(r->text, "alloy") != 0) {
        if (scalar(r) && yr_distance(r->text, "alloy") <= 2)
            return FAIL(L, r, "no ruleset '%.40s' (did you mean 'alloy'?)", r->text);
        return FAIL(L, r, "this loader reads Alloy files (rules: alloy), got %s",
                    yr_got(r, b));
    }
    *out = i;
    return yr_tag_check(&L->r);
}

/* "dir/" + rel; rel alone when it is absolute or dir is empty. */
static char *join(al *L, const char *dir, const char *rel) {
    size_t dl = (rel[0] == '/' || !dir) ? 0 : strlen(dir);
    size_t rl = strlen(rel);
    char *p = yr_alloc(&L->r, dl + rl + 2);
    if (!p)
        return NULL;
    if (dl) {
        memcpy(p, dir, dl);
        if (p[dl - 1] != '/')
            p[dl++] = '/';
    }
    memcpy(p + dl, rel, rl + 1);
    return p;
}

static char *dir_of(al *L, const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return yr_strndup(&L->r, "", 0);
    return yr_strndup(&L->r, path, (size_t)(slash - path) + 1);
}

static fray_status open_file(al *L, const char *path, const yn *from, al_file **out) {
    char real[PATH_MAX];
    const char *key = realpath(path, real) ? real : path;
    for (int i = 0; i < L->n_files; i++)
        if (strcmp(L->real[i], key) == 0) {
            *out = L->files[i];
            return FRAY_OK;
        }
    if (L->n_files == AL_MAX_FILES)
        return FAIL_RANGE(L, from, "more than %d files", AL_MAX_FILES);
    al_file *f = yr_alloc(&L->r, sizeof *f);
    char *k = f ? yr_strndup(&L->r, key, strlen(key)) : NULL;
    char *d = f ? dir_of(L, path) : NULL;
    if (!k || !d)
        return yr_nomem(&L->r);
    const char *saved = L->r.cur_file;
    f->display = path;
    f->dir = d;
    fray_status st = yr_parse_file(&L->r, path, path, from, &f->root);
    if (st == FRAY_OK)
        st = check_kind(L, f->root, &f->kind);
    if (st != FRAY_OK)
        return st;
    L->r.cur_file = saved;
    L->real[L->n_files] = k;
    L->files[L->n_files++] = f;
    *out = f;
    return FRAY_OK;
}

/* The files a key names (catalog:, statblocks:), each of kind `want`;
 * inline stat blocks are read when `inline_ok`. */
static fray_status include(al *L, const yn *list, int want, bool inline_ok) {
    char b[64];
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it)) {
        fray_status st;
        if (inline_ok && it->type == YN_MAP) {
            if ((st = add_statblock(L, it, NULL)) != FRAY_OK)
                return st;
            continue;
        }
        if (!scalar(it))
            return FAIL(L, it, "expected a file's path%s, got %s",
                        inline_ok ? " or a stat block" : "", yr_got(it, b));
        char *path = join(L, L->cur_dir, it->text);
        if (!path)
            return yr_nomem(&L->r);
        al_file *f;
        if ((st = open_file(L, path, it, &f)) != FRAY_OK)
            return st;
        if (f->kind != want)
            return FAIL(L, it, "'%.60s' is a file of kind '%s'; expected '%s' here", it->text,
                        kind_names[f->kind], kind_names[want]);
        if (!f->done && (st = process(L, f)) != FRAY_OK)
            return st;
    }
    return FRAY_OK;
}

static fray_status rd_catalog_file(al *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "weapons", "notes", "items"};
    fray_status st = yr_keys(&L->r, root, "a weapon catalog", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *ws = yr_get(root, "weapons");
    for (const yn *it = yr_items(ws); it; it = yr_next_item(ws, it))
        if ((st = add_weapon(L, it)) != FRAY_OK)
            return st;
    /* (alloy-objects) items to consume, named by stat blocks */
    const yn *is = yr_get(root, "items");
    for (const yn *it = yr_items(is); it; it = yr_next_item(is, it)) {
        fa_item item;
        if ((st = rd_item(L, it, &item, false)) != FRAY_OK)
            return st;
        if (find_item(L->s, item.id) >= 0)
            return FAIL(L, it, "the item '%s' is in the catalogs twice", item.id);
        if (L->s->n_items >= FA_MAX_ITEMS)
            return FAIL_RANGE(L, it, "the catalogs hold at most %d items", FA_MAX_ITEMS);
        L->s->items[L->s->n_items++] = item;
    }
    return FRAY_OK;
}

static fray_status rd_statblocks_file(al *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "catalog", "statblocks",
                                       "notes"};
    fray_status st = yr_keys(&L->r, root, "a stat-block file", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    if ((st = include(L, yr_get(root, "catalog"), K_CATALOG, false)) != FRAY_OK)
        return st;
    const yn *list = yr_get(root, "statblocks");
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it))
        if ((st = add_statblock(L, it, NULL)) != FRAY_OK)
            return st;
    return FRAY_OK;
}

/* ---- Encounters ------------------------------------------------------------------------------ */

static fray_status rd_options(al *L, const yn *n, fa_options *o) {
    const char *keys[N_OPTIONS + 1];
    for (int i = 0; i < N_OPTIONS; i++)
        keys[i] = options_table[i].key;
    keys[N_OPTIONS] = "notes";
    fray_status st = yr_keys(&L->r, n, "the options", keys, N_OPTIONS + 1, false);
    if (st != FRAY_OK)
        return st;
    for (const yn *k = n->first; k; k = k->next) {
        int which = option_find(k->text);
        if (which < 0)
            continue; /* notes */
        char why[160], b[64];
        if (!scalar(k->value))
            return FAIL(L, k->value ? k->value : k, "expected a single value for the option %s, got %s",
                        k->text, yr_got(k->value, b));
        fray_status ost = option_parse(o, which, k->value->text, why, sizeof why);
        if (ost != FRAY_OK)
            return yr_fail(&L->r, k->value, ost, "%s, got %s", why, yr_got(k->value, b));
    }
    return FRAY_OK;
}

static int find_side(const fa_setup *s, const char *name) {
    for (int i = 0; i < s->n_sides; i++)
        if (yr_ieq(s->side_name[i], name))
            return i;
    return -1;
}

static int find_group(const al *L, const char *id) {
    for (int i = 0; i < L->n_groups; i++)
        if (yr_ieq(L->groups[i].id, id))
            return i;
    return -1;
}

static fray_status add_side(al *L, const yn *n, int *out) {
    fa_setup *s = L->s;
    if (s->n_sides == FA_MAX_SIDES)
        return FAIL_RANGE(L, n, "more than %d sides", FA_MAX_SIDES);
    char name[FA_NAME_MAX];
    fray_status st = yr_text(&L->r, n, "a side's name", name, sizeof name);
    if (st != FRAY_OK)
        return st;
    if (find_side(s, name) >= 0)
        return FAIL(L, n, "the side '%s' is named twice", name);
    memcpy(s->side_name[s->n_sides], name, sizeof name);
    *out = s->n_sides++;
    return FRAY_OK;
}

static fray_status rd_combatant(al *L, const yn *n, bool sides_given) {
    static const char *const keys[] = {"id", "name", "statblock", "count", "side", "at",
                                       "aware", "wield", "tactics", "notes", "joins"};
    fa_setup *s = L->s;
    fray_status st = yr_keys(&L->r, n, "a combatant", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    int sbi;
    if (!(v = yr_get(n, "statblock")))
        return yr_missing(&L->r, n, "statblock", "a combatant");
    if (v->type == YN_MAP) {
        if ((st = add_statblock(L, v, &sbi)) != FRAY_OK)
            return st;
    } else {
        char b[64];
        if (!scalar(v))
            return FAIL(L, v, "expected a stat block's name, or a stat block, got %s",
                        yr_got(v, b));
        sbi = find_sb(s, v->text);
        if (sbi < 0) {
            const char *names[FA_MAX_STATBLOCKS];
            for (int i = 0; i < s->n_sb; i++)
                names[i] = s->sb[i].name;
            return yr_unknown(&L->r, v, "stat block", v->text, names, s->n_sb,
                              "no stat blocks are loaded (statblocks: [file.yaml])");
        }
    }
    const fa_statblock *sb = &s->sb[sbi];
    int count = 1;
    if ((v = yr_get(n, "count")) != NULL &&
        (st = yr_int(&L->r, v, "count", 1, FA_MAX_COMBATANTS, &count)) != FRAY_OK)
        return st;
    if (s->n + count > FA_MAX_COMBATANTS)
        return FAIL_RANGE(L, n, "more than %d combatants", FA_MAX_COMBATANTS);
    al_group *g = &L->groups[L->n_groups];
    memset(g, 0, sizeof *g);
    g->node = n;
    char name[FA_NAME_MAX];
    const yn *idn = yr_get(n, "id");
    const yn *namen = yr_get(n, "name");
    if (namen && (st = yr_text(&L->r, namen, "the combatant's name", name, sizeof name - 4)) != FRAY_OK)
        return st;
    if (idn) {
        if ((st = rd_id(L, idn, "the combatant's id", g->id)) != FRAY_OK)
            return st;
        if (strlen(g->id) > FA_ID_MAX - 4)
            return FAIL_RANGE(L, idn, "an id is at most %d characters", FA_ID_MAX - 4);
    } else if (namen) {
        slug(name, g->id, FA_ID_MAX - 4);
    } else {
        yr_copy(g->id, FA_ID_MAX - 4, sb->id);
    }
    if (!valid_id(g->id))
        return FAIL(L, n, "give the combatant an id (a letter, then letters, digits, '-')");
    /* The name: given, else from the id (red-knight -> Red knight), else
     * the stat block's. */
    if (!namen) {
        if (idn)
            name_from_id(g->id, name, sizeof name - 4);
        else
            yr_copy(name, sizeof name - 4, sb->name);
    }
    if (find_group(L, g->id) >= 0)
        return FAIL(L, idn ? idn : n,
                    "two combatants with the id '%s' (give each its own id:)", g->id);
    int side;
    if (!(v = yr_get(n, "side")))
        return yr_missing(&L->r, n, "side", "a combatant");
    char b[64];
    if (!scalar(v))
        return FAIL(L, v, "expected a side's name, got %s", yr_got(v, b));
    side = find_side(s, v->text);
    if (side < 0) {
        if (sides_given) {
            const char *names[FA_MAX_SIDES];
            for (int i = 0; i < s->n_sides; i++)
                names[i] = s->side_name[i];
            return yr_unknown(&L->r, v, "side", v->text, names, s->n_sides, "");
        }
        if ((st = add_side(L, v, &side)) != FRAY_OK)
            return st;
    }
    bool aware = true;
    if ((v = yr_get(n, "aware")) != NULL &&
        (st = yr_bool(&L->r, v, "aware", &aware)) != FRAY_OK)
        return st;
    int wield = sb->n_weapons > 0 ? 0 : -1;
    if ((v = yr_get(n, "wield")) != NULL) {
        if (!scalar(v))
            return FAIL(L, v, "expected a weapon the stat block carries, got %s", yr_got(v, b));
        wield = -2;
        if (yr_ieq(v->text, "nothing") || yr_ieq(v->text, "none"))
            wield = -1;
        for (int i = 0; i < sb->n_weapons && wield == -2; i++)
            if (yr_ieq(s->weapons[sb->weapons[i].weapon].id, v->text))
                wield = i;
        if (wield == -2)
            return FAIL(L, v, "'%.40s' is not a weapon %s carries (wield: one of its weapons, "
                              "or nothing)",
                        v->text, sb->name);
    }
    int tactics = sb->tactics;
    if ((v = yr_get(n, "tactics")) != NULL &&
        (st = rd_choice(L, v, "tactics", tactics_names, FA_TACTICS_KINDS, &tactics)) != FRAY_OK)
        return st;
    /* 004:241: joins the battle at the start of round N (skills.c). */
    int joins = 0;
    if ((v = yr_get(n, "joins")) != NULL &&
        (st = yr_int(&L->r, v, "joins (the round it joins the battle at the start of)",
                     2, 1000, &joins)) != FRAY_OK)
        return st;
    const yn *at = yr_get(n, "at");
    if (at && count > 1 && !(at->type == YN_SEQ && yr_n_items(at) == count &&
                             at->first->type == YN_SEQ))
        return FAIL(L, at, "with count: %d, at: is a list of %d spaces ([[x, y], ...])", count,
                    count);
    const yn *ati = count > 1 && at ? at->first : at;
    g->first = s->n;
    g->count = count;
    for (int k = 0; k < count; k++) {
        fa_combatant_def *c = &s->c[s->n];
        memset(c, 0, sizeof *c);
        if (count > 1) {
            int wi = snprintf(c->id, sizeof c->id, "%s-%d", g->id, k + 1);
            int wn = snprintf(c->name, sizeof c->name, "%s %d", name, k + 1);
            if (wi < 0 || wi >= (int)sizeof c->id || wn < 0 || wn >= (int)sizeof c->name)
                return FAIL_RANGE(L, n, "the id or name of '%s' is too long to number", g->id);
        } else {
            yr_copy(c->id, sizeof c->id, g->id);
            yr_copy(c->name, sizeof c->name, name);
        }
        for (int j = 0; j < s->n; j++)
            if (yr_ieq(s->c[j].id, c->id) || yr_ieq(s->c[j].name, c->name))
                return FAIL(L, n, "two combatants named '%s' (ids and names are unique)",
                            yr_ieq(s->c[j].id, c->id) ? c->id : c->name);
        c->sb = (int16_t)sbi;
        c->side = (int8_t)side;
        c->side_len = (int8_t)size_side(sb->size);
        c->aware = aware;
        c->wield = (int8_t)wield;
        c->tactics = (uint8_t)tactics;
        c->joins = (int16_t)joins;
        if (ati) {
            if ((st = yr_pos(&L->r, ati, "the combatant's space", &c->at)) != FRAY_OK)
                return st;
            L->c_placed[s->n] = true;
            ati = count > 1 ? ati->next : NULL;
        }
        L->c_node[s->n] = n;
        s->n++;
    }
    L->n_groups++;
    return FRAY_OK;
}

/* map.edges: walls and low walls between squares, as 99 Towers maps
 * (docs/file-formats.md "The map"). */
static fray_status rd_edges(al *L, const yn *list) {
    static const char *const keys[] = {"between", "south-of", "east-of", "length",
                                       "kind", "notes"};
    static const char *const kinds[] = {"wall", "low"};
    fray_status st;
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it)) {
        if ((st = yr_keys(&L->r, it, "an edge", keys, N_OF(keys), false)) != FRAY_OK)
            return st;
        const yn *v, *between = yr_get(it, "between"), *south = yr_get(it, "south-of"),
                     *east = yr_get(it, "east-of");
        int kind;
        if (!(v = yr_get(it, "kind")))
            return yr_missing(&L->r, it, "kind", "an edge");
        if ((st = yr_choice(&L->r, v, "an edge's kind", kinds, 2, &kind)) != FRAY_OK)
            return st;
        fray_edge e = kind == 0 ? FRAY_EDGE_WALL : FRAY_EDGE_LOW;
        if ((between != NULL) + (south != NULL) + (east != NULL) != 1)
            return yr_fail(&L->r, it, FRAY_ERR_PARSE,
                           "an edge gives one of: between: [[x, y], [x, y]], "
                           "south-of: [x, y] or east-of: [x, y]");
        if (between) {
            fray_pos a, b;
            if (yr_n_items(between) != 2 || between->type != YN_SEQ)
                return yr_fail(&L->r, between, FRAY_ERR_PARSE,
                               "between names two spaces: [[x, y], [x, y]]");
            if ((st = yr_pos(&L->r, between->first, "between", &a)) != FRAY_OK ||
                (st = yr_pos(&L->r, between->first->next, "between", &b)) != FRAY_OK)
                return st;
            if (yr_get(it, "length"))
                return yr_fail(&L->r, yr_key_node(it, "length", false), FRAY_ERR_PARSE,
                               "length goes with south-of or east-of");
            if (fray_grid_set_edge(&L->s->map, a, b, e) != FRAY_OK)
                return yr_fail(&L->r, between, FRAY_ERR_PARSE,
                               "[%d, %d] and [%d, %d] are not side by side on the "
                               "map (an edge runs between two spaces that share a "
                               "side)",
                               a.x, a.y, b.x, b.y);
            continue;
        }
        fray_pos p;
        int len = 1;
        const yn *pn = south ? south : east;
        if ((st = yr_pos(&L->r, pn, south ? "south-of" : "east-of", &p)) != FRAY_OK)
            return st;
        if ((v = yr_get(it, "length")) &&
            (st = yr_int(&L->r, v, "length", 1, FRAY_GRID_MAX, &len)) != FRAY_OK)
            return st;
        for (int i = 0; i < len; i++) {
            fray_pos a = p, b = p;
            if (south) {
                a.x = b.x = (int16_t)(p.x + i);
                b.y = (int16_t)(p.y + 1);
            } else {
                a.y = b.y = (int16_t)(p.y + i);
                b.x = (int16_t)(p.x + 1);
            }
            if (fray_grid_set_edge(&L->s->map, a, b, e) != FRAY_OK)
                return yr_fail(&L->r, pn, FRAY_ERR_RANGE,
                               "the edge between [%d, %d] and [%d, %d] is off the "
                               "map (%dx%d)",
                               a.x, a.y, b.x, b.y, L->s->map.w, L->s->map.h);
        }
    }
    return FRAY_OK;
}

static fray_status rd_map(al *L, const yn *n) {
    static const char *const keys[] = {"art", "legend", "edges", "notes"};
    static const char *const terrains[] = {"open", "wall", "difficult", "window", "pit"};
    fray_status st = yr_keys(&L->r, n, "the map", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *art = yr_get(n, "art");
    char b[64];
    if (!art)
        return yr_missing(&L->r, n, "art", "the map");
    if (!scalar(art))
        return FAIL(L, art, "expected the map drawn as text (art: |), got %s", yr_got(art, b));
    fray_grid_legend_entry legend[64];
    int n_legend = 0;
    const yn *lg = yr_get(n, "legend");
    if (lg && lg->type != YN_MAP)
        return FAIL(L, lg, "expected a mapping for legend, got %s", yr_got(lg, b));
    for (const yn *k = lg ? lg->first : NULL; k; k = k->next) {
        if (k->len != 1 || !isgraph((unsigned char)k->text[0]))
            return FAIL(L, k, "a legend key is one visible character (quote \"#\" and \"~\"), "
                              "got '%.20s'",
                        k->text);
        if (n_legend == N_OF(legend))
            return FAIL_RANGE(L, k, "more than %d legend entries", N_OF(legend));
        fray_grid_legend_entry *e = &legend[n_legend];
        memset(e, 0, sizeof *e);
        e->symbol = k->text[0];
        const yn *v = k->value;
        if (!scalar(v))
            return FAIL(L, v ? v : k, "expected a terrain (open, wall, difficult, window, pit) "
                                      "or a combatant's id, got %s",
                        yr_got(v, b));
        int t = yr_find_name(v->text, terrains, N_OF(terrains));
        if (t >= 0) {
            e->terrain = (fray_terrain)t;
        } else {
            int gi = find_group(L, v->text);
            if (gi < 0) {
                const char *names[FA_MAX_COMBATANTS + 5];
                int nn = 0;
                for (int i = 0; i < N_OF(terrains); i++)
                    names[nn++] = terrains[i];
                for (int i = 0; i < L->n_groups; i++)
                    names[nn++] = L->groups[i].id;
                return yr_unknown(&L->r, v, "terrain or combatant", v->text, names, nn, "");
            }
            e->is_placement = true;
            e->placement_id = gi;
        }
        n_legend++;
    }
    fray_diag gd;
    memset(&gd, 0, sizeof gd);
    int np = 0;
    st = fray_grid_parse(art->text, legend, n_legend, &L->s->map, L->placements,
                         FRAY_GRID_MAX * FRAY_GRID_MAX, &np, &gd);
    if (st != FRAY_OK)
        return yr_fail_in_art(&L->r, art, &gd, st);
    L->s->has_map = true;
    const yn *edges = yr_get(n, "edges");
    if (edges && (st = rd_edges(L, edges)) != FRAY_OK)
        return st;
    /* Legend marks: a group of N is marked on N squares (each a
     * combatant's top-left square, in reading order), or, when larger
     * than one square, drawn whole (N footprints of side x side). */
    int marks[FA_MAX_COMBATANTS] = {0};
    for (int i = 0; i < np; i++)
        marks[L->placements[i].placement_id]++;
    bool *taken = L->mark_taken;
    for (int gi = 0; gi < L->n_groups; gi++) {
        al_group *g = &L->groups[gi];
        if (marks[gi] == 0)
            continue;
        int side = L->s->c[g->first].side_len;
        bool whole = side > 1 && marks[gi] == g->count * side * side;
        if (!whole && marks[gi] != g->count)
            return FAIL(L, art,
                        "the map marks '%s' on %d squares; it has %d combatant%s (mark each "
                        "on one square%s)",
                        g->id, marks[gi], g->count, g->count > 1 ? "s" : "",
                        side > 1 ? ", or draw it whole" : "");
        memset(taken, 0, sizeof L->mark_taken);
        int k = 0;
        for (int i = 0; i < np; i++) {
            if (L->placements[i].placement_id != gi || taken[i])
                continue;
            fray_pos at = L->placements[i].at;
            if (whole) /* this square and the rest of its footprint */
                for (int dy = 0; dy < side; dy++)
                    for (int dx = 0; dx < side; dx++) {
                        int j = -1;
                        for (int m = 0; m < np && j < 0; m++)
                            if (L->placements[m].placement_id == gi && !taken[m] &&
                                L->placements[m].at.x == at.x + dx &&
                                L->placements[m].at.y == at.y + dy)
                                j = m;
                        if (j < 0) {
                            fray_diag md;
                            memset(&md, 0, sizeof md);
                            md.line = at.y + 1;
                            md.column = at.x + 1;
                            snprintf(md.message, sizeof md.message,
                                     "'%s' is drawn whole but its marks from [%d, %d] do not "
                                     "make %dx%d squares",
                                     g->id, at.x, at.y, side, side);
                            return yr_fail_in_art(&L->r, art, &md, FRAY_ERR_PARSE);
                        }
                        taken[j] = true;
                    }
            int ci = g->first + k++;
            if (L->c_placed[ci])
                return FAIL(L, yr_get(g->node, "at"),
                            "%s is placed twice: by at: and by the map legend",
                            L->s->c[ci].name);
            L->s->c[ci].at = at;
            L->c_placed[ci] = true;
        }
    }
    return FRAY_OK;
}

/* obscured: / dark: a list of spaces [x, y] and rectangles {from, to}. */
static fray_status rd_overlay(al *L, const yn *list, const char *what, fray_area *out) {
    static const char *const keys[] = {"from", "to", "notes"};
    const fray_grid *g = &L->s->map;
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it)) {
        fray_pos a, b;
        fray_status st;
        if (it->type == YN_MAP) {
            if ((st = yr_keys(&L->r, it, what, keys, N_OF(keys), false)) != FRAY_OK)
                return st;
            const yn *f = yr_get(it, "from"), *t = yr_get(it, "to");
            if (!f)
                return yr_missing(&L->r, it, "from", what);
            if (!t)
                return yr_missing(&L->r, it, "to", what);
            if ((st = yr_pos(&L->r, f, "from", &a)) != FRAY_OK ||
                (st = yr_pos(&L->r, t, "to", &b)) != FRAY_OK)
                return st;
        } else {
            if ((st = yr_pos(&L->r, it, what, &a)) != FRAY_OK)
                return st;
            b = a;
        }
        if (!fray_grid_in(g, a) || !fray_grid_in(g, b))
            return FAIL_RANGE(L, it, "%s: the space is off the map (%d x %d)", what, g->w, g->h);
        for (int y = a.y < b.y ? a.y : b.y; y <= (a.y < b.y ? b.y : a.y); y++)
            for (int x = a.x < b.x ? a.x : b.x; x <= (a.x < b.x ? b.x : a.x); x++)
                fray_area_add(out, (fray_pos){(int16_t)x, (int16_t)y});
    }
    return FRAY_OK;
}

/* (alloy-skills) Those who join later (joins: N, 004:241) go after those
 * there from the start, the earliest first, the file's order kept
 * otherwise: the state's first st->n combatants are those in the battle
 * (turn.c fa_state_init, skills.c fa_join_round). Someone must be there
 * at the start. */
static fray_status order_joiners(al *L, const yn *where) {
    fa_setup *s = L->s;
    int present = 0;
    for (int i = 0; i < s->n; i++)
        present += s->c[i].joins == 0;
    if (present == 0)
        return FAIL(L, where, "every combatant joins later (joins:): someone must be "
                              "in the battle at its start");
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0 && s->c[j - 1].joins > s->c[j].joins; j--) {
            fa_combatant_def t = s->c[j];
            s->c[j] = s->c[j - 1];
            s->c[j - 1] = t;
        }
    return FRAY_OK;
}

/* Places combatants no map or at: placed: on the open ground, each side
 * in its own column, facing the next (a duel toe to toe). */
static void auto_place(al *L) {
    fa_setup *s = L->s;
    int x = 28;
    for (int side = 0; side < s->n_sides; side++) {
        int y = 28, width = 1;
        for (int i = 0; i < s->n; i++)
            if (s->c[i].side == side && !L->c_placed[i]) {
                s->c[i].at = (fray_pos){(int16_t)x, (int16_t)y};
                y += s->c[i].side_len;
                if (s->c[i].side_len > width)
                    width = s->c[i].side_len;
                L->c_placed[i] = true;
            }
        x += width;
    }
}

static fray_status check_places(al *L) {
    fa_setup *s = L->s;
    int8_t occ[FRAY_GRID_MAX][FRAY_GRID_MAX];
    memset(occ, -1, sizeof occ);
    for (int i = 0; i < s->n; i++) {
        const fa_combatant_def *c = &s->c[i];
        const yn *at = yr_get(L->c_node[i], "at");
        const yn *blame = at ? at : L->c_node[i];
        if (!L->c_placed[i])
            return FAIL(L, L->c_node[i],
                        "%s has no place on the map: give it at: [x, y] or mark it in the "
                        "map legend",
                        c->name);
        for (int dy = 0; dy < c->side_len; dy++)
            for (int dx = 0; dx < c->side_len; dx++) {
                fray_pos p = {(int16_t)(c->at.x + dx), (int16_t)(c->at.y + dy)};
                if (!fray_grid_in(&s->map, p))
                    return FAIL_RANGE(L, blame, "%s at [%d, %d] is off the map (%d x %d)",
                                      c->name, c->at.x, c->at.y, s->map.w, s->map.h);
                int t = s->map.terrain[p.y][p.x];
                if (t != FRAY_TERRAIN_OPEN && t != FRAY_TERRAIN_DIFFICULT)
                    return FAIL(L, blame, "%s at [%d, %d] stands on a %s", c->name, p.x, p.y,
                                t == FRAY_TERRAIN_WALL     ? "wall"
                                : t == FRAY_TERRAIN_WINDOW ? "window"
                                                           : "pit");
                if (occ[p.y][p.x] >= 0)
                    return FAIL(L, blame, "%s and %s stand in the same space [%d, %d]",
                                s->c[occ[p.y][p.x]].name, c->name, p.x, p.y);
                occ[p.y][p.x] = (int8_t)i;
            }
    }
    return FRAY_OK;
}

static fray_status rd_encounter(al *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "description", "seed",
                                       "catalog", "statblocks", "options", "sides", "map",
                                       "obscured", "dark", "narrow", "round-limit", "combatants",
                                       "notes"};
    fa_setup *s = L->s;
    fray_status st = yr_keys(&L->r, root, "an encounter", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    char b[64];
    if (!(v = yr_get(root, "name")))
        return yr_missing(&L->r, root, "name", "an encounter");
    if ((st = yr_text(&L->r, v, "the encounter's name", s->name, sizeof s->name)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "seed")) != NULL) {
        const char *p = scalar(v) ? v->text : "";
        char *end = NULL;
        bool digits = *p != '\0';
        for (const char *q = p; *q; q++)
            digits = digits && isdigit((unsigned char)*q);
        errno = 0;
        unsigned long long x = digits ? strtoull(p, &end, 10) : 0;
        if (!digits || errno == ERANGE || x > UINT64_MAX)
            return FAIL(L, v, "expected a seed (a whole number from 0 to 2^64-1), got %s",
                        yr_got(v, b));
        s->seed = (uint64_t)x;
        s->has_seed = true;
    }
    if ((st = include(L, yr_get(root, "catalog"), K_CATALOG, false)) != FRAY_OK)
        return st;
    if ((st = include(L, yr_get(root, "statblocks"), K_STATBLOCKS, true)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "options")) != NULL && (st = rd_options(L, v, &s->opt)) != FRAY_OK)
        return st;
    const yn *sides = yr_get(root, "sides");
    for (const yn *it = yr_items(sides); it; it = yr_next_item(sides, it)) {
        int side;
        if ((st = add_side(L, it, &side)) != FRAY_OK)
            return st;
    }
    s->round_limit = 100;
    if ((v = yr_get(root, "round-limit")) != NULL &&
        (st = yr_int(&L->r, v, "the round limit", 1, 10000, &s->round_limit)) != FRAY_OK)
        return st;
    const yn *cs = yr_get(root, "combatants");
    if (!cs)
        return yr_missing(&L->r, root, "combatants", "an encounter");
    for (const yn *it = yr_items(cs); it; it = yr_next_item(cs, it))
        if ((st = rd_combatant(L, it, sides != NULL)) != FRAY_OK)
            return st;
    if (s->n_sides < 2)
        return FAIL(L, cs, "an encounter needs at least 2 sides; the combatants are all on '%s'",
                    s->n_sides ? s->side_name[0] : "none");
    for (int side = 0; side < s->n_sides; side++) {
        bool any = false;
        for (int i = 0; i < s->n && !any; i++)
            any = s->c[i].side == side;
        if (!any)
            return FAIL(L, sides, "the side '%s' has no combatants", s->side_name[side]);
    }
    /* 004:40: a surprise round when some, but not all, are aware. */
    bool some_aware = false, some_not = false;
    for (int i = 0; i < s->n; i++) {
        some_aware = some_aware || s->c[i].aware;
        some_not = some_not || !s->c[i].aware;
    }
    s->surprise = some_aware && some_not;
    const yn *map = yr_get(root, "map");
    if (map) {
        if ((st = rd_map(L, map)) != FRAY_OK)
            return st;
    } else {
        fray_grid_init(&s->map, FRAY_GRID_MAX, FRAY_GRID_MAX);
        auto_place(L);
    }
    if ((v = yr_get(root, "obscured")) != NULL &&
        (st = rd_overlay(L, v, "an obscured space (concealment)", &s->obscured)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "dark")) != NULL &&
        (st = rd_overlay(L, v, "a dark space (total concealment)", &s->dark)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "narrow")) != NULL &&   /* (alloy-space) 004:713 */
        (st = rd_overlay(L, v, "a narrow space (a squeeze to enter)", &s->narrow)) != FRAY_OK)
        return st;
    if ((st = check_places(L)) != FRAY_OK)
        return st;
    return order_joiners(L, cs);
}

static fray_status process(al *L, al_file *f) {
    const char *saved_file = L->r.cur_file;
    const char *saved_dir = L->cur_dir;
    L->r.cur_file = f->display;
    L->cur_dir = f->dir;
    f->done = true;
    fray_status st = f->kind == K_CATALOG      ? rd_catalog_file(L, f->root)
                     : f->kind == K_STATBLOCKS ? rd_statblocks_file(L, f->root)
                                               : rd_encounter(L, f->root);
    if (st == FRAY_OK) {
        L->r.cur_file = saved_file;
        L->cur_dir = saved_dir;
    }
    return st;
}

/* Loads `path` into *work (scratch); *kind: what the file was. */
static fray_status load_any(const char *path, const fray_allocator *alloc, fa_setup *work,
                            int *kind, struct fray__files *files, fray_diag *diag) {
    al *L = fray__alloc(alloc, sizeof *L);
    if (!L) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            yr_copy(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    memset(L, 0, sizeof *L);
    L->r.alloc = alloc;
    L->r.suggest_keys = true;
    L->r.files = files;
    L->r.top_paths = &path;
    L->r.n_top = 1;
    L->r.cur_file = path;
    L->s = work;
    memset(work, 0, sizeof *work);
    if (alloc)
        work->alloc = *alloc;
    fa_options_default(&work->opt);
    work->round_limit = 100;
    yr_copy(work->path, sizeof work->path, path);
    al_file *f = NULL;
    fray_status st = open_file(L, path, NULL, &f);
    if (st == FRAY_OK)
        st = process(L, f);
    if (st == FRAY_OK)
        *kind = f->kind;
    if (st != FRAY_OK) {
        yr_publish(&L->r, diag);
    } else if (diag) {
        memset(diag, 0, sizeof *diag);
    }
    yr_free_all(&L->r);
    fray__free(alloc, L, sizeof *L);
    return st;
}

static fray_status load_as(const char *path, const fray_allocator *alloc,
                           fa_setup **out, bool blocks_ok,
                           struct fray__files *files, fray_diag *diag) {
    if (out)
        *out = NULL;
    if (!path || !out) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            yr_copy(diag->message, sizeof diag->message, "no file to load");
        }
        return FRAY_ERR_INVALID;
    }
    fa_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            yr_copy(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    int kind = -1;
    fray_status st = load_any(path, alloc, s, &kind, files, diag);
    if (st == FRAY_OK && kind != K_ENCOUNTER &&
        !(blocks_ok && kind == K_STATBLOCKS)) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            diag->line = 1;
            diag->column = 1;
            snprintf(diag->message, sizeof diag->message,
                     "this is a %s file; a fight needs an encounter (fray: encounter)",
                     kind == K_CATALOG ? "weapon catalog" : "stat-block");
        }
        st = FRAY_ERR_PARSE;
    }
    if (st != FRAY_OK) {
        fray__free(alloc, s, sizeof *s);
        return st;
    }
    fa_setup_steps(s); /* (issue 16: the movement searches' steps) */
    *out = s;
    return FRAY_OK;
}

fray_status fa_load(const char *path, const fray_allocator *alloc, fa_setup **out,
                    fray_diag *diag) {
    return load_as(path, alloc, out, false, NULL, diag);
}

fray_status fa_load_files(const char *path, const fray_allocator *alloc,
                          fa_setup **out, struct fray__files *files,
                          fray_diag *diag) {
    return load_as(path, alloc, out, false, files, diag);
}

fray_status fa_load_blocks(const char *path, const fray_allocator *alloc,
                           fa_setup **out, fray_diag *diag) {
    return load_as(path, alloc, out, true, NULL, diag);
}

fray_status fa_check_file(const char *path, fray_diag *diag) {
    if (!path) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            yr_copy(diag->message, sizeof diag->message, "no file to check");
        }
        return FRAY_ERR_INVALID;
    }
    fa_setup *s = malloc(sizeof *s);
    if (!s) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            yr_copy(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    int kind = -1;
    fray_status st = load_any(path, NULL, s, &kind, NULL, diag);
    if (st == FRAY_OK && diag) {
        diag->file = path;
        if (kind == K_CATALOG && s->n_items > 0)   /* (alloy-objects) */
            snprintf(diag->message, sizeof diag->message,
                     "Alloy catalog: %d weapon%s, %d item%s", s->n_weapons,
                     s->n_weapons == 1 ? "" : "s", s->n_items, s->n_items == 1 ? "" : "s");
        else if (kind == K_CATALOG)
            snprintf(diag->message, sizeof diag->message, "Alloy weapon catalog: %d weapon%s",
                     s->n_weapons, s->n_weapons == 1 ? "" : "s");
        else if (kind == K_STATBLOCKS)
            snprintf(diag->message, sizeof diag->message,
                     "Alloy stat blocks: %d stat block%s (%d weapons known)", s->n_sb,
                     s->n_sb == 1 ? "" : "s", s->n_weapons);
        else if (s->has_map)
            snprintf(diag->message, sizeof diag->message,
                     "Alloy encounter \"%.60s\": %d combatants on %d sides, map %dx%d%s", s->name,
                     s->n, s->n_sides, s->map.w, s->map.h,
                     s->surprise ? ", a surprise round" : "");
        else
            snprintf(diag->message, sizeof diag->message,
                     "Alloy encounter \"%.60s\": %d combatants on %d sides, no map%s", s->name,
                     s->n, s->n_sides, s->surprise ? ", a surprise round" : "");
    }
    free(s);
    return st;
}

void fa_setup_free(fa_setup *s) {
    if (!s)
        return;
    fray_allocator a = s->alloc;
    fray__free(&a, s, sizeof *s);
}

fray_status fa_setup_copy(const fa_setup *s, const fray_allocator *alloc, fa_setup **out) {
    if (!s || !out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    fa_setup *c = fray__alloc(alloc, sizeof *c);
    if (!c)
        return FRAY_ERR_NOMEM;
    memcpy(c, s, sizeof *c);
    memset(&c->alloc, 0, sizeof c->alloc);
    if (alloc)
        c->alloc = *alloc;
    *out = c;
    return FRAY_OK;
}

/* ---- Sweeps (fray sim --vary) ------------------------------------------------------------- */

/* Numbers a designer sweeps, per combatant (or per stat block). */
static const char *const vary_stats[] = {"hp", "defense", "fortitude", "reflex", "will",
                                         "attack", "initiative", "speed", "level",
                                         "surges", "action-points"};

static fray_status vary_fail(fray_diag *diag, fray_status st, const char *fmt, const char *a,
                             const char *b) {
    if (diag) {
        memset(diag, 0, sizeof *diag);
        snprintf(diag->message, sizeof diag->message, fmt, a, b);
    }
    return st;
}

/* true when combatant id is who, or who-N (a counted group). */
static bool vary_matches(const char *id, const char *who) {
    size_t wl = strlen(who);
    if (yr_ieq(id, who))
        return true;
    if (strncasecmp(id, who, wl) != 0 || id[wl] != '-' || id[wl + 1] == '\0')
        return false;
    for (const char *p = id + wl + 1; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

/* Gives the combatants in `in` stat blocks of their own (copies where a
 * combatant outside shares theirs) and lists those blocks in out. Returns
 * how many, or -1 when the setup has no room for the copies (nothing
 * changed then). */
static int own_statblocks(fa_setup *s, const bool *in, int *out) {
    int copies = 0, n_out = 0;
    int16_t remap[FA_MAX_STATBLOCKS];
    for (int k = 0; k < FA_MAX_STATBLOCKS; k++)
        remap[k] = -1;
    for (int i = 0; i < s->n; i++) {
        if (!in[i] || remap[s->c[i].sb] >= 0)
            continue;
        int sbi = s->c[i].sb;
        bool shared = false;
        for (int j = 0; j < s->n && !shared; j++)
            shared = !in[j] && s->c[j].sb == sbi;
        copies += shared;
        remap[sbi] = (int16_t)(shared ? FA_MAX_STATBLOCKS : sbi); /* marked */
    }
    if (s->n_sb + copies > FA_MAX_STATBLOCKS)
        return -1;
    for (int k = 0; k < FA_MAX_STATBLOCKS; k++) {
        if (remap[k] == FA_MAX_STATBLOCKS) {
            s->sb[s->n_sb] = s->sb[k];
            remap[k] = (int16_t)s->n_sb++;
        }
        if (remap[k] >= 0)
            out[n_out++] = remap[k];
    }
    for (int i = 0; i < s->n; i++)
        if (in[i])
            s->c[i].sb = remap[s->c[i].sb];
    return n_out;
}

/* Every key a sweep of s takes, fed to n: the options, round-limit, and
 * WHO.STAT for each combatant id, counted group and stat block. */
static void vary_near_keys(const fa_setup *s, fray__near *n) {
    char key[FRAY__NEAR_MAX];
    for (int i = 0; i < N_OPTIONS; i++)
        fray__near_try(n, options_table[i].key);
    fray__near_try(n, "round-limit");
    /* Each combatant id, its group ("thug" of thug-2), each stat block. */
    for (int i = 0; i < 2 * s->n + s->n_sb; i++) {
        char who[FA_NAME_MAX];
        if (i < s->n) {
            snprintf(who, sizeof who, "%s", s->c[i].id);
        } else if (i < 2 * s->n) {
            const char *id = s->c[i - s->n].id, *dash = strrchr(id, '-');
            if (!dash || dash == id)
                continue;
            snprintf(who, sizeof who, "%.*s", (int)(dash - id), id);
            if (!vary_matches(id, who))
                continue;
        } else {
            snprintf(who, sizeof who, "%s", s->sb[i - 2 * s->n].id);
        }
        for (size_t k = 0; k < N_OF(vary_stats); k++) {
            snprintf(key, sizeof key, "%s.%s", who, vary_stats[k]);
            fray__near_try(n, key);
        }
    }
}

/* An unknown key's error gains "(did you mean 'K'?)" after its first
 * clause. */
static fray_status vary_near(const fa_setup *s, const char *key,
                             fray_status rc, fray_diag *diag) {
    if (rc != FRAY_ERR_PARSE || !diag)
        return rc;
    fray__near n;
    fray__near_init(&n, key);
    vary_near_keys(s, &n);
    fray__near_hint(diag->message, sizeof diag->message, fray__near_best(&n));
    return rc;
}

static fray_status setup_vary(fa_setup *s, const char *key, const char *value,
                              fray_diag *diag);

fray_status fa_setup_vary(fa_setup *s, const char *key, const char *value,
                          fray_diag *diag) {
    fray_status rc = setup_vary(s, key, value, diag);
    /* Only a key that names nothing: a value out of range is no typo of
     * the key. */
    if (rc == FRAY_ERR_PARSE && s && key && fa_setup_vary_scope(s, key, NULL, 0, NULL) != FRAY_OK)
        rc = vary_near(s, key, rc, diag);
    return rc;
}

fray_status fa_setup_vary_scope(const fa_setup *s, const char *key, char *buf,
                                size_t size, fray_diag *diag) {
    if (!s || !key || (!buf && size))
        return FRAY_ERR_INVALID;
    if (size)
        buf[0] = '\0';
    size_t len = 0;
#define PUT(...)                                                               \
    do {                                                                       \
        if (len < size) {                                                      \
            int w_ = snprintf(buf + len, size - len, __VA_ARGS__);            \
            len += w_ > 0 ? (size_t)w_ : 0;                                    \
        }                                                                      \
    } while (0)
    if (option_find(key) >= 0 || strcmp(key, "round-limit") == 0) {
        PUT("the whole encounter (%s)",
            option_find(key) >= 0 ? "an option" : "the round limit");
        return FRAY_OK;
    }
    static const char known[] =
        "the options (docs/rules/alloy.md), round-limit, and WHO.hp|defense|"
        "fortitude|reflex|will|attack|initiative|speed|level|surges|action-points";
    const char *dot = strrchr(key, '.');
    int stat = dot ? yr_find_name(dot + 1, vary_stats, N_OF(vary_stats)) : -1;
    if (!dot || stat < 0)
        return vary_near(s, key,
                         vary_fail(diag, FRAY_ERR_PARSE,
                                   "unknown key '%.40s'; the keys are %s", key,
                                   known),
                         diag);
    char who[FA_NAME_MAX];
    size_t wl = (size_t)(dot - key);
    if (wl >= sizeof who)
        wl = sizeof who - 1;
    memcpy(who, key, wl);
    who[wl] = '\0';
    bool any = false, exact = false;
    for (int i = 0; i < s->n; i++)
        if (vary_matches(s->c[i].id, who)) {
            any = true;
            exact = exact || yr_ieq(s->c[i].id, who);
        }
    int sbi = any ? -1 : find_sb(s, who);
    if (!any && sbi < 0)
        return vary_near(s, key,
                         vary_fail(diag, FRAY_ERR_PARSE,
                                   "no combatant or stat block '%.40s' (in "
                                   "the key '%.60s')",
                                   who, key),
                         diag);
    if (exact)
        PUT("the combatant ");
    else if (any)
        PUT("every combatant of the group %s: ", who);
    else
        PUT("every combatant of the stat block %s: ", s->sb[sbi].name);
    bool first = true;
    for (int i = 0; i < s->n; i++)
        if (any ? vary_matches(s->c[i].id, who) : s->c[i].sb == sbi) {
            PUT("%s%s", first ? "" : ", ", s->c[i].name);
            first = false;
        }
    if (first)
        PUT("nobody here");
#undef PUT
    return FRAY_OK;
}

static fray_status setup_vary(fa_setup *s, const char *key, const char *value,
                              fray_diag *diag) {
    if (!s || !key || !value)
        return FRAY_ERR_INVALID;
    static const char known[] =
        "the options (docs/rules/alloy.md), round-limit, and WHO.hp|defense|"
        "fortitude|reflex|will|attack|initiative|speed|level|surges|action-points";
    int which = option_find(key);
    if (which >= 0) {
        char why[160];
        fray_status ost = option_parse(&s->opt, which, value, why, sizeof why);
        if (ost != FRAY_OK)
            return vary_fail(diag, ost, "%s, got '%.40s'", why, value);
        return FRAY_OK;
    }
    long v;
    if (strcmp(key, "round-limit") == 0) {
        if (!yr_parse_long(value, &v) || v < 1 || v > 10000)
            return vary_fail(diag, FRAY_ERR_RANGE,
                             "%sround-limit is a whole number from 1 to 10000, got '%.40s'", "",
                             value);
        s->round_limit = (int)v;
        return FRAY_OK;
    }
    const char *dot = strrchr(key, '.');
    int stat = dot ? yr_find_name(dot + 1, vary_stats, N_OF(vary_stats)) : -1;
    if (!dot || stat < 0)
        return vary_fail(diag, FRAY_ERR_PARSE, "unknown key '%.40s'; the keys are %s", key,
                         known);
    char who[FA_NAME_MAX];
    size_t wl = (size_t)(dot - key);
    if (wl >= sizeof who)
        wl = sizeof who - 1;
    memcpy(who, key, wl);
    who[wl] = '\0';
    static const int lo[] = {1, 1, 1, 1, 1, -10, -20, 0, 1, 0, 0};
    static const int hi[] = {2000, 60, 60, 60, 60, 40, 40, 120, 30, 20, 10};
    if (!yr_parse_long(value, &v) || v < lo[stat] || v > hi[stat]) {
        char range[64];
        snprintf(range, sizeof range, "%d to %d%s", lo[stat], hi[stat],
                 stat == 7 ? " ft (a multiple of 5)" : "");
        return vary_fail(diag, FRAY_ERR_RANGE, "the value is a whole number from %s, got '%.40s'",
                         range, value);
    }
    if (stat == 7 && v % 5 != 0)
        return vary_fail(diag, FRAY_ERR_RANGE, "%sspeed is in feet, a multiple of 5, got '%.40s'",
                         "", value);
    /* WHO: a combatant, a counted group (thug: thug-1, thug-2 ...), else a
     * stat block (every combatant using it). */
    int targets[FA_MAX_STATBLOCKS];
    int nt = 0;
    bool in[FA_MAX_COMBATANTS] = {false};
    bool any = false;
    for (int i = 0; i < s->n; i++)
        any |= in[i] = vary_matches(s->c[i].id, who);
    if (any) {
        nt = own_statblocks(s, in, targets);
        if (nt < 0)
            return vary_fail(diag, FRAY_ERR_RANGE,
                             "%s%s: too many stat blocks to vary it alone", "", who);
    } else {
        int sbi = find_sb(s, who);
        if (sbi < 0)
            return vary_fail(diag, FRAY_ERR_PARSE,
                             "no combatant or stat block '%.40s' (in the key '%.60s')", who, key);
        targets[nt++] = sbi;
    }
    for (int t = 0; t < nt; t++) {
        fa_statblock *sb = &s->sb[targets[t]];
        switch (stat) {
        case 0:
            sb->hp = (int16_t)v;
            sb->surge_value = (int16_t)(v / 4);
            break;
        case 1: case 2: case 3: case 4: sb->defense[stat - 1] = (int8_t)v; break;
        case 5: sb->attack_bonus = (int8_t)v; break;
        case 6: sb->init_mod = (int8_t)v; break;
        case 7: sb->speed = (int8_t)(v / 5); break;
        case 8: sb->level = (int8_t)v; break;
        case 9: sb->surges = (int8_t)v; break;
        default: sb->action_points = (int8_t)v; break;
        }
    }
    return FRAY_OK;
}

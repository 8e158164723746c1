/*
 * load.c - 99 Towers data files -> ft_setup (docs/file-formats.md).
 *
 * Three kinds of file, YAML or JSON (JSON is YAML's flow style), each a
 * mapping whose `fray:` key names its kind:
 *   fray: catalog     weapons and armor (data/towers/equipment.yaml)
 *   fray: statblocks  stat blocks, by name
 *   fray: encounter   combatants, sides, map, options, and the catalogs and
 *                     stat-block files they use (paths relative to it)
 *
 * How it works, in the manner of Angband's parsers: libfyaml turns the text
 * into events; the events become a small tree of our own (every node keeps
 * its 1-based line and column, which libfyaml's public API gives for events
 * but not for document nodes); then one reader per kind of mapping checks
 * every key against its list and fills the setup. Every error names the
 * file, line and column of the node at fault and what was expected.
 *
 * Memory: the tree, the strings and the work area live in an arena of
 * chunks taken from the caller's fray_allocator and freed in one go, so a
 * failing allocator cannot leak. The setup is filled in a heap-allocated
 * scratch copy and handed over only on success: nothing is half-loaded.
 *
 * Error file names: fray_diag.file is borrowed, but an error may lie in a
 * file the encounter named (its stat blocks, its catalog), whose path
 * exists only while loading. Such a path is copied into diag->file_name
 * (diag->file NULL), so a copy of the diag stays valid; fray_diag_file()
 * reads either. Errors in a path the caller passed point at the caller's
 * string.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "towers_int.h"
#include "yaml_read.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <libfyaml.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- Vocabularies (from the X-macro lists of towers_int.h) --------------- */

#define LD_CODE(id, code, name) code,
#define LD_NAME(id, name) name,
static const char *const aspect_codes[FT_ASPECT_COUNT] = {FT_ASPECT_LIST(LD_CODE)};
static const char *const cv_codes[FT_CV_COUNT] = {FT_CV_LIST(LD_CODE)};
static const char *const damage_types[FT_DAMAGE_TYPE_COUNT] = {
    FT_DAMAGE_TYPE_LIST(LD_NAME)};
static const char *const keyword_names[FT_KEYWORD_COUNT] = {
    FT_KEYWORD_LIST(LD_NAME)};
static const char *const element_names[FT_ELEMENT_COUNT] = {
    FT_ELEMENT_LIST(LD_NAME)};
static const char *const applies_names[FT_APPLIES_COUNT] = {
    FT_APPLIES_LIST(LD_NAME)};
static const char *const tactics_names[FT_TACTICS_COUNT] = {
    FT_TACTICS_LIST(LD_NAME)};
static const char *const terrain_names[FRAY_TERRAIN_COUNT] = {
    FRAY_TERRAIN_LIST(LD_NAME)};
#undef LD_CODE
#undef LD_NAME

/* Seed 000 "Creature Sizes", rank -4..4 (the seed also spells the first
 * "Miniscule", which is accepted too). */
static const char *const size_names[9] = {
    "Minuscule", "Diminutive", "Tiny", "Small", "Medium",
    "Large",     "Huge",       "Gargantuan", "Colossal"};
static const char *const target_names[3] = {"nearest", "weakest", "strongest"};
static const char *const controller_names[2] = {"gm", "player"};
static const char *const deck_mode_names[3] = {"by-controller",
                                               "one-for-table",
                                               "per-combatant"};
static const char *const chip_names[3] = {"white", "red", "blue"};
static const char *const kind_names[3] = {"encounter", "statblocks", "catalog"};
enum { KIND_ENCOUNTER, KIND_STATBLOCKS, KIND_CATALOG };

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- Options -------------------------------------------------------------- */

void ft_options_default(ft_options *o) {
    memset(o, 0, sizeof *o);
    fray_deck_options_default(&o->deck);   /* RULINGS 1 */
    o->flip.min_one_card = false;          /* RULINGS 3 */
    o->decks = FT_DECKS_BY_CONTROLLER;     /* RULINGS 2 */
    o->hand_of_fate = 3;                   /* rules-facts.md "Hand of Fate" */
    o->flat_footed_loses_ss = true;        /* RULINGS 10 */
    o->full_defense_flip = 1;              /* RULINGS 11 */
    o->opportunity_delay = 3;              /* RULINGS 14 */
    o->mana_regen = 1;                     /* RULINGS 15 */
    o->dying_loses_lethal = true;          /* RULINGS 15/17 */
    o->dead_at_multiple = 2;               /* RULINGS 16 */
    o->disabled_unconscious = true;        /* RULINGS 17 */
    o->crit_needs_heart = true;            /* RULINGS 22 */
    o->recover_stun = 0;                   /* RULINGS 20: [[E]] */
    o->grapple_size_cards = true;          /* RULINGS 21 */
    o->surprise_delay = 10;                /* seed 000 "Entering Combat" */
    o->max_phase = 300;                    /* fray's limit: 30 rounds */
    o->simultaneous_duel = false;          /* seed 000 "Dueling" stage four */
    o->fresh_decks = false;                /* fray: decks as at a real table */
    o->unconscious_bonus = FT_UB_LETHAL;   /* seed 000 "STUN Damage" */
    o->area_centre_shift = 0;              /* seed 000 "Area of Effects": none */
    o->area_line_from_caster = false;      /* seed 000 "Line X": from the target */
    o->mana_element_cap = 0;               /* rules-facts "Magic": the pool's own */
    o->duel_concede = FT_CONCEDE_NEVER;    /* seed 000 "Dueling" (duel.c) */
    o->mark_cost = FT_COST_FREE;           /* seed 000 "Marked Targets": no cost given */
    o->companion_alone = FT_CA_PAIR;       /* seed 000 "Companions and Minions" */
    o->throw_range = 0;                    /* fray: 2 x Hard Strength */
    o->level_feet = 5;                     /* fray: one level is 5 feet */
    o->squeeze_flips = 1;                  /* fray: "a damage flip" is one card */
    o->pit_depth = 2;                      /* fray: a pit is 10 feet deep */
    o->join_initiative = FT_JOIN_FROM_ENTRY; /* gm.c: fray's reading */
    o->pair_flat_footed = FT_PFF_BOTH;       /* issue 7: companion.c */
    o->pair_second_move = FT_PSM_ALWAYS;     /* issue 7: engine.c */
    o->companion_initiative = FT_CI_NONE;    /* issue 7: engine.c begin */
    o->quick_stand_dtn = 10;               /* seed 000 "Action List": fray's DTN */
    o->quick_stand_phases = 2;             /* fray's: half of Stand's 4 */
    o->talents_add_up = true;              /* fray's: talents add up */
    o->tumble_fail = FT_TUMBLE_FAIL_STOP;  /* tumble.c: fray's reading */
    o->tumble_provokes = true;             /* tumble.c: as any move */
    o->tumble_untrained = false;           /* tumble.c: "using the Acrobatics skill" */
    o->share_end_one = false;              /* seed 000 "Moving Through Spaces": less than one */
    o->fate_exchange_below = 0;            /* issue 7: no exchange by the tactics */
}

/* ---- The loader's state ------------------------------------------------------ */

/* The reading of files, the document tree, the limits of one load
 * (docs/file-formats.md "Limits") and the readers of values are shared
 * with the other rulesets' loaders: src/encounter/yaml_read.h. */
enum {
    LD_MAX_FILES = 32,
    LD_MAX_ARMOR = (int)(sizeof(((ft_setup *)0)->armor_catalog) /
                         sizeof(((ft_setup *)0)->armor_catalog[0])),
    LD_AREA_SPACE = 144 /* a whole space, in 1/144ths (see ld_area) */
};

/* A stat block and how it was given (for `base:` and duplicates). */
typedef struct ld_tpl {
    ft_statblock sb;
    bool stun_given, lethal_given;
    const char *file;
    int line;
} ld_tpl;

typedef struct ld_loc {
    const char *file;
    int line;
} ld_loc;

/* One entry of an encounter's `combatants:` (count: N makes N combatants). */
typedef struct ld_group {
    const yn *node;
    const yn *at_node;       /* its `at:`, or NULL */
    const yn *legend_key;    /* the map legend entry that places it, or NULL */
    char id[FT_NAME];        /* as written (before -1, -2 ...) */
    char symbol;             /* explicit `symbol:`, or 0 */
    int first, count;        /* combatants first .. first + count - 1 */
} ld_group;

typedef struct ld {
    yr r;                         /* the reader: arena, first error, the file
                                     being read (r.cur_file), the caller's
                                     paths, ft_load_text's text (r.mem_text) */
    ft_setup *s;
    const char *cur_dir;          /* the real folder of r.cur_file (ld_real_dir) */
    int n_files;
    const char *real[LD_MAX_FILES];
    struct ld_file *files[LD_MAX_FILES];
    /* What the files hold. */
    int n_tpl;
    ld_tpl tpl[FT_MAX_TEMPLATES];
    ld_loc weapon_loc[FT_MAX_CATALOG];
    ld_loc armor_loc[LD_MAX_ARMOR];
    bool has_encounter;
    /* The encounter's combatants. */
    int n_groups;
    ld_group groups[FT_MAX_COMBATANTS];
    int group_of[FT_MAX_COMBATANTS];
    const yn *blame[FT_MAX_COMBATANTS]; /* the node that placed it */
    fray_grid_placement placements[FRAY_GRID_MAX * FRAY_GRID_MAX];
    uint16_t area[FRAY_GRID_MAX][FRAY_GRID_MAX];
    int8_t occupant[FRAY_GRID_MAX][FRAY_GRID_MAX];
} ld;

/* The shared reader's functions under this file's names. */
#define ld_alloc(L, size) yr_alloc(&(L)->r, size)
#define ld_free_all(L) yr_free_all(&(L)->r)
#define ld_strndup(L, s, n) yr_strndup(&(L)->r, s, n)
#define ld_fail(L, at, status, ...) yr_fail(&(L)->r, at, status, __VA_ARGS__)
#define ld_nomem(L) yr_nomem(&(L)->r)
#define ld_publish(L, diag) yr_publish(&(L)->r, diag)
#define ld_parse_file(L, path, display, from, out) \
    yr_parse_file(&(L)->r, path, display, from, out)
#define ld_keys(L, map, what, keys, n, nocase) yr_keys(&(L)->r, map, what, keys, n, nocase)
#define ld_missing(L, map, key, what) yr_missing(&(L)->r, map, key, what)
#define ld_int(L, n, what, lo, hi, out) yr_int(&(L)->r, n, what, lo, hi, out)
#define ld_bool(L, n, what, out) yr_bool(&(L)->r, n, what, out)
#define ld_text(L, n, what, buf, size) yr_text(&(L)->r, n, what, buf, size)
#define ld_choice(L, n, what, names, count, out) \
    yr_choice(&(L)->r, n, what, names, count, out)
#define ld_pos(L, n, what, out) yr_pos(&(L)->r, n, what, out)
#define ieq(a, b) yr_ieq(a, b)
#define ieqn(a, n, b) yr_ieqn(a, n, b)
#define find_name(s, names, count) yr_find_name(s, names, count)
#define join_names(buf, size, names, count) yr_join_names(buf, size, names, count)
#define distance(a, b) yr_distance(a, b)
#define parse_long(s, out) yr_parse_long(s, out)
#define node_long(n, out) yr_node_long(n, out)
#define copy_name(dst, size, src) yr_copy(dst, size, src)
#define is_null(n) yr_is_null(n)
#define got(n, buf) yr_got(n, buf)
#define items(n) yr_items(n)
#define next_item(list, it) yr_next_item(list, it)
#define n_items(n) yr_n_items(n)
#define key_node(map, key, nocase) yr_key_node(map, key, nocase)
#define get(map, key) yr_get(map, key)

/* ---- Weapons and armor (rules-facts.md "Equipment") ------------------------------ */

/* Copies s without blanks, upper-cased, into buf; false when too long. */
static bool squeeze_upper(const char *s, char *buf, size_t size) {
    size_t at = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        if (at + 1 >= size)
            return false;
        buf[at++] = (char)toupper((unsigned char)*s);
    }
    buf[at] = '\0';
    return true;
}

/* Reads an integer at *p (optional sign), advancing p. */
static bool scan_int(const char **p, long *out) {
    const char *s = *p;
    char *end;
    if (!(isdigit((unsigned char)s[0]) ||
          ((s[0] == '+' || s[0] == '-') && isdigit((unsigned char)s[1]))))
        return false;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno == ERANGE || v > 1000 || v < -1000)
        return false;
    *out = v;
    *p = end;
    return true;
}

/* "1+PA", "PA", "PA-1", "SA", "1+SA": the attack column. */
static bool parse_attack_text(const char *text, int *bonus, bool *spell) {
    char s[32];
    if (!squeeze_upper(text, s, sizeof s))
        return false;
    const char *p = s;
    long b = 0, v;
    if (scan_int(&p, &v)) {
        if (*p != '+')
            return false;
        p++;
        b += v;
    }
    if ((p[0] != 'P' && p[0] != 'S') || p[1] != 'A')
        return false;
    *spell = p[0] == 'S';
    p += 2;
    if (*p) {
        if (*p != '+' && *p != '-')
            return false;
        if (!scan_int(&p, &v) || *p)
            return false;
        b += v;
    }
    *bonus = (int)b;
    return true;
}

static fray_status ld_attack(ld *L, const yn *n, ft_weapon *w) {
    char b[64];
    int bonus = 0;
    bool spell = false;
    if (!n || n->type != YN_SCALAR || is_null(n) ||
        !parse_attack_text(n->text, &bonus, &spell))
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "expected an attack like 1+PA, PA, PA-1 or SA for %s, got %s",
                       w->name, got(n, b));
    if (bonus < -5 || bonus > 5)
        return ld_fail(L, n, FRAY_ERR_RANGE,
                       "the attack bonus of %s must be between -5 and 5, got %d",
                       w->name, bonus);
    w->attack_bonus = bonus;
    w->spell = spell;
    return FRAY_OK;
}

/* "4+PX", "7", "PX", "6 Arcane (Fire)", "3 None (Poison)": the damage
 * column (seed 000 "STUN Damage", "Damage Types"). */
static fray_status ld_damage(ld *L, const yn *n, ft_weapon *w) {
    char b[64], list[200];
    char s[64];
    if (!n || n->type != YN_SCALAR || is_null(n) || n->len >= sizeof s)
        goto bad;
    memcpy(s, n->text, n->len + 1);
    /* The type in parentheses, at the end. */
    char *open = strchr(s, '(');
    w->type = FT_DMG_NONE;
    if (open) {
        char *close = strchr(open, ')');
        if (!close)
            goto bad;
        for (const char *q = close + 1; *q; q++)
            if (!isspace((unsigned char)*q))
                goto bad;
        *close = '\0';
        char *t = open + 1;
        while (isspace((unsigned char)*t))
            t++;
        char *te = t + strlen(t);
        while (te > t && isspace((unsigned char)te[-1]))
            *--te = '\0';
        int type = find_name(t, damage_types, FT_DAMAGE_TYPE_COUNT);
        if (type < 0)
            return ld_fail(L, n, FRAY_ERR_PARSE,
                           "unknown damage type '%.30s' for %s; the types are: %s",
                           t, w->name,
                           join_names(list, sizeof list, damage_types,
                                      FT_DAMAGE_TYPE_COUNT));
        w->type = (ft_damage_type)type;
        *open = '\0';
    }
    /* The category: the last word, when it is one. */
    w->category = FT_CAT_PHYSICAL;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    char *word = end;
    while (word > s && !isspace((unsigned char)word[-1]))
        word--;
    static const char *const cats[] = {"Physical", "Arcane", "None"};
    int cat = find_name(word, cats, 3);
    if (cat >= 0) {
        w->category = (ft_category)cat;
        *word = '\0';
    }
    /* The amount: N, N+PX, PX or PX+N. */
    char a[32];
    if (!squeeze_upper(s, a, sizeof a) || !a[0])
        goto bad;
    const char *p = a;
    long v = 0, dmg = 0;
    bool px = false;
    if (p[0] == 'P' && p[1] == 'X') {
        px = true;
        p += 2;
        if (*p) {
            if (*p != '+' && *p != '-')
                goto bad;
            if (!scan_int(&p, &v))
                goto bad;
            dmg = v;
        }
    } else {
        if (!scan_int(&p, &v))
            goto bad;
        dmg = v;
        if (*p) {
            if (p[0] != '+' || p[1] != 'P' || p[2] != 'X')
                goto bad;
            px = true;
            p += 3;
        }
    }
    if (*p)
        goto bad;
    if (dmg < 0 || dmg > 100)
        return ld_fail(L, n, FRAY_ERR_RANGE,
                       "the damage of %s must be between 0 and 100, got %ld",
                       w->name, dmg);
    w->damage = (int)dmg;
    w->adds_px = px;
    return FRAY_OK;
bad:
    return ld_fail(L, n, FRAY_ERR_PARSE,
                   "expected damage like 4+PX, 7 or 6 Arcane (Fire) for %s, got %s",
                   w->name, got(n, b));
}

static bool is_dash(const char *s) {
    /* "-", and the en and em dashes of the printed tables. */
    return strcmp(s, "-") == 0 || strcmp(s, "\xe2\x80\x93") == 0 ||
           strcmp(s, "\xe2\x80\x94") == 0 || ieq(s, "melee");
}

/* Range increment: "-" (melee) or a number of spaces. */
static fray_status ld_range(ld *L, const yn *n, ft_weapon *w) {
    char b[64];
    if (n && n->type == YN_SCALAR && !is_null(n) && is_dash(n->text)) {
        w->range_increment = 0;
        return FRAY_OK;
    }
    long v;
    if (!n || n->type != YN_SCALAR || !node_long(n, &v))
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "expected a range increment ('-' for melee, or spaces) "
                       "for %s, got %s",
                       w->name, got(n, b));
    if (v < 1 || v > 1000)
        return ld_fail(L, n, FRAY_ERR_RANGE,
                       "the range increment of %s must be between 1 and 1000, got %ld",
                       w->name, v);
    w->range_increment = (int)v;
    return FRAY_OK;
}

/* Cost: "$25", 25 or "-". */
static fray_status ld_cost(ld *L, const yn *n, const char *what, int *out) {
    char b[64];
    long v;
    if (n && n->type == YN_SCALAR && !is_null(n)) {
        if (is_dash(n->text)) {
            *out = 0;
            return FRAY_OK;
        }
        const char *t = n->text[0] == '$' ? n->text + 1 : n->text;
        if (parse_long(t, &v) && v >= 0 && v <= 1000000) {
            *out = (int)v;
            return FRAY_OK;
        }
    }
    return ld_fail(L, n, FRAY_ERR_PARSE,
                   "expected a cost like $25 for %s, got %s", what, got(n, b));
}

/* Keywords: a list, or "Knight, Blade"; names of FT_KEYWORD_LIST without
 * case. */
static fray_status ld_one_keyword(ld *L, const yn *at, const char *s, size_t len,
                                  const char *who, uint32_t *out) {
    while (len && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || (len == 1 && *s == '-'))
        return FRAY_OK;
    for (int k = 0; k < FT_KEYWORD_COUNT; k++)
        if (ieqn(s, len, keyword_names[k])) {
            *out |= 1u << k;
            return FRAY_OK;
        }
    char list[200];
    return ld_fail(L, at, FRAY_ERR_PARSE,
                   "unknown keyword '%.*s' for %s; the keywords are: %s",
                   (int)(len > 30 ? 30 : len), s, who,
                   join_names(list, sizeof list, keyword_names, FT_KEYWORD_COUNT));
}

static fray_status ld_keywords(ld *L, const yn *n, const char *who,
                               uint32_t *out) {
    char b[64];
    *out = 0;
    for (const yn *it = items(n); it; it = next_item(n, it)) {
        if (it->type != YN_SCALAR)
            return ld_fail(L, it, FRAY_ERR_PARSE,
                           "expected a keyword for %s, got %s", who, got(it, b));
        const char *s = it->text;
        for (;;) {
            const char *comma = strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            /* Point at the keyword itself on a one-line text. */
            yn at = *it;
            size_t lead = 0;
            while (lead < len && isspace((unsigned char)s[lead]))
                lead++;
            if (!strchr(it->text, '\n') && it->style <= FYSS_DOUBLE_QUOTED)
                at.col = it->col + (int)(s + lead - it->text);
            fray_status st = ld_one_keyword(L, &at, s, len, who, out);
            if (st != FRAY_OK)
                return st;
            if (!comma)
                break;
            s = comma + 1;
        }
    }
    return FRAY_OK;
}

/* Spell mana: "1 fire", 1 (neutral) or {fire: 1}. */
static fray_status ld_mana_cost(ld *L, const yn *n, ft_weapon *w) {
    char b[64], list[120];
    if (n && n->type == YN_MAP) {
        fray_status st = ld_keys(L, n, "a spell's mana", element_names,
                                 FT_ELEMENT_COUNT, true);
        if (st != FRAY_OK)
            return st;
        if (n->n != 1)
            return ld_fail(L, n, FRAY_ERR_PARSE,
                           "a spell costs mana of one element; %s names %d",
                           w->name, n->n);
        w->element = (ft_element)find_name(n->first->text, element_names,
                                           FT_ELEMENT_COUNT);
        return ld_int(L, n->first->value, "mana", 0, 20, &w->mana_cost);
    }
    if (n && n->type == YN_SCALAR && !is_null(n)) {
        char s[40];
        if (n->len < sizeof s) {
            memcpy(s, n->text, n->len + 1);
            char *sp = strchr(s, ' ');
            long v;
            if (sp)
                *sp = '\0';
            if (parse_long(s, &v)) {
                if (v < 0 || v > 20)
                    return ld_fail(L, n, FRAY_ERR_RANGE,
                                   "the mana of %s must be between 0 and 20, got %ld",
                                   w->name, v);
                w->mana_cost = (int)v;
                w->element = FT_ELEM_NEUTRAL;
                if (!sp)
                    return FRAY_OK;
                const char *e = sp + 1;
                while (*e == ' ')
                    e++;
                int el = find_name(e, element_names, FT_ELEMENT_COUNT);
                if (el >= 0) {
                    w->element = (ft_element)el;
                    return FRAY_OK;
                }
                return ld_fail(L, n, FRAY_ERR_PARSE,
                               "unknown mana element '%.20s' for %s; the elements "
                               "are: %s",
                               e, w->name,
                               join_names(list, sizeof list, element_names,
                                          FT_ELEMENT_COUNT));
            }
        }
    }
    return ld_fail(L, n, FRAY_ERR_PARSE,
                   "expected mana like '1 fire' for %s, got %s", w->name, got(n, b));
}

static void weapon_defaults(ft_weapon *w) {
    memset(w, 0, sizeof *w);
    w->category = FT_CAT_PHYSICAL;
    w->type = FT_DMG_NONE;
    w->element = FT_ELEM_NEUTRAL;
    w->reach = 0; /* decided by weapon_finish */
}

static void weapon_finish(ft_weapon *w) {
    if (w->reach == 0)
        w->reach = (w->keywords & FT_KW(REACH)) ? 2 : 1;
    /* The keyword Knockback alone pushes one space (grapple.c); a
     * knockback of N spaces has the keyword. */
    if ((w->keywords & FT_KW(KNOCKBACK)) && w->knockback == 0)
        w->knockback = 1;
    if (w->knockback > 0)
        w->keywords |= FT_KW(KNOCKBACK);
    /* issue 7: an improvised weapon the data gives no limit: the GM's
     * call (gm.c ft_gm_px_limited), marked so that a plain weapon's
     * damage pays nothing for it (ft_px_of). */
    if ((w->keywords & FT_KW(IMPROVISED)) && !w->has_strength_limit) {
        w->has_strength_limit = true;
        w->strength_limit = FT_GM_LIMIT_ASK;
    }
}

static const char *const weapon_keys[] = {
    "name", "attack", "damage", "range", "max-range", "shots", "reach",
    "mana", "cost", "weight", "keywords", "notes", "area", "knockback",
    "improvised", "strength-limit"};

/* A weapon row as printed: "Longblade | 1+PA | 4+PX | - | $25 | 3 lbs. |
 * Knight, Blade" (7 columns; 8 with shots after the range). */
static fray_status ld_weapon_row(ld *L, const yn *n, ft_weapon *w) {
    const char *s = n->text;
    const char *cell[9];
    size_t clen[9];
    int ncell = 0;
    /* Trim, and drop the outer bars of "| a | b |". */
    const char *p = s, *end = s + n->len;
    while (p < end && isspace((unsigned char)*p))
        p++;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    if (p < end && *p == '|')
        p++;
    if (end > p && end[-1] == '|')
        end--;
    for (;;) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *e = bar ? bar : end;
        if (ncell == 9)
            break;
        cell[ncell] = p;
        clen[ncell] = (size_t)(e - p);
        ncell++;
        if (!bar)
            break;
        p = bar + 1;
    }
    if (ncell != 7 && ncell != 8)
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "a weapon row has 7 columns (name | attack | damage | range "
                       "| cost | weight | keywords), or 8 with shots after the "
                       "range; this one has %d",
                       ncell);
    yn c[8];
    char text[8][96];
    for (int i = 0; i < ncell; i++) {
        const char *q = cell[i];
        size_t l = clen[i];
        while (l && isspace((unsigned char)*q)) {
            q++;
            l--;
        }
        while (l && isspace((unsigned char)q[l - 1]))
            l--;
        if (l >= sizeof text[i])
            l = sizeof text[i] - 1;
        memcpy(text[i], q, l);
        text[i][l] = '\0';
        /* A cell is a scalar of its own, placed where it stands on a
         * one-line row. */
        c[i] = *n;
        c[i].text = text[i];
        c[i].len = l;
        c[i].style = FYSS_PLAIN;
        if (l == 0)
            c[i].style = FYSS_SINGLE_QUOTED; /* empty but not null */
        /* libfyaml marks a quoted scalar at its first character, inside
         * the quote. */
        c[i].col = n->col + (int)(q - s);
    }
    fray_status st;
    const yn *name = &c[0];
    if ((st = ld_text(L, name, "a weapon's name", w->name, sizeof w->name)) != FRAY_OK ||
        (st = ld_attack(L, &c[1], w)) != FRAY_OK ||
        (st = ld_damage(L, &c[2], w)) != FRAY_OK)
        return st;
    int k = 3;
    if (w->spell) {
        if (!is_dash(c[k].text) &&
            (st = ld_int(L, &c[k], "a spell's maximum range", 0, 1000,
                         &w->max_range)) != FRAY_OK)
            return st;
    } else if ((st = ld_range(L, &c[k], w)) != FRAY_OK) {
        return st;
    }
    k++;
    if (ncell == 8) {
        if (c[k].len > 0 && !is_dash(c[k].text) &&
            (st = ld_int(L, &c[k], "shots", 0, 1000, &w->shots)) != FRAY_OK)
            return st;
        k++;
    }
    if ((st = ld_cost(L, &c[k], w->name, &w->cost_dollars)) != FRAY_OK)
        return st;
    k++;
    copy_name(w->weight, sizeof w->weight, c[k].text);
    k++;
    if ((st = ld_keywords(L, &c[k], w->name, &w->keywords)) != FRAY_OK)
        return st;
    weapon_finish(w);
    return FRAY_OK;
}

/* A weapon as a mapping of the catalog's keys, or as a printed row. */
static fray_status ld_weapon(ld *L, const yn *n, ft_weapon *w) {
    weapon_defaults(w);
    if (n && n->type == YN_SCALAR && strchr(n->text, '|'))
        return ld_weapon_row(L, n, w);
    if (n && n->type == YN_MAP && n->n == 1 && strchr(n->first->text, '|'))
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "this weapon row holds ': ', which YAML reads as a key: "
                       "put the row in quotes");
    fray_status st = ld_keys(L, n, "a weapon", weapon_keys, N_OF(weapon_keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    if (!(v = get(n, "name")))
        return ld_missing(L, n, "name", "a weapon");
    if ((st = ld_text(L, v, "a weapon's name", w->name, sizeof w->name)) != FRAY_OK)
        return st;
    if (!(v = get(n, "attack")))
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'attack' in weapon '%s'",
                       w->name);
    if ((st = ld_attack(L, v, w)) != FRAY_OK)
        return st;
    if (!(v = get(n, "damage")))
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'damage' in weapon '%s'",
                       w->name);
    if ((st = ld_damage(L, v, w)) != FRAY_OK)
        return st;
    if ((v = get(n, "range"))) {
        if (w->spell)
            return ld_fail(L, key_node(n, "range", false), FRAY_ERR_PARSE,
                           "%s is a spell: spells have only a maximum range, no "
                           "range increments (seed 000 \"Range Modifiers\"); use "
                           "max-range",
                           w->name);
        if ((st = ld_range(L, v, w)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "max-range"))) {
        if (!w->spell)
            return ld_fail(L, key_node(n, "max-range", false), FRAY_ERR_PARSE,
                           "%s is not a spell (attack SA): it has a range "
                           "increment ('range'), not a maximum range",
                           w->name);
        if ((st = ld_int(L, v, "max-range", 0, 1000, &w->max_range)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "shots")) &&
        (st = ld_int(L, v, "shots", 0, 1000, &w->shots)) != FRAY_OK)
        return st;
    if ((v = get(n, "keywords")) &&
        (st = ld_keywords(L, v, w->name, &w->keywords)) != FRAY_OK)
        return st;
    if ((v = get(n, "reach")) &&
        (st = ld_int(L, v, "reach", 1, 5, &w->reach)) != FRAY_OK)
        return st;
    if ((v = get(n, "mana"))) {
        if (!w->spell)
            return ld_fail(L, key_node(n, "mana", false), FRAY_ERR_PARSE,
                           "%s is not a spell (attack SA): only spells cost mana",
                           w->name);
        if ((st = ld_mana_cost(L, v, w)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "cost")) &&
        (st = ld_cost(L, v, w->name, &w->cost_dollars)) != FRAY_OK)
        return st;
    if ((v = get(n, "weight")) &&
        (st = ld_text(L, v, "weight", w->weight, sizeof w->weight)) != FRAY_OK)
        return st;
    if ((v = get(n, "notes")) && v->type != YN_SCALAR)
        return ld_fail(L, v, FRAY_ERR_PARSE, "expected text for notes");
    if ((v = get(n, "area"))) { /* seed 000 "Areas" (area.c) */
        char why[120];
        if (v->type != YN_SCALAR || is_null(v) ||
            !ft_area_parse(v->text, w, why, sizeof why))
            return ld_fail(L, v, FRAY_ERR_PARSE, "%s: %s", w->name,
                           v->type == YN_SCALAR && !is_null(v)
                               ? why
                               : "expected an area like 'burst 2', 'aura 1', "
                                 "'cone 3' or 'line 5'");
    }
    /* Knockback N spaces; an improvised weapon and the most <PX> its
     * damage can use (seed 000 "Improvised Weapons"; grapple.c). */
    if ((v = get(n, "knockback")) &&
        (st = ld_int(L, v, "knockback", 0, 20, &w->knockback)) != FRAY_OK)
        return st;
    bool improvised = false;
    if ((v = get(n, "improvised")) &&
        (st = ld_bool(L, v, "improvised", &improvised)) != FRAY_OK)
        return st;
    if (improvised)
        w->keywords |= FT_KW(IMPROVISED);
    if ((v = get(n, "strength-limit"))) {
        if ((st = ld_int(L, v, "strength-limit", 0, 100,
                         &w->strength_limit)) != FRAY_OK)
            return st;
        w->has_strength_limit = true;
    }
    weapon_finish(w);
    return FRAY_OK;
}

static const char *const armor_keys[] = {"name", "er", "ir", "pd-shift", "spd",
                                         "cost", "weight", "notes"};

static fray_status ld_armor(ld *L, const yn *n, ft_armor *a) {
    memset(a, 0, sizeof *a);
    fray_status st = ld_keys(L, n, "armor", armor_keys, N_OF(armor_keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    if (!(v = get(n, "name")))
        return ld_missing(L, n, "name", "armor");
    if ((st = ld_text(L, v, "armor's name", a->name, sizeof a->name)) != FRAY_OK)
        return st;
    if ((v = get(n, "er")) && (st = ld_int(L, v, "er", 0, 10, &a->er)) != FRAY_OK)
        return st;
    if ((v = get(n, "ir")) && (st = ld_int(L, v, "ir", 0, 10, &a->ir)) != FRAY_OK)
        return st;
    if ((v = get(n, "pd-shift")) &&
        (st = ld_int(L, v, "pd-shift", -3, 3, &a->pd_shift)) != FRAY_OK)
        return st;
    if ((v = get(n, "spd")) && (st = ld_int(L, v, "spd", -5, 5, &a->spd)) != FRAY_OK)
        return st;
    int cost;
    char weight[32];
    if ((v = get(n, "cost")) && (st = ld_cost(L, v, a->name, &cost)) != FRAY_OK)
        return st;
    if ((v = get(n, "weight")) &&
        (st = ld_text(L, v, "weight", weight, sizeof weight)) != FRAY_OK)
        return st;
    return FRAY_OK;
}

static int find_weapon(const ft_setup *s, const char *name) {
    for (int i = 0; i < s->n_catalog; i++)
        if (ieq(s->catalog[i].name, name))
            return i;
    return -1;
}

static int find_armor(const ft_setup *s, const char *name) {
    for (int i = 0; i < s->n_armor; i++)
        if (ieq(s->armor_catalog[i].name, name))
            return i;
    return -1;
}

/* "unknown weapon 'Longsword' (did you mean 'Longblade'?)" */
static fray_status ld_unknown(ld *L, const yn *at, const char *what,
                              const char *name, const char *const *names,
                              int count, const char *none_hint) {
    if (count == 0)
        return ld_fail(L, at, FRAY_ERR_PARSE, "unknown %s '%.40s': %s", what, name,
                       none_hint);
    int best = -1, best_d = 99;
    for (int i = 0; i < count; i++) {
        int d = distance(name, names[i]);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (best >= 0 && best_d <= 3 && best_d * 3 <= (int)strlen(names[best]))
        return ld_fail(L, at, FRAY_ERR_PARSE,
                       "unknown %s '%.40s' (did you mean '%s'?)", what, name,
                       names[best]);
    char list[200];
    return ld_fail(L, at, FRAY_ERR_PARSE, "unknown %s '%.40s'; known: %s", what,
                   name, join_names(list, sizeof list, names, count));
}

/* Two profiles alike in every field (a catalog repeating another's). */
static bool same_weapon(const ft_weapon *a, const ft_weapon *b) {
    return strcmp(a->name, b->name) == 0 && a->attack_bonus == b->attack_bonus &&
           a->spell == b->spell && a->damage == b->damage &&
           a->adds_px == b->adds_px && a->category == b->category &&
           a->type == b->type && a->range_increment == b->range_increment &&
           a->max_range == b->max_range && a->shots == b->shots &&
           a->reach == b->reach && a->mana_cost == b->mana_cost &&
           a->element == b->element && a->cost_dollars == b->cost_dollars &&
           strcmp(a->weight, b->weight) == 0 && a->keywords == b->keywords &&
           a->area == b->area && a->area_size == b->area_size &&
           a->area_self == b->area_self;
}

/* ---- Talents (talent.c; docs/file-formats.md "Talents") ------------------ */

/* "wielding Firearm", "skill Stealth": the word, then the rest. */
static const char *ld_after_word(const char *text, const char *word) {
    size_t n = strlen(word);
    if (!ieqn(text, n, word) || (text[n] != ' ' && text[n] != '\0'))
        return NULL;
    text += n;
    while (*text == ' ')
        text++;
    return text;
}

/* One effect: a mapping of exactly one effect word and its N, with on: and
 * when: for shift and flip. */
static fray_status ld_talent_effect(ld *L, const yn *n, const char *talent,
                                    ft_talent_effect *e) {
    const char *keys[FT_TE_COUNT + 5];
    for (int i = 0; i < FT_TE_COUNT; i++)
        keys[i] = ft_talent_effect_names[i];
    keys[FT_TE_COUNT] = "on";
    keys[FT_TE_COUNT + 1] = "when";
    keys[FT_TE_COUNT + 2] = "uses";
    keys[FT_TE_COUNT + 3] = "notes";
    keys[FT_TE_COUNT + 4] = "spend"; /* issue 7 */
    memset(e, 0, sizeof *e);
    fray_status st = ld_keys(L, n, "a talent's effect", keys, FT_TE_COUNT + 5, false);
    if (st != FRAY_OK)
        return st;
    int kind = -1;
    const yn *v = NULL;
    for (int i = 0; i < FT_TE_COUNT; i++) {
        const yn *x = get(n, ft_talent_effect_names[i]);
        if (!x)
            continue;
        if (kind >= 0)
            return ld_fail(L, key_node(n, ft_talent_effect_names[i], false),
                           FRAY_ERR_PARSE,
                           "one effect per item in '%s': '%s' and '%s' (write "
                           "them as two items)", talent,
                           ft_talent_effect_names[kind], ft_talent_effect_names[i]);
        kind = i;
        v = x;
    }
    char list[200];
    if (kind < 0)
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "an effect of '%s' needs one of the effect words: %s", talent,
                       join_names(list, sizeof list, ft_talent_effect_names, FT_TE_COUNT));
    e->kind = (uint8_t)kind;
    int val = 0;
    const yn *on = get(n, "on"), *when = get(n, "when");
    bool flip = kind == FT_TE_SHIFT || kind == FT_TE_FLIP;
    /* issue 7: `damage` takes a `when` too. */
    if (on && !flip)
        return ld_fail(L, key_node(n, "on", false), FRAY_ERR_PARSE,
                       "'on' goes with 'shift' or 'flip' only");
    if (when && !flip && kind != FT_TE_DAMAGE)
        return ld_fail(L, key_node(n, "when", false), FRAY_ERR_PARSE,
                       "'when' goes with 'shift', 'flip' or 'damage' only");
    /* issue 7: `uses` and `spend` on the effects a command can arm
     * (Use a Talent: talent.c). */
    bool usable = flip || kind == FT_TE_DAMAGE || kind == FT_TE_COST ||
                  kind == FT_TE_REACTION;
    const yn *uses = get(n, "uses");
    if (uses) {
        static const char *const use_names[] = {"once-per-encounter"};
        int u = 0;
        if (!usable)
            return ld_fail(L, key_node(n, "uses", false), FRAY_ERR_PARSE,
                           "'uses' goes with 'shift', 'flip', 'damage', "
                           "'cost' or 'reaction'");
        if ((st = ld_choice(L, uses, "uses", use_names, 1, &u)) != FRAY_OK)
            return st;
        e->once = 1;
    }
    const yn *spend = get(n, "spend");
    if (spend) {
        static const char *const spend_names[] = {"hand-of-fate", "mark"};
        int sp = 0;
        if (!usable)
            return ld_fail(L, key_node(n, "spend", false), FRAY_ERR_PARSE,
                           "'spend' goes with 'shift', 'flip', 'damage', "
                           "'cost' or 'reaction'");
        if ((st = ld_choice(L, spend, "spend", spend_names, 2, &sp)) != FRAY_OK)
            return st;
        e->spend = (uint8_t)(sp + 1);
    }
    if (kind == FT_TE_REACTION) {
        static const char *const reactions[] = {"extra-opportunity"};
        int k = 0;
        if ((st = ld_choice(L, v, "reaction", reactions, 1, &k)) != FRAY_OK)
            return st;
        e->value = 1;
        return FRAY_OK;
    }
    if (kind == FT_TE_COST) {
        static const char *const ck[] = {"action", "phases"};
        if ((st = ld_keys(L, v, "cost", ck, 2, false)) != FRAY_OK)
            return st;
        const yn *a = get(v, "action"), *ph = get(v, "phases");
        if (!a || !ph)
            return ld_missing(L, v, a ? "phases" : "action", "cost");
        const char *names[FT_ACTION_COUNT];
        for (int i = 0; i < FT_ACTION_COUNT; i++)
            names[i] = ft_actions[i].name;
        int act = 0;
        if ((st = ld_choice(L, a, "action", names, FT_ACTION_COUNT, &act)) != FRAY_OK)
            return st;
        if (ft_actions[act].cost <= 0)
            return ld_fail(L, a, FRAY_ERR_PARSE,
                           "%s costs no fixed phases: a talent cannot change it",
                           ft_actions[act].text);
        e->action = (uint8_t)act;
        if ((st = ld_int(L, ph, "phases", -9, 9, &val)) != FRAY_OK)
            return st;
        e->value = (int16_t)val;
        return FRAY_OK;
    }
    bool maxes = kind == FT_TE_MAX_STUN || kind == FT_TE_MAX_LETHAL;
    bool temps = kind == FT_TE_TEMP_STUN || kind == FT_TE_TEMP_LETHAL;
    if ((st = ld_int(L, v, ft_talent_effect_names[kind], flip ? -3 : maxes ? -99 : 0,
                     temps || maxes ? 999 : flip ? 3 : 20, &val)) != FRAY_OK)
        return st;
    e->value = (int16_t)val;
    if (!flip && kind != FT_TE_DAMAGE)
        return FRAY_OK;
    char b[64];
    if (flip) {
        if (!on)
            return ld_missing(L, n, "on", "a shift or flip of a talent");
        if (on->type != YN_SCALAR)
            return ld_fail(L, on, FRAY_ERR_PARSE, "expected what the %s is on, got %s",
                           ft_talent_effect_names[kind], got(on, b));
        const char *sk = ld_after_word(on->text, "skill");
        if (sk) {
            if (!*sk)
                return ld_fail(L, on, FRAY_ERR_PARSE, "'on: skill' names the skill: 'on: skill Stealth'");
            e->on = FT_APPLIES_SKILL;
            copy_name(e->skill, sizeof e->skill, sk);
        } else {
            static const char *const ons[] = {"all", "initiative", "attack",
                                              "melee-attack", "ranged-attack",
                                              "spell-attack", "defense",
                                              "physical-defense",
                                              "intangible-defense", "damage",
                                              "skill NAME"};
            int k = find_name(on->text, applies_names, FT_APPLIES_COUNT);
            if (k < 0 || k == FT_APPLIES_NONE || k == FT_APPLIES_SKILL)
                return ld_fail(L, on, FRAY_ERR_PARSE, "unknown flip '%.40s' for 'on'; known: %s",
                               on->text, join_names(list, sizeof list, ons, N_OF(ons)));
            /* issue 7: damage flips count Hearts (seed 000
             * "Combined Damage"): a flip adds cards, a shift nothing. */
            if (k == FT_APPLIES_DAMAGE && kind == FT_TE_SHIFT)
                return ld_fail(L, on, FRAY_ERR_PARSE,
                               "a damage flip counts its Hearts: a shift does "
                               "not change it (use 'flip: N' on damage)");
            e->on = (uint8_t)k;
        }
    }
    e->when = FT_TW_ALWAYS;
    if (!when) {
        /* A mark spent is spent on the target: the effect is against it. */
        if (e->spend == FT_SPEND_MARK)
            e->when = FT_TW_TARGET_MARKED;
        return FRAY_OK;
    }
    if (when->type != YN_SCALAR)
        return ld_fail(L, when, FRAY_ERR_PARSE, "expected when the %s counts, got %s",
                       ft_talent_effect_names[kind], got(when, b));
    bool attack = !flip || e->on == FT_APPLIES_ATTACK || e->on == FT_APPLIES_MELEE_ATTACK ||
                  e->on == FT_APPLIES_RANGED_ATTACK || e->on == FT_APPLIES_SPELL_ATTACK;
    const char *kw = ld_after_word(when->text, "wielding");
    if (kw) {
        int k = find_name(kw, keyword_names, FT_KEYWORD_COUNT);
        if (k < 0)
            return ld_fail(L, when, FRAY_ERR_PARSE,
                           "unknown weapon keyword '%.40s' after 'wielding'; known: %s", kw,
                           join_names(list, sizeof list, keyword_names, FT_KEYWORD_COUNT));
        if (!attack)
            return ld_fail(L, when, FRAY_ERR_PARSE,
                           "'when: wielding' goes with attack flips (the weapon used)");
        if (e->spend == FT_SPEND_MARK)
            return ld_fail(L, when, FRAY_ERR_PARSE,
                           "'spend: mark' goes with 'when: target-marked' (the "
                           "target the mark is spent on)");
        e->when = FT_TW_WIELDING;
        e->keyword = (uint8_t)k;
        return FRAY_OK;
    }
    int w = find_name(when->text, ft_talent_when_names, FT_TW_COUNT);
    if (w < 0 || w == FT_TW_WIELDING) {
        static const char *const whens[] = {"always", "wielding KEYWORD",
                                            "target-prone", "target-flat-footed",
                                            "below-half-stun", "two-ranged-weapons",
                                            "outnumbering", "target-marked"};
        return ld_fail(L, when, FRAY_ERR_PARSE, "unknown condition '%.40s' for 'when'; known: %s",
                       when->text, join_names(list, sizeof list, whens, N_OF(whens)));
    }
    if (w != FT_TW_ALWAYS && flip && (e->on == FT_APPLIES_ALL || e->on == FT_APPLIES_INITIATIVE ||
                                      e->on == FT_APPLIES_SKILL))
        return ld_fail(L, when, FRAY_ERR_PARSE,
                       "'when: %s' goes with attack and defense flips", when->text);
    if (e->spend == FT_SPEND_MARK && w != FT_TW_TARGET_MARKED)
        return ld_fail(L, when, FRAY_ERR_PARSE,
                       "'spend: mark' goes with 'when: target-marked' (the "
                       "target the mark is spent on)");
    e->when = (uint8_t)w;
    return FRAY_OK;
}

/* A catalog's talent: name, effects (a list), notes. */
static fray_status ld_talent(ld *L, const yn *n, ft_talent *t) {
    static const char *const keys[] = {"name", "effects", "notes"};
    const yn *effect_node[FT_TALENT_EFFECTS] = {NULL};
    memset(t, 0, sizeof *t);
    fray_status st = ld_keys(L, n, "a talent", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    if (!(v = get(n, "name")))
        return ld_missing(L, n, "name", "a talent");
    if ((st = ld_text(L, v, "its name", t->name, sizeof t->name)) != FRAY_OK)
        return st;
    if (!(v = get(n, "effects")))
        return ld_missing(L, n, "effects", "a talent");
    for (const yn *it = items(v); it; it = next_item(v, it)) {
        if (t->n_effects == FT_TALENT_EFFECTS)
            return ld_fail(L, it, FRAY_ERR_RANGE, "talent '%s' has more than %d effects",
                           t->name, FT_TALENT_EFFECTS);
        if ((st = ld_talent_effect(L, it, t->name, &t->e[t->n_effects])) != FRAY_OK)
            return st;
        effect_node[t->n_effects] = it;
        t->n_effects++;
    }
    /* issue 7: a talent used by a command (Use a Talent) arms
     * attack, defense and damage flips, damage, costs and reactions until
     * the user's next activation: not initiative or skill flips. */
    if (ft_talent_needs_use(t))
        for (int k = 0; k < t->n_effects; k++) {
            const ft_talent_effect *e = &t->e[k];
            if ((e->kind == FT_TE_SHIFT || e->kind == FT_TE_FLIP) &&
                (e->on == FT_APPLIES_ALL || e->on == FT_APPLIES_INITIATIVE ||
                 e->on == FT_APPLIES_SKILL))
                return ld_fail(L, key_node(effect_node[k], "on", true), FRAY_ERR_PARSE,
                               "'%s' is used with a command (it spends something, "
                               "or is once per encounter): its flips are attack, "
                               "defense or damage flips, not '%s'", t->name,
                               e->on == FT_APPLIES_ALL ? "all"
                               : e->on == FT_APPLIES_INITIATIVE ? "initiative"
                                                                : "skill");
            if (e->kind == FT_TE_MAX_STUN || e->kind == FT_TE_MAX_LETHAL ||
                e->kind == FT_TE_TEMP_STUN || e->kind == FT_TE_TEMP_LETHAL)
                return ld_fail(L, effect_node[k], FRAY_ERR_PARSE,
                               "'%s' is used with a command: its '%s' would "
                               "come and go (maxima and temporary points are "
                               "for talents that work by themselves)", t->name,
                               ft_talent_effect_names[e->kind]);
        }
    if ((v = get(n, "notes")) && v->type != YN_SCALAR)
        return ld_fail(L, v, FRAY_ERR_PARSE, "expected text for notes");
    return FRAY_OK;
}

/* A stat block's talents: names from the catalogs. */
static fray_status ld_statblock_talents(ld *L, const yn *n, ft_statblock *sb) {
    sb->n_talents = 0;
    for (const yn *it = items(n); it; it = next_item(n, it)) {
        char name[FT_NAME];
        fray_status st = ld_text(L, it, "a talent", name, sizeof name);
        if (st != FRAY_OK)
            return st;
        const ft_talent *t = ft_talent_find(L->s, name);
        if (!t) {
            const char *names[FT_MAX_TALENT_CATALOG];
            for (int i = 0; i < L->s->n_talent_catalog; i++)
                names[i] = L->s->talent_catalog[i].name;
            return ld_unknown(L, it, "talent", name, names, L->s->n_talent_catalog,
                              "no catalog with talents is loaded (name one with "
                              "'catalog: [path]', e.g. data/towers/talents.yaml)");
        }
        if (sb->n_talents == FT_MAX_TALENTS)
            return ld_fail(L, it, FRAY_ERR_RANGE, "'%s' has more than %d talents",
                           sb->name, FT_MAX_TALENTS);
        sb->talents[sb->n_talents++] = *t;
    }
    ft_talents_sum(sb);
    return FRAY_OK;
}

static fray_status ld_catalog(ld *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "weapons", "armor",
                                       "notes", "talents"};
    fray_status st = ld_keys(L, root, "a catalog", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    ft_setup *s = L->s;
    const yn *list = get(root, "weapons");
    for (const yn *it = items(list); it; it = next_item(list, it)) {
        ft_weapon w;
        if ((st = ld_weapon(L, it, &w)) != FRAY_OK)
            return st;
        int dup = find_weapon(s, w.name);
        /* The same profile in two catalogs is one weapon
         * (data/towers/spells.yaml repeats Bolt of Fire). */
        if (dup >= 0 && same_weapon(&s->catalog[dup], &w))
            continue;
        if (dup >= 0)
            return ld_fail(L, it, FRAY_ERR_PARSE,
                           "the catalog already has a weapon '%s' (%s:%d)", w.name,
                           L->weapon_loc[dup].file, L->weapon_loc[dup].line);
        if (s->n_catalog == FT_MAX_CATALOG)
            return ld_fail(L, it, FRAY_ERR_RANGE,
                           "too many weapons: the catalogs hold at most %d",
                           FT_MAX_CATALOG);
        L->weapon_loc[s->n_catalog].file = L->r.cur_file;
        L->weapon_loc[s->n_catalog].line = it->line;
        s->catalog[s->n_catalog++] = w;
    }
    list = get(root, "armor");
    for (const yn *it = items(list); it; it = next_item(list, it)) {
        ft_armor a;
        if ((st = ld_armor(L, it, &a)) != FRAY_OK)
            return st;
        int dup = find_armor(s, a.name);
        if (dup >= 0)
            return ld_fail(L, it, FRAY_ERR_PARSE,
                           "the catalog already has armor '%s' (%s:%d)", a.name,
                           L->armor_loc[dup].file, L->armor_loc[dup].line);
        if (s->n_armor == LD_MAX_ARMOR)
            return ld_fail(L, it, FRAY_ERR_RANGE,
                           "too much armor: the catalogs hold at most %d",
                           LD_MAX_ARMOR);
        L->armor_loc[s->n_armor].file = L->r.cur_file;
        L->armor_loc[s->n_armor].line = it->line;
        s->armor_catalog[s->n_armor++] = a;
    }
    list = get(root, "talents");
    for (const yn *it = items(list); it; it = next_item(list, it)) {
        ft_talent t;
        if ((st = ld_talent(L, it, &t)) != FRAY_OK)
            return st;
        if (ft_talent_find(s, t.name))
            return ld_fail(L, it, FRAY_ERR_PARSE,
                           "the catalog already has a talent '%s'", t.name);
        if (s->n_talent_catalog == FT_MAX_TALENT_CATALOG)
            return ld_fail(L, it, FRAY_ERR_RANGE,
                           "too many talents: the catalogs hold at most %d",
                           FT_MAX_TALENT_CATALOG);
        s->talent_catalog[s->n_talent_catalog++] = t;
    }
    return FRAY_OK;
}

/* ---- Stat blocks ------------------------------------------------------------------ */

static const char *const statblock_keys[] = {
    "name",       "base",        "aspects",    "combat",  "endurance",
    "stun",       "lethal",      "size",       "skills",  "weapons",
    "wield",      "stance",      "armor",      "advantages", "disadvantages",
    "immune",     "susceptible", "chips",      "mana",    "mana-regen",
    "controller", "deck",        "temporary",  "talents", "notes"};

static int find_template(const ld *L, const char *name) {
    for (int i = 0; i < L->n_tpl; i++)
        if (ieq(L->tpl[i].sb.name, name))
            return i;
    return -1;
}

static fray_status ld_unknown_weapon(ld *L, const yn *at, const char *name) {
    const char *names[FT_MAX_CATALOG];
    for (int i = 0; i < L->s->n_catalog; i++)
        names[i] = L->s->catalog[i].name;
    return ld_unknown(L, at, "weapon", name, names, L->s->n_catalog,
                      "no catalog is loaded (name one with 'catalog: [path]', or "
                      "describe the weapon inline)");
}

static fray_status ld_size(ld *L, const yn *n, int *out) {
    char b[64], list[160];
    long v;
    if (n && n->type == YN_SCALAR && !is_null(n)) {
        if (node_long(n, &v)) {
            if (v < -4 || v > 4)
                return ld_fail(L, n, FRAY_ERR_RANGE,
                               "size rank must be between -4 and 4, got %ld", v);
            *out = (int)v;
            return FRAY_OK;
        }
        int i = find_name(n->text, size_names, 9);
        if (i < 0 && ieq(n->text, "Miniscule"))
            i = 0;
        if (i >= 0) {
            *out = i - 4;
            return FRAY_OK;
        }
    }
    return ld_fail(L, n, FRAY_ERR_PARSE,
                   "expected a size (%s, or a rank -4..4), got %s",
                   join_names(list, sizeof list, size_names, 9), got(n, b));
}

/* A mapping of codes to numbers: aspects {HS: 2, ...}, combat {N: 2, ...}. */
static fray_status ld_codes(ld *L, const yn *n, const char *what,
                            const char *const *codes, int count, long lo,
                            long hi, int *values, bool *given) {
    fray_status st = ld_keys(L, n, what, codes, count, true);
    if (st != FRAY_OK)
        return st;
    for (const yn *k = n->first; k; k = k->next) {
        int i = find_name(k->text, codes, count);
        if ((st = ld_int(L, k->value, codes[i], lo, hi, &values[i])) != FRAY_OK)
            return st;
        if (given)
            given[i] = true;
    }
    return FRAY_OK;
}

static fray_status ld_skill(ld *L, const yn *n, ft_skill *sk) {
    static const char *const keys[] = {"name", "aspect", "rank", "specializations",
                                       "notes"};
    memset(sk, 0, sizeof *sk);
    fray_status st = ld_keys(L, n, "a skill", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    if (!(v = get(n, "name")))
        return ld_missing(L, n, "name", "a skill");
    if ((st = ld_text(L, v, "a skill's name", sk->name, sizeof sk->name)) != FRAY_OK)
        return st;
    if (!(v = get(n, "aspect")))
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'aspect' in skill '%s'",
                       sk->name);
    int a = 0;
    if ((st = ld_choice(L, v, "a skill's aspect", aspect_codes, FT_ASPECT_COUNT,
                        &a)) != FRAY_OK)
        return st;
    sk->aspect = (ft_aspect)a;
    if (!(v = get(n, "rank")))
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'rank' in skill '%s'",
                       sk->name);
    if ((st = ld_int(L, v, "a skill's rank", 0, 10, &sk->rank)) != FRAY_OK)
        return st;
    const yn *list = get(n, "specializations");
    for (const yn *it = items(list); it; it = next_item(list, it)) {
        if (sk->n_specs == FT_MAX_SPECS)
            return ld_fail(L, it, FRAY_ERR_RANGE,
                           "skill '%s' has more than %d specializations", sk->name,
                           FT_MAX_SPECS);
        if ((st = ld_text(L, it, "a specialization", sk->specs[sk->n_specs],
                          sizeof sk->specs[0])) != FRAY_OK)
            return st;
        sk->n_specs++;
    }
    return FRAY_OK;
}

static fray_status ld_advantage(ld *L, const yn *n, bool dis, ft_advantage *a) {
    static const char *const keys[] = {"name", "rank", "applies", "skill", "notes"};
    const char *what = dis ? "a disadvantage" : "an advantage";
    memset(a, 0, sizeof *a);
    fray_status st = ld_keys(L, n, what, keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    if (!(v = get(n, "name")))
        return ld_missing(L, n, "name", what);
    if ((st = ld_text(L, v, "its name", a->name, sizeof a->name)) != FRAY_OK)
        return st;
    if (!(v = get(n, "rank")))
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'rank' in %s '%s'",
                       dis ? "disadvantage" : "advantage", a->name);
    if ((st = ld_int(L, v, "rank", 1, 3, &a->rank)) != FRAY_OK)
        return st;
    if (dis)
        a->rank = -a->rank;
    /* Sure-Footed is a capability (seed 000 "Shift Position"), no flip
     * modifier, unless the file says what it applies to. */
    a->applies = !dis && ft_is_sure_footed(a->name) ? FT_APPLIES_NONE
                                                    : FT_APPLIES_ALL;
    if ((v = get(n, "applies"))) {
        int ap = 0;
        if ((st = ld_choice(L, v, "applies", applies_names, FT_APPLIES_COUNT,
                            &ap)) != FRAY_OK)
            return st;
        a->applies = (ft_applies)ap;
    }
    v = get(n, "skill");
    if (a->applies == FT_APPLIES_SKILL && !v)
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "'%s' applies to a skill: name it with 'skill:'", a->name);
    if (v && a->applies != FT_APPLIES_SKILL)
        return ld_fail(L, key_node(n, "skill", false), FRAY_ERR_PARSE,
                       "'skill:' goes with 'applies: skill'");
    if (v && (st = ld_text(L, v, "skill", a->skill, sizeof a->skill)) != FRAY_OK)
        return st;
    return FRAY_OK;
}

static fray_status ld_damage_types(ld *L, const yn *n, const char *what,
                                   uint32_t *out) {
    *out = 0;
    for (const yn *it = items(n); it; it = next_item(n, it)) {
        int t = 0;
        fray_status st = ld_choice(L, it, what, damage_types, FT_DAMAGE_TYPE_COUNT, &t);
        if (st != FRAY_OK)
            return st;
        *out |= 1u << t;
    }
    return FRAY_OK;
}

/* Melee: no spell, no range increment (a shield wielded to bash counts,
 * as the engine counts it in attack.c). */
static bool melee_weapon(const ft_weapon *w) {
    return !w->spell && w->range_increment == 0;
}

/* The weapon in a hand: a name from the stat block's weapons, or none.
 * `taken` (the other hand's weapon, or -1) is passed over, so that
 * [Pistol, Pistol] wields both of two pistols. */
static fray_status ld_hand(ld *L, const yn *n, const ft_statblock *sb, int taken,
                           int *out) {
    char b[64];
    if (is_null(n) || (n->type == YN_SCALAR && (ieq(n->text, "none") || is_dash(n->text)))) {
        *out = -1;
        return FRAY_OK;
    }
    if (n->type == YN_SCALAR) {
        int found = -1;
        for (int i = sb->n_weapons - 1; i >= 0; i--)
            if (ieq(sb->weapons[i].name, n->text) && (i != taken || found < 0))
                found = i;
        if (found >= 0) {
            *out = found;
            return FRAY_OK;
        }
    }
    char list[160];
    const char *names[FT_MAX_WEAPONS];
    for (int i = 0; i < sb->n_weapons; i++)
        names[i] = sb->weapons[i].name;
    return ld_fail(L, n, FRAY_ERR_PARSE,
                   "expected one of its weapons (%s) or none in a hand, got %s",
                   sb->n_weapons ? join_names(list, sizeof list, names, sb->n_weapons)
                                 : "it has none",
                   got(n, b));
}

static fray_status ld_statblock_armor(ld *L, const yn *n, ft_statblock *sb) {
    fray_status st;
    char b[64];
    sb->has_armor = false;
    memset(&sb->armor, 0, sizeof sb->armor);
    int count = 0;
    for (const yn *it = items(n); it; it = next_item(n, it)) {
        ft_armor a;
        if (it->type == YN_MAP) {
            if ((st = ld_armor(L, it, &a)) != FRAY_OK)
                return st;
        } else if (it->type == YN_SCALAR) {
            int i = find_armor(L->s, it->text);
            if (i < 0) {
                const char *names[LD_MAX_ARMOR];
                for (int k = 0; k < L->s->n_armor; k++)
                    names[k] = L->s->armor_catalog[k].name;
                return ld_unknown(L, it, "armor", it->text, names, L->s->n_armor,
                                  "no catalog is loaded (name one with "
                                  "'catalog: [path]', or describe the armor inline)");
            }
            a = L->s->armor_catalog[i];
        } else {
            return ld_fail(L, it, FRAY_ERR_PARSE, "expected armor, got %s",
                           got(it, b));
        }
        /* Pieces worn together add up: armor: [Chain, Shield]. */
        if (count++ == 0) {
            sb->armor = a;
        } else {
            char name[FT_NAME];
            snprintf(name, sizeof name, "%.14s + %.14s", sb->armor.name, a.name);
            memcpy(sb->armor.name, name, sizeof name);
            sb->armor.er += a.er;
            sb->armor.ir += a.ir;
            sb->armor.pd_shift += a.pd_shift;
            sb->armor.spd += a.spd;
        }
        sb->has_armor = true;
    }
    return FRAY_OK;
}

/*
 * A stat block from a mapping. `base:` starts from another stat block and
 * replaces what is given (lists as a whole). `default_name` names an
 * inline stat block that gives none.
 */
static fray_status ld_statblock(ld *L, const yn *n, const char *default_name,
                                ld_tpl *out) {
    fray_status st = ld_keys(L, n, "a stat block", statblock_keys,
                             N_OF(statblock_keys), false);
    if (st != FRAY_OK)
        return st;
    ft_statblock *sb = &out->sb;
    const yn *v;
    const yn *base = get(n, "base");
    if (base) {
        if (base->type != YN_SCALAR || is_null(base)) {
            char b[64];
            return ld_fail(L, base, FRAY_ERR_PARSE,
                           "expected a stat block's name for base, got %s", got(base, b));
        }
        int i = find_template(L, base->text);
        if (i < 0) {
            const char *names[FT_MAX_TEMPLATES];
            for (int k = 0; k < L->n_tpl; k++)
                names[k] = L->tpl[k].sb.name;
            return ld_unknown(L, base, "stat block", base->text, names, L->n_tpl,
                              "no stat blocks are loaded");
        }
        *out = L->tpl[i];
    } else {
        memset(out, 0, sizeof *out);
        sb->wielded[0] = sb->wielded[1] = -1;
        sb->mana_regen = -1;
        sb->controller = FT_CTRL_GM;
    }
    out->file = L->r.cur_file;
    out->line = n->line;
    if ((v = get(n, "name"))) {
        if ((st = ld_text(L, v, "a stat block's name", sb->name, sizeof sb->name)) != FRAY_OK)
            return st;
    } else if (default_name) {
        copy_name(sb->name, sizeof sb->name, default_name);
    } else if (!base) {
        return ld_missing(L, n, "name", "a stat block");
    }
    const char *who = sb->name;
    if ((v = get(n, "aspects")) &&
        (st = ld_codes(L, v, "aspects", aspect_codes, FT_ASPECT_COUNT, 0, 20,
                       sb->aspects, NULL)) != FRAY_OK)
        return st;
    if ((v = get(n, "combat"))) {
        bool given[FT_CV_COUNT] = {false};
        if ((st = ld_codes(L, v, "combat values", cv_codes, FT_CV_COUNT, 0, 30,
                           sb->cv, given)) != FRAY_OK)
            return st;
        for (int i = 0; i < FT_CV_COUNT && !base; i++)
            if (!given[i]) {
                char list[64];
                return ld_fail(L, v, FRAY_ERR_PARSE,
                               "missing %s in the combat values of '%s' (a stat "
                               "block gives all of %s)",
                               cv_codes[i], who,
                               join_names(list, sizeof list, cv_codes, FT_CV_COUNT));
            }
    } else if (!base) {
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "missing key 'combat' in stat block '%s'", who);
    }
    if ((v = get(n, "endurance"))) {
        if ((st = ld_int(L, v, "endurance [[E]]", 1, 20, &sb->endurance)) != FRAY_OK)
            return st;
    } else if (!base) {
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "missing key 'endurance' in stat block '%s'", who);
    }
    if ((v = get(n, "stun"))) {
        if ((st = ld_int(L, v, "maximum STUN", 1, 999, &sb->max_stun)) != FRAY_OK)
            return st;
        out->stun_given = true;
    }
    if ((v = get(n, "lethal"))) {
        if ((st = ld_int(L, v, "maximum LETHAL", 1, 999, &sb->max_lethal)) != FRAY_OK)
            return st;
        out->lethal_given = true;
    }
    /* rules-facts.md "Derived values"; RULINGS 16. */
    if (!out->stun_given)
        sb->max_stun = sb->endurance * 8;
    if (!out->lethal_given)
        sb->max_lethal = sb->endurance + 8;
    if ((v = get(n, "size")) && (st = ld_size(L, v, &sb->size_rank)) != FRAY_OK)
        return st;
    if ((v = get(n, "skills"))) {
        sb->n_skills = 0;
        for (const yn *it = items(v); it; it = next_item(v, it)) {
            if (sb->n_skills == FT_MAX_SKILLS)
                return ld_fail(L, it, FRAY_ERR_RANGE, "'%s' has more than %d skills",
                               who, FT_MAX_SKILLS);
            if ((st = ld_skill(L, it, &sb->skills[sb->n_skills])) != FRAY_OK)
                return st;
            sb->n_skills++;
        }
    }
    const yn *weapons = get(n, "weapons");
    if (weapons) {
        sb->n_weapons = 0;
        for (const yn *it = items(weapons); it; it = next_item(weapons, it)) {
            if (sb->n_weapons == FT_MAX_WEAPONS)
                return ld_fail(L, it, FRAY_ERR_RANGE,
                               "'%s' carries more than %d weapons", who,
                               FT_MAX_WEAPONS);
            ft_weapon *w = &sb->weapons[sb->n_weapons];
            if (it->type == YN_SCALAR && !strchr(it->text, '|')) {
                int i = find_weapon(L->s, it->text);
                if (i < 0)
                    return ld_unknown_weapon(L, it, it->text);
                *w = L->s->catalog[i];
            } else if ((st = ld_weapon(L, it, w)) != FRAY_OK) {
                return st;
            }
            sb->n_weapons++;
        }
        sb->wielded[0] = sb->n_weapons > 0 ? 0 : -1;
        sb->wielded[1] = -1;
    }
    const yn *wield = get(n, "wield");
    if (wield) {
        int hand[2] = {-1, -1};
        int nh = n_items(wield);
        if (nh > 2)
            return ld_fail(L, wield, FRAY_ERR_PARSE,
                           "wield names the weapon in the main hand and the one in "
                           "the off hand: [main, off]; got %d",
                           nh);
        int h = 0;
        for (const yn *it = items(wield); it; it = next_item(wield, it), h++)
            if ((st = ld_hand(L, it, sb, h ? hand[0] : -1, &hand[h])) != FRAY_OK)
                return st;
        if (hand[0] >= 0 && hand[0] == hand[1])
            return ld_fail(L, wield, FRAY_ERR_PARSE,
                           "'%s' is in both hands; carry it twice to wield two",
                           sb->weapons[hand[0]].name);
        sb->wielded[0] = hand[0];
        sb->wielded[1] = hand[1];
    }
    /* Two hands for a Two-Handed weapon. */
    for (int h = 0; h < 2; h++) {
        int w = sb->wielded[h], o = sb->wielded[1 - h];
        if (w >= 0 && o >= 0 && (sb->weapons[w].keywords & FT_KW(TWO_HANDED)))
            return ld_fail(L, wield ? wield : (weapons ? weapons : n), FRAY_ERR_PARSE,
                           "'%s' is Two-Handed: the other hand must be empty "
                           "(wield: [%s, none])",
                           sb->weapons[w].name, sb->weapons[w].name);
    }
    bool dual = sb->wielded[0] >= 0 && sb->wielded[1] >= 0 &&
                melee_weapon(&sb->weapons[sb->wielded[0]]) &&
                melee_weapon(&sb->weapons[sb->wielded[1]]);
    if ((v = get(n, "stance"))) {
        static const char *const stances[] = {"aggressive", "defensive"};
        int s;
        if ((st = ld_choice(L, v, "stance", stances, 2, &s)) != FRAY_OK)
            return st;
        if (!dual)
            return ld_fail(L, key_node(n, "stance", false), FRAY_ERR_PARSE,
                           "a stance is for fighting with a melee weapon in each "
                           "hand (seed 000 \"Off-Hand Weapons\"); '%s' does not",
                           who);
        sb->dual_aggressive = s == 0;
    } else if (!base || weapons || wield) {
        sb->dual_aggressive = dual; /* fray's default stance: aggressive */
    }
    if (!dual)
        sb->dual_aggressive = false;
    if ((v = get(n, "armor")) && (st = ld_statblock_armor(L, v, sb)) != FRAY_OK)
        return st;
    const yn *adv = get(n, "advantages"), *dis = get(n, "disadvantages");
    if (adv || dis) {
        ft_advantage keep[FT_MAX_ADVANTAGES];
        int nk = 0;
        /* Keep the base's half that is not given again. */
        for (int i = 0; i < sb->n_advantages; i++)
            if ((sb->advantages[i].rank > 0 && !adv) ||
                (sb->advantages[i].rank < 0 && !dis))
                keep[nk++] = sb->advantages[i];
        const yn *lists[2] = {adv, dis};
        for (int d = 0; d < 2; d++)
            for (const yn *it = items(lists[d]); it; it = next_item(lists[d], it)) {
                if (nk == FT_MAX_ADVANTAGES)
                    return ld_fail(L, it, FRAY_ERR_RANGE,
                                   "'%s' has more than %d advantages and "
                                   "disadvantages",
                                   who, FT_MAX_ADVANTAGES);
                if ((st = ld_advantage(L, it, d == 1, &keep[nk])) != FRAY_OK)
                    return st;
                nk++;
            }
        memcpy(sb->advantages, keep, sizeof keep[0] * (size_t)nk);
        sb->n_advantages = nk;
    }
    if ((v = get(n, "immune")) &&
        (st = ld_damage_types(L, v, "an immunity (a damage type)", &sb->immune)) != FRAY_OK)
        return st;
    if ((v = get(n, "susceptible")) &&
        (st = ld_damage_types(L, v, "a susceptibility (a damage type)",
                              &sb->susceptible)) != FRAY_OK)
        return st;
    if ((v = get(n, "chips"))) {
        memset(sb->chips, 0, sizeof sb->chips);
        if ((st = ld_codes(L, v, "chips", chip_names, 3, 0, 3, sb->chips, NULL)) != FRAY_OK)
            return st;
        /* rules-facts.md "Chips": at most 3 held. */
        if (sb->chips[0] + sb->chips[1] + sb->chips[2] > 3)
            return ld_fail(L, v, FRAY_ERR_RANGE,
                           "'%s' holds %d chips; at most 3 are held", who,
                           sb->chips[0] + sb->chips[1] + sb->chips[2]);
    }
    if ((v = get(n, "mana"))) {
        memset(sb->mana, 0, sizeof sb->mana);
        if ((st = ld_codes(L, v, "mana", element_names, FT_ELEMENT_COUNT, 0, 20,
                           sb->mana, NULL)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "mana-regen")) &&
        (st = ld_int(L, v, "mana-regen", 0, 10, &sb->mana_regen)) != FRAY_OK)
        return st;
    if ((v = get(n, "controller"))) {
        int c;
        if ((st = ld_choice(L, v, "controller", controller_names, 2, &c)) != FRAY_OK)
            return st;
        sb->controller = c == 1 ? FT_CTRL_PLAYER : FT_CTRL_GM;
    }
    if ((v = get(n, "deck")) &&
        (st = ld_text(L, v, "deck", sb->deck_owner, sizeof sb->deck_owner)) != FRAY_OK)
        return st;
    if ((v = get(n, "temporary"))) {
        static const char *const keys[] = {"stun", "lethal"};
        int t[2] = {0, 0};
        if ((st = ld_keys(L, v, "temporary", keys, 2, false)) != FRAY_OK)
            return st;
        const yn *x;
        if ((x = get(v, "stun")) &&
            (st = ld_int(L, x, "temporary STUN", 0, 999, &t[0])) != FRAY_OK)
            return st;
        if ((x = get(v, "lethal")) &&
            (st = ld_int(L, x, "temporary LETHAL", 0, 999, &t[1])) != FRAY_OK)
            return st;
        sb->temp_stun = t[0];
        sb->temp_lethal = t[1];
    }
    if ((v = get(n, "talents")) && (st = ld_statblock_talents(L, v, sb)) != FRAY_OK)
        return st;
    if ((v = get(n, "notes")) && v->type != YN_SCALAR)
        return ld_fail(L, v, FRAY_ERR_PARSE, "expected text for notes");
    return FRAY_OK;
}

/* Adds a named stat block to the ones loaded. */
static fray_status ld_add_template(ld *L, const yn *n) {
    if (L->n_tpl == FT_MAX_TEMPLATES)
        return ld_fail(L, n, FRAY_ERR_RANGE, "more than %d stat blocks",
                       FT_MAX_TEMPLATES);
    ld_tpl *t = &L->tpl[L->n_tpl];
    fray_status st = ld_statblock(L, n, NULL, t);
    if (st != FRAY_OK)
        return st;
    int dup = find_template(L, t->sb.name);
    if (dup >= 0)
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "a stat block named '%s' is already loaded (%s:%d)",
                       t->sb.name, L->tpl[dup].file, L->tpl[dup].line);
    L->n_tpl++;
    return FRAY_OK;
}

/* ---- Files that name files -------------------------------------------------------- */

typedef struct ld_file {
    const char *display;
    const char *dir; /* the real folder it is in, with a final '/' */
    yn *root;
    int kind;
    bool done;
} ld_file;

/* "examples/towers" + "../../data/x.yaml" -> "data/x.yaml" (lexically). */
static char *ld_join(ld *L, const char *base_file, const char *rel, bool tidy) {
    size_t dir = 0;
    if (rel[0] != '/') {
        const char *slash = strrchr(base_file, '/');
        dir = slash ? (size_t)(slash - base_file) + 1 : 0;
    }
    size_t rl = strlen(rel);
    char *raw = ld_alloc(L, dir + rl + 1);
    if (!raw)
        return NULL;
    memcpy(raw, base_file, dir);
    memcpy(raw + dir, rel, rl + 1);
    if (!tidy)
        return raw;
    /* Remove "." and "dir/.." segments. */
    char *out = ld_alloc(L, dir + rl + 2);
    if (!out)
        return NULL;
    const char *seg[128];
    size_t seglen[128];
    int n = 0;
    bool abs = raw[0] == '/';
    for (const char *p = raw; *p;) {
        while (*p == '/')
            p++;
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0)
            break;
        bool up = len == 2 && p[0] == '.' && p[1] == '.';
        if (len == 1 && p[0] == '.') {
            /* nothing */
        } else if (up && n > 0 && !(seglen[n - 1] == 2 && seg[n - 1][0] == '.' &&
                                      seg[n - 1][1] == '.')) {
            n--;
        } else if (up && abs && n == 0) {
            /* "/.." is "/" */
        } else if (n < 128) {
            seg[n] = p;
            seglen[n] = len;
            n++;
        }
        p += len;
    }
    size_t o = 0;
    if (abs)
        out[o++] = '/';
    for (int i = 0; i < n; i++) {
        if (i)
            out[o++] = '/';
        memcpy(out + o, seg[i], seglen[i]);
        o += seglen[i];
    }
    if (o == 0)
        out[o++] = '.';
    out[o] = '\0';
    return out;
}

/*
 * The real folder of the file at `path` (realpath() of the part before its
 * last '/'), with a final '/': what the paths a file names are relative
 * to. Not the display path: "link/.." is where the operating system says,
 * not where a tidied name suggests, when link is a symbolic link to a
 * folder. Falls back to the path's own folder when realpath() cannot tell
 * (a text from memory whose folder does not exist).
 */
static char *ld_real_dir(ld *L, const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? ld_strndup(L, path, (size_t)(slash - path) + 1)
                      : ld_strndup(L, "./", 2);
    if (!dir)
        return NULL;
    char real[PATH_MAX];
    if (!realpath(dir, real))
        return dir;
    size_t n = strlen(real);
    bool slashed = n > 0 && real[n - 1] == '/';
    char *out = ld_alloc(L, n + 2);
    if (!out)
        return NULL;
    memcpy(out, real, n);
    if (!slashed)
        out[n++] = '/';
    out[n] = '\0';
    return out;
}

/*
 * The kind of a file: its `fray:` key. Until a file has one it may be any
 * file at all (`fray check /etc/passwd`), so these messages, like every
 * message about a file before this point, never quote what it holds:
 * they say what it is (text, a list) and what was expected.
 */
/* `rules:` (optional, docs/file-formats.md "Rulesets"): which game's rules
 * the file is written for. This loader reads 99 Towers ("towers", the
 * default); the other rulesets of fray are named, and refused as not built
 * yet, rather than read as 99 Towers. */
static fray_status ld_rules(ld *L, const yn *root) {
    static const char *const coming[][2] = {
        {"silent-winter", "Silent Winter"}, {"d6", "D6"}};
    const yn *v = get(root, "rules");
    char b[64];
    if (!v)
        return FRAY_OK;
    if (v->type != YN_SCALAR || is_null(v) ||
        !(v->tag == YT_NONE || v->tag == YT_STR))
        return ld_fail(L, v, FRAY_ERR_PARSE,
                       "expected the name of a ruleset for rules (towers), "
                       "got %s",
                       got(v, b));
    if (strcmp(v->text, "towers") == 0)
        return FRAY_OK;
    if (strcmp(v->text, "alloy") == 0)
        return ld_fail(L, v, FRAY_ERR_PARSE,
                       "a file of rules: alloy (Alloy), not 99 Towers: "
                       "fray_setup_load reads it");
    for (size_t k = 0; k < N_OF(coming); k++)
        if (strcmp(v->text, coming[k][0]) == 0)
            return ld_fail(L, v, FRAY_ERR_PARSE,
                           "fray does not run %s yet: this fray reads files "
                           "of rules: towers (99 Towers)",
                           coming[k][1]);
    if (distance(v->text, "towers") <= 2)
        return ld_fail(L, v, FRAY_ERR_PARSE,
                       "no ruleset '%.40s' (did you mean 'towers'?)", v->text);
    return ld_fail(L, v, FRAY_ERR_PARSE,
                   "no ruleset '%.40s': fray knows towers (99 Towers) and "
                   "alloy (Alloy), and silent-winter and d6 are coming",
                   v->text);
}

static fray_status ld_kind(ld *L, const yn *root, int *out) {
    static const char expected[] =
        "'fray: encounter', 'fray: statblocks' or 'fray: catalog'";
    if (root->type != YN_MAP)
        return ld_fail(L, root, FRAY_ERR_PARSE,
                       "not a fray file: expected a mapping that starts with %s, "
                       "got %s",
                       expected,
                       root->type == YN_SEQ ? "a list"
                       : is_null(root)      ? "nothing"
                                            : "text");
    const yn *k = key_node(root, "fray", false);
    if (!k)
        return ld_fail(L, root, FRAY_ERR_PARSE,
                       "missing key 'fray': a fray file starts with %s", expected);
    const yn *v = k->value;
    int i = v && v->type == YN_SCALAR && !is_null(v) ? find_name(v->text, kind_names, 3)
                                                     : -1;
    if (i >= 0) {
        *out = i;
        return ld_rules(L, root);
    }
    /* A near miss is surely a fray file with a typo: name the kind meant
     * (fray's word, not the file's). */
    for (int j = 0; j < 3 && v && v->type == YN_SCALAR; j++)
        if (distance(v->text, kind_names[j]) <= 2)
            return ld_fail(L, v ? v : k, FRAY_ERR_PARSE,
                           "'fray:' names no kind of fray file (did you mean "
                           "'%s'?); expected %s",
                           kind_names[j], expected);
    return ld_fail(L, v && !is_null(v) ? v : k, FRAY_ERR_PARSE,
                   "'fray:' names no kind of fray file; expected %s", expected);
}

static fray_status ld_process(ld *L, ld_file *f);

/* Registers a file read from `path`. */
static fray_status ld_register(ld *L, const char *path, const char *display,
                               const yn *from, ld_file **out) {
    char real[PATH_MAX];
    const char *key = realpath(path, real) ? real : path;
    for (int i = 0; i < L->n_files; i++)
        if (strcmp(L->real[i], key) == 0) {
            *out = L->files[i];
            return FRAY_OK;
        }
    if (L->n_files == LD_MAX_FILES)
        return ld_fail(L, from, FRAY_ERR_RANGE, "more than %d files", LD_MAX_FILES);
    ld_file *f = ld_alloc(L, sizeof *f);
    char *k = f ? ld_strndup(L, key, strlen(key)) : NULL;
    if (!k)
        return ld_nomem(L);
    const char *saved = L->r.cur_file;
    f->display = display;
    fray_status st = ld_parse_file(L, path, display, from, &f->root);
    if (st == FRAY_OK && !(f->dir = ld_real_dir(L, path)))
        st = ld_nomem(L);
    if (st == FRAY_OK)
        st = ld_kind(L, f->root, &f->kind);
    if (st == FRAY_OK)
        st = yr_tag_check(&L->r);
    if (st != FRAY_OK)
        return st;
    L->r.cur_file = saved;
    L->real[L->n_files] = k;
    L->files[L->n_files] = f;
    L->n_files++;
    *out = f;
    return FRAY_OK;
}

/* A file named by `from` (a path relative to the current file) that must be
 * of kind `want`: read and processed unless it already was. */
static fray_status ld_include(ld *L, const yn *from, int want) {
    char b[64];
    if (!from || from->type != YN_SCALAR || is_null(from))
        return ld_fail(L, from, FRAY_ERR_PARSE, "expected a file's path, got %s",
                       got(from, b));
    /* Opened relative to the real folder of the current file; named in
     * messages relative to its display path. */
    char *path = ld_join(L, L->cur_dir, from->text, false);
    char *display = ld_join(L, L->r.cur_file, from->text, true);
    if (!path || !display)
        return ld_nomem(L);
    /* The tidied name says "a/b/../c" is "a/c"; when a symbolic link makes
     * it another file (or none), messages keep the name untidied. */
    char real_path[PATH_MAX], real_display[PATH_MAX];
    if (realpath(path, real_path) &&
        (!realpath(display, real_display) || strcmp(real_path, real_display) != 0) &&
        !(display = ld_join(L, L->r.cur_file, from->text, false)))
        return ld_nomem(L);
    ld_file *f;
    fray_status st = ld_register(L, path, display, from, &f);
    if (st != FRAY_OK)
        return st;
    if (f->kind != want)
        return ld_fail(L, from, FRAY_ERR_PARSE,
                       "'%.60s' is a file of kind '%s'; expected '%s' here",
                       from->text, kind_names[f->kind], kind_names[want]);
    return f->done ? FRAY_OK : ld_process(L, f);
}

static fray_status ld_statblocks_file(ld *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "catalog", "statblocks",
                                       "notes"};
    fray_status st = ld_keys(L, root, "a stat-block file", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *list = get(root, "catalog");
    for (const yn *it = items(list); it; it = next_item(list, it))
        if ((st = ld_include(L, it, KIND_CATALOG)) != FRAY_OK)
            return st;
    list = get(root, "statblocks");
    if (!list)
        return ld_missing(L, root, "statblocks", "a stat-block file");
    for (const yn *it = items(list); it; it = next_item(list, it))
        if ((st = ld_add_template(L, it)) != FRAY_OK)
            return st;
    return FRAY_OK;
}

/* ---- Encounters ------------------------------------------------------------------- */

static fray_status ld_seed(ld *L, const yn *n, uint64_t *out) {
    char b[64];
    if (n && n->type == YN_SCALAR && !is_null(n) && n->len <= 20 &&
        (n->tag == YT_NONE || n->tag == YT_INT)) {
        bool digits = n->len > 0;
        for (size_t i = 0; i < n->len; i++)
            digits = digits && isdigit((unsigned char)n->text[i]);
        if (digits) {
            errno = 0;
            unsigned long long v = strtoull(n->text, NULL, 10);
            if (errno != ERANGE) {
                *out = (uint64_t)v;
                return FRAY_OK;
            }
        }
    }
    return ld_fail(L, n, FRAY_ERR_PARSE,
                   "expected a whole number from 0 to 18446744073709551615 for "
                   "seed, got %s",
                   got(n, b));
}

static const char *const option_keys[] = {
    "aces",           "jokers",           "joker-value",
    "min-one-card",   "decks",            "hand-of-fate",
    "flat-footed-loses-ss", "full-defense-cards", "opportunity-delay",
    "mana-regen",     "dying-loses-lethal", "dead-at",
    "disabled-unconscious", "crit-needs-heart", "recover-stun",
    "grapple-size",   "surprise-delay",   "phase-limit",
    "simultaneous-duel", "fresh-decks", "unconscious-bonus",
    "area-centre-shift", "area-line", "mana-element-cap",
    "duel-concede", "mark-cost", "companion-alone",
    "throw-range",    "level-feet",       "squeeze-flips",
    "pit-depth",       "join-initiative",
    "quick-stand-dtn", "quick-stand-phases", "talents-add-up",
    "tumble-fail", "tumble-provokes", "tumble-untrained", "share-end",
    "fate-exchange-below", "pair-flat-footed", "pair-second-move",
    "companion-initiative"};

/* The options of RULINGS.md by their names (docs/rules/towers.md). */
static fray_status ld_options(ld *L, const yn *n, ft_options *o) {
    fray_status st = ld_keys(L, n, "options", option_keys, N_OF(option_keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v;
    int i;
    if ((v = get(n, "aces"))) {
        static const char *const aces[] = {"high", "low"};
        if ((st = ld_choice(L, v, "aces", aces, 2, &i)) != FRAY_OK)
            return st;
        o->deck.aces_low = i == 1;
    }
    if ((v = get(n, "jokers")) &&
        (st = ld_int(L, v, "jokers", 0, 2, &o->deck.jokers)) != FRAY_OK)
        return st;
    if ((v = get(n, "joker-value")) &&
        (st = ld_int(L, v, "joker-value", 0, 15, &o->deck.joker_value)) != FRAY_OK)
        return st;
    if ((v = get(n, "min-one-card")) &&
        (st = ld_bool(L, v, "min-one-card", &o->flip.min_one_card)) != FRAY_OK)
        return st;
    if ((v = get(n, "decks"))) {
        if ((st = ld_choice(L, v, "decks", deck_mode_names, 3, &i)) != FRAY_OK)
            return st;
        o->decks = (ft_deck_mode)i;
    }
    if ((v = get(n, "hand-of-fate")) &&
        (st = ld_int(L, v, "hand-of-fate (cards)", 0, FT_HAND_MAX,
                     &o->hand_of_fate)) != FRAY_OK)
        return st;
    if ((v = get(n, "flat-footed-loses-ss")) &&
        (st = ld_bool(L, v, "flat-footed-loses-ss", &o->flat_footed_loses_ss)) != FRAY_OK)
        return st;
    if ((v = get(n, "full-defense-cards")) &&
        (st = ld_int(L, v, "full-defense-cards", 0, 5, &o->full_defense_flip)) != FRAY_OK)
        return st;
    if ((v = get(n, "opportunity-delay")) &&
        (st = ld_int(L, v, "opportunity-delay (phases)", 0, 20,
                     &o->opportunity_delay)) != FRAY_OK)
        return st;
    if ((v = get(n, "mana-regen")) &&
        (st = ld_int(L, v, "mana-regen", 0, 10, &o->mana_regen)) != FRAY_OK)
        return st;
    if ((v = get(n, "dying-loses-lethal")) &&
        (st = ld_bool(L, v, "dying-loses-lethal", &o->dying_loses_lethal)) != FRAY_OK)
        return st;
    if ((v = get(n, "dead-at")) &&
        (st = ld_int(L, v, "dead-at (times [[E]])", 1, 10, &o->dead_at_multiple)) != FRAY_OK)
        return st;
    if ((v = get(n, "disabled-unconscious")) &&
        (st = ld_bool(L, v, "disabled-unconscious", &o->disabled_unconscious)) != FRAY_OK)
        return st;
    if ((v = get(n, "crit-needs-heart")) &&
        (st = ld_bool(L, v, "crit-needs-heart", &o->crit_needs_heart)) != FRAY_OK)
        return st;
    if ((v = get(n, "recover-stun"))) {
        if (v->type == YN_SCALAR && ieq(v->text, "endurance"))
            o->recover_stun = 0;
        else if (v->type == YN_SCALAR && !is_null(v) && node_long(v, &(long){0}))
            st = ld_int(L, v, "recover-stun", 1, 100, &o->recover_stun);
        else {
            char b[64];
            st = ld_fail(L, v, FRAY_ERR_PARSE,
                         "expected 'endurance' or a number of STUN for "
                         "recover-stun, got %s",
                         got(v, b));
        }
        if (st != FRAY_OK)
            return st;
    }
    if ((v = get(n, "grapple-size"))) {
        static const char *const gs[] = {"cards", "shift"};
        if ((st = ld_choice(L, v, "grapple-size", gs, 2, &i)) != FRAY_OK)
            return st;
        o->grapple_size_cards = i == 0;
    }
    if ((v = get(n, "surprise-delay")) &&
        (st = ld_int(L, v, "surprise-delay (phases)", 0, 100, &o->surprise_delay)) != FRAY_OK)
        return st;
    if ((v = get(n, "phase-limit")) &&
        (st = ld_int(L, v, "phase-limit (0: none)", 0, 1000000, &o->max_phase)) != FRAY_OK)
        return st;
    if ((v = get(n, "simultaneous-duel")) &&
        (st = ld_bool(L, v, "simultaneous-duel", &o->simultaneous_duel)) != FRAY_OK)
        return st;
    if ((v = get(n, "fresh-decks")) &&
        (st = ld_bool(L, v, "fresh-decks", &o->fresh_decks)) != FRAY_OK)
        return st;
    if ((v = get(n, "unconscious-bonus"))) {
        static const char *const ub[] = {"lethal", "defense", "both"};
        if ((st = ld_choice(L, v, "unconscious-bonus", ub, 3, &i)) != FRAY_OK)
            return st;
        o->unconscious_bonus = (uint8_t)(i == 0   ? FT_UB_LETHAL
                                         : i == 1 ? FT_UB_DEFENSE
                                                  : FT_UB_LETHAL | FT_UB_DEFENSE);
    }
    /* Grappling and falling (grapple.c). throw-range: spaces, or
     * "hard-strength" (0): 2 x Hard Strength. */
    if ((v = get(n, "throw-range"))) {
        if (v->type == YN_SCALAR && ieq(v->text, "hard-strength"))
            o->throw_range = 0;
        else if ((st = ld_int(L, v, "throw-range (spaces, or hard-strength)",
                              1, 1000, &o->throw_range)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "level-feet")) &&
        (st = ld_int(L, v, "level-feet", 1, 100, &o->level_feet)) != FRAY_OK)
        return st;
    if ((v = get(n, "squeeze-flips")) &&
        (st = ld_int(L, v, "squeeze-flips", 0, 10, &o->squeeze_flips)) != FRAY_OK)
        return st;
    if ((v = get(n, "pit-depth")) &&
        (st = ld_int(L, v, "pit-depth (levels)", 0, 100, &o->pit_depth)) != FRAY_OK)
        return st;
    /* towers-companion: seed 000 "Marked Targets" gives a Mark no cost. */
    if ((v = get(n, "mark-cost"))) {
        if (v->type == YN_SCALAR && ieq(v->text, "free"))
            o->mark_cost = FT_COST_FREE;
        else if ((st = ld_int(L, v, "mark-cost (free, or phases)", 0, 100,
                              &o->mark_cost)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "companion-alone"))) {
        static const char *const ca[] = {"pair", "next"};
        if ((st = ld_choice(L, v, "companion-alone", ca, 2, &i)) != FRAY_OK)
            return st;
        o->companion_alone = (uint8_t)(i == 0 ? FT_CA_PAIR : FT_CA_NEXT);
    }
    if ((v = get(n, "area-centre-shift")) &&
        (st = ld_int(L, v, "area-centre-shift", 0, 5, &o->area_centre_shift)) != FRAY_OK)
        return st;
    if ((v = get(n, "area-line"))) {
        static const char *const al[] = {"from-target", "from-caster"};
        if ((st = ld_choice(L, v, "area-line", al, 2, &i)) != FRAY_OK)
            return st;
        o->area_line_from_caster = i == 1;
    }
    if ((v = get(n, "mana-element-cap")) &&
        (st = ld_int(L, v, "mana-element-cap (0: none)", 0, 20,
                     &o->mana_element_cap)) != FRAY_OK)
        return st;
    if ((v = get(n, "duel-concede"))) {
        static const char *const dc[] = {"never", "outmatched"};
        if ((st = ld_choice(L, v, "duel-concede", dc, 2, &i)) != FRAY_OK)
            return st;
        o->duel_concede = (uint8_t)i;
    }
    if ((v = get(n, "quick-stand-dtn")) &&
        (st = ld_int(L, v, "quick-stand-dtn (0: no Acrobatics check)", 0, 30,
                     &o->quick_stand_dtn)) != FRAY_OK)
        return st;
    if ((v = get(n, "quick-stand-phases")) &&
        (st = ld_int(L, v, "quick-stand-phases", 1, 4, &o->quick_stand_phases)) != FRAY_OK)
        return st;
    if ((v = get(n, "talents-add-up")) &&
        (st = ld_bool(L, v, "talents-add-up", &o->talents_add_up)) != FRAY_OK)
        return st;
    /* towers-tumble (tumble.c): seed 000 "Moving Through Spaces". */
    if ((v = get(n, "tumble-fail"))) {
        static const char *const tf[] = {"stop", "prone"};
        if ((st = ld_choice(L, v, "tumble-fail", tf, 2, &i)) != FRAY_OK)
            return st;
        o->tumble_fail = (uint8_t)i;
    }
    if ((v = get(n, "tumble-provokes")) &&
        (st = ld_bool(L, v, "tumble-provokes", &o->tumble_provokes)) != FRAY_OK)
        return st;
    if ((v = get(n, "tumble-untrained")) &&
        (st = ld_bool(L, v, "tumble-untrained", &o->tumble_untrained)) != FRAY_OK)
        return st;
    if ((v = get(n, "share-end"))) {
        static const char *const se[] = {"less-than-one", "one-or-less"};
        if ((st = ld_choice(L, v, "share-end", se, 2, &i)) != FRAY_OK)
            return st;
        o->share_end_one = i == 1;
    }
    /* issue 7: rules-facts.md "Hand of Fate", the exchange at the
     * end of an encounter (talent.c ft_exchange_choose). */
    if ((v = get(n, "fate-exchange-below")) &&
        (st = ld_int(L, v, "fate-exchange-below (0: no exchange by the "
                     "tactics)", 0, 15, &o->fate_exchange_below)) != FRAY_OK)
        return st;
    if ((v = get(n, "join-initiative"))) {
        static const char *const ji[] = {"entry", "at-start"};
        if ((st = ld_choice(L, v, "join-initiative", ji, 2, &i)) != FRAY_OK)
            return st;
        o->join_initiative = (uint8_t)i;
    }
    /* issue 7: companion rulings (seed 000 "Companions and Minions"). */
    if ((v = get(n, "pair-flat-footed"))) {
        static const char *const pf[] = {"both", "actor"};
        if ((st = ld_choice(L, v, "pair-flat-footed", pf, 2, &i)) != FRAY_OK)
            return st;
        o->pair_flat_footed = (uint8_t)i;
    }
    if ((v = get(n, "pair-second-move"))) {
        static const char *const pm[] = {"always", "if-first-stands"};
        if ((st = ld_choice(L, v, "pair-second-move", pm, 2, &i)) != FRAY_OK)
            return st;
        o->pair_second_move = (uint8_t)i;
    }
    if ((v = get(n, "companion-initiative"))) {
        static const char *const ci[] = {"none", "better"};
        if ((st = ld_choice(L, v, "companion-initiative", ci, 2, &i)) != FRAY_OK)
            return st;
        o->companion_initiative = (uint8_t)i;
    }
    return FRAY_OK;
}

/* Seed 000 "Dueling": the encounter's `duel:` (docs/file-formats.md
 * "Duels"): two combatants, the challenger first; a melee duel starts
 * with them adjacent. simultaneous-duel is on unless `options:` says. */
static fray_status ld_duel(ld *L, const yn *n, const yn *root) {
    ft_setup *s = L->s;
    static const char *const keys[] = {"to", "showdown", "ranged"};
    fray_status st = ld_keys(L, n, "duel", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *v = get(n, "to");
    if (!v)
        return ld_missing(L, n, "to", "a duel");
    static const char *const to[] = {"first-blood", "incapacitation", "death"};
    int i;
    if ((st = ld_choice(L, v, "duel to", to, 3, &i)) != FRAY_OK)
        return st;
    s->duel.to = (uint8_t)(FT_DUEL_FIRST_BLOOD + i);
    s->duel.showdown = true;
    s->duel.ranged = false;
    if ((v = get(n, "showdown")) &&
        (st = ld_bool(L, v, "showdown", &s->duel.showdown)) != FRAY_OK)
        return st;
    if ((v = get(n, "ranged")) &&
        (st = ld_bool(L, v, "ranged", &s->duel.ranged)) != FRAY_OK)
        return st;
    if (s->n_combatants != 2)
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "a duel is fought by two combatants; this encounter "
                       "has %d",
                       s->n_combatants);
    if (s->c[0].side == s->c[1].side)
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "the two duelists are on the same side ('%s')",
                       s->sides[s->c[0].side]);
    /* Stage One, Position: "In a melee duel, both combatants start
     * adjacent to one another on the tactical map." */
    if (!s->duel.ranged && s->c[0].placed && s->c[1].placed) {
        fray_footprint a = {s->c[0].start, 1}, b = {s->c[1].start, 1};
        a.side = (int8_t)fray_grid_side_for_size(s->c[0].sb.size_rank);
        b.side = (int8_t)fray_grid_side_for_size(s->c[1].sb.size_rank);
        int d = ft_range(a, b);
        if (d > 1)
            return ld_fail(L, n, FRAY_ERR_PARSE,
                           "a melee duel starts with the duelists adjacent "
                           "(seed 000 \"Dueling\", Stage One): '%s' at "
                           "(%d,%d) and '%s' at (%d,%d) are %d spaces apart; "
                           "place them side by side, or say 'ranged: true'",
                           s->c[0].id, s->c[0].start.x, s->c[0].start.y,
                           s->c[1].id, s->c[1].start.x, s->c[1].start.y, d);
    }
    const yn *opts = get(root, "options");
    if (!opts || !get(opts, "simultaneous-duel"))
        s->opt.simultaneous_duel = true;
    return FRAY_OK;
}

static fray_status ld_tactics(ld *L, const yn *n, ft_tactics *t) {
    static const char *const keys[] = {"preset", "target", "recover-below",
                                       "hand-of-fate", "chips",
                                       "opportunity-attacks"};
    fray_status st;
    int i;
    if (n && n->type == YN_SCALAR) {
        if ((st = ld_choice(L, n, "tactics", tactics_names, FT_TACTICS_COUNT, &i)) != FRAY_OK)
            return st;
        t->preset = (ft_tactics_preset)i;
        return FRAY_OK;
    }
    if ((st = ld_keys(L, n, "tactics", keys, N_OF(keys), false)) != FRAY_OK)
        return st;
    const yn *v;
    if ((v = get(n, "preset"))) {
        if ((st = ld_choice(L, v, "preset", tactics_names, FT_TACTICS_COUNT, &i)) != FRAY_OK)
            return st;
        t->preset = (ft_tactics_preset)i;
    }
    if ((v = get(n, "target"))) {
        if ((st = ld_choice(L, v, "target", target_names, 3, &i)) != FRAY_OK)
            return st;
        t->target = (ft_target_pref)i;
    }
    if ((v = get(n, "recover-below")) &&
        (st = ld_int(L, v, "recover-below (percent of maximum STUN)", 0, 100,
                     &t->recover_below_pct)) != FRAY_OK)
        return st;
    if ((v = get(n, "hand-of-fate")) &&
        (st = ld_bool(L, v, "hand-of-fate", &t->use_hand_of_fate)) != FRAY_OK)
        return st;
    if ((v = get(n, "chips")) && (st = ld_bool(L, v, "chips", &t->use_chips)) != FRAY_OK)
        return st;
    if ((v = get(n, "opportunity-attacks")) &&
        (st = ld_bool(L, v, "opportunity-attacks", &t->opportunity_attacks)) != FRAY_OK)
        return st;
    return FRAY_OK;
}

static int find_side(const ft_setup *s, const char *name) {
    for (int i = 0; i < s->n_sides; i++)
        if (ieq(s->sides[i], name))
            return i;
    return -1;
}

static fray_status ld_side_ref(ld *L, const yn *n, const char *what, int *out) {
    char b[64];
    if (n && n->type == YN_SCALAR && !is_null(n)) {
        int i = find_side(L->s, n->text);
        if (i >= 0) {
            *out = i;
            return FRAY_OK;
        }
        const char *names[FT_MAX_SIDES];
        for (int k = 0; k < L->s->n_sides; k++)
            names[k] = L->s->sides[k];
        return ld_unknown(L, n, what, n->text, names, L->s->n_sides,
                          "the encounter has no sides");
    }
    return ld_fail(L, n, FRAY_ERR_PARSE, "expected a side's name for %s, got %s", what,
                   got(n, b));
}

static fray_status ld_add_side(ld *L, const yn *n) {
    char name[FT_NAME];
    fray_status st = ld_text(L, n, "a side's name", name, sizeof name);
    if (st != FRAY_OK)
        return st;
    if (find_side(L->s, name) >= 0)
        return ld_fail(L, n, FRAY_ERR_PARSE, "side '%s' is named twice", name);
    if (L->s->n_sides == FT_MAX_SIDES)
        return ld_fail(L, n, FRAY_ERR_RANGE, "more than %d sides", FT_MAX_SIDES);
    memcpy(L->s->sides[L->s->n_sides++], name, sizeof name);
    return FRAY_OK;
}

/* Ids are typed in commands: a letter, then letters, digits, '-' or '_'. */
static bool valid_id(const char *s) {
    if (!isalpha((unsigned char)s[0]))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return false;
    return true;
}

/* "Tony \"Wrongway\" Wright" -> "tony-wrongway-wright" */
static void slug(const char *s, char *out, size_t size) {
    size_t o = 0;
    bool dash = false;
    for (; *s && o + 1 < size; s++) {
        if (isalnum((unsigned char)*s)) {
            if (dash && o > 0 && o + 2 < size)
                out[o++] = '-';
            dash = false;
            out[o++] = (char)tolower((unsigned char)*s);
        } else {
            dash = true;
        }
    }
    out[o] = '\0';
}

/* "red-knight" -> "Red Knight" */
static void name_from_id(const char *id, char *out, size_t size) {
    size_t o = 0;
    bool start = true;
    for (; *id && o + 1 < size; id++) {
        char c = *id == '-' || *id == '_' ? ' ' : *id;
        out[o++] = start ? (char)toupper((unsigned char)c) : c;
        start = c == ' ';
    }
    out[o] = '\0';
}

/* Symbols that draw terrain cannot stand for a combatant. */
static bool terrain_symbol(char c) {
    return c == '.' || c == ' ' || c == '#' || c == '~' || c == '=' || c == 'v' ||
           (c >= '1' && c <= '9');
}

static fray_status ld_symbol(ld *L, const yn *n, char *out) {
    char b[64];
    if (!n || n->type != YN_SCALAR || n->len != 1 ||
        !isgraph((unsigned char)n->text[0]))
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "expected one visible character for symbol, got %s", got(n, b));
    if (terrain_symbol(n->text[0]))
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "'%c' draws terrain on the map (. # ~ = v 1-9); choose "
                       "another symbol",
                       n->text[0]);
    *out = n->text[0];
    return FRAY_OK;
}

static const char *const combatant_keys[] = {
    "id", "name", "statblock", "side", "at", "symbol", "unaware-of", "tactics",
    "count", "notes", "companion-of", "joins"};

/* One entry of `combatants:` (N combatants with count: N). */
static fray_status ld_combatant(ld *L, const yn *n) {
    ft_setup *s = L->s;
    fray_status st = ld_keys(L, n, "a combatant", combatant_keys,
                             N_OF(combatant_keys), false);
    if (st != FRAY_OK)
        return st;
    ld_group *g = &L->groups[L->n_groups];
    memset(g, 0, sizeof *g);
    g->node = n;
    g->count = 1;
    const yn *v;
    if ((v = get(n, "count")) &&
        (st = ld_int(L, v, "count", 1, FT_MAX_COMBATANTS, &g->count)) != FRAY_OK)
        return st;
    if (s->n_combatants + g->count > FT_MAX_COMBATANTS)
        return ld_fail(L, n, FRAY_ERR_RANGE,
                       "too many combatants: this makes %d; at most %d",
                       s->n_combatants + g->count, FT_MAX_COMBATANTS);
    /* Name and id as given (before numbering). */
    char name[FT_NAME] = "", id[FT_NAME] = "";
    const yn *idn = get(n, "id"), *namen = get(n, "name");
    if (idn) {
        if ((st = ld_text(L, idn, "id", id, sizeof id)) != FRAY_OK)
            return st;
        if (!valid_id(id))
            return ld_fail(L, idn, FRAY_ERR_PARSE,
                           "id '%s' must start with a letter and hold only "
                           "letters, digits, '-' and '_' (it is typed in commands)",
                           id);
    }
    if (namen && (st = ld_text(L, namen, "name", name, sizeof name)) != FRAY_OK)
        return st;
    /* The stat block. */
    ld_tpl t;
    const yn *sbn = get(n, "statblock");
    if (!sbn)
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'statblock' in combatant '%s'",
                       idn ? id : (namen ? name : "?"));
    if (sbn->type == YN_MAP) {
        char dflt[FT_NAME];
        if (namen)
            copy_name(dflt, sizeof dflt, name);
        else
            name_from_id(idn ? id : "combatant", dflt, sizeof dflt);
        if ((st = ld_statblock(L, sbn, dflt, &t)) != FRAY_OK)
            return st;
    } else if (sbn->type == YN_SCALAR && !is_null(sbn)) {
        int i = find_template(L, sbn->text);
        if (i < 0) {
            const char *names[FT_MAX_TEMPLATES];
            for (int k = 0; k < L->n_tpl; k++)
                names[k] = L->tpl[k].sb.name;
            return ld_unknown(L, sbn, "stat block", sbn->text, names, L->n_tpl,
                              "no stat blocks are loaded (name a file with "
                              "'statblocks: [path]')");
        }
        t = L->tpl[i];
    } else {
        char b[64];
        return ld_fail(L, sbn, FRAY_ERR_PARSE,
                       "expected a stat block's name or a stat block for "
                       "statblock, got %s",
                       got(sbn, b));
    }
    if (!idn)
        slug(namen ? name : t.sb.name, id, sizeof id);
    if (!id[0] || !isalpha((unsigned char)id[0]))
        return ld_fail(L, n, FRAY_ERR_PARSE,
                       "give this combatant an id (letters, digits, '-')");
    if (!namen) {
        if (idn)
            name_from_id(id, name, sizeof name);
        else
            copy_name(name, sizeof name, t.sb.name);
    }
    /* Room for " 12" / "-12" when numbered. */
    if (g->count > 1) {
        size_t extra = g->count >= 10 ? 3 : 2;
        if (strlen(id) + extra >= FT_NAME || strlen(name) + extra >= FT_NAME)
            return ld_fail(L, n, FRAY_ERR_RANGE,
                           "with count %d, the id and name must leave room for "
                           "the number: at most %zu characters",
                           g->count, FT_NAME - 1 - extra);
    }
    copy_name(g->id, sizeof g->id, id);
    /* Side. */
    int side;
    if (!(v = get(n, "side")))
        return ld_fail(L, n, FRAY_ERR_PARSE, "missing key 'side' in combatant '%s'", id);
    if ((st = ld_side_ref(L, v, "side", &side)) != FRAY_OK)
        return st;
    if ((v = get(n, "symbol")) && (st = ld_symbol(L, v, &g->symbol)) != FRAY_OK)
        return st;
    uint32_t unaware = 0;
    if ((v = get(n, "unaware-of")))
        for (const yn *it = items(v); it; it = next_item(v, it)) {
            int u;
            if ((st = ld_side_ref(L, it, "side", &u)) != FRAY_OK)
                return st;
            if (u == side)
                return ld_fail(L, it, FRAY_ERR_PARSE,
                               "'%s' cannot be unaware of its own side", id);
            unaware |= 1u << u;
        }
    ft_tactics tac = {FT_TAC_DEFAULT, FT_TARGET_NEAREST, 35, true, true, true};
    if ((v = get(n, "tactics")) && (st = ld_tactics(L, v, &tac)) != FRAY_OK)
        return st;
    /* "joins: later": off the clock and the map until the GM brings it in
     * (gm.c, "gm join ID at X,Y"); "start" (the default) is the fight's
     * start. */
    bool later = false;
    if ((v = get(n, "joins"))) {
        static const char *const joins_names[] = {"start", "later"};
        int j;
        if ((st = ld_choice(L, v, "joins", joins_names, 2, &j)) != FRAY_OK)
            return st;
        later = j == 1;
    }
    /* Places given with at: [x, y] (count 1) or [[x, y], ...] (count N). */
    fray_pos at[FT_MAX_COMBATANTS];
    const yn *at_item[FT_MAX_COMBATANTS];
    g->at_node = get(n, "at");
    if (g->at_node) {
        const yn *a = g->at_node;
        bool list_of_pos = a->type == YN_SEQ && a->first && a->first->type == YN_SEQ;
        if (g->count == 1 && !list_of_pos) {
            if ((st = ld_pos(L, a, "at", &at[0])) != FRAY_OK)
                return st;
            at_item[0] = a;
        } else {
            if (n_items(a) != g->count || !list_of_pos)
                return ld_fail(L, a, FRAY_ERR_PARSE,
                               "'%s' is %d combatants (count: %d): give %d places "
                               "[[x, y], ...] or mark them on the map",
                               id, g->count, g->count, g->count);
            int k = 0;
            for (const yn *it = items(a); it; it = next_item(a, it), k++) {
                if ((st = ld_pos(L, it, "at", &at[k])) != FRAY_OK)
                    return st;
                at_item[k] = it;
            }
        }
    }
    /* The combatants. */
    g->first = s->n_combatants;
    for (int k = 0; k < g->count; k++) {
        int ci = s->n_combatants++;
        ft_combatant *c = &s->c[ci];
        memset(c, 0, sizeof *c);
        c->sb = t.sb;
        if (g->count > 1) {
            /* The lengths were checked above. */
            if (snprintf(c->id, sizeof c->id, "%s-%d", id, k + 1) < 0 ||
                snprintf(c->name, sizeof c->name, "%s %d", name, k + 1) < 0)
                return ld_nomem(L);
        } else {
            copy_name(c->id, sizeof c->id, id);
            copy_name(c->name, sizeof c->name, name);
        }
        c->side = side;
        c->unaware_of = unaware;
        c->tactics = tac;
        c->deck = -1;
        c->joins_later = later;
        if (later) /* (issue 7: fights without a table bring it in) */
            L->s->any_joins_later = true;
        if (g->at_node) {
            c->start = at[k];
            c->placed = true;
            L->blame[ci] = at_item[k];
        } else {
            L->blame[ci] = n;
        }
        L->group_of[ci] = L->n_groups;
    }
    L->n_groups++;
    return FRAY_OK;
}

/* `companion-of: MASTER-ID` (seed 000 "Companions and Minions";
 * towers-companion): the master is another combatant of the same side,
 * not a companion himself. */
static fray_status ld_companions(ld *L) {
    ft_setup *s = L->s;
    for (int gi = 0; gi < L->n_groups; gi++) {
        const ld_group *g = &L->groups[gi];
        const yn *v = get(g->node, "companion-of");
        if (!v)
            continue;
        char b[64];
        if (v->type != YN_SCALAR || is_null(v))
            return ld_fail(L, v, FRAY_ERR_PARSE,
                           "expected a combatant's id for companion-of, got %s",
                           got(v, b));
        int m = -1;
        for (int i = 0; i < s->n_combatants; i++)
            if (ieq(s->c[i].id, v->text))
                m = i;
        if (m < 0) {
            const char *names[FT_MAX_COMBATANTS];
            for (int k = 0; k < s->n_combatants; k++)
                names[k] = s->c[k].id;
            return ld_unknown(L, v, "combatant", v->text, names,
                              s->n_combatants, "there are no combatants");
        }
        for (int k = 0; k < g->count; k++) {
            int c = g->first + k;
            if (c == m)
                return ld_fail(L, v, FRAY_ERR_PARSE,
                               "'%s' cannot be its own companion", s->c[c].id);
            if (s->c[m].side != s->c[c].side)
                return ld_fail(L, v, FRAY_ERR_PARSE,
                               "a companion fights on its master's side: '%s' "
                               "is on side '%s', '%s' on side '%s'",
                               s->c[c].id, s->sides[s->c[c].side], s->c[m].id,
                               s->sides[s->c[m].side]);
            s->c[c].master = m + 1;
            s->c[m].n_companions++;
        }
    }
    for (int i = 0; i < s->n_combatants; i++)
        if (s->c[i].master > 0 && s->c[s->c[i].master - 1].master > 0)
            return ld_fail(L, get(L->groups[L->group_of[i]].node, "companion-of"),
                           FRAY_ERR_PARSE,
                           "'%s' is a companion itself: a companion's master "
                           "must not be one",
                           s->c[s->c[i].master - 1].id);
    return FRAY_OK;
}

/* ---- The map ------------------------------------------------------------------------ */

static int find_group(const ld *L, const char *id) {
    for (int i = 0; i < L->n_groups; i++)
        if (ieq(L->groups[i].id, id))
            return i;
    return -1;
}

static fray_status ld_legend(ld *L, const yn *n, fray_grid_legend_entry *out,
                             int *out_n) {
    char b[64];
    if (n->type != YN_MAP)
        return ld_fail(L, n, FRAY_ERR_PARSE, "expected a mapping for legend, got %s",
                       got(n, b));
    int count = 0;
    for (const yn *k = n->first; k; k = k->next) {
        if (k->len != 1 || !isgraph((unsigned char)k->text[0]))
            return ld_fail(L, k, FRAY_ERR_PARSE,
                           "a legend key is one visible character (quote "
                           "\"#\" and \"~\"), got '%.20s'",
                           k->text);
        for (const yn *j = n->first; j != k; j = j->next)
            if (strcmp(j->text, k->text) == 0)
                return ld_fail(L, k, FRAY_ERR_PARSE,
                               "'%s' appears twice in the legend (first at line %d)",
                               k->text, j->line);
        fray_grid_legend_entry *e = &out[count];
        memset(e, 0, sizeof *e);
        e->symbol = k->text[0];
        const yn *v = k->value;
        fray_status st;
        int t = 0;
        if (v && v->type == YN_MAP) {
            static const char *const keys[] = {"terrain", "elevation"};
            if ((st = ld_keys(L, v, "a legend entry", keys, 2, false)) != FRAY_OK)
                return st;
            const yn *x;
            e->terrain = FRAY_TERRAIN_OPEN;
            if ((x = get(v, "terrain"))) {
                if ((st = ld_choice(L, x, "terrain", terrain_names, FRAY_TERRAIN_COUNT,
                                    &t)) != FRAY_OK)
                    return st;
                e->terrain = (fray_terrain)t;
            }
            int el = 0;
            if ((x = get(v, "elevation")) &&
                (st = ld_int(L, x, "elevation", -9, 9, &el)) != FRAY_OK)
                return st;
            e->elevation = (int8_t)el;
        } else if (v && v->type == YN_SCALAR && !is_null(v)) {
            t = find_name(v->text, terrain_names, FRAY_TERRAIN_COUNT);
            int gi = t < 0 ? find_group(L, v->text) : -1;
            if (t >= 0) {
                e->terrain = (fray_terrain)t;
            } else if (gi >= 0) {
                ld_group *g = &L->groups[gi];
                if (g->legend_key)
                    return ld_fail(L, k, FRAY_ERR_PARSE,
                                   "'%s' already has the symbol '%s' in the legend",
                                   g->id, g->legend_key->text);
                if (g->at_node)
                    return ld_fail(L, k, FRAY_ERR_PARSE,
                                   "'%s' is placed twice: by 'at:' (line %d) and by "
                                   "the map legend",
                                   g->id, g->at_node->line);
                g->legend_key = k;
                e->is_placement = true;
                e->placement_id = gi;
            } else {
                char list[160], list2[120];
                const char *ids[FT_MAX_COMBATANTS];
                for (int i = 0; i < L->n_groups; i++)
                    ids[i] = L->groups[i].id;
                return ld_fail(L, v, FRAY_ERR_PARSE,
                               "'%.30s' is neither a terrain (%s) nor a combatant "
                               "(%s)",
                               v->text,
                               join_names(list2, sizeof list2, terrain_names,
                                          FRAY_TERRAIN_COUNT),
                               join_names(list, sizeof list, ids, L->n_groups));
            }
        } else {
            return ld_fail(L, v ? v : k, FRAY_ERR_PARSE,
                           "expected a terrain, {terrain, elevation} or a "
                           "combatant's id for '%s' in the legend, got %s",
                           k->text, got(v, b));
        }
        count++;
    }
    *out_n = count;
    return FRAY_OK;
}

static fray_status ld_edges(ld *L, const yn *list) {
    static const char *const keys[] = {"between", "south-of", "east-of", "length",
                                       "kind"};
    static const char *const kinds[] = {"wall", "low"};
    fray_status st;
    for (const yn *it = items(list); it; it = next_item(list, it)) {
        if ((st = ld_keys(L, it, "an edge", keys, N_OF(keys), false)) != FRAY_OK)
            return st;
        const yn *v, *between = get(it, "between"), *south = get(it, "south-of"),
                     *east = get(it, "east-of");
        int kind;
        if (!(v = get(it, "kind")))
            return ld_missing(L, it, "kind", "an edge");
        if ((st = ld_choice(L, v, "an edge's kind", kinds, 2, &kind)) != FRAY_OK)
            return st;
        fray_edge e = kind == 0 ? FRAY_EDGE_WALL : FRAY_EDGE_LOW;
        if ((between != NULL) + (south != NULL) + (east != NULL) != 1)
            return ld_fail(L, it, FRAY_ERR_PARSE,
                           "an edge gives one of: between: [[x, y], [x, y]], "
                           "south-of: [x, y] or east-of: [x, y]");
        if (between) {
            fray_pos a, b;
            if (n_items(between) != 2 || between->type != YN_SEQ)
                return ld_fail(L, between, FRAY_ERR_PARSE,
                               "between names two spaces: [[x, y], [x, y]]");
            if ((st = ld_pos(L, between->first, "between", &a)) != FRAY_OK ||
                (st = ld_pos(L, between->first->next, "between", &b)) != FRAY_OK)
                return st;
            if (get(it, "length"))
                return ld_fail(L, key_node(it, "length", false), FRAY_ERR_PARSE,
                               "length goes with south-of or east-of");
            if (fray_grid_set_edge(&L->s->map, a, b, e) != FRAY_OK)
                return ld_fail(L, between, FRAY_ERR_PARSE,
                               "[%d, %d] and [%d, %d] are not side by side on the "
                               "map (an edge runs between two spaces that share a "
                               "side)",
                               a.x, a.y, b.x, b.y);
            continue;
        }
        fray_pos p;
        int len = 1;
        const yn *pn = south ? south : east;
        if ((st = ld_pos(L, pn, south ? "south-of" : "east-of", &p)) != FRAY_OK)
            return st;
        if ((v = get(it, "length")) &&
            (st = ld_int(L, v, "length", 1, FRAY_GRID_MAX, &len)) != FRAY_OK)
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
                return ld_fail(L, pn, FRAY_ERR_RANGE,
                               "the edge between [%d, %d] and [%d, %d] is off the "
                               "map (%dx%d)",
                               a.x, a.y, b.x, b.y, L->s->map.w, L->s->map.h);
        }
    }
    return FRAY_OK;
}

/* Combatants marked on the map: each mark is one combatant's top-left
 * space, or a creature larger than one space is drawn whole. */
static fray_status ld_place_marks(ld *L, int np) {
    ft_setup *s = L->s;
    for (int gi = 0; gi < L->n_groups; gi++) {
        ld_group *g = &L->groups[gi];
        if (!g->legend_key)
            continue;
        fray_pos pos[FRAY_GRID_MAX * FRAY_GRID_MAX / 4];
        bool used[FRAY_GRID_MAX * FRAY_GRID_MAX / 4];
        int n = 0;
        for (int i = 0; i < np; i++)
            if (L->placements[i].placement_id == gi &&
                n < (int)(sizeof pos / sizeof pos[0]))
                pos[n++] = L->placements[i].at;
        int side = fray_grid_side_for_size(s->c[g->first].sb.size_rank);
        int k = 0;
        if (n == g->count) {
            for (; k < n; k++)
                s->c[g->first + k].start = pos[k];
        } else if (side > 1 && n == g->count * side * side) {
            memset(used, 0, sizeof used);
            for (int i = 0; i < n; i++) {
                if (used[i])
                    continue;
                /* A top-left: its whole square must be marked. */
                for (int dy = 0; dy < side; dy++)
                    for (int dx = 0; dx < side; dx++) {
                        int j = 0;
                        while (j < n && !(pos[j].x == pos[i].x + dx &&
                                          pos[j].y == pos[i].y + dy && !used[j]))
                            j++;
                        if (j == n)
                            return ld_fail(L, g->legend_key, FRAY_ERR_PARSE,
                                           "'%s' on the map: the marks at [%d, %d] "
                                           "do not make whole %dx%d squares",
                                           g->id, pos[i].x, pos[i].y, side, side);
                        used[j] = true;
                    }
                s->c[g->first + k++].start = pos[i];
            }
        } else {
            return ld_fail(L, g->legend_key, FRAY_ERR_PARSE,
                           "the map shows '%s' on %d space%s; '%s' is %d "
                           "combatant%s",
                           g->legend_key->text, n, n == 1 ? "" : "s", g->id,
                           g->count, g->count == 1 ? "" : "s");
        }
        for (k = 0; k < g->count; k++) {
            s->c[g->first + k].placed = true;
            L->blame[g->first + k] = g->legend_key;
            if (!g->symbol)
                g->symbol = g->legend_key->text[0];
        }
    }
    return FRAY_OK;
}

static fray_status ld_map(ld *L, const yn *n) {
    static const char *const keys[] = {"art", "legend", "edges", "notes"};
    fray_status st = ld_keys(L, n, "the map", keys, N_OF(keys), false);
    if (st != FRAY_OK)
        return st;
    const yn *art = get(n, "art");
    char b[64];
    if (!art)
        return ld_missing(L, n, "art", "the map");
    if (art->type != YN_SCALAR || is_null(art))
        return ld_fail(L, art, FRAY_ERR_PARSE,
                       "expected the map drawn as text (art: |) , got %s", got(art, b));
    fray_grid_legend_entry legend[128];
    int n_legend = 0;
    const yn *lg = get(n, "legend");
    if (lg && (st = ld_legend(L, lg, legend, &n_legend)) != FRAY_OK)
        return st;
    fray_diag gd;
    memset(&gd, 0, sizeof gd);
    int np = 0;
    st = fray_grid_parse(art->text, legend, n_legend, &L->s->map, L->placements,
                         FRAY_GRID_MAX * FRAY_GRID_MAX, &np, &gd);
    if (st != FRAY_OK)
        return yr_fail_in_art(&L->r, art, &gd, st);
    L->s->has_map = true;
    const yn *edges = get(n, "edges");
    if (edges && (st = ld_edges(L, edges)) != FRAY_OK)
        return st;
    return ld_place_marks(L, np);
}

/* Room a creature takes in a space, in 1/144ths (seed 000 "Creature
 * Sizes": creatures whose sizes add up to 1 or less share a space;
 * Minuscule 1/4 x 1/4, Diminutive 1/3 x 1/3, Tiny 1/2 x 1/2). */
static int ld_area(int size_rank) {
    switch (size_rank) {
    case -4: return 9;
    case -3: return 16;
    case -2: return 36;
    default: return LD_AREA_SPACE;
    }
}

static fray_status ld_check_places(ld *L) {
    ft_setup *s = L->s;
    memset(L->area, 0, sizeof L->area);
    memset(L->occupant, -1, sizeof L->occupant);
    for (int i = 0; i < s->n_combatants; i++) {
        ft_combatant *c = &s->c[i];
        const yn *blame = L->blame[i];
        if (!c->placed) {
            if (s->has_map && !c->joins_later)
                return ld_fail(L, blame, FRAY_ERR_PARSE,
                               "'%s' has no place on the map: give it 'at: [x, y]' "
                               "or mark it in the map legend",
                               c->id);
            continue;
        }
        int side = fray_grid_side_for_size(c->sb.size_rank);
        int w = s->has_map ? s->map.w : FRAY_GRID_MAX;
        int h = s->has_map ? s->map.h : FRAY_GRID_MAX;
        if (c->start.x + side > w || c->start.y + side > h) {
            if (side > 1)
                return ld_fail(L, blame, FRAY_ERR_RANGE,
                               "'%s' (%s, %dx%d spaces from [%d, %d]) does not fit "
                               "on the map (%dx%d)",
                               c->id, size_names[c->sb.size_rank + 4], side, side,
                               c->start.x, c->start.y, w, h);
            return ld_fail(L, blame, FRAY_ERR_RANGE,
                           "'%s' at [%d, %d] is off the map (%dx%d)", c->id,
                           c->start.x, c->start.y, w, h);
        }
        for (int dy = 0; dy < side; dy++)
            for (int dx = 0; dx < side; dx++) {
                int x = c->start.x + dx, y = c->start.y + dy;
                if (s->has_map) {
                    unsigned t = s->map.terrain[y][x];
                    if (t != FRAY_TERRAIN_OPEN && t != FRAY_TERRAIN_DIFFICULT)
                        return ld_fail(L, blame, FRAY_ERR_PARSE,
                                       "'%s' at [%d, %d] stands on %s terrain "
                                       "(a combatant starts on open or difficult "
                                       "ground)",
                                       c->id, x, y, fray_terrain_name((fray_terrain)t));
                }
                int area = L->area[y][x] + ld_area(c->sb.size_rank);
                /* Seed 000 "Moving Through Spaces": creatures that share
                 * a space add up to less than one (option share-end:
                 * one or less; tumble.c). */
                if (area > LD_AREA_SPACE ||
                    (L->area[y][x] > 0 && area == LD_AREA_SPACE &&
                     !s->opt.share_end_one))
                    return ld_fail(L, blame, FRAY_ERR_PARSE,
                                   "'%s' and '%s' are both in the space [%d, %d] "
                                   "(only creatures Tiny or smaller share a "
                                   "space, while their sizes add up to less "
                                   "than one; option share-end: one-or-less)",
                                   s->c[L->occupant[y][x]].id, c->id, x, y);
                L->area[y][x] = (uint16_t)area;
                L->occupant[y][x] = (int8_t)i;
            }
    }
    return FRAY_OK;
}

/* RULINGS 2: which deck each combatant flips from. */
static void ld_decks(ft_setup *s) {
    s->n_decks = 0;
    for (int i = 0; i < s->n_combatants; i++) {
        ft_combatant *c = &s->c[i];
        char name[FT_NAME];
        ft_controller ctrl = c->sb.controller;
        if (s->opt.decks == FT_DECKS_ONE_FOR_TABLE) {
            copy_name(name, sizeof name, "table");
            ctrl = FT_CTRL_GM;
        } else if (c->sb.deck_owner[0]) {
            copy_name(name, sizeof name, c->sb.deck_owner);
        } else if (s->opt.decks == FT_DECKS_PER_COMBATANT ||
                   c->sb.controller == FT_CTRL_PLAYER) {
            copy_name(name, sizeof name, c->name);
        } else {
            copy_name(name, sizeof name, "GM");
        }
        int d = 0;
        while (d < s->n_decks && !ieq(s->deck_names[d], name))
            d++;
        if (d == s->n_decks) {
            memcpy(s->deck_names[d], name, sizeof name);
            s->deck_controller[d] = ctrl;
            s->n_decks++;
        }
        c->deck = d;
    }
}

static const char *const encounter_keys[] = {
    "fray", "rules", "name", "description", "seed", "catalog", "statblocks",
    "options", "sides", "map", "combatants", "notes", "duel", "gm-answers"};

/* "gm-answers: {skill-dtn: {Stealth: 15, default: 12}}" (gm.c): the GM's
 * answers given in advance; a DTN is 1-100 or "none". */
/* issue 7: a mapping of names to numbers ("default" for any other
 * name); `none_value` stands for the word none (0: not allowed). */
static fray_status ld_gm_by_name(ld *L, const yn *m, const char *key,
                                 const char *what, int lo, int hi,
                                 int none_value, char (*names)[FT_NAME],
                                 int *values, int *n_out) {
    char b[64];
    if (m->type != YN_MAP)
        return ld_fail(L, m, FRAY_ERR_PARSE, "expected a mapping of names to "
                       "%s for %s, got %s", what, key, got(m, b));
    fray_status st;
    for (const yn *k = m->first; k; k = k->next) {
        if (*n_out >= FT_MAX_SKILLS)
            return ld_fail(L, k, FRAY_ERR_RANGE, "at most %d %s answers",
                           FT_MAX_SKILLS, key);
        int i = *n_out;
        bool dflt = strcmp(k->text, "default") == 0;
        if (!dflt && (st = ld_text(L, k, "a name", names[i], FT_NAME)) !=
                         FRAY_OK)
            return st;
        if (dflt)
            names[i][0] = '\0';
        const yn *v = k->value;
        if (none_value && v && v->type == YN_SCALAR &&
            strcmp(v->text, "none") == 0)
            values[i] = none_value;
        else if ((st = ld_int(L, v, what, lo, hi, &values[i])) != FRAY_OK)
            return st;
        (*n_out)++;
    }
    return FRAY_OK;
}

/* issue 7: "gm-answers:" keys beyond skill-dtn (gm.c "More of the GM's
 * questions"). */
static fray_status ld_gm_answers_more(ld *L, const yn *n, ft_setup *s) {
    fray_status st;
    const yn *v;
    if ((v = get(n, "high-ground"))) {
        if (v->type == YN_SCALAR && strcmp(v->text, "never") == 0)
            s->gm_high_ground = FT_GM_HIGH_NEVER;
        else if ((st = ld_int(L, v, "the least elevation difference that is "
                              "high ground (1-100, or never)", 1, 100,
                              &s->gm_high_ground)) != FRAY_OK)
            return st;
    }
    if ((v = get(n, "all-hold"))) {
        static const char *const how[] = {"delay", "first"};
        int i;
        if ((st = ld_choice(L, v, "all-hold", how, 2, &i)) != FRAY_OK)
            return st;
        s->gm_all_hold = i + 1;
    }
    if ((v = get(n, "action-time")) &&
        (st = ld_gm_by_name(L, v, "action-time", "phases (0-100)", 0, 100, 0,
                            s->time_skill, s->time_value,
                            &s->n_time_answers)) != FRAY_OK)
        return st;
    if ((v = get(n, "strength-limit")) &&
        (st = ld_gm_by_name(L, v, "strength-limit", "the most <PX> (0-30, or "
                            "none)", 0, 30, FT_GM_NO_LIMIT, s->limit_weapon,
                            s->limit_value, &s->n_limit_answers)) != FRAY_OK)
        return st;
    return FRAY_OK;
}

static fray_status ld_gm_answers(ld *L, const yn *n, ft_setup *s) {
    static const char *const keys[] = {"skill-dtn", "high-ground", "all-hold",
                                       "action-time", "strength-limit"};
    char b[64];
    fray_status st = ld_keys(L, n, "gm-answers", keys, 5, false);
    if (st != FRAY_OK)
        return st;
    if ((st = ld_gm_answers_more(L, n, s)) != FRAY_OK)
        return st;
    const yn *m = get(n, "skill-dtn");
    if (!m)
        return FRAY_OK;
    if (m->type != YN_MAP)
        return ld_fail(L, m, FRAY_ERR_PARSE, "expected a mapping of skill "
                       "names to DTNs for skill-dtn, got %s", got(m, b));
    for (const yn *k = m->first; k; k = k->next) {
        if (s->n_dtn_answers >= FT_MAX_SKILLS)
            return ld_fail(L, k, FRAY_ERR_RANGE, "at most %d skill-dtn "
                           "answers", FT_MAX_SKILLS);
        int i = s->n_dtn_answers;
        bool dflt = strcmp(k->text, "default") == 0;
        if (!dflt && (st = ld_text(L, k, "a skill's name", s->dtn_skill[i],
                                   FT_NAME)) != FRAY_OK)
            return st;
        if (dflt)
            s->dtn_skill[i][0] = '\0';
        const yn *v = k->value;
        if (v && v->type == YN_SCALAR && strcmp(v->text, "none") == 0)
            s->dtn_value[i] = FT_GM_DTN_NONE;
        else if ((st = ld_int(L, v, "a DTN (1-100, or none)", 1, 100,
                              &s->dtn_value[i])) != FRAY_OK)
            return st;
        s->n_dtn_answers++;
    }
    return FRAY_OK;
}

static fray_status ld_encounter(ld *L, const yn *root) {
    ft_setup *s = L->s;
    fray_status st = ld_keys(L, root, "an encounter", encounter_keys,
                             N_OF(encounter_keys), false);
    if (st != FRAY_OK)
        return st;
    if (L->has_encounter)
        return ld_fail(L, root, FRAY_ERR_PARSE,
                       "a second encounter; load one encounter at a time");
    L->has_encounter = true;
    const yn *v;
    if (!(v = get(root, "name")))
        return ld_missing(L, root, "name", "an encounter");
    if ((st = ld_text(L, v, "the encounter's name", s->name, sizeof s->name)) != FRAY_OK)
        return st;
    if ((v = get(root, "seed"))) {
        if ((st = ld_seed(L, v, &s->seed)) != FRAY_OK)
            return st;
        s->has_seed = true;
    }
    if ((v = get(root, "description")) && v->type != YN_SCALAR)
        return ld_fail(L, v, FRAY_ERR_PARSE, "expected text for description");
    if ((v = get(root, "notes")) && v->type != YN_SCALAR)
        return ld_fail(L, v, FRAY_ERR_PARSE, "expected text for notes");
    const yn *list = get(root, "catalog");
    for (const yn *it = items(list); it; it = next_item(list, it))
        if ((st = ld_include(L, it, KIND_CATALOG)) != FRAY_OK)
            return st;
    list = get(root, "statblocks");
    for (const yn *it = items(list); it; it = next_item(list, it)) {
        st = it->type == YN_MAP ? ld_add_template(L, it)
                                : ld_include(L, it, KIND_STATBLOCKS);
        if (st != FRAY_OK)
            return st;
    }
    if ((v = get(root, "options")) && (st = ld_options(L, v, &s->opt)) != FRAY_OK)
        return st;
    if ((v = get(root, "gm-answers")) &&
        (st = ld_gm_answers(L, v, s)) != FRAY_OK)
        return st;
    const yn *combatants = get(root, "combatants");
    if (!combatants)
        return ld_missing(L, root, "combatants", "an encounter");
    /* Sides: as listed, or in the order the combatants name them. */
    const yn *sides = get(root, "sides");
    if (sides) {
        for (const yn *it = items(sides); it; it = next_item(sides, it))
            if ((st = ld_add_side(L, it)) != FRAY_OK)
                return st;
    } else {
        for (const yn *it = items(combatants); it; it = next_item(combatants, it)) {
            const yn *sv = it->type == YN_MAP ? get(it, "side") : NULL;
            if (sv && sv->type == YN_SCALAR && !is_null(sv) &&
                find_side(s, sv->text) < 0 && (st = ld_add_side(L, sv)) != FRAY_OK)
                return st;
        }
    }
    for (const yn *it = items(combatants); it; it = next_item(combatants, it))
        if ((st = ld_combatant(L, it)) != FRAY_OK)
            return st;
    /* Ids and names are how commands and narration tell combatants apart. */
    for (int i = 0; i < s->n_combatants; i++)
        for (int j = 0; j < i; j++) {
            const yn *at = L->groups[L->group_of[i]].node;
            const yn *first = L->groups[L->group_of[j]].node;
            if (ieq(s->c[i].id, s->c[j].id))
                return ld_fail(L, at, FRAY_ERR_PARSE,
                               "two combatants have the id '%s' (the first at "
                               "line %d)",
                               s->c[i].id, first->line);
            if (ieq(s->c[i].name, s->c[j].name))
                return ld_fail(L, at, FRAY_ERR_PARSE,
                               "two combatants are named '%s' (the first at line "
                               "%d)",
                               s->c[i].name, first->line);
        }
    if ((st = ld_companions(L)) != FRAY_OK)
        return st;
    if ((v = get(root, "map")) && (st = ld_map(L, v)) != FRAY_OK)
        return st;
    if ((st = ld_check_places(L)) != FRAY_OK)
        return st;
    if ((v = get(root, "duel")) && (st = ld_duel(L, v, root)) != FRAY_OK)
        return st;
    /* Symbols: as given, the legend's, else the name's first letter. */
    for (int gi = 0; gi < L->n_groups; gi++) {
        ld_group *g = &L->groups[gi];
        char sym = g->symbol;
        if (!sym) {
            const char *p = s->c[g->first].name;
            while (*p && !isalpha((unsigned char)*p))
                p++;
            sym = *p ? (char)toupper((unsigned char)*p) : '@';
        }
        for (int k = 0; k < g->count; k++)
            s->c[g->first + k].symbol = sym;
    }
    /* Every side fights. */
    if (s->n_combatants == 0)
        return ld_fail(L, combatants, FRAY_ERR_PARSE, "an encounter needs combatants");
    for (int sd = 0; sd < s->n_sides; sd++) {
        bool any = false;
        for (int i = 0; i < s->n_combatants; i++)
            any = any || s->c[i].side == sd;
        if (!any) {
            const yn *at = sides ? sides : combatants;
            for (const yn *it = items(sides); it; it = next_item(sides, it))
                if (ieq(it->text, s->sides[sd]))
                    at = it;
            return ld_fail(L, at, FRAY_ERR_PARSE, "side '%s' has no combatants",
                           s->sides[sd]);
        }
    }
    if (s->n_sides < 2)
        return ld_fail(L, sides ? sides : combatants, FRAY_ERR_PARSE,
                       "an encounter needs at least two sides; all combatants are "
                       "on '%s'",
                       s->sides[0]);
    ld_decks(s);
    return FRAY_OK;
}

/* ---- Loading ------------------------------------------------------------------------- */

static fray_status ld_process(ld *L, ld_file *f) {
    const char *saved = L->r.cur_file;
    const char *saved_dir = L->cur_dir;
    L->r.cur_file = f->display;
    L->cur_dir = f->dir;
    f->done = true;
    fray_status st;
    switch (f->kind) {
    case KIND_CATALOG:
        st = ld_catalog(L, f->root);
        break;
    case KIND_STATBLOCKS:
        st = ld_statblocks_file(L, f->root);
        break;
    default:
        st = ld_encounter(L, f->root);
        break;
    }
    if (st == FRAY_OK) {
        L->r.cur_file = saved;
        L->cur_dir = saved_dir;
    }
    return st;
}

/* What fray check says of a file that loaded. */
typedef struct ld_summary {
    int kind;
    int n_templates;
    struct fray__files *files; /* when set: every file read is added */
} ld_summary;

/*
 * Loads the files into *work (scratch: unspecified on error). Catalogs
 * and stat-block files are read first, in the order given; then the
 * encounter, if any. With `text`, the first file is that text (`len`
 * bytes) instead of what the disk holds at paths[0]; paths[0] still names
 * it in errors and is where the files it names are looked for.
 */
static fray_status ld_load(const char *const *paths, int n, const char *text,
                           size_t text_len, const fray_allocator *alloc,
                           ft_setup *work, fray_diag *diag,
                           ld_summary *summary) {
    if (!paths || n < 1 || !work) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            copy_name(diag->message, sizeof diag->message, "no file to load");
        }
        return FRAY_ERR_INVALID;
    }
    ld *L = fray__alloc(alloc, sizeof *L);
    if (!L) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = paths[0];
            copy_name(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    memset(L, 0, sizeof *L);
    L->r.alloc = alloc;
    L->s = work;
    L->r.top_paths = paths;
    L->r.n_top = n;
    L->r.mem_text = text;
    L->r.mem_len = text_len;
    L->r.files = summary ? summary->files : NULL;
    memset(work, 0, sizeof *work);
    ft_options_default(&work->opt);
    copy_name(work->source, sizeof work->source, paths[0]);
    fray_status st = FRAY_OK;
    ld_file *files[LD_MAX_FILES];
    for (int i = 0; i < n && st == FRAY_OK; i++) {
        L->r.cur_file = paths[i];
        if (i >= LD_MAX_FILES)
            st = ld_fail(L, NULL, FRAY_ERR_RANGE, "more than %d files", LD_MAX_FILES);
        else
            st = ld_register(L, paths[i], paths[i], NULL, &files[i]);
    }
    for (int pass = 0; pass < 2 && st == FRAY_OK; pass++)
        for (int i = 0; i < n && st == FRAY_OK; i++) {
            bool enc = files[i]->kind == KIND_ENCOUNTER;
            if (enc == (pass == 1) && !files[i]->done)
                st = ld_process(L, files[i]);
        }
    for (int i = 0; st == FRAY_OK && i < work->n_combatants; i++)
        ft_talents_options(&work->c[i].sb, &work->opt); /* talent.c */
    if (st == FRAY_OK) /* complete: the tactics policy's hit chances */
        ft_policy_prepare(work);
    if (st == FRAY_OK && summary) {
        summary->kind = files[0]->kind;
        summary->n_templates = L->n_tpl;
    }
    if (st != FRAY_OK)
        ld_publish(L, diag);
    else if (diag)
        memset(diag, 0, sizeof *diag);
    ld_free_all(L);
    fray__free(alloc, L, sizeof *L);
    return st;
}

/* Whether name is an option of an encounter's `options:`. */
bool ft_option_known(const char *name) {
    for (size_t i = 0; i < N_OF(option_keys); i++)
        if (ieq(name, option_keys[i]))
            return true;
    return false;
}

/* The name of option i of `options:` (vary.c's "did you mean"), NULL past
 * the last. */
const char *ft_option_name(int i) {
    return i >= 0 && (size_t)i < N_OF(option_keys) ? option_keys[i] : NULL;
}

/* `--vary options.NAME=VALUE` (vary.c): NAME: VALUE read exactly as an
 * encounter's `options:` reads it (ld_options), into s->opt, so every
 * option a file can set a sweep can vary, with the same checks and words.
 * Not `decks`: who flips from which deck is settled as the encounter
 * loads. An error leaves s->opt unchanged. */
fray_status ft_options_vary(ft_setup *s, const char *key, const char *name,
                            const char *value, fray_diag *diag) {
    for (const char *p = value; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("-+._", *p))
            return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                  "%s: '%s' is not a value an option takes",
                                  key, value);
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-')
            return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                  "%s: '%s' is not an option's name", key,
                                  name);
    if (!*name || !*value)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: expected options.NAME=VALUE", key);
    if (ieq(name, "decks"))
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: which decks there are is settled when the "
                              "encounter loads; it cannot be swept",
                              key);
    char text[160];
    int len = snprintf(text, sizeof text, "%s: %s\n", name, value);
    if (len < 0 || (size_t)len >= sizeof text)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0, "%s: too long", key);
    ld *L = fray__alloc(NULL, sizeof *L);
    if (!L)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    memset(L, 0, sizeof *L);
    const char *paths[1] = {key};
    L->s = s;
    L->r.top_paths = paths;
    L->r.n_top = 1;
    L->r.mem_text = text;
    L->r.mem_len = (size_t)len;
    L->r.cur_file = paths[0];
    ft_options o = s->opt;
    yn *root = NULL;
    fray_status st = yr_parse_file(&L->r, paths[0], paths[0], NULL, &root);
    if (st == FRAY_OK)
        st = ld_options(L, root, &o);
    if (st == FRAY_OK) {
        s->opt = o;
        if (diag)
            memset(diag, 0, sizeof *diag);
    } else if (diag) {
        ld_publish(L, diag);
        /* "options.x: ..." rather than a place in a file of one line. */
        char msg[sizeof diag->message];
        int ml = snprintf(msg, sizeof msg, "%s=%s: ", key, value);
        if (ml > 0 && (size_t)ml < sizeof msg) {
            size_t room = sizeof msg - (size_t)ml;
            memcpy(msg + ml, diag->message, room - 1);
            msg[sizeof msg - 1] = '\0';
            memcpy(diag->message, msg, sizeof msg);
        }
        diag->file = NULL;
        diag->line = diag->column = 0;
    }
    ld_free_all(L);
    fray__free(NULL, L, sizeof *L);
    return st;
}

fray_status ft_load_files(const char *const *paths, int n, ft_setup *out,
                          fray_diag *diag) {
    ft_setup *work = malloc(sizeof *work);
    if (!work) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            copy_name(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    fray_status st = ld_load(paths, n, NULL, 0, NULL, work, diag, NULL);
    if (st == FRAY_OK)
        memcpy(out, work, sizeof *work);
    free(work);
    return st;
}

fray_status ft_load_text(const char *text, size_t len, const char *path,
                         const fray_allocator *alloc, ft_setup *out,
                         fray_diag *diag) {
    if (!text || !out) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            copy_name(diag->message, sizeof diag->message, "no text to load");
        }
        return FRAY_ERR_INVALID;
    }
    const char *paths[1] = {path ? path : "(text)"};
    return ld_load(paths, 1, text, len, alloc, out, diag, NULL);
}

FRAY_API fray_status fray_towers_load(const char *path, const fray_allocator *alloc,
                                      fray_towers_setup **out, fray_diag *diag) {
    return ft_load_listing(path, alloc, out, NULL, diag);
}

fray_status ft_load_listing(const char *path, const fray_allocator *alloc,
                            fray_towers_setup **out, struct fray__files *files,
                            fray_diag *diag) {
    if (out)
        *out = NULL;
    if (!path || !out) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            copy_name(diag->message, sizeof diag->message, "no file to load");
        }
        return FRAY_ERR_INVALID;
    }
    fray_towers_setup *setup = fray__alloc(alloc, sizeof *setup);
    if (!setup) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            copy_name(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    memset(setup, 0, sizeof *setup);
    if (alloc)
        setup->alloc = *alloc;
    const char *paths[1] = {path};
    ld_summary sum = {0, 0, files};
    fray_status st = ld_load(paths, 1, NULL, 0, alloc, &setup->s, diag, &sum);
    if (st != FRAY_OK) {
        fray__free(alloc, setup, sizeof *setup);
        return st;
    }
    *out = setup;
    return FRAY_OK;
}

/* On success, diag->message holds what fray check prints after "ok":
 * encounter "Duel at the Bridge": 2 combatants, 2 sides, map 12x8. */
FRAY_API fray_status fray_towers_check(const char *path, fray_diag *diag) {
    ft_setup *work = malloc(sizeof *work);
    if (!work) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            copy_name(diag->message, sizeof diag->message, "out of memory");
        }
        return FRAY_ERR_NOMEM;
    }
    const char *paths[1] = {path};
    ld_summary sum = {0, 0, NULL};
    fray_status st = ld_load(paths, path ? 1 : 0, NULL, 0, NULL, work, diag, &sum);
    if (st == FRAY_OK && diag) {
        diag->file = path;
        if (sum.kind == KIND_ENCOUNTER) {
            char map[32] = "no map";
            if (work->has_map)
                snprintf(map, sizeof map, "map %dx%d", work->map.w, work->map.h);
            snprintf(diag->message, sizeof diag->message,
                     "encounter \"%s\": %d combatant%s, %d sides, %s", work->name,
                     work->n_combatants, work->n_combatants == 1 ? "" : "s",
                     work->n_sides, map);
        } else if (sum.kind == KIND_STATBLOCKS) {
            snprintf(diag->message, sizeof diag->message, "stat blocks: %d",
                     sum.n_templates);
        } else {
            snprintf(diag->message, sizeof diag->message,
                     "catalog: %d weapon%s, %d armor", work->n_catalog,
                     work->n_catalog == 1 ? "" : "s", work->n_armor);
            size_t len = strlen(diag->message);
            if (work->n_talent_catalog > 0 && len < sizeof diag->message)
                snprintf(diag->message + len, sizeof diag->message - len,
                         ", %d talent%s", work->n_talent_catalog,
                         work->n_talent_catalog == 1 ? "" : "s");
        }
    }
    free(work);
    return st;
}

FRAY_API void fray_towers_setup_free(fray_towers_setup *setup) {
    if (!setup)
        return;
    fray_allocator a = setup->alloc;
    fray__free(a.realloc ? &a : NULL, setup, sizeof *setup);
}

FRAY_API bool fray_towers_setup_seed(const fray_towers_setup *setup,
                                     uint64_t *out_seed) {
    if (!setup || !setup->s.has_seed)
        return false;
    if (out_seed)
        *out_seed = setup->s.seed;
    return true;
}

FRAY_API const char *fray_towers_setup_name(const fray_towers_setup *setup) {
    return setup ? setup->s.name : NULL;
}

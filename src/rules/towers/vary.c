/*
 * vary.c - changing one number or choice of a loaded encounter, for
 * sweeps (`fray sim --vary KEY=LIST`; include/fray/sim.h,
 * docs/file-formats.md "Sweeps").
 *
 * A key is WHO.FIELD (a combatant, a group of counted combatants, or a
 * stat block) or ITEM.FIELD (a catalog weapon or armor). Names match
 * without case, and a space matches a hyphen ("black-knight" finds the
 * stat block "Black Knight"). A name that matches nothing, or both a
 * combatant and an item, is an error naming it.
 */
#include "towers_int.h"

#include "suggest.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FRAY_API fray_status fray_towers_setup_copy(const fray_towers_setup *src,
                                           const fray_allocator *alloc,
                                           fray_towers_setup **out) {
    *out = NULL;
    fray_towers_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s)
        return FRAY_ERR_NOMEM;
    /* ft_setup holds no pointers: a copy is a copy. */
    memcpy(s, src, sizeof *s);
    memset(&s->alloc, 0, sizeof s->alloc);
    if (alloc)
        s->alloc = *alloc;
    *out = s;
    return FRAY_OK;
}

/* Names equal without case, a space and a hyphen alike. */
static bool name_eq(const char *a, size_t na, const char *b) {
    size_t nb = strlen(b);
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++) {
        int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
        if (x == ' ')
            x = '-';
        if (y == ' ')
            y = '-';
        if (x != y)
            return false;
    }
    return true;
}

/* "bandit" names bandit-1, bandit-2, ... (the ids of a counted group). */
static bool group_member(const char *who, size_t n, const char *id) {
    size_t len = strlen(id);
    if (len <= n + 1 || id[n] != '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)who[i]) != tolower((unsigned char)id[i]))
            return false;
    for (size_t i = n + 1; i < len; i++)
        if (!isdigit((unsigned char)id[i]))
            return false;
    return true;
}

static int find_code(const char *field, const char *const *codes, int n) {
    for (int i = 0; i < n; i++)
        if (name_eq(field, strlen(field), codes[i]))
            return i;
    return -1;
}

#define N_FIELDS(a) (sizeof(a) / sizeof((a)[0]))
#define VARY_CODE(id, code, name) code,
#define VARY_NAME(id, name) name,
static const char *const cv_codes[FT_CV_COUNT] = {FT_CV_LIST(VARY_CODE)};
static const char *const aspect_codes[FT_ASPECT_COUNT] = {FT_ASPECT_LIST(VARY_CODE)};
static const char *const tactics_names[FT_TACTICS_COUNT] = {FT_TACTICS_LIST(VARY_NAME)};
#undef VARY_CODE
#undef VARY_NAME

/* "did you mean" for an unknown key (below, with every key there is). */
static fray_status with_near(const ft_setup *s, const char *key,
                             fray_status rc, fray_diag *diag);

/* An optional sign, then decimal digits and nothing else: strtol alone
 * would also take leading spaces (" 5"). */
static bool whole_number(const char *text) {
    const char *p = text;
    if (*p == '-' || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    while (isdigit((unsigned char)*p))
        p++;
    return *p == '\0';
}

/* An integer in [lo, hi], or an error naming the value. */
static fray_status read_int(const char *key, const char *value, int lo, int hi,
                            int *out, fray_diag *diag) {
    long v = 0;
    bool ok = whole_number(value);
    if (ok) {
        errno = 0;
        v = strtol(value, NULL, 10);
        ok = errno == 0;
    }
    if (!ok)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: '%s' is not a whole number", key, value);
    if (v < lo || v > hi)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                              "%s: %ld is out of range (%d to %d)", key, v, lo,
                              hi);
    *out = (int)v;
    return FRAY_OK;
}

/* ---- A sweep's list of values ---------------------------------------------- */

/* One end of a range: a whole number of long long, exactly. */
static bool range_end(const char *text, long long *out) {
    if (!whole_number(text))
        return false;
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    if (errno != 0)
        return false;
    *out = v;
    return true;
}

FRAY_API fray_status fray_towers_vary_list(const char *list,
                                           fray_vary_list *out,
                                           fray_diag *diag) {
    if (!out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nowhere to put the list");
    out->n = 0;
    if (!list || !*list)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0, "an empty list of values");
    fray_status rc = FRAY_OK;
    for (const char *p = list; rc == FRAY_OK;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        /* An item: a range's two ends (20 characters at most each) or
         * one value that must fit its slot. */
        char item[2 * FRAY_VARY_VALUE_SIZE];
        if (len == 0 || len >= sizeof item) {
            rc = fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                "empty or too long a value in '%.80s'", list);
            break;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char *dots = strstr(item, "..");
        if (dots) {
            *dots = '\0';
            long long lo = 0, hi = 0;
            if (!range_end(item, &lo) || !range_end(dots + 2, &hi)) {
                *dots = '.';
                rc = fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                    "'%s' is not a range of two whole "
                                    "numbers like 1..5", item);
                break;
            }
            *dots = '.';
            if (hi < lo) {
                rc = fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                    "the range '%s' runs backwards", item);
                break;
            }
            /* hi - lo as unsigned: exact for any two long longs (the
             * signed difference overflows past 2^63). */
            uint64_t span = (uint64_t)hi - (uint64_t)lo;
            uint64_t room = (uint64_t)(FRAY_VARY_MAX_VALUES - out->n);
            if (span >= room) {
                char count[24];
                if (span == UINT64_MAX)
                    snprintf(count, sizeof count, "%s", "18446744073709551616");
                else
                    snprintf(count, sizeof count, "%llu",
                             (unsigned long long)(span + 1));
                if (out->n)
                    rc = fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                        "the range '%s' has %s values: with "
                                        "the %d before it, more than the %d "
                                        "a sweep holds",
                                        item, count, out->n,
                                        FRAY_VARY_MAX_VALUES);
                else
                    rc = fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                        "the range '%s' has %s values: more "
                                        "than the %d a sweep holds",
                                        item, count, FRAY_VARY_MAX_VALUES);
                break;
            }
            for (uint64_t i = 0; i <= span; i++)
                snprintf(out->value[out->n++], FRAY_VARY_VALUE_SIZE, "%lld",
                         (long long)((uint64_t)lo + i));
        } else if (out->n == FRAY_VARY_MAX_VALUES) {
            rc = fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                "more than the %d values a sweep holds",
                                FRAY_VARY_MAX_VALUES);
        } else if (len >= FRAY_VARY_VALUE_SIZE) {
            rc = fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                "the value '%s' is too long (at most %d "
                                "characters)",
                                item, FRAY_VARY_VALUE_SIZE - 1);
        } else {
            memcpy(out->value[out->n++], item, len + 1);
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    if (rc != FRAY_OK)
        out->n = 0;
    return rc;
}

/* What one field of a combatant's stat block means. */
typedef enum who_field {
    WF_CV, WF_ASPECT, WF_E, WF_STUN, WF_LETHAL, WF_TACTICS, WF_CHIPS
} who_field;

static fray_status vary_combatants(ft_setup *s, const bool *hit,
                                   const char *key, const char *field,
                                   const char *value, fray_diag *diag) {
    who_field kind;
    int index = -1, lo = 0, hi = 0;
    if ((index = find_code(field, cv_codes, FT_CV_COUNT)) >= 0) {
        kind = WF_CV, lo = 0, hi = 30;
    } else if ((index = find_code(field, aspect_codes, FT_ASPECT_COUNT)) >= 0) {
        kind = WF_ASPECT, lo = 0, hi = 20;
    } else if (name_eq(field, strlen(field), "E") ||
               name_eq(field, strlen(field), "endurance")) {
        kind = WF_E, lo = 1, hi = 20;
    } else if (name_eq(field, strlen(field), "STUN")) {
        kind = WF_STUN, lo = 1, hi = 999;
    } else if (name_eq(field, strlen(field), "LETHAL")) {
        kind = WF_LETHAL, lo = 1, hi = 999;
    } else if (name_eq(field, strlen(field), "tactics")) {
        kind = WF_TACTICS;
    } else if (name_eq(field, strlen(field), "chips")) {
        kind = WF_CHIPS, lo = 0, hi = 3;
    } else {
        return with_near(
            s, key,
            fray__diag_set(
                diag, FRAY_ERR_PARSE, 0,
                "%s: unknown field '%s' of a combatant; the fields are the "
                "Combat Values (N PA PD SA ID PX ER IR SPD), the Aspects (HS SS "
                "EE IE SP IP AI II PC), E, STUN, LETHAL, tactics and chips",
                key, field),
            diag);
    }
    int v = 0;
    if (kind == WF_TACTICS) {
        v = find_code(value, tactics_names, FT_TACTICS_COUNT);
        if (v < 0)
            return fray__diag_set(
                diag, FRAY_ERR_PARSE, 0,
                "%s: unknown tactics '%s'; the presets are: default, attack, "
                "power-attack, aim, defensive, ranged, hold-ground, idle",
                key, value);
    } else {
        fray_status rc = read_int(key, value, lo, hi, &v, diag);
        if (rc != FRAY_OK)
            return rc;
    }
    for (int i = 0; i < s->n_combatants; i++) {
        if (!hit[i])
            continue;
        ft_statblock *sb = &s->c[i].sb;
        switch (kind) {
        case WF_CV:
            sb->cv[index] = v;
            break;
        case WF_ASPECT:
            sb->aspects[index] = v;
            break;
        case WF_E:
            /* Maximums derived from [[E]] follow it (rules-facts.md:
             * STUN = [[E]] x 8, LETHAL = [[E]] + 8); given ones stay. */
            if (sb->max_stun == sb->endurance * 8)
                sb->max_stun = v * 8;
            if (sb->max_lethal == sb->endurance + 8)
                sb->max_lethal = v + 8;
            sb->endurance = v;
            break;
        case WF_STUN:
            sb->max_stun = v;
            break;
        case WF_LETHAL:
            sb->max_lethal = v;
            break;
        case WF_TACTICS:
            s->c[i].tactics.preset = (ft_tactics_preset)v;
            break;
        case WF_CHIPS:
            sb->chips[0] = v; /* white chips; red and blue stay */
            if (sb->chips[0] + sb->chips[1] + sb->chips[2] > 3)
                return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                      "%s: at most 3 chips in all (%s holds "
                                      "%d red and blue)",
                                      key, s->c[i].name,
                                      sb->chips[1] + sb->chips[2]);
            break;
        }
    }
    return FRAY_OK;
}

/* A number of a catalog row that a sweep may change: its name in keys,
 * the loader's range, and where it sits in the row. */
typedef struct item_field {
    const char *name;
    int lo, hi;
    size_t offset;
} item_field;

static const item_field weapon_fields[] = {
    {"damage", 0, 99, offsetof(ft_weapon, damage)},
    {"attack", -5, 5, offsetof(ft_weapon, attack_bonus)},
    {"reach", 1, 5, offsetof(ft_weapon, reach)},
    {"shots", 0, 1000, offsetof(ft_weapon, shots)},
    {"knockback", 0, 20, offsetof(ft_weapon, knockback)},
};

static const item_field armor_fields[] = {
    {"ER", 0, 10, offsetof(ft_armor, er)},
    {"IR", 0, 10, offsetof(ft_armor, ir)},
    {"PD", -3, 3, offsetof(ft_armor, pd_shift)},
    {"SPD", -5, 5, offsetof(ft_armor, spd)},
};

static int *field_at(void *row, const item_field *f) {
    return (int *)(void *)((char *)row + f->offset);
}

/* The field named `field` and its new value, or an error naming them. */
static fray_status read_field(const item_field *fields, size_t n,
                              const char *what, const char *key,
                              const char *field, const char *value,
                              const item_field **out, int *v,
                              fray_diag *diag) {
    for (size_t i = 0; i < n; i++)
        if (name_eq(field, strlen(field), fields[i].name)) {
            *out = &fields[i];
            return read_int(key, value, fields[i].lo, fields[i].hi, v, diag);
        }
    return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                          "%s: unknown field '%s' of %s; the fields are %s",
                          key, field, what,
                          fields == weapon_fields
                              ? "damage, attack, reach, shots and knockback"
                              : "ER, IR, PD (shifts) and SPD");
}

static fray_status vary_weapon(ft_setup *s, const char *item, size_t n_item,
                               const char *key, const char *field,
                               const char *value, fray_diag *diag) {
    const item_field *f = NULL;
    int v = 0;
    fray_status rc = read_field(weapon_fields, N_FIELDS(weapon_fields),
                                "a weapon", key, field, value, &f, &v, diag);
    if (rc != FRAY_OK)
        return f ? rc : with_near(s, key, rc, diag); /* no such field */
    /* The catalog row and every copy a stat block carries. */
    for (int c = 0; c < s->n_catalog; c++)
        if (name_eq(item, n_item, s->catalog[c].name))
            *field_at(&s->catalog[c], f) = v;
    for (int c = 0; c < s->n_combatants; c++)
        for (int w = 0; w < s->c[c].sb.n_weapons; w++)
            if (name_eq(item, n_item, s->c[c].sb.weapons[w].name))
                *field_at(&s->c[c].sb.weapons[w], f) = v;
    return FRAY_OK;
}

static fray_status vary_armor(ft_setup *s, const char *item, size_t n_item,
                              const char *key, const char *field,
                              const char *value, fray_diag *diag) {
    const item_field *f = NULL;
    int v = 0;
    fray_status rc = read_field(armor_fields, N_FIELDS(armor_fields), "armor",
                                key, field, value, &f, &v, diag);
    if (rc != FRAY_OK)
        return f ? rc : with_near(s, key, rc, diag); /* no such field */
    ft_armor *row = NULL;
    for (int a = 0; a < s->n_armor; a++)
        if (name_eq(item, n_item, s->armor_catalog[a].name))
            row = &s->armor_catalog[a];
    if (!row)
        return FRAY_ERR_INVALID;
    int delta = v - *field_at(row, f);
    *field_at(row, f) = v;
    /* A stat block wears the sum of its pieces: each combatant wearing
     * this armor (its armor's name lists the piece) changes by the same
     * difference. */
    for (int c = 0; c < s->n_combatants; c++) {
        ft_statblock *sb = &s->c[c].sb;
        if (!sb->has_armor)
            continue;
        /* The pieces' names, joined by " + " (load.c). */
        bool wears = false;
        for (const char *p = sb->armor.name; *p && !wears;) {
            const char *e = strstr(p, " + ");
            size_t len = e ? (size_t)(e - p) : strlen(p);
            char piece[FT_NAME];
            memcpy(piece, p, len);
            piece[len] = '\0';
            wears = name_eq(item, n_item, piece);
            p = e ? e + 3 : p + len;
        }
        if (wears)
            *field_at(&sb->armor, f) += delta;
    }
    return FRAY_OK;
}

/* ---- "Did you mean": every key of the encounter ----------------------------- */

/* "WHO.FIELD" for each field of a list. */
static void near_fields(fray__near *n, const char *who, const char *const *fields,
                        int count) {
    char key[FRAY__NEAR_MAX];
    for (int i = 0; i < count; i++) {
        snprintf(key, sizeof key, "%s.%s", who, fields[i]);
        fray__near_try(n, key);
    }
}

static const char *const other_fields[] = {"E", "STUN", "LETHAL", "tactics",
                                           "chips"};

/* The fields a combatant's key takes. */
static void near_who(fray__near *n, const char *who) {
    near_fields(n, who, cv_codes, FT_CV_COUNT);
    near_fields(n, who, aspect_codes, FT_ASPECT_COUNT);
    near_fields(n, who, other_fields, (int)N_FIELDS(other_fields));
}

static void near_item(fray__near *n, const char *item, const item_field *f,
                      size_t count) {
    char key[FRAY__NEAR_MAX];
    for (size_t i = 0; i < count; i++) {
        snprintf(key, sizeof key, "%s.%s", item, f[i].name);
        fray__near_try(n, key);
    }
}

/* Every key a sweep of this encounter takes: WHO.FIELD for each combatant
 * id, counted group and stat block; ITEM.FIELD for each weapon and armor;
 * options.NAME and NAME for each option. */
static void near_keys(const ft_setup *s, fray__near *n) {
    char who[FT_NAME];
    for (int i = 0; i < s->n_combatants; i++) {
        near_who(n, s->c[i].id);
        /* "bandit" of bandit-1 */
        const char *dash = strrchr(s->c[i].id, '-');
        if (dash && dash > s->c[i].id && group_member(s->c[i].id,
                                                      (size_t)(dash - s->c[i].id),
                                                      s->c[i].id)) {
            snprintf(who, sizeof who, "%.*s", (int)(dash - s->c[i].id),
                     s->c[i].id);
            near_who(n, who);
        }
        near_who(n, s->c[i].sb.name);
        for (int w = 0; w < s->c[i].sb.n_weapons; w++)
            near_item(n, s->c[i].sb.weapons[w].name, weapon_fields,
                      N_FIELDS(weapon_fields));
    }
    for (int c = 0; c < s->n_catalog; c++)
        near_item(n, s->catalog[c].name, weapon_fields, N_FIELDS(weapon_fields));
    for (int a = 0; a < s->n_armor; a++)
        near_item(n, s->armor_catalog[a].name, armor_fields,
                  N_FIELDS(armor_fields));
    char key[FRAY__NEAR_MAX];
    for (int i = 0; ft_option_name(i); i++) {
        fray__near_try(n, ft_option_name(i));
        snprintf(key, sizeof key, "options.%s", ft_option_name(i));
        fray__near_try(n, key);
    }
}

/* An error about an unknown key gains "(did you mean 'K'?)" for the
 * nearest key there is, after its first clause (before "; the fields
 * are ..."), so that a long message keeps it. */
static fray_status with_near(const ft_setup *s, const char *key,
                             fray_status rc, fray_diag *diag) {
    if (rc != FRAY_ERR_PARSE || !diag)
        return rc;
    fray__near n;
    fray__near_init(&n, key);
    near_keys(s, &n);
    fray__near_hint(diag->message, sizeof diag->message, fray__near_best(&n));
    return rc;
}

/* ---- Whom a key changes ------------------------------------------------------- */

/* "Sir Aldric, bandit 1" (names of the combatants marked), bounded. */
static void list_names(const ft_setup *s, const bool *hit, char *buf,
                       size_t size, size_t *len) {
    bool first = true;
    for (int i = 0; i < s->n_combatants; i++) {
        if (!hit[i])
            continue;
        if (*len < size) {
            int w = snprintf(buf + *len, size - *len, "%s%s", first ? "" : ", ",
                             s->c[i].name);
            *len += w > 0 ? (size_t)w : 0;
        }
        first = false;
    }
}

#define SCOPE_PUT(...)                                                         \
    do {                                                                       \
        if (len < size) {                                                      \
            int w_ = snprintf(buf + len, size - len, __VA_ARGS__);            \
            len += w_ > 0 ? (size_t)w_ : 0;                                    \
        }                                                                      \
    } while (0)

FRAY_API fray_status fray_towers_setup_vary_scope(const fray_towers_setup *setup,
                                                  const char *key, char *buf,
                                                  size_t size,
                                                  fray_diag *diag) {
    if (!setup || !key || (!buf && size))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nothing to vary");
    if (size)
        buf[0] = '\0';
    const ft_setup *s = &setup->s;
    size_t len = 0;
    const char *dot = strrchr(key, '.');
    bool bare = !dot && ft_option_known(key);
    if (bare || (dot && name_eq(key, (size_t)(dot - key), "options"))) {
        if (!ft_option_known(bare ? key : dot + 1))
            return with_near(s, key,
                             fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                            "%s: '%s' is no option of "
                                            "`options:`",
                                            key, bare ? key : dot + 1),
                             diag);
        SCOPE_PUT("the whole encounter (an option)");
        return FRAY_OK;
    }
    if (!dot || dot == key || dot[1] == '\0')
        return with_near(s, key,
                         fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                        "'%s' is not WHO.FIELD or ITEM.FIELD "
                                        "(e.g. bandit.PA, longblade.damage, "
                                        "tony.tactics)",
                                        key),
                         diag);
    size_t n_who = (size_t)(dot - key);
    bool hit[FT_MAX_COMBATANTS] = {false};
    int n_hit = 0, how = 0; /* 1 an id, 2 a group, 3 a stat block */
    for (int i = 0; i < s->n_combatants; i++)
        if (name_eq(key, n_who, s->c[i].id))
            hit[i] = true, n_hit++, how = 1;
    if (n_hit == 0)
        for (int i = 0; i < s->n_combatants; i++)
            if (group_member(key, n_who, s->c[i].id))
                hit[i] = true, n_hit++, how = 2;
    if (n_hit == 0)
        for (int i = 0; i < s->n_combatants; i++)
            if (name_eq(key, n_who, s->c[i].sb.name) ||
                name_eq(key, n_who, s->c[i].name))
                hit[i] = true, n_hit++, how = 3;
    if (n_hit) {
        if (how == 1)
            SCOPE_PUT("the combatant ");
        else if (how == 2)
            SCOPE_PUT("every combatant of the group %.*s: ", (int)n_who, key);
        else
            SCOPE_PUT("every combatant of the stat block %.*s: ", (int)n_who,
                      key);
        list_names(s, hit, buf, size, &len);
        return FRAY_OK;
    }
    /* An item: whoever carries the weapon, or wears the armor. */
    bool weapon = false, armor = false;
    for (int c = 0; c < s->n_catalog; c++)
        if (name_eq(key, n_who, s->catalog[c].name))
            weapon = true;
    for (int c = 0; c < s->n_combatants; c++)
        for (int w = 0; w < s->c[c].sb.n_weapons; w++)
            if (name_eq(key, n_who, s->c[c].sb.weapons[w].name))
                weapon = true, hit[c] = true, n_hit++;
    for (int a = 0; a < s->n_armor && !weapon; a++)
        if (name_eq(key, n_who, s->armor_catalog[a].name))
            armor = true;
    for (int c = 0; c < s->n_combatants && armor; c++) {
        const ft_statblock *sb = &s->c[c].sb;
        for (const char *p = sb->armor.name; sb->has_armor && *p;) {
            const char *e = strstr(p, " + ");
            size_t plen = e ? (size_t)(e - p) : strlen(p);
            char piece[FT_NAME];
            snprintf(piece, sizeof piece, "%.*s", (int)plen, p);
            if (name_eq(key, n_who, piece))
                hit[c] = true, n_hit++;
            p = e ? e + 3 : p + plen;
        }
    }
    if (!weapon && !armor)
        return with_near(s, key,
                         fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                        "%s: '%.*s' names no combatant, stat "
                                        "block, weapon or armor of this "
                                        "encounter",
                                        key, (int)n_who, key),
                         diag);
    if (n_hit == 0) {
        SCOPE_PUT("nobody: no combatant here %s %s %.*s",
                  weapon ? "carries" : "wears", weapon ? "a" : "the",
                  (int)n_who, key);
        return FRAY_OK;
    }
    SCOPE_PUT("every combatant %s %s %.*s: ", weapon ? "carrying" : "wearing",
              weapon ? "a" : "the", (int)n_who, key);
    list_names(s, hit, buf, size, &len);
    return FRAY_OK;
}

#undef SCOPE_PUT

FRAY_API fray_status fray_towers_setup_vary(fray_towers_setup *setup,
                                           const char *key,
                                           const char *value,
                                           fray_diag *diag) {
    if (!setup || !key || !value)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nothing to vary");
    ft_setup *s = &setup->s;
    const char *dot = strrchr(key, '.');
    /* The encounter's options: options.NAME, or NAME alone (duel-concede,
     * simultaneous-duel ...), read as `options:` reads them (load.c). */
    bool bare = !dot && ft_option_known(key);
    if (bare || (dot && name_eq(key, (size_t)(dot - key), "options"))) {
        const fray_allocator *oa = setup->alloc.realloc ? &setup->alloc : NULL;
        ft_setup *ow = fray__alloc(oa, sizeof *ow);
        if (!ow)
            return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
        memcpy(ow, s, sizeof *ow);
        fray_status orc = ft_options_vary(ow, key, bare ? key : dot + 1, value,
                                          diag);
        if (orc == FRAY_OK) {
            ft_policy_prepare(ow);
            memcpy(s, ow, sizeof *s);
        }
        fray__free(oa, ow, sizeof *ow);
        if (orc == FRAY_ERR_PARSE && !ft_option_known(bare ? key : dot + 1))
            orc = with_near(s, key, orc, diag); /* no such option */
        return orc;
    }
    if (!dot || dot == key || dot[1] == '\0')
        return with_near(s, key,
                         fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                        "'%s' is not WHO.FIELD or ITEM.FIELD "
                                        "(e.g. bandit.PA, longblade.damage, "
                                        "tony.tactics)",
                                        key),
                         diag);
    size_t n_who = (size_t)(dot - key);
    const char *field = dot + 1;

    /* Combatants the name covers: an id, a counted group, a stat block. */
    bool hit[FT_MAX_COMBATANTS] = {false};
    int n_hit = 0;
    for (int i = 0; i < s->n_combatants; i++)
        if (name_eq(key, n_who, s->c[i].id))
            hit[i] = true, n_hit++;
    if (n_hit == 0)
        for (int i = 0; i < s->n_combatants; i++)
            if (group_member(key, n_who, s->c[i].id))
                hit[i] = true, n_hit++;
    if (n_hit == 0)
        for (int i = 0; i < s->n_combatants; i++)
            if (name_eq(key, n_who, s->c[i].sb.name) ||
                name_eq(key, n_who, s->c[i].name))
                hit[i] = true, n_hit++;
    bool weapon = false, armor = false;
    for (int c = 0; c < s->n_catalog; c++)
        if (name_eq(key, n_who, s->catalog[c].name))
            weapon = true;
    for (int c = 0; c < s->n_combatants && !weapon; c++)
        for (int w = 0; w < s->c[c].sb.n_weapons; w++)
            if (name_eq(key, n_who, s->c[c].sb.weapons[w].name))
                weapon = true;
    for (int a = 0; a < s->n_armor; a++)
        if (name_eq(key, n_who, s->armor_catalog[a].name))
            armor = true;

    if (n_hit + (weapon ? 1 : 0) + (armor ? 1 : 0) == 0 ||
        (n_hit > 0) + weapon + armor > 1) {
        char who[FT_NAME * 2];
        size_t n = n_who < sizeof who - 1 ? n_who : sizeof who - 1;
        memcpy(who, key, n);
        who[n] = '\0';
        if (n_hit + weapon + armor == 0)
            return with_near(s, key,
                             fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                                            "%s: '%s' names no combatant, "
                                            "stat block, weapon or armor of "
                                            "this encounter",
                                            key, who),
                             diag);
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: '%s' is ambiguous: it names %s%s%s", key,
                              who, n_hit ? "a combatant" : "",
                              n_hit && (weapon || armor) ? " and " : "",
                              weapon && armor ? "a weapon and armor"
                              : weapon        ? "a weapon"
                              : armor         ? "armor"
                                              : "");
    }
    /* Work on a copy so that an error leaves the setup unchanged. */
    const fray_allocator *alloc = setup->alloc.realloc ? &setup->alloc : NULL;
    ft_setup *work = fray__alloc(alloc, sizeof *work);
    if (!work)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    memcpy(work, s, sizeof *work);
    fray_status rc;
    if (n_hit)
        rc = vary_combatants(work, hit, key, field, value, diag);
    else if (weapon)
        rc = vary_weapon(work, key, n_who, key, field, value, diag);
    else
        rc = vary_armor(work, key, n_who, key, field, value, diag);
    if (rc == FRAY_OK) {
        ft_policy_prepare(work);
        memcpy(s, work, sizeof *s);
    }
    fray__free(alloc, work, sizeof *work);
    return rc;
}

/*
 * d6_int.h - the D6 ruleset (seed 003, the combat options of a D6 game,
 * on the core it presupposes: rulesets-checklists D-0) inside fray: its
 * loaded files and what each file provides (docs/rules/d6.md: the model
 * and every ruling; docs/file-formats.md "D6 files": the data).
 *
 *   d6_code.h  die codes (dice and pips) and one roll with the Wild Die
 *   code.c     the die codes' value type and roll
 *   odds.c     exact odds of codes against difficulties and of damage
 *              against resistance (d6_odds.h)
 *   load.c     the files (weapons and armour, stat blocks, encounters),
 *              fray check, setup copy and sweeps (vary)
 *   rules.c    rounds, initiative, declared actions, defense, attacks,
 *              damage, resistance, both health systems, the tactics
 *   tell.c     narration, JSON, journal read-back, summary, the round drawn
 *   d6.c       the table of functions for the shared layer (ruleset.h)
 *
 * Positions are points on a plane in whole meters: the distance between
 * two combatants gives the range band (the core's Point Blank, Short,
 * Medium, Long), and melee reaches Point Blank (checklist D5). A setup is
 * read-only once loaded and may be shared by threads; nothing is
 * thread-safe for one fight.
 */
#ifndef FRAY_D6_INT_H
#define FRAY_D6_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/rng.h"
#include "d6_code.h"

enum {
    D6_MAX_C = 32,          /* combatants in one encounter */
    D6_MAX_SIDES = 4,
    D6_MAX_WEAPONS = 32,    /* weapons known to one encounter */
    D6_MAX_ARMOUR = 16,
    D6_MAX_SB = 32,         /* stat blocks */
    D6_NAME = 48
};

/* The six attributes (core, Character Basics). */
enum d6_attr { D6_AGILITY, D6_COORDINATION, D6_PHYSIQUE, D6_INTELLECT,
               D6_ACUMEN, D6_CHARISMA, D6_ATTRS };

/* The skills the combat rules name (seed 003 and the core); a skill a
 * block does not list rolls its attribute's code (d6_skill_attr). */
enum d6_skill { D6_SK_FIGHTING, D6_SK_MELEE, D6_SK_DODGE, D6_SK_ACROBATICS,
                D6_SK_MARKSMANSHIP, D6_SK_THROWING, D6_SK_LIFTING,
                D6_SK_RUNNING, D6_SK_STAMINA, D6_SK_METTLE, D6_SK_SEARCH,
                D6_SK_COMMAND, D6_SKILLS };
/* The attribute each skill falls under (code.c). */
extern const uint8_t d6_skill_attr[D6_SKILLS];

/* ---- Files ------------------------------------------------------------- */

typedef struct d6_weapon {
    char name[D6_NAME];
    uint8_t skill;          /* d6_skill it attacks with */
    d6_code damage;         /* its damage code */
    bool strength;          /* listed with "+": adds Strength Damage */
    int16_t range[3];       /* meters: Short, Medium, Long maxima; all 0:
                               a melee weapon (Point Blank; Short when
                               longer than 2 m) */
    int16_t length_cm;      /* 0: not given */
    uint8_t hands;          /* 1 or 2 */
    bool either_hand;       /* usable in either hand (003:89) */
    bool quick_draw;        /* suitable for quick drawing (003:95) */
    uint8_t ready_actions;  /* actions to ready it (003:101; 0 reads as 1) */
    bool blunt;             /* knockdown with a blunt weapon (003:8) */
    bool entangling, spiked; /* 003:63 */
    int8_t unwieldy;        /* to the combat difficulty (003:131) */
    bool has_scale;         /* scale overrides the wielder's (003:108) */
    int8_t scale;
} d6_weapon;

typedef struct d6_armour {
    char name[D6_NAME];
    d6_code code;           /* added to damage resistance */
} d6_armour;

enum d6_health { D6_HEALTH_WOUNDS, D6_HEALTH_BODY_POINTS };

/* A stat block (docs/file-formats.md "D6 files"). */
typedef struct d6_block {
    char name[D6_NAME];
    d6_code attr[D6_ATTRS];
    d6_code skill[D6_SKILLS];
    uint32_t has_skill;     /* bit k: skill k is listed (else its attribute) */
    int16_t move;           /* meters a round (core: 10 for a human) */
    int16_t body_points;    /* maximum (health: body-points; 0: 20 + a
                               Physique roll is not made in a fight: the
                               loader requires it) */
    d6_code resistance;     /* special-ability damage resistance dice */
    int8_t scale;           /* signed: Human 0, Horse 3, Rat -9 (003:111-127) */
    int8_t weapon, off_hand; /* weapon indexes; -1 none */
    int8_t armour;          /* armour index; -1 none */
    uint32_t carried;       /* weapons carried but not in hand (bitmask) */
    bool trained_knockdown; /* may knock down a stronger foe (003:8) */
} d6_block;

enum d6_tactics { D6_TAC_MELEE, D6_TAC_RANGED, D6_TAC_KINDS };
/* Cover: the share of the target an object hides (core). */
enum d6_cover { D6_COVER_NONE, D6_COVER_QUARTER, D6_COVER_HALF,
                D6_COVER_THREE_QUARTERS, D6_COVER_FULL };
enum d6_initiative { D6_INIT_ROUND, D6_INIT_SCENE, D6_INIT_FIRST_ACTION };

/* The rulings' options (docs/rules/d6.md); a zeroed struct is every
 * default. */
typedef struct d6_options {
    uint8_t health;           /* health: wounds | body-points */
    uint8_t wild_one;         /* wild-one: cancel-highest | complication */
    bool modifiers_roll;      /* modifiers: standard | roll (003:3) */
    bool modifier_wild;       /* modifier-wild-die: no | yes (D7.11) */
    uint8_t initiative;       /* initiative: round | scene | first-action */
    bool damage_bonus;        /* damage-bonus: no | yes (core, optional) */
} d6_options;

typedef struct d6_combatant {
    char id[D6_NAME], name[D6_NAME];
    int8_t side;
    uint8_t tactics;          /* d6_tactics */
    d6_block b;               /* its stat block, resolved */
    int16_t x, y;             /* where it stands, meters */
    uint8_t cover;            /* d6_cover against attacks on it */
} d6_combatant;

/* An encounter, loaded. */
typedef struct d6_setup {
    char name[96];
    char side_name[D6_MAX_SIDES][D6_NAME];
    int n_sides, n;
    d6_combatant c[D6_MAX_C];
    d6_weapon w[D6_MAX_WEAPONS];
    int n_weapons;
    d6_armour ar[D6_MAX_ARMOUR];
    int n_armour;
    d6_options o;
    uint8_t light;            /* scene obscurement: dice added to every
                                 ranged difficulty (core: smoke, fog, light) */
    int rounds;               /* the time limit in rounds */
    uint64_t seed;
    bool has_seed;
    fray_allocator alloc;     /* load.c: what it was made with (zeroed:
                                 malloc), for d6_setup_free */
} d6_setup;

/* ---- load.c ------------------------------------------------------------ */
fray_status d6_load(const char *path, const fray_allocator *alloc,
                    d6_setup **out, fray_diag *diag);
fray_status d6_check(const char *path, fray_diag *diag);
void d6_setup_free(d6_setup *s);
fray_status d6_setup_copy(const d6_setup *s, const fray_allocator *alloc,
                          d6_setup **out);
fray_status d6_vary(d6_setup *s, const char *key, const char *value,
                    fray_diag *diag);
/* Whom a sweep's key changes, in rules words ("the whole encounter",
 * "Brand", "every combatant with sword in hand or carried: Brand,
 * Osric"), snprintf-style; an unknown key refused as d6_vary refuses it
 * (ruleset.h vary_scope). */
fray_status d6_vary_scope(const d6_setup *s, const char *key, char *buf,
                          size_t size, fray_diag *diag);
/* d6_load, adding every file read from the disk to files (ruleset.h
 * load_files; NULL: none kept). */
struct fray__files;
fray_status d6_load_files(const char *path, const fray_allocator *alloc,
                          d6_setup **out, struct fray__files *files,
                          fray_diag *diag);

/* ---- rules.c: a fight's state, its events (below this line: the
 * engine's, added as it is built) --------------------------------------- */

#endif

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
    bool tactics_knockdown;   /* tactics-knockdown: no | yes (options.c) */
} d6_options;

typedef struct d6_combatant {
    char id[D6_NAME], name[D6_NAME];
    int8_t side;
    uint8_t tactics;          /* d6_tactics */
    d6_block b;               /* its stat block, resolved */
    int16_t x, y;             /* where it stands, meters */
    uint8_t cover;            /* d6_cover against attacks on it */
    bool blind;               /* blind the whole fight (003:45-46, D7.16) */
    uint8_t posture;          /* d6_posture it begins in (003:91-92) */
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

/* code.c: one roll of a code with its dice from `die` (a d6 from the
 * fight's stream, or given by hand at the table: 1 to 6, anything else
 * stops the roll: false). The Wild Die first (and its re-rolls while it
 * shows 6), then the other dice. */
typedef int (*d6_die_fn)(void *ctx);
bool d6_roll_with(d6_code c, bool wild, d6_wild_one rule, d6_die_fn die,
                  void *ctx, d6_roll *out);

enum {
    D6_EV_DICE = 1024,      /* dice one event may roll */
    D6_EV_FACTS = 160,
    D6_MAX_ACTIONS = 4      /* actions one combatant may declare in a round */
};

/* The Wound levels (core, health: wounds), in order. */
enum d6_wound { D6_W_NONE, D6_W_STUNNED, D6_W_WOUNDED, D6_W_SEVERE,
                D6_W_INCAP, D6_W_MORTAL, D6_W_DEAD, D6_W_LEVELS };
/* The range bands (core). */
enum d6_band { D6_BAND_POINT_BLANK, D6_BAND_SHORT, D6_BAND_MEDIUM,
               D6_BAND_LONG, D6_BAND_BEYOND };
enum d6_defense { D6_DEF_NONE, D6_DEF_PARTIAL, D6_DEF_FULL };

enum d6_cflag {
    D6_F_OUT = 1u << 0,       /* out of the fight (Incapacitated and down,
                                 Mortally Wounded, Dead, 0 Body Points) */
    D6_F_UP = 1u << 1,        /* Incapacitated but stayed up (-3D) */
    D6_F_MOVED = 1u << 2,     /* has made its free move this turn */
    D6_F_WAITING = 1u << 3    /* waited on its turn: may interrupt this round */
};

typedef struct d6_cstate {
    int16_t x, y;             /* meters */
    int16_t bp;               /* Body Points left (health: body-points) */
    uint8_t wound;            /* d6_wound (health: wounds) */
    uint8_t flags;            /* d6_cflag */
    uint8_t defense;          /* d6_defense, made on its turn, to its next */
    int16_t def_total;        /* that defense's difficulty */
    int32_t stun_round;       /* Stunned: -1D through this round */
    int16_t init;             /* its initiative total (0: not rolled) */
    bool def_parry;           /* that defense is a parry: against melee only */
    int8_t aim_target;        /* whom it has aimed at (aim_dice > 0) */
    uint8_t aim_dice;         /* +1D a round of aiming, up to +3D (core) */
    uint8_t agility_dice;     /* off its next Agility-based roll (003:8) */
    bool down;                /* knocked down: an action to stand (003:8) */
    uint8_t parts;            /* d6_part bits hurt: -1 to their totals (003:80-85) */
    int32_t passive_round;    /* chest hit: passive defense only this round */
    uint8_t posture;          /* d6_posture (003:91-93) */
    int32_t crouch_moved;     /* the round it last moved crouching (003:91) */
} d6_cstate;

typedef struct d6_state {
    int32_t round;            /* from 1 */
    bool started, over, stopped;
    int8_t winner;            /* a side; -1 none; -2 all out */
    int n;
    int8_t n_order, pos;      /* the round's order; whose turn: order[pos] */
    int8_t order[D6_MAX_C];
    fray_rng rng;
    d6_cstate c[D6_MAX_C];
} d6_state;

enum d6_kind {
    D6_EV_BEGIN,
    D6_EV_ROUND,              /* the next round (the GM): initiative again */
    D6_EV_ATTACK,             /* the first action kind (the sim's kind 0) */
    D6_EV_DEFEND,
    D6_EV_MOVE,
    D6_EV_WAIT,
    D6_EV_AIM,                /* a round of aiming at the target (core) */
    D6_EV_POSTURE,            /* crouch, prone or stand (003:91-93, options.c) */
    D6_EV_KINDS
};

enum d6_fact_kind {
    D6_FACT_INIT,     /* who: a initiative total, b place in the order (from 1) */
    D6_FACT_ROUND,    /* a: the round */
    D6_FACT_ATTACK,   /* who at other: a attack total, b difficulty, c hit,
                         d range band (D6_BAND_BEYOND: melee) */
    D6_FACT_DEFENSE,  /* who: a the difficulty it sets, b d6_defense, c roll,
                         d 1 a parry (against melee only) */
    D6_FACT_DAMAGE,   /* who hurt by other: a damage total, b resistance
                         total, c Wound level (wounds) or Body Points left */
    D6_FACT_STAY_UP,  /* who: a stamina or mettle total, b 15, c stayed up */
    D6_FACT_OUT,      /* who is out of the fight: a d6_wound */
    D6_FACT_MOVE,     /* who: a x, b y, c 1 an action, 0 free */
    D6_FACT_END,      /* a: winner */
    D6_FACT_WILD_ONE, /* who's roll a (d6_roll_what) showed 1 on the Wild Die:
                         b 0 cancelled the highest die, 1 a complication */
    D6_FACT_AIM,      /* who aims at other: a the dice it adds now (1 to 3) */
    D6_FACT_INTERRUPT, /* who, having waited, interrupts (its action at -1D) */
    D6_FACT_OPTION,   /* who's attack on other takes options (options.c): a the
                         option, b the called size, c the difficulty change,
                         d the damage dice change */
    D6_FACT_STUMBLE,  /* who stumbles from other's knockdown or push (003:8):
                         a 2 (the dice off its next Agility roll), b 1 down */
    D6_FACT_STAND,    /* who, down, spends an action standing (003:8) */
    D6_FACT_LOCATION, /* who hurt by other at location a (d6_location): its
                         effect (003:80-85) */
    D6_FACT_KNOCKOUT, /* who knocked out by other for a hours (003:87) */
    D6_FACT_POSTURE   /* who takes posture a (d6_posture), b 1 an action */
};
enum d6_roll_what { D6_ROLL_INIT, D6_ROLL_ATTACK, D6_ROLL_DEFENSE,
                    D6_ROLL_DAMAGE, D6_ROLL_RESIST, D6_ROLL_STAY_UP,
                    D6_ROLL_MODIFIER };

typedef struct d6_fact {
    uint8_t kind;
    int8_t who, other, d;
    int16_t a, b, c;
} d6_fact;

typedef struct d6_event {
    int32_t number;
    int32_t round;
    uint8_t kind;             /* d6_kind */
    int8_t actor, target;
    uint8_t actions;          /* attack: actions declared (1 .. D6_MAX_ACTIONS) */
    int8_t weapon;            /* attack: the weapon (setup index), -1 the one in hand */
    uint8_t full;             /* defend: full; attack: one action a partial defense */
    uint8_t given;            /* the dice were given by hand */
    uint8_t parry;            /* defend, attack's defense: a parry, not a dodge */
    int16_t x, y;             /* move: where to */
    /* the command's head ends here: fields added below it and above
     * n_dice are packed into the journal with it (d6.c) */
    uint8_t option;           /* attack: d6_attack_option (options.c); 0 none */
    uint8_t called;           /* attack: called shot size 1..3 (003:36-43); 0 none */
    uint8_t sight;            /* attack: d6_sight bits (003:45-46) */
    uint8_t location;         /* attack: d6_location aimed at (003:69-85); 0 none */
    uint8_t posture;          /* posture: the d6_posture taken (003:91-93) */
    uint16_t n_dice, n_facts;
    uint8_t dice[D6_EV_DICE];
    d6_fact facts[D6_EV_FACTS];
} d6_event;

/* One application of a command: the state, the event being made, dice
 * given by hand or recorded (replay). */
typedef struct d6_run {
    const d6_setup *s;
    d6_state *st;
    d6_event *ev;
    bool facts;
    const int *given;         /* dice given by hand, in order */
    size_t n_given, used_given;
    const d6_event *replay;   /* a recorded event: its dice again */
    size_t replay_die;
    fray_status failed;
    bool bad_die;             /* a die given that is not 1 to 6 */
} d6_run;

/* rules.c */
const char *d6_kind_word(int kind);    /* "attack" */
const char *d6_kind_title(int kind);   /* "Attack" */
const char *d6_wound_name(int w);      /* "Severely Wounded" */
const char *d6_band_name(int b);       /* "Short" */
void d6_state_init(const d6_setup *s, d6_state *st, uint64_t seed,
                   uint64_t trial);
fray_status d6_begin(d6_run *r);
/* Why the command cannot be taken now (rules words into why), FRAY_OK. */
fray_status d6_check_cmd(const d6_setup *s, const d6_state *st,
                         const d6_event *cmd, char *why, size_t size);
fray_status d6_apply(d6_run *r);
/* Whose turn it is (-1: the round is over, or the fight). */
int d6_actor(const d6_state *st);
/* The tactics' command for whoever acts now (ROUND when nobody). */
void d6_choose(const d6_setup *s, const d6_state *st, d6_event *cmd);
bool d6_out(const d6_cstate *c);
/* The weapon a attacks with (its stat block's; -1 unarmed). */
int d6_weapon_of(const d6_setup *s, int a);
/* The distance between i and j in whole meters (rounded up), and the
 * band a weapon (index, -1 unarmed) reaches it at. */
int d6_distance(const d6_state *st, int i, int j);
int d6_band(const d6_setup *s, int weapon, int meters);
/* The code i rolls for skill k (its attribute when not listed). */
d6_code d6_skill_code(const d6_setup *s, int i, int k);
/* The dice taken off i's skill and attribute rolls this round by its
 * wounds (Stunned, Wounded, Severely Wounded, Incapacitated and up). */
int d6_wound_penalty(const d6_setup *s, const d6_state *st, int i);
/* The combat difficulty of an attack on t from band (without the
 * modifier dice rolled: the standard values), never below 3. */
/* The code i parries with: its melee weapon's skill, else fighting. */
int d6_parry_skill(const d6_setup *s, int i);
int d6_difficulty_standard(const d6_setup *s, const d6_state *st, int t,
                           int band, bool ranged);
/* The Wound level an excess of damage over resistance gives, raised as
 * the core says from the level `now`. */
int d6_wound_after(int now, int excess);

/* tell.c */
size_t d6_narrate(const d6_setup *s, const d6_event *ev, char *buf, size_t size);
size_t d6_event_json(const d6_setup *s, const d6_event *ev, char *buf,
                     size_t size);
fray_status d6_event_from_json(const d6_setup *s, const void *json,
                               d6_event *ev, char *field, size_t fsize,
                               char *why, size_t wsize);
fray_status d6_parse(const d6_setup *s, const d6_state *st, const char *text,
                     d6_event *cmd, fray_diag *diag);
size_t d6_summary(const d6_setup *s, const d6_state *st, char *buf, size_t size);
size_t d6_draw_time(const d6_setup *s, const d6_state *st, char *buf,
                    size_t size);
size_t d6_draw_map(const d6_setup *s, const d6_state *st, char *buf,
                   size_t size);
/* view.c: the fight as data (include/fray/view.h) */
struct fray_fight_view;
fray_status d6_view(const d6_setup *s, const d6_state *st, int turn,
                    struct fray_fight_view *v);
/* d6.c, for tests: a fight's state (fray__fight_rf). */
d6_state *d6_fight_state(void *rfight);

/* options.c: seed 003's attack options (docs/rules/d6.md "Attack
 * options"): the table of combat difficulty modifiers (003:27-46), each
 * entry's printed dice and standard value. */
enum d6_attack_option { D6_OPT_NONE, D6_OPT_ALL_OUT, D6_OPT_LUNGE,
                        D6_OPT_SWEEP, D6_OPT_KNOCKDOWN, D6_OPT_PUSH,
                        D6_OPT_KNOCKOUT, D6_OPT_KINDS };
/* Hit locations (003:73-78) and the parts whose effects last (003:82-85). */
enum d6_location { D6_LOC_NONE, D6_LOC_HEAD, D6_LOC_HEART, D6_LOC_CHEST,
                   D6_LOC_ARM, D6_LOC_LEG, D6_LOC_HAND, D6_LOC_KINDS };
enum d6_part { D6_PART_LEG = 1, D6_PART_HAND = 2, D6_PART_HEAD = 4 };
enum d6_posture { D6_POSTURE_STANDING, D6_POSTURE_CROUCHING, D6_POSTURE_PRONE,
                  D6_POSTURES };
enum d6_sight { D6_SIGHT_BLIND = 1, D6_SIGHT_TARGET_BLIND = 2,
                D6_SIGHT_BEHIND = 4 };
typedef struct d6_modifier_row {
    const char *word;         /* the command's word: "all-out" */
    const char *title;        /* as printed: "All-out" */
    int8_t dice;              /* the printed die modifier */
    int8_t standard;          /* the printed standard value (never 3 x dice) */
    int8_t damage;            /* damage dice */
    int8_t damage_pips;       /* hit locations: added to the damage total */
} d6_modifier_row;
const d6_modifier_row *d6_location_row(int location);  /* 1..6 */
/* The -1s on i's total of a roll of skill k (-1 initiative, -2 a
 * defense's ... any d6_skill; D6_SKILLS + attribute for a bare one) from
 * the parts hurt (003:82-85). */
int d6_part_penalty(const d6_state *st, int i, int k);
enum { D6_PART_INIT = -1 };
/* A hit at a location that injured t (D7.9): its lasting effect. */
void d6_location_effect(d6_state *st, int t, int location);
const char *d6_posture_word(int p);               /* "crouch", "prone", "stand" */
/* The row of the target t's posture against an attack at band (melee:
 * Point Blank) (003:91-92); NULL standing. */
const d6_modifier_row *d6_posture_row(const d6_state *st, int t, int band);
const d6_modifier_row *d6_option_row(int option);
const d6_modifier_row *d6_called_row(int size);   /* 1..3 */
const d6_modifier_row *d6_sight_row(int bit);     /* a d6_sight bit */
int d6_option_word(const char *w, size_t n);      /* -1: not an option */
/* One word of `ID attack T ...` (and the next, for `called SIZE`): true
 * when it is an attack option's (taken into cmd; *k past a second word). */
bool d6_attack_word(d6_event *cmd, const char *w, size_t n, const char *next,
                    size_t nn, int *k);
/* The option dice and standard value an attack's words add to the combat
 * difficulty, split by sign (the GM rolls each: modifiers: roll), and the
 * damage dice they add. */
void d6_attack_mods(const d6_event *ev, int sight, int *plus_dice, int *minus_dice,
                    int *standard, int *damage_dice);
/* The d6_sight bits of a's attack on t: the command's words and the
 * combatants' blindness from the file (D7.16), the -4D once. */
int d6_sight_of(const d6_setup *s, const d6_event *ev, int a, int t);
/* The tactics' attack option for a on t (tactics-knockdown: yes: a
 * knockdown on a foe of lower Physique, standing, with fighting or a
 * blunt weapon); D6_OPT_NONE otherwise. */
int d6_tactic_option(const d6_setup *s, const d6_state *st, int a, int t, int weapon);
/* Why this attack's options cannot be taken (rules words), or FRAY_OK;
 * *reach_ok: a lunge reaches (0.5 m beyond Point Blank). */
fray_status d6_check_options(const d6_setup *s, const d6_state *st,
                             const d6_event *cmd, int weapon, bool ranged,
                             bool *reach_ok, char *why, size_t size);
/* The option words of an attack, for the narration (" all-out, a called
 * shot at something 1 to 10 cm"); "" none. */
void d6_option_words(const d6_event *ev, char *buf, size_t size);
/* The dice taken off i's roll of skill k for a stumble (003:8): its next
 * Agility or Agility-based roll; spent by the roll. */
int d6_agility_take(d6_state *st, int i, int k);
/* Actions a command of i's needs beyond its own for standing (003:8). */
int d6_stand_actions(const d6_state *st, int i);

#endif

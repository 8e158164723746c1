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
    D6_NAME = 48,
    D6_MAX_OBJ = 16         /* things.c: objects in one encounter (003:51-59) */
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
    bool lightly_built;     /* large but lightly built: no scale on its
                               damage resistance (003:107) */
} d6_block;

enum d6_tactics { D6_TAC_MELEE, D6_TAC_RANGED,
                  D6_TAC_GRAPPLE, /* grabs.c: melee, choking when it can */
                  D6_TAC_WRESTLE, /* holds.c: disarms, pins the arm, forces
                                     a submission */
                  D6_TAC_KINDS };
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
    uint8_t weapon_scale;     /* weapon-scale: damage | all (003:108, D7.3) */
    bool escape_tie_escapee;  /* escape-tie: holder | escapee (D7.14, grabs.c) */
    bool tactics_knockdown;   /* tactics-knockdown: no | yes (options.c) */
    uint8_t mortal_rolls;     /* things.c: mortal-rolls: no | minutes | rounds (core) */
    bool tactics_run;         /* things.c: tactics-run: no | yes (core running) */
    bool uncalled_chest;      /* things.c: uncalled-location: none | chest (D7.10) */
    bool location_wounded;    /* things.c: location-threshold: any | wounded (D7.9) */
    uint8_t trick_difficulty; /* things.c: trick-difficulty (003:5, D7.17; 0 reads as 10) */
    bool zero_bp_unconscious; /* zero-body-points: dead | unconscious (ruling 70) */
} d6_options;
enum d6_mortal_rolls { D6_MORTAL_NO, D6_MORTAL_MINUTES, D6_MORTAL_ROUNDS };
enum d6_weapon_scale { D6_WSCALE_DAMAGE, D6_WSCALE_ALL };

typedef struct d6_combatant {
    char id[D6_NAME], name[D6_NAME];
    int8_t side;
    uint8_t tactics;          /* d6_tactics */
    d6_block b;               /* its stat block, resolved */
    int16_t x, y;             /* where it stands, meters */
    uint8_t cover;            /* d6_cover against attacks on it */
    uint8_t surprise;         /* d6_surprise: it surprises its foes (003:129) */
    bool blind;               /* blind the whole fight (003:45-46, D7.16) */
    uint8_t posture;          /* d6_posture it begins in (003:91-92) */
    int8_t cover_object;      /* things.c: 1 + the object that gives its cover
                                 (its cover ends when that breaks); 0 none */
} d6_combatant;
enum d6_surprise { D6_SURPRISE_NONE, D6_SURPRISE_FIRST, D6_SURPRISE_BONUS };

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
    /* things.c: the objects one may break (003:51-59) */
    struct d6_object {
        char id[D6_NAME], name[D6_NAME];
        d6_code toughness;    /* its damage resistance (Object Toughness) */
        bool has_at;
        int16_t x, y;         /* where it stands, meters (has_at) */
    } obj[D6_MAX_OBJ];
    int n_objects;
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
    int32_t qd_round;         /* draw.c: the round a quick draw is for */
    uint8_t qd_attacks;       /* its attacks (0: none announced) */
    uint8_t qd_moved;         /* the dice moved to Acumen */
    int8_t qd_weapon;         /* the weapon drawn (-1 unarmed) */
    int8_t ready_w;           /* draw.c: the weapon readied into its hand, + 1
                                 (0: its stat block's) */
    int8_t held_by;           /* grabs.c: 1 + who holds it; 0 free (003:10-11) */
    uint8_t hold_kind;        /* grabs.c: the d6_grab it is held by */
    int16_t tangle;           /* grabs.c: entangled: the weapon's damage total
                                 to meet to get free; 0 free (003:63) */
    uint8_t agility_dice;     /* off its next Agility-based roll (003:8) */
    uint8_t down;             /* on the ground (d6_ground: how it ends): 0 on
                                 its feet; knocked down or thrown, an action
                                 to stand (003:8, 93); flipped, its whole
                                 next turn getting up (003:13, D7.7) */
    uint8_t parts;            /* d6_part bits hurt: -1 to their totals (003:80-85) */
    int32_t passive_round;    /* chest hit: passive defense only this round */
    uint8_t posture;          /* d6_posture (003:91-93) */
    int32_t crouch_moved;     /* the round it last moved crouching (003:91) */
    int32_t mortal_round;     /* things.c: the round it became Mortally Wounded */
    int32_t hold_round;       /* holds.c: the round its hold was made (an arm
                                 pin's options come after it: 003:17) */
    uint32_t dropped;         /* holds.c: weapons knocked from its hand
                                 (bitmask, 003:61): it no longer holds them */
    bool submitted;           /* holds.c: forced to submit by an arm pin
                                 (003:22-24): out of the fight, unhurt by it */
} d6_cstate;
/* How being on the ground ends (d6_cstate.down; checklist D7.7). */
enum d6_ground { D6_GROUND_NO, D6_GROUND_STAND, D6_GROUND_FLIP };

typedef struct d6_state {
    int32_t round;            /* from 1 */
    bool started, over, stopped;
    int8_t winner;            /* a side; -1 none; -2 all out */
    int n;
    int8_t n_order, pos;      /* the round's order; whose turn: order[pos] */
    int8_t order[D6_MAX_C];
    fray_rng rng;
    d6_cstate c[D6_MAX_C];
    uint8_t obj_weak[D6_MAX_OBJ]; /* things.c: dice off each object's Toughness */
    uint32_t obj_broken;      /* things.c: bit k: object k destroyed */
} d6_state;

enum d6_kind {
    D6_EV_BEGIN,
    D6_EV_ROUND,              /* the next round (the GM): initiative again */
    D6_EV_ATTACK,             /* the first action kind (the sim's kind 0) */
    D6_EV_DEFEND,
    D6_EV_MOVE,
    D6_EV_WAIT,
    D6_EV_AIM,                /* a round of aiming at the target (core) */
    D6_EV_QUICK_DRAW,         /* draw.c: announced before initiative (003:95):
                                 weapon, actions the attacks, x the dice moved */
    D6_EV_READY,              /* draw.c: ready a carried weapon (003:101) */
    D6_EV_SQUEEZE,            /* grabs.c: the holder's Strength Damage (003:10-11) */
    D6_EV_ESCAPE,             /* grabs.c: the held one's escape (003:65) */
    D6_EV_BREAK_FREE,         /* grabs.c: snapping an entangling weapon (003:63) */
    D6_EV_SLIP_FREE,          /* grabs.c: slipping out of it (003:63) */
    D6_EV_GET_UP,             /* grabs.c: the flipped one's turn (003:13) */
    D6_EV_POSTURE,            /* crouch, prone or stand (003:91-93, options.c) */
    D6_EV_RUN,                /* things.c: run to x, y (core running) */
    D6_EV_BREAK,              /* things.c: break an object (003:51-59) */
    D6_EV_PIN,                /* holds.c: an arm pin's option (003:17-24):
                                 pin_op, resisted */
    D6_EV_SLAM,               /* holds.c: lift and slam or throw the one held
                                 (003:15-16): slam_into, two actions */
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
    D6_FACT_SCALE,    /* who attacks other of another scale (scale.c): a the
                         modifier to hitting, b 1 to the difficulty (a is
                         larger) 0 to the attack total; c the modifier to
                         damage, d 1 to the damage total, 0 to resistance,
                         -1 none (lightly built) */
    D6_FACT_QUICK_DRAW, /* who announces a quick draw (draw.c): a dice moved,
                         b attacks, c initiative dice, d skill dice left */
    D6_FACT_SURPRISE, /* who surprises its foes (draw.c): a d6_surprise */
    D6_FACT_READY,    /* who readies weapon a (draw.c), b actions it took */
    D6_FACT_GRAB,     /* grabs.c: who holds other: a d6_grab */
    D6_FACT_ESCAPE,   /* grabs.c: who tries to escape other: a its total, b
                         the holder's, c escaped */
    D6_FACT_RELEASE,  /* grabs.c: who lets go of other */
    D6_FACT_ENTANGLE, /* grabs.c: who entangles other: a the weapon's damage
                         total, b 1 spiked (damage done) */
    D6_FACT_TANGLE_FREE, /* grabs.c: who tries to get free: a its total, b the
                         total to meet, c free, d 0 break, 1 slip */
    D6_FACT_GET_UP,   /* grabs.c: who spends its turn getting up */
    D6_FACT_OPTION,   /* who's attack on other takes options (options.c): a the
                         option, b the called size, c the difficulty change,
                         d the damage dice change */
    D6_FACT_STUMBLE,  /* who stumbles from other's knockdown or push (003:8):
                         a 2 (the dice off its next Agility roll), b 1 down */
    D6_FACT_STAND,    /* who, down, spends an action standing (003:8) */
    D6_FACT_LOCATION, /* who hurt by other at location a (d6_location): its
                         effect (003:80-85) */
    D6_FACT_KNOCKOUT, /* who knocked out by other for a hours (003:87) */
    D6_FACT_POSTURE,  /* who takes posture a (d6_posture), b 1 an action */
    D6_FACT_TRICK,    /* things.c: who's acrobatic trick: a total, b difficulty,
                         c damage added (0: failed) (003:5) */
    D6_FACT_RUN,      /* things.c: who runs: a running total, b difficulty,
                         c meters covered, d 1 made it */
    D6_FACT_BREAK,    /* things.c: who breaks object a: b damage total,
                         c resistance total, d result (d6_break_result) */
    D6_FACT_MORTAL,   /* things.c: who, Mortally Wounded, rolls Physique: a total,
                         b the count it must reach, c died */
    D6_FACT_PIN,      /* holds.c: who, pinning other's arm, tries option a
                         (d6_pin_op): b its total, c the difficulty, d the
                         d6_pin_result */
    D6_FACT_SLAM,     /* holds.c: who lifts other: a the lifting total, b
                         15, c 1 lifted; d what it hits (d6_slam_into) */
    D6_FACT_DISARM    /* holds.c: who keeps or drops weapon a (setup index)
                         knocked by other: b its grip total (-1: no roll,
                         it had acted), c the damage total, d 1 dropped */
};
enum d6_break_result { D6_BREAK_NONE, D6_BREAK_WEAKENED, D6_BREAK_DESTROYED };
enum d6_roll_what { D6_ROLL_INIT, D6_ROLL_ATTACK, D6_ROLL_DEFENSE,
                    D6_ROLL_DAMAGE, D6_ROLL_RESIST, D6_ROLL_STAY_UP,
                    D6_ROLL_MODIFIER, D6_ROLL_TRICK, D6_ROLL_RUN,
                    D6_ROLL_TOUGHNESS, D6_ROLL_MORTAL };

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
    uint8_t grab;             /* attack: a d6_grab (grabs.c); 0 a blow (packed
                                 with the command: before the dice) */
    uint8_t hold_dice;        /* a hold's dice off the damage: 0 reads as 3
                                 (003:14: "-3D or more") */
    /* the command's head ends here: fields added below it and above
     * n_dice are packed into the journal with it (d6.c) */
    uint8_t option;           /* attack: d6_attack_option (options.c); 0 none */
    uint8_t called;           /* attack: called shot size 1..3 (003:36-43); 0 none */
    uint8_t sight;            /* attack: d6_sight bits (003:45-46) */
    uint8_t location;         /* attack: d6_location aimed at (003:69-85); 0 none */
    uint8_t posture;          /* posture: the d6_posture taken (003:91-93) */
    uint8_t object;           /* things.c: break: 1 + the object; 0 none */
    uint8_t trick;            /* things.c: attack: an acrobatic trick's
                                 difficulty (003:5); 0 none */
    uint8_t pin_op;           /* pin: the d6_pin_op (holds.c, 003:18-24) */
    uint8_t resisted;         /* pin: the one pinned resists (003:21, 24) */
    uint8_t slam_into;        /* slam: the d6_slam_into it hits (003:15-16) */
    uint8_t disarm;           /* attack: a disarm (003:61, holds.c) */
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
    int scale_res;            /* scale.c: added to the next resistance total */
    int trick_bonus;          /* things.c: added to the next attack's damage (003:5) */
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
/* scale.c: the scale modifier (003:103-127) between two signed scales,
 * |a - b| (D7.2), and where it goes when a attacks t with weapon w (-1
 * unarmed): each field is added where its name says. */
int d6_scale_mod(int a, int b);
typedef struct d6_scale_adj {
    int hit_mod, attack, difficulty;     /* hitting: the modifier, where */
    int damage_mod, damage, resistance;  /* damage: the modifier, where */
} d6_scale_adj;
void d6_scale_attack(const d6_setup *s, int a, int t, int w, d6_scale_adj *out);

/* draw.c: quick draw (003:95-99). From Acumen and the skill's code,
 * `attacks` declared and `moved` dice moved to Acumen: the round's
 * initiative code, the skill's code for every attack, and the most that
 * may move (1D off the skill per extra attack, at least 1D left; pips
 * stay, D7.21); a move too large refused in rules words. */
typedef struct d6_quick {
    d6_code acumen, skill;
    int max_move;
} d6_quick;
fray_status d6_quick_draw(d6_code acumen, d6_code skill, int attacks, int moved,
                          d6_quick *out, char *why, size_t size);
/* draw.c hooks: the command checked (any time before `next`), applied
 * (f: its fact, or NULL), the round's initiative code, the weapon and
 * the penalty of an attack in a quick-draw round, an attack refused
 * that breaks the announcement (other actions, another skill). */
bool d6_quick_now(const d6_state *st, int i);
fray_status d6_quick_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                           char *why, size_t size);
void d6_quick_apply(const d6_setup *s, d6_state *st, const d6_event *ev, d6_fact *f);
d6_code d6_quick_initiative(const d6_setup *s, const d6_state *st, int i);
int d6_quick_weapon(const d6_setup *s, const d6_state *st, int a, int w);
int d6_quick_penalty(const d6_state *st, int a, int actions);
fray_status d6_quick_attack_check(const d6_setup *s, const d6_state *st,
                                  const d6_event *cmd, char *why, size_t size);
/* draw.c: moving a turn up (core; 003:21, 24: resisting an arm pin;
 * 003:61: keeping hold of a disarmed item). i may when it has not acted
 * this round: its turn comes later in the order, it has not waited and is
 * not out. Moving it up spends that turn now (it leaves the rest of the
 * round's order); false, and nothing changed, when it may not. */
bool d6_turn_can_move_up(const d6_state *st, int i);
bool d6_turn_move_up(d6_state *st, int i);
/* draw.c: surprise (003:129), from the encounter: in round 1 those who
 * act first go before everyone else (each group in initiative order);
 * +1D (the dice given back to its rolls) on the first turn of one with
 * the bonus. */
void d6_surprise_order(const d6_setup *s, d6_state *st);
int d6_surprise_bonus(const d6_setup *s, const d6_state *st, int a, bool interrupt);
/* draw.c: multiple weapons (003:89). An attack's weapon D6_BOTH_HANDS
 * attacks with the weapon in hand and the off-hand one in turn (each one
 * action, the multi-action penalty on all); both must be one-handed and
 * usable in either hand. d6_hand_weapon: the k-th attack's weapon (w
 * unless both). */
enum { D6_BOTH_HANDS = -2 };
fray_status d6_both_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                          char *why, size_t size);
int d6_hand_weapon(const d6_setup *s, int a, int given, int w, int k);
/* draw.c: readying a weapon (003:101): the actions drawing w takes now
 * (its `ready` count, at least 1; 0 when in hand or drawn quickly), the
 * command checked, the weapon put in hand (f: its fact or NULL). */
int d6_ready_cost(const d6_setup *s, const d6_state *st, int a, int w);
fray_status d6_ready_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                           char *why, size_t size);
void d6_ready_now(const d6_setup *s, d6_state *st, int a, int w, d6_fact *f);
/* ---- grabs.c: grabs, tackle, escape (seed 003:10-17, 30, 35, 65;
 * docs/rules/d6.md "Grabs") ---------------------------------------------- */
enum d6_grab { D6_GRAB_NONE, D6_GRAB_HOLD, D6_GRAB_CHOKE, D6_GRAB_TACKLE,
               D6_GRAB_FLIP, D6_GRAB_ARM_PIN /* holds.c (003:17) */, D6_GRABS };
const char *d6_grab_word(int g);            /* "choke" */
int d6_grab_of(const char *w, size_t n);    /* its d6_grab; -1 none */
/* Who holds i (-1: free, or its holder is out of the fight). */
int d6_holder(const d6_state *st, int i);
/* Whom i holds (-1 nobody in the fight). */
int d6_holding(const d6_state *st, int i);
/* What a hold forbids the command (rules words into why), FRAY_OK. */
fray_status d6_grab_check(const d6_setup *s, const d6_state *st,
                          const d6_event *cmd, char *why, size_t size);
/* The dice a grab adds to the combat difficulty (003:30). */
int d6_grab_dice(int g);
/* A grab that hit: its damage and the hold (rules.c's attack). */
bool d6_grab_hit(d6_run *r, int a, int t, int at, int diff);
/* Squeeze and escape, applied; the holds a mover lets go. */
bool d6_grab_apply(d6_run *r);
void d6_grab_release_mover(d6_run *r, int a);
/* An entangling weapon's hit (003:63): the damage total dmg binds t. */
bool d6_entangle_hit(d6_run *r, int a, int t, int dmg);
/* The tactics: a tackled one escapes, a holder squeezes (true: chosen). */
bool d6_grab_choose(const d6_setup *s, const d6_state *st, int a, d6_event *cmd);
/* rules.c, for grabs.c: a roll, a fact, damage on t, a modifier. */
bool d6_run_roll(d6_run *r, d6_code c, bool wild, int who, int what, int *total);
void d6_run_fact(d6_run *r, int kind, int who, int other, int a, int b, int c, int d);
bool d6_run_harm(d6_run *r, int a, int t, int dmg);
bool d6_run_modifier(d6_run *r, int who, int dice, int *out);

/* d6.c, for tests: a fight's state (fray__fight_rf). */
d6_state *d6_fight_state(void *rfight);

/* rules.c, for chances.c: the terms of an attack of a on t with weapon w
 * (-1 unarmed) as the engine takes them now. */
typedef struct d6_attack_terms_t {
    bool ranged;
    int band;                 /* d6_band */
    d6_code skill;            /* the attack's code before penalties */
    int defense;              /* the target's defense now: 10, or its active one */
    int band_mod;             /* ranged: the band's difficulty modifier */
    int base;                 /* defense + band_mod */
    int cover_dice, light_dice; /* modifier dice (standard: +3 a die) */
    d6_code damage;           /* with Strength Damage where it adds */
    d6_code resistance;       /* armour + Physique (wounds) or + resistance */
    d6_code stay_up;          /* the better of stamina and mettle */
    int scale_attack, scale_difficulty; /* scale.c (003:103-127): to the attack
                                           total, to the difficulty */
    int scale_damage, scale_resistance; /* to the damage total, to the target's
                                           resistance total */
} d6_attack_terms_t;
void d6_attack_terms(const d6_setup *s, const d6_state *st, int a, int t, int w,
                     d6_attack_terms_t *out);
/* chances.c: the table's chances (ruleset.h chances). */
struct fray_chances;
fray_status d6_chances(const d6_setup *s, const d6_state *st, int who,
                       const char *command, struct fray_chances *out, int max,
                       int *n, fray_diag *diag);
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

/* ---- things.c: breaking things (003:51-59), acrobatic tricks (003:5),
 * running and the Mortally Wounded's rolls (core), the long weapon's
 * reach (core), where an uncalled hit lands and a location's threshold
 * (D7.10, D7.9); docs/rules/d6.md "Things, tricks, running" ------------ */
/* The cover t stands in now: its own, unless the object giving it broke. */
int d6_cover_of(const d6_setup *s, const d6_state *st, int t);
/* A melee weapon's reach in meters (core: Point Blank, 3 m; over 2 m long:
 * Short, 3 m + its length); 0 for a ranged weapon. */
int d6_melee_reach(const d6_setup *s, int weapon);
/* The objects of an encounter (load.c calls it after the combatants). */
struct yr;
struct yn;
fray_status d6_read_objects(struct yr *r, d6_setup *s, const struct yn *list);
/* Toughness words (Flimsy ... Reinforced) and their codes (003:55-59). */
bool d6_toughness_word(const char *w, d6_code *out);
int d6_object_of(const d6_setup *s, const char *w, size_t n);  /* -1 none */
/* Commands: checks (rules words into why) and application. */
fray_status d6_things_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                            char *why, size_t size);
bool d6_things_apply(d6_run *r);                 /* run and break */
/* The trick's roll before an attack (003:5): r->trick_bonus set. */
bool d6_trick_roll(d6_run *r, int a, int pen);
int d6_trick_difficulty(const d6_setup *s);
/* The Mortally Wounded's Physique rolls at a round's start (core). */
bool d6_mortal_rolls(d6_run *r);
/* Where a hit that injured t lands and whether its effect lasts: the
 * location (0: none) whose lasting effect applies. */
int d6_lasting_location(const d6_setup *s, const d6_state *st, int t, const d6_event *ev,
                        int excess, int before, int lost);
/* The tactics: run to close when a walk would not reach (tactics-run). */
bool d6_run_choose(const d6_setup *s, const d6_state *st, int a, int nearest, int want,
                   d6_event *cmd);
/* The most a run may cover (4 x Move) and a combatant's Move. */
int d6_move_of(const d6_setup *s, int i);
/* The Move a may cover now: d6_move_of, halved crouching (003:91); the
 * move check, the move itself, the tactics' step and a run all use it. */
int d6_move_now(const d6_setup *s, const d6_state *st, int a);
/* ---- holds.c: the arm pin, slam or throw, disarm (seed 003:15-24, 61;
 * docs/rules/d6.md "Arm pin, slam and disarm") ------------------------ */
enum d6_pin_op { D6_PIN_NONE, D6_PIN_DAMAGE, D6_PIN_BREAK, D6_PIN_SUBMIT, D6_PIN_OPS };
enum d6_pin_result { D6_PIN_FAILED, D6_PIN_DONE, D6_PIN_ESCAPED };
/* What a slam hits (003:15-16, 55-59): the ground, a wall, or a
 * Toughness row. */
enum d6_slam_into { D6_OBJ_GROUND, D6_OBJ_WALL, D6_OBJ_FLIMSY, D6_OBJ_TOUGH,
                 D6_OBJ_STURDY, D6_OBJ_VERY_STURDY, D6_OBJ_REINFORCED, D6_OBJECTS };
const char *d6_pin_word(int op);          /* "break" */
int d6_pin_of(const char *w, size_t n);   /* -1: not one */
const char *d6_slam_word(int o);          /* "very-sturdy" */
int d6_slam_of(const char *w, size_t n);   /* -1: not one */
d6_code d6_slam_toughness(int o);         /* 003:55-59 */
/* The weapon i holds now (-1 bare-handed): readied, else its block's,
 * none once knocked from its hand (003:61). */
int d6_weapon_now(const d6_setup *s, const d6_state *st, int i);
/* The code i parries with now: its melee weapon's skill, else fighting. */
int d6_parry_skill_now(const d6_setup *s, const d6_state *st, int i);
/* What the arm pin, slam and disarm forbid the command (rules words). */
fray_status d6_holds_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                           char *why, size_t size);
/* The arm pin's options and the slam, applied (pen: the actor's dice off
 * every roll this round: wounds, an interrupt). */
bool d6_holds_apply(d6_run *r, int pen);
/* A disarm with weapon w (-1 bare hands) that hit (003:61): the damage
 * total, the grip, the drop. */
bool d6_disarm_hit(d6_run *r, int a, int t, int w, int at, int diff);
/* The called shot a disarm of t's weapon takes (003:40-42, from the
 * weapon's length): 1 large, 2 small; 0 t holds none. */
int d6_disarm_size(const d6_setup *s, const d6_state *st, int t);
/* The tactics (tactics: wrestle, and anyone pinned or holding a pin). */
bool d6_holds_choose(const d6_setup *s, const d6_state *st, int a, d6_event *cmd);
/* The better of Physique and lifting (003:19, 61, 65). */
d6_code d6_physique_or_lifting(const d6_setup *s, int i);
/* grabs.c, for chances.c: the code slipping free rolls (the better of
 * Agility and acrobatics, 003:63). */
d6_code d6_agility_or_acrobatics(const d6_setup *s, int i);

/* ---- close.c: where the tactics' step toward a foe ends (ruling 69) ---- */
/* The point `step` meters from a toward t in whole meters (at most t's). */
void d6_toward(const d6_state *st, int a, int t, double step, int16_t *x, int16_t *y);
/* Whether another combatant than a (in the fight or out) is at (x, y). */
bool d6_point_taken(const d6_state *st, int a, int16_t x, int16_t y);
/* The first combatant other than a at (x, y), in the fight or out; -1
 * when none is (ruling 71: the GM's move and run end on a free point). */
int d6_point_holder(const d6_state *st, int a, int16_t x, int16_t y);
/* Whether (x, y) is another's point; if so, why (when not NULL) says
 * whose, for a's `what` ("move", "run"). */
bool d6_point_refused(const d6_setup *s, const d6_state *st, int a, int16_t x, int16_t y,
                      const char *what, char *why, size_t size);
/* d6_toward, a meter shorter each time until the point is free and not
 * a's own; false (and a's own point) when no such point is left. The
 * caller's step stops short of t. */
bool d6_close_point(const d6_state *st, int a, int t, double step, int16_t *x, int16_t *y);

/* load.c: a duel of two stat blocks from two files (ruleset.h duel_setup). */
fray_status d6_duel_setup(const char *path_a, const char *name_a, const char *path_b,
                          const char *name_b, const char *tactics_a, const char *tactics_b,
                          const fray_allocator *alloc, void **out, fray_diag *diag);

/* d6.c: whether c, out of the fight at 0 Body Points (health:
 * body-points), is dead: under zero-body-points: dead (the default,
 * ruling 70), not under unconscious. One knocked out with Body Points
 * left (003:87), or who yielded (003:22-24), is not. */
bool d6_dead_at_zero_bp(const d6_setup *s, const d6_cstate *c);

#endif

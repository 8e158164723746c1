/*
 * alloy_int.h - Alloy (seed 004, "Combat Changes"): the setup, the flat
 * state, commands, events and facts, and what each file of
 * src/rules/alloy/ provides to the others (docs/rules/alloy.md,
 * docs/architecture.md "Rulesets").
 *
 * Files:
 *   load.c    files -> fa_setup (stat blocks, weapons, encounter, options)
 *   run.c     the running of one event: dice (drawn, given, replayed),
 *             facts, choices, conditions (add, remove, test)
 *   turn.c    initiative, the surprise round, rounds, the three parts of a
 *             turn, action slots, Delay, Ready, whose turn it is
 *   act.c     every action of the action table but the attacks: moving
 *             (walk, shift, run, crawl, squeeze, stand), opportunity
 *             attacks and what provokes them, charge's move, total
 *             defense, second wind, the grab/escape family's moves,
 *             drawing, reloading, dropping prone; fa_apply (the dispatch)
 *   attack.c  attack rolls and their modifiers (the attack modifiers
 *             table, battle superiority, cover, concealment, range),
 *             several targets, areas (blast, burst, wall), autofire,
 *             crits, damage, dying and death, coup de grace, bull rush,
 *             trip, grapple, escape checks, aid another, held objects
 *   parse.c   table commands in rules words -> fa_command
 *   render.c  narration, the initiative order, the map, the summary
 *   json.c    events to JSON and back (every field checked)
 *   policy.c  tactics
 *   odds.c    the exact duel
 *   alloy.c   the ruleset's table (fray__ruleset) and the fight glue
 *   skills.c  Feint, Use a Skill, Aid Another on a check, death saves,
 *             joining a battle under way, where each side last saw each
 *             combatant (total concealment's guess)
 *
 * Units: distances are in squares (5 ft each; files say feet, the loader
 * divides). Rounds count from 1; round 0 is the surprise round.
 */
#ifndef FA_ALLOY_INT_H
#define FA_ALLOY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/fight.h"
#include "fray/grid.h"
#include "fray/rng.h"
#include "cond.h"              /* src/core: conditions with durations */
#include "track.h"             /* src/core: the time track (initiative order) */

/* ---- Sizes ------------------------------------------------------------------ */

enum {
    FA_MAX_COMBATANTS = 32,
    FA_MAX_SIDES = 4,
    FA_MAX_STATBLOCKS = 64,
    FA_MAX_WEAPONS = 64,      /* weapons a setup knows (data/alloy + files) */
    FA_SB_WEAPONS = 4,        /* weapons one stat block carries */
    FA_SB_POWERS = 8,         /* special abilities one stat block has */
    FA_POWER_EFFECTS = 2,
    FA_MAX_TARGETS = 8,       /* targets one command names */
    FA_MAX_PATH = 40,         /* squares one move names (run: speed + 2) */
    FA_MAX_CONDS = 16,        /* conditions and effects on one combatant */
    FA_ID_MAX = 32,
    FA_NAME_MAX = 48,
    FA_EVENT_DICE = 1024,
    FA_EVENT_CHOICES = 64,
    FA_EVENT_FACTS = 384
};

/* ---- Rules words -------------------------------------------------------------- */

typedef enum fa_defense {     /* 004:189: Defense, Fortitude, Reflex (+ Will, L7.7) */
    FA_DEF_DEFENSE, FA_DEF_FORTITUDE, FA_DEF_REFLEX, FA_DEF_WILL, FA_DEFENSES
} fa_defense;

typedef enum fa_ability {
    FA_STR, FA_DEX, FA_CON, FA_INT, FA_WIS, FA_CHA, FA_ABILITIES
} fa_ability;

typedef enum fa_size {
    FA_SIZE_FINE, FA_SIZE_DIMINUTIVE, FA_SIZE_TINY, FA_SIZE_SMALL,
    FA_SIZE_MEDIUM, FA_SIZE_LARGE, FA_SIZE_HUGE, FA_SIZE_GARGANTUAN,
    FA_SIZE_COLOSSAL
} fa_size;

/* Action types (004:363-403). The order is the trading-down order: a
 * slot may pay for an action of its own type or a later one of
 * STANDARD, MOVE, SWIFT (a move may replace a standard, a swift a move). */
typedef enum fa_action_type {
    FA_ACT_STANDARD, FA_ACT_MOVE, FA_ACT_SWIFT, FA_ACT_IMMEDIATE,
    FA_ACT_FREE, FA_ACT_NONE
} fa_action_type;

typedef enum fa_skill {
    FA_SKILL_ACROBATICS, FA_SKILL_ATHLETICS, FA_SKILL_NOTICE, FA_SKILL_BLUFF,
    FA_SKILLS
} fa_skill;

typedef struct fa_dice {       /* NdS; n = 0: none */
    int8_t n, sides;
} fa_dice;

typedef enum fa_weapon_kind { FA_WK_MELEE, FA_WK_RANGED, FA_WK_THROWN } fa_weapon_kind;

/* Areas (004:94-137). */
typedef enum fa_area_kind {
    FA_AREA_NONE,
    FA_AREA_BLAST,        /* close blast N: an N x N square adjacent to the user */
    FA_AREA_CLOSE_BURST,  /* close burst N: centred on the user, not affecting it */
    FA_AREA_BURST,        /* area burst N within range: affects the user if inside */
    FA_AREA_WALL          /* wall N: N contiguous squares within range */
} fa_area_kind;

typedef struct fa_weapon {
    char id[FA_ID_MAX];        /* "pistol" */
    char name[FA_NAME_MAX];    /* "Pistol" */
    uint8_t kind;              /* fa_weapon_kind */
    fa_dice w;                 /* [W] */
    int8_t proficiency;        /* added to attacks when proficient (004:57) */
    char group[FA_ID_MAX];     /* proficiency group ("pistols"; "" none) */
    int16_t range_short;       /* squares; 0 for melee only */
    int16_t range_long;        /* squares beyond short at -2 (004:89, 143) */
    int8_t reach;              /* squares, 1 normally (004:77) */
    int8_t hands;
    bool autofire;             /* Spray and Suppressing Fire (004:685-701) */
    int16_t magazine;          /* rounds; 0: ammunition not counted */
    fa_dice crit;              /* extra dice on a crit (004:181) */
    uint8_t area;              /* fa_area_kind: an area weapon (flamethrower, grenade) */
    int8_t area_size;          /* squares: blast side, burst radius, wall length */
    uint8_t area_defense;      /* fa_defense an area weapon attacks (Reflex unless given) */
    uint8_t area_ability;      /* fa_ability for its attack (Dex unless given) */
} fa_weapon;

/* Conditions and lasting effects on a combatant (004:904-1038 and the
 * actions' own effects). Bits of fa_cstate.has. */
typedef enum fa_cond_kind {
    FA_C_BLINDED, FA_C_DAZED, FA_C_DEAFENED, FA_C_DOMINATED, FA_C_DYING,
    FA_C_GRAPPLED, FA_C_HELPLESS, FA_C_IMMOBILIZED, FA_C_PRONE, FA_C_SLOWED,
    FA_C_SNARED, FA_C_STUNNED, FA_C_SURPRISED, FA_C_UNCONSCIOUS,
    FA_C_WITHERED, FA_C_DEAD,
    /* effects of actions (L2 durations) */
    FA_C_RUNNING,          /* -5 to attacks, grants battle superiority (004:668) */
    FA_C_TOTAL_DEFENSE,    /* +2 to all defenses (004:749) */
    FA_C_SECOND_WIND,      /* +2 to all defenses (004:680) */
    FA_C_SQUEEZING,        /* -5 to attacks (004:715) */
    FA_C_AID_ATTACK,       /* +value to the next attack on `other` (004:428) */
    FA_C_AID_DEFENSE,      /* +value to defenses against `other`'s next attack */
    FA_C_ONGOING,          /* value damage at the start of the turn (004:277) */
    FA_C_SUPPRESSING,      /* suppressing fire in a burst at `at` (004:698-701) */
    FA_C_GRANTS_BS,        /* grants battle superiority (a power's effect) */
    FA_C_READY,            /* a readied action is waiting (fa_cstate.ready) */
    FA_C_DELAYING,         /* delaying its turn (004:565-579) */
    /* (added by alloy-skills) */
    FA_C_FEINTED,          /* a feint worked: battle superiority on its next attack on
                              `other` until the end of its next turn (004:307, skills.c) */
    FA_C_AID_CHECK,        /* +value to the bearer's next check of skill `other` (004:429) */
    FA_COND_KINDS
} fa_cond_kind;

/* When an effect ends. */
/* When an effect ends: the core's endings (src/core/cond.h), in Alloy's
 * words. */
typedef enum fa_ends {
    FA_ENDS_EVENT = FRAY__ENDS_EVENT,                 /* when something ends it (stand up, escape, the grab ends, death) */
    FA_ENDS_START_OF_TURN = FRAY__ENDS_START_OF_TURN, /* at the start of `whose` next turn */
    FA_ENDS_END_OF_TURN = FRAY__ENDS_END_OF_TURN,     /* at the end of `whose` next turn */
    FA_ENDS_SAVE = FRAY__ENDS_SAVE,                   /* save ends: d20 >= save target at the end of the bearer's turn */
    FA_ENDS_SUSTAIN = FRAY__ENDS_SUSTAIN,             /* while `whose` sustains it with a swift action each turn */
    FA_ENDS_ROUND_END = FRAY__ENDS_ROUND_END,         /* at the end of round `round` (Surprised: the surprise round) */
    FA_ENDS_USED = FRAY__ENDS_USED                    /* when used once (aid another) or at END_OF_TURN of whose, whichever first */
} fa_ends;

typedef struct fa_effect_def {  /* a power's effect on a target it hits */
    uint8_t cond;              /* fa_cond_kind */
    uint8_t ends;              /* fa_ends (whose: the attacker for START/END_OF_TURN) */
    int8_t value;              /* ongoing damage, a bonus */
} fa_effect_def;

typedef enum fa_usage { FA_AT_WILL, FA_ENCOUNTER, FA_DAILY } fa_usage;

/* A special ability that attacks ("Use a special ability", 004:763-769;
 * L8: action type, usage, attack line, X{W}, target shape, effects). */
typedef struct fa_power {
    char id[FA_ID_MAX];
    char name[FA_NAME_MAX];
    uint8_t action;            /* fa_action_type */
    uint8_t usage;             /* fa_usage */
    uint8_t ability;           /* fa_ability: attack line and damage modifier */
    uint8_t defense;           /* fa_defense */
    int8_t weapon;             /* stat-block weapon slot, -1: its own dice */
    int8_t mult;               /* X of X{W} (004:169) */
    fa_dice dice;              /* damage when weapon is -1 */
    int8_t attack_bonus;       /* besides the stat block's */
    int8_t damage_bonus;
    uint8_t area;              /* fa_area_kind */
    int8_t area_size;          /* squares */
    int16_t range;             /* squares (area burst, wall, ranged); 0: melee reach */
    bool ranged;               /* a ranged attack (provokes when adjacent, 004:90) */
    uint8_t n_effects;
    fa_effect_def effects[FA_POWER_EFFECTS];
    /* added by alloy-space (space.c) */
    uint8_t forced;            /* fa_forced: push, pull or slide on a hit (004:459) */
                               /* (it moves its target only when forced_n > 0) */
    int8_t forced_n;           /* squares of it */
    int8_t teleport;           /* squares: a power that teleports its user (no attack) */
} fa_power;

/* (added by alloy-space) Forced movement of a power's target, and the
 * teleport (FA_FACT_PUSH's v2). */
typedef enum fa_forced {
    FA_FORCED_PUSH, FA_FORCED_PULL, FA_FORCED_SLIDE, FA_FORCED_TELEPORT,
    FA_FORCED_NONE
} fa_forced;

/* Tactics (policy.c). */
typedef enum fa_tactics {
    FA_TACTICS_DEFAULT,        /* focus the weakest, flank, area on 2+, second wind when bloodied */
    FA_TACTICS_AGGRESSIVE,     /* always the attack with the best expected damage */
    FA_TACTICS_CAUTIOUS,       /* total defense and retreat when bloodied */
    FA_TACTICS_KINDS
} fa_tactics;

typedef struct fa_sb_weapon {
    int16_t weapon;            /* index in fa_setup.weapons */
    bool proficient;
    int16_t ammo;              /* rounds carried beyond the magazine (-1: unlimited) */
} fa_sb_weapon;

/* (added by alloy-objects) An item a stat block carries to consume
 * (004:531-537): `{item: stim, heals: 2d8+2, count: 1}` or `{item:
 * medkit, surge: true}`. */
enum { FA_SB_ITEMS = 4, FA_MAX_ITEMS = 32 };
typedef struct fa_item {
    char id[FA_ID_MAX];
    char name[FA_NAME_MAX];
    fa_dice heals;             /* hit points regained: NdS + heal_bonus */
    int8_t heal_bonus;
    bool surge;                /* spends a heroic surge for its hit points (as second wind) */
    int8_t count;              /* how many carried */
} fa_item;

typedef struct fa_statblock {
    char id[FA_ID_MAX];
    char name[FA_NAME_MAX];
    uint8_t size;              /* fa_size */
    int8_t score[FA_ABILITIES];
    int8_t mod[FA_ABILITIES];  /* floor((score - 10) / 2) */
    int8_t level;
    int8_t defense[FA_DEFENSES];   /* as the block states them (L7.8) */
    int8_t attack_bonus;       /* the level part, added to every attack */
    int8_t init_mod;           /* Dex modifier + feats (004:235) */
    int16_t hp;                /* maximum */
    int8_t speed;              /* squares */
    int8_t reach;              /* squares */
    bool threatening_reach;    /* threatens with all its reach (004:462) */
    int8_t surges;             /* heroic surges */
    int16_t surge_value;       /* hit points a surge gives (RULINGS: floor(hp / 4)) */
    int8_t action_points;
    int8_t skill[FA_SKILLS];
    int8_t crit_min;           /* 20, lower with feats */
    bool blind_fight;
    uint8_t tactics;           /* fa_tactics */
    uint8_t n_weapons;
    fa_sb_weapon weapons[FA_SB_WEAPONS];
    uint8_t n_powers;
    fa_power powers[FA_SB_POWERS];
    /* added by alloy-objects: items to consume (stat block `items:`) */
    uint8_t n_items;
    fa_item items[FA_SB_ITEMS];
} fa_statblock;

typedef struct fa_combatant_def {
    char id[FA_ID_MAX];        /* "orc-2": commands and journals */
    char name[FA_NAME_MAX];    /* "orc 2": narration */
    int16_t sb;                /* index in fa_setup.sb */
    int8_t side;
    fray_pos at;               /* top-left of its footprint */
    int8_t side_len;           /* footprint side in squares (size) */
    bool aware;                /* false: Surprised in the surprise round */
    int8_t wield;              /* the weapon slot in hand at the start */
    uint8_t tactics;           /* fa_tactics (the block's unless the encounter says) */
    /* (added by alloy-skills) */
    int16_t joins;             /* 0: there from the start; N: joins at the start of round N (004:241) */
} fa_combatant_def;

/* Every ruling of docs/rules/alloy.md, each an option (encounter
 * `options:`; RULINGS.md and rulesets-checklists.md L7 give the
 * defaults). */
typedef struct fa_options {
    uint8_t diagonals;         /* fray_area_metric: counted (1-2-1-2) | one */
    uint8_t burst;             /* fray_area_metric for bursts */
    uint8_t dying;             /* FA_DYING_STABLE | FA_DYING_DEATH_SAVES */
    int8_t save_target;        /* 10: d20 >= 10 saves */
    uint8_t drop_prone;        /* FA_ACT_SWIFT (default) | FA_ACT_FREE */
    bool suppress_unlimited;   /* false: one suppressing attack per round */
    int8_t ap_per_turn;        /* 1 */
    bool area_crit_max;        /* true: a critted target of an area takes the maximum */
    bool coup_rolls;           /* true: coup de grace rolls its attack */
    bool aid_ranged_provokes;  /* true */
    int8_t creature_cover;     /* 2: cover from creatures in the way (-2) */
    uint8_t init_ties;         /* FA_TIES_RANDOM (a die) | FA_TIES_LISTED */
    uint8_t surprise_action;   /* FA_SURPRISE_STANDARD_OR_MOVE */
    /* added by alloy-objects (docs/rules/alloy.md "Objects") */
    uint8_t pick_up_reach;     /* FA_PICK_UP_ADJACENT: its square or one next to it */
    uint8_t taken_proficiency; /* FA_TAKEN_PROF_GROUP: a taken weapon's proficiency */
    uint8_t item_draw;         /* FA_ITEM_KEEPS_WEAPON: an item drawn into the other hand */
    /* added by alloy-space */
    uint8_t narrow;            /* FA_NARROW_SQUEEZE | FA_NARROW_OPEN (004:713) */
    /* (added by alloy-skills) */
    uint8_t feint_against;     /* FA_FEINT_WILL (default) | FA_FEINT_NOTICE */
    bool skill_provokes;       /* true: Use a Skill provokes from threatening enemies */
    int8_t notice_dc;          /* 15: a Notice check (move action) that reveals the hidden */
} fa_options;

/* (added by alloy-space) Squeeze for Medium and smaller creatures
 * (004:713: "the GM decides how narrow a space the creature can
 * occupy"): the map marks narrow squares (a crawlspace, a gap: the
 * encounter's `narrow:`). SQUEEZE: only a squeezing creature may enter
 * one (half speed, -5 to attacks: 004:714-715), and no squeeze ends in
 * one (004:717); OPEN: they are open ground to everyone. */
enum { FA_NARROW_SQUEEZE, FA_NARROW_OPEN };


enum { FA_FEINT_WILL, FA_FEINT_NOTICE };

enum { FA_DYING_STABLE, FA_DYING_DEATH_SAVES };
enum { FA_TIES_RANDOM, FA_TIES_LISTED };
enum { FA_SURPRISE_STANDARD_OR_MOVE, FA_SURPRISE_STANDARD_AND_MOVE };
/* (alloy-objects) */
enum { FA_PICK_UP_ADJACENT, FA_PICK_UP_OWN_SQUARE };
enum { FA_TAKEN_PROF_GROUP, FA_TAKEN_PROF_NONE };
enum { FA_ITEM_KEEPS_WEAPON, FA_ITEM_PUTS_WEAPON_AWAY };

typedef struct fa_setup {
    fray_allocator alloc;
    char name[FA_NAME_MAX * 2];
    char path[512];            /* the encounter file */
    bool has_seed;
    uint64_t seed;
    int n_sides;
    char side_name[FA_MAX_SIDES][FA_NAME_MAX];
    int n_weapons;
    fa_weapon weapons[FA_MAX_WEAPONS];
    int n_sb;
    fa_statblock sb[FA_MAX_STATBLOCKS];
    int n;
    fa_combatant_def c[FA_MAX_COMBATANTS];
    bool has_map;
    fray_grid map;             /* open 64x64 when the encounter has none */
    fray_area obscured;        /* lightly obscured: concealment (-2) */
    fray_area dark;            /* no sight: total concealment (-5) */
    bool surprise;             /* someone is unaware: a surprise round */
    int round_limit;           /* fights stop after it (default 100) */
    fa_options opt;
    /* added by alloy-objects: the items the catalogs know (data/alloy/items.yaml) */
    int n_items;
    fa_item items[FA_MAX_ITEMS];
    fray_area narrow;          /* (alloy-space) narrow squares: a squeeze to enter (004:713) */
    /* (issue 16) the map's one-square steps, their weights
     * from terrain and edges (grid.c fray__grid_step_table), for the
     * movement searches (act.c fa_reach); filled by fa_setup_steps (load),
     * has_steps false: worked out from the map at each step. */
    bool has_steps;
    uint8_t steps[FRAY_GRID_MAX][FRAY_GRID_MAX][8];
    /* (issue 19) a small map's lines (w * h <= FA_LINES_MAX
     * squares): bit b % 64 of line_effect[a][b / 64] when square a (y * w
     * + x) has line of effect to square b (grid.c fray_grid_effect_fp of
     * the two squares), line_sight the same for sight; filled with the
     * steps when has_lines (space.c fa_effect_fp, fa_sight_fp). */
    bool has_lines;
    uint64_t line_effect[256][256 / 64];
    uint64_t line_sight[256][256 / 64];
} fa_setup;

/* ---- The state (flat: copied for backups, reset by copy) ------------------------- */

/* A condition or lasting effect on a combatant: the core's entry
 * (src/core/cond.h): kind (fa_cond_kind), ends (fa_ends), whose (START/
 * END_OF_TURN, SUSTAIN: whose turn), other (AID_*: the enemy it is
 * against; GRAPPLED: the grappler), value (ongoing damage, a bonus),
 * source (who put it there, -1: itself), round (ROUND_END: the round it
 * ends with), at (SUPPRESSING: the burst's origin); count stays 0 (an
 * Alloy effect lasts to its `whose`'s next turn). */
typedef fray__cond fa_cond;

/* A readied action (004:643-656). */
typedef enum fa_trigger {
    FA_TRIG_NONE,
    FA_TRIG_MOVES_ADJACENT,    /* `who` (or any enemy: -1) moves adjacent to the readier */
    FA_TRIG_ATTACKS,           /* `who` (or any enemy) makes an attack */
    FA_TRIG_ENTERS_REACH,      /* `who` enters a square the readied attack can reach */
    FA_TRIG_KINDS
} fa_trigger;

typedef struct fa_ready {
    uint8_t trigger;           /* fa_trigger */
    int8_t who;                /* the triggering combatant, -1: any enemy */
    uint8_t kind;              /* fa_cmd_kind of the readied action */
    int8_t power;              /* as fa_command */
    int8_t target;             /* -1: the triggering combatant */
} fa_ready;

typedef struct fa_cstate {
    int16_t hp;
    int8_t surges;
    int8_t ap;                 /* action points left */
    fray_footprint fp;
    int16_t init;              /* initiative total (moves with Delay and Ready) */
    int16_t init_tie;          /* tie order: higher goes first */
    uint32_t has;              /* bit (1u << fa_cond_kind) for every condition present */
    uint8_t n_cond;
    fa_cond cond[FA_MAX_CONDS];
    uint8_t flags;             /* FA_F_* */
    uint8_t slots;             /* actions left this turn: FA_SLOT_* bits */
    int8_t moved;              /* squares moved this turn (Slowed, Charge) */
    int8_t ap_spent;           /* action points spent this turn */
    int32_t oa_turn;           /* turn serial of its last opportunity attack (-1 none) */
    int8_t grappling;          /* whom it grapples, -1 */
    int8_t wield;              /* weapon slot in hand, -1: unarmed */
    int16_t ammo[FA_SB_WEAPONS];   /* rounds in the magazine */
    int16_t spare[FA_SB_WEAPONS];  /* rounds carried (-1: unlimited) */
    uint8_t powers_used;       /* bit per power: encounter or daily power spent */
    fa_ready ready;
    int8_t extra_standard;     /* standard actions bought with action points, left this turn */
    uint8_t acted;             /* bit (1u << fa_action_type) of each action type taken this turn */
    /* added by alloy-objects (objects.c) */
    uint8_t away;              /* bit per weapon slot: the block's weapon itself is not on it
                                  (on the floor, in another's hand, thrown); a thrown
                                  weapon's others are counted in spare[] */
    int8_t taken_owner1;       /* in hand: another's weapon (004:445): 1 + its owner, 0 none */
    int8_t taken_slot;         /* ... the owner's weapon slot */
    int8_t item_hand1;         /* in hand: 1 + the block's item slot, 0 none (Consume Item) */
    uint8_t items_used[FA_SB_ITEMS];   /* per item slot: how many consumed */
    /* (added by alloy-skills) */
    int8_t death_fails;        /* failed death saves while dying (option dying: death-saves) */
    bool absent;               /* not yet in the battle (joins: N): off the map, not in the order */
    fray_pos seen[FA_MAX_SIDES];   /* where each side last saw it (total concealment, L7.16) */
} fa_cstate;

enum {
    FA_F_OUT = 1u << 0,            /* dying or dead: out of the fight */
    FA_F_SECOND_WIND = 1u << 1,    /* second wind used this encounter */
    FA_F_IMMEDIATE = 1u << 2,      /* immediate action used since its last turn */
    FA_F_ACTED = 1u << 3,          /* has had a turn this round */
    FA_F_SUPPRESS_FIRED = 1u << 4, /* a suppressing attack this round (L7.6) */
    FA_F_DONE = 1u << 5,           /* its actions are over this turn (End Turn, Ready, Delay) */
    FA_F_SUSTAINED = 1u << 6,      /* it sustained (or made) its grapple this turn (L7.17) */
    FA_F_TOOK_ACTION = 1u << 7     /* it has taken an action this turn (Delay, Dazed) */
};
enum { FA_SLOT_STANDARD = 1u << 0, FA_SLOT_MOVE = 1u << 1, FA_SLOT_SWIFT = 1u << 2 };

/* (added by alloy-objects) An object lying on the floor (004:441, 624):
 * a weapon knocked from a hand or thrown; several of the same at one
 * square are one entry with a count. */
enum { FA_MAX_FLOOR = 64 };
typedef struct fa_floor_obj {
    int8_t owner;              /* the combatant whose stat-block weapon it is */
    int8_t slot;               /* its weapon slot */
    int16_t count;
    fray_pos at;
} fa_floor_obj;

typedef struct fa_state {
    int16_t round;             /* 0: the surprise round; then 1, 2 ... */
    bool started;              /* the begin event applied */
    bool over;
    int8_t winner;             /* as fray_fight_winner */
    int8_t n;                  /* combatants */
    uint8_t n_order;
    int8_t order[FA_MAX_COMBATANTS];   /* initiative order, first to act first */
    int8_t cur;                /* whose turn (combatant index), -1: between turns */
    int8_t cur_pos;            /* its place in order */
    int32_t turn_serial;       /* counts turns: the opportunity-attack limit */
    fray_rng rng;
    fa_cstate c[FA_MAX_COMBATANTS];
    /* The initiative order as a core time track (track.h); order[],
     * n_order and each fa_cstate's init and init_tie are kept in step
     * with it (turn.c fa_order_sync). */
    fray__track track;
    bool between;              /* a turn has just ended and a delaying combatant may
                                  come back (FA_CMD_RESUME) before the next starts */
    /* added by alloy-objects (objects.c) */
    uint8_t n_floor;
    fa_floor_obj floor[FA_MAX_FLOOR];
    /* (issue 16; turn.c) Kept counts, so that a turn with nothing to end
     * costs nothing whatever the crowd: turn_conds[w], the conditions on
     * anyone that end at w's turn's start or end or with w's sustain
     * (ends START_OF_TURN, END_OF_TURN, USED or SUSTAIN, whose w);
     * n_delaying, the Delaying conditions on anyone. fa_cond_counted
     * keeps them wherever a condition is put on, replaced or taken off
     * (run.c, turn.c); debug builds recount them on every use.
     * over_seen: two combatants of two sides last found standing by
     * fa_check_over, each index + 1 (0: none), looked at first.
     * n_grappled: the Grappled conditions on anyone (fa_cond_counted);
     * grapple_begun: a grapple was made in this fight (attack.c). With
     * neither, nobody grapples and fa_grapple_upkeep has nothing to do. */
    uint16_t turn_conds[FA_MAX_COMBATANTS];
    uint8_t n_delaying;
    uint8_t over_seen[2];
    uint8_t n_grappled;
    bool grapple_begun;
    /* n_ready: the Readied conditions on anyone (fa_cond_counted): with
     * none, act.c's readied triggers have nobody to ask. */
    uint8_t n_ready;
    /* n_suppressing: the Suppressing conditions on anyone: with none,
     * attack.c's suppressing fire at a turn's end has nobody to ask. */
    uint8_t n_suppressing;
} fa_state;

/* ---- Commands ---------------------------------------------------------------- */

typedef enum fa_cmd_kind {
    FA_CMD_BEGIN,          /* initiative, the surprise round (the begin event) */
    FA_CMD_NEXT,           /* the end of the turn under way and the start of the next */
    /* standard actions */
    FA_CMD_ATTACK,         /* melee or ranged basic attack, or a power (cmd.power) */
    FA_CMD_CHARGE,         /* move (path) then a melee basic attack or bull rush at +1 */
    FA_CMD_COUP,           /* coup de grace */
    FA_CMD_BULL_RUSH, FA_CMD_TRIP, FA_CMD_GRAPPLE, FA_CMD_MOVE_GRAPPLED,
    FA_CMD_HELD_OBJECT,    /* attack a held object */
    FA_CMD_AID,            /* aid another (cmd.option: FA_AID_ATTACK | FA_AID_DEFENSE) */
    FA_CMD_SPRAY,          /* autofire: spray (origin: the 5-ft burst's centre) */
    FA_CMD_SUPPRESS,       /* autofire: suppressing fire (origin: the 30-ft burst's centre) */
    FA_CMD_TOTAL_DEFENSE,
    FA_CMD_SECOND_WIND,
    /* move actions */
    FA_CMD_WALK, FA_CMD_SHIFT, FA_CMD_RUN, FA_CMD_CRAWL, FA_CMD_SQUEEZE,
    FA_CMD_STAND, FA_CMD_ESCAPE,
    /* swift actions */
    FA_CMD_DROP_PRONE, FA_CMD_DRAW, FA_CMD_RELOAD, FA_CMD_SUSTAIN,
    /* free actions and no action */
    FA_CMD_SPEND_AP, FA_CMD_END_GRAB, FA_CMD_READY, FA_CMD_DELAY,
    FA_CMD_RESUME,         /* a delaying combatant takes its turn now */
    FA_CMD_END_TURN,       /* ends its actions (the rest are lost) */
    /* (added by alloy-skills, skills.c) */
    FA_CMD_FEINT,          /* standard: Bluff against targets[0] (004:307) */
    FA_CMD_SKILL,          /* use a skill: option = fa_skill | FA_SKILL_AS_MOVE (004:313, 325) */
    /* (added by alloygm, gm.c) */
    FA_CMD_GM,             /* the GM's override (issue 14): cmd.gm says which; no turn, no action */
    FA_CMD_KINDS
} fa_cmd_kind;

enum { FA_AID_ATTACK, FA_AID_DEFENSE };
/* (added by alloy-skills) FA_CMD_AID on a check (004:429): option
 * FA_AID_CHECK + the fa_skill aided, targets[0] the adjacent ally. */
enum { FA_AID_CHECK = 2 };
/* FA_CMD_SKILL's option: the skill, | FA_SKILL_AS_MOVE for a move action. */
enum { FA_SKILL_AS_MOVE = 16 };

/* (added by alloy-objects) The swift actions with objects are FA_CMD_DRAW
 * with an option (fray_sim_counts has room for no more action kinds):
 *   option 0: Draw (and Retrieve Object) the weapon slot `weapon`; weapon
 *     -1: Holster, the hand's weapon put away (004:583-589);
 *   FA_OBJ_PICK_ANY: Manipulate an Object, picking up an object on the
 *     floor (004:624): at origin (x < 0: the engine's pick in reach);
 *   FA_OBJ_PICK_UP + k: picking up targets[0]'s weapon slot k at origin;
 *   FA_OBJ_DRAW_ITEM + k: Draw the item k of the block;
 *   FA_OBJ_CONSUME + k: Consume Item k (004:531-537). */
enum { FA_OBJ_PICK_ANY = 9, FA_OBJ_PICK_UP = 10, FA_OBJ_DRAW_ITEM = 20,
       FA_OBJ_CONSUME = 30 };
static inline bool fa_obj_in(int option, int base, int n) {
    return option >= base && option < base + n;
}

typedef struct fa_command {
    uint8_t kind;              /* fa_cmd_kind */
    int8_t actor;
    uint8_t slot;              /* fa_action_type of the slot it spends (trading
                                  down: FA_ACT_STANDARD for a move bought with the
                                  standard action); FA_ACT_NONE: its own type */
    int8_t power;              /* stat-block power, -1: a basic attack */
    int8_t weapon;             /* weapon slot, -1: the one in hand */
    int8_t option;             /* FA_AID_*, the escape's skill, ... */
    uint8_t n_targets;
    int8_t targets[FA_MAX_TARGETS];
    fray_pos origin;           /* an area's origin or blast corner; a push's square */
    uint8_t n_path;
    fray_pos path[FA_MAX_PATH];    /* moves and walls: the squares in order */
    fa_ready ready;            /* FA_CMD_READY */
    uint32_t decline;          /* bit per combatant: takes no opportunity attack
                                  during this command (the table's `decline ID`,
                                  `decline all`; parse.c) */
    bool has_guess;            /* an attack names the square it guesses for its
                                  totally concealed target (L7.16, 004:898) */
    fray_pos guess;            /* ... that square (the table's `attack T at X,Y`) */
    /* (added by alloygm) FA_CMD_GM: the override (fa_gm_op, 0 none), the
     * condition and its ending (COND_ON, COND_OFF), the hit points (SET_HP)
     * or the change (ADJUST_HP); JOIN and PLACE: the square in origin. */
    uint8_t gm;
    uint8_t gm_cond;           /* fa_cond_kind */
    uint8_t gm_ends;           /* fa_ends */
    int16_t gm_value;
} fa_command;

/* ---- Events and facts ------------------------------------------------------------ */

typedef enum fa_die_purpose {
    FA_DIE_INITIATIVE, FA_DIE_TIE, FA_DIE_ATTACK, FA_DIE_DAMAGE, FA_DIE_CRIT,
    FA_DIE_SAVE, FA_DIE_CHECK,
    FA_DIE_HEAL,           /* (alloy-objects) an item's healing dice */
    FA_DIE_PURPOSES
} fa_die_purpose;

typedef struct fa_die {
    uint8_t sides;
    uint8_t value;
    uint8_t purpose;           /* fa_die_purpose */
    int8_t who;                /* who rolls it */
} fa_die;

/* Choices made while an event is applied (the table's words or the
 * policy's): kept so that a replay makes the same ones. */
typedef enum fa_choice_kind {
    FA_CH_OPPORTUNITY,         /* who: takes (value 1) or declines (0) an opportunity attack on other */
    FA_CH_COVER_TAKES_HIT,     /* who, a covering creature, takes the hit (1) or not */
    FA_CH_READY_FIRES,         /* who fires its readied action (1) or holds it */
    FA_CH_SUPPRESS_FIRES,      /* who makes a suppressing attack on other */
    FA_CH_KINDS
} fa_choice_kind;

typedef struct fa_choice {
    uint8_t kind;
    int8_t who;
    int8_t other;
    int8_t value;
} fa_choice;

typedef enum fa_fact_kind {
    FA_FACT_INITIATIVE,    /* who: v0 d20, v1 modifier, v2 total */
    FA_FACT_TIE,           /* who: v0 the die that broke a tie */
    FA_FACT_ORDER,         /* v0 place, who (one per place, after initiative) */
    FA_FACT_SURPRISE,      /* who is surprised */
    FA_FACT_ROUND,         /* v0 round number (0: surprise round) */
    FA_FACT_TURN,          /* who starts its turn */
    FA_FACT_ONGOING,       /* who takes v0 ongoing damage */
    FA_FACT_SAVE,          /* who: v0 d20, v1 needed, v2 saved (0/1), v3 condition */
    FA_FACT_COND_ON,       /* who gains condition v0 (v1 fa_ends), from target */
    FA_FACT_COND_OFF,      /* who loses condition v0 */
    FA_FACT_ACTION,        /* who: v0 fa_cmd_kind, v1 slot spent (fa_action_type) */
    FA_FACT_ATTACK,        /* who -> target: v0 d20, v1 bonus, v2 total, v3 defense
                              (fa_defense) v4 defense value, v5 result (FA_MISS, FA_HIT, FA_CRIT) */
    FA_FACT_MODIFIER,      /* who -> target: v0 fa_mod reason, v1 value */
    FA_FACT_DAMAGE,        /* who -> target: v0 damage, v1 hp after, v2 rolled (before max/half) */
    FA_FACT_DYING,         /* target falls dying (hp v0) */
    FA_FACT_DEAD,          /* target dies (hp v0) */
    FA_FACT_HEAL,          /* who regains v0 hit points (v1 hp after) */
    FA_FACT_MOVE,          /* who: v0,v1 from x,y; v2,v3 to x,y; v4 squares */
    FA_FACT_PROVOKE,       /* who provokes from target (v0 fa_cmd_kind or move) */
    FA_FACT_OPPORTUNITY,   /* who makes an opportunity attack on target (v0 1 taken, 0 declined) */
    FA_FACT_PUSH,          /* who pushes target to v0,v1 */
    FA_FACT_AMMO,          /* who: v0 rounds spent, v1 left */
    FA_FACT_AP,            /* who spends an action point (v0 left) */
    FA_FACT_DELAY,         /* who delays */
    FA_FACT_READY,         /* who readies (v0 fa_trigger, target the trigger's combatant) */
    FA_FACT_READY_FIRES,   /* who's readied action fires; its initiative moves (v0 new place) */
    FA_FACT_LOST,          /* who loses its delayed turn or readied action (v0 which) */
    FA_FACT_NO_EFFECT,     /* who's action has no effect (v0 fa_note reason) */
    FA_FACT_OVER,          /* the fight is over: v0 winning side (-1 none, -2 all out) */
    FA_FACT_CHECK,         /* who: v0 d20, v1 bonus, v2 total, v3 defense value, v4 success (0/1) */
    FA_FACT_COVER_STRUCK,  /* who's attack missed target only because of a creature's cover
                              (004:870-878): target the covering creature, v0 the original
                              target, v1 the covering creature's defense value, v2 1 if the
                              attack hits the covering creature, v3 1 if it chose to take the
                              hit; the one struck takes the damage */
    FA_FACT_DROP,          /* target drops the weapon in its hand (slot v0) in its space */
    /* added by alloy-objects */
    FA_FACT_LANDS,         /* a weapon leaves who's hand (thrown, or a taken one let go)
                              and lands at v1,v2: target its owner, v0 its slot, v3 1 when
                              used up (a grenade: not left on the floor) */
    FA_FACT_PICK_UP,       /* who picks up target's weapon (slot v0) at v1,v2 into its hand */
    FA_FACT_TAKE,          /* who takes target's weapon (slot v0) into its hand (004:445) */
    FA_FACT_CONSUME,       /* who consumes its item (slot v0), v1 left */
    /* (added by alloy-skills) */
    FA_FACT_SKILL,         /* who makes a skill check (against target, -1 none): v0 d20,
                              v1 bonus, v2 total, v3 the number to reach (0: none), v4
                              success (0/1), v5 the skill (fa_skill) */
    FA_FACT_DEATH_SAVE,    /* who, dying: v0 d20, v1 needed, v2 0 failed / 1 saved / 2 a 20:
                              wakes, v3 failures so far */
    FA_FACT_JOIN,          /* who joins the battle: v0 d20, v1 modifier, v2 total, v3 place */
    FA_FACT_CHOSEN,        /* who is dominated: target (the dominator) chose its action */
    /* (added by alloygm) */
    FA_FACT_GM,            /* the GM's override on who: v0 fa_gm_op, v1 hp before, v2 hp
                              after, v3,v4 its square after (the one it left: flee) */
    FA_FACT_KINDS
} fa_fact_kind;

enum { FA_MISS, FA_HIT, FA_CRIT };

/* Reasons for attack modifiers (004:836-846 and the rest). */
typedef enum fa_mod {
    FA_MOD_BATTLE_SUPERIORITY, FA_MOD_FLANKING, FA_MOD_PRONE_ATTACKER,
    FA_MOD_SNARED_ATTACKER, FA_MOD_GRAPPLED_ATTACKER, FA_MOD_COVER,
    FA_MOD_IMPROVED_COVER, FA_MOD_CONCEALMENT, FA_MOD_TOTAL_CONCEALMENT,
    FA_MOD_LONG_RANGE, FA_MOD_CHARGE, FA_MOD_RUNNING, FA_MOD_SQUEEZING,
    FA_MOD_AID, FA_MOD_DEFENSE_BONUS, FA_MOD_PRONE_VS_RANGED,
    FA_MOD_UNCONSCIOUS, FA_MOD_NOT_PROFICIENT,
    FA_MOD_TOTAL_DEFENSE,      /* the target's +2 from Total Defense (004:749) */
    FA_MOD_SECOND_WIND,        /* the target's +2 from Second Wind (004:680) */
    FA_MOD_AID_DEFENSE,        /* the target's +2 per aider against this attacker (004:428) */
    FA_MOD_CREATURE_COVER,     /* cover from a creature in the way (L7.20, creature_cover) */
    FA_MOD_KINDS
} fa_mod;

typedef struct fa_fact {
    uint8_t kind;              /* fa_fact_kind */
    int8_t who, target;
    uint8_t pad;
    int32_t v[6];
} fa_fact;

typedef struct fa_event {
    int32_t number;            /* its place in the fight */
    int16_t round;             /* the round when it happened */
    fa_command cmd;
    bool dice_given;           /* rolled by hand at the table (else drawn: replay
                                  draws again from the same stream and checks) */
    int16_t facts_untold;      /* facts past FA_EVENT_FACTS: counted, not kept */
    int16_t n_dice;
    fa_die dice[FA_EVENT_DICE];
    int16_t n_choices;
    fa_choice choices[FA_EVENT_CHOICES];
    int16_t n_facts;
    fa_fact facts[FA_EVENT_FACTS];
} fa_event;

/* ---- Running one event (run.c) -------------------------------------------------- */

struct fa_run;

/* How a decision is made mid-action when the command did not say:
 * the table's words (decline an opportunity attack ...) or the policy. */
typedef struct fa_hooks {
    /* Does `who` take its opportunity attack on `target`? NULL: yes. */
    bool (*opportunity)(void *ctx, const struct fa_run *r, int who, int target);
    void *ctx;
    /* Does `who` fire its readied action now that `trigger` set it off?
     * NULL: yes (004:651: it may ignore the trigger and wait). */
    bool (*ready)(void *ctx, const struct fa_run *r, int who, int trigger);
} fa_hooks;

typedef struct fa_run {
    const fa_setup *s;
    fa_state *st;
    fa_event *ev;              /* where dice, choices and facts are written (never NULL) */
    bool facts;                /* record facts (off in simulation) */
    /* Dice: given by hand (given, n_given, used in order), or replayed
     * from a recorded event (replay: the recorded dice are the answer when
     * they were given, and must equal the drawn ones when drawn), or drawn
     * from st->rng. */
    const int *given;
    size_t n_given;
    size_t used_given;
    const fa_event *replay;    /* NULL unless replaying */
    int replay_die;            /* next recorded die */
    int replay_choice;         /* next recorded choice */
    const fa_hooks *hooks;     /* NULL: the defaults */
    fray_status failed;        /* the first error; once set, everything stops */
    int bad_sides;             /* a given die that did not fit: the die asked for (d20: 20) */
    /* (added by alloy-skills) The square the command guesses for a
     * totally concealed target (L7.16): for guess_for when guess_given;
     * else the square the attacker's side last saw it at. */
    bool guess_given;
    int8_t guess_for;
    fray_pos guess;
    /* Speed (issue 16): whose hit points this event has changed (bit i:
     * combatant i), each one's hit points before the first change in
     * hp_was, kept by fa_hp_mark wherever hit points are set (damage.c,
     * gm.c, objects.c, skills.c); the simulation's counts (alloy.c
     * count_event_hp) read only those instead of every combatant's. Zero
     * at the start (run_init). */
    uint32_t hp_changed;
    int16_t hp_was[FA_MAX_COMBATANTS];
    /* Speed (issue 16): the walk fa_apply is applying, its steps' costs
     * as fa_check found them (walk_cost, walk_n steps of walk_path for
     * walk_who; walk_n 0: none), for move_steps to take instead of
     * weighing each step again while nothing but the walker has changed
     * (interrupts: bumped whenever an opportunity attack is taken or a
     * readied action fires). Set by fa_apply on every command; walk_cost
     * last, read only where fa_apply wrote it (alloy.c's run_init clears
     * the run up to it). */
    uint8_t walk_n;
    int8_t walk_who;
    bool walk_long;            /* tests: every step of a walk weighed again (the long way) */
    uint32_t interrupts;
    const fray_pos *walk_path;
    /* Speed (issue 16): the reach map the tactics built for this step's
     * command (fa_reach_kept), for fa_apply's own check of it only: taken
     * (and cleared) by fa_apply before anything changes. NULL: none. */
    const struct fa_reach_kept *reach_kept;
    int8_t walk_cost[FA_MAX_PATH];
} fa_run;

/* Called just before who's hit points, now `now`, are set
 * (fa_run.hp_changed); who is a combatant (the callers' checks). */
static inline void fa_hp_mark(fa_run *r, int who, int16_t now) {
    _Static_assert(FA_MAX_COMBATANTS == 32, "fa_run.hp_changed holds one bit a combatant");
    unsigned i = (unsigned)who & (FA_MAX_COMBATANTS - 1);
    uint32_t bit = (uint32_t)1 << i;
    if (!(r->hp_changed & bit)) {
        r->hp_changed |= bit;
        r->hp_was[i] = now;
    }
}

/* The first failure of the event under way goes into r->failed (the
 * step stops; later ones do not overwrite it). */
void fa_fail(fa_run *r, fray_status status);
/* A refusal: its reason in rules words into why (NULL: not told);
 * returns FRAY_ERR_INVALID. */
fray_status fa_refuse(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Combatant i's name and stat block. */
static inline const char *fa_nm(const fa_setup *s, int i) { return s->c[i].name; }
static inline const fa_statblock *fa_sb_of(const fa_setup *s, int i) {
    return &s->sb[s->c[i].sb];
}

/* Rolls one die of `sides` (2..100) for `who`: given, replayed or drawn;
 * records it in r->ev. Returns 1..sides, or 0 after setting r->failed
 * (FRAY_ERR_INVALID: a given die out of range, a replayed die that does
 * not match; FRAY_ERR_RANGE: more dice than one event holds). */
int fa_roll(fa_run *r, int sides, fa_die_purpose purpose, int who);
/* NdS summed (each die recorded). 0 for n = 0. */
int fa_roll_dice(fa_run *r, fa_dice d, fa_die_purpose purpose, int who);
/* A choice: replayed when replaying (must be of this kind, who and
 * other: else r->failed = FRAY_ERR_INVALID and `dflt` is returned), else
 * `made`; recorded either way. */
int fa_choose(fa_run *r, fa_choice_kind kind, int who, int other, int made);
/* Adds a fact when r->facts (or counts it untold past the limit). */
void fa_fact_add(fa_run *r, fa_fact_kind kind, int who, int target,
                 int32_t v0, int32_t v1, int32_t v2, int32_t v3);
/* The sixth and fifth values (attacks): sets v4, v5 of the last fact. */
void fa_fact_more(fa_run *r, int32_t v4, int32_t v5);

/* Conditions (run.c): has, add (a second of the same kind from the same
 * source replaces it; a fact told), remove (every one of the kind, or
 * with `other` when other >= 0), and the recomputing of fa_cstate.has. */
static inline bool fa_has(const fa_cstate *c, fa_cond_kind k) {
    return (c->has >> k) & 1u;
}
fray_status fa_cond_add(fa_run *r, int who, fa_cond cond);
void fa_cond_remove(fa_run *r, int who, fa_cond_kind kind, int other);
const fa_cond *fa_cond_find(const fa_cstate *c, fa_cond_kind kind, int other);

/* ---- Time (turn.c) --------------------------------------------------------------- */

/* The state at the start of a fight (before the begin event): hit
 * points, places, ammunition, action points, the stream. */
void fa_state_init(const fa_setup *s, fa_state *st, uint64_t seed,
                   uint64_t trial);
/* The begin event: initiative (d20 + init_mod, ties by modifier then a
 * die), the surprise round when someone is unaware. */
fray_status fa_begin(fa_run *r);
/* Who acts now: the combatant whose turn is under way (or a delaying
 * one that may come back), or -1 when the engine must step (FA_CMD_NEXT). */
int fa_actor(const fa_setup *s, const fa_state *st);
/* FA_CMD_NEXT: the end of the turn under way (saves, sustains, effects
 * ending), then the next turn's start (ongoing damage, effects ending),
 * a new round when the order is done, the end of the fight. */
fray_status fa_next(fa_run *r);
/* true when an action of `type` can be paid for now by `who` (slot: the
 * slot asked for, FA_ACT_NONE: its own or the cheapest that trades down);
 * spends it. */
bool fa_can_pay(const fa_state *st, int who, fa_action_type type,
                fa_action_type slot);
void fa_pay(fa_run *r, int who, fa_action_type type, fa_action_type slot);
/* fa_pay, telling which slot paid (FA_ACT_STANDARD for an action point's
 * extra standard action; type itself for free, immediate and no action);
 * FA_ACT_NONE and r->failed = FRAY_ERR_INVALID when it cannot pay. */
fa_action_type fa_pay_from(fa_run *r, int who, fa_action_type type,
                           fa_action_type slot);
/* Not out, not Stunned, Surprised, Unconscious, Dying or Dead. */
bool fa_can_act(const fa_state *st, int who);
/* order[], n_order, init and init_tie from st->track. */
void fa_order_sync(fa_state *st);
/* Moves who's initiative to just before `before` (Ready, Delay), keeping
 * cur_pos on the turn under way (or the last one ended); v0 of a fact. */
fray_status fa_order_move_before(fa_run *r, int who, int before, int *out_place);
/* FA_CMD_DELAY by the combatant whose turn is under way: it leaves its
 * turn (beneficial end-of-turn effects end now: 004:576). */
fray_status fa_delay(fa_run *r, int who);
/* FA_CMD_RESUME: a delaying combatant takes its turn now, just before the
 * next one (004:573). */
fray_status fa_resume(fa_run *r, int who);
/* Ends the fight when at most one side has anyone standing (FACT OVER);
 * true when it is over. */
bool fa_check_over(fa_run *r);
/* Ends who's grapple (the target is no longer Grappled). */
void fa_end_grapple(fa_run *r, int grappler);
/* Ends every grapple whose grappler can no longer make opportunity
 * attacks or whose target left its unarmed reach (004:617-618). */
void fa_grapple_upkeep(fa_run *r);
/* Removes condition number i of who (a fact when the kind is gone). */
void fa_cond_drop(fa_run *r, int who, int i);
/* Provided by attack.c (alloy-attack): suppressing fire's attacks at the
 * end of who's turn when it took a standard action or none (004:701);
 * turn.c calls it first thing at the end of every turn. */
fray_status fa_suppress_turn_end(fa_run *r, int who, bool took_standard_or_none);

/* ---- Actions (act.c) -------------------------------------------------------------- */

/* Checks a command against the rules now; on refusal returns
 * FRAY_ERR_INVALID with the reason in rules words in why. */
fray_status fa_check(const fa_setup *s, const fa_state *st,
                     const fa_command *cmd, char *why, size_t why_size);
/* Applies a command (checked first): the one entry point. */
fray_status fa_apply(fa_run *r, const fa_command *cmd);
/* Moves `who` along path one square at a time, with the opportunity
 * attacks its leaving threatened squares provokes (unless shifting);
 * stops when it falls. */
fray_status fa_move(fa_run *r, int who, const fray_pos *path, int n,
                    bool provokes);
/* The squares `who` may move with one action of `kind` (FA_CMD_WALK,
 * FA_CMD_RUN, ...) now: speed, halved without sight (004:810), Slowed's
 * 10 feet less what it has moved (004:993-997); 0 when it cannot move. */
int fa_move_allowance(const fa_setup *s, const fa_state *st, int who,
                      int kind);
/* true when a threatens b: adjacent (or within threatening reach), able
 * to make a melee basic attack and opportunity attacks. */
/* Every space of fp on the map and open to standing (no wall, window or
 * pit). */
bool fa_room_for(const fa_setup *s, fray_footprint fp);
bool fa_threatens(const fa_setup *s, const fa_state *st, int a, int b);
/* The opportunity attacks provoked by `who` doing `what` now (a ranged
 * or area attack while adjacent, a move out of a threatened square, a
 * table row marked Yes), resolved in initiative order before the action
 * finishes. */
fray_status fa_provoke(fa_run *r, int who, int what);
bool fa_allies(const fa_setup *s, int a, int b);
/* Movement cost map for who from its square (occupants, difficult
 * terrain, Slowed). */
void fa_reach(const fa_setup *s, const fa_state *st, int who, int max_cost,
              fray_reach_map *out);

/* ---- Attacks (attack.c) ------------------------------------------------------------ */

typedef struct fa_attack_line {     /* what an attack is, worked out */
    int8_t power;              /* -1: basic */
    int8_t weapon;             /* weapon slot, -1: unarmed */
    uint8_t ability;           /* fa_ability */
    uint8_t defense;           /* fa_defense */
    bool ranged;
    bool area;
    int8_t mult;               /* X{W} */
    fa_dice dice;              /* per multiple */
    int16_t damage_bonus;      /* ability modifier + the power's */
    fa_dice crit_dice;
    int8_t crit_min;
    /* added by alloy-attack */
    int16_t attack_bonus;      /* ability + the block's + proficiency (if proficient) + the power's */
    int8_t proficiency_lost;   /* the weapon's proficiency bonus not had (not proficient, 004:57) */
    int8_t reach;              /* melee: squares */
    int16_t range_short;       /* ranged, and an area burst's or wall's origin: squares */
    int16_t range_long;        /* the long range limit (-2 beyond short, 004:89, 143); 0: none */
    uint8_t area_kind;         /* fa_area_kind */
    int8_t area_size;          /* squares */
} fa_attack_line;

typedef struct fa_mods {            /* an attack's modifiers, with reasons */
    int total;
    int n;
    struct { uint8_t reason; int8_t value; } m[12];
    bool impossible;           /* total cover: no attack */
    /* added by alloy-attack */
    uint8_t why_impossible;    /* fa_attack_note when impossible */
    int def_total;             /* the target's defense modifiers (in fa_defense_value) */
    int n_def;
    struct { uint8_t reason; int8_t value; } d[8];
    int8_t cover_by;           /* the creature giving the only cover (-1 none): 004:870 */
    int cover_value;           /* the cover penalty (positive), for "missed only because of cover" */
} fa_mods;
/* The facts attack.c tells for one attack roll, in this order:
 *   FA_FACT_ATTACK: v1 = the line's bonus + fa_mods.total (every attack
 *     modifier), v2 = d20 + v1, v4 = the defense with fa_mods.def_total; a
 *     coup de grace without a roll (option coup_rolls false) has v0 = v2 = 0.
 *   FA_FACT_MODIFIER, one per modifier: v0 fa_mod, v1 value, v2 = 1 when it
 *     changes the target's defense (0: the attack roll); NOT_PROFICIENT has
 *     v1 = 0 and v3 = the proficiency bonus not had (004:57).
 *   then FA_FACT_COVER_STRUCK, FA_FACT_DAMAGE, FA_FACT_DYING/DEAD,
 *     FA_FACT_COND_ON, FA_FACT_PUSH, FA_FACT_MOVE, FA_FACT_DROP as they
 *     happen; FA_FACT_AMMO before the rolls. An area tells every attack
 *     roll before the one damage roll's DAMAGE facts. */

/* FA_FACT_NO_EFFECT reasons from attack.c (v0), and why an attack is not
 * possible (fa_mods.why_impossible). Numbered from 64 so that they never
 * meet the reasons act.c gives. */
typedef enum fa_attack_note {
    FA_NOTE_NO_ROOM = 64,      /* bull rush: no square to push the target into (004:512) */
    FA_NOTE_ALREADY_PRONE,     /* trip: the target was already prone */
    FA_NOTE_AID_LIMIT,         /* aid another: the ally already has four aiders (004:430) */
    FA_NOTE_NO_TARGETS,        /* an area with no creature in it */
    FA_NOTE_TOTAL_COVER,       /* no line of effect (004:866) */
    FA_NOTE_OUT_OF_RANGE,      /* beyond reach, or beyond long range (004:89, 143) */
    FA_NOTE_SNARED,            /* (alloy-space) a snared creature is not moved by force (004:1005) */
    FA_NOTE_WRONG_SQUARE,      /* (alloy-skills) a totally concealed target is not in the
                                  square guessed: the attack misses (L7.16, 004:898) */
    FA_NOTE_ATTACK_NOTES
} fa_attack_note;

/* FA_CMD_CHARGE's option: the attack at the end of the charge (004:523). */
enum { FA_CHARGE_ATTACK, FA_CHARGE_BULL_RUSH };

/* (added by alloy-speed) Two one-square footprints side by side (or on
 * the same square) on open floor with no edge of any kind between them:
 * grid.c's fast answer (box_clear) holds for them, so that cover is none
 * and line of effect and sight are clear both ways. false means only
 * "ask grid.c" (fray_grid_cover, fray_grid_effect_fp, fray_grid_sight_fp):
 * a shortcut for the toe-to-toe attacks of a simulation, never a
 * different answer. */
static inline bool fa_open_neighbours(const fray_grid *g, fray_footprint a,
                                      fray_footprint b) {
    if (a.side > 1 || b.side > 1)
        return false;
    int x0 = a.at.x < b.at.x ? a.at.x : b.at.x;
    int y0 = a.at.y < b.at.y ? a.at.y : b.at.y;
    int x1 = (a.at.x > b.at.x ? a.at.x : b.at.x) + 1;
    int y1 = (a.at.y > b.at.y ? a.at.y : b.at.y) + 1;
    if (x0 < 0 || y0 < 0 || x1 > g->w || y1 > g->h || x1 - x0 > 2 || y1 - y0 > 2)
        return false;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            if (g->terrain[y][x] == FRAY_TERRAIN_WALL ||
                g->terrain[y][x] == FRAY_TERRAIN_WINDOW)
                return false;
            if (x + 1 < x1 && g->edge_e[y][x] != FRAY_EDGE_NONE)
                return false;
            if (y + 1 < y1 && g->edge_s[y][x] != FRAY_EDGE_NONE)
                return false;
        }
    return true;
}

/* The attack line of `who`'s basic attack (power -1, melee or ranged by
 * the weapon) or power. */
fa_attack_line fa_attack_line_of(const fa_setup *s, const fa_state *st,
                                 int who, int power, int weapon, bool melee);
/* Every modifier to `who`'s attack on `target` from its square (or from
 * origin for area attacks), charge adding +1, and the target's defense. */
void fa_attack_mods(const fa_setup *s, const fa_state *st, int who,
                    int target, const fa_attack_line *line, bool charge,
                    fray_pos origin, fa_mods *out);
int fa_defense_value(const fa_setup *s, const fa_state *st, int target,
                     fa_defense d, int attacker, bool ranged);
/* Resolves FA_CMD_ATTACK (one or several targets, areas), the attack of
 * FA_CMD_CHARGE (charge true), FA_CMD_COUP, FA_CMD_BULL_RUSH, FA_CMD_TRIP,
 * FA_CMD_GRAPPLE, FA_CMD_HELD_OBJECT, FA_CMD_AID, FA_CMD_SPRAY and the
 * attacks of FA_CMD_SUPPRESS; the action is already paid for. */
fray_status fa_attack(fa_run *r, const fa_command *cmd, bool charge);
/* One opportunity attack (a melee basic attack) by who on target. */
fray_status fa_opportunity_attack(fa_run *r, int who, int target);
/* Hit points lost by target from who (-1: ongoing): minimum 0 (004:155),
 * Withered halves (down), dying at 0, dead at -max/2 (004:211). */
fray_status fa_damage(fa_run *r, int who, int target, int amount);
/* A check (escape, move grappled) of d20 + bonus against a defense. */
bool fa_check_vs(fa_run *r, int who, int bonus, int defense_value);
/* Second wind: a surge's hit points and +2 defenses (004:675-681). */
fray_status fa_second_wind(fa_run *r, int who);
/* Suppressing fire (004:698-701), called by the turn code at the end of
 * `who`'s turn: when who took a standard action or no action on it, each
 * enemy suppressing a burst that holds who may make a basic ranged attack
 * on it as an immediate action (one per round unless the option
 * suppress_unlimited; 1 round of ammunition each), asked with
 * fa_choose(FA_CH_SUPPRESS_FIRES). */
fray_status fa_suppress_turn_end(fa_run *r, int who, bool took_standard_or_none);
/* damage.c for attack.c: fa_damage telling `rolled` (the damage before
 * Withered and the minimum) in FA_FACT_DAMAGE; and death now (coup de
 * grace, 004:549), with DEAD told and FA_F_OUT set. */
fray_status fa__deal(fa_run *r, int who, int target, int amount, int rolled);
fray_status fa__kill(fa_run *r, int target);
/* Command fields attack.c reads (added by alloy-attack):
 *   ATTACK, CHARGE, COUP, TRIP, GRAPPLE, HELD_OBJECT: targets[0..n_targets)
 *     (a basic attack or a single-target attack takes one; a power with no
 *     area may take several: one attack and one damage roll each, 004:75);
 *     power (-1 basic), weapon (-1 the one in hand).
 *   ATTACK with an area (the weapon's or the power's): origin = the blast's
 *     top-left corner (close blast) or the burst's centre (area burst);
 *     path[0..n_path) = the wall's squares; close burst: nothing. The
 *     targets are every creature in the area that is not out.
 *   BULL_RUSH (and CHARGE with option FA_CHARGE_BULL_RUSH): targets[0];
 *     origin = the square the target is pushed into, or origin.x < 0 to let
 *     the engine choose (straight away from the attacker first).
 *   AID: targets[0] the enemy, targets[1] the ally, option FA_AID_ATTACK |
 *     FA_AID_DEFENSE.
 *   SPRAY, SUPPRESS: origin = the burst's centre, the autofire weapon in hand. */

/* ---- Objects in hands and on the floor (objects.c, added by alloy-objects) ---------- */

/* The weapon of another held in who's hand (004:445), NULL when none. */
const fa_weapon *fa_obj_taken(const fa_setup *s, const fa_state *st, int who);
/* fa_obj_taken when it is a melee weapon (the only kind fray lets a taker
 * use: a taken ranged or thrown weapon is held, and its holder strikes
 * unarmed), else NULL. */
const fa_weapon *fa_obj_taken_melee(const fa_setup *s, const fa_state *st, int who);
/* who's block is proficient with the taken weapon's group (or the weapon). */
bool fa_obj_taken_proficient(const fa_setup *s, const fa_state *st, int who);
/* Nothing in hand (or only the block's `unarmed` weapon). */
bool fa_obj_empty_handed(const fa_setup *s, const fa_state *st, int who);
/* How many of its weapon in `slot` who can draw now: 0, n, -1 no end. */
int fa_obj_stowed(const fa_setup *s, const fa_state *st, int who, int slot);
/* The floor entry at `at` (owner, slot: -1 any), -1 none. */
int fa_obj_floor_find(const fa_state *st, fray_pos at, int owner, int slot);
/* The floor entry who can pick up now (its square or an adjacent one):
 * its own weapon first, else (unless own_only) the first listed; -1 none. */
int fa_obj_floor_in_reach(const fa_setup *s, const fa_state *st, int who,
                          bool own_only);
/* Puts count of owner's weapon slot on the floor at `at` (FRAY_ERR_RANGE
 * past FA_MAX_FLOOR piles). */
fray_status fa_obj_floor_add(fa_run *r, int owner, int slot, fray_pos at, int count);
/* Attack Held Object hit (004:441-445): t's weapon in hand drops in its
 * space, or with take (an unarmed attack) goes into who's hand. */
fray_status fa_obj_knocked(fa_run *r, int who, int t, bool take);
/* The attack line throws its thrown weapon (a ranged or area use of it),
 * one that is used up (not `ammo: unlimited`). */
bool fa_obj_throws(const fa_setup *s, const fa_state *st, const fa_attack_line *L,
                   int who);
/* Thrown: one weapon per target leaves who and lands in the target's
 * square (an area: one, used up). */
fray_status fa_obj_thrown(fa_run *r, int who, int slot, const int8_t *targets,
                          int n, bool area);
/* The rules of DRAW (all its options), and the thrown-weapon and take
 * parts of ATTACK and HELD_OBJECT; FRAY_ERR_INVALID with why. */
fray_status fa_obj_check(const fa_setup *s, const fa_state *st,
                         const fa_command *cmd, char *why, size_t why_size);
/* Applies DRAW, all its options (checked, paid). */
fray_status fa_obj_apply(fa_run *r, const fa_command *cmd);
/* ---- Space (space.c, added by alloy-space) ------------------------------------------ */

/* The range between two footprints by the option diagonals (counted:
 * fray_grid_range; one: every diagonal 1), and within a reach by it. */
int fa_range(const fa_setup *s, fray_footprint a, fray_footprint b);
int fa_count(const fa_setup *s, fray_pos a, fray_pos b);
bool fa_within(const fa_setup *s, fray_footprint a, fray_footprint b, int reach);
/* Forced movement (004:459, 976-978, 993-997, 1005): who moves target up
 * to n squares, how (FA_FORCED_PUSH: each square farther from who;
 * PULL: nearer; SLIDE: any square, the engine choosing as for a push).
 * The engine picks each square (straight away or toward first, then the
 * first free one); a square occupied or blocked stops it. No opportunity
 * attacks; Immobilized and Slowed do not stop it; Snared does. Tells
 * FA_FACT_PUSH (v2 how, v3 squares moved, v4 squares asked). */
fray_status fa_forced_move(fa_run *r, int who, int target, int how, int n);
/* The squares of a forced move named at the table: the command (an
 * attack with a power that pushes, pulls or slides, one target) gives
 * them in path[0..n_path), each next to the one before from the target's
 * square, at most forced_n, a push's farther from the attacker and a
 * pull's nearer; they are checked now (the map, who stands where) and
 * followed when the power hits (a square then taken stops it). A power
 * that moves nobody names no squares. */
fray_status fa_forced_check(const fa_setup *s, const fa_state *st,
                            const fa_command *cmd, char *why, size_t why_size);
/* A teleport power (fa_power.teleport): the command is FA_CMD_ATTACK with
 * that power and origin = the square the user's top-left goes to,
 * within teleport squares, in sight, free. Immobilized may teleport
 * (004:978); Slowed does not limit it (004:997); no opportunity attacks. */
bool fa_is_teleport(const fa_setup *s, int who, int power);
fray_status fa_teleport_check(const fa_setup *s, const fa_state *st,
                              const fa_command *cmd, char *why, size_t why_size);
fray_status fa_teleport(fa_run *r, const fa_command *cmd);
/* For the tactics: the square teleport power `power` takes `who` to that
 * is farthest from its nearest enemy (the first of equals, in reading
 * order); false when there is none farther than where it stands. */
bool fa_teleport_away(const fa_setup *s, const fa_state *st, int who, int power,
                      fray_pos *out);
/* Readied moves, charges and area attacks (004:643-656): fills in the
 * command's path (walk, shift, run, crawl, squeeze: away from the
 * trigger, as far as the move allows; charge: to the nearest square from
 * which it can attack the trigger) or origin (an area attack placed on
 * the trigger) when the readied action fires; false when there is no
 * such move or placement (the trigger passes). */
bool fa_ready_fill(const fa_setup *s, const fa_state *st, int q, int trigger,
                   fa_command *cmd);
/* May a footprint stand on (or pass) the squares of fp, as narrow squares
 * go (option narrow): true unless one is narrow and the creature is not
 * squeezing. */
bool fa_narrow_ok(const fa_setup *s, fray_footprint fp, bool squeezing);

/* ---- Loading (load.c) -------------------------------------------------------------- */

fray_status fa_load(const char *path, const fray_allocator *alloc,
                    fa_setup **out, fray_diag *diag);
/* fa_load that also takes a stat-block file (its blocks and the weapons
 * they name, no combatants): for a duel of two blocks (odds.c). */
fray_status fa_load_blocks(const char *path, const fray_allocator *alloc,
                           fa_setup **out, fray_diag *diag);
fray_status fa_check_file(const char *path, fray_diag *diag);
void fa_setup_free(fa_setup *s);
fray_status fa_setup_copy(const fa_setup *s, const fray_allocator *alloc,
                          fa_setup **out);
fray_status fa_setup_vary(fa_setup *s, const char *key, const char *value,
                          fray_diag *diag);
/* (simrep) Whom a sweep's key changes, in rules words, into buf
 * (snprintf-style); an unknown key as fa_setup_vary refuses it, with
 * "did you mean" (load.c). */
fray_status fa_setup_vary_scope(const fa_setup *s, const char *key, char *buf,
                                size_t size, fray_diag *diag);
/* Defaults of every option (fa_options). */
void fa_options_default(fa_options *o);

/* ---- Commands from the table (parse.c) --------------------------------------------- */

fray_status fa_parse(const fa_setup *s, const fa_state *st, const char *text,
                     fa_command *cmd, fray_diag *diag);

/* ---- Telling (render.c, json.c) ------------------------------------------------------ */

const char *fa_cmd_name(int kind);            /* "attack", "walk" ... (journal words) */
const char *fa_cmd_title(int kind);           /* "Attack", "Walk" ... (rules words) */
const char *fa_cond_name(int kind);           /* "prone", "dazed" ... */
const char *fa_defense_name(int d);           /* "Defense", "Fortitude" ... */
const char *fa_mod_name(int reason);          /* "battle superiority" ... */
size_t fa_narrate(const fa_setup *s, const fa_event *ev, char *buf, size_t size);
size_t fa_event_json(const fa_setup *s, const fa_event *ev, char *buf, size_t size);
size_t fa_draw_order(const fa_setup *s, const fa_state *st, char *buf, size_t size);
size_t fa_draw_map(const fa_setup *s, const fa_state *st, char *buf, size_t size);
size_t fa_summary(const fa_setup *s, const fa_state *st, char *buf, size_t size);
/* A journal line's JSON object (a jansson json_t *) back into an event
 * (json.c): every field checked (combatants exist, dice in range, squares
 * on the map, words known). On error FRAY_ERR_PARSE, `field` the JSON path
 * ("command.targets[1]") and `why` what was expected; *out is then partly
 * written. */
fray_status fa_event_from_json(const fa_setup *s, const void *json_t_obj,
                               fa_event *out, char *field, size_t field_size,
                               char *why, size_t why_size);
/* The narration of one fact alone (render.c; a line without its newline). */
size_t fa_narrate_fact(const fa_setup *s, const fa_fact *f, char *buf,
                       size_t size);

/* ---- The ruleset (alloy.c) ------------------------------------------------------------ */

struct fray__ruleset;
/* Alloy's table for the registry (src/encounter/ruleset.h). */
extern const struct fray__ruleset fray__alloy_ruleset;

/* ---- Tactics (policy.c) --------------------------------------------------------------- */

/* The command `who` gives now by its tactics. */
fray_status fa_choose_command(const fa_setup *s, const fa_state *st, int who,
                              fa_command *out);
/* Speed (issue 16): the reach map the tactics built while choosing a
 * step's command (policy.c reach_of: fa_reach(who, max_cost) on st), kept
 * so that the check of that command (a charge's nearest square, act.c)
 * takes it instead of building the same map again. Valid only for the
 * state as it was when the command was chosen: alloy.c's step clears it
 * before the tactics and hands it to the step's run (fa_run.reach_kept),
 * which fa_apply takes for its own check before anything changes. Debug
 * builds build the map again at each use and hold the two the same
 * (fa_reach_same). */
typedef struct fa_reach_kept {
    bool valid;
    const fa_state *st;        /* the state it was built on */
    int who;
    int max_cost;
    fray_reach_map m;
} fa_reach_kept;
/* fa_choose_command; kept (NULL: none): where the reach map it builds, if
 * any, is kept (cleared first). */
fray_status fa_choose_command_kept(const fa_setup *s, const fa_state *st, int who,
                                   fa_command *out, fa_reach_kept *kept);
/* The attack the tactics of `who` choose against `target`
 * when the powers of powers_used (bit per power) are spent, judged as if
 * it had its standard action: the power, -1 the basic attack, -2 none;
 * the most one normal hit of it deals into *out_max_hit. odds.c models
 * the duel with it. */
int fa_tactics_pick(const fa_setup *s, int who, int target, uint32_t powers_used,
                    int *out_max_hit);

/* ---- The exact duel (odds.c) ----------------------------------------------------- */

struct fray_duel_odds;
/* The exact odds of the duel between combatants a and b (the setup holds
 * exactly these two, on different sides, adjacent, both aware), as
 * include/fray/duel.h says of fray_duel_odds: lengths in rounds,
 * phase_limit the round limit. Models the melee basic attack with the
 * weapon in hand, and what default and aggressive tactics do in a duel
 * (second wind, action points); refuses the rest with FRAY_ERR_INVALID
 * "not modelled: ...". max_states 0: FRAY_DUEL_MAX_STATES;
 * FRAY_ERR_TOO_LARGE past it. Memory through the setup's allocator, freed
 * before returning. Reads the setup only: thread-safe. */
fray_status fa_duel_odds(const fa_setup *s, int a, int b, long max_states,
                         struct fray_duel_odds *out, fray_diag *diag);
/* fa_duel_odds, and the same odds as exact fractions (include/fray/duel.h
 * fray_duel_exact): no cut-off, to the round limit; at most max_states
 * states (0: FRAY_DUEL_EXACT_MAX_STATES). */
struct fray_duel_exact;
fray_status fa_duel_exact(const fa_setup *s, int a, int b, long max_states,
                          struct fray_duel_odds *out,
                          struct fray_duel_exact *exact, fray_diag *diag);
/* An upper bound on fa_duel_odds' states, without building the chain. */
fray_status fa_duel_estimate(const fa_setup *s, int a, int b,
                             double *out_states, fray_diag *diag);
/* Stat block name_a of path_a against name_b of path_b (NULL: the file's
 * only block), side by side on an open map, tactics by name ("default",
 * "aggressive", "cautious"; NULL: the block's own). *out is an fa_setup
 * made through alloc, freed with fa_setup_free. Errors: fa_load's,
 * FRAY_ERR_INVALID (no such block, several and none named, unknown
 * tactics), FRAY_ERR_NOMEM. */
fray_status fa_duel_setup(const char *path_a, const char *name_a,
                          const char *path_b, const char *name_b,
                          const char *tactics_a, const char *tactics_b,
                          const fray_allocator *alloc, void **out,
                          fray_diag *diag);

/* ---- Skills, death saves, joining (skills.c, added by alloy-skills) -------------- */

/* The action type of FA_CMD_SKILL (standard, or move with FA_SKILL_AS_MOVE). */
fa_action_type fa_skill_action_type(const fa_command *cmd);
/* true for FA_CMD_AID aiding a check (option >= FA_AID_CHECK). */
bool fa_aid_is_check(const fa_command *cmd);
/* The rules of FA_CMD_FEINT, FA_CMD_SKILL and an aid on a check (act.c's
 * check_action calls it for them): FRAY_ERR_INVALID with why. */
fray_status fa_skill_check_cmd(const fa_setup *s, const fa_state *st,
                               const fa_command *cmd, char *why, size_t why_size);
/* Applies them (the action is paid for; act.c has provoked when it does). */
fray_status fa_skill_apply(fa_run *r, const fa_command *cmd);
/* true when the command provokes from threatening enemies (Use a Skill,
 * option skill_provokes). */
bool fa_skill_provokes(const fa_setup *s, const fa_command *cmd);
/* A skill check of who: d20 + the block's skill + aid on that skill (the
 * aid is used up) against dc (0: none); FA_FACT_SKILL told; the success. */
bool fa_skill_roll(fa_run *r, int who, int skill, int target, int dc);
/* The aid bonus on who's next check of skill, used up (FA_C_AID_CHECK). */
int fa_skill_aid_take(fa_run *r, int who, int skill);
/* The same, only looked at. */
int fa_skill_aid_peek(const fa_cstate *c, int skill);
/* End of a dying combatant's turn with option dying: death-saves: the
 * death save (three failures: dead; a 20: a surge's hit points and it
 * wakes). */
fray_status fa_death_save(fa_run *r, int who);
/* The start of round st->round: those whose joins is that round roll
 * initiative and enter the order (004:241). */
fray_status fa_join_round(fa_run *r);
/* true when some combatant of `side` in the battle, not out and not
 * Blinded, has line of sight to who, and who is not wholly in the dark. */
bool fa_side_sees(const fa_setup *s, const fa_state *st, int side, int who);
/* After every command (act.c fa_apply): each side that sees a combatant
 * now knows its square (fa_cstate.seen). */
void fa_seen_update(fa_run *r);
/* The square who's side takes target to be in for an attack with total
 * concealment: the command's guess, else where its side last saw it. */
fray_pos fa_guess_of(const fa_run *r, int who, int target);

/* ---- Shortcut (quick.c) ------------------------------------------------------------ */

/* A simulation's shortcut (docs/architecture.md "Shortcuts"): a setup
 * that qualifies (fa_quick_plan's whitelist) runs each trial through a
 * tight loop that does exactly what the engine does -- the same dice from
 * the same trial stream in the same order, the same tactics' choices, the
 * same final state and counts -- held to the long way trial by trial by
 * tests/unit/test_alloy_quick.c. The class: a duel of two combatants on
 * two sides, both aware, adjacent on open ground (no wall, window, edge,
 * elevation, obscured or dark square between or under them), Medium, a
 * melee weapon in hand (no area, autofire or magazine), no powers,
 * default or aggressive tactics, every option at its default: each turn
 * is a melee basic attack on the other -- or, with default tactics,
 * heroic surges and hit points at half or less, once a fight, second
 * wind (004:673-681) -- then, with an action point left, one more attack
 * when the other is low (one hit's maximum can drop it; aggressive:
 * always; 004:291), then the end of the turn. */
typedef struct fa_quick {
    bool ok;                   /* the setup qualifies */
    int8_t side[2];
    int8_t init_mod[2];
    int8_t crit_min[2];        /* a natural die at least this that would hit is a crit */
    int16_t hp[2];             /* maximum (and starting) hit points */
    int16_t dead_at[2];        /* dead at hp <= this: -(max / 2) (004:211) */
    int16_t bonus[2];          /* attack bonus of i (Str + the block's + proficiency) */
    int16_t def[2];            /* the Defense i attacks (the other's) */
    int16_t dmg[2];            /* damage bonus of i (Str) */
    int16_t dmg_max[2];        /* the weapon dice's maximum + dmg (a crit, 004:181) */
    fa_dice w[2], crit[2];     /* weapon dice and crit dice of i */
    uint32_t w_thr[2], crit_thr[2];  /* fray_rng_below's rejection thresholds */
    int round_limit;           /* the engine's: the setup's, 100 when 0 */
    bool wind[2];              /* default tactics with heroic surges: second wind once bloodied */
    int16_t bloodied[2];       /* hp at or below which it is bloodied: max / 2 */
    int16_t heal[2];           /* a surge's hit points (the block's, else max / 4) */
    bool aggressive[2];        /* aggressive tactics: an action point whenever it can attack */
    fa_state fresh;            /* fa_state_init's state (its stream aside), copied per trial */
} fa_quick;

/* The whitelist, checked once per setup: true and *out filled when s
 * qualifies; else false with the first reason in why (rules words; why
 * may be NULL). Anything not on the whitelist -- an option off its
 * default, a map feature, a power, a new field (quick.c's size checks) --
 * means the long way. */
bool fa_quick_plan(const fa_setup *s, fa_quick *out, char *why, size_t why_size);
/* The begin event of a qualifying setup (initiative with its tie dice,
 * round 1): the state fa_state_init + fa_begin leave, field for field. */
fray_status fa_quick_begin(const fa_setup *s, const fa_quick *q, fa_state *st,
                           uint64_t seed, uint64_t trial);
/* What the counts of a fight need from a quick run (alloy.c's fa_fight). */
typedef struct fa_quick_counts {
    int32_t dealt[2], taken[2], actions[2];
    int32_t attacks[2], end_turns[2];   /* FA_CMD_ATTACK, FA_CMD_END_TURN events */
    int32_t winds[2];          /* FA_CMD_SECOND_WIND events */
    int32_t aps[2];            /* FA_CMD_SPEND_AP events (each followed by an ATTACK) */
    int32_t n_events;          /* events the long way applies after the begin event */
    bool stopped;              /* stopped before the round past `until` */
} fa_quick_counts;
/* Runs the fight from the state fa_quick_begin (or fa_begin) left to its
 * end: the fall of one, the round limit (over, no winner), or the round
 * after `until` (> 0; stopped, not over, the state as the last round
 * ended). FRAY_ERR_CANCELED when cancel is set (checked every 256 rounds). */
fray_status fa_quick_run(const fa_setup *s, const fa_quick *q, fa_state *st,
                         int until, const void *cancel, fa_quick_counts *out);
/* (alloy.c) For the tests: a simulation fight's verdict, and the switch
 * that makes it go the long way on a qualifying setup. */
bool fa_quick_eligible(const void *rfight);
void fa_quick_set_off(void *rfight, bool off);


/* view.c: the fight as data (include/fray/view.h) for the ruleset's
 * `view` hook (alloy.c): whose turn it is (turn, -1 none) and the rest
 * from the state, nothing changed. */
struct fray_fight_view;
fray_status fa_view(const fa_setup *s, const fa_state *st, int turn,
                    struct fray_fight_view *v);

/* fa_load adding every file it read to files (yaml_read.h; NULL: none),
 * for the layer's fray_setup_file_path (issue 14). */
struct fray__files;
fray_status fa_load_files(const char *path, const fray_allocator *alloc,
                          fa_setup **out, struct fray__files *files,
                          fray_diag *diag);

/* Whom event e names (names.c; the layer's fray_event_names): named[k]
 * for every combatant its command, dice, choices and facts point at
 * (room for s->n); returns how many. */
int fa_event_names(const fa_setup *s, const fa_event *e, bool *named);

/* The reach of a's melee basic attack when it can strike now (act.c; 0:
 * it cannot), and the view's squares within it (view_reach.c; issue 14
 * "the map with tokens, reach"). */
int fa_strike_reach(const fa_setup *s, const fa_state *st, int a);
struct fray_view_combatant;
fray_status fa_view_reach(struct fray_fight_view *v, const fa_setup *s,
                          const fa_state *st, int a,
                          struct fray_view_combatant *o);
/* ---- At the table (issue 19: chances.c) ------------------------------------ */

struct fray_chances;
/* The chances hook of ruleset.h over a state: turn is whose turn it is
 * (-1 none); who acts (as if its turn came now when it is not). */
fray_status fa_chances(const fa_setup *s, const fa_state *st, int turn,
                       int who, const char *command, struct fray_chances *out,
                       int max, int *n, fray_diag *diag);

/* (issue 14) HP in words, as a player who may not see the numbers reads
 * them: "unhurt", "hurt", "bloodied" (half or less, 004's word), "out"
 * (view.c; the narration for a scope uses the same). */
const char *fa_hp_words(int hp, int max);
/* fa_narrate with hide[c] (room for every combatant; NULL: none) marking
 * the combatants whose HP, action points and items are told in words,
 * never as numbers (render.c; issue 14). */
size_t fa_narrate_hidden(const fa_setup *s, const fa_event *ev,
                         const bool *hide, char *buf, size_t size);
/* ---- The GM's overrides (issue 14: gm.c, added by alloygm) ------------------ */

typedef enum fa_gm_op {
    FA_GM_NONE, FA_GM_SET_HP, FA_GM_ADJUST_HP, FA_GM_COND_ON, FA_GM_COND_OFF,
    FA_GM_JOIN, FA_GM_FLEE, FA_GM_PLACE, FA_GM_OPS
} fa_gm_op;

struct fray__words;
/* "gm ..." at the table (parse.c hands it over after the word gm):
 *   gm set ID hp N | gm adjust ID hp +-N
 *   gm condition ID NAME [on|off] [until-removed|save-ends|end-of-turn|start-of-turn]
 *   gm join ID [X,Y] | gm flee ID | gm place ID X,Y
 * FRAY_ERR_PARSE with the token's column. */
fray_status fa_gm_parse(const fa_setup *s, const fa_state *st,
                        struct fray__words *lx, fa_command *cmd, fray_diag *diag);
/* The rules of an override (act.c fa_check): a bad id, a square off the
 * map or taken, a condition not had ...: FRAY_ERR_INVALID with why. */
fray_status fa_gm_check(const fa_setup *s, const fa_state *st,
                        const fa_command *cmd, char *why, size_t why_size);
/* Applies it (act.c fa_apply): hit points through damage.c's thresholds. */
fray_status fa_gm_apply(fa_run *r, const fa_command *cmd);
/* The journal's word of an op ("set-hp" ...), and back (-1 none). */
const char *fa_gm_word(int op);
int fa_gm_op_of(const char *word);
/* The narration: the command's header, and FA_FACT_GM's line. */
size_t fa_gm_describe(const fa_setup *s, const fa_command *c, char *buf, size_t size);
size_t fa_gm_fact_text(const fa_setup *s, const fa_fact *f, char *buf, size_t size);

/* (chances2, issue 19) The creatures an area attack of `who` (cmd, line
 * L) affects, as attack.c's attack_area picks them (at most
 * FA_MAX_COMBATANTS into targets), and the origin its modifiers are taken
 * from: FRAY_ERR_INVALID for a placement the rules refuse (attack.c). */
fray_status fa_area_targets(const fa_setup *s, const fa_state *st, int who,
                            const fa_command *cmd, const fa_attack_line *L,
                            int *targets, int *n, fray_pos *origin);
/* ---- Speed of the tactics (issue 16) ------------------------ */

/* The top-lefts [x0, x1] x [y0, y1] (inclusive; may reach off the map)
 * outside which no footprint of `side` is within `reach` of tf by either
 * diagonal rule (space.c): a scan for the squares within reach looks only
 * inside, fa_within still deciding each. */
void fa_within_box(fray_footprint tf, int side, int reach, int *x0, int *y0,
                   int *x1, int *y1);

/* One step of who's move from `from` to the neighbouring top-left `to`
 * the long way (act.c, as step_cost was worked out before issue 16's
 * speed work: a search of the squares about `from`): its cost with the
 * counted diagonals' parity, -1 when not allowed, -2 out of memory. For
 * the tests that hold the walk's steps to it. */
int fa_step_cost_long(const fa_setup *s, const fa_state *st, int who,
                      fray_footprint from, fray_pos to, int parity, bool squeeze);
/* The same step as the engine weighs it now (act.c step_cost: the step
 * alone); -2 out of memory (debug builds). */
int fa_step_cost(const fa_setup *s, const fa_state *st, int who,
                 fray_footprint from, fray_pos to, int parity, bool squeeze);

/* Fills s->steps (and, for a small map, s->line_effect and line_sight)
 * from s->map and sets has_steps (has_lines) (act.c): after the map is
 * made, and again whenever it changes. */
void fa_setup_steps(fa_setup *s);
enum { FA_LINES_MAX = 256 };
/* fray_grid_effect_fp / fray_grid_sight_fp of the setup's map, from its
 * table of lines for two single squares of a small map (space.c). */
bool fa_effect_fp(const fa_setup *s, fray_footprint a, fray_footprint b);
bool fa_sight_fp(const fa_setup *s, fray_footprint a, fray_footprint b);

/* Whether who flanks target with some ally (004:794-804; attack.c): as
 * the attack weighs it (the squares about the target, issue 16), and the
 * long way (fray_grid_flanks asked of every ally that can flank). */
bool fa_flanking(const fa_setup *s, const fa_state *st, int who, int target);
bool fa_flanking_long(const fa_setup *s, const fa_state *st, int who, int target);
/* (added by tablechances, issue 19; attack.c) The line of the roll of a
 * trip (FA_CMD_TRIP) or a grapple (FA_CMD_GRAPPLE) by who, as the engine
 * rolls it (unarmed, against Reflex; a grapple with Strength). */
fa_attack_line fa_special_line(const fa_setup *s, const fa_state *st, int who,
                               int kind);

/* (added by tablechances, issue 19; skills.c) The bonus of who's check
 * of skill as fa_skill_roll adds it (the aid not used up), and a feint's
 * number to beat (Will, or 10 + Notice: option feint-against). */
int fa_skill_check_bonus(const fa_setup *s, const fa_state *st, int who,
                         int skill);
int fa_feint_dc(const fa_setup *s, const fa_state *st, int who, int t);

/* (issue 16; attack.c) Whether fa_attack_mods would
 * find the attack possible (not out of range or reach, not behind total
 * cover), without working out its modifiers. */
bool fa_attack_possible(const fa_setup *s, const fa_state *st, int who, int target,
                        const fa_attack_line *line, fray_pos origin);
/* (issue 16; act.c) Whether fa_reach(who, 1) reaches
 * the neighbouring top-left `to` at cost 1 and may stop there (a shift's
 * one square), worked out from that step alone. */
bool fa_one_step_ok(const fa_setup *s, const fa_state *st, int who, fray_pos to);
/* (issue 16; act.c) Two reach maps say the same: the same start and size,
 * the same cost of every square, and for every square reached the same
 * parity, previous square and whether it may stop there. */
bool fa_reach_same(const fray_reach_map *a, const fray_reach_map *b);
/* (issue 19; attack.c) A bull rush's roll (Strength
 * against Fortitude, 004:509) as the engine makes it; the square its push
 * puts t on (false: no room); whether a basic attack with a slot is a
 * melee one; how many others aid ally's attack or defenses (at most four,
 * 004:430). (act.c) An escape's check (004:599): the bonus, the number to
 * beat, the skill and the grappler, as the engine rolls it; false when
 * who is held by nothing. (skills.c) How many others aid ally in any way,
 * as the aid on a check counts them. */
fa_attack_line fa_bull_rush_line(const fa_setup *s, const fa_state *st, int who);
bool fa_bull_rush_square(const fa_setup *s, const fa_state *st, int who, int t,
                         fray_pos asked, fray_pos *to);
bool fa_basic_melee(const fa_setup *s, const fa_state *st, int who, int target,
                    int slot);
int fa_aid_attack_sources(const fa_state *st, int who, int ally);
bool fa_escape_check(const fa_setup *s, const fa_state *st, int who, int option,
                     int *bonus, int *defense, int *skill, int *from);
int fa_aid_check_sources(const fa_state *st, int who, int ally);

/* (issue 19; attack.c) A disarm's roll (004:440): the basic attack with
 * the slot against Fortitude; false for an area weapon. */
bool fa_disarm_line(const fa_setup *s, const fa_state *st, int who, int t, int slot,
                    fa_attack_line *L);

/* (issue 16; turn.c) Keeps fa_state's turn_conds and n_delaying for the
 * condition k put on (delta +1) or taken off (-1) anyone: call it
 * wherever st->c[..].cond[] gains, replaces or loses an entry. */
void fa_cond_counted(fa_state *st, const fa_cond *k, int delta);

#endif

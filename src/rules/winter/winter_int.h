/*
 * winter_int.h - Silent Winter (seed 002) inside fray: its loaded files,
 * a fight's state, its events, and what each file provides
 * (docs/rules/silent-winter.md: the model and every ruling).
 *
 *   load.c    the files (weapons and armour, stat blocks, encounters),
 *             fray check, setup copy and sweeps (vary)
 *   rules.c   segments, declarations, pending actions, Engage and the
 *             engagement graph, attacks, Pain, Wounds and bleeding, the
 *             tactics
 *   tell.c    narration, JSON, journal read-back, summary, the segment
 *             track and the engagement graph drawn as text
 *   winter.c  the table of functions for the shared layer (ruleset.h)
 *
 * Nothing here is thread-safe for one fight; a setup is read-only once
 * loaded and may be shared by threads.
 */
#ifndef FRAY_WINTER_INT_H
#define FRAY_WINTER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/rng.h"
#include "track.h"

enum {
    SW_MAX_C = 16,          /* combatants in one encounter */
    SW_MAX_SIDES = 4,
    SW_MAX_WEAPONS = 32,    /* weapons and armour known to one encounter */
    SW_MAX_ARMOUR = 16,
    SW_MAX_SB = 32,         /* stat blocks */
    SW_NAME = 48,
    SW_EV_DICE = 192,       /* dice one event may roll */
    SW_EV_FACTS = 192,
    SW_CHECK_SIDES = 20,    /* the check die (option check-die: d20) */
    SW_MAX_SPELLS = 16,     /* spells known to one encounter (002:71) */
    SW_MAX_MAINT = 4,       /* spells one caster Maintains at once */
    SW_MAX_TALENTS = 16,    /* talents known to one encounter (002:37, 39) */
    SW_MAX_ITEMS = 16       /* items and skills with effects known to one encounter (ruling 35) */
};

/* A talent (002:19, 37, 39, 51, 69): it modifies an attack (or acts
 * without a roll), costs Pain, and brings one effect of a small
 * vocabulary (docs/rules/silent-winter.md 27). */
enum sw_talent_resolve { SW_TR_ATTACK, SW_TR_AUTOMATIC,
                         SW_TR_PASSIVE /* always at work, never declared (ruling 32) */ };
enum sw_talent_effect { SW_TE_STUN, SW_TE_PARALYZE, SW_TE_WOUND, SW_TE_BONUS,
                        SW_TE_ENGAGE_DELAY /* amount: the holder's Engage delay (002:19) */,
                        SW_TE_ROLL_BONUS /* passive: amount to the rolls in `rolls` (ruling 34) */,
                        SW_TE_ENGAGES /* amount: how many it may Engage at once (002:63; ruling 40) */,
                        SW_TE_SIEGE /* the Siege talent: siege weapons where the GM allows none (002:57) */,
                        SW_TE_DEFENSE /* passive: amount to Physical Defense, lost when Undefended (002:27; ruling 48) */ };
typedef struct sw_talent {
    char name[SW_NAME];
    uint8_t resolve;        /* sw_talent_resolve */
    uint8_t effect;         /* sw_talent_effect */
    uint8_t delay;          /* 0: the attack's delay (002:69) */
    uint8_t pain;           /* Pain spent (002:37), 0 to 9 */
    int8_t amount;          /* stun, paralyze: segments; bonus: to the attack roll */
    uint8_t rolls;          /* SW_TE_ROLL_BONUS: the rolls it adds to (bits of sw_roll) */
    bool area;              /* area: true: falls on the target's Engaged cluster, no roll (002:53; ruling 49) */
} sw_talent;

/* A spell (002:71-79): its kind, Magic cost, Maintain rating, delay and
 * one effect of a small vocabulary (docs/rules/silent-winter.md 24). */
enum sw_spell_kind { SW_SPELL_RANGED, SW_SPELL_PERSONAL, SW_SPELL_BENEFICIAL,
                     SW_SPELL_AREA /* no roll: the target's Engaged cluster (002:53) */ };
enum sw_spell_effect { SW_SPELL_DAMAGE, SW_SPELL_DEFENSE, SW_SPELL_HEAL,
                       SW_SPELL_STUN, SW_SPELL_PARALYZE, SW_SPELL_WOUND /* ruling 29 */,
                       SW_SPELL_ENCHANT /* Magical damage added to a weapon's hit (002:35; ruling 31) */,
                       SW_SPELL_BONUS_HEALTH, /* amount: bonus Health while Maintained (002:75; ruling 33) */
                       SW_SPELL_BONUS_PAIN,   /* amount: bonus Pain while Maintained (002:75; ruling 33) */
                       SW_SPELL_ANIMATE       /* an inanimate combatant joins while Maintained (002:75; ruling 36) */ };
typedef struct sw_spell {
    char name[SW_NAME];
    uint8_t kind;           /* sw_spell_kind */
    uint8_t effect;         /* sw_spell_effect */
    uint8_t delay;          /* 1 to 30 */
    uint8_t dice;           /* damage: dice d6 + bonus (+ spell power d6, 002:79) */
    int8_t bonus;
    int16_t cost, maintain; /* Magic */
    int16_t amount;         /* defense: the bonus; heal: Health */
} sw_spell;

/* An item or a skill with its effects from data (002:86-90; ruling 35):
 * each that is not 0 is done when it is used (effects.c). */
typedef struct sw_item {
    char name[SW_NAME];
    bool skill;             /* a skill (002:90: delay 15), else an item (2 or 4) */
    int16_t heal;           /* Health back, up to the stat block's */
    int16_t pain;           /* Pain back, up to the stat block's */
    bool stop_bleeding;     /* ends the bleeding (as Medicine, 002:88-89) */
    bool unstun;            /* ends Stunned and Paralyzed (002:98-99) */
} sw_item;

/* ---- Files ------------------------------------------------------------- */

typedef struct sw_weapon {
    char name[SW_NAME];
    bool ranged;            /* kind: ranged (else melee) */
    uint8_t dice;           /* damage: dice d6 + bonus */
    int8_t bonus;
    uint8_t delay;          /* 0: the option attack-delay */
    bool siege;             /* kind: siege (ranged, -10, 002:57) */
    bool area;              /* area: true: no roll, the target's Engaged
                               cluster (002:53; ruling 29) */
    uint8_t targets;        /* siege: how many of a cluster it may hit (0:
                               no limit; siege-spread: weapon, ruling 42) */
} sw_weapon;

enum sw_protects { SW_PROT_NONE, SW_PROT_PHYSICAL, SW_PROT_MAGICAL, SW_PROT_BOTH };

typedef struct sw_armour {
    char name[SW_NAME];
    uint8_t protects;       /* sw_protects */
} sw_armour;

/* A stat block: the smallest set of attributes seed 002 names
 * (docs/rules/silent-winter.md "Stat blocks"). */
typedef struct sw_block {
    char name[SW_NAME];
    int16_t agility, endurance;
    int16_t physical_attack, magic_attack;
    int16_t physical_defense;   /* the part kept when Undefended */
    int16_t defense_bonus;      /* skills and talents: lost when Undefended */
    int16_t magic_defense;
    int16_t physical_resistance, magic_resistance;
    int16_t health, pain, medicine;
    int8_t size;                /* engage slots taken on a target (1) */
    int8_t capacity;            /* engage slots on it (4) */
    int8_t weapon, off_hand;    /* weapon indexes; -1 none */
    int8_t armour;              /* armour index; -1 none */
    /* Switch Weapons (002:85), weapon bitmasks by catalog index: */
    uint32_t carried;           /* on its person: delay 2 */
    uint32_t nearby;            /* in the vicinity: delay 5 and a flat Agility roll */
    int16_t magic, spell_power; /* 002:71, 79 */
    uint32_t spells;            /* the spells it knows (bitmask by index) */
    uint32_t talents;           /* the talents it has (bitmask by index) */
    int16_t ride;               /* the Ride skill (002:61) */
    int16_t willfulness;        /* a mount's Willfulness (002:61) */
    uint32_t items;             /* items it carries (bitmask by index of sw_setup.it; ruling 35) */
    uint32_t skills;            /* skills with effects it has (likewise) */
} sw_block;

enum sw_tactics { SW_TAC_MELEE, SW_TAC_SNIPER, SW_TAC_KINDS };
enum sw_cover { SW_COVER_NONE, SW_COVER_PARTIAL, SW_COVER_FULL };
enum sw_ties { SW_TIES_DEFENDER, SW_TIES_ACTOR };

typedef struct sw_options {
    uint8_t engage_delay;     /* engage-delay: 3 (002:19) or 5 (002:15) */
    uint8_t attack_delay;     /* attack-delay: 3 */
    uint8_t ties;             /* ties: defender | actor */
    bool friendly_fire;       /* friendly-fire: on | off */
    bool sniping_at_end;      /* sniping-resolves: now | end */
    bool pain_on_any_hit;     /* pain-on-any-hit: no | yes */
    bool stop_bleeding;       /* stop-bleeding: roll | none */
    bool order_file;          /* order: agility | file */
    bool keep_fallen;         /* fallen-release: yes | no */
    bool busy_at_range;       /* undefended-busy: melee | all */
    bool blown_melee_only;    /* blown-undefended: all | melee */
    bool dropped_maint_lost;  /* dropped-maintain: back | lost (ruling 24) */
    bool siege_target_only;   /* siege-spread: cluster | none (ruling 25) */
    bool stun_add;            /* stun-stacking: longer | add (ruling 27) */
    bool talent_pain_on_hit;  /* talent-miss: spent | kept (ruling 27) */
    bool stun_keeps_pending;  /* stun-interrupts: yes | no (ruling 27) */
    bool stun_maint_roll;     /* stun-maintain: keep | roll (ruling 27) */
    bool fall_no_stun;        /* fall-stun: d6 | none (ruling 28) */
    bool mounted_bonus_actor; /* mounted-bonus: all | actor (ruling 28) */
    bool area_damage_each;    /* area-damage: once | each (ruling 29) */
    bool area_hits_full_cover; /* area-full-cover: spared | hit (ruling 29) */
    bool area_hits_attacker;  /* area-attacker: spared | hit (ruling 30) */
    bool area_talent_cluster; /* area-talent: target | cluster (ruling 30) */
    bool enchant_pain_each;   /* enchant-pain: one | each (ruling 31) */
    bool engage_talents_add;  /* engage-talents: shortest | add (ruling 32) */
    bool bonus_pain_roll;     /* bonus-pain-roll: no | yes (ruling 33) */
    bool talent_rolls_all;    /* talent-rolls: actor | all (ruling 34) */
    bool items_unlimited;     /* item-uses: once | unlimited (ruling 35) */
    bool multi_recip_room;    /* multi-reciprocal: free | room (ruling 40) */
    bool multi_switch_add;    /* multi-switch: replace | add (ruling 40) */
    bool siege_spread_weapon; /* siege-spread: weapon (ruling 42) */
    uint8_t mount_delay;      /* mount-delay: 5 (ruling 43; 0 in a zeroed
                                 struct reads as 5) */
    bool mount_roll;          /* mount-roll: none | ride (ruling 44) */
    bool tactics_cluster_weigh; /* tactics-cluster: ignore | weigh (ruling 47) */
    bool talent_defense_both; /* talent-defense: physical | both (ruling 48) */
} sw_options;

typedef struct sw_combatant {
    char id[SW_NAME], name[SW_NAME];
    int8_t side;
    uint8_t tactics;          /* sw_tactics */
    bool sniping;             /* begins Sniping (002:47) */
    uint8_t cover;            /* begins in cover */
    bool reciprocal;          /* takes a Reciprocal Engage (002:21) */
    sw_block b;               /* its stat block, resolved */
    int8_t mount;             /* the combatant it rides: index + 1; 0 none (002:59) */
    bool inanimate;           /* begins out of the fight, to be animated (002:75; ruling 36) */
    bool remount;             /* its tactics get back into the saddle (ruling 43) */
} sw_combatant;

/* An obstacle between some combatants only (002:25; ruling 46): who
 * stands on each side of it, and its own time to surmount. */
enum { SW_MAX_OBST = 8 };
typedef struct sw_obstacle {
    char name[SW_NAME];
    uint16_t a, b;          /* the combatants on each side of it (bit per combatant) */
    uint8_t time;           /* segments an attempt to surmount it takes (1 to 30) */
    bool roll;              /* an attempt needs a flat Agility roll */
} sw_obstacle;

typedef struct sw_setup {
    fray_allocator alloc;
    char name[96];
    bool has_seed;
    uint64_t seed;
    int32_t segment_limit;    /* 0: none */
    int8_t initiator;         /* 002:13: declares on segment 1 */
    uint8_t scene_cover;      /* the best cover the scene offers */
    bool scene_sniping, scene_avoid;
    sw_options opt;
    int n_sides;
    char side_name[SW_MAX_SIDES][SW_NAME];
    int n;
    sw_combatant c[SW_MAX_C];
    int n_weapons, n_armour;
    sw_weapon w[SW_MAX_WEAPONS];
    sw_armour a[SW_MAX_ARMOUR];
    /* for fray check of a stat-block or weapons file */
    int kind;                 /* sw_file_kind */
    int n_blocks;
    int n_spells;
    sw_spell sp[SW_MAX_SPELLS];
    /* An obstacle between the sides (002:25): 0 none, else the segments
     * an attempt to surmount it takes, the same for everyone */
    uint8_t obstacle;
    bool obstacle_roll;       /* an attempt needs a flat Agility roll */
    int n_talents;            /* talents (002:39; ruling 27) */
    sw_talent tl[SW_MAX_TALENTS];
    int8_t ridden_by[SW_MAX_C]; /* who rides combatant i: index + 1; 0 nobody (ruling 28) */
    bool any_mount;           /* someone rides (the rules' quick way past mounts) */
    int n_items;              /* items and skills with effects (ruling 35) */
    sw_item it[SW_MAX_ITEMS];
    bool scene_no_siege;      /* scene: siege: false: the GM allows no siege
                                 weapon but to the Siege talent (002:57; ruling 41) */
    int n_obstacles;          /* the scene's obstacles: list (002:25; ruling 46) */
    sw_obstacle ob[SW_MAX_OBST];
} sw_setup;

enum sw_file_kind { SW_FILE_ENCOUNTER, SW_FILE_STATBLOCKS, SW_FILE_CATALOG };

void sw_options_default(sw_options *o);
fray_status sw_load(const char *path, const fray_allocator *alloc,
                    sw_setup **out, fray_diag *diag);
fray_status sw_check_file(const char *path, fray_diag *diag);
void sw_setup_free(sw_setup *s);
fray_status sw_setup_copy(const sw_setup *s, const fray_allocator *alloc,
                          sw_setup **out);
fray_status sw_vary(sw_setup *s, const char *key, const char *value,
                    fray_diag *diag);
fray_status sw_vary_scope(const sw_setup *s, const char *key, char *buf,
                          size_t size, fray_diag *diag);
int sw_find_combatant(const sw_setup *s, const char *word);

/* ---- A fight's state ----------------------------------------------------- */

enum sw_flag {
    SW_F_WOUNDED = 1u << 0,
    SW_F_BLEEDING = 1u << 1,
    SW_F_UNCONSCIOUS = 1u << 2,
    SW_F_BLOWN = 1u << 3,
    SW_F_DEAD = 1u << 4,
    SW_F_SNIPING = 1u << 5,
    SW_F_WAITED = 1u << 6,    /* passed the segment decl_seg */
    SW_F_SURMOUNTED = 1u << 7 /* has surmounted the obstacle (002:25) */
};

/* What is waiting for the end of its delay (002:9: Engage and spells;
 * Sniping with sniping-resolves: end). */
enum sw_pending { SW_PEND_NONE, SW_PEND_ENGAGE, SW_PEND_SNIPE, SW_PEND_SPELL };

typedef struct sw_cstate {
    int16_t health, pain;
    int32_t ready;            /* the segment it may next declare on */
    int32_t decl_seg;         /* the last segment it declared (or waited) on */
    int32_t busy_until;       /* Undefended through this segment (002:83) */
    int32_t pend_at;          /* its pending action resolves at the end of this segment */
    int32_t pend_decl;        /* ... declared on this segment (Avoid, 002:23) */
    uint32_t chased;          /* snipers it has chased down (bit per combatant) */
    int8_t engages;           /* whom it engages; -1 nobody */
    int8_t pend_kind, pend_target;
    uint8_t cover;            /* sw_cover */
    uint8_t flags;            /* sw_flag */
    int8_t init_roll;         /* the opening d6 (0: the initiator) */
    int8_t hand;              /* the weapon in hand: 0 the stat block's, else
                                 catalog index + 1 (Switch Weapons, 002:85) */
    int8_t pend_spell;        /* the spell being cast (pend_kind SW_PEND_SPELL) */
    uint8_t n_maint;          /* spells it Maintains (002:73) */
    int8_t maint_spell[SW_MAX_MAINT], maint_target[SW_MAX_MAINT];
    int16_t magic;            /* Magic left (the Maintained part set aside) */
    int32_t stun_until;       /* Stunned through this segment (002:98; 0 never) */
    int32_t para_until;       /* Paralyzed through this segment (002:99) */
    bool unhorsed;            /* out of the saddle (fell, or the GM's dismount) */
    int16_t maint_left[SW_MAX_MAINT]; /* a Maintained bonus spell's points left (002:75) */
    uint32_t items_used;      /* its items used up (bit per sw_setup.it; ruling 35) */
    bool inanimate;           /* out of the fight until animated (ruling 36) */
    uint16_t eng_more;        /* whom else it engages (bit per combatant): a
                                 talent's engages: N (002:63; ruling 40);
                                 read through sw_eng */
    int32_t saddle_at;        /* back in the saddle at the end of this segment
                                 (0: not getting in; ruling 43) */
    uint8_t past;             /* the scene's obstacles: list it has surmounted
                                 (bit per obstacle; ruling 46) */
} sw_cstate;

typedef struct sw_state {
    int32_t seg;              /* the current segment (from 1) */
    bool started, over, stopped;
    int8_t winner;            /* a side; -1 none; -2 all out */
    int n;
    fray_rng rng;
    fray__track track;        /* who declares next: key the ready segment */
    sw_cstate c[SW_MAX_C];
    int32_t stun_max;         /* the latest segment anyone is Stunned through (0: none yet) */
    bool maintained;          /* someone has Maintained a spell in this fight: until then
                                 the loops over Maintained spells are skipped (issue 17) */
    int32_t engage_decl;      /* the last segment anyone declared an Engage (0: none yet;
                                 the tactics look for an Avoid only then, issue 17) */
} sw_state;

/* ---- Events -------------------------------------------------------------- */

enum sw_kind {
    SW_EV_BEGIN,
    SW_EV_NEXT,               /* the end of the segment (GM) */
    SW_EV_ENGAGE,             /* the first action kind (the sim's kind 0) */
    SW_EV_ATTACK,
    SW_EV_AVOID,
    SW_EV_SWITCH,
    SW_EV_DISENGAGE,
    SW_EV_CHASE,
    SW_EV_SNIPE,
    SW_EV_COVER,
    SW_EV_MEDICINE,
    SW_EV_WAIT,
    SW_EV_ITEM,               /* use an item (002:86-87): its effect the GM's */
    SW_EV_SKILL,              /* any other skill (002:90): likewise */
    SW_EV_WIELD,              /* Switch Weapons (002:85): arg the catalog index */
    SW_EV_CAST,               /* cast a spell (002:71-77): arg the spell */
    SW_EV_RELEASE,            /* release a Maintained spell (002:73): arg the spell */
    SW_EV_SURMOUNT,           /* surmount the obstacle (002:25) */
    SW_EV_TALENT,             /* an attack with a talent (ruling 27): arg the talent */
    SW_EV_DISMOUNT,           /* the GM takes a rider out of the saddle (ruling 28) */
    SW_EV_MOUNT,              /* get into the saddle (002:65; ruling 43) */
    SW_EV_RIDE,               /* a Ride check the GM asks for (002:61; ruling 45) */
    SW_EV_KINDS
};

typedef struct sw_die {
    uint8_t sides, value;
} sw_die;

enum sw_fact_kind {
    SW_FACT_INIT,      /* who, a: d6 (0 initiator), b: first segment */
    SW_FACT_DECLARE,   /* who, other, a: kind, b: ready again on */
    SW_FACT_ENGAGED,   /* who engages other now; a: 1 ok, 0 failed, b: why */
    SW_FACT_RECIP,     /* who reciprocally engages other */
    SW_FACT_CONTEST,   /* who vs other, a: who's total, b: other's, c: won; d: kind */
    SW_FACT_ATTACK,    /* who at other, a: attack total, b: defense total, c: hit, d: bits */
    SW_FACT_DAMAGE,    /* other hurt who: a rolled, b after resistance, c health left */
    SW_FACT_PAIN,      /* who: a pain left, b extra damage (negative Pain), c health left */
    SW_FACT_STATUS,    /* who, a: sw_status_word, b: on (1) or off (0) */
    SW_FACT_BLEED,     /* who, a: damage, c: health left */
    SW_FACT_SEGMENT,   /* a: the new segment */
    SW_FACT_END,       /* a: winner */
    SW_FACT_FRIENDLY,  /* who's miss at other may hit d (a: the die) */
    SW_FACT_WIELD,     /* who: a weapon index, b: 1 in hand now, 0 failed */
    SW_FACT_SPELL,     /* who's spell a at other: b sw_spell_fact, c: Magic left */
    SW_FACT_TALENT,    /* who uses talent a on other: b Pain left, c: 1 Pain spent */
    SW_FACT_AREA,      /* who's area weapon a falls on other (002:53; ruling 29) */
    SW_FACT_BONUS,     /* who's bonus from other's spell a: d 0 Health 1 Pain, b used, c left (002:75) */
    SW_FACT_EFFECT     /* other's item or skill a on who: b sw_effect_fact, c the track now (ruling 35) */
};

enum sw_spell_fact {
    SW_SF_EFFECT,      /* takes effect */
    SW_SF_INTERRUPTED, /* the casting is interrupted (002:77) */
    SW_SF_RELEASED,    /* released: its Maintain back (002:73) */
    SW_SF_DROPPED,     /* a failed Endurance roll ends its Maintaining (002:73) */
    SW_SF_FIZZLE,      /* no effect: the target is out, or not enough Magic */
    SW_SF_MAINTAINED,  /* is now Maintained */
    SW_SF_AREA,        /* an area spell falls on other (002:53) */
    SW_SF_USED_UP      /* its bonus used up: its Maintain back at once (002:75) */
};

enum sw_status_word {
    SW_ST_WINDED, SW_ST_BLOWN, SW_ST_WOUNDED, SW_ST_UNCONSCIOUS, SW_ST_DEAD,
    SW_ST_BLEEDING, SW_ST_SNIPING, SW_ST_PARTIAL, SW_ST_FULL, SW_ST_UNDEFENDED,
    SW_ST_AVOIDED, SW_ST_DISENGAGED, SW_ST_SWITCHED, SW_ST_CHASED,
    SW_ST_SURMOUNTED,
    SW_ST_STUNNED,     /* c: through this segment (002:98) */
    SW_ST_PARALYZED,   /* c: through this segment (002:99) */
    SW_ST_UNHORSED,    /* who falls from (or leaves) other's saddle (ruling 28) */
    SW_ST_ANIMATED,    /* who is animated by other's spell, or no longer (ruling 36) */
    SW_ST_WORDS
};

typedef struct sw_fact {
    uint8_t kind;
    int8_t who, other;
    int8_t d;
    int16_t a, b, c;
} sw_fact;

typedef struct sw_event {
    int32_t number;
    int32_t seg;
    uint8_t kind;             /* sw_kind */
    int8_t actor, target;
    uint8_t arg;              /* cover: the level */
    uint8_t given;            /* the dice were given by hand */
    uint8_t pad[3];
    uint16_t n_dice, n_facts;
    sw_die dice[SW_EV_DICE];
    sw_fact facts[SW_EV_FACTS];
} sw_event;

/* One application of a command: the state, the event being made, dice
 * given by hand or recorded (replay). */
typedef struct sw_run {
    const sw_setup *s;
    sw_state *st;
    sw_event *ev;
    bool facts;
    const int *given;         /* dice given by hand, in order */
    size_t n_given, used_given;
    const sw_event *replay;   /* a recorded event: its dice again */
    size_t replay_die;
    fray_status failed;
    int bad_sides;            /* a die given that is not a roll of this die */
    bool fell;                /* someone dropped out: is the fight over? */
    bool trusted;             /* the tactics' own command (sw_choose checked it) */
} sw_run;

const char *sw_kind_word(int kind);   /* "engage" */
const char *sw_kind_title(int kind);  /* "Engage" */
const char *sw_status_name(int w);    /* "Winded" */

void sw_state_init(const sw_setup *s, sw_state *st, uint64_t seed,
                   uint64_t trial);
fray_status sw_begin(sw_run *r);
/* Why the command cannot be taken now (rules words into why), FRAY_OK
 * when it can. */
fray_status sw_check(const sw_setup *s, const sw_state *st,
                     const sw_event *cmd, char *why, size_t size);
fray_status sw_apply(sw_run *r);
/* Who declares next on this segment (-1: nobody: the segment ends). */
int sw_actor(const sw_setup *s, const sw_state *st);
/* The tactics' command for whoever acts now (NEXT when nobody). */
void sw_choose(const sw_setup *s, const sw_state *st, sw_event *cmd);
bool sw_can_act(const sw_cstate *c);
bool sw_out(const sw_cstate *c);
/* The weapon in i's hand (the stat block's, or one switched to). */
const sw_weapon *sw_hand(const sw_setup *s, const sw_state *st, int i);
int sw_hand_index(const sw_setup *s, const sw_state *st, int i);
bool sw_undefended(const sw_setup *s, const sw_state *st, int who, int by,
                   bool ranged);
int sw_quiet_segments(const sw_setup *s, const sw_state *st);
int sw_delay_of(const sw_setup *s, const sw_state *st, int kind, int actor,
                int target);

/* winter.c, for tests: a fight's state and setup (fray__fight_rf) */
sw_state *sw_fight_state(void *rfight);
/* The simulation's shortcut for a melee duel off (true) or on. */
void sw_quick_set_off(void *rfight, bool off);
bool sw_quick_eligible(const void *rfight);
const sw_setup *sw_fight_setup(const void *rfight);

/* odds.c: the exact duel (include/fray/duel.h) */
struct fray_duel_odds;
fray_status sw_duel_odds(const sw_setup *s, int a, int b, long max_states,
                         struct fray_duel_odds *out, fray_diag *diag);
fray_status sw_duel_estimate(const sw_setup *s, int a, int b, double *out_states,
                             fray_diag *diag);

/* view.c: the fight as data (include/fray/view.h) */
struct fray_fight_view;
fray_status sw_view(const sw_setup *s, const sw_state *st, int turn,
                    struct fray_fight_view *v);

/* tell.c */
size_t sw_narrate(const sw_setup *s, const sw_event *ev, char *buf, size_t size);
size_t sw_event_json(const sw_setup *s, const sw_event *ev, char *buf,
                     size_t size);
fray_status sw_event_from_json(const sw_setup *s, const void *json,
                               sw_event *ev, char *field, size_t fsize,
                               char *why, size_t wsize);
fray_status sw_parse(const sw_setup *s, const sw_state *st, const char *text,
                     sw_event *cmd, fray_diag *diag);
size_t sw_summary(const sw_setup *s, const sw_state *st, char *buf, size_t size);
size_t sw_draw_time(const sw_setup *s, const sw_state *st, char *buf,
                    size_t size);
size_t sw_draw_graph(const sw_setup *s, const sw_state *st, char *buf,
                     size_t size);

/* chances.c: the exact chances of a declaration now (issue 19;
 * include/fray/chances.h, the ruleset's `chances` hook) */
struct fray_chances;
fray_status sw_chances(const sw_setup *s, const sw_state *st, int who,
                       const char *command, struct fray_chances *out, int max,
                       int *n, fray_diag *diag);
/* (issue 14) Pain in words, as a player who may not see the numbers reads
 * it: "fresh", "tiring", "winded" (0 or less), "blown" (view.c; the
 * narration for a scope uses the same). */
const char *sw_pain_words(int pain, int max, bool blown);
/* sw_narrate with hide[c] (room for every combatant; NULL: none) marking
 * the combatants whose Health and Pain are told in words, never as
 * numbers (tell.c; issue 14). */
size_t sw_narrate_hidden(const sw_setup *s, const sw_event *ev,
                         const bool *hide, char *buf, size_t size);

/* An attack's terms as the rules take them (rules.c attack; chances.c
 * counts with the same): the weapon in hand, its modifiers (siege -10,
 * two weapons -5, Sniping -5, a ranged attack on Partial Cover -5), the
 * target's defence (Physical Defense and Maintained spells' defense, plus
 * Agility and the defence bonus unless Undefended). */
typedef struct sw_attack_terms_t {
    const sw_weapon *w;
    bool ranged, two, siege, sniping, partial_cover, undefended;
    int atk, def, spell_defense;
    int talent_defense;     /* the target's passive defense talents (002:27; ruling 48) */
} sw_attack_terms_t;
void sw_attack_terms(const sw_setup *s, const sw_state *st, int a, int t,
                     sw_attack_terms_t *out);

/* rules.c: Stunned and Paralyzed (002:98-99), derived from the
 * segment they last through. */
bool sw_stunned(const sw_state *st, int i);
bool sw_paralyzed(const sw_state *st, int i);
/* Mounted combat (002:59-67; ruling 28): the mount r rides now (-1: not
 * mounted), the rider on m now (-1), and the target an Engage on i falls
 * on (the rider for a ridden mount: one target, 002:63). */
int sw_mount_of(const sw_setup *s, const sw_state *st, int r);
int sw_rider_of(const sw_setup *s, const sw_state *st, int m);
int sw_unit(const sw_setup *s, const sw_state *st, int i);
/* +5 to a mounted combatant's roll of moving around (002:67; ruling 28:
 * mounted-bonus), as the one moving (actor) or opposing it. */
int sw_moving_bonus(const sw_setup *s, const sw_state *st, int i, bool actor);

/* ---- bonus.c: spells that grant bonus Health or Pain (002:75; ruling 33) -- */

enum sw_bonus_which { SW_BONUS_HEALTH, SW_BONUS_PAIN };
/* Is this spell effect a bonus of Health or Pain? */
bool sw_bonus_effect(int effect);
/* The bonus points t has now from Maintained spells (which: sw_bonus_which). */
int sw_bonus_left(const sw_setup *s, const sw_state *st, int t, int which);
/* `amount` points of Health or Pain lost by t: its bonus points used up
 * first (in the order of the casters, then of their Maintained spells); a
 * bonus used up ends its spell and gives its caster the Maintain back at
 * once (002:75). Returns the points left for the regular track. */
int sw_bonus_take(sw_run *r, int t, int which, int amount);
/* rules.c, for bonus.c: a fact of the event, and i's k-th Maintained
 * spell ended (why: sw_spell_fact) with its Maintain back as the rules say. */
void sw_fact_put(sw_run *r, int kind, int who, int other, int a, int b, int c, int d);
void sw_maint_end(sw_run *r, int i, int k, int why);
/* i may next declare on segment `seg` (rules.c: the time track kept). */
void sw_ready_at(sw_run *r, int i, int32_t seg);

/* bonus.c: talents' bonuses to rolls other than the attack (ruling 34). */
enum sw_roll { SW_ROLL_AVOID, SW_ROLL_SWITCH, SW_ROLL_DISENGAGE, SW_ROLL_CHASE,
               SW_ROLL_ENDURANCE, SW_ROLLS };
const char *sw_roll_word(int roll);   /* "avoid" */
/* The roll a contest of this kind is (sw_kind: Avoid, Switch, ... the
 * Endurance rolls of casting, Maintaining and waking); -1: none here. */
int sw_roll_of_kind(int kind);
/* What i's passive talents add to its roll (actor: its own move; else
 * opposing another's, with talent-rolls: all). */
int sw_talent_roll(const sw_setup *s, int i, int roll, bool actor);

/* ---- effects.c: items' and skills' effects from data (002:86-90; ruling 35) */

enum sw_effect_fact { SW_EF_HEAL, SW_EF_PAIN, SW_EF_BLEEDING, SW_EF_UNSTUN, SW_EF_NONE };
/* An item or skill of the catalog by name (as the command gives it); -1. */
int sw_item_find(const sw_setup *s, const char *w, size_t n, bool skill);
/* Why a's use of entry k on t cannot be taken now (rules words), FRAY_OK. */
fray_status sw_item_check(const sw_setup *s, const sw_state *st, int a, int t, int k,
                          char *why, size_t size);
/* a uses entry k on t: its effects, the item used up (002:86-90). */
void sw_item_apply(sw_run *r, int a, int t, int k);
/* The tactics: an item or skill that pays now for a (not engaged): stop
 * an ally's bleeding, heal one below half its Health. */
bool sw_item_choice(const sw_setup *s, const sw_state *st, int a, sw_event *cmd);

/* bonus.c: spells that animate a creature (002:75; ruling 36). t rises
 * on a's spell; a Maintained animation ends (released, dropped, its
 * caster dead): the creature falls lifeless; the creature out of the
 * fight ("killed"): the spell ends, its Maintain back at once. */
void sw_animate_rise(sw_run *r, int a, int t);
void sw_animate_slot_ended(sw_run *r, int t, int spell, int why);
void sw_animate_fallen(sw_run *r, int t);
/* The tactics: a caster with an animate spell raises a lifeless one of its
 * side not being raised already, before anything else. */
bool sw_animate_choice(const sw_setup *s, const sw_state *st, int a, sw_event *cmd);
/* rules.c, for bonus.c: one out of the fight off the track and its edges. */
void sw_fall(sw_run *r, int t);
/* ---- engage.c: talents that engage several at once (002:63; ruling 40) ---
 * A combatant engages its first target (`engages`) and, with a passive
 * talent's `engages: N`, up to N - 1 more (`eng_more`); every rule that
 * reads who engages whom asks sw_eng. */
bool sw_eng(const sw_state *st, int a, int b);
int sw_eng_count(const sw_state *st, int a);
/* How many a may engage at once: 1, or its talents' largest engages: N. */
int sw_eng_room(const sw_setup *s, int a);
/* a engages b too (the first edge if it had none). */
void sw_eng_add(sw_state *st, int a, int b);
/* a lets b go; the next of its targets (lowest index) becomes its first. */
void sw_eng_drop(sw_state *st, int a, int b);
void sw_eng_clear(sw_state *st, int a);
/* The tactics of a multi-engager with room: Engage a foe that engages it
 * unanswered (cmd set and true), else false. */
bool sw_eng_tactics(const sw_setup *s, const sw_state *st, int a, sw_event *cmd);

/* ---- siege.c: siege weapons and the Siege talent (002:57; rulings 41, 42) */
bool sw_siege_talent(const sw_setup *s, int a);
/* May a use a siege weapon here: the scene allows them (the GM's
 * discretion) or a has the Siege talent. */
bool sw_siege_allowed(const sw_setup *s, int a);
/* How many of the target's cluster (others of them) a siege weapon's
 * spread draws: 0 all of them (ruling 25), else the weapon's targets - 1
 * (siege-spread: weapon, ruling 42). */
int sw_siege_draws(const sw_setup *s, const sw_weapon *w, int others);

/* ---- engage.c: getting into the saddle (002:65; rulings 43-45) ---------- */
int sw_mount_delay(const sw_setup *s);
/* Why a may not get into the saddle of t (-1: its own mount) now. */
fray_status sw_saddle_check(const sw_setup *s, const sw_state *st, int a, int t,
                            char *why, size_t size);
/* The end of a segment: those whose getting into the saddle ends now (a
 * flat Ride roll with mount-roll: ride). */
void sw_saddle_end(sw_run *r);
/* The tactics: a rider out of the saddle, engaged with or by nobody, gets
 * back into it. */
bool sw_saddle_tactics(const sw_setup *s, const sw_state *st, int a, sw_event *cmd);
/* A Stun on t (ruling 27's stun-interrupts: yes) ends its getting into
 * the saddle. */
void sw_saddle_stunned(sw_run *r, int t);
/* ---- engage.c: obstacles between some combatants (002:25; ruling 46) --- */
/* The first obstacle of the scene's list between a and t that neither has
 * surmounted; -1 none. */
int sw_obstacle_between(const sw_setup *s, const sw_state *st, int a, int t);
/* Why a may not try to surmount obstacle k now. */
fray_status sw_surmount_check(const sw_setup *s, const sw_state *st, int a, int k,
                              char *why, size_t size);
void sw_surmount(sw_run *r, int a, int k);
/* The tactics: an obstacle between a and every foe it could Engage. */
bool sw_obstacle_tactics(const sw_setup *s, const sw_state *st, int a, sw_event *cmd);
int sw_find_obstacle(const sw_setup *s, const char *name, size_t len);

/* rules.c, for engage.c: a roll of who's value against other's (other -1:
 * a bare d20), as the rules make them (facts: sw_fact_put). */
bool sw_contest(sw_run *r, int who, int other, int mine, int theirs, int what);


/* ---- tactics2.c: the tactics' additions (issue 17; ruling 47) ---------- */
/* rules.c: the Engaged cluster an area effect falls on (002:51, 53): t
 * first, then everyone engaged with or by it, not the dead; its size. */
int sw_area_cluster(const sw_state *st, int t, int *list);
/* May a's weapon in hand be aimed at t by the tactics: not an area
 * weapon's cluster (002:53) or a siege weapon's spread (002:57) holding
 * more of a's side than of its foes (tactics-cluster: weigh). */
bool sw_tac_cluster_ok(const sw_setup *s, const sw_state *st, int a, int t);
/* The one a melee attacker strikes: of the targets it engages (several
 * with ruling 40's talents), the one with the least Health (the rider or
 * its mount, 002:63) whose cluster may be struck; -1 none. */
int sw_tac_melee_target(const sw_setup *s, const sw_state *st, int a);


/* ---- defense.c: talents on a defence (002:27, 69; ruling 48) ----------- */
/* What t's passive talents (`defense: N`) add to its Physical Defense, as
 * its stat block's defense bonus (lost when Undefended, 002:27). */
int sw_talent_defense(const sw_setup *s, int t);
/* ... to its Magic Defense: the same with talent-defense: both, else 0. */
int sw_talent_magic_defense(const sw_setup *s, int t);


/* ---- tactics2.c: area talents (002:53; ruling 49) ----------------------- */
/* May the tactics use a's talent k on t: not an area talent whose effect
 * would fall on one of a's own side in t's cluster. */
bool sw_tac_area_talent_ok(const sw_setup *s, const sw_state *st, int a, int t, int k);

#endif

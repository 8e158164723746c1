/*
 * towers_int.h - the 99 Towers encounter engine's shared layout (seed 000).
 * Internal to libfray: the public API is include/fray/encounter.h.
 *
 * Three layers (docs/architecture.md "Encounters"):
 *   ft_setup  - what the files say: catalog, stat blocks, combatants, map,
 *               options. Loaded once (load.c), never changed by a fight.
 *   ft_state  - one flat struct with everything a fight changes: STUN,
 *               LETHAL, places on the clock and the map, conditions,
 *               decks, chips, the random stream. No pointers, so it is
 *               reset from the setup with a copy and compared with memcmp.
 *   ft_event  - one step of the fight: the command that caused it, every
 *               card turned over and every choice made while applying it,
 *               and the facts it produced (for narration and JSON Lines).
 *               Applying the same command with the same cards and choices
 *               to the same state gives the same result: replay and undo
 *               are built on that.
 *
 * Module map (all in src/rules/towers/):
 *   load.c     YAML/JSON files -> ft_setup (libfyaml)          ft_load_*
 *   engine.c   clock, initiative, actions, the event loop       ft_*
 *   attack.c   attack modifiers, attack resolution              ft_attack_*
 *   harm.c     damage, healing, status, conditions              ft_harm_*, ft_cond_*
 *   fate.c     flips through the event (cards in, choices in),
 *              Hand of Fate and chips                           ft_flip*, ft_fate_*
 *   policy.c   tactics policies (fray fight, fray sim)          ft_policy_*
 *   render.c   narration, JSON Lines, clock and map drawings    ft_render_*
 *   fight.c    the public API (encounter.h) over all of it
 */
#ifndef FRAY_TOWERS_INT_H
#define FRAY_TOWERS_INT_H

#include "fray/cards.h"
#include "fray/flip.h"
#include "fray/grid.h"
#include "fray/rng.h"
#include "fray/sim.h"
#include "fray/towers.h"

#include "cards_int.h"
#include "grid_int.h"
#include "internal.h"
#include "cond.h"
#include "track.h"

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/* ---- Sizes (fixed: no allocation while a fight runs) -------------------- */
enum {
    FT_NAME = 32,            /* names, including the NUL */
    FT_MAX_COMBATANTS = 32,
    FT_MAX_SIDES = 4,
    FT_MAX_WEAPONS = 4,      /* weapons a combatant carries */
    FT_MAX_SKILLS = 16,
    FT_MAX_SPECS = 4,        /* specializations per skill */
    FT_MAX_ADVANTAGES = 12,
    FT_MAX_CATALOG = 64,     /* weapons + armor in the catalog */
    FT_MAX_TEMPLATES = 32,   /* stat blocks */
    FT_MAX_CONDITIONS = 13,  /* conditions on one combatant at once: one of each kind */
    FT_MAX_DECKS = FT_MAX_COMBATANTS + 1,
    FT_HAND_MAX = 5,         /* Hand of Fate cards held at most */
    FT_EVENT_CHOICES = 24,
    /* Cards the tie flip-offs of the begin event may turn over (engine.c
     * begin: a group of 32 tied combatants needs about 80; when this runs
     * out, which it never does in practice, the rest stay tied and keep
     * their listing order). */
    FT_TIE_CARDS = 256,
    /* Cards one event may turn over, sized from the largest the begin
     * event can need: every deck's Hand of Fate, every combatant's
     * initiative flip of at most a whole deck, a card for every choice,
     * and the tie flip-offs (issue 11: 24 knights with [N] 3 needed more
     * than the 128 of old). */
    FT_EVENT_CARDS = FT_MAX_DECKS * FT_HAND_MAX +
                     FT_MAX_COMBATANTS * FRAY_CARDS_MAX +
                     FT_EVENT_CHOICES + FT_TIE_CARDS,
    /* Facts one event may record, sized from the begin event: per
     * combatant its initiative flip and its initiative, a flip and a fact
     * for every choice, and one flip per tie flip-off card (issue 11: 48
     * left 8 of 32 initiatives untold). */
    FT_EVENT_FACTS = 2 * FT_MAX_COMBATANTS + 2 * FT_EVENT_CHOICES + FT_TIE_CARDS,
    FT_MANA_ELEMENTS = 7
};

/* ---- Closed vocabularies (X-macro lists: enum, names, parsers) ---------- */

/* Aspects (rules-facts.md "Derived values"): code, name. */
#define FT_ASPECT_LIST(X)                                                      \
    X(HS, "HS", "Hard Strength")                                               \
    X(SS, "SS", "Soft Strength")                                               \
    X(EE, "EE", "External Endurance")                                          \
    X(IE, "IE", "Internal Endurance")                                          \
    X(SP, "SP", "Substantial Perception")                                      \
    X(IP, "IP", "Intangible Perception")                                       \
    X(AI, "AI", "Active Intellect")                                            \
    X(II, "II", "Intuitive Intellect")                                         \
    X(PC, "PC", "Presence")
typedef enum ft_aspect {
#define FT__E(id, code, name) FT_ASPECT_##id,
    FT_ASPECT_LIST(FT__E)
#undef FT__E
    FT_ASPECT_COUNT
} ft_aspect;

/* Combat Values (seed 000; rules-facts.md): key in files, rules name. */
#define FT_CV_LIST(X)                                                          \
    X(N, "N", "Initiative")                                                    \
    X(PA, "PA", "Physical Attack")                                             \
    X(PD, "PD", "Physical Defense")                                            \
    X(SA, "SA", "Spell Attack")                                                \
    X(ID, "ID", "Intangible Defense")                                          \
    X(PX, "PX", "Physical Damage")                                             \
    X(ER, "ER", "External Resilience")                                         \
    X(IR, "IR", "Internal Resilience")                                         \
    X(SPD, "SPD", "Speed")
typedef enum ft_cv {
#define FT__E(id, code, name) FT_CV_##id,
    FT_CV_LIST(FT__E)
#undef FT__E
    FT_CV_COUNT
} ft_cv;

/* Damage categories (seed 000 "STUN Damage"): which Resilience applies. */
typedef enum ft_category {
    FT_CAT_PHYSICAL, /* reduced by ER */
    FT_CAT_ARCANE,   /* reduced by IR */
    FT_CAT_NONE      /* no reduction */
} ft_category;

/* Damage types (seed 000 "Damage Types"): immunity / susceptibility. */
#define FT_DAMAGE_TYPE_LIST(X)                                                 \
    X(NONE, "none")                                                            \
    X(ACID, "acid")                                                            \
    X(COLD, "cold")                                                            \
    X(ELECTRICITY, "electricity")                                              \
    X(FIRE, "fire")                                                            \
    X(POISON, "poison")                                                        \
    X(PSYCHIC, "psychic")                                                      \
    X(LIGHT, "light")                                                          \
    X(DARK, "dark")
typedef enum ft_damage_type {
#define FT__E(id, name) FT_DMG_##id,
    FT_DAMAGE_TYPE_LIST(FT__E)
#undef FT__E
    FT_DAMAGE_TYPE_COUNT
} ft_damage_type;

/* Weapon keywords (rules-facts.md "Equipment"; seed 000). Keywords with no
 * rule in the engine are kept for display (Knight, Blade, ...). */
#define FT_KEYWORD_LIST(X)                                                     \
    X(TWO_HANDED, "Two-Handed")                                                \
    X(LARGE, "Large")                                                          \
    X(REACH, "Reach")                                                          \
    X(BLADE, "Blade")                                                          \
    X(KNIGHT, "Knight")                                                        \
    X(LIGHT, "Light")                                                          \
    X(THROWN, "Thrown")                                                        \
    X(FIREARM, "Firearm")                                                      \
    X(BLUNT, "Blunt")                                                          \
    X(UNARMED, "Unarmed")                                                      \
    X(IMPROVISED, "Improvised")                                                \
    X(PERCEPTION, "Perception")                                                \
    X(SHIELD, "Shield")                                                        \
    X(CRIT_BLEED, "Crit: Bleed")                                               \
    X(CRIT_PRONE, "Crit: Prone")                                               \
    X(CRIT_SLOWED, "Crit: Slowed")                                             \
    X(CRIT_STUN, "Crit: Stun")                                                 \
    X(KNOCKBACK, "Knockback")
typedef enum ft_keyword {
#define FT__E(id, name) FT_KW_##id,
    FT_KEYWORD_LIST(FT__E)
#undef FT__E
    FT_KEYWORD_COUNT
} ft_keyword;
#define FT_KW(k) (1u << FT_KW_##k)

/* Mana elements (rules-facts.md "Magic"). */
#define FT_ELEMENT_LIST(X)                                                     \
    X(NEUTRAL, "neutral") X(FIRE, "fire") X(EARTH, "earth") X(AIR, "air")      \
    X(WATER, "water") X(LIGHT, "light") X(DARK, "dark")
typedef enum ft_element {
#define FT__E(id, name) FT_ELEM_##id,
    FT_ELEMENT_LIST(FT__E)
#undef FT__E
    FT_ELEMENT_COUNT
} ft_element;

/*
 * Conditions (rules-facts.md "Conditions"; seed 000). id, name in files and
 * text, major?, has a value X?
 */
#define FT_CONDITION_LIST(X)                                                   \
    X(PRONE, "prone", false, false)                                            \
    X(BLEEDING, "bleeding", true, true)                                        \
    X(BURNING, "burning", false, true)                                         \
    X(DAZED, "dazed", false, false)                                            \
    X(ENTANGLED, "entangled", false, false)                                    \
    X(BLINDED, "blinded", true, false)                                         \
    X(DEAFENED, "deafened", false, false)                                      \
    X(SLOWED, "slowed", false, false)                                          \
    X(STUNNED, "stunned", true, false)                                         \
    X(FRIGHTENED, "frightened", false, false)                                  \
    X(CHARMED, "charmed", true, false)                                         \
    X(HELPLESS, "helpless", true, false)                                       \
    X(GRAPPLED, "grappled", false, false)
typedef enum ft_condition {
#define FT__E(id, name, major, has_x) FT_COND_##id,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
    FT_CONDITION_COUNT
} ft_condition;

/*
 * Actions (seed 000 "Action List"). id, name in commands and files, the
 * rules' name, phase cost (FT_COST_FREE, FT_COST_SPECIAL for Hold and
 * Use a Skill), flags.
 */
enum {
    FT_COST_FREE = -1,    /* free: any number in a turn, no clock move */
    FT_COST_SPECIAL = -2  /* Hold, Use a Skill: decided by the command */
};
enum {
    FT_AF_ATTACK_RELATED = 1u << 0, /* seed "Attack- and Move-Related Actions" */
    FT_AF_MOVE_RELATED = 1u << 1,
    FT_AF_PROVOKES = 1u << 2,       /* seed "Opportunity Attacks": in a threatened space */
    FT_AF_NO_SHIFT = 1u << 3,       /* cannot be combined with Shift Position */
    FT_AF_TARGET = 1u << 4,         /* needs a target combatant */
    FT_AF_DEST = 1u << 5,           /* needs a destination space */
    FT_AF_GM = 1u << 6              /* the GM's word (gm.c): no turn, no clock
                                       move, not counted as an action */
};
#define FT_ACTION_LIST(X)                                                                  \
    X(AID, "aid", "Aid", 3, FT_AF_TARGET)                                                  \
    X(AIM, "aim", "Aim", 5, 0)                                                             \
    X(ATTACK, "attack", "Attack", 5, FT_AF_ATTACK_RELATED | FT_AF_TARGET)                  \
    X(CAST, "cast", "Cast a Spell", 5, FT_AF_TARGET)                                       \
    X(CHARGE, "charge", "Charge", 8,                                                       \
      FT_AF_ATTACK_RELATED | FT_AF_MOVE_RELATED | FT_AF_TARGET | FT_AF_DEST)               \
    X(MOVE, "move", "Combat Move", 5, FT_AF_MOVE_RELATED | FT_AF_DEST)                     \
    X(CONCENTRATE, "concentrate", "Concentrate", 5, 0)                                     \
    X(CHIP_HEAL, "chip-heal", "Discard Chip to Heal", FT_COST_FREE, FT_AF_NO_SHIFT)        \
    X(DROP_OBJECT, "drop-object", "Drop Object", FT_COST_FREE, FT_AF_NO_SHIFT)             \
    X(DROP_PRONE, "drop-prone", "Drop Prone", 3, 0)                                        \
    X(DRAW_WEAPON, "draw-weapon", "Draw a Weapon", 6, 0)                                   \
    X(ESCAPE, "escape", "Escape", 5, 0)                                                    \
    X(DELAY, "delay", "Forced Delay", 5, FT_AF_NO_SHIFT)                                   \
    X(FULL_DEFENSE, "full-defense", "Full Defense", 10, 0)                                 \
    X(HOLD, "hold", "Hold", FT_COST_SPECIAL, FT_AF_NO_SHIFT)                               \
    X(GRAPPLE, "grapple", "Initiate Grapple", 5, FT_AF_TARGET)                             \
    X(INTERACT, "interact", "Interact with the Environment", 5, FT_AF_PROVOKES)            \
    X(INVENTORY, "inventory", "Interact with Inventory", 10, FT_AF_PROVOKES)               \
    X(PICK_UP, "pick-up", "Pick up an Object", 3, FT_AF_PROVOKES)                          \
    X(POWER_ATTACK, "power-attack", "Power Attack", 7, FT_AF_ATTACK_RELATED | FT_AF_TARGET) \
    X(RECKLESS_MOVE, "reckless-move", "Reckless Move", 7, FT_AF_MOVE_RELATED | FT_AF_DEST) \
    X(RECOVER, "recover", "Recover", 5, 0)                                                 \
    X(RELOAD, "reload", "Reload a Weapon", 5, FT_AF_PROVOKES)                              \
    X(RUNNING_LEAP, "running-leap", "Running Leap", 10, FT_AF_MOVE_RELATED | FT_AF_DEST)   \
    X(SHAKE, "shake", "Shake Minor Condition", 5, 0)                                       \
    X(SHIFT, "shift", "Shift Position", 3, FT_AF_NO_SHIFT | FT_AF_DEST)                    \
    X(SPEAK, "speak", "Speak", FT_COST_FREE, FT_AF_NO_SHIFT)                               \
    X(STAND, "stand", "Stand from Prone", 4, FT_AF_PROVOKES)                               \
    X(USE_SKILL, "use-skill", "Use a Skill", FT_COST_SPECIAL, 0)                           \
    X(USE_ITEM, "use-item", "Use an Item", 5, FT_AF_PROVOKES)                         \
    X(CONCEDE, "concede", "Concede", FT_COST_FREE, FT_AF_NO_SHIFT)                    \
    /* towers-companion: seed 000 "Marked Targets" (cost: option mark-cost) */        \
    X(MARK, "mark", "Mark", FT_COST_SPECIAL, FT_AF_NO_SHIFT)                               \
    /* issue 7 (talent.c): a talent that needs a choice. Before the \
     * GM's: engine.c tells those by place. */                             \
    X(TALENT, "talent", "Use a Talent", FT_COST_FREE, FT_AF_NO_SHIFT)                      \
    X(GM_SET, "gm-set", "The GM sets", FT_COST_FREE, FT_AF_GM)                             \
    X(GM_CONDITION, "gm-condition", "The GM's condition", FT_COST_FREE, FT_AF_GM)          \
    X(GM_JOIN, "gm-join", "The GM brings in", FT_COST_FREE, FT_AF_GM)                      \
    X(GM_FLEE, "gm-flee", "The GM takes out", FT_COST_FREE, FT_AF_GM)                      \
    X(GM_PLACE, "gm-place", "The GM places", FT_COST_FREE, FT_AF_GM)         \
    /* issue 7: the Hand of Fate exchange at the end of an encounter \
     * (rules-facts.md "Hand of Fate"; talent.c): no turn, no clock, not   \
     * an action, as the GM's words (gm.c hands it to talent.c), so last.  \
     * A player's word all the same: `knight exchange 9H`. */              \
    X(EXCHANGE, "exchange", "Hand of Fate exchange", FT_COST_FREE, FT_AF_GM)
typedef enum ft_action {
#define FT__E(id, name, text, cost, flags) FT_ACT_##id,
    FT_ACTION_LIST(FT__E)
#undef FT__E
    FT_ACTION_COUNT
} ft_action;

typedef struct ft_action_info {
    const char *name;  /* "power-attack" */
    const char *text;  /* "Power Attack" */
    int cost;          /* phases, FT_COST_FREE or FT_COST_SPECIAL */
    unsigned flags;
} ft_action_info;
extern const ft_action_info ft_actions[FT_ACTION_COUNT]; /* engine.c; const data */

/* ---- Options: every ruling of RULINGS.md plus fray's own choices -------- */
typedef enum ft_deck_mode {
    FT_DECKS_BY_CONTROLLER, /* RULINGS 2 default: one per player, one GM deck */
    FT_DECKS_ONE_FOR_TABLE,
    FT_DECKS_PER_COMBATANT
} ft_deck_mode;

typedef struct ft_options {
    fray_deck_options deck;    /* RULINGS 1: aces, jokers, joker-value */
    fray_flip_rules flip;      /* RULINGS 3: min-one-card */
    ft_deck_mode decks;        /* RULINGS 2 */
    int hand_of_fate;          /* cards in each Hand of Fate (rules-facts: 3) */
    bool flat_footed_loses_ss; /* RULINGS 10 (default true) */
    int full_defense_flip;     /* RULINGS 11: +1 card to PD/ID (default 1) */
    int opportunity_delay;     /* RULINGS 14: 3 phases */
    int mana_regen;            /* RULINGS 15: per zero phase, default 1 */
    bool dying_loses_lethal;   /* RULINGS 15/17: -1 LETHAL per zero phase */
    int dead_at_multiple;      /* RULINGS 16: dead at LETHAL <= -k*[[E]], k = 2 */
    bool disabled_unconscious; /* RULINGS 17: 0 LETHAL = unconscious */
    bool crit_needs_heart;     /* RULINGS 22: Crit keywords need a Heart (always true in the seed) */
    int recover_stun;          /* RULINGS 20: 0 = [[E]] (default) */
    bool grapple_size_cards;   /* RULINGS 21: size adds cards (true) or shifts (false) */
    int surprise_delay;        /* seed: 10 phases */
    int max_phase;             /* fight ends at this phase (0 = none) */
    bool simultaneous_duel;    /* seed "Dueling" stage four (off) */
    bool fresh_decks;          /* fray: every flip from a freshly shuffled deck (off) */
    uint8_t unconscious_bonus; /* seed 000 "STUN Damage": what attacks on the
                                  unconscious or Helpless get: FT_UB_* */
    int area_centre_shift;     /* seed 000 "Area of Effects": a defender at
                                  distance d < k from an area's centre gets
                                  (shift-(k-d)) on its defense flip (0: none) */
    bool area_line_from_caster;/* seed 000 "Line X": false (default) the line
                                  starts at the target square and goes on away
                                  from the attacker; true it starts beside the
                                  attacker and goes toward the target square */
    int mana_element_cap;      /* rules-facts "Magic": "at most 2 of one
                                  element": a combatant holds at most this
                                  many of one element (0: the stat block's
                                  pool alone, the default) */
    uint8_t duel_concede;      /* seed 000 "Dueling" stage two: FT_CONCEDE_*
                                  (default never; duel.c) */
    /* towers-companion */
    int mark_cost;             /* seed 000 "Marked Targets": phases a Mark
                                  takes; FT_COST_FREE (default) = free */
    uint8_t companion_alone;   /* seed 000 "Companions and Minions": where a
                                  companion whose master is down goes on
                                  the clock: FT_CA_* (default PAIR) */
    int throw_range;           /* seed 000 "Grappling" Throw: the maximum range
                                  in spaces; 0 = 2 x Hard Strength (grapple.c) */
    int level_feet;            /* feet per level of elevation for falls: 5 */
    int squeeze_flips;         /* cards of the damage flip of Squeeze and Slam: 1 */
    int pit_depth;             /* levels one falls into a pit (leap, knockback): 2 */
    uint8_t join_initiative;   /* gm.c, "gm join" by an Initiative flip:
                                  FT_JOIN_FROM_ENTRY (default) or
                                  FT_JOIN_AS_AT_START */
    /* Seed 000 "Action List", Stand from Prone: "The amount of time this
     * takes can be reduced by making a successful Acrobatics check" (fray's
     * numbers: talent.c ft_quick_stand). */
    int quick_stand_dtn;       /* the check's DTN (default 10; 0: no check) */
    int quick_stand_phases;    /* Stand's cost when it succeeds (default 2) */
    /* Talents' shifts and flips add up (default true); false: on each
     * flip only the best and the worst of each kind count, as advantages
     * (talent.c ft_talents_options). */
    bool talents_add_up;
    /* towers-tumble (tumble.c): seed 000 "Moving Through Spaces" and
     * "Creature Sizes". */
    uint8_t tumble_fail;       /* a failed Acrobatics flip: FT_TUMBLE_FAIL_*
                                  (default STOP) */
    bool tumble_provokes;      /* a tumbling move provokes opportunity
                                  attacks from the non-allies whose spaces
                                  it enters (default true) */
    bool tumble_untrained;     /* one without the skill Acrobatics tumbles
                                  with rank 0 and Soft Strength (false,
                                  the default: he cannot tumble) */
    bool share_end_one;        /* ending a move (or standing) in a shared
                                  space: sizes add up to 1 or less (true);
                                  less than 1 (false, the default) */
    /* issue 7: rules-facts.md "Hand of Fate": "At the end of a
     * combat encounter, each may discard one Hand of Fate card and replace
     * it with the top card of their own deck." The tactics exchange the
     * lowest held card worth less than this (talent.c
     * ft_exchange_choose); 0 (default): they do not, and a `fray fight`
     * run ends with the fight. */
    int fate_exchange_below;
    /* issue 7: companion rulings made options (seed 000 "Companions
     * and Minions"; companion.c, engine.c). pair_flat_footed: FT_PFF_BOTH
     * (default: the pair's action ends both one's flat-footedness) or
     * FT_PFF_ACTOR (only the one who acted); pair_second_move:
     * FT_PSM_ALWAYS (default: the second mover of `and` moves even if the
     * first went down) or FT_PSM_IF_FIRST_STANDS. */
    uint8_t pair_flat_footed;
    uint8_t pair_second_move;
    /* issue 7: FT_CI_NONE (default: the companion flips no
     * initiative, its place is its master's) or FT_CI_BETTER (it flips
     * too, and the pair acts at the better of the two: engine.c begin). */
    uint8_t companion_initiative;
} ft_options;
enum { FT_CI_NONE, FT_CI_BETTER };
enum { FT_PFF_BOTH, FT_PFF_ACTOR };
enum { FT_PSM_ALWAYS, FT_PSM_IF_FIRST_STANDS };

/* ft_options.tumble_fail (tumble.c). */
enum {
    FT_TUMBLE_FAIL_STOP = 0,   /* the move stops before the non-ally's space */
    FT_TUMBLE_FAIL_PRONE = 1   /* ... and the mover falls prone there */
};

/* Seed 000 "Dueling" (duel.c): what a duel is to (ft_setup.duel.to; 0: no
 * duel declared), when a duelist concedes by the option duel-concede, and
 * how a duel ended (ft_state.duel_end, the DUEL fact's v[0]). */
enum {
    FT_DUEL_NONE = 0,
    FT_DUEL_FIRST_BLOOD,
    FT_DUEL_INCAPACITATION,
    FT_DUEL_DEATH
};
enum {
    FT_CONCEDE_NEVER = 0,      /* only by the table command (default) */
    FT_CONCEDE_OUTMATCHED      /* when the other beat him by 5 or more in the Showdown */
};
enum {
    FT_DUEL_END_NONE = 0,
    FT_DUEL_END_FIRST_BLOOD,   /* who drew first blood on target */
    FT_DUEL_END_DRAW,          /* both wounded in one phase: dropped, no victor */
    FT_DUEL_END_CONCEDED,      /* who conceded to target */
    FT_DUEL_END_HELD           /* (not an end) damage on target held to the phase's end */
};

/* ft_options.companion_alone (towers-companion). */
enum {
    FT_CA_PAIR = 0,  /* the pair's place: the master's next phase */
    FT_CA_NEXT = 1   /* the phase after the one the master went down in */
};

/* Option join-initiative (gm.c): seed 000 "Entering Combat and
 * Initiative" places a combatant 20 - CI phases after the start; one the
 * GM brings in mid-fight acts 20 - CI phases after the phase it enters in
 * (entry, the default), or in phase 20 - CI as if it had flipped at the
 * start, but not before the phase it enters in (at-start). */
enum { FT_JOIN_FROM_ENTRY = 0, FT_JOIN_AS_AT_START = 1 };

/* Seed 000 "STUN Damage": "anyone who chooses to continue to attack you
 * will get bonuses to inflict LETHAL damage" (docs/rules/towers.md). */
enum {
    FT_UB_LETHAL = 1u << 0,  /* a hit's LETHAL is its whole STUN (default) */
    FT_UB_DEFENSE = 1u << 1  /* the defender flips 0 PD/ID ranks (fray before) */
};

void ft_options_default(ft_options *o);

/* ---- Setup: what the files say ------------------------------------------ */

/* A weapon profile (rules-facts.md "Equipment"): "Longblade | 1+PA | 4+PX |
 * - | $25 | 3 lbs. | Knight, Blade". */
typedef struct ft_weapon {
    char name[FT_NAME];
    int attack_bonus;      /* the 1 of "1+PA" (flip+1: one more card) */
    bool spell;            /* attack with SA against ID (else PA vs PD) */
    int damage;            /* the 4 of "4+PX" */
    bool adds_px;          /* "+PX" */
    ft_category category;  /* Physical unless said */
    ft_damage_type type;
    int range_increment;   /* 0 = melee */
    int max_range;         /* spells: maximum range only (no increments) */
    int shots;             /* 0 = needs no ammunition */
    int reach;             /* melee reach in spaces, 1 (2 with Reach) */
    int mana_cost;         /* spells */
    ft_element element;
    int cost_dollars;      /* display only */
    char weight[16];       /* display only: "3 lbs." */
    uint32_t keywords;     /* FT_KW(...) */
    /* Seed 000 "Areas" (area.c): FT_AREA_* (0 none: one target), its X,
     * and for an aura whether it takes in its source's own spaces. */
    uint8_t area;
    int8_t area_size;
    bool area_self;
    int knockback;         /* spaces a hit pushes the target (0 none) */
    bool has_strength_limit; /* improvised: damage adds at most strength_limit of PX */
    int strength_limit;
} ft_weapon;

/* Shapes of an area (seed 000 "Areas"; ft_weapon.area). */
#define FT_AREA_LIST(X)                                                        \
    X(NONE, "none", "")                                                        \
    X(BURST, "burst", "Burst")                                                 \
    X(AURA, "aura", "Aura")                                                    \
    X(CONE, "cone", "Cone")                                                    \
    X(LINE, "line", "Line")
typedef enum ft_area_shape {
#define FT__E(id, name, text) FT_AREA_##id,
    FT_AREA_LIST(FT__E)
#undef FT__E
    FT_AREA_COUNT
} ft_area_shape;

typedef struct ft_armor {
    char name[FT_NAME];
    int er, ir;            /* added to ER / IR */
    int pd_shift;          /* e.g. a shield: (shift+1) on PD */
    int spd;               /* e.g. -1 SPD for heavy armour */
} ft_armor;

/* Where an advantage or disadvantage applies. */
#define FT_APPLIES_LIST(X)                                                     \
    X(ALL, "all")                                                              \
    X(INITIATIVE, "initiative")                                                \
    X(ATTACK, "attack")                                                        \
    X(MELEE_ATTACK, "melee-attack")                                            \
    X(RANGED_ATTACK, "ranged-attack")                                          \
    X(SPELL_ATTACK, "spell-attack")                                            \
    X(DEFENSE, "defense")                                                      \
    X(PHYSICAL_DEFENSE, "physical-defense")                                    \
    X(INTANGIBLE_DEFENSE, "intangible-defense")                                \
    X(DAMAGE, "damage")                                                        \
    X(SKILL, "skill")                                                          \
    X(NONE, "none") /* no flip: a capability (Sure-Footed) */
typedef enum ft_applies {
#define FT__E(id, name) FT_APPLIES_##id,
    FT_APPLIES_LIST(FT__E)
#undef FT__E
    FT_APPLIES_COUNT
} ft_applies;

/* Standard ranks (rules-facts.md): +1 (shift+1); +2 (flip+1); +3 both.
 * Disadvantages are negative ranks. Not cumulative: the best advantage and
 * the worst disadvantage for a flip count. */
typedef struct ft_advantage {
    char name[FT_NAME];
    int rank;              /* -3..3 */
    ft_applies applies;
    char skill[FT_NAME];   /* FT_APPLIES_SKILL: the skill's name */
} ft_advantage;

typedef struct ft_skill {
    char name[FT_NAME];
    ft_aspect aspect;
    int rank;
    int n_specs;
    char specs[FT_MAX_SPECS][FT_NAME];  /* specializations: (flip+1) when they apply (seed 001) */
} ft_skill;

typedef enum ft_controller { FT_CTRL_GM, FT_CTRL_PLAYER } ft_controller;

/* Tactics presets (docs/rules/towers.md "Tactics"). */
#define FT_TACTICS_LIST(X)                                                     \
    X(DEFAULT, "default")                                                      \
    X(ATTACK, "attack")                                                        \
    X(POWER_ATTACK, "power-attack")                                            \
    X(AIM, "aim")                                                              \
    X(DEFENSIVE, "defensive")                                                  \
    X(RANGED, "ranged")                                                        \
    X(HOLD_GROUND, "hold-ground")                                              \
    X(IDLE, "idle")                                                            \
    X(GRAPPLE, "grapple")
typedef enum ft_tactics_preset {
#define FT__E(id, name) FT_TAC_##id,
    FT_TACTICS_LIST(FT__E)
#undef FT__E
    FT_TACTICS_COUNT
} ft_tactics_preset;

typedef enum ft_target_pref {
    FT_TARGET_NEAREST, FT_TARGET_WEAKEST, FT_TARGET_STRONGEST
} ft_target_pref;

typedef struct ft_tactics {
    ft_tactics_preset preset;
    ft_target_pref target;
    int recover_below_pct;   /* Recover when STUN below this % of max (default 35) */
    bool use_hand_of_fate;   /* default true */
    bool use_chips;          /* default true */
    bool opportunity_attacks;/* take them when offered (default true) */
} ft_tactics;

/* ---- Talents (talent.c; data/towers/talents.yaml) ----------------------
 * A talent is a named list of effects from a small vocabulary
 * (docs/file-formats.md "Talents"). The effect words: */
#define FT_TALENT_EFFECT_LIST(X)                                               \
    X(SHIFT, "shift")             /* (shift+N) on the flips of `on` */         \
    X(FLIP, "flip")               /* (flip+N) on the flips of `on` */          \
    X(DAMAGE, "damage")           /* +N STUN on a hit (000 "LETHAL Damage") */ \
    X(COST, "cost")               /* {action, phases}: an action costs more/less */ \
    X(MAX_STUN, "max-stun")       /* +N maximum STUN (Tough as Nails) */       \
    X(MAX_LETHAL, "max-lethal")   /* +N maximum LETHAL */                      \
    X(TEMP_STUN, "temp-stun")     /* N temporary STUN at the fight's start */  \
    X(TEMP_LETHAL, "temp-lethal") /* N temporary LETHAL at the fight's start */ \
    X(REACTION, "reaction")       /* extra-opportunity: see ft_talent_oa_delay */
typedef enum ft_talent_effect_kind {
#define FT__E(id, name) FT_TE_##id,
    FT_TALENT_EFFECT_LIST(FT__E)
#undef FT__E
    FT_TE_COUNT
} ft_talent_effect_kind;

/* When a shift or flip counts (`when:`); ALWAYS when not said. Those after
 * WIELDING read the fight's state (ft_talent_state_mods). */
#define FT_TALENT_WHEN_LIST(X)                                                 \
    X(ALWAYS, "always")                                                        \
    X(WIELDING, "wielding")                     /* wielding KEYWORD: the weapon used */ \
    X(TARGET_PRONE, "target-prone")             /* the other side of the flip is prone */ \
    X(TARGET_FLAT_FOOTED, "target-flat-footed") /* it has not acted yet */     \
    X(BELOW_HALF_STUN, "below-half-stun")       /* own STUN below half its maximum */ \
    X(TWO_RANGED, "two-ranged-weapons")         /* a ranged weapon in each hand */ \
    X(OUTNUMBERING, "outnumbering")             /* its side outnumbers the other's in the melee (attack.c) */ \
    X(TARGET_MARKED, "target-marked")           /* the other side is its marked target (seed 000 "Marked Targets") */
typedef enum ft_talent_when {
#define FT__E(id, name) FT_TW_##id,
    FT_TALENT_WHEN_LIST(FT__E)
#undef FT__E
    FT_TW_COUNT
} ft_talent_when;

enum { FT_MAX_TALENTS = 6, FT_TALENT_EFFECTS = 4, FT_MAX_TALENT_CATALOG = 48 };

typedef struct ft_talent_effect {
    uint8_t kind;          /* ft_talent_effect_kind */
    uint8_t on;            /* shift/flip: ft_applies (attack ... skill) */
    uint8_t when;          /* ft_talent_when */
    uint8_t keyword;       /* FT_TW_WIELDING: the ft_keyword */
    uint8_t action;        /* FT_TE_COST: the ft_action */
    int16_t value;         /* N (cost: phases, + or -) */
    char skill[FT_NAME];   /* on: skill NAME */
    uint8_t once;          /* uses: once-per-encounter */
    /* issue 7 */
    uint8_t spend;         /* FT_SPEND_*: the cost of using the talent */
    uint8_t use;           /* 1 + the index of its talent in the stat block
                              when that talent is used by a command (Use a
                              Talent: ft_talent_needs_use); 0 it works by
                              itself. ft_talents_sum writes it. */
} ft_talent_effect;

/* What using a talent spends (ft_talent_effect.spend; issue 7). */
enum { FT_SPEND_NONE, FT_SPEND_HAND_OF_FATE, FT_SPEND_MARK };

typedef struct ft_talent {
    char name[FT_NAME];
    int n_effects;
    ft_talent_effect e[FT_TALENT_EFFECTS];
} ft_talent;

/* What a stat block's talents sum to, worked out once (ft_talents_sum). */
typedef struct ft_talent_sums {
    bool any;              /* has talents */
    bool state;            /* a shift/flip reads the fight's state */
    bool cost;             /* changes an action's cost */
    int damage;            /* +STUN on a hit */
    int max_stun, max_lethal, temp_stun, temp_lethal;
    bool extra_oa;         /* reaction: extra-opportunity */
    bool no_add_up;        /* the option talents-add-up is off */
    bool once_damage;      /* a damage effect read at the hit: once-per-
                              encounter, with a `when`, or of a talent used
                              by a command (talent.c ft_talent_hit_damage) */
    /* issue 7 */
    bool used;             /* has a talent used by a command (Use a Talent) */
    int damage_flips;      /* (flip+N) on its damage flips, always */
    bool damage_flips_state; /* one of those reads the state */
} ft_talent_sums;

/* A stat block (docs/file-formats.md "Stat blocks"). */
typedef struct ft_statblock {
    char name[FT_NAME];
    int aspects[FT_ASPECT_COUNT];
    int cv[FT_CV_COUNT];
    int endurance;          /* [[E]] */
    int max_stun, max_lethal;   /* derived ([[E]]x8, [[E]]+8) unless given */
    int size_rank;          /* -4..4 */
    int n_skills;
    ft_skill skills[FT_MAX_SKILLS];
    int n_weapons;
    ft_weapon weapons[FT_MAX_WEAPONS];   /* copies of the catalog rows */
    int wielded[2];         /* weapon index in hand: [0] main, [1] off hand; -1 none */
    bool dual_aggressive;   /* two melee weapons: stance (seed "Off-Hand Weapons") */
    bool has_armor;
    ft_armor armor;
    int n_advantages;
    ft_advantage advantages[FT_MAX_ADVANTAGES];
    uint32_t immune;        /* 1 << ft_damage_type */
    uint32_t susceptible;
    int chips[3];           /* white, red, blue */
    int mana[FT_ELEMENT_COUNT];
    int mana_regen;         /* per zero phase; -1 = the option's */
    ft_controller controller;
    char deck_owner[FT_NAME];   /* "" = by the deck mode; else a named deck */
    int temp_stun, temp_lethal; /* at the start of the fight */
    int n_talents;              /* talents: (talent.c) */
    ft_talent talents[FT_MAX_TALENTS];
    ft_talent_sums tsum;        /* ft_talents_sum of the above */
} ft_statblock;

/* One combatant of an encounter. */
typedef struct ft_combatant {
    char name[FT_NAME];     /* unique in the encounter: "bandit 2" */
    char id[FT_NAME];       /* as written in commands: "bandit-2" */
    ft_statblock sb;
    int side;
    char symbol;            /* on the map */
    fray_pos start;
    bool placed;
    uint32_t unaware_of;    /* bit per side it does not know about (surprise) */
    ft_tactics tactics;
    int deck;               /* index into ft_state.decks */
    /* towers-companion (seed 000 "Companions and Minions"): 1 + the
     * index of its master (`companion-of:`), 0 none; and how many
     * companions it has itself. */
    int master;
    int n_companions;
    bool joins_later;       /* "joins: later": off the clock and the map
                               until the GM brings it in (gm.c) */
} ft_combatant;

/* The range of ft_setup.hit_permille (policy.c). */
enum {
    FT_HIT_FLIP_MIN = -1,
    FT_HIT_FLIP_MAX = 8,
    FT_HIT_FLIPS = FT_HIT_FLIP_MAX - FT_HIT_FLIP_MIN + 1,
    FT_HIT_SHIFT_MAX = 3,
    FT_HIT_SHIFTS = 2 * FT_HIT_SHIFT_MAX + 1
};

/* Speed caches of a setup (ft_setup.fast). */
enum {
    FT_GEO_MAX = 32,   /* maps (or their top-left part) up to 32 x 32 */
    FT_GEO_NEAR = 2,   /* pairs of spaces at most 2 apart on each axis */
    FT_GEO_SIDE = 2 * FT_GEO_NEAR + 1,
    FT_GEO_KNOWN = 8,  /* geo entry: bits 0-1 fray_cover, bit 2 sight */
    FT_GEO_SIGHT = 4,
    FT_GEO_CELLS = 256 /* maps of at most this many spaces: every pair */
};
/* ---- attack.c and harm.c speed tables -----------------------------------
 * ft_fast.atk: attack.c's speed caches, filled by ft_fast_prepare with the
 * rest of ft_fast and read only when fast.ready; each entry gives exactly
 * what the long way would. FT_NOINLINE keeps the rare long way of a
 * function apart, so that its usual short way needs no stack frame. */
#if defined(__GNUC__)
#define FT_NOINLINE __attribute__((noinline))
#else
#define FT_NOINLINE
#endif
/* A small function every caller should have inline (engine.c
 * advantage_ranks: its callers pass constants the compiler folds). */
#if defined(__GNUC__)
#define FT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define FT_ALWAYS_INLINE inline
#endif
/* Slots: the tie order of a phase (RULINGS 9) in steps of FT_SLOT_STEP,
 * so that Hold can slip in just before or after someone (several holders
 * coming out behind one actor take the slots after its own, in the order
 * they began to hold); a combatant's own slot by its place in the tie
 * order (engine.c, companion.c, duel_odds.c). */
enum {
    FT_SLOT_STEP = 64,
    FT_SLOT_BOTTOM = 1 << 20 /* zero-cost actions and late joiners: behind
                                everyone, in growing slots from here */
};
static inline int ft_base_slot(int init_rank) {
    return (init_rank + 1) * FT_SLOT_STEP;
}

typedef struct ft_fast_hands {
    /* ft_threatens's reach with these weapons in hand: the longest melee
     * reach, at least 1; 0 when the combatant never threatens (tiny or
     * smaller). */
    int16_t threat;
    /* A melee weapon in each hand (two_melee_weapons: the stance). */
    bool two_melee;
} ft_fast_hands;
typedef struct ft_fast_attack {
    /* By combatant and the weapons in its hands, each + 1 (0: none, or a
     * wielded index of -1): [c][main + 1][off + 1]. */
    ft_fast_hands hands[FT_MAX_COMBATANTS][FT_MAX_WEAPONS + 1][FT_MAX_WEAPONS + 1];
    /* Every space of the map (if any) is at elevation 0: nobody has the
     * high ground. */
    bool flat;
    /* ft_damage_advantage of each combatant's stat block. */
    int damage_adv[FT_MAX_COMBATANTS];
    /* compute()'s modifiers that depend only on the setup, summed: the
     * attacker's (its weapon's bonus, its size, its attack advantages) by
     * the weapon it attacks with + 1 (0: the unarmed strike); the
     * defender's (its size, its armor, its defense advantages) by the
     * attack's kind, spell * 2 + perception. */
    int att_flip[FT_MAX_COMBATANTS][FT_MAX_WEAPONS + 1];
    int att_shift[FT_MAX_COMBATANTS][FT_MAX_WEAPONS + 1];
    int def_flip[FT_MAX_COMBATANTS][4];
    int def_shift[FT_MAX_COMBATANTS][4];
    /* Counts the preparations of this setup (ft_fast_prepare), so that
     * modifiers remembered from an earlier one (ft_mods_cache) are not
     * taken for this one. */
    uint32_t stamp;
} ft_fast_attack;

typedef struct ft_fast {
    bool ready;
    /* fray_grid_cover and fray_grid_sight_fp between the one-space
     * footprints at [y][x] and [y + dy - 2][x + dx - 2] ([dy][dx]); 0 when
     * not worked out (then ask grid.c). */
    uint8_t geo[FT_GEO_MAX][FT_GEO_MAX][FT_GEO_SIDE][FT_GEO_SIDE];
    /* The same for every pair of spaces of a small map (w * h at most
     * FT_GEO_CELLS; pairs is then true): [y1 * w + x1][y2 * w + x2]. */
    bool pairs;
    uint8_t pair[FT_GEO_CELLS][FT_GEO_CELLS];
    /* The map's one-space steps, from terrain and edges only
     * (fray__grid_step_table): what the move searches of one-space movers
     * read instead of the edges and terrain (steps valid when has_steps). */
    bool has_steps;
    uint8_t steps[FRAY_GRID_MAX][FRAY_GRID_MAX][8];
    ft_fast_attack atk;  /* attack.c's own (ft_fast_attack above) */
    bool talent_state;   /* someone's talent reads the state: no mods cache */
} ft_fast;

/* (Speed addition, with the block at the end of this file.) What
 * ft_policy_prepare works out once per load for the clock (engine.c), in
 * ft_setup.eng. ready false (a setup built by hand, or changed by hand
 * since): no shortcuts. */
typedef struct ft_engine_fast {
    bool ready;
    /* The stat block has a mana pool (some sb.mana[e] > 0): only such a
     * combatant can get mana back in a zero phase. */
    bool mana_pool[FT_MAX_COMBATANTS];
    /* No combatant has a talent that changes an action's cost (talent.c):
     * the clock need not ask each one. */
    bool no_talent_cost;
    /* No combatant is a companion or has one (companion.c): an action
     * need not ask whose pair it belongs to (false until prepared). */
    bool no_pairs;
    /* towers-tumble: nobody is Tiny or smaller (tumble.c): no space is
     * shared, so the move searches need not ask (false until prepared). */
    bool no_tiny;
    /* No duel, no companions, no talent that changes a cost: an action
     * need not ask about any of them (engine.c apply_action tests this
     * once; false until prepared). */
    bool plain;
    /* plain, and no hit needs more than the plain damage: no talent's
     * damage read at the hit (tsum.once_damage), no Knockback weapon
     * (attack.c ft_attack tests this once; false until prepared). */
    bool plain_hit;
    /* No companions and no talent used by a command: the tactics' decisions
     * may be remembered for everyone (policy.c; false until prepared). */
    bool plain_decide;
} ft_engine_fast;

typedef struct ft_setup {
    char name[64];          /* the encounter's title */
    char source[256];       /* the file it came from */
    ft_options opt;
    uint64_t seed;
    bool has_seed;
    int n_sides;
    char sides[FT_MAX_SIDES][FT_NAME];
    int n_combatants;
    ft_combatant c[FT_MAX_COMBATANTS];
    bool has_map;
    fray_grid map;
    int n_decks;
    char deck_names[FT_MAX_DECKS][FT_NAME];
    ft_controller deck_controller[FT_MAX_DECKS];
    /* The catalog the files named (kept for `fray check` and sweeps). */
    int n_catalog;
    ft_weapon catalog[FT_MAX_CATALOG];
    int n_armor;
    ft_armor armor_catalog[16];
    /* The tactics policy's hit chances (policy.c, ft_policy_prepare, run at
     * the end of every load): per mille, for attack and defense flips of
     * FT_HIT_FLIP_MIN..FT_HIT_FLIP_MAX (rank + flip mods) and attack minus
     * defense shifts of -FT_HIT_SHIFT_MAX..+FT_HIT_SHIFT_MAX. Setups built
     * by hand leave hit_ready false: the policy then counts the odds itself. */
    bool hit_ready;
    uint16_t hit_permille[FT_HIT_FLIPS][FT_HIT_FLIPS][FT_HIT_SHIFTS];
    /* What the fight loop would otherwise work out again and again from the
     * rest of the setup (ft_fast_prepare, attack.c; ft_policy_prepare runs
     * it). A setup changed by hand after that must call ft_policy_prepare
     * again; one built by hand leaves fast.ready false (no shortcuts). */
    ft_fast fast;
    ft_engine_fast eng;     /* (speed addition) ft_policy_prepare */
    /* Seed 000 "Dueling" (duel.c): the encounter's `duel:` key; to is
     * FT_DUEL_NONE when it declares none. The duelists are combatants 0
     * (the challenger: the first listed) and 1. */
    struct {
        uint8_t to;          /* FT_DUEL_* */
        bool showdown;       /* stage two (default true) */
        bool ranged;         /* a ranged duel: the file's distance */
    } duel;
    /* "gm-answers:" (gm.c; docs/file-formats.md "The GM's answers"): the
     * DTN of a skill flip whose command gives none, by skill name ("" for
     * any other skill); FT_GM_DTN_NONE: a flip with no DTN. */
    int n_dtn_answers;
    char dtn_skill[FT_MAX_SKILLS][FT_NAME];
    int dtn_value[FT_MAX_SKILLS];
    /* The talents the catalogs named (talent.c; data/towers/talents.yaml). */
    int n_talent_catalog;
    ft_talent talent_catalog[FT_MAX_TALENT_CATALOG];
    /* issue 7: more of "gm-answers:" (gm.c). high_ground: the least
     * elevation difference that is high ground (0: not answered; any
     * higher position counts; FT_GM_HIGH_NEVER: none does); all_hold: 0
     * not answered (forced Delay), 1 forced Delay, 2 the first holder acts
     * first; time: a Use a Skill's phases by skill ("" any other);
     * limit: an improvised weapon's strength limit by weapon name ("" any
     * other; FT_GM_NO_LIMIT none). */
    int gm_high_ground;
    int gm_all_hold;
    int n_time_answers;
    char time_skill[FT_MAX_SKILLS][FT_NAME];
    int time_value[FT_MAX_SKILLS];
    int n_limit_answers;
    char limit_weapon[FT_MAX_SKILLS][FT_NAME];
    int limit_value[FT_MAX_SKILLS];
    /* issue 7: some combatant has "joins: later" (load.c): a fight
     * nobody runs at the table brings it in (gm.c ft_gm_reinforce). */
    bool any_joins_later;
} ft_setup;

enum { FT_GM_DTN_NONE = -1 };

/* issue 7: the kinds of the GM's questions (gm.c), the word an answer
 * adds to the command, and the answers in the file. */
enum {
    FT_GMQ_NONE,
    FT_GMQ_DTN,          /* seed 001: a skill flip's DTN ("dtn N|none") */
    FT_GMQ_TIME,         /* 000 "Action List": a Use a Skill's phases ("cost N") */
    FT_GMQ_HIGH_GROUND,  /* 000 "Elevation in Melee" ("high-ground yes|no") */
    FT_GMQ_ALL_HOLD,     /* 000 "Hold" ("all-hold delay|first") */
    FT_GMQ_LIMIT,        /* 000 "Improvised Weapons" ("strength-limit N|none") */
    FT_GMQ_COUNT
};
enum { FT_GM_NO_LIMIT = -1, FT_GM_HIGH_NEVER = -1 };
/* ft_weapon.strength_limit of an improvised weapon the data gives no
 * limit (load.c; has_strength_limit true): the GM's call (gm.c). As a
 * number it limits nothing (ft_px_used gives the whole <PX>). */
enum { FT_GM_LIMIT_ASK = 1000000 };

/* ---- State: what a fight changes --------------------------------------- */

/* How a condition ends (issue: "durations that can end at the start or end
 * of a named combatant's activation"): the core's conditions with
 * durations (src/core/cond.h), whose first three endings these are. */
typedef enum ft_until {
    FT_UNTIL_REMOVED = FRAY__ENDS_EVENT,          /* until an action or effect removes it */
    FT_UNTIL_START_OF = FRAY__ENDS_START_OF_TURN, /* at the start of `whose` activation number `count` from now */
    FT_UNTIL_END_OF = FRAY__ENDS_END_OF_TURN      /* at the end of ... */
} ft_until;

/* A condition on a combatant: kind (ft_condition), value (Bleeding X,
 * Burning X), ends (ft_until), whose (the combatant whose activation
 * ends it), count (its activations to go, 1 = the next), source (who
 * caused it, -1 none). One entry per kind (ft_cond_add merges). */
typedef fray__cond ft_cond;

enum {                       /* ft_cstate.flags */
    FT_F_ACTED = 1u << 0,        /* no longer flat-footed (seed "Flat-Footed") */
    FT_F_UNCONSCIOUS = 1u << 1,  /* 0 STUN, or 0 LETHAL (RULINGS 17) */
    FT_F_DISABLED = 1u << 2,     /* LETHAL 0 */
    FT_F_DYING = 1u << 3,        /* LETHAL < 0 */
    FT_F_DEAD = 1u << 4,
    FT_F_FULL_DEFENSE = 1u << 5, /* until the start of its next activation (RULINGS 11, 12) */
    FT_F_RECKLESS = 1u << 6,     /* (flip-1) on opposed combat flips, same span */
    FT_F_POWER = 1u << 7,        /* Power Attack: (flip-1) to Defense, same span */
    FT_F_HOLDING = 1u << 8,      /* off the clock until it comes out of Hold */
    FT_F_LEAPING = 1u << 9,      /* between the two halves of a Running Leap */
    FT_F_CONCENTRATING = 1u << 10,
    FT_F_SURPRISED = 1u << 11,
    FT_F_FLED = 1u << 12,        /* left the map */
    /* towers-companion: a companion that acts at its master's turn (seed
     * 000 "Companions and Minions"): off the clock by itself. */
    FT_F_RIDING = 1u << 13,
    FT_F_WAITING = 1u << 14,     /* joins later (gm.c): not yet in the fight;
                                    always with FT_F_FLED (off map and clock) */
    /* issue 7: a talent used (Use a Talent) holds until the start
     * of the next activation, as Full Defense (talent.c) */
    FT_F_TALENT = 1u << 15
};

typedef enum ft_hold_kind {
    FT_HOLD_PHASE,           /* until phase P (before/after `who` if set) */
    FT_HOLD_ENEMY_IN_REACH,  /* until a non-ally comes within its reach */
    FT_HOLD_ACTS,            /* until combatant `who` acts (before/after) */
    FT_HOLD_CHOOSE           /* until it chooses to act (seed 000 "Hold":
                                "He does not have to announce what he is
                                waiting for"): any command of its own
                                brings it out, ahead of whoever is
                                scheduled next in the current phase */
} ft_hold_kind;

typedef struct ft_cstate {
    int16_t stun, lethal;
    int16_t temp_stun, temp_lethal;
    int32_t phase;           /* its next activation */
    int32_t slot;            /* order inside a phase: lower acts first */
    fray_pos pos;            /* top-left of its footprint */
    uint16_t flags;          /* FT_F_* */
    uint8_t n_cond;
    ft_cond cond[FT_MAX_CONDITIONS];
    int8_t aim;              /* consecutive Aims (RULINGS 13) */
    int8_t aim_spell;        /* the Aims were for a spell attack */
    int8_t aided_vs;         /* Aid: (flip-1) on its next defence against this ally, -1 none */
    int8_t wielded[2];       /* weapon in main / off hand, -1 none */
    int8_t ammo[FT_MAX_WEAPONS];
    int8_t chips[3];
    int8_t mana[FT_ELEMENT_COUNT];
    int8_t grappled_by;      /* -1 none */
    int8_t hold_kind, hold_who, hold_after;
    int32_t hold_phase;      /* FT_HOLD_PHASE: the phase; also the phase Hold was declared */
    int32_t reacted_event;   /* last event number it reacted to (one reaction per event) */
    int32_t actions;         /* count of actions taken (statistics) */
    int32_t stun_dealt, lethal_dealt, stun_taken, lethal_taken;
    int16_t fate_used, chips_used;
    int16_t ci;              /* Calculated Initiative (seed "Entering Combat") */
    int16_t init_rank;       /* place in the tie order (RULINGS 9): 0 acts first */
    int32_t free_phase;      /* phase of its last free or zero-cost action
                                (no Forced Delay in that phase) */
    uint8_t dropped;         /* weapons of its own lying on the floor: bit
                                w for weapon w (FT_MAX_WEAPONS <= 8) */
    fray_pos dropped_at[FT_MAX_WEAPONS]; /* where each lies */
    uint16_t by_kind[FT_ACTION_COUNT]; /* actions taken, by kind (statistics) */
    int32_t hold_event;      /* the event number of its Hold: holders that
                                come out at one moment go in the order they
                                began to hold (seed 000 "Hold") */
    /* towers-companion */
    int8_t master;           /* 1 + its master's index (a companion), 0 none */
    int8_t stance;           /* two melee weapons: 0 the stat block's, else FT_STANCE_* */
    int8_t mark_ally;        /* seed 000 "Marked Targets": 1 + the marked ally, 0 none */
    int8_t mark_foe;         /* 1 + the marked non-ally, 0 none */
    int8_t mark_space_set;   /* 1: mark_space holds its marked space */
    fray_pos mark_space;
    int8_t restrain_vs;      /* Restrain: 1 + the victim on whose next Grapple
                                Test it has (shift+1); 0 none (grapple.c) */
    int32_t free_oa_round;   /* talent "reaction: extra-opportunity": the round
                                (st->round) of its last undelayed one; 0 none */
    uint8_t talents_used;    /* bit per stat-block talent: its once-per-
                                encounter effect is spent */
    /* issue 7 (talent.c) */
    uint8_t talents_armed;   /* bit per stat-block talent used by Use a
                                Talent; counts while FT_F_TALENT is set */
    int8_t talent_mark_vs;   /* 1 + the target a `spend: mark` talent spent
                                its mark on (while armed); 0 none */
} ft_cstate;

/* ft_cstate.stance and ft_command.stance (seed 000 "Off-Hand Weapons and
 * Dual-Wielding": "He may change his style at the start of each of his
 * actions"). 0 = not chosen (the stat block's). */
enum { FT_STANCE_AGGRESSIVE = 1, FT_STANCE_DEFENSIVE = 2 };

/* The keys of remembered modifiers (attack.c) and decisions (policy.c)
 * load fields that lie in a row as one word (ft_low_bytes): the places
 * they count on. */
_Static_assert(offsetof(ft_cstate, stun) == 0 &&
                   offsetof(ft_cstate, lethal) == 2 &&
                   offsetof(ft_cstate, temp_stun) == 4 &&
                   offsetof(ft_cstate, temp_lethal) == 6 &&
                   sizeof(((ft_cstate *)0)->temp_lethal) == 2,
               "STUN, LETHAL and their temporary parts: the first eight bytes");
_Static_assert(sizeof(fray_pos) == 4 &&
                   offsetof(ft_cstate, flags) == offsetof(ft_cstate, pos) + 4 &&
                   sizeof(((ft_cstate *)0)->flags) == 2,
               "pos and flags: six bytes in a row");
_Static_assert(offsetof(ft_cstate, aim_spell) == offsetof(ft_cstate, aim) + 1 &&
                   offsetof(ft_cstate, aided_vs) ==
                       offsetof(ft_cstate, aim) + 2 &&
                   offsetof(ft_cstate, wielded) ==
                       offsetof(ft_cstate, aim) + 3 &&
                   offsetof(ft_cstate, aim_spell) + 8 <= sizeof(ft_cstate),
               "aim, aim_spell, aided_vs, wielded[2]: five bytes in a row");
_Static_assert(FT_MAX_WEAPONS == 4 && FT_ELEMENT_COUNT <= 7 &&
                   offsetof(ft_cstate, mana) + 8 <= sizeof(ft_cstate),
               "ammunition: four bytes; mana: at most seven");

typedef struct ft_state {
    int32_t phase;           /* the current phase */
    int32_t round;           /* phase / 10 + 1, for display */
    int32_t n_events;        /* events applied so far (the next event's number) */
    int32_t next_slot;       /* zero-cost actions go behind everyone: growing slots */
    int8_t winner;           /* side that won, -1 none yet, -2 a draw */
    bool over;
    int8_t active;           /* whose activation is under way, -1 none */
    int n;
    ft_cstate c[FT_MAX_COMBATANTS];
    int n_decks;
    fray_deck decks[FT_MAX_DECKS];
    fray_rng rng;
    /* The Combat Clock as the core time track (src/core/track.h): every
     * combatant on the clock (in the fight and not holding), by phase,
     * then its slot, then its index (key = phase, tie = -(slot * 32 +
     * index)). It follows c[].phase, slot and flags: whatever changes
     * them calls ft_clock_place (or ft_clock_sync), and ft_next_actor
     * reads its first entry. */
    fray__track clock;
    /* Seed 000 "Dueling" (duel.c; all 0 without a duel). */
    int8_t duel_margin[2];   /* Showdown: by how much each duelist beat the other */
    uint8_t duel_end;        /* FT_DUEL_END_*: how the duel ended */
    uint8_t duel_blood;      /* first blood on duelist i: bit i (applied),
                                bit 2 + i (in damage still held) */
    int16_t duel_held_stun[2], duel_held_lethal[2]; /* damage held to the phase's end */
    int8_t duel_held_src[2]; /* who dealt it (-1 none) */
    int32_t duel_held_phase; /* the phase it was dealt in */
    /* towers-companion: the setup's option companion-alone (FT_CA_*),
     * copied at reset for ft_companions_release (which has no setup). */
    uint8_t companion_alone;
    /* Speed (read on hot paths that have no setup, or once instead of
     * per combatant): the setup has a master and companion (!no_pairs),
     * copied at reset; someone chose a stance by a command word
     * (ft_cstate.stance), after which no decision and no attack modifiers
     * are remembered (the keys do not hold the stance). */
    uint8_t pairs;
    uint8_t stance_chosen;
    /* issue 7: decks whose owner made the end-of-encounter Hand of
     * Fate exchange (bit per deck; rules-facts.md "Hand of Fate"). */
    uint32_t fate_exchanged;
    /* Speed (issue 16, crowd): a count of the changes to what the kept
     * threats read (ft_threat_cache: a place, weapons in hand, falling,
     * fleeing or joining, a condition): every write of those goes
     * through ft_threat_touch, so that an unchanged state is known in
     * one comparison. 0: unknown (a check's trial place is in), the
     * kept threats then compare every combatant. */
    uint64_t threat_gen;
    /* Speed (issue 16, "This round: the crowds' search kept"): the count
     * at the last change not told by whom (ft_threat_touch), and the
     * combatants changed since, one at a time
     * (ft_threat_touch_one: a walk's steps, and every change of one
     * combatant: harm.c, grapple.c, gm.c, engine.c). Kept threats brought up
     * to date at a count of at least threat_all_gen look again only at
     * those (attack.c threat_refresh). */
    uint64_t threat_all_gen;
    uint32_t threat_moved;
    /* Speed (issue 16, the conditions' upkeep): a bit for each combatant
     * (of the first 32) that may hold a condition ending at the start or
     * end of an activation (FT_UNTIL_START_OF, FT_UNTIL_END_OF), set by
     * ft_cond_add and cleared by the upkeep (harm.c ft_cond_activation)
     * when it finds none left. Never missing a holder: the upkeep looks
     * only at these, in the order of the combatants. */
    uint32_t cond_timed;
} ft_state;

/* ---- Commands, events, facts -------------------------------------------- */

/* What an actor does (a player at the table, or a tactics policy). */
typedef struct ft_command {
    uint8_t action;          /* ft_action; or FT_CMD_* below */
    int8_t actor;
    int8_t target;           /* -1 none */
    int8_t weapon;           /* weapon index, -1 = the one in the main hand */
    bool off_hand;           /* attack with the off-hand weapon (flip-1) */
    bool shift_first;        /* Shift Position added to the action (+2 phases) */
    fray_pos shift_to;
    fray_pos dest;           /* move/charge/leap destination */
    int8_t hold_kind, hold_who, hold_after;
    int32_t hold_phase;
    int16_t cost;            /* Use a Skill: its cost in phases */
    int8_t skill;            /* Use a Skill: skill index */
    int8_t chip;             /* Discard Chip to Heal: 0 white,1 red,2 blue; heal LETHAL if heal_lethal */
    bool heal_lethal;
    int8_t condition;        /* Shake Minor Condition: which (-1 = any minor) */
    int8_t element;          /* Cast: the mana element */
    int8_t ally;             /* Aid: the ally helped */
    int16_t dtn;             /* Use a Skill: the DTN (0: no check) */
    int8_t draw_also;        /* Draw a Weapon: 1 + the index of a second
                                one-handed weapon drawn into the off hand
                                in the same action; 0 none (seed 000 "Draw
                                a Weapon"; 0 so that a zeroed command draws
                                one) */
    bool drop_prone;         /* Combat Move: Drop Prone at its end, for free
                                (seed 000 "Combat Move", "Drop Prone") */
    int8_t skill_spec;       /* Use a Skill: 1 + the specialization that
                                applies ((flip+1), seed 001); 0 none */
    bool charge_via;         /* Charge: the straight run of its last three
                                spaces begins at `via` (the mover chooses
                                the path, seed 000 "Charge"); false: the
                                cheapest legal path */
    fray_pos via;
    bool at_space;           /* Attack or Cast with an area (area.c): aimed
                                at the space dest, not at a creature (an
                                aura: at its user); false: not used */
    bool opposed;            /* Use a Skill against `target`: an opposed
                                skill flip (seed 001; duel.c) */
    int8_t opp_skill;        /* opposed: 1 + the target's skill that opposes;
                                0 the target's skill of the same name */
    int8_t opp_aspect;       /* opposed: 1 + the raw Aspect (ft_aspect) the
                                target resists with, only the card counting
                                (seed 000 "Skill, Aspect, and Attribute
                                Checks"); 0 none */
    int8_t opp_attribute;    /* opposed: 1 + an Attribute check,
                                FT_ATTR_* * 2 + 1 for Low; 0 none */
    /* towers-companion */
    int8_t stance;           /* FT_STANCE_* taken at the start of the action; 0 none */
    int8_t also;             /* Combat / Reckless Move: 1 + the companion (or
                                master) who moves after the actor; 0 none */
    fray_pos also_dest;      /* ... and where to */
    int8_t mark_space;       /* Mark: 1 = mark the space dest (not a combatant) */
    uint8_t grapple_move;    /* Attack: FT_GM_* (seed 000 "Grappling"); 0 a
                                plain attack */
    uint8_t throw_land;      /* Throw of a willing ally at someone: 1 + the
                                direction (0 north, clockwise) of the space
                                next to the target he lands in when it hits,
                                and nobody is knocked prone; 0 as any throw */
    /* The GM's commands (gm.c; FT_AF_GM): */
    int8_t gm_track;         /* gm-set: FT_GM_TRACK_* (0 none) */
    bool gm_adjust;          /* gm-set: gm_value is added, not set */
    int16_t gm_value;        /* gm-set: the value or change; gm-condition: X */
    int8_t gm_cond;          /* gm-condition: 1 + the condition; 0 none */
    bool gm_off;             /* gm-condition: removed instead of added */
    int8_t gm_count;         /* gm-condition: ends at the end of the
                                combatant's gm_count-th activation; 0 until
                                removed */
    int32_t gm_phase;        /* gm-join: 1 + the phase it enters in; 0: by
                                an Initiative flip from the current phase */
    int8_t gm_flip;          /* Use a Skill: the GM's flip mods and shifts
                                (seed 001: the GM decides them); 0 none */
    int8_t gm_shift;
    /* towers-tumble: a Combat Move or Reckless Move that may enter the
     * spaces of standing non-allies, each with an Acrobatics flip against
     * the DTN `dtn` (seed 000 "Moving Through Spaces"; tumble.c); false:
     * a move as any other. */
    bool tumble;
    /* issue 7 (talent.c): */
    int8_t talent;           /* Use a Talent: 1 + the stat block's talent; 0 none */
    uint8_t card;            /* Use a Talent (spend: hand-of-fate), exchange:
                                1 + the held card; 0 none */
    /* issue 7: the GM's answers given on a command (gm.c "The GM's
     * questions"; 0: not given, the file's answer or the default holds).
     * gm_high: 1 high ground, 2 not (seed 000 "Elevation in Melee");
     * gm_all_hold: 1 forced Delay, 2 the first holder acts first (seed 000
     * "Hold"); gm_limit: 1 + the most <PX> an improvised weapon's damage
     * adds, FT_GM_NO_LIMIT none (seed 000 "Improvised Weapons"). */
    int8_t gm_high;
    int8_t gm_all_hold;
    int8_t gm_limit;
} ft_command;

/* Attributes, each a pair of Aspects (seed 000 "Skill, Aspect, and
 * Attribute Checks": a High Attribute check takes the better of the two,
 * a Low one the lower). */
enum { FT_ATTR_STRENGTH, FT_ATTR_ENDURANCE, FT_ATTR_PERCEPTION,
       FT_ATTR_INTELLECT, FT_ATTR_COUNT };

/* The Attack action's grappling moves (ft_command.grapple_move; grapple.c). */
typedef enum ft_grapple_move {
    FT_GM_NONE, FT_GM_RESTRAIN, FT_GM_SQUEEZE, FT_GM_SLAM, FT_GM_THROW,
    FT_GM_REVERSE, FT_GM_COUNT
} ft_grapple_move;

/* ft_command.gm_track (gm.c). */
enum {
    FT_GM_TRACK_NONE,
    FT_GM_TRACK_STUN,
    FT_GM_TRACK_LETHAL,
    FT_GM_TRACK_TEMP_STUN,
    FT_GM_TRACK_TEMP_LETHAL,
    FT_GM_TRACK_COUNT
};

/* Commands the engine makes itself (they are events too, so they replay). */
enum {
    FT_CMD_BEGIN = 200,      /* initiative flips and first places */
    FT_CMD_PHASE             /* the clock moves on: start-of-phase effects
                                (a Hold waiting for an event ends inside
                                the event that triggers it) */
};

/* A choice made while applying a command. */
typedef enum ft_choice_kind {
    FT_CHOICE_FATE_SWAP,     /* a = index in the flip, b = held card */
    FT_CHOICE_FATE_REFLIP,   /* b = held card discarded; the flip becomes one new card */
    FT_CHOICE_CHIP_SHIFT,    /* white chip (or higher) after a flip: (shift+1); b = chip colour */
    FT_CHOICE_CHIP_FLIP,     /* red chip (or blue): (flip+1) after the flip: one more card; b = colour */
    FT_CHOICE_OPPORTUNITY,   /* a = reactor, b = 1 take / 0 decline */
    FT_CHOICE_NONE           /* "nothing more on this flip" */
} ft_choice_kind;

typedef struct ft_choice {
    uint8_t kind;
    int8_t who;
    int8_t a;
    int8_t b;
} ft_choice;

/* Facts: what an event did, in order, for narration and JSON Lines. */
#define FT_FACT_LIST(X)                                                        \
    X(INITIATIVE, "initiative")   /* who, v[0]=CI, v[1]=start phase, v[2]=surprised */ \
    X(PHASE, "phase")             /* v[0]=phase, v[1]=zero phase? */           \
    X(ACT, "act")                 /* who, v[0]=action, target, v[1]=phase, v[2]=next phase */ \
    X(FLIP, "flip")               /* who, v[0]=purpose, v[1]=total, v[2]=n, v[3]=kept value, cards */ \
    X(MODIFIER, "modifier")       /* who, v[0]=shift, v[1]=flip mod, text=reason */ \
    X(FATE, "fate")               /* who, v[0]=choice kind, card */            \
    X(CHIP, "chip")               /* who, v[0]=colour, v[1]=use */             \
    X(HIT, "hit")                 /* who, target, v[0]=attack, v[1]=defense, v[2]=hearts, v[3]=critical */ \
    X(MISS, "miss")               /* who, target, v[0]=attack, v[1]=defense */ \
    X(DAMAGE, "damage")           /* target, v[0]=STUN, v[1]=LETHAL, v[2]=STUN left, v[3]=LETHAL left */ \
    X(HEAL, "heal")               /* target, v[0]=STUN, v[1]=LETHAL */         \
    X(STATUS, "status")           /* target, v[0]=FT_F_* newly set (unconscious, dying, dead...) */ \
    X(CONDITION_ON, "condition")  /* target, v[0]=condition, v[1]=x */         \
    X(CONDITION_OFF, "condition-ends") /* target, v[0]=condition */            \
    X(MOVE, "move")               /* who, v[0..1]=from x,y, v[2..3]=to x,y, v[4]=spaces */ \
    X(OPPORTUNITY, "opportunity") /* who (reactor), target (provoker) */       \
    X(HOLD, "hold")               /* who, v[0]=kind, v[1]=phase */             \
    X(RELEASE, "release")         /* who, v[0]=phase */                        \
    X(AMMO, "ammo")               /* who, v[0]=weapon, v[1]=shots left */      \
    X(MANA, "mana")               /* who, v[0]=element, v[1]=now */            \
    X(NOTE, "note")               /* text */                                   \
    X(END, "end")                 /* v[0]=winning side or -1/-2 */       \
    X(AREA, "area")               /* who, v[0]=shape, v[1]=size, v[2..3]=centre x,y, v[4]=bits of who is in it */ \
    X(AREA_HIT, "area-hit")       /* who, target, v[0]=attack, v[1]=defense, v[2]=hit? */ \
    X(AREA_DAMAGE, "area-damage") /* who, v[0]=damage before Hearts, v[1]=Hearts, v[2]=targets hit */ \
    X(SHOWDOWN, "showdown")       /* who learns, target resists, v[0]=who's total, v[1]=target's, v[2]=points beaten by, v[3]=(flip+1) earned */ \
    X(LEARN, "learns")            /* who, target, v[0]=piece (duel.c), v[1..3]=values */ \
    X(DUEL, "duel")               /* who, target, v[0]=FT_DUEL_END_*, v[1]=STUN, v[2]=LETHAL */ \
    X(OPPOSED, "opposed")         /* who, target, v[0]=who's total, v[1]=target's, v[2]=winner, v[3]=1 tie by Aspect, 2 by initiator */ \
    X(MARK, "mark")               /* who, target (-1: a space), v[0..1]=x,y, v[2]=1 ally 2 foe 3 space */ \
    X(GM, "gm")                   /* who, v[0]=action, v[1]=track, v[2]=now, v[3]=was */ \
    /* towers-tumble (tumble.c): seed 000 "Moving Through Spaces" */            \
    X(TUMBLE, "tumble")           /* who, target (the non-ally), v[0]=total, v[1]=DTN, v[2]=1 passes, v[3..4]=x,y of its space */ \
    X(SHARE, "share")             /* who, v[0..1]=x,y, v[2]=bits of the others in that space */ \
    X(TALENT, "talent")           /* who, target (mark), v[0]=talent, v[1]=FT_SPEND_*, cards[0]=card spent */ \
    X(EXCHANGE, "exchange")       /* who, v[0]=deck, cards[0]=discarded, cards[1]=drawn */
typedef enum ft_fact_kind {
#define FT__E(id, name) FT_FACT_##id,
    FT_FACT_LIST(FT__E)
#undef FT__E
    FT_FACT_COUNT
} ft_fact_kind;

/* What a chip was spent on (FT_FACT_CHIP v[1]). */
enum {
    FT_CHIP_FOR_SHIFT = FT_CHOICE_CHIP_SHIFT, /* (shift+1) after a flip */
    FT_CHIP_FOR_FLIP = FT_CHOICE_CHIP_FLIP,   /* (flip+1): one more card */
    FT_CHIP_FOR_SHAKE = 10,                   /* a free Shake Minor Condition */
    FT_CHIP_FOR_HEAL = 11,                    /* Discard Chip to Heal */
    FT_CHIP_FOR_RECOVER = 12,                 /* a red chip: a Major Condition ends (talent.c) */
    FT_CHIP_FOR_SPEED = 13                    /* a white chip: <SPD> doubled for one action */
};

/* Purposes of a flip (FT_FACT_FLIP v[0]). */
typedef enum ft_flip_purpose {
    FT_FLIP_INITIATIVE, FT_FLIP_TIEBREAK, FT_FLIP_ATTACK, FT_FLIP_DEFENSE,
    FT_FLIP_DAMAGE, FT_FLIP_GRAPPLE, FT_FLIP_SKILL, FT_FLIP_CHECK
} ft_flip_purpose;

typedef struct ft_fact {
    uint8_t kind;
    int8_t who, target;
    uint8_t n_cards;
    int32_t v[5];
    uint8_t cards[12];       /* FLIP: the cards (first 12) */
    char text[24];           /* MODIFIER reason, NOTE */
} ft_fact;

typedef struct ft_event {
    int32_t number;          /* position in the fight */
    int32_t phase;           /* clock phase when it happened */
    ft_command cmd;
    bool cards_given;        /* the cards were flipped by hand at the table (else
                                drawn by the engine: replay draws them again from
                                the same shuffled decks and checks they match) */
    /* Facts the event made past FT_EVENT_FACTS (none from the begin
     * event, which that is sized for; an event of many opportunity
     * attacks might): not kept, but counted, so narration says so. */
    int16_t facts_untold;
    /* A begin event whose tie flip-offs drew otherwise than fray's before
     * issue 11 (pairwise; engine.c tie_order_pairwise) would: a group of
     * three or more tied, or a ninth round. Journals say so
     * ("flip_off_rounds": true); replaying a begin event without it
     * flips off the old way, so old journals replay. */
    bool flip_off_rounds;
    int16_t n_cards;         /* every card turned over, in order, with its deck */
    uint8_t cards[FT_EVENT_CARDS];
    uint8_t card_deck[FT_EVENT_CARDS];
    int16_t n_choices;
    ft_choice choices[FT_EVENT_CHOICES];
    int16_t n_facts;
    ft_fact facts[FT_EVENT_FACTS];
} ft_event;

/* ---- Running an event --------------------------------------------------- */

/*
 * Decision hooks: how a player or a policy decides mid-action. Every answer
 * is recorded in the event; on replay the recorded answer is used instead
 * of asking. NULL hooks: never use Hand of Fate or chips; take every
 * opportunity attack offered.
 */
/*
 * The last path the engine's move search found (engine.c find_path), kept
 * with everything the search depends on: the setup (its map), the mover's
 * footprint, the cost limit, the destination and who stands where as the
 * mover sees them. A search with the same key gives the same answer, so
 * the move a policy just checked does not search the map again when it is
 * applied. Owned by a fight (fray_towers_fight.paths); valid false: empty.
 */
enum { FT_PATH_CACHE_MAX = 2 * FRAY_GRID_MAX };
/*
 * Speed (attack.c, issue 16): who threatens whom (seed 000 "Threatened
 * Areas"), kept up to date as combatants move and fall instead of
 * searched again for each attack the tactics weigh. Per combatant a
 * signature of everything its threat reads (its place, whether it is in
 * the fight, Stunned, Helpless or Blinded, its weapons in hand); a
 * combatant whose signature changed has its row and column worked out
 * again, the others are kept. threatens[y] has bit x when y threatens x
 * (x's flight aside: the melee chains only look at those in the fight);
 * threatened_by[x] is the same read by columns. Zeroed: empty (the first
 * use fills it). Lives in ft_path_cache (one per fight).
 */
typedef struct ft_threat_cache {
    const struct ft_setup *setup;
    uint32_t stamp;          /* setup->fast.atk.stamp when filled */
    int n;                   /* st->n when filled (0: empty) */
    uint32_t live;           /* in the fight and not Blinded */
    uint32_t blinded;
    uint64_t sig[FT_MAX_COMBATANTS];
    int16_t reach[FT_MAX_COMBATANTS];   /* threat reach now (0: none) */
    fray_footprint fp[FT_MAX_COMBATANTS];
    uint32_t side_mask[FT_MAX_COMBATANTS]; /* c's side, one bit each */
    uint32_t threatens[FT_MAX_COMBATANTS];
    uint32_t threatened_by[FT_MAX_COMBATANTS];
    /* Speed (issue 16, crowd): the state and its threat_gen when last
     * brought up to date (gen 0: none); ft_threat_forget clears it when
     * the state is put back or copied over. */
    const struct ft_state *gen_st;
    uint64_t gen;
    /* Speed (issue 16, "This round: the crowds' search kept"): the state,
     * its threat_gen and the mover with which the engine last found the
     * occupants of the kept path (ft_path_cache beside this) to be its own
     * view of who stands where (engine.c find_path): while the count is
     * the same, nobody has moved, fallen, got up, joined or fled, and the
     * occupants need not be listed and compared again. NULL: none.
     * Forgotten with the count (ft_threat_forget). */
    const struct ft_state *path_st;
    uint64_t path_gen;
    int path_mover;
    /* Speed (issue 16, "This round: a crowd's decision and turn"): fp[c]'s
     * place again, x and y apart, and a bound on every reach[c] kept
     * since the table was emptied, and one on every footprint's side, so
     * that bringing a changed combatant's row up to date rules out those
     * too far away to matter in one pass (attack.c threat_refresh_sigs). */
    int16_t at_x[FT_MAX_COMBATANTS], at_y[FT_MAX_COMBATANTS];
    int reach_hi, side_hi;
    /* Speed (issue 16, "This round: the crowd's decision, second pass"):
     * the tactics' look at everyone that opens each decision (policy.c
     * pol_init: each one's footprint, and for each side whether each one
     * is its enemy still in the fight), kept from one decision to the
     * next by the same count of changes (ft_state.threat_gen, and
     * threat_moved since threat_all_gen): only those changed since are
     * looked at again. look_st NULL: nothing kept (forgotten with the
     * count by ft_threat_forget, emptied with the table). */
    const struct ft_state *look_st;
    const struct ft_setup *look_setup;
    uint32_t look_stamp;
    int look_n;
    uint64_t look_gen;
    fray_footprint look_fp[FT_MAX_COMBATANTS];
    bool look_enemy[FT_MAX_SIDES][FT_MAX_COMBATANTS];
    uint32_t look_enemies[FT_MAX_SIDES];
} ft_threat_cache;

typedef struct ft_path_cache {
    bool valid;
    const ft_setup *setup;
    fray_footprint from;
    int max_cost;
    int parity;              /* the search's start parity (a diagonal Shift first) */
    fray_pos dest;
    int n_occ;
    int8_t occ_who[FT_MAX_COMBATANTS];
    uint8_t occ_kind[FT_MAX_COMBATANTS];
    fray_footprint occ_fp[FT_MAX_COMBATANTS];
    int n;                   /* find_path's answer for FT_PATH_CACHE_MAX */
    bool can_stop;
    fray_pos path[FT_PATH_CACHE_MAX];
    /* Speed: whose turn it is (ft_next_actor) on state
     * turn_st at event turn_events, told by fight.c just before it asks
     * the policy for that turn (and withdrawn, turn_st NULL, right after):
     * the check of a command on that state takes it instead of asking
     * ft_next_actor again. */
    const ft_state *turn_st;
    int32_t turn_events;
    int turn_actor;
    /* Speed (issue 16): who threatens whom, kept for the attack's melee
     * chains (ft_threat_cache). */
    ft_threat_cache threat;
} ft_path_cache;

/*
 * Speed (attack.c, ft_attack_mods_cached): the quiet modifiers of the last
 * few attacks the policy weighed, each with everything of the state that
 * compute() reads when no combatant has a condition: per combatant its
 * place, flags, Aim, Aid, grapple and weapons in hand; the attacker's
 * ammunition and mana. An attack asked again on a state equal in all of
 * these gets the same modifiers without working them out. Only for fights
 * of up to FT_MODS_CACHE_MAX_N combatants. Kept across trials: the key
 * also holds the setup and its preparation stamp. Builds without NDEBUG
 * work every remembered answer out again and assert it is the same.
 */
enum {
    FT_MODS_CACHE = 8,
    /* With more combatants the key costs more and matches less often (a
     * step of anyone changes it): measured, the skirmish (6) loses. */
    FT_MODS_CACHE_MAX_N = 4,
    /* the setup, the attack, the attacker's ammunition and mana (2), then
     * two words per combatant */
    FT_MODS_KEY_WORDS = 4 + 2 * FT_MODS_CACHE_MAX_N
};

typedef struct ft_mods_cache_entry {
    uint64_t sum;               /* the words folded: most misses stop here */
    int n_words;                /* 0: empty */
    uint64_t w[FT_MODS_KEY_WORDS];
    int flip, shift, def_flip, def_shift;
    bool impossible;
} ft_mods_cache_entry;

typedef struct ft_mods_cache {
    int next;                   /* the entry replaced next */
    ft_mods_cache_entry e[FT_MODS_CACHE];
} ft_mods_cache;

/*
 * The attack modifiers the tactics policy worked out for the attack it is
 * about to choose (policy.c, ft_attack_mods with the attacker's weapon
 * `weapon`, main hand, no Power Attack, no Aid), on state `st` at event
 * `n_events`. The check of its command (engine.c) takes from it that the
 * attack can be made; the attack itself (attack.c ft_attack) takes the
 * modifiers when `reusable`: the attacker had no condition and was not
 * Reckless, and no condition of anyone ends at the start of its
 * activation (policy.c mods_survive_start), so that the start of the
 * activation changes nothing
 * they depend on (and an opportunity attack before it clears `valid`).
 * Builds without NDEBUG check both against fresh ones. Owned by a fight
 * (fray_towers_fight.memo); valid false: empty.
 */
typedef struct ft_attack_memo {
    bool valid;
    bool reusable;
    const ft_state *st;
    int32_t n_events;
    int attacker, target, weapon;
    int flip, shift, def_flip, def_shift;
    ft_mods_cache cache;        /* not cleared with valid: see above */
} ft_attack_memo;

struct ft_run;
typedef struct ft_flip_view {
    int who;                 /* whose flip */
    ft_flip_purpose purpose;
    const fray_flip *flip;
    int shift;               /* shifts already applied */
    int against;             /* the total it must reach (attack: defense total; defense: attack total), INT_MIN unknown */
    bool is_defense;
} ft_flip_view;

typedef struct ft_hooks {
    void *ctx;
    /* After a flip: the choice to make (FT_CHOICE_NONE to stop). Called
     * again after each choice, until NONE. */
    ft_choice (*fate)(void *ctx, const struct ft_run *run, const ft_flip_view *v);
    /* May `reactor` make an opportunity attack on `provoker`? */
    bool (*opportunity)(void *ctx, const struct ft_run *run, int reactor, int provoker);
} ft_hooks;

typedef struct ft_run {
    const ft_setup *setup;
    ft_state *st;
    ft_event *ev;            /* the event being applied (its cards and choices) */
    /*
     * Where cards and choices come from:
     *   neither flag    - cards drawn from the decks with st->rng, choices
     *                     asked of the hooks; both recorded in ev.
     *   cards_given     - a table command: cards are ev->cards in order
     *                     (flipped by hand; taken out of the decks with
     *                     fray_deck_take); choices asked of the hooks.
     *   replay          - re-applying a recorded event (undo, redo, journal
     *                     replay): choices are read from ev in order; cards
     *                     are ev->cards taken by hand when ev->cards_given,
     *                     else drawn again with st->rng and checked equal to
     *                     the recorded ones (FRAY_ERR_INVALID if not).
     */
    bool replay;
    bool cards_given;
    int card_i, choice_i;    /* replay cursors */
    int round_i;             /* Hand of Fate / chip rounds so far (fate.c: a
                                round with choices is recorded as FT_CHOICE_NONE
                                with a = its number, then its choices) */
    const ft_hooks *hooks;
    bool facts;              /* record facts (narration, JSON); off in simulation */
    fray_diag *diag;
    /* The command already passed ft_check_command on this very state (the
     * tactics policy checked it just before, and nothing changed since):
     * apply_action does not check it again (builds without NDEBUG do, and
     * assert that it passes). Never set on replay. */
    bool checked;
    ft_path_cache *paths;    /* the fight's last move search (NULL: none) */
    ft_attack_memo *memo;    /* the policy's attack modifiers (NULL: none) */
    /* Speed: set by ft_apply_next to ft_next_actor of
     * the state it leaves when it found that on the way (an action that
     * ended a turn with nothing recorded, engine.c turn_end_quiet), else
     * FT_NEXT_UNKNOWN. */
    int next_after;
    /* Seed 000 "Shift Position": "If you combine Shift Position with
     * another movement action, it counts as a single move for the purpose
     * of diagonal movement costs": 1 when the action's Shift went
     * diagonally (its move's first diagonal then costs 2). */
    int move_parity;
    /* Cards flipped by hand (fate.c, gm.c; issue 13): the flips of this
     * command so far, and the one known to come next (an opposed flip's
     * second), so that too few cards are refused with the total the
     * command needs in all and from whose deck. 0: none. */
    int hand_flips;
    struct { int deck, n; const char *what; } hand_flip[FT_EVENT_CHOICES];
    int hand_next_n;         /* cards of the flip known to come next */
    int hand_next_deck;
    const char *hand_next_what;
    /* issue 7: where a GM's question met while applying is written
     * (gm.c ft_gm_met): set by the table for its own commands, NULL
     * elsewhere (the engine then takes the file's answer or the default
     * and asks nobody). */
    struct ft_ask *ask;
    /* Speed (issue 16): who threatens whom, kept between the attacks
     * weighed (attack.c); NULL: the one in `paths`, if any. The policy's
     * read-only view sets it to its fight's. */
    ft_threat_cache *threat;
} ft_run;

/* A command of `actor` doing `action` with nothing else said: every index
 * -1 (no target, weapon in the main hand, no ally, any condition, nobody
 * waited for, no skill, no chip), everything else 0. */
static inline void ft_cmd_init(ft_command *c, int actor, int action) {
    memset(c, 0, sizeof *c);
    c->action = (uint8_t)action;
    c->actor = (int8_t)actor;
    c->target = c->weapon = c->ally = c->condition = c->hold_who = -1;
    c->skill = c->chip = -1;
}

/* A run zeroed, all but its log of flips by hand (hand_flip, read only
 * below hand_flips, which is zeroed): runs are cleared for every check
 * and every decision, and the log is most of a run's bytes. */
static inline void ft_run_clear(ft_run *r) {
    size_t at = offsetof(ft_run, hand_flip), len = sizeof r->hand_flip;
    memset(r, 0, at);
    memset((char *)r + at + len, 0, sizeof *r - at - len);
}
/* A GM's call met while applying a table command without an answer
 * (gm.c): its kind (FT_GMQ_*), who met it, and what the question names. */
typedef struct ft_ask {
    int kind;                /* FT_GMQ_NONE: none met */
    int who, target;
    int value;               /* high ground: the elevation difference */
    const char *what;        /* strength limit: the weapon's name */
} ft_ask;

/* ---- Functions shared between the modules ------------------------------- */

/* fate.c: turning cards over through the event. Draws from the deck of
 * combatant `who` (or replays the recorded cards), builds the flip of n =
 * rank + flip mods per RULINGS 3, then lets the hooks use Hand of Fate and
 * chips (recorded). Errors: FRAY_ERR_DECK_EMPTY; on replay FRAY_ERR_INVALID
 * when the recorded cards run out or do not match the deck. */
fray_status ft_flip(ft_run *r, int who, int n, ft_flip_purpose purpose,
                    int shift, int against, fray_flip *out, int *out_shift);
/* Damage flips (seed "Combined Damage"): n cards, Hearts only; no fate. */
fray_status ft_flip_plain(ft_run *r, int deck, int n, fray_flip *out);
/* Deals the Hand of Fate at the start of an encounter. */
fray_status ft_fate_deal(ft_run *r);

/* harm.c */
int ft_max_stun(const ft_setup *s, int c);
int ft_max_lethal(const ft_setup *s, int c);
/* Applies STUN and LETHAL after Resilience etc. were worked out (temporary
 * points first; status changes emit STATUS facts). */
void ft_harm_apply(ft_run *r, int target, int stun, int lethal, int source);
void ft_harm_heal(ft_run *r, int target, int stun, int lethal);
/* Hit damage for a weapon (seed "Damage", RULINGS 18). */
fray_towers_hit ft_harm_hit(const ft_run *r, int attacker, int target,
                            const ft_weapon *w, int bonus, int hearts);
/* Combined damage (seed "Combined Damage": falling): X STUN and Y flips. */
fray_status ft_harm_combined(ft_run *r, int target, int stun, int flips,
                             ft_category cat, ft_damage_type type);
bool ft_cond_has(const ft_state *st, int c, ft_condition k);
void ft_cond_add(ft_run *r, int c, ft_condition k, int x, ft_until until,
                 int who, int count, int source);
void ft_cond_remove(ft_run *r, int c, ft_condition k);
/* Start/end of `who`'s activation: durations that end then. */
void ft_cond_activation(ft_run *r, int who, bool at_end);
/* Flip mods and shifts conditions put on a flip of combatant c. */
void ft_cond_mods(const ft_state *st, int c, ft_flip_purpose purpose,
                  bool melee, int *flip_mod, int *shift);
/* Can this combatant act / fight at all? */
bool ft_can_act(const ft_state *st, int c);
bool ft_in_fight(const ft_state *st, int c);

/* SPD now: + armor, halved when Entangled or Slowed (harm.c). */
int ft_speed(const ft_setup *s, const ft_state *st, int c);
/* Bleeding X / Burning X charge an action on the actor's turn (harm.c). */
void ft_cond_on_action(ft_run *r, int c, int action);
/* The flip mods and shifts ONE condition puts on a flip (ft_cond_mods sums
 * them; attack.c names each in a MODIFIER fact). Adds to both outputs. */
void ft_cond_mod_one(ft_condition k, ft_flip_purpose purpose, bool melee,
                     int *flip_mod, int *shift);
/* Temporary STUN / LETHAL granted (seed "Temporary STUN and LETHAL";
 * RULINGS 19: a second grant replaces the first only if larger). */
void ft_harm_temp(ft_run *r, int c, int stun, int lethal);

/* attack.c */
typedef struct ft_attack_opts {
    bool power;              /* Power Attack: (flip-1), +2 damage */
    bool aid;                /* Aid: (flip+1), no damage; on a hit the target is aided against */
    int aid_ally;
    bool opportunity;        /* an opportunity attack (melee only) */
    bool charge;
    bool off_hand;
    int weapon;              /* index into the attacker's weapons */
} ft_attack_opts;
typedef struct ft_mods {
    int flip, shift;         /* attacker */
    int def_flip, def_shift; /* defender */
    bool impossible;         /* out of range, total cover, no sight */
    char why[64];            /* when impossible, in rules words */
} ft_mods;
/* Every Combat Modifier of seed 000 for this attack, as it stands now. */
void ft_attack_mods(const ft_run *r, int attacker, int target,
                    const ft_attack_opts *o, ft_mods *out);
/* Only whether the attack can be made now (range, sight, cover, ammo,
 * mana...): out->impossible and out->why as ft_attack_mods gives them, the
 * modifiers left 0. What ft_check_command needs, for less. */
void ft_attack_possible(const ft_run *r, int attacker, int target,
                        const ft_attack_opts *o, ft_mods *out);
/* ft_attack_mods (only_possible: ft_attack_possible) for callers that
 * only ask whether: out->why is left empty. */
void ft_attack_mods_quiet(const ft_run *r, int attacker, int target,
                          const ft_attack_opts *o, bool only_possible,
                          ft_mods *out);
/* ft_attack_mods_quiet (not only_possible) through `cache` (NULL: none). */
void ft_attack_mods_cached(const ft_run *r, ft_mods_cache *cache,
                           int attacker, int target, const ft_attack_opts *o,
                           ft_mods *out);
/* Fills s->fast (the speed caches) from the rest of the setup; called by
 * ft_policy_prepare. */
void ft_fast_prepare(ft_setup *s);
/* Resolves one attack (flips, fate, hit, damage, Crit keywords). Returns
 * FRAY_ERR_INVALID with r->diag set when impossible. */
/* Seed 000 "Blinded" (rules-facts.md): the Hard (15+) [SP] check an
 * attack by a Blinded attacker needs first (an Aspect check: the card
 * alone, plus shifts): its total in *out_total (attack.c). */
fray_status ft_blinded_check(ft_run *r, int a, int *out_total);
/* RULINGS 22: the conditions of weapon w's "Crit:" keywords on target t
 * of a critical hit by a (attack.c; single attacks and areas alike). */
void ft_crit_conditions(ft_run *r, int a, int t, const ft_weapon *w);
/* fate.c's words for a flip's purpose ("the attack flip"). */
const char *ft_flip_purpose_text(ft_flip_purpose p);
fray_status ft_attack(ft_run *r, int attacker, int target,
                      const ft_attack_opts *o, bool *out_hit);
/* Threat: can c make a melee attack into a space of target now? */
bool ft_threatens(const ft_run *r, int c, int target);
/* The walk's look for opportunity attacks (issue 16): ft_threatens(r, e,
 * target) for every e of a set (st->n <= 32) with the target at any
 * place, each e's reach and footprint read once (ft_walk_look_init) while
 * the state is the same but for the target's place. */
typedef struct ft_walk_look {
    uint32_t who; /* those of the set with a reach (target not fled) */
    int target;
    fray_footprint tfp;
    int16_t reach[FT_MAX_COMBATANTS];
    fray_footprint fp[FT_MAX_COMBATANTS];
    /* Speed (issue 16, "This round: the crowd's engine step"): each one's
     * place, x and y apart, and the farthest across or along its place
     * may be from the target's for the target to be within its reach
     * (its reach plus the wider footprint's side less one; -1: not in
     * who), every entry set, so that a look rules out those too far away
     * in one pass over the places. Only when `many` (more than four to
     * look at): for fewer, each is measured. */
    int16_t at_x[FT_MAX_COMBATANTS], at_y[FT_MAX_COMBATANTS];
    int16_t lim[FT_MAX_COMBATANTS];
    bool many;
} ft_walk_look;
void ft_walk_look_init(const ft_run *r, uint32_t cand, int target,
                       ft_walk_look *w);
uint32_t ft_walk_look_at(const ft_run *r, const ft_walk_look *w,
                         fray_pos at);
/* Grapple Test (seed "Grappling", RULINGS 21). */
fray_status ft_grapple_test(ft_run *r, int attacker, int defender,
                            int attacker_flip_mod, bool *out_win);
/* An area attack's standard modifiers (area.c; seed 000 "Area of
 * Effects"): with t < 0 the attacker's flip's (into flip, shift), else
 * defender t's (into def_flip, def_shift), leaving out what depends on a
 * single target's place (range, sight, cover, outnumbering, high ground,
 * a prone target): the area says who is in it. With r->facts, each one's
 * MODIFIER fact. */
void ft_area_mods(ft_run *r, int a, int t, const ft_weapon *w, ft_mods *out);

/* area.c (seed 000 "Area of Effects", "Areas") */
/* Reads an area as written in a weapon's "area:" ("burst 2", "aura 1",
 * "aura 1 self", "cone 3", "line 5") into w->area, area_size and
 * area_self; false with the reason in why when it is not one. */
bool ft_area_parse(const char *text, ft_weapon *w, char *why, size_t why_size);
/* The attacker's weapon for cmd when it has an area, else NULL. */
const ft_weapon *ft_area_weapon(const ft_setup *s, const ft_state *st,
                                const ft_command *cmd);
/* Whether the area attack cmd (with w, its weapon) can be made now; the
 * reason in rules words in diag when not. */
fray_status ft_area_check(const ft_setup *s, const ft_state *st,
                          const ft_command *cmd, const ft_weapon *w,
                          fray_diag *diag);
/* The spaces of cmd's area now, its centre (a burst's square; an aura's:
 * its user; a cone's and line's: the square they start from) and the
 * footprint its effect comes from; FRAY_ERR_INVALID (diag set) when it
 * cannot be placed. */
fray_status ft_area_place(const ft_setup *s, const ft_state *st,
                          const ft_command *cmd, const ft_weapon *w,
                          fray_area *out, fray_footprint *out_centre,
                          fray_footprint *out_origin, fray_diag *diag);
/* Who is in the area (in the fight, some space in it with line of effect
 * from the origin), nearest the centre first, then by combatant order;
 * returns how many (at most FT_MAX_COMBATANTS written to out). */
int ft_area_victims(const ft_setup *s, const ft_state *st,
                    const fray_area *area, fray_footprint centre,
                    fray_footprint origin, int *out);
/* Resolves the area attack cmd (checked) with weapon w (index wi): mana
 * and shots, one attack flip, each defender's flip, one damage for all. */
fray_status ft_area_attack(ft_run *r, const ft_command *cmd,
                           const ft_weapon *w, int wi);
/* Tactics: an area attack that catches at least two enemies and no ally
 * (the most enemies; ties to the first weapon, then the nearest target);
 * false when there is none. The command is checked. */
bool ft_area_policy(const ft_setup *s, const ft_state *st, int actor,
                    ft_path_cache *paths, ft_command *out);

/* duel.c: seed 000 "Dueling" and seed 001 "Opposed Skill Flips". */
/* The Dueling skill's index in c's stat block, or -1. */
int ft_duel_skill(const ft_setup *s, int c);
/* Stage Two in the begin event: the Showdown (unless the duel skips it)
 * and the concessions of the option duel-concede. *out_over: a duelist
 * conceded (the fight is over). */
fray_status ft_duel_begin(ft_run *r, bool *out_over);
/* Stage Three: duelist c's Calculated Initiative by the Focus check. */
fray_status ft_duel_initiative(ft_run *r, int c, int *out_ci);
/* A hit of `attacker` on `target` in a duel: applies it (ft_harm_apply),
 * or holds it to the end of the phase (simultaneous-duel); first blood
 * when damage + hearts exceeds the Resilience that applies. */
void ft_duel_harm(ft_run *r, int attacker, int target, const ft_weapon *w,
                  int damage, int hearts, fray_towers_hit h);
/* After an action in a duel: the held damage applied once nobody else
 * acts in its phase. */
void ft_duel_after_action(ft_run *r);
/* Whether the duel is over (first blood, incapacitation, death); sets
 * st->over, winner and the END fact. Called for check_over in a duel. */
void ft_duel_check_over(ft_run *r);
/* Concede (table command): check and apply. */
fray_status ft_duel_check_concede(const ft_setup *s, const ft_state *st,
                                  const ft_command *cmd, fray_diag *diag);
fray_status ft_duel_concede(ft_run *r);
/* Use a Skill against a target: the opposed skill flip (seed 001). */
fray_status ft_opposed_skill(ft_run *r, const ft_command *cmd);
/* The Aspects a tie of opposed skill flip cmd compares: the initiator's
 * (*aa) and what the target opposes with (*ta) (duel.c; the chances at
 * the table count ties with them). */
void ft_opposed_skill_tie(const ft_setup *s, const ft_command *cmd, int *aa,
                          int *ta);
/* Squeeze and Slam's base damage: Hard Strength plus a's size modifier
 * less v's, sizes below Medium as zero (grapple.c; chances.c counts it). */
int ft_squeeze_base(const ft_setup *s, int a, int v);
/* A fact of duel.c in words (one line, ending in a newline) and as JSON
 * fields (",\"key\":value..."); 0 when the fact is not duel.c's. */
size_t ft_duel_fact_text(const ft_setup *s, const ft_fact *f, char *buf,
                         size_t size);
size_t ft_duel_fact_json(const ft_setup *s, const ft_fact *f, char *buf,
                         size_t size);

/* grapple.c (seed 000 "Grappling", "Falling", "Improvised Weapons") */
/* The words of a grapple move ("squeeze"), or NULL. */
const char *ft_grapple_move_name(int move);
/* The name of direction d (0 "north", clockwise to 7 "north-west"), or
 * NULL; ft_direction_of reads one (or its letters: "ne"), -1 if none. */
const char *ft_direction_name(int d);
int ft_direction_of(const char *word);
/* The victim c holds in a grapple, or -1. */
int ft_grapple_victim(const ft_state *st, int c);
/* Whether an Attack with cmd->grapple_move can be made now (the part of
 * ft_check_command for it); FRAY_ERR_INVALID with words in diag. */
fray_status ft_grapple_check(const ft_setup *s, const ft_state *st,
                             const ft_command *cmd, fray_diag *diag);
/* Does the grapple move of cmd (checked). */
fray_status ft_grapple_apply(ft_run *r, const ft_command *cmd);
/* Ends the grapple on victim v, if any (and its Restrain). */
void ft_grapple_end(ft_run *r, int v);
/* Combatant c falls `levels` levels of elevation (seed 000 "Falling":
 * 5 Physical STUN and 2 damage flips per 5 feet). */
fray_status ft_fall(ft_run *r, int c, int levels);
/* A hit with Knockback: target pushed `spaces` straight away from
 * attacker, stopping at walls and creatures, falling off high ground; a
 * grappler pushed must win a Grapple Test to hold on. */
fray_status ft_knockback(ft_run *r, int attacker, int target, int spaces);
/* The tactics preset `grapple` (policy.c): up to n_max commands for
 * combatant me, best first (each still to be checked); returns how many. */
int ft_grapple_policy(const ft_setup *s, const ft_state *st, int me,
                      ft_command *out, int n_max);
/* Throw's maximum range in spaces for combatant c. */
int ft_throw_range(const ft_setup *s, int c);
/* Seed 000 "Improvised Weapons": "limits on just how much of a user's
 * strength they can utilize": the <PX> a weapon's damage adds. */
static inline int ft_px_used(const ft_weapon *w, int px) {
    return w->has_strength_limit && px > w->strength_limit ? w->strength_limit
                                                           : px;
}

/* engine.c */
void ft_emit(ft_run *r, ft_fact_kind kind, int who, int target, int v0,
             int v1, int v2, int v3);
ft_fact *ft_emit_fact(ft_run *r, ft_fact_kind kind, int who, int target);
bool ft_allies(const ft_setup *s, int a, int b);
fray_footprint ft_footprint(const ft_setup *s, const ft_state *st, int c);
/* The head of a trial's state: the clock at its start, nobody won or
 * acting, n combatants, the duel cleared, the trial's own stream (the
 * trial's reset, engine.c ft_state_reset_trial, and the duel's model,
 * quick.c). */
static inline void ft_state_trial_head(ft_state *st, int n, uint64_t seed,
                                       uint64_t trial) {
    st->phase = 0;
    st->round = 1;
    st->n_events = 0;
    st->next_slot = 0;
    st->winner = -1;
    st->over = false;
    st->active = -1;
    st->n = n;
    /* Seed 000 "Dueling" (duel.c): nothing learned, held or won yet. */
    for (int i = 0; i < 2; i++) {
        st->duel_margin[i] = 0;
        st->duel_held_stun[i] = st->duel_held_lethal[i] = 0;
        st->duel_held_src[i] = -1;
    }
    st->duel_end = 0;
    st->duel_blood = 0;
    st->duel_held_phase = 0;
    fray_rng_for_trial(&st->rng, seed, trial);
}

/* The combatant whose turn it is, or -1 when the fight is over. Does not
 * change the state. */
int ft_next_actor(const ft_state *st);
/* Puts combatant c in its place on the clock track (st->clock) after its
 * phase, slot or flags changed: on it when it is on the clock, off it
 * when it is out of the fight or holding. */
void ft_clock_place(ft_state *st, int c);
/* Builds the clock track again from every combatant's phase, slot and
 * flags (the begin event; states put together by hand). */
void ft_clock_sync(ft_state *st);
/* The advantage's name is Sure-Footed (case, '-' and ' ' aside): seed 000
 * "Shift Position" lets it Shift into difficult terrain. */
bool ft_is_sure_footed(const char *name);
/* Resets st from the setup (no allocation, no parsing): decks shuffled with
 * rng seeded from `seed`. Then apply FT_CMD_BEGIN. */
void ft_state_reset(const ft_setup *s, ft_state *st, uint64_t seed);
/* engine.c: the flip and shift mods of a stat block's advantages for `what`
 * (standard ranks, rules-facts.md: the best advantage and the worst
 * disadvantage); returns best - worst. */
int ft_advantage_mods(const ft_statblock *sb, ft_applies what, int *flip,
                      int *shift);
/* attack.c: the STUN bonus of damage advantages (+rank of the best, the
 * rank of the worst disadvantage). */
int ft_damage_advantage(const ft_statblock *sb);
/* The state of trial `trial` of a simulation with master seed `seed`
 * (its stream: fray_rng_for_trial(seed, trial)); ft_state_reset is trial 0. */
void ft_state_reset_trial(const ft_setup *s, ft_state *st, uint64_t seed,
                          uint64_t trial);
/* Applies one command as an event. r->ev must be zeroed with cmd set (or a
 * recorded event with r->replay). */
fray_status ft_apply(ft_run *r);
/* Whether a command is legal now (actor's turn, target in range, ...);
 * FRAY_ERR_INVALID with a message in rules words. */
fray_status ft_check_command(const ft_setup *s, const ft_state *st,
                             const ft_command *cmd, fray_diag *diag);
/* The same, keeping its move search in `paths` (may be NULL) and answering
 * from it when the search is the same. */
fray_status ft_check_command_paths(const ft_setup *s, const ft_state *st,
                                   const ft_command *cmd, fray_diag *diag,
                                   ft_path_cache *paths);
/* The same, taking from `memo` (may be NULL) that an attack the policy
 * just found possible on this state is possible. */
fray_status ft_check_command_memo(const ft_setup *s, const ft_state *st,
                                  const ft_command *cmd, fray_diag *diag,
                                  ft_path_cache *paths,
                                  const ft_attack_memo *memo);

/* policy.c: the default tactics. Chooses the command for the actor whose
 * turn it is. */
void ft_policy_choose(const ft_setup *s, const ft_state *st, int actor,
                      ft_command *out);
/* The same; *out_checked tells whether the command chosen passed
 * ft_check_command on `st` (the last-resort Forced Delay is not checked). */
void ft_policy_choose_checked(const ft_setup *s, const ft_state *st, int actor,
                              ft_command *out, bool *out_checked,
                              ft_path_cache *paths);
/* The same, leaving in *memo (may be NULL) the modifiers of the attack it
 * chose (ft_attack_memo); memo->valid false when it chose none. */
void ft_policy_choose_memo(const ft_setup *s, const ft_state *st, int actor,
                           ft_command *out, bool *out_checked,
                           ft_path_cache *paths, ft_attack_memo *memo);
/* Fills s->hit_permille from the exact odds (fray_odds_attack) for the
 * setup's deck and flip options and sets s->hit_ready; the loader calls it
 * once the setup is complete. About 700 odds queries (a few ms). */
void ft_policy_prepare(ft_setup *s);
extern const ft_hooks ft_policy_hooks; /* fate and opportunity choices by tactics */

/* render.c */
size_t ft_render_event(const ft_setup *s, const ft_event *ev, char *buf, size_t size);
size_t ft_render_event_json(const ft_setup *s, const ft_event *ev, char *buf, size_t size);
size_t ft_render_clock(const ft_setup *s, const ft_state *st, char *buf, size_t size);
size_t ft_render_map(const ft_setup *s, const ft_state *st, char *buf, size_t size);
/* The summary; `failed`: the error that stopped the fight (FRAY_OK: none). */
size_t ft_render_summary(const ft_setup *s, const ft_state *st,
                         fray_status failed, char *buf, size_t size);

/* load.c */
fray_status ft_load_files(const char *const *paths, int n, ft_setup *out,
                          fray_diag *diag);
/* The same loader on a file's text in memory (`len` bytes, no NUL needed):
 * `path` names it in errors, and the files it names (catalog:,
 * statblocks:) are read from the disk relative to it. Loads straight into
 * *out (as fray_towers_load does): on error *out is unspecified. */
/* `--vary options.NAME=VALUE`: NAME: VALUE read as an encounter's
 * `options:` reads it, into s->opt (load.c; not `decks`). */
fray_status ft_options_vary(ft_setup *s, const char *key, const char *name,
                            const char *value, fray_diag *diag);
bool ft_option_known(const char *name);
/* (simrep) The name of option i of `options:`, NULL past the last
 * (load.c; vary.c's "did you mean"). */
const char *ft_option_name(int i);
fray_status ft_load_text(const char *text, size_t len, const char *path,
                         const fray_allocator *alloc, ft_setup *out,
                         fray_diag *diag);

/* ---- Companions, marks, stances (companion.c: towers-companion) --------- */

/* Seed 000 "Marked Targets": whether `who` has `target` marked (as its
 * ally or its non-ally). */
bool ft_marked(const ft_state *st, int who, int target);
/* Whether `who` has the space p marked. */
bool ft_marked_space(const ft_state *st, int who, fray_pos p);
/* "When something says a mark is spent, it is removed": spends who's mark
 * on target (a combatant), or its marked space when target < 0; false
 * when there was no such mark. */
bool ft_mark_spend(ft_state *st, int who, int target);
/* Puts who's mark on target (a combatant; the old mark of that kind
 * expires), or on the space p when target < 0. */
void ft_mark_set(const ft_setup *s, ft_state *st, int who, int target,
                 fray_pos p);
/* The stance of c now: true aggressive, false defensive (the state's
 * choice, else the stat block's). */
bool ft_stance_aggressive(const ft_setup *s, const ft_state *st, int c);
/* Whose place on the clock an action of `a` moves: its master's when it
 * is a companion acting at its master's turn, else its own. */
static inline int ft_turn_of(const ft_state *st, int a) {
    const ft_cstate *c = &st->c[a];
    return (c->flags & FT_F_RIDING) && c->master > 0 ? c->master - 1 : a;
}
/* A riding companion of `master` (the first), or -1. */
int ft_companion_riding(const ft_state *st, int master);
/* The master `m` left the clock: when it cannot act (down or fled), its
 * riding companions get their own places (option companion-alone). */
void ft_companions_release(ft_state *st, int m);
/* After the pair's action moved the master's place: a companion let go
 * during it takes the master's new place (option pair). */
void ft_companions_follow(ft_state *st, int m);

/* Tactics of a companion on its own (its master down): its tactics'
 * choice, but an attack goes to a foe threatening its unconscious or
 * dying master when it can ("defending the player"). */
void ft_companion_alone_choose(const ft_setup *s, const ft_state *st,
                               int actor, ft_command *out, bool *out_checked,
                               ft_path_cache *paths, ft_attack_memo *memo);
/* Seed 000 "Companions and Minions": "Both the player and the companion
 * can move during Combat or Reckless Move actions, but one must complete
 * their movement before the other begins": the check of cmd->also (the
 * second mover, judged as its own move with the first already at his
 * destination; st is put back as it was). engine.c's check asks it. */
fray_status ft_companion_check_also(const ft_setup *s, ft_state *st,
                                    const ft_command *cmd, fray_diag *diag);
/* The end of a non-free action of a master or a companion (engine.c
 * apply_action): the riding companions' activations end with the
 * master's, they take his place, neither is flat-footed, and a companion
 * let go during the action follows his new place. */
void ft_pair_end(ft_run *r, int a, int turn);

/* Tactics of a master with a riding companion (policy.c asks it for the
 * pair's turn): the master's choice and each riding companion's
 * (ft_policy_choose_memo), then the one kept: the better attack (attack
 * value and modifiers against the defense's, the master's on a tie); when
 * only one of them attacks, that one; else the master's, and a Combat Move
 * of the master takes along a companion that wants to move too. */
void ft_pair_choose(const ft_setup *s, const ft_state *st, int actor,
                    ft_command *out, bool *out_checked, ft_path_cache *paths,
                    ft_attack_memo *memo);

/* ---- Fast paths for simulation (perf) ------------------------------------
 * Inline copies of small public functions that the fight loop asks millions
 * of times (exported functions are not inlined across files). Each gives
 * exactly what the function it copies gives. */

/* fray_card_value. */
/* The rank of each standard card (card % 13 + 2), read instead of divided
 * out: flips and Hand of Fate choices ask for it per card. */
static const uint8_t ft__card_rank[FRAY_CARDS_STANDARD] = {
    2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    12, 13, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2, 3, 4, 5, 6, 7, 8,
    9, 10, 11, 12, 13, 14};

static inline int ft_card_value(const fray_deck_options *o, fray_card card) {
    if (card >= FRAY_CARDS_STANDARD)
        return card >= FRAY_CARDS_MAX ? 0 : o->joker_value;
    int rank = ft__card_rank[card];
    return rank == FRAY_RANK_ACE && o->aces_low ? 1 : rank;
}

/* The cards of the deck held in a Hand of Fate, as bits by card id (a deck
 * has at most FRAY_CARDS_MAX <= 64 cards). With SSE2 the places are
 * compared sixteen at a time. */
static inline uint64_t ft_deck_held_bits(const fray_deck *deck) {
    uint64_t m = 0;
#if defined(__SSE2__) && defined(__GNUC__)
    int size = deck->size;
    if (size >= 48 && size <= FRAY_CARDS_MAX) {
        const __m128i want = _mm_set1_epi8((char)FRAY_PLACE_HELD);
        const uint8_t *pl = deck->place;
        /* Three blocks, then the last sixteen places (overlapping). */
        for (int b = 0; b < 3; b++)
            m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                     _mm_loadu_si128((const __m128i *)(const void *)(pl + 16 * b)),
                     want))
                 << (16 * b);
        m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                 _mm_loadu_si128((const __m128i *)(const void *)(pl + size - 16)),
                 want))
             << (size - 16);
        return m;
    }
#endif
    fray_card held[FRAY_CARDS_MAX];
    int n = (int)fray_deck_held(deck, held, FRAY_CARDS_MAX);
    for (int i = 0; i < n; i++)
        m |= (uint64_t)1 << held[i];
    return m;
}

/* fray_deck_held(deck, out, FRAY_CARDS_MAX): the cards held in a Hand of
 * Fate, in id order, into out (room for FRAY_CARDS_MAX); their count. */
static inline int ft_deck_held(const fray_deck *deck, fray_card *out) {
    uint64_t m = ft_deck_held_bits(deck);
    int n = 0;
    while (m) {
        out[n++] = (fray_card)__builtin_ctzll(m);
        m &= m - 1;
    }
    return n;
}

/* policy.c fate_choice's first answers: the tactics policy makes no Hand
 * of Fate or chip choice on this flip of `who` when it does not know the
 * total to reach, never acts (idle) or the flip already reaches it. What
 * fate.c asks before looking at held cards and chips. */
static inline bool ft_policy_fate_none(const ft_run *r, int who,
                                       bool is_defense, const fray_flip *f,
                                       int shift, int against) {
    /* (who < 0 || who >= n in one unsigned comparison: n >= 0.) */
    if ((unsigned)who >= (unsigned)r->st->n || against == INT_MIN || !f)
        return true;
    if (r->setup->c[who].tactics.preset == FT_TAC_IDLE)
        return true;
    /* The attack hits when attack >= defense: the attacker needs to reach
     * the defense, the defender to pass the attack. */
    int need = is_defense ? against + 1 : against;
    return f->kept_value + shift >= need;
}

/* The first nb (< 8) bytes at p as a number, loaded as one word: the
 * eight bytes from p must lie in one object (the remembered decisions'
 * and modifiers' keys load fields lying in a row this way). */
static inline uint64_t ft_low_bytes(const void *p, unsigned nb) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v >> (64 - 8 * nb);
#else
    return v & (((uint64_t)1 << (8 * nb)) - 1);
#endif
}

/* fray_card_is_heart. */
static inline bool ft_card_heart(fray_card card) {
    return card >= 13 * FRAY_SUIT_HEARTS && card < 13 * (FRAY_SUIT_HEARTS + 1);
}

/* ft_footprint. */
static inline fray_footprint ft_fp(const ft_setup *s, const ft_state *st,
                                   int c) {
    fray_footprint fp;
    fp.at = st->c[c].pos;
    int rank = s->c[c].sb.size_rank;
    fp.side = (int8_t)(rank <= 0 ? 1 : rank >= 4 ? 5 : rank + 1);
    return fp;
}

/* fray_grid_range (counting with diagonals worth 1.5, footprint sides
 * clamped to 1..5 as grid.c does). */
static inline int ft__gap(int a0, int na, int b0, int nb) {
    if (b0 >= a0 + na)
        return b0 - (a0 + na - 1);
    if (a0 >= b0 + nb)
        return a0 - (b0 + nb - 1);
    return 0;
}
static inline int ft_range(fray_footprint a, fray_footprint b) {
    int na = a.side < 1 ? 1 : a.side > 5 ? 5 : a.side;
    int nb = b.side < 1 ? 1 : b.side > 5 ? 5 : b.side;
    int dx = ft__gap(a.at.x, na, b.at.x, nb), dy = ft__gap(a.at.y, na, b.at.y, nb);
    return dx > dy ? dx + dy / 2 : dy + dx / 2;
}

/* The setup's step table for fray__grid_reach_steps, or NULL. */
static inline const uint8_t (*ft_steps(const ft_setup *s))[FRAY_GRID_MAX][8] {
    return s->fast.ready && s->fast.has_steps ? s->fast.steps : NULL;
}

/* fray_grid_cover and fray_grid_sight_fp on the setup's map, from
 * s->fast when it knows the pair (one-space footprints). */
static inline unsigned ft_geo_entry(const ft_setup *s, fray_footprint a,
                                    fray_footprint b) {
    if (!s->fast.ready || a.side != 1 || b.side != 1)
        return 0;
    if (s->fast.pairs) {
        int w = s->map.w;
        if ((unsigned)a.at.x >= (unsigned)w || (unsigned)b.at.x >= (unsigned)w ||
            (unsigned)a.at.y >= (unsigned)s->map.h ||
            (unsigned)b.at.y >= (unsigned)s->map.h)
            return 0;
        return s->fast.pair[a.at.y * w + a.at.x][b.at.y * w + b.at.x];
    }
    unsigned dx = (unsigned)(b.at.x - a.at.x + FT_GEO_NEAR);
    unsigned dy = (unsigned)(b.at.y - a.at.y + FT_GEO_NEAR);
    if (dx >= FT_GEO_SIDE || dy >= FT_GEO_SIDE ||
        (unsigned)a.at.x >= FT_GEO_MAX || (unsigned)a.at.y >= FT_GEO_MAX)
        return 0;
    return s->fast.geo[a.at.y][a.at.x][dy][dx];
}

static inline fray_cover ft_geo_cover(const ft_setup *s, fray_footprint a,
                                      fray_footprint b) {
    unsigned e = ft_geo_entry(s, a, b);
    if (e & FT_GEO_KNOWN)
        return (fray_cover)(e & 3u);
    return fray_grid_cover(&s->map, a, b);
}

static inline bool ft_geo_sight(const ft_setup *s, fray_footprint a,
                                fray_footprint b) {
    unsigned e = ft_geo_entry(s, a, b);
    if (e & FT_GEO_KNOWN)
        return (e & FT_GEO_SIGHT) != 0;
    return fray_grid_sight_fp(&s->map, a, b);
}

/* ---- The public objects (include/fray/encounter.h) ---------------------- */
#include "fray/encounter.h"

struct fray_towers_setup {
    fray_allocator alloc;
    ft_setup s;
};

enum { FT_ASKED_MAX = 1024 };
struct fray_towers_fight {
    const fray_towers_setup *setup;
    fray_allocator alloc;
    fray_towers_fight_options opt;
    uint64_t seed;
    uint64_t trial;          /* the simulation trial its stream comes from (0: fray fight) */
    ft_state st;
    ft_event scratch;        /* the event being applied (then packed into
                                the layer's journal, when it keeps one) */
    /* The shared layer's fight (src/encounter/fight.c) that holds this one
     * and its journal, when made through fray_towers_fight_new or
     * fray_fight_new; NULL for a simulation's worker fight. */
    struct fray_fight *jf;
    /* The layer's count of events applied (fray_fight_events), kept here
     * by the fray_towers_fight_* wrappers for code that reads it; 0
     * without a journal. */
    int n_events;
    /* The last begin, step or command made an event (ruleset.c packs it
     * for the layer's journal; event_pack). */
    bool made;
    /* A table command's Hand of Fate, chip and opportunity words, while
     * that command is applied (fight.c); NULL: the tactics policies. */
    struct ft_table *table;
    ft_path_cache paths;     /* the last move search (engine.c find_path) */
    ft_attack_memo memo;     /* the policy's last attack modifiers (policy.c) */
    /* Decisions remembered (ft_decision_cache, below): a quiet fight of
     * up to FT_DECIDE_MAX_N combatants has them; NULL: none. */
    struct ft_decision_cache *decide;
    /* FRAY_OK, or the error of the step (or the start) that failed: a
     * fight never goes on after a failed step (issue 11). Every step and
     * run returns it until reset (or an undo rebuilds a state). */
    fray_status failed;
    /* Set by whoever runs the fight (sim.c: its workers' shared stop
     * flag) to stop fray_towers_fight_run between two events, within
     * FT_CANCEL_EVERY of them (FRAY_ERR_CANCELED); NULL: never. The fight
     * can go on afterwards. Not in the public options: only sim.c asks. */
    const atomic_bool *cancel;
    /* The table command that a GM's question refused (gm.c
     * ft_gm_ask_dtn), waiting for "answer N"; "" none. */
    char asked[FT_ASKED_MAX];
    /* issue 7: the kind of the question `asked` waits on (FT_GMQ_*). */
    int asked_kind;
    /* duelquick (quick.c): a simulation's fight whose setup takes the duel
     * shortcut holds its remembered choices here (NULL: the long way);
     * quick_off sends it the long way all the same (tests). */
    struct ft_quick *quick;
    bool quick_off;
};

/* Events between two looks at fray_towers_fight.cancel in a run: rare
 * enough to cost nothing in a duel, and a fight runs some 10^6 events a
 * second, so a few milliseconds at most. */
enum { FT_CANCEL_EVERY = 4096 };

/* fight.c: event i of the fight's journal (0 <= i < recorded, the
 * layer's), unpacked into *buf (which it returns); NULL when there is no
 * such event. */
const ft_event *ft_fight_event(const fray_towers_fight *f, int i,
                               ft_event *buf);

/* fight.c: applies a command as a new event (journal or scratch). */
fray_status ft_fight_apply(fray_towers_fight *f, const ft_command *cmd,
                           const fray_card *cards, size_t n_cards,
                           fray_diag *diag);

/* ---- 99 Towers in the shared layer (fight.c, sim.c, ruleset.c) ---------- */

/* The packed form of an event (the layer's journal; docs/architecture.md
 * "The journal and its memory"): its header, then as many cards, card
 * decks, choices and facts as it has. */
size_t ft_event_pack(const ft_event *ev, uint8_t *out);
void ft_event_unpack(const uint8_t *p, size_t len, ft_event *out);
size_t ft_event_packed_max(void);

/* ruleset.c: 99 Towers' table (the registry lists it: rulesets.c). */
struct fray__ruleset;
extern const struct fray__ruleset fray__towers_ruleset;

struct fray__fight_opts;
struct fray__jline;
struct fray_given;
/* The table's fight functions (ruleset.c lists them). */
fray_status ft_rf_new(const void *setup, const struct fray__fight_opts *o,
                      const fray_allocator *alloc, void **out);
void ft_rf_free(void *rf);
fray_status ft_rf_begin(void *rf, uint64_t seed, uint64_t trial,
                        const struct fray_given *given);
fray_status ft_rf_step(void *rf);
/* issue 7: over, and no Hand of Fate exchange of the tactics to come
 * (option fate-exchange-below; ruleset.c's `over`). */
bool ft_rf_over(const void *rf);
fray_status ft_rf_run(void *rf);
fray_status ft_rf_run_quiet(void *rf);
fray_status ft_rf_command(void *rf, const char *text,
                          const struct fray_given *given, fray_diag *diag);
size_t ft_rf_event_pack(const void *rf, uint8_t *out);
fray_status ft_rf_replay(void *rf, const uint8_t *ev, size_t len,
                         bool is_begin, uint64_t seed, uint64_t trial,
                         fray_diag *diag);
bool ft_rf_same(const void *a, const void *b);
fray_status ft_rf_event_read(const void *setup, const struct fray__jline *l,
                             const void *json_object, uint8_t *out,
                             size_t *out_len, fray_diag *diag);
/* sim.c: the simulation's part. */
fray_status ft_rf_sim_new(const void *setup, uint64_t seed, int until,
                          const atomic_bool *cancel,
                          const fray_allocator *alloc, void **out);
fray_status ft_rf_reset_trial(void *rf, uint64_t seed, uint64_t trial);
void ft_rf_count(const void *rf, fray_sim_counts *c);

/* ---- The quiet fight loop (engine.c, fight.c): speed, nothing recorded ---- */

/* ft_apply for a caller that has just asked ft_next_actor(r->st): `next`
 * is its answer, which the clock's step (FT_CMD_PHASE) then does not ask
 * again; FT_NEXT_UNKNOWN: ask (ft_apply). */
enum { FT_NEXT_UNKNOWN = -100 };
fray_status ft_apply_next(ft_run *r, int next);

/* ---- Hand of Fate rounds the policy would leave empty (fate.c, speed) ---- */

/* The highest ft_card_value(o, card) of the cards in bits m (not 0): the
 * highest rank held in any suit (an Ace worth 1 when aces are low), or a
 * Joker's value. */
static inline int ft_held_top_value(const fray_deck_options *o, uint64_t m) {
    const uint64_t suit = ((uint64_t)1 << 13) - 1;
    unsigned ranks = (unsigned)((m | m >> 13 | m >> 26 | m >> 39) & suit);
    int top = INT_MIN;
    if (o->aces_low && (ranks & (1u << 12))) {
        ranks &= ~(1u << 12);
        top = 1;
    }
    if (ranks)
        top = 31 - __builtin_clz(ranks) + 2;
    if ((m >> FRAY_CARDS_STANDARD) && o->joker_value > top)
        top = o->joker_value;
    return top;
}

/* (The speed-fate5 block at the end of this file.) */
static inline uint64_t ft_deck_held_mask(const fray_deck *deck);

/* A flip that keeps its lowest card with more than one of its cards
 * short of `need` after `shift`: one held card swapped in cannot make it
 * (ft_policy_fate_idle_held and the duel's model, quick.c). */
static inline bool ft_keep_lowest_short(const ft_setup *s, const fray_flip *f,
                                        int shift, int need) {
    int short_cards = 0;
    for (int i = 0; i < f->n_cards; i++)
        short_cards += ft_card_value(&s->opt.deck, f->cards[i]) + shift < need;
    return short_cards > 1;
}

/* The part of ft_policy_fate_idle that looks at the held cards, those of
 * `deck`. `need` is the total to reach, `least` the held cards fate_choice
 * wants at least (1 or 2). */
static inline bool ft_policy_fate_idle_held(const ft_run *r,
                                            const fray_deck *deck,
                                            const fray_flip *f, int shift,
                                            int need, int least) {
    const ft_setup *s = r->setup;
    uint64_t m = ft_deck_held_mask(deck);
    if (m == 0 || (least > 1 && (m & (m - 1)) == 0))
        return true;
    int top = ft_held_top_value(&s->opt.deck, m);
    if (top + shift < need)
        return true;
    return f->keep_lowest && ft_keep_lowest_short(s, f, shift, need);
}

/* Whether policy.c fate_choice surely makes no Hand of Fate or chip choice
 * on flip f of `who`: ft_policy_fate_none, or none of its choices has what
 * it needs. A white chip's (shift+1) needs use_chips, the flip one short
 * and a white chip; a swap needs use_hand_of_fate and a held card that
 * reaches the total itself (fate_choice's deck_best and top_held tests)
 * and, on a keep-the-lowest flip, every other card of the flip reaching it
 * too (the swap replaces one card, and keeping the lowest keeps any card
 * left short). A flip that decides no damage wants two chips or two held
 * cards (fate_choice's `damage`, narrower still on one's own Aid). So
 * true is exact; false only means "ask fate_choice". fate.c asks this
 * before the hooks, for a combatant whose deck it has found (who is one
 * of r->st's combatants, its deck one of r->st's decks) and a flip f (not
 * NULL): ft_policy_fate_none's first answer (no such combatant or flip)
 * is then false, and its others are asked cheapest first, the flip
 * already reaching its total (the usual answer) before the tactics. */
static inline bool ft_policy_fate_idle(const ft_run *r, int who,
                                       ft_flip_purpose p, const fray_flip *f,
                                       int shift, int against) {
    bool is_defense = p == FT_FLIP_DEFENSE;
    if (against == INT_MIN)
        return true;
    int need = is_defense ? against + 1 : against;
    if (f->kept_value + shift >= need)
        return true;
    const ft_setup *s = r->setup;
    const ft_tactics *tac = &s->c[who].tactics;
    if (tac->preset == FT_TAC_IDLE)
        return true;
    int least = p == FT_FLIP_ATTACK || is_defense ? 1 : 2;
    if (tac->use_chips && f->kept_value + shift + 1 >= need &&
        r->st->c[who].chips[0] >= least)
        return false;
    int deck_best = FRAY_RANK_ACE;
    if (s->opt.deck.jokers > 0 && s->opt.deck.joker_value > deck_best)
        deck_best = s->opt.deck.joker_value;
    if (!tac->use_hand_of_fate || f->n_cards <= 0 || deck_best + shift < need)
        return true;
    return ft_policy_fate_idle_held(r, &r->st->decks[s->c[who].deck], f,
                                    shift, need, least);
}

/* The clock's step (FT_CMD_PHASE) for fight.c's quiet run (r->facts off,
 * r->ev not written): `next` is ft_next_actor(r->st), whose phase is later
 * than the current one. Moves the clock to it with the same state changes
 * as ft_apply_next, counts the event, and returns ft_next_actor of the new
 * state (-1 when the fight is over). `going`: the last event was an action
 * applied without error (its end found the fight going on, and nothing
 * changed since), so the end of the fight is asked only if a zero phase
 * harms someone. */
int ft_phase_quiet(ft_run *r, int next, bool going);

/* fate.c, for opposed flips (attack.c). */
/* Hand of Fate and chips answered back and forth on an opposed flip just
 * made (af of a with shift *ash, then df of t against it; seed: "if one
 * side uses it, the other may respond"): a round of choices for a, then
 * for t, each against the other's total, until one side makes no choice
 * (at most 64 exchanges). Shifts are updated. Same errors as ft_flip. */
fray_status ft_flip_answers(ft_run *r, int a, ft_flip_purpose ap,
                            fray_flip *af, int *ash, int t,
                            ft_flip_purpose dp, fray_flip *df, int *dsh);

/* ---- Whole decisions remembered between turns (policy.c, speed) ---- */

/*
 * The tactics policy's decision (ft_policy_choose_memo: its command, whether
 * it checked it, and the attack modifiers it left in the memo) is a function
 * of the setup, the actor and a few fields of the state. When no combatant
 * has a condition these are, for every combatant: STUN, LETHAL and their
 * temporary parts; place and flags; Aim, Aid, weapons in hand and grapple;
 * for the actor also its ammunition and mana and whether it took a free
 * action this phase (no Forced Delay then). Nothing else of the state is
 * read by the policy or by the check of the commands it proposes (the
 * clock's other fields, holds, chips, statistics and the decks are not;
 * docs/architecture.md "Speed without changing a fight"). A fight of up to
 * FT_DECIDE_MAX_N combatants remembers the decisions it made under these
 * words (7 of them for two combatants, FT_DECIDE_KEY_WORDS for more; two
 * ways of FT_DECIDE_SETS sets, the less recently used replaced)
 * and gives a decision asked again on equal words without working it out.
 * Builds without NDEBUG work every remembered one out again and assert
 * that it is the same. Owned by a quiet fight (fray_towers_fight.decide);
 * kept across trials: its words do not depend on the trial.
 */
enum {
    FT_DECIDE_MAX_N = 4,
    FT_DECIDE_KEY_WORDS = 2 + 2 * FT_DECIDE_MAX_N + FT_DECIDE_MAX_N / 2,
    FT_DECIDE_SET_BITS = 11,
    FT_DECIDE_SETS = 1 << FT_DECIDE_SET_BITS
};

typedef struct ft_decision {
    bool full;                   /* false: empty */
    uint64_t hash;               /* of w[] (most misses stop at it) */
    bool checked;                /* the command was checked on that state */
    bool memo_valid, memo_reusable;
    int8_t memo_target, memo_weapon;
    int16_t memo_flip, memo_shift, memo_def_flip, memo_def_shift;
    ft_command cmd;
    uint64_t w[FT_DECIDE_KEY_WORDS];
} ft_decision;

typedef struct ft_decision_cache {
    const struct ft_setup *setup; /* whose decisions (with its fast stamp) */
    uint32_t stamp;
    uint8_t recent[FT_DECIDE_SETS]; /* the way used last, per set */
    ft_decision e[FT_DECIDE_SETS][2];
} ft_decision_cache;

/* ft_policy_choose_memo through `dc` (NULL: none; memo must not be NULL
 * for it to be used). */
void ft_policy_choose_remembered(const ft_setup *s, const ft_state *st,
                                 int actor, ft_command *out, bool *out_checked,
                                 ft_path_cache *paths, ft_attack_memo *memo,
                                 ft_decision_cache *dc);

/* ---- The attack and flip path of a quiet fight (speed-flip4) ------------ */

/* An opposed flip (ft_flip_opposed): the caller sets a, t, an, dn, ap,
 * dp, ash and dsh; the flip writes af, df, ash and dsh. */
typedef struct ft_opposed {
    int a, t;                /* first (attacker, grappler), defender */
    int an, dn;              /* their flips' n: rank + flip mods */
    ft_flip_purpose ap, dp;
    int ash, dsh;            /* their shifts: before (in), after (out) */
    fray_flip af, df;        /* out: their flips */
} ft_opposed;

/* fate.c: an opposed flip in one call, what ft_flip of o->a (n = an, shift
 * ash, against unknown: INT_MIN), ft_flip of o->t (dn, dsh) against a's
 * total, then ft_flip_answers do one after the other: the same draws,
 * rounds, results and errors. */
fray_status ft_flip_opposed(ft_run *r, ft_opposed *o);

/* fate.c: the choices of one round of Hand of Fate and chips on flip f of
 * `who` (r->round_i already counted for it), when ft_policy_fate_idle says
 * the round is not idle: what ft_flip_opposed does then (quick.c's model
 * of the duel's attack asks it so that its rounds are the engine's). */
fray_status ft_fate_round_choices(ft_run *r, int who, ft_flip_purpose p,
                                  fray_flip *f, int *shift, int against,
                                  bool *out_any);

/* ---- Hand of Fate and chips, quicker (speed-fate5) ----------------------- */

/* ft_deck_held_bits(deck), read from all FRAY_CARDS_MAX places whatever
 * the deck's size: places past it stay FRAY_PLACE_ABSENT (as
 * fray__deck_any_held reads them; builds without NDEBUG check it in
 * fate.c), so with SSE2 the blocks and their shifts are fixed: three of
 * sixteen, then the last sixteen (overlapping). */
static inline uint64_t ft_deck_held_mask(const fray_deck *deck) {
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i want = _mm_set1_epi8((char)FRAY_PLACE_HELD);
    const uint8_t *pl = deck->place;
    enum { LAST = FRAY_CARDS_MAX - 16 };
    uint64_t b0 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)pl), want));
    uint64_t b1 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)(pl + 16)), want));
    uint64_t b2 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)(pl + 32)), want));
    uint64_t b3 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)(pl + LAST)), want));
    return b0 | b1 << 16 | b2 << 32 | b3 << LAST;
#else
    return ft_deck_held_bits(deck);
#endif
}

/* Words at the table (fight.c): a combatant by id or name (-1 none); a
 * space X,Y on any map; a whole number lo..hi. */
int ft_word_combatant(const ft_setup *s, const char *tok);
bool ft_word_pos(const char *tok, fray_pos *out);
bool ft_word_int(const char *tok, int lo, int hi, int *out);

/* ---- The GM's commands (gm.c; issue 13, section 3) ---------------------- */
struct fray__words;
/* Whether the GM's command (an action with FT_AF_GM) can be given now. */
fray_status ft_gm_check(const ft_setup *s, const ft_state *st,
                        const ft_command *cmd, fray_diag *diag);
/* Applies r->ev->cmd, a GM's command: no turn, no clock move. */
fray_status ft_gm_apply(ft_run *r);
/* The words after "gm" at the table (lx is on "gm"). */
fray_status ft_gm_parse(const ft_setup *s, struct fray__words *lx,
                        ft_command *cmd, fray_diag *diag);
/* The narration's first line of a GM's event ("The GM sets ..."). */
size_t ft_gm_narrate(const ft_setup *s, const ft_event *ev, char *buf,
                     size_t size);
extern const char *const ft_gm_usage;
/* Seed 001: the DTN of a skill flip is the GM's call. A Use a Skill
 * command that gives none takes the encounter's "gm-answers" answer, else
 * is refused with the question and how to answer it. */
fray_status ft_gm_ask_dtn(const ft_setup *s, ft_command *cmd,
                          fray_diag *diag);
/* harm.c: status worked out again from STUN and LETHAL (after the GM set
 * them). */
void ft_harm_status(ft_run *r, int c);
/* Cards flipped by hand (gm.c; issue 13, "Cards by hand"): the log of
 * the command's flips (fate.c get_cards), the flip known to come next (an
 * opposed flip's second), and the refusals: too few cards (the total the
 * command needs, from whose deck), a card not in that deck. `what` is the
 * flip's text ("the attack flip"). */
void ft_hand_log(ft_run *r, int deck, int n, const char *what);
void ft_hand_next(ft_run *r, int who, int n, ft_flip_purpose purpose);
fray_status ft_hand_short(ft_run *r, int deck, int n, const char *what);
fray_status ft_hand_unavailable(ft_run *r, int deck, fray_card card,
                                int place, const char *what);
/* Seed 001: the flip mods and shifts the GM gave a skill flip
 * (cmd->gm_flip, gm_shift), added to *flip and *shift and told as a
 * modifier ("the GM's call"). */
void ft_gm_skill_mods(ft_run *r, const ft_command *cmd, int *flip,
                      int *shift);
/* "answer N" at the table (gm.c): when `command` is one, *out_text
 * becomes the command `asked` (that a question refused) with "dtn N"; an
 * answer with no question waiting is refused. out holds FT_ASKED_MAX +
 * 32 bytes. */
fray_status ft_gm_answer(const char *asked, const char *command, char *out,
                         size_t out_size, const char **out_text,
                         fray_diag *diag);
/* Whether diag holds a GM's question (ft_gm_ask_dtn's refusal). */
bool ft_gm_is_question(const fray_diag *diag);
/* issue 7: the GM's calls met while applying are rare: out of the
 * way of a plain attack's code. */
#if defined(__GNUC__)
#define FT_GM_COLD __attribute__((cold, noinline))
#else
#define FT_GM_COLD
#endif
/* issue 7: the GM's questions beyond the DTN (gm.c "More of the GM's
 * questions"). The kind of the question in diag (FT_GMQ_NONE: none). */
int ft_gm_question_kind(const fray_diag *diag);
/* "answer X" to a question of `kind`: as ft_gm_answer, with the kind's
 * word ("dtn", "cost", "high-ground", "all-hold", "strength-limit"). */
fray_status ft_gm_answer_kind(const char *asked, int kind,
                              const char *command, char *out,
                              size_t out_size, const char **out_text,
                              fray_diag *diag);
/* A command's word that answers a question in advance ("high-ground yes",
 * "all-hold first", "strength-limit 2"): *taken when lx->tok is one (its
 * value read into cmd), else left for the caller. */
fray_status ft_gm_word(const ft_setup *s, struct fray__words *lx,
                       ft_command *cmd, bool *taken, fray_diag *diag);
/* 000 "Action List" (a non-standard action's time, "the GM and player can
 * attempt to gauge"): a Use a Skill without `cost` takes the file's
 * "action-time" answer, else is refused with the question. */
fray_status ft_gm_ask_time(const ft_setup *s, ft_command *cmd,
                           fray_diag *diag);
/* Writes a question met while applying to r->ask (the first one; nothing
 * when r->ask is NULL). */
void ft_gm_met(const ft_run *r, int kind, int who, int target, int value,
               const char *what);
/* 000 "Elevation in Melee" ("in the GM's opinion"): whether attacker a,
 * diff > 0 levels above t, has high ground: the command's answer (its own
 * attack), the file's least difference, else yes (asked at the table). */
FT_GM_COLD bool ft_gm_high_ground(const ft_run *r, int a, int t,
                                  bool opportunity, int diff);
/* 000 "Hold" ("up to the GM's discretion"): everyone holds with nobody on
 * the clock: the phases from now they come out in (5: forced Delay, the
 * default; 0: the first holder acts first). */
int ft_gm_all_hold_phases(ft_run *r);
/* 000 "Improvised Weapons" ("should be decided on by the GM"): the <PX>
 * that attacker a's improvised weapon w with no strength-limit adds
 * (w->strength_limit FT_GM_LIMIT_ASK; attack.c ft_attack, the attack's
 * own damage: an area's or an exact duel's takes the whole <PX>). */
FT_GM_COLD int ft_gm_px_limited(const ft_run *r, int a, const ft_weapon *w,
                                int px);
/* ft_harm_hit for an improvised weapon w with no strength limit in the
 * data (w->strength_limit FT_GM_LIMIT_ASK): the same with the GM's limit
 * (ft_gm_px_limited) on attacker's <PX> (the halved one when grappled:
 * attack.c took the half off `bonus`). */
FT_GM_COLD fray_towers_hit ft_gm_harm_hit(const ft_run *r, int attacker,
                                          int target, const ft_weapon *w,
                                          int bonus, int hearts);
/* The question of r->ask (a kind met while applying), as a refusal. */
fray_status ft_gm_question(const ft_setup *s, const ft_ask *q,
                           fray_diag *diag);
/* issue 7: a fight nobody runs at the table brings in its
 * reinforcements: when a side stands only by combatants waiting to join
 * ("joins: later"), *cmd becomes the GM's join of the first of them (at
 * its place in the file, with an Initiative flip), or its flight when it
 * cannot enter there; false when none is due. */
bool ft_gm_reinforce(const ft_setup *s, const ft_state *st, ft_command *cmd);
/* engine.c: ends the fight when one side is left (check_over). */
void ft_check_over(ft_run *r);
/* The holds after a GM's command (no actor): holds waiting for an enemy
 * in reach come out, and when nobody is left on the clock the holders do
 * as seed 000 "Hold" says (the GM's all-hold call). */
void ft_check_holds(ft_run *r);

/* ---- Talents (talent.c) -------------------------------------------------- */

extern const char *const ft_talent_effect_names[FT_TE_COUNT];
extern const char *const ft_talent_when_names[FT_TW_COUNT];
/* The talent of the setup's catalog named `name` (case aside), or NULL. */
const ft_talent *ft_talent_find(const ft_setup *s, const char *name);
/* Works out sb->tsum from sb->talents (the loader calls it; so must a test
 * that gives a stat block talents by hand). */
void ft_talents_sum(ft_statblock *sb);
/* The options' part of sb->tsum (talents-add-up); the loader calls it
 * after ft_talents_sum, once the options are known. */
void ft_talents_options(ft_statblock *sb, const ft_options *o);
/* Whether a shift/flip effect counts on an attack flip (def false: the
 * attacker's, with weapon w) or a defense flip (def true), before `when`. */
bool ft_talent_on_attack(const ft_talent_effect *e, bool def, bool spell,
                         bool melee);
/* Whether effect e's `when` holds for combatant self against other (-1:
 * none) in the fight's state; w: self's weapon on an attack, else NULL. */
bool ft_talent_holds(const ft_setup *s, const ft_state *st, int self, int other,
                    const ft_weapon *w, const ft_talent_effect *e);
/* Initiative and skill flips: the talents' shifts and flips (`when`
 * always) added to *flip and *shift; skill names the skill (what SKILL). */
void ft_talent_flip_mods(const ft_statblock *sb, ft_applies what,
                         const char *skill, int *flip, int *shift);
/* Talent "reaction: extra-opportunity" (an extra reaction, fray's reading):
 * the first opportunity attack combatant e makes in each round (st->round)
 * does not move it later on the clock. The delay this one costs (0 or
 * `delay`); records the round. */
int ft_talent_oa_delay(ft_run *r, int e, int delay);
/* Talents' `damage` effects with `uses: once-per-encounter`: the STUN
 * they add to this hit of attacker a (the first hit of the fight for each
 * talent), marking them spent; a NOTE fact names each. */
int ft_talent_once_damage(ft_run *r, int a);

/* ---- issue 7 (talent.c) --------------------------------------------
 * Use a Talent (a command, FT_ACT_TALENT) and the Hand of Fate exchange
 * (FT_ACT_EXCHANGE; rules-facts.md "Hand of Fate"). */
/* Whether talent t is used by a command: an effect spends something, or
 * is once per encounter and is not a damage effect alone (Mighty Blow's
 * damage fires by itself). */
bool ft_talent_needs_use(const ft_talent *t);
/* The check of a Use a Talent or exchange command (NULL: it may be
 * made), in rules words. */
const char *ft_talent_use_refusal(const ft_setup *s, const ft_state *st,
                                  const ft_command *cmd);
const char *ft_exchange_refusal(const ft_setup *s, const ft_state *st,
                                const ft_command *cmd);
fray_status ft_talent_use(ft_run *r);
fray_status ft_exchange(ft_run *r);
/* The tactics' exchange: the first deck not yet exchanged whose lowest
 * held card is worth less than `below`; false when none. Fills cmd. */
bool ft_exchange_choose(const ft_setup *s, const ft_state *st, int below,
                        ft_command *cmd);
/* The tactics' card for a `spend: hand-of-fate` talent: the lowest held
 * (1 + card; 0 none). */
int ft_talent_lowest_held(const ft_setup *s, const ft_state *st, int who);
/* ft_talent_holds with the run: also `when: outnumbering` (attack.c
 * ft_outnumbering). */
bool ft_talent_holds_run(const ft_run *r, int self, int other,
                         const ft_weapon *w, const ft_talent_effect *e);
/* The extra STUN of a hit by a with weapon w on t from damage effects read
 * at the hit (tsum.once_damage): once per encounter, with a `when`, armed. */
int ft_talent_hit_damage(ft_run *r, int a, int t, const ft_weapon *w);
/* (flip+N) of a's talents on its damage flips against t (Squeeze, Slam). */
int ft_talent_damage_flips(const ft_run *r, int a, int t);
/* An action's cost after the talents, armed ones too (engine.c). */
int ft_talent_action_cost(const ft_run *r, int a, ft_action act, int cost);
/* attack.c: whether a's side outnumbers t's in the melee a fights t in
 * (seed 000 "Outnumbering": more friendly characters involved). */
bool ft_outnumbering(const ft_run *r, int a, int t);
/* fate.c: one card of deck d into its Hand of Fate, from wherever the run
 * gets its cards (drawn, given by hand, replayed). */
fray_status ft_fate_hold_one(ft_run *r, int d, fray_card *out);
/* Seed 000 "Action List", Stand from Prone shortened by Acrobatics: when
 * the option quick_stand_dtn is on and combatant a has the skill
 * Acrobatics, flips its check (Quick Stand specialization: flip+1) and, on
 * a total of at least the DTN, sets *cost to quick_stand_phases. */
fray_status ft_quick_stand(ft_run *r, int a, int *cost);
/* rules-facts.md "Chips": a red chip (or blue) spent to "recover from a
 * Major Condition" (or, a higher chip for a lower chip's effect, a minor
 * one), as a free action: `shake CONDITION red`. The check of such a
 * Shake (cmd->chip 1 or 2): NULL when it can be done, else why not. */
const char *ft_red_shake_refusal(const ft_state *st, const ft_command *cmd);
/* Its apply: ends the condition, spends the chip (a CHIP fact). */
void ft_red_shake(ft_run *r, const ft_command *cmd);
/* rules-facts.md "Chips": a white chip (or a higher one) doubles <SPD> for
 * one action: a chip word on a move-related action (`move 8,3 white`).
 * The colour it spends from c's chips (chip 0: white, else red, else
 * blue; 1: red, else blue; 2: blue), or -1 when it holds none of them. */
int ft_chip_speed_colour(const ft_cstate *c, int chip);
/* Spends it (a CHIP fact, use FT_CHIP_FOR_SPEED). */
void ft_chip_speed_spend(ft_run *r, int a, int chip);
/* engine.c: the flip mods and shifts of a check of skill `skill` from the
 * stat block's advantages and talents (seed 001). */
void ft_skill_mods(const ft_statblock *sb, const char *skill, int *flip,
                   int *shift);
/* engine.c: every flip mod and shift of Use a Skill cmd by its actor
 * (unopposed): the actor's conditions, ft_skill_mods, a specialization's
 * (flip+1), the GM's call (r->setup and r->st are read). The engine's
 * flip and the chances at the table (chances.c) both take it. */
void ft_use_skill_mods(ft_run *r, const ft_command *cmd, int *flip,
                       int *shift);
/* The cost in phases of action `act` for sb after its talents' `cost`
 * effects (never below 1: a free action stays free). */
int ft_talent_cost(const ft_statblock *sb, ft_action act, int cost);

/* view.c: the fight as data (include/fray/view.h), the ruleset's `view`
 * hook (ruleset.h): reads the fight, changes nothing. */
struct fray_fight_view;
fray_status ft_view(const void *rfight, struct fray_fight_view *v);
/* ---- Tumbling and shared spaces (tumble.c: towers-tumble) ----------------
 * Seed 000 "Moving Through Spaces": "You can move into a non-ally's space
 * using the Acrobatics skill"; "Creature Sizes": creatures Tiny or smaller
 * share a space while their sizes add up to 1 or less. */

/* A creature's room in a space in 1/144ths (seed 000 "Creature Sizes":
 * Minuscule 1/4 x 1/4 = 9, Diminutive 1/3 x 1/3 = 16, Tiny 1/2 x 1/2 =
 * 36; Small and larger a whole space, 144). */
enum { FT_SPACE_ROOM = 144 };
static inline int ft_room(int size_rank) {
    return size_rank <= -4 ? 9 : size_rank == -3 ? 16 : size_rank == -2 ? 36
                                                                       : FT_SPACE_ROOM;
}
/* The move searches' view of who stands where (engine.c occ_init,
 * policy.c occ_list_init): n occupants, who[j] with footprint fp[j] seen as
 * kind[j] (fray_occupant) by `mover`. Where creatures Tiny or smaller
 * share a space with the mover and their rooms add up to one space or
 * less, they do not stand in its way: ALLY (pass, not stop) or, when it
 * may end its move there too (option share-end), EMPTY. */
void ft_share_kinds(const ft_setup *s, int mover, int n,
                    const int8_t *who, const fray_footprint *fp,
                    uint8_t *kind);
/* Who keeps combatant c from standing (ending: ending a move; else
 * passing) with footprint fp: the first other combatant in the way, or
 * -1. Skips `except`, the fled, and those with a flag of `skip` (FT_F_*).
 * Tiny or smaller creatures share a space while their rooms add up to at
 * most one space (ending: less than one unless share-end says 1 or less). */
int ft_share_blocker(const ft_setup *s, const ft_state *st, int c,
                     fray_footprint fp, int except, unsigned skip,
                     bool ending);
/* A tumble's path (cmd->tumble): as engine.c find_path, but the spaces of
 * standing non-allies may be passed through (never ended in). */
int ft_tumble_path(const ft_setup *s, const ft_state *st, int c,
                   fray_pos dest, int max_cost, int parity, fray_pos *path,
                   int max, bool *out_can_stop);
/* The check of a tumbling move (the DTN, the skill, the action); NULL
 * when it may be made, else why not in rules words. */
const char *ft_tumble_refusal(const ft_setup *s, const ft_state *st,
                              const ft_command *cmd, char *buf,
                              size_t size);
/* engine.c walk, before the mover steps from its place to path[i] on a
 * tumble: an Acrobatics flip for each standing non-ally whose space it
 * enters (at most one flip per non-ally and move). *io_spared gets their
 * bits when the option tumble-provokes is off (no opportunity attack from
 * them). A failed flip ends the move: *out_end is then the index of the
 * path where it ends (-1: where it began), else -2. */
fray_status ft_tumble_step(ft_run *r, int mover, const fray_pos *path, int i, uint32_t *io_tumbled,
                           uint32_t *io_spared, int *out_end);
/* After a move ends (facts on): a SHARE fact when c shares its space. */
void ft_share_note(ft_run *r, int c);
/* At the table (fight.c): the DTN of a tumble without `dtn N`: the
 * encounter's gm-answers for Acrobatics, else the GM's question. */
fray_status ft_tumble_ask_dtn(const ft_setup *s, ft_command *cmd,
                              fray_diag *diag);
/* The facts of tumble.c in words and as JSON fields (0 when not its). */
size_t ft_tumble_fact_text(const ft_setup *s, const ft_fact *f, char *buf,
                           size_t size);
size_t ft_tumble_fact_json(const ft_setup *s, const ft_fact *f, char *buf,
                           size_t size);

/* fray_towers_load adding every file it read to files (yaml_read.h;
 * NULL: none), for the layer's fray_setup_file_path (issue 14). */
struct fray__files;
fray_status ft_load_listing(const char *path, const fray_allocator *alloc,
                            fray_towers_setup **out, struct fray__files *files,
                            fray_diag *diag);

/* Whom event e names (names.c; the layer's fray_event_names): named[k]
 * for every combatant its command, choices and facts point at (room for
 * s->n_combatants); returns how many. */
int ft_event_names(const ft_setup *s, const ft_event *e, bool *named);

/* The reach c threatens with now (attack.c; 0: none), and the view's
 * spaces within it (view_reach.c; issue 14 "the map with tokens,
 * reach"). */
int ft_threat_now(const ft_setup *s, const ft_state *st, int c);
struct fray_fight_view;
struct fray_view_combatant;
fray_status ft_view_reach(struct fray_fight_view *v, const ft_setup *s,
                          const ft_state *st, int c,
                          struct fray_view_combatant *o);
/* ---- At the table (issue 19: chances.c) ---------------------------------- */

/* fight.c: a table command's words ("bandit-1 attack knight") read as a
 * command reads them; *n_words: its Hand of Fate, chip and opportunity
 * words. */
fray_status ft_table_parse(const ft_setup *s, const char *text,
                           ft_command *cmd, int *n_words, fray_diag *diag);
struct fray_chances;
/* chances.c: the ruleset's chances and sim_from hooks (ruleset.h). */
fray_status ft_rf_chances(const void *rf, int who, const char *command,
                          struct fray_chances *out, int max, int *n,
                          fray_diag *diag);
fray_status ft_rf_sim_from(void *rf, const void *from, uint64_t seed,
                           uint64_t trial);

/* ft_render_event with hide[c] (room for every combatant; NULL: none)
 * marking the combatants whose STUN, LETHAL and mana are told as the
 * view's descriptors, never as numbers (render.c; issue 14). */
size_t ft_render_event_hidden(const ft_setup *s, const ft_event *ev,
                              const bool *hide, char *buf, size_t size);

/* Speed (issue 16, crowd; attack.c): every write of what the kept threats
 * read (ft_state.threat_gen) calls ft_threat_touch. A trial place put in
 * and taken out again (a check) sets threat_gen to 0 meanwhile and then
 * back. A state put back from a copy or copied over from another fight
 * makes its fight's kept threats forget the count (ft_threat_forget). */
static inline void ft_threat_touch(ft_state *st) {
    st->threat_gen = st->threat_gen + 1 != 0 ? st->threat_gen + 1 : 1;
    st->threat_all_gen = st->threat_gen;
    st->threat_moved = 0;
}
/* ft_threat_touch for a change of combatant c alone (its place, weapons
 * in hand, falling or rising, fleeing or joining, a condition the kept
 * threats read: all that its signature holds, attack.c threat_sig). The
 * set of those changed (threat_moved) grows until a change not told by
 * whom empties it: past FT_THREAT_MOVED_MAX combatants a new one counts
 * as such a change, so that kept threats brought up to date since read a
 * few signatures, not everyone who moved since the fight began (8: the
 * fewest instructions in the bench's 16v16 of 4, 8 and 12; "This round:
 * the conditions' upkeep" in docs/architecture.md). */
#define FT_THREAT_MOVED_MAX 8
static inline void ft_threat_touch_one(ft_state *st, int c) {
    if (c < 0 || c >= 32 || st->threat_gen + 1 == 0 ||
        (!(st->threat_moved >> c & 1u) &&
         __builtin_popcount(st->threat_moved) >= FT_THREAT_MOVED_MAX)) {
        ft_threat_touch(st);
        return;
    }
    st->threat_gen++;
    st->threat_moved |= 1u << c;
}
static inline void ft_threat_forget(ft_threat_cache *tc) {
    tc->gen_st = NULL;
    tc->gen = 0;
    tc->path_st = NULL;
    tc->path_gen = 0;
    tc->look_st = NULL;
    tc->look_gen = 0;
}
/* Whether tc, brought up to date with r's state through threat_gen, says
 * what a fresh look at every combatant says (tests; debug builds check it
 * on every use). Brings tc up to date. */
bool ft_threat_kept_current(const ft_run *r, ft_threat_cache *tc);
/* ---- Shortcut (quick.c) ------------------------------------------------------------ */

/* issue 16, docs/architecture.md "Shortcuts": a simulation's fight whose
 * setup qualifies (ft_quick_plan's whitelist: two combatants on two
 * sides, plain melee weapons, tactics default, attack or power-attack, no
 * talents, companions, mana, formal duel or reinforcements, every option
 * but hand-of-fate and phase-limit at its default) runs each trial from
 * the begin event through a tight loop (ft_quick_run, from run_quiet)
 * that does exactly what the long way does for an Attack or Power Attack
 * of one on the other, and stops before choosing when anything else
 * comes; tests/unit/test_towers_quick.c holds it to the long way. */
typedef struct ft_quick ft_quick;
/* Whether the setup qualifies; when not, why (in rules words) in why. */
bool ft_quick_plan(const ft_setup *s, char *why, size_t why_size);
fray_status ft_quick_new(const fray_allocator *alloc, ft_quick **out);
void ft_quick_free(const fray_allocator *alloc, ft_quick *q);
/* Runs f (its begin event applied) with the run r of run_quiet (fight.c)
 * until the fight is over or the loop meets what it does not model;
 * *out_next and *out_going: run_quiet's next and going from there. A
 * refused attack: its status, the command in *refused (for step_done);
 * FRAY_ERR_CANCELED: f->cancel was set. */
fray_status ft_quick_run(fray_towers_fight *f, ft_run *r, int limit,
                         ft_command *refused, int *out_next, bool *out_going);
/* A fight made by sim_fight_new for a qualifying setup (tests). */
bool ft_quick_eligible(const void *rfight);
/* Sends a qualifying fight the long way (off) or the shortcut (tests). */
void ft_quick_set_off(void *rfight, bool off);
/* How many attacks the shortcut's loop has applied in this fight (tests). */
long ft_quick_actions(const void *rfight);
/* Of those, how many its model of the attack applied (tests). */
long ft_quick_modelled(const void *rfight);
/* The fight's start (the reset and the begin event) of a trial by the
 * shortcut's model, for a fight whose setup takes it and that records
 * nothing: true when done (f->st and the begin event as the long way
 * leaves them), false with the long way still to make (fight.c
 * ft_rf_begin). ft_quick_begun: how many starts it made (tests). */
bool ft_quick_begin(fray_towers_fight *f, uint64_t seed, uint64_t trial);
long ft_quick_begun(const void *rfight);
/* Sends every attack of the shortcut's loop through ft_attack (tests). */
void ft_quick_set_model_off(void *rfight, bool off);
/* fight.c: the tactics' choice for `next` as run_quiet makes it. */
void ft_fight_choose(fray_towers_fight *f, int next, ft_command *cmd,
                     bool *checked);

#endif

/*
 * fray/duel.h - exact odds of a 99 Towers duel: two combatants standing
 * toe to toe (no movement), each acting as its tactics say, worked out by
 * a Markov chain over their STUN and LETHAL, their places on the Combat
 * Clock and the few flags that change the odds (docs/rules/towers.md
 * "Exact duel odds"; issue 4, section 3).
 *
 * The chain assumes what a simulation with the encounter option
 * `fresh-decks: true` does: every flip comes from a freshly shuffled deck.
 * It does not model the Hand of Fate or chips (the encounter must turn
 * them off, or fray_towers_duel_odds_leaving leaves them out of a copy),
 * a formal duel (the `duel:` key: the Showdown, Focus, blows landing at
 * once), movement, ranged weapons, spells, or "Crit:" keywords; those
 * are refused with FRAY_ERR_INVALID and a message in rules words.
 *
 * The same struct serves every ruleset through fray_setup_duel_odds
 * (fray/fight.h): Alloy's duel odds fill it too, counting rounds where
 * 99 Towers counts phases (docs/rules/alloy.md "Tactics").
 * Also here (issue 15): the numbers of one attack taken from an encounter
 * file, every modifier by name (fray_towers_enc_attack; Alloy:
 * fray_alloy_attack_from), which `fray odds attack --encounter` prints.
 *
 * Probabilities are doubles (binary64) summed over the chain's paths; the
 * rounding error of a whole duel is far below 1e-12.
 *
 * Thread-safety: fray_towers_duel_odds only reads the setup; any number of
 * calls may run at once on the same setup.
 */
#ifndef FRAY_DUEL_H
#define FRAY_DUEL_H

#include "fray/common.h"
#include "fray/dice.h"
#include "fray/encounter.h"
#include "fray/towers.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    /* The fight-length distribution: one bin per phase 0..BINS-2; the
     * last bin holds every fight that ends at that phase or later. */
    FRAY_DUEL_LENGTH_BINS = 1000,
    /* The most chain states fray_towers_duel_odds makes (issue 11): about
     * 13 times the knights' duel, a minute and a few hundred MB. */
    FRAY_DUEL_MAX_STATES = 100000000
};

typedef struct fray_duel_odds {
    int a, b;                /* the combatants (indexes in the setup) */
    double p_first[2];       /* P(a / b acts first): initiative and ties */
    double p_win[2];         /* P(a wins), P(b wins) */
    double p_both_out;       /* both out at once: nobody wins */
    double p_unfinished;     /* the phase limit comes first: nobody wins */
    /* Left in the chain when it stopped: it stops once less than 1e-15
     * is left (too little to change a double's digits). */
    double p_left;
    /* The fight's length: the phase of its last action (as
     * fray_towers_fight_phase reads at the end of a fight). */
    double mean_length;
    double sd_length;
    double length[FRAY_DUEL_LENGTH_BINS];
    int phase_limit;         /* the encounter's limit (0: none) */
    long states;             /* chain states worked through */
    long transitions;        /* outcomes followed */
    /* |1 - (p_win[0] + p_win[1] + p_both_out + p_unfinished + p_left)|:
     * the rounding of the whole chain. */
    double mass_error;
} fray_duel_odds;

/*
 * The exact odds of the duel between combatants a and b of the setup (the
 * encounter must hold exactly these two, on different sides). The fight
 * runs as `fray fight` would run it: initiative flips and tie order
 * (RULINGS 9), then each turn the action the combatant's tactics policy
 * chooses (Attack, Power Attack, Full Defense, Recover or Forced Delay),
 * the attack's modifiers as the engine counts them, until one side is out
 * or the encounter's phase limit (with none: phase 100000). The chain stops
 * early once less than 1e-15 of the probability is still in play; that
 * remainder is p_left. The mean length is over the fights that ended.
 *
 * Errors: FRAY_ERR_INVALID with diag->message in rules words when the
 * duel holds something the chain does not model (the Hand of Fate, chips
 * the tactics would spend, ranged weapons or spells, "Crit:" keywords,
 * conditions, surprise, Hold or movement chosen by the tactics, ...);
 * FRAY_ERR_TOO_LARGE when the chain would hold more than
 * FRAY_DUEL_MAX_STATES states: refused before it is built when its
 * estimate (fray_towers_duel_estimate) is above that, else stopped when
 * it passes it (diag->message gives the figure); FRAY_ERR_NOMEM. Memory:
 * a few tens of bytes per chain state, through the setup's allocator,
 * freed before returning; time: about half a microsecond per state.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_duel_odds(const fray_towers_setup *setup,
                                           int a, int b, fray_duel_odds *out,
                                           fray_diag *diag);

/* fray_towers_duel_odds with another bound on the chain's states
 * (max_states > 0; 0: FRAY_DUEL_MAX_STATES). */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_duel_odds_max(const fray_towers_setup *setup,
                                               int a, int b, long max_states,
                                               fray_duel_odds *out,
                                               fray_diag *diag);

/* What fray_towers_duel_odds_leaving leaves out of the file (issue 15):
 * the chain cannot count the Hand of Fate (every hand each side could
 * hold), nor chips. */
enum {
    FRAY_DUEL_LEAVE_HAND_OF_FATE = 1, /* options: {hand-of-fate: 0} */
    FRAY_DUEL_LEAVE_CHIPS = 2         /* each combatant's tactics: {chips: false} */
};

/* fray_towers_duel_odds_max of the setup with what `leave_out` names
 * taken out (a copy: the setup is not changed); 0: the same. */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_duel_odds_leaving(
    const fray_towers_setup *setup, int a, int b, long max_states,
    unsigned leave_out, fray_duel_odds *out, fray_diag *diag);

/*
 * About how many states the chain of this duel would make, without
 * building it: from the STUN each combatant can lose (to the blows that
 * fit before the phase limit), the blows it takes to fell each, and the
 * LETHAL; within a factor of about 2 of fray_duel_odds.states for the
 * duels measured (docs/rules/towers.md "Exact duel odds"). Errors: those
 * of fray_towers_duel_odds for a duel the chain does not model.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_duel_estimate(const fray_towers_setup *setup,
                                               int a, int b,
                                               double *out_states,
                                               fray_diag *diag);

/*
 * Exact fractions of a duel's odds (issue 15: "exact fractions in its
 * JSON like every other odds command"), each in lowest terms as decimal
 * text (fray_bigratio, include/fray/dice.h): the chain run again with
 * GMP rationals instead of doubles, to the phase limit with no cut-off,
 * so p_win[0] + p_win[1] + p_both_out + p_unfinished is exactly 1. The
 * denominators grow with every blow (products of C(52, n) per flip), so
 * only small chains are counted this way: at most max_states states
 * (0: FRAY_DUEL_EXACT_MAX_STATES), refused before anything is built when
 * the estimate is above it (FRAY_ERR_TOO_LARGE, diag says the figure);
 * an encounter without a phase limit is refused (the fight could go on
 * forever with some chance: no finite sum). digits: the most decimal
 * digits of a denominator the chain carried. Release with
 * fray_duel_exact_free (safe on a zeroed struct).
 */
enum { FRAY_DUEL_EXACT_MAX_STATES = 50000 };

typedef struct fray_duel_exact {
    fray_bigratio p_first[2];    /* a, b (as fray_duel_odds) */
    fray_bigratio p_win[2];
    fray_bigratio p_both_out;
    fray_bigratio p_unfinished;
    fray_bigratio mean_length;   /* over every fight (all of them end) */
    long digits;
} fray_duel_exact;

FRAY_API void fray_duel_exact_free(fray_duel_exact *x);

/* fray_towers_duel_odds_leaving, and the same odds as exact fractions in
 * *exact (out is filled as by fray_towers_duel_odds_leaving, from the
 * same chain: its doubles are the fractions rounded). */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_duel_odds_exact(
    const fray_towers_setup *setup, int a, int b, long max_states,
    unsigned leave_out, fray_duel_odds *out, fray_duel_exact *exact,
    fray_diag *diag);

/*
 * Builds a duel encounter in memory from two stat-block files: stat block
 * name_a of path_a against name_b of path_b (a NULL name: the file must
 * hold exactly one stat block), standing next to each other with no map,
 * with tactics presets tactics_a / tactics_b (NULL: "attack"), and the
 * options that exact odds assume: `fresh-decks: true`, `hand-of-fate: 0`,
 * no chips spent. Paths are as the caller would open them (relative to the
 * working directory); each file names its own catalogs. The caller frees
 * *out with fray_towers_setup_free. Errors: those of fray_towers_load
 * (diag names the file, line and column), FRAY_ERR_INVALID (a file holds
 * several stat blocks and no name was given), FRAY_ERR_NOMEM.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_duel_setup(const char *path_a,
                                            const char *name_a,
                                            const char *path_b,
                                            const char *name_b,
                                            const char *tactics_a,
                                            const char *tactics_b,
                                            const fray_allocator *alloc,
                                            fray_towers_setup **out,
                                            fray_diag *diag);

/* ---- One attack's odds from an encounter file (issue 15, section 2) ---- */

enum { FRAY_ENC_MODS_MAX = 40, FRAY_ENC_WHY = 24 };

/* One Combat Modifier of the attack, with its reason in rules words (as
 * the narration of a fight names it: "flat-footed", "Power Attack"). */
typedef struct fray_enc_mod {
    bool defense;            /* on the defense flip (else the attack flip) */
    int flip, shift;         /* (flip+N) and (shift+N) */
    char why[FRAY_ENC_WHY];
} fray_enc_mod;

/* One part of the damage before Hearts and Resilience. */
typedef struct fray_enc_damage_part {
    int value;
    char why[FRAY_ENC_WHY];
} fray_enc_damage_part;

typedef struct fray_enc_attack {
    int attacker, defender;  /* combatant indexes in the setup */
    int weapon;              /* index among the attacker's weapons; -1 unarmed */
    char weapon_name[FRAY_ENC_WHY * 2];
    bool power;              /* Power Attack */
    bool spell;              /* SA against ID (else PA against PD) */
    const char *attack_rank_name;   /* "PA" or "SA" */
    const char *defense_rank_name;  /* "PD" or "ID" */
    int attack_rank, defense_rank;  /* before the modifiers */
    /* The query `fray odds attack` answers: the ranks plus the flip mods,
     * the shifts, the file's deck options; shared_deck when both flip
     * from one deck (RULINGS 2) and the file does not set fresh-decks. */
    fray_attack_query query;
    int n_mods;
    fray_enc_mod mods[FRAY_ENC_MODS_MAX];
    /* The damage as harm.c counts it: the sum of the parts; false when it
     * depends on something counted only in play (the GM's call on an
     * improvised weapon's strength). */
    bool has_damage;
    int damage;
    int n_damage_parts;
    fray_enc_damage_part damage_parts[8];
    int resilience;          /* ER (or IR for Arcane), armor included */
    const char *resilience_name;    /* "ER", "IR" or "none" */
    fray_towers_affinity affinity;
} fray_enc_attack;

/*
 * The odds of one attack of `attacker` on `defender` at the fight's start
 * (before anyone acts: flat-footed, where the file places them, the
 * conditions and stances it gives), with every Combat Modifier the engine
 * adds (attack.c ft_attack_mods) and its reason as a fight narrates it.
 * weapon: an index among the attacker's weapons, or -1 for the one in its
 * main hand. The Hand of Fate and chips are not counted. Errors:
 * FRAY_ERR_INVALID with diag->message in rules words (a bad index, the
 * same combatant, the attack cannot be made there: out of reach, no sight,
 * ...); FRAY_ERR_NOMEM.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_enc_attack(
    const fray_towers_setup *setup, int attacker, int defender, int weapon,
    bool power, fray_enc_attack *out, fray_diag *diag);
/* The index of the attacker's weapon called `name` (case does not
 * matter), or -1. */
FRAY_API int fray_towers_enc_weapon(const fray_towers_setup *setup,
                                    int attacker, const char *name);

/* ---- Alloy: one attack's odds from an encounter file (issue 15) -------- */

/* A modifier of an Alloy attack roll or of the defense, by name. */
typedef struct fray_alloy_enc_mod {
    bool defense;            /* on the target's defense (else the attack) */
    int value;
    char why[32];
} fray_alloy_enc_mod;

typedef struct fray_alloy_enc_attack {
    int attacker, defender;
    char weapon_name[64];    /* "" unarmed */
    int line_bonus;          /* the attack line's bonus (ability, block, proficiency) */
    int bonus;               /* line_bonus + every attack modifier */
    int base_defense;        /* the target's defense before its modifiers */
    int defense;             /* with them */
    char defense_name[16];   /* "Defense", "Fortitude", ... */
    int n_mods;
    fray_alloy_enc_mod mods[20];
    int proficiency_lost;    /* the weapon's proficiency bonus not had */
    char damage[32];         /* dice text, "1d8+3"; "" none */
    char crit_dice[16];      /* "" none */
    int crit_min;
} fray_alloy_enc_attack;

/*
 * Alloy: the attack of `attacker` on `defender` with its basic attack
 * (weapon: a slot of its stat block's weapons, -1 the one in hand), at
 * the fight's start (before initiative: where the file places them), with
 * every modifier attack.c's fa_attack_mods counts and the defense's, each
 * by name: what `fray odds roll d20+B --attack --vs DEFENSE --damage D`
 * takes. setup is fray_setup_ruleset_data of an Alloy setup. Errors:
 * FRAY_ERR_INVALID in rules words (the attack cannot be made there, bad
 * indexes), FRAY_ERR_NOMEM.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_alloy_attack_from(
    const void *setup, int attacker, int defender, int weapon,
    fray_alloy_enc_attack *out, fray_diag *diag);
/* The slot of the attacker's weapon called `name` (any case), or -1. */
FRAY_API int fray_alloy_enc_weapon(const void *setup, int attacker,
                                   const char *name);

#ifdef __cplusplus
}
#endif
#endif

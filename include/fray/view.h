/*
 * fray/view.h - a fight's state as data (docs/architecture.md "A fight as
 * data"): plain C structs, the same for every ruleset, with the ruleset's
 * own words in strings, for the browser server, the terminal table and
 * anything else that shows a fight.
 *
 * A view is a snapshot: fray_fight_view_new reads the fight once and
 * copies what it shows into one block of memory the view owns (every
 * pointer in it points into the view, or to static text); the fight can
 * go on or be freed afterwards. fray_fight_view_free frees it all.
 *
 * Who looks matters: the GM sees everything; a player sees what the
 * combatants it controls would (fray_view_scope). fray_fight_view_filter
 * makes the player's view (a new snapshot) and fray_fight_view_json writes
 * a view as one line of JSON for a scope (docs/journal.md "A fight as
 * JSON"); the server filters, never the page.
 *
 * Thread-safety: a view is plain data; any number of threads may read
 * one. Building one reads the fight (one thread per fight, as always).
 */
#ifndef FRAY_VIEW_H
#define FRAY_VIEW_H

#include "fray/common.h"
#include "fray/fight.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Health tracks of one combatant at most ("STUN", "LETHAL"; "HP"). */
enum { FRAY_VIEW_MAX_TRACKS = 4 };

/* A health track: 99 Towers' STUN and LETHAL, Alloy's HP. value counts
 * what is left, temporary points included (of which `temporary` are
 * temporary); max is the track's maximum. descriptor says it in words
 * ("unhurt", "hurt", "badly hurt", "out"), for who may not see numbers. */
typedef struct fray_view_track {
    const char *name;
    int value;
    int max;
    int temporary;
    const char *descriptor;
    bool exact;             /* false: value, max and temporary are hidden (-1) */
} fray_view_track;

/* How a condition ends (the core's endings, src/core/cond.h). */
typedef enum fray_view_ends {
    FRAY_VIEW_UNTIL_REMOVED,    /* until an action, an effect or the GM removes it */
    FRAY_VIEW_START_OF_TURN,    /* at the start of `whose` turn, `count` turns from now */
    FRAY_VIEW_END_OF_TURN,      /* at the end of `whose` turn, `count` turns from now */
    FRAY_VIEW_UNTIL_SAVED,      /* a saving throw ends it */
    FRAY_VIEW_WHILE_SUSTAINED,  /* while `whose` sustains it */
    FRAY_VIEW_END_OF_ROUND,     /* at the end of round `round` */
    FRAY_VIEW_WHEN_USED         /* when used once, or at the end of `whose` next turn */
} fray_view_ends;

/* The JSON word of an ending ("until-removed", "end-of-turn" ...). */
FRAY_API const char *fray_view_ends_word(fray_view_ends ends);

typedef struct fray_view_condition {
    const char *name;       /* "bleeding", "prone" */
    int value;              /* Bleeding X, ongoing damage; 0: none */
    fray_view_ends ends;
    int whose;              /* the combatant whose turn ends it; -1 none */
    int count;              /* START/END_OF_TURN: turns of `whose` to go */
    int round;              /* END_OF_ROUND: the round */
    int source;             /* who put it there; -1 nobody (or unknown) */
    const char *until;      /* the end in words: "until the end of Sir
                               Aldric's next activation" */
} fray_view_condition;

/* A resource: chips, mana by element, action points, healing surges. */
typedef struct fray_view_resource {
    const char *name;       /* "white chips", "fire mana", "action points" */
    int value;
} fray_view_resource;

/* A choice an action's command takes besides its target (issue 17): the
 * weapon to switch to or draw, the spell to cast, the power to use. The
 * command is the actor's id, the action's word, the option's word, then
 * the target's id or the space X,Y when the option needs one. */
typedef struct fray_view_option {
    /* the words the command takes for it, after the action's word: a
     * weapon or spell by name with '-' for a space ("long-sword"), Alloy's
     * "with POWER", and " at" after an area aimed at a space ("fireball
     * at": the space follows) */
    const char *word;
    const char *title;      /* its name: "Long Sword", "Firebolt" */
    bool needs_target;      /* names a combatant: the ones allowed in targets */
    bool needs_space;       /* names a space on the map (not checked) */
    int n_targets;
    const int *targets;     /* combatant indexes */
} fray_view_option;

/* An action the combatant whose turn it is may take now. */
typedef struct fray_view_action {
    const char *word;       /* the command word: "attack", "walk" */
    const char *title;      /* the rules' name: "Attack", "Walk" */
    bool needs_target;      /* names a combatant: the ones allowed are in targets */
    bool needs_space;       /* names a space on the map */
    /* true: the engine's own check allowed it as listed (with one of the
     * targets); false: it needs words the view cannot guess (a space, a
     * skill), which the engine checks when the command gives them. */
    bool checked;
    int n_targets;
    const int *targets;     /* combatant indexes */
    /* The choices its command needs besides (n_options 0: none): one of
     * them is given, or, when the action lists targets of its own, none
     * (Alloy's basic attack, 99 Towers' spell in hand). Each one listed
     * passed the engine's own check (with one of its targets), but one
     * that needs a space. */
    int n_options;
    const fray_view_option *options;
} fray_view_action;

/* A place a side last saw a combatant (fray_view_combatant.seen). */
typedef struct fray_view_seen {
    int x, y;
} fray_view_seen;

typedef struct fray_view_combatant {
    int index;              /* in the fight (commands, journals) */
    const char *id;         /* "bandit-2" */
    const char *name;       /* "bandit 2" */
    int side;
    const char *status;     /* "standing", "unconscious", "dying", "dead",
                               "fled", "holding", "not yet in the fight" */
    bool out;               /* out of the fight (not standing) */
    /* gm_only: no player sees it (not yet in the fight), except one who
     * controls it; unnoticed: the players' side has not noticed it yet
     * (99 Towers: every player's combatant of another side is unaware of
     * its side and has not acted), so a player sees it only when the
     * scope says show_unnoticed. */
    bool gm_only;
    bool unnoticed;
    int n_tracks;
    fray_view_track tracks[FRAY_VIEW_MAX_TRACKS];
    /* The time track: 99 Towers' Combat Clock (time: the phase of its
     * next activation; order: its place among those in that phase, 0
     * first), Alloy's initiative (time: the initiative; order: its place
     * in the round's order). on_time false: off the track (holding, out,
     * not yet in). */
    bool on_time;
    int time;
    int order;
    bool holding;           /* 99 Towers' Hold, Alloy's Delay */
    bool acted;             /* Alloy: has had its turn this round; 99 Towers: no longer flat-footed */
    const char *time_words; /* "phase 23", "initiative 17", "holding until phase 30" */
    /* The map: the top-left space of its footprint and the footprint's
     * side in spaces. on_map false: no map, or off it. */
    bool on_map;
    int x, y, size;
    /* Where each side last saw it (Alloy's total concealment, L7.16):
     * seen[k] for side k (k < n_seen); n_seen 0: every side sees it where
     * it is. A player sees it on the map where its own side last saw it
     * (the GM: where it is). */
    int n_seen;
    const fray_view_seen *seen;
    int n_conditions;
    const fray_view_condition *conditions;
    int n_resources;
    const fray_view_resource *resources;
    int n_weapons;
    const char *const *weapons;  /* in hand: main hand first */
    int hand;               /* index into fray_fight_view.hands; -1 none */
    int n_actions;          /* only for whoever's turn it is */
    const fray_view_action *actions;
    /* The spaces its melee threatens now (issue 14: the map draws its
     * reach), each (x, y) once, its own spaces not among them: 99 Towers:
     * within its weapons' threat reach as opportunity attacks read it
     * (ft_threatens); Alloy: within its melee basic attack's reach (its
     * natural reach, or its melee weapon's in hand). Only open spaces of
     * the map with no wall in between. n_reach 0: none (off the map, out,
     * or unable to strike: 99 Towers Stunned or Helpless; Alloy a firearm
     * in hand, Dazed, Stunned, Surprised, Unconscious, Helpless,
     * Dominated). A player sees it only where it sees the combatant where
     * it is. */
    int n_reach;
    const fray_view_seen *reach;
} fray_view_combatant;

/* A Hand of Fate (99 Towers): the cards held for one deck, private to
 * that deck's owners (the combatants who flip from it). */
typedef struct fray_view_hand {
    const char *deck;       /* the deck's name: "GM", "Sir Aldric" */
    bool gm_deck;           /* the GM's deck */
    int n_users;
    const int *users;       /* combatant indexes flipping from this deck */
    int n_cards;
    const char *const *cards;   /* "KH", "10S", "JK" */
} fray_view_hand;

typedef struct fray_view_legend {
    char code;              /* as in cells: '.', '#', '~', '=', 'v', '1'..'9' */
    const char *name;       /* "open", "wall", ... "high ground (levels)" */
} fray_view_legend;

/* A mark on the map (99 Towers' Marked Targets). */
typedef struct fray_view_mark {
    int by;                 /* the combatant who marked */
    const char *kind;       /* "ally", "foe", "space" */
    int target;             /* the marked combatant; -1 for a space */
    int x, y;               /* the marked space (kind "space") */
} fray_view_mark;

/* Spaces of the map with a rule of their own (Alloy's lightly obscured
 * and dark squares, narrow squares). */
typedef struct fray_view_area {
    const char *name;       /* "obscured", "dark", "narrow" */
    int n_spaces;
    const fray_view_seen *spaces;   /* {x, y} each */
} fray_view_area;

typedef struct fray_view_map {
    bool present;
    int width, height;
    const char *cells;      /* height rows of width codes, row by row, no
                               separators (cells[y * width + x]) */
    int n_legend;
    const fray_view_legend *legend;
    int n_marks;
    const fray_view_mark *marks;
    int n_areas;
    const fray_view_area *areas;
} fray_view_map;

typedef struct fray_view_internal fray_view_internal;

typedef struct fray_fight_view {
    const char *rules;      /* "towers", "alloy" */
    const char *title;      /* "99 Towers", "Alloy" */
    const char *time_unit;  /* "phase", "round" */
    int now;                /* the current phase or round */
    bool over;
    int winner;             /* the side that won; -1 none; -2 every side is out */
    int turn;               /* whose turn it is (combatant index); -1 nobody */
    const char *turn_words; /* "phase 12", "round 2, initiative 17"; "" none */
    int n_sides;
    const char *const *sides;
    int n_combatants;
    const fray_view_combatant *combatants;
    int n_hands;
    const fray_view_hand *hands;
    fray_view_map map;
    fray_view_internal *internal_;  /* the view's memory: not for callers */
} fray_fight_view;

/*
 * Who looks at a view. gm: everything. A player (gm false) controls the
 * combatants whose indexes are in controls[0 .. n_controls-1] (borrowed);
 * it sees no GM-only combatant (nor any trace of one: targets, sources,
 * marks and hand users that name one are left out or read -1), no Hand of
 * Fate but the ones its combatants flip from, and no exact numbers of the
 * health of combatants outside its own sides when enemy_numbers is false
 * (only their descriptors).
 */
typedef struct fray_view_scope {
    bool gm;
    int n_controls;
    const int *controls;
    bool enemy_numbers;     /* players see exact STUN/LETHAL/HP of others (default true) */
    bool show_unnoticed;    /* players see combatants not yet noticed (default false) */
} fray_view_scope;

/* The GM's scope, and a player's over the combatants given (borrowed). */
FRAY_API fray_view_scope fray_view_scope_gm(void);
FRAY_API fray_view_scope fray_view_scope_player(const int *controls,
                                                int n_controls);

/* A snapshot of the fight now. Errors: FRAY_ERR_INVALID (a NULL fight or
 * out, or a ruleset that cannot show its state), FRAY_ERR_NOMEM; *out is
 * NULL on error. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_view_new(
    const fray_fight *fight, const fray_allocator *alloc,
    fray_fight_view **out);
FRAY_API void fray_fight_view_free(fray_fight_view *view);

/* Whether the scope sees combatant position k of view->combatants, and
 * hand h of view->hands. */
FRAY_API bool fray_view_sees_combatant(const fray_fight_view *view,
                                       const fray_view_scope *scope, int k);
FRAY_API bool fray_view_sees_hand(const fray_fight_view *view,
                                  const fray_view_scope *scope, int h);

/* A new snapshot with only what the scope sees (a GM scope: a copy). The
 * combatants keep their fight indexes; hand indexes are renumbered.
 * Errors: FRAY_ERR_INVALID (NULL arguments), FRAY_ERR_NOMEM. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_view_filter(
    const fray_fight_view *view, const fray_view_scope *scope,
    const fray_allocator *alloc, fray_fight_view **out);

/* The view as one line of JSON (no newline) for the scope (NULL: the
 * GM), snprintf-style: returns the length the whole text needs, writes
 * what fits (always terminated when size > 0; buf may be NULL when size
 * is 0). A player's scope writes the filtered view (the filter applied
 * on the way, without allocating). */
FRAY_API size_t fray_fight_view_json(const fray_fight_view *view,
                                     const fray_view_scope *scope, char *buf,
                                     size_t size);

#ifdef __cplusplus
}
#endif
#endif

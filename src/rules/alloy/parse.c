/*
 * parse.c - Alloy's table commands in rules words -> fa_command
 * (alloy_int.h; docs/file-formats.md "Commands", Alloy's part).
 *
 *   next                                  the engine steps (end of turn, next turn)
 *   ID attack T [T ...] [with W|POWER]    basic attack or a power, one or more targets
 *   ID attack at X,Y [with POWER]         an area burst's origin / a blast's corner
 *                                         (may lie off the map: 6,-3)
 *   ID attack X,Y X,Y ... with POWER      a wall's squares in order
 *   ID attack T with POWER X,Y ...        a push, pull or slide's squares
 *                                         (alloy-space; else the engine's)
 *   ID attack T at X,Y                    the square guessed for a totally
 *                                         concealed target (fa_command.guess)
 *   ID walk X,Y [X,Y ...]                 a path, square by square; one square
 *                                         further than a step: the cheapest path
 *                                         there (fa_reach), as the engine counts it
 *   ID shift|run|crawl|squeeze X,Y ...    the same for the other moves
 *   ID stand [X,Y]                        (the adjust when its space is occupied)
 *   ID escape [acrobatics|athletics] [X,Y]
 *   ID charge T [X,Y ...] [bull-rush]     (without a path the engine finds it)
 *   ID bull-rush T [X,Y]                  (the square it is pushed into; else
 *                                         the engine's: straight away first)
 *   ID coup|trip|grapple|disarm T
 *   ID move-grappled X,Y ...
 *   ID aid ALLY attack|defense against T
 *   ID aid ALLY SKILL                     aid an adjacent ally's next check
 *   ID feint T                            a Bluff check against T (skills.c)
 *   ID skill SKILL [move]                 use a skill (a standard action, or
 *                                         a move action); SKILL: acrobatics,
 *                                         athletics, notice, bluff
 *   ID spray at X,Y / ID suppress at X,Y
 *   ID total-defense | second-wind | drop-prone | reload [W] | sustain |
 *      end-grab | action-point | delay | resume | end
 *   ID draw W|ITEM / ID retrieve W|ITEM   Draw or Holster, Retrieve Object
 *   ID holster                            the weapon in hand put away
 *   ID pick-up [X,Y] [OWNER] [W]          Manipulate an Object: an object on the
 *                                         floor (its own weapon first in reach)
 *   ID consume ITEM                       Consume Item (drawn first)
 *   ID disarm T [take]                    take: an unarmed attacker holds it
 *   ID ready ACTION [T] [with W] when T|any moves-adjacent|attacks|enters-reach
 *                                         (a readied walk, shift, run, crawl or
 *                                         squeeze goes away from T or the
 *                                         trigger; a charge at it; an area is
 *                                         placed on it: space.c)
 *   ID teleport X,Y [with POWER]          a teleport power (the journal's
 *                                         "attack" with that power, origin X,Y)
 *
 * Any command may end with `slot standard|move|swift` (the slot that pays:
 * a move bought with the standard action) and `decline ID|all` (no
 * opportunity attack by ID during the command). Words are compared
 * without regard to case; combatants, weapons and powers by id or by name
 * ('-' for a space). Errors: FRAY_ERR_PARSE, the token and its column
 * (byte offset + 1) in diag, with "did you mean" for a near name.
 *
 * Conventions the engine reads: aid's targets are [the enemy, the ally];
 * origin (-1,-1) is no origin; escape's option is the skill named
 * (-1: none, and the engine takes the better of the two).
 */
#include "alloy_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"
#include "internal.h"

typedef fray__words lexer;

static bool lex_next(lexer *lx) { return fray__words_next(lx); }

/* Case-insensitive; a space in a name matches '-' or '_' in the word
 * (words.h). */
static bool same_name(const char *name, const char *tok) {
    return fray__words_is_name(name, tok, strlen(tok));
}

static const char *id_of(const void *ctx, int i) {
    return ((const fa_setup *)ctx)->c[i].id;
}

static fray_status lex_error(const lexer *lx, fray_diag *diag,
                             const char *what, const char *hint) {
    if (diag)
        fray__diag_set(diag, FRAY_ERR_PARSE, lx->col, "%s, got '%s'%s%s%s",
                       what, lx->tok[0] ? lx->tok : "the end of the command",
                       hint ? " (did you mean '" : "", hint ? hint : "",
                       hint ? "'?)" : "");
    return FRAY_ERR_PARSE;
}

/* Levenshtein distance, case-insensitive, '-' and ' ' alike; large for
 * long words. */
static int distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int row[41];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            char x = (char)tolower((unsigned char)a[i - 1]);
            char y = (char)tolower((unsigned char)b[j - 1]);
            if (x == ' ')
                x = '-';
            if (y == ' ')
                y = '-';
            int best = prev + (x == y ? 0 : 1);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

/* Keeps the nearest candidate within a third of the word's length (at
 * least 1, at most 3 edits). */
typedef struct near {
    const char *best;
    int d;
} near;

static void near_try(near *n, const char *cand, const char *tok) {
    int lim = (int)strlen(tok) / 3;
    if (lim < 1)
        lim = 1;
    if (lim > 3)
        lim = 3;
    int d = distance(cand, tok);
    if (d <= lim && (!n->best || d < n->d)) {
        n->best = cand;
        n->d = d;
    }
}

static int find_combatant(const fa_setup *s, const char *tok) {
    for (int i = 0; i < s->n; i++)
        if (same_name(s->c[i].id, tok) || same_name(s->c[i].name, tok))
            return i;
    return -1;
}

static const char *near_combatant(const fa_setup *s, const char *tok) {
    near n = {NULL, 99};
    for (int i = 0; i < s->n; i++)
        near_try(&n, s->c[i].id, tok);
    return n.best;
}

/* A weapon slot of the actor's stat block (-1 none). */
static int find_weapon(const fa_setup *s, int actor, const char *tok) {
    const fa_statblock *sb = &s->sb[s->c[actor].sb];
    for (int i = 0; i < sb->n_weapons; i++) {
        int w = sb->weapons[i].weapon;
        if (w < 0 || w >= s->n_weapons)
            continue;
        if (same_name(s->weapons[w].id, tok) ||
            same_name(s->weapons[w].name, tok))
            return i;
    }
    return -1;
}

static int find_power(const fa_setup *s, int actor, const char *tok) {
    const fa_statblock *sb = &s->sb[s->c[actor].sb];
    for (int i = 0; i < sb->n_powers; i++)
        if (same_name(sb->powers[i].id, tok) ||
            same_name(sb->powers[i].name, tok))
            return i;
    return -1;
}

static const char *near_weapon_or_power(const fa_setup *s, int actor,
                                        const char *tok) {
    const fa_statblock *sb = &s->sb[s->c[actor].sb];
    near n = {NULL, 99};
    for (int i = 0; i < sb->n_weapons; i++) {
        int w = sb->weapons[i].weapon;
        if (w >= 0 && w < s->n_weapons)
            near_try(&n, s->weapons[w].id, tok);
    }
    for (int i = 0; i < sb->n_powers; i++)
        near_try(&n, sb->powers[i].id, tok);
    return n.best;
}

static bool parse_pos(const char *tok, fray_pos *out) {
    int x, y;
    char tail;
    if (sscanf(tok, "%d,%d%c", &x, &y, &tail) != 2 || x < 0 || y < 0 ||
        x >= FRAY_GRID_MAX || y >= FRAY_GRID_MAX)
        return false;
    out->x = (int16_t)x;
    out->y = (int16_t)y;
    return true;
}

static bool parse_origin(const char *tok, fray_pos *out) {
    int x, y;
    char tail;
    if (sscanf(tok, "%d,%d%c", &x, &y, &tail) != 2 || x < -FRAY_GRID_MAX ||
        y < -FRAY_GRID_MAX || x >= 2 * FRAY_GRID_MAX || y >= 2 * FRAY_GRID_MAX)
        return false;
    out->x = (int16_t)x;
    out->y = (int16_t)y;
    return true;
}

/* ---- The command words ----------------------------------------------------- */

enum {
    TAKE_TARGETS = 1 << 0,  /* combatants */
    TAKE_ONE = 1 << 1,      /* exactly one target */
    TAKE_PATH = 1 << 2,     /* X,Y squares */
    TAKE_AT = 1 << 3,       /* at X,Y */
    TAKE_WITH = 1 << 4,     /* with WEAPON|POWER */
    NEED_TARGET = 1 << 5,
    NEED_PATH = 1 << 6,
    NEED_AT = 1 << 7,
    TAKE_WEAPON = 1 << 8,   /* a bare weapon's name (draw, reload) */
    NEED_WEAPON = 1 << 9,
    TAKE_SKILL = 1 << 10,   /* acrobatics | athletics */
    TAKE_PUSH = 1 << 11,    /* a bare X,Y: the square the target is pushed into */
    TAKE_CHARGE_WORD = 1 << 12, /* bull-rush: the charge ends in a bull rush */
    TAKE_TAKE_WORD = 1 << 13   /* disarm's take: hold the weapon (004:445) */
};

typedef struct verb {
    uint8_t kind;
    int flags;
    const char *expects;    /* in rules words, for errors */
} verb;

static const verb verbs[FA_CMD_KINDS] = {
    [FA_CMD_BEGIN] = {FA_CMD_BEGIN, 0, ""},
    [FA_CMD_NEXT] = {FA_CMD_NEXT, 0, ""},
    [FA_CMD_ATTACK] = {FA_CMD_ATTACK, TAKE_TARGETS | TAKE_PATH | TAKE_AT | TAKE_WITH,
                       "a target, 'at X,Y', squares X,Y (a wall's, or where a push "
                       "goes) or 'with WEAPON'"},
    [FA_CMD_CHARGE] = {FA_CMD_CHARGE, TAKE_TARGETS | TAKE_ONE | TAKE_PATH | TAKE_WITH |
                       NEED_TARGET | TAKE_CHARGE_WORD,
                       "the target, squares X,Y, 'bull-rush' or 'with WEAPON'"},
    [FA_CMD_COUP] = {FA_CMD_COUP, TAKE_TARGETS | TAKE_ONE | TAKE_WITH | NEED_TARGET,
                     "the helpless target or 'with WEAPON'"},
    [FA_CMD_BULL_RUSH] = {FA_CMD_BULL_RUSH, TAKE_TARGETS | TAKE_ONE | NEED_TARGET | TAKE_PUSH,
                          "the target or the square X,Y it is pushed into"},
    [FA_CMD_TRIP] = {FA_CMD_TRIP, TAKE_TARGETS | TAKE_ONE | NEED_TARGET, "the target"},
    [FA_CMD_GRAPPLE] = {FA_CMD_GRAPPLE, TAKE_TARGETS | TAKE_ONE | NEED_TARGET,
                        "the target"},
    [FA_CMD_MOVE_GRAPPLED] = {FA_CMD_MOVE_GRAPPLED, TAKE_PATH | NEED_PATH,
                              "squares X,Y"},
    [FA_CMD_HELD_OBJECT] = {FA_CMD_HELD_OBJECT, TAKE_TARGETS | TAKE_ONE | TAKE_WITH | NEED_TARGET |
                            TAKE_TAKE_WORD,
                            "the target holding the object, 'take' or 'with WEAPON'"},
    [FA_CMD_AID] = {FA_CMD_AID, 0, ""}, /* its own grammar */
    [FA_CMD_SPRAY] = {FA_CMD_SPRAY, TAKE_AT | TAKE_WITH | NEED_AT,
                      "'at X,Y' or 'with WEAPON'"},
    [FA_CMD_SUPPRESS] = {FA_CMD_SUPPRESS, TAKE_AT | TAKE_WITH | NEED_AT,
                         "'at X,Y' or 'with WEAPON'"},
    [FA_CMD_TOTAL_DEFENSE] = {FA_CMD_TOTAL_DEFENSE, 0, ""},
    [FA_CMD_SECOND_WIND] = {FA_CMD_SECOND_WIND, 0, ""},
    [FA_CMD_WALK] = {FA_CMD_WALK, TAKE_PATH | NEED_PATH, "squares X,Y"},
    [FA_CMD_SHIFT] = {FA_CMD_SHIFT, TAKE_PATH | NEED_PATH, "a square X,Y"},
    [FA_CMD_RUN] = {FA_CMD_RUN, TAKE_PATH | NEED_PATH, "squares X,Y"},
    [FA_CMD_CRAWL] = {FA_CMD_CRAWL, TAKE_PATH | NEED_PATH, "squares X,Y"},
    [FA_CMD_SQUEEZE] = {FA_CMD_SQUEEZE, TAKE_PATH | NEED_PATH, "squares X,Y"},
    [FA_CMD_STAND] = {FA_CMD_STAND, TAKE_PATH, "a square X,Y to adjust to"},
    [FA_CMD_ESCAPE] = {FA_CMD_ESCAPE, TAKE_PATH | TAKE_SKILL,
                       "'acrobatics', 'athletics' or a square X,Y to adjust to"},
    [FA_CMD_DROP_PRONE] = {FA_CMD_DROP_PRONE, 0, ""},
    [FA_CMD_DRAW] = {FA_CMD_DRAW, TAKE_WEAPON | NEED_WEAPON, "one of its weapons"},
    [FA_CMD_RELOAD] = {FA_CMD_RELOAD, TAKE_WEAPON, "one of its weapons"},
    [FA_CMD_SUSTAIN] = {FA_CMD_SUSTAIN, 0, ""},
    [FA_CMD_SPEND_AP] = {FA_CMD_SPEND_AP, 0, ""},
    [FA_CMD_END_GRAB] = {FA_CMD_END_GRAB, 0, ""},
    [FA_CMD_READY] = {FA_CMD_READY, 0, ""}, /* its own grammar */
    [FA_CMD_DELAY] = {FA_CMD_DELAY, 0, ""},
    [FA_CMD_RESUME] = {FA_CMD_RESUME, 0, ""},
    [FA_CMD_END_TURN] = {FA_CMD_END_TURN, 0, ""},
    [FA_CMD_FEINT] = {FA_CMD_FEINT, TAKE_TARGETS | TAKE_ONE | NEED_TARGET,
                      "the enemy feinted at"},
    [FA_CMD_SKILL] = {FA_CMD_SKILL, 0, ""}, /* its own grammar */
};

static int find_verb(const char *tok) {
    for (int k = FA_CMD_ATTACK; k < FA_CMD_KINDS; k++)
        if (same_name(fa_cmd_name(k), tok))
            return k;
    /* The table's other words for the same actions. */
    if (same_name("adjust", tok))
        return FA_CMD_SHIFT;
    if (same_name("end-turn", tok))
        return FA_CMD_END_TURN;
    if (same_name("coup-de-grace", tok))
        return FA_CMD_COUP;
    if (same_name("stand-up", tok))
        return FA_CMD_STAND;
    return -1;
}

static const char *near_verb(const char *tok) {
    near n = {NULL, 99};
    for (int k = FA_CMD_ATTACK; k < FA_CMD_KINDS; k++)
        near_try(&n, fa_cmd_name(k), tok);
    static const char *const object_words[] = {"holster", "pick-up", "retrieve", "consume"};
    for (size_t k = 0; k < sizeof object_words / sizeof *object_words; k++)
        near_try(&n, object_words[k], tok);   /* (alloy-objects) */
    near_try(&n, "teleport", tok);   /* (alloy-space) */
    return n.best;
}

static const char verbs_listed[] =
    "expected an action (attack, walk, shift, run, charge, aid, total-defense, "
    "second-wind, stand, escape, ready, delay, end, ...; see "
    "docs/file-formats.md \"Commands\")";

static void cmd_defaults(fa_command *cmd) {
    memset(cmd, 0, sizeof *cmd);
    cmd->actor = -1;
    cmd->slot = FA_ACT_NONE;
    cmd->power = -1;
    cmd->weapon = -1;
    cmd->origin.x = cmd->origin.y = -1;
    cmd->ready.who = -1;
    cmd->ready.power = -1;
    cmd->ready.target = -1;
    cmd->ready.kind = FA_CMD_ATTACK;
}

/* `slot W` and `decline ID|all`, which any command may end with; false
 * when the token is neither. */
static fray_status parse_common(const fa_setup *s, lexer *lx, fa_command *cmd,
                                bool *taken, fray_diag *diag) {
    *taken = false;
    if (same_name("slot", lx->tok)) {
        *taken = true;
        if (!lex_next(lx))
            return lex_error(lx, diag, "expected the slot that pays: "
                             "standard, move or swift", NULL);
        if (same_name("standard", lx->tok))
            cmd->slot = FA_ACT_STANDARD;
        else if (same_name("move", lx->tok))
            cmd->slot = FA_ACT_MOVE;
        else if (same_name("swift", lx->tok))
            cmd->slot = FA_ACT_SWIFT;
        else
            return lex_error(lx, diag, "expected the slot that pays: "
                             "standard, move or swift", NULL);
        return FRAY_OK;
    }
    if (same_name("decline", lx->tok)) {
        *taken = true;
        if (!lex_next(lx))
            return lex_error(lx, diag, "expected who declines its opportunity "
                             "attack (an id or 'all')", NULL);
        if (same_name("all", lx->tok)) {
            cmd->decline = s->n >= 32 ? UINT32_MAX : (1u << s->n) - 1u;
            return FRAY_OK;
        }
        int v = find_combatant(s, lx->tok);
        if (v < 0)
            return lex_error(lx, diag, "expected who declines its opportunity "
                             "attack (an id or 'all')",
                             near_combatant(s, lx->tok));
        cmd->decline |= 1u << v;
        return FRAY_OK;
    }
    return FRAY_OK;
}

/* One square further than a step: the cheapest path there as the engine
 * counts it (fa_reach), so that `walk 7,3` means what the table means. */
static fray_status expand_path(const fa_setup *s, const fa_state *st,
                               fa_command *cmd, const lexer *at,
                               fray_diag *diag) {
    if (!st || cmd->n_path != 1 || cmd->actor < 0)
        return FRAY_OK;
    fray_pos from = st->c[cmd->actor].fp.at;
    fray_pos to = cmd->path[0];
    int dx = abs(to.x - from.x), dy = abs(to.y - from.y);
    if (dx <= 1 && dy <= 1)
        return FRAY_OK;
    fray_reach_map *m = fray__alloc(&s->alloc, sizeof *m);
    if (!m)
        return FRAY_ERR_NOMEM;
    fa_reach(s, st, cmd->actor, FA_MAX_PATH * 2, m);
    fray_pos path[FA_MAX_PATH];
    int n = fray_grid_path(m, to, path, FA_MAX_PATH);
    fray__free(&s->alloc, m, sizeof *m);
    if (n <= 0) {
        if (diag)
            fray__diag_set(diag, FRAY_ERR_PARSE, at->col,
                           "%s cannot get to %d,%d (give the path square by "
                           "square), got '%d,%d'", s->c[cmd->actor].name, to.x,
                           to.y, to.x, to.y);
        return FRAY_ERR_PARSE;
    }
    memcpy(cmd->path, path, (size_t)n * sizeof path[0]);
    cmd->n_path = (uint8_t)n;
    return FRAY_OK;
}

/* The words after the action (lx on the action word). */
static fray_status parse_args(const fa_setup *s, const fa_state *st,
                              lexer *lx, int kind, fa_command *cmd,
                              fray_diag *diag) {
    const verb *vb = &verbs[kind];
    int actor = cmd->actor;
    lexer first_path = *lx;
    while (lex_next(lx)) {
        bool taken;
        fray_status rc = parse_common(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (taken)
            continue;
        fray_pos p;
        int v;
        if ((vb->flags & TAKE_WITH) && same_name("with", lx->tok)) {
            if (!lex_next(lx))
                return lex_error(lx, diag, "expected one of its weapons or "
                                 "powers", NULL);
            if ((v = find_weapon(s, actor, lx->tok)) >= 0)
                cmd->weapon = (int8_t)v;
            else if ((v = find_power(s, actor, lx->tok)) >= 0)
                cmd->power = (int8_t)v;
            else
                return lex_error(lx, diag, "expected one of its weapons or "
                                 "powers",
                                 near_weapon_or_power(s, actor, lx->tok));
        } else if ((vb->flags & TAKE_AT) && same_name("at", lx->tok)) {
            /* A close blast's corner may lie off the map (-3 for a blast
             * of 3 from the top row): near the map is enough here; the
             * rules check the rest. */
            if (!lex_next(lx) || !parse_origin(lx->tok, &p))
                return lex_error(lx, diag, "expected a square X,Y", NULL);
            cmd->origin = p;
        } else if ((vb->flags & TAKE_PATH) && parse_pos(lx->tok, &p)) {
            if (!fray_grid_in(&s->map, p))
                return lex_error(lx, diag, "expected a square on the map",
                                 NULL);
            if (cmd->n_path >= FA_MAX_PATH)
                return lex_error(lx, diag, "at most 40 squares in one move",
                                 NULL);
            if (cmd->n_path == 0)
                first_path = *lx;
            cmd->path[cmd->n_path++] = p;
        } else if ((vb->flags & TAKE_PUSH) && parse_pos(lx->tok, &p)) {
            if (!fray_grid_in(&s->map, p))
                return lex_error(lx, diag, "expected a square on the map",
                                 NULL);
            cmd->origin = p;
        } else if ((vb->flags & TAKE_TAKE_WORD) && same_name("take", lx->tok)) {
            cmd->option = 1;   /* (alloy-objects) an unarmed attacker holds it */
        } else if ((vb->flags & TAKE_CHARGE_WORD) &&
                   same_name("bull-rush", lx->tok)) {
            cmd->option = FA_CHARGE_BULL_RUSH;
        } else if ((vb->flags & TAKE_SKILL) &&
                   (same_name("acrobatics", lx->tok) ||
                    same_name("athletics", lx->tok))) {
            cmd->option = same_name("athletics", lx->tok) ? FA_SKILL_ATHLETICS
                                                          : FA_SKILL_ACROBATICS;
        } else if ((vb->flags & TAKE_WEAPON) &&
                   (v = find_weapon(s, actor, lx->tok)) >= 0) {
            cmd->weapon = (int8_t)v;
        } else if ((vb->flags & TAKE_TARGETS) &&
                   (v = find_combatant(s, lx->tok)) >= 0) {
            if ((vb->flags & TAKE_ONE) && cmd->n_targets >= 1)
                return lex_error(lx, diag, "expected one target only", NULL);
            if (cmd->n_targets >= FA_MAX_TARGETS)
                return lex_error(lx, diag, "at most 8 targets", NULL);
            cmd->targets[cmd->n_targets++] = (int8_t)v;
        } else {
            const char *hint = NULL;
            if (vb->flags & TAKE_TARGETS)
                hint = near_combatant(s, lx->tok);
            if (!hint && (vb->flags & (TAKE_WEAPON | TAKE_WITH)))
                hint = near_weapon_or_power(s, actor, lx->tok);
            char what[160];
            if (vb->flags)
                snprintf(what, sizeof what, "expected %s after '%s'",
                         vb->expects, fa_cmd_name(kind));
            else
                snprintf(what, sizeof what, "expected nothing after '%s' "
                         "(but 'slot' or 'decline')", fa_cmd_name(kind));
            return lex_error(lx, diag, what, hint);
        }
    }
    char what[160];
    snprintf(what, sizeof what, "expected %s after '%s'", vb->expects,
             fa_cmd_name(kind));
    if ((vb->flags & NEED_TARGET) && cmd->n_targets == 0)
        return lex_error(lx, diag, what, NULL);
    if ((vb->flags & NEED_PATH) && cmd->n_path == 0)
        return lex_error(lx, diag, what, NULL);
    if ((vb->flags & NEED_AT) && cmd->origin.x < 0)
        return lex_error(lx, diag, what, NULL);
    if ((vb->flags & NEED_WEAPON) && cmd->weapon < 0)
        return lex_error(lx, diag, what, NULL);
    /* `attack T at X,Y`: the square guessed for a totally concealed target
     * (L7.16; an area names no target). */
    if (kind == FA_CMD_ATTACK && cmd->n_targets == 1 && cmd->origin.x != -1) {
        if (!fray_grid_in(&s->map, cmd->origin))
            return lex_error(lx, diag, "expected the square guessed on the map", NULL);
        cmd->guess = cmd->origin;
        cmd->has_guess = true;
        cmd->origin.x = cmd->origin.y = -1;
    }
    if (kind == FA_CMD_WALK || kind == FA_CMD_RUN || kind == FA_CMD_CRAWL ||
        kind == FA_CMD_SQUEEZE || kind == FA_CMD_CHARGE ||
        kind == FA_CMD_MOVE_GRAPPLED)
        return expand_path(s, st, cmd, &first_path, diag);
    return FRAY_OK;
}

/* ---- Objects (alloy-objects): FA_CMD_DRAW and its options (alloy_int.h FA_OBJ_*) ---- */

static int find_item(const fa_setup *s, int actor, const char *tok) {
    const fa_statblock *sb = &s->sb[s->c[actor].sb];
    for (int i = 0; i < sb->n_items; i++)
        if (same_name(sb->items[i].id, tok) || same_name(sb->items[i].name, tok))
            return i;
    return -1;
}

static const char *near_item(const fa_setup *s, int actor, const char *tok) {
    const fa_statblock *sb = &s->sb[s->c[actor].sb];
    near n = {NULL, 99};
    for (int i = 0; i < sb->n_items; i++)
        near_try(&n, sb->items[i].id, tok);
    return n.best ? n.best : near_weapon_or_power(s, actor, tok);
}

/* draw|retrieve W|ITEM, holster, pick-up [X,Y] [OWNER] [W], consume ITEM;
 * lx on the action word. */
static fray_status parse_object(const fa_setup *s, lexer *lx, fa_command *cmd,
                                fray_diag *diag) {
    int actor = cmd->actor;
    bool holster = same_name("holster", lx->tok);
    bool pick = same_name("pick-up", lx->tok) || same_name("manipulate", lx->tok);
    bool consume = same_name("consume", lx->tok);
    cmd->kind = FA_CMD_DRAW;
    if (pick)
        cmd->option = FA_OBJ_PICK_ANY;
    bool named = false;
    while (lex_next(lx)) {
        bool taken;
        fray_status rc = parse_common(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (taken)
            continue;
        fray_pos p;
        int v;
        if (holster) {
            return lex_error(lx, diag, "expected nothing after 'holster' (but 'slot' or "
                             "'decline')", NULL);
        } else if (pick && !named && cmd->origin.x < 0 && cmd->n_targets == 0 &&
                   parse_pos(lx->tok, &p)) {
            if (!fray_grid_in(&s->map, p))
                return lex_error(lx, diag, "expected a square on the map", NULL);
            cmd->origin = p;
        } else if (pick && !named && cmd->n_targets == 0 &&
                   (v = find_combatant(s, lx->tok)) >= 0) {
            cmd->targets[0] = (int8_t)v;
            cmd->n_targets = 1;
        } else if (pick && !named && (v = find_weapon(s, cmd->n_targets ? cmd->targets[0]
                                                                        : actor,
                                                      lx->tok)) >= 0) {
            if (cmd->n_targets == 0) {
                cmd->targets[0] = (int8_t)actor;
                cmd->n_targets = 1;
            }
            cmd->option = (int8_t)(FA_OBJ_PICK_UP + v);
            named = true;
        } else if (!pick && !named && consume && (v = find_item(s, actor, lx->tok)) >= 0) {
            cmd->option = (int8_t)(FA_OBJ_CONSUME + v);
            named = true;
        } else if (!pick && !named && !consume && (v = find_weapon(s, actor, lx->tok)) >= 0) {
            cmd->weapon = (int8_t)v;
            named = true;
        } else if (!pick && !named && !consume && (v = find_item(s, actor, lx->tok)) >= 0) {
            cmd->option = (int8_t)(FA_OBJ_DRAW_ITEM + v);
            named = true;
        } else {
            return lex_error(lx, diag,
                             pick      ? "expected the square X,Y, whose object and which "
                                         "weapon, after 'pick-up'"
                             : consume ? "expected one of its items after 'consume'"
                                       : "expected one of its weapons or items",
                             pick ? near_combatant(s, lx->tok) : near_item(s, actor, lx->tok));
        }
    }
    if (pick && cmd->n_targets > 0 && !named)
        return lex_error(lx, diag, "expected which of its weapons after the owner", NULL);
    if (!pick && !holster && !named)
        return lex_error(lx, diag, consume ? "expected one of its items after 'consume'"
                                           : "expected one of its weapons or items",
                         NULL);
    if (pick && cmd->origin.x < 0 && named)
        return lex_error(lx, diag, "expected the square X,Y where the weapon lies", NULL);
    return FRAY_OK;
}

/* A skill's word (acrobatics, athletics, notice, bluff), -1 none. */
static int find_skill(const char *tok) {
    static const char *const words[FA_SKILLS] = {"acrobatics", "athletics",
                                                 "notice", "bluff"};
    for (int k = 0; k < FA_SKILLS; k++)
        if (same_name(words[k], tok))
            return k;
    return -1;
}

/* The rest of a command: only `slot` and `decline`. */
static fray_status parse_tail(const fa_setup *s, lexer *lx, fa_command *cmd,
                              const char *after, fray_diag *diag) {
    while (lex_next(lx)) {
        bool taken;
        fray_status rc = parse_common(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (!taken) {
            char what[120];
            snprintf(what, sizeof what, "expected nothing more after %s "
                     "(but 'slot' or 'decline')", after);
            return lex_error(lx, diag, what, NULL);
        }
    }
    return FRAY_OK;
}

/* skill SKILL [move] */
static fray_status parse_skill(const fa_setup *s, lexer *lx, fa_command *cmd,
                               fray_diag *diag) {
    int k;
    if (!lex_next(lx) || (k = find_skill(lx->tok)) < 0)
        return lex_error(lx, diag, "expected a skill: acrobatics, athletics, "
                         "notice or bluff", NULL);
    cmd->option = (int8_t)k;
    lexer peek = *lx;
    if (lex_next(&peek) && (same_name("move", peek.tok) ||
                            same_name("standard", peek.tok))) {
        if (same_name("move", peek.tok))
            cmd->option = (int8_t)(cmd->option | FA_SKILL_AS_MOVE);
        *lx = peek;
    }
    return parse_tail(s, lx, cmd, "the skill and 'move' or 'standard'", diag);
}

/* aid ALLY attack|defense against T, or aid ALLY SKILL (a check) */
static fray_status parse_aid(const fa_setup *s, lexer *lx, fa_command *cmd,
                             fray_diag *diag) {
    int ally, enemy, k;
    if (!lex_next(lx) || (ally = find_combatant(s, lx->tok)) < 0)
        return lex_error(lx, diag, "expected the ally aided",
                         near_combatant(s, lx->tok));
    if (lex_next(lx) && (k = find_skill(lx->tok)) >= 0) {
        cmd->option = (int8_t)(FA_AID_CHECK + k);   /* 004:429 (skills.c) */
        cmd->targets[0] = (int8_t)ally;
        cmd->n_targets = 1;
        return parse_tail(s, lx, cmd, "the skill", diag);
    }
    if (!lx->tok[0] || !(same_name("attack", lx->tok) ||
                         same_name("defense", lx->tok)))
        return lex_error(lx, diag, "expected 'attack' or 'defense' (what the "
                         "aid is for) or a skill (a check)", NULL);
    cmd->option = same_name("attack", lx->tok) ? FA_AID_ATTACK : FA_AID_DEFENSE;
    if (!lex_next(lx) || !same_name("against", lx->tok))
        return lex_error(lx, diag, "expected 'against' and the enemy", NULL);
    if (!lex_next(lx) || (enemy = find_combatant(s, lx->tok)) < 0)
        return lex_error(lx, diag, "expected the enemy",
                         near_combatant(s, lx->tok));
    cmd->targets[0] = (int8_t)enemy;
    cmd->targets[1] = (int8_t)ally;
    cmd->n_targets = 2;
    while (lex_next(lx)) {
        bool taken;
        fray_status rc = parse_common(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (!taken)
            return lex_error(lx, diag, "expected nothing more after the "
                             "enemy (but 'slot' or 'decline')", NULL);
    }
    return FRAY_OK;
}

/* ready ACTION [T] [with W] when T|any moves-adjacent|attacks|enters-reach */
static fray_status parse_ready(const fa_setup *s, lexer *lx, fa_command *cmd,
                               fray_diag *diag) {
    int k, v;
    if (!lex_next(lx) || (k = find_verb(lx->tok)) < 0)
        return lex_error(lx, diag, "expected the action readied (attack, "
                         "charge, trip, shift, ...)", near_verb(lx->tok));
    if (k == FA_CMD_READY || k == FA_CMD_DELAY || k == FA_CMD_RESUME ||
        k == FA_CMD_END_TURN || k == FA_CMD_SPEND_AP)
        return lex_error(lx, diag, "expected an action that can be readied",
                         NULL);
    cmd->ready.kind = (uint8_t)k;
    bool when = false;
    while (lex_next(lx)) {
        bool taken;
        fray_status rc = parse_common(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (taken)
            continue;
        if (same_name("when", lx->tok)) {
            if (!lex_next(lx))
                return lex_error(lx, diag, "expected who triggers it (an id "
                                 "or 'any')", NULL);
            if (same_name("any", lx->tok) || same_name("enemy", lx->tok))
                cmd->ready.who = -1;
            else if ((v = find_combatant(s, lx->tok)) >= 0)
                cmd->ready.who = (int8_t)v;
            else
                return lex_error(lx, diag, "expected who triggers it (an id "
                                 "or 'any')", near_combatant(s, lx->tok));
            if (!lex_next(lx))
                return lex_error(lx, diag, "expected the trigger: "
                                 "moves-adjacent, attacks or enters-reach",
                                 NULL);
            if (same_name("moves-adjacent", lx->tok))
                cmd->ready.trigger = FA_TRIG_MOVES_ADJACENT;
            else if (same_name("attacks", lx->tok))
                cmd->ready.trigger = FA_TRIG_ATTACKS;
            else if (same_name("enters-reach", lx->tok))
                cmd->ready.trigger = FA_TRIG_ENTERS_REACH;
            else
                return lex_error(lx, diag, "expected the trigger: "
                                 "moves-adjacent, attacks or enters-reach",
                                 NULL);
            when = true;
        } else if (!when && same_name("with", lx->tok)) {
            if (!lex_next(lx))
                return lex_error(lx, diag, "expected one of its powers",
                                 NULL);
            if ((v = find_power(s, cmd->actor, lx->tok)) >= 0)
                cmd->ready.power = (int8_t)v;
            else if ((v = find_weapon(s, cmd->actor, lx->tok)) >= 0)
                cmd->weapon = (int8_t)v;
            else
                return lex_error(lx, diag, "expected one of its weapons or "
                                 "powers",
                                 near_weapon_or_power(s, cmd->actor, lx->tok));
        } else if (!when && cmd->ready.target < 0 &&
                   (v = find_combatant(s, lx->tok)) >= 0) {
            cmd->ready.target = (int8_t)v;
        } else {
            return lex_error(lx, diag, when ? "expected nothing after the "
                             "trigger (but 'slot' or 'decline')"
                             : "expected the target, 'with POWER' or 'when'",
                             when ? NULL : near_combatant(s, lx->tok));
        }
    }
    if (!when)
        return lex_error(lx, diag, "expected 'when' and the trigger", NULL);
    return FRAY_OK;
}

/* (alloy-space) teleport X,Y [with POWER]: FA_CMD_ATTACK with the power
 * (the first teleport power of the actor unless named) and origin X,Y. */
static fray_status parse_teleport(const fa_setup *s, lexer *lx, fa_command *cmd,
                                  fray_diag *diag) {
    int actor = cmd->actor;
    const fa_statblock *sb = &s->sb[s->c[actor].sb];
    cmd->kind = FA_CMD_ATTACK;
    bool at = false;
    while (lex_next(lx)) {
        bool taken;
        fray_status rc = parse_common(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (taken)
            continue;
        fray_pos p;
        int v;
        if (same_name("with", lx->tok)) {
            if (!lex_next(lx) || (v = find_power(s, actor, lx->tok)) < 0 ||
                !fa_is_teleport(s, actor, v))
                return lex_error(lx, diag, "expected one of its teleport powers",
                                 near_weapon_or_power(s, actor, lx->tok));
            cmd->power = (int8_t)v;
        } else if (!at && parse_pos(lx->tok, &p)) {
            if (!fray_grid_in(&s->map, p))
                return lex_error(lx, diag, "expected a square on the map", NULL);
            cmd->origin = p;
            at = true;
        } else {
            return lex_error(lx, diag, "expected the square X,Y or 'with POWER' "
                             "after 'teleport'", NULL);
        }
    }
    if (!at)
        return lex_error(lx, diag, "expected the square X,Y it teleports to", NULL);
    for (int i = 0; i < sb->n_powers && cmd->power < 0; i++)
        if (fa_is_teleport(s, actor, i))
            cmd->power = (int8_t)i;
    if (cmd->power < 0)
        return lex_error(lx, diag, "expected a combatant with a teleport power", NULL);
    return FRAY_OK;
}

fray_status fa_parse(const fa_setup *s, const fa_state *st, const char *text,
                     fa_command *cmd, fray_diag *diag) {
    lexer lx = {text, text, "", 1};
    cmd_defaults(cmd);
    if (!lex_next(&lx))
        return lex_error(&lx, diag, "expected a combatant and an action, or "
                         "'next'", NULL);
    if (same_name("next", lx.tok)) {
        cmd->kind = FA_CMD_NEXT;
        return lex_next(&lx) ? lex_error(&lx, diag, "expected nothing after "
                                         "'next'", NULL)
                             : FRAY_OK;
    }
    if (same_name("gm", lx.tok))
        return fa_gm_parse(s, st, &lx, cmd, diag);   /* (alloygm) issue 14 */
    int actor = find_combatant(s, lx.tok);
    if (actor < 0) {
        const char *hint = near_combatant(s, lx.tok);
        if (hint)
            return lex_error(&lx, diag, "expected a combatant's id or name, "
                             "or 'next'", hint);
        /* No near miss: the ids it could have been. */
        char ids[160], msg[256];
        fray__words_join(ids, sizeof ids, id_of, s, s->n);
        snprintf(msg, sizeof msg, "expected a combatant's id (%s) or 'next'",
                 ids);
        return lex_error(&lx, diag, msg, NULL);
    }
    cmd->actor = (int8_t)actor;
    if (!lex_next(&lx))
        return lex_error(&lx, diag, "expected an action", NULL);
    if (same_name("draw", lx.tok) || same_name("retrieve", lx.tok) ||
        same_name("holster", lx.tok) || same_name("pick-up", lx.tok) ||
        same_name("manipulate", lx.tok) || same_name("consume", lx.tok))
        return parse_object(s, &lx, cmd, diag);   /* (alloy-objects) */
    if (same_name("teleport", lx.tok))
        return parse_teleport(s, &lx, cmd, diag);
    int kind = find_verb(lx.tok);
    if (kind < 0)
        return lex_error(&lx, diag, verbs_listed, near_verb(lx.tok));
    cmd->kind = (uint8_t)kind;
    if (kind == FA_CMD_AID)
        return parse_aid(s, &lx, cmd, diag);
    if (kind == FA_CMD_READY)
        return parse_ready(s, &lx, cmd, diag);
    if (kind == FA_CMD_SKILL)
        return parse_skill(s, &lx, cmd, diag);
    if (kind == FA_CMD_ESCAPE)
        cmd->option = -1; /* no skill named: the better one (act.c) */
    return parse_args(s, st, &lx, kind, cmd, diag);
}

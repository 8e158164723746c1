/*
 * gm.c - the GM's own commands at the table (issue 13, section 3): the GM
 * sets or adjusts STUN and LETHAL (and their temporary parts), puts a
 * condition on or takes it off, brings a combatant into the fight
 * ("joins: later"), takes one out (it flees) and places one (knockback,
 * the GM's word).
 *
 * Each is an action of FT_ACTION_LIST with FT_AF_GM: an event like any
 * other, so it replays from the journal and undoes, but no turn: it may
 * be given at any time, the clock does not move, and it is not counted
 * among the actions taken (ft_apply_next sends it here, never through
 * engine.c's apply_action).
 *
 * Words at the table (fight.c parse_command hands "gm ..." to
 * ft_gm_parse; docs/file-formats.md "Commands"):
 *   gm set ID stun|lethal|temp-stun|temp-lethal N
 *   gm adjust ID stun|lethal|temp-stun|temp-lethal +/-N
 *   gm condition ID NAME [X] [for N]      gm condition ID NAME off
 *   gm join ID at X,Y [phase P]           gm flee ID
 *   gm place ID X,Y
 */
#include "towers_int.h"
#include "words.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const TRACK_WORDS[FT_GM_TRACK_COUNT] = {
    "", "stun", "lethal", "temp-stun", "temp-lethal"};
static const char *const TRACK_TEXT[FT_GM_TRACK_COUNT] = {
    "", "STUN", "LETHAL", "temporary STUN", "temporary LETHAL"};
static const char *const COND_NAMES[FT_CONDITION_COUNT] = {
#define FT__E(id, nm, mj, hx) nm,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
};
static const bool COND_HAS_X[FT_CONDITION_COUNT] = {
#define FT__E(id, nm, mj, hx) hx,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static fray_status bad(fray_diag *diag, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s", msg);
}

static int16_t *track_of(ft_cstate *c, int track) {
    switch (track) {
    case FT_GM_TRACK_STUN:
        return &c->stun;
    case FT_GM_TRACK_LETHAL:
        return &c->lethal;
    case FT_GM_TRACK_TEMP_STUN:
        return &c->temp_stun;
    case FT_GM_TRACK_TEMP_LETHAL:
        return &c->temp_lethal;
    default:
        return NULL;
    }
}

/* The value a gm-set leaves (before any limit), from the state. */
static long target_value(const ft_state *st, const ft_command *cmd) {
    ft_cstate *c = (ft_cstate *)&st->c[cmd->actor];
    int16_t *v = track_of(c, cmd->gm_track);
    long was = v ? *v : 0;
    return cmd->gm_adjust ? was + cmd->gm_value : cmd->gm_value;
}

/* Whether the combatant's footprint may stand at `at`: on the map, no
 * wall or pit, nobody else there (a fled or waiting one stands nowhere). */
static fray_status space_check(const ft_setup *s, const ft_state *st, int a,
                               fray_pos at, fray_diag *diag) {
    if (!s->has_map)
        return bad(diag, "there is no map to place %s on", s->c[a].name);
    fray_footprint fp = ft_fp(s, st, a);
    fp.at = at;
    for (int dy = 0; dy < fp.side; dy++)
        for (int dx = 0; dx < fp.side; dx++) {
            fray_pos p = {(int16_t)(at.x + dx), (int16_t)(at.y + dy)};
            if (!fray_grid_in(&s->map, p))
                return bad(diag, "(%d,%d) is off the map", p.x, p.y);
            int t = s->map.terrain[p.y][p.x];
            if (t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_PIT ||
                t == FRAY_TERRAIN_WINDOW)
                return bad(diag, "%s cannot stand at (%d,%d): %s there",
                           s->c[a].name, p.x, p.y,
                           fray_terrain_name((fray_terrain)t));
        }
    for (int i = 0; i < st->n; i++) {
        if (i == a || (st->c[i].flags & FT_F_FLED))
            continue;
        fray_footprint o = ft_fp(s, st, i);
        bool apart = o.at.x >= at.x + fp.side || at.x >= o.at.x + o.side ||
                     o.at.y >= at.y + fp.side || at.y >= o.at.y + o.side;
        if (!apart && ft_share_blocker(s, st, a, fp, -1, 0, true) >= 0) /* tumble.c */
            return bad(diag, "%s cannot stand at (%d,%d): %s is there",
                       s->c[a].name, at.x, at.y, s->c[i].name);
    }
    return FRAY_OK;
}

fray_status ft_gm_check(const ft_setup *s, const ft_state *st,
                        const ft_command *cmd, fray_diag *diag) {
    int a = cmd->actor;
    if (cmd->action == FT_ACT_EXCHANGE) { /* issue 7 (talent.c) */
        const char *why = a >= 0 && a < st->n ? ft_exchange_refusal(s, st, cmd)
                                              : "no such combatant";
        return why ? bad(diag, "%s: %s", a >= 0 && a < st->n ? s->c[a].name : "?",
                         why)
                   : FRAY_OK;
    }
    if (a < 0 || a >= st->n)
        return bad(diag, "the GM's command needs a combatant");
    const char *name = s->c[a].name;
    const ft_cstate *c = &st->c[a];
    if (st->over)
        return bad(diag, "the fight is over");
    bool waiting = (c->flags & FT_F_WAITING) != 0;
    if (waiting && cmd->action != FT_ACT_GM_JOIN &&
        cmd->action != FT_ACT_GM_FLEE) /* (it may never come: issue 7) */
        return bad(diag, "%s has not joined the fight yet: gm join %s at X,Y",
                   name, s->c[a].id);
    switch (cmd->action) {
    case FT_ACT_GM_SET: {
        if (cmd->gm_track <= FT_GM_TRACK_NONE ||
            cmd->gm_track >= FT_GM_TRACK_COUNT)
            return bad(diag, "the GM sets stun, lethal, temp-stun or "
                       "temp-lethal");
        long v = target_value(st, cmd);
        bool temp = cmd->gm_track >= FT_GM_TRACK_TEMP_STUN;
        int max = cmd->gm_track == FT_GM_TRACK_STUN ? ft_max_stun(s, a)
                  : cmd->gm_track == FT_GM_TRACK_LETHAL ? ft_max_lethal(s, a)
                                                        : 30000;
        /* "STUN cannot drop lower than 0" (000 "STUN Damage"); LETHAL can
         * (000 "LETHAL Damage"); temporary points are 0 or more (000
         * "Temporary STUN and LETHAL"); never above the maximum. */
        int min = cmd->gm_track == FT_GM_TRACK_LETHAL ? -30000 : 0;
        if (v < min || v > max)
            return bad(diag, "%s's %s must be %d to %d, not %ld", name,
                       TRACK_TEXT[cmd->gm_track], min, max, v);
        if ((c->flags & FT_F_DEAD) && !temp)
            return bad(diag, "%s is dead: the dead stay dead (undo the blow "
                       "instead)", name);
        return FRAY_OK;
    }
    case FT_ACT_GM_CONDITION: {
        int k = cmd->gm_cond - 1;
        if (k < 0 || k >= FT_CONDITION_COUNT)
            return bad(diag, "the GM's condition needs a condition's name");
        if (cmd->gm_off) {
            if (!ft_cond_has(st, a, (ft_condition)k))
                return bad(diag, "%s is not %s", name, COND_NAMES[k]);
            if (k == FT_COND_GRAPPLED)
                return bad(diag, "a grapple ends by Escape or the grappler's "
                           "fall, not by the GM's word");
            return FRAY_OK;
        }
        if (k == FT_COND_GRAPPLED)
            return bad(diag, "grappled needs a grappler: Initiate Grapple");
        if (COND_HAS_X[k] && cmd->gm_value <= 0)
            return bad(diag, "%s needs its X (e.g. gm condition %s %s 2)",
                       COND_NAMES[k], s->c[a].id, COND_NAMES[k]);
        if (!COND_HAS_X[k] && cmd->gm_value != 0)
            return bad(diag, "%s has no X", COND_NAMES[k]);
        if (c->flags & FT_F_DEAD)
            return bad(diag, "%s is dead", name);
        return FRAY_OK;
    }
    case FT_ACT_GM_JOIN:
        if (!waiting)
            return bad(diag, "%s is already in the fight (only a combatant "
                       "with 'joins: later' is brought in)", name);
        if (cmd->gm_phase > 0 && cmd->gm_phase - 1 < st->phase)
            return bad(diag, "%s cannot enter in phase %d: the clock is at "
                       "phase %d", name, cmd->gm_phase - 1, (int)st->phase);
        if (s->has_map)
            return space_check(s, st, a, cmd->dest, diag);
        return FRAY_OK;
    case FT_ACT_GM_FLEE:
        if ((c->flags & FT_F_FLED) && !waiting)
            return bad(diag, "%s has already left the fight", name);
        return FRAY_OK;
    case FT_ACT_GM_PLACE:
        if (c->flags & FT_F_FLED)
            return bad(diag, "%s is not on the map", name);
        if (cmd->dest.x == c->pos.x && cmd->dest.y == c->pos.y)
            return bad(diag, "%s already stands at (%d,%d)", name,
                       cmd->dest.x, cmd->dest.y);
        return space_check(s, st, a, cmd->dest, diag);
    default:
        return bad(diag, "not a GM's command");
    }
}

/* Who is out of the fight may end it (engine.c check_over); and when
 * nobody is left on the clock but some hold, they come out as after any
 * action (engine.c check_holds: seed 000 "Hold", the GM's all-hold call). */
static void ends(ft_run *r) {
    ft_check_over(r);
    if (!r->st->over)
        ft_check_holds(r);
}

static fray_status apply_set(ft_run *r, const ft_command *cmd) {
    int a = cmd->actor;
    ft_cstate *c = &r->st->c[a];
    int16_t *v = track_of(c, cmd->gm_track);
    int was = *v;
    int now = (int)target_value(r->st, cmd);
    *v = (int16_t)now;
    ft_emit(r, FT_FACT_GM, a, -1, cmd->action, cmd->gm_track, now, was);
    /* Status follows the numbers (harm.c: 0 STUN unconscious and prone,
     * LETHAL 0 disabled, below 0 dying, dead at the limit; STUN above 0
     * again wakes, RULINGS 17). */
    ft_harm_status(r, a);
    ends(r);
    return FRAY_OK;
}

static fray_status apply_condition(ft_run *r, const ft_command *cmd) {
    int a = cmd->actor;
    ft_condition k = (ft_condition)(cmd->gm_cond - 1);
    ft_emit(r, FT_FACT_GM, a, -1, cmd->action, (int)k, cmd->gm_off ? 0 : 1,
            cmd->gm_value);
    if (cmd->gm_off) {
        ft_cond_remove(r, a, k);
        return FRAY_OK;
    }
    if (cmd->gm_count > 0)
        ft_cond_add(r, a, k, cmd->gm_value, FT_UNTIL_END_OF, a, cmd->gm_count,
                    -1);
    else
        ft_cond_add(r, a, k, cmd->gm_value, FT_UNTIL_REMOVED, -1, 0, -1);
    /* Seed 000 "Conditions": Prone from the GM's word is prone like any. */
    return FRAY_OK;
}

/* Seed 000 "Entering Combat and Initiative": flips <N> cards (its
 * initiative advantages count), keeps the highest, adds <N>: its
 * Calculated Initiative; it acts 20 - CI (at least 0) phases after the
 * phase it enters in (fray's reading for one entering mid-fight: the
 * phase of entry stands for the fight's phase 0; option join-initiative
 * at-start: in phase 20 - CI, but not before now). */
static fray_status apply_join(ft_run *r, const ft_command *cmd) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    int a = cmd->actor;
    ft_cstate *c = &st->c[a];
    c->flags &= (uint16_t)~(FT_F_WAITING | FT_F_FLED);
    if (s->has_map)
        c->pos = cmd->dest;
    ft_threat_touch_one(st, a); /* (issue 16: the kept threats) */
    int start;
    if (cmd->gm_phase > 0) {
        start = cmd->gm_phase - 1;
        ft_emit(r, FT_FACT_GM, a, -1, cmd->action, 0, start, st->phase);
    } else {
        const ft_statblock *sb = &s->c[a].sb;
        int flip = 0, shift = 0;
        ft_advantage_mods(sb, FT_APPLIES_INITIATIVE, &flip, &shift);
        int n = sb->cv[FT_CV_N];
        fray_flip f;
        int total_shift = shift;
        ft_emit(r, FT_FACT_GM, a, -1, cmd->action, 1, -1, st->phase);
        fray_status rc = ft_flip(r, a, n + flip, FT_FLIP_INITIATIVE, shift,
                                 INT_MIN, &f, &total_shift);
        if (rc != FRAY_OK)
            return rc;
        int ci = f.kept_value + n + total_shift;
        c->ci = (int16_t)ci;
        int after = 20 - (ci > 20 ? 20 : ci);
        if (s->opt.join_initiative == FT_JOIN_AS_AT_START)
            start = after > st->phase ? after : st->phase;
        else
            start = st->phase + after;
        ft_emit(r, FT_FACT_INITIATIVE, a, -1, ci, start, 0, 0);
    }
    c->phase = start;
    /* Behind whoever already acts in that phase (like a zero-cost action's
     * place: growing slots). */
    c->slot = FT_SLOT_BOTTOM + (++st->next_slot) * FT_SLOT_STEP;
    ft_clock_place(st, a);
    return FRAY_OK;
}

static fray_status apply_flee(ft_run *r, const ft_command *cmd) {
    ft_state *st = r->st;
    int a = cmd->actor;
    ft_cstate *c = &st->c[a];
    ft_emit(r, FT_FACT_GM, a, -1, cmd->action, 0, 0, 0);
    c->flags |= FT_F_FLED;
    /* (One waiting to join never comes: its side no longer waits for it.) */
    c->flags &= (uint16_t)~(FT_F_HOLDING | FT_F_WAITING);
    ft_threat_touch_one(st, a); /* (issue 16: the kept threats) */
    ft_clock_place(st, a);
    /* Off the map: a grapple it was in ends. */
    if (c->grappled_by >= 0) {
        c->grappled_by = -1;
        ft_cond_remove(r, a, FT_COND_GRAPPLED);
    }
    for (int i = 0; i < st->n; i++)
        if (st->c[i].grappled_by == a) {
            st->c[i].grappled_by = -1;
            ft_cond_remove(r, i, FT_COND_GRAPPLED);
        }
    ft_emit(r, FT_FACT_STATUS, -1, a, FT_F_FLED, 0, 0, 0);
    ends(r);
    return FRAY_OK;
}

static fray_status apply_place(ft_run *r, const ft_command *cmd) {
    ft_state *st = r->st;
    int a = cmd->actor;
    ft_cstate *c = &st->c[a];
    fray_pos from = c->pos;
    ft_emit(r, FT_FACT_GM, a, -1, cmd->action, 0, 0, 0);
    c->pos = cmd->dest;
    ft_threat_touch_one(st, a); /* (issue 16: the kept threats) */
    /* The GM's word: no opportunity attacks, no cost (a grapple holds:
     * both are moved by the same blow, or the GM says so apart). */
    ft_emit(r, FT_FACT_MOVE, a, -1, from.x, from.y, cmd->dest.x, cmd->dest.y);
    return FRAY_OK;
}

fray_status ft_gm_apply(ft_run *r) {
    const ft_command *cmd = &r->ev->cmd;
    fray_status rc = ft_gm_check(r->setup, r->st, cmd, r->diag);
    if (rc != FRAY_OK)
        return rc;
    switch (cmd->action) {
    case FT_ACT_GM_SET:
        return apply_set(r, cmd);
    case FT_ACT_GM_CONDITION:
        return apply_condition(r, cmd);
    case FT_ACT_GM_JOIN:
        return apply_join(r, cmd);
    case FT_ACT_GM_FLEE:
        return apply_flee(r, cmd);
    case FT_ACT_GM_PLACE:
        return apply_place(r, cmd);
    case FT_ACT_EXCHANGE: /* issue 7: the player's word (talent.c) */
        return ft_exchange(r);
    default:
        return bad(r->diag, "not a GM's command");
    }
}

/* ---- Words at the table ------------------------------------------------- */

static bool same_word(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static fray_status word_error(fray__words *lx, fray_diag *diag,
                              const char *what) {
    fray__diag_set(diag, FRAY_ERR_PARSE, lx->col, "%s, got '%s'", what,
                   lx->tok[0] ? lx->tok : "the end of the command");
    return FRAY_ERR_PARSE;
}

const char *const ft_gm_usage =
    "gm set ID stun|lethal|temp-stun|temp-lethal N; gm adjust ID "
    "stun|lethal|temp-stun|temp-lethal +N|-N; gm condition ID NAME [X] "
    "[for N] | off; gm join ID at X,Y [phase P]; gm flee ID; gm place ID X,Y";

fray_status ft_gm_parse(const ft_setup *s, fray__words *lx, ft_command *cmd,
                        fray_diag *diag) {
    char usage[320];
    snprintf(usage, sizeof usage, "expected one of the GM's commands (%s)",
             ft_gm_usage);
    if (!fray__words_next(lx))
        return word_error(lx, diag, usage);
    int action = same_word(lx->tok, "set")         ? FT_ACT_GM_SET
                 : same_word(lx->tok, "adjust")    ? FT_ACT_GM_SET
                 : same_word(lx->tok, "condition") ? FT_ACT_GM_CONDITION
                 : same_word(lx->tok, "join")      ? FT_ACT_GM_JOIN
                 : same_word(lx->tok, "flee")      ? FT_ACT_GM_FLEE
                 : same_word(lx->tok, "place")     ? FT_ACT_GM_PLACE
                                                   : -1;
    if (action < 0)
        return word_error(lx, diag, usage);
    cmd->action = (uint8_t)action;
    cmd->gm_adjust = same_word(lx->tok, "adjust");
    if (!fray__words_next(lx))
        return word_error(lx, diag, "expected a combatant's id");
    int a = ft_word_combatant(s, lx->tok);
    if (a < 0)
        return word_error(lx, diag, "expected a combatant's id");
    cmd->actor = (int8_t)a;
    int v;
    switch (action) {
    case FT_ACT_GM_SET: {
        if (!fray__words_next(lx))
            return word_error(lx, diag, "expected stun, lethal, temp-stun or "
                              "temp-lethal");
        for (int t = 1; t < FT_GM_TRACK_COUNT; t++)
            if (same_word(TRACK_WORDS[t], lx->tok))
                cmd->gm_track = (int8_t)t;
        if (!cmd->gm_track)
            return word_error(lx, diag, "expected stun, lethal, temp-stun or "
                              "temp-lethal");
        if (!fray__words_next(lx) || !ft_word_int(lx->tok, -30000, 30000, &v))
            return word_error(lx, diag, cmd->gm_adjust
                                            ? "expected a change (+3, -2)"
                                            : "expected a number");
        cmd->gm_value = (int16_t)v;
        break;
    }
    case FT_ACT_GM_CONDITION: {
        if (!fray__words_next(lx))
            return word_error(lx, diag, "expected a condition");
        for (int k = 0; k < FT_CONDITION_COUNT; k++)
            if (same_word(COND_NAMES[k], lx->tok))
                cmd->gm_cond = (int8_t)(k + 1);
        if (!cmd->gm_cond)
            return word_error(lx, diag, "expected a condition (prone, "
                              "bleeding, burning, dazed, ...)");
        while (fray__words_next(lx)) {
            if (same_word(lx->tok, "off")) {
                cmd->gm_off = true;
            } else if (same_word(lx->tok, "for")) {
                if (!fray__words_next(lx) || !ft_word_int(lx->tok, 1, 100, &v))
                    return word_error(lx, diag, "expected how many of its "
                                      "activations (1-100)");
                cmd->gm_count = (int8_t)v;
            } else if (ft_word_int(lx->tok, 1, 127, &v) && !cmd->gm_value) {
                cmd->gm_value = (int16_t)v;
            } else {
                return word_error(lx, diag, "expected X, 'for N' or 'off'");
            }
        }
        if (cmd->gm_off && (cmd->gm_value || cmd->gm_count))
            return word_error(lx, diag, "'off' takes nothing else");
        return FRAY_OK;
    }
    case FT_ACT_GM_JOIN: {
        bool at = false;
        while (fray__words_next(lx)) {
            if (same_word(lx->tok, "at")) {
                if (!fray__words_next(lx) || !ft_word_pos(lx->tok, &cmd->dest))
                    return word_error(lx, diag, "expected a space as X,Y");
                at = true;
            } else if (same_word(lx->tok, "phase")) {
                if (!fray__words_next(lx) ||
                    !ft_word_int(lx->tok, 0, 1000000, &v))
                    return word_error(lx, diag, "expected a phase");
                cmd->gm_phase = (int32_t)v + 1;
            } else if (same_word(lx->tok, "initiative")) {
                cmd->gm_phase = 0;
            } else if (ft_word_pos(lx->tok, &cmd->dest)) {
                at = true; /* "gm join ID X,Y" */
            } else {
                return word_error(lx, diag, "expected 'at X,Y', 'phase P' "
                                  "or 'initiative'");
            }
        }
        /* Without 'at': where the file placed it (`at:` or the map's
         * legend), written into the command so that it replays. */
        if (!at && s->c[a].placed) {
            cmd->dest = s->c[a].start;
            at = true;
        }
        if (!at && s->has_map)
            return word_error(lx, diag, "expected where it enters: 'at X,Y' "
                              "(it has no place in the file)");
        return FRAY_OK;
    }
    case FT_ACT_GM_PLACE:
        if (fray__words_next(lx) && same_word(lx->tok, "at"))
            fray__words_next(lx);
        if (!ft_word_pos(lx->tok, &cmd->dest))
            return word_error(lx, diag, "expected a space as X,Y");
        break;
    default:
        break;
    }
    /* The GM's answers on the command (ft_gm_word): "all-hold delay" when
     * the command leaves nobody on the clock while some hold. */
    while (fray__words_next(lx)) {
        bool taken;
        fray_status rc = ft_gm_word(s, lx, cmd, &taken, diag);
        if (rc != FRAY_OK)
            return rc;
        if (!taken)
            return word_error(lx, diag, "expected nothing more");
    }
    return FRAY_OK;
}

/* ---- Narration ------------------------------------------------------------ */

size_t ft_gm_narrate(const ft_setup *s, const ft_event *ev, char *buf,
                     size_t size) {
    const ft_command *cmd = &ev->cmd;
    const ft_fact *g = NULL;
    for (int i = 0; i < ev->n_facts && i < FT_EVENT_FACTS; i++)
        if (ev->facts[i].kind == FT_FACT_GM) {
            g = &ev->facts[i];
            break;
        }
    int a = cmd->actor;
    const char *name = a >= 0 && a < s->n_combatants ? s->c[a].name : "?";
    int n = snprintf(buf, size, "Phase %d, round %d — ", (int)ev->phase,
                     (int)ev->phase / 10 + 1);
    if (n < 0)
        n = 0;
    char *p = buf && (size_t)n < size ? buf + n : NULL;
    size_t left = p ? size - (size_t)n : 0;
    int m = 0;
    switch (cmd->action) {
    case FT_ACT_GM_SET: {
        int t = cmd->gm_track > 0 && cmd->gm_track < FT_GM_TRACK_COUNT
                    ? cmd->gm_track
                    : 0;
        int now = g ? g->v[2] : 0, was = g ? g->v[3] : 0;
        if (cmd->gm_adjust)
            m = snprintf(p, left, "The GM adjusts %s's %s by %+d, to %d "
                         "(was %d).\n", name, TRACK_TEXT[t], cmd->gm_value,
                         now, was);
        else
            m = snprintf(p, left, "The GM sets %s's %s to %d (was %d).\n",
                         name, TRACK_TEXT[t], now, was);
        break;
    }
    case FT_ACT_GM_CONDITION: {
        int k = cmd->gm_cond - 1;
        const char *cn = k >= 0 && k < FT_CONDITION_COUNT ? COND_NAMES[k] : "?";
        if (cmd->gm_off)
            m = snprintf(p, left, "The GM ends %s's %s.\n", name, cn);
        else if (cmd->gm_count > 1)
            m = snprintf(p, left, "The GM makes %s %s%s%.0d for its next %d "
                         "activations.\n", name, cn, cmd->gm_value ? " " : "",
                         cmd->gm_value, cmd->gm_count);
        else if (cmd->gm_count == 1)
            m = snprintf(p, left, "The GM makes %s %s%s%.0d until the end of "
                         "its next activation.\n", name, cn,
                         cmd->gm_value ? " " : "", cmd->gm_value);
        else
            m = snprintf(p, left, "The GM makes %s %s%s%.0d.\n", name, cn,
                         cmd->gm_value ? " " : "", cmd->gm_value);
        break;
    }
    case FT_ACT_GM_JOIN:
        if (cmd->gm_phase > 0)
            m = snprintf(p, left, "The GM brings %s into the fight at (%d,%d): "
                         "it acts in phase %d.\n", name, cmd->dest.x,
                         cmd->dest.y, cmd->gm_phase - 1);
        else
            m = snprintf(p, left, "The GM brings %s into the fight at (%d,%d), "
                         "with an Initiative flip.\n", name, cmd->dest.x,
                         cmd->dest.y);
        break;
    case FT_ACT_GM_FLEE:
        m = snprintf(p, left, "The GM takes %s out of the fight: it flees.\n",
                     name);
        break;
    case FT_ACT_GM_PLACE:
        m = snprintf(p, left, "The GM places %s at (%d,%d) (no opportunity "
                     "attacks).\n", name, cmd->dest.x, cmd->dest.y);
        break;
    default:
        break;
    }
    if (m < 0)
        m = 0;
    return (size_t)n + (size_t)m;
}

/* ---- The GM's questions ------------------------------------------------------ */

#define QUESTION "the GM's question: "

fray_status ft_gm_ask_dtn(const ft_setup *s, ft_command *cmd,
                          fray_diag *diag) {
    int a = cmd->actor;
    if (a < 0 || a >= s->n_combatants || cmd->skill < 0 ||
        cmd->skill >= s->c[a].sb.n_skills)
        return FRAY_OK; /* (the check says what is wrong) */
    const char *skill = s->c[a].sb.skills[cmd->skill].name;
    int found = -1;
    for (int i = 0; i < s->n_dtn_answers && found < 0; i++)
        if (s->dtn_skill[i][0] && same_word(s->dtn_skill[i], skill))
            found = i;
    for (int i = 0; i < s->n_dtn_answers && found < 0; i++)
        if (!s->dtn_skill[i][0])
            found = i;
    if (found >= 0) {
        int v = s->dtn_value[found];
        cmd->dtn = (int16_t)(v == FT_GM_DTN_NONE ? 0 : v);
        return FRAY_OK;
    }
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "%sthe DTN for %s's %s? Answer with 'answer 15' "
                          "('answer none': a flip with no DTN), or 'dtn 15' "
                          "on the command, or in the encounter file "
                          "('gm-answers: {skill-dtn: {%s: 15}}')",
                          QUESTION, s->c[a].name, skill, skill);
}

bool ft_gm_is_question(const fray_diag *diag) {
    return diag && strncmp(diag->message, QUESTION, strlen(QUESTION)) == 0;
}

fray_status ft_gm_answer(const char *asked, const char *command, char *out,
                         size_t out_size, const char **out_text,
                         fray_diag *diag) {
    fray__words lx;
    fray__words_init(&lx, command);
    if (!fray__words_next(&lx) || !same_word(lx.tok, "answer"))
        return FRAY_OK; /* not an answer: the command as it is */
    if (!asked[0])
        return bad(diag, "no GM's question waits for an answer (answer N "
                   "follows a command the question refused)");
    if (!fray__words_next(&lx))
        return word_error(&lx, diag, "expected the answer: a DTN of 1-100 or "
                          "none");
    int v;
    if (!same_word(lx.tok, "none") && !ft_word_int(lx.tok, 1, 100, &v))
        return word_error(&lx, diag, "expected the answer: a DTN of 1-100 or "
                          "none");
    char word[sizeof lx.tok];
    memcpy(word, lx.tok, sizeof word);
    if (fray__words_next(&lx))
        return word_error(&lx, diag, "expected nothing after the answer");
    int n = snprintf(out, out_size, "%s dtn %s", asked, word);
    if (n < 0 || (size_t)n >= out_size)
        return bad(diag, "the question's command is too long to answer: give "
                   "'dtn N' on it");
    *out_text = out;
    return FRAY_OK;
}

/* ---- Cards by hand (issue 13: "a refusal says how many cards are needed in
 * all and from whose deck") ----------------------------------------------- */

/* "the GM's deck", "Sir Aldric's deck". */
static int deck_phrase(const ft_setup *s, int d, char *buf, size_t size) {
    if (d < 0 || d >= s->n_decks)
        return snprintf(buf, size, "deck %d", d);
    if (s->deck_controller[d] == FT_CTRL_GM &&
        strcmp(s->deck_names[d], "GM") == 0)
        return snprintf(buf, size, "the GM's deck");
    return snprintf(buf, size, "%s's deck", s->deck_names[d]);
}

void ft_hand_log(ft_run *r, int deck, int n, const char *what) {
    if (r->hand_flips < FT_EVENT_CHOICES) {
        r->hand_flip[r->hand_flips].deck = deck;
        r->hand_flip[r->hand_flips].n = n;
        r->hand_flip[r->hand_flips].what = what;
        r->hand_flips++;
    }
    /* The flip known to come next has come (or another did). */
    r->hand_next_n = 0;
}

void ft_hand_next(ft_run *r, int who, int n, ft_flip_purpose purpose) {
    const char *what = ft_flip_purpose_text(purpose);
    if (who < 0 || who >= r->st->n)
        return;
    int d = r->setup->c[who].deck;
    if (d < 0 || d >= r->st->n_decks)
        return;
    int k;
    bool low;
    fray__flip_plan(n, &r->setup->opt.flip, &k, &low);
    if (k > r->st->decks[d].size)
        k = r->st->decks[d].size;
    r->hand_next_n = k;
    r->hand_next_deck = d;
    r->hand_next_what = what;
}

/* Appends to buf at *len (bounded). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...) {
    if (*len >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
    if (*len >= size)
        *len = size - 1;
}

fray_status ft_hand_short(ft_run *r, int deck, int n, const char *what) {
    const ft_setup *s = r->setup;
    char msg[512], dp[FT_NAME + 16];
    size_t len = 0;
    int total = 0;
    for (int i = 0; i < r->hand_flips; i++)
        total += r->hand_flip[i].n;
    total += n;
    bool next = r->hand_next_n > 0;
    if (next)
        total += r->hand_next_n;
    int given = r->ev->n_cards;
    put(msg, sizeof msg, &len, "too few cards: this action needs at least %d "
        "in all, %d %s given: ", total, given, given == 1 ? "was" : "were");
    for (int i = 0; i < r->hand_flips; i++) {
        deck_phrase(s, r->hand_flip[i].deck, dp, sizeof dp);
        put(msg, sizeof msg, &len, "%s %d from %s, ", r->hand_flip[i].what,
            r->hand_flip[i].n, dp);
    }
    deck_phrase(s, deck, dp, sizeof dp);
    put(msg, sizeof msg, &len, "%s %d from %s", what, n, dp);
    if (next) {
        deck_phrase(s, r->hand_next_deck, dp, sizeof dp);
        put(msg, sizeof msg, &len, ", %s %d from %s", r->hand_next_what,
            r->hand_next_n, dp);
    }
    /* More may follow: a Hand of Fate reflip, an opportunity attack's
     * flips, combined damage flips ("at least"). */
    return fray__diag_set(r->diag, FRAY_ERR_DECK_EMPTY, 0, "%s", msg);
}

fray_status ft_hand_unavailable(ft_run *r, int deck, fray_card card,
                                int place, const char *what) {
    char name[16], dp[FT_NAME + 16];
    fray_card_format(card, FRAY_CARD_PLAIN, name);
    deck_phrase(r->setup, deck, dp, sizeof dp);
    return fray__diag_set(
        r->diag, FRAY_ERR_CARD_UNAVAILABLE, 0,
        "%s is not available for %s from %s: %s", name, what, dp,
        place == FRAY_PLACE_HELD
            ? "it is held in a Hand of Fate (play it with 'fate CARD for "
              "CARD')"
        : place == FRAY_PLACE_IN_PLAY ? "it is already in play"
                                      : "this deck has no such card");
}

void ft_gm_skill_mods(ft_run *r, const ft_command *cmd, int *flip,
                      int *shift) {
    *flip += cmd->gm_flip;
    *shift += cmd->gm_shift;
    if (!r->facts)
        return;
    ft_fact *f = ft_emit_fact(r, FT_FACT_MODIFIER, cmd->actor, -1);
    if (f) {
        f->v[0] = cmd->gm_shift;
        f->v[1] = cmd->gm_flip;
        snprintf(f->text, sizeof f->text, "the GM's call");
    }
}

/* ---- More of the GM's questions (issue 7) ----------------------------------
 *
 * Where seed 000 leaves a call to the GM, the engine asks: a table command
 * that meets the call without an answer is refused with the question
 * ("the GM's question: ..."), nothing happens, and `answer X` gives the
 * same command again with the answer's words on it (one question at a
 * time, of one kind: fray_towers_fight.asked_kind). The encounter file may
 * answer in advance (`gm-answers:`, one key per call); `fray fight` and
 * `fray sim`, where nobody is asked, take the file's answer or fray's
 * default (what fray did before the question existed).
 *
 *   kind          asked                     answer          word on the command
 *   dtn           parse (Use a Skill)       N | none        dtn N | dtn none
 *   time          parse (Use a Skill)       N               cost N
 *   high ground   the attack (attack.c)     yes | no        high-ground yes|no
 *   all hold      the clock (engine.c)      delay | first   all-hold delay|first
 *   limit         the damage (harm.c)       N | none        strength-limit N|none
 *
 * The questions met while applying (high ground, all hold, limit) are
 * found by the engine, which goes on with the default and writes what it
 * met to r->ask (only a table command has one); fight.c then turns the
 * command into the question (the fight is restored from its backup). */

static const char *const GMQ_WORD[FT_GMQ_COUNT] = {
    "", "dtn", "cost", "high-ground", "all-hold", "strength-limit"};
/* What each question's message begins with, after QUESTION. */
static const char *const GMQ_START[FT_GMQ_COUNT] = {
    "", "the DTN for", "how many phases", "is it high ground",
    "everyone holds", "the strength limit"};

int ft_gm_question_kind(const fray_diag *diag) {
    if (!ft_gm_is_question(diag))
        return FT_GMQ_NONE;
    const char *m = diag->message + strlen(QUESTION);
    for (int k = 1; k < FT_GMQ_COUNT; k++)
        if (strncmp(m, GMQ_START[k], strlen(GMQ_START[k])) == 0)
            return k;
    return FT_GMQ_NONE;
}

/* The value of an answer of kind `kind` in word `w` (also the command's
 * words): *v set; false when it is not one. */
static bool answer_value(int kind, const char *w, int *v) {
    switch (kind) {
    case FT_GMQ_DTN:
        if (same_word(w, "none")) {
            *v = FT_GM_DTN_NONE;
            return true;
        }
        return ft_word_int(w, 1, 100, v);
    case FT_GMQ_TIME:
        return ft_word_int(w, 0, 100, v);
    case FT_GMQ_HIGH_GROUND:
        *v = same_word(w, "yes") ? 1 : same_word(w, "no") ? 2 : 0;
        return *v != 0;
    case FT_GMQ_ALL_HOLD:
        *v = same_word(w, "delay") ? 1 : same_word(w, "first") ? 2 : 0;
        return *v != 0;
    case FT_GMQ_LIMIT:
        if (same_word(w, "none")) {
            *v = FT_GM_NO_LIMIT;
            return true;
        }
        return ft_word_int(w, 0, 30, v);
    default:
        return false;
    }
}

static const char *const GMQ_EXPECT[FT_GMQ_COUNT] = {
    "", "expected the answer: a DTN of 1-100 or none",
    "expected the answer: a cost of 0-100 phases",
    "expected the answer: yes (high ground) or no",
    ("expected the answer: delay (all take a Forced Delay) or first (the "
     "first to hold acts first)"),
    "expected the answer: the most <PX> its damage adds (0-30), or none"};

fray_status ft_gm_answer_kind(const char *asked, int kind,
                              const char *command, char *out,
                              size_t out_size, const char **out_text,
                              fray_diag *diag) {
    fray__words lx;
    fray__words_init(&lx, command);
    if (!fray__words_next(&lx) || !same_word(lx.tok, "answer"))
        return FRAY_OK; /* not an answer: the command as it is */
    if (!asked[0] || kind <= FT_GMQ_NONE || kind >= FT_GMQ_COUNT)
        return bad(diag, "no GM's question waits for an answer (answer N "
                   "follows a command the question refused)");
    int v;
    if (!fray__words_next(&lx) || !answer_value(kind, lx.tok, &v))
        return word_error(&lx, diag, GMQ_EXPECT[kind]);
    char word[sizeof lx.tok];
    memcpy(word, lx.tok, sizeof word);
    if (fray__words_next(&lx))
        return word_error(&lx, diag, "expected nothing after the answer");
    int n = snprintf(out, out_size, "%s %s %s", asked, GMQ_WORD[kind], word);
    if (n < 0 || (size_t)n >= out_size)
        return bad(diag, "the question's command is too long to answer: give "
                   "'%s %s' on it", GMQ_WORD[kind], word);
    *out_text = out;
    return FRAY_OK;
}

static const char *const GMQ_AFTER[FT_GMQ_COUNT] = {
    "", "", "", "expected yes or no after high-ground",
    "expected delay or first after all-hold",
    "expected 0-30 or none after strength-limit"};

fray_status ft_gm_word(const ft_setup *s, fray__words *lx, ft_command *cmd,
                       bool *taken, fray_diag *diag) {
    (void)s; /* (every answer's words are the same for all) */
    int kind = FT_GMQ_NONE;
    for (int k = FT_GMQ_HIGH_GROUND; k < FT_GMQ_COUNT; k++)
        if (same_word(lx->tok, GMQ_WORD[k]))
            kind = k;
    *taken = kind != FT_GMQ_NONE;
    if (!*taken)
        return FRAY_OK;
    int v;
    if (!fray__words_next(lx) || !answer_value(kind, lx->tok, &v))
        return word_error(lx, diag, GMQ_AFTER[kind]);
    if (kind == FT_GMQ_HIGH_GROUND)
        cmd->gm_high = (int8_t)v;
    else if (kind == FT_GMQ_ALL_HOLD)
        cmd->gm_all_hold = (int8_t)v;
    else
        cmd->gm_limit = (int8_t)(v == FT_GM_NO_LIMIT ? FT_GM_NO_LIMIT : v + 1);
    return FRAY_OK;
}

/* The file's answer for `name` in a by-name list ("" any other): its index,
 * or -1. */
static int by_name(const char (*names)[FT_NAME], int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (names[i][0] && same_word(names[i], name))
            return i;
    for (int i = 0; i < n; i++)
        if (!names[i][0])
            return i;
    return -1;
}

fray_status ft_gm_ask_time(const ft_setup *s, ft_command *cmd,
                           fray_diag *diag) {
    int a = cmd->actor;
    if (a < 0 || a >= s->n_combatants || cmd->skill < 0 ||
        cmd->skill >= s->c[a].sb.n_skills)
        return FRAY_OK; /* (the check says what is wrong) */
    const char *skill = s->c[a].sb.skills[cmd->skill].name;
    int i = by_name(s->time_skill, s->n_time_answers, skill);
    if (i >= 0) {
        cmd->cost = (int16_t)s->time_value[i];
        return FRAY_OK;
    }
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "%show many phases does %s's %s take (gauged "
                          "from a similar standard action: Attack 5, Shift "
                          "Position 3)? Answer 'answer 5' (or 'cost 5' on the "
                          "command; in the file 'gm-answers: {action-time: "
                          "{%s: 5}}')",
                          QUESTION, s->c[a].name, skill, skill);
}

void ft_gm_met(const ft_run *r, int kind, int who, int target, int value,
               const char *what) {
    ft_ask *q = r->ask;
    if (!q || q->kind != FT_GMQ_NONE)
        return; /* nobody asks, or one question at a time: the first */
    q->kind = kind;
    q->who = who;
    q->target = target;
    q->value = value;
    q->what = what;
}

bool ft_gm_high_ground(const ft_run *r, int a, int t, bool opportunity,
                       int diff) {
    const ft_command *cmd = r->ev ? &r->ev->cmd : NULL;
    /* The command's own attack: the answer on it. */
    bool own = cmd && !opportunity && cmd->actor == a && cmd->target == t &&
               cmd->action < FT_ACTION_COUNT;
    if (own && cmd->gm_high)
        return cmd->gm_high == 1;
    int least = r->setup->gm_high_ground;
    if (least == FT_GM_HIGH_NEVER)
        return false;
    if (least > 0)
        return diff >= least;
    /* Not answered: any higher position (fray's default); at the table the
     * GM is asked about the command's own attack. */
    if (own)
        ft_gm_met(r, FT_GMQ_HIGH_GROUND, a, t, diff, NULL);
    return true;
}

int ft_gm_all_hold_phases(ft_run *r) {
    const ft_command *cmd = r->ev ? &r->ev->cmd : NULL;
    int how = cmd && cmd->gm_all_hold ? cmd->gm_all_hold
                                      : r->setup->gm_all_hold;
    if (!how) {
        ft_gm_met(r, FT_GMQ_ALL_HOLD, -1, -1, 0, NULL);
        how = 1;
    }
    /* Forced Delay costs 5 (seed 000 "Action List"); the first holder acts
     * first: in the next phase they may act in (release: never the phase
     * a Hold was declared in). */
    return how == 1 ? 5 : 0;
}

int ft_gm_px_limited(const ft_run *r, int a, const ft_weapon *w, int px) {
    const ft_setup *s = r->setup;
    const ft_command *cmd = r->ev ? &r->ev->cmd : NULL;
    int limit;
    if (cmd && cmd->actor == a && cmd->gm_limit) {
        limit = cmd->gm_limit == FT_GM_NO_LIMIT ? FT_GM_NO_LIMIT
                                                : cmd->gm_limit - 1;
    } else {
        int i = by_name(s->limit_weapon, s->n_limit_answers, w->name);
        if (i >= 0) {
            limit = s->limit_value[i];
        } else {
            /* Not answered: no limit (fray's default, the data's silence);
             * at the table the GM is asked about the command's actor (when
             * there is strength to limit: <PX> above 0). */
            if (cmd && cmd->actor == a && px > 0)
                ft_gm_met(r, FT_GMQ_LIMIT, a, -1, 0, w->name);
            limit = FT_GM_NO_LIMIT;
        }
    }
    return limit != FT_GM_NO_LIMIT && px > limit ? limit : px;
}

fray_status ft_gm_question(const ft_setup *s, const ft_ask *q,
                           fray_diag *diag) {
    const char *who = q->who >= 0 && q->who < s->n_combatants
                          ? s->c[q->who].name
                          : "?";
    const char *tgt = q->target >= 0 && q->target < s->n_combatants
                          ? s->c[q->target].name
                          : "?";
    switch (q->kind) {
    case FT_GMQ_HIGH_GROUND:
        return fray__diag_set(
            diag, FRAY_ERR_INVALID, 0,
            "%sis it high ground, %s %d level%s above %s? Answer 'answer "
            "yes' or 'answer no' (or 'high-ground yes' on the command; in "
            "the file 'gm-answers: {high-ground: %d}': the least difference "
            "that counts)",
            QUESTION, who, q->value, q->value == 1 ? "" : "s", tgt, q->value);
    case FT_GMQ_ALL_HOLD:
        return fray__diag_set(
            diag, FRAY_ERR_INVALID, 0,
            "%severyone holds, nobody is on the clock: all take a Forced "
            "Delay, or the first to hold acts first? Answer 'answer delay' "
            "or 'answer first' (or 'all-hold delay' on the command; in the "
            "file 'gm-answers: {all-hold: delay}')",
            QUESTION);
    case FT_GMQ_LIMIT:
        return fray__diag_set(
            diag, FRAY_ERR_INVALID, 0,
            "%sthe strength limit of %s's %s (the most <PX> its damage "
            "adds)? Answer 'answer 1' or 'answer none' (or 'strength-limit "
            "1' on the command; in the file 'gm-answers: {strength-limit: "
            "{%s: 1}}')",
            QUESTION, who, q->what ? q->what : "weapon",
            q->what ? q->what : "weapon");
    default:
        return bad(diag, "the GM's question: (unknown)");
    }
}

/* ---- Reinforcements when nobody brings them in (issue 7) -------------- */

bool ft_gm_reinforce(const ft_setup *s, const ft_state *st, ft_command *cmd) {
    unsigned in = 0, waiting = 0;
    for (int i = 0; i < st->n; i++) {
        if (st->c[i].flags & FT_F_WAITING)
            waiting |= 1u << s->c[i].side;
        else if (ft_in_fight(st, i))
            in |= 1u << s->c[i].side;
    }
    unsigned due = waiting & ~in;
    if (!due)
        return false;
    for (int i = 0; i < st->n; i++) {
        if (!(st->c[i].flags & FT_F_WAITING) || !(due >> s->c[i].side & 1u))
            continue;
        memset(cmd, 0, sizeof *cmd);
        cmd->target = cmd->weapon = cmd->ally = cmd->condition = -1;
        cmd->hold_who = cmd->skill = cmd->chip = -1;
        cmd->actor = (int8_t)i;
        cmd->action = FT_ACT_GM_JOIN; /* with an Initiative flip */
        cmd->dest = s->c[i].start;
        if (ft_gm_check(s, st, cmd, NULL) != FRAY_OK)
            cmd->action = FT_ACT_GM_FLEE; /* nowhere to enter: it never comes */
        return true;
    }
    return false;
}

fray_towers_hit ft_gm_harm_hit(const ft_run *r, int attacker, int target,
                               const ft_weapon *w, int bonus, int hearts) {
    ft_weapon limited = *w;
    limited.has_strength_limit = false;
    limited.strength_limit = 0;
    if (w->adds_px && attacker >= 0 && attacker < r->st->n) {
        int px = r->setup->c[attacker].sb.cv[FT_CV_PX];
        /* attack.c took (px - px/2) off `bonus` for a grappled attacker's
         * restricted attack (ft_px_used gave the whole <PX> for this
         * weapon): given back, and the limit put on the half. */
        int half_off = r->st->c[attacker].grappled_by >= 0 ? px - px / 2 : 0;
        int used = px - half_off;
        bonus += half_off + ft_gm_px_limited(r, attacker, w, used);
        limited.adds_px = false; /* (its <PX>, limited, is in bonus) */
    }
    return ft_harm_hit(r, attacker, target, &limited, bonus, hearts);
}

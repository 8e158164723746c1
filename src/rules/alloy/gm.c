/*
 * gm.c - the GM's overrides in an Alloy fight (issue 14 "the GM's
 * overrides"): hit points set or adjusted, a condition put on or taken
 * off, a combatant brought in (one that `joins:` later, or one that left
 * put back), one taken out of the fight (it flees), a token placed.
 *
 * Each is FA_CMD_GM, an event like any other (journal, replay, undo), but
 * no turn and no action: it may be given at any time in the fight, and
 * the GM's word is not checked against movement or action rules (no
 * opportunity attacks, no cost). Hit points go through damage.c's
 * thresholds (dying at 0 or fewer, dead at -(max / 2): 004:211), the
 * same code an attack's damage goes through; set above 0, a dying (or
 * dead) combatant is up again.
 *
 * Words at the table (docs/file-formats.md "Commands", Alloy's part):
 *   gm set ID hp N                 gm adjust ID hp +N|-N
 *   gm condition ID NAME [on|off] [until-removed|save-ends|end-of-turn|start-of-turn]
 *   gm join ID [[at] X,Y]          gm flee ID
 *   gm place ID [at] X,Y
 */
#include "alloy_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "words.h"

/* A fled combatant stands nowhere: its footprint is put far off the map,
 * where no square, reach or area of the fight meets it. */
enum { GM_AWAY = -1000 };

static const char *const op_words[FA_GM_OPS] = {
    "", "set-hp", "adjust-hp", "condition-on", "condition-off", "join", "flee", "place"};

/* The conditions of 004 the GM may put on or take off. Dying and dead
 * follow hit points (gm set); grappled needs its grappler; surprised
 * belongs to the surprise round. */
static const uint8_t gm_conds[] = {
    FA_C_BLINDED, FA_C_DAZED, FA_C_DEAFENED, FA_C_DOMINATED, FA_C_HELPLESS,
    FA_C_IMMOBILIZED, FA_C_PRONE, FA_C_SLOWED, FA_C_SNARED, FA_C_STUNNED,
    FA_C_UNCONSCIOUS, FA_C_WITHERED};

static const struct {
    const char *word;
    uint8_t ends;
} ends_words[] = {{"until-removed", FA_ENDS_EVENT},
                  {"save-ends", FA_ENDS_SAVE},
                  {"end-of-turn", FA_ENDS_END_OF_TURN},
                  {"start-of-turn", FA_ENDS_START_OF_TURN}};

const char *fa_gm_word(int op) {
    return op > FA_GM_NONE && op < FA_GM_OPS ? op_words[op] : "?";
}

int fa_gm_op_of(const char *word) {
    for (int k = FA_GM_NONE + 1; k < FA_GM_OPS; k++)
        if (strcmp(op_words[k], word) == 0)
            return k;
    return -1;
}

static bool same_word(const char *name, const char *tok) {
    for (; *name && *tok; name++, tok++) {
        char a = (char)tolower((unsigned char)*name);
        char b = (char)tolower((unsigned char)*tok);
        if (a == ' ' && (b == '-' || b == '_'))
            continue;
        if (a != b)
            return false;
    }
    return *name == *tok;
}

static bool gm_cond_ok(int kind) {
    for (size_t i = 0; i < sizeof gm_conds; i++)
        if (gm_conds[i] == kind)
            return true;
    return false;
}

/* ---- Parsing ------------------------------------------------------------------ */

static fray_status perr(const fray__words *lx, fray_diag *diag, const char *what) {
    if (diag)
        fray__diag_set(diag, FRAY_ERR_PARSE, lx->col, "%s, got '%s'", what,
                       lx->tok[0] ? lx->tok : "the end of the command");
    return FRAY_ERR_PARSE;
}

static bool read_square(const char *tok, fray_pos *out) {
    int x, y;
    char tail;
    if (sscanf(tok, "%d,%d%c", &x, &y, &tail) != 2 || x < 0 || y < 0 ||
        x >= FRAY_GRID_MAX || y >= FRAY_GRID_MAX)
        return false;
    out->x = (int16_t)x;
    out->y = (int16_t)y;
    return true;
}

static bool read_int(const char *tok, bool sign, long *out) {
    if (sign && tok[0] != '+' && tok[0] != '-')
        return false;
    char *end;
    long v = strtol(tok, &end, 10);
    if (end == tok || *end || v < -30000 || v > 30000)
        return false;
    *out = v;
    return true;
}

fray_status fa_gm_parse(const fa_setup *s, const fa_state *st,
                        struct fray__words *lx, fa_command *cmd, fray_diag *diag) {
    (void)st;   /* the words only: fa_gm_check judges them against the state */
    static const char ops_expected[] =
        "expected an override after 'gm' (set, adjust, condition, join, flee, place)";
    if (!fray__words_next(lx))
        return perr(lx, diag, ops_expected);
    int op;
    if (same_word("set", lx->tok))
        op = FA_GM_SET_HP;
    else if (same_word("adjust", lx->tok))
        op = FA_GM_ADJUST_HP;
    else if (same_word("condition", lx->tok))
        op = FA_GM_COND_ON;
    else if (same_word("join", lx->tok))
        op = FA_GM_JOIN;
    else if (same_word("flee", lx->tok))
        op = FA_GM_FLEE;
    else if (same_word("place", lx->tok))
        op = FA_GM_PLACE;
    else
        return perr(lx, diag, ops_expected);
    cmd->kind = FA_CMD_GM;
    if (!fray__words_next(lx))
        return perr(lx, diag, "expected a combatant's id");
    int who = -1;
    for (int i = 0; i < s->n && who < 0; i++)
        if (same_word(s->c[i].id, lx->tok) || same_word(s->c[i].name, lx->tok))
            who = i;
    if (who < 0)
        return perr(lx, diag, "expected a combatant's id");
    cmd->actor = (int8_t)who;
    cmd->gm = (uint8_t)op;
    switch (op) {
    case FA_GM_SET_HP:
    case FA_GM_ADJUST_HP: {
        if (!fray__words_next(lx) || !same_word("hp", lx->tok))
            return perr(lx, diag, "expected 'hp' (Alloy's combatants have hit points)");
        long v;
        bool adj = op == FA_GM_ADJUST_HP;
        if (!fray__words_next(lx) || !read_int(lx->tok, adj, &v))
            return perr(lx, diag, adj ? "expected a change of hit points (+N or -N)"
                                      : "expected a number of hit points");
        cmd->gm_value = (int16_t)v;
        break;
    }
    case FA_GM_COND_ON: {
        if (!fray__words_next(lx))
            return perr(lx, diag, "expected a condition (blinded, dazed, prone, ...)");
        int kind = -1;
        for (size_t i = 0; i < sizeof gm_conds && kind < 0; i++)
            if (same_word(fa_cond_name(gm_conds[i]), lx->tok))
                kind = gm_conds[i];
        if (kind < 0)
            return perr(lx, diag, "expected a condition the GM may give or take "
                        "(blinded, dazed, deafened, dominated, helpless, immobilized, "
                        "prone, slowed, snared, stunned, unconscious, withered)");
        cmd->gm_cond = (uint8_t)kind;
        cmd->gm_ends = FA_ENDS_EVENT;
        bool off = false, ends_named = false;
        while (fray__words_next(lx)) {
            if (same_word("on", lx->tok)) {
                off = false;
                continue;
            }
            if (same_word("off", lx->tok)) {
                off = true;
                continue;
            }
            bool found = false;
            for (size_t i = 0; i < sizeof ends_words / sizeof *ends_words; i++)
                if (same_word(ends_words[i].word, lx->tok)) {
                    cmd->gm_ends = ends_words[i].ends;
                    found = ends_named = true;
                }
            if (!found)
                return perr(lx, diag, "expected 'on', 'off' or how it ends "
                            "(until-removed, save-ends, end-of-turn, start-of-turn)");
        }
        if (off && ends_named)
            return perr(lx, diag, "expected no ending for a condition taken off");
        if (off) {
            cmd->gm = FA_GM_COND_OFF;
            cmd->gm_ends = 0;
        }
        return FRAY_OK;
    }
    case FA_GM_JOIN:
    case FA_GM_PLACE: {
        fray_pos p;
        if (!fray__words_next(lx)) {
            if (op == FA_GM_PLACE)
                return perr(lx, diag, "expected the square X,Y it is placed on");
            break;
        }
        if (same_word("at", lx->tok) && !fray__words_next(lx))   /* 99 Towers' spelling */
            return perr(lx, diag, "expected a square X,Y after 'at'");
        if (!read_square(lx->tok, &p))
            return perr(lx, diag, "expected a square X,Y on the map");
        cmd->origin = p;
        break;
    }
    default:
        break;
    }
    if (fray__words_next(lx))
        return perr(lx, diag, "expected nothing more");
    return FRAY_OK;
}

/* ---- The rules of an override ------------------------------------------------------ */

/* In the fight now: joined and not fled. */
static bool present(const fa_state *st, int a) {
    return a >= 0 && a < st->n && !st->c[a].absent;
}

/* May a stand with its top-left at `at`: on the map, open to standing,
 * clear of every other combatant in the fight who is not dead. */
static fray_status space_check(const fa_setup *s, const fa_state *st, int a,
                               fray_pos at, char *why, size_t ws) {
    fray_footprint fp = st->c[a].fp;
    fp.at = at;
    if (fp.side <= 0)
        fp.side = s->c[a].side_len > 0 ? s->c[a].side_len : 1;
    int side = fp.side;
    if (at.x < 0 || at.y < 0 || at.x + side > s->map.w || at.y + side > s->map.h)
        return fa_refuse(why, ws, "square (%d, %d) is off the map (%d by %d)", at.x, at.y,
                         s->map.w, s->map.h);
    if (!fa_room_for(s, fp))
        return fa_refuse(why, ws, "%s cannot stand at (%d, %d): a wall, window or pit",
                         fa_nm(s, a), at.x, at.y);
    for (int j = 0; j < st->n; j++) {
        if (j == a || !present(st, j) || fa_has(&st->c[j], FA_C_DEAD))
            continue;
        fray_footprint o = st->c[j].fp;
        int os = o.side > 0 ? o.side : 1;
        if (at.x < o.at.x + os && o.at.x < at.x + side && at.y < o.at.y + os &&
            o.at.y < at.y + side)
            return fa_refuse(why, ws, "%s cannot stand at (%d, %d): %s is there",
                             fa_nm(s, a), at.x, at.y, fa_nm(s, j));
    }
    return FRAY_OK;
}

static int max_hp(const fa_setup *s, int a) { return fa_sb_of(s, a)->hp; }

/* The hit points an override leaves. */
static int new_hp(const fa_state *st, const fa_command *cmd) {
    int was = st->c[cmd->actor].hp;
    return cmd->gm == FA_GM_ADJUST_HP ? was + cmd->gm_value : cmd->gm_value;
}

fray_status fa_gm_check(const fa_setup *s, const fa_state *st,
                        const fa_command *cmd, char *why, size_t ws) {
    if (why && ws)
        why[0] = '\0';
    int a = cmd->actor;
    if (cmd->gm <= FA_GM_NONE || cmd->gm >= FA_GM_OPS)
        return fa_refuse(why, ws, "not an override of the GM's");
    if (a < 0 || a >= s->n)
        return fa_refuse(why, ws, "no such combatant");
    const fa_cstate *c = &st->c[a];
    if (cmd->gm == FA_GM_JOIN) {
        if (a >= st->n) {
            if (a != st->n)
                return fa_refuse(why, ws, "%s joins after %s (listed before it): "
                                 "bring %s in first", fa_nm(s, a), fa_nm(s, st->n),
                                 fa_nm(s, st->n));
        } else if (!c->absent) {
            return fa_refuse(why, ws, "%s is already in the fight", fa_nm(s, a));
        }
        fray_pos at = cmd->origin;
        if (at.x < 0 && at.y < 0) {
            if (a < st->n)
                return fa_refuse(why, ws, "say where %s comes back: gm join %s X,Y",
                                 fa_nm(s, a), s->c[a].id);
            at = s->c[a].at;
        }
        return space_check(s, st, a, at, why, ws);
    }
    if (!present(st, a))
        return fa_refuse(why, ws, a >= st->n ? "%s has not joined the fight (gm join %s)"
                                             : "%s has left the fight (gm join %s)",
                         fa_nm(s, a), s->c[a].id);
    switch (cmd->gm) {
    case FA_GM_SET_HP:
    case FA_GM_ADJUST_HP: {
        int hp = new_hp(st, cmd), max = max_hp(s, a);
        if (hp > max)
            return fa_refuse(why, ws, "%s has at most %d hit points (%d asked)", fa_nm(s, a),
                             max, hp);
        if (hp < -30000)
            return fa_refuse(why, ws, "%d hit points is past counting", hp);
        return FRAY_OK;
    }
    case FA_GM_COND_ON:
        if (!gm_cond_ok(cmd->gm_cond))
            return fa_refuse(why, ws, "the GM cannot give %s", fa_cond_name(cmd->gm_cond));
        if (cmd->gm_ends != FA_ENDS_EVENT && cmd->gm_ends != FA_ENDS_SAVE &&
            cmd->gm_ends != FA_ENDS_END_OF_TURN && cmd->gm_ends != FA_ENDS_START_OF_TURN)
            return fa_refuse(why, ws, "not an ending a condition given by the GM has");
        if (fa_has(c, FA_C_DEAD))
            return fa_refuse(why, ws, "%s is dead", fa_nm(s, a));
        return FRAY_OK;
    case FA_GM_COND_OFF:
        if (!gm_cond_ok(cmd->gm_cond))
            return fa_refuse(why, ws, "the GM cannot take %s off", fa_cond_name(cmd->gm_cond));
        if (!fa_has(c, (fa_cond_kind)cmd->gm_cond))
            return fa_refuse(why, ws, "%s is not %s", fa_nm(s, a), fa_cond_name(cmd->gm_cond));
        return FRAY_OK;
    case FA_GM_FLEE:
        return FRAY_OK;
    case FA_GM_PLACE:
        return space_check(s, st, a, cmd->origin, why, ws);
    default:
        return fa_refuse(why, ws, "not an override of the GM's");
    }
}

/* ---- Applying ------------------------------------------------------------------------ */

static void tell(fa_run *r, int a, int op, int before) {
    const fa_cstate *c = &r->st->c[a];
    fa_fact_add(r, FA_FACT_GM, a, -1, op, before, c->hp, c->fp.at.x);
    fa_fact_more(r, c->fp.at.y, 0);
}

/* Hit points set: up from dying (or dead) when above the thresholds,
 * then damage.c's thresholds (004:211) by the damage path's own code. */
static fray_status set_hp(fa_run *r, int a, int op, int hp) {
    fa_cstate *c = &r->st->c[a];
    int before = c->hp, max = max_hp(r->s, a);
    bool dead = fa_has(c, FA_C_DEAD);
    if (dead && hp > -(max / 2)) {
        fa_cond_remove(r, a, FA_C_DEAD, -1);
        c->flags &= (uint8_t)~FA_F_OUT;
    }
    if (hp > 0 && (fa_has(c, FA_C_DYING) || dead)) {
        fa_cond_remove(r, a, FA_C_DYING, -1);
        fa_cond_remove(r, a, FA_C_UNCONSCIOUS, -1);
        fa_cond_remove(r, a, FA_C_HELPLESS, -1);
        c->death_fails = 0;
        c->flags &= (uint8_t)~FA_F_OUT;
    }
    fa_hp_mark(r, a, c->hp);
    c->hp = (int16_t)hp;
    tell(r, a, op, before);
    if (hp <= 0 && !fa_has(c, FA_C_DEAD))
        return fa_damage(r, -1, a, 0);   /* damage.c, 004:211: dying at 0, dead at -max/2 */
    return r->failed;
}

/* Out of every grapple, its suppressing fire ended (as a fall lets go). */
static void let_go(fa_run *r, int a) {
    fa_state *st = r->st;
    if (st->c[a].grappling >= 0)
        fa_end_grapple(r, a);
    for (int i = 0; i < st->n; i++)
        if (i != a && st->c[i].grappling == a)
            fa_end_grapple(r, i);
    fa_cond_remove(r, a, FA_C_SUPPRESSING, -1);
}

static fray_status join(fa_run *r, int a, fray_pos at) {
    fa_state *st = r->st;
    fa_cstate *c = &st->c[a];
    int before = c->hp;
    if (a >= st->n) {
        /* joining the battle under way: initiative as 004:241 (skills.c) */
        int mod = fa_sb_of(r->s, a)->init_mod;
        int d = fa_roll(r, 20, FA_DIE_INITIATIVE, a);
        if (r->failed != FRAY_OK)
            return r->failed;
        int place = -1;
        fray_status ok = fray__track_insert(&st->track, a, d + mod, 0, &place);
        if (ok != FRAY_OK) {
            fa_fail(r, ok);
            return ok;
        }
        int at_cur = st->cur_pos >= 0 && st->cur_pos < st->n_order
                         ? st->order[st->cur_pos] : -1;
        st->n++;
        fa_order_sync(st);
        if (at_cur >= 0)
            st->cur_pos = (int8_t)fray__track_find(&st->track, at_cur);
        c->absent = false;
        c->fp.at = at;
        fa_fact_add(r, FA_FACT_JOIN, a, -1, d, mod, d + mod, place);
    } else {
        /* back from fleeing: its place in the order kept */
        c->absent = false;
        c->fp.at = at;
        if (!fa_has(c, FA_C_DYING) && !fa_has(c, FA_C_DEAD))
            c->flags &= (uint8_t)~FA_F_OUT;
    }
    for (int k = 0; k < FA_MAX_SIDES; k++)
        c->seen[k] = at;   /* it comes in where all can see */
    tell(r, a, FA_GM_JOIN, before);
    return r->failed;
}

fray_status fa_gm_apply(fa_run *r, const fa_command *cmd) {
    if (r->failed != FRAY_OK)
        return r->failed;
    char why[200];
    if (fa_gm_check(r->s, r->st, cmd, why, sizeof why) != FRAY_OK) {
        fa_fail(r, FRAY_ERR_INVALID);
        return FRAY_ERR_INVALID;
    }
    fa_state *st = r->st;
    int a = cmd->actor;
    fa_cstate *c = &st->c[a];
    switch (cmd->gm) {
    case FA_GM_SET_HP:
    case FA_GM_ADJUST_HP:
        set_hp(r, a, cmd->gm, new_hp(st, cmd));
        break;
    case FA_GM_COND_ON: {
        /* "until the end of its next turn": turn.c ends such an effect at
         * the end of whose's turn in a round after cond.round; one given
         * before the bearer's turn this round ends with that turn. */
        bool turn_to_come = st->cur != a && !(c->flags & FA_F_ACTED);
        fa_cond k = {.kind = cmd->gm_cond, .ends = cmd->gm_ends, .whose = (int8_t)a,
                     .other = -1, .source = -1,
                     .round = (int16_t)(turn_to_come ? st->round - 1 : st->round)};
        fa_cond_add(r, a, k);
        break;
    }
    case FA_GM_COND_OFF:
        fa_cond_remove(r, a, (fa_cond_kind)cmd->gm_cond, -1);
        break;
    case FA_GM_JOIN: {
        fray_pos at = cmd->origin;
        if (at.x < 0 && at.y < 0)
            at = r->s->c[a].at;
        join(r, a, at);
        break;
    }
    case FA_GM_FLEE:
        tell(r, a, FA_GM_FLEE, c->hp);   /* the square it leaves */
        let_go(r, a);
        c->flags |= FA_F_OUT;
        c->absent = true;
        c->fp.at.x = c->fp.at.y = GM_AWAY;
        break;
    case FA_GM_PLACE:
        c->fp.at = cmd->origin;   /* no movement rules, no opportunity attacks */
        tell(r, a, FA_GM_PLACE, c->hp);
        break;
    default:
        fa_fail(r, FRAY_ERR_INVALID);
        break;
    }
    if (r->failed == FRAY_OK)
        fa_grapple_upkeep(r);
    if (r->failed == FRAY_OK)
        fa_seen_update(r);
    if (r->failed == FRAY_OK)
        fa_check_over(r);
    return r->failed;
}

/* ---- Telling ----------------------------------------------------------------------- */

static size_t done(int n, size_t size) {
    if (n < 0)
        return 0;
    return (size_t)n < size ? (size_t)n : (size ? size - 1 : 0);
}

size_t fa_gm_describe(const fa_setup *s, const fa_command *c, char *buf, size_t size) {
    const char *who = c->actor >= 0 && c->actor < s->n ? fa_nm(s, c->actor) : "?";
    int n;
    switch (c->gm) {
    case FA_GM_SET_HP:
        n = snprintf(buf, size, "GM: %s's hit points set to %d", who, c->gm_value);
        break;
    case FA_GM_ADJUST_HP:
        n = snprintf(buf, size, "GM: %s's hit points %s by %d", who,
                     c->gm_value < 0 ? "lowered" : "raised", abs(c->gm_value));
        break;
    case FA_GM_COND_ON:
        n = snprintf(buf, size, "GM: %s %s", who, fa_cond_name(c->gm_cond));
        break;
    case FA_GM_COND_OFF:
        n = snprintf(buf, size, "GM: %s no longer %s", who, fa_cond_name(c->gm_cond));
        break;
    case FA_GM_JOIN:
        n = snprintf(buf, size, "GM: %s joins the fight", who);
        break;
    case FA_GM_FLEE:
        n = snprintf(buf, size, "GM: %s leaves the fight", who);
        break;
    case FA_GM_PLACE:
        n = snprintf(buf, size, "GM: %s placed at %d,%d", who, c->origin.x, c->origin.y);
        break;
    default:
        n = snprintf(buf, size, "GM: ?");
        break;
    }
    return done(n, size);
}

size_t fa_gm_fact_text(const fa_setup *s, const fa_fact *f, char *buf, size_t size) {
    const char *who = f->who >= 0 && f->who < s->n ? fa_nm(s, f->who) : "?";
    const int32_t *v = f->v;
    int n;
    switch (v[0]) {
    case FA_GM_SET_HP:
    case FA_GM_ADJUST_HP:
        n = snprintf(buf, size, "By the GM's word %s has %d hit points (was %d).", who,
                     (int)v[2], (int)v[1]);
        break;
    case FA_GM_JOIN:
        n = snprintf(buf, size, "By the GM's word %s is in the fight at %d,%d.", who,
                     (int)v[3], (int)v[4]);
        break;
    case FA_GM_FLEE:
        n = snprintf(buf, size, "By the GM's word %s leaves the fight from %d,%d.", who,
                     (int)v[3], (int)v[4]);
        break;
    case FA_GM_PLACE:
        n = snprintf(buf, size, "By the GM's word %s now stands at %d,%d (no move, "
                     "no opportunity attacks).", who, (int)v[3], (int)v[4]);
        break;
    default:
        n = snprintf(buf, size, "The GM's word.");
        break;
    }
    return done(n, size);
}

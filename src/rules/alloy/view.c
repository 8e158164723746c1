/*
 * view.c - an Alloy fight as data (include/fray/view.h;
 * docs/architecture.md "A fight as data"): the ruleset's `view` hook
 * (alloy.c passes its state). Reads fa_setup and fa_state, changes
 * nothing.
 *
 *   health      HP (no temporary hit points in Alloy); "bloodied" at half
 *   time        the initiative order: the initiative, the place in the
 *               round's order, Delay, whether it has had its turn
 *   conditions  with their ends (src/core/cond.h's endings: save ends,
 *               sustained, the end of a round ...)
 *   resources   action points, heroic surges, second wind, encounter and
 *               daily powers not yet used, items left
 *   actions     for whoever's turn it is: every action fa_check allows
 *               now (with the targets it allows); moves and areas, which
 *               need squares, and Ready and skills, which need more
 *               words, are listed unchecked
 */
#include "alloy_int.h"

#include <stdio.h>
#include <string.h>

#include "view_build.h"

static int max_hp(const fa_setup *s, int i) {
    int sb = s->c[i].sb;
    return sb >= 0 && sb < s->n_sb ? s->sb[sb].hp : 0;
}

static const char *status_word(const fa_cstate *c) {
    if (fa_has(c, FA_C_DEAD))
        return "dead";
    if (fa_has(c, FA_C_DYING))
        return "dying";
    if (fa_has(c, FA_C_UNCONSCIOUS))
        return "unconscious";
    if (c->flags & FA_F_OUT)
        return "out";
    if (fa_has(c, FA_C_DELAYING))
        return "delaying";
    return "standing";
}

static fray_status fill_conditions(fray_fight_view *v, const fa_setup *s,
                                   const fa_cstate *c, fray_view_combatant *o) {
    int n = c->n_cond < FA_MAX_CONDS ? c->n_cond : FA_MAX_CONDS;
    fray_view_condition *cd = fray__view_alloc(v, (size_t)(n + 1) * sizeof *cd);
    if (!cd)
        return FRAY_ERR_NOMEM;
    int m = 0;
    for (int k = 0; k < n; k++) {
        const fa_cond *e = &c->cond[k];
        if (e->kind == FA_C_DEAD || e->kind == FA_C_DYING)
            continue;   /* the status says it */
        fray_view_condition *d = &cd[m++];
        d->name = fa_cond_name(e->kind);
        d->value = e->value;
        d->ends = e->ends <= FRAY__ENDS_USED ? (fray_view_ends)e->ends
                                             : FRAY_VIEW_UNTIL_REMOVED;
        d->whose = e->whose;
        /* An Alloy effect lasts to its `whose`'s next turn (count 0 in
         * the state): one turn to go; a round only for END_OF_ROUND. */
        d->count = (e->ends == FA_ENDS_START_OF_TURN ||
                    e->ends == FA_ENDS_END_OF_TURN) && e->count <= 0
                       ? 1
                       : e->count;
        d->round = e->ends == FA_ENDS_ROUND_END ? e->round : 0;
        d->source = e->source;
        const char *who = e->whose >= 0 && e->whose < s->n ? s->c[e->whose].name
                                                           : "someone";
        switch (e->ends) {
        case FA_ENDS_START_OF_TURN:
            d->until = fray__view_strf(v, "until the start of %s's next turn", who);
            break;
        case FA_ENDS_END_OF_TURN:
            d->until = fray__view_strf(v, "until the end of %s's next turn", who);
            break;
        case FA_ENDS_SAVE:
            d->until = "save ends";
            break;
        case FA_ENDS_SUSTAIN:
            d->until = fray__view_strf(v, "while %s sustains it", who);
            break;
        case FA_ENDS_ROUND_END:
            d->until = e->round == 0 ? "until the end of the surprise round"
                                     : fray__view_strf(v, "until the end of round %d",
                                                       e->round);
            break;
        case FA_ENDS_USED:
            d->until = fray__view_strf(
                v, "until used, or the end of %s's next turn", who);
            break;
        default:
            d->until = "until something ends it";
            break;
        }
        if (!d->until)
            return FRAY_ERR_NOMEM;
    }
    o->n_conditions = m;
    o->conditions = cd;
    return FRAY_OK;
}

const char *fa_hp_words(int hp, int max) {
    return hp <= 0 ? "out" : hp >= max ? "unhurt"
                   : 2 * hp <= max     ? "bloodied"
                                       : "hurt";
}

static fray_status fill_resources(fray_fight_view *v, const fa_statblock *sb,
                                  const fa_cstate *c, fray_view_combatant *o) {
    fray_view_resource *r = fray__view_alloc(
        v, (size_t)(3 + FA_SB_POWERS + FA_SB_ITEMS) * sizeof *r);
    if (!r)
        return FRAY_ERR_NOMEM;
    int n = 0;
    r[n++] = (fray_view_resource){"action points", c->ap};
    r[n++] = (fray_view_resource){"heroic surges", c->surges};
    r[n++] = (fray_view_resource){"second wind",
                                  (c->flags & FA_F_SECOND_WIND) ? 0 : 1};
    for (int p = 0; p < sb->n_powers && p < FA_SB_POWERS; p++) {
        if (sb->powers[p].usage == FA_AT_WILL)
            continue;
        r[n].name = fray__view_strf(v, "%s (%s)", sb->powers[p].name,
                                    sb->powers[p].usage == FA_DAILY ? "daily"
                                                                    : "encounter");
        if (!r[n].name)
            return FRAY_ERR_NOMEM;
        r[n++].value = ((c->powers_used >> p) & 1u) ? 0 : 1;
    }
    for (int k = 0; k < sb->n_items && k < FA_SB_ITEMS; k++) {
        r[n].name = fray__view_str(v, sb->items[k].name);
        if (!r[n].name)
            return FRAY_ERR_NOMEM;
        r[n++].value = sb->items[k].count - c->items_used[k];
    }
    o->n_resources = n;
    o->resources = r;
    return FRAY_OK;
}

static fray_status fill_weapons(fray_fight_view *v, const fa_setup *s, int i,
                                const fa_cstate *c, fray_view_combatant *o) {
    const char **w = fray__view_alloc(v, 3 * sizeof *w);
    if (!w)
        return FRAY_ERR_NOMEM;
    int n = 0;
    const fa_statblock *sb = &s->sb[s->c[i].sb];
    if (c->taken_owner1 > 0 && c->taken_owner1 <= s->n) {
        const fa_statblock *ob = &s->sb[s->c[c->taken_owner1 - 1].sb];
        int slot = c->taken_slot;
        if (slot >= 0 && slot < ob->n_weapons)
            w[n++] = s->weapons[ob->weapons[slot].weapon].name;
    } else if (c->wield >= 0 && c->wield < sb->n_weapons) {
        int wi = sb->weapons[c->wield].weapon;
        if (wi >= 0 && wi < s->n_weapons)
            w[n++] = s->weapons[wi].name;
    }
    if (c->item_hand1 > 0 && c->item_hand1 <= sb->n_items)
        w[n++] = sb->items[c->item_hand1 - 1].name;
    o->n_weapons = n;
    o->weapons = w;
    return FRAY_OK;
}

static void cmd_defaults(fa_command *cmd, int actor, int kind) {
    memset(cmd, 0, sizeof *cmd);
    cmd->kind = (uint8_t)kind;
    cmd->actor = (int8_t)actor;
    cmd->slot = FA_ACT_NONE;
    cmd->power = -1;
    cmd->weapon = -1;
    cmd->origin.x = cmd->origin.y = -1;
    cmd->ready.who = -1;
    cmd->ready.power = -1;
    cmd->ready.target = -1;
    cmd->ready.kind = FA_CMD_ATTACK;
}

static bool ok(const fa_setup *s, const fa_state *st, const fa_command *c) {
    char why[8];
    return fa_check(s, st, c, why, sizeof why) == FRAY_OK;
}

/* Attack's options (issue 17): each power fa_check allows now ("with
 * ID"): one target, with the targets allowed; a close burst, none; an
 * area burst or a blast aimed at a square ("with ID at", then X,Y: not
 * checked); a wall (squares in order) and a teleport (its own command)
 * are left to words. */
static fray_status power_options(fray_fight_view *v, const fa_setup *s,
                                 const fa_state *st, int me,
                                 fray_view_action *x) {
    const fa_statblock *sb = &s->sb[s->c[me].sb];
    int n = st->n < s->n ? st->n : s->n;
    int np = sb->n_powers < FA_SB_POWERS ? sb->n_powers : FA_SB_POWERS;
    for (int p = 0; p < np; p++) {
        const fa_power *pw = &sb->powers[p];
        if (pw->teleport > 0 || pw->area == FA_AREA_WALL)
            continue;
        fa_command c;
        cmd_defaults(&c, me, FA_CMD_ATTACK);
        c.power = (int8_t)p;
        int *tg = NULL, nt = 0;
        bool alone = false, space = false;
        if (pw->area == FA_AREA_CLOSE_BURST) {
            alone = ok(s, st, &c);
        } else if (pw->area == FA_AREA_BURST || pw->area == FA_AREA_BLAST) {
            space = true;
        } else {
            if (!(tg = fray__view_alloc(v, (size_t)(n + 1) * sizeof *tg)))
                return FRAY_ERR_NOMEM;
            c.n_targets = 1;
            for (int t = 0; t < n; t++) {
                c.targets[0] = (int8_t)t;
                if (t != me && ok(s, st, &c))
                    tg[nt++] = t;
            }
        }
        if (!alone && !space && nt == 0)
            continue;
        const char *word = fray__view_strf(v, "with %s%s", pw->id, space ? " at" : "");
        fray_view_option *op =
            word ? fray__view_option(v, x, np, word, pw->name, tg, nt) : NULL;
        if (!op)
            return FRAY_ERR_NOMEM;
        op->needs_space = space;
    }
    return FRAY_OK;
}

/* Draw or Holster's options (issue 17): each weapon of the stat block
 * fa_check allows drawing now (the command names one: `draw` alone does
 * not parse; `holster` is a word of its own). */
static fray_status draw_options(fray_fight_view *v, const fa_setup *s,
                                const fa_state *st, int me,
                                fray_view_action *x) {
    const fa_statblock *sb = &s->sb[s->c[me].sb];
    int nw = sb->n_weapons < FA_SB_WEAPONS ? sb->n_weapons : FA_SB_WEAPONS;
    for (int w = 0; w < nw; w++) {
        fa_command c;
        cmd_defaults(&c, me, FA_CMD_DRAW);
        c.weapon = (int8_t)w;
        int wi = sb->weapons[w].weapon;
        if (wi < 0 || wi >= s->n_weapons || !ok(s, st, &c))
            continue;
        if (!fray__view_option(v, x, nw, NULL, s->weapons[wi].name, NULL, 0))
            return FRAY_ERR_NOMEM;
    }
    return FRAY_OK;
}

static fray_status fill_actions(fray_fight_view *v, const fa_setup *s,
                                const fa_state *st, int me,
                                fray_view_combatant *o) {
    fray_view_action *acts = fray__view_alloc(v, FA_CMD_KINDS * sizeof *acts);
    if (!acts)
        return FRAY_ERR_NOMEM;
    int na = 0, n = st->n < s->n ? st->n : s->n;
    for (int k = FA_CMD_ATTACK; k < FA_CMD_KINDS; k++) {
        fray_view_action *x = &acts[na];
        x->word = fa_cmd_name(k);
        x->title = fa_cmd_title(k);
        switch (k) {
        case FA_CMD_CHARGE:
        case FA_CMD_MOVE_GRAPPLED:
        case FA_CMD_SPRAY:
        case FA_CMD_SUPPRESS:
        case FA_CMD_WALK:
        case FA_CMD_SHIFT:
        case FA_CMD_RUN:
        case FA_CMD_CRAWL:
        case FA_CMD_SQUEEZE:
            x->needs_space = true;
            x->needs_target = k == FA_CMD_CHARGE || k == FA_CMD_MOVE_GRAPPLED;
            na++;
            continue;
        case FA_CMD_READY:
        case FA_CMD_SKILL:
            na++;       /* a trigger, a skill: words the view cannot guess */
            continue;
        default:
            break;
        }
        fa_command c;
        cmd_defaults(&c, me, k);
        bool any = false;
        if (k == FA_CMD_DRAW) {
            const fa_statblock *sb = &s->sb[s->c[me].sb];
            for (int w = -1; w < sb->n_weapons && !any; w++) {
                c.weapon = (int8_t)w;
                any = ok(s, st, &c);
            }
        } else {
            any = ok(s, st, &c);
        }
        if (!any && k != FA_CMD_DRAW) {
            int *tg = fray__view_alloc(v, (size_t)(n + 1) * sizeof *tg);
            if (!tg)
                return FRAY_ERR_NOMEM;
            int nt = 0;
            c.n_targets = 1;
            for (int t = 0; t < n; t++) {
                if (t == me)
                    continue;   /* never itself */
                c.targets[0] = (int8_t)t;
                if (ok(s, st, &c))
                    tg[nt++] = t;
            }
            if (nt > 0) {
                any = true;
                x->needs_target = true;
                x->targets = tg;
                x->n_targets = nt;
            }
        }
        if (k == FA_CMD_ATTACK || k == FA_CMD_DRAW) {
            fray_status rc = k == FA_CMD_ATTACK ? power_options(v, s, st, me, x)
                                                : draw_options(v, s, st, me, x);
            if (rc != FRAY_OK)
                return rc;
            any = any || x->n_options > 0;
        }
        if (!any)
            continue;
        x->checked = true;
        na++;
    }
    o->n_actions = na;
    o->actions = acts;
    return FRAY_OK;
}

fray_status fa_view(const fa_setup *s, const fa_state *st, int turn,
                    fray_fight_view *v) {
    int n = s->n < v->n_combatants ? s->n : v->n_combatants;
    if (n > FA_MAX_COMBATANTS)
        n = FA_MAX_COMBATANTS;
    v->turn = turn >= 0 && turn < n ? turn : -1;
    int acting = st->over ? -1 : fa_actor(s, st);
    fray_status rc;
    for (int i = 0; i < n; i++) {
        fray_view_combatant *o = fray__view_c(v, i);
        const fa_cstate *c = &st->c[i];
        if (i < st->n && c->absent) {   /* (alloygm) gm flee: left the fight */
            o->status = "has left the fight";
            o->out = true;
            o->time_words = "has left the fight";
            continue;
        }
        if (i >= st->n || c->absent) {
            o->status = "not yet in the fight";
            o->gm_only = true;
            o->out = true;
            o->time_words = fray__view_strf(v, "joins at the start of round %d",
                                            s->c[i].joins);
            if (!o->time_words)
                return FRAY_ERR_NOMEM;
            continue;
        }
        o->status = status_word(c);
        o->out = (c->flags & FA_F_OUT) != 0 || fa_has(c, FA_C_DEAD);
        int mh = max_hp(s, i);
        o->n_tracks = 1;
        o->tracks[0] = (fray_view_track){
            "HP", c->hp, mh, 0,
            fa_hp_words(c->hp, mh),
            true};
        int place = -1;
        for (int k = 0; k < st->n_order; k++)
            if (st->order[k] == i)
                place = k;
        o->on_time = place >= 0 && st->started;
        o->time = c->init;
        o->order = place;
        o->holding = fa_has(c, FA_C_DELAYING);
        o->acted = (c->flags & FA_F_ACTED) != 0;
        o->time_words = o->holding ? "delaying"
                                   : fray__view_strf(v, "initiative %d", c->init);
        if (!o->time_words)
            return FRAY_ERR_NOMEM;
        if (s->has_map) {   /* the dead lie where they fell */
            o->on_map = true;
            o->x = c->fp.at.x;
            o->y = c->fp.at.y;
            o->size = c->fp.side > 0 ? c->fp.side : 1;
            int ns = s->n_sides < FA_MAX_SIDES ? s->n_sides : FA_MAX_SIDES;
            fray_view_seen *seen =
                fray__view_alloc(v, (size_t)(ns + 1) * sizeof *seen);
            if (!seen)
                return FRAY_ERR_NOMEM;
            for (int k = 0; k < ns; k++)
                seen[k] = k == s->c[i].side
                              ? (fray_view_seen){c->fp.at.x, c->fp.at.y}
                              : (fray_view_seen){c->seen[k].x, c->seen[k].y};
            o->n_seen = ns;
            o->seen = seen;
            if ((rc = fa_view_reach(v, s, st, i, o)) != FRAY_OK)
                return rc;
        }
        if ((rc = fill_conditions(v, s, c, o)) != FRAY_OK ||
            (rc = fill_resources(v, &s->sb[s->c[i].sb], c, o)) != FRAY_OK ||
            (rc = fill_weapons(v, s, i, c, o)) != FRAY_OK)
            return rc;
        if (i == acting && i == v->turn &&
            (rc = fill_actions(v, s, st, i, o)) != FRAY_OK)
            return rc;
    }
    if (s->has_map &&
        ((rc = fray__view_map_grid(v, &s->map)) != FRAY_OK ||
         (rc = fray__view_map_area(v, "obscured", &s->obscured)) != FRAY_OK ||
         (rc = fray__view_map_area(v, "dark", &s->dark)) != FRAY_OK ||
         (rc = fray__view_map_area(v, "narrow", &s->narrow)) != FRAY_OK))
        return rc;
    return FRAY_OK;
}

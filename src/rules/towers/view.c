/*
 * view.c - 99 Towers' fight as data (include/fray/view.h;
 * docs/architecture.md "A fight as data"): the ruleset's `view` hook. It
 * reads ft_setup and ft_state and changes nothing; it runs only when a
 * caller asks for a view (never in a simulation).
 *
 *   health      STUN and LETHAL, temporary points counted in
 *   time        the Combat Clock: the phase of the next activation, the
 *               place among those in that phase (slot order, RULINGS 9)
 *   conditions  seed 000 "Conditions", with their ends (harm.c)
 *   resources   chips by colour, mana by element (the stat block's pools)
 *   hands       the Hand of Fate of each deck (fate.c), private to the
 *               combatants who flip from it
 *   actions     for whoever's turn it is: every action the engine's own
 *               check (ft_check_command) allows now, with the targets it
 *               allows; those that need a space or a skill are listed
 *               unchecked (the engine checks them when given); Draw a
 *               Weapon and Cast a Spell with their options (the weapons,
 *               the spells, each checked)
 */
#include "towers_int.h"

#include <stdio.h>
#include <string.h>

#include "ruleset.h"
#include "view_build.h"

static const char *const COND_NAMES[FT_CONDITION_COUNT] = {
#define FT__E(id, name, major, has_x) name,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
};

static const char *const ELEM_NAMES[FT_ELEMENT_COUNT] = {
#define FT__E(id, name) name,
    FT_ELEMENT_LIST(FT__E)
#undef FT__E
};

enum {
    OUT_FLAGS = FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING | FT_F_DEAD |
                FT_F_FLED
};

/* The words of render.c's summary, and "not yet in the fight". */
static const char *status_word(unsigned flags) {
    if (flags & FT_F_DEAD)
        return "dead";
    if (flags & FT_F_WAITING)
        return "not yet in the fight";
    if (flags & FT_F_FLED)
        return "fled";
    if (flags & FT_F_DYING)
        return "dying";
    if (flags & (FT_F_UNCONSCIOUS | FT_F_DISABLED))
        return "unconscious";
    if (flags & FT_F_HOLDING)
        return "holding";
    return "standing";
}

/* Not yet noticed by the players' side (docs/rules: the view's ruling):
 * some player's combatant of another side is in the fight, and every such
 * one is unaware of i's side and has not acted yet. */
static bool unnoticed(const ft_setup *s, const ft_state *st, int n, int i) {
    if (s->c[i].sb.controller == FT_CTRL_PLAYER)
        return false;
    int side = s->c[i].side, players = 0;
    for (int j = 0; j < n; j++) {
        if (s->c[j].side == side || s->c[j].sb.controller != FT_CTRL_PLAYER ||
            (st->c[j].flags & (OUT_FLAGS | FT_F_WAITING)))
            continue;
        players++;
        if (!((s->c[j].unaware_of >> side) & 1u) ||
            (st->c[j].flags & FT_F_ACTED))
            return false;
    }
    return players > 0;
}

static const char *ordinal(int k, char buf[16]) {
    const char *suf = (k % 100 >= 11 && k % 100 <= 13) ? "th"
                      : k % 10 == 1                    ? "st"
                      : k % 10 == 2                    ? "nd"
                      : k % 10 == 3                    ? "rd"
                                                       : "th";
    snprintf(buf, 16, "%d%s", k, suf);
    return buf;
}

static fray_status fill_conditions(fray_fight_view *v, const ft_setup *s,
                                   const ft_cstate *c, fray_view_combatant *o) {
    int n = c->n_cond < FT_MAX_CONDITIONS ? c->n_cond : FT_MAX_CONDITIONS;
    fray_view_condition *cd = fray__view_alloc(v, (size_t)(n + 1) * sizeof *cd);
    if (!cd)
        return FRAY_ERR_NOMEM;
    for (int k = 0; k < n; k++) {
        const ft_cond *e = &c->cond[k];
        cd[k].name = e->kind < FT_CONDITION_COUNT ? COND_NAMES[e->kind] : "?";
        cd[k].value = e->value;
        cd[k].whose = e->whose;
        cd[k].count = e->count;
        cd[k].source = e->source;
        const char *who = e->whose >= 0 && e->whose < s->n_combatants
                              ? s->c[e->whose].name
                              : "someone";
        char nth[16];
        switch (e->ends) {
        case FT_UNTIL_START_OF:
        case FT_UNTIL_END_OF:
            cd[k].ends = e->ends == FT_UNTIL_START_OF ? FRAY_VIEW_START_OF_TURN
                                                      : FRAY_VIEW_END_OF_TURN;
            if (e->count <= 1)
                cd[k].until = fray__view_strf(
                    v, "until the %s of %s's next activation",
                    e->ends == FT_UNTIL_START_OF ? "start" : "end", who);
            else
                cd[k].until = fray__view_strf(
                    v, "until the %s of %s's %s activation from now",
                    e->ends == FT_UNTIL_START_OF ? "start" : "end", who,
                    ordinal(e->count, nth));
            break;
        default:
            cd[k].ends = FRAY_VIEW_UNTIL_REMOVED;
            cd[k].until = "until removed";
            break;
        }
        if (!cd[k].until)
            return FRAY_ERR_NOMEM;
    }
    o->n_conditions = n;
    o->conditions = cd;
    return FRAY_OK;
}

static fray_status fill_resources(fray_fight_view *v, const ft_statblock *sb,
                                  const ft_cstate *c, fray_view_combatant *o) {
    static const char *const chips[3] = {"white chips", "red chips",
                                         "blue chips"};
    fray_view_resource *r =
        fray__view_alloc(v, (3 + FT_ELEMENT_COUNT) * sizeof *r);
    if (!r)
        return FRAY_ERR_NOMEM;
    int n = 0;
    for (int k = 0; k < 3; k++)
        if (sb->chips[k] > 0 || c->chips[k] > 0)
            r[n++] = (fray_view_resource){chips[k], c->chips[k]};
    for (int e = 0; e < FT_ELEMENT_COUNT; e++)
        if (sb->mana[e] > 0 || c->mana[e] > 0) {
            r[n].name = fray__view_strf(v, "%s mana", ELEM_NAMES[e]);
            if (!r[n].name)
                return FRAY_ERR_NOMEM;
            r[n++].value = c->mana[e];
        }
    o->n_resources = n;
    o->resources = r;
    return FRAY_OK;
}

static fray_status fill_weapons(fray_fight_view *v, const ft_statblock *sb,
                                const ft_cstate *c, fray_view_combatant *o) {
    const char **w = fray__view_alloc(v, 3 * sizeof *w);
    if (!w)
        return FRAY_ERR_NOMEM;
    int n = 0;
    for (int h = 0; h < 2; h++) {
        int k = c->wielded[h];
        if (k >= 0 && k < sb->n_weapons && k < FT_MAX_WEAPONS &&
            !(h == 1 && k == c->wielded[0]))   /* a two-handed weapon once */
            w[n++] = sb->weapons[k].name;
    }
    o->n_weapons = n;
    o->weapons = w;
    return FRAY_OK;
}

static bool ok(const ft_setup *s, const ft_state *st, const ft_command *c) {
    return ft_check_command(s, st, c, NULL) == FRAY_OK;
}

/* Whether the action a passes the check with target t (and for Aid, some
 * ally to aid). */
static bool ok_target(const ft_setup *s, const ft_state *st, int n,
                      ft_command *c, int t) {
    c->target = (int8_t)t;
    if (c->action != FT_ACT_AID)
        return ok(s, st, c);
    for (int a = 0; a < n; a++) {
        c->ally = (int8_t)a;
        if (ok(s, st, c))
            return true;
    }
    c->ally = -1;
    return false;
}

/* The targets action c allows (t != me), into x (none: x unchanged). */
static fray_status targets_of(fray_fight_view *v, const ft_setup *s,
                              const ft_state *st, int n, int me, ft_command *c,
                              int **out, int *n_out) {
    int *tg = fray__view_alloc(v, (size_t)(n + 1) * sizeof *tg);
    if (!tg)
        return FRAY_ERR_NOMEM;
    int nt = 0;
    for (int t = 0; t < n; t++)   /* never itself */
        if (t != me && ok_target(s, st, n, c, t))
            tg[nt++] = t;
    *out = tg;
    *n_out = nt;
    return FRAY_OK;
}

/* Draw a Weapon and Cast a Spell with their options (issue 17): Draw, each
 * weapon of the stat block not in hand that the check allows drawing (a
 * spell is cast, not drawn); Cast, each spell with the targets the check
 * allows it (an aura, centred on the caster, with none), and the action's
 * own targets with the spell in hand, as before. */
static fray_status draw_or_cast(fray_fight_view *v, const ft_setup *s,
                                const ft_state *st, int n, int me, int a,
                                fray_view_action *x) {
    const ft_statblock *sb = &s->c[me].sb;
    const ft_cstate *mc = &st->c[me];
    int nw = sb->n_weapons < FT_MAX_WEAPONS ? sb->n_weapons : FT_MAX_WEAPONS;
    ft_command c;
    fray_status rc;
    if (a == FT_ACT_CAST) {
        int *tg = NULL, nt = 0;
        ft_cmd_init(&c, me, a);
        if ((rc = targets_of(v, s, st, n, me, &c, &tg, &nt)) != FRAY_OK)
            return rc;
        if (nt > 0) {
            x->needs_target = true;
            x->targets = tg;
            x->n_targets = nt;
        }
    }
    for (int k = 0; k < nw; k++) {
        const ft_weapon *w = &sb->weapons[k];
        if (a == FT_ACT_DRAW_WEAPON &&
            (w->spell || mc->wielded[0] == k || mc->wielded[1] == k))
            continue;
        if (a == FT_ACT_CAST && !w->spell)
            continue;
        ft_cmd_init(&c, me, a);
        c.weapon = (int8_t)k;
        int *tg = NULL, nt = 0;
        bool alone = false;
        if (a == FT_ACT_DRAW_WEAPON) {
            alone = ok(s, st, &c);
        } else if (w->area == FT_AREA_AURA) {
            c.at_space = true;
            alone = ok(s, st, &c);
        } else if ((rc = targets_of(v, s, st, n, me, &c, &tg, &nt)) != FRAY_OK) {
            return rc;
        }
        if (!alone && nt == 0)
            continue;
        if (!fray__view_option(v, x, nw, NULL, w->name, tg, nt))
            return FRAY_ERR_NOMEM;
    }
    return FRAY_OK;
}

static fray_status fill_actions(fray_fight_view *v, const ft_setup *s,
                                const ft_state *st, int n, int me,
                                fray_view_combatant *o) {
    fray_view_action *acts =
        fray__view_alloc(v, FT_ACTION_COUNT * sizeof *acts);
    if (!acts)
        return FRAY_ERR_NOMEM;
    int na = 0;
    const ft_cstate *mc = &st->c[me];
    for (int a = 0; a < FT_ACTION_COUNT; a++) {
        const ft_action_info *info = &ft_actions[a];
        if (info->flags & FT_AF_GM)
            continue;
        fray_view_action *x = &acts[na];
        x->word = info->name;
        x->title = info->text;
        if ((info->flags & FT_AF_DEST) || a == FT_ACT_USE_SKILL) {
            /* A space (or a skill and its cost) the view cannot guess. */
            if (a == FT_ACT_USE_SKILL && s->c[me].sb.n_skills == 0)
                continue;
            x->needs_space = (info->flags & FT_AF_DEST) != 0;
            x->needs_target = (info->flags & FT_AF_TARGET) != 0;
            na++;
            continue;
        }
        ft_command c;
        ft_cmd_init(&c, me, a);
        if (a == FT_ACT_DRAW_WEAPON || a == FT_ACT_CAST) {
            fray_status rc = draw_or_cast(v, s, st, n, me, a, x);
            if (rc != FRAY_OK)
                return rc;
            if (x->n_options > 0 || x->n_targets > 0) {
                x->checked = true;
                na++;
            }
            continue;
        }
        if (a == FT_ACT_HOLD)
            c.hold_kind = FT_HOLD_CHOOSE;
        if (a == FT_ACT_CHIP_HEAL)
            for (int k = 2; k >= 0; k--)
                if (mc->chips[k] > 0)
                    c.chip = (int8_t)k;
        bool any = false;
        if (!(info->flags & FT_AF_TARGET) && ok(s, st, &c)) {
            any = true;
        } else {
            int *tg = fray__view_alloc(v, (size_t)(n + 1) * sizeof *tg);
            if (!tg)
                return FRAY_ERR_NOMEM;
            int nt = 0;
            for (int t = 0; t < n; t++)   /* never itself */
                if (t != me && ok_target(s, st, n, &c, t))
                    tg[nt++] = t;
            if (nt > 0) {
                any = true;
                x->needs_target = true;
                x->targets = tg;
                x->n_targets = nt;
            }
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

static fray_status fill_hands(fray_fight_view *v, const ft_setup *s,
                              const ft_state *st, int n) {
    int nd = st->n_decks < FT_MAX_DECKS ? st->n_decks : FT_MAX_DECKS;
    fray_view_hand *hs = fray__view_alloc(v, (size_t)(nd + 1) * sizeof *hs);
    if (!hs)
        return FRAY_ERR_NOMEM;
    int nh = 0;
    for (int d = 0; d < nd; d++) {
        int *users = fray__view_alloc(v, (size_t)(n + 1) * sizeof *users);
        if (!users)
            return FRAY_ERR_NOMEM;
        int nu = 0;
        for (int i = 0; i < n; i++)
            if (s->c[i].deck == d)
                users[nu++] = i;
        if (nu == 0)
            continue;
        fray_card held[FRAY_CARDS_MAX];
        size_t nc = fray_deck_held(&st->decks[d], held, FRAY_CARDS_MAX);
        if (nc > FRAY_CARDS_MAX)
            nc = FRAY_CARDS_MAX;
        const char **cards = fray__view_alloc(v, (nc + 1) * sizeof *cards);
        if (!cards)
            return FRAY_ERR_NOMEM;
        for (size_t k = 0; k < nc; k++) {
            char buf[16];
            if (!(cards[k] = fray__view_str(
                      v, fray_card_format(held[k], FRAY_CARD_PLAIN, buf))))
                return FRAY_ERR_NOMEM;
        }
        hs[nh].deck = s->deck_names[d][0] ? s->deck_names[d] : "GM";
        hs[nh].gm_deck = s->deck_controller[d] == FT_CTRL_GM;
        hs[nh].users = users;
        hs[nh].n_users = nu;
        hs[nh].cards = cards;
        hs[nh].n_cards = (int)nc;
        for (int u = 0; u < nu; u++)
            fray__view_c(v, users[u])->hand = nh;
        nh++;
    }
    v->n_hands = nh;
    v->hands = hs;
    return FRAY_OK;
}

static fray_status fill_marks(fray_fight_view *v, const ft_state *st, int n) {
    fray_view_mark *m = fray__view_alloc(v, (size_t)(3 * n + 1) * sizeof *m);
    if (!m)
        return FRAY_ERR_NOMEM;
    int nm = 0;
    for (int i = 0; i < n; i++) {
        const ft_cstate *c = &st->c[i];
        if (c->mark_ally > 0)
            m[nm++] = (fray_view_mark){i, "ally", c->mark_ally - 1, -1, -1};
        if (c->mark_foe > 0)
            m[nm++] = (fray_view_mark){i, "foe", c->mark_foe - 1, -1, -1};
        if (c->mark_space_set)
            m[nm++] = (fray_view_mark){i, "space", -1, c->mark_space.x,
                                       c->mark_space.y};
    }
    v->map.n_marks = nm;
    v->map.marks = m;
    return FRAY_OK;
}

/* The place of i among those on the clock in its phase (slot, then
 * index: the clock's order). */
static int clock_order(const ft_state *st, int n, int i) {
    int k = 0;
    for (int j = 0; j < n; j++) {
        const ft_cstate *c = &st->c[j];
        if (j == i || c->phase != st->c[i].phase ||
            (c->flags & (OUT_FLAGS | FT_F_HOLDING | FT_F_RIDING | FT_F_WAITING)))
            continue;
        if (c->slot < st->c[i].slot || (c->slot == st->c[i].slot && j < i))
            k++;
    }
    return k;
}

fray_status ft_view(const void *rfight, fray_fight_view *v) {
    const fray_towers_fight *f = rfight;
    const ft_setup *s = &f->setup->s;
    const ft_state *st = &f->st;
    int n = st->n < s->n_combatants ? st->n : s->n_combatants;
    if (n > v->n_combatants)
        n = v->n_combatants;
    if (n > FT_MAX_COMBATANTS)
        n = FT_MAX_COMBATANTS;
    v->turn = st->over ? -1 : ft_next_actor(st);
    if (v->turn >= n)
        v->turn = -1;
    fray_status rc;
    for (int i = 0; i < n; i++) {
        const ft_cstate *c = &st->c[i];
        fray_view_combatant *o = fray__view_c(v, i);
        unsigned fl = c->flags;
        o->status = status_word(fl);
        o->out = (fl & OUT_FLAGS) != 0;
        o->gm_only = (fl & FT_F_WAITING) != 0;
        o->unnoticed = !o->gm_only && unnoticed(s, st, n, i);
        int ms = ft_max_stun(s, i), ml = ft_max_lethal(s, i);
        if (ms <= 0)
            ms = s->c[i].sb.max_stun;
        if (ml <= 0)
            ml = s->c[i].sb.max_lethal;
        int vs = c->stun + c->temp_stun, vl = c->lethal + c->temp_lethal;
        o->n_tracks = 2;
        o->tracks[0] = (fray_view_track){"STUN", vs, ms, c->temp_stun,
                                         fray__view_descriptor(vs, ms), true};
        o->tracks[1] = (fray_view_track){"LETHAL", vl, ml, c->temp_lethal,
                                         fray__view_descriptor(vl, ml), true};
        o->holding = (fl & FT_F_HOLDING) != 0;
        o->acted = (fl & FT_F_ACTED) != 0;
        bool riding = (fl & FT_F_RIDING) && c->master > 0 && c->master <= n;
        o->on_time = !(fl & (OUT_FLAGS | FT_F_HOLDING | FT_F_WAITING)) && !riding;
        o->time = c->phase;
        o->order = o->on_time ? clock_order(st, n, i) : -1;
        if (o->on_time)
            o->time_words = fray__view_strf(v, "phase %d", (int)c->phase);
        else if (o->holding && c->hold_kind == FT_HOLD_PHASE)
            o->time_words = fray__view_strf(v, "holding until phase %d",
                                            (int)c->hold_phase);
        else if (o->holding && c->hold_kind == FT_HOLD_ACTS &&
                 c->hold_who >= 0 && c->hold_who < n)
            o->time_words = fray__view_strf(v, "holding until %s acts",
                                            s->c[c->hold_who].name);
        else if (o->holding && c->hold_kind == FT_HOLD_ENEMY_IN_REACH)
            o->time_words = "holding until an enemy comes within reach";
        else if (o->holding)
            o->time_words = "holding";
        else if (riding)
            o->time_words = fray__view_strf(v, "acts with %s",
                                            s->c[c->master - 1].name);
        else
            o->time_words = o->status;
        if (!o->time_words)
            return FRAY_ERR_NOMEM;
        if (s->has_map && !(fl & (FT_F_FLED | FT_F_WAITING))) {
            fray_footprint fp = ft_footprint(s, st, i);
            o->on_map = true;
            o->x = c->pos.x;
            o->y = c->pos.y;
            o->size = fp.side > 0 ? fp.side : 1;
            if ((rc = ft_view_reach(v, s, st, i, o)) != FRAY_OK)
                return rc;
        }
        if ((rc = fill_conditions(v, s, c, o)) != FRAY_OK ||
            (rc = fill_resources(v, &s->c[i].sb, c, o)) != FRAY_OK ||
            (rc = fill_weapons(v, &s->c[i].sb, c, o)) != FRAY_OK)
            return rc;
        /* Its turn has come (not a later phase the clock must reach
         * first: then nobody may act before `next`). */
        if (i == v->turn && c->phase <= st->phase &&
            (rc = fill_actions(v, s, st, n, i, o)) != FRAY_OK)
            return rc;
    }
    if ((rc = fill_hands(v, s, st, n)) != FRAY_OK)
        return rc;
    if (s->has_map) {
        if ((rc = fray__view_map_grid(v, &s->map)) != FRAY_OK ||
            (rc = fill_marks(v, st, n)) != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

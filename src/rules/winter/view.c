/*
 * view.c - a Silent Winter fight as data (include/fray/view.h;
 * docs/architecture.md "A fight as data"): the ruleset's `view` hook.
 * Reads sw_setup and sw_state, changes nothing.
 *
 *   health      two tracks: Health and Pain (Pain may go below 0, down to
 *               minus its maximum: Blown, 002:37)
 *   time        the segment it may next declare on; `order` its place in
 *               the segment's order of declarations; `acted` when it has
 *               declared (or waited) this segment
 *   conditions  the statuses of 002:92-106 that hold now, each with how
 *               it ends; "engages X", "Undefended against X", a pending
 *               Engage with the segment it takes effect
 *   weapons     main hand, then the off hand
 *   actions     for whoever declares now: every action sw_check allows,
 *               with its targets; Switch Weapons, cast and release with
 *               their options (the weapons, the spells, each checked)
 */
#include "winter_int.h"

#include <stdio.h>
#include <string.h>

#include "view_build.h"

static const char *status_word(const sw_cstate *c) {
    if (c->flags & SW_F_DEAD)
        return "dead";
    if (c->flags & SW_F_UNCONSCIOUS)
        return "unconscious";
    if (c->flags & SW_F_WOUNDED)
        return "wounded";
    if (c->flags & SW_F_BLOWN)
        return "blown";
    if (c->inanimate)
        return "lifeless"; /* not animated (ruling 36) */
    return "standing";
}

typedef struct cond_list {
    fray_view_condition *c;
    int n, cap;
} cond_list;

static fray_status add(fray_fight_view *v, cond_list *l, const char *name,
                       const char *until, int source) {
    if (!name || !until)
        return FRAY_ERR_NOMEM;
    if (l->n >= l->cap)
        return FRAY_OK; /* (the list holds every status there is) */
    fray_view_condition *d = &l->c[l->n++];
    (void)v;
    d->name = name;
    d->ends = FRAY_VIEW_UNTIL_REMOVED;
    d->whose = -1;
    d->source = source;
    d->until = until;
    return FRAY_OK;
}

static fray_status add_stun_conditions(fray_fight_view *v, cond_list *l, const sw_setup *s,
                                       const sw_state *st, int i);

static fray_status fill_conditions(fray_fight_view *v, const sw_setup *s,
                                   const sw_state *st, int i,
                                   fray_view_combatant *o) {
    const sw_cstate *c = &st->c[i];
    cond_list l = {NULL, 0, 16 + 2 * SW_MAX_C};
    l.c = fray__view_alloc(v, (size_t)l.cap * sizeof *l.c);
    if (!l.c)
        return FRAY_ERR_NOMEM;
    fray_status rc = FRAY_OK;
    if (!(c->flags & SW_F_DEAD)) {
        if (c->flags & SW_F_WOUNDED)
            rc = add(v, &l, "Wounded", "for the rest of the fight", -1);
        if (rc == FRAY_OK && (c->flags & SW_F_UNCONSCIOUS))
            rc = add(v, &l, "Unconscious", "until a flat Endurance roll wakes it (002:39)", -1);
        if (rc == FRAY_OK && (c->flags & SW_F_BLEEDING))
            rc = add(v, &l, "bleeding", "until a flat Endurance roll or Medicine stops it", -1);
        if (rc == FRAY_OK && (c->flags & SW_F_BLOWN))
            rc = add(v, &l, "Blown", "for the rest of the fight", -1);
        else if (rc == FRAY_OK && c->pain <= 0)
            rc = add(v, &l, "Winded", "while out of Pain", -1);
        if (rc == FRAY_OK)
            rc = add_stun_conditions(v, &l, s, st, i);
        if (rc == FRAY_OK && (c->flags & SW_F_SNIPING))
            rc = add(v, &l, "Sniping", "until it is Engaged", -1);
        if (rc == FRAY_OK && c->cover)
            rc = add(v, &l, c->cover == SW_COVER_FULL ? "Full Cover" : "Partial Cover",
                     "until it Engages or, from Full Cover, shoots", -1);
        if (rc == FRAY_OK && c->engages >= 0)
            rc = add(v, &l, fray__view_strf(v, "engages %s", s->c[c->engages].name),
                     "until it disengages or switches", c->engages);
        for (int j = 0; rc == FRAY_OK && j < st->n; j++) /* ruling 40 */
            if (j != c->engages && sw_eng(st, i, j))
                rc = add(v, &l, fray__view_strf(v, "engages %s", s->c[j].name),
                         "until it disengages (a talent's several targets, 002:63)", j);
        if (rc == FRAY_OK && c->pend_kind == SW_PEND_ENGAGE)
            rc = add(v, &l, fray__view_strf(v, "Engaging %s", s->c[c->pend_target].name),
                     fray__view_strf(v, "takes effect at the end of segment %d",
                                     (int)c->pend_at), c->pend_target);
        if (rc == FRAY_OK && c->pend_kind == SW_PEND_SPELL)
            rc = add(v, &l, fray__view_strf(v, "casting %s", s->sp[c->pend_spell].name),
                     fray__view_strf(v, "takes effect at the end of segment %d; a flat "
                                        "Endurance roll when Pain is lost (002:77)",
                                     (int)c->pend_at), c->pend_target);
        for (int k = 0; rc == FRAY_OK && k < c->n_maint; k++)
            rc = add(v, &l,
                     c->maint_target[k] == i
                         ? fray__view_strf(v, "Maintaining %s", s->sp[c->maint_spell[k]].name)
                         : fray__view_strf(v, "Maintaining %s on %s", s->sp[c->maint_spell[k]].name,
                                           s->c[c->maint_target[k]].name),
                     "until released, or a failed flat Endurance roll when Pain is lost (002:73)",
                     c->maint_target[k] == i ? -1 : c->maint_target[k]);
        if (rc == FRAY_OK && c->busy_until >= st->seg)
            rc = add(v, &l, "busy", fray__view_strf(v, "Undefended through segment %d (002:83)",
                                                    (int)c->busy_until), -1);
        if (rc == FRAY_OK && s->c[i].b.talents && sw_talent_defense(s, i)) /* ruling 48 */
            rc = add(v, &l, fray__view_strf(v, "talents: defense +%d", sw_talent_defense(s, i)),
                     s->opt.talent_defense_both
                         ? "to Physical Defense, lost when Undefended, and to Magic Defense (002:27)"
                         : "to Physical Defense, lost when Undefended (002:27)", -1);
        if (rc == FRAY_OK && c->saddle_at >= st->seg) /* ruling 43 */
            rc = add(v, &l, "getting into the saddle",
                     fray__view_strf(v, "in the saddle at the end of segment %d%s",
                                     (int)c->saddle_at,
                                     s->opt.mount_roll ? " on a flat Ride roll" : ""),
                     s->c[i].mount - 1);
        for (int j = 0; rc == FRAY_OK && j < st->n; j++)
            if (j != i && sw_eng(st, j, i) && sw_undefended(s, st, i, j, false))
                rc = add(v, &l, fray__view_strf(v, "Undefended against %s", s->c[j].name),
                         "while it engages another, or cannot act", j);
    }
    if (rc != FRAY_OK)
        return rc;
    o->n_conditions = l.n;
    o->conditions = l.c;
    return FRAY_OK;
}

static fray_status fill_actions(fray_fight_view *v, const sw_setup *s,
                                const sw_state *st, int me,
                                fray_view_combatant *o) {
    fray_view_action *acts = fray__view_alloc(v, SW_EV_KINDS * sizeof *acts);
    if (!acts)
        return FRAY_ERR_NOMEM;
    int na = 0;
    for (int k = SW_EV_ENGAGE; k < SW_EV_KINDS; k++) {
        fray_view_action *x = &acts[na];
        x->word = sw_kind_word(k);
        x->title = sw_kind_title(k);
        sw_event c;
        memset(&c, 0, offsetof(sw_event, dice));
        c.kind = (uint8_t)k;
        c.actor = (int8_t)me;
        c.target = -1;
        bool any = false;
        if (k == SW_EV_SNIPE || k == SW_EV_WAIT || k == SW_EV_SKILL || k == SW_EV_SURMOUNT ||
            k == SW_EV_DISMOUNT || k == SW_EV_MOUNT || k == SW_EV_RIDE) {
            any = sw_check(s, st, &c, NULL, 0) == FRAY_OK;
        } else if (k == SW_EV_COVER) {
            for (int lv = SW_COVER_PARTIAL; lv <= SW_COVER_FULL && !any; lv++) {
                c.arg = (uint8_t)lv;
                any = sw_check(s, st, &c, NULL, 0) == FRAY_OK;
            }
        } else if (k == SW_EV_WIELD) {
            /* The options: each weapon it may take up (002:85). */
            for (int wi = 0; wi < s->n_weapons; wi++) {
                c.arg = (uint8_t)wi;
                if (sw_check(s, st, &c, NULL, 0) != FRAY_OK)
                    continue;
                if (!fray__view_option(v, x, s->n_weapons, NULL, s->w[wi].name, NULL, 0))
                    return FRAY_ERR_NOMEM;
                any = true;
            }
        } else if (k == SW_EV_TALENT) {
            /* The options: each talent it may use now, with its targets
             * (002:39, 69: a talent modifies an attack on a foe). */
            for (int ti = 0; ti < s->n_talents; ti++) {
                int *tg = fray__view_alloc(v, (size_t)(st->n + 1) * sizeof *tg);
                if (!tg)
                    return FRAY_ERR_NOMEM;
                int nt = 0;
                c.arg = (uint8_t)ti;
                for (int t = 0; t < st->n; t++) {
                    c.target = (int8_t)t;
                    if (sw_check(s, st, &c, NULL, 0) == FRAY_OK)
                        tg[nt++] = t;
                }
                if (nt == 0)
                    continue;
                if (!fray__view_option(v, x, s->n_talents, NULL, s->tl[ti].name, tg, nt))
                    return FRAY_ERR_NOMEM;
                any = true;
            }
        } else if (k == SW_EV_CAST || k == SW_EV_RELEASE) {
            /* The options: each spell it may cast (with its targets, but a
             * Personal one: on the mage, 002:71) or release (002:73). */
            for (int si = 0; si < s->n_spells; si++) {
                c.arg = (uint8_t)si;
                c.target = -1;
                bool alone = sw_check(s, st, &c, NULL, 0) == FRAY_OK;
                int *tg = NULL;
                int nt = 0;
                if (!alone && k == SW_EV_CAST) {
                    if (!(tg = fray__view_alloc(v, (size_t)(st->n + 1) * sizeof *tg)))
                        return FRAY_ERR_NOMEM;
                    for (int t = 0; t < st->n; t++) {
                        c.target = (int8_t)t;
                        if (sw_check(s, st, &c, NULL, 0) == FRAY_OK)
                            tg[nt++] = t;
                    }
                }
                if (!alone && nt == 0)
                    continue;
                if (!fray__view_option(v, x, s->n_spells, NULL, s->sp[si].name, tg, nt))
                    return FRAY_ERR_NOMEM;
                any = true;
            }
        } else {
            int *tg = fray__view_alloc(v, (size_t)(st->n + 1) * sizeof *tg);
            if (!tg)
                return FRAY_ERR_NOMEM;
            int nt = 0;
            for (int t = 0; t < st->n; t++) {
                c.target = (int8_t)t;
                if (sw_check(s, st, &c, NULL, 0) == FRAY_OK)
                    tg[nt++] = t;
            }
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

const char *sw_pain_words(int pain, int max, bool blown) {
    return blown ? "blown" : pain <= 0 ? "winded" : pain >= max ? "fresh" : "tiring";
}

fray_status sw_view(const sw_setup *s, const sw_state *st, int turn,
                    fray_fight_view *v) {
    int n = s->n < v->n_combatants ? s->n : v->n_combatants;
    v->turn = turn >= 0 && turn < n ? turn : -1;
    fray_status rc;
    for (int i = 0; i < n; i++) {
        fray_view_combatant *o = fray__view_c(v, i);
        const sw_cstate *c = &st->c[i];
        const sw_block *b = &s->c[i].b;
        o->status = status_word(c);
        o->out = sw_out(c);
        o->n_tracks = 2;
        /* bonus points from Maintained spells: temporary, counted in (002:75) */
        int bh = sw_bonus_left(s, st, i, SW_BONUS_HEALTH), bp = sw_bonus_left(s, st, i, SW_BONUS_PAIN);
        o->tracks[0] = (fray_view_track){"Health", c->health + bh, b->health, bh,
                                         fray__view_descriptor(c->health, b->health),
                                         true};
        o->tracks[1] = (fray_view_track){"Pain", c->pain + bp, b->pain, bp,
                                         sw_pain_words(c->pain, b->pain,
                                                       c->flags & SW_F_BLOWN),
                                         true};
        int place = fray__track_find(&st->track, i);
        o->on_time = place >= 0 && st->started && !o->out;
        o->time = c->ready;
        o->order = place;
        o->acted = c->decl_seg == st->seg;
        o->time_words = c->ready <= st->seg
                            ? fray__view_strf(v, "may declare now (segment %d)", (int)st->seg)
                            : fray__view_strf(v, "declares on segment %d", (int)c->ready);
        if (!o->time_words)
            return FRAY_ERR_NOMEM;
        const char **w = fray__view_alloc(v, 2 * sizeof *w);
        if (!w)
            return FRAY_ERR_NOMEM;
        int nw = 0;
        if (b->weapon >= 0)
            w[nw++] = sw_hand(s, st, i)->name; /* in hand (002:85) */
        if (b->off_hand >= 0)
            w[nw++] = s->w[b->off_hand].name;
        o->n_weapons = nw;
        o->weapons = w;
        if ((rc = fill_conditions(v, s, st, i, o)) != FRAY_OK)
            return rc;
        if (i == v->turn && !st->over && (rc = fill_actions(v, s, st, i, o)) != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

/* Stunned and Paralyzed (002:98-99), each with its end (talents,
 * docs/rules/silent-winter.md 27); the saddle (002:59-67, ruling 28). */
static fray_status add_stun_conditions(fray_fight_view *v, cond_list *l, const sw_setup *s,
                                       const sw_state *st, int i) {
    const sw_cstate *c = &st->c[i];
    int m = sw_mount_of(s, st, i), rd = sw_rider_of(s, st, i);
    fray_status rc = FRAY_OK;
    if (m >= 0)
        rc = add(v, l, fray__view_strf(v, "mounted on %s", s->c[m].name),
                 "until a fall (a failed Ride roll when either is hit) or the GM's "
                 "dismount; +5 to moving around, no cover, 2 more may Engage (002:59-67)", m);
    if (rc == FRAY_OK && rd >= 0)
        rc = add(v, l, fray__view_strf(v, "ridden by %s", s->c[rd].name),
                 "attacks the one its rider engages; one target with its rider (002:61-63)",
                 rd);
    if (rc != FRAY_OK)
        return rc;
    if (sw_paralyzed(st, i))
        return add(v, l, "Paralyzed",
                   fray__view_strf(v, "through segment %d: no combat actions, cannot "
                                      "move, Undefended against everyone (002:99)",
                                   (int)c->para_until), -1);
    if (sw_stunned(st, i))
        return add(v, l, "Stunned",
                   fray__view_strf(v, "through segment %d: no combat actions, Undefended "
                                      "against every melee foe, its Engages kept (002:98)",
                                   (int)c->stun_until), -1);
    return FRAY_OK;
}

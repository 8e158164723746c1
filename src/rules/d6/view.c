/*
 * view.c - a D6 fight as data (include/fray/view.h; docs/architecture.md
 * "A fight as data"): the ruleset's `view` hook. Reads d6_setup and
 * d6_state, changes nothing.
 *
 *   health      one track: the Wound level (health: wounds, 0 unhurt to 6
 *               Dead) or Body Points (health: body-points)
 *   time        its initiative total this round and its place in the
 *               round's order; `acted` once its turn has passed
 *   conditions  Stunned (through which round), staying up while
 *               Incapacitated, its active defense (to its next turn), its
 *               cover
 *   weapons     the weapon in hand, then the off hand
 *   actions     for whoever's turn it is: attack and aim (the targets
 *               d6_check_cmd allows), defend, move (a point: not
 *               checked), wait
 *   map         none: positions are points in meters (draw_map tells them)
 */
#include "d6_int.h"

#include <stdio.h>
#include <string.h>

#include "view_build.h"

static fray_status add(fray_view_condition *list, int *n, int cap, const char *name,
                       const char *until, int source) {
    if (!name || !until)
        return FRAY_ERR_NOMEM;
    if (*n >= cap)
        return FRAY_OK;
    fray_view_condition *d = &list[(*n)++];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->ends = FRAY_VIEW_UNTIL_REMOVED;
    d->whose = -1;
    d->source = source;
    d->until = until;
    return FRAY_OK;
}

static const char *const cover_names[] = {"", "quarter cover", "half cover",
                                          "three-quarters cover", "full cover"};

static fray_status fill_conditions(fray_fight_view *v, const d6_setup *s,
                                   const d6_state *st, int i, fray_view_combatant *o) {
    enum { CAP = 8 };
    fray_view_condition *l = fray__view_alloc(v, CAP * sizeof *l);
    if (!l)
        return FRAY_ERR_NOMEM;
    int n = 0;
    const d6_cstate *c = &st->c[i];
    fray_status rc = FRAY_OK;
    if (!d6_out(c)) {
        if (s->o.health == D6_HEALTH_WOUNDS && c->wound >= D6_W_STUNNED &&
            c->stun_round >= st->round)
            rc = add(l, &n, CAP, "Stunned",
                     fray__view_strf(v, "-1D through round %d", (int)c->stun_round), -1);
        if (rc == FRAY_OK && (c->flags & D6_F_UP))
            rc = add(l, &n, CAP, "Incapacitated, staying up",
                     "-3D for the rest of the fight", -1);
        if (rc == FRAY_OK && c->defense != D6_DEF_NONE) {
            rc = add(l, &n, CAP,
                     fray__view_strf(v, "%s%s %d",
                                     c->defense == D6_DEF_FULL ? "full defense, " : "",
                                     c->def_parry ? "parrying" : "dodging", c->def_total),
                     c->def_parry ? "until its next turn, against melee attacks"
                                  : "until its next turn", -1);
            if (rc == FRAY_OK) {
                l[n - 1].ends = FRAY_VIEW_START_OF_TURN;
                l[n - 1].whose = i;
                l[n - 1].count = 1;
            }
        }
        if (rc == FRAY_OK && (c->flags & D6_F_WAITING))
            rc = add(l, &n, CAP, "waiting",
                     "may interrupt until the end of the round (its action at -1D)", -1);
        if (rc == FRAY_OK && c->aim_dice > 0)
            rc = add(l, &n, CAP,
                     fray__view_strf(v, "aiming at %s +%dD", s->c[c->aim_target].name,
                                     c->aim_dice),
                     "until its next action", c->aim_target);
        int h = d6_holder(st, i); /* grabs.c: holds, bindings, flips */
        if (rc == FRAY_OK && h >= 0)
            rc = add(l, &n, CAP,
                     fray__view_strf(v, "%s by %s",
                                     c->hold_kind == D6_GRAB_TACKLE    ? "tackled"
                                     : c->hold_kind == D6_GRAB_ARM_PIN ? "arm pinned"
                                                                       : "held",
                                     s->c[h].name),
                     "until it escapes or is let go", h);
        if (rc == FRAY_OK && c->tangle > 0)
            rc = add(l, &n, CAP, fray__view_strf(v, "entangled (%d to get free)", c->tangle),
                     "until it breaks or slips free", -1);
        if (rc == FRAY_OK && c->posture && !c->down) /* 003:91-92 */
            rc = add(l, &n, CAP, c->posture == D6_POSTURE_PRONE ? "prone" : "crouching",
                     "until it stands (free)", -1);
        if (rc == FRAY_OK && c->down) /* 003:8, 13, 93: one state, how it ends (D7.7) */
            rc = add(l, &n, CAP, "on the ground",
                     c->down == D6_GROUND_FLIP ? "its next turn is spent getting up (a flip)"
                                               : "until it spends an action standing",
                     -1);
        for (int w = 0; rc == FRAY_OK && w < s->n_weapons; w++)
            if (c->dropped & (1u << w)) /* holds.c (003:61) */
                rc = add(l, &n, CAP, fray__view_strf(v, "disarmed: its %s on the ground",
                                                     s->w[w].name),
                         "for the rest of the fight (another weapon may be readied)", -1);
        for (int part = 1; rc == FRAY_OK && part <= D6_PART_HEAD; part <<= 1)
            if (c->parts & part) /* 003:83-85 */
                rc = add(l, &n, CAP,
                         part == D6_PART_HEAD   ? "hurt head: -1 Intellect, Acumen, initiative"
                         : part == D6_PART_HAND ? "hurt hand or arm: -1 to its hands' rolls"
                                                : "hurt leg: -1 acrobatics, running, initiative",
                         "until healed", -1);
        if (rc == FRAY_OK && c->agility_dice > 0)
            rc = add(l, &n, CAP, fray__view_strf(v, "stumbling -%dD", c->agility_dice),
                     "until its next Agility roll", -1);
        int cv = d6_cover_of(s, st, i); /* things.c: an object's cover ends when it breaks */
        if (rc == FRAY_OK && cv > D6_COVER_NONE && cv <= D6_COVER_FULL)
            rc = add(l, &n, CAP, cover_names[cv],
                     s->c[i].cover_object ? "until the object giving it is destroyed"
                                          : "for the whole fight", -1);
    }
    if (rc != FRAY_OK)
        return rc;
    o->n_conditions = n;
    o->conditions = l;
    return FRAY_OK;
}

static fray_status fill_actions(fray_fight_view *v, const d6_setup *s,
                                const d6_state *st, int me, fray_view_combatant *o) {
    fray_view_action *acts = fray__view_alloc(v, D6_EV_KINDS * sizeof *acts);
    if (!acts)
        return FRAY_ERR_NOMEM;
    int na = 0;
    for (int k = D6_EV_ATTACK; k < D6_EV_KINDS; k++) {
        fray_view_action *x = &acts[na];
        memset(x, 0, sizeof *x);
        x->word = d6_kind_word(k);
        x->title = d6_kind_title(k);
        d6_event c;
        memset(&c, 0, offsetof(d6_event, dice));
        c.kind = (uint8_t)k;
        c.actor = (int8_t)me;
        c.target = c.weapon = -1;
        c.actions = 1;
        c.x = st->c[me].x;
        c.y = st->c[me].y;
        if (k == D6_EV_POSTURE) /* 003:91-93: crouch when standing, else stand */
            c.posture = st->c[me].posture ? D6_POSTURE_STANDING : D6_POSTURE_CROUCHING;
        if (k == D6_EV_ATTACK || k == D6_EV_AIM) {
            int *tg = fray__view_alloc(v, (size_t)(st->n + 1) * sizeof *tg);
            if (!tg)
                return FRAY_ERR_NOMEM;
            int nt = 0;
            for (int t = 0; t < st->n; t++) {
                c.target = (int8_t)t;
                if (d6_check_cmd(s, st, &c, NULL, 0) == FRAY_OK)
                    tg[nt++] = t;
            }
            if (nt == 0)
                continue;
            x->needs_target = true;
            x->targets = tg;
            x->n_targets = nt;
            x->checked = true;
        } else if (k == D6_EV_MOVE || k == D6_EV_RUN) {
            if (k == D6_EV_RUN) /* things.c: a point farther than a walk */
                c.x = (int16_t)(c.x + 2 * d6_move_of(s, me));
            if (d6_check_cmd(s, st, &c, NULL, 0) != FRAY_OK)
                continue;
            x->needs_space = true; /* a point X,Y in meters */
        } else {
            if (d6_check_cmd(s, st, &c, NULL, 0) != FRAY_OK)
                continue;
            x->checked = true;
        }
        na++;
    }
    o->n_actions = na;
    o->actions = acts;
    return FRAY_OK;
}

static const char *status_word(const d6_setup *s, const d6_cstate *c) {
    if (c->submitted) /* holds.c: yielded to an arm pin (003:22-24) */
        return "fled";
    if (s->o.health == D6_HEALTH_WOUNDS) {
        if (c->wound == D6_W_DEAD)
            return "dead";
        if (c->wound == D6_W_MORTAL)
            return "dying";
        if (d6_out(c))
            return "unconscious";
    } else if (d6_out(c)) {
        return d6_dead_at_zero_bp(s, c) ? "dead" : "unconscious"; /* ruling 70 */
    }
    return "standing";
}

fray_status d6_view(const d6_setup *s, const d6_state *st, int turn,
                    fray_fight_view *v) {
    int n = s->n < v->n_combatants ? s->n : v->n_combatants;
    v->turn = turn >= 0 && turn < n ? turn : -1;
    fray_status rc;
    for (int i = 0; i < n; i++) {
        fray_view_combatant *o = fray__view_c(v, i);
        const d6_cstate *c = &st->c[i];
        const d6_block *b = &s->c[i].b;
        o->status = status_word(s, c);
        o->out = d6_out(c);
        o->n_tracks = 1;
        if (s->o.health == D6_HEALTH_WOUNDS)
            o->tracks[0] = (fray_view_track){"Wound level", c->wound, D6_W_DEAD, 0,
                                             d6_wound_name(c->wound), true};
        else
            o->tracks[0] = (fray_view_track){"Body Points", c->bp, b->body_points, 0,
                                             fray__view_descriptor(c->bp, b->body_points),
                                             true};
        int place = -1;
        for (int k = 0; k < st->n_order; k++)
            if (st->order[k] == i)
                place = k;
        o->on_time = place >= 0 && st->started && !o->out;
        o->time = c->init;
        o->order = place;
        o->acted = place >= 0 && place < st->pos;
        o->time_words = s->o.initiative == D6_INIT_FIRST_ACTION
                            ? fray__view_strf(v, "%d in the order", place + 1)
                            : fray__view_strf(v, "initiative %d", c->init);
        if (!o->time_words)
            return FRAY_ERR_NOMEM;
        const char **w = fray__view_alloc(v, 2 * sizeof *w);
        if (!w)
            return FRAY_ERR_NOMEM;
        int nw = 0;
        if (b->weapon >= 0 && b->weapon < s->n_weapons)
            w[nw++] = s->w[b->weapon].name;
        if (b->off_hand >= 0 && b->off_hand < s->n_weapons)
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

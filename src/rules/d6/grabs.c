/*
 * grabs.c - the D6 grabs (seed 003): the grab (+2D to the combat
 * difficulty, fighting only: 003:11, 30) as a hold (-3D to the damage
 * total: 003:14) or a choke (Strength Damage plus modifiers: 003:12), the
 * tackle (+1D, fighting only, normal damage; the tackled one may only try
 * to escape: 003:10, 35), the hold between two combatants (who holds
 * whom, which kind), the holder's later rounds (Strength Damage only, no
 * modifiers: 003:10-11) and the escape (opposed Physique or lifting, an
 * action, ties to the holder: 003:65, checklist D7.14). docs/rules/d6.md
 * "Grabs" says what each ruling is.
 */
#include "d6_int.h"

#include <stdio.h>
#include <string.h>

static const char *const grab_words[D6_GRABS] = {"blow", "hold", "choke", "tackle",
                                                          "flip", "arm-pin"};

const char *d6_grab_word(int g) {
    return g >= 0 && g < D6_GRABS ? grab_words[g] : "?";
}

int d6_grab_of(const char *w, size_t n) {
    for (int g = D6_GRAB_HOLD; g < D6_GRABS; g++)
        if (strlen(grab_words[g]) == n && strncmp(grab_words[g], w, n) == 0)
            return g;
    return -1;
}

int d6_holder(const d6_state *st, int i) {
    const d6_cstate *c = &st->c[i];
    if (c->held_by <= 0 || d6_out(c))
        return -1;
    int h = c->held_by - 1;
    return h < st->n && !d6_out(&st->c[h]) ? h : -1;
}

int d6_holding(const d6_state *st, int i) {
    for (int t = 0; t < st->n; t++)
        if (t != i && d6_holder(st, t) == i)
            return t;
    return -1;
}

int d6_grab_dice(int g) {
    return g == D6_GRAB_TACKLE ? 1 : g > D6_GRAB_NONE && g < D6_GRABS ? 2 : 0;
}

static fray_status refuse(char *why, size_t size, const char *fmt, const char *a,
                          const char *b) {
    if (why && size)
        snprintf(why, size, fmt, a, b);
    return FRAY_ERR_INVALID;
}

fray_status d6_grab_check(const d6_setup *s, const d6_state *st,
                          const d6_event *cmd, char *why, size_t size) {
    if (cmd->kind == D6_EV_ROUND || cmd->actor < 0 || cmd->actor >= s->n)
        return FRAY_OK;
    int a = cmd->actor;
    const char *an = s->c[a].name;
    int h = d6_holder(st, a);
    if (h >= 0 && st->c[a].hold_kind == D6_GRAB_TACKLE && cmd->kind != D6_EV_ESCAPE)
        return refuse(why, size, "%s is tackled by %s: it may only try to escape", an,
                      s->c[h].name);
    if (h >= 0 && cmd->kind == D6_EV_MOVE)
        return refuse(why, size, "%s is held by %s: it must escape before it moves", an,
                      s->c[h].name);
    /* on the ground (D7.7): after a flip, the whole turn is getting up
     * (`get-up`, or `stand`); `get-up` stands one knocked down too */
    bool standing_up = cmd->kind == D6_EV_GET_UP ||
                       (cmd->kind == D6_EV_POSTURE && cmd->posture == D6_POSTURE_STANDING);
    if (st->c[a].down == D6_GROUND_FLIP && !standing_up)
        return refuse(why, size, "%s was flipped: it spends this turn getting up "
                                 "(get-up)%s", an, "");
    if (!st->c[a].down && cmd->kind == D6_EV_GET_UP)
        return refuse(why, size, "%s is not on the ground%s", an, "");
    bool freeing = cmd->kind == D6_EV_BREAK_FREE || cmd->kind == D6_EV_SLIP_FREE;
    if (st->c[a].tangle > 0 && !freeing)
        return refuse(why, size, "%s is entangled: it may only break free or slip free%s",
                      an, "");
    if (freeing && st->c[a].tangle <= 0)
        return refuse(why, size, "%s is not entangled%s", an, "");
    if (cmd->kind == D6_EV_ESCAPE && h < 0)
        return refuse(why, size, "%s is not held by anyone%s", an, "");
    if (cmd->kind == D6_EV_SQUEEZE && d6_holding(st, a) < 0)
        return refuse(why, size, "%s holds nobody%s", an, "");
    if (cmd->kind == D6_EV_ATTACK && cmd->grab != D6_GRAB_NONE) {
        const char *word = cmd->grab == D6_GRAB_TACKLE ? "tackle" : "grab";
        if (cmd->grab >= D6_GRABS)
            return refuse(why, size, "%s: not a grab%s", an, "");
        if (cmd->weapon >= 0)
            return refuse(why, size, "a %s is made with fighting only: %s uses no weapon",
                          word, an);
        int t = cmd->target;
        if (t >= 0 && t < s->n && t != a &&
            d6_band(s, -1, d6_distance(st, a, t)) != D6_BAND_POINT_BLANK)
            return refuse(why, size, "%s is out of reach of %s's hands", s->c[t].name, an);
    }
    return FRAY_OK;
}

/* Strength Damage (the core: from Physique, or lifting when it is listed). */
static d6_code strength(const d6_setup *s, int a) {
    return d6_strength_damage(d6_skill_code(s, a, D6_SK_LIFTING));
}

static long value(d6_code c) { return (long)c.dice * 3 + c.pips; }

/* The better of Physique and lifting (003:65). */
d6_code d6_physique_or_lifting(const d6_setup *s, int i) {
    d6_code p = s->c[i].b.attr[D6_PHYSIQUE], l = d6_skill_code(s, i, D6_SK_LIFTING);
    return value(l) > value(p) ? l : p;
}

static d6_code agility_or_acrobatics(const d6_setup *s, int i) {
    d6_code p = s->c[i].b.attr[D6_AGILITY], l = d6_skill_code(s, i, D6_SK_ACROBATICS);
    return value(l) > value(p) ? l : p;
}

bool d6_entangle_hit(d6_run *r, int a, int t, int dmg) {
    const d6_setup *s = r->s;
    int w = r->ev->weapon >= 0 ? r->ev->weapon : d6_weapon_of(s, a);
    bool spiked = w >= 0 && s->w[w].spiked;
    int16_t need = (int16_t)(dmg > 1 ? dmg : 1);
    if (r->st->c[t].tangle < need)
        r->st->c[t].tangle = need; /* two bindings: the stronger one counts */
    d6_run_fact(r, D6_FACT_ENTANGLE, a, t, dmg, spiked, 0, 0);
    return spiked ? d6_run_harm(r, a, t, dmg) : true; /* no damage unless spiked */
}

bool d6_grab_hit(d6_run *r, int a, int t, int at, int diff) {
    const d6_setup *s = r->s;
    int g = r->ev->grab;
    int dmg = 0;
    if (g == D6_GRAB_FLIP) {
        /* 003:13: 3D from the ground (the ground's roll: no Wild Die), no
         * hold after; the next turn is spent getting up (D7.7) */
        d6_code ground = {3, 0};
        if (!d6_run_roll(r, ground, false, a, D6_ROLL_DAMAGE, &dmg))
            return false;
        r->st->c[t].down = D6_GROUND_FLIP; /* one state on the ground (D7.7) */
        r->st->c[t].posture = D6_POSTURE_PRONE;
        d6_run_fact(r, D6_FACT_GRAB, a, t, g, 0, 0, 0);
        return d6_run_harm(r, a, t, dmg);
    }
    if (g != D6_GRAB_ARM_PIN && /* holds.c: the pin itself does no damage */
        !d6_run_roll(r, strength(s, a), true, a, D6_ROLL_DAMAGE, &dmg))
        return false;
    if (g == D6_GRAB_HOLD) {
        int less = 0; /* 003:14: -3D or more, the player's choice */
        int n = r->ev->hold_dice > 3 ? r->ev->hold_dice : 3;
        if (!d6_run_modifier(r, a, n, &less))
            return false;
        dmg -= less;
    } else if (s->o.damage_bonus && g != D6_GRAB_ARM_PIN) {
        dmg += (at - diff + 4) / 5; /* choke, tackle: "plus any modifiers" */
    }
    d6_cstate *c = &r->st->c[t];
    c->held_by = (int8_t)(a + 1);
    c->hold_kind = (uint8_t)g;
    c->hold_round = r->st->round;
    d6_run_fact(r, D6_FACT_GRAB, a, t, g, 0, 0, 0);
    if (dmg > 0)
        return d6_run_harm(r, a, t, dmg);
    return true;
}

static void let_go(d6_run *r, int h, int t) {
    r->st->c[t].held_by = 0;
    r->st->c[t].hold_kind = 0;
    d6_run_fact(r, D6_FACT_RELEASE, h, t, 0, 0, 0, 0);
}

bool d6_grab_apply(d6_run *r) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    int a = r->ev->actor;
    if (r->ev->kind == D6_EV_SQUEEZE) {
        int t = d6_holding(st, a);
        int dmg = 0; /* 003:10-11: Strength Damage only, no modifiers */
        if (t < 0 || !d6_run_roll(r, strength(s, a), true, a, D6_ROLL_DAMAGE, &dmg))
            return false;
        r->ev->target = (int8_t)t;
        return d6_run_harm(r, a, t, dmg);
    }
    if (r->ev->kind == D6_EV_GET_UP) { /* D7.7: as its state on the ground says */
        bool flip = st->c[a].down == D6_GROUND_FLIP;
        st->c[a].down = D6_GROUND_NO;
        st->c[a].posture = D6_POSTURE_STANDING;
        d6_run_fact(r, flip ? D6_FACT_GET_UP : D6_FACT_STAND, a, -1, 0, 0, 0, 0);
        return true;
    }
    if (r->ev->kind == D6_EV_BREAK_FREE || r->ev->kind == D6_EV_SLIP_FREE) {
        bool slip = r->ev->kind == D6_EV_SLIP_FREE;
        int tot = 0, need = st->c[a].tangle;
        if (need <= 0 || !d6_run_roll(r, slip ? agility_or_acrobatics(s, a)
                                              : d6_physique_or_lifting(s, a),
                                      true, a, D6_ROLL_ATTACK, &tot))
            return false;
        bool out = tot >= need; /* 003:63: meets or beats */
        d6_run_fact(r, D6_FACT_TANGLE_FREE, a, -1, tot, need, out, slip);
        if (out)
            st->c[a].tangle = 0;
        return true;
    }
    int h = d6_holder(st, a);
    if (h < 0)
        return false;
    int mine = 0, theirs = 0;
    if (!d6_run_roll(r, d6_physique_or_lifting(s, a), true, a, D6_ROLL_ATTACK, &mine) ||
        !d6_run_roll(r, d6_physique_or_lifting(s, h), true, h, D6_ROLL_DEFENSE, &theirs))
        return false;
    /* D7.14, escape-tie: a tie goes to the holder (default) or the escapee */
    bool free_now = mine > theirs || (mine == theirs && s->o.escape_tie_escapee);
    d6_run_fact(r, D6_FACT_ESCAPE, a, h, mine, theirs, free_now, 0);
    if (free_now) {
        st->c[a].held_by = 0;
        st->c[a].hold_kind = 0;
    }
    return true;
}

void d6_grab_release_mover(d6_run *r, int a) {
    int t = d6_holding(r->st, a);
    if (t >= 0)
        let_go(r, a, t);
}

bool d6_grab_choose(const d6_setup *s, const d6_state *st, int a, d6_event *cmd) {
    if (st->c[a].down == D6_GROUND_FLIP) {
        cmd->kind = D6_EV_GET_UP;
        return true;
    }
    if (st->c[a].tangle > 0 && !d6_out(&st->c[a])) {
        cmd->kind = value(agility_or_acrobatics(s, a)) > value(d6_physique_or_lifting(s, a))
                        ? D6_EV_SLIP_FREE
                        : D6_EV_BREAK_FREE;
        return true;
    }
    int h = d6_holder(st, a);
    if (h >= 0 && st->c[a].hold_kind == D6_GRAB_TACKLE) {
        cmd->kind = D6_EV_ESCAPE;
        return true;
    }
    if (h >= 0 && value(d6_physique_or_lifting(s, a)) >= value(d6_physique_or_lifting(s, h))) {
        cmd->kind = D6_EV_ESCAPE; /* held by one no stronger: it escapes */
        return true;
    }
    if (d6_holds_choose(s, st, a, cmd)) /* holds.c: tactics: wrestle */
        return true;
    if (d6_holding(st, a) >= 0 && (st->c[a].flags & D6_F_MOVED) == 0) {
        cmd->kind = D6_EV_SQUEEZE;
        return true;
    }
    if (s->c[a].tactics != D6_TAC_GRAPPLE || d6_holding(st, a) >= 0)
        return false;
    /* tactics: grapple: choke the weakest foe in reach of its hands that
     * is free and no stronger (Physique or lifting) than itself */
    int best = -1;
    for (int t = 0; t < s->n; t++) {
        if (t == a || s->c[t].side == s->c[a].side || d6_out(&st->c[t]) ||
            d6_holder(st, t) >= 0 || s->c[t].cover == D6_COVER_FULL ||
            d6_band(s, -1, d6_distance(st, a, t)) != D6_BAND_POINT_BLANK ||
            value(d6_physique_or_lifting(s, t)) > value(d6_physique_or_lifting(s, a)))
            continue;
        if (best < 0 || value(d6_physique_or_lifting(s, t)) < value(d6_physique_or_lifting(s, best)))
            best = t;
    }
    if (best < 0)
        return false;
    cmd->kind = D6_EV_ATTACK;
    cmd->target = (int8_t)best;
    cmd->actions = 1;
    cmd->grab = D6_GRAB_CHOKE;
    return true;
}

d6_code d6_agility_or_acrobatics(const d6_setup *s, int i) { return agility_or_acrobatics(s, i); }

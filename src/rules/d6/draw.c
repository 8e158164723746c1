/*
 * draw.c - quick draw (seed 003:95-99; rulesets-checklists D6.1, D7.21;
 * docs/rules/d6.md "Scale and quick draw"): announced before initiative
 * is rolled, some of the skill's dice moved to Acumen for that round's
 * initiative, at least 1D left, 1D off the skill for each attack beyond
 * the first before the move, every attack of the round at the code left
 * with no further multi-action penalty, with a weapon suitable for quick
 * drawing (or none). The pips stay where they are (D7.21).
 */
#include "d6_int.h"

#include <stdio.h>

fray_status d6_quick_draw(d6_code acumen, d6_code skill, int attacks, int moved,
                          d6_quick *out, char *why, size_t size) {
    if (why && size)
        why[0] = '\0';
    if (attacks < 1 || attacks > D6_MAX_ACTIONS) {
        if (why && size)
            snprintf(why, size, "a quick draw makes 1 to %d attacks", D6_MAX_ACTIONS);
        return FRAY_ERR_INVALID;
    }
    int base = skill.dice - (attacks - 1); /* 1D off per extra attack (003:97) */
    int max = base - 1;                    /* at least 1D stays (003:97) */
    if (max < 1 || moved < 1 || moved > max) {
        if (why && size) {
            if (max < 1)
                snprintf(why, size, "%dD in the skill with %d attacks leaves no die to "
                                    "move (at least 1D stays in the skill)",
                         skill.dice, attacks);
            else
                snprintf(why, size, "with %d attack%s at most %dD may move to Acumen (the "
                                    "skill is %dD after %dD off for the extra attacks; "
                                    "1D stays)",
                         attacks, attacks == 1 ? "" : "s", max, base, attacks - 1);
        }
        return FRAY_ERR_INVALID;
    }
    out->max_move = max;
    out->acumen = acumen;
    out->acumen.dice += moved;
    out->skill = skill;
    out->skill.dice = base - moved;
    return FRAY_OK;
}

/* ---- At the table: the command `ID quick-draw N [attacks K] [with W]`
 * (a D6_EV_QUICK_DRAW event: weapon W or -1 the one in hand, actions K,
 * x the dice N moved). ---------------------------------------------------- */

static fray_status no(char *why, size_t size, const char *fmt, const char *a, int n) {
    if (why && size)
        snprintf(why, size, fmt, a, n);
    return FRAY_ERR_INVALID;
}

static int quick_weapon(const d6_setup *s, int a, int w) {
    return w >= 0 ? w : d6_weapon_of(s, a);
}

static int quick_skill(const d6_setup *s, int w) {
    return w >= 0 ? s->w[w].skill : D6_SK_FIGHTING;
}

bool d6_quick_now(const d6_state *st, int i) {
    return st->c[i].qd_attacks > 0 && st->c[i].qd_round == st->round;
}

fray_status d6_quick_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                           char *why, size_t size) {
    int a = cmd->actor;
    const char *an = s->c[a].name;
    if (d6_out(&st->c[a]))
        return no(why, size, "%s is out of the fight%.0d", an, 0);
    if (s->o.initiative != D6_INIT_ROUND)
        return no(why, size, "%s cannot draw quickly: initiative is not rolled each round "
                             "(initiative: round)%.0d", an, 0);
    if (d6_actor(st) >= 0)
        return no(why, size, "%s announces a quick draw before initiative is rolled: once "
                             "everyone has had a turn, before next%.0d", an, 0);
    if (st->c[a].qd_attacks > 0 && st->c[a].qd_round == st->round + 1)
        return no(why, size, "%s has announced a quick draw for the next round already%.0d",
                  an, 0);
    int w = quick_weapon(s, a, cmd->weapon);
    if (cmd->weapon >= 0 && cmd->weapon != s->c[a].b.weapon &&
        cmd->weapon != s->c[a].b.off_hand && !(s->c[a].b.carried & (1u << cmd->weapon)))
        return no(why, size, "%s neither holds nor carries that weapon%.0d", an, 0);
    if (w >= 0 && !s->w[w].quick_draw)
        return no(why, size, "the %s is not suitable for quick drawing (003:95)%.0d",
                  s->w[w].name, 0);
    d6_quick q;
    return d6_quick_draw(s->c[a].b.attr[D6_ACUMEN], d6_skill_code(s, a, quick_skill(s, w)),
                         cmd->actions, cmd->x, &q, why, size);
}

void d6_quick_apply(const d6_setup *s, d6_state *st, const d6_event *ev, d6_fact *f) {
    int a = ev->actor, w = quick_weapon(s, a, ev->weapon);
    d6_quick q;
    d6_cstate *c = &st->c[a];
    if (d6_quick_draw(s->c[a].b.attr[D6_ACUMEN], d6_skill_code(s, a, quick_skill(s, w)),
                      ev->actions, ev->x, &q, NULL, 0) != FRAY_OK)
        return; /* checked before (d6_quick_check) */
    c->qd_round = st->round + 1;
    c->qd_attacks = ev->actions;
    c->qd_moved = (uint8_t)ev->x;
    c->qd_weapon = (int8_t)w;
    if (f) {
        f->kind = D6_FACT_QUICK_DRAW;
        f->who = (int8_t)a;
        f->other = -1;
        f->a = (int16_t)ev->x;
        f->b = (int16_t)ev->actions;
        f->c = (int16_t)q.acumen.dice;
        f->d = (int8_t)q.skill.dice;
    }
}

d6_code d6_quick_initiative(const d6_setup *s, const d6_state *st, int i) {
    d6_code c = s->c[i].b.attr[D6_ACUMEN];
    if (d6_quick_now(st, i))
        c.dice += st->c[i].qd_moved;
    return c;
}

int d6_quick_weapon(const d6_setup *s, const d6_state *st, int a, int w) {
    if (w < 0 && d6_quick_now(st, a))
        return st->c[a].qd_weapon;
    if (w < 0)
        return d6_weapon_now(s, st, a); /* readied (003:101); none once knocked away */
    return w;
}

int d6_quick_penalty(const d6_state *st, int a, int actions) {
    if (d6_quick_now(st, a))
        return st->c[a].qd_attacks - 1 + st->c[a].qd_moved;
    return actions - 1;
}

fray_status d6_quick_attack_check(const d6_setup *s, const d6_state *st,
                                  const d6_event *cmd, char *why, size_t size) {
    int a = cmd->actor;
    if (!d6_quick_now(st, a))
        return FRAY_OK;
    const char *an = s->c[a].name;
    const d6_cstate *c = &st->c[a];
    if (cmd->actions != c->qd_attacks || cmd->full)
        return no(why, size, "%s announced a quick draw of %d attack(s): attack T actions "
                             "%d, every action an attack (003:97)", an, c->qd_attacks);
    int w = d6_quick_weapon(s, st, a, cmd->weapon);
    if (quick_skill(s, w) != quick_skill(s, c->qd_weapon))
        return no(why, size, "%s attacks with the skill it drew quickly with this round "
                             "(003:97)%.0d", an, 0);
    return FRAY_OK;
}

/* ---- Moving a turn up (core; 003:21, 24, 61) ---------------------------- */

/* i's place in the round's order after the one acting now (-1: it has
 * acted, is acting, waited, or is out). */
static int later_place(const d6_state *st, int i) {
    if (i < 0 || i >= st->n || d6_out(&st->c[i]) || (st->c[i].flags & D6_F_WAITING))
        return -1;
    for (int k = st->pos + 1; k < st->n_order; k++)
        if (st->order[k] == i)
            return k;
    return -1;
}

bool d6_turn_can_move_up(const d6_state *st, int i) {
    return st->started && !st->over && later_place(st, i) >= 0;
}

bool d6_turn_move_up(d6_state *st, int i) {
    int k = later_place(st, i);
    if (!st->started || st->over || k < 0)
        return false;
    for (; k + 1 < st->n_order; k++) /* its turn is spent now: out of the order */
        st->order[k] = st->order[k + 1];
    st->n_order--;
    return true;
}

/* ---- Surprise (003:129) --------------------------------------------------- */

void d6_surprise_order(const d6_setup *s, d6_state *st) {
    if (st->round != 1)
        return;
    int8_t o[D6_MAX_C];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) /* the surprisers first, each kept in order */
        for (int k = 0; k < st->n_order; k++) {
            bool first = s->c[st->order[k]].surprise == D6_SURPRISE_FIRST;
            if (first == (pass == 0))
                o[n++] = st->order[k];
        }
    for (int k = 0; k < n; k++)
        st->order[k] = o[k];
}

int d6_surprise_bonus(const d6_setup *s, const d6_state *st, int a, bool interrupt) {
    return st->round == 1 && !interrupt && s->c[a].surprise == D6_SURPRISE_BONUS ? 1 : 0;
}

/* ---- Multiple weapons (003:89) ------------------------------------------ */

static bool either_one_hand(const d6_setup *s, int w) {
    return w >= 0 && w < s->n_weapons && s->w[w].hands != 2 && s->w[w].either_hand;
}

fray_status d6_both_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                          char *why, size_t size) {
    int a = cmd->actor;
    const d6_block *b = &s->c[a].b;
    const char *an = s->c[a].name;
    if (!either_one_hand(s, b->weapon) || !either_one_hand(s, b->off_hand))
        return no(why, size, "%s needs a one-handed weapon usable in either hand in each "
                             "hand to attack with both (003:89)%.0d", an, 0);
    if (cmd->actions < 2)
        return no(why, size, "%s attacks with both weapons: at least %d actions, one for "
                             "each (003:89)", an, 2);
    if (d6_quick_now(st, a))
        return no(why, size, "%s draws quickly this round: every attack with one skill and "
                             "weapon%.0d", an, 0);
    int t = cmd->target, m = d6_distance(st, a, t);
    if (d6_band(s, b->weapon, m) == D6_BAND_BEYOND || d6_band(s, b->off_hand, m) == D6_BAND_BEYOND)
        return no(why, size, "%s is out of reach of one of the two weapons%.0d", s->c[t].name, 0);
    return FRAY_OK;
}

int d6_hand_weapon(const d6_setup *s, int a, int given, int w, int k) {
    if (given != D6_BOTH_HANDS)
        return w;
    return k % 2 == 0 ? s->c[a].b.weapon : s->c[a].b.off_hand;
}

/* ---- Readying a weapon (003:101) ---------------------------------------- */

static int in_hand(const d6_setup *s, const d6_state *st, int a) {
    return d6_weapon_now(s, st, a); /* holds.c: none once knocked away (003:61) */
}

int d6_ready_cost(const d6_setup *s, const d6_state *st, int a, int w) {
    if (w < 0 || w >= s->n_weapons || w == in_hand(s, st, a) || w == s->c[a].b.off_hand ||
        !(s->c[a].b.carried & (1u << w)) || d6_quick_now(st, a))
        return 0; /* in hand, or drawn quickly (003:96: no penalty for the draw) */
    return s->w[w].ready_actions > 0 ? s->w[w].ready_actions : 1;
}

fray_status d6_ready_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                           char *why, size_t size) {
    int a = cmd->actor, w = cmd->weapon;
    if (w < 0 || w >= s->n_weapons)
        return no(why, size, "%s readies which weapon?%.0d", s->c[a].name, 0);
    if (w == in_hand(s, st, a) || w == s->c[a].b.off_hand)
        return no(why, size, "%s has it in hand already%.0d", s->c[a].name, 0);
    if (!(s->c[a].b.carried & (1u << w)))
        return no(why, size, "%s does not carry it%.0d", s->c[a].name, 0);
    return FRAY_OK;
}

void d6_ready_now(const d6_setup *s, d6_state *st, int a, int w, d6_fact *f) {
    int cost = d6_ready_cost(s, st, a, w);
    if (cost == 0 && !(w >= 0 && d6_quick_now(st, a)))
        return;
    st->c[a].ready_w = (int8_t)(w + 1);
    if (f) {
        f->kind = D6_FACT_READY;
        f->who = (int8_t)a;
        f->other = -1;
        f->a = (int16_t)w;
        f->b = (int16_t)cost;
        f->c = 0;
        f->d = 0;
    }
}

/*
 * holds.c - the D6 grabs that follow a hold (seed 003): the arm pin
 * (003:17-24: after its first round, each of three options an action of
 * the holder: Strength Damage, breaking the arm, forcing a submission;
 * the one pinned may resist by moving its turn up), the slam or throw
 * (003:15-16: lifting the one held, an action; slamming it, an action;
 * the object's Toughness and the Strength Damage as damage), and the
 * disarm (003:61: a called shot on the item; the holder who has not acted
 * moves its action up and keeps the item only with a Physique or lifting
 * total greater than the damage). docs/rules/d6.md "Arm pin, slam and
 * disarm" gives each ruling (42 to 49).
 */
#include "d6_int.h"

#include <stdio.h>
#include <string.h>

static const char *const pin_words[D6_PIN_OPS] = {"?", "damage", "break", "submit"};
static const char *const object_words[D6_OBJECTS] = {
    "ground", "wall", "flimsy", "tough", "sturdy", "very-sturdy", "reinforced"};
/* 003:55-59; the ground does the flip's 3D (003:13), a wall is a brick
 * wall, Sturdy (003:57). */
static const int8_t object_dice[D6_OBJECTS] = {3, 3, 1, 2, 3, 4, 6};

const char *d6_pin_word(int op) { return op > 0 && op < D6_PIN_OPS ? pin_words[op] : "?"; }

int d6_pin_of(const char *w, size_t n) {
    for (int k = 1; k < D6_PIN_OPS; k++)
        if (strlen(pin_words[k]) == n && strncmp(pin_words[k], w, n) == 0)
            return k;
    return -1;
}

const char *d6_slam_word(int o) {
    return o >= 0 && o < D6_OBJECTS ? object_words[o] : "?";
}

int d6_slam_of(const char *w, size_t n) {
    for (int k = 0; k < D6_OBJECTS; k++)
        if (strlen(object_words[k]) == n && strncmp(object_words[k], w, n) == 0)
            return k;
    return -1;
}

d6_code d6_slam_toughness(int o) {
    d6_code c = {o >= 0 && o < D6_OBJECTS ? object_dice[o] : 0, 0};
    return c;
}

static long value(d6_code c) { return (long)c.dice * 3 + c.pips; }

static d6_code less(d6_code c, int dice) {
    d6_code p = {-dice, 0};
    return d6_code_add(c, p);
}

int d6_weapon_now(const d6_setup *s, const d6_state *st, int i) {
    int w = st->c[i].ready_w > 0 ? st->c[i].ready_w - 1 : d6_weapon_of(s, i);
    return w >= 0 && (st->c[i].dropped & (1u << w)) ? -1 : w;
}

int d6_parry_skill_now(const d6_setup *s, const d6_state *st, int i) {
    int w = d6_weapon_now(s, st, i);
    if (st->c[i].dropped == 0)
        return d6_parry_skill(s, i); /* nothing knocked away: as it was */
    return w >= 0 && s->w[w].range[2] <= 0 ? s->w[w].skill : D6_SK_FIGHTING;
}

int d6_disarm_size(const d6_setup *s, const d6_state *st, int t) {
    int w = d6_weapon_now(s, st, t);
    if (w < 0)
        return 0;
    int cm = s->w[w].length_cm; /* ruling 46: 1 to 10 cm small, else large */
    return cm > 0 && cm <= 10 ? 2 : 1;
}

static fray_status no(char *why, size_t size, const char *fmt, const char *a, const char *b) {
    if (why && size)
        snprintf(why, size, fmt, a, b);
    return FRAY_ERR_INVALID;
}

/* The one a pins (-1: none in the fight). */
static int pinned(const d6_state *st, int a) {
    int t = d6_holding(st, a);
    return t >= 0 && st->c[t].hold_kind == D6_GRAB_ARM_PIN ? t : -1;
}

fray_status d6_holds_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                           char *why, size_t size) {
    if (cmd->kind == D6_EV_ROUND || cmd->actor < 0 || cmd->actor >= s->n)
        return FRAY_OK;
    int a = cmd->actor;
    const char *an = s->c[a].name;
    const d6_cstate *ca = &st->c[a];
    if (cmd->kind == D6_EV_READY && cmd->weapon >= 0 && (ca->dropped & (1u << cmd->weapon)))
        return no(why, size, "the %s lies on the ground, knocked from %s's hand (003:61)",
                  s->w[cmd->weapon].name, an);
    if (cmd->kind == D6_EV_ATTACK) {
        int main = ca->ready_w > 0 ? ca->ready_w - 1 : s->c[a].b.weapon;
        if (cmd->weapon >= 0 && (ca->dropped & (1u << cmd->weapon)))
            return no(why, size, "the %s lies on the ground, knocked from %s's hand (003:61)",
                      s->w[cmd->weapon].name, an);
        if (cmd->weapon == D6_BOTH_HANDS && main >= 0 && (ca->dropped & (1u << main)))
            return no(why, size, "%s has only one weapon in hand: its %s was knocked away",
                      an, s->w[main].name);
    }
    if (cmd->kind == D6_EV_ATTACK && cmd->disarm) {
        int t = cmd->target;
        if (t < 0 || t >= s->n || t == a)
            return FRAY_OK; /* rules.c says whom */
        if (d6_weapon_now(s, st, t) < 0)
            return no(why, size, "%s holds no weapon to knock away%s", s->c[t].name, "");
        if (cmd->grab)
            return no(why, size, "a disarm is a blow at the item, not a grab%s%s", "", "");
        if (cmd->option || cmd->location)
            return no(why, size, "a disarm is a called shot at the item (003:49, 61): no "
                                 "other attack option or hit location with it%s%s", "", "");
        if (!cmd->called)
            return no(why, size, "a disarm is a called shot (003:49): say `called large`, "
                                 "`called small` or `called tiny`%s%s", "", "");
        if (cmd->weapon == D6_BOTH_HANDS || cmd->actions - cmd->full - d6_stand_actions(st, a) != 1)
            return no(why, size, "%s makes one disarm attack at a time%s", an, "");
        int w = d6_quick_weapon(s, st, a, cmd->weapon);
        if (w >= 0 && s->w[w].entangling)
            return no(why, size, "the %s entangles: a disarm is a blow at the item%s",
                      s->w[w].name, "");
    }
    int t = pinned(st, a);
    if (cmd->kind == D6_EV_SQUEEZE && t >= 0 && st->c[t].hold_round == st->round)
        return no(why, size, "%s pinned %s's arm this round: its options come after the "
                             "first round (003:17)", an, s->c[t].name);
    if (cmd->kind == D6_EV_PIN) {
        if (t < 0)
            return no(why, size, "%s pins nobody's arm (`attack T grab arm-pin` first)%s", an,
                      "");
        if (cmd->pin_op < D6_PIN_DAMAGE || cmd->pin_op >= D6_PIN_OPS)
            return no(why, size, "an arm pin's option is damage, break or submit%s%s", "", "");
        if (st->c[t].hold_round == st->round)
            return no(why, size, "%s pinned %s's arm this round: its options come after the "
                                 "first round (003:17)", an, s->c[t].name);
        if (cmd->resisted && cmd->pin_op == D6_PIN_DAMAGE)
            return no(why, size, "only a break or a submission is resisted (003:21, 24)%s%s",
                      "", "");
        if (cmd->resisted && !d6_turn_can_move_up(st, t))
            return no(why, size, "%s has had its turn this round (or waited): it cannot move "
                                 "its turn up to resist (003:21, 24)%s", s->c[t].name, "");
    }
    if (cmd->kind == D6_EV_SLAM) {
        t = d6_holding(st, a);
        if (t < 0)
            return no(why, size, "%s holds nobody to lift (a grab first: 003:15)%s", an, "");
        if (cmd->slam_into >= D6_OBJECTS)
            return no(why, size, "%s slams into what?%s", an, "");
        if (value(s->c[a].b.attr[D6_PHYSIQUE]) < value(s->c[t].b.attr[D6_PHYSIQUE]))
            return no(why, size, "%s is not strong enough to pick %s up (a Physique at least "
                                 "the other's: 003:15, D7.18)", an, s->c[t].name);
        if (d6_stand_actions(st, a))
            return no(why, size, "%s is on the ground: it stands before it lifts anyone%s", an,
                      "");
    }
    return FRAY_OK;
}

/* Option 1 (003:18): the holder's Strength Damage, no modifiers. */
static bool strength_harm(d6_run *r, int a, int t) {
    int dmg = 0;
    d6_code sd = d6_strength_damage(d6_skill_code(r->s, a, D6_SK_LIFTING));
    if (!d6_run_roll(r, sd, true, a, D6_ROLL_DAMAGE, &dmg))
        return false;
    return d6_run_harm(r, a, t, dmg);
}

/* "any relevant protection" (003:20): the armour's code at its standard
 * value, 3 a die (ruling 43). */
static int protection(const d6_setup *s, int t) {
    int ar = s->c[t].b.armour;
    return ar >= 0 && ar < s->n_armour ? (int)value(s->ar[ar].code) : 0;
}

static bool pin_apply(d6_run *r, int pen) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    d6_event *ev = r->ev;
    int a = ev->actor, t = pinned(st, a);
    if (t < 0)
        return false;
    ev->target = (int8_t)t;
    int op = ev->pin_op;
    if (op == D6_PIN_DAMAGE) {
        d6_run_fact(r, D6_FACT_PIN, a, t, op, 0, 0, D6_PIN_DONE);
        return strength_harm(r, a, t);
    }
    bool resisted = ev->resisted != 0;
    if (resisted && !d6_turn_move_up(st, t)) /* 003:21, 24: its turn spent now */
        return false;
    int tpen = d6_wound_penalty(s, st, t);
    int at = 0, diff = 0;
    if (op == D6_PIN_BREAK) { /* 003:19-21 */
        if (!d6_run_roll(r, less(d6_physique_or_lifting(s, a), pen), true, a, D6_ROLL_ATTACK,
                         &at))
            return false;
        at -= d6_part_penalty(st, a, D6_SK_LIFTING);
        d6_code pl = d6_physique_or_lifting(s, t);
        if (!resisted) {
            diff = 2 * pl.dice + pl.pips + protection(s, t); /* D7.12 */
        } else {
            int ar = s->c[t].b.armour;
            d6_code c = pl;
            if (ar >= 0 && ar < s->n_armour)
                c = d6_code_add(c, s->ar[ar].code);
            if (!d6_run_roll(r, less(c, tpen), true, t, D6_ROLL_DEFENSE, &diff))
                return false;
            diff += 5 - d6_part_penalty(st, t, D6_SK_LIFTING);
        }
    } else { /* 003:22-24, D7.4 */
        int pa = pen + d6_agility_take(st, a, D6_SK_FIGHTING);
        if (!d6_run_roll(r, less(d6_skill_code(s, a, D6_SK_FIGHTING), pa), true, a,
                         D6_ROLL_ATTACK, &at))
            return false;
        at -= d6_part_penalty(st, a, D6_SK_FIGHTING);
        d6_code ag = s->c[t].b.attr[D6_AGILITY];
        if (!resisted) {
            diff = 2 * ag.dice; /* the pips dropped */
        } else {
            int tp = tpen + st->c[t].agility_dice; /* a stumble: its next Agility roll */
            st->c[t].agility_dice = 0;
            if (!d6_run_roll(r, less(ag, tp), true, t, D6_ROLL_DEFENSE, &diff))
                return false;
            diff += 5;
        }
    }
    bool done = at >= diff; /* D7.13: meet or beat */
    int result = done ? D6_PIN_DONE : resisted ? D6_PIN_ESCAPED : D6_PIN_FAILED;
    d6_run_fact(r, D6_FACT_PIN, a, t, op, at, diff, result);
    if (result == D6_PIN_ESCAPED) { /* 003:21, 24: free, and acts freely next round */
        st->c[t].held_by = 0;
        st->c[t].hold_kind = 0;
        return true;
    }
    if (result == D6_PIN_FAILED)
        return strength_harm(r, a, t); /* 003:20, 23: as option 1 */
    if (op == D6_PIN_BREAK) { /* ruling 44: the arm's lasting effect, and damage */
        d6_location_effect(st, t, D6_LOC_ARM);
        d6_run_fact(r, D6_FACT_LOCATION, t, a, D6_LOC_ARM, 0, 0, 0);
        return strength_harm(r, a, t);
    }
    /* ruling 45: forced to the ground, it submits: out of the fight */
    st->c[t].down = D6_GROUND_STAND;
    st->c[t].posture = D6_POSTURE_PRONE;
    st->c[t].flags |= D6_F_OUT;
    st->c[t].submitted = true;
    return true;
}

/* 003:15-16: lift (lifting, Moderate 15: D7.18), then slam or throw
 * (throwing against 10: ruling 47); both actions at -1D (core). */
static bool slam_apply(d6_run *r, int pen) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    d6_event *ev = r->ev;
    int a = ev->actor, t = d6_holding(st, a);
    if (t < 0)
        return false;
    ev->target = (int8_t)t;
    pen += 1; /* two actions this round */
    int lt = 0;
    if (!d6_run_roll(r, less(d6_skill_code(s, a, D6_SK_LIFTING), pen), true, a, D6_ROLL_ATTACK,
                     &lt))
        return false;
    lt -= d6_part_penalty(st, a, D6_SK_LIFTING);
    bool up = lt >= 15;
    d6_run_fact(r, D6_FACT_SLAM, a, t, lt, 15, up, ev->slam_into);
    if (!up)
        return true; /* not lifted: the hold kept, the turn spent */
    int tt = 0;
    if (!d6_run_roll(r, less(d6_skill_code(s, a, D6_SK_THROWING), pen), true, a, D6_ROLL_ATTACK,
                     &tt))
        return false;
    tt -= d6_part_penalty(st, a, D6_SK_THROWING);
    bool hit = tt >= 10;
    d6_run_fact(r, D6_FACT_ATTACK, a, t, tt, 10, hit, D6_BAND_BEYOND);
    st->c[t].held_by = 0; /* hurled: the hold ends */
    st->c[t].hold_kind = 0;
    d6_run_fact(r, D6_FACT_RELEASE, a, t, 0, 0, 0, 0);
    if (!hit)
        return true;
    int obj = 0, sd = 0;
    if (!d6_run_roll(r, d6_slam_toughness(ev->slam_into), false, a, D6_ROLL_DAMAGE, &obj) ||
        !d6_run_roll(r, d6_strength_damage(d6_skill_code(s, a, D6_SK_LIFTING)), true, a,
                     D6_ROLL_DAMAGE, &sd))
        return false;
    if (!st->c[t].down) /* 003:93: thrown down, standing is an action */
        st->c[t].down = D6_GROUND_STAND;
    st->c[t].posture = D6_POSTURE_PRONE;
    return d6_run_harm(r, a, t, obj + sd);
}

bool d6_holds_apply(d6_run *r, int pen) {
    if (r->ev->kind == D6_EV_PIN)
        return pin_apply(r, pen);
    if (r->ev->kind == D6_EV_SLAM)
        return slam_apply(r, pen);
    return false;
}

bool d6_disarm_hit(d6_run *r, int a, int t, int w, int at, int diff) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    int tw = d6_weapon_now(s, st, t);
    if (tw < 0)
        return false; /* checked before (d6_holds_check) */
    d6_attack_terms_t T;
    d6_attack_terms(s, st, a, t, w, &T);
    int dmg = 0; /* the damage total (D7.19); the called shot's +1D is not added */
    if (!d6_run_roll(r, T.damage, true, a, D6_ROLL_DAMAGE, &dmg))
        return false;
    if (s->o.damage_bonus)
        dmg += (at - diff + 4) / 5;
    dmg += T.scale_damage;
    int grip = -1;
    bool drop = true; /* D7.19: it has acted: the item drops, no roll */
    if (d6_turn_move_up(st, t)) { /* 003:61: it moves its action up */
        d6_code c = less(d6_physique_or_lifting(s, t), d6_wound_penalty(s, st, t));
        if (!d6_run_roll(r, c, true, t, D6_ROLL_DEFENSE, &grip))
            return false;
        grip -= d6_part_penalty(st, t, D6_SK_LIFTING);
        drop = !(grip > dmg); /* 003:61: greater keeps; less or equal drops */
    }
    d6_run_fact(r, D6_FACT_DISARM, t, a, tw, grip, dmg, drop);
    if (drop)
        st->c[t].dropped |= 1u << tw;
    return true;
}

/* ---- The tactics -------------------------------------------------------- */

bool d6_holds_choose(const d6_setup *s, const d6_state *st, int a, d6_event *cmd) {
    if (s->c[a].tactics != D6_TAC_WRESTLE)
        return false;
    int t = pinned(st, a);
    if (t >= 0 && st->c[t].hold_round < st->round) {
        /* force a submission; the one pinned resists when it still can */
        cmd->kind = D6_EV_PIN;
        cmd->pin_op = D6_PIN_SUBMIT;
        cmd->resisted = d6_turn_can_move_up(st, t);
        return true;
    }
    if (d6_holding(st, a) >= 0 || st->c[a].down)
        return false;
    /* a foe in reach of its hands, free: knock its weapon away, then pin */
    int best = -1;
    for (int i = 0; i < s->n; i++) {
        if (i == a || s->c[i].side == s->c[a].side || d6_out(&st->c[i]) ||
            d6_holder(st, i) >= 0 || s->c[i].cover == D6_COVER_FULL ||
            d6_band(s, -1, d6_distance(st, a, i)) != D6_BAND_POINT_BLANK)
            continue;
        if (best < 0 || value(d6_physique_or_lifting(s, i)) <
                            value(d6_physique_or_lifting(s, best)))
            best = i;
    }
    if (best < 0)
        return false;
    cmd->kind = D6_EV_ATTACK;
    cmd->target = (int8_t)best;
    cmd->actions = 1;
    cmd->weapon = -1;
    int size = d6_disarm_size(s, st, best);
    if (size > 0 && d6_weapon_now(s, st, a) < 0) {
        cmd->disarm = 1;
        cmd->called = (uint8_t)size;
    } else {
        cmd->grab = D6_GRAB_ARM_PIN;
    }
    return true;
}

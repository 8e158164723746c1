/*
 * quick.c - D6's simulation loop for fights of blows and shots (issue 18
 * "Speed"; d6_quick.h; docs/rules/d6.md "Speed").
 *
 * A setup qualifies when every option is at its default but `health`
 * and `wild-one`, nobody grapples (tactics: grapple), surprises, is
 * blind or begins crouching or prone, every combatant has the same scale
 * and no weapon a scale of its own, and no weapon in hand is unwieldy or
 * entangling (d6_loop_prepare). A state qualifies when nobody aims,
 * has announced a quick draw or readied a weapon, holds or is held, is
 * entangled, flipped, down, stumbling, hurt in a part of the body,
 * limited to a passive defense, or not standing (d6_loop_state_ok). In
 * such a fight the tactics (rules.c d6_choose) only attack (with a
 * partial dodge or parry when two foes are in reach or it is hurt),
 * defend in full (badly hurt, a friend standing, a foe in reach), move
 * toward the nearest foe, or wait; and d6_apply does only this:
 *
 *   - the round: waits lost, initiative (Acumen with the Wild Die) and
 *     the order (ties: Acumen, search, Agility, dodge, the file);
 *   - an attack: the defense made first (its action at the multi-action
 *     penalty), the attack roll against the defense (passive 10, or the
 *     one made; a parry counts against blows only), the band and cover,
 *     the light for a shot, the floor of 3; damage with Strength Damage
 *     against resistance, the Wound levels (the stay-up roll at
 *     Incapacitated) or Body Points;
 *   - a full defense; a move (a free one of half its Move or less, then
 *     the same combatant chooses again); a wait.
 *
 * The loop does the same, in the same order, on the fight's state:
 * rules.c's own functions where they are shared (d6_wound_after,
 * d6_wound_penalty, d6_band, d6_distance; d6_choose itself for the rare
 * move's destination), code.c's roll. tests/unit/test_d6_quick.c holds
 * it to the long way trial by trial: the state byte for byte and the
 * counts (and d6.c's count of events, kept up here too).
 */
#include "d6_quick.h"

#include <math.h>
#include <string.h>

/* Fields the loop knows. A new field in one of these structs is a rule
 * the loop has not been taught: the build stops here until its author
 * (or the integrator) decides whether d6_loop_prepare must refuse it, or
 * d6_loop_state_ok, or the loop must keep it up as rules.c does; then
 * updates the size. (Sizes on the 64-bit targets fray builds for.) */
_Static_assert(sizeof(void *) != 8 || sizeof(d6_options) == 15,
               "quick.c: a new D6 option: let option_ok take it if the loop does "
               "what it says or it changes nothing here, else leave it to refuse a "
               "setup off its default; then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(d6_block) == 220,
               "quick.c: a new stat-block field: refuse it in d6_loop_prepare "
               "unless it changes nothing in the loop's fights, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(d6_combatant) == 332,
               "quick.c: a new combatant field: refuse it in d6_loop_prepare "
               "unless it changes nothing in the loop's fights, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(d6_weapon) == 80,
               "quick.c: a new weapon field: refuse it in d6_loop_prepare unless "
               "it changes nothing in an attack of the loop, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(d6_setup) == 16240,
               "quick.c: a new setup field: refuse it in d6_loop_prepare unless "
               "it changes nothing in the loop's fights, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(d6_cstate) == 68,
               "quick.c: a new combatant state field: refuse it in d6_loop_state_ok "
               "or keep it up in the loop as rules.c does, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(d6_state) == 2264,
               "quick.c: a new field in the fight's state: if rules.c keeps it up "
               "in the loop's fights, do the same in d6_loop_run; then update this size");

/* ---- The class ------------------------------------------------------------ */

static bool option_ok(const d6_options *o) {
    d6_options d, c;
    memset(&d, 0, sizeof d); /* a zeroed struct is every default (d6_int.h) */
    c = *o;
    c.health = d.health;     /* taken by the loop */
    c.wild_one = d.wild_one; /* taken by the loop (code.c's roll) */
    c.trick_difficulty = d.trick_difficulty; /* the tactics make no trick */
    c.zero_bp_unconscious = d.zero_bp_unconscious; /* only how 0 Body Points is
                                                      counted and told (ruling 70) */
    /* (options load into a zeroed struct and are copied whole: a field
     * named nowhere above is caught here) */
    return memcmp(&c, &d, sizeof d) == 0;
}

static long code_value(d6_code c) { return (long)c.dice * 3 + c.pips; }

/* rules.c penalised: dice off a code. */
static d6_code penalised(d6_code c, int dice) {
    d6_code p = {-dice, 0};
    return d6_code_add(c, p);
}

void d6_loop_prepare(const d6_setup *s, d6_loop *q) {
    memset(q, 0, sizeof *q);
    if (s->n < 2 || s->n > D6_MAX_C || !option_ok(&s->o))
        return;
    if (s->n_objects > 0)
        return; /* objects to break and the cover they give (things.c) */
    if (s->o.wild_one != D6_WILD_ONE_CANCEL_HIGHEST &&
        s->o.wild_one != D6_WILD_ONE_COMPLICATION)
        return;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    unsigned sides = 0;
    for (int i = 0; i < s->n; i++) {
        const d6_combatant *c = &s->c[i];
        const d6_block *b = &c->b;
        if (c->side < 0 || c->side >= D6_MAX_SIDES || c->tactics == D6_TAC_GRAPPLE || c->tactics == D6_TAC_WRESTLE ||
            c->tactics >= D6_TAC_KINDS || c->surprise != D6_SURPRISE_NONE || c->blind ||
            c->posture != D6_POSTURE_STANDING || c->cover > D6_COVER_FULL ||
            b->scale != s->c[0].b.scale || b->armour >= s->n_armour)
            return;
        int w = d6_weapon_of(s, i);
        if (w >= 0) {
            const d6_weapon *wp = &s->w[w];
            if (wp->has_scale || wp->unwieldy || wp->entangling || wp->skill >= D6_SKILLS)
                return;
            if (wp->range[2] <= 0 && d6_melee_reach(s, w) != 3)
                return; /* a long weapon's reach (things.c, ruling 50) */
        }
        d6_loop_c *k = &q->c[i];
        d6_attack_terms_t T; /* rules.c: the terms of its attack, on anyone */
        d6_state st0;
        memset(&st0, 0, sizeof st0);
        st0.n = s->n;
        d6_attack_terms(s, &st0, i, i == 0 ? 1 : 0, w, &T);
        d6_code dodge = d6_skill_code(s, i, D6_SK_DODGE),
                parry = d6_skill_code(s, i, d6_parry_skill(s, i));
        for (int p = 0; p < D6_LOOP_PEN; p++) {
            k->attack[p] = penalised(T.skill, p);
            k->dodge[p] = penalised(dodge, p);
            k->parry[p] = penalised(parry, p);
        }
        k->damage = d6_code_add(T.damage, (d6_code){0, 0}); /* attack_once's form */
        k->ranged = T.ranged;
        k->weapon = (int8_t)w;
        k->parry_better = code_value(parry) > code_value(dodge);
        d6_code res = {0, 0};
        if (b->armour >= 0)
            res = s->ar[b->armour].code;
        k->resist = d6_code_add(res, wounds ? b->attr[D6_PHYSIQUE] : b->resistance);
        d6_code sta = d6_skill_code(s, i, D6_SK_STAMINA), me = d6_skill_code(s, i, D6_SK_METTLE);
        k->stay = code_value(me) > code_value(sta) ? me : sta;
        k->init = b->attr[D6_ACUMEN];
        k->tie[0] = code_value(b->attr[D6_ACUMEN]);
        k->tie[1] = code_value(d6_skill_code(s, i, D6_SK_SEARCH));
        k->tie[2] = code_value(b->attr[D6_AGILITY]);
        k->tie[3] = code_value(d6_skill_code(s, i, D6_SK_DODGE));
        k->side = c->side;
        k->cover_dice = (uint8_t)(c->cover == D6_COVER_QUARTER         ? 1
                                  : c->cover == D6_COVER_HALF           ? 2
                                  : c->cover == D6_COVER_THREE_QUARTERS ? 4
                                                                        : 0);
        k->full_cover = c->cover == D6_COVER_FULL;
        k->body_points = b->body_points;
        sides |= 1u << c->side;
    }
    if ((sides & (sides - 1)) == 0)
        return; /* one side */
    q->s = s;
    q->n = s->n;
    q->wounds = wounds;
    q->wild_one = (d6_wild_one)s->o.wild_one;
    q->light = s->light;
    q->ok = true;
}

static inline bool out(const d6_cstate *c) { return (c->flags & D6_F_OUT) != 0; }

bool d6_loop_state_ok(const d6_loop *q, const d6_state *st) {
    if (!q->ok || !st->started || st->over || st->stopped || st->n != q->n ||
        st->round < 1 || st->n_order < 0 || st->n_order > st->n || st->pos < 0)
        return false;
    for (int k = 0; k < st->n_order; k++)
        if (st->order[k] < 0 || st->order[k] >= st->n)
            return false;
    unsigned sides = 0;
    for (int i = 0; i < st->n; i++) {
        const d6_cstate *c = &st->c[i];
        if (c->aim_dice || c->aim_target || c->qd_attacks || c->ready_w || c->held_by ||
            c->tangle || c->agility_dice || c->down || c->parts || c->dropped || c->submitted ||
            c->passive_round >= st->round || c->posture != D6_POSTURE_STANDING ||
            c->wound >= D6_W_LEVELS)
            return false;
        if (!out(c))
            sides |= 1u << q->c[i].side;
    }
    return (sides & (sides - 1)) != 0; /* two sides standing at least */
}

/* ---- The loop ------------------------------------------------------------------- */

/* A roll of code c with the Wild Die from the fight's stream (rules.c
 * roll: code.c's, the same dice in the same order). */
static inline int roll(const d6_loop *q, d6_state *st, d6_code c) {
    return d6_code_roll(c, true, q->wild_one, &st->rng).total;
}

/* What i has lost (d6.c harm_of). */
static inline int harm_of(const d6_loop *q, const d6_state *st, int i) {
    return q->wounds ? st->c[i].wound : q->c[i].body_points - st->c[i].bp;
}

static inline void count(const d6_tally *t, int a, int kind) {
    t->actions[a]++;
    if (t->by_kind[a][kind - D6_EV_ATTACK] < UINT16_MAX)
        t->by_kind[a][kind - D6_EV_ATTACK]++;
}

/* rules.c d6_actor. */
static int actor(const d6_state *st) {
    for (int k = st->pos; k < st->n_order; k++)
        if (!out(&st->c[st->order[k]]))
            return st->order[k];
    return -1;
}

/* rules.c end_turn. */
static void end_turn(d6_state *st) {
    while (st->pos < st->n_order && out(&st->c[st->order[st->pos]]))
        st->pos++;
    if (st->pos < st->n_order)
        st->c[st->order[st->pos]].flags &= (uint8_t)~D6_F_MOVED;
    for (st->pos++; st->pos < st->n_order && out(&st->c[st->order[st->pos]]);)
        st->pos++;
}

/* rules.c check_over (after someone fell). */
static void check_over(const d6_loop *q, d6_state *st) {
    int side = -1, sides = 0;
    unsigned seen = 0;
    for (int i = 0; i < st->n; i++) {
        if (out(&st->c[i]) || (seen & (1u << q->c[i].side)))
            continue;
        seen |= 1u << q->c[i].side;
        sides++;
        side = q->c[i].side;
    }
    if (sides > 1)
        return;
    st->over = true;
    st->winner = (int8_t)(sides == 1 ? side : -2);
}

/* rules.c's D6_EV_ROUND: waits lost, initiative, the order. */
static void next_round(const d6_loop *q, d6_state *st) {
    int n = st->n;
    for (int i = 0; i < n; i++)
        st->c[i].flags &= (uint8_t)~D6_F_WAITING;
    st->round++;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (out(&st->c[i]))
            continue;
        st->c[i].init = (int16_t)roll(q, st, q->c[i].init);
        st->order[m++] = (int8_t)i;
    }
    for (int k = 1; k < m; k++) { /* rules.c order_make: stable */
        int8_t v = st->order[k];
        int j = k - 1;
        for (; j >= 0; j--) {
            int u = st->order[j];
            long du = st->c[u].init, dv = st->c[v].init;
            for (int t = 0; du == dv && t < 4; t++) {
                du = q->c[u].tie[t];
                dv = q->c[v].tie[t];
            }
            if (dv <= du)
                break;
            st->order[j + 1] = st->order[j];
        }
        st->order[j + 1] = v;
    }
    st->n_order = (int8_t)m;
    st->pos = 0;
}

/* rules.c defend. */
static void defend(const d6_loop *q, d6_state *st, int a, bool full, bool parry, int pen) {
    d6_cstate *c = &st->c[a];
    int tot = roll(q, st, parry ? q->c[a].parry[pen] : q->c[a].dodge[pen]);
    c->defense = full ? D6_DEF_FULL : D6_DEF_PARTIAL;
    c->def_total = (int16_t)(full ? tot + 10 : tot);
    c->def_parry = parry;
}

static const int band_mod[] = {-5, 0, 5, 10, 0}; /* rules.c */

/* rules.c attack_once and harm, for the class: true when t fell. */
static bool attack(const d6_loop *q, d6_state *st, int a, int t, int band, int pen,
                   const d6_tally *tally) {
    const d6_loop_c *ka = &q->c[a], *kt = &q->c[t];
    d6_cstate *c = &st->c[t];
    int at = roll(q, st, ka->attack[pen]);
    int diff = c->defense == D6_DEF_NONE || (c->def_parry && ka->ranged) ? 10 : c->def_total;
    int dice = kt->cover_dice;
    if (ka->ranged) {
        diff += band_mod[band];
        dice += q->light;
    }
    diff += 3 * dice;
    if (diff < 3)
        diff = 3;
    if (at < diff)
        return false;
    d6_code dc = ka->damage;
    if (dc.dice < 0 || (dc.dice == 0 && dc.pips < 0))
        dc = (d6_code){0, 0};
    int dmg = roll(q, st, dc);
    int before = harm_of(q, st, t);
    int rt = 0;
    if (kt->resist.dice > 0 || kt->resist.pips != 0)
        rt = roll(q, st, kt->resist);
    int excess = dmg - rt;
    if (q->wounds) {
        int was = c->wound;
        int now = d6_wound_after(was, excess);
        c->wound = (uint8_t)now;
        if (now == D6_W_STUNNED && excess > 0)
            c->stun_round = st->round + 1;
        if (now >= D6_W_MORTAL) {
            c->flags |= D6_F_OUT;
        } else if (now == D6_W_INCAP && was != D6_W_INCAP) {
            /* rules.c stay_up: 15 to stay up */
            if (roll(q, st, kt->stay) >= 15)
                c->flags |= D6_F_UP;
            else
                c->flags |= D6_F_OUT;
        }
    } else {
        if (excess > 0)
            c->bp = (int16_t)(c->bp > excess ? c->bp - excess : 0);
        if (c->bp <= 0)
            c->flags |= D6_F_OUT;
    }
    int lost = harm_of(q, st, t) - before;
    if (lost > 0) {
        tally->taken[t] += lost;
        tally->dealt[a] += lost;
    }
    return out(c);
}

/* rules.c hurt. */
static inline bool hurt(const d6_loop *q, const d6_state *st, int i, bool badly) {
    const d6_cstate *c = &st->c[i];
    if (q->wounds)
        return c->wound >= (badly ? D6_W_SEVERE : D6_W_WOUNDED);
    int max = q->c[i].body_points;
    return max > 0 && c->bp * (badly ? 4 : 2) < max;
}

static inline void defense_lapses(d6_cstate *c) {
    if (!(c->flags & D6_F_MOVED)) { /* rules.c d6_apply: to its next turn */
        c->defense = D6_DEF_NONE;
        c->def_total = 0;
        c->def_parry = false;
    }
}

fray_status d6_loop_run(const d6_loop *q, d6_state *st, int lim, int cap,
                         const atomic_bool *cancel, const d6_tally *tally,
                         int32_t *events) {
    const d6_setup *s = q->s;
    int n = st->n;
    /* the distances (rules.c d6_distance) and the band of each one's
     * weapon at each (d6_band), kept up as they move */
    int16_t dist[D6_MAX_C][D6_MAX_C];
    uint8_t band[D6_MAX_C][D6_MAX_C];
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            dist[i][j] = dist[j][i] = (int16_t)(i == j ? 0 : d6_distance(st, i, j));
            band[i][j] = (uint8_t)d6_band(s, q->c[i].weapon, dist[i][j]);
            band[j][i] = (uint8_t)d6_band(s, q->c[j].weapon, dist[i][j]);
        }
    int32_t ev = 0;
    fray_status rc = FRAY_OK;
    while (!st->over && !st->stopped) {
        int a = actor(st);
        if (a < 0) {
            if ((lim <= 0 && st->round >= cap) || (lim > 0 && st->round >= lim)) {
                st->stopped = true; /* d6.c rs_run and step */
                break;
            }
            if (cancel && atomic_load_explicit(cancel, memory_order_relaxed)) {
                rc = FRAY_ERR_CANCELED;
                break;
            }
            next_round(q, st);
            ev++;
            continue;
        }
        /* The tactics (rules.c d6_choose), for the class. */
        const d6_loop_c *ka = &q->c[a];
        d6_cstate *ca = &st->c[a];
        int best = -1, nearest = -1, near_d = 0, in_reach = 0, friends = 0;
        bool shooters = false;
        for (int i = 0; i < n; i++) {
            const d6_cstate *ci = &st->c[i];
            if (out(ci))
                continue;
            if (q->c[i].side == ka->side) {
                friends += i != a;
                continue;
            }
            shooters = shooters || q->c[i].ranged;
            if (q->c[i].full_cover)
                continue;
            int d = dist[a][i];
            if (nearest < 0 || d < near_d) {
                nearest = i;
                near_d = d;
            }
            if (d <= 3)
                in_reach++;
            if (band[a][i] == D6_BAND_BEYOND)
                continue;
            if (best < 0) {
                best = i;
                continue;
            }
            if (ka->ranged) {
                if (d < dist[a][best])
                    best = i;
            } else if (ci->wound > st->c[best].wound ||
                       (ci->wound == st->c[best].wound && ci->bp < st->c[best].bp)) {
                best = i;
            }
        }
        bool moved = (ca->flags & D6_F_MOVED) != 0;
        bool parry = !shooters && ka->parry_better;
        ev++;
        int pen = q->wounds ? d6_wound_penalty(s, st, a) : 0; /* 0 to 3 */
        if (pen < 0 || pen + 1 >= D6_LOOP_PEN) {
            rc = FRAY_ERR_INVALID; /* never reached: the codes are made for 0 to 4 */
            break;
        }
        if (hurt(q, st, a, true) && friends > 0 && in_reach > 0 && !moved) {
            /* a full defense */
            count(tally, a, D6_EV_DEFEND);
            defense_lapses(ca);
            defend(q, st, a, true, parry, pen);
            end_turn(st);
            continue;
        }
        if (best >= 0) {
            bool full = in_reach >= 2 || hurt(q, st, a, false);
            count(tally, a, D6_EV_ATTACK);
            defense_lapses(ca);
            pen += full ? 1 : 0; /* a second action (core) */
            if (full)
                defend(q, st, a, false, parry, pen);
            if (attack(q, st, a, best, band[a][best], pen, tally))
                check_over(q, st);
            if (!st->over)
                end_turn(st);
            continue;
        }
        if (nearest < 0 || moved) {
            /* a wait: not an action in the counts */
            defense_lapses(ca);
            ca->flags |= D6_F_WAITING;
            end_turn(st);
            continue;
        }
        /* A move toward the nearest foe: the tactics' own destination. */
        d6_event cmd;
        d6_choose(s, st, &cmd);
        if (cmd.kind == D6_EV_WAIT && cmd.actor == a) {
            /* no free point on the way (close.c, ruling 69): a wait */
            defense_lapses(ca);
            ca->flags |= D6_F_WAITING;
            end_turn(st);
            continue;
        }
        if (cmd.kind != D6_EV_MOVE || cmd.actor != a) {
            rc = FRAY_ERR_INVALID; /* not the class: never reached */
            break;
        }
        count(tally, a, D6_EV_MOVE);
        defense_lapses(ca);
        double dx = cmd.x - ca->x, dy = cmd.y - ca->y;
        int mv = d6_move_now(s, st, a); /* standing here: its whole Move */
        bool free_move = 2.0 * sqrt(dx * dx + dy * dy) <= mv + 1e-9;
        ca->x = cmd.x;
        ca->y = cmd.y;
        for (int j = 0; j < n; j++) {
            dist[a][j] = dist[j][a] = (int16_t)(j == a ? 0 : d6_distance(st, a, j));
            band[a][j] = (uint8_t)d6_band(s, ka->weapon, dist[a][j]);
            band[j][a] = (uint8_t)d6_band(s, q->c[j].weapon, dist[a][j]);
        }
        if (free_move)
            ca->flags |= D6_F_MOVED; /* half its Move or less: no action */
        else
            end_turn(st);
    }
    *events += ev;
    return rc;
}

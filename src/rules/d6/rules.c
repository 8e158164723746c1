/*
 * rules.c - the D6 core's round (docs/rules/d6.md "The model"):
 * initiative, turns with declared actions, active defense, attacks
 * against the combat difficulty (range bands, cover, light, the floor of
 * 3), movement, damage with Strength Damage against resistance, both
 * health systems, and the tactics. Every die comes through the run (the
 * fight's stream, dice given by hand, or a recorded event's dice again).
 */
#include "d6_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_words[D6_EV_KINDS] = {"begin", "next", "attack",
                                                    "defend", "move", "wait", "aim",
                                                    "quick-draw", "ready",
                                                    "squeeze", "escape", "break-free", "slip-free",
                                                    "get-up", "posture", "run", "break", "pin",
                                                    "slam"};
static const char *const kind_titles[D6_EV_KINDS] = {"Begin", "Next round", "Attack",
                                                     "Defense", "Move", "Wait", "Aim",
                                                     "Quick draw", "Ready",
                                                     "Squeeze", "Escape", "Break free", "Slip free",
                                                     "Get up", "Posture", "Run", "Break",
                                                     "Arm pin", "Slam"};
static const char *const wound_names[D6_W_LEVELS] = {
    "unhurt", "Stunned", "Wounded", "Severely Wounded", "Incapacitated",
    "Mortally Wounded", "Dead"};
static const char *const band_names[] = {"Point Blank", "Short", "Medium", "Long",
                                         "beyond Long"};

const char *d6_kind_word(int kind) {
    return kind >= 0 && kind < D6_EV_KINDS ? kind_words[kind] : "?";
}
const char *d6_kind_title(int kind) {
    return kind >= 0 && kind < D6_EV_KINDS ? kind_titles[kind] : "?";
}
const char *d6_wound_name(int w) {
    return w >= 0 && w < D6_W_LEVELS ? wound_names[w] : "?";
}
const char *d6_band_name(int b) {
    return b >= 0 && b <= D6_BAND_BEYOND ? band_names[b] : "?";
}

/* ---- Dice ---------------------------------------------------------------- */

/* One d6 for the run: given by hand, a recorded given die, or drawn (and,
 * replaying, matched against the one recorded). 0 stops the roll. */
static int run_die(void *ctx) {
    d6_run *r = ctx;
    if (r->failed != FRAY_OK)
        return 0;
    if (r->ev->n_dice >= D6_EV_DICE) {
        r->failed = FRAY_ERR_RANGE;
        return 0;
    }
    int v;
    if (r->given) {
        if (r->used_given >= r->n_given) {
            r->failed = FRAY_ERR_INVALID;
            return 0;
        }
        v = r->given[r->used_given];
        if (v < 1 || v > 6) {
            r->bad_die = true;
            r->failed = FRAY_ERR_INVALID;
            return 0;
        }
        r->used_given++;
        r->ev->given = 1;
    } else if (r->replay && r->replay->given) {
        if (r->replay_die >= r->replay->n_dice) {
            r->failed = FRAY_ERR_INVALID;
            return 0;
        }
        v = r->replay->dice[r->replay_die++];
        r->ev->given = 1;
    } else {
        v = (int)fray_rng_range(&r->st->rng, 1, 6);
        if (r->replay) {
            if (r->replay_die >= r->replay->n_dice ||
                r->replay->dice[r->replay_die] != v) {
                r->failed = FRAY_ERR_INVALID;
                return 0;
            }
            r->replay_die++;
        }
    }
    r->ev->dice[r->ev->n_dice++] = (uint8_t)v;
    return v;
}

static void fact(d6_run *r, int kind, int who, int other, int a, int b, int c,
                 int d) {
    if (!r->facts || r->ev->n_facts >= D6_EV_FACTS)
        return;
    d6_fact *f = &r->ev->facts[r->ev->n_facts++];
    f->kind = (uint8_t)kind;
    f->who = (int8_t)who;
    f->other = (int8_t)other;
    f->d = (int8_t)d;
    f->a = (int16_t)a;
    f->b = (int16_t)b;
    f->c = (int16_t)c;
}

/* A roll of code by who (wild: with the Wild Die); false when a die
 * failed (r->failed says why). */
static bool roll(d6_run *r, d6_code c, bool wild, int who, int what, int *total) {
    d6_roll out;
    if (!d6_roll_with(c, wild, (d6_wild_one)r->s->o.wild_one, run_die, r, &out)) {
        if (r->failed == FRAY_OK)
            r->failed = FRAY_ERR_INVALID;
        return false;
    }
    if (out.wild_one)
        fact(r, D6_FACT_WILD_ONE, who, -1, what, r->s->o.wild_one, 0, 0);
    *total = out.total;
    return true;
}

/* ---- The state ------------------------------------------------------------ */

bool d6_out(const d6_cstate *c) { return (c->flags & D6_F_OUT) != 0; }

int d6_actor(const d6_state *st) {
    if (!st->started || st->over)
        return -1;
    for (int k = st->pos; k < st->n_order; k++)
        if (!d6_out(&st->c[st->order[k]]))
            return st->order[k];
    return -1;
}

int d6_weapon_of(const d6_setup *s, int a) {
    int w = s->c[a].b.weapon;
    return w >= 0 && w < s->n_weapons ? w : -1;
}

int d6_distance(const d6_state *st, int i, int j) {
    double dx = st->c[i].x - st->c[j].x, dy = st->c[i].y - st->c[j].y;
    return (int)ceil(sqrt(dx * dx + dy * dy) - 1e-9);
}

static bool is_ranged(const d6_setup *s, int weapon) {
    return weapon >= 0 && s->w[weapon].range[2] > 0;
}

int d6_band(const d6_setup *s, int weapon, int meters) {
    if (!is_ranged(s, weapon)) /* melee and unarmed reach Point Blank (core) */
        return meters <= 3                           ? D6_BAND_POINT_BLANK
               : meters <= d6_melee_reach(s, weapon) ? D6_BAND_SHORT /* over 2 m: things.c */
                                                     : D6_BAND_BEYOND;
    const d6_weapon *w = &s->w[weapon];
    if (meters <= 3)
        return D6_BAND_POINT_BLANK;
    if (meters <= w->range[0])
        return D6_BAND_SHORT;
    if (meters <= w->range[1])
        return D6_BAND_MEDIUM;
    if (meters <= w->range[2])
        return D6_BAND_LONG;
    return D6_BAND_BEYOND;
}

d6_code d6_skill_code(const d6_setup *s, int i, int k) {
    const d6_block *b = &s->c[i].b;
    return (b->has_skill >> k) & 1u ? b->skill[k] : b->attr[d6_skill_attr[k]];
}

int d6_wound_penalty(const d6_setup *s, const d6_state *st, int i) {
    if (s->o.health != D6_HEALTH_WOUNDS)
        return 0;
    const d6_cstate *c = &st->c[i];
    int p = 0;
    if (c->stun_round >= st->round && c->wound >= D6_W_STUNNED)
        p = 1; /* Stunned: this round and the next */
    if (c->wound == D6_W_WOUNDED && p < 1)
        p = 1;
    if (c->wound == D6_W_SEVERE)
        p = 2;
    if (c->wound >= D6_W_INCAP)
        p = 3; /* Incapacitated, stayed up */
    return p;
}

static long code_value(d6_code c) { return (long)c.dice * 3 + c.pips; }

void d6_state_init(const d6_setup *s, d6_state *st, uint64_t seed,
                   uint64_t trial) {
    memset(st, 0, sizeof *st);
    st->n = s->n;
    st->winner = -1;
    fray_rng_for_trial(&st->rng, seed, trial);
    for (int i = 0; i < s->n; i++) {
        st->c[i].x = s->c[i].x;
        st->c[i].posture = s->c[i].posture; /* options.c (003:91-92) */
        st->c[i].y = s->c[i].y;
        st->c[i].bp = s->c[i].b.body_points;
    }
}

/* The round's order: by initiative total, then Acumen, search, Agility
 * and dodge (core), then the encounter's order; first-action: the
 * encounter's order. */
static void order_make(const d6_setup *s, d6_state *st) {
    int n = 0;
    for (int i = 0; i < s->n; i++)
        if (!d6_out(&st->c[i]))
            st->order[n++] = (int8_t)i;
    if (s->o.initiative != D6_INIT_FIRST_ACTION)
        for (int k = 1; k < n; k++) { /* insertion sort: stable */
            int8_t v = st->order[k];
            int j = k - 1;
            for (; j >= 0; j--) {
                int u = st->order[j];
                long du = st->c[u].init, dv = st->c[v].init;
                /* ties (core): Acumen, search, Agility, dodge */
                static const int tie_skill[] = {-1, D6_SK_SEARCH, -2, D6_SK_DODGE};
                for (int q = 0; du == dv && q < 4; q++) {
                    int sk = tie_skill[q];
                    du = code_value(sk == -1   ? s->c[u].b.attr[D6_ACUMEN]
                                    : sk == -2 ? s->c[u].b.attr[D6_AGILITY]
                                               : d6_skill_code(s, u, sk));
                    dv = code_value(sk == -1   ? s->c[v].b.attr[D6_ACUMEN]
                                    : sk == -2 ? s->c[v].b.attr[D6_AGILITY]
                                               : d6_skill_code(s, v, sk));
                }
                if (dv <= du)
                    break;
                st->order[j + 1] = st->order[j];
            }
            st->order[j + 1] = v;
        }
    st->n_order = (int8_t)n;
    st->pos = 0;
    d6_surprise_order(s, st); /* draw.c: round 1 (003:129) */
}

static bool initiative(d6_run *r, bool roll_now) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    if (roll_now && s->o.initiative != D6_INIT_FIRST_ACTION)
        for (int i = 0; i < s->n; i++) {
            if (d6_out(&st->c[i]))
                continue;
            int t;
            if (!roll(r, d6_quick_initiative(s, st, i), true, i, D6_ROLL_INIT, &t))
                return false;
            t -= d6_part_penalty(st, i, D6_PART_INIT); /* 003:83, 85 */
            st->c[i].init = (int16_t)t;
        }
    order_make(s, st);
    for (int k = 0; k < st->n_order; k++)
        fact(r, D6_FACT_INIT, st->order[k], -1, st->c[st->order[k]].init, k + 1, 0, 0);
    return true;
}

fray_status d6_begin(d6_run *r) {
    r->st->started = true;
    r->st->round = 1;
    r->ev->round = 1;
    r->ev->kind = D6_EV_BEGIN;
    r->ev->actor = r->ev->target = -1;
    if (!initiative(r, true))
        return r->failed != FRAY_OK ? r->failed : FRAY_ERR_INVALID;
    for (int i = 0; i < r->s->n; i++) /* draw.c (003:129) */
        if (r->s->c[i].surprise)
            fact(r, D6_FACT_SURPRISE, i, -1, r->s->c[i].surprise, 0, 0, 0);
    return FRAY_OK;
}

/* ---- Checking a command --------------------------------------------------- */

static fray_status refuse(char *why, size_t size, const char *fmt, const char *a,
                          const char *b) {
    if (why && size)
        snprintf(why, size, fmt, a, b);
    return FRAY_ERR_INVALID;
}

fray_status d6_check_cmd(const d6_setup *s, const d6_state *st,
                         const d6_event *cmd, char *why, size_t size) {
    if (why && size)
        why[0] = '\0';
    if (!st->started || st->over)
        return refuse(why, size, "%s%s", "the fight is over", "");
    if (cmd->kind == D6_EV_BEGIN || cmd->kind >= D6_EV_KINDS)
        return refuse(why, size, "%s%s", "not a command", "");
    int a = d6_actor(st);
    if (cmd->kind == D6_EV_ROUND) {
        if (a >= 0)
            return refuse(why, size, "the round goes on: it is %s's turn%s",
                          s->c[a].name, "");
        return FRAY_OK;
    }
    if (cmd->actor < 0 || cmd->actor >= s->n)
        return refuse(why, size, "%s%s", "nobody to act", "");
    if (cmd->kind == D6_EV_QUICK_DRAW) /* draw.c: before initiative (003:96) */
        return d6_quick_check(s, st, cmd, why, size);
    const char *an = s->c[cmd->actor].name;
    /* Waiting (core): one who waited may interrupt later in the round. */
    bool interrupt = cmd->actor != a && (st->c[cmd->actor].flags & D6_F_WAITING) &&
                     !d6_out(&st->c[cmd->actor]);
    if (interrupt && cmd->kind == D6_EV_WAIT)
        return refuse(why, size, "%s is waiting already%s", an, "");
    if (a < 0 && !interrupt)
        return refuse(why, size, "everyone has had a turn this round: the GM "
                                 "says next%s%s", "", "");
    if (cmd->actor != a && !interrupt)
        return refuse(why, size, "it is %s's turn, not %s's", s->c[a].name, an);
    a = cmd->actor;
    const d6_cstate *ca = &st->c[a];
    fray_status held = d6_grab_check(s, st, cmd, why, size); /* grabs.c */
    if (held == FRAY_OK)
        held = d6_holds_check(s, st, cmd, why, size); /* holds.c */
    if (held != FRAY_OK)
        return held;
    if (cmd->kind == D6_EV_READY) /* draw.c (003:101) */
        return d6_ready_check(s, st, cmd, why, size);
    if (cmd->kind == D6_EV_RUN || cmd->kind == D6_EV_BREAK ||
        (cmd->kind == D6_EV_ATTACK && cmd->trick)) { /* things.c */
        fray_status tk = d6_things_check(s, st, cmd, why, size);
        if (tk != FRAY_OK || cmd->kind != D6_EV_ATTACK)
            return tk;
    }
    if (ca->passive_round == st->round && st->round > 0 &&
        (cmd->kind == D6_EV_DEFEND || (cmd->kind == D6_EV_ATTACK && cmd->full)))
        return refuse(why, size, "%s was hit in the chest: passive defense only this "
                                 "round%s", an, ""); /* 003:82 */
    if (cmd->kind == D6_EV_POSTURE) { /* 003:91-93 */
        if (cmd->posture >= D6_POSTURES || cmd->posture == ca->posture)
            return refuse(why, size, "%s is %s already", an,
                          ca->posture == D6_POSTURE_PRONE ? "prone"
                          : ca->posture == D6_POSTURE_CROUCHING ? "crouching" : "standing");
        if (ca->down && cmd->posture != D6_POSTURE_STANDING)
            return refuse(why, size, "%s is down: it may only stand (an action)%s", an, "");
        return FRAY_OK;
    }
    if (ca->down && (cmd->kind == D6_EV_MOVE || cmd->kind == D6_EV_AIM))
        return refuse(why, size, "%s is down: standing takes its next action (`defend`, "
                                 "or an attack with one action more)%s", an, "");
    if (cmd->kind == D6_EV_MOVE && ca->posture == D6_POSTURE_PRONE)
        return refuse(why, size, "%s is prone: it stands (or crouches) before it moves%s",
                      an, "");
    if (cmd->kind == D6_EV_MOVE) {
        if (ca->flags & D6_F_MOVED)
            return refuse(why, size, "%s has already moved this turn%s", an, "");
        double dx = cmd->x - ca->x, dy = cmd->y - ca->y;
        int mv = d6_move_now(s, st, a); /* halved crouching (003:91) */
        if (sqrt(dx * dx + dy * dy) > mv + 1e-9) {
            char m[16];
            snprintf(m, sizeof m, "%d", mv);
            return refuse(why, size, "%s moves at most %s m a round (farther: `run`)",
                          an, m);
        }
        if (d6_point_refused(s, st, a, cmd->x, cmd->y, "move", why, size))
            return FRAY_ERR_INVALID; /* ruling 71 */
        return FRAY_OK;
    }
    if (cmd->kind == D6_EV_AIM) {
        int t = cmd->target;
        if (t < 0 || t >= s->n || t == a)
            return refuse(why, size, "%s has nobody to aim at there%s", an, "");
        if (d6_out(&st->c[t]))
            return refuse(why, size, "%s is out of the fight%s", s->c[t].name, "");
        if (d6_cover_of(s, st, t) == D6_COVER_FULL)
            return refuse(why, size, "%s is in full cover: nothing to aim at%s",
                          s->c[t].name, "");
        return FRAY_OK;
    }
    if (cmd->kind != D6_EV_ATTACK)
        return FRAY_OK;
    int t = cmd->target;
    if (t < 0 || t >= s->n || t == a)
        return refuse(why, size, "%s has nobody to attack there%s", an, "");
    if (d6_out(&st->c[t]))
        return refuse(why, size, "%s is out of the fight%s", s->c[t].name, "");
    if (cmd->actions < 1 || cmd->actions > D6_MAX_ACTIONS)
        return refuse(why, size, "%s may declare 1 to 4 actions a round%s", an, "");
    if (cmd->full && cmd->actions < 2)
        return refuse(why, size, "%s needs 2 actions or more to attack and dodge%s",
                      an, "");
    if (cmd->actions < 1 + (cmd->full ? 1 : 0) + d6_stand_actions(st, a))
        return refuse(why, size, "%s is down: standing takes one of its actions "
                                 "(declare `actions %s`)", an, cmd->full ? "3" : "2");
    int w = cmd->grab ? -1 : d6_quick_weapon(s, st, a, cmd->weapon); /* draw.c */
    if (d6_quick_attack_check(s, st, cmd, why, size) != FRAY_OK)
        return FRAY_ERR_INVALID;
    if (cmd->weapon == D6_BOTH_HANDS && d6_both_check(s, st, cmd, why, size) != FRAY_OK)
        return FRAY_ERR_INVALID; /* draw.c (003:89) */
    if (cmd->weapon >= 0 && cmd->weapon != s->c[a].b.weapon &&
        cmd->weapon != s->c[a].b.off_hand &&
        !(d6_quick_now(st, a) && cmd->weapon == st->c[a].qd_weapon) &&
        d6_ready_cost(s, st, a, cmd->weapon) == 0 && cmd->weapon != st->c[a].ready_w - 1)
        return refuse(why, size, "%s does not hold the %s", an, s->w[cmd->weapon].name);
    if (d6_cover_of(s, st, t) == D6_COVER_FULL)
        return refuse(why, size, "%s is in full cover: no direct attack on it%s",
                      s->c[t].name, "");
    bool lunge_reach = false; /* options.c: seed 003's attack options */
    fray_status ok = d6_check_options(s, st, cmd, w, is_ranged(s, w), &lunge_reach, why, size);
    if (ok != FRAY_OK)
        return ok;
    if (d6_band(s, w, d6_distance(st, a, t)) == D6_BAND_BEYOND && !lunge_reach)
        return refuse(why, size, is_ranged(s, w) ? "%s is beyond Long range of %s"
                                                 : "%s is out of reach of %s",
                      s->c[t].name, an);
    return FRAY_OK;
}

/* ---- Applying -------------------------------------------------------------- */

static void end_turn(d6_state *st) {
    while (st->pos < st->n_order && d6_out(&st->c[st->order[st->pos]]))
        st->pos++;
    if (st->pos < st->n_order)
        st->c[st->order[st->pos]].flags &= (uint8_t)~D6_F_MOVED;
    for (st->pos++; st->pos < st->n_order && d6_out(&st->c[st->order[st->pos]]);)
        st->pos++;
}

static void check_over(d6_run *r) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    int side = -1, sides = 0;
    for (int i = 0; i < s->n; i++) {
        if (d6_out(&st->c[i]) || s->c[i].side == side)
            continue;
        bool seen = false;
        for (int j = 0; j < i; j++)
            if (!d6_out(&st->c[j]) && s->c[j].side == s->c[i].side)
                seen = true;
        if (!seen) {
            sides++;
            side = s->c[i].side;
        }
    }
    if (sides > 1)
        return;
    st->over = true;
    st->winner = (int8_t)(sides == 1 ? side : -2);
    fact(r, D6_FACT_END, -1, -1, st->winner, 0, 0, 0);
}

int d6_wound_after(int now, int excess) {
    if (excess <= 0)
        return now;
    int got = excess <= 3    ? D6_W_STUNNED
              : excess <= 8  ? D6_W_WOUNDED
              : excess <= 12 ? D6_W_INCAP
              : excess <= 15 ? D6_W_MORTAL
                             : D6_W_DEAD;
    if (got == D6_W_WOUNDED && now == D6_W_WOUNDED)
        return D6_W_SEVERE;
    if (now > D6_W_NONE && got <= now)
        return now + 1 < D6_W_LEVELS ? now + 1 : D6_W_DEAD;
    return got;
}

/* A modifier of `dice` dice: its standard value (+3 a die) or rolled by
 * the GM (modifiers: roll). */
static bool modifier(d6_run *r, int who, int dice, int *out) {
    if (dice <= 0 || !r->s->o.modifiers_roll) {
        *out = 3 * dice;
        return true;
    }
    d6_code c = {dice, 0};
    return roll(r, c, r->s->o.modifier_wild, who, D6_ROLL_MODIFIER, out);
}

static int cover_dice(int cover) {
    return cover == D6_COVER_QUARTER ? 1 : cover == D6_COVER_HALF ? 2
           : cover == D6_COVER_THREE_QUARTERS ? 4 : 0;
}

static const int band_mod[] = {-5, 0, 5, 10, 0};

/* The defense an attack meets: passive 10, or the active defense made
 * (a parry stands against melee attacks only). */
static int defense_of(const d6_cstate *c, bool ranged) {
    return c->defense == D6_DEF_NONE || (c->def_parry && ranged) ? 10 : c->def_total;
}

int d6_parry_skill(const d6_setup *s, int i) {
    int w = d6_weapon_of(s, i);
    return w >= 0 && !is_ranged(s, w) ? s->w[w].skill : D6_SK_FIGHTING;
}

int d6_difficulty_standard(const d6_setup *s, const d6_state *st, int t,
                           int band, bool ranged) {
    const d6_cstate *c = &st->c[t];
    int d = defense_of(c, ranged);
    if (ranged)
        d += band_mod[band] + 3 * s->light;
    d += 3 * cover_dice(d6_cover_of(s, st, t));
    return d < 3 ? 3 : d;
}

static bool stay_up(d6_run *r, int t) {
    d6_code st = d6_skill_code(r->s, t, D6_SK_STAMINA),
            me = d6_skill_code(r->s, t, D6_SK_METTLE);
    d6_code c = code_value(me) > code_value(st) ? me : st;
    int tot;
    if (!roll(r, c, true, t, D6_ROLL_STAY_UP, &tot))
        return false;
    bool up = tot >= 15;
    fact(r, D6_FACT_STAY_UP, t, -1, tot, 15, up, 0);
    if (up)
        r->st->c[t].flags |= D6_F_UP;
    else
        r->st->c[t].flags |= D6_F_OUT;
    return true;
}

/* Damage total `dmg` on t from a: resistance rolled, the health system's
 * result. */
static bool harm(d6_run *r, int a, int t, int dmg, const d6_event *ev, int margin) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    d6_cstate *c = &st->c[t];
    const d6_block *b = &s->c[t].b;
    d6_code res = {0, 0};
    if (b->armour >= 0 && b->armour < s->n_armour)
        res = s->ar[b->armour].code;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    res = d6_code_add(res, wounds ? b->attr[D6_PHYSIQUE] : b->resistance);
    int rt = 0;
    if (res.dice > 0 || res.pips != 0) {
        if (!roll(r, res, true, t, D6_ROLL_RESIST, &rt))
            return false;
    }
    rt += r->scale_res; /* scale.c: a smaller attacker (003:105) */
    r->scale_res = 0;
    int excess = dmg - rt;
    int wound_before = c->wound, bp_before = c->bp; /* things.c: D7.9 */
    bool ko_option = ev && ev->option == D6_OPT_KNOCKOUT, ko = false;
    if (wounds) {
        int before = c->wound;
        int now = d6_wound_after(before, excess);
        if (ko_option) { /* 003:87, D7.5: threshold on the full result, then half */
            ko = now - before >= 2;
            now = before + (now - before) / 2;
        }
        c->wound = (uint8_t)now;
        if (now == D6_W_STUNNED && excess > 0)
            c->stun_round = st->round + 1;
        fact(r, D6_FACT_DAMAGE, t, a, dmg, rt, now, 0);
        if (now >= D6_W_MORTAL) {
            c->flags |= D6_F_OUT;
        } else if (ko) {
            c->flags |= D6_F_OUT;
            fact(r, D6_FACT_KNOCKOUT, t, a, margin > 1 ? margin : 1, 0, 0, 0); /* D7.20 */
        } else if (now == D6_W_INCAP && before != D6_W_INCAP) {
            if (!stay_up(r, t))
                return false;
        }
        if (d6_out(c))
            fact(r, D6_FACT_OUT, t, a, now, 0, 0, 0);
    } else {
        int lost = excess;
        if (ko_option && excess > 0) { /* 003:87, D7.5 */
            ko = 2 * excess >= s->c[t].b.body_points;
            lost = excess / 2;
        }
        if (lost > 0)
            c->bp = (int16_t)(c->bp > lost ? c->bp - lost : 0);
        fact(r, D6_FACT_DAMAGE, t, a, dmg, rt, c->bp, 0);
        if (ko && c->bp > 0) {
            c->flags |= D6_F_OUT;
            fact(r, D6_FACT_KNOCKOUT, t, a, margin > 1 ? margin : 1, 0, 0, 0); /* D7.20 */
        } else if (c->bp <= 0) {
            c->flags |= D6_F_OUT;
            fact(r, D6_FACT_OUT, t, a, c->bp, 0, 0, 0); /* its Body Points: 0 */
        }
    }
    /* things.c: where it lands (D7.10), and whether it lasts (D7.9) */
    int loc = d6_lasting_location(s, st, t, ev, excess, wound_before, bp_before - c->bp);
    if (loc) {
        d6_location_effect(st, t, loc);
        fact(r, D6_FACT_LOCATION, t, a, loc, 0, 0, 0);
    }
    return true;
}

static d6_code penalised(d6_code c, int dice) {
    d6_code p = {-dice, 0};
    return d6_code_add(c, p);
}

static bool defend(d6_run *r, int a, bool full, bool parry, int pen) {
    d6_cstate *c = &r->st->c[a];
    int tot;
    int skill = parry ? d6_parry_skill_now(r->s, r->st, a) : D6_SK_DODGE;
    pen += d6_agility_take(r->st, a, skill); /* a stumble (003:8) */
    if (!roll(r, penalised(d6_skill_code(r->s, a, skill), pen), true, a,
              D6_ROLL_DEFENSE, &tot))
        return false;
    tot -= d6_part_penalty(r->st, a, skill); /* a hurt hand parrying (003:84) */
    c->defense = full ? D6_DEF_FULL : D6_DEF_PARTIAL;
    c->def_total = (int16_t)(full ? tot + 10 : tot);
    c->def_parry = parry;
    fact(r, D6_FACT_DEFENSE, a, -1, c->def_total, c->defense, tot, parry);
    return true;
}

static bool attack_once(d6_run *r, int a, int t, int w, int pen, int aim,
                        const d6_event *ev) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    /* the terms the chances at the table count too (chances.c) */
    d6_attack_terms_t T;
    d6_attack_terms(s, st, a, t, w, &T);
    int skill = w >= 0 ? s->w[w].skill : D6_SK_FIGHTING;
    int trick = r->trick_bonus; /* things.c: this attack only (003:5) */
    r->trick_bonus = 0;
    int at;
    pen += d6_agility_take(st, a, skill); /* a stumble (003:8) */
    if (!roll(r, penalised(T.skill, pen - aim), true, a, D6_ROLL_ATTACK, &at))
        return false;
    at -= d6_part_penalty(st, a, skill); /* a hurt hand or arm (003:84) */
    at += T.scale_attack;
    int diff = T.base + T.scale_difficulty;
    int dice = T.cover_dice + T.light_dice + d6_grab_dice(ev->grab); /* 003:30 */
    int m = 0;
    if (!modifier(r, a, dice, &m))
        return false;
    diff += m;
    int op = 0, om = 0, ostd = 0, odmg = 0; /* options.c (003:27-46) */
    d6_attack_mods(ev, d6_sight_of(s, ev, a, t), &op, &om, &ostd, &odmg);
    if (!r->s->o.modifiers_roll) {
        diff += ostd;
    } else {
        int up = 0, down = 0;
        if (!modifier(r, a, op, &up) || !modifier(r, a, om, &down))
            return false;
        diff += up - down;
    }
    if (w >= 0)
        diff += s->w[w].unwieldy; /* 003:131 */
    const d6_modifier_row *pr = d6_posture_row(st, t, T.ranged ? T.band : D6_BAND_POINT_BLANK);
    if (pr) { /* 003:91-92 */
        int pm = 0;
        if (!r->s->o.modifiers_roll)
            pm = pr->standard;
        else if (!modifier(r, a, pr->dice > 0 ? pr->dice : -pr->dice, &pm))
            return false;
        else if (pr->dice < 0)
            pm = -pm;
        diff += pm;
    }
    if (diff < 3)
        diff = 3; /* 003:2 */
    bool hit = at >= diff;
    if (r->facts) {
        d6_scale_adj sc; /* scale.c (003:103-127), told */
        d6_scale_attack(s, a, t, w, &sc);
        if (sc.hit_mod || sc.damage_mod)
            fact(r, D6_FACT_SCALE, a, t, sc.hit_mod, sc.difficulty > 0, sc.damage_mod,
                 sc.damage ? 1 : sc.resistance ? 0 : -1);
    }
    fact(r, D6_FACT_ATTACK, a, t, at, diff, hit, T.ranged ? T.band : D6_BAND_BEYOND);
    if (!hit)
        return true;
    if (ev->disarm)
        return d6_disarm_hit(r, a, t, w, at, diff); /* holds.c (003:61) */
    if (ev->grab)
        return d6_grab_hit(r, a, t, at, diff);
    if (ev->option == D6_OPT_KNOCKDOWN || ev->option == D6_OPT_PUSH) {
        /* 003:8: no damage; -2D off its next Agility roll; down */
        st->c[t].agility_dice = 2;
        if (ev->option == D6_OPT_KNOCKDOWN && !st->c[t].down)
            st->c[t].down = D6_GROUND_STAND;
        if (st->c[t].down)
            st->c[t].posture = D6_POSTURE_PRONE; /* 003:93: forced down */
        fact(r, D6_FACT_STUMBLE, t, a, 2, ev->option == D6_OPT_KNOCKDOWN, 0, 0);
        return true;
    }
    d6_code dc = T.damage;
    d6_code od = {odmg, 0};
    dc = d6_code_add(dc, od);
    if (dc.dice < 0 || (dc.dice == 0 && dc.pips < 0))
        dc = (d6_code){0, 0}; /* docs/rules/d6.md: damage never below none */
    int dmg = 0;
    if (!roll(r, dc, true, a, D6_ROLL_DAMAGE, &dmg))
        return false;
    if (s->o.damage_bonus)
        dmg += (at - diff + 4) / 5; /* core: (total - difficulty) / 5, rounded up */
    if (ev->location) { /* 003:73-78: added to the damage total */
        dmg += d6_location_row(ev->location)->damage_pips;
        if (dmg < 0)
            dmg = 0;
    }
    dmg += T.scale_damage;
    dmg += trick;
    if (w >= 0 && s->w[w].entangling)
        return d6_entangle_hit(r, a, t, dmg); /* grabs.c, 003:63 */
    r->scale_res = T.scale_resistance;
    return harm(r, a, t, dmg, ev, at - diff);
}

static fray_status done(d6_run *r) {
    return r->failed != FRAY_OK ? r->failed : FRAY_ERR_INVALID;
}

fray_status d6_apply(d6_run *r) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    d6_event *ev = r->ev;
    int a = ev->actor;
    if (ev->kind == D6_EV_ROUND) {
        for (int i = 0; i < s->n; i++)
            st->c[i].flags &= (uint8_t)~D6_F_WAITING; /* a wait not used is lost */
        st->round++;
        if (!d6_mortal_rolls(r)) /* things.c (core) */
            return done(r);
        fact(r, D6_FACT_ROUND, -1, -1, st->round, 0, 0, 0);
        if (!initiative(r, s->o.initiative == D6_INIT_ROUND))
            return done(r);
        return FRAY_OK;
    }
    if (ev->kind == D6_EV_QUICK_DRAW) { /* draw.c: no turn spent */
        d6_quick_apply(s, st, ev,
                       r->facts && ev->n_facts < D6_EV_FACTS ? &ev->facts[ev->n_facts++] : NULL);
        return FRAY_OK;
    }
    d6_cstate *ca = &st->c[a];
    bool interrupt = a != d6_actor(st);
    if (interrupt) {
        ca->flags &= (uint8_t)~D6_F_WAITING;
        fact(r, D6_FACT_INTERRUPT, a, -1, 0, 0, 0, 0);
    } else if (!(ca->flags & D6_F_MOVED)) {
        ca->defense = D6_DEF_NONE; /* an active defense lasts to its next turn */
        ca->def_total = 0;
        ca->def_parry = false;
    }
    /* waiting counts as an action (core): the interrupt is a second one */
    int pen = d6_wound_penalty(s, st, a) + (interrupt ? 1 : 0) -
              d6_surprise_bonus(s, st, a, interrupt); /* draw.c: +1D (003:129) */
    /* Aiming (core): +1D a round, up to +3D, to its next attack on the one
     * it aimed at; any other action spends it. */
    int aim = ca->aim_dice;
    int aimed = ca->aim_target;
    if (ev->kind != D6_EV_AIM && ev->kind != D6_EV_POSTURE) { /* a free posture keeps it */
        ca->aim_dice = 0;
        ca->aim_target = 0;
    }
    switch (ev->kind) {
    case D6_EV_AIM:
        if (aim > 0 && aimed == ev->target) {
            ca->aim_dice = (uint8_t)(aim < 3 ? aim + 1 : 3);
        } else {
            ca->aim_target = ev->target;
            ca->aim_dice = 1;
        }
        fact(r, D6_FACT_AIM, a, ev->target, ca->aim_dice, 0, 0, 0);
        break;
    case D6_EV_ATTACK: {
        int w = ev->grab ? -1 : d6_quick_weapon(s, st, a, ev->weapon);
        /* each action beyond the first: -1D (core); quick draw: draw.c */
        pen += d6_quick_penalty(st, a, ev->actions);
        int draw = ev->weapon >= 0 ? d6_ready_cost(s, st, a, ev->weapon) : 0;
        pen += draw; /* drawn and used this round: its actions too (003:101) */
        if (ev->weapon >= 0 && (draw > 0 || d6_quick_now(st, a)))
            d6_ready_now(s, st, a, ev->weapon,
                         r->facts && ev->n_facts < D6_EV_FACTS ? &ev->facts[ev->n_facts++] : NULL);
        int n = ev->actions;
        if (ev->full) {
            if (!defend(r, a, false, ev->parry != 0, pen))
                return done(r);
            n--;
        }
        if (ca->down) { /* 003:8: one of its actions stands it up */
            ca->down = false;
            ca->posture = D6_POSTURE_STANDING;
            fact(r, D6_FACT_STAND, a, -1, 0, 0, 0, 0);
            n--;
        }
        if (ev->trick) { /* things.c: one action of its own (003:5) */
            if (!d6_trick_roll(r, a, pen))
                return done(r);
            n--;
        }
        int sight = d6_sight_of(s, ev, a, ev->target);
        if (ev->option || ev->called || sight || ev->location) {
            int op, om, ostd, odmg;
            d6_attack_mods(ev, sight, &op, &om, &ostd, &odmg);
            fact(r, D6_FACT_OPTION, a, ev->target, ev->option, ev->called, ostd,
                 ev->disarm ? 0 : odmg); /* a disarm adds no damage (holds.c) */
        }
        for (int k = 0; k < n && !d6_out(&st->c[ev->target]); k++)
            if (!attack_once(r, a, ev->target, d6_hand_weapon(s, a, ev->weapon, w, k), pen,
                             k == 0 && aimed == ev->target ? aim : 0, ev))
                return done(r);
        break;
    }
    case D6_EV_DEFEND:
        if (ca->down) { /* 003:8: standing is an action: -1D to the defense */
            ca->down = false;
            ca->posture = D6_POSTURE_STANDING;
            fact(r, D6_FACT_STAND, a, -1, 0, 0, 0, 0);
            pen++;
        }
        if (!defend(r, a, ev->full != 0, ev->parry != 0, pen))
            return done(r);
        break;
    case D6_EV_MOVE: {
        double dx = ev->x - ca->x, dy = ev->y - ca->y;
        int mv = d6_move_now(s, st, a); /* halved crouching (003:91) */
        if (ca->posture == D6_POSTURE_CROUCHING && (dx != 0 || dy != 0))
            ca->crouch_moved = st->round;
        bool free_move = 2.0 * sqrt(dx * dx + dy * dy) <= mv + 1e-9;
        ca->x = ev->x;
        ca->y = ev->y;
        d6_grab_release_mover(r, a); /* a holder who moves lets go */
        fact(r, D6_FACT_MOVE, a, -1, ev->x, ev->y, !free_move || interrupt, 0);
        if (free_move && !interrupt) {
            ca->flags |= D6_F_MOVED; /* half its Move or less: no action */
            return FRAY_OK;
        }
        break;
    }
    case D6_EV_WAIT:
        ca->flags |= D6_F_WAITING;
        break;
    case D6_EV_READY: /* draw.c (003:101): the turn */
        d6_ready_now(s, st, a, ev->weapon,
                     r->facts && ev->n_facts < D6_EV_FACTS ? &ev->facts[ev->n_facts++] : NULL);
        break;
    case D6_EV_SQUEEZE:
    case D6_EV_ESCAPE:
    case D6_EV_BREAK_FREE:
    case D6_EV_SLIP_FREE:
    case D6_EV_GET_UP:
        if (!d6_grab_apply(r))
            return done(r);
        break;
    case D6_EV_RUN: /* things.c */
    case D6_EV_BREAK:
        if (!d6_things_apply(r))
            return done(r);
        break;
    case D6_EV_PIN: /* holds.c (003:15-24) */
    case D6_EV_SLAM:
        if (!d6_holds_apply(r, pen))
            return done(r);
        break;
    case D6_EV_POSTURE: /* 003:93: free when willing; standing when down an action */
        if (ca->down) { /* after a flip, its whole turn (003:13, D7.7) */
            fact(r, ca->down == D6_GROUND_FLIP ? D6_FACT_GET_UP : D6_FACT_STAND, a, -1, 0, 0,
                 0, 0);
            ca->down = D6_GROUND_NO;
            ca->posture = D6_POSTURE_STANDING;
            break;
        }
        ca->posture = ev->posture;
        fact(r, D6_FACT_POSTURE, a, -1, ev->posture, 0, 0, 0);
        return FRAY_OK;
    default:
        return FRAY_ERR_INVALID;
    }
    check_over(r);
    if (!st->over && !interrupt)
        end_turn(st);
    return FRAY_OK;
}

/* ---- The tactics ------------------------------------------------------------ */

static bool hurt(const d6_setup *s, const d6_state *st, int i, bool badly) {
    const d6_cstate *c = &st->c[i];
    if (s->o.health == D6_HEALTH_WOUNDS)
        return c->wound >= (badly ? D6_W_SEVERE : D6_W_WOUNDED);
    int max = s->c[i].b.body_points;
    return max > 0 && c->bp * (badly ? 4 : 2) < max;
}

void d6_choose(const d6_setup *s, const d6_state *st, d6_event *cmd) {
    memset(cmd, 0, offsetof(d6_event, dice));
    cmd->actor = cmd->target = -1;
    cmd->weapon = -1;
    int a = d6_actor(st);
    if (a < 0) {
        cmd->kind = D6_EV_ROUND;
        return;
    }
    cmd->actor = (int8_t)a;
    if (d6_grab_choose(s, st, a, cmd))
        return;
    int w = d6_weapon_now(s, st, a); /* holds.c: none once knocked away */
    bool ranged = is_ranged(s, w);
    int best = -1, nearest = -1, near_d = 0, in_reach = 0, friends = 0;
    for (int i = 0; i < s->n; i++) {
        if (d6_out(&st->c[i]))
            continue;
        if (s->c[i].side == s->c[a].side) {
            friends += i != a;
            continue;
        }
        if (d6_cover_of(s, st, i) == D6_COVER_FULL)
            continue;
        int d = d6_distance(st, a, i);
        if (nearest < 0 || d < near_d) {
            nearest = i;
            near_d = d;
        }
        if (d <= 3)
            in_reach++;
        if (d6_band(s, w, d) == D6_BAND_BEYOND)
            continue;
        if (best < 0) {
            best = i;
            continue;
        }
        if (ranged) {
            if (d < d6_distance(st, a, best))
                best = i;
        } else if (st->c[i].wound > st->c[best].wound ||
                   (st->c[i].wound == st->c[best].wound && st->c[i].bp < st->c[best].bp)) {
            best = i;
        }
    }
    bool moved = (st->c[a].flags & D6_F_MOVED) != 0;
    /* parry rather than dodge when its parry is the better code and no
     * foe still in the fight shoots */
    bool shooters = false;
    for (int i = 0; i < s->n; i++)
        if (!d6_out(&st->c[i]) && s->c[i].side != s->c[a].side &&
            is_ranged(s, d6_weapon_now(s, st, i)))
            shooters = true;
    uint8_t parry = !shooters && code_value(d6_skill_code(s, a, d6_parry_skill_now(s, st, a))) >
                                     code_value(d6_skill_code(s, a, D6_SK_DODGE));
    cmd->parry = parry;
    bool passive = st->c[a].passive_round == st->round; /* 003:82 */
    if (hurt(s, st, a, true) && friends > 0 && in_reach > 0 && !moved && !passive) {
        cmd->kind = D6_EV_DEFEND;
        cmd->full = 1;
        return;
    }
    if (best >= 0) {
        cmd->kind = D6_EV_ATTACK;
        cmd->target = (int8_t)best;
        cmd->actions = 1;
        if ((in_reach >= 2 || hurt(s, st, a, false)) && !passive) {
            cmd->actions = 2; /* attack and dodge (or parry) */
            cmd->full = 1;
        } else {
            cmd->parry = 0;
        }
        cmd->actions = (uint8_t)(cmd->actions + d6_stand_actions(st, a)); /* 003:8 */
        cmd->option = (uint8_t)d6_tactic_option(s, st, a, best, w); /* options.c */
        return;
    }
    cmd->parry = 0;
    if (nearest < 0 || moved) {
        cmd->kind = D6_EV_WAIT;
        return;
    }
    /* Close: to 1 m of a melee foe, or into Long range of a shot. */
    int want = ranged ? near_d - s->w[w].range[2] : near_d - 1;
    int mv = d6_move_now(s, st, a); /* halved crouching, as the move check (003:91) */
    if (!st->c[a].down && d6_run_choose(s, st, a, nearest, want, cmd)) /* tactics-run */
        return;
    /* half its Move or less free, else up to its Move; never onto or past
     * the foe, nor onto anyone's point (close.c, ruling 69) */
    double step = want < mv ? want : mv;
    cmd->kind = d6_close_point(st, a, nearest, step, &cmd->x, &cmd->y) ? D6_EV_MOVE
                                                                         : D6_EV_WAIT;
    if (st->c[a].down) { /* 003:8: down, it stands (a defense) first */
        cmd->kind = passive ? D6_EV_WAIT : D6_EV_DEFEND;
        cmd->full = 0;
    }
}

/* ---- For the chances at the table (chances.c) -------------------------------- */

/* The terms attack_once and harm take for an attack of a on t with weapon
 * w (-1 unarmed) now: the same defense, band, cover, light and codes. */
void d6_attack_terms(const d6_setup *s, const d6_state *st, int a, int t, int w,
                     d6_attack_terms_t *out) {
    memset(out, 0, sizeof *out);
    out->ranged = is_ranged(s, w);
    out->band = d6_band(s, w, d6_distance(st, a, t));
    int skill = w >= 0 ? s->w[w].skill : D6_SK_FIGHTING;
    out->skill = d6_skill_code(s, a, skill);
    out->defense = defense_of(&st->c[t], out->ranged);
    out->base = out->defense;
    out->cover_dice = cover_dice(d6_cover_of(s, st, t));
    if (out->ranged) {
        out->band_mod = band_mod[out->band];
        out->base += out->band_mod;
        out->light_dice = s->light;
    }
    d6_code dc = {0, 0};
    if (w >= 0)
        dc = s->w[w].damage;
    if (w < 0 || s->w[w].strength)
        dc = d6_code_add(dc, d6_strength_damage(d6_skill_code(s, a, D6_SK_LIFTING)));
    out->damage = dc;
    const d6_block *b = &s->c[t].b;
    d6_code res = {0, 0};
    if (b->armour >= 0 && b->armour < s->n_armour)
        res = s->ar[b->armour].code;
    out->resistance = d6_code_add(res, s->o.health == D6_HEALTH_WOUNDS
                                           ? b->attr[D6_PHYSIQUE] : b->resistance);
    d6_code sta = d6_skill_code(s, t, D6_SK_STAMINA), me = d6_skill_code(s, t, D6_SK_METTLE);
    out->stay_up = code_value(me) > code_value(sta) ? me : sta;
    d6_scale_adj sc; /* scale.c (003:103-127) */
    d6_scale_attack(s, a, t, w, &sc);
    out->scale_attack = sc.attack;
    out->scale_difficulty = sc.difficulty;
    out->scale_damage = sc.damage;
    out->scale_resistance = sc.resistance;
}

/* ---- For grabs.c ------------------------------------------------------------ */

bool d6_run_roll(d6_run *r, d6_code c, bool wild, int who, int what, int *total) {
    return roll(r, c, wild, who, what, total);
}
void d6_run_fact(d6_run *r, int kind, int who, int other, int a, int b, int c, int d) {
    fact(r, kind, who, other, a, b, c, d);
}
bool d6_run_harm(d6_run *r, int a, int t, int dmg) { return harm(r, a, t, dmg, NULL, 0); }
bool d6_run_modifier(d6_run *r, int who, int dice, int *out) {
    return modifier(r, who, dice, out);
}

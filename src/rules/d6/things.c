/*
 * things.c - what is left of D6's rules (docs/rules/d6.md "Things,
 * tricks, running, the dying"): breaking things and object Toughness
 * (003:51-59, checklist D7.6), acrobatic tricks (003:5, D7.17), running
 * (core), the Mortally Wounded's Physique rolls (core), the long weapon's
 * Short reach (core), where an uncalled hit lands (D7.10) and the
 * threshold of a location's lasting effect (D7.9). Rulings 50 to 59.
 */
#include "d6_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "yaml_read.h"

static fray_status no(char *why, size_t size, const char *fmt, const char *a,
                      const char *b) {
    if (why && size)
        snprintf(why, size, fmt, a, b);
    return FRAY_ERR_INVALID;
}

static long value(d6_code c) { return (long)c.dice * 3 + c.pips; }

int d6_move_of(const d6_setup *s, int i) {
    return s->c[i].b.move > 0 ? s->c[i].b.move : 10;
}

/* ---- Cover that breaks, reach ------------------------------------------- */

int d6_cover_of(const d6_setup *s, const d6_state *st, int t) {
    int o = s->c[t].cover_object - 1;
    if (o >= 0 && o < D6_MAX_OBJ && ((st->obj_broken >> o) & 1u))
        return D6_COVER_NONE; /* the object giving it is destroyed (003:51) */
    return s->c[t].cover;
}

/* Ruling 50 (core: "weapons over 2 m reach Short"): a melee weapon longer
 * than 2 m reaches Short, read as 3 m (Point Blank) plus its length. */
int d6_melee_reach(const d6_setup *s, int weapon) {
    if (weapon < 0 || weapon >= s->n_weapons)
        return 3;
    const d6_weapon *w = &s->w[weapon];
    if (w->range[2] > 0)
        return 0;
    return w->length_cm > 200 ? 3 + w->length_cm / 100 : 3;
}

/* ---- Objects in the encounter file --------------------------------------- */

/* 003:55-59, Object Toughness. */
static const struct {
    const char *word;
    int dice;
} toughness_rows[] = {
    {"flimsy", 1}, {"tough", 2}, {"sturdy", 3}, {"very sturdy", 4}, {"reinforced", 6},
};

bool d6_toughness_word(const char *w, d6_code *out) {
    for (size_t k = 0; k < sizeof toughness_rows / sizeof toughness_rows[0]; k++) {
        const char *a = w, *b = toughness_rows[k].word;
        for (; *a && *b; a++, b++) {
            char x = *a;
            if (x >= 'A' && x <= 'Z')
                x = (char)(x - 'A' + 'a');
            if (x == '-' || x == '_')
                x = ' ';
            if (x != *b)
                break;
        }
        if (!*a && !*b) {
            *out = (d6_code){toughness_rows[k].dice, 0};
            return true;
        }
    }
    return false;
}

int d6_object_of(const d6_setup *s, const char *w, size_t n) {
    for (int k = 0; k < s->n_objects; k++)
        if ((strlen(s->obj[k].id) == n && strncmp(s->obj[k].id, w, n) == 0) ||
            (strlen(s->obj[k].name) == n && yr_ieqn(w, n, s->obj[k].name)))
            return k;
    return -1;
}

static int combatant_of(const d6_setup *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->c[i].id, id) == 0)
            return i;
    return -1;
}

/* objects: [{id, name, toughness, at, cover, covers}]. */
static fray_status read_object(yr *r, d6_setup *s, const yn *it) {
    static const char *const keys[] = {"id", "name", "toughness", "at", "cover", "covers",
                                       "notes"};
    char b[64];
    if (it->type != YN_MAP)
        return yr_fail(r, it, FRAY_ERR_PARSE,
                       "expected an object (a mapping with id and toughness), got %s",
                       yr_got(it, b));
    fray_status st = yr_keys(r, it, "an object", keys, 7, false);
    if (st != FRAY_OK)
        return st;
    if (s->n_objects >= D6_MAX_OBJ)
        return yr_fail(r, it, FRAY_ERR_RANGE, "more than %d objects", D6_MAX_OBJ);
    struct d6_object o;
    memset(&o, 0, sizeof o);
    const yn *v = yr_get(it, "id");
    if (!v)
        return yr_missing(r, it, "id", "an object");
    if ((st = yr_text(r, v, "an object's id", o.id, sizeof o.id)) != FRAY_OK)
        return st;
    for (const char *p = o.id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return yr_fail(r, v, FRAY_ERR_PARSE,
                           "an id is lower-case letters, digits, '-' and '_': got '%.40s'", o.id);
    if (!o.id[0])
        return yr_fail(r, v, FRAY_ERR_PARSE, "an object's id cannot be empty");
    if (d6_object_of(s, o.id, strlen(o.id)) >= 0 || combatant_of(s, o.id) >= 0)
        return yr_fail(r, v, FRAY_ERR_PARSE, "the id '%.40s' is given twice", o.id);
    yr_copy(o.name, sizeof o.name, o.id);
    if ((v = yr_get(it, "name")) &&
        (st = yr_text(r, v, "an object's name", o.name, sizeof o.name)) != FRAY_OK)
        return st;
    v = yr_get(it, "toughness");
    if (!v)
        return yr_missing(r, it, "toughness",
                          "an object (flimsy, tough, sturdy, very sturdy, reinforced, or a "
                          "die code like 2D+1: 003:55-59)");
    if (v->type != YN_SCALAR || yr_is_null(v) ||
        (!d6_toughness_word(v->text, &o.toughness) && !d6_code_parse(v->text, &o.toughness)))
        return yr_fail(r, v, FRAY_ERR_PARSE,
                       "expected an object's toughness: flimsy, tough, sturdy, very sturdy, "
                       "reinforced (003:55-59) or a die code like 2D+1, got %s",
                       yr_got(v, b));
    if (value(o.toughness) < 1 || value(o.toughness) > 30 * 3)
        return yr_fail(r, v, FRAY_ERR_RANGE,
                       "an object's toughness is 0D+1 to 30D, got '%.20s'", v->text);
    if ((v = yr_get(it, "at"))) {
        if (v->type != YN_SEQ || v->n != 2)
            return yr_fail(r, v, FRAY_ERR_PARSE,
                           "at: expected where it stands in meters, [x, y], got %s",
                           yr_got(v, b));
        int xy[2];
        const yn *e = v->first;
        for (int i = 0; i < 2; i++, e = e->next)
            if ((st = yr_int(r, e, i ? "y (meters)" : "x (meters)", -10000, 10000, &xy[i])) !=
                FRAY_OK)
                return st;
        o.has_at = true;
        o.x = (int16_t)xy[0];
        o.y = (int16_t)xy[1];
    }
    int k = s->n_objects;
    int cover = D6_COVER_HALF;
    if ((v = yr_get(it, "cover"))) {
        static const char *const cw[] = {"none", "quarter", "half", "three-quarters", "full"};
        if ((st = yr_choice(r, v, "the cover it gives", cw, 5, &cover)) != FRAY_OK)
            return st;
    }
    if ((v = yr_get(it, "covers")) && !yr_is_null(v)) {
        for (const yn *e = yr_items(v); e; e = yr_next_item(v, e)) {
            char id[D6_NAME];
            if ((st = yr_text(r, e, "a combatant it covers", id, sizeof id)) != FRAY_OK)
                return st;
            int c = combatant_of(s, id);
            if (c < 0) {
                const char *names[D6_MAX_C];
                for (int i = 0; i < s->n; i++)
                    names[i] = s->c[i].id;
                return yr_unknown(r, e, "combatant", id, names, s->n, NULL);
            }
            if (s->c[c].cover_object)
                return yr_fail(r, e, FRAY_ERR_PARSE,
                               "%.40s is covered by another object already", s->c[c].name);
            if (s->c[c].cover != D6_COVER_NONE)
                return yr_fail(r, e, FRAY_ERR_PARSE,
                               "%.40s has its own cover in the combatants: give it here "
                               "(the object's cover) or there, not both", s->c[c].name);
            s->c[c].cover = (uint8_t)cover;
            s->c[c].cover_object = (int8_t)(k + 1);
        }
    }
    s->obj[k] = o;
    s->n_objects++;
    return FRAY_OK;
}

fray_status d6_read_objects(yr *r, d6_setup *s, const yn *list) {
    if (list->type != YN_SEQ)
        return yr_fail(r, list, FRAY_ERR_PARSE, "expected a list of objects");
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it)) {
        fray_status st = read_object(r, s, it);
        if (st != FRAY_OK)
            return st;
    }
    return FRAY_OK;
}

/* ---- Checking the commands ----------------------------------------------- */

int d6_trick_difficulty(const d6_setup *s) {
    return s->o.trick_difficulty ? s->o.trick_difficulty : 10; /* D7.17 */
}

/* The weapon a breaks with: the one named (in hand, off hand or readied),
 * else the one in hand; -1 bare hands; -2 not held. */
static int break_weapon(const d6_setup *s, const d6_state *st, int a, int w) {
    if (w < 0)
        return d6_weapon_of(s, a);
    if (w == s->c[a].b.weapon || w == s->c[a].b.off_hand || w == st->c[a].ready_w - 1)
        return w;
    return -2;
}

static double object_distance(const d6_setup *s, const d6_state *st, int a, int o) {
    double dx = st->c[a].x - s->obj[o].x, dy = st->c[a].y - s->obj[o].y;
    return sqrt(dx * dx + dy * dy);
}

/* Where a run toward (x, y) ends: the point itself, or `step` meters on
 * the line, in whole meters never farther than step. */
static void run_to(const d6_state *st, int a, int x, int y, double step, int16_t *ox,
                   int16_t *oy) {
    double dx = x - st->c[a].x, dy = y - st->c[a].y;
    double d = sqrt(dx * dx + dy * dy);
    if (d <= step + 1e-9) {
        *ox = (int16_t)x;
        *oy = (int16_t)y;
        return;
    }
    double k = step / d;
    double nx = st->c[a].x + dx * k, ny = st->c[a].y + dy * k;
    *ox = (int16_t)(dx >= 0 ? floor(nx) : ceil(nx));
    *oy = (int16_t)(dy >= 0 ? floor(ny) : ceil(ny));
}

/* The Move a walks or runs from: halved crouching (003:91). */
int d6_move_now(const d6_setup *s, const d6_state *st, int a) {
    return d6_move_of(s, a) / (st->c[a].posture == D6_POSTURE_CROUCHING ? 2 : 1);
}

/* Ruling 53: up to 2 x Move at 10, each further Move +5, at most 4 x Move. */
static int run_difficulty(double meters, int move) {
    int moves = (int)ceil(meters / move - 1e-9);
    return moves <= 2 ? 10 : 10 + 5 * (moves - 2);
}

fray_status d6_things_check(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                            char *why, size_t size) {
    int a = cmd->actor;
    const char *an = s->c[a].name;
    const d6_cstate *ca = &st->c[a];
    if (cmd->kind == D6_EV_ATTACK && cmd->trick) { /* 003:5 */
        int w = cmd->grab ? -1 : cmd->weapon >= 0 ? cmd->weapon : d6_weapon_of(s, a);
        if (w >= 0 && s->w[w].range[2] > 0)
            return no(why, size, "%s: an acrobatic trick adds to a fighting or melee attack, "
                                 "not a ranged one%s", an, "");
        if (cmd->grab)
            return no(why, size, "%s: an acrobatic trick adds to a blow's damage, not a "
                                 "grab's or a tackle's%s", an, "");
        if (cmd->option == D6_OPT_KNOCKDOWN || cmd->option == D6_OPT_PUSH ||
            cmd->option == D6_OPT_ALL_OUT)
            return no(why, size, "%s: an acrobatic trick takes an action of its own; %s",
                      an, cmd->option == D6_OPT_ALL_OUT
                              ? "an all-out attack allows no other action (003:6)"
                              : "a knockdown or push does no damage for it to add to");
        if (cmd->weapon == D6_BOTH_HANDS)
            return no(why, size, "%s: one trick affects one attack only (003:5): not an "
                                 "attack with both hands%s", an, "");
        int need = 2 + (cmd->full ? 1 : 0) + d6_stand_actions(st, a);
        if (cmd->actions < need) {
            char n[16];
            snprintf(n, sizeof n, "%d", need);
            return no(why, size, "%s: the trick is an action of its own, in the same turn as "
                                 "the attack (declare `actions %s`)", an, n);
        }
        return FRAY_OK;
    }
    if (cmd->kind == D6_EV_RUN) {
        if (d6_holder(st, a) >= 0)
            return no(why, size, "%s is held: it must escape before it runs%s", an, "");
        if (ca->down)
            return no(why, size, "%s is down: standing takes its next action%s", an, "");
        if (ca->posture == D6_POSTURE_PRONE)
            return no(why, size, "%s is prone: it stands before it runs%s", an, "");
        if (ca->flags & D6_F_MOVED)
            return no(why, size, "%s has already moved this turn%s", an, "");
        double dx = cmd->x - ca->x, dy = cmd->y - ca->y;
        double d = sqrt(dx * dx + dy * dy);
        int mv = d6_move_now(s, st, a);
        char m[16];
        if (d <= mv + 1e-9) {
            snprintf(m, sizeof m, "%d", mv);
            return no(why, size, "%s walks that far (%s m a round): `move`, not `run`", an, m);
        }
        if (d > 4.0 * mv + 1e-9) {
            snprintf(m, sizeof m, "%d", 4 * mv);
            return no(why, size, "%s runs at most %s m a round (four times its Move)", an, m);
        }
        if (d6_point_refused(s, st, a, cmd->x, cmd->y, "run", why, size))
            return FRAY_ERR_INVALID; /* ruling 71 */
        return FRAY_OK;
    }
    if (cmd->kind == D6_EV_BREAK) {
        int o = cmd->object - 1;
        if (o < 0 || o >= s->n_objects)
            return no(why, size, "%s has nothing to break there%s", an, "");
        const char *on = s->obj[o].name;
        if ((st->obj_broken >> o) & 1u)
            return no(why, size, "the %s is destroyed already%s", on, "");
        int w = break_weapon(s, st, a, cmd->weapon);
        if (w == -2)
            return no(why, size, "%s does not hold the %s (ready it first)", an,
                      s->w[cmd->weapon].name);
        if (s->obj[o].has_at) {
            double d = object_distance(s, st, a, o);
            int reach = w >= 0 && s->w[w].range[2] > 0 ? s->w[w].range[2] : d6_melee_reach(s, w);
            if (d > reach + 1e-9)
                return no(why, size, "the %s is out of %s's reach", on, an);
        }
        return FRAY_OK;
    }
    return FRAY_OK;
}

/* ---- Applying ---------------------------------------------------------- */

static d6_code less_dice(d6_code c, int dice) {
    d6_code m = {-dice, 0};
    c = d6_code_add(c, m);
    if (c.dice < 0 || (c.dice == 0 && c.pips < 0))
        c = (d6_code){0, 0};
    return c;
}

static bool do_run(d6_run *r) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    const d6_event *ev = r->ev;
    int a = ev->actor;
    d6_cstate *ca = &st->c[a];
    int mv = d6_move_now(s, st, a);
    double dx = ev->x - ca->x, dy = ev->y - ca->y;
    double d = sqrt(dx * dx + dy * dy);
    int diff = run_difficulty(d, mv);
    int pen = d6_wound_penalty(s, st, a) + d6_agility_take(st, a, D6_SK_RUNNING);
    int total;
    if (!d6_run_roll(r, less_dice(d6_skill_code(s, a, D6_SK_RUNNING), pen), true, a,
                     D6_ROLL_RUN, &total))
        return false;
    total -= d6_part_penalty(st, a, D6_SK_RUNNING); /* a hurt leg (003:83) */
    bool made = total >= diff;
    int16_t x, y;
    /* Ruling 54: a failed running roll covers the Move only, on the line;
     * ruling 72: on a free point, a meter shorter each time one is taken
     * (the point run to is free: d6_check_cmd, ruling 71). */
    run_to(st, a, ev->x, ev->y, made ? d : mv, &x, &y);
    for (int k = mv - 1; !made && k >= 0 && d6_point_taken(st, a, x, y); k--) {
        if (k == 0) {
            x = ca->x;
            y = ca->y;
        } else {
            run_to(st, a, ev->x, ev->y, k, &x, &y);
        }
    }
    double cx = x - ca->x, cy = y - ca->y;
    int covered = (int)floor(sqrt(cx * cx + cy * cy) + 1e-9);
    if (ca->posture == D6_POSTURE_CROUCHING && (x != ca->x || y != ca->y))
        ca->crouch_moved = st->round; /* 003:91 */
    ca->x = x;
    ca->y = y;
    d6_grab_release_mover(r, a); /* a holder who runs lets go */
    d6_run_fact(r, D6_FACT_RUN, a, -1, total, diff, covered, made);
    d6_run_fact(r, D6_FACT_MOVE, a, -1, x, y, 1, 0);
    return true;
}

static bool do_break(d6_run *r) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    const d6_event *ev = r->ev;
    int a = ev->actor, o = ev->object - 1;
    int w = break_weapon(s, st, a, ev->weapon);
    d6_code dc = {0, 0};
    if (w >= 0)
        dc = s->w[w].damage;
    if (w < 0 || s->w[w].strength)
        dc = d6_code_add(dc, d6_strength_damage(d6_skill_code(s, a, D6_SK_LIFTING)));
    int dmg = 0, res = 0;
    /* D7.6: the damage total, against the object's Toughness roll */
    if (!d6_run_roll(r, dc, true, a, D6_ROLL_DAMAGE, &dmg))
        return false;
    d6_code t = less_dice(s->obj[o].toughness, st->obj_weak[o]);
    if (value(t) > 0 && !d6_run_roll(r, t, true, a, D6_ROLL_TOUGHNESS, &res))
        return false;
    int excess = dmg - res, result = D6_BREAK_NONE;
    if (excess >= 10) { /* 003:51: "at least 10 points above" */
        st->obj_broken |= 1u << o;
        result = D6_BREAK_DESTROYED;
    } else if (excess > 0) { /* ruling 52: weakened, -1D Toughness */
        if (st->obj_weak[o] < 60)
            st->obj_weak[o]++;
        result = D6_BREAK_WEAKENED;
    }
    d6_run_fact(r, D6_FACT_BREAK, a, -1, o, dmg, res, result);
    return true;
}

bool d6_things_apply(d6_run *r) {
    return r->ev->kind == D6_EV_RUN ? do_run(r) : do_break(r);
}

bool d6_trick_roll(d6_run *r, int a, int pen) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    int diff = r->ev->trick;
    pen += d6_agility_take(st, a, D6_SK_ACROBATICS); /* a stumble (003:8) */
    int total;
    if (!d6_run_roll(r, less_dice(d6_skill_code(s, a, D6_SK_ACROBATICS), pen), true, a,
                     D6_ROLL_TRICK, &total))
        return false;
    total -= d6_part_penalty(st, a, D6_SK_ACROBATICS); /* 003:83-84 */
    /* 003:5: one-half of the difference, rounded up, to the damage */
    int bonus = total >= diff ? (total - diff + 1) / 2 : 0;
    r->trick_bonus = bonus;
    d6_run_fact(r, D6_FACT_TRICK, a, -1, total, diff, bonus, total >= diff);
    return true;
}

/* ---- The Mortally Wounded (core) ------------------------------------------ */

bool d6_mortal_rolls(d6_run *r) {
    const d6_setup *s = r->s;
    d6_state *st = r->st;
    if (s->o.mortal_rolls == D6_MORTAL_NO || s->o.health != D6_HEALTH_WOUNDS)
        return true;
    for (int i = 0; i < s->n; i++) {
        d6_cstate *c = &st->c[i];
        if (c->wound != D6_W_MORTAL)
            continue;
        if (c->mortal_round == 0) /* it fell in the round just ended */
            c->mortal_round = st->round - 1;
        int rounds = st->round - c->mortal_round;
        /* ruling 55: a round is 5 seconds; minutes are whole minutes */
        int count = s->o.mortal_rolls == D6_MORTAL_ROUNDS ? rounds : rounds * 5 / 60;
        int total;
        if (!d6_run_roll(r, s->c[i].b.attr[D6_PHYSIQUE], true, i, D6_ROLL_MORTAL, &total))
            return false;
        bool died = total < count;
        if (died)
            c->wound = D6_W_DEAD;
        d6_run_fact(r, D6_FACT_MORTAL, i, -1, total, count, died, 0);
    }
    return true;
}

/* ---- Where a hit lands, and whether it lasts (D7.10, D7.9) ---------------- */

int d6_lasting_location(const d6_setup *s, const d6_state *st, int t, const d6_event *ev,
                        int excess, int before, int lost) {
    if (!ev || excess <= 0 || d6_out(&st->c[t]))
        return 0;
    int loc = ev->location;
    if (!loc && s->o.uncalled_chest && ev->kind == D6_EV_ATTACK)
        loc = D6_LOC_CHEST; /* ruling 33, uncalled-location: chest */
    if (!loc)
        return 0;
    if (s->o.location_wounded) { /* ruling 34, location-threshold: wounded */
        if (s->o.health == D6_HEALTH_WOUNDS) {
            if (st->c[t].wound < D6_W_WOUNDED || st->c[t].wound <= before)
                return 0;
        } else if (lost * 5 < s->c[t].b.body_points) {
            return 0; /* less than 20% of its Body Points */
        }
    }
    return loc;
}

/* ---- The tactics ------------------------------------------------------------ */

bool d6_run_choose(const d6_setup *s, const d6_state *st, int a, int nearest, int want,
                   d6_event *cmd) {
    const d6_cstate *ca = &st->c[a];
    int mv = d6_move_now(s, st, a);
    if (!s->o.tactics_run || want <= mv || ca->down || ca->posture == D6_POSTURE_PRONE ||
        (ca->flags & D6_F_MOVED) || d6_holder(st, a) >= 0 || ca->tangle > 0)
        return false;
    /* twice its Move at the easiest running difficulty (10), or less */
    double step = want < 2 * mv ? want : 2 * mv;
    int16_t x, y; /* close.c: whole meters, never onto anyone (ruling 69) */
    if (!d6_close_point(st, a, nearest, step, &x, &y))
        return false;
    double rx = x - ca->x, ry = y - ca->y;
    if (sqrt(rx * rx + ry * ry) <= mv + 1e-9)
        return false; /* whole meters brought it within a walk */
    cmd->kind = D6_EV_RUN;
    cmd->x = x;
    cmd->y = y;
    return true;
}

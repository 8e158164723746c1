/*
 * alloy_fixture.h - Alloy encounters built in memory for the unit tests
 * (test_alloy_turn.c, test_alloy_act.c; other Alloy tests may copy the
 * idea): an fa_setup with stat blocks and weapons set field by field, an
 * open map, the state, one event and a run over them.
 *
 *   fixture *f = af_new(12, 12);                 two sides, open 12x12 map
 *   int sb = af_block(f, "trooper", 6, 2, 20);   speed 6 squares, init +2, 20 hp
 *   int a = af_add(f, "Tony", sb, 0, 2, 2);      side 0 at (2, 2)
 *   af_start(f);                                 fa_state_init
 *   af_begin(f, (int[]){15, 10}, 2);             initiative dice by hand
 *   af_next(f);                                  the first turn starts
 *   fa_command c = af_cmd(FA_CMD_WALK, a); af_path(&c, ...); af_do(f, &c)
 *
 * With AF_FAKE_ATTACKS defined before including it, the file also
 * defines stand-ins for every attack.c function turn.c and act.c call
 * (fa_attack, fa_opportunity_attack, fa_damage, fa_check_vs,
 * fa_second_wind, fa_defense_value, fa_attack_line_of, fa_attack_mods,
 * fa_attack_possible, fa_suppress_turn_end, fa_area_targets), recording
 * their calls in f->fake,
 * so that those tests check turn.c and act.c alone: with all of them
 * defined here, the linker does not take attack.c
 * from the library.
 *
 * Every test file is its own executable: the helpers are static inline.
 */
#ifndef FRAY_TESTS_ALLOY_FIXTURE_H
#define FRAY_TESTS_ALLOY_FIXTURE_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloy_int.h"

/* What the stand-ins for attack.c saw and are told to do. */
typedef struct af_fake {
    int attacks;               /* fa_attack calls */
    int attack_actor, attack_kind, attack_target;
    bool attack_charge;
    int oas;                   /* fa_opportunity_attack calls */
    int oa_who[8], oa_target[8];
    fray_pos oa_target_at[8];  /* where the target stood when it was attacked */
    bool oa_drops;             /* an opportunity attack drops its target */
    int damage_calls, damage_total;
    bool check_result;         /* what fa_check_vs answers */
    int checks, check_bonus, check_defense;
    int second_winds;
    bool impossible;           /* what fa_attack_mods answers */
    int suppress_calls;        /* fa_suppress_turn_end */
    int suppress_who;
    bool suppress_took;
    int hook_calls;            /* the opportunity hook */
    int hook_who[8], hook_target[8];
    fray_pos hook_target_at[8];
    bool hook_declines;
    int ready_calls;           /* the readied-action hook */
    bool ready_holds;          /* it holds the readied action */
} af_fake;

typedef struct fixture {
    fa_setup s;
    fa_state st;
    fa_event ev;
    fa_run r;
    fa_hooks hooks;
    af_fake fake;
    char why[256];
} fixture;

/* The opportunity hook: records who is asked, and where the target
 * stands then; declines when fake.hook_declines. */
static inline bool af_hook(void *ctx, const fa_run *r, int who, int target) {
    fixture *f = ctx;
    int k = f->fake.hook_calls++;
    if (k < 8) {
        f->fake.hook_who[k] = who;
        f->fake.hook_target[k] = target;
        f->fake.hook_target_at[k] = r->st->c[target].fp.at;
    }
    return !f->fake.hook_declines;
}

/* The readied-action hook: records, and holds when fake.ready_holds. */
static inline bool af_ready_hook(void *ctx, const fa_run *r, int who,
                                 int trigger) {
    (void)r; (void)who; (void)trigger;
    fixture *f = ctx;
    f->fake.ready_calls++;
    return !f->fake.ready_holds;
}

/* The defaults of RULINGS.md / rulesets-checklists L7, set here field by
 * field (load.c's fa_options_default is not on this branch). */
static inline void af_options(fa_options *o) {
    memset(o, 0, sizeof *o);
    o->diagonals = FRAY_AREA_COUNTED;
    o->burst = FRAY_AREA_COUNTED;
    o->dying = FA_DYING_STABLE;
    o->save_target = 10;
    o->drop_prone = FA_ACT_SWIFT;
    o->ap_per_turn = 1;
    o->area_crit_max = true;
    o->coup_rolls = true;
    o->aid_ranged_provokes = true;
    o->creature_cover = 2;
    o->init_ties = FA_TIES_RANDOM;
    o->surprise_action = FA_SURPRISE_STANDARD_OR_MOVE;
}

static inline fixture *af_new(int w, int h) {
    fixture *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    af_options(&f->s.opt);
    f->s.n_sides = 2;
    snprintf(f->s.side_name[0], FA_NAME_MAX, "heroes");
    snprintf(f->s.side_name[1], FA_NAME_MAX, "villains");
    f->s.has_map = true;
    fray_grid_init(&f->s.map, w, h);
    f->s.round_limit = 100;
    f->r.s = &f->s;
    f->r.st = &f->st;
    f->r.ev = &f->ev;
    f->r.facts = true;
    f->hooks.opportunity = af_hook;
    f->hooks.ready = af_ready_hook;
    f->hooks.ctx = f;
    f->r.hooks = &f->hooks;
    return f;
}

/* A weapon: kind (fa_weapon_kind), [W] = 1d`sides`, reach, magazine. */
static inline int af_weapon(fixture *f, const char *name, int kind, int sides,
                            int reach, int magazine) {
    int i = f->s.n_weapons++;
    fa_weapon *w = &f->s.weapons[i];
    snprintf(w->id, FA_ID_MAX, "%s", name);
    snprintf(w->name, FA_NAME_MAX, "%s", name);
    w->kind = (uint8_t)kind;
    w->w.n = 1;
    w->w.sides = (int8_t)sides;
    w->reach = (int8_t)reach;
    w->hands = 1;
    w->magazine = (int16_t)magazine;
    if (kind != FA_WK_MELEE) {
        w->range_short = 10;
        w->range_long = 20;
    }
    return i;
}

/* A Medium stat block: speed in squares, initiative modifier, hit
 * points; defenses 15, reach 1, 2 surges, 1 action point. */
static inline int af_block(fixture *f, const char *name, int speed,
                           int init_mod, int hp) {
    int i = f->s.n_sb++;
    fa_statblock *b = &f->s.sb[i];
    snprintf(b->id, FA_ID_MAX, "%s", name);
    snprintf(b->name, FA_NAME_MAX, "%s", name);
    b->size = FA_SIZE_MEDIUM;
    for (int k = 0; k < FA_ABILITIES; k++)
        b->score[k] = 10;
    b->level = 1;
    for (int d = 0; d < FA_DEFENSES; d++)
        b->defense[d] = 15;
    b->init_mod = (int8_t)init_mod;
    b->hp = (int16_t)hp;
    b->speed = (int8_t)speed;
    b->reach = 1;
    b->surges = 2;
    b->surge_value = (int16_t)(hp / 4);
    b->action_points = 1;
    b->crit_min = 20;
    return i;
}

/* Gives stat block sb weapon w (ammo carried beyond the magazine). */
static inline int af_give(fixture *f, int sb, int w, int ammo) {
    fa_statblock *b = &f->s.sb[sb];
    int k = b->n_weapons++;
    b->weapons[k].weapon = (int16_t)w;
    b->weapons[k].proficient = true;
    b->weapons[k].ammo = (int16_t)ammo;
    return k;
}

/* A combatant of stat block sb on side at (x, y): aware, unarmed. */
static inline int af_add(fixture *f, const char *name, int sb, int side,
                         int x, int y) {
    int i = f->s.n++;
    fa_combatant_def *c = &f->s.c[i];
    snprintf(c->id, FA_ID_MAX, "%s", name);
    snprintf(c->name, FA_NAME_MAX, "%s", name);
    c->sb = (int16_t)sb;
    c->side = (int8_t)side;
    c->at.x = (int16_t)x;
    c->at.y = (int16_t)y;
    c->side_len = 1;
    c->aware = true;
    c->wield = -1;
    return i;
}

static inline void af_start(fixture *f) {
    fa_state_init(&f->s, &f->st, 7, 0);
}

/* A fresh event (dice, choices and facts of one command). */
static inline void af_event(fixture *f) {
    memset(&f->ev, 0, sizeof f->ev);
    f->r.given = NULL;
    f->r.n_given = 0;
    f->r.used_given = 0;
    f->r.replay = NULL;
}

/* The begin event with initiative dice given by hand (n may be 0: drawn). */
static inline fray_status af_begin(fixture *f, const int *dice, int n) {
    af_event(f);
    f->r.given = n > 0 ? dice : NULL;
    f->r.n_given = (size_t)n;
    fa_command c;
    memset(&c, 0, sizeof c);
    c.kind = FA_CMD_BEGIN;
    return fa_apply(&f->r, &c);
}

static inline fa_command af_cmd(int kind, int actor) {
    fa_command c;
    memset(&c, 0, sizeof c);
    c.kind = (uint8_t)kind;
    c.actor = (int8_t)actor;
    c.slot = FA_ACT_NONE;
    c.power = -1;
    c.weapon = -1;
    c.option = -1;
    c.ready.who = -1;
    c.ready.target = -1;
    c.ready.power = -1;
    return c;
}

static inline fa_command af_target(int kind, int actor, int target) {
    fa_command c = af_cmd(kind, actor);
    c.n_targets = 1;
    c.targets[0] = (int8_t)target;
    return c;
}

/* Appends n squares (x, y pairs) to a command's path. */
static inline void af_path(fa_command *c, int n, ...) {
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        c->path[c->n_path].x = (int16_t)va_arg(ap, int);
        c->path[c->n_path].y = (int16_t)va_arg(ap, int);
        c->n_path++;
    }
    va_end(ap);
}

/* A straight path of n squares from who's place by (dx, dy) per step. */
static inline void af_line(fixture *f, fa_command *c, int who, int n, int dx,
                           int dy) {
    fray_pos p = f->st.c[who].fp.at;
    for (int i = 0; i < n; i++) {
        p.x = (int16_t)(p.x + dx);
        p.y = (int16_t)(p.y + dy);
        c->path[c->n_path++] = p;
    }
}

/* Checks then applies cmd in a fresh event; the refusal's words in f->why. */
static inline fray_status af_do(fixture *f, const fa_command *c) {
    af_event(f);
    f->why[0] = '\0';
    fray_status st = fa_check(&f->s, &f->st, c, f->why, sizeof f->why);
    if (st != FRAY_OK)
        return st;
    return fa_apply(&f->r, c);
}

/* Applies cmd with dice given by hand. */
static inline fray_status af_do_dice(fixture *f, const fa_command *c,
                                     const int *dice, int n) {
    af_event(f);
    f->r.given = dice;
    f->r.n_given = (size_t)n;
    f->why[0] = '\0';
    fray_status st = fa_check(&f->s, &f->st, c, f->why, sizeof f->why);
    if (st != FRAY_OK)
        return st;
    return fa_apply(&f->r, c);
}

static inline fray_status af_next(fixture *f) {
    fa_command c = af_cmd(FA_CMD_NEXT, -1);
    return af_do(f, &c);
}

static inline fray_status af_next_dice(fixture *f, const int *dice, int n) {
    fa_command c = af_cmd(FA_CMD_NEXT, -1);
    return af_do_dice(f, &c, dice, n);
}

/* The fight begun with the combatants' listed order as the initiative
 * order (a d20 of 20, 19, ... each), then the first turn started. */
static inline void af_go(fixture *f) {
    af_start(f);
    int dice[FA_MAX_COMBATANTS];
    for (int i = 0; i < f->s.n; i++)
        dice[i] = 20 - i;
    cr_assert_eq(af_begin(f, dice, f->s.n), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
}

/* The turn under way ends (End Turn when someone acts) and the next starts. */
static inline void af_end_turn(fixture *f) {
    fa_command et = af_cmd(FA_CMD_END_TURN, f->st.cur);
    if (fa_actor(&f->s, &f->st) >= 0)
        cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
}

/* The first fact of kind (who -1: anyone) in the last event, NULL if none. */
static inline const fa_fact *af_fact(const fixture *f, int kind, int who) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == kind && (who < 0 || f->ev.facts[i].who == who))
            return &f->ev.facts[i];
    return NULL;
}

static inline int af_count_facts(const fixture *f, int kind) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == kind;
    return n;
}

/* Puts condition kind on who (ends, whose), as an effect from source. */
static inline void af_cond(fixture *f, int who, int kind, int ends, int whose,
                           int value) {
    fa_cond c;
    memset(&c, 0, sizeof c);
    c.kind = (uint8_t)kind;
    c.ends = (uint8_t)ends;
    c.whose = (int8_t)whose;
    c.other = -1;
    c.value = (int8_t)value;
    c.source = (int8_t)whose;
    c.round = 0;
    cr_assert_eq(fa_cond_add(&f->r, who, c), FRAY_OK);
}

#ifdef AF_FAKE_ATTACKS
/* Stand-ins for attack.c: each finds its fixture through r->hooks->ctx. */
static fixture *af_of(const fa_run *r) { return r->hooks->ctx; }

static void af_fall(fa_run *r, int target) {
    fa_cstate *c = &r->st->c[target];
    if (c->hp > 0)
        c->hp = 0;
    c->flags |= FA_F_OUT;
    fa_cond d;
    memset(&d, 0, sizeof d);
    d.kind = FA_C_DYING;
    d.other = -1;
    d.source = -1;
    cr_assert_eq(fa_cond_add(r, target, d), FRAY_OK);
}

fray_status fa_attack(fa_run *r, const fa_command *cmd, bool charge) {
    fixture *f = af_of(r);
    f->fake.attacks++;
    f->fake.attack_actor = cmd->actor;
    f->fake.attack_kind = cmd->kind;
    f->fake.attack_target = cmd->n_targets > 0 ? cmd->targets[0] : -1;
    f->fake.attack_charge = charge;
    return FRAY_OK;
}

fray_status fa_opportunity_attack(fa_run *r, int who, int target) {
    fixture *f = af_of(r);
    int k = f->fake.oas++;
    if (k < 8) {
        f->fake.oa_who[k] = who;
        f->fake.oa_target[k] = target;
        f->fake.oa_target_at[k] = r->st->c[target].fp.at;
    }
    if (f->fake.oa_drops)
        af_fall(r, target);
    return FRAY_OK;
}

fray_status fa_damage(fa_run *r, int who, int target, int amount) {
    (void)who;
    fixture *f = af_of(r);
    f->fake.damage_calls++;
    f->fake.damage_total += amount;
    r->st->c[target].hp = (int16_t)(r->st->c[target].hp - amount);
    if (r->st->c[target].hp <= 0)
        af_fall(r, target);
    return FRAY_OK;
}

bool fa_check_vs(fa_run *r, int who, int bonus, int defense_value) {
    (void)who;
    fixture *f = af_of(r);
    f->fake.checks++;
    f->fake.check_bonus = bonus;
    f->fake.check_defense = defense_value;
    return f->fake.check_result;
}

fray_status fa_second_wind(fa_run *r, int who) {
    af_of(r)->fake.second_winds++;
    r->st->c[who].surges--;
    r->st->c[who].flags |= FA_F_SECOND_WIND; /* as attack.c does */
    return FRAY_OK;
}

fa_attack_line fa_attack_line_of(const fa_setup *s, const fa_state *st,
                                 int who, int power, int weapon, bool melee) {
    (void)s; (void)st; (void)who;
    fa_attack_line line;
    memset(&line, 0, sizeof line);
    line.power = (int8_t)power;
    line.weapon = (int8_t)weapon;
    line.ranged = !melee;
    return line;
}

void fa_attack_mods(const fa_setup *s, const fa_state *st, int who,
                    int target, const fa_attack_line *line, bool charge,
                    fray_pos origin, fa_mods *out) {
    (void)s; (void)who; (void)target; (void)line; (void)charge; (void)origin;
    memset(out, 0, sizeof *out);
    const fixture *f = (const fixture *)((const char *)st - offsetof(fixture, st));
    out->impossible = f->fake.impossible;
}

/* (issue 16: act.c asks this instead of fa_attack_mods for
 * whether an attack can be made at all; the same answer as the stand-in
 * above.) */
bool fa_attack_possible(const fa_setup *s, const fa_state *st, int who, int target,
                        const fa_attack_line *line, fray_pos origin) {
    (void)s; (void)who; (void)target; (void)line; (void)origin;
    const fixture *f = (const fixture *)((const char *)st - offsetof(fixture, st));
    return !f->fake.impossible;
}

fray_status fa_suppress_turn_end(fa_run *r, int who, bool took_standard_or_none) {
    fixture *f = af_of(r);
    f->fake.suppress_calls++;
    f->fake.suppress_who = who;
    f->fake.suppress_took = took_standard_or_none;
    return FRAY_OK;
}

int fa_defense_value(const fa_setup *s, const fa_state *st, int target,
                     fa_defense d, int attacker, bool ranged) {
    (void)st; (void)attacker; (void)ranged;
    return s->sb[s->c[target].sb].defense[d];
}

/* (chances.c's, issue 19: the odds at the table; no test here asks.) */
fray_status fa_area_targets(const fa_setup *s, const fa_state *st, int who,
                            const fa_command *cmd, const fa_attack_line *L,
                            int *targets, int *n, fray_pos *origin) {
    (void)s; (void)st; (void)who; (void)cmd; (void)L; (void)targets;
    (void)origin;
    *n = 0;
    return FRAY_ERR_INVALID;
}
/* (chances.c's trip and grapple, issue 19; no test here asks.) */
fa_attack_line fa_special_line(const fa_setup *s, const fa_state *st, int who,
                               int kind) {
    (void)kind;
    return fa_attack_line_of(s, st, who, -1, -1, true);
}
/* (chances.c's bull rush, aid and coup, issue 19; no test here asks.) */
fa_attack_line fa_bull_rush_line(const fa_setup *s, const fa_state *st, int who) {
    return fa_attack_line_of(s, st, who, -1, -1, true);
}
bool fa_bull_rush_square(const fa_setup *s, const fa_state *st, int who, int t,
                         fray_pos asked, fray_pos *to) {
    (void)s; (void)st; (void)who; (void)t; (void)asked; (void)to;
    return false;
}
bool fa_basic_melee(const fa_setup *s, const fa_state *st, int who, int target,
                    int slot) {
    (void)s; (void)st; (void)who; (void)target; (void)slot;
    return true;
}
int fa_aid_attack_sources(const fa_state *st, int who, int ally) {
    (void)st; (void)who; (void)ally;
    return 0;
}
/* (chances.c's disarm, issue 19; no test here asks.) */
bool fa_disarm_line(const fa_setup *s, const fa_state *st, int who, int t, int slot,
                    fa_attack_line *L) {
    (void)t;
    *L = fa_attack_line_of(s, st, who, -1, slot, true);
    return true;
}
#endif

#endif

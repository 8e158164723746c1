/*
 * alloy_attack_fixture.h - hand-built Alloy setups for the attack, area
 * and damage tests (test_alloy_attack.c, _area.c, _damage.c): a setup and
 * state filled field by field (no loader, no turn code), a small weapon
 * catalog, one soldier stat block, an open map, and a run over them with
 * dice given by hand or drawn from a fixed seed.
 *
 * Every test file is its own executable: the helpers are static inline so
 * that a file which does not use one does not warn.
 */
#ifndef FRAY_TESTS_ALLOY_ATTACK_FIXTURE_H
#define FRAY_TESTS_ALLOY_ATTACK_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloy_int.h"

/* Catalog indices (fa_setup.weapons) and the soldier's weapon slots. */
enum { W_SWORD, W_PISTOL, W_RIFLE, W_FLAMER, W_GRENADE, W_GREATAXE, W_UNARMED, W_COUNT };
enum { SLOT_SWORD, SLOT_PISTOL, SLOT_RIFLE, SLOT_FLAMER };
enum { SB_SOLDIER, SB_OGRE, SB_TINY };

typedef struct afx {
    fa_setup s;
    fa_state st;
    fa_event ev;
    fa_run r;
    int given[256];
} afx;

static inline void afx_options(fa_options *o) {
    memset(o, 0, sizeof *o);
    o->diagonals = FRAY_AREA_COUNTED;
    o->burst = FRAY_AREA_COUNTED;
    o->dying = FA_DYING_STABLE;
    o->save_target = 10;
    o->drop_prone = FA_ACT_SWIFT;
    o->suppress_unlimited = false;
    o->ap_per_turn = 1;
    o->area_crit_max = true;
    o->coup_rolls = true;
    o->aid_ranged_provokes = true;
    o->creature_cover = 2;
}

static inline fa_weapon afx_weapon(const char *id, int kind, int n, int sides,
                                   int prof) {
    fa_weapon w;
    memset(&w, 0, sizeof w);
    snprintf(w.id, sizeof w.id, "%s", id);
    snprintf(w.name, sizeof w.name, "%s", id);
    w.kind = (uint8_t)kind;
    w.w = (fa_dice){(int8_t)n, (int8_t)sides};
    w.proficiency = (int8_t)prof;
    w.reach = 1;
    w.hands = 1;
    w.area_defense = FA_DEF_REFLEX;
    w.area_ability = FA_DEX;
    return w;
}

static inline void afx_block(fa_statblock *b, const char *id, int size, int str,
                             int dex, int hp) {
    memset(b, 0, sizeof *b);
    snprintf(b->id, sizeof b->id, "%s", id);
    snprintf(b->name, sizeof b->name, "%s", id);
    b->size = (uint8_t)size;
    for (int i = 0; i < FA_ABILITIES; i++)
        b->score[i] = 10;
    b->score[FA_STR] = (int8_t)str;
    b->score[FA_DEX] = (int8_t)dex;
    for (int i = 0; i < FA_ABILITIES; i++)
        b->mod[i] = (int8_t)((b->score[i] - 10) / 2);
    b->level = 1;
    b->defense[FA_DEF_DEFENSE] = 15;
    b->defense[FA_DEF_FORTITUDE] = 13;
    b->defense[FA_DEF_REFLEX] = 14;
    b->defense[FA_DEF_WILL] = 12;
    b->attack_bonus = 2;
    b->hp = (int16_t)hp;
    b->speed = 6;
    b->reach = 1;
    b->surges = 2;
    b->surge_value = (int16_t)(hp / 4);
    b->crit_min = 20;
}

/* A fixture: the catalog, the soldier (Str 14, Dex 16, Defense 15,
 * Fortitude 13, Reflex 14, attack bonus +2, 30 hp, sword 1d8 +3, pistol
 * 2d6 +2 6/24 squares 15 rounds, rifle 2d8 +2 autofire 16/48 30 rounds,
 * flamethrower blast 5 3d6 10 fuel; all proficient), an ogre (Large, Str
 * 20, 60 hp, greataxe 1d12 two-handed), a tiny block, and a w x h open map. */
static inline afx *afx_new(int w, int h) {
    afx *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    fa_setup *s = &f->s;
    afx_options(&s->opt);
    s->n_sides = 2;
    snprintf(s->side_name[0], FA_NAME_MAX, "heroes");
    snprintf(s->side_name[1], FA_NAME_MAX, "foes");
    s->has_map = true;
    fray_grid_init(&s->map, w, h);
    s->round_limit = 100;

    s->weapons[W_SWORD] = afx_weapon("sword", FA_WK_MELEE, 1, 8, 3);
    s->weapons[W_PISTOL] = afx_weapon("pistol", FA_WK_RANGED, 2, 6, 2);
    s->weapons[W_PISTOL].range_short = 6;
    s->weapons[W_PISTOL].range_long = 24;
    s->weapons[W_PISTOL].magazine = 15;
    s->weapons[W_RIFLE] = afx_weapon("rifle", FA_WK_RANGED, 2, 8, 2);
    s->weapons[W_RIFLE].range_short = 16;
    s->weapons[W_RIFLE].range_long = 48;
    s->weapons[W_RIFLE].magazine = 30;
    s->weapons[W_RIFLE].autofire = true;
    s->weapons[W_RIFLE].hands = 2;
    s->weapons[W_FLAMER] = afx_weapon("flamethrower", FA_WK_RANGED, 3, 6, 0);
    s->weapons[W_FLAMER].area = FA_AREA_BLAST;        /* blast 25 ft (004:125) */
    s->weapons[W_FLAMER].area_size = 5;
    s->weapons[W_FLAMER].magazine = 10;
    s->weapons[W_FLAMER].hands = 2;
    s->weapons[W_GRENADE] = afx_weapon("frag grenade", FA_WK_THROWN, 3, 6, 0);
    s->weapons[W_GRENADE].area = FA_AREA_BURST;       /* burst 25 ft, 60 ft (004:131) */
    s->weapons[W_GRENADE].area_size = 5;
    s->weapons[W_GRENADE].range_short = 12;
    s->weapons[W_GREATAXE] = afx_weapon("greataxe", FA_WK_MELEE, 1, 12, 2);
    s->weapons[W_GREATAXE].hands = 2;
    s->weapons[W_UNARMED] = afx_weapon("unarmed", FA_WK_MELEE, 1, 3, 0);
    s->n_weapons = W_COUNT;

    fa_statblock *b = &s->sb[SB_SOLDIER];
    afx_block(b, "soldier", FA_SIZE_MEDIUM, 14, 16, 30);
    int slots[] = {W_SWORD, W_PISTOL, W_RIFLE, W_FLAMER, W_GRENADE};
    b->n_weapons = 4;
    for (int i = 0; i < 4; i++) {
        b->weapons[i].weapon = (int16_t)slots[i];
        b->weapons[i].proficient = true;
        b->weapons[i].ammo = -1;
    }
    b = &s->sb[SB_OGRE];
    afx_block(b, "ogre", FA_SIZE_LARGE, 20, 8, 60);
    b->n_weapons = 1;
    b->weapons[0].weapon = W_GREATAXE;
    b->weapons[0].proficient = true;
    b = &s->sb[SB_TINY];
    afx_block(b, "tiny", FA_SIZE_TINY, 6, 16, 8);
    s->n_sb = 3;

    f->st.cur = -1;
    fray_rng_seed(&f->st.rng, 4, 0);
    return f;
}

/* Adds a combatant of block sb on side at (x, y) holding slot wield
 * (-1: nothing); its state as fa_state_init would make it. */
static inline int afx_add_sb(afx *f, int sb, int side, int x, int y, int wield) {
    int i = f->s.n++;
    fa_combatant_def *d = &f->s.c[i];
    snprintf(d->id, sizeof d->id, "c%d", i);
    snprintf(d->name, sizeof d->name, "c%d", i);
    d->sb = (int16_t)sb;
    d->side = (int8_t)side;
    d->at = (fray_pos){(int16_t)x, (int16_t)y};
    d->side_len = (int8_t)(f->s.sb[sb].size >= FA_SIZE_LARGE ? f->s.sb[sb].size - FA_SIZE_MEDIUM + 1 : 1);
    d->aware = true;
    d->wield = (int8_t)wield;
    fa_cstate *c = &f->st.c[i];
    memset(c, 0, sizeof *c);
    const fa_statblock *b = &f->s.sb[sb];
    c->hp = b->hp;
    c->surges = b->surges;
    c->fp = (fray_footprint){d->at, d->side_len};
    c->oa_turn = -1;
    c->grappling = -1;
    c->wield = (int8_t)wield;
    for (int k = 0; k < b->n_weapons; k++) {
        c->ammo[k] = f->s.weapons[b->weapons[k].weapon].magazine;
        c->spare[k] = b->weapons[k].ammo;
    }
    f->st.n = (int8_t)f->s.n;
    return i;
}

static inline int afx_add(afx *f, int side, int x, int y, int wield) {
    return afx_add_sb(f, SB_SOLDIER, side, x, y, wield);
}

/* A fresh event and run; the dice given by hand (n of them), or drawn
 * from the state's stream when n is 0. */
static inline fa_run *afx_run(afx *f, const int *dice, size_t n) {
    memset(&f->ev, 0, sizeof f->ev);
    memset(&f->r, 0, sizeof f->r);
    f->r.s = &f->s;
    f->r.st = &f->st;
    f->r.ev = &f->ev;
    f->r.facts = true;
    if (n > 0) {
        cr_assert(n <= sizeof f->given / sizeof f->given[0]);
        memcpy(f->given, dice, n * sizeof *dice);
        f->r.given = f->given;
        f->r.n_given = n;
    }
    return &f->r;
}

#define AFX_DICE(f, ...)                                                      \
    afx_run((f), (const int[]){__VA_ARGS__},                                  \
            sizeof((const int[]){__VA_ARGS__}) / sizeof(int))

static inline fa_command afx_cmd(int kind, int actor, int target) {
    fa_command c;
    memset(&c, 0, sizeof c);
    c.kind = (uint8_t)kind;
    c.actor = (int8_t)actor;
    c.power = -1;
    c.weapon = -1;
    c.slot = FA_ACT_NONE;
    c.origin = (fray_pos){-1, -1};
    if (target >= 0) {
        c.n_targets = 1;
        c.targets[0] = (int8_t)target;
    }
    return c;
}

/* The i-th fact of a kind in the event (NULL when there are fewer). */
static inline const fa_fact *afx_fact(const afx *f, int kind, int i) {
    for (int k = 0; k < f->ev.n_facts; k++)
        if (f->ev.facts[k].kind == kind && i-- == 0)
            return &f->ev.facts[k];
    return NULL;
}

static inline int afx_count(const afx *f, int kind) {
    int n = 0;
    for (int k = 0; k < f->ev.n_facts; k++)
        n += f->ev.facts[k].kind == kind;
    return n;
}

/* The value of the MODIFIER fact with this reason (0 when none); *found. */
static inline int afx_mod(const afx *f, int reason, bool *found) {
    *found = false;
    for (int k = 0; k < f->ev.n_facts; k++)
        if (f->ev.facts[k].kind == FA_FACT_MODIFIER && f->ev.facts[k].v[0] == reason) {
            *found = true;
            return f->ev.facts[k].v[1];
        }
    return 0;
}

/* The reason's value in fa_mods (attack side, then defense side). */
static inline int mods_value(const fa_mods *m, int reason, bool *found) {
    *found = false;
    for (int i = 0; i < m->n; i++)
        if (m->m[i].reason == reason) {
            *found = true;
            return m->m[i].value;
        }
    for (int i = 0; i < m->n_def; i++)
        if (m->d[i].reason == reason) {
            *found = true;
            return m->d[i].value;
        }
    return 0;
}

static inline void afx_cond(afx *f, int who, int kind) {
    fa_run *r = afx_run(f, NULL, 0);
    fa_cond c = {.kind = (uint8_t)kind, .ends = FA_ENDS_EVENT, .whose = -1,
                 .other = -1, .source = -1};
    cr_assert_eq(fa_cond_add(r, who, c), FRAY_OK);
}

/* A power for the soldier (slot i): Str vs Defense, X{sword}. */
static inline fa_power *afx_power(afx *f, int sb, int i) {
    fa_statblock *b = &f->s.sb[sb];
    if (b->n_powers <= i)
        b->n_powers = (uint8_t)(i + 1);
    fa_power *p = &b->powers[i];
    memset(p, 0, sizeof *p);
    snprintf(p->id, sizeof p->id, "power%d", i);
    snprintf(p->name, sizeof p->name, "power %d", i);
    p->action = FA_ACT_STANDARD;
    p->ability = FA_STR;
    p->defense = FA_DEF_DEFENSE;
    p->weapon = SLOT_SWORD;
    p->mult = 1;
    return p;
}

#endif

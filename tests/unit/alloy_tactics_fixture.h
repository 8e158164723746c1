/*
 * alloy_tactics_fixture.h - hand-built Alloy encounters for the tactics
 * and exact-duel tests (test_alloy_policy.c, test_alloy_odds.c).
 *
 * A test builds its encounter in code, with no loader: at_new() makes the
 * fixture (two sides, the options, an open map), at_weapon() adds a
 * weapon, at_block() a stat block carrying one weapon, at_add() a
 * combatant of a block at a square. The numbers are the test's own.
 *
 * Every test file is its own executable: the helpers are static inline.
 */
#ifndef FRAY_TESTS_ALLOY_TACTICS_FIXTURE_H
#define FRAY_TESTS_ALLOY_TACTICS_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloy_int.h"

typedef struct at_fixture {
    fa_setup s;
    fa_state st;
    fa_event ev;
    fray_diag diag;
} at_fixture;

/* A new fixture: the default options (fa_options_default), two sides,
 * a w x h open map, round limit 100. calloc'd: free() it. */
static inline at_fixture *at_new(int w, int h) {
    at_fixture *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    fa_options_default(&f->s.opt);
    f->s.n_sides = 2;
    snprintf(f->s.side_name[0], FA_NAME_MAX, "heroes");
    snprintf(f->s.side_name[1], FA_NAME_MAX, "villains");
    f->s.has_map = true;
    fray_grid_init(&f->s.map, w, h);
    f->s.round_limit = 100;
    return f;
}

/* A weapon: [W] = n d sides, crit dice cn d cs (0: none); melee (reach
 * 1) when range_short is 0, else ranged with that short range and a long
 * range of twice it (the farthest it shoots, as load.c reads files). Proficiency bonus `prof`. */
static inline int at_weapon(at_fixture *f, const char *id, int n, int sides,
                            int prof, int range_short, int cn, int cs) {
    cr_assert_lt(f->s.n_weapons, FA_MAX_WEAPONS);
    fa_weapon *w = &f->s.weapons[f->s.n_weapons];
    memset(w, 0, sizeof *w);
    snprintf(w->id, sizeof w->id, "%s", id);
    snprintf(w->name, sizeof w->name, "%s", id);
    w->kind = range_short > 0 ? FA_WK_RANGED : FA_WK_MELEE;
    w->w.n = (int8_t)n;
    w->w.sides = (int8_t)sides;
    w->proficiency = (int8_t)prof;
    w->range_short = (int16_t)range_short;
    w->range_long = (int16_t)(2 * range_short);
    w->reach = 1;
    w->hands = 1;
    w->crit.n = (int8_t)cn;
    w->crit.sides = (int8_t)cs;
    w->area_defense = FA_DEF_REFLEX;
    w->area_ability = FA_DEX;
    return f->s.n_weapons++;
}

/* A Medium stat block: hit points, Defense (the other defenses the
 * same), attack bonus (level part), Str and Dex modifiers (scores to
 * match), initiative modifier, speed 6, one weapon (proficient). */
static inline int at_block(at_fixture *f, const char *id, int hp, int defense,
                           int attack_bonus, int str_mod, int dex_mod,
                           int init_mod, int weapon) {
    cr_assert_lt(f->s.n_sb, FA_MAX_STATBLOCKS);
    fa_statblock *b = &f->s.sb[f->s.n_sb];
    memset(b, 0, sizeof *b);
    snprintf(b->id, sizeof b->id, "%s", id);
    snprintf(b->name, sizeof b->name, "%s", id);
    b->size = FA_SIZE_MEDIUM;
    for (int i = 0; i < FA_ABILITIES; i++) {
        b->score[i] = 10;
        b->mod[i] = 0;
    }
    b->mod[FA_STR] = (int8_t)str_mod;
    b->score[FA_STR] = (int8_t)(10 + 2 * str_mod);
    b->mod[FA_DEX] = (int8_t)dex_mod;
    b->score[FA_DEX] = (int8_t)(10 + 2 * dex_mod);
    b->level = 1;
    for (int d = 0; d < FA_DEFENSES; d++)
        b->defense[d] = (int8_t)defense;
    b->attack_bonus = (int8_t)attack_bonus;
    b->init_mod = (int8_t)init_mod;
    b->hp = (int16_t)hp;
    b->speed = 6;
    b->reach = 1;
    b->surges = 0;
    b->surge_value = (int16_t)(hp / 4);
    b->crit_min = 20;
    b->tactics = FA_TACTICS_DEFAULT;
    b->n_weapons = 1;
    b->weapons[0].weapon = (int16_t)weapon;
    b->weapons[0].proficient = true;
    b->weapons[0].ammo = -1;
    return f->s.n_sb++;
}

/* A combatant of block sb on side `side` at (x, y), aware, wielding its
 * first weapon, with the block's tactics. */
static inline int at_add(at_fixture *f, const char *id, int sb, int side,
                         int x, int y) {
    cr_assert_lt(f->s.n, FA_MAX_COMBATANTS);
    fa_combatant_def *c = &f->s.c[f->s.n];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    snprintf(c->name, sizeof c->name, "%s", id);
    c->sb = (int16_t)sb;
    c->side = (int8_t)side;
    c->at.x = (int16_t)x;
    c->at.y = (int16_t)y;
    c->side_len = 1;
    c->aware = true;
    c->wield = 0;
    c->tactics = f->s.sb[sb].tactics;
    return f->s.n++;
}

/* The state at the start of a turn of `who`, as the tests assume it
 * (the engine's fa_state_init does the real one): every combatant at full
 * hit points with its surges, action points, weapon in hand, a full
 * magazine; `who` has its standard, move and swift actions. */
static inline void at_state(at_fixture *f, int who) {
    fa_state *st = &f->st;
    memset(st, 0, sizeof *st);
    st->round = 1;
    st->started = true;
    st->n = (int8_t)f->s.n;
    st->n_order = (uint8_t)f->s.n;
    for (int i = 0; i < f->s.n; i++) {
        const fa_combatant_def *c = &f->s.c[i];
        const fa_statblock *b = &f->s.sb[c->sb];
        fa_cstate *x = &st->c[i];
        st->order[i] = (int8_t)i;
        x->hp = b->hp;
        x->surges = b->surges;
        x->ap = b->action_points;
        x->fp.at = c->at;
        x->fp.side = c->side_len;
        x->oa_turn = -1;
        x->grappling = -1;
        x->wield = c->wield;
        for (int w = 0; w < b->n_weapons; w++) {
            x->ammo[w] = f->s.weapons[b->weapons[w].weapon].magazine;
            x->spare[w] = b->weapons[w].ammo;
        }
    }
    st->cur = (int8_t)who;
    st->cur_pos = (int8_t)who;
    st->c[who].slots = FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT;
}

/* A condition on combatant i (the bit and the entry). */
static inline void at_cond(at_fixture *f, int i, fa_cond_kind kind) {
    fa_cstate *x = &f->st.c[i];
    x->cond[x->n_cond].kind = (uint8_t)kind;
    x->cond[x->n_cond].source = -1;
    x->n_cond++;
    x->has |= 1u << kind;
}

#endif

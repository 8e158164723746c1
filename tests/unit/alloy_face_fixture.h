/*
 * alloy_face_fixture.h - a small Alloy encounter built by hand (no
 * loader), for the tests of parse.c, render.c, json.c and alloy.c.
 *
 *   heroes: Tony (pistol, knife; power "burst-fire": area burst 1 within 10,
 *           Dex vs Reflex), Ana (longsword)
 *   orcs:   orc 1, orc 2 (axe)
 *   an open map of 12 x 10 squares.
 */
#ifndef ALLOY_FACE_FIXTURE_H
#define ALLOY_FACE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "alloy_int.h"

enum { FX_TONY, FX_ANA, FX_ORC1, FX_ORC2, FX_N };
enum { FX_W_PISTOL, FX_W_KNIFE, FX_W_LONGSWORD, FX_W_AXE };

static inline void fx_weapon(fa_setup *s, int i, const char *id,
                             const char *name, int kind, int n, int sides,
                             int range) {
    fa_weapon *w = &s->weapons[i];
    strcpy(w->id, id);
    strcpy(w->name, name);
    w->kind = (uint8_t)kind;
    w->w.n = (int8_t)n;
    w->w.sides = (int8_t)sides;
    w->proficiency = 2;
    w->range_short = (int16_t)range;
    w->range_long = (int16_t)(2 * range);
    w->reach = 1;
    w->hands = 1;
    w->area_defense = FA_DEF_REFLEX;
    w->area_ability = FA_DEX;
    if (s->n_weapons <= i)
        s->n_weapons = i + 1;
}

static inline void fx_block(fa_setup *s, int i, const char *id,
                            const char *name, int hp, int w0, int w1) {
    fa_statblock *b = &s->sb[i];
    strcpy(b->id, id);
    strcpy(b->name, name);
    b->size = FA_SIZE_MEDIUM;
    for (int a = 0; a < FA_ABILITIES; a++) {
        b->score[a] = 12;
        b->mod[a] = 1;
    }
    b->level = 1;
    b->defense[FA_DEF_DEFENSE] = 15;
    b->defense[FA_DEF_FORTITUDE] = 13;
    b->defense[FA_DEF_REFLEX] = 14;
    b->defense[FA_DEF_WILL] = 12;
    b->attack_bonus = 1;
    b->init_mod = 1;
    b->hp = (int16_t)hp;
    b->speed = 6;
    b->reach = 1;
    b->surges = 2;
    b->surge_value = (int16_t)(hp / 4);
    b->action_points = 1;
    b->crit_min = 20;
    b->tactics = FA_TACTICS_DEFAULT;
    b->weapons[0].weapon = (int16_t)w0;
    b->weapons[0].proficient = true;
    b->weapons[0].ammo = -1;
    b->n_weapons = 1;
    if (w1 >= 0) {
        b->weapons[1].weapon = (int16_t)w1;
        b->weapons[1].proficient = true;
        b->weapons[1].ammo = -1;
        b->n_weapons = 2;
    }
    if (s->n_sb <= i)
        s->n_sb = i + 1;
}

static inline void fx_combatant(fa_setup *s, int i, const char *id,
                                const char *name, int sb, int side, int x,
                                int y) {
    fa_combatant_def *c = &s->c[i];
    strcpy(c->id, id);
    strcpy(c->name, name);
    c->sb = (int16_t)sb;
    c->side = (int8_t)side;
    c->at.x = (int16_t)x;
    c->at.y = (int16_t)y;
    c->side_len = 1;
    c->aware = true;
    c->wield = 0;
    c->tactics = FA_TACTICS_DEFAULT;
    if (s->n <= i)
        s->n = i + 1;
}

/* The setup (free with free()). */
static inline fa_setup *fx_setup(void) {
    fa_setup *s = calloc(1, sizeof *s);
    strcpy(s->name, "Alley fight");
    s->n_sides = 2;
    strcpy(s->side_name[0], "heroes");
    strcpy(s->side_name[1], "orcs");
    fx_weapon(s, FX_W_PISTOL, "pistol", "Pistol", FA_WK_RANGED, 2, 6, 10);
    fx_weapon(s, FX_W_KNIFE, "knife", "Combat Knife", FA_WK_MELEE, 1, 4, 0);
    fx_weapon(s, FX_W_LONGSWORD, "longsword", "Longsword", FA_WK_MELEE, 1, 8, 0);
    fx_weapon(s, FX_W_AXE, "axe", "Axe", FA_WK_MELEE, 1, 12, 0);
    fx_block(s, 0, "soldier", "Soldier", 24, FX_W_PISTOL, FX_W_KNIFE);
    fx_block(s, 1, "knight", "Knight", 28, FX_W_LONGSWORD, -1);
    fx_block(s, 2, "orc", "Orc", 15, FX_W_AXE, -1);
    /* Tony's power: area burst 1 within 10 squares, Dex vs Reflex, 2d6. */
    fa_power *p = &s->sb[0].powers[0];
    strcpy(p->id, "burst-fire");
    strcpy(p->name, "Burst Fire");
    p->action = FA_ACT_STANDARD;
    p->usage = FA_ENCOUNTER;
    p->ability = FA_DEX;
    p->defense = FA_DEF_REFLEX;
    p->weapon = -1;
    p->mult = 1;
    p->dice.n = 2;
    p->dice.sides = 6;
    p->area = FA_AREA_BURST;
    p->area_size = 1;
    p->range = 10;
    p->ranged = true;
    s->sb[0].n_powers = 1;
    fx_combatant(s, FX_TONY, "tony", "Tony", 0, 0, 1, 1);
    fx_combatant(s, FX_ANA, "ana", "Ana", 1, 0, 2, 1);
    fx_combatant(s, FX_ORC1, "orc-1", "orc 1", 2, 1, 8, 6);
    fx_combatant(s, FX_ORC2, "orc-2", "orc 2", 2, 1, 9, 7);
    s->has_map = true;
    fray_grid_init(&s->map, 12, 10);
    s->round_limit = 100;
    s->opt.save_target = 10;
    s->opt.drop_prone = FA_ACT_SWIFT;
    s->opt.ap_per_turn = 1;
    s->opt.area_crit_max = true;
    s->opt.coup_rolls = true;
    s->opt.aid_ranged_provokes = true;
    s->opt.creature_cover = 2;
    return s;
}

/* A state by hand: everyone at full hit points in its place; the order
 * Tony, orc 1, Ana, orc 2; round 2, Tony's turn (free with free()). */
static inline fa_state *fx_state(const fa_setup *s) {
    fa_state *st = calloc(1, sizeof *st);
    st->round = 2;
    st->started = true;
    st->winner = -1;
    st->n = (int8_t)s->n;
    static const int order[FX_N] = {FX_TONY, FX_ORC1, FX_ANA, FX_ORC2};
    static const int init[FX_N] = {17, 9, 12, 5};
    st->n_order = FX_N;
    for (int k = 0; k < FX_N; k++)
        st->order[k] = (int8_t)order[k];
    for (int i = 0; i < s->n; i++) {
        fa_cstate *c = &st->c[i];
        const fa_statblock *b = &s->sb[s->c[i].sb];
        c->hp = b->hp;
        c->surges = b->surges;
        c->ap = b->action_points;
        c->fp.at = s->c[i].at;
        c->fp.side = 1;
        c->init = (int16_t)init[i];
        c->oa_turn = -1;
        c->grappling = -1;
        c->wield = 0;
        c->ready.who = -1;
        c->ready.target = -1;
        c->ready.power = -1;
    }
    st->cur = FX_TONY;
    st->cur_pos = 0;
    return st;
}


#endif

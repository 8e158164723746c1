/*
 * towers_fixture.h - hand-built 99 Towers encounters for the unit tests
 * (test_towers_engine.c, _combat.c, _policy.c, _render.c; tf_cmd() in
 * _policy_odds.c too) and the example encounters loaded through the public
 * API (test_towers_fight.c, _render.c).
 *
 * A test builds its encounter in code, with no loader: tf_new() makes the
 * fixture (two sides, the options, a map), tf_add() adds a combatant with
 * its own deck and a stat block of the test file's numbers (tf_stats) and
 * one weapon, tf_stack() puts cards on top of a deck. Each test file keeps
 * its own add() and fixture_new() that give its defaults.
 *
 * Every test file is its own executable: the helpers are static inline so
 * that a file which does not use one does not warn.
 */
#ifndef FRAY_TESTS_TOWERS_FIXTURE_H
#define FRAY_TESTS_TOWERS_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "towers_int.h"

/* A hand-built encounter: the setup, the state it is played in, the event
 * being applied, a run over the three and its diagnostic; buf holds what a
 * test renders. Big: calloc'd by tf_new(), freed with free(). */
typedef struct fixture {
    ft_setup s;
    ft_state st;
    ft_event ev;
    ft_run r;
    fray_diag diag;
    char buf[16384];
} fixture;

/* A new fixture, all zero but: the options ft_options_default() gives, two
 * sides "heroes" and "bandits", and a map of w x h open spaces when w > 0
 * (none when w is 0). */
static inline fixture *tf_new(int w, int h) {
    fixture *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    ft_options_default(&f->s.opt);
    f->s.n_sides = 2;
    snprintf(f->s.sides[0], FT_NAME, "heroes");
    snprintf(f->s.sides[1], FT_NAME, "bandits");
    if (w > 0) {
        f->s.has_map = true;
        fray_grid_init(&f->s.map, w, h);
    }
    return f;
}

/* A weapon that hits with attack_bonus + PA cards (seed 000 "Attacking and
 * Defending") for damage (+ <PX> when adds_px), reaching `reach` spaces:
 * Physical, no keywords, no range. */
static inline ft_weapon tf_weapon(const char *name, int attack_bonus,
                                  int damage, bool adds_px, int reach) {
    ft_weapon w;
    memset(&w, 0, sizeof w);
    snprintf(w.name, sizeof w.name, "%s", name);
    w.attack_bonus = attack_bonus;
    w.damage = damage;
    w.adds_px = adds_px;
    w.category = FT_CAT_PHYSICAL;
    w.reach = reach;
    return w;
}

/* The numbers of a hand-built stat block; everything not named here is 0.
 * max_stun / max_lethal 0: derived from endurance ([[E]] x 8, [[E]] + 8). */
typedef struct tf_stats {
    int n, pa, pd, px, er, spd; /* Combat Values [N] <PA> <PD> <PX> <ER> <SPD> */
    int ss;                     /* the Aspect [SS] */
    int endurance;              /* [[E]] */
    int max_stun, max_lethal;
} tf_stats;

/* Fills sb from v, with weapon w alone in the main hand and the mana regen
 * of the options (-1). */
static inline void tf_statblock(ft_statblock *sb, const tf_stats *v,
                                ft_weapon w) {
    memset(sb, 0, sizeof *sb);
    sb->cv[FT_CV_N] = v->n;
    sb->cv[FT_CV_PA] = v->pa;
    sb->cv[FT_CV_PD] = v->pd;
    sb->cv[FT_CV_PX] = v->px;
    sb->cv[FT_CV_ER] = v->er;
    sb->cv[FT_CV_SPD] = v->spd;
    sb->aspects[FT_ASPECT_SS] = v->ss;
    sb->endurance = v->endurance;
    sb->max_stun = v->max_stun;
    sb->max_lethal = v->max_lethal;
    sb->n_weapons = 1;
    sb->weapons[0] = w;
    sb->wielded[0] = 0;
    sb->wielded[1] = -1;
    sb->mana_regen = -1;
}

/* Adds combatant i (returned) called `id` (its name too, drawn as id[0])
 * on `side`, placed at (x, y), with its own deck i named after it and the
 * stat block of v and w. Its tactics are all 0: the caller sets them. */
static inline int tf_add(fixture *f, const char *id, int side, int x, int y,
                         const tf_stats *v, ft_weapon w) {
    int i = f->s.n_combatants++;
    ft_combatant *c = &f->s.c[i];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    snprintf(c->name, sizeof c->name, "%s", id);
    c->side = side;
    c->symbol = id[0];
    c->start.x = (int16_t)x;
    c->start.y = (int16_t)y;
    c->placed = true;
    c->deck = i;
    tf_statblock(&c->sb, v, w);
    snprintf(f->s.deck_names[i], FT_NAME, "%s", id);
    f->s.n_decks = f->s.n_combatants;
    return i;
}

/* Points f->r at the fixture's setup, state and event, with facts on and
 * errors told in *diag (NULL: not told). */
static inline void tf_run(fixture *f, fray_diag *diag) {
    memset(&f->r, 0, sizeof f->r);
    f->r.setup = &f->s;
    f->r.st = &f->st;
    f->r.ev = &f->ev;
    f->r.facts = true;
    f->r.diag = diag;
}

/* Puts `cards` ("KS 4D") on top of deck `deck` of the state, first card
 * first. */
static inline void tf_stack(fixture *f, int deck, const char *cards) {
    fray_card c[54];
    size_t n = 0;
    cr_assert_eq(fray_card_parse_list(cards, c, 54, &n, NULL), FRAY_OK, "%s",
                 cards);
    cr_assert_eq(fray_deck_stack(&f->st.decks[deck], c, n), FRAY_OK, "%s",
                 cards);
}

/* The card named by `text` ("KH"). */
static inline fray_card tf_card(const char *text) {
    fray_card c;
    cr_assert_eq(fray_card_parse(text, &c, NULL), FRAY_OK, "%s", text);
    return c;
}

/* A command of `action` by `actor` with no target, weapon, ally,
 * condition, skill or chip (-1) and everything else 0. */
static inline ft_command tf_cmd(int action, int actor) {
    ft_command c;
    memset(&c, 0, sizeof c);
    c.action = (uint8_t)action;
    c.actor = (int8_t)actor;
    c.target = c.weapon = c.ally = c.condition = c.hold_who = -1;
    c.skill = c.chip = -1;
    return c;
}

/* ---- Example encounters, through the public API ---------------------------- */

/* Loads <folder>/<name> of the source tree, which must load; free with
 * fray_towers_setup_free(). */
static inline fray_towers_setup *tf_load_under(const char *folder,
                                               const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", FRAY_SOURCE_DIR, folder, name);
    fray_towers_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d:%d: %s", path, d.line, d.column,
                 d.message);
    return s;
}

/* examples/towers/<name> */
static inline fray_towers_setup *tf_load_example(const char *name) {
    return tf_load_under("examples/towers", name);
}

/* tests/data/towers/<name> */
static inline fray_towers_setup *tf_load_data(const char *name) {
    return tf_load_under("tests/data/towers", name);
}

/* A new fight of s from `seed`, keeping its journal and facts; free with
 * fray_towers_fight_free(). */
static inline fray_towers_fight *tf_fight(const fray_towers_setup *s,
                                          uint64_t seed) {
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    o.journal = true;
    o.facts = true;
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, seed, &o, NULL, &f), FRAY_OK);
    return f;
}

/* The fight's journal as JSON Lines (docs/journal.md); free() it. */
static inline char *tf_journal(const fray_towers_fight *f) {
    size_t cap = 1 << 16, len = 0;
    char *p = malloc(cap);
    cr_assert_not_null(p);
    p[0] = '\0';
    for (int i = 0; i < fray_towers_fight_events(f); i++) {
        size_t n = fray_towers_event_json(f, i, NULL, 0);
        while (len + n + 2 > cap) {
            cap *= 2;
            p = realloc(p, cap);
            cr_assert_not_null(p);
        }
        cr_assert_eq(fray_towers_event_json(f, i, p + len, n + 1), n);
        len += n;
        p[len++] = '\n';
        p[len] = '\0';
    }
    return p;
}

/* The fight f of s, replayed from its journal into a fresh fight, is the
 * same fight: the same state and as many events. */
static inline void tf_replays_same(const fray_towers_setup *s,
                                   const fray_towers_fight *f) {
    char *j = tf_journal(f);
    fray_towers_fight *r = tf_fight(s, 99);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_replay(r, j, &d), FRAY_OK, "line %d: %s",
                 d.line, d.message);
    cr_expect(fray_towers_fight_same(f, r));
    cr_expect_eq(fray_towers_fight_events(r), fray_towers_fight_events(f));
    fray_towers_fight_free(r);
    free(j);
}

/* The MODIFIER fact of the last event told for `why`, or NULL. */
static inline const ft_fact *tf_find_modifier(const fixture *f,
                                              const char *why) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_MODIFIER &&
            strcmp(f->ev.facts[i].text, why) == 0)
            return &f->ev.facts[i];
    return NULL;
}

#endif

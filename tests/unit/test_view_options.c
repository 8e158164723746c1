/*
 * test_view_options.c - the choices an action's command takes besides its
 * target (issue 17: "the browser table" for Silent Winter; include/fray/
 * view.h fray_view_option): Silent Winter's Switch Weapons (002:85) and
 * spells (002:71-77), 99 Towers' Draw a Weapon and Cast a Spell (seed 000
 * "Action List"), Alloy's powers and Draw. Each option the view lists is
 * a command the engine accepts (tried on a fresh fight: actor, action,
 * option, target), what it does not allow is not listed, the players'
 * filter keeps them for the actor's own player, and the JSON carries them.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"

static fray_setup *load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s: %s", path,
                 d.message);
    return s;
}

static fray_fight *begin(const fray_setup *s, uint64_t seed, const int *dice,
                         size_t n_dice) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_given g = {NULL, 0, dice, n_dice, &d};
    fray_fight_options o = {true, true, 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, dice ? &g : NULL, NULL, &f),
                 FRAY_OK, "%s", d.message);
    return f;
}

static fray_status try_command(fray_fight *f, const char *text, char *why,
                               size_t wsize) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_fight_command(f, text, NULL, &d);
    snprintf(why, wsize, "%s", d.message);
    return rc;
}

static void command(fray_fight *f, const char *text) {
    char why[256];
    cr_assert_eq(try_command(f, text, why, sizeof why), FRAY_OK, "%s: %s",
                 text, why);
}

static fray_fight_view *view_of(const fray_fight *f) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    return v;
}

static const fray_view_action *action(const fray_view_combatant *c,
                                      const char *word) {
    for (int k = 0; k < c->n_actions; k++)
        if (strcmp(c->actions[k].word, word) == 0)
            return &c->actions[k];
    return NULL;
}

static const fray_view_option *option(const fray_view_action *a,
                                      const char *word) {
    for (int k = 0; a && k < a->n_options; k++)
        if (strcmp(a->options[k].word, word) == 0)
            return &a->options[k];
    return NULL;
}

typedef struct prelude {
    const char *rel;       /* the encounter */
    uint64_t seed;
    const int *dice;       /* given at the start (Alloy's initiative) */
    size_t n_dice;
    const char *first;     /* a command first ("next"), or NULL */
} prelude;

static fray_fight *start(const prelude *p, fray_setup **s) {
    *s = load(p->rel);
    fray_fight *f = begin(*s, p->seed, p->dice, p->n_dice);
    if (p->first)
        command(f, p->first);
    return f;
}

/* Every option of every action of the one whose turn it is, with each of
 * its targets (or none), is a command the engine accepts, each on a fresh
 * fight from the same start; returns how many were tried. */
static int every_option_accepted(const prelude *p) {
    fray_setup *s;
    fray_fight *f = start(p, &s);
    fray_fight_view *v = view_of(f);
    cr_assert_geq(v->turn, 0);
    const fray_view_combatant *me = &v->combatants[v->turn];
    int tried = 0;
    for (int k = 0; k < me->n_actions; k++) {
        const fray_view_action *a = &me->actions[k];
        for (int q = 0; q < a->n_options; q++) {
            const fray_view_option *op = &a->options[q];
            cr_assert(!op->needs_target || op->n_targets > 0,
                      "%s %s: a target needed, none listed", a->word, op->word);
            if (op->needs_space)
                continue; /* (not checked: the page asks the space) */
            int nt = op->needs_target ? op->n_targets : 1;
            for (int t = 0; t < nt; t++) {
                char text[256];
                snprintf(text, sizeof text, "%s %s %s%s%s", me->id, a->word,
                         op->word, op->needs_target ? " " : "",
                         op->needs_target ? v->combatants[op->targets[t]].id : "");
                fray_setup *s2;
                fray_fight *g = start(p, &s2);
                command(g, text);
                tried++;
                fray_fight_free(g);
                fray_setup_free(s2);
            }
        }
    }
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
    return tried;
}

/* ---- Silent Winter ------------------------------------------------------------ */

/* 002:85 Switch Weapons: the Huntress has her bow in hand, a dagger on her
 * person and a spear nearby: both are options of wield, the bow is not (in
 * hand already); each, as the page sends it, is taken. */
Test(view_options, winter_switch_weapons) {
    fray_setup *s = load("examples/silent-winter/huntress.yaml");
    fray_fight *f = begin(s, 1, NULL, 0);
    fray_fight_view *v = view_of(f);
    cr_assert_eq(v->turn, 0);
    const fray_view_action *w = action(&v->combatants[0], "wield");
    cr_assert_not_null(w, "Switch Weapons is listed");
    cr_assert_str_eq(w->title, "Switch Weapons");
    cr_assert(w->checked && !w->needs_target);
    cr_assert_eq(w->n_options, 2);
    const fray_view_option *dg = option(w, "dagger"), *sp = option(w, "spear");
    cr_assert_not_null(dg);
    cr_assert_not_null(sp);
    cr_assert_str_eq(dg->title, "dagger");
    cr_assert(!dg->needs_target && !dg->needs_space && dg->n_targets == 0);
    cr_assert_null(option(w, "bow"), "the bow is in her hand already");
    cr_assert_eq(action(&v->combatants[0], "attack")->n_options, 0,
                 "an attack takes no option");
    fray_fight_view_free(v);
    command(f, "huntress wield dagger");
    fray_fight_free(f);
    fray_setup_free(s);
    prelude p = {"examples/silent-winter/huntress.yaml", 1, NULL, 0, NULL};
    cr_assert_eq(every_option_accepted(&p), 2);
}

/* 002:71 spells: the Hedge-Witch knows firebolt (Ranged: a target), ward
 * (Personal: on herself, no target) and mend (Beneficial: another, never
 * herself); Magic enough for each. Nothing to switch to: no wield. */
Test(view_options, winter_cast_a_spell) {
    fray_setup *s = load("examples/silent-winter/witch.yaml");
    fray_fight *f = begin(s, 1, NULL, 0);
    fray_fight_view *v = view_of(f);
    cr_assert_eq(v->turn, 0);
    const fray_view_combatant *me = &v->combatants[0];
    cr_assert_null(action(me, "wield"), "she has no other weapon");
    cr_assert_null(action(me, "release"), "she Maintains nothing yet");
    const fray_view_action *c = action(me, "cast");
    cr_assert_not_null(c);
    cr_assert_eq(c->n_options, 3);
    const fray_view_option *fb = option(c, "firebolt"), *wd = option(c, "ward"),
                           *md = option(c, "mend");
    cr_assert(fb && wd && md);
    cr_assert(fb->needs_target && fb->n_targets > 0);
    for (int t = 0; t < fb->n_targets; t++)
        cr_assert_neq(fb->targets[t], 0, "never at herself");
    cr_assert(!wd->needs_target && wd->n_targets == 0, "Personal: no target");
    for (int t = 0; t < md->n_targets; t++)
        cr_assert_neq(md->targets[t], 0, "Beneficial: not on the mage");
    fray_fight_view_free(v);
    char why[256];
    cr_assert_neq(try_command(f, "witch wield spear", why, sizeof why), FRAY_OK,
                  "not listed, and refused");
    command(f, "witch cast ward");
    v = view_of(f);
    /* Declared: her next declaration comes later; until then no actions. */
    cr_assert_eq(v->combatants[0].n_actions, 0);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
    prelude p = {"examples/silent-winter/witch.yaml", 1, NULL, 0, NULL};
    cr_assert_geq(every_option_accepted(&p), 1 + 2 * 1);
}

/* 002:39, 69 talents: a talent modifies an attack, so the Knight has none
 * to use until it is engaged; the fight played by its tactics to the
 * first declaration where one may be used: each talent is an option of
 * `talent` with the foes it may be used on. */
Test(view_options, winter_use_a_talent) {
    fray_setup *s = load("examples/silent-winter/knight.yaml");
    fray_fight *f = begin(s, 1, NULL, 0);
    fray_fight_view *v = view_of(f);
    const fray_view_action *t = NULL;
    const fray_view_combatant *me = NULL;
    for (int step = 0; step < 200; step++) {
        if (v->turn >= 0) {
            me = &v->combatants[v->turn];
            if ((t = action(me, "talent")) != NULL)
                break;
        }
        cr_assert(!v->over, "the fight ended before a talent could be used");
        fray_fight_view_free(v);
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
        v = view_of(f);
    }
    cr_assert_not_null(t, "no talent to use in 200 steps");
    cr_assert(strcmp(me->id, "knight") == 0 || strcmp(me->id, "hound") == 0,
              "%s has no talents", me->id);
    cr_assert_geq(t->n_options, 1);
    for (int q = 0; q < t->n_options; q++) {
        cr_assert(t->options[q].needs_target && t->options[q].n_targets > 0,
                  "%s: a talent is used on a foe", t->options[q].word);
        for (int k = 0; k < t->options[q].n_targets; k++)
            cr_assert_neq(v->combatants[t->options[q].targets[k]].side, me->side,
                          "only foes");
    }
    /* Each option, as the page sends it, is taken. */
    for (int q = 0; q < t->n_options; q++) {
        char text[256], why[256];
        snprintf(text, sizeof text, "%s talent %s %s", me->id,
                 t->options[q].word, v->combatants[t->options[q].targets[0]].id);
        fray_status rc = try_command(f, text, why, sizeof why);
        cr_assert_eq(rc, FRAY_OK, "%s: %s", text, why);
        cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    }
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* ---- 99 Towers ---------------------------------------------------------------- */

/* Seed 000 "Draw a Weapon": Sir Aldric holds his sword; the dagger of his
 * stat block is the option (not the sword in his hand). Draw a Weapon was
 * not listed before (it needs the weapon's word). */
Test(view_options, towers_draw_a_weapon) {
    fray_card c[8];
    size_t n = 0;
    cr_assert_eq(fray_card_parse_list("3H AC 9H AD KS 7H", c, 8, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_given g = {c, n, NULL, 0, &d};
    fray_fight_options o = {true, true, 0};
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, 1, &o, &g, NULL, &f), FRAY_OK, "%s", d.message);
    command(f, "next");
    fray_fight_view *v = view_of(f);
    cr_assert_eq(v->turn, 0);
    const fray_view_combatant *me = &v->combatants[0];
    cr_assert_eq(me->n_weapons, 1);
    const fray_view_action *dw = action(me, "draw-weapon");
    cr_assert_not_null(dw);
    cr_assert_str_eq(dw->title, "Draw a Weapon");
    cr_assert(dw->checked);
    cr_assert_eq(dw->n_options, 1);
    cr_assert_str_eq(dw->options[0].word, "Dagger");
    cr_assert(!dw->options[0].needs_target);
    cr_assert_null(option(dw, me->weapons[0]), "not the one in hand");
    cr_assert_null(action(me, "cast"), "no spell");
    fray_fight_view_free(v);
    command(f, "aldric draw-weapon Dagger");
    v = view_of(f);
    cr_assert_str_eq(v->combatants[0].weapons[0], "Dagger");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The first seed (from 1) at which the mage's turn comes first (after
 * the initiative flips: "next"). */
static uint64_t mage_first(void) {
    fray_setup *s = load("examples/towers/mage.yaml");
    for (uint64_t seed = 1; seed < 400; seed++) {
        fray_fight *f = begin(s, seed, NULL, 0);
        command(f, "next");
        fray_fight_view *v = view_of(f);
        bool mine = v->turn == 0 && v->combatants[0].n_actions > 0;
        fray_fight_view_free(v);
        fray_fight_free(f);
        if (mine) {
            fray_setup_free(s);
            return seed;
        }
    }
    fray_setup_free(s);
    cr_assert_fail("the mage never acts first in 400 seeds");
    return 0;
}

/* Seed 000 "Cast a Spell", "Areas": Ysolde knows Bolt of Fire, Fireball
 * and Cone of Cold: each a Cast option with the targets the engine's check
 * allows (an area aimed at a combatant: never an ally); her Dagger is not
 * a spell; a spell is cast, not drawn. */
Test(view_options, towers_cast_a_spell) {
    uint64_t seed = mage_first();
    prelude p = {"examples/towers/mage.yaml", seed, NULL, 0, "next"};
    fray_setup *s;
    fray_fight *f = start(&p, &s);
    fray_fight_view *v = view_of(f);
    const fray_view_combatant *me = &v->combatants[0];
    const fray_view_action *c = action(me, "cast");
    cr_assert_not_null(c, "seed %llu", (unsigned long long)seed);
    cr_assert_geq(c->n_options, 1);
    cr_assert_null(option(c, "Dagger"), "not a spell");
    for (int q = 0; q < c->n_options; q++) {
        const fray_view_option *op = &c->options[q];
        cr_assert(op->needs_target && op->n_targets > 0, "%s", op->word);
        for (int t = 0; t < op->n_targets; t++)
            cr_assert_neq(v->combatants[op->targets[t]].side, me->side,
                          "%s at an ally", op->word);
    }
    const fray_view_action *dw = action(me, "draw-weapon");
    cr_assert_not_null(dw, "the Dagger may be drawn");
    cr_assert_eq(dw->n_options, 1);
    cr_assert_str_eq(dw->options[0].word, "Dagger");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
    cr_assert_geq(every_option_accepted(&p), 2);
}

/* ---- Alloy ------------------------------------------------------------------- */

/* Alloy: Vance (a baton in hand, a pistol holstered) may attack Lyra with
 * his basic attack (the action's own target) or his Stunning blow ("with
 * stunning-blow", an encounter power), and draw the pistol (`draw` names
 * what it draws: the page sends the option). Once the power is spent it is no
 * longer an option. */
Test(view_options, alloy_powers_and_draw) {
    int init[] = {15, 8};
    prelude p = {"examples/alloy/duel.yaml", 1, init, 2, "next"};
    fray_setup *s;
    fray_fight *f = start(&p, &s);
    fray_fight_view *v = view_of(f);
    cr_assert_eq(v->turn, 0);
    const fray_view_combatant *me = &v->combatants[0];
    const fray_view_action *at = action(me, "attack");
    cr_assert_not_null(at);
    cr_assert_eq(at->n_targets, 1, "the basic attack");
    const fray_view_option *sb = option(at, "with stunning-blow");
    cr_assert_not_null(sb);
    cr_assert_str_eq(sb->title, "Stunning blow");
    cr_assert(sb->needs_target && sb->n_targets == 1 && sb->targets[0] == 1);
    const fray_view_action *dr = action(me, "draw");
    cr_assert_not_null(dr);
    cr_assert_eq(dr->n_options, 1);
    cr_assert_str_eq(dr->options[0].word, "Pistol");
    cr_assert_null(option(dr, "Baton"), "not the one in hand");
    fray_fight_view_free(v);
    int dice[] = {18, 4};
    fray_given g = {NULL, 0, dice, 2, NULL};
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_command(f, "vance attack with stunning-blow lyra", &g, &d),
                 FRAY_OK, "%s", d.message);
    v = view_of(f);
    at = action(&v->combatants[0], "attack");
    cr_assert(!at || !option(at, "with stunning-blow"), "an encounter power, spent");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
    cr_assert_eq(every_option_accepted(&p), 2);
}

/* ---- The filter and the JSON ------------------------------------------------- */

/* The actor's player sees its options (a copy); another player sees no
 * actions at all. */
Test(view_options, filter_keeps_them_for_the_actor) {
    fray_setup *s = load("examples/silent-winter/witch.yaml");
    fray_fight *f = begin(s, 1, NULL, 0);
    fray_fight_view *v = view_of(f);
    int mine[] = {0}, other[] = {2};
    fray_view_scope sc = fray_view_scope_player(mine, 1);
    fray_fight_view *p = NULL;
    cr_assert_eq(fray_fight_view_filter(v, &sc, NULL, &p), FRAY_OK);
    const fray_view_action *a = action(&p->combatants[0], "cast"),
                           *b = action(&v->combatants[0], "cast");
    cr_assert(a && b);
    cr_assert_eq(a->n_options, b->n_options);
    for (int q = 0; q < a->n_options; q++) {
        cr_assert_str_eq(a->options[q].word, b->options[q].word);
        cr_assert_neq(a->options[q].word, b->options[q].word, "a copy");
        cr_assert_eq(a->options[q].n_targets, b->options[q].n_targets);
    }
    fray_fight_view_free(p);
    sc = fray_view_scope_player(other, 1);
    cr_assert_eq(fray_fight_view_filter(v, &sc, NULL, &p), FRAY_OK);
    for (int k = 0; k < p->n_combatants; k++)
        if (p->combatants[k].index == 0)
            cr_assert_eq(p->combatants[k].n_actions, 0);
    fray_fight_view_free(p);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The JSON: "options" on an action that takes one (word, title,
 * needs_target, needs_space, targets), none on one that does not. */
Test(view_options, json_options) {
    fray_setup *s = load("examples/silent-winter/huntress.yaml");
    fray_fight *f = begin(s, 1, NULL, 0);
    fray_fight_view *v = view_of(f);
    size_t n = fray_fight_view_json(v, NULL, NULL, 0);
    char *buf = malloc(n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fray_fight_view_json(v, NULL, buf, n + 1), n);
    json_error_t e;
    json_t *j = json_loads(buf, 0, &e);
    cr_assert_not_null(j, "%s", e.text);
    json_t *acts = json_object_get(json_array_get(json_object_get(j, "combatants"), 0),
                                   "actions");
    int seen = 0;
    for (size_t k = 0; k < json_array_size(acts); k++) {
        json_t *a = json_array_get(acts, k);
        const char *w = json_string_value(json_object_get(a, "word"));
        json_t *ops = json_object_get(a, "options");
        if (strcmp(w, "wield") != 0) {
            cr_assert_null(ops, "%s takes no option", w);
            continue;
        }
        seen++;
        cr_assert_eq(json_array_size(ops), 2);
        for (size_t q = 0; q < 2; q++) {
            json_t *op = json_array_get(ops, q);
            const char *ow = json_string_value(json_object_get(op, "word"));
            cr_assert(ow && (strcmp(ow, "dagger") == 0 || strcmp(ow, "spear") == 0));
            cr_assert_str_eq(json_string_value(json_object_get(op, "title")), ow);
            cr_assert(json_is_false(json_object_get(op, "needs_target")));
            cr_assert(json_is_false(json_object_get(op, "needs_space")));
            cr_assert_eq(json_array_size(json_object_get(op, "targets")), 0);
        }
    }
    cr_assert_eq(seen, 1);
    json_decref(j);
    free(buf);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

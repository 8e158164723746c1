/* test_towers_load.c - 99 Towers data files: the catalog, stat blocks and
 * encounters load with the right values, and every bad file is refused
 * with its file:line:column and what was expected (docs/file-formats.md;
 * seed 000; rules-facts.md "Equipment", "Derived values", "Chips";
 * RULINGS 1-3, 10-22). */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fail_alloc.h"
#include "towers_int.h"

#define SRC FRAY_SOURCE_DIR "/"

static ft_setup *load_n(const char *const *rel, int n, fray_status *st,
                        fray_diag *diag) {
    static char paths[4][512];
    const char *p[4];
    for (int i = 0; i < n; i++) {
        snprintf(paths[i], sizeof paths[i], "%s%s", SRC, rel[i]);
        p[i] = paths[i];
    }
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    *st = ft_load_files(p, n, s, diag);
    return s;
}

/* Loads one file that must be right. */
static ft_setup *load_ok(const char *rel) {
    fray_diag diag;
    fray_status st;
    ft_setup *s = load_n(&rel, 1, &st, &diag);
    cr_assert_eq(st, FRAY_OK, "%s: %s:%d:%d: %s", rel, diag.file ? diag.file : "?",
                 diag.line, diag.column, diag.message);
    return s;
}

static const ft_weapon *weapon(const ft_setup *s, const char *name) {
    for (int i = 0; i < s->n_catalog; i++)
        if (strcmp(s->catalog[i].name, name) == 0)
            return &s->catalog[i];
    cr_assert_fail("no weapon '%s' in the catalog", name);
    return NULL;
}

static const ft_armor *armor(const ft_setup *s, const char *name) {
    for (int i = 0; i < s->n_armor; i++)
        if (strcmp(s->armor_catalog[i].name, name) == 0)
            return &s->armor_catalog[i];
    cr_assert_fail("no armor '%s' in the catalog", name);
    return NULL;
}

static const ft_combatant *who(const ft_setup *s, const char *id) {
    for (int i = 0; i < s->n_combatants; i++)
        if (strcmp(s->c[i].id, id) == 0)
            return &s->c[i];
    cr_assert_fail("no combatant '%s'", id);
    return NULL;
}

/* ---- The catalog (rules-facts.md "Equipment") ----------------------------- */

/* Seed 000 "STUN Damage": "Longblade | 1+PA | 4+PX | - | $25 | 3 lbs. |
 * Knight, Blade": PA+1 cards, 4 + PX damage, melee. */
Test(towers_load, catalog_longblade) {
    ft_setup *s = load_ok("data/towers/equipment.yaml");
    const ft_weapon *w = weapon(s, "Longblade");
    cr_expect_eq(w->attack_bonus, 1);
    cr_expect_not(w->spell);
    cr_expect_eq(w->damage, 4);
    cr_expect(w->adds_px);
    cr_expect_eq(w->category, FT_CAT_PHYSICAL);
    cr_expect_eq(w->type, FT_DMG_NONE);
    cr_expect_eq(w->range_increment, 0, "'-' is melee");
    cr_expect_eq(w->shots, 0);
    cr_expect_eq(w->reach, 1);
    cr_expect_eq(w->cost_dollars, 25);
    cr_expect_str_eq(w->weight, "3 lbs.");
    cr_expect_eq(w->keywords, FT_KW(KNIGHT) | FT_KW(BLADE));
    free(s);
}

/* Seed 000 "STUN Damage": "Heavy Rifle | PA | 7 | 12 | 10 | $40 | 10 lbs. |
 * Two-Handed, Large": PA cards, damage 7 without PX, increment 12, 10
 * shots. */
Test(towers_load, catalog_heavy_rifle) {
    ft_setup *s = load_ok("data/towers/equipment.yaml");
    const ft_weapon *w = weapon(s, "Heavy Rifle");
    cr_expect_eq(w->attack_bonus, 0);
    cr_expect_eq(w->damage, 7);
    cr_expect_not(w->adds_px);
    cr_expect_eq(w->range_increment, 12);
    cr_expect_eq(w->shots, 10);
    cr_expect_eq(w->cost_dollars, 40);
    cr_expect_str_eq(w->weight, "10 lbs.");
    cr_expect_eq(w->keywords, FT_KW(TWO_HANDED) | FT_KW(LARGE));
    free(s);
}

/* rules-facts.md "Equipment": the published prices; keywords; a Reach
 * weapon reaches 2 spaces (seed 000 "Opportunity Attacks"). */
Test(towers_load, catalog_prices_and_keywords) {
    ft_setup *s = load_ok("data/towers/equipment.yaml");
    cr_expect_eq(weapon(s, "Dagger")->cost_dollars, 2);
    cr_expect_eq(weapon(s, "Shortblade")->cost_dollars, 15);
    cr_expect_eq(weapon(s, "Light Pistol")->cost_dollars, 20);
    cr_expect_eq(weapon(s, "Pistol")->cost_dollars, 25);
    cr_expect_eq(weapon(s, "Great Axe")->cost_dollars, 25);
    cr_expect_eq(weapon(s, "Shield")->cost_dollars, 10);
    cr_expect(weapon(s, "Dagger")->keywords & FT_KW(THROWN));
    cr_expect(weapon(s, "Dagger")->keywords & FT_KW(LIGHT));
    cr_expect(weapon(s, "Great Axe")->keywords & FT_KW(TWO_HANDED));
    cr_expect(weapon(s, "Great Axe")->keywords & FT_KW(CRIT_BLEED));
    cr_expect(weapon(s, "Shield")->keywords & FT_KW(SHIELD));
    cr_expect_eq(weapon(s, "Shield")->attack_bonus, -1, "PA-1");
    cr_expect(weapon(s, "Unarmed Strike")->keywords & FT_KW(UNARMED));
    cr_expect_eq(weapon(s, "Unarmed Strike")->damage, 0, "PX alone");
    cr_expect(weapon(s, "Unarmed Strike")->adds_px);
    cr_expect_eq(weapon(s, "Spear")->reach, 2);
    cr_expect_eq(weapon(s, "Longblade")->reach, 1);
    cr_expect_eq(weapon(s, "Crossbow")->shots, 1);
    cr_expect_gt(weapon(s, "Bow")->range_increment, 0);
    free(s);
}

/* Seed 000 "Damage Types": Bolt of Fire, "Damage: 6 Arcane (Fire)"; a
 * spell attacks with SA and has only a maximum range ("Range Modifiers");
 * it costs mana of its element (rules-facts.md "Magic"). */
Test(towers_load, catalog_bolt_of_fire) {
    ft_setup *s = load_ok("data/towers/equipment.yaml");
    const ft_weapon *w = weapon(s, "Bolt of Fire");
    cr_expect(w->spell);
    cr_expect_eq(w->attack_bonus, 0);
    cr_expect_eq(w->damage, 6);
    cr_expect_not(w->adds_px);
    cr_expect_eq(w->category, FT_CAT_ARCANE);
    cr_expect_eq(w->type, FT_DMG_FIRE);
    cr_expect_eq(w->range_increment, 0);
    cr_expect_eq(w->max_range, 10);
    cr_expect_eq(w->mana_cost, 1);
    cr_expect_eq(w->element, FT_ELEM_FIRE);
    const ft_weapon *g = weapon(s, "Shadow Grasp");
    cr_expect_eq(g->attack_bonus, 1, "1+SA");
    cr_expect(g->spell);
    cr_expect_eq(g->type, FT_DMG_DARK);
    cr_expect_eq(g->keywords, FT_KW(CRIT_SLOWED));
    free(s);
}

/* docs/file-formats.md "Catalogs": armor rows (fray's numbers). */
Test(towers_load, catalog_armor) {
    ft_setup *s = load_ok("data/towers/equipment.yaml");
    cr_expect_eq(s->n_armor, 5);
    cr_expect_eq(armor(s, "Leather")->er, 1);
    cr_expect_eq(armor(s, "Chain")->er, 2);
    cr_expect_eq(armor(s, "Chain")->spd, -1);
    cr_expect_eq(armor(s, "Warded Robe")->ir, 1);
    cr_expect_eq(armor(s, "Shield")->pd_shift, 1);
    free(s);
}

/* ---- Stat blocks ------------------------------------------------------------ */

/* Seed 000 "Entering Combat and Initiative": Tony's N is 2; "Skill,
 * Aspect, and Attribute Checks": his External Endurance is 2.
 * rules-facts.md "Derived values": max STUN = [[E]] x 8, LETHAL = [[E]] + 8. */
Test(towers_load, tony) {
    ft_setup *s = load_ok("examples/towers/skirmish.yaml");
    const ft_combatant *t = who(s, "tony");
    cr_expect_str_eq(t->name, "Tony");
    cr_expect_str_eq(t->sb.name, "Tony \"Wrongway\" Wright");
    cr_expect_eq(t->sb.cv[FT_CV_N], 2);
    cr_expect_eq(t->sb.aspects[FT_ASPECT_EE], 2);
    cr_expect_eq(t->sb.endurance, 3);
    cr_expect_eq(t->sb.max_stun, 24);
    cr_expect_eq(t->sb.max_lethal, 11);
    cr_expect_eq(t->sb.controller, FT_CTRL_PLAYER);
    cr_expect_eq(t->sb.n_weapons, 2);
    cr_expect_str_eq(t->sb.weapons[0].name, "Heavy Rifle");
    cr_expect_eq(t->sb.weapons[0].range_increment, 12);
    cr_expect_eq(t->sb.wielded[0], 0, "the first weapon is in the main hand");
    cr_expect_eq(t->sb.wielded[1], -1);
    cr_expect(t->sb.has_armor);
    cr_expect_eq(t->sb.armor.er, 1);
    cr_expect_eq(t->sb.chips[0], 2);
    cr_expect_eq(t->sb.chips[1], 1);
    cr_expect_eq(t->sb.chips[2], 0);
    cr_expect_eq(t->sb.n_skills, 2);
    cr_expect_str_eq(t->sb.skills[0].name, "Firearms");
    cr_expect_eq(t->sb.skills[0].aspect, FT_ASPECT_SP);
    cr_expect_eq(t->sb.skills[0].n_specs, 1);
    cr_expect_str_eq(t->sb.skills[0].specs[0], "Rifles");
    cr_expect_eq(t->sb.mana_regen, -1, "the option's");
    free(s);
}

/* rules-facts.md "Derived values" (and RULINGS 16: "unless the stat block
 * says otherwise"); seed 000 "Size Modifiers": the shadow revenant is
 * Large, size rank 1; seed 000 "STUN Damage": the bandit's ER is 1. */
Test(towers_load, derived_values_and_overrides) {
    ft_setup *s = load_ok("tests/data/towers/good_roster.yaml");
    const ft_combatant *r = who(s, "revenant");
    cr_expect_eq(r->sb.size_rank, 1);
    cr_expect_eq(r->sb.endurance, 4);
    cr_expect_eq(r->sb.max_stun, 40, "stun: 40 overrides [[E]] x 8 = 32");
    cr_expect_eq(r->sb.max_lethal, 12, "[[E]] + 8");
    cr_expect(r->sb.immune & (1u << FT_DMG_DARK));
    cr_expect(r->sb.immune & (1u << FT_DMG_POISON));
    cr_expect_eq(r->sb.susceptible, 1u << FT_DMG_LIGHT);
    cr_expect_eq(r->sb.mana[FT_ELEM_DARK], 2);
    const ft_combatant *b = who(s, "bandit");
    cr_expect_eq(b->sb.cv[FT_CV_ER], 1);
    cr_expect_eq(b->sb.max_stun, 16);
    cr_expect_eq(b->sb.max_lethal, 10);
    cr_expect_eq(b->sb.controller, FT_CTRL_GM, "gm by default");
    free(s);

    fray_status st;
    fray_diag diag;
    const char *rel = "tests/data/towers/good_json_encounter.yaml";
    s = load_n(&rel, 1, &st, &diag);
    cr_assert_eq(st, FRAY_OK, "%s", diag.message);
    const ft_combatant *ana = who(s, "ana");
    cr_expect_eq(ana->sb.max_stun, 24, "derived: 3 x 8");
    cr_expect_eq(ana->sb.max_lethal, 14, "lethal: 14 overrides 3 + 8");
    free(s);
}

/* `base:` starts from another stat block; lists given replace the base's. */
Test(towers_load, base_stat_blocks) {
    ft_setup *s = load_ok("tests/data/towers/good_roster.yaml");
    const ft_combatant *a = who(s, "archer"), *b = who(s, "bandit");
    cr_expect_str_eq(a->sb.name, "Bandit Archer");
    cr_expect_eq(a->sb.cv[FT_CV_PA], 3);
    cr_expect_eq(a->sb.cv[FT_CV_PD], 1);
    cr_expect_eq(a->sb.cv[FT_CV_ER], 1, "kept from the base");
    cr_expect_eq(a->sb.aspects[FT_ASPECT_SS], b->sb.aspects[FT_ASPECT_SS]);
    cr_expect_eq(a->sb.n_weapons, 2);
    cr_expect_str_eq(a->sb.weapons[0].name, "Bow");
    cr_expect_eq(a->sb.wielded[0], 0);
    cr_expect_eq(a->sb.n_skills, 1, "skills kept from the base");
    /* The Black Knight: two melee weapons and a stance (seed 000 "Off-Hand
     * Weapons and Dual-Wielding"). */
    const ft_combatant *k = who(s, "black");
    cr_expect_eq(k->sb.wielded[0], 0);
    cr_expect_eq(k->sb.wielded[1], 1);
    cr_expect(k->sb.dual_aggressive);
    cr_expect_str_eq(k->sb.armor.name, "Plate");
    cr_expect_eq(k->sb.n_advantages, 2, "the base's advantage and its own disadvantage");
    bool found = false;
    for (int i = 0; i < k->sb.n_advantages; i++)
        if (strcmp(k->sb.advantages[i].name, "Arrogant") == 0) {
            found = true;
            cr_expect_eq(k->sb.advantages[i].rank, -1, "disadvantages are negative");
            cr_expect_eq(k->sb.advantages[i].applies, FT_APPLIES_DEFENSE);
        }
    cr_expect(found);
    /* Knight of Areast: armor pieces add up (Chain + Shield). */
    const ft_combatant *kn = who(s, "aldric");
    cr_expect(kn->sb.has_armor);
    cr_expect_eq(kn->sb.armor.er, 2);
    cr_expect_eq(kn->sb.armor.spd, -1);
    cr_expect_eq(kn->sb.armor.pd_shift, 1);
    cr_expect_eq(kn->sb.wielded[0], 0, "the first weapon, in the main hand");
    cr_expect_eq(kn->sb.wielded[1], -1, "the shield is worn, not wielded");
    cr_expect_not(kn->sb.dual_aggressive, "one weapon: no stance");
    cr_expect_eq(kn->sb.advantages[0].rank, 1);
    cr_expect_eq(kn->sb.advantages[0].applies, FT_APPLIES_MELEE_ATTACK);
    cr_expect_eq(kn->sb.skills[0].n_specs, 2);
    free(s);
}

/* JSON files load the same way (JSON is YAML's flow style); weapons
 * inline, as printed rows (with the closing bar of the seed's tables), and
 * from the catalog. */
Test(towers_load, json_and_inline_weapons) {
    ft_setup *s = load_ok("tests/data/towers/good_json_encounter.yaml");
    const ft_combatant *a = who(s, "ana");
    cr_assert_eq(a->sb.n_weapons, 3);
    const ft_weapon *d = &a->sb.weapons[1];
    cr_expect_str_eq(d->name, "Parrying Dagger");
    cr_expect_eq(d->attack_bonus, 1);
    cr_expect_eq(d->damage, 1);
    cr_expect(d->adds_px);
    cr_expect_eq(d->cost_dollars, 12);
    cr_expect_eq(d->keywords, FT_KW(BLADE) | FT_KW(LIGHT));
    const ft_weapon *w = &a->sb.weapons[2];
    cr_expect(w->spell);
    cr_expect_eq(w->type, FT_DMG_ELECTRICITY);
    cr_expect_eq(w->element, FT_ELEM_AIR);
    cr_expect_eq(w->max_range, 6);
    cr_expect_eq(a->sb.wielded[0], 0);
    cr_expect_eq(a->sb.wielded[1], 1);
    cr_expect_not(a->sb.dual_aggressive, "stance: defensive");
    cr_expect_eq(a->sb.size_rank, -1, "small");
    cr_expect_eq(a->sb.temp_stun, 5);
    cr_expect_eq(a->sb.chips[1] + a->sb.chips[2], 2);
    cr_expect_eq(a->sb.n_advantages, 3);
    cr_expect_eq(a->sb.advantages[1].applies, FT_APPLIES_SKILL);
    cr_expect_str_eq(a->sb.advantages[1].skill, "Dueling");
    cr_expect_eq(a->sb.advantages[2].rank, -2);
    /* Two pistols of the same name, one in each hand; no stance with
     * ranged weapons (seed 000 "Off-Hand Weapons and Dual-Wielding"). */
    const ft_combatant *e = who(s, "eve");
    cr_expect_eq(e->sb.wielded[0], 0);
    cr_expect_eq(e->sb.wielded[1], 1);
    cr_expect_not(e->sb.dual_aggressive);
    /* An inline stat block on a combatant, from a base. */
    const ft_combatant *b = who(s, "bo");
    cr_expect_str_eq(b->sb.name, "Pupil");
    cr_expect_eq(b->sb.controller, FT_CTRL_PLAYER);
    cr_expect_eq(b->sb.cv[FT_CV_N], 3);
    free(s);
}

/* ---- Encounters ----------------------------------------------------------------- */

/* Seed 000 "Dueling", stage one: in a melee duel both start adjacent. */
Test(towers_load, duel) {
    ft_setup *s = load_ok("examples/towers/duel.yaml");
    cr_expect_str_eq(s->name, "Duel at the Bridge");
    cr_expect(s->has_seed);
    cr_expect_eq(s->seed, 1187);
    cr_expect(s->has_map);
    cr_expect_eq(s->map.w, 12);
    cr_expect_eq(s->map.h, 8);
    cr_expect_eq(s->n_sides, 2);
    cr_assert_eq(s->n_combatants, 2);
    const ft_combatant *a = who(s, "aldric"), *k = who(s, "black-knight");
    cr_expect(a->placed && k->placed);
    cr_expect_eq(a->start.x, 5);
    cr_expect_eq(a->start.y, 3);
    fray_footprint fa = {a->start, 1}, fk = {k->start, 1};
    cr_expect(fray_grid_adjacent(fa, fk));
    cr_expect_eq(a->symbol, 'S', "the name's first letter");
    cr_expect_eq(k->symbol, 'K');
    cr_expect_eq(a->side, 0);
    cr_expect_eq(k->side, 1);
    cr_expect_str_eq(a->sb.weapons[a->sb.wielded[0]].name, "Longblade");
    cr_expect_str_eq(k->sb.weapons[k->sb.wielded[0]].name, "Longblade");
    cr_expect_eq(a->tactics.preset, FT_TAC_ATTACK);
    cr_expect_eq(k->tactics.preset, FT_TAC_POWER_ATTACK);
    cr_expect_eq(s->map.terrain[0][0], FRAY_TERRAIN_PIT);
    cr_expect_eq(s->map.terrain[2][0], FRAY_TERRAIN_DIFFICULT);
    fray_pos p1 = {4, 1}, p2 = {4, 2};
    cr_expect_eq(fray_grid_edge(&s->map, p1, p2), FRAY_EDGE_LOW);
    /* RULINGS 2: both knights are the GM's: one GM deck. */
    cr_expect_eq(s->n_decks, 1);
    cr_expect_str_eq(s->deck_names[0], "GM");
    cr_expect_eq(a->deck, 0);
    cr_expect_eq(k->deck, 0);
    free(s);
}

/* The skirmish: walls, a low wall, a wall edge, difficult terrain, a
 * window; placement by `at` and by the legend; RULINGS 2 decks. */
Test(towers_load, skirmish) {
    ft_setup *s = load_ok("examples/towers/skirmish.yaml");
    cr_expect_eq(s->map.w, 16);
    cr_expect_eq(s->map.h, 10);
    cr_expect_eq(s->n_combatants, 6);
    cr_expect_eq(s->map.terrain[0][0], FRAY_TERRAIN_WALL);
    cr_expect_eq(s->map.terrain[2][7], FRAY_TERRAIN_WINDOW);
    cr_expect_eq(s->map.terrain[3][11], FRAY_TERRAIN_DIFFICULT);
    fray_pos a = {12, 1}, b = {13, 1}, c = {10, 5}, d = {10, 6};
    cr_expect_eq(fray_grid_edge(&s->map, a, b), FRAY_EDGE_LOW);
    a.y = b.y = 2;
    cr_expect_eq(fray_grid_edge(&s->map, a, b), FRAY_EDGE_LOW);
    cr_expect_eq(fray_grid_edge(&s->map, c, d), FRAY_EDGE_WALL);
    const ft_combatant *g = who(s, "gunman");
    cr_expect(g->placed);
    cr_expect_eq(g->start.x, 13);
    cr_expect_eq(g->start.y, 1);
    cr_expect_eq(g->symbol, 'g', "the legend's character");
    cr_expect_eq(s->map.terrain[1][13], FRAY_TERRAIN_OPEN, "a mark is open floor");
    cr_expect_str_eq(g->name, "Vask");
    const ft_combatant *w = who(s, "wren");
    cr_expect_eq(w->tactics.preset, FT_TAC_RANGED);
    cr_expect_eq(w->tactics.target, FT_TARGET_WEAKEST);
    cr_expect_eq(w->tactics.recover_below_pct, 25);
    cr_expect(w->tactics.use_hand_of_fate, "default");
    cr_expect(w->tactics.use_chips);
    cr_expect(w->tactics.opportunity_attacks);
    cr_expect_str_eq(w->sb.weapons[0].name, "Bolt of Fire");
    cr_expect_eq(w->sb.mana[FT_ELEM_FIRE], 3);
    cr_expect_eq(w->sb.mana_regen, 1);
    cr_expect_eq(who(s, "bandit")->tactics.preset, FT_TAC_DEFAULT);
    cr_expect_eq(who(s, "bandit")->tactics.recover_below_pct, 35);
    /* RULINGS 2: each player character has its own deck; the Red Hand share
     * the GM's. Aldric is a player's through his inline stat block. */
    cr_expect_eq(who(s, "aldric")->sb.controller, FT_CTRL_PLAYER);
    cr_expect_eq(s->n_decks, 4);
    int dt = who(s, "tony")->deck, da = who(s, "aldric")->deck,
        dw = who(s, "wren")->deck, dg = who(s, "gunman")->deck;
    cr_expect(dt != da && da != dw && dt != dw);
    cr_expect_eq(dg, who(s, "sellsword")->deck);
    cr_expect_eq(dg, who(s, "bandit")->deck);
    cr_expect_str_eq(s->deck_names[dg], "GM");
    cr_expect_eq(s->deck_controller[dg], FT_CTRL_GM);
    cr_expect_str_eq(s->deck_names[dt], "Tony");
    cr_expect_eq(s->deck_controller[dt], FT_CTRL_PLAYER);
    free(s);
}

/* Seed 000 "Entering Combat and Initiative": those unaware of their
 * opponents are delayed (unaware-of marks whom they do not know about);
 * `count: 3` makes three bandits. */
Test(towers_load, ambush_surprise_and_count) {
    ft_setup *s = load_ok("examples/towers/ambush.yaml");
    cr_expect_eq(s->n_combatants, 7);
    cr_expect_eq(s->opt.surprise_delay, 10);
    int bandits = 1; /* side index */
    cr_expect_str_eq(s->sides[bandits], "Bandits");
    for (int i = 0; i < s->n_combatants; i++) {
        const ft_combatant *c = &s->c[i];
        if (c->side == 0)
            cr_expect_eq(c->unaware_of, 1u << bandits, "%s is unaware", c->id);
        else
            cr_expect_eq(c->unaware_of, 0u, "%s knows", c->id);
    }
    const char *ids[3] = {"bandit-1", "bandit-2", "bandit-3"};
    const char *names[3] = {"Bandit 1", "Bandit 2", "Bandit 3"};
    int xs[3] = {2, 9, 6}, ys[3] = {2, 2, 6};
    for (int k = 0; k < 3; k++) {
        const ft_combatant *c = who(s, ids[k]);
        cr_expect_str_eq(c->name, names[k]);
        cr_expect_eq(c->start.x, xs[k]);
        cr_expect_eq(c->start.y, ys[k]);
        cr_expect_eq(c->symbol, 'b');
        cr_expect_eq(c->tactics.target, FT_TARGET_WEAKEST);
    }
    cr_expect_eq(s->map.terrain[1][1], FRAY_TERRAIN_DIFFICULT, "the archer hides in undergrowth");
    cr_expect_eq(who(s, "archer")->start.x, 1);
    cr_expect_eq(who(s, "tony")->start.x, 3, "placed by the legend");
    cr_expect_eq(who(s, "tony")->start.y, 4);
    free(s);
}

/* Legend marks: count: 3 in reading order, a Large creature drawn whole
 * (seed 000 "Creature Sizes": 2x2), Tiny creatures sharing a space (sizes
 * adding up to 1 or less), elevation in the legend; decks: one-for-table
 * (RULINGS 2 option). */
Test(towers_load, map_marks) {
    ft_setup *s = load_ok("tests/data/towers/good_marks.yaml");
    cr_assert_eq(s->n_combatants, 5);
    cr_expect_eq(who(s, "rat-1")->start.x, 0);
    cr_expect_eq(who(s, "rat-2")->start.x, 3);
    cr_expect_eq(who(s, "rat-3")->start.x, 4);
    cr_expect_eq(who(s, "rat-3")->start.y, 2);
    cr_expect_eq(who(s, "rat-king")->start.x, 4, "two Tiny rats share a space");
    const ft_combatant *o = who(s, "ogre");
    cr_expect_eq(o->start.x, 1);
    cr_expect_eq(o->start.y, 1);
    cr_expect_eq(o->symbol, 'O');
    cr_expect_eq(s->map.elevation[1][4], 2);
    cr_expect_eq(s->n_decks, 1);
    cr_expect_str_eq(s->deck_names[0], "table");
    for (int i = 0; i < s->n_combatants; i++)
        cr_expect_eq(s->c[i].deck, 0);
    free(s);
}

/* RULINGS 2: explicit deck names are shared; per-combatant decks. */
Test(towers_load, deck_modes) {
    ft_setup *s = load_ok("tests/data/towers/good_json_encounter.yaml");
    /* ana and bo both name the deck "Duelists"; cy is a player's (own deck);
     * dee the GM's. */
    cr_expect_eq(who(s, "ana")->deck, who(s, "bo")->deck);
    cr_expect_str_eq(s->deck_names[who(s, "ana")->deck], "Duelists");
    cr_expect_str_eq(s->deck_names[who(s, "cy")->deck], "Cy");
    cr_expect_str_eq(s->deck_names[who(s, "dee")->deck], "GM");
    cr_expect_eq(who(s, "eve")->deck, who(s, "dee")->deck);
    cr_expect_eq(s->n_decks, 3);
    free(s);
    s = load_ok("tests/data/towers/good_options.yaml");
    cr_expect_eq(s->opt.decks, FT_DECKS_PER_COMBATANT);
    cr_expect_eq(s->n_decks, 3, "one per combatant");
    cr_expect_str_eq(s->deck_names[who(s, "rat-2")->deck], "Rat 2");
    free(s);
}

/* Every option key sets its field (RULINGS 1-3, 10-17, 20-22; seed 000
 * surprise; fray's phase limit and simultaneous duel). */
Test(towers_load, every_option) {
    ft_options d;
    ft_options_default(&d);
    ft_setup *s = load_ok("tests/data/towers/good_options.yaml");
    const ft_options *o = &s->opt;
    cr_expect(o->deck.aces_low && !d.deck.aces_low);
    cr_expect_eq(o->deck.jokers, 2);
    cr_expect_eq(d.deck.jokers, 0);
    cr_expect_eq(o->deck.joker_value, 0);
    cr_expect_eq(d.deck.joker_value, 15);
    cr_expect(o->flip.min_one_card && !d.flip.min_one_card);
    cr_expect_eq(o->decks, FT_DECKS_PER_COMBATANT);
    cr_expect_eq(d.decks, FT_DECKS_BY_CONTROLLER);
    cr_expect_eq(o->hand_of_fate, 5);
    cr_expect_eq(d.hand_of_fate, 3);
    cr_expect(!o->flat_footed_loses_ss && d.flat_footed_loses_ss);
    cr_expect_eq(o->full_defense_flip, 2);
    cr_expect_eq(d.full_defense_flip, 1);
    cr_expect_eq(o->opportunity_delay, 5);
    cr_expect_eq(d.opportunity_delay, 3);
    cr_expect_eq(o->mana_regen, 2);
    cr_expect_eq(d.mana_regen, 1);
    cr_expect(!o->dying_loses_lethal && d.dying_loses_lethal);
    cr_expect_eq(o->dead_at_multiple, 3);
    cr_expect_eq(d.dead_at_multiple, 2);
    cr_expect(!o->disabled_unconscious && d.disabled_unconscious);
    cr_expect(!o->crit_needs_heart && d.crit_needs_heart);
    cr_expect_eq(o->recover_stun, 4);
    cr_expect_eq(d.recover_stun, 0, "[[E]]");
    cr_expect(!o->grapple_size_cards && d.grapple_size_cards);
    cr_expect_eq(o->surprise_delay, 7);
    cr_expect_eq(d.surprise_delay, 10);
    cr_expect_eq(o->max_phase, 0);
    cr_expect_eq(d.max_phase, 300);
    cr_expect(o->simultaneous_duel && !d.simultaneous_duel);
    cr_expect(o->fresh_decks && !d.fresh_decks);
    cr_expect_eq(o->unconscious_bonus, FT_UB_LETHAL | FT_UB_DEFENSE);
    cr_expect_eq(d.unconscious_bonus, FT_UB_LETHAL, "seed 000 \"STUN Damage\"");
    cr_expect(s->has_seed);
    cr_expect_eq(s->seed, UINT64_MAX);
    free(s);
    /* A file without options has the defaults. */
    s = load_ok("examples/towers/skirmish.yaml");
    cr_expect_eq(memcmp(&s->opt, &d, sizeof d), 0);
    free(s);
}

/* Several files at once: catalogs and stat blocks first, the encounter
 * last, whatever their order; a file named twice is read once. */
Test(towers_load, several_files) {
    const char *rel[3] = {"examples/towers/duel.yaml",
                          "examples/towers/statblocks.yaml",
                          "data/towers/equipment.yaml"};
    fray_status st;
    fray_diag diag;
    ft_setup *s = load_n(rel, 3, &st, &diag);
    cr_assert_eq(st, FRAY_OK, "%s:%d:%d: %s", diag.file, diag.line, diag.column,
                 diag.message);
    cr_expect_eq(s->n_combatants, 2);
    cr_expect_eq(s->n_catalog, 18);
    free(s);
}

/* ---- Bad files: file:line:column and what was expected --------------------- */

typedef struct bad_case {
    const char *file;     /* under tests/data/towers/ */
    fray_status status;
    const char *err_file; /* the file at fault, when another */
    int line, column;
    const char *fragment;
} bad_case;

static const bad_case bad_cases[] = {
    {"bad_unknown_key.yaml", FRAY_ERR_PARSE, NULL, 7, 5,
     "unknown key 'speeed' in a stat block; expected one of: name, base, aspects"},
    {"bad_wrong_type.yaml", FRAY_ERR_PARSE, NULL, 4, 24,
     "expected a whole number for PA, got 'three'"},
    {"bad_unknown_weapon.yaml", FRAY_ERR_PARSE, NULL, 7, 27,
     "unknown weapon 'Longsword'; known: Longblade, Heavy Rifle"},
    {"bad_unknown_keyword.yaml", FRAY_ERR_PARSE, NULL, 3, 50,
     "unknown keyword 'Sharp' for Stick; the keywords are: Two-Handed, Large"},
    {"bad_duplicate_id.yaml", FRAY_ERR_PARSE, NULL, 7, 5,
     "two combatants have the id 'Guard' (the first at line 5)"},
    {"bad_unknown_side.yaml", FRAY_ERR_PARSE, NULL, 7, 37,
     "unknown side 'Vermn' (did you mean 'Vermin'?)"},
    {"bad_map_symbol.yaml", FRAY_ERR_PARSE, NULL, 8, 8,
     "unknown map symbol 'Q' (not in the legend)"},
    {"bad_map_too_large.yaml", FRAY_ERR_RANGE, NULL, 6, 69,
     "the map is 70 spaces wide; at most 64"},
    {"bad_on_wall.yaml", FRAY_ERR_PARSE, NULL, 14, 9,
     "'rat' at [5, 1] stands on wall terrain"},
    {"bad_yaml_syntax.yaml", FRAY_ERR_PARSE, NULL, 5, 1,
     "YAML syntax: flow sequence without a closing bracket"},
    {"bad_missing_key.yaml", FRAY_ERR_PARSE, NULL, 9, 5,
     "missing key 'side' in combatant 'guard-b'"},
    {"bad_out_of_range.yaml", FRAY_ERR_RANGE, NULL, 5, 11,
     "jokers must be between 0 and 2, got 3"},
    {"bad_overlap.yaml", FRAY_ERR_PARSE, NULL, 11, 52,
     "'ogre' and 'guard' are both in the space [2, 1]"},
    {"bad_two_handed.yaml", FRAY_ERR_PARSE, NULL, 8, 12,
     "'Heavy Rifle' is Two-Handed: the other hand must be empty"},
    {"bad_chips.yaml", FRAY_ERR_RANGE, NULL, 6, 12,
     "'Lucky' holds 4 chips; at most 3 are held"},
    {"bad_include_missing.yaml", FRAY_ERR_IO, NULL, 3, 14,
     "cannot open 'no-such-file.yaml'"},
    {"bad_in_included.yaml", FRAY_ERR_PARSE, "bad_unknown_key.yaml", 7, 5,
     "unknown key 'speeed' in a stat block"},
    {"bad_marks.yaml", FRAY_ERR_PARSE, NULL, 10, 5,
     "the map shows 'r' on 2 spaces; 'rat' is 3 combatants"},
    {"bad_not_fray.yaml", FRAY_ERR_PARSE, NULL, 1, 1, "missing key 'fray'"},
    {"bad_spell_range.yaml", FRAY_ERR_PARSE, NULL, 6, 5,
     "Spark is a spell: spells have only a maximum range"},
    {"bad_dup_key.yaml", FRAY_ERR_PARSE, NULL, 3, 1,
     "key 'name' appears twice in an encounter (first at line 2)"},
    {"bad_large_off_map.yaml", FRAY_ERR_RANGE, NULL, 10, 51,
     "'ogre' (Large, 2x2 spaces from [4, 0]) does not fit on the map (5x2)"},
    {"bad_one_side.yaml", FRAY_ERR_PARSE, NULL, 5, 3,
     "an encounter needs at least two sides"},
    {"bad_quoted_keyword.yaml", FRAY_ERR_PARSE, NULL, 8, 23,
     "unknown keyword 'Sharp' for X"},
    {"bad_too_many.yaml", FRAY_ERR_RANGE, NULL, 6, 5,
     "too many combatants: this makes 33; at most 32"},
    /* libfyaml places a quoted scalar at its first character, inside the
     * quotes. */
    {"bad_empty_name.yaml", FRAY_ERR_PARSE, NULL, 2, 8,
     "expected text for the encounter's name, got nothing"},
    /* issue 11 "A NUL byte in a YAML file": refused where it is, not taken
     * for the end of the file (a third guard follows it), in YAML and in
     * JSON. */
    {"bad_nul.yaml", FRAY_ERR_PARSE, NULL, 8, 50, "a NUL byte (0x00)"},
    {"bad_nul.json", FRAY_ERR_PARSE, NULL, 4, 60, "a NUL byte (0x00)"},
    /* docs/file-formats.md "Rulesets": a file for rules fray does not run
     * (yet) is refused at its `rules:`, never read as 99 Towers. */
    {"bad_rules_alloy.yaml", FRAY_ERR_PARSE, NULL, 4, 8,
     "a file of rules: alloy (Alloy), not 99 Towers"},
    {"bad_rules_winter.yaml", FRAY_ERR_PARSE, NULL, 4, 8,
     "fray does not run Silent Winter yet"},
    {"bad_rules_typo.yaml", FRAY_ERR_PARSE, NULL, 3, 8,
     "no ruleset 'tower' (did you mean 'towers'?)"},
    {"bad_rules_unknown.yaml", FRAY_ERR_PARSE, NULL, 3, 8,
     "no ruleset 'chess'"},
};

static bool ends_with(const char *s, const char *end) {
    size_t ls = strlen(s), le = strlen(end);
    return ls >= le && strcmp(s + ls - le, end) == 0;
}

/* Each bad file: refused (never half-loaded: the caller's setup is left
 * alone), with the file, line and column of the fault and a message that
 * says what was expected. */
Test(towers_load, bad_files) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *b = &bad_cases[i];
        char rel[256];
        snprintf(rel, sizeof rel, "tests/data/towers/%s", b->file);
        const char *r = rel;
        fray_diag diag;
        memset(&diag, 0x55, sizeof diag);
        fray_status st;
        ft_setup *s = malloc(sizeof *s);
        memset(s, 0x5a, sizeof *s);
        char path[512];
        snprintf(path, sizeof path, "%s%s", SRC, r);
        const char *p = path;
        st = ft_load_files(&p, 1, s, &diag);
        cr_expect_eq(st, b->status, "%s: status %d: %s", b->file, st, diag.message);
        const char *df = fray_diag_file(&diag);
        cr_expect_not_null(df, "%s", b->file);
        if (df)
            cr_expect(ends_with(df, b->err_file ? b->err_file : b->file),
                      "%s: the error is in '%s'", b->file, df);
        cr_expect_eq(diag.line, b->line, "%s: line %d, not %d (%s)", b->file,
                     diag.line, b->line, diag.message);
        cr_expect_eq(diag.column, b->column, "%s: column %d, not %d (%s)", b->file,
                     diag.column, b->column, diag.message);
        cr_expect_not_null(strstr(diag.message, b->fragment), "%s: '%s' lacks '%s'",
                           b->file, diag.message, b->fragment);
        /* Nothing written to the caller's setup. */
        unsigned char *bytes = (unsigned char *)s;
        bool untouched = true;
        for (size_t k = 0; k < sizeof *s && untouched; k++)
            untouched = bytes[k] == 0x5a;
        cr_expect(untouched, "%s: the setup was changed", b->file);
        free(s);
    }
}

/* A file that does not exist. */
Test(towers_load, missing_file) {
    fray_diag diag;
    const char *p = SRC "tests/data/towers/nothing-here.yaml";
    ft_setup *s = malloc(sizeof *s);
    /* A file that cannot be opened is its own error (issue 15). */
    cr_expect_eq(ft_load_files(&p, 1, s, &diag), FRAY_ERR_IO);
    cr_expect_eq(diag.file, p, "the caller's own string");
    cr_expect_eq(diag.line, 0);
    cr_expect_not_null(strstr(diag.message, "cannot open the file"));
    free(s);
}

/* An error in a file the encounter names, whose path is long: the diag
 * keeps its own copy of the path in file_name (a copy of the diag stays
 * valid), cut at its start past 255 bytes; the path keeps its end. */
Test(towers_load, error_in_included_file_with_a_long_path) {
    char dir[400], file[600], enc[600];
    snprintf(dir, sizeof dir, "/tmp/fray-load-%d", (int)getpid());
    mkdir(dir, 0700);
    size_t n = strlen(dir);
    dir[n++] = '/';
    memset(dir + n, 'x', 240);
    dir[n + 240] = '\0';
    cr_assert_eq(mkdir(dir, 0700), 0);
    snprintf(file, sizeof file, "%s/statblocks.yaml", dir);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    fputs("fray: statblocks\nstatblocks:\n  - {name: A, speeed: 3}\n", f);
    fclose(f);
    snprintf(enc, sizeof enc, "%s/../enc.yaml", dir);
    f = fopen(enc, "w");
    cr_assert_not_null(f);
    fprintf(f, "fray: encounter\nname: n\nstatblocks: [%s]\ncombatants: []\n", file);
    fclose(f);
    fray_diag diag;
    const char *p = enc;
    ft_setup *s = malloc(sizeof *s);
    cr_expect_eq(ft_load_files(&p, 1, s, &diag), FRAY_ERR_PARSE);
    cr_expect_eq(diag.line, 3);
    cr_expect_eq(diag.column, 15);
    cr_expect_null(diag.file, "not the caller's string");
    const char *df = fray_diag_file(&diag);
    cr_assert_eq(df, diag.file_name, "the path lives in the diag's file_name");
    cr_expect(ends_with(df, "xxxx/statblocks.yaml"), "%s", df);
    cr_expect_eq(strncmp(df, "...", 3), 0, "the path lost its start");
    cr_expect_eq(strlen(df), sizeof diag.file_name - 1, "as much of it as fits");
    cr_expect_eq(strncmp(diag.message, "unknown key 'speeed' in a stat block", 36), 0,
                 "%s", diag.message);
    free(s);
    remove(file);
    remove(enc);
    rmdir(dir);
    dir[n - 1] = '\0';
    rmdir(dir);
}

/* ---- The public API (include/fray/encounter.h) --------------------------------- */

Test(towers_load, public_load_and_check) {
    fray_towers_setup *setup = NULL;
    fray_diag diag;
    cr_assert_eq(fray_towers_load(SRC "examples/towers/duel.yaml", NULL, &setup, &diag),
                 FRAY_OK, "%s", diag.message);
    cr_expect_str_eq(fray_towers_setup_name(setup), "Duel at the Bridge");
    uint64_t seed = 0;
    cr_expect(fray_towers_setup_seed(setup, &seed));
    cr_expect_eq(seed, 1187);
    fray_towers_setup_free(setup);
    fray_towers_setup_free(NULL);

    setup = (fray_towers_setup *)&diag;
    cr_expect_eq(fray_towers_load(SRC "tests/data/towers/bad_chips.yaml", NULL, &setup,
                                  &diag),
                 FRAY_ERR_RANGE);
    cr_expect_null(setup, "nothing is half-loaded: *out is NULL");

    cr_expect_eq(fray_towers_check(SRC "examples/towers/duel.yaml", &diag), FRAY_OK);
    cr_expect_str_eq(diag.message,
                     "encounter \"Duel at the Bridge\": 2 combatants, 2 sides, map 12x8");
    cr_expect_eq(fray_towers_check(SRC "data/towers/equipment.yaml", &diag), FRAY_OK);
    cr_expect_str_eq(diag.message, "catalog: 18 weapons, 5 armor");
    cr_expect_eq(fray_towers_check(SRC "examples/towers/statblocks.yaml", &diag), FRAY_OK);
    cr_expect_str_eq(diag.message, "stat blocks: 10");
    cr_expect_eq(fray_towers_check(SRC "tests/data/towers/bad_wrong_type.yaml", &diag),
                 FRAY_ERR_PARSE);
    cr_expect_eq(diag.line, 4);
}

/* STYLE.md "Route allocation through one place": every allocation the
 * loader makes can fail; each failure returns FRAY_ERR_NOMEM and leaks
 * nothing, and with enough memory the load succeeds. */
Test(towers_load, failing_allocator) {
    bool done = false;
    for (long n = 1; n < 10000 && !done; n++) {
        fail_alloc fa = {0, n, 0, 0};
        fray_allocator a = {fail_realloc, &fa};
        fray_towers_setup *setup = NULL;
        fray_diag diag;
        fray_status st = fray_towers_load(SRC "examples/towers/skirmish.yaml", &a, &setup,
                                          &diag);
        if (st == FRAY_OK) {
            cr_expect_not_null(setup);
            cr_expect_eq(setup->s.n_combatants, 6);
            fray_towers_setup_free(setup);
            done = true;
        } else {
            cr_expect_eq(st, FRAY_ERR_NOMEM, "allocation %ld: %s", n, diag.message);
            cr_expect_null(setup);
        }
        cr_expect_eq(fa.live, 0, "allocation %ld: %ld blocks leaked", n, fa.live);
    }
    cr_expect(done);
}

/* ---- issue 11: files as a careless or hostile user gives them ----------------- */

/* A fresh folder under /tmp for one test, and a file in it. */
static void temp_dir(char *dir, size_t size, const char *what) {
    snprintf(dir, size, "/tmp/fray-load-%s-%d", what, (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(mkdir(dir, 0700), 0, "%s", dir);
}
static void remove_dir(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
static void write_file(const char *dir, const char *name, const char *text) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    cr_assert(fputs(text, f) >= 0);
    cr_assert_eq(fclose(f), 0);
}
static fray_status check_in(const char *dir, const char *name, fray_diag *diag) {
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fray_towers_check(path, diag);
}

/* issue 11 "A FIFO as a data file, or named in statblocks:, hangs": both
 * are refused at once, saying what the file is (the test returning at all,
 * within its timeout, is the proof that nothing waited on the FIFO). */
Test(towers_load, issue_11_fifo_refused, .timeout = 20) {
    char dir[300], fifo[400];
    temp_dir(dir, sizeof dir, "fifo");
    snprintf(fifo, sizeof fifo, "%s/pipe.yaml", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    fray_diag diag;
    cr_expect_eq(check_in(dir, "pipe.yaml", &diag), FRAY_ERR_PARSE);
    cr_expect_not_null(strstr(diag.message, "it is a FIFO"), "%s", diag.message);

    write_file(dir, "enc.yaml",
               "fray: encounter\nname: Piped\nstatblocks: [pipe.yaml]\n"
               "sides: [a, b]\ncombatants: []\n");
    cr_expect_eq(check_in(dir, "enc.yaml", &diag), FRAY_ERR_PARSE);
    cr_expect_eq(diag.line, 3);
    cr_expect_eq(diag.column, 14);
    cr_expect_not_null(strstr(diag.message, "cannot read pipe.yaml: it is a FIFO"), "%s",
                       diag.message);
    /* A folder and a device are not read either. */
    cr_expect_eq(fray_towers_check(dir, &diag), FRAY_ERR_PARSE);
    cr_expect_not_null(strstr(diag.message, "it is a folder"), "%s", diag.message);
    cr_expect_eq(fray_towers_check("/dev/zero", &diag), FRAY_ERR_PARSE);
    cr_expect_not_null(strstr(diag.message, "it is a device"), "%s", diag.message);
    remove_dir(dir);
}

/* issue 11 "A symlinked folder followed by `..`": a path a file names is
 * opened relative to the real folder of that file, as the operating system
 * resolves it. enc.yaml names link/../sb.yaml, which is real/deep/sb.yaml
 * (link is real/deep/dir); that file's catalog, cat.yaml, is then
 * real/deep/cat.yaml (Physical Blade), not the cat.yaml beside enc.yaml
 * (Lexical Blade) that the tidied name sb.yaml would suggest. An error in
 * it is told under the name as written. */
Test(towers_load, issue_11_symlinked_folder_then_dotdot) {
    char dir[300], sub[400], link[400], target[400];
    temp_dir(dir, sizeof dir, "symlink");
    snprintf(sub, sizeof sub, "%s/real", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/real/deep", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    snprintf(target, sizeof target, "%s/real/deep/dir", dir);
    cr_assert_eq(mkdir(target, 0700), 0);
    snprintf(link, sizeof link, "%s/link", dir);
    cr_assert_eq(symlink("real/deep/dir", link), 0);
    static const char sb[] =
        "fray: statblocks\ncatalog: [cat.yaml]\nstatblocks:\n  - name: X\n"
        "    combat: {N: 1, PA: 2, PD: 2, SA: 0, ID: 1, PX: 1, ER: 1, IR: 0, SPD: 5}\n"
        "    endurance: 2\n    weapons: [Physical Blade]\n";
    write_file(sub, "sb.yaml", sb);
    write_file(dir, "sb.yaml", sb); /* the lexical twin: must not be read */
    write_file(sub, "cat.yaml",
               "fray: catalog\nweapons:\n"
               "  - \"Physical Blade | 1+PA | 4+PX | - | $25 | 3 lbs. | Blade\"\n");
    write_file(dir, "cat.yaml",
               "fray: catalog\nweapons:\n"
               "  - \"Lexical Blade | 1+PA | 4+PX | - | $25 | 3 lbs. | Blade\"\n");
    write_file(dir, "enc.yaml",
               "fray: encounter\nname: Linked\nstatblocks: [link/../sb.yaml]\n"
               "sides: [a, b]\ncombatants:\n  - {id: x, statblock: X, side: a}\n"
               "  - {id: y, statblock: X, side: b}\n");
    char path[600];
    snprintf(path, sizeof path, "%s/enc.yaml", dir);
    const char *p = path;
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    fray_diag diag;
    cr_assert_eq(ft_load_files(&p, 1, s, &diag), FRAY_OK, "%s:%d:%d: %s",
                 diag.file ? diag.file : "?", diag.line, diag.column, diag.message);
    cr_expect_eq(s->n_catalog, 1);
    cr_expect_str_eq(s->catalog[0].name, "Physical Blade");

    /* An error in the physical file names it as written. */
    write_file(sub, "sb.yaml",
               "fray: statblocks\ncatalog: [cat.yaml]\nstatblocks:\n  - {name: X, speeed: 3}\n");
    cr_expect_eq(ft_load_files(&p, 1, s, &diag), FRAY_ERR_PARSE);
    cr_expect(fray_diag_file(&diag) && ends_with(fray_diag_file(&diag), "/link/../sb.yaml"),
              "%s", fray_diag_file(&diag) ? fray_diag_file(&diag) : "?");
    cr_expect_eq(diag.line, 4);
    free(s);
    remove_dir(dir);
}

/* issue 11 "error messages quote the first characters of any file they
 * reach": until a file has a `fray:` kind it may be any file at all
 * (/etc/passwd), so nothing it holds is quoted: not as text that is not a
 * mapping, not as a list, not in a `fray:` that names no kind, not in an
 * alias, not in a YAML syntax error, and not when an encounter names such
 * a file. A near miss of a kind is still helped, in fray's own words. */
Test(towers_load, issue_11_no_quote_of_a_file_that_is_not_fray_data) {
    char dir[300];
    temp_dir(dir, sizeof dir, "quote");
    static const struct {
        const char *name, *text, *fragment;
    } cases[] = {
        {"passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1\n",
         "not a fray file: expected a mapping that starts with 'fray: encounter'"},
        {"list.yaml", "- root:x:0:0\n- daemon\n", "got a list"},
        {"kind.yaml", "fray: root:x:0:0\n", "'fray:' names no kind of fray file;"},
        {"typo.yaml", "fray: encuonter\n",
         "'fray:' names no kind of fray file (did you mean 'encounter'?)"},
        {"alias.yaml", "a: *rootx00\n", "an alias ('*') with no anchor ('&')"},
        {"version.yaml", "%YAML root.2\n---\na: b\n", "YAML syntax: "},
        {"enc.yaml", "fray: encounter\nname: E\nstatblocks: [passwd]\n",
         "not a fray file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        write_file(dir, cases[i].name, cases[i].text);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fray_diag diag;
        cr_expect_eq(check_in(dir, cases[i].name, &diag), FRAY_ERR_PARSE, "%s",
                     cases[i].name);
        cr_expect_gt(diag.line, 0, "%s: %s", cases[i].name, diag.message);
        cr_expect_not_null(strstr(diag.message, cases[i].fragment), "%s: '%s' lacks '%s'",
                           cases[i].name, diag.message, cases[i].fragment);
        cr_expect_null(strstr(diag.message, "root"), "%s quotes the file: %s",
                       cases[i].name, diag.message);
        cr_expect_null(strstr(diag.message, "encuonter"), "%s quotes the file: %s",
                       cases[i].name, diag.message);
    }
    remove_dir(dir);
}

/* issue 11 "YAML tags (!!str 5) are ignored": the Core Schema tags are
 * honoured as assertions of a node's type (!!str 5 is the text "5", so a
 * number refuses it; !!int 5 is fine; !!int x breaks its tag) and any
 * other tag is refused, naming it, at the tag's line and column. */
Test(towers_load, issue_11_yaml_tags) {
    static const struct {
        const char *jokers, *fresh; /* options: {jokers: J, fresh-decks: F} */
        fray_status status;
        int column;
        const char *fragment;
    } cases[] = {
        {"!!int 1", "!!bool true", FRAY_OK, 0, NULL},
        {"!<tag:yaml.org,2002:int> 1", "true", FRAY_OK, 0, NULL},
        {"!!str 1", "true", FRAY_ERR_PARSE, 25, /* a reader's error: at the value */
         "expected a whole number for jokers, got '1' (tagged !!str)"},
        {"1", "!!str true", FRAY_ERR_PARSE, 41,
         "expected true or false for fresh-decks, got 'true' (tagged !!str)"},
        {"!!float 1.5", "true", FRAY_ERR_PARSE, 27,
         "expected a whole number for jokers, got '1.5' (tagged !!float)"},
        {"!!int x", "true", FRAY_ERR_PARSE, 19,
         "the tag !!int says a whole number (in decimal), got 'x'"},
        {"1", "!!bool yes", FRAY_ERR_PARSE, 35, /* a tag's error: at the tag */
         "the tag !!bool says true or false"},
        {"!!seq 1", "true", FRAY_ERR_PARSE, 19, "the tag !!seq says a list, got '1'"},
        {"!foo 1", "true", FRAY_ERR_PARSE, 19,
         "the YAML tag '!foo' is not one fray reads; it reads !!str, !!int"},
        {"!<tag:example.com,2000:x> 1", "true", FRAY_ERR_PARSE, 19,
         "the YAML tag '!<tag:example.com,2000:x>' is not one fray reads"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "fray: encounter\nname: !!str 5\nstatblocks: [small.yaml]\n"
                 "sides: [a, b]\noptions: {jokers: %s, fresh-decks: %s}\n"
                 "combatants:\n  - {id: g1, statblock: Guard, side: a}\n"
                 "  - {id: g2, statblock: Guard, side: b}\n",
                 cases[i].jokers, cases[i].fresh);
        ft_setup *s = calloc(1, sizeof *s);
        cr_assert_not_null(s);
        fray_diag diag;
        fray_status st = ft_load_text(text, strlen(text), SRC "tests/data/towers/tags.yaml",
                                      NULL, s, &diag);
        cr_expect_eq(st, cases[i].status, "%s / %s: %s", cases[i].jokers, cases[i].fresh,
                     diag.message);
        if (st == FRAY_OK) {
            cr_expect_str_eq(s->name, "5", "!!str 5 is the text 5");
            cr_expect_eq(s->opt.deck.jokers, 1);
        } else if (cases[i].fragment) {
            cr_expect_eq(diag.line, 5, "%s", diag.message);
            cr_expect_eq(diag.column, cases[i].column, "%s", diag.message);
            cr_expect_not_null(strstr(diag.message, cases[i].fragment), "'%s' lacks '%s'",
                               diag.message, cases[i].fragment);
        }
        free(s);
    }
}

/* An allocator that remembers the most it held at once. */
typedef struct peak_alloc {
    size_t live, peak;
} peak_alloc;
static void *peak_realloc(void *ud, void *p, size_t old, size_t size) {
    peak_alloc *pa = ud;
    if (size == 0) {
        if (p)
            pa->live -= old;
        free(p);
        return NULL;
    }
    void *q = realloc(p, size);
    if (q) {
        pa->live += size - old;
        if (pa->live > pa->peak)
            pa->peak = pa->live;
    }
    return q;
}

/* A catalog whose notes are a list of n values ("1,1,1...": two bytes a
 * value, the densest YAML there is). The caller frees it. */
static char *many_values(long n, size_t *out_len) {
    static const char head[] = "fray: catalog\nweapons: []\nnotes: [";
    size_t len = sizeof head - 1 + (size_t)n * 2 + 2;
    char *t = malloc(len + 1);
    cr_assert_not_null(t);
    memcpy(t, head, sizeof head - 1);
    char *p = t + sizeof head - 1;
    for (long i = 0; i < n; i++) {
        *p++ = '1';
        *p++ = i + 1 < n ? ',' : ']';
    }
    *p++ = '\n';
    *p = '\0';
    *out_len = (size_t)(p - t);
    return t;
}

/* issue 11 "An 8 MB YAML file costs 470 MB": a load is bounded
 * (docs/file-formats.md "Limits"): a file of more than 1 MiB is refused
 * before it is read, and so are more than 100000 values (the densest
 * 1 MiB of YAML holds 500000); the most a load may hold costs the loader
 * less than 20 MB (it was 470 MB for 8 MB of such values). */
Test(towers_load, issue_11_memory_bounded) {
    /* The size of a file. */
    size_t big = 1024 * 1024 + 1;
    char *text = malloc(big);
    cr_assert_not_null(text);
    memset(text, '#', big);
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    fray_diag diag;
    cr_expect_eq(ft_load_text(text, big, "big.yaml", NULL, s, &diag), FRAY_ERR_RANGE);
    cr_expect_not_null(strstr(diag.message, "the file is 1048577 bytes long; at most "
                                            "1048576 (1 MiB)"),
                       "%s", diag.message);
    free(text);
    char dir[300], path[400];
    temp_dir(dir, sizeof dir, "big");
    snprintf(path, sizeof path, "%s/big.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 8L * 1024 * 1024, SEEK_SET), 0); /* 8 MiB, sparse */
    cr_assert_eq(fputc('\n', f), '\n');
    cr_assert_eq(fclose(f), 0);
    peak_alloc pa = {0, 0};
    fray_allocator a = {peak_realloc, &pa};
    fray_towers_setup *setup = NULL;
    cr_expect_eq(fray_towers_load(path, &a, &setup, &diag), FRAY_ERR_RANGE);
    cr_expect_not_null(strstr(diag.message, "at most 1048576 (1 MiB)"), "%s", diag.message);
    cr_expect_lt(pa.peak, 1024 * 1024, "refused before it is read: %zu bytes", pa.peak);
    remove_dir(dir);

    /* The number of values: 99990 items and 7 more load... */
    size_t len;
    text = many_values(99990, &len);
    pa.live = pa.peak = 0;
    cr_expect_eq(ft_load_text(text, len, "many.yaml", &a, s, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_expect_lt(pa.peak, 20u * 1000 * 1000, "the loader held %zu bytes", pa.peak);
    cr_log_info("99997 values: the loader held at most %zu bytes", pa.peak);
    cr_expect_eq(pa.live, 0);
    free(text);
    /* ...one more value is refused, at its place. */
    text = many_values(100000, &len);
    cr_expect_eq(ft_load_text(text, len, "many.yaml", &a, s, &diag), FRAY_ERR_RANGE);
    cr_expect_not_null(strstr(diag.message, "more than 100000 values"), "%s", diag.message);
    cr_expect_eq(diag.line, 3);
    /* The 100001st value: the 99994th item, after the mapping, fray,
     * catalog, weapons, [], notes and the list. */
    cr_expect_eq(diag.column, 9 + 2 * (99994 - 1), "%s", diag.message);
    free(text);
    free(s);
}

/* Seed 000 "Shift Position": Sure-Footed is a capability (it lets a Shift
 * enter difficult terrain), so by default it applies to no flip; a file
 * that says `applies:` is followed. */
Test(towers_load, sure_footed_applies_to_no_flip_by_default) {
    ft_setup *s = load_ok("tests/data/towers/good_sure_footed.yaml");
    const ft_statblock *sb = &s->c[0].sb;
    int found = 0;
    for (int i = 0; i < sb->n_advantages; i++) {
        if (strcmp(sb->advantages[i].name, "Sure-Footed") == 0) {
            cr_expect_eq(sb->advantages[i].applies, FT_APPLIES_NONE);
            found++;
        }
        if (strcmp(sb->advantages[i].name, "Sure Footed") == 0) {
            cr_expect_eq(sb->advantages[i].applies, FT_APPLIES_DEFENSE);
            found++;
        }
    }
    cr_expect_eq(found, 2);
    free(s);
}

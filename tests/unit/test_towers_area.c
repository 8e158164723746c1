/*
 * test_towers_area.c - areas of effect in 99 Towers (seed 000 "Area of
 * Effects", "Areas": Aura X, Burst X, Cone X, Line X; rules-facts.md
 * "Magic"; src/rules/towers/area.c), on hand-built encounters with stacked
 * decks, and the example examples/towers/mage.yaml through the public API
 * (cards by hand, the journal).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "fray/fray.h"
#include "fray/sim.h"
#include "towers_fixture.h"

/* ---- A hand-built encounter ------------------------------------------------ */

/* "Fireball": SA against ID, 4 Arcane (Fire), maximum range 12, 2 fire
 * mana, Burst 2. */
static ft_weapon spell(const char *name, ft_area_shape shape, int size) {
    ft_weapon w = tf_weapon(name, 0, 4, false, 1);
    w.spell = true;
    w.category = FT_CAT_ARCANE;
    w.type = FT_DMG_FIRE;
    w.max_range = 12;
    w.mana_cost = 2;
    w.element = FT_ELEM_FIRE;
    w.area = (uint8_t)shape;
    w.area_size = (int8_t)size;
    return w;
}

/* [[E]] 2 (16 STUN, 10 LETHAL), SPD 5; <SA> and <ID> 1 (set below):
 * one card each. */
static const tf_stats stats = {.pa = 1, .pd = 1, .spd = 5, .endurance = 2};

static int add(fixture *f, const char *id, int side, int x, int y,
               ft_weapon w) {
    int i = tf_add(f, id, side, x, y, &stats, w);
    f->s.c[i].sb.cv[FT_CV_SA] = 1;
    f->s.c[i].sb.cv[FT_CV_ID] = 1;
    return i;
}

/* A 12 x 12 open map, one deck per combatant, no Hand of Fate. */
static fixture *fixture_new(void) {
    fixture *f = tf_new(12, 12);
    f->s.opt.decks = FT_DECKS_PER_COMBATANT;
    f->s.opt.hand_of_fate = 0;
    return f;
}

/* The mage (combatant 0) acts now, in phase 5; everyone has acted. */
static void start(fixture *f, int actor) {
    ft_state_reset(&f->s, &f->st, 42);
    for (int i = 0; i < f->st.n; i++) {
        f->st.c[i].phase = i == actor ? 5 : 9;
        f->st.c[i].init_rank = (int16_t)i;
        f->st.c[i].slot = 4 * (i + 1);
        f->st.c[i].flags |= FT_F_ACTED;
        f->st.c[i].mana[FT_ELEM_FIRE] = 2;
    }
    f->st.phase = 5;
    f->st.round = 1;
    ft_clock_sync(&f->st);
    memset(&f->ev, 0, sizeof f->ev);
    memset(&f->diag, 0, sizeof f->diag);
}

static fray_status apply(fixture *f, ft_command cmd) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = cmd;
    memset(&f->diag, 0, sizeof f->diag);
    tf_run(f, &f->diag);
    return ft_apply(&f->r);
}

/* "mage cast SPELL TARGET" or, with target -1, "at x,y". */
static ft_command cast(int mage, int weapon, int target, int x, int y) {
    ft_command c = tf_cmd(FT_ACT_CAST, mage);
    c.weapon = (int8_t)weapon;
    c.target = (int8_t)target;
    if (target < 0) {
        c.at_space = true;
        c.dest.x = (int16_t)x;
        c.dest.y = (int16_t)y;
    }
    return c;
}

static int area_count(fixture *f, ft_command c) {
    const ft_weapon *w = ft_area_weapon(&f->s, &f->st, &c);
    cr_assert_not_null(w);
    fray_area a;
    fray_footprint centre, origin;
    cr_assert_eq(ft_area_place(&f->s, &f->st, &c, w, &a, &centre, &origin,
                               &f->diag),
                 FRAY_OK, "%s", f->diag.message);
    return fray_area_count(&a);
}

static const ft_fact *nth_fact(const fixture *f, ft_fact_kind k, int n) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == k && n-- == 0)
            return &f->ev.facts[i];
    return NULL;
}

static int count_facts(const fixture *f, ft_fact_kind k) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == k;
    return n;
}

/* The AREA_HIT fact on t. */
static const ft_fact *result_on(const fixture *f, int t) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FT_FACT_AREA_HIT &&
            f->ev.facts[i].target == t)
            return &f->ev.facts[i];
    return NULL;
}

/* ---- Shapes ---------------------------------------------------------------- */

/* 000 "Burst X": "Burst 1 would be the 9 squares ... Burst 2 would be the
 * 21 squares" around the one aimed at; 000 "Aura X" around a Large
 * creature (2 x 2): Aura 1 is its 12 neighbours, "does not include the
 * square containing the source" unless the profile says so (self: 16). */
Test(towers_area, burst_and_aura_squares) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 1, spell("burst one", FT_AREA_BURST, 1));
    f->s.c[mage].sb.weapons[1] = spell("burst two", FT_AREA_BURST, 2);
    f->s.c[mage].sb.weapons[2] = spell("aura", FT_AREA_AURA, 1);
    f->s.c[mage].sb.weapons[3] = spell("aura self", FT_AREA_AURA, 1);
    f->s.c[mage].sb.weapons[3].area_self = true;
    f->s.c[mage].sb.n_weapons = 4;
    int ogre = add(f, "ogre", 1, 6, 6, spell("aura", FT_AREA_AURA, 1));
    f->s.c[ogre].sb.size_rank = 1; /* Large: 2 x 2 */
    start(f, mage);
    cr_expect_eq(area_count(f, cast(mage, 0, -1, 5, 5)), 9);
    cr_expect_eq(area_count(f, cast(mage, 1, -1, 5, 5)), 21);
    cr_expect_eq(area_count(f, cast(mage, 2, -1, 0, 0)), 8,
                 "an aura around a Medium user: its 8 neighbours");
    ft_command c = cast(mage, 2, -1, 0, 0);
    c.actor = (int8_t)ogre;
    c.weapon = 0;
    cr_expect_eq(area_count(f, c), 12, "Aura 1 around a Large creature");
    cr_expect_eq(area_count(f, cast(mage, 3, -1, 0, 0)), 9,
                 "aura 1 self: its own square too");
    free(f);
}

/* 000 "Cone X" (fray's reading: a quarter-turn wedge, 11 squares for a
 * Cone 3 along a row) and "Line X": "The target square is at one end of
 * the line" (option area-line: from-target, the default, starts on it and
 * goes on away from the attacker; from-caster starts beside the attacker). */
Test(towers_area, cone_and_line_squares_and_the_area_line_option) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("cone", FT_AREA_CONE, 3));
    f->s.c[mage].sb.weapons[1] = spell("line", FT_AREA_LINE, 5);
    f->s.c[mage].sb.n_weapons = 2;
    start(f, mage);
    cr_expect_eq(area_count(f, cast(mage, 0, -1, 8, 5)), 11);
    ft_command c = cast(mage, 1, -1, 4, 5);
    const ft_weapon *w = ft_area_weapon(&f->s, &f->st, &c);
    fray_area a;
    fray_footprint centre, origin;
    cr_assert_eq(ft_area_place(&f->s, &f->st, &c, w, &a, &centre, &origin,
                               &f->diag), FRAY_OK);
    cr_expect_eq(fray_area_count(&a), 5);
    for (int x = 4; x <= 8; x++)
        cr_expect(fray_area_has(&a, (fray_pos){(int16_t)x, 5}),
                  "from the target square (4,5) on: (%d,5)", x);
    cr_expect(!fray_area_has(&a, (fray_pos){3, 5}));
    f->s.opt.area_line_from_caster = true;
    cr_assert_eq(ft_area_place(&f->s, &f->st, &c, w, &a, &centre, &origin,
                               &f->diag), FRAY_OK);
    cr_expect_eq(fray_area_count(&a), 5);
    for (int x = 2; x <= 6; x++)
        cr_expect(fray_area_has(&a, (fray_pos){(int16_t)x, 5}),
                  "from beside the caster: (%d,5)", x);
    cr_expect(!fray_area_has(&a, (fray_pos){1, 5}), "not the caster's own");
    free(f);
}

/* 000 "Area of Effects": "You may target an individual": a burst aimed at
 * a Large creature (2 x 2) is centred on one of its squares, the first in
 * reading order that the attacker sees (a wall at (4,4) hides the top-left
 * square (6,4)). */
Test(towers_area, burst_on_a_large_target_is_centred_on_a_square_in_sight) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
    int ogre = add(f, "ogre", 1, 6, 4, spell("x", FT_AREA_NONE, 0));
    f->s.c[ogre].sb.size_rank = 1;
    f->s.map.terrain[4][4] = FRAY_TERRAIN_WALL;
    start(f, mage);
    fray_footprint one = {{6, 4}, 1};
    cr_assert(!fray_grid_sight_fp(&f->s.map, ft_fp(&f->s, &f->st, mage), one),
              "the wall hides (6,4)");
    ft_command c = cast(mage, 0, ogre, 0, 0);
    const ft_weapon *w = ft_area_weapon(&f->s, &f->st, &c);
    fray_area a;
    fray_footprint centre, origin;
    cr_assert_eq(ft_area_place(&f->s, &f->st, &c, w, &a, &centre, &origin,
                               &f->diag), FRAY_OK, "%s", f->diag.message);
    cr_expect(!(centre.at.x == 6 && centre.at.y == 4));
    cr_expect(centre.at.x >= 6 && centre.at.x <= 7 && centre.at.y >= 4 &&
                  centre.at.y <= 5, "a square of the ogre: (%d,%d)",
              centre.at.x, centre.at.y);
    cr_expect(fray_grid_sight_fp(&f->s.map, ft_fp(&f->s, &f->st, mage),
                                 centre), "in sight");
    free(f);
}

/* ---- The flips ------------------------------------------------------------- */

/* 000 "Area of Effects": "a single Attack Flip ... Each defender in the
 * area of effect gets a Defensive Flip. The attack hits each potential
 * target if the Attacker's flip is equal to or higher than the individual
 * target's": K (13) misses the ace (14), hits the 5 and ties the king.
 * The defenders flip nearest the centre first, then by combatant order. */
Test(towers_area, one_attack_flip_against_each_defense_flip) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 2));
    int far = add(f, "far", 1, 7, 5, spell("x", FT_AREA_NONE, 0));
    int centre = add(f, "centre", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
    int tie = add(f, "tie", 1, 6, 6, spell("x", FT_AREA_NONE, 0));
    int out = add(f, "out", 1, 9, 5, spell("x", FT_AREA_NONE, 0));
    start(f, mage);
    tf_stack(f, mage, "KS");
    tf_stack(f, centre, "AS");
    tf_stack(f, far, "5C");
    tf_stack(f, tie, "KD");
    cr_assert_eq(apply(f, cast(mage, 0, centre, 0, 0)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect_eq(count_facts(f, FT_FACT_FLIP), 4, "one attack, three defenses");
    const ft_fact *att = nth_fact(f, FT_FACT_FLIP, 0);
    cr_expect_eq(att->who, mage);
    cr_expect_eq(att->v[0], FT_FLIP_ATTACK);
    cr_expect_eq(nth_fact(f, FT_FACT_FLIP, 1)->who, centre, "the centre first");
    cr_expect_eq(nth_fact(f, FT_FACT_FLIP, 2)->who, far,
                 "then distance 1, by combatant order");
    cr_expect_eq(nth_fact(f, FT_FACT_FLIP, 3)->who, tie);
    cr_expect(!result_on(f, centre)->v[2], "13 against 14 misses");
    cr_expect(result_on(f, far)->v[2], "13 against 5 hits");
    cr_expect(result_on(f, tie)->v[2], "13 against 13: equal hits");
    cr_expect_null(result_on(f, out), "(9,5) is 3 from the centre");
    cr_expect_eq(f->st.c[centre].stun, 16, "missed: no harm");
    cr_expect_eq(f->st.c[far].stun, 12, "4 Arcane, no Hearts, <IR> 0");
    cr_expect_eq(f->st.c[tie].stun, 12);
    cr_expect_eq(f->st.c[out].stun, 16);
    const ft_fact *area = nth_fact(f, FT_FACT_AREA, 0);
    cr_assert_not_null(area);
    cr_expect_eq(area->v[0], FT_AREA_BURST);
    cr_expect_eq(area->v[2], 6);
    cr_expect_eq(area->v[3], 5, "centred on the target's square");
    cr_expect_eq((uint32_t)area->v[4],
                 (1u << far) | (1u << centre) | (1u << tie));
    /* The narration: the area, each flip and result, the one damage. */
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "Burst 2 centred on (6,5) catches far, centre "
                             "and tie"), "%s", f->buf);
    cr_expect(strstr(f->buf, "centre: missed, 13 against 14"), "%s", f->buf);
    cr_expect(strstr(f->buf, "far: hit, 13 against 5"), "%s", f->buf);
    cr_expect(strstr(f->buf, "one damage for all: 4"), "%s", f->buf);
    ft_render_event_json(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "{\"fact\":\"area\",\"who\":\"mage\",\"shape\":"
                             "\"burst\",\"size\":2,\"centre\":[6,5],"
                             "\"caught\":[\"far\",\"centre\",\"tie\"]}"),
              "%s", f->buf);
    cr_expect(strstr(f->buf, "{\"fact\":\"area-hit\",\"who\":\"mage\","
                             "\"target\":\"centre\",\"attack\":13,"
                             "\"defense\":14,\"hit\":false}"), "%s", f->buf);
    free(f);
}

/* 000 "Area of Effects": "Only one damage flip is used to determine the
 * severity of the damage. Each target applies his Resilience
 * individually": one Heart in the attack flip, 4 + 1 = 5 for all; <IR> 2
 * takes 3 STUN, <IR> 0 takes 5, the immune none, the susceptible double
 * (10 STUN, 2 LETHAL; seed 000 "Damage Types"). */
Test(towers_area, one_damage_each_ones_resilience) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
    int warded = add(f, "warded", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
    int plain = add(f, "plain", 1, 7, 5, spell("x", FT_AREA_NONE, 0));
    int immune = add(f, "immune", 1, 6, 4, spell("x", FT_AREA_NONE, 0));
    int weak = add(f, "weak", 1, 6, 6, spell("x", FT_AREA_NONE, 0));
    f->s.c[warded].sb.cv[FT_CV_IR] = 2;
    f->s.c[immune].sb.immune = 1u << FT_DMG_FIRE;
    f->s.c[weak].sb.susceptible = 1u << FT_DMG_FIRE;
    start(f, mage);
    tf_stack(f, mage, "KH");
    for (int i = 1; i < 5; i++)
        tf_stack(f, i, "2C");
    cr_assert_eq(apply(f, cast(mage, 0, -1, 6, 5)), FRAY_OK, "%s",
                 f->diag.message);
    const ft_fact *d = nth_fact(f, FT_FACT_AREA_DAMAGE, 0);
    cr_assert_not_null(d);
    cr_expect_eq(d->v[0], 4);
    cr_expect_eq(d->v[1], 1, "one Heart");
    cr_expect_eq(d->v[2], 4, "four hit");
    cr_expect_eq(f->st.c[warded].stun, 16 - 3);
    cr_expect_eq(f->st.c[warded].lethal, 10 - 1);
    cr_expect_eq(f->st.c[plain].stun, 16 - 5);
    cr_expect_eq(f->st.c[plain].lethal, 10 - 1);
    cr_expect_eq(f->st.c[immune].stun, 16);
    cr_expect_eq(f->st.c[immune].lethal, 10);
    cr_expect_eq(f->st.c[weak].stun, 16 - 10);
    cr_expect_eq(f->st.c[weak].lethal, 10 - 2);
    free(f);
}

/* 000 "Area of Effects": everyone in the area gets a defensive flip, allies
 * too; aimed at a space ("You may target an individual or a space"). */
Test(towers_area, an_ally_in_the_area_is_caught) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
    int guard = add(f, "guard", 0, 5, 5, spell("x", FT_AREA_NONE, 0));
    int gob = add(f, "gob", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
    start(f, mage);
    tf_stack(f, mage, "QS");
    tf_stack(f, guard, "3C");
    tf_stack(f, gob, "4C");
    cr_assert_eq(apply(f, cast(mage, 0, -1, 6, 5)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect(result_on(f, guard)->v[2], "the ally is hit");
    cr_expect(result_on(f, gob)->v[2]);
    cr_expect_eq(f->st.c[guard].stun, 12);
    cr_expect_eq(f->st.c[gob].stun, 12);
    cr_expect_eq(f->st.c[mage].stun, 16, "the mage is 4 spaces away");
    /* Aimed at the ally itself: refused, as any attack on an ally is. */
    start(f, mage);
    ft_command c = cast(mage, 0, guard, 0, 0);
    memset(&f->diag, 0, sizeof f->diag);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "will not aim at an ally"), "%s",
              f->diag.message);
    free(f);
}

/* rules-facts.md "Magic": "Spells cost mana of their type, spent even when
 * the attack misses"; without it the spell cannot be cast. */
Test(towers_area, mana_is_spent_on_a_miss_and_needed_to_cast) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
    int gob = add(f, "gob", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
    start(f, mage);
    tf_stack(f, mage, "2S");
    tf_stack(f, gob, "AC");
    cr_assert_eq(apply(f, cast(mage, 0, gob, 0, 0)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect(!result_on(f, gob)->v[2], "2 against 14 misses");
    cr_expect_eq(f->st.c[mage].mana[FT_ELEM_FIRE], 0, "2 fire spent");
    const ft_fact *m = nth_fact(f, FT_FACT_MANA, 0);
    cr_assert_not_null(m);
    cr_expect_eq(m->v[1], 0);
    /* Its next turn: no fire mana left. */
    start(f, mage);
    f->st.c[mage].mana[FT_ELEM_FIRE] = 1;
    ft_command c = cast(mage, 0, gob, 0, 0);
    memset(&f->diag, 0, sizeof f->diag);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "not enough mana for the fireball"),
              "%s", f->diag.message);
    cr_expect_eq(apply(f, c), FRAY_ERR_INVALID, "refused when applied too");
    cr_expect_eq(f->st.c[mage].mana[FT_ELEM_FIRE], 1, "nothing spent");
    free(f);
}

/* Option mana-element-cap (rules-facts.md "Magic": a pool of typed units,
 * "e.g. 4 elemental mana, at most 2 of one element"): 0, the default, the
 * stat block's pool alone (4 fire); 2 holds at most 2 of one element; 1
 * leaves too little for the 2-mana fireball. */
Test(towers_area, mana_element_cap_option) {
    for (int cap = 0; cap <= 2; cap++) {
        fixture *f = fixture_new();
        f->s.opt.mana_element_cap = cap;
        int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
        f->s.c[mage].sb.mana[FT_ELEM_FIRE] = 4;
        f->s.c[mage].sb.mana[FT_ELEM_WATER] = 1;
        int gob = add(f, "gob", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
        ft_state_reset(&f->s, &f->st, 42);
        cr_expect_eq(f->st.c[mage].mana[FT_ELEM_FIRE], cap == 0 ? 4 : cap,
                     "mana-element-cap %d", cap);
        cr_expect_eq(f->st.c[mage].mana[FT_ELEM_WATER], 1);
        start(f, mage);
        f->st.c[mage].mana[FT_ELEM_FIRE] = (int8_t)(cap == 0 ? 4 : cap);
        ft_command c = cast(mage, 0, gob, 0, 0);
        cr_expect_eq(ft_check_command(&f->s, &f->st, &c, NULL),
                     cap == 1 ? FRAY_ERR_INVALID : FRAY_OK, "cap %d", cap);
        free(f);
    }
}

/* Option area-centre-shift (000 "Area of Effects": "The defenders will
 * get modifiers based on their location relative to the center of the
 * blast", no numbers): 0, the default, none; 1 gives the defender on the
 * centre square (shift-1), the others nothing. */
Test(towers_area, area_centre_shift_option) {
    for (int k = 0; k <= 1; k++) {
        fixture *f = fixture_new();
        f->s.opt.area_centre_shift = k;
        int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
        int centre = add(f, "centre", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
        int edge = add(f, "edge", 1, 7, 5, spell("x", FT_AREA_NONE, 0));
        start(f, mage);
        tf_stack(f, mage, "10S");
        tf_stack(f, centre, "10C");
        tf_stack(f, edge, "10D");
        cr_assert_eq(apply(f, cast(mage, 0, centre, 0, 0)), FRAY_OK);
        cr_expect_eq(result_on(f, centre)->v[1], 10 - k,
                     "area-centre-shift %d: the centre's defense", k);
        cr_expect_eq(result_on(f, edge)->v[1], 10, "one space out: none");
        cr_expect_eq(result_on(f, centre)->v[2], 1, "10 against %d", 10 - k);
        free(f);
    }
}

/* Aura X centres on its user; a Cone needs an aim away from its user; an
 * area beyond the spell's maximum range is refused (000 "Range
 * Modifiers": "Spell attacks only have a maximum range"). */
Test(towers_area, aura_cone_and_range) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("ring", FT_AREA_AURA, 1));
    f->s.c[mage].sb.weapons[1] = spell("fireball", FT_AREA_BURST, 1);
    f->s.c[mage].sb.weapons[1].max_range = 4;
    f->s.c[mage].sb.n_weapons = 2;
    int near = add(f, "near", 1, 2, 5, spell("x", FT_AREA_NONE, 0));
    int far = add(f, "far", 1, 9, 5, spell("x", FT_AREA_NONE, 0));
    start(f, mage);
    ft_command c = cast(mage, 1, far, 0, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "out of range"), "%s", f->diag.message);
    tf_stack(f, mage, "KS");
    tf_stack(f, near, "2C");
    ft_command ring = tf_cmd(FT_ACT_CAST, mage);
    ring.weapon = 0;
    ring.at_space = true;
    cr_assert_eq(apply(f, ring), FRAY_OK, "%s", f->diag.message);
    cr_expect(result_on(f, near)->v[2]);
    cr_expect_null(result_on(f, mage), "an aura leaves out its source");
    cr_expect_null(result_on(f, far));
    free(f);
}

/* As a single attack (docs/rules/towers.md "Damage and conditions"): a
 * Blinded attacker makes a Hard (15+) [SP] check first; failing it, the
 * whole area misses (no attack flip, nobody flips), the mana spent. */
Test(towers_area, blinded_attacker_checks_first) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("fireball", FT_AREA_BURST, 1));
    f->s.c[mage].sb.aspects[FT_ASPECT_SP] = 1;
    int gob = add(f, "gob", 1, 6, 5, spell("x", FT_AREA_NONE, 0));
    start(f, mage);
    tf_run(f, &f->diag);
    ft_cond_add(&f->r, mage, FT_COND_BLINDED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    tf_stack(f, mage, "5S");
    cr_assert_eq(apply(f, cast(mage, 0, gob, 0, 0)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect_eq(count_facts(f, FT_FACT_FLIP), 1, "the check alone");
    cr_expect_eq(nth_fact(f, FT_FACT_FLIP, 0)->v[0], FT_FLIP_CHECK);
    cr_expect_null(result_on(f, gob));
    cr_expect_eq(f->st.c[mage].mana[FT_ELEM_FIRE], 0);
    free(f);
}

/* ---- Tactics --------------------------------------------------------------- */

/* A caster casts its area when it catches at least two enemies and no
 * ally (docs: "Areas", tactics); with a guard beside the goblins, it does
 * not. */
Test(towers_area, tactics_two_enemies_and_no_ally) {
    fixture *f = fixture_new();
    int mage = add(f, "mage", 0, 1, 5, spell("bolt", FT_AREA_NONE, 0));
    f->s.c[mage].sb.weapons[0].max_range = 12;
    f->s.c[mage].sb.weapons[0].mana_cost = 0;
    f->s.c[mage].sb.weapons[1] = spell("fireball", FT_AREA_BURST, 1);
    f->s.c[mage].sb.n_weapons = 2;
    f->s.c[mage].tactics.preset = FT_TAC_RANGED;
    add(f, "gob1", 1, 8, 5, spell("x", FT_AREA_NONE, 0));
    add(f, "gob2", 1, 9, 5, spell("x", FT_AREA_NONE, 0));
    start(f, mage);
    ft_command c;
    ft_policy_choose(&f->s, &f->st, mage, &c);
    cr_expect_eq(c.action, FT_ACT_CAST);
    cr_expect_eq(c.weapon, 1, "the fireball");
    int guard = add(f, "guard", 0, 9, 6, spell("x", FT_AREA_NONE, 0));
    (void)guard;
    start(f, mage);
    ft_policy_choose(&f->s, &f->st, mage, &c);
    cr_expect(!(c.action == FT_ACT_CAST && c.weapon == 1),
              "not with the guard in it (action %d, weapon %d)", c.action,
              c.weapon);
    free(f);
}

/* ---- The example, at the table and in the journal ------------------------------ */

/* Cards by hand (the attacker's flip, then each defender's, nearest the
 * centre first) and the journal read back: examples/towers/mage.yaml,
 * "ysolde cast fireball at 11,4" with its eleven cards, then the fight run
 * to its end, replays to the same fight. */
Test(towers_area, cards_by_hand_and_journal_round_trip) {
    fray_towers_setup *s = tf_load_example("mage.yaml");
    fray_towers_fight *a = tf_fight(s, 3);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(a, "next", NULL, 0, &d), FRAY_OK,
                 "%s", d.message);
    fray_card cards[11];
    size_t n = 0;
    cr_assert_eq(fray_card_parse_list("KS 2D 3D 4D 5D KC 7C 8C 9C 10C JC",
                                      cards, 11, &n, NULL),
                 FRAY_OK);
    cr_assert_eq(fray_towers_fight_command(a, "ysolde cast fireball at 11,4",
                                           cards, n, &d),
                 FRAY_OK, "%s", d.message);
    int ev = fray_towers_fight_events(a) - 1;
    size_t len = fray_towers_event_json(a, ev, NULL, 0);
    char *line = malloc(len + 1);
    cr_assert_eq(fray_towers_event_json(a, ev, line, len + 1), len);
    cr_expect(strstr(line, "\"at_space\":true"), "%s", line);
    /* Ysolde's four cards keep the king (13). Goblin 2 on the centre flips
     * next (5D, +1 for its size: 6), then the four at distance 1 by their
     * order: Goblin 1 KC (14: missed), Goblin 3 7C, Goblin 4 8C, Goblin 5
     * 9C (10), then the two at distance 2: Goblin 6 10C, Goblin 7 JC (12). */
    cr_expect(strstr(line, "{\"fact\":\"area-hit\",\"who\":\"ysolde\","
                           "\"target\":\"goblin-2\",\"attack\":13,"
                           "\"defense\":6,\"hit\":true}"), "%s", line);
    cr_expect(strstr(line, "\"target\":\"goblin-1\",\"attack\":13,"
                           "\"defense\":14,\"hit\":false}"), "%s", line);
    cr_expect(strstr(line, "\"target\":\"goblin-5\",\"attack\":13,"
                           "\"defense\":10,\"hit\":true}"), "%s", line);
    cr_expect(strstr(line, "\"target\":\"goblin-7\",\"attack\":13,"
                           "\"defense\":12,\"hit\":true}"), "%s", line);
    free(line);
    cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
    /* The journal, as fray fight --journal writes it. */
    char *j = NULL;
    size_t jl = 0, cap = 0;
    for (int i = 0; i < fray_towers_fight_events(a); i++) {
        size_t k = fray_towers_event_json(a, i, NULL, 0);
        while (jl + k + 2 > cap) {
            cap = cap ? 2 * cap : 1 << 16;
            j = realloc(j, cap);
            cr_assert_not_null(j);
        }
        cr_assert_eq(fray_towers_event_json(a, i, j + jl, k + 1), k);
        jl += k;
        j[jl++] = '\n';
        j[jl] = '\0';
    }
    fray_towers_fight *r = tf_fight(s, 1);
    fray_towers_replay_info info;
    cr_assert_eq(fray_towers_fight_replay_journal(r, j, jl, &info, &d),
                 FRAY_OK, "line %d:%d: %s", d.line, d.column, d.message);
    cr_expect(fray_towers_fight_same(a, r), "the journal replays the fight");
    free(j);
    fray_towers_fight_free(a);
    fray_towers_fight_free(r);
    fray_towers_setup_free(s);
}

/* docs/file-formats.md "Areas": the catalog's "area:" key; data/towers/
 * spells.yaml's Fireball is a Burst 2 (the example loads it, with Bolt of
 * Fire in both catalogs as one weapon). A bad area says why. */
Test(towers_area, area_key_is_read) {
    ft_weapon w;
    memset(&w, 0, sizeof w);
    char why[120];
    cr_expect(ft_area_parse("burst 2", &w, why, sizeof why));
    cr_expect_eq(w.area, FT_AREA_BURST);
    cr_expect_eq(w.area_size, 2);
    cr_expect(ft_area_parse("Aura 1 self", &w, why, sizeof why));
    cr_expect_eq(w.area, FT_AREA_AURA);
    cr_expect(w.area_self);
    cr_expect(ft_area_parse("line 5", &w, why, sizeof why));
    cr_expect_eq(w.area, FT_AREA_LINE);
    cr_expect(!ft_area_parse("blob 2", &w, why, sizeof why));
    cr_expect(strstr(why, "unknown area 'blob 2'"), "%s", why);
    cr_expect(!ft_area_parse("cone", &w, why, sizeof why));
    cr_expect(strstr(why, "the cone needs a size"), "%s", why);
    cr_expect(!ft_area_parse("burst 2 self", &w, why, sizeof why));
    fray_towers_setup *s = tf_load_example("mage.yaml");
    const ft_setup *fs = &s->s;
    const ft_statblock *sb = &fs->c[0].sb;
    cr_assert_eq(sb->n_weapons, 4);
    cr_expect_str_eq(sb->weapons[1].name, "Fireball");
    cr_expect_eq(sb->weapons[1].area, FT_AREA_BURST);
    cr_expect_eq(sb->weapons[1].area_size, 2);
    cr_expect_eq(sb->weapons[2].area, FT_AREA_CONE);
    cr_expect_eq(sb->weapons[0].area, FT_AREA_NONE, "Bolt of Fire: one target");
    fray_towers_setup_free(s);
}

/* docs/file-formats.md "Areas": a sweep varies the three options as
 * options.FIELD; a value out of range or another field is refused with
 * the setup unchanged. */
Test(towers_area, options_vary_in_a_sweep) {
    fray_towers_setup *s = tf_load_example("mage.yaml");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_setup_vary(s, "options.area-centre-shift", "2",
                                        &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(s->s.opt.area_centre_shift, 2);
    cr_assert_eq(fray_towers_setup_vary(s, "options.area-line", "from-caster",
                                        &d), FRAY_OK, "%s", d.message);
    cr_expect(s->s.opt.area_line_from_caster);
    cr_assert_eq(fray_towers_setup_vary(s, "options.mana-element-cap", "2",
                                        &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(s->s.opt.mana_element_cap, 2);
    cr_expect_eq(fray_towers_setup_vary(s, "options.area-centre-shift", "6",
                                        &d), FRAY_ERR_RANGE);
    cr_expect_eq(s->s.opt.area_centre_shift, 2, "unchanged");
    cr_expect_eq(fray_towers_setup_vary(s, "options.area-line", "sideways",
                                        &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "one of from-target, from-caster"), "%s",
              d.message);
    cr_expect_eq(fray_towers_setup_vary(s, "options.blast", "1", &d),
                 FRAY_ERR_PARSE);
    fray_towers_setup_free(s);
}

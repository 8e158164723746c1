/*
 * test_towers_combat.c - 99 Towers attacks, damage, conditions, the Hand of
 * Fate and chips (seed 000 "Attacking and Defending", "Combat Modifiers",
 * "Critical Hits", "Damage", "Combined Damage", "Temporary STUN and
 * LETHAL", "Grappling"; rules-facts.md "Hand of Fate", "Chips",
 * "Conditions"; RULINGS 3, 10-13, 16-22), on hand-built encounters with
 * stacked decks (no loader).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"

/* ---- A hand-built encounter ------------------------------------------------ */

/* The RULINGS defaults, written out so these tests do not lean on the
 * loader. */
static void options(ft_options *o) {
    memset(o, 0, sizeof *o);
    fray_deck_options_default(&o->deck);
    o->decks = FT_DECKS_PER_COMBATANT;
    o->hand_of_fate = 0; /* stacked decks: nothing dealt unless a test deals */
    o->flat_footed_loses_ss = true;
    o->full_defense_flip = 1;
    o->opportunity_delay = 3;
    o->mana_regen = 1;
    o->dying_loses_lethal = true;
    o->dead_at_multiple = 2;
    o->disabled_unconscious = true;
    o->crit_needs_heart = true;
    o->grapple_size_cards = true;
    o->surprise_delay = 10;
    o->unconscious_bonus = FT_UB_LETHAL;
}

static ft_weapon longblade(void) {
    /* "Longblade | 1+PA | 4+PX | - | $25 | 3 lbs. | Knight, Blade" */
    ft_weapon w = tf_weapon("longblade", 1, 4, true, 1);
    w.keywords = FT_KW(KNIGHT) | FT_KW(BLADE);
    return w;
}

static ft_weapon heavy_rifle(void) {
    /* "Heavy Rifle | PA | 7 | 12 | 10 | $40 | 10 lbs. | Two-Handed, Large" */
    ft_weapon w = tf_weapon("heavy rifle", 0, 7, false, 0);
    w.range_increment = 12;
    w.shots = 10;
    w.keywords = FT_KW(TWO_HANDED) | FT_KW(LARGE);
    return w;
}

/* PA 2, PD 1, SPD 6, [[E]] 2 (16 STUN, 10 LETHAL), everything else 0. */
static const tf_stats combat_stats = {.pa = 2, .pd = 1, .spd = 6,
                                      .endurance = 2};

/* Combatant on `side` at (x, y) with its own deck, holding weapon w. */
static int add(fixture *f, const char *name, int side, int x, int y,
               ft_weapon w) {
    return tf_add(f, name, side, x, y, &combat_stats, w);
}

static fixture *fixture_new(void) {
    fixture *f = tf_new(0, 0);
    options(&f->s.opt);
    return f;
}

/* Resets the state from the setup; everyone has acted (not flat-footed)
 * unless a test says otherwise. */
static void start(fixture *f) {
    ft_state_reset(&f->s, &f->st, 42);
    for (int i = 0; i < f->st.n; i++)
        f->st.c[i].flags |= FT_F_ACTED;
    memset(&f->ev, 0, sizeof f->ev);
    tf_run(f, &f->diag);
    memset(&f->diag, 0, sizeof f->diag);
}

static ft_attack_opts opts_weapon(int w) {
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = w;
    o.aid_ally = -1;
    return o;
}

static int count_facts(const fixture *f, ft_fact_kind k) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == k;
    return n;
}

/* ---- Damage --------------------------------------------------------------- */

/* Seed 000 "STUN Damage" / "LETHAL Damage": Tony fires a heavy rifle at a
 * bandit and hits with two Hearts: 7 + 2 = 9 STUN, less <ER> 1 = 8 STUN;
 * two LETHAL. Through ft_attack, with the shot spent. */
Test(towers_combat, heavy_rifle_hit) {
    fixture *f = fixture_new();
    int tony = add(f, "Tony", 0, 0, 0, heavy_rifle());
    int bandit = add(f, "bandit", 1, 5, 0, longblade());
    f->s.c[bandit].sb.cv[FT_CV_ER] = 1;
    start(f);
    tf_stack(f, tony, "KH 5H");
    tf_stack(f, bandit, "3C");
    ft_attack_opts o = opts_weapon(0);
    bool hit = false;
    cr_assert_eq(ft_attack(&f->r, tony, bandit, &o, &hit), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect(hit);
    cr_expect_eq(f->st.c[bandit].stun, 16 - 8);
    cr_expect_eq(f->st.c[bandit].lethal, 10 - 2);
    cr_expect_eq(f->st.c[tony].ammo[0], 9, "one of the 10 shots spent");
    cr_expect_eq(f->st.c[tony].stun_dealt, 8);
    cr_expect_eq(f->st.c[bandit].lethal_taken, 2);
    cr_expect_eq(f->ev.n_cards, 3, "2 attack cards, 1 defense card recorded");
    cr_expect_eq(count_facts(f, FT_FACT_HIT), 1);
    free(f);
}

/* Seed 000 "STUN Damage": the longblade does 4 + <PX> + Hearts and flips
 * PA + 1 cards ("1+PA"). PX 3, one Heart, ER 2: 6 STUN, 1 LETHAL. */
Test(towers_combat, longblade_px_and_hearts) {
    fixture *f = fixture_new();
    int jimmy = add(f, "Jimmy", 0, 0, 0, longblade());
    int bandit = add(f, "bandit", 1, 1, 0, longblade());
    f->s.c[jimmy].sb.cv[FT_CV_PX] = 3;
    f->s.c[bandit].sb.cv[FT_CV_ER] = 2;
    start(f);
    tf_stack(f, jimmy, "2C QH 3D");
    tf_stack(f, bandit, "4S");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, jimmy, bandit, &o, &hit), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect(hit);
    cr_expect_eq(f->ev.n_cards, 4, "three attack cards (1+PA), one defense card");
    cr_expect_eq(f->st.c[bandit].stun, 16 - 6);
    cr_expect_eq(f->st.c[bandit].lethal, 10 - 1);
    cr_expect_not_null(tf_find_modifier(f, "longblade +1"));
    free(f);
}

/* Seed 000 "Attacking and Defending": the attack hits when its total is at
 * least the defense's; a miss deals nothing. */
Test(towers_combat, tie_hits_lower_misses) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int b = add(f, "b", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    f->s.c[a].sb.cv[FT_CV_PA] = 1;
    start(f);
    tf_stack(f, a, "9C 8C");
    tf_stack(f, b, "9D 9S");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, b, &o, &hit), FRAY_OK);
    cr_expect(hit, "9 against 9 hits");
    cr_assert_eq(ft_attack(&f->r, a, b, &o, &hit), FRAY_OK);
    cr_expect(!hit, "8 against 9 misses");
    cr_expect_eq(count_facts(f, FT_FACT_MISS), 1);
    free(f);
}

/* Seed 000 "Combined Damage" / "Falling": 20 feet is 20 Physical STUN and
 * 8 damage flips; each Heart adds 1 STUN and 1 LETHAL; <ER> reduces it. */
Test(towers_combat, falling_twenty_feet) {
    fixture *f = fixture_new();
    int tony = add(f, "Tony", 0, 0, 0, longblade());
    f->s.c[tony].sb.endurance = 4; /* 32 STUN, 12 LETHAL */
    f->s.c[tony].sb.cv[FT_CV_ER] = 1;
    start(f);
    tf_stack(f, tony, "2C 3H 4D 5S 6C 7H 8D 9S");
    cr_assert_eq(ft_harm_combined(&f->r, tony, 20, 8, FT_CAT_PHYSICAL,
                                  FT_DMG_NONE),
                 FRAY_OK);
    cr_expect_eq(f->ev.n_cards, 8, "eight damage flips");
    /* 20 + 2 Hearts = 22, less ER 1 = 21 STUN; 2 LETHAL. */
    cr_expect_eq(f->st.c[tony].stun, 32 - 21);
    cr_expect_eq(f->st.c[tony].lethal, 12 - 2);
    /* No Hearts: 20 STUN less ER 1, no LETHAL. */
    tf_stack(f, tony, "2C 3S 4D 5S 6C 7D 8D 9S");
    ft_harm_heal(&f->r, tony, 100, 100);
    cr_assert_eq(ft_harm_combined(&f->r, tony, 20, 8, FT_CAT_PHYSICAL,
                                  FT_DMG_NONE),
                 FRAY_OK);
    cr_expect_eq(f->st.c[tony].stun, 32 - 19);
    cr_expect_eq(f->st.c[tony].lethal, 12);
    free(f);
}

/* Seed 000 "STUN Damage": minimum 1 STUN; "LETHAL Damage": never more
 * LETHAL than STUN; "Damage Types": immunity and susceptibility (the ring
 * of fire immunity example: 8 Arcane (cold) less IR, then doubled). */
Test(towers_combat, hit_damage_rules) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int b = add(f, "Berhardt", 1, 1, 0, longblade());
    f->s.c[b].sb.cv[FT_CV_ER] = 5;
    f->s.c[b].sb.cv[FT_CV_IR] = 2;
    f->s.c[b].sb.immune = 1u << FT_DMG_FIRE;
    f->s.c[b].sb.susceptible = 1u << FT_DMG_COLD;
    start(f);
    ft_weapon w = longblade();
    w.damage = 2;
    w.adds_px = false;
    fray_towers_hit h = ft_harm_hit(&f->r, a, b, &w, 0, 0);
    cr_expect_eq(h.stun, 1, "minimum one STUN");
    cr_expect_eq(h.lethal, 0);
    h = ft_harm_hit(&f->r, a, b, &w, 0, 3); /* 2 + 3 - 5 = 0 -> 1 */
    cr_expect_eq(h.stun, 1);
    cr_expect_eq(h.lethal, 1, "LETHAL never above STUN");
    ft_weapon bolt = w;
    bolt.spell = true;
    bolt.damage = 8;
    bolt.category = FT_CAT_ARCANE;
    bolt.type = FT_DMG_COLD;
    h = ft_harm_hit(&f->r, a, b, &bolt, 0, 1);
    cr_expect_eq(h.stun, (8 + 1 - 2) * 2, "IR first, then doubled");
    cr_expect_eq(h.lethal, 2);
    bolt.type = FT_DMG_FIRE;
    h = ft_harm_hit(&f->r, a, b, &bolt, 0, 3);
    cr_expect_eq(h.stun, 0, "immune to fire");
    cr_expect_eq(h.lethal, 0);
    bolt.category = FT_CAT_NONE;
    bolt.type = FT_DMG_NONE;
    h = ft_harm_hit(&f->r, a, b, &bolt, 0, 0);
    cr_expect_eq(h.stun, 8, "no category: no Resilience");
    /* Armor adds to ER (a PX weapon: damage 4 + PX 3 + bonus 2). */
    f->s.c[b].sb.has_armor = true;
    f->s.c[b].sb.armor.er = 2;
    f->s.c[a].sb.cv[FT_CV_PX] = 3;
    ft_weapon lb = longblade();
    h = ft_harm_hit(&f->r, a, b, &lb, 2, 0);
    cr_expect_eq(h.stun, 4 + 3 + 2 - 7);
    free(f);
}

/* Seed 000 "Temporary STUN and LETHAL": temporary points are lost first;
 * healing never restores them; RULINGS 19: a second grant replaces the
 * first only if larger. */
Test(towers_combat, temporary_points_absorb_first) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    start(f);
    ft_harm_temp(&f->r, a, 5, 2);
    ft_harm_temp(&f->r, a, 3, 1);
    cr_expect_eq(f->st.c[a].temp_stun, 5, "a smaller grant does not replace");
    cr_expect_eq(f->st.c[a].temp_lethal, 2);
    ft_harm_apply(&f->r, a, 8, 3, -1);
    cr_expect_eq(f->st.c[a].temp_stun, 0);
    cr_expect_eq(f->st.c[a].stun, 16 - 3);
    cr_expect_eq(f->st.c[a].temp_lethal, 0);
    cr_expect_eq(f->st.c[a].lethal, 10 - 1);
    ft_harm_heal(&f->r, a, 50, 50);
    cr_expect_eq(f->st.c[a].stun, 16, "healing stops at the maximum");
    cr_expect_eq(f->st.c[a].lethal, 10);
    cr_expect_eq(f->st.c[a].temp_stun, 0, "healing restores no temporary STUN");
    free(f);
}

/* Seed 000 "LETHAL Damage"; RULINGS 16-17: 0 LETHAL disabled (unconscious
 * by default), below 0 dying, dead at -2 x [[E]]; "If you are at zero or
 * lower LETHAL and gain enough temporary LETHAL ... you are no longer
 * disabled or dying". */
Test(towers_combat, dying_and_death) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade()); /* [[E]] 2: 10 LETHAL */
    start(f);
    ft_harm_apply(&f->r, a, 0, 10, -1);
    cr_expect(f->st.c[a].flags & FT_F_DISABLED);
    cr_expect(f->st.c[a].flags & FT_F_UNCONSCIOUS, "RULINGS 17 default");
    cr_expect(!ft_can_act(&f->st, a));
    ft_harm_temp(&f->r, a, 0, 2);
    cr_expect(!(f->st.c[a].flags & (FT_F_DISABLED | FT_F_UNCONSCIOUS)),
              "temporary LETHAL above 0: no longer disabled");
    ft_harm_apply(&f->r, a, 0, 5, -1); /* temp 2 gone, LETHAL -3 */
    cr_expect_eq(f->st.c[a].lethal, -3);
    cr_expect(f->st.c[a].flags & FT_F_DYING);
    cr_expect(!(f->st.c[a].flags & FT_F_DEAD));
    cr_expect(ft_cond_has(&f->st, a, FT_COND_PRONE), "falls prone");
    ft_harm_apply(&f->r, a, 0, 1, -1);
    cr_expect(f->st.c[a].flags & FT_F_DEAD, "dead at -2 x [[E]] = -4");
    cr_expect(!ft_in_fight(&f->st, a));
    ft_harm_heal(&f->r, a, 10, 10);
    cr_expect_eq(f->st.c[a].lethal, -4, "the dead are not healed");
    free(f);
}

/* RULINGS 16 option dead_at_multiple, RULINGS 17 option
 * disabled_unconscious: both settings. */
Test(towers_combat, death_and_disabled_options) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    f->s.opt.dead_at_multiple = 3;
    f->s.opt.disabled_unconscious = false;
    start(f);
    ft_harm_apply(&f->r, a, 0, 10, -1);
    cr_expect(f->st.c[a].flags & FT_F_DISABLED);
    cr_expect(!(f->st.c[a].flags & FT_F_UNCONSCIOUS),
              "disabled but awake with the option off");
    cr_expect(ft_can_act(&f->st, a));
    ft_harm_apply(&f->r, a, 0, 5, -1);
    cr_expect(!(f->st.c[a].flags & FT_F_DEAD), "-5 is not -3 x [[E]]");
    ft_harm_apply(&f->r, a, 0, 1, -1);
    cr_expect(f->st.c[a].flags & FT_F_DEAD, "dead at -6");
    free(f);
}

/* Seed 000 "STUN Damage": at 0 STUN prone and unconscious; "STUN cannot
 * drop lower than 0". Healing STUN wakes (LETHAL above 0). */
Test(towers_combat, zero_stun_unconscious_and_wakes) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    start(f);
    ft_harm_apply(&f->r, a, 40, 0, -1);
    cr_expect_eq(f->st.c[a].stun, 0);
    cr_expect(f->st.c[a].flags & FT_F_UNCONSCIOUS);
    cr_expect(ft_cond_has(&f->st, a, FT_COND_PRONE));
    ft_harm_heal(&f->r, a, 2, 0);
    cr_expect(!(f->st.c[a].flags & FT_F_UNCONSCIOUS));
    cr_expect(ft_cond_has(&f->st, a, FT_COND_PRONE), "still prone: must stand");
    free(f);
}

/* Seed 000 "Grappling": "If the attacker drops to 0 in STUN or LETHAL, the
 * grapple immediately breaks". */
Test(towers_combat, grapple_breaks_at_zero_stun) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int b = add(f, "b", 1, 1, 0, longblade());
    start(f);
    f->st.c[b].grappled_by = (int8_t)a;
    ft_cond_add(&f->r, b, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED, -1, 0, a);
    ft_harm_apply(&f->r, a, 15, 0, b);
    cr_expect_eq(f->st.c[b].grappled_by, a, "1 STUN left: still holding");
    ft_harm_apply(&f->r, a, 1, 0, b);
    cr_expect_eq(f->st.c[b].grappled_by, -1);
    cr_expect(!ft_cond_has(&f->st, b, FT_COND_GRAPPLED));
    free(f);
}

/* ---- Modifiers -------------------------------------------------------------- */

static ft_mods mods_of(fixture *f, int a, int t, ft_attack_opts o) {
    ft_mods m;
    ft_attack_mods(&f->r, a, t, &o, &m);
    return m;
}

/* Seed 000 "Range Modifiers": range increment 8: 0-8 nothing, 9-16
 * (shift-1), 17-24 (flip-1), 25-32 both, beyond that impossible. */
Test(towers_combat, range_increment_eight) {
    fixture *f = fixture_new();
    ft_weapon pistol = heavy_rifle();
    snprintf(pistol.name, sizeof pistol.name, "pistol");
    pistol.range_increment = 8;
    int a = add(f, "a", 0, 0, 0, pistol);
    int t = add(f, "bandit 2", 1, 1, 0, longblade());
    start(f);
    struct { int d, shift, flip; bool impossible; } rows[] = {
        {1, 0, 0, false},   {8, 0, 0, false},   {9, -1, 0, false},
        {16, -1, 0, false}, {17, 0, -1, false}, {24, 0, -1, false},
        {25, -1, -1, false}, {32, -1, -1, false}, {33, 0, 0, true},
        {50, 0, 0, true}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        f->st.c[t].pos.x = (int16_t)rows[i].d;
        ft_mods m = mods_of(f, a, t, opts_weapon(0));
        cr_expect_eq(m.impossible, rows[i].impossible, "distance %d", rows[i].d);
        if (!rows[i].impossible) {
            cr_expect_eq(m.shift, rows[i].shift, "distance %d", rows[i].d);
            cr_expect_eq(m.flip, rows[i].flip, "distance %d", rows[i].d);
        }
    }
    f->st.c[t].pos.x = 33;
    ft_mods m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_str_eq(m.why, "bandit 2 is out of range: 33 spaces, the pistol reaches 32");
    free(f);
}

/* Seed 000 "Attacking and Defending": the target must be within range; a
 * melee weapon reaches 1 (2 with Reach). ft_attack refuses with the reason. */
Test(towers_combat, melee_out_of_reach) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "bandit 2", 1, 14, 0, longblade());
    start(f);
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_expect_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_ERR_INVALID);
    cr_expect_str_eq(f->diag.message,
                     "bandit 2 is out of range: 14 spaces, the longblade reaches 1");
    cr_expect_eq(f->ev.n_cards, 0, "nothing flipped");
    f->st.c[t].pos.x = 2;
    cr_expect(mods_of(f, a, t, o).impossible);
    f->s.c[a].sb.weapons[0].keywords |= FT_KW(REACH);
    cr_expect(!mods_of(f, a, t, o).impossible, "Reach: 2 spaces");
    free(f);
}

/* Seed 000 "Size Modifiers": the large shadow revenant (Size Rank 1)
 * attacks Jimmy Arkham (Medium): (shift-1) on its <PA>, nothing on
 * Jimmy's <PD>. A Small defender gets (shift+1). */
Test(towers_combat, revenant_size_shift) {
    fixture *f = fixture_new();
    int rev = add(f, "revenant", 1, 0, 0, longblade());
    int jimmy = add(f, "Jimmy", 0, 2, 0, longblade());
    f->s.c[rev].sb.size_rank = 1; /* 2x2: (0,0)-(1,1), adjacent to (2,0) */
    f->s.c[rev].sb.weapons[0].attack_bonus = 0;
    start(f);
    ft_mods m = mods_of(f, rev, jimmy, opts_weapon(0));
    cr_expect(!m.impossible, "%s", m.why);
    cr_expect_eq(m.shift, -1);
    cr_expect_eq(m.flip, 0);
    cr_expect_eq(m.def_shift, 0);
    f->s.c[jimmy].sb.size_rank = -1;
    m = mods_of(f, rev, jimmy, opts_weapon(0));
    cr_expect_eq(m.def_shift, 1, "a Small defender: (shift+1)");
    free(f);
}

/* Seed 000 "Outnumbering": the daisy chain. a1 attacks e1; a2 threatens
 * e1; e2 threatens a2 (not a1 nor e1); a3 threatens e2. 3 friends against
 * 2 enemies: (shift+1). One more friend on e2: 4 to 2, (flip+1) instead.
 * A Blinded e2 does not count and ends the chain: 2 to 1. */
Test(towers_combat, outnumbering_daisy_chain) {
    fixture *f = fixture_new();
    int a1 = add(f, "a1", 0, 0, 0, longblade());
    int e1 = add(f, "e1", 1, 1, 0, longblade());
    add(f, "a2", 0, 2, 1, longblade());
    int e2 = add(f, "e2", 1, 3, 2, longblade());
    add(f, "a3", 0, 4, 3, longblade());
    int a4 = add(f, "a4", 0, 4, 2, longblade());
    for (int i = 0; i < f->s.n_combatants; i++)
        f->s.c[i].sb.weapons[0].attack_bonus = 0;
    start(f);
    f->st.c[a4].flags |= FT_F_FLED; /* not there yet */
    ft_mods m = mods_of(f, a1, e1, opts_weapon(0));
    cr_expect_eq(m.shift, 1, "3-to-2: (shift+1)");
    cr_expect_eq(m.flip, 0);
    f->st.c[a4].flags &= (uint16_t)~FT_F_FLED;
    m = mods_of(f, a1, e1, opts_weapon(0));
    cr_expect_eq(m.shift, 0);
    cr_expect_eq(m.flip, 1, "4-to-2: (flip+1) instead");
    ft_cond_add(&f->r, e2, FT_COND_BLINDED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    m = mods_of(f, a1, e1, opts_weapon(0));
    cr_expect_eq(m.flip, 1, "2-to-1 without the blinded e2");
    /* One against one: nothing. */
    fixture *g = fixture_new();
    int x = add(g, "x", 0, 0, 0, longblade());
    int y = add(g, "y", 1, 1, 0, longblade());
    g->s.c[x].sb.weapons[0].attack_bonus = 0;
    start(g);
    m = mods_of(g, x, y, opts_weapon(0));
    cr_expect_eq(m.shift + m.flip, 0);
    free(g);
    free(f);
}

/* Seed 000 "Cover": soft (shift+1), hard (flip+1)(shift+1) to the
 * defender, total: no attack. Terrain cover from the map (fray/grid.h). */
Test(towers_combat, cover_from_terrain) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 5, heavy_rifle());
    int t = add(f, "t", 1, 6, 5, longblade());
    f->s.has_map = true;
    fray_grid_init(&f->s.map, 12, 12);
    start(f);
    fray_footprint fa = ft_footprint(&f->s, &f->st, a), ft = ft_footprint(&f->s, &f->st, t);
    ft_mods m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift + m.def_flip, 0, "open ground");
    /* A short wall right in front of the target hides more than half. */
    fray_pos p5 = {5, 5}, p6 = {6, 5};
    cr_assert_eq(fray_grid_set_edge(&f->s.map, p5, p6, FRAY_EDGE_LOW), FRAY_OK);
    fray_cover c = fray_grid_cover(&f->s.map, fa, ft);
    cr_assert_eq(c, FRAY_COVER_HARD);
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 1);
    cr_expect_eq(m.def_flip, 1);
    /* A wall beside the line to a target up and to the side hides part
     * of it: soft cover, (shift+1) only. */
    fray_grid_init(&f->s.map, 12, 12);
    f->st.c[t].pos.x = 5;
    f->st.c[t].pos.y = 0;
    f->s.map.terrain[0][4] = FRAY_TERRAIN_WALL;
    ft = ft_footprint(&f->s, &f->st, t);
    cr_assert_eq(fray_grid_cover(&f->s.map, fa, ft), FRAY_COVER_SOFT);
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 1);
    cr_expect_eq(m.def_flip, 0);
    cr_expect(!m.impossible);
    f->st.c[t].pos.x = 6;
    f->st.c[t].pos.y = 5;
    /* A wall across the whole line: total cover. */
    fray_grid_init(&f->s.map, 12, 12);
    for (int y = 0; y < 12; y++)
        f->s.map.terrain[y][3] = FRAY_TERRAIN_WALL;
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect(m.impossible);
    cr_expect_str_eq(m.why, "t has total cover");
    free(f);
}

/* Seed 000 "Cover": shooting past a non-allied creature of the target's
 * size rank +-1 is soft cover; shooting into a melee is soft cover "unless
 * that someone else is you and you alone". */
Test(towers_combat, cover_from_creatures) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, heavy_rifle());
    int t = add(f, "t", 1, 6, 0, longblade());
    int other = add(f, "other", 1, 3, 0, longblade());
    int friend_ = add(f, "friend", 0, 9, 9, longblade());
    start(f);
    ft_mods m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 1, "a bandit in the way");
    f->s.c[other].sb.size_rank = -2;
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 0, "a Tiny creature is too small to hide a Medium one");
    f->s.c[other].sb.size_rank = 0;
    f->s.c[other].side = 0; /* an ally of the shooter */
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 0, "allies are not cover");
    f->st.c[friend_].pos.x = 7;
    f->st.c[friend_].pos.y = 1;
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 1, "shooting into a melee");
    /* In melee with the shooter alone: no cover. */
    f->st.c[friend_].pos.x = 20;
    f->st.c[a].pos.x = 5;
    f->st.c[other].pos.y = 8;
    m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.def_shift, 0, "you and you alone");
    free(f);
}

/* RULINGS 10: a flat-footed defender's <PD> is reduced by [SS] ranks
 * (option flat_footed_loses_ss, both settings); seed "Attacking from
 * Concealment": an unaware target gives (flip+1). */
Test(towers_combat, flat_footed_and_unaware) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    f->s.c[t].sb.aspects[FT_ASPECT_SS] = 2;
    start(f);
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, 0);
    f->st.c[t].flags &= (uint16_t)~FT_F_ACTED;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, -2, "PD - SS");
    f->s.c[t].unaware_of = 1u << 0;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, 1, "unaware: (flip+1)");
    f->s.opt.flat_footed_loses_ss = false;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, 0, "option off");
    f->st.c[t].flags |= FT_F_ACTED;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, 0,
                 "once it has acted it is no longer caught unaware");
    free(f);
}

/* Seed 000 "Power Attack": (flip-1) on the attack, base damage +2, and
 * (flip-1) to Defense until its next activation (RULINGS 12). */
Test(towers_combat, power_attack) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    f->s.c[a].sb.cv[FT_CV_PA] = 3;
    start(f);
    tf_stack(f, a, "KC 2D");
    tf_stack(f, t, "3S");
    ft_attack_opts o = opts_weapon(0);
    o.power = true;
    cr_expect_eq(mods_of(f, a, t, o).flip, -1);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(hit);
    cr_expect_eq(f->ev.n_cards, 3, "PA 3 - 1 = 2 attack cards");
    cr_expect_eq(f->st.c[t].stun, 16 - (4 + 2), "4 + PX 0 + 2");
    cr_expect(f->st.c[a].flags & FT_F_POWER);
    cr_expect_eq(mods_of(f, t, a, opts_weapon(0)).def_flip, -1,
                 "(flip-1) to its Defense");
    cr_expect_not_null(tf_find_modifier(f, "Power Attack"));
    free(f);
}

/* Seed 000 "Aim"; RULINGS 13: (flip+1) per Aim, at most floor(PA/2) (or
 * floor(SA/2) for a spell); reset by the attack. */
Test(towers_combat, aim_cap) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    f->s.c[a].sb.cv[FT_CV_PA] = 5;
    start(f);
    f->st.c[a].aim = 1;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, 1);
    f->st.c[a].aim = 4;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, 2, "floor(5/2) = 2");
    f->st.c[a].aim_spell = 1;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, 0,
                 "aimed for a spell, attacking with a blade");
    f->st.c[a].aim_spell = 0;
    tf_stack(f, a, "2C 3C 4C 5C 6C 7C 8C");
    tf_stack(f, t, "9S");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect_eq(f->ev.n_cards, 7 + 1, "PA 5 + Aim 2 = 7 cards");
    cr_expect_eq(f->st.c[a].aim, 0, "Aim is spent");
    cr_expect_not_null(tf_find_modifier(f, "Aim x2"));
    free(f);
}

/* Seed 000 "Full Defense"; RULINGS 11: +1 card to PD/ID (option
 * full_defense_flip). Reckless Move: (flip-1) on all opposed combat
 * flips. */
Test(towers_combat, full_defense_and_reckless) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    start(f);
    f->st.c[t].flags |= FT_F_FULL_DEFENSE;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, 1);
    f->s.opt.full_defense_flip = 2;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, 2);
    f->st.c[t].flags = FT_F_ACTED | FT_F_RECKLESS;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, -1);
    f->st.c[a].flags |= FT_F_RECKLESS;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, 1 - 1,
                 "longblade +1, Reckless Move -1");
    free(f);
}

/* Seed 000 "Off-Hand Weapons and Dual-Wielding": off hand (flip-1); two
 * melee weapons: aggressive +1 PA -1 PD, defensive the reverse. */
Test(towers_combat, off_hand_and_stance) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    f->s.c[a].sb.weapons[1] = longblade();
    f->s.c[a].sb.weapons[1].attack_bonus = 0;
    f->s.c[a].sb.n_weapons = 2;
    start(f);
    ft_attack_opts o = opts_weapon(-1);
    o.off_hand = true;
    f->st.c[a].wielded[1] = 1;
    f->s.c[a].sb.dual_aggressive = true;
    ft_mods m = mods_of(f, a, t, o);
    cr_expect_eq(m.flip, -1 + 1, "off hand -1, aggressive +1");
    m = mods_of(f, t, a, opts_weapon(0));
    cr_expect_eq(m.def_flip, -1, "aggressive: -1 PD");
    f->s.c[a].sb.dual_aggressive = false;
    cr_expect_eq(mods_of(f, t, a, opts_weapon(0)).def_flip, 1);
    free(f);
}

/* rules-facts.md "Standard ranks": the best advantage and the worst
 * disadvantage count, not their sum: +1 (shift+1), +2 (flip+1), +3 both. */
Test(towers_combat, advantage_ranks) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    ft_statblock *sb = &f->s.c[a].sb;
    sb->n_advantages = 3;
    snprintf(sb->advantages[0].name, FT_NAME, "Blade Master");
    sb->advantages[0].rank = 3;
    sb->advantages[0].applies = FT_APPLIES_MELEE_ATTACK;
    snprintf(sb->advantages[1].name, FT_NAME, "Keen");
    sb->advantages[1].rank = 2;
    sb->advantages[1].applies = FT_APPLIES_ATTACK;
    snprintf(sb->advantages[2].name, FT_NAME, "Clumsy");
    sb->advantages[2].rank = -1;
    sb->advantages[2].applies = FT_APPLIES_ALL;
    start(f);
    ft_mods m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.flip, 1, "rank 3 only");
    cr_expect_eq(m.shift, 1 - 1, "rank 3 (shift+1) and Clumsy (shift-1)");
    free(f);
}

/* Conditions (rules-facts.md): Dazed (flip-1) on everything, Entangled
 * (flip-1) on attack/defense/skill and <SPD> halved, Frightened (flip-1)
 * on attacks; fray's Prone ruling: melee against a prone target
 * (shift+1), ranged (shift-1), a prone attacker (flip-1) in melee. */
Test(towers_combat, condition_modifiers) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    start(f);
    int fm = 0, sh = 0;
    ft_cond_add(&f->r, a, FT_COND_DAZED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    ft_cond_mods(&f->st, a, FT_FLIP_INITIATIVE, false, &fm, &sh);
    cr_expect_eq(fm, -1, "Dazed: everything");
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, -1);
    ft_cond_remove(&f->r, a, FT_COND_DAZED);
    ft_cond_add(&f->r, t, FT_COND_ENTANGLED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, -1);
    cr_expect_eq(ft_speed(&f->s, &f->st, t), 3, "SPD 6 halved");
    ft_cond_add(&f->r, a, FT_COND_FRIGHTENED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, -1);
    ft_cond_remove(&f->r, a, FT_COND_FRIGHTENED);
    ft_cond_add(&f->r, t, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).shift, 1, "melee vs prone");
    ft_cond_add(&f->r, a, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).flip, -1, "prone attacker");
    f->s.c[a].sb.weapons[0] = heavy_rifle();
    f->st.c[a].ammo[0] = 10;
    f->st.c[t].pos.x = 5;
    ft_mods m = mods_of(f, a, t, opts_weapon(0));
    cr_expect_eq(m.shift, -1, "shooting a prone target");
    cr_expect_eq(m.flip, 0, "prone does not hinder shooting");
    free(f);
}

/* Option unconscious-bonus: defense (fray's ruling before it read the
 * text's LETHAL bonus): an unconscious (or Helpless) defender has no
 * Defense ranks: a flip of 0, i.e. the lower of two cards (RULINGS 3).
 * With the default (lethal) its ranks stand. */
Test(towers_combat, helpless_defender_option_defense) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[t].sb.cv[FT_CV_PD] = 3;
    start(f);
    ft_cond_add(&f->r, t, FT_COND_HELPLESS, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, 0,
                 "default: the text's bonus is to LETHAL, not to hit");
    f->s.opt.unconscious_bonus = FT_UB_DEFENSE;
    cr_expect_eq(mods_of(f, a, t, opts_weapon(0)).def_flip, -3);
    tf_stack(f, a, "2C 3C 2D");
    tf_stack(f, t, "KS 4D");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(!hit, "3 against the lower of K and 4 misses");
    cr_expect_eq(f->ev.n_cards, 3 + 2, "a flip of 0 turns over 2 cards");
    free(f);
}

/* Seed 000 "STUN Damage": at 0 STUN "you fall to the ground prone and
 * unconscious ... anyone who chooses to continue to attack you will get
 * bonuses to inflict LETHAL damage". fray's reading (option
 * unconscious-bonus, default lethal): the whole hit is LETHAL, its STUN,
 * where a conscious defender takes one LETHAL per Heart (none here). */
Test(towers_combat, attacks_on_the_unconscious_inflict_lethal) {
    for (int opt = 0; opt < 2; opt++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int t = add(f, "t", 1, 1, 0, longblade());
        start(f);
        if (opt)
            f->s.opt.unconscious_bonus = FT_UB_DEFENSE;
        f->st.c[t].stun = 0;
        f->st.c[t].flags |= FT_F_UNCONSCIOUS;
        int lethal0 = f->st.c[t].lethal;
        tf_stack(f, a, "KC QC JC");
        tf_stack(f, t, "2C 3C");
        ft_attack_opts o = opts_weapon(0);
        bool hit;
        cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
        cr_assert(hit, "a King of Clubs against a 3");
        int lost = lethal0 - f->st.c[t].lethal;
        if (opt)
            cr_expect_eq(lost, 0, "option defense: no Heart, no LETHAL");
        else
            cr_expect_gt(lost, 1, "the whole hit is LETHAL: %d", lost);
        free(f);
    }
}

/* Seed 000 "Aid": (flip+1) on the aider's attack, no damage; the foe is
 * at (flip-1) on its next defensive flip against the chosen ally. */
Test(towers_combat, aid) {
    fixture *f = fixture_new();
    int aider = add(f, "aider", 0, 0, 0, longblade());
    int ally = add(f, "ally", 0, 0, 1, longblade());
    int foe = add(f, "foe", 1, 1, 0, longblade());
    f->s.c[aider].sb.weapons[0].attack_bonus = 0;
    f->s.c[ally].sb.weapons[0].attack_bonus = 0;
    start(f);
    ft_attack_opts o = opts_weapon(0);
    o.aid = true;
    o.aid_ally = ally;
    cr_expect_eq(mods_of(f, aider, foe, o).flip, 1 + 1, "Aid +1, outnumbering 2-to-1");
    tf_stack(f, aider, "KC 2C 3C 4C");
    tf_stack(f, foe, "4S");
    bool hit;
    cr_assert_eq(ft_attack(&f->r, aider, foe, &o, &hit), FRAY_OK);
    cr_expect(hit);
    cr_expect_eq(f->st.c[foe].stun, 16, "Aid does no harm");
    cr_expect_eq(f->st.c[foe].aided_vs, ally);
    cr_expect_eq(mods_of(f, ally, foe, opts_weapon(0)).def_flip, -1);
    cr_expect_eq(mods_of(f, aider, foe, opts_weapon(0)).def_flip, 0,
                 "only against the chosen ally");
    tf_stack(f, ally, "5C 6C");
    tf_stack(f, foe, "AS");
    ft_attack_opts p = opts_weapon(0);
    cr_assert_eq(ft_attack(&f->r, ally, foe, &p, &hit), FRAY_OK);
    cr_expect_eq(f->st.c[foe].aided_vs, -1, "used up by that defense");
    free(f);
}

/* Seed 000 "Opportunity Attacks": a single melee attack; with a ranged
 * weapon in hand, an unarmed strike (fray: 0 + PX, the butt of the rifle). */
Test(towers_combat, opportunity_with_a_rifle) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, heavy_rifle());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.cv[FT_CV_PX] = 2;
    start(f);
    tf_stack(f, a, "KC 2C");
    tf_stack(f, t, "3S");
    ft_attack_opts o = opts_weapon(-1);
    o.opportunity = true;
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK, "%s", f->diag.message);
    cr_expect(hit);
    cr_expect_eq(f->st.c[t].stun, 16 - 2, "0 + PX 2");
    cr_expect_eq(f->st.c[a].ammo[0], 10, "no shot fired");
    cr_expect(ft_threatens(&f->r, a, t));
    f->s.c[a].sb.size_rank = -2;
    cr_expect(!ft_threatens(&f->r, a, t), "tiny creatures do not threaten");
    free(f);
}

/* Seed 000 "Grappling": <PA> plus Size vs <PD> plus Size; RULINGS 21
 * (grapple_size_cards): the size rank adds cards, or with the option off
 * shifts. */
Test(towers_combat, grapple_test_size) {
    fixture *f = fixture_new();
    int a = add(f, "ogre", 1, 0, 0, longblade());
    int d = add(f, "Jimmy", 0, 2, 0, longblade());
    f->s.c[a].sb.size_rank = 1;
    start(f);
    tf_stack(f, a, "2C 3C 4C");
    tf_stack(f, d, "5S");
    bool win;
    cr_assert_eq(ft_grapple_test(&f->r, a, d, 0, &win), FRAY_OK);
    cr_expect_eq(f->ev.n_cards, 3 + 1, "PA 2 + size 1 = 3 cards");
    cr_expect(!win, "4 against 5");
    f->s.opt.grapple_size_cards = false;
    memset(&f->ev, 0, sizeof f->ev);
    f->r.card_i = 0;
    tf_stack(f, a, "2C 4C");
    tf_stack(f, d, "5S");
    cr_assert_eq(ft_grapple_test(&f->r, a, d, 0, &win), FRAY_OK);
    cr_expect_eq(f->ev.n_cards, 2 + 1, "2 cards, the size as (shift+1)");
    cr_expect(win, "4 + 1 against 5: a tie goes to the grappler");
    free(f);
}

/* ---- Crit keywords ----------------------------------------------------------- */

/* RULINGS 22: "Crit:" keywords apply when the hit has at least one Heart;
 * Crit: Bleed gives Bleeding 1. Crit: Stun lasts until the end of the
 * target's next activation. */
Test(towers_combat, crit_bleed_needs_a_heart) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].keywords |= FT_KW(CRIT_BLEED) | FT_KW(CRIT_STUN);
    start(f);
    tf_stack(f, a, "KC 2C 3C");
    tf_stack(f, t, "4S");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(hit);
    cr_expect(!ft_cond_has(&f->st, t, FT_COND_BLEEDING), "no Heart, no crit");
    tf_stack(f, a, "KC 2H 3C");
    tf_stack(f, t, "4S");
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(ft_cond_has(&f->st, t, FT_COND_BLEEDING));
    cr_expect(ft_cond_has(&f->st, t, FT_COND_STUNNED));
    cr_expect_eq(f->st.c[t].cond[0].value, 1, "Bleeding 1");
    ft_cond_activation(&f->r, t, false);
    cr_expect(ft_cond_has(&f->st, t, FT_COND_STUNNED));
    ft_cond_activation(&f->r, t, true);
    cr_expect(!ft_cond_has(&f->st, t, FT_COND_STUNNED), "ends with its activation");
    cr_expect(ft_cond_has(&f->st, t, FT_COND_BLEEDING), "until removed");
    /* Option crit_needs_heart off: any hit. */
    ft_cond_remove(&f->r, t, FT_COND_BLEEDING);
    f->s.opt.crit_needs_heart = false;
    tf_stack(f, a, "KC 2C 3C");
    tf_stack(f, t, "4S");
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(ft_cond_has(&f->st, t, FT_COND_BLEEDING));
    free(f);
}

/* ---- Condition durations and costs ---------------------------------------- */

/* Durations ending at the start or the end of a named combatant's
 * activation; re-applied, the same condition keeps the longer duration
 * and the larger X (rules-facts.md "Conditions"). */
Test(towers_combat, condition_durations) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int b = add(f, "b", 1, 1, 0, longblade());
    start(f);
    ft_cond_add(&f->r, a, FT_COND_SLOWED, 0, FT_UNTIL_START_OF, b, 2, b);
    ft_cond_activation(&f->r, a, false);
    ft_cond_activation(&f->r, b, true);
    cr_expect(ft_cond_has(&f->st, a, FT_COND_SLOWED), "only b's starts count");
    ft_cond_activation(&f->r, b, false);
    cr_expect(ft_cond_has(&f->st, a, FT_COND_SLOWED), "one start to go");
    ft_cond_activation(&f->r, b, false);
    cr_expect(!ft_cond_has(&f->st, a, FT_COND_SLOWED));
    cr_expect_eq(count_facts(f, FT_FACT_CONDITION_OFF), 1);
    /* Given during b's own activation: that activation does not count. */
    f->st.active = (int8_t)b;
    ft_cond_add(&f->r, b, FT_COND_DAZED, 0, FT_UNTIL_END_OF, b, 1, a);
    ft_cond_activation(&f->r, b, true);
    cr_expect(ft_cond_has(&f->st, b, FT_COND_DAZED));
    f->st.active = -1;
    ft_cond_activation(&f->r, b, false);
    ft_cond_activation(&f->r, b, true);
    cr_expect(!ft_cond_has(&f->st, b, FT_COND_DAZED));
    /* Not stacking: larger X and longer duration stay. */
    ft_cond_add(&f->r, a, FT_COND_BURNING, 3, FT_UNTIL_END_OF, a, 2, b);
    ft_cond_add(&f->r, a, FT_COND_BURNING, 1, FT_UNTIL_END_OF, a, 1, b);
    cr_expect_eq(f->st.c[a].n_cond, 1);
    cr_expect_eq(f->st.c[a].cond[0].value, 3);
    cr_expect_eq(f->st.c[a].cond[0].count, 2);
    ft_cond_add(&f->r, a, FT_COND_BURNING, 2, FT_UNTIL_REMOVED, -1, 0, b);
    cr_expect_eq(f->st.c[a].cond[0].value, 3);
    cr_expect_eq(f->st.c[a].cond[0].ends, FT_UNTIL_REMOVED);
    free(f);
}

/* rules-facts.md "Conditions": Bleeding X costs X LETHAL for any action
 * other than Recover, which removes it; Burning X costs X STUN for any
 * action other than Shake Minor Condition. */
Test(towers_combat, bleeding_and_burning_costs) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int b = add(f, "b", 1, 1, 0, longblade());
    start(f);
    ft_cond_add(&f->r, a, FT_COND_BLEEDING, 2, FT_UNTIL_REMOVED, -1, 0, b);
    ft_cond_add(&f->r, a, FT_COND_BURNING, 3, FT_UNTIL_REMOVED, -1, 0, b);
    ft_cond_on_action(&f->r, a, FT_ACT_ATTACK);
    cr_expect_eq(f->st.c[a].lethal, 10 - 2);
    cr_expect_eq(f->st.c[a].stun, 16 - 3);
    cr_expect_eq(f->st.c[b].lethal_dealt, 2, "credited to who set it");
    ft_cond_on_action(&f->r, a, FT_ACT_SHAKE);
    cr_expect_eq(f->st.c[a].lethal, 10 - 4);
    cr_expect_eq(f->st.c[a].stun, 16 - 3, "Shake Minor Condition: no burn");
    ft_cond_on_action(&f->r, a, FT_ACT_RECOVER);
    cr_expect_eq(f->st.c[a].lethal, 10 - 4, "Recover: no bleeding");
    cr_expect(!ft_cond_has(&f->st, a, FT_COND_BLEEDING), "and it stops");
    cr_expect_eq(f->st.c[a].stun, 16 - 6);
    free(f);
}

/* ---- Hand of Fate and chips ---------------------------------------------------- */

typedef struct fate_plan {
    ft_choice script[8];
    int n, i;
    int calls;
    int last_against;
    bool swap_when_behind; /* swap the lowest card for the best held card */
    int only;              /* swap_when_behind: only this combatant, -1 anyone */
} fate_plan;

static ft_choice fate_hook(void *ctx, const ft_run *r, const ft_flip_view *v) {
    fate_plan *p = ctx;
    p->calls++;
    p->last_against = v->against;
    ft_choice none = {FT_CHOICE_NONE, 0, 0, 0};
    if (p->swap_when_behind) {
        if ((p->only >= 0 && v->who != p->only) || v->against == INT_MIN ||
            v->flip->kept_value + v->shift >= v->against)
            return none;
        const fray_deck *d = &r->st->decks[r->setup->c[v->who].deck];
        fray_card held[FT_HAND_MAX];
        size_t nh = fray_deck_held(d, held, FT_HAND_MAX);
        if (nh == 0)
            return none;
        fray_card best = held[0];
        for (size_t i = 1; i < nh; i++)
            if (fray_card_value(&d->opts, held[i]) > fray_card_value(&d->opts, best))
                best = held[i];
        int low = 0;
        for (int i = 1; i < v->flip->n_cards; i++)
            if (fray_card_value(&d->opts, v->flip->cards[i]) <
                fray_card_value(&d->opts, v->flip->cards[low]))
                low = i;
        ft_choice c = {FT_CHOICE_FATE_SWAP, (int8_t)v->who, (int8_t)low, (int8_t)best};
        return c;
    }
    if (p->i < p->n)
        return p->script[p->i++];
    return none;
}

/* rules-facts.md "Hand of Fate": one flipped card replaced by a held card;
 * "if one side uses it, the other may respond after seeing the result".
 * The swap turns a miss into a hit and is recorded in the event. */
Test(towers_combat, hand_of_fate_swap) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    f->s.opt.hand_of_fate = 3;
    start(f);
    tf_stack(f, a, "AH 5D 6D");
    cr_assert_eq(ft_fate_deal(&f->r), FRAY_OK);
    cr_expect_eq(fray_deck_count(&f->st.decks[a], FRAY_PLACE_HELD), 3);
    cr_expect_eq(f->ev.n_cards, 3 * 2, "both hands recorded");
    fate_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.swap_when_behind = true;
    plan.only = a;
    ft_hooks hooks = {&plan, fate_hook, NULL};
    f->r.hooks = &hooks;
    tf_stack(f, a, "2C 3C");
    tf_stack(f, t, "9S");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK, "%s", f->diag.message);
    cr_expect(hit, "AH replaces 2C: 14 against 9");
    cr_expect_eq(f->st.c[t].lethal, 10 - 1, "the Ace of Hearts is a Heart (RULINGS 5)");
    cr_expect_eq(f->st.c[a].fate_used, 1);
    cr_expect_eq(fray_deck_count(&f->st.decks[a], FRAY_PLACE_HELD), 2);
    cr_expect_eq(fray_deck_place(&f->st.decks[a], tf_card("AH")), FRAY_PLACE_DISCARD);
    cr_assert_eq(f->ev.n_choices, 2, "the round marker and the swap");
    cr_expect_eq(f->ev.choices[0].kind, FT_CHOICE_NONE);
    cr_expect_eq(f->ev.choices[1].kind, FT_CHOICE_FATE_SWAP);
    cr_expect_eq(f->ev.choices[1].b, tf_card("AH"));
    cr_expect_eq(count_facts(f, FT_FACT_FATE), 1);
    free(f);
}

/* Replay (towers_int.h "replay"): applying the recorded cards and choices
 * to the same state gives the same state; a tampered card is refused. */
Test(towers_combat, replay_of_a_recorded_attack) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.weapons[0].keywords |= FT_KW(CRIT_BLEED);
    f->s.c[a].sb.chips[1] = 1;
    f->s.opt.hand_of_fate = 3;
    start(f);
    cr_assert_eq(ft_fate_deal(&f->r), FRAY_OK);
    ft_state *before = malloc(sizeof *before);
    cr_assert_not_null(before);
    *before = f->st;
    memset(&f->ev, 0, sizeof f->ev);
    f->r.card_i = f->r.choice_i = f->r.round_i = 0;
    fate_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.swap_when_behind = true;
    plan.only = -1;
    ft_hooks hooks = {&plan, fate_hook, NULL};
    f->r.hooks = &hooks;
    ft_attack_opts o = opts_weapon(0);
    bool hit1, hit2;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit1), FRAY_OK);
    /* Make sure the recorded event used chips or fate at least once in
     * some seed: force one red chip (flip+1) on the next attack. */
    plan.swap_when_behind = false;
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_FLIP, 0, 0, 1};
    plan.n = 1;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit1), FRAY_OK);
    cr_expect_eq(f->st.c[a].chips[1], 0);
    cr_expect_eq(f->st.c[a].chips_used, 1);
    ft_state *after = malloc(sizeof *after);
    cr_assert_not_null(after);
    *after = f->st;
    int n_cards = f->ev.n_cards, n_choices = f->ev.n_choices;
    cr_expect_geq(n_choices, 2);

    f->st = *before;
    f->r.replay = true;
    f->r.hooks = NULL;
    f->r.card_i = f->r.choice_i = f->r.round_i = 0;
    f->ev.n_facts = 0;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit2), FRAY_OK, "%s", f->diag.message);
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit2), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->r.card_i, n_cards);
    cr_expect_eq(f->r.choice_i, n_choices);
    cr_expect_eq(hit1, hit2);
    cr_expect(memcmp(f->st.c, after->c, sizeof f->st.c) == 0, "same combatants");
    cr_expect(memcmp(f->st.decks, after->decks, sizeof f->st.decks) == 0, "same decks");
    cr_expect(memcmp(&f->st.rng, &after->rng, sizeof f->st.rng) == 0);

    /* A recorded card changed: the replay refuses. */
    f->st = *before;
    f->r.card_i = f->r.choice_i = f->r.round_i = 0;
    f->ev.cards[0] = (fray_card)((f->ev.cards[0] + 1) % 52);
    cr_expect_eq(ft_attack(&f->r, a, t, &o, &hit2), FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "does not match") != NULL, "%s", f->diag.message);
    free(before);
    free(after);
    free(f);
}

/* RULINGS 7, table mode: cards flipped by hand come from the event; when
 * they run out the action says how many it needs in all, flip by flip and
 * from whose deck (issue 13, "Cards by hand"). */
Test(towers_combat, table_cards_run_out) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    start(f);
    f->r.cards_given = true;
    f->ev.cards_given = true;
    f->ev.cards[0] = tf_card("KH");
    f->ev.cards[1] = tf_card("2C");
    f->ev.cards[2] = tf_card("3C");
    f->ev.n_cards = 3;
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_expect_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_ERR_DECK_EMPTY);
    cr_expect_str_eq(f->diag.message,
                     "too few cards: this action needs at least 4 in all, 3 "
                     "were given: the attack flip 3 from a's deck, the "
                     "defense flip 1 from t's deck");
    /* With the defense card given the attack goes through. */
    start(f);
    f->r.cards_given = true;
    f->ev.cards_given = true;
    const char *given[] = {"KH", "2C", "3C", "4S"};
    for (int i = 0; i < 4; i++)
        f->ev.cards[i] = tf_card(given[i]);
    f->ev.n_cards = 4;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK, "%s", f->diag.message);
    cr_expect(hit);
    cr_expect_eq(f->ev.card_deck[3], t, "each card's deck is written");
    cr_expect_eq(fray_deck_place(&f->st.decks[a], tf_card("KH")), FRAY_PLACE_DISCARD);
    /* A card held in a Hand of Fate cannot be flipped by hand. */
    start(f);
    fray_card held;
    cr_assert_eq(fray_deck_hold(&f->st.decks[a], &f->st.rng, 1, &held), FRAY_OK);
    f->r.cards_given = true;
    f->ev.cards_given = true;
    f->ev.cards[0] = held;
    f->ev.cards[1] = held == tf_card("2C") ? tf_card("3C") : tf_card("2C");
    f->ev.cards[2] = held == tf_card("4C") ? tf_card("5C") : tf_card("4C");
    f->ev.cards[3] = held == tf_card("6C") ? tf_card("7C") : tf_card("6C");
    f->ev.n_cards = 4;
    cr_expect_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_ERR_CARD_UNAVAILABLE);
    free(f);
}

/* rules-facts.md "Chips": white (shift+1) after a flip; red (flip+1): one
 * more card; a higher chip stands for a lower one; a choice the combatant
 * cannot make is ignored. "Hand of Fate": discard a held card and the
 * whole flip, flip one new card. */
Test(towers_combat, chips_and_reflip) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    f->s.c[a].sb.chips[0] = 0;
    f->s.c[a].sb.chips[1] = 1;
    f->s.c[a].sb.chips[2] = 0;
    start(f);
    fate_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_SHIFT, 0, 0, 0}; /* no white chip: ignored */
    plan.n = 1;
    ft_hooks hooks = {&plan, fate_hook, NULL};
    f->r.hooks = &hooks;
    tf_stack(f, a, "2C 3C");
    fray_flip fl;
    int sh;
    cr_assert_eq(ft_flip(&f->r, a, 2, FT_FLIP_SKILL, 0, 10, &fl, &sh), FRAY_OK);
    cr_expect_eq(sh, 0);
    cr_expect_eq(f->ev.n_choices, 0, "an illegal choice is not recorded");
    cr_expect_eq(plan.last_against, 10);
    /* The red chip for the white chip's effect. */
    plan.i = 0;
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_SHIFT, 0, 0, 1};
    tf_stack(f, a, "2C 3C");
    cr_assert_eq(ft_flip(&f->r, a, 2, FT_FLIP_SKILL, 0, 10, &fl, &sh), FRAY_OK);
    cr_expect_eq(sh, 1);
    cr_expect_eq(f->st.c[a].chips[1], 0);
    /* Red (flip+1): one more card. */
    f->st.c[a].chips[2] = 1;
    plan.i = 0;
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_FLIP, 0, 0, 2};
    tf_stack(f, a, "2C 3C KD");
    cr_assert_eq(ft_flip(&f->r, a, 2, FT_FLIP_SKILL, 0, 10, &fl, &sh), FRAY_OK);
    cr_expect_eq(fl.n_cards, 3);
    cr_expect_eq(fl.kept_value, 13);
    /* (flip+1) on a flip of 0 (two cards, keep the lowest): one card
     * fewer, so the higher one stays. */
    f->st.c[a].chips[1] = 1;
    plan.i = 0;
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_FLIP, 0, 0, 1};
    tf_stack(f, a, "2C QC");
    cr_assert_eq(ft_flip(&f->r, a, 0, FT_FLIP_SKILL, 0, 10, &fl, &sh), FRAY_OK);
    cr_expect_eq(fl.n_cards, 1);
    cr_expect_eq(fl.kept_value, 12);
    /* Reflip: a held card and the whole flip go; one new card is the flip. */
    fray_card held;
    tf_stack(f, a, "4H");
    cr_assert_eq(fray_deck_hold(&f->st.decks[a], &f->st.rng, 1, &held), FRAY_OK);
    plan.i = 0;
    plan.script[0] = (ft_choice){FT_CHOICE_FATE_REFLIP, 0, 0, (int8_t)held};
    tf_stack(f, a, "2C 3C 9D");
    cr_assert_eq(ft_flip(&f->r, a, 2, FT_FLIP_SKILL, 0, 10, &fl, &sh), FRAY_OK);
    cr_expect_eq(fl.n_cards, 1);
    cr_expect_eq(fl.kept_value, 9);
    cr_expect_eq(fray_deck_place(&f->st.decks[a], held), FRAY_PLACE_DISCARD);
    cr_expect_eq(f->st.c[a].fate_used, 1);
    cr_expect_eq(f->st.c[a].chips_used, 3);
    free(f);
}

/* rules-facts.md "Conditions": Blinded attacks miss unless a Hard (15+)
 * Substantial Perception check passes (an Aspect check: the card only). */
Test(towers_combat, blinded_needs_a_hard_check) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    f->s.c[a].sb.aspects[FT_ASPECT_SP] = 2;
    f->s.c[a].sb.weapons[0].attack_bonus = 0;
    start(f);
    ft_cond_add(&f->r, a, FT_COND_BLINDED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    tf_stack(f, a, "KC AD");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(!hit, "an Ace is 14: not 15");
    cr_expect_eq(f->ev.n_cards, 2, "no attack flip after the failed check");
    /* With a (shift+1) from a chip the check passes and the attack is made. */
    f->st.c[a].chips[0] = 1;
    fate_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_SHIFT, 0, 0, 0};
    plan.n = 1;
    ft_hooks hooks = {&plan, fate_hook, NULL};
    f->r.hooks = &hooks;
    tf_stack(f, a, "KC AD QC 2C");
    tf_stack(f, t, "3S");
    cr_assert_eq(ft_attack(&f->r, a, t, &o, &hit), FRAY_OK);
    cr_expect(hit);
    free(f);
}

/* ---- Whole fights: the journal replays ---------------------------------------- */

/* towers_int.h "replay", encounter.h undo/redo: fights run by the tactics
 * policies, which use the Hand of Fate and chips, rebuild to the identical
 * state from the seed and the recorded events (undo replays from the
 * start, redo re-applies). Several seeds, so that fate, chips, criticals
 * and opportunity attacks all happen somewhere. */
Test(towers_combat, fights_replay_exactly) {
    fray_towers_setup *setup = calloc(1, sizeof *setup);
    cr_assert_not_null(setup);
    fixture *f = fixture_new();
    ft_weapon blade = longblade();
    blade.keywords |= FT_KW(CRIT_BLEED);
    add(f, "Tony", 0, 2, 2, heavy_rifle());
    add(f, "Ana", 0, 3, 2, blade);
    add(f, "bandit 1", 1, 8, 6, longblade());
    add(f, "bandit 2", 1, 9, 6, blade);
    for (int i = 0; i < f->s.n_combatants; i++) {
        ft_combatant *c = &f->s.c[i];
        c->sb.cv[FT_CV_N] = 2;
        c->sb.cv[FT_CV_PA] = 3;
        c->sb.cv[FT_CV_PD] = 2;
        c->sb.cv[FT_CV_ER] = 1;
        c->sb.aspects[FT_ASPECT_SS] = 1;
        c->sb.chips[0] = 2;
        c->sb.chips[1] = 1;
        c->tactics.preset = FT_TAC_DEFAULT;
        c->tactics.use_hand_of_fate = true;
        c->tactics.use_chips = true;
        c->tactics.opportunity_attacks = true;
        c->tactics.recover_below_pct = 35;
    }
    f->s.opt.hand_of_fate = 3;
    f->s.opt.max_phase = 400;
    f->s.has_map = true;
    fray_grid_init(&f->s.map, 12, 12);
    setup->s = f->s;
    free(f);

    fray_towers_fight_options fo = {true, true, 0};
    int fate = 0, chips = 0, fights = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        fray_towers_fight *a = NULL, *b = NULL;
        cr_assert_eq(fray_towers_fight_new(setup, seed, &fo, NULL, &a), FRAY_OK);
        cr_assert_eq(fray_towers_fight_new(setup, seed, &fo, NULL, &b), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(a), FRAY_OK, "seed %d", (int)seed);
        cr_assert_eq(fray_towers_fight_run(b), FRAY_OK);
        cr_expect(fray_towers_fight_same(a, b), "same seed, same fight");
        int n = fray_towers_fight_events(b);
        for (int k = 0; k < n / 2; k++)
            cr_assert_eq(fray_towers_fight_undo(b), FRAY_OK, "seed %d", (int)seed);
        for (int k = 0; k < n / 2; k++)
            cr_assert_eq(fray_towers_fight_redo(b), FRAY_OK, "seed %d", (int)seed);
        cr_expect(fray_towers_fight_same(a, b), "seed %d: replayed", (int)seed);
        for (int i = 0; i < a->st.n; i++) {
            fate += a->st.c[i].fate_used;
            chips += a->st.c[i].chips_used;
        }
        fights += fray_towers_fight_over(a);
        fray_towers_fight_free(a);
        fray_towers_fight_free(b);
    }
    cr_expect_gt(fate, 0, "the Hand of Fate was used");
    cr_expect_gt(chips, 0, "chips were used");
    cr_expect_gt(fights, 0);
    free(setup);
}

/* Seed 000 "Attacking and Defending", "Range Modifiers", "Size
 * Modifiers"; rules-facts.md "Magic": a spell attacks with <SA> against
 * <ID>, has only a maximum range, costs its mana even on a miss; the
 * defender's size still counts (on <ID>), the attacker's only on <PA>. */
Test(towers_combat, spell_attack) {
    fixture *f = fixture_new();
    ft_weapon bolt;
    memset(&bolt, 0, sizeof bolt);
    snprintf(bolt.name, sizeof bolt.name, "Bolt of Fire");
    bolt.spell = true;
    bolt.damage = 6;
    bolt.category = FT_CAT_ARCANE;
    bolt.type = FT_DMG_FIRE;
    bolt.max_range = 10;
    bolt.mana_cost = 2;
    bolt.element = FT_ELEM_FIRE;
    int mage = add(f, "mage", 0, 0, 0, bolt);
    int t = add(f, "t", 1, 10, 0, longblade());
    f->s.c[mage].sb.cv[FT_CV_SA] = 1;
    f->s.c[mage].sb.cv[FT_CV_PA] = 5;
    f->s.c[mage].sb.size_rank = 1;
    f->s.c[mage].sb.mana[FT_ELEM_FIRE] = 3;
    f->s.c[t].sb.cv[FT_CV_ID] = 2;
    f->s.c[t].sb.cv[FT_CV_IR] = 1;
    f->s.c[t].sb.size_rank = -1;
    start(f);
    ft_mods m = mods_of(f, mage, t, opts_weapon(0));
    cr_expect(!m.impossible, "%s", m.why);
    cr_expect_eq(m.shift, 0, "no size shift on <SA>, no range increments");
    cr_expect_eq(m.def_shift, 1, "a Small defender on <ID>");
    tf_stack(f, mage, "2C");
    tf_stack(f, t, "KD QD");
    ft_attack_opts o = opts_weapon(0);
    bool hit;
    cr_assert_eq(ft_attack(&f->r, mage, t, &o, &hit), FRAY_OK, "%s", f->diag.message);
    cr_expect(!hit);
    cr_expect_eq(f->ev.n_cards, 1 + 2, "SA 1 card, ID 2 cards");
    cr_expect_eq(f->st.c[mage].mana[FT_ELEM_FIRE], 1, "spent on a miss");
    cr_expect(mods_of(f, mage, t, opts_weapon(0)).impossible, "1 fire mana left");
    f->st.c[mage].mana[FT_ELEM_FIRE] = 2;
    f->st.c[t].pos.x = 12; /* the Large mage fills x 0-1: 11 spaces */
    m = mods_of(f, mage, t, opts_weapon(0));
    cr_expect(m.impossible);
    cr_expect_str_eq(m.why, "t is out of range: 11 spaces, the Bolt of Fire reaches 10");
    free(f);
}

/* fray's ruling on Charmed (rules-facts.md names it without rules): a
 * charmed combatant cannot attack the one who charmed it. */
Test(towers_combat, charmed_cannot_attack_its_charmer) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int t = add(f, "t", 1, 1, 0, longblade());
    start(f);
    ft_cond_add(&f->r, a, FT_COND_CHARMED, 0, FT_UNTIL_REMOVED, -1, 0, t);
    ft_mods m = mods_of(f, a, t, opts_weapon(0));
    cr_expect(m.impossible);
    cr_expect_str_eq(m.why, "a is charmed by t");
    free(f);
}

/* RULINGS 3: a flip of n < 1 turns over 2 - n cards and keeps the lowest;
 * option min-one-card: one card. Under min-one-card a red chip's (flip+1)
 * from -1 to 0 changes nothing, so it is not spent. */
Test(towers_combat, flips_below_one_card) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    f->s.c[a].sb.chips[1] = 1;
    start(f);
    fray_flip fl;
    int sh;
    tf_stack(f, a, "KC 5D 9S");
    cr_assert_eq(ft_flip(&f->r, a, -1, FT_FLIP_SKILL, 0, INT_MIN, &fl, &sh), FRAY_OK);
    cr_expect_eq(fl.n_cards, 3);
    cr_expect_eq(fl.kept_value, 5, "the lowest of three");
    f->s.opt.flip.min_one_card = true;
    fate_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.script[0] = (ft_choice){FT_CHOICE_CHIP_FLIP, 0, 0, 1};
    plan.n = 1;
    ft_hooks hooks = {&plan, fate_hook, NULL};
    f->r.hooks = &hooks;
    tf_stack(f, a, "KC 5D");
    cr_assert_eq(ft_flip(&f->r, a, -1, FT_FLIP_SKILL, 0, 20, &fl, &sh), FRAY_OK);
    cr_expect_eq(fl.n_cards, 1);
    cr_expect_eq(fl.kept_value, 13);
    cr_expect_eq(f->st.c[a].chips[1], 1, "(flip+1) would change nothing");
    free(f);
}

/* Counts, over fights 1..n of the duel example, the times a deck turned
 * over a card it had turned over within its last 8 cards (impossible while
 * a deck runs down, rare when it reshuffles: RULINGS 2). */
static int repeats_in_duel(bool fresh, int n) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    s->s.opt.fresh_decks = fresh;
    int repeats = 0;
    for (int seed = 1; seed <= n; seed++) {
        fray_towers_fight *f = tf_fight(s, (uint64_t)seed);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        uint8_t last[FT_MAX_DECKS][8];
        int n_last[FT_MAX_DECKS] = {0};
        ft_event *buf = malloc(sizeof *buf);
        cr_assert_not_null(buf);
        for (int e = 0; e < f->n_events; e++) {
            const ft_event *ev = ft_fight_event(f, e, buf);
            for (int k = 0; k < ev->n_cards; k++) {
                int d = ev->card_deck[k];
                for (int j = 0; j < n_last[d] && j < 8; j++)
                    if (last[d][j] == ev->cards[k])
                        repeats++;
                last[d][n_last[d]++ % 8] = ev->cards[k];
            }
        }
        free(buf);
        fray_towers_fight_free(f);
    }
    fray_towers_setup_free(s);
    return repeats;
}

/* Option fresh-decks (docs/rules/towers.md): every flip comes from a freshly
 * shuffled deck, so a card can come up again at once; without it a deck
 * runs down first (RULINGS 2). */
Test(towers_combat, fresh_decks_option) {
    int normal = repeats_in_duel(false, 40), fresh = repeats_in_duel(true, 40);
    cr_expect_gt(fresh, 10 * (normal + 1), "fresh %d, running decks %d",
                 fresh, normal);
}

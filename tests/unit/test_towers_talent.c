/*
 * test_towers_talent.c - 99 Towers talents as data (talent.c,
 * data/towers/talents.yaml; issue 13 "talents and advantages as data") and
 * the small rules of section 2 they touch (seed 000 "Temporary STUN and
 * LETHAL", "LETHAL Damage", "Action List", "Entering Combat and
 * Initiative"; rules-facts.md "Derived values", "Standard ranks";
 * RULINGS 19).
 *
 * Each effect word changes what it says on a stacked flip or a worked-out
 * modifier, and nothing when its condition does not hold; the catalog and
 * the example load; bad talent files are refused at file:line:column with
 * the known words; a fight with talents replays from its journal.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "fray/duel.h"
#include "fray/fray.h"
#include "towers_fixture.h"

/* ---- A hand-built encounter ------------------------------------------------ */

static ft_weapon longblade(void) {
    /* "Longblade | 1+PA | 4+PX | - | $25 | 3 lbs. | Knight, Blade" */
    ft_weapon w = tf_weapon("longblade", 1, 4, true, 1);
    w.keywords = FT_KW(KNIGHT) | FT_KW(BLADE);
    return w;
}

static ft_weapon pistol(void) {
    /* "Pistol | PA | 5 | 6 | 6 | $25 | 2 lbs. | Firearm" */
    ft_weapon w = tf_weapon("pistol", 0, 5, false, 0);
    w.range_increment = 6;
    w.shots = 6;
    w.keywords = FT_KW(FIREARM);
    return w;
}

/* PA 2, PD 1, SPD 6, [[E]] 2 (16 STUN, 10 LETHAL). */
static const tf_stats stats = {.pa = 2, .pd = 1, .spd = 6, .endurance = 2};

static int add(fixture *f, const char *name, int side, int x, int y,
               ft_weapon w) {
    return tf_add(f, name, side, x, y, &stats, w);
}

static fixture *fixture_new(void) {
    fixture *f = tf_new(10, 10);
    f->s.opt.hand_of_fate = 0; /* stacked decks: nothing dealt */
    f->s.opt.decks = FT_DECKS_PER_COMBATANT;
    return f;
}

/* Gives combatant c a talent of one effect (its kind, value, on, when). */
static ft_talent_effect *give(fixture *f, int c, const char *name, int kind,
                              int value, int on, int when) {
    ft_statblock *sb = &f->s.c[c].sb;
    cr_assert_lt(sb->n_talents, FT_MAX_TALENTS);
    ft_talent *t = &sb->talents[sb->n_talents++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->n_effects = 1;
    t->e[0].kind = (uint8_t)kind;
    t->e[0].value = (int16_t)value;
    t->e[0].on = (uint8_t)on;
    t->e[0].when = (uint8_t)when;
    ft_talents_sum(sb);
    return &t->e[0];
}

/* The state from the setup; everyone has acted unless a test says not. */
static void start(fixture *f) {
    ft_state_reset(&f->s, &f->st, 42);
    for (int i = 0; i < f->st.n; i++)
        f->st.c[i].flags |= FT_F_ACTED;
    memset(&f->ev, 0, sizeof f->ev);
    tf_run(f, &f->diag);
}

static ft_attack_opts opts(int w) {
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = w;
    o.aid_ally = -1;
    return o;
}

static ft_mods mods(fixture *f, int a, int t) {
    ft_attack_opts o = opts(0);
    ft_mods m;
    ft_attack_mods(&f->r, a, t, &o, &m);
    cr_assert(!m.impossible, "%s", m.why);
    return m;
}

/* ---- shift and flip --------------------------------------------------------- */

/* rules-facts.md "Standard ranks": a shift adds to the flip's result. A
 * stacked melee attack: attacker 3 cards 7C 5D 4S (PA 2 + longblade 1):
 * kept 7; defender 1 card 9C: 9. A miss, which Backstab-like (shift+2)
 * (always, on melee attacks) turns into a hit (9 >= 9); the modifier is
 * told by the talent's name. */
Test(towers_talent, shift_turns_a_stacked_miss_into_a_hit) {
    for (int with = 0; with < 2; with++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 1, 0, longblade());
        if (with)
            give(f, a, "Sure Strike", FT_TE_SHIFT, 2, FT_APPLIES_MELEE_ATTACK,
                 FT_TW_ALWAYS);
        start(f);
        tf_stack(f, a, "7C 5D 4S");
        tf_stack(f, d, "9C");
        ft_attack_opts o = opts(0);
        bool hit = false;
        cr_assert_eq(ft_attack(&f->r, a, d, &o, &hit), FRAY_OK, "%s",
                     f->diag.message);
        cr_expect_eq(hit, with == 1, "with the talent: %d", with);
        cr_expect_eq(tf_find_modifier(f, "Sure Strike") != NULL, with == 1);
        free(f);
    }
}

/* A flip adds cards: (flip+1) on defense is one more card for the
 * defender; nothing on its attacks; and the attacker's flips are not
 * touched. */
Test(towers_talent, flip_on_defense_adds_a_card) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int d = add(f, "d", 1, 1, 0, longblade());
    start(f);
    ft_mods before = mods(f, a, d), back_before = mods(f, d, a);
    give(f, d, "Guarded", FT_TE_FLIP, 1, FT_APPLIES_DEFENSE, FT_TW_ALWAYS);
    ft_mods after = mods(f, a, d), back_after = mods(f, d, a);
    cr_expect_eq(after.def_flip, before.def_flip + 1);
    cr_expect_eq(after.flip, before.flip);
    cr_expect_eq(after.shift, before.shift);
    cr_expect_eq(after.def_shift, before.def_shift);
    cr_expect_eq(back_after.flip, back_before.flip, "not on its own attacks");
    cr_expect_eq(back_after.shift, back_before.shift);
    free(f);
}

/* `on:` picks the flips: a ranged-attack talent does nothing in melee, a
 * melee-attack one nothing to a pistol shot; physical-defense nothing
 * against a spell. */
Test(towers_talent, on_picks_the_flips) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int g = add(f, "g", 0, 0, 3, pistol());
    int d = add(f, "d", 1, 1, 0, longblade());
    start(f);
    ft_mods melee0 = mods(f, a, d), shot0 = mods(f, g, d);
    give(f, a, "Eagle Eye", FT_TE_SHIFT, 1, FT_APPLIES_RANGED_ATTACK, FT_TW_ALWAYS);
    give(f, g, "Brawler", FT_TE_SHIFT, 1, FT_APPLIES_MELEE_ATTACK, FT_TW_ALWAYS);
    ft_mods melee1 = mods(f, a, d), shot1 = mods(f, g, d);
    cr_expect_eq(melee1.shift, melee0.shift);
    cr_expect_eq(shot1.shift, shot0.shift);
    give(f, g, "Marksman", FT_TE_SHIFT, 1, FT_APPLIES_RANGED_ATTACK, FT_TW_ALWAYS);
    cr_expect_eq(mods(f, g, d).shift, shot0.shift + 1);
    ft_talent_effect e = {.kind = FT_TE_FLIP, .on = FT_APPLIES_PHYSICAL_DEFENSE};
    cr_expect(ft_talent_on_attack(&e, true, false, true));
    cr_expect(!ft_talent_on_attack(&e, true, true, false), "not against a spell");
    cr_expect(!ft_talent_on_attack(&e, false, false, true), "not on an attack");
    free(f);
}

/* when: target-prone (Finishing Blow): only while the target is Prone. */
Test(towers_talent, when_target_prone) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int d = add(f, "d", 1, 1, 0, longblade());
    give(f, a, "Finishing Blow", FT_TE_SHIFT, 1, FT_APPLIES_MELEE_ATTACK,
         FT_TW_TARGET_PRONE);
    start(f);
    ft_mods standing = mods(f, a, d);
    ft_cond_add(&f->r, d, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    ft_mods prone = mods(f, a, d);
    /* The prone target's own (shift+1) in melee comes too: the talent's
     * is one more. */
    cr_expect_eq(prone.shift, standing.shift + 1 + 1);
    free(f);
}

/* when: target-flat-footed (Backstab; seed 000 "Flat-Footed"): only on a
 * foe who has not acted yet. */
Test(towers_talent, when_target_flat_footed) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int d = add(f, "d", 1, 1, 0, longblade());
    give(f, a, "Backstab", FT_TE_SHIFT, 2, FT_APPLIES_MELEE_ATTACK,
         FT_TW_TARGET_FLAT_FOOTED);
    start(f);
    ft_mods acted = mods(f, a, d);
    f->st.c[d].flags &= (uint16_t)~FT_F_ACTED;
    ft_mods flat = mods(f, a, d);
    cr_expect_eq(flat.shift, acted.shift + 2);
    free(f);
}

/* when: below-half-stun (Last Stand): the defender's (flip+1) once its
 * STUN is below half its maximum (16: below 8), and the remembered
 * modifiers (ft_mods_cache) never answer from before. */
Test(towers_talent, when_below_half_stun_and_the_mods_cache) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int d = add(f, "d", 1, 1, 0, longblade());
    give(f, d, "Last Stand", FT_TE_FLIP, 1, FT_APPLIES_DEFENSE,
         FT_TW_BELOW_HALF_STUN);
    ft_fast_prepare(&f->s);
    cr_expect(f->s.fast.talent_state);
    start(f);
    ft_mods_cache cache;
    memset(&cache, 0, sizeof cache);
    ft_attack_opts o = opts(0);
    ft_mods full, low;
    ft_attack_mods_cached(&f->r, &cache, a, d, &o, &full);
    f->st.c[d].stun = 8; /* half: not below */
    ft_mods half;
    ft_attack_mods_cached(&f->r, &cache, a, d, &o, &half);
    cr_expect_eq(half.def_flip, full.def_flip);
    f->st.c[d].stun = 7;
    ft_attack_mods_cached(&f->r, &cache, a, d, &o, &low);
    cr_expect_eq(low.def_flip, full.def_flip + 1);
    free(f);
}

/* when: wielding KEYWORD (Blade Master): the weapon used must have it. */
Test(towers_talent, when_wielding_a_keyword) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int d = add(f, "d", 1, 1, 0, longblade());
    ft_statblock *sb = &f->s.c[a].sb;
    sb->weapons[1] = tf_weapon("club", 0, 3, true, 1);
    sb->n_weapons = 2;
    ft_talent_effect *e = give(f, a, "Blade Master", FT_TE_FLIP, 1,
                               FT_APPLIES_MELEE_ATTACK, FT_TW_WIELDING);
    e->keyword = FT_KW_BLADE;
    start(f);
    ft_attack_opts ob = opts(0), oc = opts(1);
    ft_mods blade, club;
    ft_attack_mods(&f->r, a, d, &ob, &blade);
    ft_attack_mods(&f->r, a, d, &oc, &club);
    /* The longblade's own +1 and the talent's +1; the club has neither. */
    cr_expect_eq(blade.flip, 2);
    cr_expect_eq(club.flip, 0);
    /* The quick way (setup sums, ft_fast_prepare) agrees. */
    ft_fast_prepare(&f->s);
    ft_attack_mods(&f->r, a, d, &ob, &blade);
    cr_expect_eq(blade.flip, 2);
    free(f);
}

/* rules-facts.md: Two Guns Blazing, "dual-wielding ranged weapons gains a
 * benefit" (fray's: (flip+1) on ranged attacks with a ranged weapon in
 * each hand): nothing with one pistol, +1 with two. */
Test(towers_talent, two_guns_blazing) {
    fixture *f = fixture_new();
    int g = add(f, "g", 0, 0, 0, pistol());
    int d = add(f, "d", 1, 4, 0, longblade());
    ft_statblock *sb = &f->s.c[g].sb;
    sb->weapons[1] = pistol();
    sb->n_weapons = 2;
    give(f, g, "Two Guns Blazing", FT_TE_FLIP, 1, FT_APPLIES_RANGED_ATTACK,
         FT_TW_TWO_RANGED);
    start(f);
    ft_mods one = mods(f, g, d);
    f->st.c[g].wielded[1] = 1;
    ft_mods two = mods(f, g, d);
    cr_expect_eq(two.flip, one.flip + 1);
    free(f);
}

/* Initiative (seed 000 "Entering Combat and Initiative", worked example:
 * Tony, [N] 2, flips a King and a Four: 15, acts in phase 5). With Quick
 * Reflexes (shift+1 on initiative): 16, phase 4. */
Test(towers_talent, quick_reflexes_initiative) {
    for (int with = 0; with < 2; with++) {
        fixture *f = fixture_new();
        int t = add(f, "tony", 0, 1, 1, longblade());
        int b = add(f, "bandit", 1, 8, 8, longblade());
        f->s.c[t].sb.cv[FT_CV_N] = 2;
        f->s.c[b].sb.cv[FT_CV_N] = 1;
        if (with)
            give(f, t, "Quick Reflexes", FT_TE_SHIFT, 1, FT_APPLIES_INITIATIVE,
                 FT_TW_ALWAYS);
        ft_state_reset(&f->s, &f->st, 1);
        tf_stack(f, t, "KS 4D");
        tf_stack(f, b, "2C");
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_CMD_BEGIN, -1);
        tf_run(f, &f->diag);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect_eq(f->st.c[t].ci, 15 + with);
        cr_expect_eq(f->st.c[t].phase, 5 - with);
        free(f);
    }
}

/* fray's ruling, option talents-add-up: by default talents add up
 * ((shift+1) and (shift+1): (shift+2)); off, only the best and the worst
 * of each kind count on a flip, as advantages do (rules-facts.md "Standard
 * ranks": "not cumulative"), on attacks and on initiative alike. */
Test(towers_talent, option_talents_add_up) {
    for (int add_up = 0; add_up < 2; add_up++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 1, 0, longblade());
        start(f);
        ft_mods base = mods(f, a, d);
        give(f, a, "Sure Strike", FT_TE_SHIFT, 1, FT_APPLIES_MELEE_ATTACK, FT_TW_ALWAYS);
        ft_talent_effect *e = give(f, a, "Blade Master", FT_TE_SHIFT, 1,
                                   FT_APPLIES_MELEE_ATTACK, FT_TW_WIELDING);
        e->keyword = FT_KW_BLADE;
        give(f, a, "Clumsy", FT_TE_FLIP, -1, FT_APPLIES_ATTACK, FT_TW_ALWAYS);
        give(f, a, "Quick", FT_TE_SHIFT, 1, FT_APPLIES_INITIATIVE, FT_TW_ALWAYS);
        give(f, a, "Quicker", FT_TE_SHIFT, 2, FT_APPLIES_INITIATIVE, FT_TW_ALWAYS);
        f->s.opt.talents_add_up = add_up == 1;
        ft_talents_options(&f->s.c[a].sb, &f->s.opt);
        ft_fast_prepare(&f->s);
        start(f);
        ft_mods m = mods(f, a, d);
        cr_expect_eq(m.shift, base.shift + (add_up ? 2 : 1), "add up: %d", add_up);
        cr_expect_eq(m.flip, base.flip - 1, "add up: %d", add_up);
        int flip = 0, shift = 0;
        ft_advantage_mods(&f->s.c[a].sb, FT_APPLIES_INITIATIVE, &flip, &shift);
        cr_expect_eq(shift, add_up ? 3 : 2, "initiative, add up: %d", add_up);
        free(f);
    }
    ft_options o;
    ft_options_default(&o);
    cr_expect(o.talents_add_up, "the default: they add up");
}

/* on: skill NAME: only that skill's checks. */
Test(towers_talent, skill_flip_names_its_skill) {
    ft_statblock sb;
    memset(&sb, 0, sizeof sb);
    sb.n_talents = 1;
    snprintf(sb.talents[0].name, FT_NAME, "Shadow Step");
    sb.talents[0].n_effects = 1;
    sb.talents[0].e[0] = (ft_talent_effect){.kind = FT_TE_FLIP, .value = 1,
                                            .on = FT_APPLIES_SKILL};
    snprintf(sb.talents[0].e[0].skill, FT_NAME, "Stealth");
    ft_talents_sum(&sb);
    int flip = 0, shift = 0;
    ft_talent_flip_mods(&sb, FT_APPLIES_SKILL, "stealth", &flip, &shift);
    cr_expect_eq(flip, 1);
    flip = 0;
    ft_talent_flip_mods(&sb, FT_APPLIES_SKILL, "Riding", &flip, &shift);
    cr_expect_eq(flip, 0);
    ft_talent_flip_mods(&sb, FT_APPLIES_INITIATIVE, NULL, &flip, &shift);
    cr_expect_eq(flip + shift, 0);
}

/* ---- damage ----------------------------------------------------------------- */

/* Seed 000 "LETHAL Damage": "+X to damage only affects STUN". A stacked
 * hit with no Heart: longblade 4 + PX 0 = 4 STUN; with Heavy Hitter
 * (damage: 2) 6 STUN; LETHAL 0 both ways. */
Test(towers_talent, damage_adds_stun_only) {
    for (int with = 0; with < 2; with++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 1, 0, longblade());
        if (with)
            give(f, a, "Heavy Hitter", FT_TE_DAMAGE, 2, 0, 0);
        start(f);
        tf_stack(f, a, "KC 5D 4S");
        tf_stack(f, d, "2C");
        ft_attack_opts o = opts(0);
        bool hit = false;
        cr_assert_eq(ft_attack(&f->r, a, d, &o, &hit), FRAY_OK);
        cr_assert(hit);
        cr_expect_eq(f->st.c[d].stun, 16 - 4 - 2 * with);
        cr_expect_eq(f->st.c[d].lethal, 10, "no Heart: no LETHAL");
        cr_expect_eq(ft_damage_advantage(&f->s.c[a].sb), 2 * with);
        free(f);
    }
}

/* uses: once-per-encounter (Mighty Blow, damage 4): the first hit deals
 * 4 STUN more, told as a note; the second does not; a fresh fight has it
 * again. Longblade 4 + PX 0, no Heart. */
Test(towers_talent, once_per_encounter_damage) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    int d = add(f, "d", 1, 1, 0, longblade());
    f->s.c[d].sb.max_stun = 40;
    ft_talent_effect *e = give(f, a, "Mighty Blow", FT_TE_DAMAGE, 4, 0, 0);
    e->once = 1;
    ft_talents_sum(&f->s.c[a].sb);
    cr_expect_eq(ft_damage_advantage(&f->s.c[a].sb), 0, "not on every hit");
    for (int fight = 0; fight < 2; fight++) {
        start(f);
        int want[2] = {8, 4};
        for (int blow = 0; blow < 2; blow++) {
            memset(&f->ev, 0, sizeof f->ev);
            tf_stack(f, a, "KC 5D 4S");
            tf_stack(f, d, "2C");
            int before = f->st.c[d].stun;
            ft_attack_opts o = opts(0);
            bool hit = false;
            cr_assert_eq(ft_attack(&f->r, a, d, &o, &hit), FRAY_OK);
            cr_assert(hit);
            cr_expect_eq(before - f->st.c[d].stun, want[blow], "fight %d, blow %d",
                         fight, blow);
            bool note = false;
            for (int i = 0; i < f->ev.n_facts; i++)
                if (f->ev.facts[i].kind == FT_FACT_NOTE &&
                    strstr(f->ev.facts[i].text, "Mighty Blow +4 STUN"))
                    note = true;
            cr_expect_eq(note, blow == 0, "told once");
        }
    }
    free(f);
}

/* ---- cost ------------------------------------------------------------------- */

/* Seed 000 "Action List": Attack costs 5 phases; Quick Strike (cost
 * {attack, -1}) makes it 4; never below 1; a free action stays free; other
 * actions are not touched. */
Test(towers_talent, cost_changes_an_actions_phases) {
    for (int with = 0; with < 2; with++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 1, 0, longblade());
        f->s.c[a].sb.cv[FT_CV_N] = 5;
        if (with) {
            ft_talent_effect *e = give(f, a, "Quick Strike", FT_TE_COST, -1, 0, 0);
            e->action = FT_ACT_ATTACK;
            ft_talents_sum(&f->s.c[a].sb);
        }
        ft_state_reset(&f->s, &f->st, 1);
        tf_stack(f, a, "KS");
        tf_stack(f, d, "2C");
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_CMD_BEGIN, -1);
        tf_run(f, &f->diag);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        if (f->st.c[a].phase > f->st.phase) {
            memset(&f->ev, 0, sizeof f->ev);
            f->ev.cmd = tf_cmd(FT_CMD_PHASE, -1);
            cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        }
        int before = f->st.c[a].phase;
        tf_stack(f, a, "2S 3S 4S");
        tf_stack(f, d, "KC");
        ft_command c = tf_cmd(FT_ACT_ATTACK, a);
        c.target = (int8_t)d;
        c.weapon = 0;
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = c;
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect_eq(f->st.c[a].phase, before + 5 - with);
        free(f);
    }
    ft_statblock sb;
    memset(&sb, 0, sizeof sb);
    sb.n_talents = 1;
    sb.talents[0].n_effects = 1;
    sb.talents[0].e[0] = (ft_talent_effect){.kind = FT_TE_COST, .value = -9,
                                            .action = FT_ACT_SHIFT};
    ft_talents_sum(&sb);
    cr_expect(sb.tsum.cost);
    cr_expect_eq(ft_talent_cost(&sb, FT_ACT_SHIFT, 3), 1, "never below 1");
    cr_expect_eq(ft_talent_cost(&sb, FT_ACT_ATTACK, 5), 5, "other actions");
    cr_expect_eq(ft_talent_cost(&sb, FT_ACT_SPEAK, FT_COST_FREE), FT_COST_FREE);
}

/* ---- maxima and temporary points --------------------------------------------- */

/* rules-facts.md "Derived values": Tough as Nails raises the maxima
 * ([[E]] 2: 16 STUN, 10 LETHAL; +8 and +2), and a fight starts at them. */
Test(towers_talent, tough_as_nails_maxima) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    add(f, "d", 1, 1, 0, longblade());
    give(f, a, "Tough as Nails", FT_TE_MAX_STUN, 8, 0, 0);
    ft_statblock *sb = &f->s.c[a].sb;
    sb->talents[0].n_effects = 2;
    sb->talents[0].e[1] = (ft_talent_effect){.kind = FT_TE_MAX_LETHAL, .value = 2};
    ft_talents_sum(sb);
    cr_expect_eq(ft_max_stun(&f->s, a), 24);
    cr_expect_eq(ft_max_lethal(&f->s, a), 12);
    start(f);
    cr_expect_eq(f->st.c[a].stun, 24);
    cr_expect_eq(f->st.c[a].lethal, 12);
    cr_expect_eq(f->st.c[1].stun, 16, "no talent, no change");
    free(f);
}

/* Seed 000 "Temporary STUN and LETHAL" and RULINGS 19: a talent's
 * temporary STUN at the start of a fight; a stat block's own temporary
 * points and the talent's do not add up: the larger stays. */
Test(towers_talent, temp_stun_at_the_start_larger_grant_stays) {
    static const struct {
        int own, talent, want;
    } t[] = {{0, 6, 6}, {3, 6, 6}, {8, 6, 8}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        add(f, "d", 1, 1, 0, longblade());
        f->s.c[a].sb.temp_stun = t[i].own;
        give(f, a, "Iron Hide", FT_TE_TEMP_STUN, t[i].talent, 0, 0);
        give(f, a, "Stubborn", FT_TE_TEMP_LETHAL, 2, 0, 0);
        start(f);
        cr_expect_eq(f->st.c[a].temp_stun, t[i].want, "case %zu", i);
        cr_expect_eq(f->st.c[a].temp_lethal, 2);
        cr_expect_eq(f->st.c[a].stun, 16, "the maximum is not changed");
        free(f);
    }
}

/* Seed 000 "Temporary STUN and LETHAL": temporary points go above the
 * maximum; "can't be added together: keep what you have or gain the new"
 * (a larger grant replaces, RULINGS 19); healing does not restore them. */
Test(towers_talent, temp_points_exceed_max_and_replace) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    start(f);
    ft_harm_temp(&f->r, a, 4, 0);
    cr_expect_eq(f->st.c[a].stun + f->st.c[a].temp_stun, 20,
                 "16 of 16 STUN and 4 temporary: above the maximum");
    ft_harm_temp(&f->r, a, 6, 0);
    cr_expect_eq(f->st.c[a].temp_stun, 6, "the larger grant replaces: 6, not 10");
    ft_harm_apply(&f->r, a, 7, 0, -1);
    cr_expect_eq(f->st.c[a].temp_stun, 0);
    cr_expect_eq(f->st.c[a].stun, 15);
    ft_harm_heal(&f->r, a, 10, 0);
    cr_expect_eq(f->st.c[a].stun, 16);
    cr_expect_eq(f->st.c[a].temp_stun, 0, "healing does not restore them");
    free(f);
}

/* Seed 000 "Temporary STUN and LETHAL": at 0 STUN, temporary STUN does not
 * wake you: still unconscious. Temporary LETHAL above zero ends dying, and
 * losing it returns it. */
Test(towers_talent, temp_points_and_status) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0, longblade());
    start(f);
    ft_harm_apply(&f->r, a, 16, 0, -1);
    cr_expect(f->st.c[a].flags & FT_F_UNCONSCIOUS);
    ft_harm_temp(&f->r, a, 5, 0);
    cr_expect_eq(f->st.c[a].stun, 0);
    cr_expect(f->st.c[a].flags & FT_F_UNCONSCIOUS,
              "0 STUN and 5 temporary STUN: still unconscious");
    ft_harm_heal(&f->r, a, 3, 0);
    ft_harm_apply(&f->r, a, 0, 12, -1); /* 10 LETHAL - 12 = -2: dying */
    cr_expect(f->st.c[a].flags & FT_F_DYING);
    ft_harm_temp(&f->r, a, 0, 3); /* -2 + 3 = 1 above zero */
    cr_expect(!(f->st.c[a].flags & (FT_F_DYING | FT_F_DISABLED)),
              "temporary LETHAL above zero: no longer dying");
    cr_expect(!(f->st.c[a].flags & FT_F_UNCONSCIOUS), "STUN 3: awake");
    ft_harm_apply(&f->r, a, 1, 3, -1);
    cr_expect_eq(f->st.c[a].temp_lethal, 0);
    cr_expect(f->st.c[a].flags & FT_F_DYING, "losing it: dying again");
    free(f);
}

/* ---- Stand from Prone with Acrobatics ---------------------------------------- */

/* Begins the fight (a acts first: [N] 5 and a King) and moves the clock
 * to a's first action. */
static void begin_first(fixture *f, int a, int d) {
    f->s.c[a].sb.cv[FT_CV_N] = 5;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, a, "KS");
    tf_stack(f, d, "2C");
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = tf_cmd(FT_CMD_BEGIN, -1);
    tf_run(f, &f->diag);
    cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
    if (f->st.c[a].phase > f->st.phase) {
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_CMD_PHASE, -1);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
    }
}

/* Seed 000 "Action List": "Stand from Prone (4 phases) ... The amount of
 * time this takes can be reduced by making a successful Acrobatics check.
 * The Quick Stand specialization helps as well." fray's numbers (options
 * quick-stand-dtn 10, quick-stand-phases 2): Acrobatics rank 1 on [SS] 2,
 * one card: a 9 makes 11, quick (2 phases); a 5 makes 7, slow (4);
 * with Quick Stand two cards 5 9 keep the 9: quick; with the option off no
 * card is flipped and it takes 4; without the skill, 4. */
Test(towers_talent, stand_from_prone_with_acrobatics) {
    static const struct {
        const char *cards;
        bool spec, skill;
        int dtn, want, flipped;
    } t[] = {{"9C", false, true, 10, 2, 1}, {"5C", false, true, 10, 4, 1},
             {"5C 9D", true, true, 10, 2, 2}, {"9C", false, true, 0, 4, 0},
             {"9C", false, false, 10, 4, 0}, {"9C", false, true, 12, 4, 1}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        fixture *f = fixture_new();
        f->s.opt.quick_stand_dtn = t[i].dtn;
        f->s.opt.quick_stand_phases = 2;
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 9, 9, longblade());
        ft_statblock *sb = &f->s.c[a].sb;
        sb->aspects[FT_ASPECT_SS] = 2;
        if (t[i].skill) {
            sb->n_skills = 1;
            snprintf(sb->skills[0].name, FT_NAME, "Acrobatics");
            sb->skills[0].aspect = FT_ASPECT_SS;
            sb->skills[0].rank = 1;
            if (t[i].spec) {
                sb->skills[0].n_specs = 1;
                snprintf(sb->skills[0].specs[0], FT_NAME, "Quick Stand");
            }
        }
        begin_first(f, a, d);
        ft_cond_add(&f->r, a, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, -1);
        int before = f->st.c[a].phase;
        tf_stack(f, a, t[i].cards);
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_ACT_STAND, a);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect(!ft_cond_has(&f->st, a, FT_COND_PRONE));
        cr_expect_eq(f->st.c[a].phase, before + t[i].want, "case %zu", i);
        cr_expect_eq(f->ev.n_cards, t[i].flipped, "case %zu: cards flipped", i);
        free(f);
    }
}

/* RULINGS 7: the Acrobatics flip of a Stand takes cards flipped by hand at
 * the table: with none given it asks for one more; with 9C given (11 >= 10)
 * the Stand is quick. */
Test(towers_talent, quick_stand_cards_by_hand) {
    for (int given = 0; given < 2; given++) {
        fixture *f = fixture_new();
        f->s.opt.quick_stand_dtn = 10;
        f->s.opt.quick_stand_phases = 2;
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 9, 9, longblade());
        ft_statblock *sb = &f->s.c[a].sb;
        sb->aspects[FT_ASPECT_SS] = 2;
        sb->n_skills = 1;
        snprintf(sb->skills[0].name, FT_NAME, "Acrobatics");
        sb->skills[0].aspect = FT_ASPECT_SS;
        sb->skills[0].rank = 1;
        begin_first(f, a, d);
        ft_cond_add(&f->r, a, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, -1);
        int before = f->st.c[a].phase;
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_ACT_STAND, a);
        tf_run(f, &f->diag);
        f->r.cards_given = true;
        f->ev.cards_given = true;
        if (given) {
            f->ev.cards[0] = tf_card("9C");
            f->ev.n_cards = 1;
        }
        fray_status rc = ft_apply(&f->r);
        if (!given) {
            cr_expect_neq(rc, FRAY_OK);
            cr_expect(ft_cond_has(&f->st, a, FT_COND_PRONE), "still prone");
            cr_expect_not_null(strstr(f->diag.message, "too few cards"), "%s",
                               f->diag.message);
        } else {
            cr_assert_eq(rc, FRAY_OK, "%s", f->diag.message);
            cr_expect_eq(f->st.c[a].phase, before + 2);
        }
        free(f);
    }
}

/* ---- An extra reaction ------------------------------------------------------------ */

/* Seed 000 "Opportunity Attacks": moving out of a threatened space
 * provokes; the attacker moves 3 phases later on the clock (RULINGS 14).
 * With the talent Combat Reflexes (reaction: extra-opportunity) the first
 * one in a round costs no delay; a second one in the same round does. */
Test(towers_talent, extra_opportunity_reaction) {
    for (int with = 0; with < 2; with++) {
        fixture *f = fixture_new();
        int t = add(f, "tony", 0, 1, 1, longblade());
        int e = add(f, "bandit", 1, 2, 1, longblade());
        if (with)
            give(f, e, "Combat Reflexes", FT_TE_REACTION, 1, 0, 0);
        f->s.c[e].sb.cv[FT_CV_N] = 5;
        ft_state_reset(&f->s, &f->st, 1);
        tf_stack(f, t, "2S 3S");
        tf_stack(f, e, "KD 5C 5D 2C");
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_CMD_BEGIN, -1);
        tf_run(f, &f->diag);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        /* The bandit has acted (no longer flat-footed) and acts next in
         * phase 50; Tony's turn. */
        f->st.c[e].flags |= FT_F_ACTED;
        f->st.c[e].phase = 50;
        ft_clock_place(&f->st, e);
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_CMD_PHASE, -1);
        tf_run(f, &f->diag);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_assert_eq(ft_next_actor(&f->st), t);
        ft_command m = tf_cmd(FT_ACT_MOVE, t);
        m.dest = (fray_pos){1, 6};
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = m;
        tf_run(f, &f->diag);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        int oa = -1;
        for (int i = 0; i < f->ev.n_facts; i++)
            if (f->ev.facts[i].kind == FT_FACT_OPPORTUNITY)
                oa = f->ev.facts[i].v[0];
        cr_assert_eq(oa, with ? 0 : 3, "the delay told");
        cr_expect_eq(f->st.c[e].phase, with ? 50 : 53);
        if (with)
            cr_expect_eq(ft_talent_oa_delay(&f->r, e, 3), 3,
                         "a second one in the same round: delayed");
        free(f);
    }
}

/* ---- A red chip for a Major Condition ----------------------------------------- */

static int count_chip_facts(const fixture *f, int use) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == FT_FACT_CHIP && f->ev.facts[i].v[1] == use;
    return n;
}

/* rules-facts.md "Chips": a red chip "recover[s] from a Major Condition";
 * fray: as a free action, `shake bleeding red`. Bleeding ends, the red chip
 * is spent, the clock does not move; with no red chip a blue one is spent
 * (a higher chip for a lower chip's effect); with neither it is refused;
 * a white chip still shakes only minor conditions; a red chip may shake a
 * minor one. The event replays to the same state. */
Test(towers_talent, red_chip_recovers_from_a_major_condition) {
    static const struct {
        int red, blue, chip, cond;
        bool ok;
        int red_left, blue_left, use;
    } t[] = {{1, 0, 1, FT_COND_BLEEDING, true, 0, 0, FT_CHIP_FOR_RECOVER},
             {0, 1, 1, FT_COND_BLEEDING, true, 0, 0, FT_CHIP_FOR_RECOVER},
             {0, 0, 1, FT_COND_BLEEDING, false, 0, 0, 0},
             {1, 0, 2, FT_COND_BLEEDING, false, 1, 0, 0},
             {1, 0, 0, FT_COND_BLEEDING, false, 1, 0, 0},
             {1, 0, 1, FT_COND_DAZED, true, 0, 0, FT_CHIP_FOR_SHAKE}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 9, 9, longblade());
        begin_first(f, a, d);
        f->st.c[a].chips[1] = (int8_t)t[i].red;
        f->st.c[a].chips[2] = (int8_t)t[i].blue;
        ft_cond_add(&f->r, a, (ft_condition)t[i].cond, 1, FT_UNTIL_REMOVED, -1, 0, -1);
        ft_command c = tf_cmd(FT_ACT_SHAKE, a);
        c.chip = (int8_t)t[i].chip;
        c.condition = (int8_t)t[i].cond;
        fray_diag d0;
        memset(&d0, 0, sizeof d0);
        fray_status rc = ft_check_command(&f->s, &f->st, &c, &d0);
        cr_expect_eq(rc == FRAY_OK, t[i].ok, "case %zu: %s", i, d0.message);
        if (!t[i].ok) {
            free(f);
            continue;
        }
        ft_state *before = malloc(sizeof *before), *after = malloc(sizeof *after);
        cr_assert(before && after);
        *before = f->st;
        int phase = f->st.c[a].phase;
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = c;
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect(!ft_cond_has(&f->st, a, (ft_condition)t[i].cond), "case %zu", i);
        cr_expect_eq(f->st.c[a].chips[1], t[i].red_left, "case %zu", i);
        cr_expect_eq(f->st.c[a].chips[2], t[i].blue_left, "case %zu", i);
        cr_expect_eq(f->st.c[a].phase, phase, "case %zu: a free action", i);
        cr_expect_eq(count_chip_facts(f, t[i].use), 1, "case %zu", i);
        /* Replayed (as a journal replays it): the same state. */
        *after = f->st;
        f->st = *before;
        f->r.replay = true;
        f->ev.n_facts = 0;
        f->r.card_i = f->r.choice_i = 0;
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect(f->st.phase == after->phase && f->st.n_events == after->n_events &&
                      memcmp(f->st.c, after->c, (size_t)f->st.n * sizeof f->st.c[0]) == 0,
                  "case %zu: replay", i);
        free(before);
        free(after);
        free(f);
    }
}

/* ---- A white chip doubles <SPD> for one action --------------------------------- */

/* rules-facts.md "Chips": white, "double <SPD> for one action". <SPD> 6:
 * a Combat Move of 9 spaces is refused; `move 9,0 white` makes it (12),
 * spending the white chip; with only a red chip, `white` spends the red one
 * (a higher chip for a lower chip's effect); with none it is refused. The
 * event replays to the same state. */
Test(towers_talent, white_chip_doubles_speed) {
    static const struct {
        int white, red, chip;
        bool ok;
        int white_left, red_left;
    } t[] = {{1, 0, -1, false, 1, 0}, {1, 0, 0, true, 0, 0},
             {0, 1, 0, true, 0, 0},   {0, 0, 0, false, 0, 0},
             {1, 1, 1, true, 1, 0}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0, longblade());
        int d = add(f, "d", 1, 9, 9, longblade());
        begin_first(f, a, d);
        f->st.c[a].chips[0] = (int8_t)t[i].white;
        f->st.c[a].chips[1] = (int8_t)t[i].red;
        ft_command c = tf_cmd(FT_ACT_MOVE, a);
        c.dest = (fray_pos){9, 0};
        c.chip = (int8_t)t[i].chip;
        fray_diag d0;
        memset(&d0, 0, sizeof d0);
        fray_status rc = ft_check_command(&f->s, &f->st, &c, &d0);
        cr_expect_eq(rc == FRAY_OK, t[i].ok, "case %zu: %s", i, d0.message);
        if (!t[i].ok) {
            free(f);
            continue;
        }
        ft_state *before = malloc(sizeof *before), *after = malloc(sizeof *after);
        cr_assert(before && after);
        *before = f->st;
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = c;
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect_eq(f->st.c[a].pos.x, 9, "case %zu", i);
        cr_expect_eq(f->st.c[a].chips[0], t[i].white_left, "case %zu", i);
        cr_expect_eq(f->st.c[a].chips[1], t[i].red_left, "case %zu", i);
        cr_expect_eq(count_chip_facts(f, FT_CHIP_FOR_SPEED), 1, "case %zu", i);
        *after = f->st;
        f->st = *before;
        f->r.replay = true;
        f->ev.n_facts = 0;
        f->r.card_i = f->r.choice_i = 0;
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        cr_expect(f->st.phase == after->phase &&
                      memcmp(f->st.c, after->c, (size_t)f->st.n * sizeof f->st.c[0]) == 0,
                  "case %zu: replay", i);
        free(before);
        free(after);
        free(f);
    }
}

/* ---- Loading ------------------------------------------------------------------ */

#define SRC FRAY_SOURCE_DIR "/"

static ft_setup *load(const char *rel, fray_status *st, fray_diag *diag) {
    char path[512];
    snprintf(path, sizeof path, "%s%s", SRC, rel);
    const char *p = path;
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    memset(diag, 0, sizeof *diag);
    *st = ft_load_files(&p, 1, s, diag);
    return s;
}

static const ft_combatant *who(const ft_setup *s, const char *id) {
    for (int i = 0; i < s->n_combatants; i++)
        if (strcmp(s->c[i].id, id) == 0)
            return &s->c[i];
    cr_assert_fail("no combatant '%s'", id);
    return NULL;
}

/* The catalog loads every talent rules-facts.md names and the class
 * talents, each with what it says. */
Test(towers_talent, catalog_loads) {
    fray_status st;
    fray_diag d;
    ft_setup *s = load("data/towers/talents.yaml", &st, &d);
    cr_assert_eq(st, FRAY_OK, "%s:%d:%d: %s", d.file, d.line, d.column, d.message);
    const ft_talent *t = ft_talent_find(s, "tough as nails");
    cr_assert_not_null(t);
    cr_expect_eq(t->n_effects, 2);
    cr_expect_eq(t->e[0].kind, FT_TE_MAX_STUN);
    t = ft_talent_find(s, "Two Guns Blazing");
    cr_assert_not_null(t);
    cr_expect_eq(t->e[0].when, FT_TW_TWO_RANGED);
    cr_expect_eq(t->e[0].on, FT_APPLIES_RANGED_ATTACK);
    t = ft_talent_find(s, "Gunslinger");
    cr_assert_not_null(t);
    cr_expect_eq(t->e[0].when, FT_TW_WIELDING);
    cr_expect_eq(t->e[0].keyword, FT_KW_FIREARM);
    t = ft_talent_find(s, "Shadow Step");
    cr_assert_not_null(t);
    cr_expect_str_eq(t->e[0].skill, "Stealth");
    t = ft_talent_find(s, "Quick Strike");
    cr_assert_not_null(t);
    cr_expect_eq(t->e[0].action, FT_ACT_ATTACK);
    cr_expect_eq(t->e[0].value, -1);
    t = ft_talent_find(s, "Mighty Blow");
    cr_assert_not_null(t);
    cr_expect(t->e[0].once);
    t = ft_talent_find(s, "Combat Reflexes");
    cr_assert_not_null(t);
    cr_expect_eq(t->e[0].kind, FT_TE_REACTION);
    free(s);
}

/* The example: stat blocks name talents through `base:`; the sums are
 * worked out; a combatant with none has none. */
Test(towers_talent, example_loads) {
    fray_status st;
    fray_diag d;
    ft_setup *s = load("examples/towers/talents.yaml", &st, &d);
    cr_assert_eq(st, FRAY_OK, "%s:%d:%d: %s", d.file, d.line, d.column, d.message);
    const ft_combatant *k = who(s, "knight");
    cr_expect_eq(k->sb.n_talents, 4);
    cr_expect(k->sb.tsum.cost);
    cr_expect(k->sb.tsum.used, "Lucky Strike is used with a command");
    cr_expect_eq(k->sb.tsum.max_stun, 8);
    const ft_combatant *b = who(s, "brute");
    cr_expect_eq(b->sb.tsum.damage, 2);
    cr_expect(b->sb.tsum.state, "Last Stand reads the state");
    cr_expect_eq(b->sb.tsum.temp_stun, 6);
    cr_expect_eq(b->sb.tsum.damage_flips, 1, "Crushing Grip");
    cr_expect(b->sb.tsum.once_damage, "Brutal Finish: read at the hit");
    cr_expect_eq(s->opt.fate_exchange_below, 8);
    cr_expect(s->fast.talent_state);
    free(s);
}

/* The options quick-stand-dtn and quick-stand-phases are read from an
 * encounter's options (defaults 10 and 2); an inline stat block names a
 * talent. */
Test(towers_talent, quick_stand_options_load) {
    ft_options o;
    ft_options_default(&o);
    cr_expect_eq(o.quick_stand_dtn, 10);
    cr_expect_eq(o.quick_stand_phases, 2);
    fray_status st;
    fray_diag d;
    ft_setup *s = load("tests/data/towers/talent_options.yaml", &st, &d);
    cr_assert_eq(st, FRAY_OK, "%s:%d:%d: %s", d.file, d.line, d.column, d.message);
    cr_expect_eq(s->opt.quick_stand_dtn, 0);
    cr_expect_eq(s->opt.quick_stand_phases, 3);
    cr_expect(!s->opt.talents_add_up);
    cr_expect(who(s, "bandit")->sb.tsum.no_add_up, "the option reaches the stat blocks");
    const ft_combatant *b = who(s, "bandit");
    cr_expect_eq(b->sb.n_talents, 1);
    cr_expect_str_eq(b->sb.talents[0].name, "Shadow Step");
    cr_expect_eq(who(s, "tony")->sb.n_talents, 0);
    free(s);
}

/* Exact duel odds (`fray odds duel`) model talents that only change
 * numbers the chain already reads (damage, setup-only shifts and flips)
 * and refuse, in rules words, those that change an action's cost, read the
 * fight's state or add a reaction. */
Test(towers_talent, duel_odds_and_talents) {
    const char *file = FRAY_SOURCE_DIR "/tests/data/towers/talent_duel.yaml";
    static const struct {
        const char *name;
        bool ok;
    } t[] = {{"Heavy", true}, {"Reflexive", false}, {"Striker", false}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        fray_towers_setup *x = NULL;
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(fray_towers_duel_setup(file, t[i].name, file, "Plain", NULL, NULL,
                                            NULL, &x, &d),
                     FRAY_OK, "%s", d.message);
        fray_duel_odds o;
        fray_status rc = fray_towers_duel_odds(x, 0, 1, &o, &d);
        cr_expect_eq(rc == FRAY_OK, t[i].ok, "%s: %s", t[i].name, d.message);
        if (!t[i].ok)
            cr_expect_not_null(strstr(d.message, "talents"), "%s", d.message);
        fray_towers_setup_free(x);
    }
}

typedef struct bad_case {
    const char *file;
    int line, column;
    const char *fragment;
} bad_case;

static const bad_case bad_cases[] = {
    {"bad_talent_word.yaml", 10, 9,
     "unknown key 'shfit' in a talent's effect; expected one of: shift, flip"},
    {"bad_talent_when.yaml", 12, 15,
     "unknown condition 'target-asleep' for 'when'; known: always, wielding KEYWORD"},
    {"bad_talent_on.yaml", 11, 13, "unknown flip 'parry' for 'on'; known: all"},
    {"bad_talent_two_words.yaml", 11, 9, "one effect per item in 'Greedy'"},
    {"bad_talent_keyword.yaml", 12, 15,
     "unknown weapon keyword 'Sharp' after 'wielding'"},
    {"bad_talent_action.yaml", 10, 24, "expected one of aid, aim, attack"},
    {"bad_talent_no_catalog.yaml", 10, 15,
     "unknown talent 'Backstab': no catalog with talents is loaded"},
    {"bad_talent_reaction.yaml", 10, 19, "extra-opportunity"},
    {"bad_talent_uses.yaml", 12, 9,
     "'uses' goes with 'shift', 'flip', 'damage', 'cost' or 'reaction'"},
    {"bad_talent_unknown.yaml", 13, 9,
     "unknown talent 'Tough as Nail' (did you mean 'Tough as Nails'?)"},
};

/* Bad talents are refused at file:line:column, with the known words. */
Test(towers_talent, bad_files_are_refused) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *b = &bad_cases[i];
        char rel[256];
        snprintf(rel, sizeof rel, "tests/data/towers/%s", b->file);
        fray_status st;
        fray_diag d;
        ft_setup *s = load(rel, &st, &d);
        cr_expect_neq(st, FRAY_OK, "%s", b->file);
        cr_expect_eq(d.line, b->line, "%s: line %d, not %d (%s)", b->file, d.line,
                     b->line, d.message);
        cr_expect_eq(d.column, b->column, "%s: column %d, not %d (%s)", b->file,
                     d.column, b->column, d.message);
        cr_expect_not_null(strstr(d.message, b->fragment), "%s: '%s' lacks '%s'",
                           b->file, d.message, b->fragment);
        free(s);
    }
}

/* ---- A whole fight -------------------------------------------------------------- */

/* The example's fights replay from their journals (docs/journal.md): the
 * talents are in the setup, so the replay is the same fight. */
Test(towers_talent, journal_round_trip) {
    fray_towers_setup *s = tf_load_example("talents.yaml");
    for (uint64_t seed = 1; seed <= 3; seed++) {
        fray_towers_fight *a = tf_fight(s, seed);
        cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
        int n = fray_towers_fight_events(a);
        size_t cap = 1 << 16, len = 0;
        char *j = malloc(cap);
        cr_assert_not_null(j);
        for (int i = 0; i < n; i++) {
            size_t m = fray_towers_event_json(a, i, NULL, 0);
            while (len + m + 2 > cap) {
                cap *= 2;
                j = realloc(j, cap);
                cr_assert_not_null(j);
            }
            cr_assert_eq(fray_towers_event_json(a, i, j + len, m + 1), m);
            len += m;
            j[len++] = '\n';
            j[len] = '\0';
        }
        fray_towers_fight *r = tf_fight(s, 99);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_towers_replay_info info;
        cr_assert_eq(fray_towers_fight_replay_journal(r, j, len, &info, &d), FRAY_OK,
                     "%d:%d: %s", d.line, d.column, d.message);
        cr_expect(fray_towers_fight_same(a, r), "seed %llu", (unsigned long long)seed);
        free(j);
        fray_towers_fight_free(a);
        fray_towers_fight_free(r);
    }
    fray_towers_setup_free(s);
}

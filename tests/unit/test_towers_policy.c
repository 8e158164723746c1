/*
 * test_towers_policy.c - the tactics policies (docs/rules/towers.md
 * "Tactics") on hand-built encounters: what a combatant does on its turn,
 * and its Hand of Fate, chip and opportunity-attack choices (seed 000
 * "Action List", "Opportunity Attacks", "Flat-Footed"; rules-facts.md
 * "Hand of Fate", "Chips"; RULINGS 6, 13).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"

/* Everyone's numbers: [N] 2, <PA> 3, <PD> 2, <PX> 1, <ER> 1, <SPD> 5,
 * [SS] 1, [[E]] 3 (24 STUN, 11 LETHAL), and a longblade. */
static const tf_stats policy_stats = {.n = 2, .pa = 3, .pd = 2, .px = 1,
                                      .er = 1, .spd = 5, .ss = 1,
                                      .endurance = 3, .max_stun = 24,
                                      .max_lethal = 11};

/* With the default tactics (docs/rules/towers.md "Tactics"). */
static int add(fixture *f, const char *id, int side, int x, int y) {
    int i = tf_add(f, id, side, x, y, &policy_stats,
                   tf_weapon("Longblade", 1, 4, true, 1));
    ft_tactics *t = &f->s.c[i].tactics;
    t->preset = FT_TAC_DEFAULT;
    t->target = FT_TARGET_NEAREST;
    t->recover_below_pct = 35;
    t->use_hand_of_fate = true;
    t->use_chips = true;
    t->opportunity_attacks = true;
    return i;
}

static fixture *fixture_new(void) {
    fixture *f = tf_new(12, 8);
    f->s.opt.hand_of_fate = 0;
    return f;
}

/* Combatant c's longblade made a heavy rifle ("Heavy Rifle | PA | 7 | 12 |
 * 10"): no attack bonus, damage 7 without <PX>, range increment 12, 10
 * shots. */
static ft_weapon *rifle(fixture *f, int c) {
    ft_weapon *w = &f->s.c[c].sb.weapons[0];
    snprintf(w->name, sizeof w->name, "Heavy Rifle");
    w->attack_bonus = 0;
    w->damage = 7;
    w->adds_px = false;
    w->range_increment = 12;
    w->shots = 10;
    return w;
}

/* Resets the state and makes it `actor`'s turn in phase 5; everyone else
 * acts later. Everyone has acted once (not flat-footed) unless told. */
static void turn_of(fixture *f, int actor) {
    ft_state_reset(&f->s, &f->st, 1);
    for (int i = 0; i < f->st.n; i++) {
        f->st.c[i].phase = i == actor ? 5 : 9;
        f->st.c[i].init_rank = (int16_t)i;
        f->st.c[i].slot = 4 * (i + 1);
        f->st.c[i].flags |= FT_F_ACTED;
    }
    f->st.phase = 5;
    f->st.round = 1;
}

static ft_command choose(fixture *f, int actor) {
    ft_command c;
    memset(&c, 0x55, sizeof c); /* the policy must set every field */
    ft_policy_choose(&f->s, &f->st, actor, &c);
    cr_assert_eq(c.actor, actor);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(ft_check_command(&f->s, &f->st, &c, &diag), FRAY_OK,
                 "the policy chose an illegal %s: %s",
                 c.action < FT_ACTION_COUNT ? ft_actions[c.action].name : "?",
                 diag.message);
    return c;
}

static bool is_attack(const ft_command *c) {
    return c->action == FT_ACT_ATTACK || c->action == FT_ACT_POWER_ATTACK;
}

/* Seed 000 "Attack": an enemy next to it is attacked. The presets: attack
 * never Power Attacks, power-attack always does. */
Test(towers_policy, attacks_an_adjacent_enemy) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 2, 1);
    turn_of(f, 0);
    ft_command c = choose(f, 0);
    cr_expect(is_attack(&c), "action %d", c.action);
    cr_expect_eq(c.target, 1);
    f->s.c[0].tactics.preset = FT_TAC_ATTACK;
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_ATTACK);
    f->s.c[0].tactics.preset = FT_TAC_POWER_ATTACK;
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_POWER_ATTACK);
    cr_expect_eq(c.target, 1);
    free(f);
}

/* Seed 000 "Power Attack": (flip-1), +2 damage, 7 phases. Against a
 * target whose Resilience eats most of the blow, the +2 pays (expected
 * STUN per phase); against a soft one with the odds already thin, not. */
Test(towers_policy, power_attack_when_it_pays) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "knight", 1, 2, 1);
    f->s.c[1].sb.cv[FT_CV_ER] = 5; /* 4 + PX 1 - 5: the minimum 1 STUN */
    turn_of(f, 0);
    ft_command c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_POWER_ATTACK);
    f->s.c[1].sb.cv[FT_CV_ER] = 0;
    f->s.c[1].sb.cv[FT_CV_PD] = 5;
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_ATTACK);
    free(f);
}

/* Seed 000 "Combat Move", "Charge": an enemy out of reach is approached;
 * within Speed and in a straight line it is charged. */
Test(towers_policy, moves_toward_a_distant_enemy) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 9, 1);
    turn_of(f, 0);
    ft_command c = choose(f, 0);
    cr_assert_eq(c.action, FT_ACT_MOVE, "action %d", c.action);
    fray_footprint to = {c.dest, 1}, b = {{9, 1}, 1};
    /* SPD 5 from (1,1): as close as it gets, 3 spaces from the bandit. */
    cr_expect_eq(fray_grid_range(to, b), 3, "dest (%d,%d)", c.dest.x, c.dest.y);
    /* Within reach of a Charge: 4 spaces to (5,1), straight. */
    f->s.c[1].start.x = 6;
    turn_of(f, 0);
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_CHARGE, "action %d", c.action);
    cr_expect_eq(c.target, 1);
    cr_expect_eq(c.dest.x, 5);
    cr_expect_eq(c.dest.y, 1);
    /* hold-ground never moves. */
    f->s.c[0].tactics.preset = FT_TAC_HOLD_GROUND;
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_DELAY);
    free(f);
}

/* Seed 000 "Recover": below recover_below_pct of its STUN and with nobody
 * next to it, it Recovers; with an enemy next to it, it fights on. */
Test(towers_policy, recovers_when_low) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 9, 5);
    turn_of(f, 0);
    f->st.c[0].stun = 6; /* 6 < 35% of 24 */
    ft_command c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_RECOVER);
    f->st.c[0].stun = 9; /* 9 >= 8.4: not low */
    c = choose(f, 0);
    cr_expect_neq(c.action, FT_ACT_RECOVER);
    /* An enemy next to it: it fights on. */
    f->s.c[1].start.x = 2;
    f->s.c[1].start.y = 1;
    turn_of(f, 0);
    f->st.c[0].stun = 6;
    c = choose(f, 0);
    cr_expect(is_attack(&c), "an enemy is next to it: attack");
    /* Bleeding (rules-facts.md: every other action costs LETHAL; Recover
     * removes it): Recover even then. */
    f->st.c[0].n_cond = 1;
    f->st.c[0].cond[0].kind = FT_COND_BLEEDING;
    f->st.c[0].cond[0].value = 1;
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_RECOVER);
    free(f);
}

/* Seed 000 "Reload a Weapon": an empty rifle is reloaded. */
Test(towers_policy, reloads_an_empty_rifle) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 9, 5);
    rifle(f, 0)->keywords = FT_KW(TWO_HANDED) | FT_KW(LARGE);
    turn_of(f, 0);
    f->st.c[0].ammo[0] = 0;
    ft_command c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_RELOAD);
    /* Loaded, and the bandit within one range increment: it shoots. */
    f->st.c[0].ammo[0] = 10;
    c = choose(f, 0);
    cr_expect(is_attack(&c) || c.action == FT_ACT_AIM, "action %d", c.action);
    free(f);
}

/* Seed 000 "Opportunity Attacks", "Shift Position": attacking with a
 * ranged weapon in a threatened space provokes, Shift Position alone does
 * not: a rifleman next to a swordsman steps out of reach first. */
Test(towers_policy, shooter_steps_out_of_reach) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 5, 3);
    add(f, "bandit", 1, 6, 3);
    rifle(f, 0);
    turn_of(f, 0);
    ft_command c = choose(f, 0);
    cr_assert_eq(c.action, FT_ACT_SHIFT, "action %d", c.action);
    fray_footprint to = {c.dest, 1}, b = {{6, 3}, 1};
    cr_expect(!fray_grid_within(b, to, 1), "out of the bandit's reach");
    /* The attack preset stands and shoots. */
    f->s.c[0].tactics.preset = FT_TAC_ATTACK;
    c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_ATTACK);
    free(f);
}

/* Stand from Prone first (seed 000: a prone combatant cannot move). */
Test(towers_policy, stands_from_prone) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 9, 5);
    turn_of(f, 0);
    f->st.c[0].n_cond = 1;
    f->st.c[0].cond[0].kind = FT_COND_PRONE;
    ft_command c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_STAND);
    free(f);
}

/* The idle preset always takes Forced Delay, even next to an enemy. */
Test(towers_policy, idle_delays) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 2, 1);
    f->s.c[0].tactics.preset = FT_TAC_IDLE;
    turn_of(f, 0);
    ft_command c = choose(f, 0);
    cr_expect_eq(c.action, FT_ACT_DELAY);
    free(f);
}

/* Whatever the situation, the command is legal (ft_check_command): walls,
 * crowds, the prone, the grappled, empty weapons, no weapon, no map. */
Test(towers_policy, never_illegal) {
    for (int k = 0; k < 64; k++) {
        fixture *f = fixture_new();
        int n = 2 + k % 4;
        for (int i = 0; i < n; i++) {
            char id[16];
            snprintf(id, sizeof id, "%c%d", 'a' + i, i % 10);
            add(f, id, i % 2, (i * 5 + k) % 12, (i * 3 + k / 3) % 8);
        }
        /* No two on one space. */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (f->s.c[i].start.x == f->s.c[j].start.x &&
                    f->s.c[i].start.y == f->s.c[j].start.y)
                    f->s.c[i].start.x = (int16_t)((f->s.c[i].start.x + 1 + j) % 12);
        /* Walls across the middle, with a gap. */
        if (k % 3 == 0)
            for (int y = 0; y < 7; y++)
                if (!(y == 3 && k % 2))
                    f->s.map.terrain[y][6] = FRAY_TERRAIN_WALL;
        for (int i = 0; i < n; i++) {
            int x = f->s.c[i].start.x, y = f->s.c[i].start.y;
            f->s.map.terrain[y][x] = FRAY_TERRAIN_OPEN;
        }
        if (k % 5 == 1)
            f->s.c[0].sb.wielded[0] = -1;
        if (k % 7 == 2) {
            ft_weapon *w = &f->s.c[0].sb.weapons[0];
            w->range_increment = 4;
            w->shots = 2;
        }
        if (k % 11 == 3)
            f->s.has_map = false;
        f->s.c[0].tactics.preset = (ft_tactics_preset)(k % FT_TACTICS_COUNT);
        f->s.c[0].tactics.target = (ft_target_pref)(k % 3);
        turn_of(f, 0);
        if (k % 4 == 1) {
            f->st.c[0].n_cond = 1;
            f->st.c[0].cond[0].kind = FT_COND_PRONE;
        }
        if (k % 6 == 5)
            f->st.c[0].stun = 2;
        if (k % 7 == 2)
            f->st.c[0].ammo[0] = 0;
        if (k % 9 == 4 && n > 2)
            f->st.c[1].flags |= FT_F_UNCONSCIOUS;
        choose(f, 0); /* asserts legality */
        free(f);
    }
}

/* ---- Hooks ------------------------------------------------------------------ */

/* A flip as the engine would hold it, from cards in plain notation. */
static fray_flip flip_of(const char *cards, int n) {
    fray_flip fl;
    memset(&fl, 0, sizeof fl);
    fray_card c[8];
    size_t k = 0;
    cr_assert_eq(fray_card_parse_list(cards, c, 8, &k, NULL), FRAY_OK);
    fray_deck_options o;
    fray_deck_options_default(&o);
    fl.n = n;
    fl.n_cards = (int)k;
    for (size_t i = 0; i < k; i++) {
        fl.cards[i] = c[i];
        int v = fray_card_value(&o, c[i]);
        if (i == 0 || v > fl.kept_value) {
            fl.kept_value = v;
            fl.kept = (int)i;
        }
        fl.hearts += fray_card_is_heart(c[i]);
    }
    return fl;
}

/* Puts cards into combatant c's Hand of Fate. */
static void hold_cards(fixture *f, int c, const char *cards) {
    fray_card h[8];
    size_t k = 0;
    cr_assert_eq(fray_card_parse_list(cards, h, 8, &k, NULL), FRAY_OK);
    fray_deck *d = &f->st.decks[f->s.c[c].deck];
    cr_assert_eq(fray_deck_stack(d, h, k), FRAY_OK);
    fray_card out[8];
    cr_assert_eq(fray_deck_hold(d, &f->st.rng, k, out), FRAY_OK);
}

static ft_choice ask(fixture *f, int who, ft_flip_purpose p, const fray_flip *fl,
                     int shift, int against) {
    ft_run r;
    memset(&r, 0, sizeof r);
    r.setup = &f->s;
    r.st = &f->st;
    ft_flip_view v;
    v.who = who;
    v.purpose = p;
    v.flip = fl;
    v.shift = shift;
    v.against = against;
    v.is_defense = p == FT_FLIP_DEFENSE;
    return ft_policy_hooks.fate(ft_policy_hooks.ctx, &r, &v);
}

/* rules-facts.md "Hand of Fate": a flipped card may be replaced by a held
 * one. The attacker short of the defense swaps in the smallest held card
 * that reaches it (RULINGS 6: attack >= defense hits), in place of its
 * lowest card. */
Test(towers_policy, hand_of_fate_swap_to_hit) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 2, 1);
    turn_of(f, 0);
    hold_cards(f, 0, "QS 10D AS");
    fray_flip fl = flip_of("4D 3C 7C", 3);
    ft_choice c = ask(f, 0, FT_FLIP_ATTACK, &fl, 1, 11);
    cr_expect_eq(c.kind, FT_CHOICE_FATE_SWAP);
    fray_card ten;
    cr_assert_eq(fray_card_parse("10D", &ten, NULL), FRAY_OK);
    cr_expect_eq((fray_card)c.b, ten, "10 + 1 reaches 11: the ten, not the Queen");
    cr_expect_eq(c.a, 1, "in place of the 3, the lowest card");
    /* Already hitting: nothing. */
    c = ask(f, 0, FT_FLIP_ATTACK, &fl, 4, 11);
    cr_expect_eq(c.kind, FT_CHOICE_NONE);
    /* The defender must pass the attack: 12 against 12 is not enough. */
    c = ask(f, 0, FT_FLIP_DEFENSE, &fl, 0, 12);
    cr_expect_eq(c.kind, FT_CHOICE_FATE_SWAP);
    fray_card ace;
    cr_assert_eq(fray_card_parse("AS", &ace, NULL), FRAY_OK);
    cr_expect_eq((fray_card)c.b, ace, "13 needed: the Ace");
    /* Unknown target (the attacker flips first): nothing. */
    c = ask(f, 0, FT_FLIP_ATTACK, &fl, 0, INT_MIN);
    cr_expect_eq(c.kind, FT_CHOICE_NONE);
    /* Tactics without Hand of Fate: nothing. */
    f->s.c[0].tactics.use_hand_of_fate = false;
    c = ask(f, 0, FT_FLIP_ATTACK, &fl, 1, 11);
    cr_expect_eq(c.kind, FT_CHOICE_NONE);
    free(f);
}

/* The last Hand of Fate card is kept for flips that decide damage; a white
 * chip's (shift+1) (rules-facts.md "Chips") covers a flip one short. */
Test(towers_policy, last_card_and_chips) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 2, 1);
    turn_of(f, 0);
    hold_cards(f, 0, "KS");
    fray_flip fl = flip_of("4D 3C", 2);
    ft_choice c = ask(f, 0, FT_FLIP_GRAPPLE, &fl, 0, 10);
    cr_expect_eq(c.kind, FT_CHOICE_NONE, "no damage rides on a grapple flip");
    c = ask(f, 0, FT_FLIP_ATTACK, &fl, 0, 10);
    cr_expect_eq(c.kind, FT_CHOICE_FATE_SWAP);
    /* A chip when one short and no card helps. */
    f->st.c[0].chips[0] = 1;
    f->s.c[0].tactics.use_hand_of_fate = false;
    c = ask(f, 0, FT_FLIP_ATTACK, &fl, 0, 5);
    cr_expect_eq(c.kind, FT_CHOICE_CHIP_SHIFT);
    cr_expect_eq(c.b, 0, "a white chip");
    c = ask(f, 0, FT_FLIP_ATTACK, &fl, 0, 6);
    cr_expect_eq(c.kind, FT_CHOICE_NONE, "two short: a chip does not help");
    free(f);
}

/* Seed 000 "Opportunity Attacks", "Flat-Footed": taken when the tactics
 * say so, never while flat-footed. */
Test(towers_policy, opportunity_attacks) {
    fixture *f = fixture_new();
    add(f, "tony", 0, 1, 1);
    add(f, "bandit", 1, 2, 1);
    turn_of(f, 0);
    ft_run r;
    memset(&r, 0, sizeof r);
    r.setup = &f->s;
    r.st = &f->st;
    cr_expect(ft_policy_hooks.opportunity(NULL, &r, 1, 0));
    f->st.c[1].flags &= (uint16_t)~FT_F_ACTED;
    cr_expect(!ft_policy_hooks.opportunity(NULL, &r, 1, 0));
    f->st.c[1].flags |= FT_F_ACTED;
    f->s.c[1].tactics.opportunity_attacks = false;
    cr_expect(!ft_policy_hooks.opportunity(NULL, &r, 1, 0));
    free(f);
}

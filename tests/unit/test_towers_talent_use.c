/*
 * test_towers_talent_use.c - issue 7: talents used with a command
 * (Use a Talent: `spend: hand-of-fate`, `spend: mark`, `uses:
 * once-per-encounter` on any effect a command arms), the rest of the
 * talent vocabulary (`when: outnumbering`, `when: target-marked`, `flip`
 * `on: damage`, `damage` with a `when`) and the Hand of Fate exchange at
 * the end of an encounter (rules-facts.md "Hand of Fate": "At the end of a
 * combat encounter, each may discard one Hand of Fate card and replace it
 * with the top card of their own deck." "Some talents spend a Hand of Fate
 * card as a cost."; seed 000 "Outnumbering", "Marked Targets",
 * "Grappling", "Combined Damage").
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "fray/fray.h"
#include "towers_fixture.h"

static ft_weapon longblade(void) {
    ft_weapon w = tf_weapon("longblade", 1, 4, true, 1);
    w.keywords = FT_KW(KNIGHT) | FT_KW(BLADE);
    return w;
}

/* PA 2, PD 1, SPD 6, [[E]] 2. */
static const tf_stats stats = {.pa = 2, .pd = 1, .spd = 6, .endurance = 2};

static int add(fixture *f, const char *name, int side, int x, int y) {
    return tf_add(f, name, side, x, y, &stats, longblade());
}

static fixture *fixture_new(void) {
    fixture *f = tf_new(10, 10);
    f->s.opt.hand_of_fate = 0; /* stacked decks: nothing dealt */
    f->s.opt.decks = FT_DECKS_PER_COMBATANT;
    return f;
}

/* Gives combatant c a talent of one effect; spend and once as given. */
static ft_talent_effect *give(fixture *f, int c, const char *name, int kind,
                              int value, int on, int when, int spend,
                              bool once) {
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
    t->e[0].spend = (uint8_t)spend;
    t->e[0].once = once;
    ft_talents_sum(sb);
    return &t->e[0];
}

/* Begins the fight (a acts first) and moves the clock to a's action. */
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

/* Puts `card` from the top of c's deck into its Hand of Fate. */
static void hold(fixture *f, int c, const char *card) {
    tf_stack(f, c, card);
    fray_card got;
    cr_assert_eq(fray_deck_hold(&f->st.decks[c], &f->st.rng, 1, &got), FRAY_OK);
    cr_assert_eq(got, tf_card(card));
}

static fray_status apply(fixture *f, const ft_command *c) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = *c;
    f->r.card_i = f->r.choice_i = f->r.round_i = 0;
    return ft_apply(&f->r);
}

static bool refused(fixture *f, const ft_command *c, const char *words) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = ft_check_command(&f->s, &f->st, c, &d);
    cr_expect_neq(rc, FRAY_OK, "refused: %s", words);
    cr_expect_not_null(strstr(d.message, words), "'%s' lacks '%s'", d.message,
                       words);
    return rc != FRAY_OK;
}

/* The event replays (as a journal replays it) to the same state. */
static void replays_same(fixture *f, const ft_state *before) {
    ft_state *after = malloc(sizeof *after);
    cr_assert_not_null(after);
    *after = f->st;
    f->st = *before;
    f->r.replay = true;
    f->ev.n_facts = 0;
    f->r.card_i = f->r.choice_i = f->r.round_i = 0;
    cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
    f->r.replay = false;
    cr_expect(memcmp(f->st.c, after->c, (size_t)f->st.n * sizeof f->st.c[0]) == 0 &&
                  f->st.fate_exchanged == after->fate_exchanged &&
                  memcmp(f->st.decks[0].place, after->decks[0].place,
                         sizeof after->decks[0].place) == 0,
              "replay: the same state");
    free(after);
}

static const ft_fact *find_fact(const fixture *f, int kind) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == kind)
            return &f->ev.facts[i];
    return NULL;
}

/* A stacked melee attack of a on d: a 3 cards 7C 5D 4S keeps 7; d one
 * card 9C: a miss unless (shift+2) counts. */
static bool stacked_attack(fixture *f, int a, int d) {
    tf_stack(f, a, "7C 5D 4S");
    tf_stack(f, d, "9C");
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.aid_ally = -1;
    bool hit = false;
    memset(&f->ev, 0, sizeof f->ev);
    cr_assert_eq(ft_attack(&f->r, a, d, &o, &hit), FRAY_OK, "%s", f->diag.message);
    return hit;
}

/* ---- Use a Talent --------------------------------------------------------- */

/* rules-facts.md "Hand of Fate": "Some talents spend a Hand of Fate card as
 * a cost." Lucky Strike ((shift+2) on attacks, spend: hand-of-fate) does
 * nothing until used: the stacked attack misses. `talent` without a card,
 * with a card not held, or with no held card at all is refused in rules
 * words; with the held 3D it is a free action: 3D goes to the discard
 * pile, the clock does not move, and the stacked attack hits, the shift
 * told by the talent's name. The event replays to the same state. */
Test(towers_talent_use, hand_of_fate_card_spent_as_a_cost) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    give(f, a, "Lucky Strike", FT_TE_SHIFT, 2, FT_APPLIES_ATTACK, FT_TW_ALWAYS,
         FT_SPEND_HAND_OF_FATE, false);
    begin_first(f, a, d);
    ft_command c = tf_cmd(FT_ACT_TALENT, a);
    c.talent = 1;
    refused(f, &c, "holds no Hand of Fate card");
    hold(f, a, "3D");
    refused(f, &c, "spends a Hand of Fate card: name it");
    c.card = (uint8_t)(tf_card("4D") + 1);
    refused(f, &c, "not in its Hand of Fate");
    c.card = (uint8_t)(tf_card("3D") + 1);
    ft_state *before = malloc(sizeof *before);
    cr_assert_not_null(before);
    *before = f->st;
    int phase = f->st.c[a].phase;
    cr_assert_eq(apply(f, &c), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(fray_deck_place(&f->st.decks[a], tf_card("3D")), FRAY_PLACE_DISCARD);
    cr_expect_eq(f->st.c[a].phase, phase, "a free action");
    const ft_fact *x = find_fact(f, FT_FACT_TALENT);
    cr_assert_not_null(x);
    cr_expect_eq(x->v[1], FT_SPEND_HAND_OF_FATE);
    cr_expect_eq(x->cards[0], tf_card("3D"));
    replays_same(f, before);
    free(before);
    /* Used twice while armed: refused. */
    hold(f, a, "6H");
    c.card = (uint8_t)(tf_card("6H") + 1);
    refused(f, &c, "in use already");
    cr_expect(stacked_attack(f, a, d));
    cr_expect_not_null(tf_find_modifier(f, "Lucky Strike"));
    free(f);

    /* Not used: the same attack misses; the talent is not among the
     * setup's sums. */
    f = fixture_new();
    a = add(f, "a", 0, 0, 0);
    d = add(f, "d", 1, 1, 0);
    give(f, a, "Lucky Strike", FT_TE_SHIFT, 2, FT_APPLIES_ATTACK, FT_TW_ALWAYS,
         FT_SPEND_HAND_OF_FATE, false);
    begin_first(f, a, d);
    cr_expect(!stacked_attack(f, a, d));
    cr_expect_null(tf_find_modifier(f, "Lucky Strike"));
    free(f);
}

/* `uses: once-per-encounter` on a cost (Battle Surge: attacks cost 2
 * phases less): used, the attack takes 3 phases; the talent then holds
 * until the start of a's next activation (FT_F_TALENT goes with Full
 * Defense's flags) and cannot be used again in the fight. A talent that
 * works by itself is refused, and so is another combatant's. */
Test(towers_talent_use, once_per_encounter_by_command) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    ft_talent_effect *e = give(f, a, "Battle Surge", FT_TE_COST, -2, 0,
                               FT_TW_ALWAYS, FT_SPEND_NONE, true);
    e->action = FT_ACT_ATTACK;
    give(f, a, "Heavy Hitter", FT_TE_DAMAGE, 2, 0, FT_TW_ALWAYS, FT_SPEND_NONE,
         false);
    begin_first(f, a, d);
    f->s.eng.no_talent_cost = false;
    ft_command c = tf_cmd(FT_ACT_TALENT, a);
    c.talent = 2;
    refused(f, &c, "works by itself");
    c.talent = 3;
    refused(f, &c, "not one of its talents");
    c.talent = 1;
    cr_assert_eq(apply(f, &c), FRAY_OK, "%s", f->diag.message);
    cr_expect(f->st.c[a].flags & FT_F_TALENT);
    int phase = f->st.c[a].phase;
    tf_stack(f, a, "7C 5D 4S");
    tf_stack(f, d, "9C");
    ft_command atk = tf_cmd(FT_ACT_ATTACK, a);
    atk.target = (int8_t)d;
    cr_assert_eq(apply(f, &atk), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(f->st.c[a].phase, phase + 3, "5 - 2 phases");
    /* Its next activation: the talent is over, and spent for the fight. */
    while (ft_next_actor(&f->st) != a ||
           f->st.c[a].phase > f->st.phase) {
        int nx = ft_next_actor(&f->st);
        ft_command step = f->st.c[nx].phase > f->st.phase
                              ? tf_cmd(FT_CMD_PHASE, -1)
                              : tf_cmd(FT_ACT_FULL_DEFENSE, nx);
        cr_assert_eq(apply(f, &step), FRAY_OK, "%s", f->diag.message);
    }
    ft_command fd = tf_cmd(FT_ACT_FULL_DEFENSE, a);
    cr_assert_eq(apply(f, &fd), FRAY_OK, "%s", f->diag.message);
    cr_expect(!(f->st.c[a].flags & FT_F_TALENT), "over at its next activation");
    while (ft_next_actor(&f->st) != a || f->st.c[a].phase > f->st.phase) {
        int nx = ft_next_actor(&f->st);
        ft_command step = f->st.c[nx].phase > f->st.phase
                              ? tf_cmd(FT_CMD_PHASE, -1)
                              : tf_cmd(FT_ACT_FULL_DEFENSE, nx);
        cr_assert_eq(apply(f, &step), FRAY_OK, "%s", f->diag.message);
    }
    refused(f, &c, "once per encounter");
    free(f);
}

/* Seed 000 "Marked Targets", `spend: mark` (with `when: target-marked`):
 * refused without a target and on one not marked; on the marked d the mark
 * is spent (d is no longer marked) and the shift counts on attacks on d
 * (the talent remembers whom the mark was spent on), not on e. */
Test(towers_talent_use, mark_spent_on_the_target) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    int e = add(f, "e", 1, 0, 1);
    give(f, a, "Quarry", FT_TE_SHIFT, 2, FT_APPLIES_ATTACK,
         FT_TW_TARGET_MARKED, FT_SPEND_MARK, false);
    begin_first(f, a, d);
    ft_command c = tf_cmd(FT_ACT_TALENT, a);
    c.talent = 1;
    refused(f, &c, "name the marked target");
    c.target = (int8_t)d;
    refused(f, &c, "no mark on that target");
    ft_mark_set(&f->s, &f->st, a, d, (fray_pos){0, 0});
    cr_assert(ft_marked(&f->st, a, d));
    ft_state *before = malloc(sizeof *before);
    cr_assert_not_null(before);
    *before = f->st;
    cr_assert_eq(apply(f, &c), FRAY_OK, "%s", f->diag.message);
    cr_expect(!ft_marked(&f->st, a, d), "the mark is spent");
    const ft_fact *x = find_fact(f, FT_FACT_TALENT);
    cr_assert_not_null(x);
    cr_expect_eq(x->target, d);
    replays_same(f, before);
    free(before);
    cr_expect(stacked_attack(f, a, d));
    cr_expect_not_null(tf_find_modifier(f, "Quarry"));
    cr_expect(!stacked_attack(f, a, e), "not against another");
    free(f);
}

/* `when: target-marked` on a talent that works by itself: (shift+1) on
 * attacks on its marked target only. */
Test(towers_talent_use, when_target_marked) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    give(f, a, "Marked Prey", FT_TE_SHIFT, 2, FT_APPLIES_ATTACK,
         FT_TW_TARGET_MARKED, FT_SPEND_NONE, false);
    begin_first(f, a, d);
    cr_expect(!stacked_attack(f, a, d));
    ft_mark_set(&f->s, &f->st, a, d, (fray_pos){0, 0});
    cr_expect(stacked_attack(f, a, d));
    cr_expect_not_null(tf_find_modifier(f, "Marked Prey"));
    free(f);
}

/* Seed 000 "Outnumbering": "If you have more friendly characters involved
 * than enemy characters": `when: outnumbering` holds with a friend b also
 * on d (2-to-1) and not with a alone (1-to-1). */
Test(towers_talent_use, when_outnumbering) {
    for (int friend_in = 0; friend_in < 2; friend_in++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
        add(f, "b", 0, friend_in ? 2 : 9, friend_in ? 0 : 9);
        give(f, a, "Pack Tactics", FT_TE_SHIFT, 1, FT_APPLIES_MELEE_ATTACK,
             FT_TW_OUTNUMBERING, FT_SPEND_NONE, false);
        begin_first(f, a, d);
        ft_attack_opts o;
        memset(&o, 0, sizeof o);
        o.aid_ally = -1;
        ft_mods m;
        memset(&f->ev, 0, sizeof f->ev);
        tf_run(f, &f->diag);
        cr_expect_eq(ft_outnumbering(&f->r, a, d), friend_in == 1);
        ft_attack_mods(&f->r, a, d, &o, &m);
        ft_mods plain;
        f->s.c[a].sb.talents[0].e[0].value = 0;
        ft_attack_mods(&f->r, a, d, &o, &plain);
        cr_expect_eq(m.shift - plain.shift, friend_in ? 1 : 0, "friend %d",
                     friend_in);
        free(f);
    }
}

/* `damage:` with a `when` (Brutal Finish: +3 STUN on a Prone foe): not in
 * the every-hit sum; +3 on a hit on a Prone target, 0 otherwise; seed 000
 * "LETHAL Damage": it adds STUN only (ft_harm_hit adds it to the weapon's
 * STUN). */
Test(towers_talent_use, damage_with_a_when) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    give(f, a, "Brutal Finish", FT_TE_DAMAGE, 3, 0, FT_TW_TARGET_PRONE,
         FT_SPEND_NONE, false);
    begin_first(f, a, d);
    cr_expect_eq(f->s.c[a].sb.tsum.damage, 0);
    cr_expect(f->s.c[a].sb.tsum.once_damage, "read at the hit");
    const ft_weapon *w = &f->s.c[a].sb.weapons[0];
    cr_expect_eq(ft_talent_hit_damage(&f->r, a, d, w), 0);
    ft_cond_add(&f->r, d, FT_COND_PRONE, 1, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(ft_talent_hit_damage(&f->r, a, d, w), 3);
    cr_expect_eq(ft_talent_hit_damage(&f->r, a, d, w), 3, "every such hit");
    free(f);
}

/* `flip: N` `on: damage`: N more cards on its damage flips (seed 000
 * "Grappling" Squeeze: "a damage flip"; "Combined Damage": each Heart
 * adds STUN and LETHAL). Always: in the sum; with a `when`, read then. */
Test(towers_talent_use, flip_on_damage_flips) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    give(f, a, "Crushing Grip", FT_TE_FLIP, 1, FT_APPLIES_DAMAGE, FT_TW_ALWAYS,
         FT_SPEND_NONE, false);
    give(f, a, "Pin", FT_TE_FLIP, 2, FT_APPLIES_DAMAGE, FT_TW_TARGET_PRONE,
         FT_SPEND_NONE, false);
    begin_first(f, a, d);
    cr_expect_eq(f->s.c[a].sb.tsum.damage_flips, 1);
    cr_expect_eq(ft_talent_damage_flips(&f->r, a, d), 1);
    ft_cond_add(&f->r, d, FT_COND_PRONE, 1, FT_UNTIL_REMOVED, -1, 0, -1);
    cr_expect_eq(ft_talent_damage_flips(&f->r, a, d), 3);
    /* No attack or defense flip gets them. */
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.aid_ally = -1;
    ft_mods m;
    ft_attack_mods(&f->r, a, d, &o, &m);
    cr_expect_null(tf_find_modifier(f, "Crushing Grip"));
    free(f);
}

/* ---- The Hand of Fate exchange ----------------------------------------------- */

/* rules-facts.md "Hand of Fate": "At the end of a combat encounter, each
 * may discard one Hand of Fate card and replace it with the top card of
 * their own deck." Refused while the fight goes on; after it, a's held 2C
 * goes to the discard pile and the top card KH is held; the deck's second
 * exchange is refused; a card not held is refused. The event replays. With
 * the card given by hand (QS), QS is held. */
Test(towers_talent_use, exchange_at_the_end) {
    for (int by_hand = 0; by_hand < 2; by_hand++) {
        fixture *f = fixture_new();
        int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
        begin_first(f, a, d);
        hold(f, a, "2C");
        ft_command c = tf_cmd(FT_ACT_EXCHANGE, a);
        c.card = (uint8_t)(tf_card("2C") + 1);
        refused(f, &c, "the fight is not over");
        f->st.over = true;
        ft_command bad = c;
        bad.card = (uint8_t)(tf_card("3C") + 1);
        refused(f, &bad, "not in its deck's Hand of Fate");
        tf_stack(f, a, "KH");
        ft_state *before = malloc(sizeof *before);
        cr_assert_not_null(before);
        *before = f->st;
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = c;
        f->r.card_i = f->r.choice_i = f->r.round_i = 0;
        if (by_hand) {
            f->ev.cards_given = true;
            f->ev.n_cards = 1;
            f->ev.cards[0] = tf_card("QS");
            f->r.cards_given = true;
        }
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
        f->r.cards_given = false;
        fray_card want = tf_card(by_hand ? "QS" : "KH");
        cr_expect_eq(fray_deck_place(&f->st.decks[a], want), FRAY_PLACE_HELD);
        cr_expect_eq(fray_deck_place(&f->st.decks[a], tf_card("2C")),
                     FRAY_PLACE_DISCARD);
        const ft_fact *x = find_fact(f, FT_FACT_EXCHANGE);
        cr_assert_not_null(x);
        cr_expect(x->cards[0] == tf_card("2C") && x->cards[1] == want);
        cr_expect_eq(x->n_cards, 3, "the hand as it now is: one card");
        replays_same(f, before);
        free(before);
        hold(f, a, "4C");
        c.card = (uint8_t)(tf_card("4C") + 1);
        refused(f, &c, "made its exchange already");
        free(f);
    }
}

/* The tactics' exchange (option fate-exchange-below): the lowest held card
 * when it is worth less than the threshold; none when every held card
 * reaches it, or with the option 0. */
Test(towers_talent_use, tactics_exchange_the_lowest_below_the_threshold) {
    fixture *f = fixture_new();
    int a = add(f, "a", 0, 0, 0), d = add(f, "d", 1, 1, 0);
    begin_first(f, a, d);
    hold(f, a, "9H");
    hold(f, a, "5C");
    hold(f, d, "10S");
    f->st.over = true;
    ft_command c;
    cr_assert(ft_exchange_choose(&f->s, &f->st, 8, &c));
    cr_expect_eq(c.actor, a);
    cr_expect_eq(c.card, tf_card("5C") + 1);
    cr_expect(!ft_exchange_choose(&f->s, &f->st, 5, &c), "5C is not below 5");
    cr_expect(!ft_exchange_choose(&f->s, &f->st, 0, &c), "option 0: none");
    cr_expect_eq(ft_talent_lowest_held(&f->s, &f->st, a), tf_card("5C") + 1);
    f->st.fate_exchanged = 1u << f->s.c[a].deck;
    cr_expect(!ft_exchange_choose(&f->s, &f->st, 8, &c), "d holds 10S only");
    cr_expect(ft_exchange_choose(&f->s, &f->st, 11, &c));
    cr_expect_eq(c.actor, d);
    free(f);
}

/* ---- At the table, the journal, a whole fight --------------------------------- */

static fray_status cmd(fray_towers_fight *f, const char *text, fray_diag *d) {
    memset(d, 0, sizeof *d);
    return fray_towers_fight_command(f, text, NULL, 0, d);
}

/* Table words: "knight talent lucky-strike spending CARD" (the held card
 * chosen by the player), refusals in rules words; the journal replays it
 * (the card spent is in the command); undo gives the card back. */
Test(towers_talent_use, table_words_journal_and_undo) {
    fray_towers_setup *s = tf_load_data("talent_use.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    fray_diag d;
    cr_assert_eq(cmd(f, "next", &d), FRAY_OK, "%s", d.message);
    fray_card held[8];
    size_t n = fray_towers_fight_hand(f, "knight", held, 8);
    cr_assert_gt(n, 0);
    cr_expect_neq(cmd(f, "knight talent lucky-strike", &d), FRAY_OK);
    cr_expect_not_null(strstr(d.message, "spends a Hand of Fate card"), "%s", d.message);
    cr_expect_neq(cmd(f, "knight talent lucky-strike spending XX", &d), FRAY_OK);
    cr_expect_not_null(strstr(d.message, "expected the Hand of Fate card"), "%s",
                       d.message);
    cr_expect_neq(cmd(f, "knight talent flying", &d), FRAY_OK);
    cr_expect_not_null(strstr(d.message, "expected one of Knight's talents"), "%s",
                       d.message);
    cr_expect_neq(cmd(f, "knight exchange 2C", &d), FRAY_OK);
    cr_expect_not_null(strstr(d.message, "the fight is not over"), "%s", d.message);
    char line[96], c0[16];
    snprintf(line, sizeof line, "knight talent \"Lucky Strike\" spending %s",
             fray_card_format(held[0], FRAY_CARD_PLAIN, c0));
    cr_assert_eq(cmd(f, line, &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(fray_towers_fight_hand(f, "knight", held + 4, 4), n - 1);
    tf_replays_same(s, f);
    char *j = tf_journal(f);
    cr_expect_not_null(strstr(j, "\"talent\":0"), "the journal names the talent");
    char spent[32];
    snprintf(spent, sizeof spent, "\"card\":\"%s\"", c0);
    cr_expect_not_null(strstr(j, spent), "the journal keeps the card spent");
    free(j);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect_eq(fray_towers_fight_hand(f, "knight", held + 4, 4), n,
                 "undo gives the card back");
    cr_assert_eq(fray_towers_fight_redo(f), FRAY_OK);
    cr_expect_eq(fray_towers_fight_hand(f, "knight", held + 4, 4), n - 1);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* A whole fight run by the tactics with fate-exchange-below 8: after the
 * end, each deck whose lowest held card is below 8 exchanges it, once;
 * then every deck either exchanged or holds nothing below 8; the journal
 * replays to the same fight (the exchanges included). */
Test(towers_talent_use, fight_ends_with_the_tactics_exchanges) {
    fray_towers_setup *s = tf_load_data("talent_use.yaml");
    for (uint64_t seed = 1; seed <= 4; seed++) {
        fray_towers_fight *f = tf_fight(s, seed);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        cr_expect(fray_towers_fight_over(f));
        tf_replays_same(s, f);
        char *j = tf_journal(f);
        const char *end = strstr(j, "\"end\"");
        cr_assert_not_null(end);
        int exchanges = 0;
        for (const char *p = strstr(j, "\"exchange\""); p; p = strstr(p + 1, "\"exchange\""))
            exchanges += p > end;
        static const char *const ids[] = {"knight", "hunter", "bandit"};
        int low = 0;
        for (int i = 0; i < 3; i++) {
            fray_card h[8];
            size_t k = fray_towers_fight_hand(f, ids[i], h, 8);
            for (size_t q = 0; q < k; q++)
                low += fray_card_rank(h[q]) < 8;
        }
        cr_expect(exchanges > 0 || low == 0, "seed %llu", (unsigned long long)seed);
        free(j);
        fray_towers_fight_free(f);
    }
    fray_towers_setup_free(s);
}

/* Loader refusals at file:line:column, in rules words. */
Test(towers_talent_use, loader_refusals) {
    static const struct {
        const char *file;
        int line, column;
        const char *fragment;
    } t[] = {
        {"bad_talent_damage_shift.yaml", 8, 13, "a damage flip counts its Hearts"},
        {"bad_talent_spend_when.yaml", 10, 15,
         "'spend: mark' goes with 'when: target-marked'"},
        {"bad_talent_use_skill.yaml", 8, 9, "is used with a command"},
        {"bad_talent_spend_word.yaml", 8, 16, "expected one of hand-of-fate, mark"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/data/towers/%s", FRAY_SOURCE_DIR,
                 t[i].file);
        fray_towers_setup *s = NULL;
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_expect_neq(fray_towers_load(path, NULL, &s, &d), FRAY_OK, "%s", t[i].file);
        cr_expect_eq(d.line, t[i].line, "%s: %d:%d %s", t[i].file, d.line, d.column,
                     d.message);
        cr_expect_eq(d.column, t[i].column, "%s: %d:%d %s", t[i].file, d.line,
                     d.column, d.message);
        cr_expect_not_null(strstr(d.message, t[i].fragment), "%s: %s", t[i].file,
                           d.message);
        fray_towers_setup_free(s);
    }
}

/* Seed 000 "Grappling", Squeeze: "a damage flip with base Damage equal to
 * your Hard Strength ..." with the option squeeze-flips 0 (no card): HS 4
 * makes 4 STUN and no LETHAL. A talent's (flip+1) `on: damage` turns one
 * card over from the grappler's deck: 7H, one Heart, one more STUN and one
 * LETHAL (seed 000 "Combined Damage"). */
Test(towers_talent_use, crushing_grip_adds_a_card_to_the_squeeze) {
    static const tf_stats gs = {.pa = 3, .pd = 2, .px = 1, .spd = 5,
                                .endurance = 3};
    for (int with = 0; with < 2; with++) {
        fixture *f = tf_new(12, 12);
        f->s.opt.hand_of_fate = 0;
        f->s.opt.squeeze_flips = 0;
        int g = tf_add(f, "brom", 0, 1, 1, &gs, tf_weapon("Longblade", 1, 4, true, 1));
        int v = tf_add(f, "imp", 1, 2, 1, &gs, tf_weapon("Longblade", 1, 4, true, 1));
        f->s.c[g].sb.cv[FT_CV_N] = 1;
        f->s.c[v].sb.cv[FT_CV_N] = 1;
        f->s.c[g].sb.aspects[FT_ASPECT_HS] = 4;
        f->s.c[v].sb.aspects[FT_ASPECT_HS] = 1;
        if (with)
            give(f, g, "Crushing Grip", FT_TE_FLIP, 1, FT_APPLIES_DAMAGE,
                 FT_TW_ALWAYS, FT_SPEND_NONE, false);
        ft_state_reset(&f->s, &f->st, 1);
        tf_stack(f, g, "KS 4D");
        tf_stack(f, v, "2C");
        ft_command c = tf_cmd(FT_CMD_BEGIN, -1);
        tf_run(f, &f->diag);
        cr_assert_eq(apply(f, &c), FRAY_OK, "%s", f->diag.message);
        c = tf_cmd(FT_CMD_PHASE, -1);
        cr_assert_eq(apply(f, &c), FRAY_OK, "%s", f->diag.message);
        cr_assert_eq(ft_next_actor(&f->st), g);
        f->st.c[v].grappled_by = (int8_t)g;
        ft_cond_add(&f->r, v, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED, -1, 0, g);
        tf_stack(f, g, "7H");
        int stun = f->st.c[v].stun, lethal = f->st.c[v].lethal;
        c = tf_cmd(FT_ACT_ATTACK, g);
        c.target = (int8_t)v;
        c.grapple_move = FT_GM_SQUEEZE;
        cr_assert_eq(apply(f, &c), FRAY_OK, "%s", f->diag.message);
        cr_expect_eq(stun - f->st.c[v].stun, with ? 5 : 4, "with %d", with);
        cr_expect_eq(lethal - f->st.c[v].lethal, with ? 1 : 0, "with %d", with);
        free(f);
    }
}

/* The tactics use talents used by a command (policy.c use_talent_first),
 * so that they count in `fray fight` and `fray sim`: before an attack, a
 * free Use a Talent; a once-per-encounter talent (Battle Surge, Uncanny
 * Timing) at most once a fight; a Hand of Fate card spent only when it is
 * worth less than 8 (Lucky Strike); the fight replays from its journal. */
Test(towers_talent_use, the_tactics_use_talents) {
    fray_towers_setup *s = tf_load_data("talent_use.yaml");
    int used = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        fray_towers_fight *f = tf_fight(s, seed);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        tf_replays_same(s, f);
        int surge = 0, timing = 0;
        int n = fray_towers_fight_events(f);
        ft_event *buf = malloc(sizeof *buf);
        cr_assert_not_null(buf);
        for (int i = 0; i < n; i++) {
            const ft_event *ev = ft_fight_event(f, i, buf);
            for (int k = 0; ev && k < ev->n_facts; k++) {
                const ft_fact *x = &ev->facts[k];
                if (x->kind != FT_FACT_TALENT)
                    continue;
                used++;
                const char *name = s->s.c[x->who].sb.talents[x->v[0]].name;
                surge += strcmp(name, "Battle Surge") == 0;
                timing += strcmp(name, "Uncanny Timing") == 0;
                if (x->v[1] == FT_SPEND_HAND_OF_FATE) {
                    cr_assert_gt(x->n_cards, 0);
                    cr_expect_lt(fray_card_value(&s->s.opt.deck, x->cards[0]), 8,
                                 "seed %llu: a card worth 8 or more spent",
                                 (unsigned long long)seed);
                }
            }
        }
        free(buf);
        cr_expect_leq(surge, 1, "seed %llu", (unsigned long long)seed);
        cr_expect_leq(timing, 1, "seed %llu", (unsigned long long)seed);
        fray_towers_fight_free(f);
    }
    cr_expect_gt(used, 0, "the tactics never used a talent");
    fray_towers_setup_free(s);
}

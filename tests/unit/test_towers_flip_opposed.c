/*
 * test_towers_flip_opposed.c - an opposed flip made in one call
 * (ft_flip_opposed, fate.c; issue 4 "Speed") is the opposed flip of seed
 * 000 "Attacking and Defending" made in three steps: the attacker's flip
 * (ft_flip, the defense unknown), the defender's flip against it (ft_flip),
 * then Hand of Fate and chips answered back and forth (ft_flip_answers;
 * rules-facts.md "Hand of Fate": "if one side uses it, the other may
 * respond after seeing the result").
 *
 * Two copies of the same state make the same random opposed flips, one
 * copy each way, with the tactics policy's hooks, quietly (the path a
 * simulation takes) and with facts; after every flip the flips, the
 * shifts, the rounds, the event's cards, choices and facts and the whole
 * state (decks, Hands of Fate, chips, the random stream) must be equal.
 * Many flips in a row: the decks reshuffle, the policy plays its Hand of
 * Fate and chips, flips of 0 or fewer keep the lowest card.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cards_int.h"
#include "towers_fixture.h"
#include "towers_int.h"

/* One copy: a state, the event being applied and a run over them. */
typedef struct copy {
    ft_state st;
    ft_event ev;
    ft_run r;
    fray_diag diag;
} copy;

static copy *copy_new(const ft_setup *s, uint64_t trial, bool facts) {
    copy *x = calloc(1, sizeof *x);
    cr_assert_not_null(x);
    ft_state_reset_trial(s, &x->st, 99, trial);
    x->r.setup = s;
    x->r.st = &x->st;
    x->r.ev = &x->ev;
    x->r.hooks = &ft_policy_hooks;
    x->r.facts = facts;
    x->r.diag = &x->diag;
    x->r.next_after = FT_NEXT_UNKNOWN;
    cr_assert_eq(ft_fate_deal(&x->r), FRAY_OK);
    return x;
}

/* A new event: empty, as the engine starts each one. */
static void next_event(copy *x) {
    memset(&x->ev, 0, sizeof x->ev);
    x->r.card_i = 0;
    x->r.choice_i = 0;
}

static void expect_same_flip(const fray_flip *a, const fray_flip *b,
                             const char *what, int step) {
    cr_expect_eq(a->n, b->n, "step %d, %s: n", step, what);
    cr_expect_eq(a->n_cards, b->n_cards, "step %d, %s: cards", step, what);
    cr_expect_eq(a->keep_lowest, b->keep_lowest);
    cr_expect_eq(a->kept, b->kept, "step %d, %s: kept card", step, what);
    cr_expect_eq(a->kept_value, b->kept_value, "step %d, %s: value", step,
                 what);
    cr_expect_eq(a->hearts, b->hearts, "step %d, %s: Hearts", step, what);
    if (a->n_cards == b->n_cards && a->n_cards > 0)
        cr_expect(memcmp(a->cards, b->cards, (size_t)a->n_cards) == 0,
                  "step %d, %s: the cards", step, what);
}

/* A small generator for the flips' numbers (the test's own). */
static unsigned next_number(uint64_t *g) {
    *g = *g * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*g >> 33);
}

static void compare(const char *example, bool facts, int trials,
                    int steps) {
    fray_towers_setup *ts = tf_load_example(example);
    const ft_setup *s = &ts->s;
    cr_assert_geq(s->n_combatants, 2);
    uint64_t g = 2024;
    int choices = 0, lowest = 0;
    for (int trial = 0; trial < trials; trial++) {
        copy *one = copy_new(s, (uint64_t)trial, facts);
        copy *three = copy_new(s, (uint64_t)trial, facts);
        for (int step = 0; step < steps; step++) {
            next_event(one);
            next_event(three);
            int a = (int)(next_number(&g) % (unsigned)s->n_combatants);
            int t = (int)(next_number(&g) % (unsigned)(s->n_combatants - 1));
            if (t >= a)
                t++;
            ft_opposed o;
            memset(&o, 0, sizeof o);
            o.a = a;
            o.t = t;
            o.an = (int)(next_number(&g) % 9u) - 2;
            o.dn = (int)(next_number(&g) % 9u) - 2;
            o.ap = FT_FLIP_ATTACK;
            o.dp = FT_FLIP_DEFENSE;
            o.ash = (int)(next_number(&g) % 4u) - 1;
            o.dsh = (int)(next_number(&g) % 4u) - 1;
            lowest += o.an <= 0 || o.dn <= 0;

            /* In one call. */
            ft_opposed o1 = o;
            fray_status rc1 = ft_flip_opposed(&one->r, &o1);

            /* In three steps, as attack.c made it before. */
            fray_flip af, df;
            int ash = o.ash, dsh = o.dsh;
            fray_status rc3 = ft_flip(&three->r, a, o.an, o.ap, o.ash,
                                      INT_MIN, &af, &ash);
            if (rc3 == FRAY_OK)
                rc3 = ft_flip(&three->r, t, o.dn, o.dp, o.dsh,
                              af.kept_value + ash, &df, &dsh);
            if (rc3 == FRAY_OK)
                rc3 = ft_flip_answers(&three->r, a, o.ap, &af, &ash, t, o.dp,
                                      &df, &dsh);

            cr_assert_eq(rc1, rc3, "%s trial %d step %d: result", example,
                         trial, step);
            cr_assert_eq(rc1, FRAY_OK, "%s", one->diag.message);
            expect_same_flip(&o1.af, &af, "attack flip", step);
            expect_same_flip(&o1.df, &df, "defense flip", step);
            cr_expect_eq(o1.ash, ash, "step %d: attack shift", step);
            cr_expect_eq(o1.dsh, dsh, "step %d: defense shift", step);
            cr_expect_eq(one->r.round_i, three->r.round_i,
                         "step %d: rounds", step);
            cr_expect_eq(one->r.card_i, three->r.card_i);
            cr_expect_eq(one->ev.n_cards, three->ev.n_cards,
                         "step %d: cards turned over", step);
            cr_assert_eq(one->ev.n_choices, three->ev.n_choices,
                         "step %d: choices", step);
            cr_expect(memcmp(one->ev.choices, three->ev.choices,
                             (size_t)one->ev.n_choices *
                                 sizeof one->ev.choices[0]) == 0,
                      "step %d: the choices", step);
            choices += one->ev.n_choices;
            if (facts) {
                cr_assert_eq(one->ev.n_facts, three->ev.n_facts);
                cr_expect(memcmp(one->ev.facts, three->ev.facts,
                                 (size_t)one->ev.n_facts *
                                     sizeof one->ev.facts[0]) == 0,
                          "step %d: the facts", step);
                cr_expect(memcmp(one->ev.cards, three->ev.cards,
                                 (size_t)one->ev.n_cards) == 0);
            }
            /* Decks, Hands of Fate, chips and the random stream. */
            cr_assert(memcmp(&one->st, &three->st, sizeof one->st) == 0,
                      "%s trial %d step %d: the states differ", example,
                      trial, step);
        }
        free(one);
        free(three);
    }
    /* The flips took every way there is to take. */
    cr_expect_gt(choices, 0, "no Hand of Fate or chip was played");
    cr_expect_gt(lowest, 0);
    fray_towers_setup_free(ts);
}

Test(towers_flip_opposed, duel_quiet) { compare("duel.yaml", false, 40, 60); }

Test(towers_flip_opposed, duel_with_facts) {
    compare("duel.yaml", true, 20, 60);
}

Test(towers_flip_opposed, skirmish_quiet) {
    compare("skirmish.yaml", false, 20, 60);
}

Test(towers_flip_opposed, ambush_quiet) {
    compare("ambush.yaml", false, 20, 60);
}

/*
 * test_chances_grapple.c - issue 19, the chances of "a grapple test, a
 * skill flip" in 99 Towers: the Grapple Test (seed 000 "Grappling":
 * <PA> plus size against <PD> plus size, ties to the one making it) as
 * `fray odds attack` counts it, Escape its other side, Squeeze's damage
 * flip, Reverse the Grapple (Hard Strength against Hard Strength, the
 * reverser at (flip-1)); Use a Skill against its DTN (`fray odds flip N
 * --aspect A --dtn T`) and an opposed skill flip (`fray odds opposed`);
 * each played many times from the fight's state by the engine (attack.c,
 * grapple.c, engine.c) against the chances.
 */
#include <stdlib.h>

#include "chances_fixture.h"
#include "layer.h"
#include "towers_int.h"

#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"

/* The brawl with fresh decks; Brom (PA 3, HS 4) next to Thug 1 (PD 2,
 * HS 2). */
static fray_fight *brawl(fray_setup **s) {
    *s = cf_load(DATA "chances_brawl.yaml");
    fray_fight *f = cf_start(*s, 20261126);
    cf_command(f, "gm place brom 8,4");
    return f;
}

static fray__u128 u(fray_u128 v) { return ((fray__u128)v.hi << 64) | v.lo; }

/* num/den in lowest terms. */
static fray_ratio ratio_of(uint64_t num, uint64_t den) {
    fray_ratio r;
    memset(&r, 0, sizeof r);
    r.num.lo = num;
    r.den.lo = den;
    return r;
}

static fray_ratio hit_of(const fray_attack_odds *ao) {
    return fray_attack_odds_hit(ao);
}

/* A scratch run on a copy of the fight's state with trial i's stream. */
static void trial(const fray_towers_fight *rf, ft_state *st, ft_event *ev,
                  ft_run *r, fray_diag *d, int i) {
    memcpy(st, &rf->st, sizeof *st);
    fray_rng_for_trial(&st->rng, 1919, (uint64_t)i);
    memset(ev, 0, sizeof *ev);
    ft_run_clear(r);
    r->setup = &rf->setup->s;
    r->st = st;
    r->ev = ev;
    r->diag = d;
}

enum { N = 20000 };

/* The p_success `odds ID` lists `command` with (once, after every
 * option that deals damage); -1 when it is not listed. */
static double listed(const fray_fight *f, int who, const char *command) {
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, who, NULL, &l, &d), FRAY_OK, "%s", d.message);
    double p = -1;
    int found = 0;
    for (int i = 0; i < l.n; i++)
        if (strcmp(l.items[i].command, command) == 0) {
            found++;
            p = l.items[i].p_success;
            for (int k = i + 1; k < l.n; k++)
                cr_expect(l.items[k].p_drop < 0, "%s after %s",
                          l.items[k].command, command);
        }
    cr_expect(found <= 1, "%s listed %d times", command, found);
    fray_chances_list_free(&l);
    return p;
}

/* Initiate a Grapple: "holds" is `fray odds attack 3 2` (Brom's PA 3
 * against the thug's PD 2, no size); attack.c's Grapple Test played N
 * times from the state wins as often. Escape, for the one held, is its
 * other side. */
Test(chances_grapple, grapple_test_equals_fray_odds_attack_and_the_engine) {
    fray_setup *s;
    fray_fight *f = brawl(&s);
    int b = cf_who(f, "brom"), t = cf_who(f, "thug-1");
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, b, "grapple thug-1", &c, &d), FRAY_OK,
                 "%s", d.message);
    fray_attack_query q;
    fray_attack_query_init(&q, 3, 2);
    fray_attack_odds ao;
    cr_assert_eq(fray_odds_attack(&q, &ao), FRAY_OK);
    const fray_chance_outcome *holds = cf_outcome(c.outcomes, c.n_outcomes, "holds");
    cr_expect(fray_ratio_equal(holds->p, hit_of(&ao)));
    cr_expect_eq(u(holds->p.num), (fray__u128)186053);
    cr_expect_eq(u(holds->p.den), (fray__u128)281775);
    cr_expect(c.p_drop < 0);
    cr_expect(c.p_success == holds->share);
    /* odds brom (issue 19): the Grapple Test listed after the
     * attacks, with the command's own chance. */
    cr_expect_eq(listed(f, b, "grapple thug-1"), holds->share);

    const fray_towers_fight *rf = fray__fight_rf(f);
    ft_state *st = malloc(sizeof *st);
    ft_event *ev = malloc(sizeof *ev);
    cr_assert(st && ev);
    int wins = 0;
    for (int i = 0; i < N; i++) {
        ft_run r;
        trial(rf, st, ev, &r, &d, i);
        bool won = false;
        cr_assert_eq(ft_grapple_test(&r, b, t, 0, &won), FRAY_OK);
        wins += won;
    }
    double share = (double)wins / N;
    cr_expect(fabs(share - holds->share) <= cf_tolerance(holds->share, N),
              "%d of %d Grapple Tests won (%.4f), the chances say %.4f", wins,
              N, share, holds->share);

    /* Held: Thug 1's Escape is the Grapple Test's other side. */
    fray_towers_fight *wf = fray__fight_rf(f);
    wf->st.c[t].grappled_by = (int8_t)b;
    cr_assert_eq(fray_action_chances(f, t, "escape", &c, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect(fray_ratio_equal(cf_outcome(c.outcomes, c.n_outcomes, "escapes")->p,
                               fray_ratio_one_minus(hit_of(&ao))));
    /* odds thug-1: the Escape listed (held), with the same chance. */
    cr_expect_eq(listed(f, t, "escape"), c.p_success);
    cr_expect(c.p_success > 0 &&
              fabs(c.p_success - fray_ratio_to_double(fray_ratio_one_minus(hit_of(&ao)))) < 1e-12);
    free(ev);
    free(st);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Squeeze: a flip of squeeze-flips cards (1) whose Hearts add to Hard
 * Strength 4, Physical, less the thug's <ER> 0: 4 STUN (no Heart, 3/4)
 * or 5 STUN and 1 LETHAL (a Heart, 1/4); grapple.c's Squeeze played N
 * times deals each as often. Reverse the Grapple: the thug's HS 2 at
 * (flip-1) against Brom's HS 4, ties to the thug: `fray odds attack 1 4`.
 * Throw (grapple.c): at an occupied space an opposed PA against PD. */
Test(chances_grapple, squeeze_reverse_and_throw) {
    fray_setup *s;
    fray_fight *f = brawl(&s);
    int b = cf_who(f, "brom"), t = cf_who(f, "thug-1");
    fray_towers_fight *wf = fray__fight_rf(f);
    wf->st.c[t].grappled_by = (int8_t)b;
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, b, "attack thug-1 squeeze", c, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(c->n_damage, 2);
    cr_expect_eq(c->damage[0].amount[0], 4);
    cr_expect_eq(c->damage[0].amount[1], 0);
    cr_expect(fray_ratio_equal(c->damage[0].p, ratio_of(3, 4)));
    cr_expect_eq(c->damage[1].amount[0], 5);
    cr_expect_eq(c->damage[1].amount[1], 1);

    /* Ranked among Brom's attacks (odds brom). */
    fray_chances_list l;
    cr_assert_eq(fray_chances_all(f, b, NULL, &l, &d), FRAY_OK, "%s", d.message);
    int moves = 0;
    for (int i = 0; i < l.n; i++)
        moves += strcmp(l.items[i].command, "attack thug-1 squeeze") == 0 ||
                 strcmp(l.items[i].command, "attack thug-1 slam") == 0;
    cr_expect_eq(moves, 2);
    fray_chances_list_free(&l);

    const fray_towers_fight *rf = wf;
    ft_command cmd;
    int words = 0;
    cr_assert_eq(ft_table_parse(&rf->setup->s, "brom attack thug-1 squeeze",
                                &cmd, &words, &d),
                 FRAY_OK, "%s", d.message);
    ft_state *st = malloc(sizeof *st);
    ft_event *ev = malloc(sizeof *ev);
    cr_assert(st && ev);
    int counts[2] = {0, 0};
    for (int i = 0; i < N; i++) {
        ft_run r;
        trial(rf, st, ev, &r, &d, i);
        cr_assert_eq(ft_grapple_apply(&r, &cmd), FRAY_OK);
        int stun = rf->st.c[t].stun - st->c[t].stun;
        int lethal = rf->st.c[t].lethal - st->c[t].lethal;
        int k = stun == 4 && lethal == 0 ? 0 : stun == 5 && lethal == 1 ? 1 : -1;
        cr_assert(k >= 0, "a Squeeze dealt %d STUN %d LETHAL", stun, lethal);
        counts[k]++;
    }
    for (int k = 0; k < 2; k++) {
        double p = c->damage[k].share, share = (double)counts[k] / N;
        cr_expect(fabs(share - p) <= cf_tolerance(p, N),
                  "row %d: %.4f of %d Squeezes, the chances say %.4f", k,
                  share, N, p);
    }

    cr_assert_eq(fray_action_chances(f, t, "attack brom reverse", c, &d),
                 FRAY_OK, "%s", d.message);
    fray_attack_query q;
    fray_attack_query_init(&q, 1, 4);
    fray_attack_odds ao;
    cr_assert_eq(fray_odds_attack(&q, &ao), FRAY_OK);
    cr_expect(fray_ratio_equal(cf_outcome(c->outcomes, c->n_outcomes,
                                          "reverses")->p,
                               hit_of(&ao)));
    cr_expect(strstr(c->modifiers, "Reverse the Grapple (flip-1)") != NULL,
              "%s", c->modifiers);

    /* Throw at Thug 5's space (10,5: two spaces, the first range
     * increment): Brom's PA 3 against its PD 2, ties to him: `fray odds
     * attack 3 2`; grapple.c's Throw played N times hits as often. At an
     * empty space the flip is against a Defense of 0: it always lands. */
    cr_assert_eq(fray_action_chances(f, b, "attack thug-1 throw 10,5", c, &d),
                 FRAY_OK, "%s", d.message);
    fray_attack_query tq;
    fray_attack_query_init(&tq, 3, 2);
    fray_attack_odds tao;
    cr_assert_eq(fray_odds_attack(&tq, &tao), FRAY_OK);
    const fray_chance_outcome *hits = cf_outcome(c->outcomes, c->n_outcomes, "hits");
    cr_expect(fray_ratio_equal(hits->p, hit_of(&tao)));
    cr_assert_eq(ft_table_parse(&rf->setup->s, "brom attack thug-1 throw 10,5",
                                &cmd, &words, &d),
                 FRAY_OK, "%s", d.message);
    int thrown = 0;
    for (int i = 0; i < N; i++) {
        ft_run r;
        trial(rf, st, ev, &r, &d, i);
        r.facts = true;
        cr_assert_eq(ft_grapple_apply(&r, &cmd), FRAY_OK);
        for (int k = 0; k < ev->n_facts; k++)
            thrown += ev->facts[k].kind == FT_FACT_HIT;
    }
    double ts = (double)thrown / N;
    cr_expect(fabs(ts - hits->share) <= cf_tolerance(hits->share, N),
              "%d of %d Throws hit (%.4f), the chances say %.4f", thrown, N,
              ts, hits->share);
    cr_assert_eq(fray_action_chances(f, b, "attack thug-1 throw 8,6", c, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(fray_ratio_equal(cf_outcome(c->outcomes, c->n_outcomes, "hits")->p,
                               ratio_of(1, 1)));
    free(ev);
    free(st);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Use a Skill: Sir Hale's Riding (rank 1, SS 2) against DTN 12 is `fray
 * odds flip 1 --aspect 2 --dtn 12`, 5/13; on his turn (the clock set so)
 * the engine's Use a Skill played N times succeeds as often. His Dueling
 * (rank 2, SS 2) against Thug 1, who has no Dueling (rank 0, SS 2), is
 * `fray odds opposed 2 0 --aspect 2 --opposing-aspect 2`. A skill flip
 * with no DTN is refused in words. */
Test(chances_grapple, skill_flips) {
    fray_setup *s;
    fray_fight *f = brawl(&s);
    int h = cf_who(f, "hale"), t = cf_who(f, "thug-1");
    /* Sir Hale's turn: his phase first on the clock. */
    fray_towers_fight *wf = fray__fight_rf(f);
    for (int i = 0; i < wf->st.n; i++)
        if (i != h && wf->st.c[i].phase <= wf->st.c[h].phase)
            wf->st.c[i].phase = (int16_t)(wf->st.c[h].phase + 1);
    ft_clock_sync(&wf->st);
    cr_assert_eq(ft_next_actor(&wf->st), h);
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, h, "use-skill riding cost 5 dtn 12",
                                     &c, &d),
                 FRAY_OK, "%s", d.message);
    const fray_chance_outcome *ok = cf_outcome(c.outcomes, c.n_outcomes, "succeeds");
    cr_expect(fray_ratio_equal(ok->p, ratio_of(5, 13)));
    fray_flip_odds fo;
    cr_assert_eq(fray_odds_flip(NULL, 1, NULL, &fo), FRAY_OK);
    cr_expect(fray_ratio_equal(ok->p, fray_flip_odds_success(&fo, 2, 12)));

    const fray_towers_fight *rf = wf;
    ft_command cmd;
    int words = 0;
    cr_assert_eq(ft_table_parse(&rf->setup->s, "hale use-skill riding cost 5 dtn 12",
                                &cmd, &words, &d),
                 FRAY_OK, "%s", d.message);
    ft_state *st = malloc(sizeof *st);
    ft_event *ev = malloc(sizeof *ev);
    cr_assert(st && ev);
    int wins = 0;
    for (int i = 0; i < N; i++) {
        ft_run r;
        trial(rf, st, ev, &r, &d, i);
        r.facts = true;
        st->phase = st->c[h].phase; /* the clock moved on to him */
        ev->cmd = cmd;
        cr_assert_eq(ft_apply(&r), FRAY_OK, "%s", d.message);
        bool said = false;
        for (int k = 0; k < ev->n_facts; k++)
            if (ev->facts[k].kind == FT_FACT_NOTE &&
                strstr(ev->facts[k].text, "succeeds")) {
                said = true;
                wins++;
            } else if (ev->facts[k].kind == FT_FACT_NOTE &&
                       strstr(ev->facts[k].text, "fails")) {
                said = true;
            }
        cr_assert(said, "the skill flip said neither");
    }
    double share = (double)wins / N;
    cr_expect(fabs(share - ok->share) <= cf_tolerance(ok->share, N),
              "%d of %d Riding flips succeeded (%.4f), the chances say %.4f",
              wins, N, share, ok->share);

    cr_assert_eq(fray_action_chances(f, h, "use-skill dueling against thug-1 cost 5",
                                     &c, &d),
                 FRAY_OK, "%s", d.message);
    fray_opposed_query oq;
    memset(&oq, 0, sizeof oq);
    fray_deck_options_default(&oq.deck);
    oq.initiator_n = 2;
    oq.opponent_n = 0;
    oq.initiator_bonus = oq.opponent_bonus = 2;
    oq.initiator_aspect = oq.opponent_aspect = 2;
    fray_opposed_odds oo;
    cr_assert_eq(fray_odds_opposed(&oq, &oo), FRAY_OK);
    cr_expect(fray_ratio_equal(cf_outcome(c.outcomes, c.n_outcomes, "wins")->p,
                               fray_opposed_odds_initiator(&oo)));
    (void)t;

    cr_expect_eq(fray_action_chances(f, h, "use-skill riding cost 5 dtn none",
                                     &c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "DTN") != NULL, "%s", d.message);
    free(ev);
    free(st);
    fray_fight_free(f);
    fray_setup_free(s);
}

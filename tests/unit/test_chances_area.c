/*
 * test_chances_area.c - issue 19, the chances of "an area attack on its
 * targets" in 99 Towers (seed 000 "Area of Effects": one attack flip,
 * each defender in the area its own defensive flip, one damage for all
 * from the Hearts of the attack flip; area.c): each creature caught has
 * the chances `fray odds attack` gives for its flip against the attack
 * flip (fray_odds_attack), the fireball played many times from the
 * fight's state by area.c deals each amount to each of them and drops as
 * many as often as the chances say, and what is not counted says so.
 */
#include <stdlib.h>

#include "chances_fixture.h"
#include "layer.h"
#include "towers_int.h"

#define EX FRAY_SOURCE_DIR "/examples/towers/"
#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"

/* Two thugs hurt so that the fireball can drop them (gm set), the rest
 * whole: Ysolde's Fireball (burst 2) aimed at Thug 1. */
static fray_fight *hurt_brawl(fray_setup **s) {
    *s = cf_load(DATA "chances_brawl.yaml");
    fray_fight *f = cf_start(*s, 20261126);
    cf_command(f, "gm set thug-1 stun 3");
    cf_command(f, "gm set thug-2 stun 5");
    return f;
}

/* Each creature caught: miss, hit and critical are fray_odds_attack's of
 * Ysolde's SA flip against its ID flip (no modifier here: the answer says
 * "none" for each), fresh decks as the encounter says. */
Test(chances_area, each_creature_caught_equals_fray_odds_attack) {
    fray_setup *s;
    fray_fight *f = hurt_brawl(&s);
    int a = cf_who(f, "ysolde");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "cast thug-1 with fireball", c, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(c->n_area, 6, "%d caught", c->n_area);
    cr_expect_eq(c->target, cf_who(f, "thug-1"));
    cr_expect(strstr(c->title, "Fireball") != NULL, "%s", c->title);
    const fray_towers_fight *rf = fray__fight_rf(f);
    const ft_setup *ts = &rf->setup->s;
    for (int i = 0; i < c->n_area; i++) {
        const fray_chance_target *t = &c->area[i];
        cr_expect_str_eq(t->modifiers, "none");
        fray_attack_query q;
        fray_attack_query_init(&q, ts->c[a].sb.cv[FT_CV_SA],
                               ts->c[t->target].sb.cv[FT_CV_ID]);
        q.deck = ts->opt.deck;
        q.rules = ts->opt.flip;
        fray_attack_odds ao;
        cr_assert_eq(fray_odds_attack(&q, &ao), FRAY_OK);
        cr_expect(fray_ratio_equal(cf_outcome(t->outcomes, 3, "miss")->p,
                                   fray_ratio_one_minus(fray_attack_odds_hit(&ao))));
        cr_expect(fray_ratio_equal(cf_outcome(t->outcomes, 3, "critical")->p,
                                   fray_attack_odds_crit(&ao)));
        cr_expect(fray_ratio_equal(cf_outcome(t->outcomes, 3, "hit")->p,
                                   fray_attack_odds_hit_hearts(&ao, 0)));
        /* A hit with h Hearts deals the damage of h Hearts: the rows add
         * up to one. */
        double total = 0;
        for (int k = 0; k < t->n_damage; k++)
            total += t->damage[k].share;
        cr_expect(fabs(total - 1) < 1e-12);
    }
    /* How many drop: a distribution whose mean is the sum of each one's
     * chance (the expected number is exact whatever the joint). */
    double sum = 0, mean = 0, each = 0;
    for (int k = 0; k <= c->n_area; k++) {
        sum += c->area_dropped[k];
        mean += k * c->area_dropped[k];
    }
    for (int i = 0; i < c->n_area; i++)
        each += c->area[i].p_drop;
    cr_expect(fabs(sum - 1) < 1e-12, "%.15f", sum);
    cr_expect(fabs(mean - each) < 1e-12, "%.15f against %.15f", mean, each);
    cr_expect(fabs(c->area_expected_dropped - each) < 1e-12);
    /* Two can drop only together with the one attack flip: more than the
     * product of their chances would give if they flipped apart. */
    cr_expect(c->area_dropped[2] > c->area[0].p_drop * c->area[1].p_drop - 1e-12);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Issue 19: "a test holds them to the simulation of that one action from
 * that state": area.c's attack played N times from the fight's state,
 * each with its own stream, deals each amount to each creature caught,
 * and drops as many, as often as the chances say (4.5 standard errors). */
Test(chances_area, monte_carlo_of_the_fireball_from_the_state) {
    fray_setup *s;
    fray_fight *f = hurt_brawl(&s);
    int a = cf_who(f, "ysolde");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "cast thug-1 with fireball", c, &d),
                 FRAY_OK, "%s", d.message);
    const fray_towers_fight *rf = fray__fight_rf(f);
    const ft_setup *ts = &rf->setup->s;
    ft_command cmd;
    int words = 0;
    cr_assert_eq(ft_table_parse(ts, "ysolde cast thug-1 with fireball", &cmd,
                                &words, &d),
                 FRAY_OK, "%s", d.message);
    const ft_weapon *w = ft_area_weapon(ts, &rf->st, &cmd);
    cr_assert(w);
    ft_state *st = malloc(sizeof *st);
    ft_event *ev = malloc(sizeof *ev);
    cr_assert(st && ev);
    enum { N = 12000 };
    static int counts[FRAY_CHANCES_AREA][FRAY_CHANCES_AREA_DAMAGE];
    static int dropped[FRAY_CHANCES_AREA + 1];
    static int drops_of[FRAY_CHANCES_AREA];
    memset(drops_of, 0, sizeof drops_of);
    memset(counts, 0, sizeof counts);
    memset(dropped, 0, sizeof dropped);
    for (int i = 0; i < N; i++) {
        memcpy(st, &rf->st, sizeof *st);
        fray_rng_for_trial(&st->rng, 1919, (uint64_t)i);
        memset(ev, 0, sizeof *ev);
        ft_run r;
        ft_run_clear(&r);
        r.setup = ts;
        r.st = st;
        r.ev = ev;
        r.diag = &d;
        cr_assert_eq(ft_area_attack(&r, &cmd, w, cmd.weapon), FRAY_OK);
        int out = 0;
        for (int j = 0; j < c->n_area; j++) {
            const fray_chance_target *t = &c->area[j];
            int v = t->target;
            int stun = rf->st.c[v].stun - st->c[v].stun;
            int lethal = rf->st.c[v].lethal - st->c[v].lethal;
            bool now_out = !ft_in_fight(st, v);
            out += now_out;
            drops_of[j] += now_out;
            /* The amount dealt is what the track lost, for a creature the
             * damage cannot take past 0 STUN (the two hurt thugs' STUN
             * spills over into LETHAL: their drop is counted below). */
            if (rf->st.c[v].stun < 8)
                continue;
            int k = 0;
            while (k < t->n_damage && (t->damage[k].amount[0] != stun ||
                                       t->damage[k].amount[1] != lethal))
                k++;
            cr_assert(k < t->n_damage, "trial %d dealt %d STUN %d LETHAL to "
                      "combatant %d, which the chances do not list", i, stun,
                      lethal, v);
            counts[j][k]++;
        }
        dropped[out]++;
    }
    int checked = 0;
    for (int j = 0; j < c->n_area; j++) {
        const fray_chance_target *t = &c->area[j];
        double pd = t->p_drop, sd = (double)drops_of[j] / N;
        cr_expect(fabs(sd - pd) <= cf_tolerance(pd, N),
                  "combatant %d out of the fight: %.4f of %d trials, the "
                  "chances say %.4f", t->target, sd, N, pd);
        if (rf->st.c[t->target].stun < 8)
            continue;
        checked++;
        for (int k = 0; k < t->n_damage; k++) {
            double p = t->damage[k].share, share = (double)counts[j][k] / N;
            cr_expect(fabs(share - p) <= cf_tolerance(p, N),
                      "combatant %d, %d STUN %d LETHAL: %.4f of %d trials, the "
                      "chances say %.4f", t->target, t->damage[k].amount[0],
                      t->damage[k].amount[1], share, N, p);
        }
    }
    cr_expect_eq(checked, 4, "the four whole thugs' damage checked");
    for (int k = 0; k <= c->n_area; k++) {
        double p = c->area_dropped[k], share = (double)dropped[k] / N;
        cr_expect(fabs(share - p) <= cf_tolerance(p, N),
                  "%d out of the fight: %.4f of %d trials, the chances say %.4f",
                  k, share, N, p);
    }
    free(ev);
    free(st);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The example itself: every combatant flips from one deck, so the flips
 * of the creatures caught are not independent; each one's chances are
 * counted (the defender flips from what the attack left), how many drop
 * together is not, and the answer says so. Ranking: the fireball on each
 * foe is among Ysolde's options. */
Test(chances_area, shared_deck_said_and_ranked) {
    fray_setup *s = cf_load(EX "brawl.yaml");
    fray_fight *f = cf_start(s, 20261126);
    int a = cf_who(f, "ysolde");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "cast thug-1 with fireball", c, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(c->area_dropped[0] < 0);
    cr_expect(strstr(c->assumed, "how many drop together: not counted") != NULL,
              "%s", c->assumed);
    fray_chances_list l;
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    int areas = 0;
    for (int i = 0; i < l.n; i++)
        if (l.items[i].n_area > 0)
            areas++;
    cr_expect_eq(areas, 7, "the Fireball on each of the seven thugs: %d", areas);
    fray_chances_list_free(&l);
    /* Refused in rules words: an area aimed at an ally, a Power Attack
     * with an area. */
    cr_expect_eq(fray_action_chances(f, a, "cast brom with fireball", c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "ally") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, a, "power-attack thug-1 with fireball",
                                     c, &d),
                 FRAY_ERR_INVALID);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* `odds ID` ranks the area aimed at a space (chances3): Thug 1 at 5,6 and
 * Thug 2 at 9,6, four spaces apart, the others far off; the Fireball
 * (burst 2) aimed at either catches one, aimed at 7,5 (the first space,
 * in reading order, nearest Ysolde, that catches both) both. Its numbers
 * are the command's own (`odds ysolde cast at 7,5 with fireball`). In
 * the brawl as it starts, aiming at a thug already catches the most: no
 * space is ranked. */
Test(chances_area, ranked_at_the_space_that_catches_the_most) {
    fray_setup *s = cf_load(EX "brawl.yaml");
    fray_fight *f = cf_start(s, 20261126);
    int a = cf_who(f, "ysolde");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    for (int i = 0; i < l.n; i++)
        cr_expect(strncmp(l.items[i].command, "cast at", 7) != 0, "%s",
                  l.items[i].command);
    fray_chances_list_free(&l);
    static const char *const place[] = {
        "gm place thug-1 5,6", "gm place thug-2 9,6", "gm place thug-3 13,0",
        "gm place thug-4 0,7", "gm place thug-5 13,7", "gm place thug-6 8,0",
        "gm place thug-7 13,4"};
    for (size_t i = 0; i < sizeof place / sizeof place[0]; i++)
        cf_command(f, place[i]);
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    const fray_chances *at = NULL;
    for (int i = 0; i < l.n; i++)
        if (strncmp(l.items[i].command, "cast at", 7) == 0) {
            cr_expect(at == NULL, "one space ranked");
            at = &l.items[i];
        }
    cr_assert(at != NULL, "the Fireball aimed at a space is ranked");
    cr_expect_str_eq(at->command, "cast at 7,5 with Fireball");
    cr_expect_eq(at->n_area, 2, "both thugs caught: %d", at->n_area);
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    cr_assert_eq(fray_action_chances(f, a, at->command, c, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect_eq(c->n_area, at->n_area);
    for (int k = 0; k <= c->n_area; k++)
        cr_expect(c->area_dropped[k] == at->area_dropped[k]);
    cr_expect(c->area_expected_dropped == at->area_expected_dropped);
    cr_expect_str_eq(c->assumed, at->assumed);
    free(c);
    fray_chances_list_free(&l);
    fray_fight_free(f);
    fray_setup_free(s);
}

/*
 * test_chances_towers.c - issue 19, "the chances of an action, exactly"
 * for 99 Towers (include/fray/chances.h): the numbers equal `fray odds
 * attack` for the same flip (fray_towers_enc_attack's query, odds.c); the
 * attack played many times from the fight's state by attack.c gives the
 * same shares within their sampling error; a Prone target (a condition
 * the GM puts on it: seed 000 "Combat Modifiers", fray's ruling of
 * (shift+1) on a melee attack on a Prone target) changes the chances as
 * that rule says; the forecast's start keeps nothing of the order of the
 * cards nobody has seen.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"
#include "fray/duel.h"
#include "fray/fray.h"
#include "layer.h"
#include "towers_int.h"

#define EX FRAY_SOURCE_DIR "/examples/towers/"
#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"

static fray_setup *load(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", path, d.message);
    return s;
}

static fray_fight *start(const fray_setup *s, uint64_t seed) {
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true, .facts = true};
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

static const fray_chance_outcome *outcome(const fray_chances *c,
                                          const char *name) {
    for (int i = 0; i < c->n_outcomes; i++)
        if (strcmp(c->outcomes[i].name, name) == 0)
            return &c->outcomes[i];
    cr_assert_fail("no outcome '%s'", name);
    return NULL;
}

/* Issue 19: "the numbers equal what `fray odds` gives for the same flip":
 * at the fight's start (nobody has acted: flat-footed, where the file
 * places them), the attack's chances are fray_odds_attack's of the query
 * `fray odds attack --encounter` builds. */
Test(chances_towers, equal_fray_odds_attack_for_the_same_flip) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = start(s, 1187);
    int a = fray_fight_combatant_index(f, "aldric");
    int t = fray_fight_combatant_index(f, "black-knight");
    cr_assert(a >= 0 && t >= 0);
    for (int power = 0; power < 2; power++) {
        fray_enc_attack e;
        fray_diag d;
        cr_assert_eq(fray_towers_enc_attack(fray_setup_ruleset_data(s), a, t,
                                            -1, power, &e, &d),
                     FRAY_OK, "%s", d.message);
        fray_attack_odds ao;
        cr_assert_eq(fray_odds_attack(&e.query, &ao), FRAY_OK);
        fray_chances c;
        cr_assert_eq(fray_action_chances(f, a,
                                         power ? "power-attack black-knight"
                                               : "attack black-knight",
                                         &c, &d),
                     FRAY_OK, "%s", d.message);
        fray_ratio hit = fray_attack_odds_hit(&ao);
        fray_ratio crit = fray_attack_odds_crit(&ao);
        cr_expect(fray_ratio_equal(outcome(&c, "critical")->p, crit));
        cr_expect(fray_ratio_equal(outcome(&c, "miss")->p,
                                   fray_ratio_one_minus(hit)));
        cr_expect(fray_ratio_equal(outcome(&c, "hit")->p,
                                   fray_attack_odds_hit_hearts(&ao, 0)));
        /* The damage of each row is harm.c's for that many Hearts. */
        double total = 0;
        for (int i = 0; i < c.n_damage; i++)
            total += c.damage[i].share;
        cr_expect(fabs(total - 1) < 1e-12, "shares add up to %.15f", total);
        fray_towers_hit one = fray_towers_hit_damage(e.damage, 0, e.resilience,
                                                     e.affinity);
        bool found = false;
        for (int i = 0; i < c.n_damage; i++)
            if (c.damage[i].amount[0] == one.stun &&
                c.damage[i].amount[1] == one.lethal)
                found = true;
        cr_expect(found, "a hit without Hearts deals %d STUN %d LETHAL",
                  one.stun, one.lethal);
        cr_expect(strstr(c.modifiers, "flat-footed") != NULL, "%s", c.modifiers);
        cr_expect(strstr(c.assumed, "Hand of Fate") != NULL);
    }
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Issue 19: "a test holds them to the simulation of that one action from
 * that state": the attack of attack.c played N times from the fight's
 * state, each with its own stream (fresh decks and no Hand of Fate, as
 * the exact count takes them), deals each amount of STUN and LETHAL as
 * often as the chances say, within 4.5 standard errors of N trials. */
Test(chances_towers, monte_carlo_of_the_attack_from_the_state) {
    fray_setup *s = load(DATA "chances_duel.yaml");
    fray_fight *f = start(s, 5);
    int a = fray_fight_combatant_index(f, "aldric");
    int t = fray_fight_combatant_index(f, "black-knight");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "power-attack black-knight", c, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(c->assumed, "freshly shuffled") != NULL, "%s", c->assumed);
    const fray_towers_fight *rf = fray__fight_rf(f);
    ft_state *st = malloc(sizeof *st);
    ft_event *ev = malloc(sizeof *ev);
    cr_assert(st && ev);
    enum { N = 20000 };
    int counts[FRAY_CHANCES_DAMAGE] = {0};
    for (int i = 0; i < N; i++) {
        memcpy(st, &rf->st, sizeof *st);
        fray_rng_for_trial(&st->rng, 1919, (uint64_t)i);
        memset(ev, 0, sizeof *ev);
        ft_run r;
        ft_run_clear(&r);
        r.setup = &rf->setup->s;
        r.st = st;
        r.ev = ev;
        ft_attack_opts o;
        memset(&o, 0, sizeof o);
        o.weapon = st->c[a].wielded[0];
        o.power = true;
        bool hit = false;
        cr_assert_eq(ft_attack(&r, a, t, &o, &hit), FRAY_OK);
        int stun = rf->st.c[t].stun - st->c[t].stun;
        int lethal = rf->st.c[t].lethal - st->c[t].lethal;
        int k = 0;
        while (k < c->n_damage &&
               (c->damage[k].amount[0] != stun || c->damage[k].amount[1] != lethal))
            k++;
        cr_assert(k < c->n_damage, "trial %d dealt %d STUN %d LETHAL, which "
                  "the chances do not list", i, stun, lethal);
        counts[k]++;
    }
    for (int k = 0; k < c->n_damage; k++) {
        double p = c->damage[k].share, share = (double)counts[k] / N;
        double tol = 4.5 * sqrt(p * (1 - p) / N) + 1e-9;
        cr_expect(fabs(share - p) <= tol,
                  "%d STUN %d LETHAL: %d of %d trials (%.4f), the chances say "
                  "%.4f (tolerance %.4f)", c->damage[k].amount[0],
                  c->damage[k].amount[1], counts[k], N, share, p, tol);
    }
    free(ev);
    free(st);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Fray's ruling on a Prone target (attack.c "prone target"): (shift+1) on
 * a melee attack. The GM puts the condition on the target; the chances
 * then are those of an attack one shift higher, and say why. */
Test(chances_towers, a_prone_target_changes_the_chances_as_the_rule_says) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = start(s, 1187);
    int a = fray_fight_combatant_index(f, "aldric");
    int t = fray_fight_combatant_index(f, "black-knight");
    fray_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_towers_enc_attack(fray_setup_ruleset_data(s), a, t, -1,
                                        false, &e, &d),
                 FRAY_OK);
    fray_chances before, after;
    cr_assert_eq(fray_action_chances(f, a, "attack black-knight", &before, &d),
                 FRAY_OK);
    cr_expect(strstr(before.modifiers, "prone") == NULL);
    cr_assert_eq(fray_fight_command(f, "gm condition black-knight prone", NULL,
                                    &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_action_chances(f, a, "attack black-knight", &after, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(after.modifiers, "prone target (shift+1)") != NULL, "%s",
              after.modifiers);
    fray_attack_query q = e.query;
    q.attack_shift += 1;
    fray_attack_odds ao;
    cr_assert_eq(fray_odds_attack(&q, &ao), FRAY_OK);
    cr_expect(fray_ratio_equal(outcome(&after, "miss")->p,
                               fray_ratio_one_minus(fray_attack_odds_hit(&ao))));
    cr_expect(fray_ratio_equal(outcome(&after, "critical")->p,
                               fray_attack_odds_crit(&ao)));
    cr_expect(outcome(&after, "miss")->share < outcome(&before, "miss")->share);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Every option ranked: both attacks of each knight, best first by the
 * chance to drop, then the expected damage, the Grapple Test after them;
 * a refused command is said in rules words. */
Test(chances_towers, every_option_ranked_and_refusals_in_rules_words) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = start(s, 1187);
    int a = fray_fight_combatant_index(f, "aldric");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    /* Attack, Power Attack, Aim then Attack; then Initiate a Grapple,
     * which deals no damage, by its chance (issue 19). */
    cr_assert_eq(l.n, 4);
    cr_expect_str_eq(l.items[3].command, "grapple black-knight");
    cr_expect(l.items[3].p_drop < 0 && l.items[3].p_success > 0);
    for (int i = 1; i < l.n - 1; i++) {
        const fray_chances *p = &l.items[i - 1], *c = &l.items[i];
        cr_expect(p->p_drop > c->p_drop ||
                  (p->p_drop == c->p_drop &&
                   p->expected[0] + p->expected[1] >=
                       c->expected[0] + c->expected[1]));
    }
    fray_chances_list_free(&l);
    fray_chances c;
    cr_expect_eq(fray_action_chances(f, a, "aim", &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Aim") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, a, "attack nobody", &c, &d),
                 FRAY_ERR_PARSE);
    cr_expect_eq(fray_action_chances(f, a, "attack aldric", &c, &d),
                 FRAY_ERR_INVALID);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The forecast's start (sim_from): the undrawn cards' order is the one
 * thing the table has not seen; two fights that differ only in it start
 * every trial in the same state. */
Test(chances_towers, the_forecast_start_keeps_no_hidden_order) {
    fray_setup *s = load(EX "skirmish.yaml");
    fray_fight *f = start(s, 7);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
    const fray__ruleset *rs = fray_fight_setup(f)->rs;
    fray_towers_fight *rf = fray__fight_rf(f);
    void *x = NULL, *y = NULL;
    cr_assert_eq(rs->sim_fight_new(fray_setup_ruleset_data(s), 1, 0, NULL,
                                   NULL, &x), FRAY_OK);
    cr_assert_eq(rs->sim_fight_new(fray_setup_ruleset_data(s), 1, 0, NULL,
                                   NULL, &y), FRAY_OK);
    cr_assert_eq(rs->sim_from(x, rf, 42, 3), FRAY_OK);
    /* Reverse every draw pile of the fight. */
    for (int k = 0; k < rf->st.n_decks; k++) {
        fray_deck *dk = &rf->st.decks[k];
        for (size_t i = 0, j = dk->n_draw; i + 1 < j; i++, j--) {
            fray_card c = dk->draw[i];
            dk->draw[i] = dk->draw[j - 1];
            dk->draw[j - 1] = c;
        }
    }
    cr_assert_eq(rs->sim_from(y, rf, 42, 3), FRAY_OK);
    cr_expect(rs->same(x, y));
    rs->fight_free(x);
    rs->fight_free(y);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* "aim then attack": the attack as if an Aim (seed 000 "Aim") came just
 * before it: attack.c's "Aim x1" on the attack flip, the chances those of
 * the same query one card larger, and the assumption said. */
Test(chances_towers, aim_then_attack) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = start(s, 1187);
    int a = fray_fight_combatant_index(f, "aldric");
    int t = fray_fight_combatant_index(f, "black-knight");
    fray_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_towers_enc_attack(fray_setup_ruleset_data(s), a, t, -1,
                                        false, &e, &d),
                 FRAY_OK);
    fray_chances c;
    cr_assert_eq(fray_action_chances(f, a, "aim then attack black-knight", &c, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(c.modifiers, "Aim x1 (flip+1)") != NULL, "%s", c.modifiers);
    cr_expect(strstr(c.assumed, "after the Aim") != NULL, "%s", c.assumed);
    fray_attack_query q = e.query;
    q.attack_n += 1;
    fray_attack_odds ao;
    cr_assert_eq(fray_odds_attack(&q, &ao), FRAY_OK);
    cr_expect(fray_ratio_equal(outcome(&c, "miss")->p,
                               fray_ratio_one_minus(fray_attack_odds_hit(&ao))));
    cr_expect(fray_ratio_equal(outcome(&c, "critical")->p,
                               fray_attack_odds_crit(&ao)));
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Cast a Spell on one target (seed 000 "Cast a Spell": an SA against ID
 * attack, as attack.c makes it): counted as the Attack with the spell in
 * hand is; a weapon that is no spell is refused in rules words. */
Test(chances_towers, cast_a_spell_on_one_target) {
    fray_setup *s = load(EX "mage.yaml");
    fray_fight *f = start(s, 3);
    int a = fray_fight_combatant_index(f, "ysolde");
    fray_chances c, at;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "cast goblin-1", &c, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(fray_action_chances(f, a, "attack goblin-1", &at, &d), FRAY_OK,
                 "%s", d.message);
    cr_expect(strstr(c.title, "Cast a Spell") != NULL, "%s", c.title);
    for (int i = 0; i < 3; i++)
        cr_expect(fray_ratio_equal(c.outcomes[i].p, at.outcomes[i].p));
    cr_expect_eq(fray_action_chances(f, a, "cast goblin-1 with dagger", &c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "not a spell") != NULL, "%s", d.message);
    fray_fight_free(f);
    fray_setup_free(s);
}

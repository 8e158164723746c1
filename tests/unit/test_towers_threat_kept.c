/*
 * test_towers_threat_kept.c - who threatens whom, kept up to date as
 * combatants move and fall (ft_threat_cache, attack.c; issue 16 "keep
 * what the modifiers need up to date instead of searching again"), gives
 * seed 000 "Outnumbering" exactly as the search over the whole melee
 * does: the rule itself on the daisy chain as the state changes under one
 * kept cache, and every attack's modifiers on every state of fights of
 * six against six, both ways.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"
#include "towers_int.h"

static const tf_stats crowd_stats = {.pa = 2, .pd = 1, .spd = 6,
                                     .endurance = 2};

static int add(fixture *f, const char *name, int side, int x, int y) {
    ft_weapon w = tf_weapon("longblade", 0, 4, true, 1);
    return tf_add(f, name, side, x, y, &crowd_stats, w);
}

static ft_attack_opts opts_main(void) {
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.aid_ally = -1;
    return o;
}

/* The modifiers of a's attack on t through a run that keeps who
 * threatens whom in *kept. */
static ft_mods kept_mods(fixture *f, ft_threat_cache *kept, int a, int t) {
    ft_run r = f->r;
    r.threat = kept;
    ft_attack_opts o = opts_main();
    ft_mods m;
    ft_attack_mods(&r, a, t, &o, &m);
    return m;
}

/* Seed 000 "Outnumbering", the daisy chain, asked through one kept cache
 * while the state changes under it: a1 attacks e1; a2 threatens e1; e2
 * threatens a2; a3 threatens e2: 3 friends to 2 enemies, (shift+1). a4
 * comes back (it had fled): 4 to 2, (flip+1). e2 is Blinded: it does not
 * count and ends the chain, 2 to 1, (flip+1). e2 sees again and steps
 * away from a2 (and a3, a4): 2 to 1 still. a2 falls: 1 to 1, nothing. */
Test(towers_threat_kept, daisy_chain_as_the_state_changes) {
    fixture *f = tf_new(0, 0);
    int a1 = add(f, "a1", 0, 0, 0);
    int e1 = add(f, "e1", 1, 1, 0);
    int a2 = add(f, "a2", 0, 2, 1);
    int e2 = add(f, "e2", 1, 3, 2);
    add(f, "a3", 0, 4, 3);
    int a4 = add(f, "a4", 0, 4, 2);
    ft_state_reset(&f->s, &f->st, 42);
    for (int i = 0; i < f->st.n; i++)
        f->st.c[i].flags |= FT_F_ACTED;
    tf_run(f, NULL);
    ft_threat_cache *kept = calloc(1, sizeof *kept);
    cr_assert_not_null(kept);
    f->st.c[a4].flags |= FT_F_FLED;
    ft_threat_touch(&f->st); /* (a change by hand: counted) */
    ft_mods m = kept_mods(f, kept, a1, e1);
    cr_expect(!m.impossible, "%s", m.why);
    cr_expect_eq(m.shift, 1, "3-to-2: (shift+1)");
    cr_expect_eq(m.flip, 0);
    f->st.c[a4].flags &= (uint16_t)~FT_F_FLED;
    ft_threat_touch(&f->st); /* (a change by hand: counted) */
    m = kept_mods(f, kept, a1, e1);
    cr_expect_eq(m.shift, 0);
    cr_expect_eq(m.flip, 1, "4-to-2: (flip+1)");
    ft_cond_add(&f->r, e2, FT_COND_BLINDED, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    m = kept_mods(f, kept, a1, e1);
    cr_expect_eq(m.flip, 1, "2-to-1 without the blinded e2");
    cr_expect_eq(m.shift, 0);
    f->st.c[e2].n_cond = 0;
    f->st.c[e2].pos = (fray_pos){7, 7};
    ft_threat_touch(&f->st); /* (a change by hand: counted) */
    m = kept_mods(f, kept, a1, e1);
    cr_expect_eq(m.flip, 1, "2-to-1: e2 has stepped away");
    cr_expect_eq(m.shift, 0);
    f->st.c[a2].flags |= FT_F_UNCONSCIOUS;
    ft_threat_touch(&f->st); /* (a change by hand: counted) */
    m = kept_mods(f, kept, a1, e1);
    cr_expect_eq(m.flip + m.shift, 0, "1-to-1: nothing");
    free(kept);
    free(f);
}

/* The modifiers of every attack (each combatant on each other, its
 * weapon in hand) on the state of fight fi: searched (a run with no
 * cache) and kept (a run with *kept, which lives across the states and
 * the trials, so it is brought up to date, not filled afresh). */
static int compare_all(const fray_towers_fight *fi, ft_threat_cache *kept,
                       int trial) {
    const ft_setup *s = &fi->setup->s;
    ft_run search, keeping;
    ft_run_clear(&search);
    search.setup = s;
    search.st = (ft_state *)&fi->st;
    keeping = search;
    keeping.threat = kept;
    ft_attack_opts o = opts_main();
    int asked = 0;
    for (int a = 0; a < fi->st.n; a++)
        for (int t = 0; t < fi->st.n; t++) {
            if (a == t)
                continue;
            ft_mods m1, m2;
            ft_attack_mods(&search, a, t, &o, &m1);
            ft_attack_mods(&keeping, a, t, &o, &m2);
            cr_assert_eq(m1.impossible, m2.impossible, "trial %d: %d on %d",
                         trial, a, t);
            cr_assert(m1.flip == m2.flip && m1.shift == m2.shift &&
                          m1.def_flip == m2.def_flip &&
                          m1.def_shift == m2.def_shift,
                      "trial %d, %d on %d: searched (flip%+d)(shift%+d), "
                      "kept (flip%+d)(shift%+d)",
                      trial, a, t, m1.flip, m1.shift, m2.flip, m2.shift);
            cr_assert_eq(ft_outnumbering(&search, a, t),
                         ft_outnumbering(&keeping, a, t),
                         "trial %d: outnumbering, %d on %d", trial, a, t);
            asked++;
        }
    return asked;
}

/* Seed 000 "Outnumbering" on every state of 30 fights of six against six
 * (tests/data/towers/melee_crowd.yaml: a wall and a pillar, Sellswords,
 * Knights and Bandits closing, fighting, falling): the kept threats give
 * the modifiers the search gives, every attack, every state. */
Test(towers_threat_kept, crowd_fights_every_state) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *fi = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &fi), FRAY_OK);
    ft_threat_cache *kept = calloc(1, sizeof *kept);
    cr_assert_not_null(kept);
    long asked = 0, outnumbered = 0;
    for (int trial = 0; trial < 30; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(fi, 16, (uint64_t)trial),
                     FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(fi);
             step++) {
            asked += compare_all(fi, kept, trial);
            ft_run r;
            ft_run_clear(&r);
            r.setup = &s->s;
            r.st = &fi->st;
            for (int a = 0; a < fi->st.n; a++)
                for (int t = 0; t < fi->st.n; t++)
                    if (a != t && ft_outnumbering(&r, a, t))
                        outnumbered++;
            cr_assert_eq(fray_towers_fight_step(fi), FRAY_OK);
        }
        cr_assert(fray_towers_fight_over(fi), "trial %d ends", trial);
    }
    /* The fights do make chains: some attacks were outnumbering. */
    cr_expect_gt(outnumbered, 100);
    cr_expect_gt(asked, 10000);
    free(kept);
    fray_towers_fight_free(fi);
    fray_towers_setup_free(s);
}

/* Seed 000 "Threatened Areas" as the kept table holds it for fight fi,
 * brought up to date by the count of changes (the fight's own kept
 * threats): for every pair the table's answer is ft_threatens's, the rule
 * asked directly (reach, range, wall). Counts the pairs threatening at a
 * range of 2 or more and those between footprints of two spaces or more. */
static void kept_rows_agree(fray_towers_fight *fi, int trial, int step,
                            long *far, long *wide, long *pairs) {
    const ft_setup *s = &fi->setup->s;
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = &fi->st;
    ft_threat_cache *tc = &fi->paths.threat;
    cr_assert(ft_threat_kept_current(&r, tc), "trial %d, step %d: stale",
              trial, step);
    for (int y = 0; y < fi->st.n; y++)
        for (int x = 0; x < fi->st.n; x++) {
            if (x == y || (fi->st.c[x].flags & FT_F_FLED))
                continue;
            bool kept = (tc->threatens[y] >> x & 1u) != 0;
            bool rule = ft_threatens(&r, y, x);
            cr_assert_eq(kept, rule,
                         "trial %d, step %d: %d threatens %d by the rule %d, "
                         "kept %d",
                         trial, step, y, x, rule, kept);
            (*pairs)++;
            if (!rule)
                continue;
            fray_footprint fy = ft_fp(s, &fi->st, y), fx = ft_fp(s, &fi->st, x);
            *far += ft_range(fy, fx) >= 2;
            *wide += fy.side >= 2 || fx.side >= 2;
        }
}

/* Issue 16, "This round: a crowd's decision and turn": bringing a changed
 * combatant's row up to date looks only at those within the largest
 * reach and footprint side seen (attack.c threat_refresh_sigs). On every
 * state of 20 fights of the wide crowd (tests/data/towers/wide_crowd.yaml:
 * Large and Huge footprints, Spears of Reach 2) and 3 of the bench's
 * 16v16 (column_crowd_16.yaml), the kept table says who threatens whom
 * as the rule does; threats at range 2 and from or to a wide footprint
 * are met many times. Bounding the rows one space too short (the
 * footprints' side less 2) fails it. */
Test(towers_threat_kept, kept_rows_on_wide_footprints_and_reaches,
     .timeout = 600) {
    const char *files[] = {"wide_crowd.yaml", "column_crowd_16.yaml"};
    const int trials[] = {20, 3};
    long far = 0, wide = 0, pairs = 0;
    for (int k = 0; k < 2; k++) {
        fray_towers_setup *s = tf_load_data(files[k]);
        fray_towers_fight_options fo;
        memset(&fo, 0, sizeof fo);
        fray_towers_fight *fi = NULL;
        cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &fi), FRAY_OK);
        for (int trial = 0; trial < trials[k]; trial++) {
            cr_assert_eq(fray_towers_fight_reset_trial(fi, 7, (uint64_t)trial),
                         FRAY_OK);
            for (int step = 0; step < 5000 && !fray_towers_fight_over(fi);
                 step++) {
                kept_rows_agree(fi, trial, step, &far, &wide, &pairs);
                cr_assert_eq(fray_towers_fight_step(fi), FRAY_OK);
            }
            cr_assert(fray_towers_fight_over(fi), "%s, trial %d ends",
                      files[k], trial);
        }
        fray_towers_fight_free(fi);
        fray_towers_setup_free(s);
    }
    cr_log_info("%ld pairs asked; threats at range 2 or more %ld, of or on "
                "a wide footprint %ld", pairs, far, wide);
    cr_expect_gt(far, 1000, "threats at range 2 are met (%ld)", far);
    cr_expect_gt(wide, 1000, "threats of or on wide footprints are met (%ld)",
                 wide);
}

/* Issue 16, "This round: the attack after a Charge": where every
 * footprint is a single space, a changed combatant's row and column are
 * set again from the kept places alone (attack.c threat_row_single: the
 * range as the longer distance plus half the shorter). On every state of
 * 30 fights of the melee crowd (tests/data/towers/melee_crowd.yaml: a
 * wall and a pillar, seed 000 "Threatened Areas": no threat through total
 * cover) and 3 of the bench's 16v16 (column_crowd_16.yaml), the kept
 * table says who threatens whom as the rule does (seed 000:175-183), the
 * threats on a diagonal (range 1 across one space and along one) among
 * them; and after every Charge (seed 000 "Charge": the move, then the
 * attack) the charger's modifiers on its target as the Charge's attack
 * takes them, from the kept threats, are the search's (seed 000
 * "Outnumbering"). The range without the half of the shorter distance
 * (a diagonal counted 2) fails it. */
Test(towers_threat_kept, single_space_rows_as_the_rule, .timeout = 600) {
    const char *files[] = {"melee_crowd.yaml", "column_crowd_16.yaml"};
    const int trials[] = {30, 3};
    long far = 0, wide = 0, pairs = 0, diagonal = 0, charges = 0,
         outnumbered = 0;
    for (int k = 0; k < 2; k++) {
        fray_towers_setup *s = tf_load_data(files[k]);
        fray_towers_fight_options fo;
        memset(&fo, 0, sizeof fo);
        fray_towers_fight *fi = NULL;
        cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &fi), FRAY_OK);
        ft_threat_cache *kept = calloc(1, sizeof *kept);
        cr_assert_not_null(kept);
        for (int trial = 0; trial < trials[k]; trial++) {
            cr_assert_eq(fray_towers_fight_reset_trial(fi, 7, (uint64_t)trial),
                         FRAY_OK);
            for (int step = 0; step < 5000 && !fray_towers_fight_over(fi);
                 step++) {
                kept_rows_agree(fi, trial, step, &far, &wide, &pairs);
                const ft_threat_cache *tc = &fi->paths.threat;
                cr_assert_eq(tc->side_hi, 1, "%s: single spaces", files[k]);
                for (int y = 0; y < fi->st.n; y++)
                    for (uint32_t m = tc->threatens[y]; m; m &= m - 1) {
                        int x = __builtin_ctz(m);
                        diagonal += fi->st.c[x].pos.x != fi->st.c[y].pos.x &&
                                    fi->st.c[x].pos.y != fi->st.c[y].pos.y;
                    }
                cr_assert_eq(fray_towers_fight_step(fi), FRAY_OK);
                const ft_command *cmd = &fi->scratch.cmd;
                int a = cmd->actor, t = cmd->target;
                if (cmd->action != FT_ACT_CHARGE || a < 0 || t < 0 ||
                    !ft_can_act(&fi->st, a))
                    continue;
                ft_run search, keeping;
                ft_run_clear(&search);
                search.setup = &s->s;
                search.st = &fi->st;
                keeping = search;
                keeping.threat = kept;
                ft_attack_opts o = opts_main();
                o.charge = true;
                ft_mods m1, m2;
                ft_attack_mods(&search, a, t, &o, &m1);
                ft_attack_mods(&keeping, a, t, &o, &m2);
                cr_assert(m1.impossible == m2.impossible && m1.flip == m2.flip &&
                              m1.shift == m2.shift &&
                              m1.def_flip == m2.def_flip &&
                              m1.def_shift == m2.def_shift,
                          "%s trial %d, step %d: the Charge of %d on %d",
                          files[k], trial, step, a, t);
                charges++;
                outnumbered += ft_outnumbering(&keeping, a, t);
            }
            cr_assert(fray_towers_fight_over(fi), "%s, trial %d ends",
                      files[k], trial);
        }
        free(kept);
        fray_towers_fight_free(fi);
        fray_towers_setup_free(s);
    }
    cr_log_info("%ld pairs asked, %ld threats on a diagonal; %ld Charges, "
                "%ld of them outnumbering",
                pairs, diagonal, charges, outnumbered);
    cr_expect_gt(diagonal, 1000, "threats on a diagonal are met (%ld)",
                 diagonal);
    cr_expect_gt(charges, 50, "Charges are met (%ld)", charges);
    cr_expect_gt(outnumbered, 5, "outnumbering Charges are met (%ld)",
                 outnumbered);
}

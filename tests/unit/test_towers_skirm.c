/*
 * test_towers_skirm.c - the skirmish's tactics cut short (issue 16,
 * docs/architecture.md "This round: the skirmish's tactics").
 *
 * Three shortcuts in the tactics (policy.c), each taken only in a prepared
 * setup (ft_setup.eng.ready; a setup not prepared goes the long way):
 *
 *  - step 4 ranks a target before asking its attack's modifiers, and asks
 *    none for a target ranked no better than the best so far (it could not
 *    be taken whatever they are); now it sorts those within range best
 *    first and asks them in turn until one can be attacked ("This round:
 *    a crowd's decision and turn"; crowd_same_choices);
 *  - step 5's search for a space to strike from, going one cost at a time,
 *    looks at each space once (only those costing the cost reached or
 *    more: the cheaper ones were looked at already and none could strike);
 *  - a shooter's firing positions are scored term by term and left as
 *    soon as the score cannot beat the best so far (the range and least
 *    cover terms before sight, the cover before the threat);
 *  - and, on a small map, with the sight and cover both ways read from
 *    the table of every pair of spaces, the target's row found once per
 *    scan (policy.c firing_score_tabled; "This round: the crowds' search
 *    kept": reading the two covers the wrong way round fails
 *    skirmish_same_choices);
 *  - the engine's check of a Shift Position (a move of at most 1 to a
 *    neighbouring space, which a shooter next to an enemy tries) answered
 *    by the direct step weighed alone instead of a search (engine.c
 *    find_path; letting no diagonal through fails the skirmish's and the
 *    ambush's tests);
 *  - a shooter's firing positions scanned among the spaces within its
 *    Speed only, with each enemy's reach read once per scan (policy.c
 *    firing_scan_tabled; "This round: the skirmish's tactics, again": the
 *    scan two rows short, or an enemy's reach one short, fails
 *    skirmish_same_choices and provoke_mask_same_as_the_long_way);
 *  - a melee fighter's box of spaces to strike from not scanned while
 *    the search has shown no cost as high as the box's least (policy.c
 *    move_toward: the bound one too high fails the skirmish's, ambush's,
 *    crowd's and provoke tests; the bound taken without asking how far
 *    the search has shown fails crowd_same_choices).
 *
 * None may change a choice: in the example skirmish (a rifle, a pistol and
 * a Bolt of Fire among swords, round walls, a window and a low wall), the
 * ambush and the duel, after every step of the fight every combatant still
 * able to act chooses the same command with the shortcuts as without. The
 * counts asserted show the cases the shortcuts serve occur there: shooters
 * moving (step 5's firing positions) and attacks chosen among two or more
 * enemies in range (step 4's ranking). Debug builds also check every use
 * against the long way (policy.c strike_space_from, strike_space_from's
 * firing scores).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"
#include "towers_int.h"

typedef struct counts {
    long choices;
    long shooter_moves; /* a shooter's Move or Charge */
    long attacks_among; /* an attack with two or more enemies standing */
    long attacks_in_reach; /* an attack with two or more enemies threatened */
} counts;

static bool shooter(const ft_setup *s, const ft_state *st, int c) {
    int wi = st->c[c].wielded[0];
    if (wi < 0 || wi >= s->c[c].sb.n_weapons)
        return false;
    const ft_weapon *w = &s->c[c].sb.weapons[wi];
    return w->spell || w->range_increment > 0 || w->max_range > 0;
}

/* Plays `trials` fights of s step by step; after every step every
 * combatant able to act chooses with the setup as prepared and with a
 * copy not prepared: the same command. */
static void same_choices(fray_towers_setup *s, int trials, counts *n) {
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *ready = &f->setup->s;
    cr_assert(ready->eng.ready, "the loaded setup is prepared");
    ft_setup *plain = malloc(sizeof *plain);
    cr_assert_not_null(plain);
    memcpy(plain, ready, sizeof *plain);
    plain->eng.ready = false;
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            const ft_state *st = &f->st;
            for (int c = 0; c < st->n; c++) {
                if (!ft_can_act(st, c))
                    continue;
                ft_command a, b;
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                ft_policy_choose(ready, st, c, &a);
                ft_policy_choose(plain, st, c, &b);
                cr_assert(memcmp(&a, &b, sizeof a) == 0,
                          "trial %d, step %d, combatant %d: action %d (target %d) "
                          "to (%d,%d) with the shortcuts, %d (target %d) to "
                          "(%d,%d) without",
                          trial, step, c, a.action, a.target, a.dest.x, a.dest.y,
                          b.action, b.target, b.dest.x, b.dest.y);
                n->choices++;
                if ((a.action == FT_ACT_MOVE || a.action == FT_ACT_CHARGE) &&
                    shooter(ready, st, c))
                    n->shooter_moves++;
                if (a.action == FT_ACT_ATTACK || a.action == FT_ACT_CAST) {
                    int foes = 0;
                    for (int e = 0; e < st->n; e++)
                        foes += ready->c[e].side != ready->c[c].side &&
                                ft_can_act(st, e);
                    n->attacks_among += foes >= 2;
                    ft_run r;
                    ft_run_clear(&r);
                    r.setup = ready;
                    r.st = (ft_state *)st;
                    int near = 0;
                    for (int e = 0; e < st->n; e++)
                        near += ready->c[e].side != ready->c[c].side &&
                                ft_can_act(st, e) && ft_threatens(&r, c, e);
                    n->attacks_in_reach += near >= 2;
                }
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
        cr_assert(fray_towers_fight_over(f), "trial %d ends", trial);
    }
    free(plain);
    fray_towers_fight_free(f);
}

/* Issue 16: the example skirmish, 60 fights. */
Test(towers_skirm, skirmish_same_choices, .timeout = 600) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    counts n = {0, 0, 0, 0};
    same_choices(s, 60, &n);
    cr_expect_gt(n.shooter_moves, 100, "%ld shooters' moves of %ld choices",
                 n.shooter_moves, n.choices);
    cr_expect_gt(n.attacks_among, 400, "%ld attacks among several of %ld choices",
                 n.attacks_among, n.choices);
    fray_towers_setup_free(s);
}

/* Issue 16, "This round: a crowd's decision and turn": step 4 sorts the
 * targets within its weapon's range best first and asks the modifiers of
 * those alone until one can be attacked. In the bench's 16v16
 * (column_crowd_16.yaml, 4 fights) and the wide crowd (wide_crowd.yaml:
 * Large and Huge fighters, Spears of Reach 2; 20 fights) every choice is
 * the long way's, among many attacks with two or more enemies in reach.
 * Ranking ties the other way round (the higher index first) fails it. */
Test(towers_skirm, crowd_same_choices, .timeout = 600) {
    counts n = {0, 0, 0, 0};
    fray_towers_setup *s = tf_load_data("column_crowd_16.yaml");
    same_choices(s, 4, &n);
    fray_towers_setup_free(s);
    long column = n.attacks_in_reach;
    s = tf_load_data("wide_crowd.yaml");
    same_choices(s, 20, &n);
    fray_towers_setup_free(s);
    cr_log_info("%ld attacks with two or more enemies in reach (the 16v16 "
                "%ld) of %ld choices", n.attacks_in_reach, column, n.choices);
    cr_expect_gt(column, 300, "the 16v16's (%ld)", column);
    cr_expect_gt(n.attacks_in_reach, 700, "%ld", n.attacks_in_reach);
}

/* The example ambush (a shooter among melee fighters), 60 fights. */
Test(towers_skirm, ambush_same_choices, .timeout = 600) {
    fray_towers_setup *s = tf_load_example("ambush.yaml");
    counts n = {0, 0, 0, 0};
    same_choices(s, 60, &n);
    cr_expect_gt(n.attacks_among, 500, "%ld attacks among several of %ld choices",
                 n.attacks_among, n.choices);
    fray_towers_setup_free(s);
}

/* The example duel (one target: nothing to skip, still the same), 60
 * fights. */
Test(towers_skirm, duel_same_choices, .timeout = 600) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    counts n = {0, 0, 0, 0};
    same_choices(s, 60, &n);
    cr_expect_gt(n.choices, 1000, "%ld choices", n.choices);
    fray_towers_setup_free(s);
}

/* ---- The policy's attack modifiers handed to the attack ------------------ */

/*
 * What the start of `a`'s activation changes before its attack (engine.c
 * start_activation, harm.c cond_activation_from): its Power Attack,
 * Reckless, Full Defense and talent flags cleared (RULINGS 12), and the
 * conditions of anyone that end at the start of its activation counted
 * down and, at their last, ended.
 */
static void activation_start(ft_state *st, int a) {
    st->active = (int8_t)a;
    st->c[a].flags &= (uint16_t)~(FT_F_FULL_DEFENSE | FT_F_RECKLESS |
                                   FT_F_POWER | FT_F_TALENT);
    for (int c = 0; c < st->n; c++) {
        uint8_t ended[FT_MAX_CONDITIONS];
        fray__cond_tick(st->c[c].cond, &st->c[c].n_cond, a, false, ended);
    }
}

/* The modifiers of a's attack on t with weapon wi, worked out afresh. */
static ft_mods fresh_mods(const ft_setup *s, const ft_state *st, int a, int t,
                          int wi) {
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = (ft_state *)st;
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = wi;
    ft_mods m;
    ft_attack_mods(&r, a, t, &o, &m);
    return m;
}

/*
 * Issue 16 ("This round: the crowds' search kept"): the attack takes the
 * policy's modifiers (ft_attack_memo) when they are marked reusable, now
 * also when someone has a condition that lasts (the Prone of the fallen,
 * seed 000 "STUN": at 0 STUN, prone), as long as the attacker has none
 * and no condition ends at the start of its activation. In the skirmish
 * and the ambush, 40 fights each, at every step the next actor's choice:
 * when it is an attack with modifiers marked reusable, the modifiers are
 * those worked out afresh after the start of its activation. Counts that
 * the case with a condition on someone occurs.
 */
static void memo_holds(const char *file, long *out_with_cond) {
    fray_towers_setup *s = tf_load_example(file);
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *ready = &f->setup->s;
    ft_attack_memo *memo = malloc(sizeof *memo);
    ft_state *copy = malloc(sizeof *copy);
    cr_assert(memo && copy);
    long reused = 0, with_cond = 0;
    for (int trial = 0; trial < 40; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            const ft_state *st = &f->st;
            int a = ft_next_actor(st);
            if (a >= 0 && ft_can_act(st, a)) {
                memset(memo, 0, sizeof *memo);
                ft_command cmd;
                bool checked;
                ft_policy_choose_memo(ready, st, a, &cmd, &checked, NULL, memo);
                if (memo->valid && memo->reusable &&
                    (cmd.action == FT_ACT_ATTACK ||
                     cmd.action == FT_ACT_POWER_ATTACK) &&
                    cmd.target == memo->target) {
                    *copy = *st;
                    activation_start(copy, a);
                    ft_mods m = fresh_mods(ready, copy, a, memo->target,
                                           memo->weapon);
                    cr_assert(!m.impossible && m.flip == memo->flip &&
                                  m.shift == memo->shift &&
                                  m.def_flip == memo->def_flip &&
                                  m.def_shift == memo->def_shift,
                              "%s trial %d step %d: %d on %d: the policy's "
                              "(flip %d, shift %d, defense %d, %d), afresh "
                              "(%d, %d, %d, %d)",
                              file, trial, step, a, memo->target, memo->flip,
                              memo->shift, memo->def_flip, memo->def_shift,
                              m.flip, m.shift, m.def_flip, m.def_shift);
                    reused++;
                    int nc = 0;
                    for (int c = 0; c < st->n; c++)
                        nc += st->c[c].n_cond;
                    with_cond += nc > 0;
                }
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
    }
    cr_expect_gt(reused, 200, "%s: %ld attacks took the policy's modifiers",
                 file, reused);
    *out_with_cond = with_cond;
    free(copy);
    free(memo);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

Test(towers_skirm, memo_with_the_fallen_prone, .timeout = 600) {
    long skirm = 0, ambush = 0;
    memo_holds("skirmish.yaml", &skirm);
    memo_holds("ambush.yaml", &ambush);
    cr_expect_gt(skirm + ambush, 100,
                 "%ld and %ld attacks with a condition on someone", skirm,
                 ambush);
}

/* The conditions that forbid it: a condition of the target that ends at
 * the start of the attacker's activation (here Prone, which gives the
 * attacker its bonus, harm.c), or any condition of the attacker; a Prone
 * target that stays so (until removed) does not. The duel's first
 * decision, with the duelists put next to each other. */
Test(towers_skirm, memo_refused_when_a_condition_ends_first) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    cr_assert_eq(fray_towers_fight_reset_trial(f, 16, 0), FRAY_OK);
    const ft_setup *ready = &f->setup->s;
    ft_state *st = malloc(sizeof *st);
    ft_attack_memo *memo = malloc(sizeof *memo);
    cr_assert(st && memo);
    /* The first to act, with an attack it can make now. */
    int a = -1, t = -1;
    for (int step = 0; step < 200 && a < 0; step++) {
        int n = ft_next_actor(&f->st);
        if (n >= 0) {
            ft_command cmd;
            bool checked;
            memset(memo, 0, sizeof *memo);
            ft_policy_choose_memo(ready, &f->st, n, &cmd, &checked, NULL, memo);
            if (memo->valid && memo->reusable) {
                a = n;
                t = memo->target;
                break;
            }
        }
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    }
    cr_assert(a >= 0, "an attack is chosen in the duel");
    ft_cond prone = {.kind = 0,
                     .ends = FT_UNTIL_REMOVED,
                     .whose = -1,
                     .other = -1,
                     .source = -1};
    struct {
        int who;
        uint8_t kind, ends;
        bool reusable;
    } cases[] = {
        /* the target Prone: it lasts */
        {1, FT_COND_PRONE, FT_UNTIL_REMOVED, true},
        /* ends as the attacker's activation starts */
        {1, FT_COND_PRONE, FT_UNTIL_START_OF, false},
        /* ends later, at the end of it */
        {1, FT_COND_PRONE, FT_UNTIL_END_OF, true},
        /* the attacker has a condition (Slowed: it still attacks) */
        {0, FT_COND_SLOWED, FT_UNTIL_REMOVED, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        *st = f->st;
        int who = cases[i].who ? t : a;
        prone.kind = cases[i].kind;
        prone.ends = cases[i].ends;
        prone.whose = (int8_t)(cases[i].ends == FT_UNTIL_REMOVED ? -1 : a);
        prone.count = 1;
        st->c[who].cond[st->c[who].n_cond++] = prone;
        /* and on the upkeep's list, as ft_cond_add puts a condition that
         * ends with an activation (ft_state.cond_timed: the tactics look
         * only there for one ending as the attacker's activation starts) */
        if (prone.ends != FT_UNTIL_REMOVED)
            st->cond_timed |= 1u << who;
        ft_command cmd;
        bool checked;
        memset(memo, 0, sizeof *memo);
        ft_policy_choose_memo(ready, st, a, &cmd, &checked, NULL, memo);
        cr_assert(memo->valid, "case %zu: an attack", i);
        cr_expect_eq(memo->reusable, cases[i].reusable,
                     "case %zu: the modifiers %s be handed to the attack", i,
                     cases[i].reusable ? "may" : "may not");
        if (memo->reusable) {
            /* and then they are those after the activation's start */
            activation_start(st, a);
            ft_mods m = fresh_mods(ready, st, a, memo->target, memo->weapon);
            cr_expect(m.flip == memo->flip && m.def_flip == memo->def_flip &&
                          m.shift == memo->shift &&
                          m.def_shift == memo->def_shift,
                      "case %zu", i);
        }
    }
    free(memo);
    free(st);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/*
 * A talent used with a command (Use a Talent, data/towers/talents.yaml
 * "Lucky Strike": (shift+2) on its attacks until its next activation;
 * rules-facts.md "Hand of Fate") lapses as the user's next activation
 * starts (engine.c start_activation, with Reckless Move: RULINGS 12's
 * span). The policy's modifiers weighed while it was armed are not handed
 * to an attack that starts that activation: before, they were, and the
 * example's Dame Orla struck with Lucky Strike's +2 an activation after it
 * lapsed (the Debug check in ft_attack stopped `fray sim
 * examples/towers/talents.yaml`).
 */
Test(towers_skirm, memo_refused_when_an_armed_talent_lapses) {
    fray_towers_setup *s = tf_load_example("talents.yaml");
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *ready = &f->setup->s;
    /* Dame Orla (the first) and her Lucky Strike */
    int lucky = -1;
    for (int i = 0; i < ready->c[0].sb.n_talents; i++)
        if (strcmp(ready->c[0].sb.talents[i].name, "Lucky Strike") == 0)
            lucky = i;
    cr_assert(lucky >= 0, "Dame Orla has Lucky Strike");
    ft_state *st = malloc(sizeof *st);
    ft_attack_memo *memo = malloc(sizeof *memo);
    cr_assert(st && memo);
    int found = 0;
    for (uint64_t trial = 0; trial < 40 && found < 5; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 7, trial), FRAY_OK);
        for (int step = 0; step < 400 && !f->st.over; step++) {
            int n = ft_next_actor(&f->st);
            if (n == 0 && f->st.active != 0 && !(f->st.c[0].flags & FT_F_TALENT)) {
                ft_command cmd;
                bool checked;
                memset(memo, 0, sizeof *memo);
                ft_policy_choose_memo(ready, &f->st, 0, &cmd, &checked, NULL, memo);
                if (memo->valid && memo->reusable) {
                    /* the same state with Lucky Strike armed in her last
                     * activation */
                    *st = f->st;
                    st->c[0].flags |= FT_F_TALENT;
                    st->c[0].talents_armed = (uint8_t)(1u << lucky);
                    ft_attack_memo armed;
                    memset(&armed, 0, sizeof armed);
                    ft_policy_choose_memo(ready, st, 0, &cmd, &checked, NULL, &armed);
                    if (armed.valid) {
                        found++;
                        cr_expect(!armed.reusable,
                                  "trial %llu step %d: the modifiers weighed with "
                                  "Lucky Strike armed are not handed to the attack",
                                  (unsigned long long)trial, step);
                        /* and that is right: they are not those after the
                         * activation's start */
                        ft_mods before = fresh_mods(ready, st, 0, armed.target,
                                                    armed.weapon);
                        activation_start(st, 0);
                        ft_mods after = fresh_mods(ready, st, 0, armed.target,
                                                   armed.weapon);
                        cr_expect_eq(before.shift, after.shift + 2,
                                     "Lucky Strike's (shift+2) lapses as her "
                                     "activation starts");
                    }
                }
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
    }
    cr_assert(found >= 5, "Dame Orla chooses attacks (%d)", found);
    free(memo);
    free(st);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- Who may react to a provoking action ------------------------------- */

/*
 * Seed 000:175-183: a ranged attack, a reload and the other actions on the
 * list provoke an Opportunity Attack from every enemy threatening the
 * actor's space; seed 000:22, one still Flat-Footed makes none; 000:184,
 * each one taken moves its attacker back on the clock. engine.c provoke
 * asks who may react of everyone at once, as a mask of bits, and again
 * after each opportunity attack (issue 16, "This round: a crowd's decision
 * and turn"), in a prepared setup only. Side by side, the same fight with
 * the setup as loaded and with a copy not prepared (eng.ready false: the
 * long way, may_react asked of each in turn at each provoking action, and
 * every other shortcut the flag gates): after every step both states are
 * the same byte for byte, every fight to its end. Counts the opportunity
 * attacks offered by actions that are not a move (walk's own are apart):
 * the mask's case. Returns their number.
 */
static long provoke_side_by_side(const char *file, bool data, int trials,
                                 long *steps) {
    fray_towers_setup *sa = data ? tf_load_data(file) : tf_load_example(file);
    fray_towers_setup *sb = data ? tf_load_data(file) : tf_load_example(file);
    cr_assert(sa->s.eng.ready && sb->s.eng.ready, "loaded setups are prepared");
    sb->s.eng.ready = false;
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *a = NULL, *b = NULL;
    cr_assert_eq(fray_towers_fight_new(sa, 0, &fo, NULL, &a), FRAY_OK);
    cr_assert_eq(fray_towers_fight_new(sb, 0, &fo, NULL, &b), FRAY_OK);
    long provoked = 0;
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(a, 16, (uint64_t)trial), FRAY_OK);
        cr_assert_eq(fray_towers_fight_reset_trial(b, 16, (uint64_t)trial), FRAY_OK);
        cr_assert(memcmp(&a->st, &b->st, sizeof a->st) == 0,
                  "%s trial %d: the same start", file, trial);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(a); step++) {
            cr_assert_eq(fray_towers_fight_step(a), FRAY_OK);
            cr_assert_eq(fray_towers_fight_step(b), FRAY_OK);
            (*steps)++;
            int act = a->scratch.cmd.action;
            if (act != FT_ACT_MOVE && act != FT_ACT_CHARGE &&
                act != FT_ACT_RUNNING_LEAP)
                for (int k = 0; k < a->scratch.n_choices; k++)
                    provoked += a->scratch.choices[k].kind == FT_CHOICE_OPPORTUNITY;
            cr_assert(memcmp(&a->st, &b->st, sizeof a->st) == 0,
                      "%s trial %d, step %d: the state with the mask of who "
                      "may react and the long way differ", file, trial, step);
            /* and the event: the same cards, the same opportunities
             * offered (one declined is recorded too: the journal) */
            const ft_event *ea = &a->scratch, *eb = &b->scratch;
            cr_assert(ea->n_cards == eb->n_cards &&
                          memcmp(ea->cards, eb->cards, (size_t)ea->n_cards) == 0 &&
                          ea->n_choices == eb->n_choices &&
                          memcmp(ea->choices, eb->choices,
                                 (size_t)ea->n_choices * sizeof ea->choices[0]) == 0,
                      "%s trial %d, step %d: the event's cards or choices "
                      "differ (%d and %d choices)", file, trial, step,
                      ea->n_choices, eb->n_choices);
        }
        cr_assert(fray_towers_fight_over(a) && fray_towers_fight_over(b),
                  "%s trial %d ends both ways", file, trial);
    }
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_setup_free(sa);
    fray_towers_setup_free(sb);
    return provoked;
}

/* The skirmish (a rifle, a pistol and a Bolt of Fire among swords) and
 * the ambush, 60 fights each; gunmen next to axemen from the start, some
 * of them Flat-Footed or in Full Defense (point_blank.yaml), 100. */
Test(towers_skirm, provoke_mask_same_as_the_long_way, .timeout = 600) {
    long steps = 0;
    long ps = provoke_side_by_side("skirmish.yaml", false, 60, &steps);
    long pa = provoke_side_by_side("ambush.yaml", false, 60, &steps);
    long pb = provoke_side_by_side("point_blank.yaml", true, 100, &steps);
    cr_log_info("opportunity attacks on provoking actions: skirmish %ld, "
                "ambush %ld, point blank %ld, in %ld steps", ps, pa, pb, steps);
    cr_expect_gt(ps + pa, 100, "provoking actions met opportunity attacks "
                 "(%ld and %ld)", ps, pa);
    cr_expect_gt(pb, 100, "shots at point blank met opportunity attacks "
                 "(%ld)", pb);
}

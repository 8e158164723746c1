/*
 * test_towers_gm2.c - the GM's calls (issue 13, section 3; gm.c "More of
 * the GM's questions"): where seed 000 leaves a call to the GM, the table
 * asks, `answer ...` answers, the encounter file may answer in advance,
 * and fights nobody runs at a table take fray's default; the companion
 * rulings made options; a combatant that joins later keeps its side in
 * the fight; every action kind is counted under its own name.
 *
 * examples/towers/gm-calls.yaml: Tony (0) on a step one level above the
 * road, with a Broom (improvised, no strength limit; damage 1+PX, Tony's
 * PX 2), and a Bandit (1) below him. tests/data/towers/gm_answers.yaml:
 * the same with every call answered in the file.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "fray/sim.h"
#include "towers_fixture.h"

enum { TONY = 0, BANDIT = 1 };

/* The command, which must be taken (cards by hand when given). */
static void take(fray_towers_fight *f, const char *text, const char *cards) {
    fray_card c[32];
    size_t n = 0;
    if (cards)
        cr_assert_eq(fray_card_parse_list(cards, c, 32, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, text, cards ? c : NULL, n, &d),
                 FRAY_OK, "%s: %s", text, d.message);
}

/* The command, which must be refused with `words` in the message, and
 * make no event. */
static void refused(fray_towers_fight *f, const char *text, const char *cards,
                    const char *words) {
    fray_card c[32];
    size_t n = 0;
    if (cards)
        cr_assert_eq(fray_card_parse_list(cards, c, 32, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    int events = fray_towers_fight_events(f);
    cr_assert_neq(fray_towers_fight_command(f, text, cards ? c : NULL, n, &d),
                  FRAY_OK, "%s was taken", text);
    cr_expect(strstr(d.message, words) != NULL, "%s: '%s' lacks '%s'", text,
              d.message, words);
    cr_expect_eq(fray_towers_fight_events(f), events, "%s made an event",
                 text);
}

/* The last event's fact of `kind` (the first of them), or NULL. */
static const ft_fact *last_fact(const fray_towers_fight *f, int kind,
                                ft_event *buf) {
    const ft_event *ev =
        ft_fight_event(f, fray_towers_fight_events(f) - 1, buf);
    cr_assert_not_null(ev);
    for (int i = 0; i < ev->n_facts; i++)
        if (ev->facts[i].kind == kind)
            return &ev->facts[i];
    return NULL;
}

/* Whether the last event has a MODIFIER fact told `why`. */
static bool has_modifier(const fray_towers_fight *f, const char *why) {
    ft_event buf;
    const ft_event *ev =
        ft_fight_event(f, fray_towers_fight_events(f) - 1, &buf);
    cr_assert_not_null(ev);
    for (int i = 0; i < ev->n_facts; i++)
        if (ev->facts[i].kind == FT_FACT_MODIFIER &&
            strcmp(ev->facts[i].text, why) == 0)
            return true;
    return false;
}

/* The blow's damage before Hearts and Resilience (the HIT fact's v[4]). */
static int blow_damage(const fray_towers_fight *f) {
    ft_event buf;
    const ft_fact *h = last_fact(f, FT_FACT_HIT, &buf);
    cr_assert_not_null(h, "no hit");
    return h->v[4];
}

/* Tony's attack flip (3 cards) and the Bandit's defense flip (2 cards):
 * a hit with no Heart. */
#define HIT_CARDS "KS QS JS 2C 3C"

/* ---- 000 "Elevation in Melee" and "Improvised Weapons" -------------------- */

/* 000 "Elevation in Melee": "The elevation level must be significant
 * enough to earn this bonus in the GM's opinion"; 000 "Improvised
 * Weapons": "These limitations should be decided on by the GM". Tony's
 * attack from one level up with a Broom the data gives no limit: the
 * table asks first about the high ground, then the strength limit (one
 * question at a time), and nothing happens until answered; the answers
 * decide: no high ground, the Broom adds at most 1 of Tony's PX 2 (1 + 1
 * = 2). Given on the command instead: high ground and the whole PX (3).
 * Both replay from the journal. */
Test(towers_gm2, high_ground_and_strength_limit_are_asked_and_answered) {
    fray_towers_setup *s = tf_load_example("gm-calls.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "next", NULL);
    refused(f, "tony attack bandit", HIT_CARDS,
            "the GM's question: is it high ground, Tony 1 level above "
            "Bandit? Answer 'answer yes' or 'answer no'");
    refused(f, "answer maybe", HIT_CARDS,
            "expected the answer: yes (high ground) or no");
    refused(f, "answer no", HIT_CARDS,
            "the GM's question: the strength limit of Tony's Broom (the most "
            "<PX> its damage adds)?");
    refused(f, "answer lots", HIT_CARDS, "expected the answer: the most <PX>");
    take(f, "answer 1", HIT_CARDS);
    cr_expect_not(has_modifier(f, "high ground"));
    cr_expect_eq(blow_damage(f), 2, "1 + PX limited to 1");
    refused(f, "answer 1", NULL, "no GM's question waits for an answer");
    tf_replays_same(s, f);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    take(f, "tony attack bandit high-ground yes strength-limit none",
         HIT_CARDS);
    cr_expect(has_modifier(f, "high ground"));
    cr_expect_eq(blow_damage(f), 3, "1 + the whole PX 2");
    tf_replays_same(s, f);
    refused(f, "tony attack bandit high-ground perhaps", NULL,
            "expected yes or no after high-ground");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The same calls answered in the encounter file (gm-answers: high-ground
 * 2, strength-limit {Broom: 1}): nothing is asked; one level is not
 * enough; the Broom adds 1. The other settings of high-ground: 1 (one
 * level counts) and never; unanswered (0): any higher position, the
 * default of `fray fight` and `fray sim`. */
Test(towers_gm2, high_ground_and_strength_limit_answered_in_the_file) {
    fray_towers_setup *s = tf_load_data("gm_answers.yaml");
    cr_assert_eq(s->s.gm_high_ground, 2);
    cr_assert_eq(s->s.n_limit_answers, 2);
    struct {
        int answer;
        bool high;
    } cases[] = {{2, false}, {1, true}, {FT_GM_HIGH_NEVER, false}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        s->s.gm_high_ground = cases[k].answer;
        fray_towers_fight *f = tf_fight(s, 3);
        take(f, "next", NULL);
        take(f, "tony attack bandit", HIT_CARDS);
        cr_expect_eq(has_modifier(f, "high ground"), cases[k].high,
                     "high-ground %d", cases[k].answer);
        cr_expect_eq(blow_damage(f), 2, "the file's limit 1");
        fray_towers_fight_free(f);
    }
    /* Not answered, no table: fray's default (any higher position, the
     * whole PX), asked of nobody. */
    fray_towers_setup_free(s);
    s = tf_load_example("gm-calls.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
    cr_expect(f->st.over);
    bool high = false;
    for (int i = 0; i < fray_towers_fight_events(f) && !high; i++) {
        ft_event buf;
        const ft_event *ev = ft_fight_event(f, i, &buf);
        for (int j = 0; j < ev->n_facts; j++)
            if (ev->facts[j].kind == FT_FACT_MODIFIER &&
                strcmp(ev->facts[j].text, "high ground") == 0)
                high = true;
    }
    cr_expect(high, "Tony's attacks from the step have high ground");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- 000 "Hold" ------------------------------------------------------------ */

/* 000 "Hold": "If there is a situation where two or more people are
 * waiting with Hold actions and no one wants to be the first to act, they
 * can all be forced to take the Delay action. This is up to the GM's
 * discretion." Tony holds, then the Bandit: everyone holds and nobody is
 * on the clock, so the table asks; `answer first`: Tony (who held first)
 * acts first, now (phase 7), the Bandit after him (the phase after his
 * own Hold's); `all-hold delay`: both 5 phases on (12). In the file
 * (all-hold: first) nothing is asked; without an answer and a table, the
 * forced Delay. */
Test(towers_gm2, all_hold_is_asked_and_answered) {
    fray_towers_setup *s = tf_load_example("gm-calls.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "next", NULL);
    take(f, "tony hold", NULL);
    take(f, "next", NULL);
    cr_assert_eq(f->st.phase, 7);
    refused(f, "bandit hold", NULL,
            "the GM's question: everyone holds, nobody is on the clock: all "
            "take a Forced Delay, or the first to hold acts first?");
    refused(f, "answer later", NULL, "expected the answer: delay");
    take(f, "answer first", NULL);
    cr_expect_eq(f->st.c[TONY].phase, 7);
    cr_expect_eq(f->st.c[BANDIT].phase, 8);
    cr_expect_eq(ft_next_actor(&f->st), TONY);
    ft_event buf;
    const ft_fact *note = last_fact(f, FT_FACT_NOTE, &buf);
    cr_assert_not_null(note);
    cr_expect_str_eq(note->text, "all hold: first acts");
    tf_replays_same(s, f);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    take(f, "bandit hold all-hold delay", NULL);
    cr_expect_eq(f->st.c[TONY].phase, 12);
    cr_expect_eq(f->st.c[BANDIT].phase, 12);
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    /* Answered in the file: asked of nobody. */
    s->s.gm_all_hold = 2;
    f = tf_fight(s, 3);
    take(f, "next", NULL);
    take(f, "tony hold", NULL);
    take(f, "next", NULL);
    take(f, "bandit hold", NULL);
    cr_expect_eq(f->st.c[TONY].phase, 7);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- 000 "Action List": a non-standard action's time ------------------------ */

/* 000 "Action List": "If there is something a player wishes to do that
 * doesn't necessarily fall into a specific category, the GM and player
 * can attempt to gauge the amount of time it would take based on a
 * similar standard action": a Use a Skill without `cost` is asked its
 * phases (after its DTN, one question at a time); `answer 3` makes it
 * take 3. In the file (action-time {Acrobatics: 3, default: 5}) nothing
 * is asked. */
Test(towers_gm2, an_actions_time_is_asked_and_answered) {
    fray_towers_setup *s = tf_load_example("gm-calls.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "next", NULL);
    refused(f, "tony use-skill acrobatics", NULL,
            "the GM's question: the DTN for Tony's Acrobatics?");
    refused(f, "answer 10", NULL,
            "the GM's question: how many phases does Tony's Acrobatics "
            "take");
    refused(f, "answer 101", NULL, "expected the answer: a cost of 0-100");
    take(f, "answer 3", NULL);
    cr_expect_eq(f->st.c[TONY].phase, 7, "4 + 3");
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
    s = tf_load_data("gm_answers.yaml");
    f = tf_fight(s, 3);
    take(f, "next", NULL);
    take(f, "tony use-skill acrobatics", NULL);
    cr_expect_eq(f->st.c[TONY].phase, 7, "the file's 3");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The file's answers are checked where they stand: a word that is not
 * one is refused at its line. */
Test(towers_gm2, bad_answers_in_the_file_are_refused) {
    static const char *const bad[] = {
        "  high-ground: 0\n", "  all-hold: maybe\n",
        "  strength-limit: {Broom: 31}\n", "  action-time: [3]\n",
        "  nonsense: 1\n"};
    char path[] = "/tmp/fray_gm2_XXXXXX.yaml";
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(path, sizeof path, "/tmp/fray_gm2_%zu.yaml", k);
        FILE *fp = fopen(path, "w");
        cr_assert_not_null(fp);
        fprintf(fp, "fray: encounter\nrules: towers\nname: x\n"
                    "catalog: [%s/data/towers/equipment.yaml]\n"
                    "statblocks: [%s/examples/towers/statblocks.yaml]\n"
                    "gm-answers:\n%s"
                    "combatants:\n"
                    "  - {id: t, statblock: Bandit, side: a}\n"
                    "  - {id: u, statblock: Bandit, side: b}\n",
                FRAY_SOURCE_DIR, FRAY_SOURCE_DIR, bad[k]);
        fclose(fp);
        fray_towers_setup *s = NULL;
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_expect_neq(fray_towers_load(path, NULL, &s, &d), FRAY_OK, "%s",
                      bad[k]);
        cr_expect_eq(d.line, 7, "%s: line %d: %s", bad[k], d.line,
                     d.message);
        if (s)
            fray_towers_setup_free(s);
        remove(path);
    }
}

/* ---- Bugs: joins later, and the counts by kind ------------------------------ */

/* 000 "Entering Combat and Initiative" (gm.c): a combatant that joins
 * later keeps its side in the fight: Bandit 1 down while Bandit 2 waits
 * does not end the fight; only when Bandit 2 leaves (gm flee) do the
 * Bandits lose. Without a table (fray fight, fray sim) nobody brings it
 * in, so the fight does when its side has nobody else: Bandit 2 joins
 * (an Initiative flip) and fights; the quiet run (simulation) ends as the
 * recorded one. */
Test(towers_gm2, a_combatant_joining_later_keeps_its_side_in) {
    fray_towers_setup *s = tf_load_example("reinforcements.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "gm set bandit-1 stun 0", NULL);
    cr_expect_not(f->st.over, "Bandit 2 has yet to join");
    take(f, "gm flee bandit-2", NULL);
    cr_expect(f->st.over);
    cr_expect_eq(f->st.winner, 0, "Tony's side wins");
    fray_towers_fight_free(f);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        f = tf_fight(s, seed);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        cr_expect(f->st.over);
        cr_expect_not(f->st.c[2].flags & FT_F_WAITING,
                      "seed %llu: Bandit 2 joined", (unsigned long long)seed);
        fray_towers_fight_options o;
        memset(&o, 0, sizeof o);
        fray_towers_fight *q = NULL;
        cr_assert_eq(fray_towers_fight_new(s, seed, &o, NULL, &q), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(q), FRAY_OK);
        cr_expect_eq(q->st.winner, f->st.winner, "seed %llu",
                     (unsigned long long)seed);
        cr_expect_eq(q->st.phase, f->st.phase);
        tf_replays_same(s, f);
        fray_towers_fight_free(q);
        fray_towers_fight_free(f);
    }
    fray_towers_setup_free(s);
}

/* fray sim's actions by kind: every 99 Towers action has a room in the
 * counts and its own name there (the rules' name, none twice), and an
 * action taken is counted under its own kind: a free Mark, a Use a Skill,
 * a Hold, an Attack; the GM's commands are not actions. */
Test(towers_gm2, every_action_is_counted_under_its_own_name) {
    cr_assert_leq(FT_ACTION_COUNT, FRAY_SIM_ACTION_KINDS);
    for (int k = 0; k < FT_ACTION_COUNT; k++) {
        const char *name = fray_towers_action_name(k);
        cr_assert_not_null(name, "kind %d", k);
        cr_expect_str_eq(name, ft_actions[k].text);
        for (int j = 0; j < k; j++)
            cr_expect_str_neq(name, fray_towers_action_name(j), "%d, %d", j,
                              k);
    }
    cr_expect_null(fray_towers_action_name(FT_ACTION_COUNT));
    fray_towers_setup *s = tf_load_example("gm-calls.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "next", NULL);
    take(f, "tony mark bandit", NULL);
    take(f, "tony use-skill acrobatics dtn 10 cost 5", NULL);
    take(f, "gm set bandit stun 10", NULL);
    take(f, "next", NULL);
    take(f, "bandit hold", NULL);
    take(f, "next", NULL);
    take(f, "tony attack bandit high-ground yes strength-limit 1", HIT_CARDS);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    ft_rf_count(f, c);
    cr_expect_eq(c->c[TONY].by_kind[FT_ACT_MARK], 1);
    cr_expect_eq(c->c[TONY].by_kind[FT_ACT_USE_SKILL], 1);
    cr_expect_eq(c->c[TONY].by_kind[FT_ACT_ATTACK], 1);
    cr_expect_eq(c->c[BANDIT].by_kind[FT_ACT_HOLD], 1);
    cr_expect_eq(c->c[BANDIT].by_kind[FT_ACT_GM_SET], 0);
    cr_expect_eq(c->c[TONY].actions, 3);
    free(c);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- Companion rulings made options (000 "Companions and Minions") -------- */

static const tf_stats comp_stats = {.pa = 3, .pd = 2, .px = 1, .spd = 5,
                                    .ss = 1, .endurance = 3,
                                    .max_stun = 24, .max_lethal = 11};

static int add(fixture *f, const char *id, int side, int x, int y, int n) {
    int i = tf_add(f, id, side, x, y, &comp_stats,
                   tf_weapon("Longblade", 1, 4, true, 1));
    f->s.c[i].sb.cv[FT_CV_N] = n;
    f->s.c[i].tactics.preset = FT_TAC_DEFAULT;
    f->s.c[i].tactics.opportunity_attacks = true;
    return i;
}

static fray_status apply(fixture *f, ft_command cmd, fray_diag *diag) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = cmd;
    tf_run(f, diag);
    return ft_apply(&f->r);
}

enum { RANGER, FALCON, GOBLIN };

/* The ranger at (1,1) and his falcon at (1,2) against a goblin at
 * (gx,gy); the pair acts in phase 5, the goblin in 17; the clock at 5. */
static fixture *pair_new(int gx, int gy) {
    fixture *f = tf_new(12, 12);
    f->s.opt.hand_of_fate = 0;
    add(f, "ranger", 0, 1, 1, 2);
    add(f, "falcon", 0, 1, 2, 1);
    add(f, "goblin", 1, gx, gy, 1);
    f->s.c[FALCON].master = RANGER + 1;
    f->s.c[RANGER].n_companions = 1;
    ft_state_reset(&f->s, &f->st, 1);
    tf_stack(f, RANGER, "KS 4D");
    tf_stack(f, GOBLIN, "2C");
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
    cr_assert_eq(apply(f, tf_cmd(FT_CMD_PHASE, -1), NULL), FRAY_OK);
    cr_assert_eq(f->st.phase, 5);
    return f;
}

/* 000 "Companions and Minions" ("activate simultaneously"), 000
 * "Flat-Footed" ("Until a character acts in combat, he is flat-footed"):
 * option pair-flat-footed. both (default): the falcon's action ends the
 * ranger's flat-footedness too; actor: only the falcon's. */
Test(towers_gm2, option_pair_flat_footed) {
    for (int opt = FT_PFF_BOTH; opt <= FT_PFF_ACTOR; opt++) {
        fixture *f = pair_new(8, 8);
        f->s.opt.pair_flat_footed = (uint8_t)opt;
        cr_assert_eq(apply(f, tf_cmd(FT_ACT_DELAY, FALCON), &f->diag),
                     FRAY_OK, "%s", f->diag.message);
        cr_expect(f->st.c[FALCON].flags & FT_F_ACTED);
        cr_expect_eq((f->st.c[RANGER].flags & FT_F_ACTED) != 0,
                     opt == FT_PFF_BOTH, "option %d", opt);
        free(f);
    }
}

/* 000 "Companions and Minions": "one must complete their movement before
 * the other begins": option pair-second-move. The ranger (at 1 STUN)
 * leaves the goblin's reach and its opportunity attack knocks him out on
 * the way; always (default): the falcon still makes its move (to 1,4);
 * if-first-stands: it stays where it was (1,2). */
Test(towers_gm2, option_pair_second_move) {
    for (int opt = FT_PSM_ALWAYS; opt <= FT_PSM_IF_FIRST_STANDS; opt++) {
        fixture *f = pair_new(2, 0);
        f->s.opt.pair_second_move = (uint8_t)opt;
        f->st.c[RANGER].stun = 1;
        f->st.c[GOBLIN].flags |= FT_F_ACTED; /* not flat-footed */
        tf_stack(f, GOBLIN, "KS KH KD QS");
        tf_stack(f, RANGER, "2C 3D 4C");
        ft_command m = tf_cmd(FT_ACT_MOVE, RANGER);
        m.dest = (fray_pos){1, 5};
        m.also = FALCON + 1;
        m.also_dest = (fray_pos){1, 4};
        cr_assert_eq(apply(f, m, &f->diag), FRAY_OK, "%s", f->diag.message);
        cr_assert_not(ft_can_act(&f->st, RANGER), "the ranger went down");
        bool moved = f->st.c[FALCON].pos.y == 4;
        cr_expect_eq(moved, opt == FT_PSM_ALWAYS, "option %d: falcon at "
                     "(%d,%d)", opt, f->st.c[FALCON].pos.x,
                     f->st.c[FALCON].pos.y);
        free(f);
    }
}

/* Both options are read from `options:` and sweep like any. */
Test(towers_gm2, pair_options_load_and_vary) {
    fray_towers_setup *s = tf_load_example("falconer.yaml");
    cr_expect_eq(s->s.opt.pair_flat_footed, FT_PFF_BOTH);
    cr_expect_eq(s->s.opt.pair_second_move, FT_PSM_ALWAYS);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_setup_vary(s, "options.pair-flat-footed",
                                        "actor", &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_towers_setup_vary(s, "pair-second-move",
                                        "if-first-stands", &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(s->s.opt.pair_flat_footed, FT_PFF_ACTOR);
    cr_expect_eq(s->s.opt.pair_second_move, FT_PSM_IF_FIRST_STANDS);
    cr_expect_eq(s->s.opt.companion_initiative, FT_CI_NONE);
    cr_assert_eq(fray_towers_setup_vary(s, "companion-initiative", "better",
                                        &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_eq(s->s.opt.companion_initiative, FT_CI_BETTER);
    cr_expect_neq(fray_towers_setup_vary(s, "pair-second-move", "never", &d),
                  FRAY_OK);
    fray_towers_setup_free(s);
}

/* 000 "Companions and Minions" ("The player and their companion activate
 * simultaneously"), 000 "Entering Combat and Initiative": option
 * companion-initiative. none (default): the falcon flips no initiative
 * and the pair acts at the ranger's place (2 + 2 = CI 4: phase 16);
 * better: the falcon flips too (A: 14 + 1 = 15) and the pair acts at the
 * better, phase 5, the ranger taking that Calculated Initiative. */
Test(towers_gm2, option_companion_initiative) {
    for (int opt = FT_CI_NONE; opt <= FT_CI_BETTER; opt++) {
        fixture *f = tf_new(12, 12);
        f->s.opt.hand_of_fate = 0;
        f->s.opt.companion_initiative = (uint8_t)opt;
        add(f, "ranger", 0, 1, 1, 2);
        add(f, "falcon", 0, 1, 2, 1);
        add(f, "goblin", 1, 8, 8, 1);
        f->s.c[FALCON].master = RANGER + 1;
        f->s.c[RANGER].n_companions = 1;
        ft_state_reset(&f->s, &f->st, 1);
        tf_stack(f, RANGER, "2S 2D");
        tf_stack(f, FALCON, "AS");
        tf_stack(f, GOBLIN, "2C");
        size_t before = f->st.decks[FALCON].n_draw;
        cr_assert_eq(apply(f, tf_cmd(FT_CMD_BEGIN, -1), NULL), FRAY_OK);
        int want = opt == FT_CI_NONE ? 16 : 5;
        cr_expect_eq(f->st.c[RANGER].phase, want, "option %d", opt);
        cr_expect_eq(f->st.c[FALCON].phase, want, "option %d", opt);
        cr_expect_eq(f->st.c[RANGER].ci, opt == FT_CI_NONE ? 4 : 15);
        cr_expect_eq(f->st.decks[FALCON].n_draw,
                     opt == FT_CI_NONE ? before : before - 1u);
        cr_expect_eq(ft_next_actor(&f->st), RANGER);
        free(f);
    }
}

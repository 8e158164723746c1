/*
 * test_towers_tumble.c - moving through spaces (src/rules/towers/tumble.c;
 * seed 000 "Moving Through Spaces", "Creature Sizes"): a Combat Move said
 * to tumble passes through a standing non-ally's space with an Acrobatics
 * flip against the GM's DTN, and stops before it when the flip fails; an
 * ally and an unconscious non-ally are passed without a flip; creatures
 * Tiny or smaller share spaces while their sizes add up to less than one
 * (ending) or one or less (passing); the options tumble-fail,
 * tumble-provokes, tumble-untrained and share-end; at the table the GM's
 * question, the answer, gm-answers, cards by hand and the journal.
 *
 * The hand-built fight: a corridor one space high; the tumbler "a" at
 * (0,0) (Acrobatics rank 1, [SS] 2: one card, total = card + 2) and the
 * guard "g" at (2,0). The example is examples/towers/acrobat.yaml: Lisse
 * (Acrobatics 3 with Tumble: four cards, [SS] 4) at (5,1), the Door Guard
 * in the door (5,2), the Hedge Mage (5,4) and three Tiny rats in (1,3).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fray/encounter.h"
#include "towers_fixture.h"

/* ---- A hand-built corridor -------------------------------------------------- */

/* PA 2, PD 1, SPD 6, [[E]] 2. */
static const tf_stats stats = {.pa = 2, .pd = 1, .spd = 6, .endurance = 2};

static ft_weapon blade(void) { return tf_weapon("blade", 1, 4, true, 1); }

/* A corridor w spaces long and one high, hands of fate empty, a deck per
 * combatant. */
static fixture *corridor(int w) {
    fixture *f = tf_new(w, 1);
    f->s.opt.hand_of_fate = 0;
    f->s.opt.decks = FT_DECKS_PER_COMBATANT;
    return f;
}

static int add(fixture *f, const char *name, int side, int x) {
    return tf_add(f, name, side, x, 0, &stats, blade());
}

/* Acrobatics (SS) of rank `rank` with [SS] 2. */
static void acrobatics(fixture *f, int c, int rank) {
    ft_statblock *sb = &f->s.c[c].sb;
    sb->aspects[FT_ASPECT_SS] = 2;
    sb->n_skills = 1;
    snprintf(sb->skills[0].name, FT_NAME, "Acrobatics");
    sb->skills[0].aspect = FT_ASPECT_SS;
    sb->skills[0].rank = rank;
}

/* The begin event with `a` first (it flips a King, everyone else a Two),
 * then the clock on to a's turn; everyone has acted (not flat-footed). */
static void begin_first(fixture *f, int a) {
    f->s.c[a].sb.cv[FT_CV_N] = 5;
    ft_policy_prepare(&f->s);
    ft_state_reset(&f->s, &f->st, 1);
    for (int i = 0; i < f->s.n_combatants; i++)
        tf_stack(f, i, i == a ? "KS" : "2C");
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = tf_cmd(FT_CMD_BEGIN, -1);
    tf_run(f, &f->diag);
    cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
    if (f->st.c[a].phase > f->st.phase) {
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_CMD_PHASE, -1);
        cr_assert_eq(ft_apply(&f->r), FRAY_OK, "%s", f->diag.message);
    }
    cr_assert_eq(ft_next_actor(&f->st), a);
    for (int i = 0; i < f->st.n; i++)
        f->st.c[i].flags |= FT_F_ACTED;
}

static ft_command move_to(int a, int x, bool tumble, int dtn) {
    ft_command c = tf_cmd(FT_ACT_MOVE, a);
    c.dest.x = (int16_t)x;
    c.dest.y = 0;
    c.tumble = tumble;
    c.dtn = (int16_t)dtn;
    return c;
}

static fray_status apply(fixture *f, ft_command c) {
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = c;
    memset(&f->diag, 0, sizeof f->diag);
    return ft_apply(&f->r);
}

static int count_facts(const fixture *f, int kind) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == kind;
    return n;
}

/* The skill flips of combatant c in the last event (opportunity attacks
 * turn over cards too). */
static int skill_flips(const fixture *f, int c) {
    int n = 0;
    for (int i = 0; i < f->ev.n_facts; i++)
        n += f->ev.facts[i].kind == FT_FACT_FLIP && f->ev.facts[i].who == c &&
             f->ev.facts[i].v[0] == FT_FLIP_SKILL;
    return n;
}

static const ft_fact *fact(const fixture *f, int kind) {
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == kind)
            return &f->ev.facts[i];
    return NULL;
}

/* 000 "Moving Through Spaces": "You can move into a non-ally's space using
 * the Acrobatics skill": without tumbling the guard's space cannot be
 * passed; tumbling, one Acrobatics flip (a Ten: 10 + [SS] 2 = 12 against
 * DTN 12) passes it, and the move ends beyond him, 5 phases spent. */
Test(towers_tumble, tumble_succeeds_and_passes) {
    fixture *f = corridor(6);
    int a = add(f, "a", 0, 0);
    add(f, "g", 1, 2);
    acrobatics(f, a, 1);
    begin_first(f, a);
    ft_command plain = move_to(a, 4, false, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &plain, &f->diag),
                 FRAY_ERR_INVALID, "the guard blocks a plain move");
    int phase = f->st.c[a].phase;
    tf_stack(f, a, "10C");
    cr_assert_eq(apply(f, move_to(a, 4, true, 12)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect_eq(f->st.c[a].pos.x, 4);
    cr_expect_eq(skill_flips(f, a), 1, "one Acrobatics flip");
    const ft_fact *t = fact(f, FT_FACT_TUMBLE);
    cr_assert_not_null(t);
    cr_expect_eq(t->target, 1);
    cr_expect_eq(t->v[0], 12, "10 + [SS] 2");
    cr_expect_eq(t->v[1], 12);
    cr_expect_eq(t->v[2], 1, "passes");
    cr_expect_eq(f->st.c[a].phase, phase + 5);
    char buf[2048];
    ft_render_event(&f->s, &f->ev, buf, sizeof buf);
    cr_expect(strstr(buf, "a tumbles into g's space (2,0): Acrobatics 12 "
                          "against DTN 12, gets through") != NULL, "%s", buf);
    cr_expect(strstr(buf, "tumbling (DTN 12)") != NULL, "%s", buf);
    ft_render_event_json(&f->s, &f->ev, buf, sizeof buf);
    cr_expect(strstr(buf, "\"tumble\":true") != NULL, "%s", buf);
    cr_expect(strstr(buf, "{\"fact\":\"tumble\",\"who\":\"a\",\"target\":"
                          "\"g\",\"total\":12,\"dtn\":12,\"passes\":true,"
                          "\"space\":[2,0]}") != NULL, "%s", buf);
    free(f);
}

/* 000 "Moving Through Spaces": a failed flip (a Nine: 11 against 12) stops
 * the move in the last space before the guard's; the phases are spent
 * (fray's reading, option tumble-fail: stop). With two guards, the first
 * passed and the second failed, it ends before the first: it may not end
 * in a non-ally's space. tumble-fail: prone, it falls prone too. */
Test(towers_tumble, tumble_fails_and_stops) {
    for (int prone = 0; prone < 2; prone++) {
        fixture *f = corridor(6);
        f->s.opt.tumble_fail = (uint8_t)(prone ? FT_TUMBLE_FAIL_PRONE
                                               : FT_TUMBLE_FAIL_STOP);
        int a = add(f, "a", 0, 0);
        add(f, "g", 1, 2);
        acrobatics(f, a, 1);
        begin_first(f, a);
        int phase = f->st.c[a].phase;
        tf_stack(f, a, "9C");
        cr_assert_eq(apply(f, move_to(a, 4, true, 12)), FRAY_OK, "%s",
                     f->diag.message);
        cr_expect_eq(f->st.c[a].pos.x, 1, "stops before the guard");
        cr_expect_eq(fact(f, FT_FACT_TUMBLE)->v[2], 0, "fails");
        cr_expect_eq(f->st.c[a].phase, phase + 5, "the phases are spent");
        cr_expect_eq(ft_cond_has(&f->st, a, FT_COND_PRONE), prone == 1);
        free(f);
    }
    fixture *f = corridor(8);
    int a = add(f, "a", 0, 0);
    add(f, "g", 1, 2);
    add(f, "h", 1, 3);
    acrobatics(f, a, 1);
    begin_first(f, a);
    tf_stack(f, a, "10C 9C");
    cr_assert_eq(apply(f, move_to(a, 5, true, 12)), FRAY_OK, "%s",
                 f->diag.message);
    cr_expect_eq(count_facts(f, FT_FACT_TUMBLE), 2);
    cr_expect_eq(f->st.c[a].pos.x, 1, "not in g's space: before it");
    free(f);
}

/* 000 "Moving Through Spaces": "You can move into spaces that contain
 * allied characters" and "through Incapacitated and Unconscious non-ally
 * creatures without an Acrobatics check": no tumble needed, and a tumble
 * turns over no card for them. */
Test(towers_tumble, ally_and_unconscious_enemy_passable_without_flip) {
    for (int k = 0; k < 2; k++) {
        fixture *f = corridor(6);
        int a = add(f, "a", 0, 0);
        int o = add(f, "o", k == 0 ? 0 : 1, 2);
        add(f, "z", 1, 5);
        acrobatics(f, a, 1);
        begin_first(f, a);
        if (k == 1)
            f->st.c[o].flags |= FT_F_UNCONSCIOUS;
        ft_command plain = move_to(a, 4, false, 0);
        cr_expect_eq(ft_check_command(&f->s, &f->st, &plain, &f->diag),
                     FRAY_OK, "%s", f->diag.message);
        cr_assert_eq(apply(f, move_to(a, 4, true, 12)), FRAY_OK, "%s",
                     f->diag.message);
        cr_expect_eq(f->st.c[a].pos.x, 4);
        cr_expect_eq(skill_flips(f, a), 0, "no flip");
        cr_expect_eq(f->ev.n_cards, 0, "no card");
        cr_expect_eq(count_facts(f, FT_FACT_TUMBLE), 0);
        free(f);
    }
}

/* The check: the DTN is the GM's (a tumble without one is refused); only
 * a Combat Move or Reckless Move tumbles; "using the Acrobatics skill":
 * one without it cannot (option tumble-untrained: rank 0, two cards and
 * the lowest (RULINGS 3) plus [SS]). */
Test(towers_tumble, refusals_and_untrained) {
    fixture *f = corridor(6);
    int a = add(f, "a", 0, 0);
    add(f, "g", 1, 2);
    f->s.c[a].sb.aspects[FT_ASPECT_SS] = 2;
    begin_first(f, a);
    ft_command c = move_to(a, 4, true, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "needs the GM's DTN") != NULL, "%s",
              f->diag.message);
    c.dtn = 12;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(f->diag.message, "a has no Acrobatics skill") != NULL,
              "%s", f->diag.message);
    c.action = FT_ACT_CHARGE;
    c.target = 1;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    f->s.opt.tumble_untrained = true;
    c = move_to(a, 4, true, 12);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag), FRAY_OK,
                 "%s", f->diag.message);
    tf_stack(f, a, "KC 10D");
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(skill_flips(f, a), 1);
    const ft_fact *fl = fact(f, FT_FACT_FLIP);
    cr_assert_not_null(fl);
    cr_expect_eq(fl->who, a);
    cr_expect_eq(fl->n_cards, 2, "rank 0: two cards");
    cr_expect_eq(fact(f, FT_FACT_TUMBLE)->v[0], 12, "the lowest, 10, + 2");
    cr_expect_eq(f->st.c[a].pos.x, 4);
    free(f);
}

/* Option tumble-provokes (fray's reading): true (default), leaving the
 * guard's reach past him provokes his opportunity attack as any move;
 * false, a non-ally tumbled past makes none. */
Test(towers_tumble, tumble_provokes_option) {
    for (int provokes = 0; provokes < 2; provokes++) {
        fixture *f = corridor(8);
        f->s.opt.tumble_provokes = provokes == 1;
        int a = add(f, "a", 0, 0);
        add(f, "g", 1, 2);
        acrobatics(f, a, 1);
        begin_first(f, a);
        tf_stack(f, a, "10C");
        cr_assert_eq(apply(f, move_to(a, 5, true, 12)), FRAY_OK, "%s",
                     f->diag.message);
        cr_expect_eq(count_facts(f, FT_FACT_OPPORTUNITY), provokes,
                     "tumble-provokes %d", provokes);
        free(f);
    }
}

/* 000 "Creature Sizes": "More than one tiny or smaller creature can fit
 * into a single space. As long as the sizes added together are 1 or
 * less"; "Moving Through Spaces": "You can only end your movement in a
 * square with another creature if all creatures present add up to less
 * than one". A Tiny is a quarter of a space: a Tiny non-ally is passed
 * and shared by a Tiny mover with no flip; three Tiny there (3/4) and the
 * mover make one: passed, not ended in (share-end: one-or-less: ended
 * in); a Medium mover cannot enter a Tiny non-ally's space. */
Test(towers_tumble, tiny_share_end_and_refusal) {
    for (int others = 1; others <= 3; others += 2) {
        for (int one = 0; one < 2; one++) {
            fixture *f = corridor(6);
            f->s.opt.share_end_one = one == 1;
            int a = add(f, "a", 0, 0);
            f->s.c[a].sb.size_rank = -2;
            for (int k = 0; k < others; k++) {
                int r = add(f, k == 0 ? "r" : k == 1 ? "s" : "t", 1, 2);
                f->s.c[r].sb.size_rank = -2;
            }
            add(f, "m", 0, 5); /* a Medium ally */
            begin_first(f, a);
            ft_command c = move_to(a, 2, false, 0);
            bool can_end = others == 1 || one == 1;
            cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                         can_end ? FRAY_OK : FRAY_ERR_INVALID,
                         "%d others, share-end %d: %s", others, one,
                         f->diag.message);
            c.dest.x = 4; /* through the shared space */
            cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                         FRAY_OK, "%s", f->diag.message);
            if (can_end) {
                cr_assert_eq(apply(f, move_to(a, 2, false, 0)), FRAY_OK);
                const ft_fact *sh = fact(f, FT_FACT_SHARE);
                cr_assert_not_null(sh);
                cr_expect_eq((uint32_t)sh->v[2], ((1u << others) - 1) << 1);
                char buf[4096];
                ft_render_map(&f->s, &f->st, buf, sizeof buf);
                cr_expect(strstr(buf, "0 ..+..m") != NULL, "%s", buf);
                ft_render_event_json(&f->s, &f->ev, buf, sizeof buf);
                cr_expect(strstr(buf, "\"fact\":\"share\",\"who\":\"a\","
                                      "\"space\":[2,0],\"with\":[\"r\"") !=
                              NULL,
                          "%s", buf);
            }
            free(f);
        }
    }
    /* A Medium mover: the Tiny non-ally's space is a non-ally's space. */
    fixture *f = corridor(6);
    int a = add(f, "a", 0, 0);
    int r = add(f, "r", 1, 2);
    f->s.c[r].sb.size_rank = -2;
    begin_first(f, a);
    ft_command c = move_to(a, 4, false, 0);
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID);
    free(f);
}

/* 000 "Creature Sizes" for what puts a creature in a space: a Tiny pushed
 * (Knockback) goes on into a space where another Tiny stands, and stops
 * before one where three stand (with it four quarters: not less than
 * one). */
Test(towers_tumble, knockback_honours_shared_spaces) {
    for (int crowd = 1; crowd <= 3; crowd += 2) {
        fixture *f = corridor(8);
        int a = add(f, "a", 0, 0);
        int v = add(f, "v", 1, 1);
        f->s.c[v].sb.size_rank = -2;
        for (int k = 0; k < crowd; k++) {
            int r = add(f, k == 0 ? "r" : k == 1 ? "s" : "t", 1, 2);
            f->s.c[r].sb.size_rank = -2;
        }
        begin_first(f, a);
        memset(&f->ev, 0, sizeof f->ev);
        f->ev.cmd = tf_cmd(FT_ACT_DELAY, a);
        cr_assert_eq(ft_knockback(&f->r, a, v, 1), FRAY_OK);
        cr_expect_eq(f->st.c[v].pos.x, crowd == 1 ? 2 : 1, "crowd %d", crowd);
        free(f);
    }
}

/* ---- The example, at the table ---------------------------------------------- */

enum { LISSE = 0, GUARD = 1, MAGE = 2, RAT1 = 3, RAT2 = 4, RAT3 = 5 };

static void take(fray_towers_fight *f, const char *text, const char *cards) {
    fray_card c[16];
    size_t n = 0;
    if (cards)
        cr_assert_eq(fray_card_parse_list(cards, c, 16, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, text, cards ? c : NULL, n, &d),
                 FRAY_OK, "%s: %s", text, d.message);
}

static void refused(fray_towers_fight *f, const char *text,
                    const char *words) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    int n = fray_towers_fight_events(f);
    cr_assert_neq(fray_towers_fight_command(f, text, NULL, 0, &d), FRAY_OK,
                  "%s was taken", text);
    cr_expect(strstr(d.message, words) != NULL, "%s: '%s' lacks '%s'", text,
              d.message, words);
    cr_expect_eq(fray_towers_fight_events(f), n, "%s made an event", text);
}

static const char *last_told(const fray_towers_fight *f) {
    static char buf[4096];
    int n = fray_towers_fight_events(f);
    fray_towers_event_narrate(f, n - 1, buf, sizeof buf);
    return buf;
}

/* Seed 000 "Moving Through Spaces" ("See the skill section": the seed has
 * none, so the DTN is the GM's call, seed 001): at the table a tumble
 * without a DTN is refused with the GM's question; "answer 12" gives it;
 * "dtn 12" on the command too; "answer none" leaves no DTN, which a
 * tumble needs. Lisse's four cards by hand: K 2 3 4 keep the King, 13 +
 * [SS] 4 = 17: she passes the guard to (5,3); 5 4 3 2: 9, she stays. The
 * journal replays all of it. */
Test(towers_tumble, table_question_answer_cards_and_journal) {
    fray_towers_setup *s = tf_load_example("acrobat.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "next", NULL);
    cr_assert_eq(ft_next_actor(&f->st), LISSE);
    refused(f, "lisse move 5,3 tumble",
            "the GM's question: the DTN for Lisse's Acrobatics, to tumble "
            "through a non-ally's space? Answer with 'answer 12', or 'dtn 12' "
            "on the command, or in the encounter file ('gm-answers: "
            "{skill-dtn: {Acrobatics: 12}}')");
    refused(f, "answer none", "needs the GM's DTN");
    refused(f, "lisse move 5,3 tumble", "the GM's question");
    take(f, "answer 12", NULL);
    cr_expect_eq(f->st.c[LISSE].pos.y, 3);
    cr_expect(strstr(last_told(f), "against DTN 12") != NULL, "%s",
              last_told(f));
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    take(f, "lisse move 5,3 tumble dtn 12", "KH 2C 3C 4C");
    cr_expect_eq(f->st.c[LISSE].pos.y, 3);
    cr_expect(strstr(last_told(f), "Acrobatics 17 against DTN 12, gets "
                                   "through") != NULL, "%s", last_told(f));
    tf_replays_same(s, f);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    take(f, "lisse move 5,3 tumble dtn 12", "5H 4C 3C 2C");
    cr_expect_eq(f->st.c[LISSE].pos.y, 1, "stays: no space before the door");
    cr_expect(strstr(last_told(f), "Acrobatics 9 against DTN 12, fails")
                  != NULL, "%s", last_told(f));
    cr_expect(strstr(last_told(f), "Lisse stays at (5,1)") != NULL, "%s",
              last_told(f));
    char *j = tf_journal(f);
    cr_expect(strstr(j, "\"tumble\":true") != NULL, "%s", j);
    tf_replays_same(s, f);
    /* The journal's reader: only a move tumbles. */
    char *m = strstr(j, "\"action\":\"move\"");
    cr_assert_not_null(m);
    memcpy(m, "\"action\":\"aim\" ", 15);
    fray_towers_fight *r = tf_fight(s, 99);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_neq(fray_towers_fight_replay(r, j, &d), FRAY_OK);
    cr_expect(strstr(d.message, "only a Combat Move or a Reckless Move "
                                "tumbles") != NULL, "%s", d.message);
    fray_towers_fight_free(r);
    free(j);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* gm-answers: {skill-dtn: {Acrobatics: 12}} answers in advance (a
 * "none" answer is no answer for a tumble: the question is asked). */
Test(towers_tumble, answered_in_the_file) {
    fray_towers_setup *s = tf_load_example("acrobat.yaml");
    s->s.n_dtn_answers = 1;
    snprintf(s->s.dtn_skill[0], FT_NAME, "acrobatics");
    s->s.dtn_value[0] = FT_GM_DTN_NONE;
    fray_towers_fight *f = tf_fight(s, 3);
    take(f, "next", NULL);
    refused(f, "lisse move 5,3 tumble", "the GM's question");
    s->s.dtn_value[0] = 12;
    take(f, "lisse move 5,3 tumble", NULL);
    char *j = tf_journal(f);
    cr_expect(strstr(j, "\"dtn\":12") != NULL, "%s", j);
    free(j);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Tactics: they never tumble (no tactics command says tumble); the Tiny
 * rats' paths share spaces (a SHARE fact from a tactics move). The map
 * draws the rats' shared starting space '+'. */
Test(towers_tumble, tactics_never_tumble_and_rats_share) {
    fray_towers_setup *s = tf_load_example("acrobat.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    char map[4096];
    fray_towers_draw_map(f, map, sizeof map);
    cr_expect(strstr(map, "3 #+.......#") != NULL, "%s", map);
    cr_expect(strstr(map, "+: creatures Tiny or smaller sharing a space") !=
                  NULL, "%s", map);
    bool shared = false;
    for (int i = 0; i < 60 && !f->st.over; i++) {
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        ft_event buf;
        const ft_event *ev = ft_fight_event(f, fray_towers_fight_events(f) - 1,
                                            &buf);
        cr_assert_not_null(ev);
        cr_expect(!ev->cmd.tumble, "the tactics tumbled");
        for (int k = 0; k < ev->n_facts; k++)
            shared = shared || ev->facts[k].kind == FT_FACT_SHARE;
    }
    cr_expect(shared, "no rat shared a space");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The GM's place honours the rule: Lisse (Medium) cannot stand in the
 * rats' space; a fourth quarter would make one: Rat 1 placed back among
 * the other two is fine, the Mage is not. */
Test(towers_tumble, gm_place_honours_shared_spaces) {
    fray_towers_setup *s = tf_load_example("acrobat.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    refused(f, "gm place lisse 1,3", "is there");
    take(f, "gm place rat-1 2,3", NULL);
    take(f, "gm place rat-1 1,3", NULL);
    refused(f, "gm place mage 1,3", "is there");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* ---- Loading -------------------------------------------------------------------- */

static fray_status load_text(const char *text, fray_towers_setup **s,
                             fray_diag *d) {
    char path[] = "/tmp/fray_tumble_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *fp = fdopen(fd, "w");
    cr_assert_not_null(fp);
    fputs(text, fp);
    fclose(fp);
    memset(d, 0, sizeof *d);
    *s = NULL;
    fray_status rc = fray_towers_load(path, NULL, s, d);
    remove(path);
    return rc;
}

#define HEAD                                                                   \
    "fray: encounter\nrules: towers\nname: x\n"                                \
    "catalog: [" FRAY_SOURCE_DIR "/data/towers/equipment.yaml]\n"             \
    "statblocks:\n"                                                            \
    "  - {name: Rat, size: Tiny, aspects: {SS: 3}, combat: {N: 2, PA: 2, "    \
    "PD: 3, SA: 0, ID: 1, PX: 0, ER: 0, IR: 0, SPD: 4}, endurance: 1, "       \
    "weapons: [Unarmed Strike]}\n"                                             \
    "  - {name: Man, aspects: {SS: 3}, combat: {N: 2, PA: 2, "                \
    "PD: 3, SA: 0, ID: 1, PX: 0, ER: 0, IR: 0, SPD: 4}, endurance: 1, "       \
    "weapons: [Unarmed Strike]}\n"                                             \
    "sides: [a, b]\n"                                                          \
    "map: {art: \"......\"}\n"

/* Placement (000 "Creature Sizes", "Moving Through Spaces"): three Tiny
 * in one space (3/4) load; four (4/4) only with share-end: one-or-less; a
 * Tiny and a Medium never. The options load, and --vary sets them. */
Test(towers_tumble, placement_and_options_load) {
    fray_towers_setup *s;
    fray_diag d;
    cr_expect_eq(load_text(HEAD "combatants:\n"
                                "  - {id: r, statblock: Rat, side: a, count: 3, "
                                "at: [[1, 0], [1, 0], [1, 0]]}\n"
                                "  - {id: m, statblock: Man, side: b, at: [4, 0]}\n",
                           &s, &d),
                 FRAY_OK, "%d: %s", d.line, d.message);
    cr_expect_eq(s->s.opt.tumble_fail, FT_TUMBLE_FAIL_STOP);
    cr_expect(s->s.opt.tumble_provokes);
    cr_expect(!s->s.opt.tumble_untrained);
    cr_expect(!s->s.opt.share_end_one);
    fray_diag vd;
    memset(&vd, 0, sizeof vd);
    cr_expect_eq(fray_towers_setup_vary(s, "tumble-fail", "prone", &vd),
                 FRAY_OK, "%s", vd.message);
    cr_expect_eq(s->s.opt.tumble_fail, FT_TUMBLE_FAIL_PRONE);
    cr_expect_eq(fray_towers_setup_vary(s, "options.share-end", "one-or-less",
                                        &vd),
                 FRAY_OK, "%s", vd.message);
    cr_expect(s->s.opt.share_end_one);
    fray_towers_setup_free(s);
    const char *four = "combatants:\n"
                       "  - {id: r, statblock: Rat, side: a, count: 4, "
                       "at: [[1, 0], [1, 0], [1, 0], [1, 0]]}\n"
                       "  - {id: m, statblock: Man, side: b, at: [4, 0]}\n";
    char text[4096];
    snprintf(text, sizeof text, "%s%s", HEAD, four);
    cr_expect_neq(load_text(text, &s, &d), FRAY_OK);
    cr_expect(strstr(d.message, "less than one") != NULL, "%s", d.message);
    if (s)
        fray_towers_setup_free(s);
    snprintf(text, sizeof text,
             "%soptions: {share-end: one-or-less, tumble-fail: prone, "
             "tumble-provokes: false, tumble-untrained: true}\n%s",
             HEAD, four);
    cr_expect_eq(load_text(text, &s, &d), FRAY_OK, "%d: %s", d.line,
                 d.message);
    if (s) {
        cr_expect(s->s.opt.share_end_one);
        cr_expect_eq(s->s.opt.tumble_fail, FT_TUMBLE_FAIL_PRONE);
        cr_expect(!s->s.opt.tumble_provokes);
        cr_expect(s->s.opt.tumble_untrained);
        fray_towers_setup_free(s);
    }
    cr_expect_neq(load_text(HEAD "combatants:\n"
                                 "  - {id: r, statblock: Rat, side: a, at: [1, 0]}\n"
                                 "  - {id: m, statblock: Man, side: b, at: [1, 0]}\n",
                            &s, &d),
                  FRAY_OK);
    if (s)
        fray_towers_setup_free(s);
    cr_expect_neq(load_text(HEAD "options: {tumble-fail: fall}\n"
                                 "combatants:\n"
                                 "  - {id: m, statblock: Man, side: b, at: [1, 0]}\n",
                            &s, &d),
                  FRAY_OK);
    cr_expect(strstr(d.message, "tumble-fail") != NULL, "%s", d.message);
    if (s)
        fray_towers_setup_free(s);
}

/* 000 "Cutting Corners": "If two spaces adjacent to one another diagonally
 * are occupied by ... non-allied creatures, you cannot move between them":
 * a tumble does not slip between two non-allies' corners for free; it
 * goes through one of their spaces, with a flip. */
Test(towers_tumble, tumble_does_not_cut_corners) {
    fixture *f = tf_new(3, 3);
    f->s.opt.hand_of_fate = 0;
    f->s.opt.decks = FT_DECKS_PER_COMBATANT;
    f->s.opt.tumble_provokes = false;
    int a = tf_add(f, "a", 0, 0, 0, &stats, blade());
    tf_add(f, "g", 1, 1, 0, &stats, blade());
    tf_add(f, "h", 1, 0, 1, &stats, blade());
    acrobatics(f, a, 1);
    begin_first(f, a);
    ft_command c = tf_cmd(FT_ACT_MOVE, a);
    c.dest.x = 1;
    c.dest.y = 1;
    cr_expect_eq(ft_check_command(&f->s, &f->st, &c, &f->diag),
                 FRAY_ERR_INVALID, "the corner is closed");
    c.tumble = true;
    c.dtn = 12;
    tf_stack(f, a, "10C");
    cr_assert_eq(apply(f, c), FRAY_OK, "%s", f->diag.message);
    cr_expect_eq(count_facts(f, FT_FACT_TUMBLE), 1, "through a space");
    cr_expect_eq(f->st.c[a].pos.x, 1);
    cr_expect_eq(f->st.c[a].pos.y, 1);
    free(f);
}

/*
 * test_towers_gm.c - the GM's table (issue 13, section 3; src/rules/towers
 * /gm.c): the GM's own commands change what they say, say it in rules
 * words, undo, and replay from the journal; a combatant with "joins:
 * later" is off the clock until the GM brings it in, then gets an
 * Initiative and acts; a fled one is off the map and the clock; the GM's
 * place refuses a wall and an occupied space. The fight is
 * examples/towers/reinforcements.yaml: Tony (0), Bandit 1 (1) and Bandit
 * 2 (2, joins later); a Bandit has [[E]] 2: STUN 16, LETHAL 10.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fray/encounter.h"
#include "towers_fixture.h"

enum { TONY = 0, B1 = 1, B2 = 2 };

static fray_towers_setup *setup_of(void) {
    return tf_load_example("reinforcements.yaml");
}

/* The command, which must be taken. */
static void gm(fray_towers_fight *f, const char *text) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, text, NULL, 0, &d), FRAY_OK,
                 "%s: %s", text, d.message);
}

/* The command, which must be refused with `words` in the message. */
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

/* The narration of the last event. */
static const char *last_told(const fray_towers_fight *f) {
    static char buf[4096];
    int n = fray_towers_fight_events(f);
    fray_towers_event_narrate(f, n - 1, buf, sizeof buf);
    return buf;
}

static const ft_cstate *cs(const fray_towers_fight *f, int i) {
    return &f->st.c[i];
}

/* 000 "STUN Damage": the GM's set and adjust change STUN and LETHAL, say
 * it ("The GM sets Bandit 1's STUN to 12 (was 16)."), move no clock,
 * count as no action, undo, and replay. */
Test(towers_gm, set_and_adjust_say_undo_and_replay) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    int phase = f->st.phase, n = fray_towers_fight_events(f);
    int tony_phase = cs(f, TONY)->phase;
    gm(f, "gm set bandit-1 stun 12");
    cr_expect_eq(cs(f, B1)->stun, 12);
    cr_expect(strstr(last_told(f), "The GM sets Bandit 1's STUN to 12 (was "
                                    "16).") != NULL, "%s", last_told(f));
    gm(f, "gm adjust bandit-1 lethal -2");
    cr_expect_eq(cs(f, B1)->lethal, 8);
    cr_expect(strstr(last_told(f), "The GM adjusts Bandit 1's LETHAL by -2, "
                                    "to 8 (was 10).") != NULL, "%s",
              last_told(f));
    gm(f, "gm set tony temp-stun 5");
    cr_expect_eq(cs(f, TONY)->temp_stun, 5);
    /* No turn taken, no clock moved, no action counted. */
    cr_expect_eq(f->st.phase, phase);
    cr_expect_eq(cs(f, TONY)->phase, tony_phase);
    cr_expect_eq(cs(f, B1)->actions, 0);
    cr_expect_eq(cs(f, TONY)->actions, 0);
    cr_expect_eq(fray_towers_fight_events(f), n + 3);
    tf_replays_same(s, f);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect_eq(cs(f, TONY)->temp_stun, 0);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect_eq(cs(f, B1)->lethal, 10);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect_eq(cs(f, B1)->stun, 16);
    cr_assert_eq(fray_towers_fight_redo(f), FRAY_OK);
    cr_expect_eq(cs(f, B1)->stun, 12);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* 000 "STUN Damage", "LETHAL Damage"; RULINGS 16, 17: status follows the
 * numbers the GM sets: 0 STUN unconscious and prone, STUN above 0 wakes;
 * LETHAL 0 disabled (and unconscious); LETHAL at -2 x [[E]] dead. */
Test(towers_gm, status_follows_the_numbers) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "gm join bandit-2 at 7,2"); /* (so that the Bandits stand on) */
    gm(f, "gm set bandit-1 stun 0");
    cr_expect(cs(f, B1)->flags & FT_F_UNCONSCIOUS);
    cr_expect(ft_cond_has(&f->st, B1, FT_COND_PRONE));
    cr_expect(strstr(last_told(f), "Bandit 1 falls unconscious") != NULL);
    gm(f, "gm adjust bandit-1 stun +4");
    cr_expect_eq(cs(f, B1)->stun, 4);
    cr_expect(!(cs(f, B1)->flags & FT_F_UNCONSCIOUS), "STUN above 0 wakes");
    cr_expect(ft_cond_has(&f->st, B1, FT_COND_PRONE), "still prone");
    gm(f, "gm set bandit-1 lethal 0");
    cr_expect(cs(f, B1)->flags & FT_F_DISABLED);
    cr_expect(cs(f, B1)->flags & FT_F_UNCONSCIOUS);
    gm(f, "gm set bandit-1 lethal -3");
    cr_expect(cs(f, B1)->flags & FT_F_DYING);
    cr_expect(!(cs(f, B1)->flags & FT_F_DEAD));
    gm(f, "gm set bandit-1 lethal -4");
    cr_expect(cs(f, B1)->flags & FT_F_DEAD, "dead at -2 x [[E]] = -4");
    refused(f, "gm set bandit-1 lethal 5", "the dead stay dead");
    /* "STUN cannot drop lower than 0"; never above the maximum. */
    refused(f, "gm set tony stun -1", "must be 0 to 24");
    refused(f, "gm set tony stun 25", "must be 0 to 24");
    refused(f, "gm adjust tony lethal +1", "must be -30000 to 11");
    refused(f, "gm set tony luck 3", "expected stun, lethal");
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* rules-facts.md "Conditions": the GM adds a condition with its X and
 * ends it; with "for N" it ends at the end of the combatant's Nth
 * activation from now (src/core/cond.h durations). */
Test(towers_gm, conditions_on_and_off) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "gm condition tony bleeding 2");
    cr_expect(ft_cond_has(&f->st, TONY, FT_COND_BLEEDING));
    cr_expect_eq(cs(f, TONY)->cond[0].value, 2);
    cr_expect(strstr(last_told(f), "The GM makes Tony bleeding 2.") != NULL,
              "%s", last_told(f));
    gm(f, "gm condition tony bleeding off");
    cr_expect(!ft_cond_has(&f->st, TONY, FT_COND_BLEEDING));
    cr_expect(strstr(last_told(f), "The GM ends Tony's bleeding.") != NULL);
    refused(f, "gm condition tony bleeding", "needs its X");
    refused(f, "gm condition tony prone 2", "has no X");
    refused(f, "gm condition tony dazed off", "Tony is not dazed");
    refused(f, "gm condition tony grappled", "needs a grappler");
    refused(f, "gm condition tony sleepy", "expected a condition");
    /* Dazed until the end of Tony's next activation. */
    gm(f, "gm condition tony dazed for 1");
    cr_expect(ft_cond_has(&f->st, TONY, FT_COND_DAZED));
    gm(f, "next");
    gm(f, "tony aim");
    cr_expect(!ft_cond_has(&f->st, TONY, FT_COND_DAZED),
              "ends with Tony's activation");
    tf_replays_same(s, f);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect(ft_cond_has(&f->st, TONY, FT_COND_DAZED));
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* 000 "Entering Combat and Initiative": one who joins later is off the
 * clock and the map (no Initiative at the start); brought in, it flips
 * <N> cards (by hand here: a King), CI = 13 + <N> 1 = 14, and acts
 * 20 - 14 = 6 phases after the phase it enters in; then it acts. */
Test(towers_gm, joined_combatant_gets_an_initiative_and_acts) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    cr_expect(cs(f, B2)->flags & FT_F_WAITING);
    cr_expect(cs(f, B2)->flags & FT_F_FLED);
    refused(f, "gm set bandit-2 stun 3", "has not joined the fight yet");
    refused(f, "tony attack bandit-2", "");
    refused(f, "gm join bandit-1 at 7,2", "already in the fight");
    refused(f, "gm join bandit-2 at 4,2", "wall there");
    refused(f, "gm join bandit-2 at 3,1", "Bandit 1 is there");
    gm(f, "next"); /* the clock moves on to Tony's phase 4 */
    int now = f->st.phase;
    /* A King that is not held in the GM's Hand of Fate. */
    fray_card held[8];
    size_t nh = fray_towers_fight_hand(f, "bandit-2", held, 8);
    static const char *const kings[] = {"KS", "KH", "KD", "KC"};
    fray_card k = tf_card("KS");
    for (int i = 0; i < 4; i++) {
        k = tf_card(kings[i]);
        bool in = false;
        for (size_t h = 0; h < nh; h++)
            in = in || held[h] == k;
        if (!in)
            break;
    }
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, "gm join bandit-2 at 7,2", &k,
                                           1, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(!(cs(f, B2)->flags & (FT_F_WAITING | FT_F_FLED)));
    cr_expect_eq(cs(f, B2)->ci, 14);
    cr_expect_eq(cs(f, B2)->phase, now + 6);
    cr_expect_eq(cs(f, B2)->pos.x, 7);
    cr_expect_eq(cs(f, B2)->pos.y, 2);
    cr_expect(strstr(last_told(f), "Calculated Initiative 14") != NULL,
              "%s", last_told(f));
    tf_replays_same(s, f);
    /* It acts: the tactics play until Bandit 2 has taken an action. */
    for (int i = 0; i < 40 && cs(f, B2)->actions == 0 &&
                    !fray_towers_fight_over(f);
         i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    cr_expect_gt(cs(f, B2)->actions, 0);
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The GM may give the phase of entry instead of the flip. */
Test(towers_gm, join_in_a_given_phase) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "gm join bandit-2 at 7,2 phase 9");
    cr_expect_eq(cs(f, B2)->phase, 9);
    cr_expect(strstr(last_told(f), "acts in phase 9") != NULL);
    /* It acts in phase 9: the clock comes to it there. */
    for (int i = 0; i < 20 && cs(f, B2)->actions == 0 &&
                    !fray_towers_fight_over(f);
         i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    cr_expect_gt(cs(f, B2)->actions, 0);
    cr_expect_eq(f->st.phase, 9);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* A combatant brought in goes behind whoever already acts in its phase
 * (gm.c: "like a zero-cost action's place"; fray's reading of a late
 * entry): brought in to act in the phase of someone already on the
 * clock, it acts after that one. (Its slot used to be a small counter,
 * below every tie-order slot: it went first.) */
Test(towers_gm, a_joiner_acts_after_those_already_in_its_phase) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    int first = ft_next_actor(&f->st);
    cr_assert_geq(first, 0);
    int p = cs(f, first)->phase;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "gm join bandit-2 at 7,2 phase %d", p);
    gm(f, cmd);
    cr_expect_eq(cs(f, B2)->phase, p);
    cr_expect_eq(ft_next_actor(&f->st), first, "the one already in phase %d",
                 p);
    cr_expect_gt(cs(f, B2)->slot, cs(f, first)->slot);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* A fled combatant is off the map and the clock, and its side may lose
 * by it; undo brings it back. */
Test(towers_gm, fled_is_off_the_map_and_the_clock) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "gm join bandit-2 at 7,2 phase 9");
    gm(f, "gm flee bandit-1");
    cr_expect(cs(f, B1)->flags & FT_F_FLED);
    cr_expect(strstr(last_told(f), "Bandit 1 leaves the fight") != NULL);
    for (int i = 0; i < 30 && !fray_towers_fight_over(f); i++) {
        cr_expect_neq(ft_next_actor(&f->st), B1);
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    }
    cr_expect_eq(cs(f, B1)->actions, 0);
    /* Off the map: someone may now stand where it stood (3,1), and the
     * map does not draw it. */
    fray_towers_fight *h = tf_fight(s, 3);
    gm(h, "gm join bandit-2 at 7,2 phase 9");
    gm(h, "gm flee bandit-1");
    gm(h, "gm place tony 3,1");
    char map[4096];
    fray_towers_draw_map(h, map, sizeof map);
    cr_expect(strstr(map, "Bandit 1  Bandits  off the map, fled") != NULL,
              "%s", map);
    cr_expect(strstr(map, "\n1 ...T......\n") != NULL, "%s", map);
    fray_towers_fight_free(h);
    fray_towers_fight *g = tf_fight(s, 3);
    gm(g, "gm flee bandit-1");
    /* (issue 7: Bandit 2, waiting to join, keeps the Bandits in.) */
    cr_expect(!fray_towers_fight_over(g), "Bandit 2 has yet to join");
    gm(g, "gm flee bandit-2");
    cr_expect(fray_towers_fight_over(g), "the Bandits have nobody left");
    tf_replays_same(s, g);
    cr_assert_eq(fray_towers_fight_undo(g), FRAY_OK);
    cr_expect(!fray_towers_fight_over(g));
    cr_assert_eq(fray_towers_fight_undo(g), FRAY_OK);
    cr_expect(!(cs(g, B1)->flags & FT_F_FLED));
    fray_towers_fight_free(g);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The GM's place (knockback, the GM's word): no opportunity attacks, no
 * cost; refused into a wall, off the map or into an occupied space. */
Test(towers_gm, place_moves_and_refuses_walls) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    refused(f, "gm place tony 4,2", "wall there");
    refused(f, "gm place tony 5,2", "wall there");
    refused(f, "gm place tony 3,1", "Bandit 1 is there");
    refused(f, "gm place tony 10,1", "");
    refused(f, "gm place tony 1,1", "already stands");
    int phase = cs(f, TONY)->phase;
    /* Tony stands next to Bandit 1: leaving its reach would provoke. */
    gm(f, "gm place tony 0,4");
    cr_expect_eq(cs(f, TONY)->pos.x, 0);
    cr_expect_eq(cs(f, TONY)->pos.y, 4);
    cr_expect_eq(cs(f, TONY)->phase, phase);
    cr_expect(strstr(last_told(f), "The GM places Tony at (0,4)") != NULL);
    cr_expect(strstr(last_told(f), "opportunity attack on") == NULL);
    tf_replays_same(s, f);
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    cr_expect_eq(cs(f, TONY)->pos.x, 1);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The words: a bad GM command says what was expected. */
Test(towers_gm, words_at_the_table) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    refused(f, "gm", "expected one of the GM's commands (gm set ID");
    refused(f, "gm dance tony", "expected one of the GM's commands");
    refused(f, "gm set nobody stun 3", "expected a combatant's id");
    refused(f, "gm set tony stun many", "expected a number");
    refused(f, "gm adjust tony stun", "expected a change");
    refused(f, "gm place tony", "expected a space as X,Y");
    refused(f, "gm flee tony now", "expected nothing more");
    refused(f, "gm join bandit-2", "expected where it enters: 'at X,Y' (it "
                                   "has no place in the file)");
    refused(f, "gm join bandit-2 at 7,2 phase", "expected a phase");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* The JSON of a GM's event names its fields, and a journal line with
 * them replays (docs/journal.md). */
Test(towers_gm, json_fields) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "gm adjust bandit-1 stun -3");
    gm(f, "gm condition tony burning 1 for 2");
    gm(f, "gm join bandit-2 at 7,2 phase 12");
    char *j = tf_journal(f);
    cr_expect(strstr(j, "\"action\":\"gm-set\",\"actor\":\"bandit-1\","
                        "\"gm_track\":1,\"gm_adjust\":true,\"gm_value\":-3") !=
                  NULL, "%s", j);
    cr_expect(strstr(j, "\"gm_condition\":2,\"gm_count\":2") != NULL, "%s", j);
    cr_expect(strstr(j, "\"gm_phase\":12") != NULL, "%s", j);
    cr_expect(strstr(j, "{\"fact\":\"gm\",\"who\":\"bandit-1\",\"action\":"
                        "\"gm-set\",\"track\":\"stun\",\"now\":13,\"was\":16}") !=
                  NULL, "%s", j);
    cr_expect(strstr(j, "{\"fact\":\"gm\",\"who\":\"tony\",\"action\":"
                        "\"gm-condition\",\"condition\":\"burning\",\"on\":true,"
                        "\"x\":1}") != NULL, "%s", j);
    cr_expect(strstr(j, "\"action\":\"gm-join\",\"initiative\":false,"
                        "\"phase\":12,\"from_phase\":0}") != NULL, "%s", j);
    free(j);
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Loads an encounter written in `text` (through a file). */
static fray_status load_text(const char *text, fray_towers_setup **s,
                             fray_diag *d) {
    char path[] = "/tmp/fray_gm_XXXXXX";
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
    "statblocks: [" FRAY_SOURCE_DIR "/examples/towers/statblocks.yaml]\n"     \
    "sides: [a, b]\n"

/* load.c: "joins" is start or later. */
Test(towers_gm, joins_key_is_checked) {
    fray_towers_setup *s;
    fray_diag d;
    cr_expect_neq(load_text(HEAD "combatants:\n"
                                 "  - {id: t, statblock: Bandit, side: a}\n"
                                 "  - {id: u, statblock: Bandit, side: b, "
                                 "joins: soon}\n",
                            &s, &d),
                  FRAY_OK);
    cr_expect_eq(d.line, 9, "%d: %s", d.line, d.message);
    cr_expect(strstr(d.message, "joins") != NULL, "%s", d.message);
    if (s)
        fray_towers_setup_free(s);
}

/* load.c and gm.c: "gm-answers: {skill-dtn: ...}": by skill name (any
 * case), "default" for any other skill, "none" for no DTN; a DTN out of
 * 1-100 is refused on its line. */
Test(towers_gm, gm_answers_in_the_file) {
    fray_towers_setup *s;
    fray_diag d;
    cr_assert_eq(load_text(HEAD "gm-answers:\n"
                                "  skill-dtn: {stealth: none, default: 11}\n"
                                "combatants:\n"
                                "  - {id: t, statblock: Bandit, side: a}\n"
                                "  - {id: u, statblock: Bandit, side: b}\n",
                           &s, &d),
                 FRAY_OK, "%d: %s", d.line, d.message);
    ft_command c = tf_cmd(FT_ACT_USE_SKILL, 0);
    c.skill = 0; /* Stealth */
    c.dtn = 5;
    cr_expect_eq(ft_gm_ask_dtn(&s->s, &c, &d), FRAY_OK);
    cr_expect_eq(c.dtn, 0, "none: a flip with no DTN");
    ft_setup copy = s->s;
    snprintf(copy.c[0].sb.skills[0].name, FT_NAME, "Climbing");
    cr_expect_eq(ft_gm_ask_dtn(&copy, &c, &d), FRAY_OK);
    cr_expect_eq(c.dtn, 11, "the default");
    fray_towers_setup_free(s);
    cr_expect_neq(load_text(HEAD "gm-answers:\n"
                                 "  skill-dtn: {stealth: 101}\n"
                                 "combatants:\n"
                                 "  - {id: t, statblock: Bandit, side: a}\n",
                            &s, &d),
                  FRAY_OK);
    cr_expect_eq(d.line, 8, "%d: %s", d.line, d.message);
    cr_expect(strstr(d.message, "DTN") != NULL, "%s", d.message);
    if (s)
        fray_towers_setup_free(s);
}

/* Seed 001: the DTN of a skill flip is the GM's call. At the table a Use
 * a Skill without one is refused with the question and how to answer it
 * (nothing happens); "answer 12" (the next line) or "dtn 12" on the
 * command answers it, "dtn none" flips with no DTN,
 * and the encounter's "gm-answers: {skill-dtn: {Stealth: 14}}" answers
 * Bandit 1's Stealth in advance. */
Test(towers_gm, the_dtn_question_is_asked_and_answered) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "next");
    refused(f, "answer 12", "no GM's question waits for an answer");
    refused(f, "tony use-skill acrobatics cost 3",
            "the GM's question: the DTN for Tony's Acrobatics? Answer with "
            "'answer 15' ('answer none': a flip with no DTN), or 'dtn 15' on "
            "the command, or in the encounter file ('gm-answers: {skill-dtn: "
            "{Acrobatics: 15}}')");
    refused(f, "answer 101", "expected the answer: a DTN of 1-100 or none");
    gm(f, "answer 12"); /* the question's command, with dtn 12 */
    cr_expect_eq(f->st.c[TONY].actions, 1);
    refused(f, "answer 12", "no GM's question waits for an answer");
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    gm(f, "tony use-skill acrobatics cost 3 dtn 12");
    cr_expect(strstr(last_told(f), ", succeeds") ||
              strstr(last_told(f), ", fails"), "%s", last_told(f));
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    gm(f, "tony use-skill acrobatics cost 3 dtn none");
    cr_expect(!strstr(last_told(f), ", succeeds") &&
              !strstr(last_told(f), ", fails"), "%s", last_told(f));
    /* Bandit 1's turn: its Stealth DTN comes from the file. */
    for (int i = 0; i < 10 && ft_next_actor(&f->st) != B1; i++)
        cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
    if (f->st.c[B1].phase > f->st.phase)
        gm(f, "next");
    gm(f, "bandit-1 use-skill stealth cost 3");
    cr_expect(strstr(last_told(f), ", succeeds") ||
              strstr(last_told(f), ", fails"), "%s", last_told(f));
    char *j = tf_journal(f);
    cr_expect(strstr(j, "\"skill\":0,\"dtn\":14") != NULL, "%s", j);
    free(j);
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Issue 13, "Cards by hand": too few cards are refused with the total the
 * whole action needs and from whose deck (Tony's attack flip 3 from his
 * own deck, flat-footed Bandit 1's defense flip 2 from the GM's: at least
 * 5, more if a Hand of Fate card is reflipped); a card
 * held in a Hand of Fate, or already in play, is refused for that reason,
 * naming the deck. */
Test(towers_gm, cards_needed_in_all_and_from_whose_deck) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "next");
    fray_card one = tf_card("KH");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(f, "tony attack bandit-1", &one, 1,
                                           &d),
                 FRAY_ERR_DECK_EMPTY);
    cr_expect_str_eq(d.message,
                     "too few cards: this action needs at least 5 in all, 1 "
                     "was given: the attack flip 3 from Tony's deck, the "
                     "defense flip 2 from the GM's deck");
    fray_card held[8];
    size_t nh = fray_towers_fight_hand(f, "tony", held, 8);
    cr_assert_gt(nh, 0);
    fray_card cards[6] = {held[0], tf_card("2C"), tf_card("3C"),
                          tf_card("4S"), tf_card("5S"), tf_card("6S")};
    char name[16], want[160];
    snprintf(want, sizeof want, "%s is not available for the attack flip "
             "from Tony's deck: it is held in a Hand of Fate",
             fray_card_format(held[0], FRAY_CARD_PLAIN, name));
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(f, "tony attack bandit-1", cards, 6,
                                           &d),
                 FRAY_ERR_CARD_UNAVAILABLE);
    cr_expect(strstr(d.message, want) != NULL, "%s", d.message);
    cards[0] = tf_card("2C");
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_fight_command(f, "tony attack bandit-1", cards, 6,
                                           &d),
                 FRAY_ERR_CARD_UNAVAILABLE);
    cr_expect(strstr(d.message, "2C is not available for the attack flip from "
                                "Tony's deck: it is already in play") != NULL,
              "%s", d.message);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Brings Bandit 2 in by an Initiative flip of a King not held (CI 13 +
 * <N> 1 = 14) in the fight's current phase. */
static void join_with_a_king(fray_towers_fight *f) {
    fray_card held[8];
    size_t nh = fray_towers_fight_hand(f, "bandit-2", held, 8);
    static const char *const kings[] = {"KS", "KH", "KD", "KC"};
    fray_card k = tf_card("KS");
    for (int i = 0; i < 4; i++) {
        k = tf_card(kings[i]);
        bool in = false;
        for (size_t h = 0; h < nh; h++)
            in = in || held[h] == k;
        if (!in)
            break;
    }
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, "gm join bandit-2 at 7,2", &k,
                                           1, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(cs(f, B2)->ci, 14);
}

/* Option join-initiative (fray's reading; seed 000 "Entering Combat and
 * Initiative" is silent on one entering mid-fight): entry (the default),
 * 20 - CI phases after the phase it enters in; at-start, in phase 20 - CI
 * as if it had flipped at the start, but never before the phase it
 * enters in. */
Test(towers_gm, option_join_initiative) {
    fray_towers_setup *s = setup_of();
    cr_expect_eq(s->s.opt.join_initiative, FT_JOIN_FROM_ENTRY);
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "next"); /* phase 4 */
    cr_assert_eq(f->st.phase, 4);
    join_with_a_king(f);
    cr_expect_eq(cs(f, B2)->phase, 4 + 6, "entry: 6 phases after phase 4");
    fray_towers_fight_free(f);

    fray_towers_setup *a = NULL;
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &a), FRAY_OK);
    a->s.opt.join_initiative = FT_JOIN_AS_AT_START;
    f = tf_fight(a, 3);
    gm(f, "next");
    join_with_a_king(f);
    cr_expect_eq(cs(f, B2)->phase, 6, "at-start: phase 20 - 14");
    fray_towers_fight_free(f);
    /* Entering in phase 7 (after Tony's Aim, Bandit 1's turn): not before
     * now. */
    f = tf_fight(a, 3);
    gm(f, "next");
    gm(f, "tony aim");
    gm(f, "next");
    cr_assert_eq(f->st.phase, 7);
    join_with_a_king(f);
    cr_expect_eq(cs(f, B2)->phase, 7, "at-start: not before phase 7");
    fray_towers_fight_free(f);
    fray_towers_setup_free(a);

    /* Set by a sweep (fray sim --vary join-initiative=...): */
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &a), FRAY_OK);
    fray_diag vd;
    memset(&vd, 0, sizeof vd);
    cr_expect_eq(fray_towers_setup_vary(a, "join-initiative", "at-start", &vd),
                 FRAY_OK, "%s", vd.message);
    cr_expect_eq(a->s.opt.join_initiative, FT_JOIN_AS_AT_START);
    cr_expect_eq(fray_towers_setup_vary(a, "join-initiative", "entry", &vd),
                 FRAY_OK, "%s", vd.message);
    cr_expect_eq(a->s.opt.join_initiative, FT_JOIN_FROM_ENTRY);
    cr_expect_neq(fray_towers_setup_vary(a, "join-initiative", "soon", &vd),
                  FRAY_OK);
    cr_expect(strstr(vd.message, "join-initiative") != NULL, "%s",
              vd.message);
    fray_towers_setup_free(a);
    fray_towers_setup_free(s);

    /* Read from options: */
    fray_diag d;
    cr_assert_eq(load_text(HEAD "options: {join-initiative: at-start}\n"
                                "combatants:\n"
                                "  - {id: t, statblock: Bandit, side: a}\n"
                                "  - {id: u, statblock: Bandit, side: b}\n",
                           &s, &d),
                 FRAY_OK, "%d: %s", d.line, d.message);
    cr_expect_eq(s->s.opt.join_initiative, FT_JOIN_AS_AT_START);
    fray_towers_setup_free(s);
    cr_expect_neq(load_text(HEAD "options: {join-initiative: later}\n"
                                 "combatants:\n"
                                 "  - {id: t, statblock: Bandit, side: a}\n",
                            &s, &d),
                  FRAY_OK);
    cr_expect(strstr(d.message, "join-initiative") != NULL, "%s", d.message);
    if (s)
        fray_towers_setup_free(s);
}

/* Seed 001: the GM decides the flip mods and shifts of a skill flip:
 * "flip +1 shift -2" on Tony's Acrobatics (rank 1): 2 cards, 9 of clubs
 * kept, -2, + SS 2 = 9 against DTN 9: succeeds; told as the GM's call;
 * replays. */
Test(towers_gm, the_gms_mods_on_a_skill_flip) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "next");
    fray_card cards[2] = {tf_card("9C"), tf_card("2D")};
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(
                     f, "tony use-skill acrobatics cost 3 dtn 9 flip +1 "
                        "shift -2",
                     cards, 2, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(last_told(f), "(2 cards; (shift-2)(flip+1) the GM's "
                                    "call)") != NULL, "%s", last_told(f));
    cr_expect(strstr(last_told(f), "= 9 (SS 2), succeeds") != NULL, "%s",
              last_told(f));
    char *j = tf_journal(f);
    cr_expect(strstr(j, "\"gm_flip\":1,\"gm_shift\":-2") != NULL, "%s", j);
    free(j);
    tf_replays_same(s, f);
    refused(f, "tony use-skill acrobatics cost 3 dtn 9 flip 11",
            "expected the GM's mods");
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* gm join without 'at': where the file placed the one that joins later
 * (its `at:`), written into the command (the journal's dest) so that it
 * replays. */
Test(towers_gm, join_at_the_files_place) {
    fray_towers_setup *s;
    fray_diag d;
    cr_assert_eq(load_text(HEAD "map:\n"
                                "  art: |\n"
                                "    .....\n"
                                "    .....\n"
                                "combatants:\n"
                                "  - {id: t, statblock: Bandit, side: a, "
                                "at: [0, 0]}\n"
                                "  - {id: v, statblock: Bandit, side: b, "
                                "at: [4, 0]}\n"
                                "  - {id: u, statblock: Bandit, side: b, "
                                "at: [3, 1], joins: later}\n",
                           &s, &d),
                 FRAY_OK, "%d: %s", d.line, d.message);
    fray_towers_fight *f = tf_fight(s, 3);
    cr_expect(cs(f, 2)->flags & FT_F_WAITING);
    gm(f, "gm join u phase 5");
    cr_expect_eq(cs(f, 2)->pos.x, 3);
    cr_expect_eq(cs(f, 2)->pos.y, 1);
    cr_expect_eq(cs(f, 2)->phase, 5);
    char *j = tf_journal(f);
    cr_expect(strstr(j, "\"action\":\"gm-join\",\"actor\":\"u\",\"dest\":[3,1]") !=
                  NULL, "%s", j);
    free(j);
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* 000 "Hold": "If there is a situation where two or more people are
 * waiting with Hold actions and no one wants to be the first to act, they
 * can all be forced to take the Delay action. This is up to the GM's
 * discretion." A GM's command that leaves nobody on the clock while
 * someone holds (here Bandit 1 knocked out while Tony holds, Bandit 2 not
 * yet in) asks that call, as an action does; before, the clock was left
 * empty and the fight could not go on ("nobody is left to act"). */
Test(towers_gm, a_gm_command_that_empties_the_clock_asks_about_the_holders) {
    fray_towers_setup *s = setup_of();
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, "next");
    gm(f, "tony hold");
    cr_assert(cs(f, TONY)->flags & FT_F_HOLDING);
    refused(f, "gm set bandit-1 stun 0", "everyone holds, nobody is on the "
            "clock");
    gm(f, "answer delay");
    cr_expect(!(cs(f, TONY)->flags & FT_F_HOLDING));
    cr_expect_eq(cs(f, TONY)->phase, f->st.phase + 5, "a Forced Delay");
    cr_expect_eq(ft_next_actor(&f->st), TONY);
    tf_replays_same(s, f);
    /* On the command itself, and the other answer: he acts now. */
    cr_assert_eq(fray_towers_fight_undo(f), FRAY_OK);
    gm(f, "gm set bandit-1 stun 0 all-hold first");
    cr_expect(!(cs(f, TONY)->flags & FT_F_HOLDING));
    cr_expect_eq(ft_next_actor(&f->st), TONY);
    tf_replays_same(s, f);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

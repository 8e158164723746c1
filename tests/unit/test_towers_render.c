/*
 * test_towers_render.c - narration, JSON Lines, the Combat Clock and the
 * map drawn from hand-built events and states (seed 000 "Time Scales",
 * "Attacking and Defending", "Damage"; RULINGS 8; docs/journal.md).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"

/* <PA> 3, <PD> 2, <PX> 2, <SPD> 5, [[E]] 2 (16 STUN, 10 LETHAL). */
static const tf_stats render_stats = {.pa = 3, .pd = 2, .px = 2, .spd = 5,
                                      .endurance = 2, .max_stun = 16,
                                      .max_lethal = 10};

static int add(fixture *f, const char *id, const char *name, char symbol,
               int side, int x, int y) {
    int i = tf_add(f, id, side, x, y, &render_stats,
                   tf_weapon("longblade", 1, 4, false, 1));
    ft_combatant *c = &f->s.c[i];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->symbol = symbol;
    /* The state as a fight would have it. */
    ft_cstate *cs = &f->st.c[i];
    memset(cs, 0, sizeof *cs);
    cs->stun = 16;
    cs->lethal = 10;
    cs->pos = c->start;
    cs->wielded[0] = 0;
    cs->wielded[1] = -1;
    cs->grappled_by = -1;
    f->st.n = f->s.n_combatants;
    return i;
}

static fixture *fixture_new(void) {
    fixture *f = tf_new(8, 5);
    f->s.opt.opportunity_delay = 3;
    snprintf(f->s.sides[0], FT_NAME, "Heroes");
    snprintf(f->s.sides[1], FT_NAME, "Bandits");
    add(f, "tony", "Tony \"Wrongway\" Wright", 'T', 0, 1, 1);
    add(f, "bandit-1", "Bandit 1", 'B', 1, 2, 1);
    f->st.winner = -1;
    return f;
}

static ft_fact *fact(fixture *f, ft_fact_kind kind, int who, int target) {
    ft_fact *x = &f->ev.facts[f->ev.n_facts++];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->who = (int8_t)who;
    x->target = (int8_t)target;
    return x;
}

static void cards(ft_fact *x, const char *list) {
    fray_card c[12];
    size_t n = 0;
    cr_assert_eq(fray_card_parse_list(list, c, 12, &n, NULL), FRAY_OK);
    for (size_t i = 0; i < n; i++)
        x->cards[i] = c[i];
    x->n_cards = (uint8_t)n;
}

/* The seed's Tony attacks a bandit with his longblade from high ground in
 * phase 5: attack K♥ 7♣ 4♦ keeps the King, (shift+1): 14 against the
 * defense 9♠ 2♥: 9. A hit with one Heart, a critical: 6 STUN, 1 LETHAL. */
static void attack_event(fixture *f) {
    ft_event *ev = &f->ev;
    memset(ev, 0, sizeof *ev);
    ev->number = 3;
    ev->phase = 5;
    ev->cmd = tf_cmd(FT_ACT_ATTACK, 0);
    ev->cmd.target = 1;
    ft_fact *x = fact(f, FT_FACT_ACT, 0, 1);
    x->v[0] = FT_ACT_ATTACK;
    x->v[1] = 5;
    x->v[2] = 10;
    x = fact(f, FT_FACT_MODIFIER, 0, -1);
    x->v[0] = 1;
    snprintf(x->text, sizeof x->text, "high ground");
    x = fact(f, FT_FACT_FLIP, 0, -1);
    x->v[0] = FT_FLIP_ATTACK;
    x->v[1] = 14;
    x->v[2] = 3;
    x->v[3] = 13;
    cards(x, "KH 7C 4D");
    x = fact(f, FT_FACT_FLIP, 1, -1);
    x->v[0] = FT_FLIP_DEFENSE;
    x->v[1] = 9;
    x->v[2] = 2;
    x->v[3] = 9;
    cards(x, "9S 2H");
    x = fact(f, FT_FACT_HIT, 0, 1);
    x->v[0] = 14;
    x->v[1] = 9;
    x->v[2] = 1;
    x->v[3] = 1;
    x = fact(f, FT_FACT_DAMAGE, -1, 1);
    x->v[0] = 6;
    x->v[1] = 1;
    x->v[2] = 10;
    x->v[3] = 9;
    /* Every card turned over, with its deck. */
    const char *all[] = {"KH", "7C", "4D", "9S", "2H"};
    for (int i = 0; i < 5; i++) {
        fray_card c;
        cr_assert_eq(fray_card_parse(all[i], &c, NULL), FRAY_OK);
        ev->cards[i] = c;
        ev->card_deck[i] = (uint8_t)(i < 3 ? 0 : 1);
    }
    ev->n_cards = 5;
}

/* Seed 000 "Attacking and Defending", "Critical Hits", "Damage": the
 * narration tells the phase, the action in rules words, every card, the
 * modifier, the totals and the STUN and LETHAL left. */
Test(towers_render, narration_of_an_attack) {
    fixture *f = fixture_new();
    attack_event(f);
    size_t n = ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_assert_eq(n, strlen(f->buf));
    const char *want[] = {
        "Phase 5, round 1 — Tony \"Wrongway\" Wright: Attack on Bandit 1 "
        "with the longblade (5 phases: next action phase 10)",
        "attack flip (3 cards; (shift+1) high ground): K♥ 7♣ 4♦, keeps K♥ "
        "(13) +1 = 14",
        "Bandit 1's defense flip (2 cards): 9♠ 2♥, keeps 9♠ = 9",
        "hit: 14 against 9, critical (1 Heart)",
        "Bandit 1 takes 6 STUN and 1 LETHAL; 10/16 STUN, 9/10 LETHAL left",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(f->buf, want[i]) != NULL, "missing \"%s\" in:\n%s",
                  want[i], f->buf);
    /* Rules words only: no code names. */
    cr_expect(strstr(f->buf, "FT_") == NULL && strstr(f->buf, "power-attack") == NULL);
    free(f);
}

/* RULINGS 15, seed "Zero Phases": a zero phase with a dying combatant
 * narrates the phase and the LETHAL lost; a bare step of the clock
 * narrates as nothing. */
Test(towers_render, zero_phase_and_bare_step) {
    fixture *f = fixture_new();
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd.action = FT_CMD_PHASE;
    f->ev.cmd.actor = -1;
    f->ev.cmd.target = -1;
    ft_fact *x = fact(f, FT_FACT_PHASE, -1, -1);
    x->v[0] = 12;
    x->v[1] = 0;
    size_t n = ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect_eq(n, 0);
    f->ev.n_facts = 0;
    x = fact(f, FT_FACT_PHASE, -1, -1);
    x->v[0] = 10;
    x->v[1] = 1;
    x = fact(f, FT_FACT_DAMAGE, -1, 1);
    x->v[1] = 1;
    x->v[2] = 0;
    x->v[3] = -1;
    x = fact(f, FT_FACT_PHASE, -1, -1);
    x->v[0] = 12;
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "Phase 10 (zero phase):\n") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "Bandit 1 loses 1 LETHAL; 0/16 STUN, -1/10 "
                             "LETHAL left") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "Phase 12") == NULL, "%s", f->buf);
    free(f);
}

/* Seed 000 "Entering Combat and Initiative": Tony flips K♠ 4♦,
 * Calculated Initiative 15, acts first in phase 5. */
Test(towers_render, initiative_and_the_end) {
    fixture *f = fixture_new();
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd.action = FT_CMD_BEGIN;
    f->ev.cmd.actor = -1;
    ft_fact *x = fact(f, FT_FACT_FLIP, 0, -1);
    x->v[0] = FT_FLIP_INITIATIVE;
    x->v[1] = 13;
    x->v[2] = 2;
    x->v[3] = 13;
    cards(x, "KS 4D");
    x = fact(f, FT_FACT_INITIATIVE, 0, -1);
    x->v[0] = 15;
    x->v[1] = 5;
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "Initiative: Tony \"Wrongway\" Wright flips K♠ "
                             "4♦ — Calculated Initiative 15, acts first in "
                             "phase 5\n") != NULL, "%s", f->buf);
    /* The end of the fight. */
    f->ev.n_facts = 0;
    f->ev.cmd.action = FT_CMD_PHASE;
    x = fact(f, FT_FACT_PHASE, -1, -1);
    x->v[0] = 47;
    x = fact(f, FT_FACT_END, -1, -1);
    x->v[0] = 0;
    x->v[1] = 47;
    ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "Out of the fight: Bandits. Winner: Heroes, in "
                             "phase 47") != NULL, "%s", f->buf);
    free(f);
}

/* docs/journal.md: one JSON object on one line with the keys the replay
 * reads: "command" (action, actor, target), "cards" as [card, deck]
 * pairs, "choices" with integer kinds, and the facts. */
Test(towers_render, json_line_parses_with_documented_keys) {
    fixture *f = fixture_new();
    attack_event(f);
    ft_choice ch = {FT_CHOICE_FATE_SWAP, 0, 2, 40};
    f->ev.choices[f->ev.n_choices++] = ch;
    ft_fact *x = fact(f, FT_FACT_NOTE, 0, -1);
    snprintf(x->text, sizeof x->text, "say \"hi\"\\\n");
    size_t n = ft_render_event_json(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_assert_eq(n, strlen(f->buf));
    cr_expect(strchr(f->buf, '\n') == NULL, "one line");
    json_error_t err;
    json_t *o = json_loads(f->buf, 0, &err);
    cr_assert_not_null(o, "%s in %s", err.text, f->buf);
    cr_expect_eq(json_integer_value(json_object_get(o, "event")), 3);
    cr_expect_eq(json_integer_value(json_object_get(o, "phase")), 5);
    json_t *c = json_object_get(o, "command");
    cr_assert(json_is_object(c));
    cr_expect_str_eq(json_string_value(json_object_get(c, "action")), "attack");
    cr_expect_str_eq(json_string_value(json_object_get(c, "actor")), "tony");
    cr_expect_str_eq(json_string_value(json_object_get(c, "target")), "bandit-1");
    cr_expect_null(json_object_get(c, "weapon"), "the default is left out");
    json_t *cs = json_object_get(o, "cards");
    cr_assert(json_is_array(cs));
    cr_assert_eq(json_array_size(cs), 5);
    cr_expect_str_eq(json_string_value(json_array_get(json_array_get(cs, 0), 0)), "KH");
    cr_expect_eq(json_integer_value(json_array_get(json_array_get(cs, 3), 1)), 1);
    json_t *chs = json_object_get(o, "choices");
    cr_assert_eq(json_array_size(chs), 1);
    json_t *c0 = json_array_get(chs, 0);
    cr_expect_eq(json_integer_value(json_object_get(c0, "kind")), FT_CHOICE_FATE_SWAP);
    cr_expect_str_eq(json_string_value(json_object_get(c0, "who")), "tony");
    cr_expect_eq(json_integer_value(json_object_get(c0, "a")), 2);
    cr_expect_eq(json_integer_value(json_object_get(c0, "b")), 40);
    json_t *fs = json_object_get(o, "facts");
    cr_assert(json_is_array(fs));
    json_t *flip = json_array_get(fs, 2);
    cr_expect_str_eq(json_string_value(json_object_get(flip, "fact")), "flip");
    cr_expect_str_eq(json_string_value(json_object_get(flip, "purpose")), "attack");
    cr_expect_eq(json_integer_value(json_object_get(flip, "total")), 14);
    json_t *note = json_array_get(fs, json_array_size(fs) - 1);
    cr_expect_str_eq(json_string_value(json_object_get(note, "text")),
                     "say \"hi\"\\\n", "escaped and read back");
    json_decref(o);
    free(f);
}

/* Renderings are snprintf-like: a short buffer holds the start of the
 * text, NUL-terminated, and the return is the whole length. */
Test(towers_render, short_buffers_never_overflow) {
    fixture *f = fixture_new();
    attack_event(f);
    size_t full = ft_render_event(&f->s, &f->ev, NULL, 0);
    cr_assert_gt(full, 20);
    char small[21];
    memset(small, 'x', sizeof small);
    size_t n = ft_render_event(&f->s, &f->ev, small, 20);
    cr_expect_eq(n, full);
    cr_expect_eq(strlen(small), 19);
    cr_expect_eq(small[20], 'x', "nothing written past size");
    size_t j = ft_render_event_json(&f->s, &f->ev, small, 20);
    cr_expect_eq(j, ft_render_event_json(&f->s, &f->ev, NULL, 0));
    cr_expect_eq(small[20], 'x');
    size_t m = ft_render_map(&f->s, &f->st, small, 20);
    cr_expect_eq(m, ft_render_map(&f->s, &f->st, NULL, 0));
    cr_expect_eq(small[20], 'x');
    free(f);
}

/* The line of the clock that starts with phase `first`. */
static const char *clock_row(const char *buf, int first) {
    char key[16];
    snprintf(key, sizeof key, "%5d |", first);
    return strstr(buf, key);
}

/* RULINGS 8: the 10x10 clock shows 100 phases from the current round; each
 * combatant's symbol sits in the cell of its next phase, the current phase
 * is marked. Cells are 6 characters: " T    ", now "[T   ]". */
Test(towers_render, clock_puts_symbols_in_their_cells) {
    fixture *f = fixture_new();
    f->st.phase = 5;
    f->st.c[0].phase = 10;
    f->st.c[1].phase = 17;
    ft_render_clock(&f->s, &f->st, f->buf, sizeof f->buf);
    const char *r0 = clock_row(f->buf, 0);
    const char *r10 = clock_row(f->buf, 10);
    cr_assert(r0 && r10, "%s", f->buf);
    const char *cells0 = r0 + 7, *cells10 = r10 + 7;
    cr_expect_eq(cells0[5 * 6], '[', "phase 5 is now:\n%s", f->buf);
    cr_expect_eq(cells10[0 * 6 + 1], 'T', "%s", f->buf);
    cr_expect_eq(cells10[7 * 6 + 1], 'B', "%s", f->buf);
    cr_expect(strstr(f->buf, "phase 10") != NULL);
    cr_expect(strstr(f->buf, "STUN 16/16") != NULL, "%s", f->buf);
    /* Round 3 starts at phase 20: the display moves with the round. */
    f->st.phase = 23;
    f->st.c[0].phase = 23;
    f->st.c[1].phase = 120;
    ft_render_clock(&f->s, &f->st, f->buf, sizeof f->buf);
    cr_expect_null(clock_row(f->buf, 0));
    const char *r20 = clock_row(f->buf, 20), *r120 = clock_row(f->buf, 110);
    cr_assert(r20 && r120, "%s", f->buf);
    cr_expect_eq(r20[7 + 3 * 6], '[');
    cr_expect_eq(r20[7 + 3 * 6 + 1], 'T');
    cr_expect(strstr(f->buf, "round 3: phases 20-119") != NULL, "%s", f->buf);
    /* Four in one phase: three symbols and '+'. */
    add(f, "c", "C", 'C', 1, 5, 3);
    add(f, "d", "D", 'D', 1, 6, 3);
    for (int i = 0; i < 4; i++)
        f->st.c[i].phase = 30;
    ft_render_clock(&f->s, &f->st, f->buf, sizeof f->buf);
    const char *r30 = clock_row(f->buf, 30);
    cr_assert_not_null(r30);
    cr_expect(strncmp(r30 + 7, " TBC+", 5) == 0, "%s", f->buf);
    free(f);
}

/* Seed 000 "Tactical Map": the map shows every combatant's symbol on its
 * space; the unconscious in the other letter case, the dead as '%'; a
 * legend. */
Test(towers_render, map_draws_tokens_and_legend) {
    fixture *f = fixture_new();
    f->s.map.terrain[3][4] = FRAY_TERRAIN_WALL;
    f->st.c[1].pos.x = 5;
    f->st.c[1].pos.y = 2;
    ft_render_map(&f->s, &f->st, f->buf, sizeof f->buf);
    /* Rows are "Y " then one character per space. */
    cr_expect(strstr(f->buf, "1 .T......\n") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "2 .....B..\n") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "3 ....#...\n") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "Bandit 1") != NULL);
    cr_expect(strstr(f->buf, "# wall") != NULL, "%s", f->buf);
    f->st.c[1].flags |= FT_F_UNCONSCIOUS;
    ft_render_map(&f->s, &f->st, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "2 .....b..\n") != NULL, "%s", f->buf);
    f->st.c[1].flags |= FT_F_DEAD;
    ft_render_map(&f->s, &f->st, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "2 .....%..\n") != NULL, "%s", f->buf);
    f->s.has_map = false;
    ft_render_map(&f->s, &f->st, f->buf, sizeof f->buf);
    cr_expect_str_eq(f->buf, "(no map)\n");
    free(f);
}

/* The summary: each side, each combatant's state, the winner and phase. */
Test(towers_render, summary_tells_the_winner) {
    fixture *f = fixture_new();
    f->st.over = true;
    f->st.winner = 0;
    f->st.phase = 47;
    f->st.c[0].actions = 7;
    f->st.c[0].stun_dealt = 22;
    f->st.c[0].lethal_dealt = 2;
    f->st.c[1].stun = 0;
    f->st.c[1].lethal = -1;
    f->st.c[1].flags = FT_F_UNCONSCIOUS | FT_F_DYING;
    ft_render_summary(&f->s, &f->st, FRAY_OK, f->buf, sizeof f->buf);
    cr_expect(strstr(f->buf, "Heroes\n") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "dealt 22 STUN, 2 LETHAL") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "Bandit 1") != NULL);
    cr_expect(strstr(f->buf, "dying") != NULL, "%s", f->buf);
    cr_expect(strstr(f->buf, "Winner: Heroes, in phase 47.") != NULL, "%s", f->buf);
    free(f);
}

/* docs/journal.md, RULINGS 7: a whole fight written as JSON Lines by
 * ft_render_event_json replays to the identical state (the replay reads
 * "command", "cards" and "choices" only), for every example encounter. */
Test(towers_render, journal_of_a_fight_replays_exactly) {
    static const char *const files[] = {"duel.yaml", "skirmish.yaml",
                                        "ambush.yaml"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        fray_towers_setup *setup = tf_load_example(files[k]);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            fray_towers_fight *a = tf_fight(setup, seed);
            cr_assert_eq(fray_towers_fight_run(a), FRAY_OK);
            int n = fray_towers_fight_events(a);
            size_t cap = 1 << 16, len = 0;
            char *jsonl = malloc(cap);
            cr_assert_not_null(jsonl);
            for (int i = 0; i < n; i++) {
                size_t need = fray_towers_event_json(a, i, NULL, 0);
                while (len + need + 2 > cap) {
                    cap *= 2;
                    jsonl = realloc(jsonl, cap);
                    cr_assert_not_null(jsonl);
                }
                fray_towers_event_json(a, i, jsonl + len, cap - len);
                json_error_t err;
                json_t *line = json_loads(jsonl + len, 0, &err);
                cr_assert_not_null(line, "%s, event %d: %s", files[k], i, err.text);
                cr_expect(json_is_object(json_object_get(line, "command")));
                cr_expect(json_is_array(json_object_get(line, "cards")));
                cr_expect(json_is_array(json_object_get(line, "choices")));
                json_decref(line);
                len += need;
                jsonl[len++] = '\n';
                jsonl[len] = '\0';
            }
            fray_towers_fight *b = tf_fight(setup, seed);
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            cr_assert_eq(fray_towers_fight_replay(b, jsonl, &diag), FRAY_OK,
                         "%s seed %d: line %d: %s", files[k], (int)seed,
                         diag.line, diag.message);
            cr_expect(fray_towers_fight_same(a, b), "%s seed %d", files[k],
                      (int)seed);
            cr_expect_eq(fray_towers_fight_events(b), n);
            free(jsonl);
            fray_towers_fight_free(a);
            fray_towers_fight_free(b);
        }
        fray_towers_setup_free(setup);
    }
}

/* Issue 11, "Narration caps facts at 48 per event": an event holds as many
 * facts as the begin event of 32 can make (FT_EVENT_FACTS); what an event
 * still has no room for is counted (ft_emit_fact) and told, never dropped
 * without a word. */
Test(towers_render, issue11_facts_past_the_room_are_told) {
    fixture *f = fixture_new();
    cr_assert_geq(FT_EVENT_FACTS, 2 * FT_MAX_COMBATANTS,
                  "room for every initiative of 32 and its flip");
    memset(&f->ev, 0, sizeof f->ev);
    f->ev.cmd = tf_cmd(FT_ACT_DELAY, 0);
    tf_run(f, NULL);
    for (int i = 0; i < FT_EVENT_FACTS + 5; i++)
        ft_emit(&f->r, FT_FACT_NOTE, 0, -1, 0, 0, 0, 0);
    cr_assert_eq(f->ev.n_facts, FT_EVENT_FACTS);
    cr_assert_eq(f->ev.facts_untold, 5);
    size_t n = ft_render_event(&f->s, &f->ev, f->buf, sizeof f->buf);
    cr_assert_lt(n, sizeof f->buf);
    cr_expect(strstr(f->buf, "and 5 more things") != NULL, "%s",
              f->buf + (n > 200 ? n - 200 : 0));
    free(f);
}

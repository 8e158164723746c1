/*
 * test_alloy_step_speed.c - the step's shortcuts of issue 16 held to
 * the long way.
 *
 *   - The simulation's counts (alloy.c count_event_hp) look only at those
 *     whose hit points the event set (fa_run.hp_changed, their hit points
 *     before in hp_was, kept by fa_hp_mark): after every step of whole
 *     fights, each combatant's hit points before the step (the long way:
 *     a snapshot of everyone) are hp_was when marked, and unchanged when
 *     not; the fights hurt (004:155, 211), heal with a second wind
 *     (004:673-681) and fall.
 *   - Who sees whom (skills.c fa_seen_update, L7.16), with two sides,
 *     passes over a combatant the other side last saw where it stands:
 *     after every step, every side's last sight of each combatant is the
 *     long way's (the loop over every side of everyone, run on a copy of
 *     the state before the update), byte for byte.
 *   - The tactics' walk (policy.c walk_toward) looks first among the
 *     squares within reach of its target: debug builds hold every answer
 *     to the whole map's scan; the fights here drive the tactics through
 *     crowds so that every walk is checked.
 */
#include "alloy_fixture.h"

#include "ruleset.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

static const fray__ruleset *RS = &fray__alloy_ruleset;

typedef struct met {
    long steps, hurt, healed, seen_moved;
} met;

/* L7.16, the long way (fa_seen_update as it was): every side but its own,
 * of everyone not dead, whose last sight of it is not where it stands,
 * asked whether it sees it now. */
static void seen_long(const fa_setup *s, fa_state *st) {
    for (int i = 0; i < st->n; i++) {
        fa_cstate *c = &st->c[i];
        if (fa_has(c, FA_C_DEAD))
            continue;
        for (int k = 0; k < s->n_sides && k < FA_MAX_SIDES; k++) {
            if (k == s->c[i].side ||
                (c->seen[k].x == c->fp.at.x && c->seen[k].y == c->fp.at.y))
                continue;
            if (fa_side_sees(s, st, k, i))
                c->seen[k] = c->fp.at;
        }
    }
}

static void run_fights(const char *file, int trials, met *m) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, file);
    void *setup = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(RS->load(path, NULL, &setup, &d), FRAY_OK, "%s: %s", file, d.message);
    const fa_setup *s = setup;
    fa_state *st = malloc(sizeof *st);
    fa_state *copy = malloc(sizeof *copy);
    fa_event *ev = malloc(sizeof *ev);
    cr_assert(st && copy && ev);
    for (int t = 0; t < trials; t++) {
        fa_state_init(s, st, 7, (uint64_t)t);
        long step = 0;
        for (; step < 20000 && !st->over; step++) {
            fa_command cmd;
            int a = step == 0 ? -2 : fa_actor(s, st);
            if (a < 0) {
                memset(&cmd, 0, sizeof cmd);
                cmd.kind = (uint8_t)(a == -2 ? FA_CMD_BEGIN : FA_CMD_NEXT);
                cmd.actor = -1;
                cmd.slot = FA_ACT_NONE;
                cmd.power = cmd.weapon = -1;
                cmd.origin.x = cmd.origin.y = -1;
                cmd.ready.who = cmd.ready.power = cmd.ready.target = -1;
                cmd.ready.kind = FA_CMD_ATTACK;
            } else {
                cr_assert_eq(fa_choose_command(s, st, a, &cmd), FRAY_OK);
            }
            int16_t hp[FA_MAX_COMBATANTS];
            fray_pos seen[FA_MAX_COMBATANTS][FA_MAX_SIDES];
            for (int i = 0; i < s->n && i < FA_MAX_COMBATANTS; i++) {
                hp[i] = st->c[i].hp;
                memcpy(seen[i], st->c[i].seen, sizeof seen[i]);
            }
            ev->number = (int32_t)step;
            ev->round = st->round;
            ev->cmd = cmd;
            ev->dice_given = false;
            ev->facts_untold = 0;
            ev->n_dice = 0;
            ev->n_choices = 0;
            ev->n_facts = 0;
            fa_run r;
            memset(&r, 0, sizeof r);
            r.s = s;
            r.st = st;
            r.ev = ev;
            r.failed = FRAY_OK;
            fray_status rc = fa_apply(&r, &cmd);
            cr_assert_eq(rc == FRAY_OK ? r.failed : rc, FRAY_OK,
                         "%s, trial %d, step %ld: command %d refused", file, t, step, cmd.kind);
            m->steps++;
            /* The counts' premise: every change of hit points marked, with
             * the hit points before the step. */
            for (int i = 0; i < st->n; i++) {
                if ((r.hp_changed >> i) & 1u) {
                    cr_assert_eq(r.hp_was[i], hp[i],
                                 "%s, trial %d, step %ld: c%d's hit points before, %d, kept "
                                 "as %d",
                                 file, t, step, i, hp[i], r.hp_was[i]);
                    m->hurt += st->c[i].hp < hp[i];
                    m->healed += st->c[i].hp > hp[i];
                } else {
                    cr_assert_eq(st->c[i].hp, hp[i],
                                 "%s, trial %d, step %ld: c%d's hit points went from %d to %d "
                                 "unmarked (004:155)",
                                 file, t, step, i, hp[i], st->c[i].hp);
                }
            }
            /* L7.16: the update once more by the long way changes nothing,
             * and neither does the update itself: the last sights are the
             * long way's. */
            *copy = *st;
            seen_long(s, copy);
            cr_assert(memcmp(copy, st, sizeof *st) == 0,
                      "%s, trial %d, step %ld: a side's last sight differs from the long way",
                      file, t, step);
            *copy = *st;
            fa_run r2 = r;
            r2.st = copy;
            fa_seen_update(&r2);
            cr_assert(memcmp(copy, st, sizeof *st) == 0,
                      "%s, trial %d, step %ld: the update moved a last sight", file, t, step);
            for (int i = 0; i < st->n && step > 0; i++)
                m->seen_moved += memcmp(seen[i], st->c[i].seen, sizeof seen[i]) != 0;
        }
        cr_assert(st->over, "%s, trial %d: not over after %ld steps", file, t, step);
    }
    free(ev);
    free(copy);
    free(st);
    RS->setup_free(setup);
}

/* Issue 16 (004:155, 211, 673-681; L7.16): the counts' marks and the last
 * sights after every step of crowds and the examples, among them the
 * blackout (darkness: some move unseen). */
Test(alloy_step_speed, marks_and_sights_over_whole_fights_issue16) {
    static const char *const files[] = {
        "bench/alloy-crowds/mixed-default.yaml", "bench/alloy-crowds/mixed-one.yaml",
        "examples/alloy/ambush.yaml",            "examples/alloy/blackout.yaml",
        "examples/alloy/disarm.yaml",            "examples/alloy/reinforcements.yaml",
        "examples/alloy/shove.yaml",             "examples/alloy/skirmish.yaml",
        "examples/alloy/duel.yaml"};
    met m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        run_fights(files[i], 8, &m);
    cr_log_info("%ld steps: %ld hurt, %ld healed, %ld last sights moved", m.steps, m.hurt,
                m.healed, m.seen_moved);
    cr_assert_gt(m.steps, 3000);
    cr_assert_gt(m.hurt, 500, "hit points lost: %ld", m.hurt);
    cr_assert_gt(m.healed, 0, "hit points regained (a second wind): %ld", m.healed);
    cr_assert_gt(m.seen_moved, 300, "last sights moved: %ld", m.seen_moved);
}

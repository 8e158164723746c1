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

#include "alloy_side_by_side.h"

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

/* What the step's look needs: the counts so far, the hit points and last
 * sights before the step, a copy of the state for the long ways. */
typedef struct look {
    met *m;
    int16_t hp[FA_MAX_COMBATANTS];
    fray_pos seen[FA_MAX_COMBATANTS][FA_MAX_SIDES];
    fa_state *copy;
} look;

static void before_step(void *ctx, const fa_setup *s, const fa_state *st) {
    look *l = ctx;
    for (int i = 0; i < s->n && i < FA_MAX_COMBATANTS; i++) {
        l->hp[i] = st->c[i].hp;
        memcpy(l->seen[i], st->c[i].seen, sizeof l->seen[i]);
    }
}

static void after_step(void *ctx, const fa_setup *s, fa_state *st, const fa_run *r,
                       const char *file, int t, long step) {
    look *l = ctx;
    met *m = l->m;
    fa_state *copy = l->copy;
    const int16_t *hp = l->hp;
    m->steps++;
    /* The counts' premise: every change of hit points marked, with
     * the hit points before the step. */
    for (int i = 0; i < st->n; i++) {
        if ((r->hp_changed >> i) & 1u) {
            cr_assert_eq(r->hp_was[i], hp[i],
                         "%s, trial %d, step %ld: c%d's hit points before, %d, kept "
                         "as %d",
                         file, t, step, i, hp[i], r->hp_was[i]);
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
    fa_run r2 = *r;
    r2.st = copy;
    fa_seen_update(&r2);
    cr_assert(memcmp(copy, st, sizeof *st) == 0,
              "%s, trial %d, step %ld: the update moved a last sight", file, t, step);
    for (int i = 0; i < st->n && step > 0; i++)
        m->seen_moved += memcmp(l->seen[i], st->c[i].seen, sizeof l->seen[i]) != 0;
}

static void run_fights(const char *file, int trials, met *m) {
    static const asbs_hooks hooks = {NULL, before_step, after_step};
    look l;
    memset(&l, 0, sizeof l);
    l.m = m;
    l.copy = malloc(sizeof *l.copy);
    cr_assert(l.copy);
    asbs_run(file, trials, &hooks, &l);
    free(l.copy);
}

/* Issue 16 (004:155, 211, 673-681; L7.16): the counts' marks and the last
 * sights after every step of crowds and the examples, among them the
 * blackout (darkness: some move unseen). */
Test(alloy_step_speed, marks_and_sights_over_whole_fights_issue16) {
    met m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < ASBS_FILES; i++)
        run_fights(asbs_files[i], 8, &m);
    cr_log_info("%ld steps: %ld hurt, %ld healed, %ld last sights moved", m.steps, m.hurt,
                m.healed, m.seen_moved);
    cr_assert_gt(m.steps, 3000);
    cr_assert_gt(m.hurt, 500, "hit points lost: %ld", m.hurt);
    cr_assert_gt(m.healed, 0, "hit points regained (a second wind): %ld", m.healed);
    cr_assert_gt(m.seen_moved, 300, "last sights moved: %ld", m.seen_moved);
}

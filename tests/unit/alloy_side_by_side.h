/* alloy_side_by_side.h - whole Alloy fights stepped as alloy.c's step
 * does (the tactics' command, or the next turn, on a fresh event), for
 * the tests that hold the speed work of issue 16 to the long way after
 * every step (test_alloy_turn_speed.c, test_alloy_step_speed.c,
 * test_alloy_walk_speed.c). Every test file is its own executable: the
 * helpers are static inline. */
#ifndef ALLOY_SIDE_BY_SIDE_H
#define ALLOY_SIDE_BY_SIDE_H

#include "alloy_fixture.h"
#include "ruleset.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

/* What a test looks at around each step; any may be NULL. start: after
 * each trial's fa_state_init; before: just before fa_apply; after: just
 * after it (r the step's run). ctx is the test's own. */
typedef struct asbs_hooks {
    void (*start)(void *ctx, const fa_setup *s, fa_state *st, const char *file);
    void (*before)(void *ctx, const fa_setup *s, const fa_state *st);
    void (*after)(void *ctx, const fa_setup *s, fa_state *st, const fa_run *r,
                  const char *file, int trial, long step);
} asbs_hooks;

/* The command alloy.c's step gives at step (the first: the fight's
 * beginning; then the tactics' command, or the next turn). */
static inline void asbs_command(const fa_setup *s, fa_state *st, long step, fa_command *cmd) {
    int a = step == 0 ? -2 : fa_actor(s, st);
    if (a < 0) {
        memset(cmd, 0, sizeof *cmd);
        cmd->kind = (uint8_t)(a == -2 ? FA_CMD_BEGIN : FA_CMD_NEXT);
        cmd->actor = -1;
        cmd->slot = FA_ACT_NONE;
        cmd->power = cmd->weapon = -1;
        cmd->origin.x = cmd->origin.y = -1;
        cmd->ready.who = cmd->ready.power = cmd->ready.target = -1;
        cmd->ready.kind = FA_CMD_ATTACK;
    } else {
        cr_assert_eq(fa_choose_command(s, st, a, cmd), FRAY_OK);
    }
}

/* The fights the speed tests step: the bench's two mixed crowds and
 * every Alloy example with more than two combatants, and the duel. */
static const char *const asbs_files[] = {
    "bench/alloy-crowds/mixed-default.yaml", "bench/alloy-crowds/mixed-one.yaml",
    "examples/alloy/ambush.yaml",            "examples/alloy/blackout.yaml",
    "examples/alloy/disarm.yaml",            "examples/alloy/reinforcements.yaml",
    "examples/alloy/shove.yaml",             "examples/alloy/skirmish.yaml",
    "examples/alloy/duel.yaml"};
enum { ASBS_FILES = sizeof asbs_files / sizeof asbs_files[0] };

/* cmd applied to st at step on a fresh event ev (as alloy.c's
 * event_start), in the run *r; walk_long: every step of a walk weighed
 * again (fa_run.walk_long). Asserts it is not refused. */
static inline void asbs_apply_kept(const fa_setup *s, fa_state *st, fa_event *ev,
                                   const fa_command *cmd, long step, bool walk_long,
                                   const fa_reach_kept *kept, fa_run *r, const char *file,
                                   int trial);
static inline void asbs_apply(const fa_setup *s, fa_state *st, fa_event *ev,
                              const fa_command *cmd, long step, bool walk_long, fa_run *r,
                              const char *file, int trial) {
    asbs_apply_kept(s, st, ev, cmd, step, walk_long, NULL, r, file, trial);
}

/* asbs_apply; kept (NULL: none): the tactics' reach map for this command,
 * handed to the run as alloy.c's step does (fa_run.reach_kept). */
static inline void asbs_apply_kept(const fa_setup *s, fa_state *st, fa_event *ev,
                                   const fa_command *cmd, long step, bool walk_long,
                                   const fa_reach_kept *kept, fa_run *r, const char *file,
                                   int trial) {
    ev->number = (int32_t)step;
    ev->round = st->round;
    ev->cmd = *cmd;
    ev->dice_given = false;
    ev->facts_untold = 0;
    ev->n_dice = 0;
    ev->n_choices = 0;
    ev->n_facts = 0;
    memset(r, 0, sizeof *r);
    r->s = s;
    r->st = st;
    r->ev = ev;
    r->failed = FRAY_OK;
    r->walk_long = walk_long;
    r->reach_kept = kept;
    fray_status rc = fa_apply(r, cmd);
    cr_assert_eq(rc == FRAY_OK ? r->failed : rc, FRAY_OK,
                 "%s, trial %d, step %ld: command %d refused", file, trial, step, cmd->kind);
}

/* The encounter in file (under FRAY_SOURCE_DIR), loaded; free it with
 * fray__alloy_ruleset.setup_free. */
static inline void *asbs_load(const char *file) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, file);
    void *setup = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray__alloy_ruleset.load(path, NULL, &setup, &d), FRAY_OK, "%s: %s", file,
                 d.message);
    return setup;
}

/* trials whole fights of the encounter in file (under FRAY_SOURCE_DIR),
 * seed 7, each stepped to its end (at most 20000 steps) with h's looks. */
static inline void asbs_run(const char *file, int trials, const asbs_hooks *h, void *ctx) {
    const fray__ruleset *rs = &fray__alloy_ruleset;
    void *setup = asbs_load(file);
    const fa_setup *s = setup;
    fa_state *st = malloc(sizeof *st);
    fa_event *ev = malloc(sizeof *ev);
    cr_assert(st && ev);
    for (int t = 0; t < trials; t++) {
        fa_state_init(s, st, 7, (uint64_t)t);
        if (h->start)
            h->start(ctx, s, st, file);
        long step = 0;
        for (; step < 20000 && !st->over; step++) {
            fa_command cmd;
            asbs_command(s, st, step, &cmd);
            if (h->before)
                h->before(ctx, s, st);
            fa_run r;
            asbs_apply(s, st, ev, &cmd, step, false, &r, file, t);
            if (h->after)
                h->after(ctx, s, st, &r, file, t, step);
        }
        cr_assert(st->over, "%s, trial %d: not over after %ld steps", file, t, step);
    }
    free(ev);
    free(st);
    rs->setup_free(setup);
}

#endif

/* fuzz_towers_fight.c - libFuzzer target for whole 99 Towers fights
 * (issue 11, "Tests and fuzzing"): the input's bytes choose an example
 * encounter (duel, skirmish, ambush) and its seed, then a script of
 * operations: a step of the tactics policies, a command made up from the
 * bytes (any action, actor, target, weapon, destination, Hold, skill,
 * chip, condition... as ft_command carries them: legal or not), the
 * clock's step, undo, redo, and undo-then-redo. After every operation the
 * fight must keep the invariants:
 *
 *   - damage within bounds: 0 <= STUN <= its maximum, LETHAL <= its
 *     maximum, temporary points >= 0; STUN 0 is unconscious; LETHAL (with
 *     temporary) at or below the rule's limit (-dead-at x [[E]]) is dead,
 *     and the dead stay dead;
 *   - the clock only moves forward (except through undo), one event per
 *     applied command;
 *   - a refused command changes nothing (fray_towers_fight_same against a
 *     copy of the state before it);
 *   - undo gives the state before the last event, and undo then redo the
 *     state after it (fray_towers_fight_same against copies).
 *
 * A broken invariant aborts (a crash for libFuzzer).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"
#include "fuzz_alloc.h"
#include "towers_int.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

/* A fight runs a few hundred events; undo replays from the start, so a
 * long script only makes the run slower. */
enum { MAX_INPUT = 512, N_ENCOUNTERS = 3 };

static const char *const files[N_ENCOUNTERS] = {"duel.yaml", "skirmish.yaml",
                                                "ambush.yaml"};

/* Loaded once for the whole run (the harness's only state; the library
 * has none), with two fights per encounter that only hold copies of a
 * state for fray_towers_fight_same. */
static fray_towers_setup *setups[N_ENCOUNTERS];
static fray_towers_fight *before[N_ENCOUNTERS], *after[N_ENCOUNTERS];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    fray_towers_fight_options held = {.journal = false, .facts = true,
                                      .until_phase = 0};
    for (int k = 0; k < N_ENCOUNTERS; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/examples/towers/%s", FRAY_SOURCE_DIR,
                 files[k]);
        fray_diag diag = {0};
        if (fray_towers_load(path, NULL, &setups[k], &diag) != FRAY_OK ||
            fray_towers_fight_new(setups[k], 1, &held, NULL, &before[k]) !=
                FRAY_OK ||
            fray_towers_fight_new(setups[k], 1, &held, NULL, &after[k]) !=
                FRAY_OK) {
            fprintf(stderr, "%s: cannot load %s: %s\n", (*argv)[0], path,
                    diag.message);
            abort();
        }
    }
    return 0;
}

/* The input's bytes, one at a time (0 when they run out). */
typedef struct bytes {
    const uint8_t *p;
    size_t n;
} bytes;

static unsigned take(bytes *b) {
    if (b->n == 0)
        return 0;
    b->n--;
    return *b->p++;
}

static void check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_towers_fight: invariant broken: %s\n", what);
        abort();
    }
}

/* Damage within bounds, and the dead at the rule's limit (RULINGS 16-17). */
static void check_bounds(const fray_towers_fight *f, const uint16_t *was) {
    const ft_setup *s = &f->setup->s;
    const ft_state *st = &f->st;
    int k = s->opt.dead_at_multiple > 0 ? s->opt.dead_at_multiple : 2;
    for (int i = 0; i < st->n; i++) {
        const ft_cstate *c = &st->c[i];
        check(c->stun >= 0 && c->stun <= ft_max_stun(s, i), "STUN in bounds");
        check(c->lethal <= ft_max_lethal(s, i), "LETHAL at most its maximum");
        check(c->temp_stun >= 0 && c->temp_lethal >= 0,
              "temporary points >= 0");
        int lethal = c->lethal + c->temp_lethal;
        bool dead = (c->flags & FT_F_DEAD) != 0;
        if (lethal < 0 && lethal <= -k * s->c[i].sb.endurance)
            check(dead, "dead at the rule's limit");
        if (c->stun == 0 || dead)
            check((c->flags & FT_F_UNCONSCIOUS) != 0,
                  "0 STUN or dead is unconscious");
        if (was)
            check(dead || !(was[i] & FT_F_DEAD), "the dead stay dead");
    }
}

/* A command from the bytes: any action (or the clock's step), by whoever
 * acts next or anyone, at anyone, with any of the command's fields. */
static ft_command made_up(const fray_towers_fight *f, bytes *b) {
    const ft_state *st = &f->st;
    ft_command c;
    memset(&c, 0, sizeof c);
    unsigned a = take(b) % (FT_ACTION_COUNT + 1);
    c.action = (uint8_t)(a == FT_ACTION_COUNT ? FT_CMD_PHASE : a);
    unsigned who = take(b);
    int next = ft_next_actor(st);
    c.actor = (int8_t)((who & 0x80) || next < 0 ? (int)(who % (unsigned)st->n)
                                                : next);
    unsigned t = take(b);
    c.target = (int8_t)(t & 0x80 ? -1 : (int)(t % (unsigned)st->n));
    unsigned w = take(b);
    c.weapon = (int8_t)(w % 6) - 1;
    c.off_hand = (w & 0x40) != 0;
    c.shift_first = (w & 0x80) != 0;
    unsigned d = take(b);
    fray_pos at = c.actor >= 0 ? st->c[c.actor].pos : (fray_pos){0, 0};
    c.dest.x = (int16_t)(at.x + (int)(d & 7) - 3);
    c.dest.y = (int16_t)(at.y + (int)((d >> 3) & 7) - 3);
    c.shift_to.x = (int16_t)(at.x + (int)(d % 3) - 1);
    c.shift_to.y = (int16_t)(at.y + (int)((d >> 6) % 3) - 1);
    unsigned h = take(b);
    c.hold_kind = (int8_t)(h % 4);
    c.hold_who = (int8_t)((h >> 2) % (unsigned)st->n);
    c.hold_after = (int8_t)((h >> 7) & 1);
    c.hold_phase = st->phase + (int32_t)(take(b) % 40);
    unsigned x = take(b);
    c.cost = (int16_t)(x % 12);
    c.skill = (int8_t)((int)(x % 5) - 1);
    c.chip = (int8_t)((int)((x >> 3) % 4) - 1);
    c.heal_lethal = (x & 0x80) != 0;
    unsigned y = take(b);
    c.condition = (int8_t)((int)(y % (FT_CONDITION_COUNT + 1)) - 1);
    c.element = (int8_t)((y >> 4) % FT_ELEMENT_COUNT);
    c.ally = (int8_t)((int)(take(b) % (unsigned)(st->n + 1)) - 1);
    c.dtn = (int16_t)(take(b) % 30);
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > MAX_INPUT)
        return 0;
    bytes b = {data, size};
    unsigned head = take(&b);
    int k = (int)(head % N_ENCOUNTERS);
    fray_towers_fight_options opts = {.journal = true, .facts = true,
                                      .until_phase = 0};
    fray_towers_fight *f = NULL;
    if (fray_towers_fight_new(setups[k], head / N_ENCOUNTERS, &opts,
                              &fuzz_alloc, &f) != FRAY_OK)
        return 0;
    fray_towers_fight *pre = before[k], *post = after[k];
    /* pre holds the state before the last event applied (when have_pre);
     * post a state to compare with after an operation. */
    bool have_pre = false;
    check_bounds(f, NULL);
    while (b.n > 0) {
        uint16_t was[FT_MAX_COMBATANTS];
        for (int i = 0; i < f->st.n; i++)
            was[i] = f->st.c[i].flags;
        int events = fray_towers_fight_events(f);
        int phase = fray_towers_fight_phase(f);
        unsigned op = take(&b) % 10;
        if (op <= 4) {
            /* The tactics policies' step (what `fray fight` does). */
            post->st = f->st;
            fray_status rc = fray_towers_fight_step(f);
            if (rc == FRAY_OK) {
                check(fray_towers_fight_events(f) == events + 1 ||
                          (fray_towers_fight_over(f) &&
                           fray_towers_fight_events(f) == events),
                      "one event per step");
                have_pre = fray_towers_fight_events(f) == events + 1;
                if (have_pre)
                    pre->st = post->st;
            } else {
                if (rc != FRAY_ERR_INVALID || !fray_towers_fight_over(f))
                    fprintf(stderr, "step: %s\n", fray_strerror(rc));
                check(rc == FRAY_ERR_INVALID && fray_towers_fight_over(f),
                      "a step fails only when the fight is over");
                check(fray_towers_fight_same(f, post), "a refused step");
            }
        } else if (op <= 6) {
            /* A command made up from the bytes: applied, or refused with
             * nothing changed. */
            ft_command c = made_up(f, &b);
            post->st = f->st;
            fray_diag diag = {0};
            fray_status rc = ft_fight_apply(f, &c, NULL, 0, &diag);
            if (rc == FRAY_OK) {
                check(fray_towers_fight_events(f) == events + 1,
                      "one event per command");
                pre->st = post->st;
                have_pre = true;
            } else {
                check(fray_towers_fight_events(f) == events &&
                          fray_towers_fight_same(f, post),
                      "a refused command changes nothing");
            }
        } else if (op == 7) {
            /* Undo: the state before the last event. */
            post->st = f->st;
            if (fray_towers_fight_undo(f) == FRAY_OK) {
                check(fray_towers_fight_events(f) == events - 1,
                      "undo takes one event back");
                if (have_pre)
                    check(fray_towers_fight_same(f, pre),
                          "undo gives the state before the event");
                /* And redo the state after it. */
                check(fray_towers_fight_redo(f) == FRAY_OK &&
                          fray_towers_fight_same(f, post),
                      "undo then redo gives the same state");
                if (take(&b) & 1) {
                    check(fray_towers_fight_undo(f) == FRAY_OK,
                          "undo again");
                    have_pre = false;
                }
            }
        } else if (op == 8) {
            if (fray_towers_fight_redo(f) == FRAY_OK)
                check(fray_towers_fight_events(f) == events + 1,
                      "redo puts one event back");
            have_pre = false;
            continue; /* (a redo may move the clock back from an undo) */
        } else {
            /* Narrate and render the last event (read back packed; a
             * clock's step may have nothing to tell, but every event has
             * its JSON line). */
            char buf[4096];
            if (events > 0) {
                size_t n = fray_towers_event_narrate(f, events - 1, buf,
                                                     sizeof buf);
                check(n < 1000000, "a bounded narration");
                check(fray_towers_event_json(f, events - 1, buf,
                                             sizeof buf) > 0,
                      "every event has its JSON line");
            }
            continue;
        }
        if (op != 7) {
            check(fray_towers_fight_phase(f) >= phase,
                  "the clock only moves forward");
            check_bounds(f, was);
        } else {
            check_bounds(f, NULL);
        }
    }
    fray_towers_fight_free(f);
    return 0;
}

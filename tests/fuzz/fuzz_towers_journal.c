/* fuzz_towers_journal.c - libFuzzer target for the replay of 99 Towers
 * journals (fray_towers_fight_replay_journal, src/rules/towers/fight.c):
 * any bytes as a JSON Lines journal of examples/towers/skirmish.yaml must
 * replay, or be refused with a message and its line, never crash or leak.
 * And what replays is checked, not only survived (issue 11: "the journal
 * target replays what it accepted"): the fight's journal written back out
 * (fray_towers_event_json for every event, the undone ones kept for redo
 * with their undo marks, as `fray fight --table` writes it) must replay
 * into a fresh fight to the identical state (fray_towers_fight_same), the
 * same events and the same redo history; then the fight tells its last
 * event and goes on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOWERS_EXAMPLE "skirmish.yaml"
#include "fuzz_towers.h"

/* Every replayed event runs the engine (a move finds its path on the
 * map), so the run's time grows with the input: 3 KB is 20-25 lines
 * without their facts (which replay does not read; the corpus keeps two
 * journals with theirs), plenty to reach every check of a line, and keeps
 * the suite's inputs (fuzz_towers_journal.runs) within about 20 s. */
enum { MAX_INPUT = 3072 };

/* The fight's journal as the table writes it (src/cli/journal.c): every
 * event recorded, an undo mark for each kept for redo. NULL when memory
 * runs out. */
static char *written_back(const fray_towers_fight *f, size_t *out_len) {
    int n = fray_towers_fight_events(f);
    int kept = fray_towers_fight_recorded(f);
    size_t len = 0;
    for (int i = 0; i < kept; i++)
        len += fray_towers_event_json(f, i, NULL, 0) + 1;
    len += (size_t)(kept - n) * 64;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    size_t at = 0;
    for (int i = 0; i < kept; i++) {
        at += fray_towers_event_json(f, i, out + at, len + 1 - at);
        out[at++] = '\n';
    }
    for (int i = kept - 1; i >= n; i--) {
        at += fray_towers_journal_mark(FRAY_TOWERS_MARK_UNDO, i, out + at,
                                       len + 1 - at);
        out[at++] = '\n';
    }
    out[at] = '\0';
    *out_len = at;
    return out;
}

/* What replay accepted, written back out, replays to the same fight. */
static void check_written_back(const fray_towers_fight *fight) {
    size_t len = 0;
    char *again = written_back(fight, &len);
    if (!again)
        return;
    fray_towers_fight_options opts = {.journal = true, .facts = true,
                                      .until_phase = 0};
    fray_towers_fight *copy = NULL;
    if (fray_towers_fight_new(setup, 1, &opts, &fuzz_alloc, &copy) !=
        FRAY_OK) {
        free(again);
        return;
    }
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_towers_replay_info info;
    fray_status st =
        fray_towers_fight_replay_journal(copy, again, len, &info, &diag);
    if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
        fprintf(stderr, "the journal written back does not replay: line %d:"
                "%d: %s\n", diag.line, diag.column, diag.message);
        abort();
    }
    if (st == FRAY_OK &&
        (!fray_towers_fight_same(fight, copy) ||
         fray_towers_fight_seed(fight) != fray_towers_fight_seed(copy) ||
         fray_towers_fight_events(fight) != fray_towers_fight_events(copy) ||
         fray_towers_fight_recorded(fight) !=
             fray_towers_fight_recorded(copy) ||
         info.torn)) {
        fprintf(stderr, "the journal written back replays to another "
                "fight\n");
        abort();
    }
    fray_towers_fight_free(copy);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text;
    fray_towers_fight *fight = fuzz_towers_start(data, size, MAX_INPUT, &text);
    if (!fight)
        return 0;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    /* All the bytes, NUL bytes included (they are refused, not an end). */
    fray_status st =
        fray_towers_fight_replay_journal(fight, text, size, NULL, &diag);
    if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
        if (diag.message[0] == '\0' || diag.line < 1)
            abort(); /* every refusal says what, and on which line */
    } else if (st == FRAY_OK) {
        check_written_back(fight);
        int n = fray_towers_fight_events(fight);
        char buf[4096];
        if (n > 0) {
            (void)fray_towers_event_narrate(fight, n - 1, buf, sizeof buf);
            (void)fray_towers_event_json(fight, n - 1, buf, sizeof buf);
        }
        (void)fray_towers_summary(fight, buf, sizeof buf);
        /* And the fight goes on from there. */
        if (!fray_towers_fight_over(fight) &&
            fray_towers_fight_step(fight) != FRAY_OK)
            abort();
    }
    fray_towers_fight_free(fight);
    free(text);
    return 0;
}

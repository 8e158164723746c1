/* fuzz_alloy_journal.c - libFuzzer target for the replay of Alloy journals
 * (fray_fight_replay_journal: src/encounter/fight.c reads the lines, Alloy's
 * json.c and alloy.c each event) on examples/alloy/skirmish.yaml: any
 * bytes as a JSON Lines journal must replay, or be refused with a message
 * and its line, never crash or leak. What replays is checked, not only
 * survived (as fuzz_towers_journal.c): the fight's journal written back
 * out (fray_event_json, the undone events kept for redo with their undo
 * marks, as `fray fight --table` writes it) replays into a fresh fight to
 * the identical state (fray_fight_same); then the fight tells its last
 * event and goes on by its tactics. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_RULES "alloy"
#define FUZZ_EXAMPLE "alloy/skirmish.yaml"
#include "fuzz_fight.h"

/* Every replayed event runs the engine (a walk finds its path), so the
 * run's time grows with the input: 4 KB is a dozen events with their
 * facts, plenty to reach every check of a line. */
enum { MAX_INPUT = 4096 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text;
    fray_fight *fight = fuzz_fight_start(data, size, MAX_INPUT, &text);
    if (!fight)
        return 0;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    /* All the bytes, NUL bytes included (they are refused, not an end). */
    fray_status st = fray_fight_replay_journal(fight, text, size, NULL, &diag);
    if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
        if (diag.message[0] == '\0' || diag.line < 1)
            abort(); /* every refusal says what, and on which line */
    } else if (st == FRAY_OK) {
        fuzz_fight_check_written_back(fight);
        int n = fray_fight_events(fight);
        char buf[4096];
        if (n > 0) {
            (void)fray_event_narrate(fight, n - 1, buf, sizeof buf);
            (void)fray_event_json(fight, n - 1, buf, sizeof buf);
        }
        (void)fray_fight_summary(fight, buf, sizeof buf);
        (void)fray_fight_draw_time(fight, buf, sizeof buf);
        /* And the fight goes on from there: the tactics never choose what
         * the rules refuse (fray_fight_failure says it if they do). */
        if (!fray_fight_over(fight)) {
            fray_status rc = fray_fight_step(fight);
            if (rc != FRAY_OK && rc != FRAY_ERR_NOMEM) {
                char why[256] = "";
                (void)fray_fight_failure(fight, why, sizeof why);
                fprintf(stderr, "after the replay, a step fails: %s\n", why);
                abort();
            }
        }
    }
    fray_fight_free(fight);
    free(text);
    return 0;
}

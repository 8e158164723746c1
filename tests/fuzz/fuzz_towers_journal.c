/* fuzz_towers_journal.c - libFuzzer target for the replay of 99 Towers
 * journals (fray_towers_fight_replay, src/rules/towers/fight.c): any text
 * as a JSON Lines journal of examples/towers/skirmish.yaml must replay, or
 * be refused with a message and its line, never crash or leak. What
 * replays must also tell its last event and go on (undo and redo are
 * fuzz_towers_command's). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOWERS_EXAMPLE "skirmish.yaml"
#include "fuzz_towers.h"

/* Every replayed event runs the engine (a move finds its path on the
 * map), so the run's time grows with the input: 3 KB is 20-25 lines
 * without their facts (which replay does not read; the corpus keeps two
 * journals with theirs), plenty to reach every check of a line, and keeps
 * the suite's 150000 inputs within about 35 s. */
enum { MAX_INPUT = 3072 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text;
    fray_towers_fight *fight = fuzz_towers_start(data, size, MAX_INPUT, &text);
    if (!fight)
        return 0;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_towers_fight_replay(fight, text, &diag);
    if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
        if (diag.message[0] == '\0' || diag.line < 1)
            abort(); /* every refusal says what, and on which line */
    } else if (st == FRAY_OK) {
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

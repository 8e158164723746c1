/* fuzz_towers_command.c - libFuzzer target for the table commands of 99
 * Towers fights (fray_towers_fight_command, parse_command in
 * src/rules/towers/fight.c) on examples/towers/duel.yaml: each line of the
 * input is a command ("aldric attack black-knight", "next", ...), or
 * "undo" / "redo". A command is applied, or refused with a message and the
 * fight unchanged; never a crash or a leak. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOWERS_EXAMPLE "duel.yaml"
#include "fuzz_towers.h"

/* A duel is decided in a few dozen commands; undo replays the fight from
 * its start, so long scripts only make the run slower. */
enum { MAX_INPUT = 4096, MAX_LINES = 64 };

static bool is_word(const char *line, const char *word) {
    while (*line == ' ' || *line == '\t' || *line == '\r')
        line++;
    size_t n = strlen(word);
    if (strncmp(line, word, n) != 0)
        return false;
    for (line += n; *line; line++)
        if (*line != ' ' && *line != '\t' && *line != '\r')
            return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text;
    fray_towers_fight *fight = fuzz_towers_start(data, size, MAX_INPUT, &text);
    if (!fight)
        return 0;
    bool changed = false;
    char *line = text;
    for (int n = 0; line && n < MAX_LINES; n++) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        int events = fray_towers_fight_events(fight);
        int phase = fray_towers_fight_phase(fight);
        if (is_word(line, "undo")) {
            if (fray_towers_fight_undo(fight) == FRAY_OK) {
                if (fray_towers_fight_events(fight) != events - 1)
                    abort();
                changed = true;
            }
        } else if (is_word(line, "redo")) {
            if (fray_towers_fight_redo(fight) == FRAY_OK) {
                if (fray_towers_fight_events(fight) != events + 1)
                    abort();
                changed = true;
            }
        } else {
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status st = fray_towers_fight_command(fight, line, NULL, 0, &diag);
            if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
                /* Refused: it says why, and nothing happened. */
                if (diag.message[0] == '\0' ||
                    fray_towers_fight_events(fight) != events ||
                    fray_towers_fight_phase(fight) != phase)
                    abort();
            } else if (st == FRAY_OK) {
                char buf[2048];
                (void)fray_towers_event_narrate(fight, events, buf, sizeof buf);
                changed = true;
            }
        }
        line = end ? end + 1 : NULL;
    }
    if (changed) {
        /* Where the commands left everyone, drawn (only then: drawing the
         * start of the fight again and again would be most of the run). */
        char buf[8192];
        (void)fray_towers_draw_map(fight, buf, sizeof buf);
        (void)fray_towers_draw_clock(fight, buf, sizeof buf);
        (void)fray_towers_summary(fight, buf, sizeof buf);
    }
    fray_towers_fight_free(fight);
    free(text);
    return 0;
}

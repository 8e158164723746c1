/* fuzz_command.h - the driver the fuzz targets of table commands share
 * (fuzz_alloy_command.c, fuzz_winter_command.c), whatever the ruleset:
 * each line of the input is a command in the ruleset's words, which may
 * end with "dice N N ..." (the dice rolled by hand, as `fray fight --table`
 * takes them), or "undo", "redo", or "auto" (one step by the tactics). A
 * command is applied, or refused with a message and the fight unchanged;
 * an undo or a redo moves one event; never a crash or a leak. At the end
 * the fight is drawn and told, and the journal written back replays to the
 * same fight (fuzz_fight.h): dice given by hand are recorded as rolled.
 *
 * A target defines FUZZ_RULES and FUZZ_EXAMPLE (fuzz_fight.h), includes
 * this header, and its LLVMFuzzerTestOneInput returns
 * fuzz_command_run(data, size). */
#ifndef FRAY_FUZZ_COMMAND_H
#define FRAY_FUZZ_COMMAND_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_fight.h"

/* A command replays nothing, but undo replays the fight from its start:
 * long scripts only make the run slower. */
enum { MAX_INPUT = 4096, MAX_LINES = 64, MAX_DICE = 32 };

static inline bool fuzz_is_word(const char *line, const char *word) {
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

/* Cuts " dice N N ..." off the end of line (as the table does) into dice;
 * false when the word is there but what follows is not whole numbers of
 * 1 to 999 (the line is then given whole: the rules refuse it). */
static inline bool fuzz_split_dice(char *line, int *dice, size_t *n) {
    *n = 0;
    char *at = strstr(line, " dice ");
    if (!at)
        return false;
    char *p = at + 6;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (!isdigit((unsigned char)*p) || *n == MAX_DICE)
            return false;
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 1000)
            v = v * 10 + (*p++ - '0');
        if (v < 1 || v > 999 || (*p && *p != ' '))
            return false;
        dice[(*n)++] = (int)v;
    }
    if (*n == 0)
        return false;
    *at = '\0';
    return true;
}

static inline int fuzz_command_run(const uint8_t *data, size_t size) {
    char *text;
    fray_fight *fight = fuzz_fight_start(data, size, MAX_INPUT, &text);
    if (!fight)
        return 0;
    bool changed = false;
    char *line = text;
    for (int n = 0; line && n < MAX_LINES; n++) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        int events = fray_fight_events(fight);
        int now = fray_fight_now(fight);
        if (fuzz_is_word(line, "undo")) {
            if (fray_fight_undo(fight) == FRAY_OK) {
                if (fray_fight_events(fight) != events - 1)
                    abort();
                changed = true;
            }
        } else if (fuzz_is_word(line, "redo")) {
            if (fray_fight_redo(fight) == FRAY_OK) {
                if (fray_fight_events(fight) != events + 1)
                    abort();
                changed = true;
            }
        } else if (fuzz_is_word(line, "auto")) {
            if (!fray_fight_over(fight)) {
                fray_status rc = fray_fight_step(fight);
                if (rc != FRAY_OK && rc != FRAY_ERR_NOMEM) {
                    char why[256] = "";
                    (void)fray_fight_failure(fight, why, sizeof why);
                    fprintf(stderr, "the tactics' step fails: %s\n", why);
                    abort();
                }
                changed = true;
            }
        } else {
            int dice[MAX_DICE];
            size_t n_dice = 0;
            fray_given given = {NULL, 0, dice, 0, NULL};
            bool by_hand = fuzz_split_dice(line, dice, &n_dice);
            given.n_dice = n_dice;
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status st =
                fray_fight_command(fight, line, by_hand ? &given : NULL, &diag);
            if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
                /* Refused: it says why, and nothing happened. */
                if (diag.message[0] == '\0' ||
                    fray_fight_events(fight) != events ||
                    fray_fight_now(fight) != now)
                    abort();
            } else if (st == FRAY_OK) {
                char buf[4096];
                if (fray_fight_events(fight) > events)
                    (void)fray_event_narrate(fight, events, buf, sizeof buf);
                changed = true;
            }
        }
        line = end ? end + 1 : NULL;
    }
    if (changed) {
        /* Where the commands left everyone, drawn and told; and the
         * journal written back is the same fight. */
        char buf[16384];
        (void)fray_fight_draw_map(fight, buf, sizeof buf);
        (void)fray_fight_draw_time(fight, buf, sizeof buf);
        (void)fray_fight_summary(fight, buf, sizeof buf);
        fuzz_fight_check_written_back(fight);
    }
    fray_fight_free(fight);
    free(text);
    return 0;
}

#endif

/* fuzz_winter_command.c - libFuzzer target for Silent Winter's table
 * commands (fray_fight_command: tell.c sw_parse, then rules.c sw_check and
 * sw_apply) on examples/silent-winter/sniper.yaml (Sniping, cover, a
 * melee ally, two bandits): each line of the input is a command
 * ("archer attack bandit-1", "bandit-1 chase archer dice 20 1", "next",
 * ...) that may end with "dice N N ...", or "undo", "redo", "auto" (one
 * step by the tactics). A command is applied, or refused with a message
 * and the fight unchanged; never a crash or a leak. At the end the
 * journal written back replays to the same fight. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fight.h"
#include "fuzz_alloc.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

enum { MAX_INPUT = 4096, MAX_LINES = 64, MAX_DICE = 32 };

static fray_setup *setup;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    if (fray_setup_load(FRAY_SOURCE_DIR "/examples/silent-winter/sniper.yaml",
                        NULL, &setup, &diag) != FRAY_OK ||
        strcmp(fray_setup_rules(setup), "silent-winter") != 0) {
        fprintf(stderr, "%s: cannot load the Silent Winter example: %s\n",
                (*argv)[0], diag.message);
        abort();
    }
    return 0;
}

static fray_fight *new_fight(void) {
    fray_fight_options opts = {.journal = true, .facts = true, .until = 0};
    fray_fight *fight = NULL;
    if (fray_fight_new(setup, 1, &opts, NULL, &fuzz_alloc, &fight) != FRAY_OK)
        return NULL;
    return fight;
}

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

/* " dice N N ..." cut off the end of line into dice (as the table does). */
static bool split_dice(char *line, int *dice, size_t *n) {
    *n = 0;
    char *at = strstr(line, " dice ");
    if (!at)
        return false;
    for (char *p = at + 6; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (!isdigit((unsigned char)*p) || *n == MAX_DICE)
            return false;
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 1000)
            v = v * 10 + (*p++ - '0');
        if (v > 999 || (*p && *p != ' '))
            return false;
        dice[(*n)++] = (int)v;
    }
    if (*n == 0)
        return false;
    *at = '\0';
    return true;
}

/* The journal written back replays into a fresh fight to the same state. */
static void check_written_back(const fray_fight *f) {
    int n = fray_fight_events(f);
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += fray_event_json(f, i, NULL, 0) + 1;
    char *text = malloc(len + 1);
    if (!text)
        return;
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        at += fray_event_json(f, i, text + at, len + 1 - at);
        text[at++] = '\n';
    }
    text[at] = '\0';
    fray_fight *copy = new_fight();
    if (copy) {
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        fray_status st = fray_fight_replay_journal(copy, text, at, NULL, &diag);
        if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
            fprintf(stderr, "the journal does not replay: %d:%d: %s\n", diag.line,
                    diag.column, diag.message);
            abort();
        }
        if (st == FRAY_OK && (!fray_fight_same(f, copy) ||
                              fray_fight_events(f) != fray_fight_events(copy))) {
            fprintf(stderr, "the journal replays to another fight\n");
            abort();
        }
        fray_fight_free(copy);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fray_fight *fight = new_fight();
    if (!fight) {
        free(text);
        return 0;
    }
    bool changed = false;
    char *line = text;
    for (int n = 0; line && n < MAX_LINES; n++) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        int events = fray_fight_events(fight);
        int now = fray_fight_now(fight);
        if (is_word(line, "undo")) {
            changed |= fray_fight_undo(fight) == FRAY_OK;
        } else if (is_word(line, "redo")) {
            changed |= fray_fight_redo(fight) == FRAY_OK;
        } else if (is_word(line, "auto")) {
            if (!fray_fight_over(fight)) {
                fray_status rc = fray_fight_step(fight);
                if (rc != FRAY_OK && rc != FRAY_ERR_NOMEM) {
                    char why[256] = "";
                    if (fray_fight_failure(fight, why, sizeof why) >= sizeof why)
                        why[sizeof why - 1] = '\0';
                    fprintf(stderr, "the tactics' step fails: %s\n", why);
                    abort();
                }
                changed = true;
            }
        } else {
            int dice[MAX_DICE];
            size_t n_dice = 0;
            bool by_hand = split_dice(line, dice, &n_dice);
            fray_given given = {NULL, 0, dice, n_dice, NULL};
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status st = fray_fight_command(fight, line, by_hand ? &given : NULL, &diag);
            if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
                if (diag.message[0] == '\0' || fray_fight_events(fight) != events ||
                    fray_fight_now(fight) != now)
                    abort(); /* refused: it says why, and nothing happened */
            } else if (st == FRAY_OK) {
                changed = true;
            }
        }
        line = end ? end + 1 : NULL;
    }
    if (changed) {
        char buf[16384];
        if (fray_fight_draw_map(fight, buf, sizeof buf) >= sizeof buf ||
            fray_fight_draw_time(fight, buf, sizeof buf) >= sizeof buf ||
            fray_fight_summary(fight, buf, sizeof buf) >= sizeof buf)
            abort(); /* a small fight's drawings fit */
        check_written_back(fight);
    }
    fray_fight_free(fight);
    free(text);
    return 0;
}

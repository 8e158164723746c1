/* fuzz_fight.h - what the fuzz targets that play a fight of an example
 * encounter through the ruleset-neutral API (include/fray/fight.h) share,
 * whatever the ruleset (fuzz_alloy_command.c, fuzz_alloy_journal.c,
 * fuzz_winter_command.c; fuzz_towers.h does the same for 99 Towers' own
 * layouts): the encounter, loaded once for the whole run in
 * LLVMFuzzerInitialize, each input as a C string with a fresh fight, and
 * the journal written back checked.
 *
 * A target defines FUZZ_RULES, the ruleset's word ("alloy",
 * "silent-winter"), and FUZZ_EXAMPLE, the file under examples/ it plays
 * ("alloy/skirmish.yaml"), before it includes this header. */
#ifndef FRAY_FUZZ_FIGHT_H
#define FRAY_FUZZ_FIGHT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fight.h"
#include "fuzz_alloc.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

#if !defined(FUZZ_RULES) || !defined(FUZZ_EXAMPLE)
#error "define FUZZ_RULES (the ruleset's word) and FUZZ_EXAMPLE (a file under examples/) first"
#endif

/* The encounter, loaded once for the whole run (the harness's only
 * state; the library has none). */
static fray_setup *setup;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    if (fray_setup_load(FRAY_SOURCE_DIR "/examples/" FUZZ_EXAMPLE, NULL,
                        &setup, &diag) != FRAY_OK ||
        strcmp(fray_setup_rules(setup), FUZZ_RULES) != 0) {
        fprintf(stderr, "%s: cannot load %s as %s: %s\n", (*argv)[0],
                FUZZ_EXAMPLE, FUZZ_RULES, diag.message);
        abort();
    }
    return 0;
}

/* A new fight of the encounter from seed 1 with its journal and facts, on
 * the allocator that keeps big blocks (fuzz_alloc.h); NULL when memory
 * runs out. */
static inline fray_fight *fuzz_fight_new(void) {
    fray_fight_options opts = {.journal = true, .facts = true, .until = 0};
    fray_fight *fight = NULL;
    if (fray_fight_new(setup, 1, &opts, NULL, &fuzz_alloc, &fight) != FRAY_OK)
        return NULL;
    return fight;
}

/* The input as a NUL-terminated copy in *out_text, and a new fight.
 * NULL, with nothing to free, for an input longer than max_input or when
 * memory runs out; else the caller frees both (fray_fight_free, free). */
static inline fray_fight *fuzz_fight_start(const uint8_t *data, size_t size,
                                           size_t max_input, char **out_text) {
    if (size > max_input)
        return NULL;
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    fray_fight *fight = fuzz_fight_new();
    if (!fight) {
        free(text);
        return NULL;
    }
    *out_text = text;
    return fight;
}

/* The fight's journal as the table writes it (src/cli/journal.c): every
 * event recorded, an undo mark for each kept for redo. NULL when memory
 * runs out. */
static inline char *fuzz_fight_written_back(const fray_fight *f,
                                            size_t *out_len) {
    int n = fray_fight_events(f);
    int kept = fray_fight_recorded(f);
    size_t len = 0;
    for (int i = 0; i < kept; i++)
        len += fray_event_json(f, i, NULL, 0) + 1;
    len += (size_t)(kept - n) * 64;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    size_t at = 0;
    for (int i = 0; i < kept; i++) {
        at += fray_event_json(f, i, out + at, len + 1 - at);
        out[at++] = '\n';
    }
    for (int i = kept - 1; i >= n; i--) {
        at += fray_journal_mark(FRAY_MARK_UNDO, i, out + at, len + 1 - at);
        out[at++] = '\n';
    }
    out[at] = '\0';
    *out_len = at;
    return out;
}

/* The fight's journal, written back out, replays into a fresh fight to
 * the identical state, the same events and the same redo history; any
 * disagreement aborts. */
static inline void fuzz_fight_check_written_back(const fray_fight *fight) {
    size_t len = 0;
    char *again = fuzz_fight_written_back(fight, &len);
    if (!again)
        return;
    fray_fight *copy = fuzz_fight_new();
    if (!copy) {
        free(again);
        return;
    }
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_replay_info info;
    memset(&info, 0, sizeof info);
    fray_status st = fray_fight_replay_journal(copy, again, len, &info, &diag);
    if (st != FRAY_OK && st != FRAY_ERR_NOMEM) {
        fprintf(stderr, "the journal written back does not replay: line %d:%d: "
                "%s\n", diag.line, diag.column, diag.message);
        abort();
    }
    if (st == FRAY_OK &&
        (!fray_fight_same(fight, copy) ||
         fray_fight_seed(fight) != fray_fight_seed(copy) ||
         fray_fight_events(fight) != fray_fight_events(copy) ||
         fray_fight_recorded(fight) != fray_fight_recorded(copy) ||
         info.torn)) {
        fprintf(stderr, "the journal written back replays to another fight\n");
        abort();
    }
    fray_fight_free(copy);
    free(again);
}

#endif

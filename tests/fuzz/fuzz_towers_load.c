/* fuzz_towers_load.c - libFuzzer target for the 99 Towers loader
 * (src/rules/towers/load.c): any bytes as an encounter, stat-block or
 * catalog file must load, or be refused with a message and a line, never
 * crash or leak. The input is read from memory (ft_load_text) as if it
 * were a file in examples/towers/, so the catalog and stat blocks it names
 * there (statblocks.yaml, ../../data/towers/equipment.yaml) are read too.
 * An encounter that loads must also start and run a short fight: what the
 * loader accepts, the engine can play. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "towers_int.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

/* Bigger inputs only make the run slower: the loader's limits (files,
 * combatants, nesting) are all reachable in a few kilobytes. */
enum { MAX_INPUT = 8192 };

static const char input_path[] = FRAY_SOURCE_DIR "/examples/towers/fuzz-input.yaml";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MAX_INPUT)
        return 0;
    /* A copy of exactly `size` bytes (no NUL): ASan sees any read past
     * the text the loader was given. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    /* The setup is big (about 170 KB): one for the whole run, so that each
     * input does not pay for mapping it afresh. */
    static fray_towers_setup *ts;
    if (!ts && !(ts = calloc(1, sizeof *ts))) {
        free(text);
        return 0;
    }
    ft_setup *setup = &ts->s;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = ft_load_text(text, size, input_path, &fuzz_alloc, setup,
                                  &diag);
    if (st != FRAY_OK) {
        /* Every error says what went wrong, and where when it can. */
        if (diag.message[0] == '\0' || diag.line < 0 || diag.column < 0)
            abort();
    } else if (setup->n_combatants < 0 ||
               setup->n_combatants > FT_MAX_COMBATANTS) {
        abort();
    } else if (setup->n_combatants > 0) {
        /* An encounter (not a catalog or stat blocks alone): a few rounds
         * driven by the tactics policies. */
        fray_towers_fight_options opts = {.journal = false, .facts = true,
                                          .until_phase = 30};
        fray_towers_fight *fight = NULL;
        if (fray_towers_fight_new(ts, 1, &opts, NULL, &fight) == FRAY_OK) {
            fray_status rc = fray_towers_fight_run(fight);
            if (rc != FRAY_OK && rc != FRAY_ERR_NOMEM)
                abort(); /* the policies only make legal commands */
            fray_towers_fight_free(fight);
        }
    }
    free(text);
    return 0;
}

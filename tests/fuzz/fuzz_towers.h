/* fuzz_towers.h - what the 99 Towers fuzz targets that play a fight of an
 * example encounter share (fuzz_towers_command.c, fuzz_towers_journal.c):
 * the encounter, loaded once for the whole run in LLVMFuzzerInitialize,
 * and each input as a C string with a fresh fight of that encounter.
 *
 * A target defines FUZZ_TOWERS_EXAMPLE, the file in examples/towers/ it
 * plays ("duel.yaml"), before it includes this header. */
#ifndef FRAY_FUZZ_TOWERS_H
#define FRAY_FUZZ_TOWERS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"
#include "fuzz_alloc.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

#ifndef FUZZ_TOWERS_EXAMPLE
#error "define FUZZ_TOWERS_EXAMPLE (a file in examples/towers/) first"
#endif

/* The encounter, loaded once for the whole run (the harness's only
 * state; the library has none). */
static fray_towers_setup *setup;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    fray_diag diag = {0};
    if (fray_towers_load(FRAY_SOURCE_DIR "/examples/towers/" FUZZ_TOWERS_EXAMPLE,
                         NULL, &setup, &diag) != FRAY_OK) {
        fprintf(stderr, "%s: cannot load %s: %s\n", (*argv)[0],
                FUZZ_TOWERS_EXAMPLE, diag.message);
        abort();
    }
    return 0;
}

/* The input as a NUL-terminated copy in *out_text, and a new fight of the
 * encounter from seed 1 with its journal and facts, on the allocator that
 * keeps big blocks (fuzz_alloc.h). NULL, with nothing to free, for an
 * input longer than max_input or when memory runs out; else the caller
 * frees both (fray_towers_fight_free, free). */
static inline fray_towers_fight *fuzz_towers_start(const uint8_t *data, size_t size,
                                            size_t max_input, char **out_text) {
    if (size > max_input)
        return NULL;
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    fray_towers_fight_options opts = {.journal = true, .facts = true,
                                      .until_phase = 0};
    fray_towers_fight *fight = NULL;
    if (fray_towers_fight_new(setup, 1, &opts, &fuzz_alloc, &fight) != FRAY_OK) {
        free(text);
        return NULL;
    }
    *out_text = text;
    return fight;
}

#endif

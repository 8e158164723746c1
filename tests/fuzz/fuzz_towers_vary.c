/* fuzz_towers_vary.c - libFuzzer target for sweeps (fray_towers_setup_vary,
 * src/rules/towers/vary.c; `fray sim --vary`) on examples/towers/ambush.yaml
 * (a counted group, armor, ranged weapons, surprise): each line of the
 * input is KEY=VALUE. A change is applied or refused with a message and
 * the setup unchanged; then a fight of the changed encounter runs to its
 * end. Any value the vary API accepts must give a fight that ends, never a
 * crash, a hang or a leak. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOWERS_EXAMPLE "ambush.yaml"
#include "fuzz_towers.h"

enum { MAX_INPUT = 1024, MAX_LINES = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fray_towers_setup *s = NULL;
    if (fray_towers_setup_copy(setup, &fuzz_alloc, &s) != FRAY_OK) {
        free(text);
        return 0;
    }
    char *line = text;
    for (int n = 0; line && n < MAX_LINES; n++) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = '\0';
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status st = fray_towers_setup_vary(s, line, eq + 1, &diag);
            if (st != FRAY_OK && diag.message[0] == '\0')
                abort(); /* a refusal always says why */
        }
        line = end ? end + 1 : NULL;
    }
    fray_towers_fight_options opts = {.journal = false, .facts = false,
                                      .until_phase = 400};
    fray_towers_fight *fight = NULL;
    if (fray_towers_fight_new(s, 3, &opts, &fuzz_alloc, &fight) == FRAY_OK) {
        fray_status st = fray_towers_fight_run(fight);
        if (st != FRAY_OK && st != FRAY_ERR_NOMEM)
            abort(); /* a varied encounter still plays to its end */
        if (!fray_towers_fight_over(fight))
            abort();
        fray_towers_fight_free(fight);
    }
    fray_towers_setup_free(s);
    free(text);
    return 0;
}

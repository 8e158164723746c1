/* fuzz_winter_command.c - libFuzzer target for Silent Winter's table
 * commands (fray_fight_command: tell.c sw_parse, then rules.c sw_check and
 * sw_apply) on examples/silent-winter/sniper.yaml (Sniping, cover, a
 * melee ally, two bandits): each line of the input is a command
 * ("archer attack bandit-1", "bandit-1 chase archer dice 20 1", "next",
 * ...) that may end with "dice N N ...", or "undo", "redo", "auto" (one
 * step by the tactics). The driver and what it checks: fuzz_command.h. */
#include <stdint.h>

#define FUZZ_RULES "silent-winter"
#define FUZZ_EXAMPLE "silent-winter/sniper.yaml"
#include "fuzz_command.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return fuzz_command_run(data, size);
}

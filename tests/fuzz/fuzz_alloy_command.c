/* fuzz_alloy_command.c - libFuzzer target for Alloy's table commands
 * (fray_fight_command: parse.c, then the rules' check and apply) on
 * examples/alloy/skirmish.yaml (a map, walls, nine combatants): each line
 * of the input is a command ("vance attack thug-1 with pistol", "next",
 * "lyra walk 5,4 decline all", ...) that may end with "dice N N ..." (the
 * dice rolled by hand, as `fray fight --table` takes them), or "undo",
 * "redo", or "auto" (one step by the tactics). The driver and what it
 * checks: fuzz_command.h. */
#include <stdint.h>

#define FUZZ_RULES "alloy"
#define FUZZ_EXAMPLE "alloy/skirmish.yaml"
#include "fuzz_command.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return fuzz_command_run(data, size);
}

/*
 * draw.c - quick draw (seed 003:95-99; rulesets-checklists D6.1, D7.21;
 * docs/rules/d6.md "Scale and quick draw"): announced before initiative
 * is rolled, some of the skill's dice moved to Acumen for that round's
 * initiative, at least 1D left, 1D off the skill for each attack beyond
 * the first before the move, every attack of the round at the code left
 * with no further multi-action penalty, with a weapon suitable for quick
 * drawing (or none). The pips stay where they are (D7.21).
 */
#include "d6_int.h"

#include <stdio.h>

fray_status d6_quick_draw(d6_code acumen, d6_code skill, int attacks, int moved,
                          d6_quick *out, char *why, size_t size) {
    if (why && size)
        why[0] = '\0';
    if (attacks < 1 || attacks > D6_MAX_ACTIONS) {
        if (why && size)
            snprintf(why, size, "a quick draw makes 1 to %d attacks", D6_MAX_ACTIONS);
        return FRAY_ERR_INVALID;
    }
    int base = skill.dice - (attacks - 1); /* 1D off per extra attack (003:97) */
    int max = base - 1;                    /* at least 1D stays (003:97) */
    if (max < 1 || moved < 1 || moved > max) {
        if (why && size) {
            if (max < 1)
                snprintf(why, size, "%dD in the skill with %d attacks leaves no die to "
                                    "move (at least 1D stays in the skill)",
                         skill.dice, attacks);
            else
                snprintf(why, size, "with %d attack%s at most %dD may move to Acumen (the "
                                    "skill is %dD after %dD off for the extra attacks; "
                                    "1D stays)",
                         attacks, attacks == 1 ? "" : "s", max, base, attacks - 1);
        }
        return FRAY_ERR_INVALID;
    }
    out->max_move = max;
    out->acumen = acumen;
    out->acumen.dice += moved;
    out->skill = skill;
    out->skill.dice = base - moved;
    return FRAY_OK;
}

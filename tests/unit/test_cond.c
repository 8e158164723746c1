/*
 * test_cond.c - the core's conditions with durations (src/core/cond.h):
 * find, the mask of kinds, append with its refusal when full, drop in
 * order, and the tick at the start or end of a turn (seed 000
 * "Conditions": "until the end of its next activation"; seed 004:277-279
 * effects ending at the start or end of a turn).
 */
#include <criterion/criterion.h>

#include "cond.h"

static fray__cond cond_of(int kind, int ends, int whose, int count) {
    return (fray__cond){.kind = (uint8_t)kind,
                        .ends = (uint8_t)ends,
                        .whose = (int8_t)whose,
                        .count = (int8_t)count,
                        .other = -1,
                        .source = -1};
}

Test(cond, find_mask_append_and_full) {
    fray__cond c[3];
    uint8_t n = 0;
    cr_assert_eq(fray__cond_append(c, &n, 3, cond_of(4, FRAY__ENDS_EVENT, -1, 0)), FRAY_OK);
    fray__cond aid = cond_of(7, FRAY__ENDS_USED, 1, 0);
    aid.other = 2;
    cr_assert_eq(fray__cond_append(c, &n, 3, aid), FRAY_OK);
    cr_assert_eq(fray__cond_append(c, &n, 3, cond_of(7, FRAY__ENDS_EVENT, -1, 0)), FRAY_OK);
    cr_assert_eq(fray__cond_append(c, &n, 3, cond_of(9, FRAY__ENDS_EVENT, -1, 0)),
                 FRAY_ERR_RANGE, "full: refused, never dropped silently");
    cr_assert_eq(n, 3);
    cr_assert_eq(fray__cond_mask(c, n), (1u << 4) | (1u << 7));
    cr_assert_eq(fray__cond_find(c, n, 7, -1), 1);
    cr_assert_eq(fray__cond_find(c, n, 7, 2), 1);
    cr_assert_eq(fray__cond_find(c, n, 7, 5), -1);
    cr_assert_eq(fray__cond_find(c, n, 9, -1), -1);
}

Test(cond, drop_keeps_the_order_and_zeroes_the_freed_entry) {
    fray__cond c[4];
    uint8_t n = 0;
    for (int k = 0; k < 4; k++)
        cr_assert_eq(fray__cond_append(c, &n, 4, cond_of(k, FRAY__ENDS_EVENT, -1, 0)), FRAY_OK);
    cr_assert_eq(fray__cond_drop(c, &n, 1), 1);
    cr_assert_eq(n, 3);
    cr_assert_eq(c[0].kind, 0);
    cr_assert_eq(c[1].kind, 2);
    cr_assert_eq(c[2].kind, 3);
    fray__cond zero;
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(memcmp(&c[3], &zero, sizeof zero), 0);
    cr_assert_eq(fray__cond_drop(c, &n, 3), -1, "out of range");
    cr_assert_eq(fray__cond_drop(c, &n, -1), -1);
}

/* Seed 000 "Conditions": Stunned "until the end of its next activation"
 * given by combatant 2: it goes at the end of 2's next activation, not at
 * its start, and not at anyone else's; a count of 2 lasts two of them. */
Test(cond, tick_counts_down_whose_turns_and_takes_off_in_order) {
    fray__cond c[4];
    uint8_t n = 0;
    uint8_t ended[4];
    cr_assert_eq(fray__cond_append(c, &n, 4, cond_of(1, FRAY__ENDS_END_OF_TURN, 2, 1)), FRAY_OK);
    cr_assert_eq(fray__cond_append(c, &n, 4, cond_of(2, FRAY__ENDS_START_OF_TURN, 2, 1)), FRAY_OK);
    cr_assert_eq(fray__cond_append(c, &n, 4, cond_of(3, FRAY__ENDS_END_OF_TURN, 2, 2)), FRAY_OK);
    cr_assert_eq(fray__cond_append(c, &n, 4, cond_of(5, FRAY__ENDS_EVENT, -1, 0)), FRAY_OK);
    cr_assert_eq(fray__cond_tick(c, &n, 0, false, ended), 0, "someone else's turn");
    cr_assert_eq(fray__cond_tick(c, &n, 2, false, ended), 1);
    cr_assert_eq(ended[0], 2, "the start of 2's turn ends only the start-of-turn one");
    cr_assert_eq(fray__cond_tick(c, &n, 2, true, ended), 1);
    cr_assert_eq(ended[0], 1);
    cr_assert_eq(n, 2);
    cr_assert_eq(c[0].kind, 3);
    cr_assert_eq(c[0].count, 1, "one of its two turns gone");
    cr_assert_eq(fray__cond_tick(c, &n, 2, true, ended), 1);
    cr_assert_eq(ended[0], 3);
    cr_assert_eq(n, 1);
    cr_assert_eq(c[0].kind, 5, "until an event: no turn ends it");
}

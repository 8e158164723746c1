/*
 * test_sim_vary.c - a sweep's LIST (fray_towers_vary_list, `fray sim --vary
 * KEY=LIST`; include/fray/sim.h, docs/file-formats.md "Sweeps") and the
 * values fray_towers_setup_vary reads. Issue 11 "--vary ranges near 2^63
 * overflow (UBSan)": ranges are counted exactly for any two 64-bit ends
 * (this file runs under UBSan in the sanitizer build, where the old
 * `hi - lo` and `v++` at LONG_MAX abort), and a range with more values
 * than a sweep holds is refused with its size, never walked.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "towers_fixture.h"

static fray_status list(const char *text, fray_vary_list *out, char *msg) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_vary_list(text, out, &d);
    if (msg)
        snprintf(msg, 256, "%s", d.message);
    if (rc != FRAY_OK)
        cr_expect_neq(d.message[0], '\0', "a refusal says why: %s", text);
    return rc;
}

Test(sim_vary, values_and_ranges) {
    fray_vary_list l;
    cr_assert_eq(list("1..3,7,power-attack", &l, NULL), FRAY_OK);
    cr_assert_eq(l.n, 5);
    const char *want[] = {"1", "2", "3", "7", "power-attack"};
    for (int i = 0; i < 5; i++)
        cr_expect_str_eq(l.value[i], want[i]);
    cr_assert_eq(list("-2..1", &l, NULL), FRAY_OK);
    cr_expect_eq(l.n, 4);
    cr_expect_str_eq(l.value[0], "-2");
    cr_expect_str_eq(l.value[3], "1");
    cr_assert_eq(list("+1..+2", &l, NULL), FRAY_OK);
    cr_expect_eq(l.n, 2);
    cr_expect_str_eq(l.value[1], "2");
    /* A range of one value. */
    cr_assert_eq(list("4..4", &l, NULL), FRAY_OK);
    cr_expect_eq(l.n, 1);
}

/* Issue 11: the ends of the long long range, read exactly: the last two
 * values below 2^63 and the first two from -2^63 are a sweep of 2. */
Test(sim_vary, ranges_at_the_ends_of_64_bits) {
    fray_vary_list l;
    cr_assert_eq(list("9223372036854775806..9223372036854775807", &l, NULL),
                 FRAY_OK);
    cr_assert_eq(l.n, 2);
    cr_expect_str_eq(l.value[0], "9223372036854775806");
    cr_expect_str_eq(l.value[1], "9223372036854775807");
    cr_assert_eq(list("-9223372036854775808..-9223372036854775807", &l, NULL),
                 FRAY_OK);
    cr_assert_eq(l.n, 2);
    cr_expect_str_eq(l.value[0], "-9223372036854775808");
    cr_expect_str_eq(l.value[1], "-9223372036854775807");
    cr_assert_eq(list("9223372036854775807..9223372036854775807", &l, NULL),
                 FRAY_OK);
    cr_expect_eq(l.n, 1);
}

/* Issue 11: "bound the count of values": a range wider than a sweep is
 * refused with its size (the whole 64-bit span is 2^64 values, one more
 * than a uint64_t holds), at once, with nothing kept. */
Test(sim_vary, too_many_values_are_refused_with_the_count) {
    fray_vary_list l;
    char msg[256];
    clock_t t0 = clock();
    cr_expect_eq(list("-9223372036854775808..9223372036854775807", &l, msg),
                 FRAY_ERR_RANGE);
    cr_expect(strstr(msg, "18446744073709551616 values"), "%s", msg);
    cr_expect_eq(l.n, 0);
    cr_expect_eq(list("1..9223372036854775807", &l, msg), FRAY_ERR_RANGE);
    cr_expect(strstr(msg, "9223372036854775807 values"), "%s", msg);
    cr_expect(strstr(msg, "200"), "names the limit: %s", msg);
    cr_expect_eq(list("-9223372036854775807..0", &l, msg), FRAY_ERR_RANGE);
    cr_expect(strstr(msg, "9223372036854775808 values"), "%s", msg);
    /* Never walked: a million of these take no time. */
    for (int i = 0; i < 1000000; i++)
        if (fray_towers_vary_list("0..9223372036854775807", &l, NULL) !=
            FRAY_ERR_RANGE)
            cr_assert_fail("a range of 2^63 values is refused");
    cr_expect_lt((double)(clock() - t0) / CLOCKS_PER_SEC, 5.0);
    /* Exactly as many as a sweep holds, and one more. */
    char text[64];
    snprintf(text, sizeof text, "1..%d", FRAY_VARY_MAX_VALUES);
    cr_expect_eq(list(text, &l, NULL), FRAY_OK);
    cr_expect_eq(l.n, FRAY_VARY_MAX_VALUES);
    snprintf(text, sizeof text, "0..%d", FRAY_VARY_MAX_VALUES);
    cr_expect_eq(list(text, &l, msg), FRAY_ERR_RANGE);
    cr_expect_eq(l.n, 0);
    /* Counted with the values before it. */
    snprintf(text, sizeof text, "7,1..%d", FRAY_VARY_MAX_VALUES);
    cr_expect_eq(list(text, &l, msg), FRAY_ERR_RANGE);
    cr_expect(strstr(msg, "with the 1 before it"), "%s", msg);
}

Test(sim_vary, malformed_lists_name_the_item) {
    fray_vary_list l;
    char msg[256];
    struct {
        const char *text;
        fray_status rc;
        const char *names;
    } bad[] = {
        {"5..1", FRAY_ERR_RANGE, "'5..1' runs backwards"},
        {"9223372036854775807..-9223372036854775808", FRAY_ERR_RANGE,
         "runs backwards"},
        {" 1..3", FRAY_ERR_PARSE, "' 1..3'"},   /* no leading space */
        {"1.. 3", FRAY_ERR_PARSE, "'1.. 3'"},
        {"1..3 ", FRAY_ERR_PARSE, "'1..3 '"},
        {"9223372036854775808..9223372036854775809", FRAY_ERR_PARSE,
         "9223372036854775808"},               /* past 2^63 - 1 */
        {"..3", FRAY_ERR_PARSE, "'..3'"},
        {"1..", FRAY_ERR_PARSE, "'1..'"},
        {"1..2..3", FRAY_ERR_PARSE, "'1..2..3'"},
        {"0x1..0x3", FRAY_ERR_PARSE, "'0x1..0x3'"},
        {"1,,2", FRAY_ERR_PARSE, "empty"},
        {"1,2,", FRAY_ERR_PARSE, "empty"},
        {"", FRAY_ERR_PARSE, "empty"},
        {"abcdefghijabcdefghijabcdefghijXY", FRAY_ERR_PARSE, "too long"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(list(bad[i].text, &l, msg), bad[i].rc, "'%s': %s",
                     bad[i].text, msg);
        cr_expect(strstr(msg, bad[i].names), "'%s': %s", bad[i].text, msg);
        cr_expect_eq(l.n, 0);
    }
}

/* Issue 11 ("--seed ' -5'", the same for values): a value is an optional
 * sign and digits, nothing else. */
Test(sim_vary, values_are_whole_numbers_without_spaces) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_towers_setup_vary(s, "aldric.PA", " 5", &d),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "' 5'"), "%s", d.message);
    cr_expect_eq(fray_towers_setup_vary(s, "aldric.PA", "5 ", &d),
                 FRAY_ERR_PARSE);
    cr_expect_eq(fray_towers_setup_vary(s, "aldric.PA", "9223372036854775807",
                                        &d),
                 FRAY_ERR_RANGE);
    cr_expect_eq(fray_towers_setup_vary(s, "aldric.PA", "99999999999999999999",
                                        &d),
                 FRAY_ERR_PARSE);
    cr_expect_eq(fray_towers_setup_vary(s, "aldric.PA", "+5", &d), FRAY_OK);
    cr_expect_eq(fray_towers_setup_vary(s, "aldric.PA", "-1", &d),
                 FRAY_ERR_RANGE);
    fray_towers_setup_free(s);
}

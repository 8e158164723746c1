/*
 * test_layer_setup.c - the registry and fray_setup (src/encounter/
 * rulesets.c, setup.c; docs/file-formats.md "Rulesets"; issue 12 step 1):
 * a file's `rules:` word picks its ruleset's table, and the registry is
 * the one place that decides; everything asked of a setup goes through
 * that table.
 */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fray/fray.h"
#include "layer.h"

static void path_of(char *out, size_t size, const char *rel) {
    snprintf(out, size, "%s/%s", FRAY_SOURCE_DIR, rel);
}

static fray_setup *load_ok(const char *rel) {
    char path[512];
    path_of(path, sizeof path, rel);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d:%d: %s", path, d.line, d.column,
                 d.message);
    return s;
}

/* A file holding `text`, in the temporary folder (the caller unlinks). */
static void temp_file(char *path, size_t size, const char *suffix,
                      const char *text) {
    snprintf(path, size, "/tmp/fray_layer_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    cr_assert(fd >= 0);
    size_t n = strlen(text);
    cr_assert_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
}

Test(layer_setup, registry_lists_towers_first) {
    cr_assert_not_null(fray__rulesets[0]);
    cr_expect_str_eq(fray__rulesets[0]->name, "towers");
    cr_expect_eq(fray__ruleset_find("towers"), fray__rulesets[0]);
    cr_expect_null(fray__ruleset_find("chess"));
    cr_expect_null(fray__ruleset_find(NULL));
    /* Every table fills what the layer calls without asking. */
    for (int i = 0; fray__rulesets[i]; i++) {
        const fray__ruleset *rs = fray__rulesets[i];
        cr_expect(rs->load && rs->check && rs->fight_new && rs->begin &&
                      rs->step && rs->command && rs->event_pack &&
                      rs->replay && rs->event_read && rs->event_json &&
                      rs->sim_fight_new && rs->run && rs->count &&
                      rs->harm_name && rs->spent_name && rs->action_name,
                  "%s", rs->name);
        cr_expect_gt(rs->event_max, 0);
    }
}

/* docs/file-formats.md "Rulesets": a file without `rules:` is 99 Towers;
 * everything about the setup comes through the table. */
Test(layer_setup, no_rules_key_is_towers) {
    fray_setup *s = load_ok("examples/towers/duel.yaml");
    cr_expect_str_eq(fray_setup_rules(s), "towers");
    cr_expect_str_eq(fray_setup_title(s), "99 Towers");
    cr_expect_str_eq(fray_setup_time_unit(s), "phase");
    const fray_towers_setup *t = fray_setup_ruleset_data(s);
    cr_assert_not_null(t);
    cr_expect_str_eq(fray_setup_name(s), fray_towers_setup_name(t));
    cr_expect_eq(fray_setup_sides(s), 2);
    cr_expect_eq(fray_setup_combatants(s), 2);
    for (int i = 0; i < 2; i++) {
        cr_expect_str_eq(fray_setup_combatant_name(s, i),
                         fray_towers_setup_combatant_name(t, i));
        cr_expect_str_eq(fray_setup_combatant_id(s, i),
                         fray_towers_setup_combatant_id(t, i));
        cr_expect_eq(fray_setup_combatant_side(s, i),
                     fray_towers_setup_combatant_side(t, i));
    }
    uint64_t a = 0, b = 0;
    cr_expect_eq(fray_setup_seed(s, &a), fray_towers_setup_seed(t, &b));
    cr_expect(a == b);
    fray_setup_free(s);
}

/* D6, registered (issue 18), reads a file of its rules itself: its
 * loader, not 99 Towers', says what is wrong with this one (a key of
 * 99 Towers' encounters), at file:line:column ... */
Test(layer_setup, d6_file_read_by_d6) {
    char path[512];
    path_of(path, sizeof path, "tests/data/towers/bad_rules_d6.yaml");
    fray_setup *s = (fray_setup *)1;
    fray_diag d;
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect_null(s);
    cr_expect_str_eq(d.file, path);
    cr_expect_eq(d.line, 7);
    cr_expect(strstr(d.message, "'sides'") != NULL, "%s", d.message);
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_setup_check(path, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 7);
}

/* ... and Silent Winter, registered (issue 17), reads a file of its
 * rules itself: its loader says what is wrong with this one. */
Test(layer_setup, winter_file_read_by_silent_winter) {
    char path[512];
    path_of(path, sizeof path, "tests/data/towers/bad_rules_winter.yaml");
    fray_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 7);
    cr_expect(strstr(d.message, "unknown key 'sides'") != NULL, "%s", d.message);
}

/* ... a near miss, with did-you-mean ... */
Test(layer_setup, typo_gets_did_you_mean) {
    char path[512];
    path_of(path, sizeof path, "tests/data/towers/bad_rules_typo.yaml");
    fray_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 3);
    cr_expect_eq(d.column, 8);
    cr_expect_str_eq(d.message, "no ruleset 'tower' (did you mean 'towers'?)");
}

/* ... and an unknown word, with the rulesets there are. */
Test(layer_setup, unknown_word_lists_rulesets) {
    char path[512];
    path_of(path, sizeof path, "tests/data/towers/bad_rules_unknown.yaml");
    fray_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 3);
    cr_expect_str_eq(d.message, "no ruleset 'chess': fray knows towers (99 "
                                "Towers), alloy (Alloy), silent-winter "
                                "(Silent Winter) and d6 (D6)");
}

/* JSON files name their rules the same way; a quoted YAML word and a
 * comment after it are read too. */
Test(layer_setup, json_and_quoted_rules) {
    char path[128];
    temp_file(path, sizeof path, ".json",
              "{\"fray\": \"encounter\", \"name\": \"x\",\n"
              "  \"rules\": \"chess\"}\n");
    fray_setup *s = NULL;
    fray_diag d;
    cr_expect_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 2);
    cr_expect_eq(d.column, 12);
    cr_expect(strstr(d.message, "no ruleset 'chess'") != NULL, "%s",
              d.message);
    unlink(path);
    temp_file(path, sizeof path, ".yaml",
              "fray: encounter\nrules: \"chess\"  # later\n");
    cr_expect_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect_eq(d.line, 2);
    cr_expect(strstr(d.message, "'chess'") != NULL, "%s", d.message);
    unlink(path);
    /* A rules key inside a mapping is not the file's. */
    temp_file(path, sizeof path, ".yaml",
              "fray: encounter\nnotes:\n  rules: chess\n");
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_setup_load(path, NULL, &s, &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "chess") == NULL,
              "read by 99 Towers, which says what is wrong: %s", d.message);
    unlink(path);
}

/* fray_setup_check names what it read, as 99 Towers' check does. */
Test(layer_setup, check_summary) {
    char path[512];
    path_of(path, sizeof path, "examples/towers/duel.yaml");
    fray_diag d;
    cr_assert_eq(fray_setup_check(path, &d), FRAY_OK, "%s", d.message);
    cr_expect(strstr(d.message, "encounter \"") == d.message, "%s", d.message);
}

/* Sweeps: fray_setup_vary through the table, on a copy only. */
Test(layer_setup, copy_and_vary) {
    fray_setup *s = load_ok("examples/towers/duel.yaml");
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_setup *c = NULL;
    cr_assert_eq(fray_setup_copy(s, NULL, &c), FRAY_OK);
    cr_expect_str_eq(fray_setup_rules(c), "towers");
    const char *who = fray_setup_combatant_id(c, 0);
    char key[96];
    snprintf(key, sizeof key, "%s.PA", who);
    cr_expect_eq(fray_setup_vary(c, key, "1", &d), FRAY_OK, "%s", d.message);
    cr_expect_neq(fray_setup_vary(c, "no-such-key", "1", &d), FRAY_OK);
    cr_expect(strstr(d.message, "no-such-key") != NULL, "%s", d.message);
    /* The original is untouched. */
    const fray_towers_setup *a = fray_setup_ruleset_data(s);
    const fray_towers_setup *b = fray_setup_ruleset_data(c);
    cr_expect_neq(a, b);
    fray_setup_free(c);
    fray_setup_free(s);
}

/* Issue 12 step 5: exact duel odds through the table, and for a ruleset
 * without them the words users read (fray odds duel). */
Test(layer_setup, duel_odds_not_built_for_a_ruleset_without) {
    static const fray__ruleset fake = {.name = "fake", .title = "Fake Rules",
                                       .time_unit = "round"};
    fray_setup s;
    fray__setup_borrow(&s, &fake, NULL);
    fray_duel_odds o;
    fray_diag d;
    cr_expect_eq(fray_setup_duel_odds(&s, 0, 1, 0, &o, &d), FRAY_ERR_INVALID);
    cr_expect_str_eq(d.message, "exact duel odds are not built for Fake Rules");
    cr_expect_str_eq(fray_setup_time_unit(&s), "round");
    /* 99 Towers has them: fray_setup_duel builds the duel of two stat
     * blocks by the first file's rules, and the chain is
     * fray_towers_duel_odds'. */
    char path[512];
    path_of(path, sizeof path, "examples/towers/statblocks.yaml");
    fray_setup *t = NULL;
    cr_assert_eq(fray_setup_duel(path, "Bandit", path, "Bandit", NULL, NULL,
                                 NULL, &t, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect_str_eq(fray_setup_rules(t), "towers");
    fray_duel_odds a, b;
    fray_diag d2;
    memset(&d2, 0, sizeof d2);
    fray_status ra = fray_setup_duel_odds(t, 0, 1, 0, &a, &d);
    fray_status rb =
        fray_towers_duel_odds(fray_setup_ruleset_data(t), 0, 1, &b, &d2);
    cr_expect_eq(ra, rb, "%s / %s", d.message, d2.message);
    if (ra == FRAY_OK && rb == FRAY_OK) {
        cr_expect(a.p_win[0] == b.p_win[0] && a.p_win[1] == b.p_win[1]);
        cr_expect_eq(a.states, b.states);
    } else {
        cr_expect_str_eq(d.message, d2.message);
    }
    fray_setup_free(t);
}

/*
 * test_words.c - the table's command words (src/encounter/words.h): the
 * list of ids a refusal names, cut to fit.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "words.h"

static const char *name_of(const void *ctx, int i) {
    return ((const char *const *)ctx)[i];
}

Test(words, join_lists_and_cuts_to_fit) {
    const char *ids[] = {"aldric", "black-knight", "bandit-1", "bandit-2"};
    char buf[64];
    fray__words_join(buf, sizeof buf, name_of, ids, 2);
    cr_assert_str_eq(buf, "aldric, black-knight");
    fray__words_join(buf, 30, name_of, ids, 4);
    cr_assert_str_eq(buf, "aldric, black-knight, ...");
    cr_assert_lt(strlen(buf), 30);
    fray__words_join(buf, 6, name_of, ids, 4);
    cr_assert_str_eq(buf, "...");
    fray__words_join(buf, sizeof buf, name_of, ids, 0);
    cr_assert_str_eq(buf, "");
}

/* Issue 13: names with spaces in quotes at the table. */
Test(words, quoted_names_hold_spaces) {
    fray__words w;
    fray__words_init(&w, "\"Sir Aldric\" attack  \"The Black Knight\" \"open");
    cr_assert(fray__words_next(&w));
    cr_assert_str_eq(w.tok, "Sir Aldric");
    cr_assert_eq(w.col, 1);
    cr_assert(fray__words_next(&w));
    cr_assert_str_eq(w.tok, "attack");
    cr_assert(fray__words_next(&w));
    cr_assert_str_eq(w.tok, "The Black Knight");
    cr_assert_eq(w.col, 22);
    cr_assert(fray__words_next(&w));
    cr_assert_str_eq(w.tok, "open", "a quote left open runs to the end");
    cr_assert_not(fray__words_next(&w));
}

/* A name as every ruleset's table reads it (docs/file-formats.md
 * "Commands"): any case, a space written '-' or '_', nothing more or
 * less. */
Test(words, names_as_the_table_writes_them) {
    cr_assert(fray__words_is_name("Long Sword", "long-sword", 10));
    cr_assert(fray__words_is_name("Long Sword", "LONG_SWORD", 10));
    cr_assert(fray__words_is_name("dagger", "dagger attack", 6), "only n bytes");
    cr_assert_not(fray__words_is_name("Long Sword", "long-swor", 9));
    cr_assert_not(fray__words_is_name("Long", "long-sword", 10));
    cr_assert_not(fray__words_is_name("Long Sword", "longxsword", 10));
    cr_assert_not(fray__words_is_name("axe", "", 0));
}

/* test_towers_robust.c - 99 Towers inputs the fuzz targets found wrong
 * (tests/fuzz/fuzz_towers_*.c), each kept here as a plain test, and the
 * in-memory loader those targets use (ft_load_text). Not rules: these
 * check that any file is loaded or refused cleanly (docs/file-formats.md:
 * fray files are YAML, which is UTF-8 text; YAML 1.2 "Single-Quoted
 * Style" for the text of quoted scalars). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "towers_int.h"

#define SRC FRAY_SOURCE_DIR "/"
/* In-memory files "live" next to the examples, so that statblocks.yaml
 * and the catalog they name are found. */
#define MEM_PATH SRC "examples/towers/memory.yaml"

/* Loads `text` (exactly its length, no NUL: ASan sees any read past it). */
static fray_status load_text(const char *text, ft_setup **out, fray_diag *diag) {
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    cr_assert_not_null(copy);
    memcpy(copy, text, len);
    ft_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    memset(diag, 0, sizeof *diag);
    fray_status st = ft_load_text(copy, len, MEM_PATH, NULL, s, diag);
    free(copy);
    *out = s;
    return st;
}

/* An encounter around one scalar: `name: <name_yaml>`. */
static fray_status load_named(const char *name_yaml, ft_setup **out,
                              fray_diag *diag) {
    char text[1024];
    snprintf(text, sizeof text,
             "fray: encounter\n"
             "name: %s\n"
             "statblocks: [statblocks.yaml]\n"
             "combatants:\n"
             "  - {id: a, statblock: Bandit, side: one}\n"
             "  - {id: b, statblock: Bandit, side: two}\n",
             name_yaml);
    return load_text(text, out, diag);
}

/* ---- Found by fuzz_towers_load --------------------------------------------- */

/* fuzz_towers_load: a byte that is not UTF-8 inside an unknown YAML
 * directive ("%e" then 0xF7) made libfyaml 0.7 loop forever, so the loader
 * never returned. The loader now refuses text that is not UTF-8 before
 * parsing it, at the line and column of the bad byte. */
Test(towers_robust, byte_not_utf8_in_a_directive_is_refused, .timeout = 10) {
    ft_setup *s;
    fray_diag diag;
    fray_status st = load_text("fray: enco~~}ar\n%e:\xF7 \x01", &s, &diag);
    cr_expect_eq(st, FRAY_ERR_PARSE);
    cr_expect_eq(diag.line, 2);
    cr_expect_eq(diag.column, 4);
    cr_expect_not_null(strstr(diag.message, "not UTF-8"), "%s", diag.message);
    cr_expect_not_null(strstr(diag.message, "0xF7"), "%s", diag.message);
    cr_expect_str_eq(diag.file, MEM_PATH);
    free(s);
}

/* The same check for a file on the disk (fray check, fray fight). */
Test(towers_robust, file_not_utf8_is_refused, .timeout = 10) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/fray-robust-%d.yaml", (int)getpid());
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs("fray: catalog\nweapons: []\n%e\xF7\n", f);
    fclose(f);
    fray_diag diag;
    const char *p = path;
    ft_setup *s = malloc(sizeof *s);
    cr_expect_eq(ft_load_files(&p, 1, s, &diag), FRAY_ERR_PARSE);
    cr_expect_eq(diag.line, 3);
    cr_expect_eq(diag.column, 3);
    cr_expect_not_null(strstr(diag.message, "not UTF-8"), "%s", diag.message);
    remove(path);
    free(s);
}

/* Where the bad byte is counts characters, not bytes; every kind of bad
 * sequence is caught (a lone continuation byte, an overlong form, a
 * surrogate, a sequence cut short by the end of the file). */
Test(towers_robust, utf8_errors_and_their_columns) {
    static const struct {
        const char *name; /* the YAML of the encounter's name (line 2) */
        int column;
    } cases[] = {
        {"Caf\xE9", 10},              /* Latin-1, not UTF-8 */
        {"\xC3\xA9t\xC3\xA9 \x80", 11}, /* "ete " then a continuation byte */
        {"\xC0\xAF", 7},              /* overlong '/' */
        {"\xED\xA0\x80", 7},          /* a UTF-16 surrogate */
        {"\xF4\x90\x80\x80", 7},      /* past U+10FFFF */
        {"ok \xE2\x82", 10},          /* cut short */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ft_setup *s;
        fray_diag diag;
        cr_expect_eq(load_named(cases[i].name, &s, &diag), FRAY_ERR_PARSE, "case %zu",
                     i);
        cr_expect_eq(diag.line, 2, "case %zu", i);
        cr_expect_eq(diag.column, cases[i].column, "case %zu: column %d", i,
                     diag.column);
        cr_expect_not_null(strstr(diag.message, "not UTF-8"), "case %zu: %s", i,
                           diag.message);
        free(s);
    }
}

/* UTF-8 text of every width loads as written. */
Test(towers_robust, utf8_text_loads) {
    ft_setup *s;
    fray_diag diag;
    cr_assert_eq(load_named("\"Caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x98\x80\"", &s, &diag),
                 FRAY_OK, "%s", diag.message);
    cr_expect_str_eq(s->name, "Caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x98\x80");
    free(s);
}

/* fuzz_towers_load: a single-quoted scalar with a run of escaped quotes
 * ('' '' '' '') made libfyaml 0.7 leak the memory it formats the text in
 * (LeakSanitizer), and read the text wrong ("a'''b" for 'a''''b'). The
 * loader reads single-quoted scalars itself (YAML 1.2 7.3.2). */
Test(towers_robust, single_quoted_runs_of_escaped_quotes) {
    ft_setup *s;
    fray_diag diag;
    cr_assert_eq(load_named("'Sir '''''''''' Knight'", &s, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_expect_str_eq(s->name, "Sir ''''' Knight");
    free(s);
    cr_assert_eq(load_named("'a''''b'", &s, &diag), FRAY_OK, "%s", diag.message);
    cr_expect_str_eq(s->name, "a''b");
    free(s);
}

/* The folding of a single-quoted scalar over several lines, as YAML 1.2
 * says (example 7.9 "Single Quoted Lines"): a line break is a space, an
 * empty line a line break, and the white space around breaks goes. */
Test(towers_robust, single_quoted_folding) {
    static const struct {
        const char *yaml;
        const char *text;
    } cases[] = {
        {"' 1st non-empty\n\n 2nd non-empty \n \t3rd non-empty '",
         " 1st non-empty\n2nd non-empty 3rd non-empty "},
        {"'it''s'", "it's"},
        {"'  spaces  '", "  spaces  "},
        {"'a\n  b'", "a b"},
        {"'a  \n\n\n  b'", "a\n\nb"},
        {"'a\r\n  b'", "a b"},
        {"'a\n  '", "a "},
        {"'x\n  ''y'''", "x 'y'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ft_setup *s;
        fray_diag diag;
        cr_assert_eq(load_named(cases[i].yaml, &s, &diag), FRAY_OK, "case %zu: %s",
                     i, diag.message);
        cr_expect_str_eq(s->name, cases[i].text, "case %zu", i);
        free(s);
    }
}

/* ---- The in-memory loader ------------------------------------------------------ */

/* The same fight from two setups: every event told alike, the same end. */
static void expect_same_fight(const ft_setup *a, const ft_setup *b,
                              const char *what) {
    fray_towers_setup *sa = calloc(1, sizeof *sa), *sb = calloc(1, sizeof *sb);
    cr_assert(sa && sb);
    sa->s = *a;
    sb->s = *b;
    fray_towers_fight_options o = {.journal = true, .facts = true};
    fray_towers_fight *fa, *fb;
    cr_assert_eq(fray_towers_fight_new(sa, 7, &o, NULL, &fa), FRAY_OK);
    cr_assert_eq(fray_towers_fight_new(sb, 7, &o, NULL, &fb), FRAY_OK);
    cr_assert_eq(fray_towers_fight_run(fa), FRAY_OK);
    cr_assert_eq(fray_towers_fight_run(fb), FRAY_OK);
    cr_expect(fray_towers_fight_same(fa, fb), "%s: the fights differ", what);
    int n = fray_towers_fight_events(fa);
    cr_expect_eq(fray_towers_fight_events(fb), n, "%s", what);
    static char ja[8192], jb[8192];
    for (int i = 0; i < n; i++) {
        fray_towers_event_json(fa, i, ja, sizeof ja);
        fray_towers_event_json(fb, i, jb, sizeof jb);
        cr_expect_str_eq(ja, jb, "%s: event %d", what, i);
    }
    fray_towers_summary(fa, ja, sizeof ja);
    fray_towers_summary(fb, jb, sizeof jb);
    cr_expect_str_eq(ja, jb, "%s", what);
    fray_towers_fight_free(fa);
    fray_towers_fight_free(fb);
    free(sa);
    free(sb);
}

/* ft_load_text reads the same as ft_load_files: an example's text, named
 * by its own path, gives the same setup, with the stat blocks and the
 * catalog it names read from the disk relative to that path. (Compared by
 * what it holds and the fight it gives, not byte for byte: names are
 * fixed-size buffers whose bytes after the NUL are not set.) */
Test(towers_robust, load_text_is_load_files) {
    static const char *const examples[] = {"duel.yaml", "skirmish.yaml",
                                           "ambush.yaml", "statblocks.yaml"};
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%sexamples/towers/%s", SRC, examples[i]);
        FILE *f = fopen(path, "rb");
        cr_assert_not_null(f, "%s", path);
        static char text[64 * 1024];
        size_t len = fread(text, 1, sizeof text, f);
        fclose(f);
        ft_setup *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
        fray_diag diag;
        const char *p = path;
        cr_assert_eq(ft_load_files(&p, 1, a, &diag), FRAY_OK, "%s", diag.message);
        cr_assert_eq(ft_load_text(text, len, path, NULL, b, &diag), FRAY_OK, "%s: %s",
                     examples[i], diag.message);
        cr_expect_str_eq(a->name, b->name);
        cr_expect_str_eq(a->source, b->source);
        cr_expect_eq(a->n_combatants, b->n_combatants, "%s", examples[i]);
        cr_expect_eq(a->n_sides, b->n_sides, "%s", examples[i]);
        cr_expect_eq(a->n_catalog, b->n_catalog, "%s", examples[i]);
        cr_expect_eq(a->n_armor, b->n_armor, "%s", examples[i]);
        cr_expect_eq(memcmp(&a->map, &b->map, sizeof a->map), 0, "%s", examples[i]);
        if (a->n_combatants > 0)
            expect_same_fight(a, b, examples[i]);
        free(a);
        free(b);
    }
}

/* Errors name the path given, with the line and column; an error in a
 * file it names names that file. */
Test(towers_robust, load_text_errors) {
    ft_setup *s;
    fray_diag diag;
    cr_expect_eq(load_text("fray: encounter\nname: x\nspeed: 3\n", &s, &diag),
                 FRAY_ERR_PARSE);
    cr_expect_str_eq(diag.file, MEM_PATH);
    cr_expect_eq(diag.line, 3);
    cr_expect_eq(diag.column, 1);
    free(s);
    cr_expect_eq(load_text("fray: encounter\nname: x\nstatblocks: [nothing.yaml]\n"
                           "combatants: []\n",
                           &s, &diag),
                 FRAY_ERR_IO);
    cr_expect_eq(diag.line, 3);
    cr_expect_not_null(strstr(diag.message, "cannot open 'nothing.yaml'"), "%s",
                       diag.message);
    free(s);
    /* Empty text, and no text. */
    cr_expect_eq(load_text("", &s, &diag), FRAY_ERR_PARSE);
    cr_expect_neq(diag.message[0], '\0');
    free(s);
    ft_setup one;
    cr_expect_eq(ft_load_text(NULL, 0, MEM_PATH, NULL, &one, &diag), FRAY_ERR_INVALID);
    cr_expect_neq(diag.message[0], '\0');
}

/* The text is `len` bytes, NUL or not: a NUL does not end it, and (issue
 * 11 "A NUL byte in a YAML file") is refused where it is, even in a
 * comment, rather than taken for the end of the file. */
Test(towers_robust, load_text_with_a_nul) {
    static const char text[] = "fray: catalog\nweapons: []\n# a\0b\narmor: []\n";
    ft_setup *s = calloc(1, sizeof *s);
    fray_diag diag;
    cr_expect_eq(ft_load_text(text, sizeof text - 1, MEM_PATH, NULL, s, &diag),
                 FRAY_ERR_PARSE, "%s", diag.message);
    cr_expect_eq(diag.line, 3);
    cr_expect_eq(diag.column, 4);
    cr_expect_not_null(strstr(diag.message, "a NUL byte"), "%s", diag.message);
    free(s);
}

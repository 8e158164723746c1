/*
 * test_setup_files.c - the files a setup read (fray_setup_file_count,
 * fray_setup_file_path; include/fray/fight.h; issue 14 "Storage: fights,
 * their encounter files"): each ruleset's loader lists every file it
 * opened, the encounter first, each once by its real path, so that the
 * server keeps exactly those (docs/server.md "The process").
 */
#define _DEFAULT_SOURCE /* realpath, mkdtemp, symlink */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fray/fray.h"

static fray_setup *load_ok(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d:%d: %s", path, d.line, d.column,
                 d.message);
    return s;
}

/* The real path of FRAY_SOURCE_DIR/rel. */
static void real_of(char *out, const char *rel) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    cr_assert_not_null(realpath(path, out), "%s", path);
}

/* The setup lists exactly want[0..n) in that order. */
static void lists(const fray_setup *s, const char *const *want, int n) {
    cr_assert_eq(fray_setup_file_count(s), n, "%d files listed, not %d",
                 fray_setup_file_count(s), n);
    for (int i = 0; i < n; i++) {
        char real[PATH_MAX];
        real_of(real, want[i]);
        cr_assert_str_eq(fray_setup_file_path(s, i), real, "file %d", i);
    }
    cr_assert_null(fray_setup_file_path(s, n));
    cr_assert_null(fray_setup_file_path(s, -1));
}

/* 99 Towers: examples/towers/duel.yaml names the equipment catalog
 * (two folders up) and statblocks.yaml, which names the catalog again:
 * three files, the encounter first, the catalog once. */
Test(setup_files, towers_duel_lists_every_file_it_read_once) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/examples/towers/duel.yaml",
             FRAY_SOURCE_DIR);
    fray_setup *s = load_ok(path);
    static const char *const want[] = {"examples/towers/duel.yaml",
                                       "data/towers/equipment.yaml",
                                       "examples/towers/statblocks.yaml"};
    lists(s, want, 3);
    fray_setup_free(s);
}

/* Alloy: examples/alloy/duel.yaml names the weapons catalog and its
 * stat blocks. */
Test(setup_files, alloy_duel_lists_every_file_it_read_once) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/examples/alloy/duel.yaml", FRAY_SOURCE_DIR);
    fray_setup *s = load_ok(path);
    cr_assert_str_eq(fray_setup_rules(s), "alloy");
    int n = fray_setup_file_count(s);
    cr_assert_geq(n, 3, "%d files", n);
    char real[PATH_MAX];
    real_of(real, "examples/alloy/duel.yaml");
    cr_assert_str_eq(fray_setup_file_path(s, 0), real, "the encounter first");
    bool weapons = false, blocks = false;
    char w[PATH_MAX], b[PATH_MAX];
    real_of(w, "data/alloy/weapons.yaml");
    real_of(b, "examples/alloy/statblocks.yaml");
    for (int i = 0; i < n; i++) {
        const char *p = fray_setup_file_path(s, i);
        weapons |= strcmp(p, w) == 0;
        blocks |= strcmp(p, b) == 0;
        for (int j = 0; j < i; j++)
            cr_assert_str_neq(p, fray_setup_file_path(s, j), "each once");
        struct stat st;
        cr_assert_eq(stat(p, &st), 0, "%s is a file it read", p);
    }
    cr_assert(weapons && blocks, "the catalog and the stat blocks are listed");
    fray_setup_free(s);
}

/* A copy (for sweeps) lists the same files. */
Test(setup_files, a_copy_lists_the_same_files) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/examples/towers/skirmish.yaml",
             FRAY_SOURCE_DIR);
    fray_setup *s = load_ok(path);
    fray_setup *c = NULL;
    cr_assert_eq(fray_setup_copy(s, NULL, &c), FRAY_OK);
    int n = fray_setup_file_count(s);
    cr_assert_gt(n, 1);
    cr_assert_eq(fray_setup_file_count(c), n);
    for (int i = 0; i < n; i++)
        cr_assert_str_eq(fray_setup_file_path(c, i), fray_setup_file_path(s, i));
    fray_setup_free(c);
    fray_setup_free(s);
}

/* A file reached through a link is listed by its real path (the server
 * checks it lies under encounters/), and a catalog named by two paths
 * that are one file is listed once. */
Test(setup_files, a_linked_file_is_listed_by_its_real_path) {
    char dir[] = "/tmp/fray_files_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char enc[PATH_MAX], cat[PATH_MAX], link[PATH_MAX], blocks[PATH_MAX];
    snprintf(enc, sizeof enc, "%s/enc.yaml", dir);
    snprintf(link, sizeof link, "%s/eq.yaml", dir);
    snprintf(cat, sizeof cat, "%s/data/towers/equipment.yaml", FRAY_SOURCE_DIR);
    snprintf(blocks, sizeof blocks, "%s/examples/towers/statblocks.yaml",
             FRAY_SOURCE_DIR);
    cr_assert_eq(symlink(cat, link), 0);
    FILE *f = fopen(enc, "w");
    cr_assert_not_null(f);
    fprintf(f, "fray: encounter\nrules: towers\nname: Linked\n"
               "catalog: [eq.yaml, ./eq.yaml]\nstatblocks: [%s]\n"
               "sides: [A, B]\ncombatants:\n"
               "  - {id: a, statblock: Knight of Areast, side: A}\n"
               "  - {id: b, statblock: Black Knight, side: B}\n",
            blocks);
    cr_assert_eq(fclose(f), 0);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_setup_load(enc, NULL, &s, &d);
    unlink(enc);
    unlink(link);
    rmdir(dir);
    cr_assert_eq(rc, FRAY_OK, "%d:%d: %s", d.line, d.column, d.message);
    static const char *const want[] = {"data/towers/equipment.yaml",
                                       "examples/towers/statblocks.yaml"};
    cr_assert_eq(fray_setup_file_count(s), 3);
    cr_assert(strstr(fray_setup_file_path(s, 0), "/enc.yaml") != NULL);
    for (int i = 0; i < 2; i++) {
        char real[PATH_MAX];
        real_of(real, want[i]);
        cr_assert_str_eq(fray_setup_file_path(s, i + 1), real);
    }
    fray_setup_free(s);
}

/* A load that fails keeps nothing (no list; the sanitizer build finds a
 * leak). */
Test(setup_files, a_file_the_rules_refuse_lists_nothing) {
    char path[] = "/tmp/fray_files_bad_XXXXXX.yaml";
    int fd = mkstemps(path, 5);
    cr_assert(fd >= 0);
    static const char text[] = "fray: encounter\nrules: towers\n"
                               "catalog: [no-such-file.yaml]\n";
    cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    cr_assert_eq(close(fd), 0);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    unlink(path);
    cr_assert_neq(rc, FRAY_OK);
    cr_assert_null(s);
    cr_assert_gt(d.line, 0, "the refusal says where: %s", d.message);
}

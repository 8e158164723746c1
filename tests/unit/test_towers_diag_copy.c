/*
 * test_towers_diag_copy.c - issue 15 "A clean package": a copied fray_diag
 * stays valid. An error in a file the caller did not name (a stat-block
 * file or catalog an encounter names) used to keep that file's path in the
 * spare end of the diag's own message, with `file` pointing there: a copy
 * of the struct pointed into the original. Now the path is the diag's own
 * (file_name) and nothing in a diag points into the struct itself. Run
 * under ASan, reading a copy after the original is freed would be caught.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fray/common.h"
#include "fray/encounter.h"
#include "fray/fight.h"

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void write_file(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* Whether p points into the bytes of *d. */
static bool points_into(const void *p, const fray_diag *d) {
    uintptr_t a = (uintptr_t)p, lo = (uintptr_t)d;
    return p && a >= lo && a < lo + sizeof *d;
}

/* Loads enc (in dir) into a diag on the heap, copies the diag, then
 * overwrites and frees the original: the copy must still name the file
 * at fault, and point into nothing but itself or the caller's strings. */
static void check_copy(const char *dir, const char *encounter,
                       const char *bad_file, int line) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, encounter);
    fray_diag *orig = malloc(sizeof *orig);
    cr_assert_not_null(orig);
    fray_setup *setup = NULL;
    fray_status st = fray_setup_load(path, NULL, &setup, orig);
    cr_assert_neq(st, FRAY_OK, "%s loads, but %s is wrong", encounter, bad_file);
    cr_assert_null(setup);
    fray_diag copy = *orig;
    cr_expect(!points_into(copy.file, orig), "the copy's file points into the original");
    memset(orig, 'Z', sizeof *orig);
    free(orig);
    const char *f = fray_diag_file(&copy);
    cr_assert_not_null(f, "the copy names no file");
    cr_expect(ends_with(f, bad_file), "the error is in '%s', not %s", f, bad_file);
    cr_expect_eq(copy.line, line, "%s", copy.message);
    cr_expect(copy.message[0] != '\0');
}

/* 99 Towers: an error in the stat-block file an encounter names. */
Test(diag_copy, towers_error_in_a_named_statblock_file) {
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/fray-diag-t-%d", (int)getpid());
    cr_assert_eq(mkdir(dir, 0700), 0);
    write_file(dir, "sb.yaml", "fray: statblocks\nstatblocks:\n  - {name: X, speeed: 3}\n");
    write_file(dir, "enc.yaml",
               "fray: encounter\nname: Copied\nstatblocks: [sb.yaml]\n"
               "sides: [a, b]\ncombatants:\n  - {id: x, statblock: X, side: a}\n"
               "  - {id: y, statblock: X, side: b}\n");
    check_copy(dir, "enc.yaml", "/sb.yaml", 3);
    char p[256];
    snprintf(p, sizeof p, "%s/sb.yaml", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/enc.yaml", dir);
    remove(p);
    rmdir(dir);
}

/* Alloy: an error in the catalog an encounter names. */
Test(diag_copy, alloy_error_in_a_named_catalog) {
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/fray-diag-a-%d", (int)getpid());
    cr_assert_eq(mkdir(dir, 0700), 0);
    write_file(dir, "weapons.yaml", "fray: catalog\nrules: alloy\nweapons:\n  - {name: W, dammage: 1d8}\n");
    write_file(dir, "enc.yaml",
               "fray: encounter\nrules: alloy\nname: Copied\ncatalog: [weapons.yaml]\n"
               "combatants: []\n");
    check_copy(dir, "enc.yaml", "/weapons.yaml", 4);
    char p[256];
    snprintf(p, sizeof p, "%s/weapons.yaml", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/enc.yaml", dir);
    remove(p);
    rmdir(dir);
}

/* An error in the caller's own file: file is the caller's string (as
 * before), file_name empty, and fray_diag_file gives the caller's string. */
Test(diag_copy, error_in_the_callers_file_is_borrowed) {
    char dir[128], path[256];
    snprintf(dir, sizeof dir, "/tmp/fray-diag-c-%d", (int)getpid());
    cr_assert_eq(mkdir(dir, 0700), 0);
    write_file(dir, "enc.yaml", "fray: encounter\nname: Copied\nspeeed: 3\n");
    snprintf(path, sizeof path, "%s/enc.yaml", dir);
    fray_diag diag;
    fray_setup *setup = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &setup, &diag), FRAY_OK);
    cr_expect_eq(diag.file, path, "the caller's own string");
    cr_expect_eq(diag.file_name[0], '\0');
    cr_expect_eq(fray_diag_file(&diag), path);
    cr_expect_eq(diag.line, 3, "%s", diag.message);
    remove(path);
    rmdir(dir);
}

Test(diag_copy, no_diag_no_file) {
    cr_expect_null(fray_diag_file(NULL));
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_null(fray_diag_file(&d), "an error in no file");
}

/* fuzz_alloy_load.c - libFuzzer target for the Alloy loader
 * (src/rules/alloy/load.c, read through src/core's YAML and JSON reader):
 * any bytes as an Alloy file (encounter, stat blocks or weapon catalog)
 * must load, or be refused with a message and a line, never crash or
 * leak. Alloy reads files by path, so the input is written to a file in a
 * folder that stands for examples/alloy/ (its files and ../../data are
 * symbolic links to the source tree's): the catalogs and stat blocks an
 * input names there (statblocks.yaml, ../../data/alloy/weapons.yaml) are
 * read too.
 *
 * Results, not only crashes (as fuzz_towers_load.c): `fray check`'s
 * verdict (fa_check_file) must be the verdict of fa_load for an encounter
 * (the same status, and the same message, line and column when it is an
 * error); what check says of an encounter is what the loaded setup holds;
 * two loads are one. An encounter that loads must also start and run a
 * few rounds through the ruleset-neutral API (fray_setup_load,
 * fray_fight_new, fray_fight_step): what the loader accepts, the engine
 * plays, and the tactics never choose what the rules refuse. Any
 * disagreement aborts. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloy_int.h"
#include "fray/fight.h"
#include "fuzz_alloc.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

/* The loader's limits (combatants, stat blocks, weapons, the map's 64
 * columns) are all reachable in a few kilobytes. */
enum { FUZZ_MAX_INPUT = 8192 };

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The harness's state (the library has none): the folder standing for
 * examples/alloy/, and the input's path in it. */
static char work_root[64];
static char file_path[128];

static void must(bool ok, const char *what) {
    if (!ok) {
        perror(what);
        abort();
    }
}

static void remove_work(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_root);
    if (work_root[0] && system(cmd) != 0)
        fprintf(stderr, "fuzz_alloy_load: could not remove %s\n", work_root);
}

/* ROOT/data -> the source's data/; ROOT/examples/alloy/NAME -> each file
 * of the source's examples/alloy/. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(work_root, sizeof work_root, "/tmp/fray-fuzz-alloy-XXXXXX");
    must(mkdtemp(work_root) != NULL, "mkdtemp");
    must(atexit(remove_work) == 0, "atexit");
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/data", work_root);
    must(symlink(FRAY_SOURCE_DIR "/data", a) == 0, "symlink data");
    snprintf(a, sizeof a, "%s/examples", work_root);
    must(mkdir(a, 0700) == 0, "mkdir examples");
    snprintf(a, sizeof a, "%s/examples/alloy", work_root);
    must(mkdir(a, 0700) == 0, "mkdir examples/alloy");
    DIR *d = opendir(FRAY_SOURCE_DIR "/examples/alloy");
    must(d != NULL, "opendir examples/alloy");
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(a, sizeof a, "%s/examples/alloy/%s", work_root, e->d_name);
        snprintf(b, sizeof b, "%s/examples/alloy/%s", FRAY_SOURCE_DIR, e->d_name);
        must(symlink(b, a) == 0, "symlink example");
    }
    must(closedir(d) == 0, "closedir");
    snprintf(file_path, sizeof file_path, "%s/examples/alloy/fuzz-input.yaml",
             work_root);
    return 0;
}

/* What a loaded setup holds, in a few words: equal for equal setups. */
static void summary(const fa_setup *s, char *out, size_t size) {
    int n = snprintf(out, size, "%s|%d|%d|%d|%dx%d|%d|%d|%d|%llu|%d|", s->name,
                     s->n, s->n_sides, (int)s->has_map, s->map.w, s->map.h,
                     s->n_weapons, s->n_sb, (int)s->has_seed,
                     (unsigned long long)s->seed, s->round_limit);
    for (int i = 0; i < s->n && n > 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, "%s/%s/%d@%d,%d/%d/%d/%d;",
                      s->c[i].id, s->c[i].name, s->c[i].side, s->c[i].at.x,
                      s->c[i].at.y, s->c[i].sb, s->c[i].wield,
                      (int)s->c[i].aware);
    for (int i = 0; i < s->n_sb && n > 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, "%s/%d/%d;", s->sb[i].name,
                      s->sb[i].hp, s->sb[i].n_weapons);
}

/* What fa_check_file says of an encounter it loaded. */
static void check_words(const fa_setup *s, char *out, size_t size) {
    if (s->has_map)
        snprintf(out, size,
                 "Alloy encounter \"%.60s\": %d combatants on %d sides, map "
                 "%dx%d%s",
                 s->name, s->n, s->n_sides, s->map.w, s->map.h,
                 s->surprise ? ", a surprise round" : "");
    else
        snprintf(out, size,
                 "Alloy encounter \"%.60s\": %d combatants on %d sides, no "
                 "map%s",
                 s->name, s->n, s->n_sides, s->surprise ? ", a surprise round" : "");
}

/* A few rounds of the encounter by the tactics, through the public API. */
static void play(void) {
    fray_setup *setup = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_setup_load(file_path, &fuzz_alloc, &setup, &diag);
    if (st == FRAY_ERR_NOMEM)
        return;
    if (st != FRAY_OK) {
        /* play() runs only after fa_load took the file: the registry and
         * Alloy's loader read `rules:` alike (exactly "alloy"), so the
         * public load takes it too. */
        fprintf(stderr, "fa_load took it, fray_setup_load says: %s\n",
                diag.message);
        abort();
    }
    if (strcmp(fray_setup_rules(setup), "alloy") != 0)
        abort();
    fray_fight_options opts = {.journal = false, .facts = true, .until = 3};
    fray_fight *fight = NULL;
    if (fray_fight_new(setup, 1, &opts, NULL, &fuzz_alloc, &fight) == FRAY_OK) {
        for (int i = 0; i < 200 && !fray_fight_over(fight); i++) {
            fray_status rc = fray_fight_step(fight);
            if (rc == FRAY_ERR_NOMEM)
                break;
            if (rc != FRAY_OK) {
                char why[256] = "";
                (void)fray_fight_failure(fight, why, sizeof why);
                fprintf(stderr, "a step by the tactics fails (%s, round %d): %s\n",
                        fray_strerror(rc), fray_fight_now(fight), why);
                abort(); /* the tactics only make legal commands */
            }
        }
        char buf[16384];
        (void)fray_fight_draw_map(fight, buf, sizeof buf);
        (void)fray_fight_summary(fight, buf, sizeof buf);
        fray_fight_free(fight);
    }
    fray_setup_free(setup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_MAX_INPUT)
        return 0;
    FILE *f = fopen(file_path, "wb");
    must(f != NULL, "fopen the input's file");
    must(fwrite(data, 1, size, f) == size, "fwrite");
    must(fclose(f) == 0, "fclose");
    fray_diag checked, loaded;
    memset(&checked, 0, sizeof checked);
    memset(&loaded, 0, sizeof loaded);
    fray_status st_check = fa_check_file(file_path, &checked);
    if (st_check != FRAY_OK) {
        /* Every error says what went wrong, and where when it can. */
        if (checked.message[0] == '\0' || checked.line < 0 ||
            checked.column < 0)
            abort();
    }
    bool encounter = st_check != FRAY_OK ||
                     strncmp(checked.message, "Alloy encounter ", 16) == 0;
    if (!encounter)
        return 0; /* stat blocks or a catalog: fa_load takes encounters */
    fa_setup *one = NULL, *two = NULL;
    fray_status st_load = fa_load(file_path, &fuzz_alloc, &one, &loaded);
    if (st_load == FRAY_ERR_NOMEM || st_check == FRAY_ERR_NOMEM) {
        fa_setup_free(one);
        return 0;
    }
    if (st_check != st_load) {
        fprintf(stderr, "check says %d (%s), load says %d (%s)\n", st_check,
                checked.message, st_load, loaded.message);
        abort();
    }
    if (st_load != FRAY_OK) {
        if (one || strcmp(checked.message, loaded.message) != 0 ||
            checked.line != loaded.line || checked.column != loaded.column) {
            fprintf(stderr, "check: %d:%d: %s\nload: %d:%d: %s\n", checked.line,
                    checked.column, checked.message, loaded.line,
                    loaded.column, loaded.message);
            abort();
        }
        return 0;
    }
    if (fa_load(file_path, &fuzz_alloc, &two, &loaded) != FRAY_OK)
        abort(); /* the same file, loaded twice */
    static char a[32768], b[32768], c[512];
    summary(one, a, sizeof a);
    summary(two, b, sizeof b);
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "two loads differ:\n%s\n%s\n", a, b);
        abort();
    }
    check_words(one, c, sizeof c);
    if (strcmp(c, checked.message) != 0) {
        fprintf(stderr, "check says '%s'; the setup holds '%s'\n",
                checked.message, c);
        abort();
    }
    /* `dying: death-saves` is played too (skills.c has death saves). */
    fa_setup_free(one);
    fa_setup_free(two);
    play();
    return 0;
}

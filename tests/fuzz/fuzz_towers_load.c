/* fuzz_towers_load.c - libFuzzer target for the 99 Towers loader
 * (src/rules/towers/load.c): any bytes as an encounter, stat-block or
 * catalog file must load, or be refused with a message and a line, never
 * crash or leak. The input is read from memory (ft_load_text) as if it
 * were a file in examples/towers/, so the catalog and stat blocks it names
 * there (statblocks.yaml, ../../data/towers/equipment.yaml) are read too.
 * An encounter that loads must also start and run a short fight: what the
 * loader accepts, the engine can play.
 *
 * Results, not only crashes (issue 11): the input is also written to a
 * file, in a folder that stands for examples/towers/ (its files and
 * ../../data are symbolic links to the source tree's), and there
 * `fray check`'s verdict (fray_towers_check) must be the verdict of
 * fray_towers_load: the same status, and the same message, line and
 * column when it is an error; on success, what check says of the file is
 * what the loaded setup holds, and loading it twice gives the same setup.
 * Any disagreement aborts. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_alloc.h"
#include "towers_int.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

/* Bigger inputs only make the run slower: the loader's limits (files,
 * combatants, nesting) are all reachable in a few kilobytes. */
enum { FUZZ_MAX_INPUT = 8192 };

static const char input_path[] = FRAY_SOURCE_DIR "/examples/towers/fuzz-input.yaml";

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The harness's state (the library has none): the folder standing for
 * examples/towers/, and the input's path in it. */
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
        fprintf(stderr, "fuzz_towers_load: could not remove %s\n", work_root);
}

/* ROOT/data -> the source's data/; ROOT/examples/towers/NAME -> each file
 * of the source's examples/towers/: from ROOT/examples/towers/ the paths
 * an input names reach what they reach from the source's. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(work_root, sizeof work_root, "/tmp/fray-fuzz-load-XXXXXX");
    must(mkdtemp(work_root) != NULL, "mkdtemp");
    must(atexit(remove_work) == 0, "atexit");
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/data", work_root);
    must(symlink(FRAY_SOURCE_DIR "/data", a) == 0, "symlink data");
    snprintf(a, sizeof a, "%s/examples", work_root);
    must(mkdir(a, 0700) == 0, "mkdir examples");
    snprintf(a, sizeof a, "%s/examples/towers", work_root);
    must(mkdir(a, 0700) == 0, "mkdir examples/towers");
    DIR *d = opendir(FRAY_SOURCE_DIR "/examples/towers");
    must(d != NULL, "opendir examples/towers");
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(a, sizeof a, "%s/examples/towers/%s", work_root, e->d_name);
        snprintf(b, sizeof b, "%s/examples/towers/%s", FRAY_SOURCE_DIR, e->d_name);
        must(symlink(b, a) == 0, "symlink example");
    }
    must(closedir(d) == 0, "closedir");
    snprintf(file_path, sizeof file_path, "%s/examples/towers/fuzz-input.yaml",
             work_root);
    return 0;
}

/* What a loaded setup holds, in a few words: equal for equal setups. */
static void summary(const ft_setup *s, char *out, size_t size) {
    int n = snprintf(out, size, "%s|%d|%d|%d|%dx%d|%d|%d|%d|%llu|", s->name,
                     s->n_combatants, s->n_sides, (int)s->has_map,
                     s->has_map ? s->map.w : 0, s->has_map ? s->map.h : 0,
                     s->n_catalog, s->n_armor, (int)s->has_seed,
                     (unsigned long long)s->seed);
    for (int i = 0; i < s->n_combatants && n > 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, "%s/%s/%d@%d,%d/%d/%d;", s->c[i].id,
                      s->c[i].name, s->c[i].side, s->c[i].start.x, s->c[i].start.y,
                      s->c[i].sb.endurance, s->c[i].sb.n_weapons);
    for (int i = 0; i < s->n_catalog && n > 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, "%s/%d/%d;", s->catalog[i].name,
                      s->catalog[i].damage, s->catalog[i].attack_bonus);
}

/* What fray_towers_check says after "ok" of an encounter or a catalog it
 * loaded (include/fray/encounter.h); NULL for a stat-block file, whose
 * count of stat blocks a setup does not keep. */
static const char *check_words(const ft_setup *s, const char *said, char *out,
                               size_t size) {
    if (strncmp(said, "encounter ", 10) == 0) {
        char map[32] = "no map";
        if (s->has_map)
            snprintf(map, sizeof map, "map %dx%d", s->map.w, s->map.h);
        snprintf(out, size, "encounter \"%s\": %d combatant%s, %d sides, %s", s->name,
                 s->n_combatants, s->n_combatants == 1 ? "" : "s", s->n_sides, map);
        return out;
    }
    if (strncmp(said, "catalog: ", 9) == 0) {
        snprintf(out, size, "catalog: %d weapon%s, %d armor", s->n_catalog,
                 s->n_catalog == 1 ? "" : "s", s->n_armor);
        return out;
    }
    if (strncmp(said, "stat blocks: ", 13) == 0)
        return NULL;
    abort(); /* check said something it never says */
}

/* The file's verdicts: check and load agree, and two loads are one. */
static void compare_verdicts(const uint8_t *data, size_t size) {
    FILE *f = fopen(file_path, "wb");
    must(f != NULL, "fopen the input's file");
    must(fwrite(data, 1, size, f) == size, "fwrite");
    must(fclose(f) == 0, "fclose");
    fray_diag checked, loaded;
    memset(&checked, 0, sizeof checked);
    memset(&loaded, 0, sizeof loaded);
    fray_status st_check = fray_towers_check(file_path, &checked);
    fray_towers_setup *one = NULL, *two = NULL;
    fray_status st_load = fray_towers_load(file_path, NULL, &one, &loaded);
    if (st_check != st_load) {
        fprintf(stderr, "check says %d (%s), load says %d (%s)\n", st_check,
                checked.message, st_load, loaded.message);
        abort();
    }
    if (st_load != FRAY_OK) {
        if (one || strcmp(checked.message, loaded.message) != 0 ||
            checked.line != loaded.line || checked.column != loaded.column) {
            fprintf(stderr, "check: %d:%d: %s\nload: %d:%d: %s\n", checked.line,
                    checked.column, checked.message, loaded.line, loaded.column,
                    loaded.message);
            abort();
        }
        return;
    }
    if (fray_towers_load(file_path, NULL, &two, &loaded) != FRAY_OK)
        abort(); /* the same file, loaded twice */
    static char a[16384], b[16384], c[256];
    summary(&one->s, a, sizeof a);
    summary(&two->s, b, sizeof b);
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "two loads differ:\n%s\n%s\n", a, b);
        abort();
    }
    const char *words = check_words(&one->s, checked.message, c, sizeof c);
    if (words && strcmp(words, checked.message) != 0) {
        fprintf(stderr, "check says '%s'; the setup holds '%s'\n", checked.message,
                words);
        abort();
    }
    fray_towers_setup_free(one);
    fray_towers_setup_free(two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_MAX_INPUT)
        return 0;
    /* A copy of exactly `size` bytes (no NUL): ASan sees any read past
     * the text the loader was given. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    /* The setup is big (about 170 KB): one for the whole run, so that each
     * input does not pay for mapping it afresh. */
    static fray_towers_setup *ts;
    if (!ts && !(ts = calloc(1, sizeof *ts))) {
        free(text);
        return 0;
    }
    ft_setup *setup = &ts->s;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = ft_load_text(text, size, input_path, &fuzz_alloc, setup,
                                  &diag);
    if (st != FRAY_OK) {
        /* Every error says what went wrong, and where when it can. */
        if (diag.message[0] == '\0' || diag.line < 0 || diag.column < 0)
            abort();
    } else if (setup->n_combatants < 0 ||
               setup->n_combatants > FT_MAX_COMBATANTS) {
        abort();
    } else if (setup->n_combatants > 0) {
        /* An encounter (not a catalog or stat blocks alone): a few rounds
         * driven by the tactics policies. */
        fray_towers_fight_options opts = {.journal = false, .facts = true,
                                          .until_phase = 30};
        fray_towers_fight *fight = NULL;
        if (fray_towers_fight_new(ts, 1, &opts, NULL, &fight) == FRAY_OK) {
            fray_status rc = fray_towers_fight_run(fight);
            if (rc != FRAY_OK && rc != FRAY_ERR_NOMEM)
                abort(); /* the policies only make legal commands */
            fray_towers_fight_free(fight);
        }
    }
    free(text);
    compare_verdicts(data, size);
    return 0;
}

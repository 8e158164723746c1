/*
 * bench_chances.c - the speed of `odds ID` (issue 19;
 * include/fray/chances.h fray_chances_all): the browser server answers it
 * after every command. Processor time of one call, the best of three
 * rounds of K calls, for a few combatants of the examples at their
 * fight's start, and the bytes the list holds and was allocated with.
 *
 * usage: bench_chances [--quick] [--calls K]   (default 200; --quick: a
 *        smoke run for ctest, 3 calls)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "fray/chances.h"
#include "fray/fray.h"

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool row(const char *file, const char *who, const char *first,
                int calls) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, file);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    if (fray_setup_load(path, NULL, &s, &d) != FRAY_OK) {
        fprintf(stderr, "bench_chances: %s:%d:%d: %s\n", path, d.line,
                d.column, d.message);
        return false;
    }
    fray_fight *f = NULL;
    fray_fight_options o;
    memset(&o, 0, sizeof o);
    if (fray_fight_new(s, 3, &o, NULL, NULL, &f) != FRAY_OK) {
        fprintf(stderr, "bench_chances: %s: no fight\n", path);
        fray_setup_free(s);
        return false;
    }
    if (first && strncmp(first, "step ", 5) == 0) { /* the tactics' turns */
        for (int k = atoi(first + 5); k > 0 && !fray_fight_over(f); k--)
            if (fray_fight_step(f) != FRAY_OK) {
                fprintf(stderr, "bench_chances: %s: a step failed\n", path);
                fray_fight_free(f);
                fray_setup_free(s);
                return false;
            }
    } else if (first && fray_fight_command(f, first, NULL, &d) != FRAY_OK) {
        fprintf(stderr, "bench_chances: %s: %s: %s\n", path, first, d.message);
        fray_fight_free(f);
        fray_setup_free(s);
        return false;
    }
    int i = fray_fight_combatant_index(f, who);
    double best = 0;
    int n = 0, cap = 0;
    bool ok = i >= 0;
    for (int r = 0; ok && r < 3; r++) {
        double c0 = cpu_s();
        for (int k = 0; ok && k < calls; k++) {
            fray_chances_list l;
            if (fray_chances_all(f, i, NULL, &l, &d) != FRAY_OK) {
                fprintf(stderr, "bench_chances: %s %s: %s\n", file, who,
                        d.message);
                ok = false;
            }
            n = l.n;
            cap = l.capacity;
            fray_chances_list_free(&l);
        }
        double t = (cpu_s() - c0) / calls;
        if (r == 0 || t < best)
            best = t;
    }
    if (ok)
        printf("%-30s %-7s %-7s %3d options %7.3f ms %8zu bytes listed, %8zu "
               "allocated\n", file, who, first ? first : "", n, best * 1e3,
               (size_t)n * sizeof(fray_chances),
               (size_t)cap * sizeof(fray_chances));
    fray_fight_free(f);
    fray_setup_free(s);
    return ok;
}

int main(int argc, char **argv) {
    int calls = 200;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--quick") == 0)
            calls = 3;
        else if (strcmp(argv[a], "--calls") == 0 && a + 1 < argc)
            calls = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: bench_chances [--quick] [--calls K]\n");
            return 2;
        }
    }
    if (calls < 1)
        calls = 1;
    /* {file, who (NULL: the first), a command first (NULL: none; "step
     * N": N turns of the tactics)}: the Alloy fights after their first
     * `next`, the turns begun, and the skirmish in melee (issue 19,
     * issue 19: what deals no damage ranked too). */
    static const char *const rows[][3] = {
        {"examples/towers/brawl.yaml", "ysolde", NULL},
        {"examples/towers/brawl.yaml", "hale", NULL},
        {"examples/towers/skirmish.yaml", NULL, NULL},
        {"examples/towers/mage.yaml", NULL, NULL},
        {"examples/towers/duel.yaml", "aldric", NULL},
        {"examples/alloy/skirmish.yaml", NULL, NULL},
        {"examples/alloy/skirmish.yaml", NULL, "next"},
        {"examples/alloy/skirmish.yaml", NULL, "step 60"},
        {"bench/alloy-crowds/mixed-default.yaml", NULL, "step 40"},
        {"bench/alloy-crowds/mixed-default.yaml", NULL, "step 120"},
        {"examples/silent-winter/brawl.yaml", "warrior", "step 6"},
        {"examples/alloy/duel.yaml", NULL, "next"},
        {"tests/data/alloy/aid_yard.yaml", "vance", "next"},
        {"tests/data/alloy/aid_yard.yaml", "lyra", "next"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const char *who = rows[k][1];
        char first[64] = "";
        if (!who) { /* the first combatant of the file */
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rows[k][0]);
            fray_setup *s = NULL;
            fray_diag d;
            memset(&d, 0, sizeof d);
            if (fray_setup_load(path, NULL, &s, &d) != FRAY_OK) {
                fprintf(stderr, "bench_chances: %s: %s\n", path, d.message);
                return 1;
            }
            snprintf(first, sizeof first, "%s", fray_setup_combatant_id(s, 0));
            fray_setup_free(s);
            who = first;
        }
        if (!row(rows[k][0], who, rows[k][2], calls))
            return 1;
    }
    return 0;
}

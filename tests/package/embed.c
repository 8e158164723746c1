/*
 * A program of a tool developer, built against an installed fray with
 * pkg-config (issue 15 "A clean package for developers"): it loads an
 * encounter of each ruleset, runs a fight to its end and rolls dice, using
 * only the installed headers and library.
 */
#include <fray/fray.h>

#include <stdio.h>
#include <stdlib.h>

static int run(const char *path) {
    fray_setup *setup = NULL;
    fray_diag diag = {0};
    fray_status st = fray_setup_load(path, NULL, &setup, &diag);
    if (st != FRAY_OK) {
        fprintf(stderr, "%s: %s\n", path, diag.message);
        return 1;
    }
    fray_fight_options opts = {.journal = false, .facts = false, .until = 0};
    fray_fight *fight = NULL;
    st = fray_fight_new(setup, 7, &opts, NULL, NULL, &fight);
    if (st == FRAY_OK)
        st = fray_fight_run(fight);
    if (st != FRAY_OK) {
        fprintf(stderr, "%s: %s\n", path, fray_strerror(st));
        fray_fight_free(fight);
        fray_setup_free(setup);
        return 1;
    }
    int w = fray_fight_winner(fight);
    printf("%s (%s): %s\n", fray_setup_name(setup), fray_setup_rules(setup),
           w >= 0 ? fray_setup_side_name(setup, w) : "no winner");
    fray_fight_free(fight);
    fray_setup_free(setup);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: embed ENCOUNTER...\n");
        return 2;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= run(argv[i]);
    printf("fray %s\n", fray_version());
    return bad;
}

/* cmd_check.c - `fray check`: load files of any ruleset and report the first
 * error of each (docs/file-formats.md). */
#include "cli.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fray/encounter.h"

static const char HELP[] =
    "usage: fray check FILE... [-C DIR] [--json]\n"
    "\n"
    "Loads each file of any ruleset (its rules: word says which; none is 99\n"
    "Towers): an encounter with the stat blocks and catalogs it names, a\n"
    "stat-block file, or a catalog, and says whether it is right:\n"
    "\n"
    "  FILE: ok (encounter \"Duel at the Bridge\": 2 combatants, 2 sides, map 12x8)\n"
    "\n"
    "or names the first error on stderr as FILE:LINE:COLUMN: message.\n"
    "Exit status: 0 when every file is right, 2 when any is not.\n"
    "\n"
    "  -C DIR   read the files from DIR (as make -C), so paths print as given\n"
    "  --json   one JSON object per file: {\"file\", \"ok\", \"summary\"} or\n"
    "           {\"file\", \"ok\": false, \"line\", \"column\", \"error\",\n"
    "           \"status\"}\n"
    "\n"
    "The file formats are in docs/file-formats.md. Up to 8 files at once.\n";

int cmd_check(int argc, char **argv) {
    cli_opt opts[] = {
        {"C", true, NULL, false},
    };
    cli_args args = {"fray check", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    if (!cli_parse(&args, argc, argv))
        return EXIT_USAGE;
    if (args.help) {
        fputs(HELP, stdout);
        return EXIT_OK;
    }
    if (args.n_pos < 1) {
        cli_error(&args, "needs one or more files to check (see --help)");
        return EXIT_USAGE;
    }
    cli_opt *dir = cli_get(&args, "C");
    if (dir->present && chdir(dir->value) != 0) {
        cli_error(&args, "cannot go to '%s': %s", dir->value, strerror(errno));
        return EXIT_USAGE;
    }
    int bad = 0;
    for (int i = 0; i < args.n_pos; i++) {
        const char *path = args.pos[i];
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        fray_status st = fray_setup_check(path, &diag);
        const char *file = fray_diag_file(&diag) ? fray_diag_file(&diag) : path;
        if (args.json) {
            json_out j;
            json_init(&j, stdout);
            json_begin_object(&j);
            json_kv_string(&j, "file", st == FRAY_OK ? path : file);
            json_kv_bool(&j, "ok", st == FRAY_OK);
            if (st == FRAY_OK) {
                json_kv_string(&j, "summary", diag.message);
            } else {
                json_kv_int(&j, "line", diag.line);
                json_kv_int(&j, "column", diag.column);
                json_kv_string(&j, "error", diag.message);
                json_kv_string(&j, "status", fray_strerror(st));
            }
            json_end_object(&j);
            json_finish(&j);
        } else if (st == FRAY_OK) {
            printf("%s: ok (%s)\n", path, diag.message);
        } else if (diag.line > 0) {
            fprintf(stderr, "%s:%d:%d: %s\n", file, diag.line, diag.column,
                    diag.message);
        } else {
            fprintf(stderr, "%s: %s\n", file, diag.message);
        }
        if (st != FRAY_OK)
            bad++;
    }
    return bad ? EXIT_USAGE : EXIT_OK;
}

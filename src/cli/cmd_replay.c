/* cmd_replay.c - `fray replay`: a fight's journal (JSON Lines, as `fray
 * fight --json`, `--journal` or the table's `journal FILE` write it)
 * replayed on its encounter, every card and choice as recorded, and told
 * again (docs/journal.md). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"

static const char HELP[] =
    "usage: fray replay ENCOUNTER JOURNAL [-C DIR] [--json] [--quiet]\n"
    "\n"
    "Replays a fight's journal (JSON Lines, docs/journal.md: as written by\n"
    "fray fight --json, fray fight --journal FILE or the table's 'journal\n"
    "FILE') on the encounter it was fought in (99 Towers or Alloy): every\n"
    "command with the cards turned over or dice rolled and the choices\n"
    "made, as recorded. Then tells\n"
    "every event and ends with the summary. A journal that does not apply\n"
    "(another encounter, an edited line) is reported as\n"
    "JOURNAL:LINE:COLUMN: message (the field named: command.actor, ...),\n"
    "with exit status 2. A journal cut short (no end mark: its session was\n"
    "killed; or a last line cut in its writing) replays as far as it goes,\n"
    "with a warning.\n"
    "\n"
    "  -C DIR   read the files from DIR (as make -C)\n"
    "  --json   print the journal's lines again, then a {\"summary\": ...} line\n"
    "  --quiet  print only the summary\n";

int cmd_replay(int argc, char **argv) {
    cli_opt opts[] = {
        {"quiet", false, NULL, false},
        {"C", true, NULL, false},
    };
    cli_args args = {"fray replay", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 2,
                       "an encounter file and a journal");
    if (rc >= 0)
        return rc;
    const char *path = args.pos[0];
    const char *journal_path = args.pos[1];
    bool quiet = cli_get(&args, "quiet")->present;
    fray_setup *setup = NULL;
    rc = cli_load_encounter(&args, path, &setup);
    if (rc >= 0)
        return rc;
    size_t jsonl_len = 0;
    char *jsonl = cli_read_journal(journal_path, &jsonl_len);
    if (!jsonl) {
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    /* A journal without a seed on its first line was shuffled with the
     * file's seed, as fray fight does without --seed. */
    uint64_t seed = 1;
    if (!fray_setup_seed(setup, &seed))
        seed = 1;
    fray_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fo.journal = true;
    fo.facts = true;
    fray_fight *fight = NULL;
    fray_status st = fray_fight_new(setup, seed, &fo, NULL, NULL, &fight);
    if (st != FRAY_OK) {
        cli_error(&args, "%s", fray_strerror(st));
        free(jsonl);
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    st = cli_replay_journal(fight, journal_path, jsonl, jsonl_len);
    free(jsonl);
    if (st != FRAY_OK) {
        fray_fight_free(fight);
        fray_setup_free(setup);
        return EXIT_USAGE;
    }

    /* The library refuses an empty journal (no "begin" event). */
    int n = fray_fight_events(fight);
    cli_text b = {NULL, 0};
    seed = fray_fight_seed(fight); /* the journal's own */
    const char *title = fray_setup_name(setup);
    if (args.json) {
        for (int i = 0; i < n; i++)
            printf("%s\n", cli_render_event(&b, fight, i,
                                            fray_event_json));
        cli_print_summary_json(fight,
                               cli_render(&b, fight, fray_fight_summary));
    } else {
        if (!quiet) {
            printf("%s (seed %llu): %d events replayed from %s\n",
                   title && title[0] ? title : path,
                   (unsigned long long)seed, n, journal_path);
            for (int i = 0; i < n; i++)
                fputs(cli_render_event(&b, fight, i,
                                       fray_event_narrate),
                      stdout);
            printf("\nSummary\n");
        }
        fputs(cli_render(&b, fight, fray_fight_summary), stdout);
    }
    cli_text_free(&b);
    fray_fight_free(fight);
    fray_setup_free(setup);
    return EXIT_OK;
}

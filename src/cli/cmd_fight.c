/* cmd_fight.c - `fray fight`: run a 99 Towers encounter with the tactics
 * policies and tell it as it happens (seed 000; docs/journal.md). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fray/encounter.h"
#include "fray/view.h"

static const char HELP[] =
    "usage: fray fight ENCOUNTER [--seed N] [--trial I] [--until-phase P]\n"
    "                  [--quiet] [-C DIR] [--json] [--journal FILE]\n"
    "                  [--initiative LIST] [--state]\n"
    "       fray fight ENCOUNTER --table [--seed N] [--journal FILE] [--echo]\n"
    "       fray fight ENCOUNTER --table --resume JOURNAL [--journal FILE]\n"
    "\n"
    "Runs an encounter file (YAML or JSON, docs/file-formats.md; its rules:\n"
    "99 Towers or Alloy): every combatant acts by its tactics. At the start\n"
    "of each round the time track (99 Towers' Combat Clock, Alloy's\n"
    "initiative order) and the map are drawn; each event is told as it\n"
    "happens (every card flipped or die rolled, the damage dealt); a\n"
    "summary ends it.\n"
    "\n"
    "  --seed N         shuffle the decks or roll the dice with this seed\n"
    "                   (default: the file's seed, else 1); the same seed\n"
    "                   gives the same fight\n"
    "  --initiative LIST  initiative by hand: Alloy's dice ('13 8': a d20\n"
    "                   for each combatant in the file's order, then any\n"
    "                   tie-breaking dice); 99 Towers' cards ('3H AC 9H ...':\n"
    "                   the Hand of Fate dealt to each deck, then each\n"
    "                   combatant's initiative flip in the file's order,\n"
    "                   then any flip-off)\n"
    "  --trial I        fight I of `fray sim --seed N` (default 0: the fight\n"
    "                   of the seed itself)\n"
    "  --until-phase P  stop after phase P (Alloy: round P; default: the\n"
    "                   encounter's limit)\n"
    "  --quiet          print only the summary\n"
    "  --state          at the end, print the fight's final state as one line\n"
    "                   of JSON, as the GM sees it (docs/journal.md \"A fight\n"
    "                   as JSON\")\n"
    "  -C DIR           read the file from DIR (as make -C)\n"
    "  --json           print JSON Lines: one event per line, then a final\n"
    "                   {\"summary\": ...} line (docs/journal.md)\n"
    "  --journal FILE   at the end, write the journal to FILE (JSON Lines,\n"
    "                   for fray replay); with --table, as the fight goes:\n"
    "                   each command is on disk before it is told\n"
    "  --table          the game master plays: table commands one line at a\n"
    "                   time from stdin ('help' lists them; docs/fray.1)\n"
    "  --resume JOURNAL with --table: replay the journal and carry on the\n"
    "                   fight, writing on to JOURNAL (or to --journal FILE)\n"
    "  --echo           with --table: print the prompt and each line read,\n"
    "                   as a transcript (for scripts)\n";

fray_status cli_print_state(const fray_fight *f) {
    fray_fight_view *v = NULL;
    fray_status st = fray_fight_view_new(f, NULL, &v);
    if (st != FRAY_OK)
        return st;
    size_t n = fray_fight_view_json(v, NULL, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf) {
        fray_fight_view_free(v);
        return FRAY_ERR_NOMEM;
    }
    fray_fight_view_json(v, NULL, buf, n + 1);
    puts(buf);
    free(buf);
    fray_fight_view_free(v);
    return FRAY_OK;
}

/* A growing text buffer for the library's snprintf-style renderings. */
static void print_round(cli_text *b, const fray_fight *f) {
    printf("\n%s", cli_render(b, f, fray_fight_draw_time));
    printf("\n%s\n", cli_render(b, f, fray_fight_draw_map));
}

int cmd_fight(int argc, char **argv) {
    cli_opt opts[] = {
        {"seed", true, NULL, false},
        {"until-phase", true, NULL, false},
        {"quiet", false, NULL, false},
        {"C", true, NULL, false},
        {"table", false, NULL, false},
        {"journal", true, NULL, false},
        {"echo", false, NULL, false},
        {"trial", true, NULL, false},
        {"resume", true, NULL, false},
        {"initiative", true, NULL, false},
        {"state", false, NULL, false},
    };
    cli_args args = {"fray fight", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 1, "an encounter file");
    if (rc >= 0)
        return rc;
    const char *path = args.pos[0];
    long until = 0;
    if (!cli_int_opt(&args, "until-phase", 0, 1000000, &until))
        return EXIT_USAGE;
    bool quiet = cli_get(&args, "quiet")->present;
    uint64_t seed = 1;
    cli_opt *seed_opt = cli_get(&args, "seed");
    if (seed_opt->present && !cli_u64(&args, "--seed", seed_opt->value, &seed))
        return EXIT_USAGE;

    uint64_t trial = 0;
    cli_opt *trial_opt = cli_get(&args, "trial");
    if (trial_opt->present &&
        !cli_u64(&args, "--trial", trial_opt->value, &trial))
        return EXIT_USAGE;
    bool table = cli_get(&args, "table")->present;
    cli_opt *journal = cli_get(&args, "journal");
    bool state = cli_get(&args, "state")->present;
    if (table && state) {
        cli_error(&args, "--state prints the state at the end of a fight run "
                  "by its tactics: at the table, the word 'state' does it");
        return EXIT_USAGE;
    }
    if (table && (args.json || quiet)) {
        cli_error(&args, "--table plays at the table: not with --json or "
                  "--quiet");
        return EXIT_USAGE;
    }
    if (!table && cli_get(&args, "echo")->present) {
        cli_error(&args, "--echo goes with --table");
        return EXIT_USAGE;
    }
    cli_opt *resume = cli_get(&args, "resume");
    if (resume->present && !table) {
        cli_error(&args, "--resume goes with --table");
        return EXIT_USAGE;
    }
    if (resume->present && (seed_opt->present || trial_opt->present)) {
        cli_error(&args, "--resume carries on the journal's fight: its seed "
                  "and trial are the journal's (no --seed, no --trial)");
        return EXIT_USAGE;
    }

    fray_setup *setup = NULL;
    rc = cli_load_encounter(&args, path, &setup);
    if (rc >= 0)
        return rc;
    if (!seed_opt->present && !fray_setup_seed(setup, &seed))
        seed = 1;

    fray_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fo.journal = true;
    fo.facts = true;
    fo.until = (int)until;
    /* The initiative rolled by hand (dice: Alloy). */
    cli_opt *init = cli_get(&args, "initiative");
    int init_dice[256];
    fray_card init_cards[256];
    fray_diag init_diag;
    memset(&init_diag, 0, sizeof init_diag);
    fray_given init_given;
    memset(&init_given, 0, sizeof init_given);
    init_given.diag = &init_diag;
    bool towers = strcmp(fray_setup_rules(setup), "towers") == 0;
    if (init->present && (resume->present || trial_opt->present)) {
        cli_error(&args, "--initiative starts a fight of its own: not with "
                  "--resume or --trial");
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    if (init->present && towers) {
        /* 99 Towers: the cards flipped by hand for the initiative flips
         * and the opening Hand of Fate deal (issue 13). */
        size_t n = 0;
        fray_diag cd;
        memset(&cd, 0, sizeof cd);
        if (fray_card_parse_list(init->value, init_cards,
                                 sizeof init_cards / sizeof init_cards[0], &n,
                                 &cd) != FRAY_OK) {
            cli_error(&args, "--initiative: %s", cd.message);
            fray_setup_free(setup);
            return EXIT_USAGE;
        }
        init_given.cards = init_cards;
        init_given.n_cards = n;
    } else if (init->present) {
        const char *p = init->value;
        size_t n = 0;
        while (*p == ' ' || *p == ',')
            p++;
        while (*p) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v < 1 || v > 100 ||
                n >= sizeof init_dice / sizeof init_dice[0] ||
                (*end && *end != ' ' && *end != ',')) {
                cli_error(&args, "--initiative: expected the dice rolled by "
                          "hand (like 13 8), got '%s'", p);
                fray_setup_free(setup);
                return EXIT_USAGE;
            }
            init_dice[n++] = (int)v;
            p = end;
            while (*p == ' ' || *p == ',')
                p++;
        }
        init_given.dice = init_dice;
        init_given.n_dice = n;
    }
    fray_fight *fight = NULL;
    fray_status st = fray_fight_new(setup, seed, &fo,
                                    init->present ? &init_given : NULL, NULL,
                                    &fight);
    if (st != FRAY_OK) {
        if (init->present && init_diag.message[0])
            cli_error(&args, "the fight cannot start: --initiative: %s",
                      init_diag.message);
        else
            cli_error(&args, "the fight cannot start: %s%s", fray_strerror(st),
                      init->present && !towers
                          ? " (--initiative: a d20 from 1 to 20 for each "
                            "combatant, then the tie-breaking dice)"
                          : "");
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    if (trial && (st = fray_fight_reset_trial(fight, seed, trial)) !=
                     FRAY_OK) {
        cli_error(&args, "the fight cannot start: %s", fray_strerror(st));
        fray_fight_free(fight);
        fray_setup_free(setup);
        return EXIT_USAGE;
    }

    const char *title = fray_setup_name(setup);
    if (table && resume->present) {
        /* The fight so far, as its journal has it (cut short or not). */
        size_t len = 0;
        char *text = cli_read_journal(resume->value, &len);
        st = text ? cli_replay_journal(fight, resume->value, text, len)
                  : FRAY_ERR_INVALID;
        free(text);
        if (st != FRAY_OK) {
            fray_fight_free(fight);
            fray_setup_free(setup);
            return EXIT_USAGE;
        }
        seed = fray_fight_seed(fight);
    }
    if (table) {
        rc = cli_fight_table(fight, title && title[0] ? title : path, seed,
                             journal->present  ? journal->value
                             : resume->present ? resume->value
                                               : NULL,
                             cli_get(&args, "echo")->present,
                             resume->present ? resume->value : NULL);
        fray_fight_free(fight);
        fray_setup_free(setup);
        return rc;
    }

    cli_text b = {NULL, 0};
    bool text = !args.json && !quiet;
    if (text && trial)
        printf("%s (seed %llu, trial %llu)\n", title && title[0] ? title : path,
               (unsigned long long)seed, (unsigned long long)trial);
    else if (text)
        printf("%s (seed %llu)\n", title && title[0] ? title : path,
               (unsigned long long)seed);
    int told = 0;
    int round = -1;
    /* The time track is drawn at each round's start: 99 Towers' Combat
     * Clock turns every 10 phases; a ruleset that counts rounds, each. */
    int per_round = strcmp(fray_setup_time_unit(setup), "phase") == 0 ? 10 : 1;
    for (long guard = 0;; guard++) {
        int n = fray_fight_events(fight);
        for (; told < n; told++) {
            if (args.json) {
                /* The first line carries the seed (docs/journal.md). */
                printf("%s\n", cli_render_event(&b, fight, told,
                                                fray_event_json));
                continue;
            }
            if (!text)
                continue;
            /* The clock and the map at the start of each round, before the
             * round's first event is told (the begin event is told first:
             * the initiative places everyone on the clock). */
            int now = fray_fight_now(fight) / per_round;
            /* 99 Towers: the drawing comes before the first action of the
             * new round (it is told at its phase). A ruleset that counts
             * rounds begins a round by an event of the round before ("Round
             * 1 - Next turn. Round 2 begins."): the drawing comes after it,
             * once the state drawn is the state after that event. */
            bool before = per_round > 1 || told < n - 1;
            if (told > 0 && now != round && before) {
                round = now;
                print_round(&b, fight);
            }
            fputs(cli_render_event(&b, fight, told, fray_event_narrate),
                  stdout);
            if (told == 0 || (now != round && !before)) {
                round = now;
                print_round(&b, fight);
            }
        }
        if (fray_fight_over(fight) || guard > 10000000)
            break;
        st = fray_fight_step(fight);
        if (st != FRAY_OK)
            break; /* (the fight refuses to go on: issue 11) */
    }
    const char *summary = cli_render(&b, fight, fray_fight_summary);
    if (args.json) {
        cli_print_summary_json(fight, summary);
    } else {
        if (text)
            printf("\nSummary\n");
        fputs(summary, stdout);
    }
    cli_text_free(&b);
    rc = EXIT_OK;
    if (state) {
        fray_status vs = cli_print_state(fight);
        if (vs != FRAY_OK) {
            cli_error(&args, "the fight's state could not be shown: %s",
                      fray_strerror(vs));
            rc = EXIT_UNFINISHED;
        }
    }
    if (st != FRAY_OK) {
        /* A failed step is an error, never "the fight goes on" (issue 11):
         * what was told and the journal hold the events before it. */
        fflush(stdout);
        char why[256];
        if (fray_fight_failure(fight, why, sizeof why) > 0)
            cli_error(&args, "the fight stopped after event %d: %s",
                      fray_fight_events(fight) - 1, why);
        else
            cli_error(&args, "the fight stopped after event %d: %s",
                      fray_fight_events(fight) - 1, fray_strerror(st));
        rc = EXIT_UNFINISHED;
    }
    if (journal->present && !cli_write_journal(fight, journal->value))
        rc = EXIT_UNFINISHED;
    fray_fight_free(fight);
    fray_setup_free(setup);
    return rc;
}

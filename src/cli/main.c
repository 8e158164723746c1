/* main.c - the fray command: dispatches to the subcommands. */
#include "cli.h"

#include <errno.h>
#include <string.h>

static const char USAGE[] =
    "fray - a tabletop combat engine: card flips, dice and exact odds\n"
    "\n"
    "usage: fray COMMAND [ARGS] [--json] [--help]\n"
    "\n"
    "commands:\n"
    "  flip N           flip N cards (99 Towers), keep the highest, check a DTN\n"
    "  roll EXPR        roll dice: 3d6, 4d6kh3, 4D!+2 (Wild Die), 2{1d8}+3, d20+5\n"
    "  odds flip N      exact odds of a flip: kept card, total, Hearts, success\n"
    "  odds attack A D  exact odds of an attack flip against a defense flip\n"
    "  odds opposed A B exact odds of an opposed skill flip, with the tie rules\n"
    "  odds roll EXPR   exact distribution of a dice roll; --attack for d20 hits\n"
    "  odds duel FILE   exact chances of a duel's two combatants, toe to toe\n"
    "  odds d6 CODE     exact odds of a D6 roll against a difficulty, or of damage\n"
    "  check FILE...    check encounters, stat blocks and catalogs (any ruleset)\n"
    "  fight FILE       run an encounter by its tactics, told as it happens\n"
    "                   --table: the game master plays it, one command a line\n"
    "  replay FILE J    tell a fight again from its journal J (JSON Lines)\n"
    "  sim FILE         run an encounter many times: who wins, how long, sweeps\n"
    "  serve            the GM's table over HTTP: fights kept, players' views\n"
    "  version          print the version\n"
    "\n"
    "Each command takes --help. Exit status: 0 success, 1 a check failed,\n"
    "2 bad usage or input, 3 could not finish (output not written, a fight\n"
    "that could not go on), 130 stopped by Ctrl-C. See 'man fray'\n"
    "(docs/fray.1).\n";

static int run(int argc, char **argv) {
    if (argc < 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "flip") == 0)
        return cmd_flip(argc - 2, argv + 2);
    if (strcmp(cmd, "roll") == 0)
        return cmd_roll(argc - 2, argv + 2);
    if (strcmp(cmd, "odds") == 0)
        return cmd_odds(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc - 2, argv + 2);
    if (strcmp(cmd, "fight") == 0)
        return cmd_fight(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc - 2, argv + 2);
    if (strcmp(cmd, "sim") == 0)
        return cmd_sim(argc - 2, argv + 2);
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 2, argv + 2);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("fray %s\n", fray_version());
        return EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "-h") == 0) {
        fputs(USAGE, stdout);
        return EXIT_OK;
    }
    fprintf(stderr, "fray: unknown command '%s'\n\n%s", cmd, USAGE);
    return EXIT_USAGE;
}

/* Output buffered in stdout is only known to be written once it is
 * flushed and the descriptor closed (a full disk, an NFS server, a pipe
 * closed early): every command's exit status waits for that, so that
 * `fray ... > file` never exits 0 with the file short (issue 11). A
 * write error outranks any other status: what was asked for is lost. */
static int finish_stdout(int status) {
    errno = 0;
    bool flush_failed = fflush(stdout) != 0;
    int err = errno;
    /* An earlier write may have failed (and set the error flag) with
     * nothing left to flush; then its errno is gone, so say less. */
    bool failed = flush_failed || ferror(stdout);
    /* A descriptor closed from the start (fray ... >&-) fails close()
     * with EBADF: only an error when something was to be written, and
     * then a write already failed (as gnulib's close_stream judges). */
    if (fclose(stdout) != 0 && !failed && errno != EBADF) {
        failed = true;
        err = errno;
    }
    if (!failed)
        return status;
    if (err)
        fprintf(stderr, "fray: error writing standard output: %s\n",
                strerror(err));
    else
        fputs("fray: error writing standard output\n", stderr);
    return EXIT_UNFINISHED;
}

int main(int argc, char **argv) { return finish_stdout(run(argc, argv)); }

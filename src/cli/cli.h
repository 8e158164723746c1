/*
 * cli.h - shared pieces of the fray command: argument parsing, output
 * (tables, bars, JSON) and the subcommands.
 */
#ifndef FRAY_CLI_H
#define FRAY_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fray/fray.h"

/* Exit codes (docs/fray.1 "EXIT STATUS"). EXIT_UNFINISHED: fray could
 * not finish what it was asked: standard output or a file fray writes
 * could not be written (main.c checks stdout's final flush and close for
 * every command), or a fight could not go on (a step failed);
 * EXIT_INTERRUPTED: stopped by Ctrl-C, as a shell reports SIGINT
 * (128 + 2). */
enum {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1,
    EXIT_USAGE = 2,
    EXIT_UNFINISHED = 3,
    EXIT_INTERRUPTED = 130
};

/* ---- Arguments ------------------------------------------------------------ */

typedef struct cli_opt {
    const char *name;  /* without the leading dashes */
    bool has_value;
    const char *value; /* set by cli_parse; "" for a present flag */
    bool present;
} cli_opt;

typedef struct cli_args {
    const char *command;  /* "fray odds attack", for messages */
    cli_opt *opts;
    int n_opts;
    const char *pos[8];
    int n_pos;
    bool json;
    bool help;
} cli_args;

/* Parses argv against the options. --json and --help are always known.
 * Returns false (after printing a message) on bad usage. A token that
 * looks like a negative number is a positional value, not an option. */
bool cli_parse(cli_args *args, int argc, char **argv);
cli_opt *cli_get(cli_args *args, const char *name);
/* The start every subcommand shares: parse, answer --help with `help`,
 * and insist on exactly n_pos positional arguments (else print
 * "needs <what_pos>"). Returns -1 to go on, or the exit status. */
int cli_start(cli_args *args, int argc, char **argv, const char *help,
              int n_pos, const char *what_pos);
/* Reads an integer option or positional: an optional sign and decimal
 * digits, nothing else (no spaces). Prints an error naming the token and
 * returns false when it is not an integer in [lo, hi]. */
bool cli_int(const cli_args *args, const char *what, const char *text,
             long lo, long hi, long *out);
bool cli_int_opt(cli_args *args, const char *name, long lo, long hi,
                 long *out);
/* Reads a number from 0 to 2^64 - 1 written in decimal digits only (no
 * sign, no spaces: ' -5' is refused, not wrapped); prints an error naming
 * the token and returns false otherwise. */
bool cli_u64(const cli_args *args, const char *what, const char *text,
             uint64_t *out);
void cli_error(const cli_args *args, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Reads the deck options shared by card commands (--aces, --jokers,
 * --joker-value, --min-one-card). */
bool cli_deck_options(cli_args *args, fray_deck_options *deck,
                      fray_flip_rules *rules);
/* Parses a dice expression; W stands for --weapon when the command has it
 * and `use_weapon` is set. On error prints the message, prefixed by `what`
 * (an option name, or NULL for the expression argument), and returns
 * false. */
bool cli_dice(cli_args *args, const char *what, const char *text,
              bool use_weapon, fray_dice **out);
/* The expression in canonical form ("4d6kh3+2"), whole, in a string the
 * caller frees; NULL when out of memory. */
char *cli_dice_text(const fray_dice *dice);
/* odds_roll.c: `fray odds roll EXPR` without --attack (the distribution,
 * --vs T, --vs-roll EXPR, --report FILE). Returns the exit status. */
int cli_odds_roll(cli_args *args, const fray_dice *dice, const char *text,
                  bool has_vs, long vs);
/* odds_roll.c: `fray odds d6` (issue 18): a D6 die code against a
 * difficulty, a defense roll or GM-rolled modifiers, or damage against
 * resistance. Returns the exit status. */
int cli_odds_d6(cli_args *args);
/* The arguments every flip shares: N, --aspect, --shift, --dtn and the
 * deck options. */
typedef struct cli_flip_args {
    long n, aspect, shift, dtn;
    bool has_dtn;
    fray_deck_options deck;
    fray_flip_rules rules;
} cli_flip_args;
bool cli_flip_args_read(cli_args *args, cli_flip_args *out);
/* The seed from --seed, or a fresh one (from the clock) reported to the
 * user so the result can be repeated. */
bool cli_seed(cli_args *args, uint64_t *out, bool *out_given);

/* ---- Output ----------------------------------------------------------------- */

/* Writes to stdout are checked once, at exit: the stream's error flag is
 * sticky, and main.c flushes and closes stdout after every command and
 * exits EXIT_UNFINISHED if anything failed. A file fray writes goes through
 * cli_write_whole. */

/* All n bytes of p to fd, whatever write() takes at a time; false with
 * errno set on the first failure. */
bool cli_write_all(int fd, const char *p, size_t n);
/*
 * Writes the n bytes of buf to path whole or not at all: a new file in the
 * same directory (".NAME." and six random characters), written, synced, given the old file's
 * permissions (or a new file's), renamed over path, the directory synced.
 * A symbolic link is followed (the file it names is replaced; the link
 * stays); a path that is not a regular file is refused. path keeps its old
 * content until the rename. With out_fd the new file stays open for
 * appending (its descriptor in *out_fd). false, with "error: cannot write
 * WHAT to 'PATH': ..." printed and the new file removed, when it cannot.
 */
bool cli_write_whole(const char *path, const char *what, const char *buf,
                     size_t n, int *out_fd);
/* true when s ends with suffix, without case ("R.HTML", ".html"): which
 * kind of report a path asks for. */
bool cli_ends_with_ci(const char *s, const char *suffix);

/* A bar of width proportional to p in [0, 1], `width` cells wide at p = 1,
 * drawn with eighth blocks. */
void out_bar(FILE *f, double p, int width);
/* "62.31%" with sensible precision for small numbers. */
void out_percent(FILE *f, double p);
/* A row of a probability table: the exact ratio, the percentage and a bar
 * scaled so that `scale` fills the width. */
void out_prob_row(FILE *f, fray_ratio r, double scale);

/* A minimal JSON writer that prints exact 128-bit integers (jansson's
 * integers stop at 64 bits, and exact odds need more). */
typedef struct json_out {
    FILE *f;
    int depth;
    bool need_comma[32];
    bool after_key;
} json_out;

void json_init(json_out *j, FILE *f);
void json_begin_object(json_out *j);
void json_end_object(json_out *j);
void json_begin_array(json_out *j);
void json_end_array(json_out *j);
void json_key(json_out *j, const char *key);
void json_string(json_out *j, const char *s);
void json_int(json_out *j, long long v);
/* Seeds and counts: all of 0 .. 2^64 - 1, never printed negative. */
void json_u64(json_out *j, uint64_t v);
void json_bool(json_out *j, bool v);
void json_double(json_out *j, double v);
void json_u128(json_out *j, fray_u128 v);
/* {"num": .., "den": .., "p": ..} */
void json_ratio(json_out *j, fray_ratio r);
/* The same three keys, inside an object the caller has opened. */
void json_ratio_fields(json_out *j, fray_ratio r);
void json_finish(json_out *j);
void json_null(json_out *j);
/* Exact numbers (docs/rules/dice.md "Exact numbers in JSON"): a number
 * while it fits in 2^53, a string of digits beyond; a fraction as
 * "num", "den" and its nearest double "p". */
void json_digits(json_out *j, const char *key, const char *digits, bool negative);
void json_big_fields(json_out *j, const fray_bigratio *r);
void json_big(json_out *j, const char *key, const fray_bigratio *r); /* newline */
/* A key and its value in one call. */
void json_kv_int(json_out *j, const char *key, long long v);
void json_kv_u64(json_out *j, const char *key, uint64_t v);
void json_kv_string(json_out *j, const char *key, const char *s);
void json_kv_bool(json_out *j, const char *key, bool v);
void json_kv_ratio(json_out *j, const char *key, fray_ratio r);

/* ---- 99 Towers fights (cmd_table.c) ----------------------------------------- */

/* A growing text buffer for the library's snprintf-style renderings. */
typedef struct cli_text {
    char *p;
    size_t cap;
} cli_text;

typedef size_t (*cli_render_fn)(const fray_fight *f, char *buf,
                                size_t size);
typedef size_t (*cli_render_event_fn)(const fray_fight *f, int i,
                                      char *buf, size_t size);
/* The rendering, in b (valid until b's next use); "" when out of memory. */
const char *cli_render(cli_text *b, const fray_fight *f,
                       cli_render_fn fn);
const char *cli_render_event(cli_text *b, const fray_fight *f, int i,
                             cli_render_event_fn fn);
void cli_text_free(cli_text *b);
/* The whole of a journal file (it may hold NUL bytes: *out_len is its
 * length), NUL-terminated; the caller frees it. A regular file or a pipe of
 * at most CLI_JOURNAL_MAX bytes; NULL, with "PATH: why" printed, when it
 * cannot be read or is none of these (a folder, a device, larger). */
enum { CLI_JOURNAL_MAX = 256 * 1024 * 1024 };
char *cli_read_journal(const char *path, size_t *out_len);
/* Replays the journal text (len bytes, read from path) onto the fight.
 * Prints "PATH:LINE:COLUMN: message" and returns the error when it does
 * not replay; prints a warning when it was cut short (no end mark, or a
 * last line cut in the middle) and returns FRAY_OK: what it holds
 * replays. */
fray_status cli_replay_journal(fray_fight *f, const char *path,
                               const char *text, size_t len);
/* With -C DIR, goes there first; then loads the encounter file. On error
 * prints "FILE:LINE:COLUMN: message" (or "FILE: message") and returns
 * EXIT_USAGE; on success sets *out and returns -1. */
int cli_load_encounter(cli_args *args, const char *path,
                       fray_setup **out);
/* The last line of `--json` output: {"summary": {seed, phase, events,
 * over, winner, text}} (docs/journal.md). */
void cli_print_summary_json(const fray_fight *f, const char *summary);
/* The fight's state as the GM sees it (fray_fight_view_json, docs/journal.md
 * "A fight as JSON"), one line on standard output (cmd_fight.c; `fray fight
 * --state`, the table's `state`); the library's error when it cannot. */
fray_status cli_print_state(const fray_fight *f);
/* ---- The journal on disk (journal.c; docs/journal.md "On disk") ---------- */

/* Writes the fight's whole journal (JSON Lines, docs/journal.md: every
 * event, undo marks for the events kept for redo, the end mark) to path
 * ("-": standard output) through a new file renamed over it; prints
 * "error: ..." and returns false when it cannot (path keeps what it had). */
bool cli_write_journal(const fray_fight *f, const char *path);

/* A journal written ahead, at the table: open for appending, `size` bytes
 * long, all of them synced (the file replays to the state last told). */
typedef struct cli_journal {
    const char *path; /* borrowed from the caller */
    int fd;           /* -1 when closed */
    long long size;
} cli_journal;

/* Starts the journal at path with the fight's events so far (as
 * cli_write_journal, without the end mark) and keeps it open. Refuses
 * (message printed, false) a path it cannot write: nothing is played
 * then. */
bool cli_journal_start(cli_journal *j, const char *path,
                       const fray_fight *f);
/* Appends events [from, to) of the fight, or a mark, and syncs them
 * (fflush and fsync: they are on disk when this returns true). false
 * (message printed) when it cannot: the file is cut back to its last
 * whole line, and the caller must stop. */
bool cli_journal_events(cli_journal *j, const fray_fight *f, int from,
                        int to);
bool cli_journal_mark(cli_journal *j, fray_mark mark, int n);
/* Closes the journal; with end_events >= 0 it first writes the end mark
 * {"end":{"events":end_events}} (a clean quit). */
bool cli_journal_close(cli_journal *j, int end_events);

/* The table mode of `fray fight` (--table) on a fight that keeps a
 * journal with facts; with `journal` not NULL the journal is written ahead
 * to that file from the start; `resumed` (may be NULL) names the journal
 * the fight was replayed from (--resume). Returns the exit status. */
int cli_fight_table(fray_fight *fight, const char *title,
                    uint64_t seed, const char *journal, bool echo,
                    const char *resumed);

/* ---- Subcommands ------------------------------------------------------------- */

int cmd_flip(int argc, char **argv);
int cmd_roll(int argc, char **argv);
int cmd_odds(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fight(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* ---- At the table, the odds (issue 19: table_odds.c) ------------------------ */

/* `odds [--exact] ID [COMMAND...]`: the chances of one action of ID, or
 * every option of ID ranked; `forecast [N]`: who wins from here (N
 * trials; progress on stderr when tty). rest: the words after the table
 * word. Refusals are said on stderr; false when out of memory. */
bool cli_table_odds(fray_fight *fight, const char *rest);
bool cli_table_forecast(fray_fight *fight, const char *rest, bool tty);

#endif

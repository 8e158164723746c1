/* cmd_table.c - `fray fight ENCOUNTER --table`: the game master's table
 * mode. One line at a time from stdin (a terminal, read with libedit's
 * line editing and history; or a script, read as it is): table
 * commands in rules words (docs/file-formats.md "Commands"), with the
 * cards flipped by hand when the players flip them, the tactics for the
 * turns the GM hands over, undo and redo, the Combat Clock, the map and
 * the journal (seed 000; docs/journal.md). Also the renderings that
 * `fray replay` shares. */
#define _POSIX_C_SOURCE 200809L /* fstat, stat */

#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "fray/encounter.h"

/* ---- Renderings (shared with cmd_replay.c) -------------------------------- */

static bool text_grow(cli_text *b, size_t need) {
    if (need < b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap <= need)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        return false;
    b->p = p;
    b->cap = cap;
    return true;
}

int cli_load_encounter(cli_args *args, const char *path,
                       fray_setup **out) {
    cli_opt *dir = cli_get(args, "C");
    if (dir->present && chdir(dir->value) != 0) {
        cli_error(args, "cannot go to '%s': %s", dir->value, strerror(errno));
        return EXIT_USAGE;
    }
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status st = fray_setup_load(path, NULL, out, &diag);
    if (st == FRAY_OK)
        return -1;
    const char *file = fray_diag_file(&diag) ? fray_diag_file(&diag) : path;
    const char *msg = diag.message[0] ? diag.message : fray_strerror(st);
    if (diag.line > 0)
        fprintf(stderr, "%s:%d:%d: %s\n", file, diag.line,
                diag.column > 0 ? diag.column : 1, msg);
    else
        fprintf(stderr, "%s: %s\n", file, msg);
    return EXIT_USAGE;
}

void cli_print_summary_json(const fray_fight *f, const char *summary) {
    json_out j;
    json_init(&j, stdout);
    json_begin_object(&j);
    json_key(&j, "summary");
    json_begin_object(&j);
    fray_u128 seed = {0, fray_fight_seed(f)};
    json_key(&j, "seed");
    json_u128(&j, seed);
    /* "phase" (99 Towers), "round" */
    json_kv_int(&j, fray_setup_time_unit(fray_fight_setup(f)),
                fray_fight_now(f));
    json_kv_int(&j, "events", fray_fight_events(f));
    json_kv_bool(&j, "over", fray_fight_over(f));
    json_kv_int(&j, "winner", fray_fight_winner(f));
    json_kv_string(&j, "text", summary);
    json_end_object(&j);
    json_end_object(&j);
    json_finish(&j);
}

const char *cli_render(cli_text *b, const fray_fight *f,
                       cli_render_fn fn) {
    size_t n = fn(f, NULL, 0);
    if (!text_grow(b, n + 1))
        return "";
    fn(f, b->p, b->cap);
    return b->p;
}

const char *cli_render_event(cli_text *b, const fray_fight *f, int i,
                             cli_render_event_fn fn) {
    size_t n = fn(f, i, NULL, 0);
    if (!text_grow(b, n + 1))
        return "";
    fn(f, i, b->p, b->cap);
    return b->p;
}

void cli_text_free(cli_text *b) {
    free(b->p);
    b->p = NULL;
    b->cap = 0;
}

/* ---- The session ---------------------------------------------------------------- */

static const char TABLE_HELP[] =
    "At the table, one command a line (words as in docs/file-formats.md\n"
    "\"Commands\"; ids or names, spaces as X,Y):\n"
    "  next                        the clock moves on to the next activation\n"
    "  ID ACTION [TARGET] [X,Y]... the combatant whose turn it is acts:\n"
    "                              tony attack bandit-1, tony move 4,5,\n"
    "                              tony shift 3,3 then attack bandit-1,\n"
    "                              ana hold until 25 after tony\n"
    "  ID hold                     hold without a trigger; any later command\n"
    "                              of ID's brings ID out, ahead of whoever is next\n"
    "  ID charge T X,Y via A,B     the Charge's straight run starts at A,B\n"
    "  ID cast SPELL at X,Y        an area aimed at a space (or at T)\n"
    "  ID attack T squeeze|slam|restrain|reverse|throw X,Y [land DIR]\n"
    "                              grappling after the Grapple Test\n"
    "  ID move X,Y and HAWK A,B    a master and companion both move\n"
    "  ID move X,Y tumble [dtn N]  through non-allies' spaces: an Acrobatics\n"
    "                              flip against the GM's DTN for each\n"
    "  ID mark T|X,Y               a marked target\n"
    "  ... aggressive|defensive    the two-weapon stance from this action on\n"
    "  ... white                   a chip doubles Speed for this move\n"
    "  ID use-skill S against T [S2|aspect XX|high|low ATTR] [CONDITION]\n"
    "                              an opposed skill flip (a check as an attack)\n"
    "  ID concede                  a duelist concedes (not to the death)\n"
    "  ... fate QH for 4D          a Hand of Fate card replaces a flipped card\n"
    "  ... fate QH reflip          a Hand of Fate card: flip one card instead\n"
    "  ... chip tony shift [red]   a chip for (shift+1) on tony's flip\n"
    "  ... chip tony flip [red]    a red or blue chip for (flip+1)\n"
    "  ... decline bandit-1        no opportunity attack by bandit-1 (or all)\n"
    "  ... cards KH 7C 4D 9S 2H    the cards the players flipped by hand, in\n"
    "                              order: the attack flip, then the defense\n"
    "                              flip, then any others (else fray flips);\n"
    "                              last on the line\n"
    "  ... dice 14 6 3             the dice rolled by hand, in the order the\n"
    "                              rules ask for them (rulesets with dice)\n"
    "  auto [N | all]              the tactics play this turn (N turns; all:\n"
    "                              to the end of the fight)\n"
    "  gm set ID stun|lethal|temp-stun|temp-lethal N\n"
    "  gm adjust ID stun|lethal|temp-stun|temp-lethal +N|-N\n"
    "  gm condition ID NAME [X] [for N] | off\n"
    "  gm join ID at X,Y [phase P]  gm flee ID  gm place ID X,Y\n"
    "                              the GM's word, at any time (no turn)\n"
    "  ID use-skill SKILL ... dtn N|none [flip N] [shift N] [cost N]\n"
    "                              the DTN, the mods and the time are the GM's call\n"
    "  ... high-ground yes|no      the GM's other calls, given on the command\n"
    "  ... all-hold delay|first    (else the table asks): high ground, everyone\n"
    "  ... strength-limit N|none   holding, an improvised weapon's strength limit\n"
    "  answer N|none|WORD          the GM's answer to the question that\n"
    "                              refused the last command\n"
    "  ID talent NAME [T] [spending CARD]\n"
    "                              use a talent (free); a Hand of Fate card or a\n"
    "                              mark on T may be its cost\n"
    "  ID exchange CARD            after the fight: a held Hand of Fate card for\n"
    "                              the top card of the deck\n"
    "  undo, redo                  take back the last event; play it again\n"
    "  clock                       the Combat Clock: who acts in which phase\n"
    "  map                         the tactical map\n"
    "  status                      who is standing, STUN and LETHAL, the winner\n"
    "  state                       the fight's state as JSON, one line (the GM's\n"
    "                              view: docs/journal.md \"A fight as JSON\")\n"
    "  hand ID                     the Hand of Fate of the deck ID flips from\n"
    "  journal FILE                write the journal so far (JSON Lines; -:\n"
    "                              to standard output)\n"
    "  help, quit                  this list; end the session (with a summary)\n";

/* Alloy's (seed 004; src/rules/alloy/parse.c has every word). */
static const char TABLE_HELP_ALLOY[] =
    "At the table, one command a line (words as in docs/file-formats.md\n"
    "\"Commands\"; ids or names, '-' for a space, squares as X,Y):\n"
    "  next                        the turn passes on (the next in the\n"
    "                              initiative order; a new round)\n"
    "  ID ACTION [TARGET] [X,Y]... the combatant whose turn it is acts:\n"
    "                              vance attack lyra, vance attack lyra with\n"
    "                              stunning-blow, vance walk 4,5, vance shift\n"
    "                              3,3, vance charge lyra, vance second-wind,\n"
    "                              vance total-defense, vance stand, vance\n"
    "                              action-point, vance delay, vance end\n"
    "  ... slot move               the action that pays (standard, move, swift)\n"
    "  ... decline lyra            no opportunity attack by lyra (or all)\n"
    "  ... dice 14 6 3             the dice rolled by hand, in the order the\n"
    "                              rules ask for them (each fits its die: a\n"
    "                              d20 1 to 20); last on the line\n"
    "  gm set ID hp N              the GM's overrides, at any time (no turn,\n"
    "  gm adjust ID hp +N|-N       no action, no movement rules): hit points\n"
    "                              (dying at 0, dead at -half: 004:211),\n"
    "  gm condition ID NAME [on|off] [until-removed|save-ends|end-of-turn|\n"
    "                              start-of-turn]\n"
    "  gm join ID [X,Y]            one that joins later, or one that left\n"
    "  gm flee ID                  taken out of the fight\n"
    "  gm place ID X,Y             a token moved (no opportunity attacks)\n"
    "  auto [N | all]              the tactics play this turn (N turns; all:\n"
    "                              to the end of the fight)\n"
    "  undo, redo                  take back the last event; play it again\n"
    "  clock, order                the initiative order and the round\n"
    "  map                         the tactical map\n"
    "  status                      hit points, conditions, the winner\n"
    "  state                       the fight's state as JSON, one line (the GM's\n"
    "                              view: docs/journal.md \"A fight as JSON\")\n"
    "  journal FILE                write the journal so far (JSON Lines; -:\n"
    "                              to standard output)\n"
    "  help, quit                  this list; end the session (with a summary)\n";

/* Silent Winter's (seed 002; src/rules/winter/tell.c sw_parse has every
 * word). */
static const char TABLE_HELP_WINTER[] =
    "At the table, one command a line (words as in docs/file-formats.md\n"
    "\"Silent Winter commands\"; ids or names, '-' for a space):\n"
    "  next                        the segment ends: Engages whose delay is\n"
    "                              over take effect, the Wounded bleed\n"
    "  ID ACTION [TARGET]          anyone free to declare on this segment:\n"
    "                              lothaire engage corpse, lothaire attack\n"
    "                              corpse, corpse avoid lothaire (on the\n"
    "                              segment of the Engage), hero switch rogue,\n"
    "                              hero disengage warrior, bandit-1 chase\n"
    "                              archer, archer snipe, archer cover\n"
    "                              partial|full, archer medicine lothaire,\n"
    "                              archer item lothaire, archer skill,\n"
    "                              healer item bandage lothaire, healer\n"
    "                              skill second-wind (an entry's effects),\n"
    "                              archer wield sword (Switch Weapons),\n"
    "                              witch cast firebolt bandit, witch release\n"
    "                              ward (Maintained spells: at any time),\n"
    "                              (a bonus of Health or Pain is used up\n"
    "                              first; used up, its Maintain comes back),\n"
    "                              lothaire surmount (an obstacle, 002:25),\n"
    "                              lothaire surmount wall (one of the scene's\n"
    "                              obstacles: list),\n"
    "                              knight talent hamstring hound (an attack\n"
    "                              with a talent: its Pain, its effect),\n"
    "                              lancer dismount (the GM takes a rider out\n"
    "                              of the saddle, at once), lancer mount\n"
    "                              (back into the saddle: its delay), lancer\n"
    "                              ride (a Ride check the GM asks for, at once),\n"
    "                              lothaire wait\n"
    "  ... dice 14 6 3             the dice rolled by hand, in the order the\n"
    "                              rules ask for them (d20 the actor's, d20\n"
    "                              the opponent's, then the d6s); last on the\n"
    "                              line\n"
    "  auto [N | all]              the tactics play (N steps; all: to the end)\n"
    "  undo, redo                  take back the last event; play it again\n"
    "  clock                       the segment and who declares when\n"
    "  map                         who engages whom (A <-> B, C -> B)\n"
    "  status                      Health, Pain, statuses, the winner\n"
    "  state                       the fight's state as JSON, one line\n"
    "  journal FILE                write the journal so far (JSON Lines; -:\n"
    "                              to standard output)\n"
    "  help, quit                  this list; end the session (with a summary)\n";
/* The odds at the table (issue 19; table_odds.c), in every ruleset. */
static const char TABLE_HELP_ODDS[] =
    "  odds [exact] ID [ACTION..]  the chances of an action of ID before it is\n"
    "                              taken (odds ID: every attack ranked; exact:\n"
    "                              the fractions too)\n"
    "  forecast [N]                who wins from here: N trials (2000)\n";

/* When the fight cannot go on (a step failed, out of memory, or the
 * journal could not be written) the session ends with EXIT_UNFINISHED (docs/fray.1
 * "EXIT STATUS"); the journal then holds every command acknowledged. */

/* Table input: a line is at most TABLE_LINE_MAX bytes (docs/fray.1); a
 * longer one, or one with a NUL byte, is refused and skipped up to its
 * newline, but not past TABLE_SKIP_MAX bytes in all; TABLE_BAD_MAX bad
 * lines in a row end the session (this is not table commands). */
enum {
    TABLE_LINE_MAX = 4096,
    TABLE_SKIP_MAX = 1 << 20,
    TABLE_BAD_MAX = 16
};

typedef struct table {
    fray_fight *fight;
    cli_text text;
    bool tty;  /* stdin is a terminal: prompt */
    bool echo; /* prompt and echo each line (transcripts of scripts) */
    cli_journal journal; /* written ahead when journal.fd >= 0 */
    int status;          /* EXIT_OK, or why the session stopped */
} table;

/* The fight cannot go on: say why, and stop the session. */
static void stop(table *t, int status, const char *why) {
    fprintf(stderr, "error: %s; the fight stops here", why);
    if (t->journal.fd >= 0)
        fprintf(stderr, " (the journal '%s' holds every command told "
                "before)", t->journal.path);
    fputc('\n', stderr);
    t->status = status;
}

/* Writes events [from, to) ahead to the journal, before they are told;
 * false (the session stopped) when it cannot. */
static bool journal_events(table *t, int from, int to) {
    if (t->journal.fd < 0 || cli_journal_events(&t->journal, t->fight, from,
                                                to))
        return true;
    stop(t, EXIT_UNFINISHED, "the journal cannot be written");
    return false;
}

/* A refusal of a command leaves the fight as it was (encounter.h); any
 * other error (out of memory) is a failed step. */
static bool refusal(fray_status st) {
    return st == FRAY_ERR_PARSE || st == FRAY_ERR_INVALID ||
           st == FRAY_ERR_RANGE || st == FRAY_ERR_DECK_EMPTY ||
           st == FRAY_ERR_CARD_UNAVAILABLE;
}

/* w (n characters) is `word`, whatever the case. */
static bool word_is(const char *w, size_t n, const char *word) {
    if (strlen(word) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)w[i]) != word[i])
            return false;
    return true;
}

static bool is(const char *w, const char *word) {
    return word_is(w, strlen(w), word);
}

static void say_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void say_error(const char *fmt, ...) {
    va_list ap;
    fputs("error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Says why the library refused: the diag's message, its column in the
 * line as typed (parse errors), else the status's own words. */
static void say_refusal(fray_status st, const fray_diag *diag,
                        int column_offset) {
    fputs("error: ", stderr);
    if (st == FRAY_ERR_PARSE && diag->column > 0)
        fprintf(stderr, "column %d: ", diag->column + column_offset);
    fputs(diag->message[0] ? diag->message : fray_strerror(st), stderr);
    fputc('\n', stderr);
}

/* The prompt's text into buf (prompt() prints it; libedit shows it). */
static void prompt_text(table *t, char *buf, size_t size) {
    /* "phase 12" (99 Towers), "round 2" */
    char now[64], when[64] = "";
    snprintf(now, sizeof now, "%s %d",
             fray_setup_time_unit(fray_fight_setup(t->fight)),
             fray_fight_now(t->fight));
    const char *name = fray_fight_turn(t->fight, when, sizeof when);
    if (fray_fight_over(t->fight))
        snprintf(buf, size, "%s, the fight is over> ", now);
    else if (!name)
        snprintf(buf, size, "%s> ", now);
    else if (!when[0] || strcmp(when, now) == 0)
        snprintf(buf, size, "%s, %s's turn> ", now, name);
    else if (strncmp(when, now, strlen(now)) == 0 && when[strlen(now)] == ',')
        /* "round 2, initiative 17": the round is said once */
        snprintf(buf, size, "%s, %s's turn%s> ", now, name, when + strlen(now));
    else
        snprintf(buf, size, "%s, %s's turn in %s> ", now, name, when);
}

static void prompt(table *t) {
    char p[256];
    prompt_text(t, p, sizeof p);
    fputs(p, stdout);
    fflush(stdout);
}

/* true when event i only moved the clock on ("next"). */
static bool clock_step(table *t, int i) {
    const char *action = fray_event_action(t->fight, i);
    return action && strcmp(action, "phase") == 0;
}

/* Narrates events [from, to). A move of the clock with nothing happening
 * narrates as nothing in the library (the next action's header tells the
 * phase); after a "next" (`say_clock`), say where it went. */
static void tell(table *t, int from, int to, bool say_clock) {
    for (int i = from; i < to; i++) {
        const char *s =
            cli_render_event(&t->text, t->fight, i, fray_event_narrate);
        if (s[0])
            fputs(s, stdout);
        else if (say_clock && i == to - 1 && clock_step(t, i))
            printf("The clock moves on to phase %d.\n",
                   fray_fight_now(t->fight));
    }
}

/* The dice rolled by hand after the word "dice": whole numbers, each at
 * least 1 (the rules check each against the die they ask for). */
static bool parse_dice(const char *p, int *dice, size_t cap, size_t *n,
                       int col) {
    const char *start = p;
    *n = 0;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *w = p;
        char *end = NULL;
        long v = strtol(w, &end, 10);
        if (end == w || (*end && !isspace((unsigned char)*end)) || v < 1 ||
            v > 1000) {
            int len = 0;
            while (w[len] && !isspace((unsigned char)w[len]))
                len++;
            fprintf(stderr, "error: column %d: expected a die rolled by "
                    "hand (a whole number, like 14), got '%.*s'\n",
                    col + (int)(w - start) + 1, len, w);
            return false;
        }
        if (*n >= cap) {
            fprintf(stderr, "error: at most %zu dice in one command\n", cap);
            return false;
        }
        dice[(*n)++] = (int)v;
        p = end;
    }
    if (*n == 0) {
        fprintf(stderr, "error: column %d: expected the dice rolled by hand "
                "after 'dice' (like 14 6 3)\n", col + 1);
        return false;
    }
    return true;
}

/* One table command, with the cards after the word "cards" or the dice
 * after the word "dice", if any. */
static void do_command(table *t, char *line) {
    fray_card cards[128];
    size_t n_cards = 0;
    int dice[128];
    size_t n_dice = 0;
    bool given = false;
    int cards_col = 0;
    /* Find the word "cards": the command is before it, the cards after. */
    for (char *p = line; *p;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (word_is(w, (size_t)(p - w), "dice")) {
            *w = '\0';
            given = true;
            if (!parse_dice(p, dice, sizeof dice / sizeof dice[0], &n_dice,
                            (int)(p - line)))
                return;
            break;
        }
        if (word_is(w, (size_t)(p - w), "cards")) {
            *w = '\0';
            given = true;
            cards_col = (int)(p - line);
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status st = fray_card_parse_list(
                p, cards, sizeof cards / sizeof cards[0], &n_cards, &diag);
            if (st != FRAY_OK) {
                say_refusal(FRAY_ERR_PARSE, &diag, cards_col);
                return;
            }
            if (n_cards == 0) {
                fprintf(stderr, "error: column %d: expected the cards flipped "
                        "by hand after 'cards' (like KH 7C 4D)\n",
                        cards_col + 1);
                return;
            }
            break;
        }
    }
    int before = fray_fight_events(t->fight);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_given hand = {n_cards ? cards : NULL, n_cards,
                       n_dice ? dice : NULL, n_dice, NULL};
    fray_status st =
        fray_fight_command(t->fight, line, given ? &hand : NULL, &diag);
    if (st != FRAY_OK && refusal(st)) {
        say_refusal(st, &diag, 0);
        return;
    }
    if (st != FRAY_OK) {
        stop(t, EXIT_UNFINISHED, fray_strerror(st));
        return;
    }
    int after = fray_fight_events(t->fight);
    if (journal_events(t, before, after))
        tell(t, before, after, true);
}

/* auto, auto N, auto all: the tactics play. A turn is one step of the
 * policy, and when that step only moved the clock, the steps after it
 * until someone acted. */
static void do_auto(table *t, const char *arg) {
    long turns = 1;
    if (arg && is(arg, "all")) {
        turns = -1;
    } else if (arg) {
        char *end;
        errno = 0;
        turns = strtol(arg, &end, 10);
        if (end == arg || *end || errno || turns < 1 || turns > 1000000) {
            say_error("expected 'auto', 'auto N' (N turns, 1 or more) or "
                      "'auto all', got 'auto %s'", arg);
            return;
        }
    }
    if (fray_fight_over(t->fight)) {
        say_error("%s", "the fight is over");
        return;
    }
    /* The events are written ahead and told in batches: one fsync for up
     * to AUTO_BATCH events (each one fsync'd alone made `auto all` of a
     * long fight wait seconds on the disk), and never told before they
     * are on disk. */
    enum { AUTO_BATCH = 256 };
    int pending = fray_fight_events(t->fight);
    bool done = false;
    for (long k = 0; !done && (turns < 0 || k < turns); k++) {
        for (long guard = 0; guard < 100000; guard++) {
            if (fray_fight_over(t->fight)) {
                done = true;
                break;
            }
            int before = fray_fight_events(t->fight);
            fray_status st = fray_fight_step(t->fight);
            int after = fray_fight_events(t->fight);
            if (st != FRAY_OK) {
                /* The tactics' step failed (out of memory, ...): what came
                 * before it is written and told, and the fight must not go
                 * on from a state half changed. */
                if (journal_events(t, pending, before))
                    tell(t, pending, before, false);
                /* in the ruleset's words when it has them: the command the
                 * tactics chose and the rule that refuses it */
                char why[256];
                stop(t, EXIT_UNFINISHED,
                     fray_fight_failure(t->fight, why, sizeof why) > 0
                         ? why
                         : fray_strerror(st));
                return;
            }
            if (after - pending >= AUTO_BATCH) {
                if (!journal_events(t, pending, after))
                    return;
                tell(t, pending, after, false);
                pending = after;
            }
            if (after > before && !clock_step(t, after - 1))
                break;
        }
    }
    int now = fray_fight_events(t->fight);
    if (journal_events(t, pending, now))
        tell(t, pending, now, false);
}

static void do_undo(table *t, bool redo) {
    int n = fray_fight_events(t->fight);
    int phase = fray_fight_now(t->fight);
    if (redo) {
        if (fray_fight_redo(t->fight) != FRAY_OK) {
            say_error("%s", "nothing to redo");
            return;
        }
        n = fray_fight_events(t->fight);
        phase = fray_fight_now(t->fight);
        if (t->journal.fd >= 0 &&
            !cli_journal_mark(&t->journal, FRAY_MARK_REDO, n - 1)) {
            stop(t, EXIT_UNFINISHED, "the journal cannot be written");
            return;
        }
    }
    int i = n - 1;
    /* The event told before the undo: afterwards it is out of the journal
     * (kept only for redo). */
    const char *s =
        cli_render_event(&t->text, t->fight, i, fray_event_narrate);
    char *copy = NULL;
    if (s[0]) {
        copy = malloc(strlen(s) + 1);
        if (copy)
            strcpy(copy, s);
    } else if (clock_step(t, i)) {
        char line[80];
        snprintf(line, sizeof line, "the clock's move to phase %d\n", phase);
        copy = malloc(strlen(line) + 1);
        if (copy)
            strcpy(copy, line);
    }
    if (!redo && n <= 1) {
        say_error("%s", "nothing to undo: this is the start of the fight");
        free(copy);
        return;
    }
    if (!redo) {
        fray_status st = fray_fight_undo(t->fight);
        if (st != FRAY_OK) {
            free(copy);
            stop(t, EXIT_UNFINISHED, fray_strerror(st));
            return;
        }
        if (t->journal.fd >= 0 &&
            !cli_journal_mark(&t->journal, FRAY_MARK_UNDO, n - 1)) {
            free(copy);
            stop(t, EXIT_UNFINISHED, "the journal cannot be written");
            return;
        }
    }
    printf("%s: %s", redo ? "Redone" : "Undone", copy ? copy : "\n");
    free(copy);
}

/* The Hand of Fate held for the deck `id` flips from. */
static void show_hand(table *t, const char *id) {
    fray_card held[64];
    fray_towers_fight *towers = fray_towers_fight_of(t->fight);
    if (!towers) {
        fprintf(stderr, "error: %s has no Hand of Fate\n",
                fray_setup_title(fray_fight_setup(t->fight)));
        return;
    }
    size_t n = fray_towers_fight_hand(towers, id, held,
                                      sizeof held / sizeof held[0]);
    printf("Hand of Fate (%s's deck):", id);
    if (n == 0)
        printf(" no cards");
    for (size_t i = 0; i < n && i < sizeof held / sizeof held[0]; i++) {
        char buf[16];
        printf(" %s", fray_card_format(held[i], FRAY_CARD_PRETTY, buf));
    }
    putchar('\n');
}

/* Splits off the first word; returns it (NUL-terminated) and sets *rest
 * to what follows, without leading spaces ("" when nothing). */
static char *first_word(char *line, char **rest) {
    char *p = line;
    while (*p && isspace((unsigned char)*p))
        p++;
    char *w = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (*p)
        *p++ = '\0';
    while (*p && isspace((unsigned char)*p))
        p++;
    *rest = p;
    return w;
}

/* path names the file the table's journal is written ahead to. */
static bool same_file(const cli_journal *j, const char *path) {
    struct stat a, b;
    return j->fd >= 0 && strcmp(path, "-") != 0 && stat(path, &a) == 0 &&
           fstat(j->fd, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* One line of the session; false on quit. */
static bool do_line(table *t, char *line) {
    /* The command may need the line as typed (columns); work on a copy of
     * the words. */
    size_t len = strlen(line);
    while (len > 0 && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    char *copy = malloc(len + 1);
    if (!copy) {
        stop(t, EXIT_UNFINISHED, "out of memory");
        return false;
    }
    memcpy(copy, line, len + 1);
    char *rest;
    char *word = first_word(copy, &rest);
    bool go_on = true;
    if (word[0] == '\0' || word[0] == '#') {
        /* blank lines and comments (scripts) */
    } else if (is(word, "quit") || is(word, "exit")) {
        go_on = false;
    } else if (is(word, "help")) {
        const char *rules = fray_setup_rules(fray_fight_setup(t->fight));
        fputs(strcmp(rules, "alloy") == 0           ? TABLE_HELP_ALLOY
              : strcmp(rules, "silent-winter") == 0 ? TABLE_HELP_WINTER
                                                    : TABLE_HELP,
              stdout);
        fputs(TABLE_HELP_ODDS, stdout); /* issue 19 */
    } else if (is(word, "auto")) {
        char *more;
        char *arg = rest[0] ? first_word(rest, &more) : NULL;
        if (arg && more[0])
            say_error("expected nothing after 'auto %s'", arg);
        else
            do_auto(t, arg);
    } else if (is(word, "undo") || is(word, "redo")) {
        if (rest[0])
            say_error("expected nothing after '%s'", word);
        else
            do_undo(t, is(word, "redo"));
    } else if (is(word, "clock") ||
               (is(word, "order") && strcmp(fray_setup_time_unit(
                                         fray_fight_setup(t->fight)),
                                         "round") == 0)) {
        fputs(cli_render(&t->text, t->fight, fray_fight_draw_time), stdout);
    } else if (is(word, "map")) {
        fputs(cli_render(&t->text, t->fight, fray_fight_draw_map), stdout);
    } else if (is(word, "status")) {
        fputs(cli_render(&t->text, t->fight, fray_fight_summary), stdout);
    } else if (is(word, "state")) {
        fray_status vs = rest[0] ? FRAY_OK : cli_print_state(t->fight);
        if (rest[0])
            say_error("expected nothing after 'state'");
        else if (vs != FRAY_OK)
            say_error("the fight's state could not be shown: %s",
                      fray_strerror(vs));
    } else if (is(word, "hand")) {
        if (!rest[0])
            say_error("%s", "expected a combatant's id: hand ID");
        else
            show_hand(t, rest);
    } else if (is(word, "odds")) { /* issue 19 (table_odds.c) */
        if (!cli_table_odds(t->fight, rest))
            stop(t, EXIT_UNFINISHED, "out of memory");
    } else if (is(word, "forecast")) {
        if (!cli_table_forecast(t->fight, rest, t->tty))
            stop(t, EXIT_UNFINISHED, "out of memory");
    } else if (is(word, "journal")) {
        if (!rest[0])
            say_error("%s", "expected a file: journal FILE");
        else if (same_file(&t->journal, rest))
            say_error("'%s' is the journal this table writes as it goes: it "
                      "is always up to date", rest);
        else if (cli_write_journal(t->fight, rest) && strcmp(rest, "-") != 0)
            printf("Journal: %d events written to %s\n",
                   fray_fight_events(t->fight), rest);
    } else {
        do_command(t, line);
    }
    free(copy);
    return go_on && t->status == EXIT_OK;
}

/* What read_line found. */
typedef enum line_kind {
    LINE_OK,
    LINE_END,      /* the end of input */
    LINE_TOO_LONG, /* more than TABLE_LINE_MAX bytes: skipped */
    LINE_NUL,      /* a NUL byte in it: skipped */
    LINE_ENDLESS,  /* no newline in TABLE_SKIP_MAX bytes: give up */
    LINE_ERROR     /* the input cannot be read (errno) */
} line_kind;

/* One line of at most TABLE_LINE_MAX bytes from f into buf (which holds
 * TABLE_LINE_MAX + 1), without its newline; *out_len bytes (of a line
 * with a NUL, those before it). A bad line is read on to its
 * newline and thrown away, within TABLE_SKIP_MAX bytes: the memory and the
 * time a line takes are bounded, whatever the input. */
static line_kind read_line(FILE *f, char *buf, size_t *out_len) {
    size_t n = 0, skipped = 0;
    line_kind kind = LINE_OK;
    int c;
    *out_len = 0;
    buf[0] = '\0';
    while ((c = getc(f)) != EOF && c != '\n') {
        if (kind == LINE_OK && c == '\0')
            kind = LINE_NUL;
        if (kind == LINE_OK && n == TABLE_LINE_MAX)
            kind = LINE_TOO_LONG;
        if (kind == LINE_OK) {
            buf[n++] = (char)c;
        } else if (++skipped > TABLE_SKIP_MAX) {
            return LINE_ENDLESS;
        }
    }
    if (c == EOF && ferror(f))
        return LINE_ERROR;
    if (c == EOF && n == 0 && skipped == 0 && kind == LINE_OK)
        return LINE_END;
    buf[n] = '\0';
    *out_len = n;
    return kind;
}

/* ---- A terminal: libedit ------------------------------------------------------
 * When stdin is a terminal the table reads its lines with libedit: line
 * editing, the session's history (up and down arrows, ^R), and completion
 * of the table's words and the combatants' ids (Tab). The history is kept
 * between sessions in $XDG_STATE_HOME/fray/table_history (else
 * ~/.local/state/fray/table_history), TABLE_HISTORY_MAX lines; none when
 * FRAY_TABLE_HISTORY is set to the empty string (or names another file).
 * Scripts (stdin not a terminal) are read as before (read_line). */
enum { TABLE_HISTORY_MAX = 1000 };

/* The table whose ids Tab completes: readline's completion functions
 * take no context (set while a terminal session runs; the CLI's, not the
 * library's). */
static table *completing;

static const char *const TABLE_WORDS[] = {
    "next", "auto", "undo", "redo", "clock", "map", "status", "state", "hand",
    "journal", "help", "quit", "gm", "set", "adjust", "condition", "join",
    "flee", "place", "stun", "lethal", "temp-stun", "temp-lethal", "off",
    "phase", "at", "cards", "fate", "chip", "decline", "dtn", "none",
    "attack", "move", "aim", "power-attack", "recover", "hold", "shift",
    "then", "charge", "reckless-move", "full-defense", "delay", "stand",
    "drop-prone", "draw-weapon", "reload", "use-skill", "cast", "aid",
    "grapple", "escape", "shake", "chip-heal", "concentrate", "until",
    "cost", "with", "flip", "answer", "tumble", "talent", "exchange",
    "spending", "odds", "forecast"};

static char *complete_word(const char *text, int state) {
    static size_t i; /* (readline's generator protocol) */
    static int c;
    size_t n = strlen(text);
    if (!state) {
        i = 0;
        c = 0;
    }
    while (i < sizeof TABLE_WORDS / sizeof TABLE_WORDS[0]) {
        const char *w = TABLE_WORDS[i++];
        if (strncmp(w, text, n) == 0)
            return strdup(w);
    }
    const fray_setup *s = completing ? fray_fight_setup(completing->fight)
                                     : NULL;
    while (s && c < fray_setup_combatants(s)) {
        const char *id = fray_setup_combatant_id(s, c++);
        if (id && strncmp(id, text, n) == 0)
            return strdup(id);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end) {
    (void)start;
    (void)end;
    return rl_completion_matches(text, complete_word);
}

/* The history file's path into buf (false: none). */
static bool history_path(char *buf, size_t size, bool make_dir) {
    const char *env = getenv("FRAY_TABLE_HISTORY");
    if (env)
        return env[0] && snprintf(buf, size, "%s", env) < (int)size;
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    char dir[1024];
    if (state && state[0])
        snprintf(dir, sizeof dir, "%s/fray", state);
    else if (home && home[0])
        snprintf(dir, sizeof dir, "%s/.local/state/fray", home);
    else
        return false;
    if (make_dir) {
        /* (mkdir -p of the last two levels at most: ~/.local/state/fray) */
        char parent[1024];
        snprintf(parent, sizeof parent, "%s", dir);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            mkdir(parent, 0700);
        }
        mkdir(dir, 0700);
    }
    return snprintf(buf, size, "%s/table_history", dir) < (int)size;
}

static void edit_start(table *t) {
    completing = t;
    rl_readline_name = "fray";
    rl_attempted_completion_function = complete;
    stifle_history(TABLE_HISTORY_MAX);
    char path[1100];
    if (history_path(path, sizeof path, false))
        read_history(path); /* (none yet: nothing to read) */
}

static void edit_end(void) {
    char path[1100];
    if (history_path(path, sizeof path, true) && write_history(path) != 0)
        fprintf(stderr, "fray: the table's history could not be kept in "
                "%s\n", path);
    completing = NULL;
}

/* read_line for a terminal: one line through libedit. */
static line_kind edit_line(table *t, char *buf, size_t *out_len) {
    char p[256];
    prompt_text(t, p, sizeof p);
    fflush(stdout);
    char *s = readline(p);
    *out_len = 0;
    buf[0] = '\0';
    if (!s)
        return LINE_END;
    size_t n = strlen(s);
    if (n > TABLE_LINE_MAX) {
        free(s);
        return LINE_TOO_LONG;
    }
    memcpy(buf, s, n + 1);
    *out_len = n;
    if (n > 0 && !isspace((unsigned char)s[0]))
        add_history(s);
    free(s);
    return LINE_OK;
}

int cli_fight_table(fray_fight *fight, const char *title, uint64_t seed,
                    const char *journal, bool echo, const char *resumed) {
    table t;
    memset(&t, 0, sizeof t);
    t.fight = fight;
    t.tty = isatty(STDIN_FILENO) != 0;
    t.echo = echo;
    t.journal.fd = -1;
    if (journal && strcmp(journal, "-") == 0) {
        fprintf(stderr, "error: --journal -: at the table the journal is "
                "written to a file as the fight goes (the table's 'journal -' "
                "prints it)\n");
        return EXIT_USAGE;
    }
    /* Before the first command: a journal that cannot be written is
     * refused now, not after the session. */
    if (journal && !cli_journal_start(&t.journal, journal, fight))
        return EXIT_USAGE;
    int n = fray_fight_events(fight);
    printf("%s (seed %llu)\n", title, (unsigned long long)seed);
    if (resumed) {
        printf("Carrying on from %s: %d events replayed, %s %d.\n",
               resumed, n, fray_setup_time_unit(fray_fight_setup(fight)),
               fray_fight_now(fight));
        if (n > 0)
            tell(&t, n - 1, n, false);
    } else {
        tell(&t, 0, n, false);
    }
    printf("\n%s\n", cli_render(&t.text, fight, fray_fight_draw_time));
    if (t.tty)
        printf("At the table: 'help' lists the commands, 'quit' ends.\n");

    char *line = malloc(TABLE_LINE_MAX + 1);
    if (!line)
        stop(&t, EXIT_UNFINISHED, "out of memory");
    int bad = 0; /* bad lines in a row */
    int line_no = 0;
    if (t.tty)
        edit_start(&t);
    while (line && t.status == EXIT_OK) {
        size_t len;
        line_kind k;
        if (t.tty) {
            k = edit_line(&t, line, &len); /* (libedit shows the prompt) */
        } else {
            if (t.echo)
                prompt(&t);
            k = read_line(stdin, line, &len);
        }
        if (line_no < INT_MAX)
            line_no++;
        if (k == LINE_END) {
            if (t.tty || t.echo)
                putchar('\n');
            break;
        }
        if (k == LINE_ERROR) {
            fprintf(stderr, "error: cannot read the table's input: %s\n",
                    strerror(errno));
            t.status = EXIT_USAGE;
            break;
        }
        if (t.echo && !t.tty) {
            fputs(line, stdout);
            putchar('\n');
        }
        if (k != LINE_OK) {
            fflush(stdout);
            if (k == LINE_ENDLESS)
                fprintf(stderr, "error: line %d: no end of line in %d bytes: "
                        "this is not table commands\n", line_no,
                        TABLE_SKIP_MAX);
            else if (k == LINE_NUL)
                fprintf(stderr, "error: line %d, column %zu: a NUL byte: a "
                        "table command is text; the line is skipped\n",
                        line_no, len + 1);
            else
                fprintf(stderr, "error: line %d: longer than %d bytes; the "
                        "line is skipped\n", line_no, TABLE_LINE_MAX);
            if (k == LINE_ENDLESS || ++bad >= TABLE_BAD_MAX) {
                if (k != LINE_ENDLESS)
                    fprintf(stderr, "error: %d bad lines in a row: this is "
                            "not table commands\n", bad);
                t.status = EXIT_USAGE;
                break;
            }
            continue;
        }
        bad = 0;
        /* stdout and stderr in the order things happened (transcripts). */
        bool go_on = do_line(&t, line);
        fflush(stdout);
        if (!go_on)
            break;
    }
    free(line);
    if (t.tty)
        edit_end();
    printf("\nSummary\n%s", cli_render(&t.text, fight, fray_fight_summary));
    cli_text_free(&t.text);
    /* The end mark after a clean end (quit, the end of input) only: a
     * session stopped by an error leaves a journal that ends at the last
     * command told, and says it was cut short. */
    if (!cli_journal_close(&t.journal, t.status == EXIT_OK
                                           ? fray_fight_events(fight)
                                           : -1) &&
        t.status == EXIT_OK)
        t.status = EXIT_UNFINISHED;
    return t.status;
}

/* args.c - command-line parsing for the fray subcommands. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cli_error(const cli_args *args, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", args->command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static bool looks_negative_number(const char *s) {
    return s[0] == '-' && isdigit((unsigned char)s[1]);
}

cli_opt *cli_get(cli_args *args, const char *name) {
    for (int i = 0; i < args->n_opts; i++)
        if (strcmp(args->opts[i].name, name) == 0)
            return &args->opts[i];
    return NULL;
}

bool cli_parse(cli_args *args, int argc, char **argv) {
    args->n_pos = 0;
    args->json = false;
    args->help = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0' || looks_negative_number(a)) {
            if (args->n_pos == (int)(sizeof args->pos / sizeof args->pos[0])) {
                cli_error(args, "too many arguments at '%s'", a);
                return false;
            }
            args->pos[args->n_pos++] = a;
            continue;
        }
        const char *name = a + (a[1] == '-' ? 2 : 1);
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        bool is_json = len == 4 && strncmp(name, "json", 4) == 0;
        bool is_help = (len == 4 && strncmp(name, "help", 4) == 0) ||
                       (len == 1 && name[0] == 'h');
        if ((is_json || is_help) && eq) {
            cli_error(args, "option '%s' takes no value", a);
            return false;
        }
        if (is_json) {
            args->json = true;
            continue;
        }
        if (is_help) {
            args->help = true;
            continue;
        }
        cli_opt *opt = NULL;
        for (int k = 0; k < args->n_opts; k++)
            if (strlen(args->opts[k].name) == len &&
                strncmp(args->opts[k].name, name, len) == 0)
                opt = &args->opts[k];
        if (!opt) {
            cli_error(args, "unknown option '%s' (see --help)", a);
            return false;
        }
        opt->present = true;
        if (!opt->has_value) {
            if (eq) {
                cli_error(args, "option '--%s' takes no value", opt->name);
                return false;
            }
            opt->value = "";
        } else if (eq) {
            opt->value = eq + 1;
        } else if (i + 1 < argc) {
            opt->value = argv[++i];
        } else {
            cli_error(args, "option '--%s' needs a value", opt->name);
            return false;
        }
    }
    return true;
}

int cli_start(cli_args *args, int argc, char **argv, const char *help,
              int n_pos, const char *what_pos) {
    if (!cli_parse(args, argc, argv))
        return EXIT_USAGE;
    if (args->help) {
        fputs(help, stdout);
        return EXIT_OK;
    }
    if (args->n_pos != n_pos) {
        cli_error(args, "needs %s (see --help)", what_pos);
        return EXIT_USAGE;
    }
    return -1;
}

/* An optional sign, then decimal digits only: strtol alone would take
 * leading spaces (" 5") and, for unsigned types, a minus that wraps. */
static bool decimal_text(const char *text, bool sign_ok) {
    const char *p = text;
    if (sign_ok && (*p == '-' || *p == '+'))
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    while (isdigit((unsigned char)*p))
        p++;
    return *p == '\0';
}

bool cli_int(const cli_args *args, const char *what, const char *text,
             long lo, long hi, long *out) {
    long v = 0;
    bool ok = decimal_text(text, true);
    if (ok) {
        errno = 0;
        v = strtol(text, NULL, 10);
        ok = errno != ERANGE;
    }
    if (!ok) {
        cli_error(args, "%s must be a whole number, not '%s'", what, text);
        return false;
    }
    if (v < lo || v > hi) {
        cli_error(args, "%s must be between %ld and %ld, not %ld", what, lo,
                  hi, v);
        return false;
    }
    *out = v;
    return true;
}

bool cli_int_opt(cli_args *args, const char *name, long lo, long hi,
                 long *out) {
    cli_opt *o = cli_get(args, name);
    if (!o || !o->present)
        return true;
    char what[64];
    snprintf(what, sizeof what, "--%s", name);
    return cli_int(args, what, o->value, lo, hi, out);
}

bool cli_u64(const cli_args *args, const char *what, const char *text,
             uint64_t *out) {
    /* Digits only, added up with an overflow check: every value from 0 to
     * 2^64 - 1 and nothing else (no sign, space or wrap-around). */
    uint64_t v = 0;
    bool ok = decimal_text(text, false);
    for (const char *p = text; ok && *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            ok = false;
        else
            v = v * 10 + d;
    }
    if (!ok) {
        cli_error(args,
                  "%s must be a whole number from 0 to %llu (digits only), "
                  "not '%s'",
                  what, (unsigned long long)UINT64_MAX, text);
        return false;
    }
    *out = v;
    return true;
}

bool cli_deck_options(cli_args *args, fray_deck_options *deck,
                      fray_flip_rules *rules) {
    fray_deck_options_default(deck);
    rules->min_one_card = false;
    cli_opt *o = cli_get(args, "aces");
    if (o && o->present) {
        if (strcmp(o->value, "high") == 0)
            deck->aces_low = false;
        else if (strcmp(o->value, "low") == 0)
            deck->aces_low = true;
        else {
            cli_error(args, "--aces must be 'high' or 'low', not '%s'",
                      o->value);
            return false;
        }
    }
    long v;
    v = deck->jokers;
    if (!cli_int_opt(args, "jokers", 0, 2, &v))
        return false;
    deck->jokers = (int)v;
    v = deck->joker_value;
    if (!cli_int_opt(args, "joker-value", 0, FRAY_CARD_VALUE_MAX, &v))
        return false;
    deck->joker_value = (int)v;
    o = cli_get(args, "min-one-card");
    rules->min_one_card = o && o->present;
    return true;
}

bool cli_dice(cli_args *args, const char *what, const char *text,
              bool use_weapon, fray_dice **out) {
    cli_opt *weapon = use_weapon ? cli_get(args, "weapon") : NULL;
    fray_diag diag = {0};
    if (fray_dice_parse(text, weapon && weapon->present ? weapon->value : NULL,
                        NULL, out, &diag) == FRAY_OK)
        return true;
    if (what)
        cli_error(args, "%s: %s", what, diag.message);
    else
        cli_error(args, "%s", diag.message);
    return false;
}

char *cli_dice_text(const fray_dice *dice) {
    /* Measured first: a long expression is never cut short (a fixed
     * buffer of 256 cut 64 terms of 100d1000kh99 without a word). */
    size_t n = fray_dice_format(dice, NULL, 0);
    char *text = malloc(n + 1);
    if (text)
        fray_dice_format(dice, text, n + 1);
    return text;
}

bool cli_flip_args_read(cli_args *args, cli_flip_args *out) {
    out->n = out->aspect = out->shift = out->dtn = 0;
    if (!cli_int(args, "N", args->pos[0], -50, FRAY_CARDS_MAX, &out->n) ||
        !cli_int_opt(args, "aspect", -50, 50, &out->aspect) ||
        !cli_int_opt(args, "shift", -50, 50, &out->shift) ||
        !cli_int_opt(args, "dtn", -100, 200, &out->dtn))
        return false;
    out->has_dtn = cli_get(args, "dtn")->present;
    return cli_deck_options(args, &out->deck, &out->rules);
}

bool cli_seed(cli_args *args, uint64_t *out, bool *out_given) {
    cli_opt *o = cli_get(args, "seed");
    if (o && o->present) {
        *out_given = true;
        return cli_u64(args, "--seed", o->value, out);
    }
    /* No seed asked for: take one from the clock, and say
     * which, so the same result can be had again with --seed. */
    struct timespec ts = {0, 0};
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        ts.tv_sec = time(NULL); /* no clock of nanoseconds: seconds */
    /* The stack address adds a little per-process variety (ASLR). */
    uint64_t s = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)(uintptr_t)&ts << 8);
    *out = s % 1000000000u;
    *out_given = false;
    return true;
}

/*
 * table_odds.c - `fray fight --table`'s words for the odds at the table
 * (issue 19; include/fray/chances.h): `odds ID [COMMAND...]` and
 * `forecast [N]`, told in rules words (docs/fray.1 "TABLE MODE").
 */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"

/* Forecasts at the table: a fixed seed, so that a session (and its
 * golden transcript) says the same thing every time. */
enum { FORECAST_SEED = 19, FORECAST_TRIALS = 2000 };

static void say(fray_status st, const fray_diag *d) {
    fprintf(stderr, "error: %s\n", d->message[0] ? d->message : fray_strerror(st));
}

static void pct(char *buf, size_t size, fray_ratio p, double share,
                bool exact) {
    char f[84];
    if (exact)
        snprintf(buf, size, "%.1f%% (%s)", 100.0 * share, fray_ratio_format(p, f));
    else
        snprintf(buf, size, "%.1f%%", 100.0 * share);
}

/* "1 Wound level", "2 Wound levels": a track's name is plural; one of
 * it drops the final s. */
static void tell_amount(bool first, int amount, const char *track) {
    size_t n = strlen(track);
    if (amount == 1 && n > 1 && track[n - 1] == 's')
        printf("%s%d %.*s", first ? "" : " ", amount, (int)(n - 1), track);
    else
        printf("%s%d %s", first ? "" : " ", amount, track);
}

static void tell_damage(const fray_chances *c, bool exact) {
    printf("  damage:");
    for (int i = 0; i < c->n_damage; i++) {
        const fray_chance_damage *d = &c->damage[i];
        char p[128];
        pct(p, sizeof p, d->p, d->share, exact);
        bool none = true;
        printf("%s ", i ? ";" : "");
        for (int k = 0; k < c->n_tracks; k++)
            if (d->amount[k]) {
                tell_amount(none, d->amount[k], c->tracks[k]);
                none = false;
            }
        printf("%s %s", none ? "none" : "", p);
    }
    printf("\n  on average:");
    for (int k = 0; k < c->n_tracks; k++)
        printf("%s %.2f %s", k ? "," : "", c->expected[k], c->tracks[k]);
    putchar('\n');
}

/* An area: each creature caught, and how many drop. */
static void tell_area(const fray_fight *f, const fray_chances *c, bool exact) {
    if (c->n_area <= 0)
        return;
    const fray_setup *s = fray_fight_setup(f);
    printf("  caught in the area:\n");
    for (int i = 0; i < c->n_area; i++) {
        const fray_chance_target *t = &c->area[i];
        printf("  - %s:", fray_setup_combatant_name(s, t->target));
        for (int k = 0; k < t->n_outcomes; k++) {
            char p[128];
            pct(p, sizeof p, t->outcomes[k].p, t->outcomes[k].share, exact);
            printf("%s %s %s", k ? "," : "", t->outcomes[k].name, p);
        }
        printf("\n    on average:");
        for (int k = 0; k < c->n_tracks; k++)
            printf("%s %.2f %s", k ? "," : "", t->expected[k], c->tracks[k]);
        printf("; out of the fight after it: %.1f%%\n    defense: %s\n",
               100.0 * t->p_drop, t->modifiers);
    }
    if (c->area_dropped[0] >= 0) {
        printf("  how many out of the fight after it:");
        for (int k = 0; k <= c->n_area; k++)
            printf("%s %d %.1f%%", k ? "," : "", k, 100.0 * c->area_dropped[k]);
        putchar('\n');
    }
    printf("  on average %.2f out of the fight after it\n",
           c->area_expected_dropped);
}

static void tell_one(const fray_fight *f, const fray_chances *c, bool exact) {
    const fray_setup *s = fray_fight_setup(f);
    printf("%s: %s\n  ", fray_setup_combatant_name(s, c->who), c->title);
    for (int i = 0; i < c->n_outcomes; i++) {
        char p[128];
        pct(p, sizeof p, c->outcomes[i].p, c->outcomes[i].share, exact);
        printf("%s%s %s", i ? ", " : "", c->outcomes[i].name, p);
    }
    putchar('\n');
    tell_damage(c, exact);
    if (c->p_drop >= 0 && c->target >= 0)
        printf("  %s out of the fight after it: %.1f%%\n",
               fray_setup_combatant_name(s, c->target), 100.0 * c->p_drop);
    printf("  modifiers: %s\n  assumed: %s\n", c->modifiers, c->assumed);
    tell_area(f, c, exact);
}

static const char *next_word(const char *p, char *out, size_t size) {
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t n = 0;
    while (*p && !isspace((unsigned char)*p)) {
        if (n + 1 < size)
            out[n++] = *p;
        p++;
    }
    out[n] = '\0';
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

bool cli_table_odds(fray_fight *fight, const char *rest) {
    char word[128];
    bool exact = false;
    const char *p = next_word(rest, word, sizeof word);
    if (strcmp(word, "--exact") == 0 || strcmp(word, "exact") == 0) {
        exact = true;
        p = next_word(p, word, sizeof word);
    }
    if (!word[0]) {
        fprintf(stderr, "error: expected a combatant's id: odds [exact] ID "
                "[ACTION TARGET...]\n");
        return true;
    }
    int who = fray_fight_combatant_index(fight, word);
    if (who < 0) {
        fprintf(stderr, "error: '%s' is no combatant of this fight\n", word);
        return true;
    }
    fray_diag d;
    if (*p) {
        fray_chances *c = malloc(sizeof *c);
        if (!c)
            return false;
        fray_status st = fray_action_chances(fight, who, p, c, &d);
        if (st == FRAY_OK)
            tell_one(fight, c, exact);
        else
            say(st, &d);
        free(c);
        return st != FRAY_ERR_NOMEM;
    }
    fray_chances_list l;
    fray_status st = fray_chances_all(fight, who, NULL, &l, &d);
    if (st != FRAY_OK) {
        say(st, &d);
        return st != FRAY_ERR_NOMEM;
    }
    const fray_setup *s = fray_fight_setup(fight);
    if (l.n == 0)
        printf("%s has no action it can take now whose chances are counted\n",
               fray_setup_combatant_name(s, who));
    else
        printf("%s's options, best first:\n", fray_setup_combatant_name(s, who));
    for (int i = 0; i < l.n; i++) {
        const fray_chances *c = &l.items[i];
        if (c->p_drop < 0 && c->p_success >= 0) {
            /* No damage: its chance of success ("trip lyra: 55.0%
             * succeeds (knocked prone)"). */
            /* The outcome that is the success: the first not a failure
             * (Alloy's and Silent Winter's come after "fails", 99
             * Towers' before "fails", "held", "misses", "loses"). */
            static const char *const failures[] = {"fails", "held", "misses",
                                                   "loses"};
            const char *what = "succeeds";
            for (int k = c->n_outcomes - 1; k >= 0; k--) {
                bool failure = false;
                for (size_t j = 0; j < sizeof failures / sizeof failures[0]; j++)
                    failure |= strcmp(c->outcomes[k].name, failures[j]) == 0;
                if (!failure)
                    what = c->outcomes[k].name;
            }
            printf("  %d. %-28s     %5.1f%% succeeds%s%s%s, no damage\n", i + 1,
                   c->command, 100.0 * c->p_success,
                   strcmp(what, "succeeds") ? " (" : "",
                   strcmp(what, "succeeds") ? what : "",
                   strcmp(what, "succeeds") ? ")" : "");
            continue;
        }
        double hit = 0;
        for (int k = 1; k < c->n_outcomes; k++)
            hit += c->outcomes[k].share;
        printf("  %d. %-28s hit %5.1f%%", i + 1, c->command, 100.0 * hit);
        printf("  on average");
        for (int k = 0; k < c->n_tracks; k++)
            printf("%s %.2f %s", k ? "," : "", c->expected[k], c->tracks[k]);
        if (c->p_drop >= 0)
            printf("; drops %s %.1f%%", fray_setup_combatant_name(s, c->target),
                   100.0 * c->p_drop);
        putchar('\n');
    }
    if (l.n > 0)
        printf("  assumed: %s\n", l.items[0].assumed);
    fray_chances_list_free(&l);
    return true;
}

static void progress(void *ctx, uint64_t done, uint64_t total) {
    (void)ctx;
    fprintf(stderr, "\rforecast: %llu of %llu trials",
            (unsigned long long)done, (unsigned long long)total);
    if (done >= total)
        fputc('\n', stderr);
}

bool cli_table_forecast(fray_fight *fight, const char *rest, bool tty) {
    uint64_t trials = FORECAST_TRIALS;
    if (rest[0]) {
        char *end;
        unsigned long long n = strtoull(rest, &end, 10);
        while (*end && isspace((unsigned char)*end))
            end++;
        if (!isdigit((unsigned char)rest[0]) || *end || n == 0 || n > 10000000ull) {
            fprintf(stderr, "error: '%s' is no number of trials (1 to "
                    "10000000): forecast [N]\n", rest);
            return true;
        }
        trials = n;
    }
    fray_forecast_opts o;
    memset(&o, 0, sizeof o);
    o.trials = trials;
    o.seed = FORECAST_SEED;
    if (tty)
        o.progress = progress;
    fray_forecast fc;
    fray_diag d;
    fray_status st = fray_forecast_run(fight, &o, &fc, &d);
    if (st != FRAY_OK) {
        say(st, &d);
        return st != FRAY_ERR_NOMEM;
    }
    const fray_setup *s = fray_fight_setup(fight);
    printf("Who wins from %s %d (%llu trials, each with %s):\n",
           fc.time_unit, fc.now, (unsigned long long)fc.trials,
           strcmp(fray_setup_randomness(s), "decks") == 0
               ? "the cards nobody has seen shuffled anew"
               : "the dice to come rolled anew");
    for (int i = 0; i < fc.n_sides; i++)
        printf("  %-24s %5.1f%%  (95%%: %.1f%% to %.1f%%)\n", fc.sides[i].name,
               100.0 * fc.sides[i].p, 100.0 * fc.sides[i].low,
               100.0 * fc.sides[i].high);
    if (fc.p_none > 0)
        printf("  %-24s %5.1f%%\n", "nobody", 100.0 * fc.p_none);
    printf("Standing at the end:\n");
    for (int i = 0; i < fc.n_combatants; i++)
        printf("  %-24s %5.1f%%\n", fray_setup_combatant_name(s, i),
               100.0 * fc.standing[i]);
    printf("Ends at %s %.1f on average (spread %.1f)\n", fc.time_unit,
           fc.length, fc.length_sd);
    return true;
}

/*
 * fray/report.h - a simulation's results drawn as pictures a designer can
 * read at a glance: SVG charts (and an HTML page holding them with the
 * numbers), drawn by fray itself with no plotting library
 * (docs/architecture.md "Simulation"; issue 4 section 2).
 *
 * Charts: the win rate of each side as a bar with its 95% interval; the
 * histogram of fight length in phases; per combatant P(still standing)
 * and how the others fell (unconscious, dying, dead); and for a sweep,
 * win rate against the varied value (a line chart for numbers, grouped
 * bars for words such as tactics presets), and for a sweep over two keys
 * a heat map of each side's win rate (the first key across, the second
 * down).
 * Titles and axis labels are in the rules' words.
 *
 * Thread-safety: pure functions of their arguments.
 */
#ifndef FRAY_REPORT_H
#define FRAY_REPORT_H

#include "fray/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One variant of a sweep (or the only run, when there is no sweep). */
typedef struct fray_sim_variant {
    const char *label;               /* "bandit.PA=3, longblade.damage=5"; "" when no sweep */
    const char *value;               /* the first varied key's value, as written ("3", "power-attack") */
    const fray_sim_counts *counts;
    const char *value2;              /* the second varied key's value (NULL: none) */
} fray_sim_variant;

typedef struct fray_sim_report {
    const char *title;               /* the encounter's name */
    const fray_towers_setup *setup;  /* side and combatant names */
    uint64_t seed;                   /* the master seed */
    double seconds;                  /* how long the simulation took (0: not shown) */
    /* The sweep: the first varied key ("bandit.PA"), NULL without a sweep.
     * When every variant's value is an integer the sweep chart is a line
     * chart against it; otherwise grouped bars in the variants' order.
     * With several keys, `label` tells the variants apart. */
    const char *vary_key;
    int n_variants;                  /* >= 1 */
    const fray_sim_variant *variants;
    /* A setup of any ruleset (include/fray/fight.h): when not NULL, the
     * names of sides and combatants and the words of the counts (harm,
     * resources, actions) come from it and its ruleset, and `setup` is
     * not read. */
    const struct fray_setup *rules_setup;
    /* A sweep over two keys (issue 15): the second key ("longblade.damage"),
     * NULL otherwise, and how many values it has. The variants are then
     * the grid in order, the second key fastest: variant j has the first
     * key's value number j / n_values2 and the second's j % n_values2.
     * The report draws a heat map per side (the first key across, the
     * second down) and a table of it. */
    const char *vary_key2;
    int n_values2;
    /* Whom each key changes, in rules words (fray_setup_vary_scope);
     * NULL: not said. */
    const char *vary_scope;
    const char *vary_scope2;
} fray_sim_report;

/*
 * The report as one SVG document (svg) or one self-contained HTML page
 * (html: the same charts inline, and tables of the numbers), snprintf-style:
 * returns the length needed; writes at most size bytes, NUL included (buf
 * may be NULL when size is 0). Text from files (names, labels) is escaped.
 */
FRAY_API size_t fray_sim_report_svg(const fray_sim_report *report, char *buf,
                                    size_t size);
FRAY_API size_t fray_sim_report_html(const fray_sim_report *report, char *buf,
                                     size_t size);

#ifdef __cplusplus
}
#endif
#endif

/*
 * rulesets.c - the registry: every ruleset fray runs, and the one place
 * that decides which of them reads a file (its `rules:` word;
 * docs/file-formats.md "Rulesets").
 *
 * A new ruleset is its folder under src/rules/ and one line here: its
 * table declared below and listed in fray__rulesets[].
 */
#include "ruleset.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "layer.h"

/* Each ruleset's table (src/rules/<name>/): a new ruleset is its folder
 * and one line here. */
extern const fray__ruleset fray__towers_ruleset;
extern const fray__ruleset fray__alloy_ruleset;
extern const fray__ruleset fray__winter_ruleset;
extern const fray__ruleset fray__d6_ruleset;

const fray__ruleset *const fray__rulesets[] = {
    &fray__towers_ruleset,
    &fray__alloy_ruleset,
    &fray__winter_ruleset,
    &fray__d6_ruleset,
    NULL,
};

const fray__ruleset *fray__ruleset_find(const char *name) {
    for (int i = 0; name && fray__rulesets[i]; i++)
        if (strcmp(fray__rulesets[i]->name, name) == 0)
            return fray__rulesets[i];
    return NULL;
}

/* Edit distance (insertions, deletions, substitutions), capped: enough
 * for "did you mean". */
static int distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > 40 || m > 40)
        return 99;
    int row[41];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* ---- Finding the `rules:` word ------------------------------------------
 *
 * Before a ruleset reads a file the layer must know which one: it looks
 * for the top-level `rules:` key in the text (YAML: a line that starts
 * with it; JSON: the key at the outermost object) and takes its value
 * when it is one plain word. Anything else (no key, a list, a number)
 * goes to the default ruleset, whose loader says what is wrong with it.
 */

typedef struct rules_word {
    char word[48];
    int line, column; /* of the value, 1-based */
} rules_word;

static bool word_char(char c) {
    return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* The value at p (after "rules:" and blanks): a plain or quoted word,
 * then nothing but blanks, a comment, ',' or '}'. */
static bool take_word(const char *p, const char *end, rules_word *out) {
    char q = 0;
    if (p < end && (*p == '"' || *p == '\''))
        q = *p++;
    size_t n = 0;
    while (p < end && word_char(*p) && n + 1 < sizeof out->word)
        out->word[n++] = *p++;
    out->word[n] = '\0';
    if (n == 0)
        return false;
    if (q) {
        if (p >= end || *p != q)
            return false;
        p++;
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p >= end || *p == '#' || *p == ',' || *p == '}' || *p == '\n';
}

static bool find_rules_word(const char *text, size_t len, rules_word *out) {
    const char *p = text, *end = text + len;
    int line = 1;
    int depth = 0;      /* JSON: braces and brackets open */
    bool json = false;  /* the first thing in the file was '{' */
    {
        const char *s = p;
        while (s < end && isspace((unsigned char)*s))
            s++;
        json = s < end && *s == '{';
    }
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (!json) {
            if (eol - p > 6 && memcmp(p, "rules:", 6) == 0) {
                const char *v = p + 6;
                while (v < eol && (*v == ' ' || *v == '\t'))
                    v++;
                out->line = line;
                out->column = (int)(v - p) + 1;
                return take_word(v, eol, out);
            }
        } else {
            for (const char *c = p; c < eol; c++) {
                if (*c == '"') {
                    const char *s = c + 1;
                    while (s < eol && *s != '"')
                        s += *s == '\\' ? 2 : 1;
                    if (depth == 1 && s - c == 6 &&
                        memcmp(c, "\"rules\"", 7) == 0) {
                        const char *v = s + 1;
                        while (v < eol && (*v == ' ' || *v == '\t'))
                            v++;
                        if (v < eol && *v == ':') {
                            v++;
                            while (v < eol && (*v == ' ' || *v == '\t'))
                                v++;
                            if (v < eol && *v == '"') {
                                out->line = line;
                                out->column = (int)(v - p) + 1;
                                return take_word(v, eol, out);
                            }
                            return false;
                        }
                    }
                    c = s < eol ? s : eol - 1;
                } else if (*c == '{' || *c == '[') {
                    depth++;
                } else if (*c == '}' || *c == ']') {
                    depth--;
                }
            }
        }
        p = eol + 1;
        line++;
    }
    return false;
}

/* "towers (99 Towers)" and the others, for messages. */
static void list_built(char *out, size_t size) {
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; fray__rulesets[i] && len < size; i++) {
        int w = snprintf(out + len, size - len, "%s%s (%s)",
                         i == 0 ? "" : fray__rulesets[i + 1] ? ", " : " and ",
                         fray__rulesets[i]->name, fray__rulesets[i]->title);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

fray_status fray__ruleset_for(const char *path, const fray__ruleset **out,
                              fray_diag *diag) {
    *out = fray__rulesets[0]; /* a file without `rules:` is 99 Towers */
    if (!path)
        return FRAY_OK; /* (the ruleset's loader refuses it) */
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return FRAY_OK; /* (likewise: it says the file cannot be read) */
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            size_t ncap = cap ? cap * 2 : 8192;
            char *t = realloc(text, ncap);
            if (!t) {
                free(text);
                fclose(fp);
                return fray__diag_set(diag, FRAY_ERR_NOMEM, 0,
                                      "out of memory");
            }
            text = t;
            cap = ncap;
        }
        size_t got = fread(text + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
        if (len > (size_t)64 << 20)
            break; /* far past any fray file: the loader says so */
    }
    fclose(fp);
    rules_word w;
    memset(&w, 0, sizeof w);
    bool found = find_rules_word(text, len, &w);
    free(text);
    if (!found)
        return FRAY_OK;
    const fray__ruleset *rs = fray__ruleset_find(w.word);
    if (rs) {
        *out = rs;
        return FRAY_OK;
    }
    char built[160];
    list_built(built, sizeof built);
    fray_status rc = FRAY_ERR_PARSE;
    for (int i = 0; fray__rulesets[i]; i++)
        if (distance(w.word, fray__rulesets[i]->name) <= 2) {
            fray__diag_set(diag, rc, w.column,
                           "no ruleset '%.40s' (did you mean '%s'?)", w.word,
                           fray__rulesets[i]->name);
            goto located;
        }
    fray__diag_set(diag, rc, w.column, "no ruleset '%.40s': fray knows %s",
                   w.word, built);
located:
    if (diag) {
        diag->file = path;
        diag->line = w.line;
    }
    return rc;
}

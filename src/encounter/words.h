/*
 * words.h - the words of a table command, one at a time, with the column
 * of each (for "column 12: no combatant 'bandti-1'"): what every
 * ruleset's command parser reads its text with (docs/file-formats.md
 * "Commands").
 */
#ifndef FRAY_WORDS_H
#define FRAY_WORDS_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct fray__words {
    const char *text;
    const char *p;
    char tok[64];  /* the word read (cut at 63 bytes) */
    int col;       /* 1-based column of tok (byte offset + 1); at the end
                      of the text: one past its last byte */
} fray__words;

static inline void fray__words_init(fray__words *w, const char *text) {
    w->text = text;
    w->p = text;
    w->tok[0] = '\0';
    w->col = 1;
}

/* The next word into w->tok; false (tok "") at the end of the text. A
 * word in double quotes may hold spaces ("Sir Aldric" attack "The Black
 * Knight": names as the narration writes them); the quotes are not part
 * of it, and one left open runs to the end of the text. */
static inline bool fray__words_next(fray__words *w) {
    while (*w->p && isspace((unsigned char)*w->p))
        w->p++;
    w->col = (int)(w->p - w->text) + 1;
    if (!*w->p) {
        w->tok[0] = '\0';
        return false;
    }
    size_t n = 0;
    if (*w->p == '"') {
        w->p++;
        while (*w->p && *w->p != '"') {
            if (n + 1 < sizeof w->tok)
                w->tok[n++] = *w->p;
            w->p++;
        }
        if (*w->p == '"')
            w->p++;
        w->tok[n] = '\0';
        return true;
    }
    while (*w->p && !isspace((unsigned char)*w->p)) {
        if (n + 1 < sizeof w->tok)
            w->tok[n++] = *w->p;
        w->p++;
    }
    w->tok[n] = '\0';
    return true;
}

/* The list "aldric, black-knight" of n names (name(ctx, i)) in buf, for
 * a refusal that says what it would take ("expected a combatant's id
 * (aldric, black-knight)"); cut with ", ..." when it does not fit. */
static inline void fray__words_join(char *buf, size_t size,
                                    const char *(*name)(const void *ctx, int i),
                                    const void *ctx, int n) {
    if (!size)
        return;
    buf[0] = '\0';
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        const char *w = name(ctx, i);
        size_t wl = 0;
        while (w[wl])
            wl++;
        const char *sep = i ? ", " : "";
        size_t need = (i ? 2 : 0) + wl;
        /* room for this one and, if more follow, for ", ..." */
        if (len + need + (i + 1 < n ? 5 : 0) + 1 > size) {
            const char *more = i ? ", ..." : "...";
            for (size_t k = 0; more[k] && len + 1 < size; k++)
                buf[len++] = more[k];
            buf[len] = '\0';
            return;
        }
        for (size_t k = 0; sep[k]; k++)
            buf[len++] = sep[k];
        for (size_t k = 0; k < wl; k++)
            buf[len++] = w[k];
        buf[len] = '\0';
    }
}

/* Whether the word (its n bytes) names `name` as a table command may
 * write it: the same letters in any case, a space in the name written
 * '-' or '_' ("long-sword" or "Long_Sword" for "Long Sword"). */
static inline bool fray__words_is_name(const char *name, const char *word,
                                       size_t n) {
    size_t len = 0;
    while (name[len])
        len++;
    if (len != n)
        return false;
    for (size_t k = 0; k < len; k++) {
        char a = (char)tolower((unsigned char)name[k]);
        char b = (char)tolower((unsigned char)word[k]);
        if (a == ' ' && (b == '-' || b == '_'))
            continue;
        if (a != b)
            return false;
    }
    return true;
}

#endif

/*
 * jread.c - reading journal lines: columns, field errors, numbers and
 * seeds (jread.h). Moved out of 99 Towers' fight.c so that every
 * ruleset's event_read reads its lines the same way.
 */
#include "jread.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static size_t js_ws(const char *p, size_t i, size_t n) {
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
        i++;
    return i;
}

/* Just past the string that opens at p[i] ('"'). */
static size_t js_string_end(const char *p, size_t i, size_t n) {
    for (i++; i < n; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return n;
}

/* Just past the value that starts at p[i]. */
static size_t js_skip(const char *p, size_t i, size_t n) {
    if (i >= n)
        return n;
    if (p[i] == '"')
        return js_string_end(p, i, n);
    if (p[i] == '{' || p[i] == '[') {
        int depth = 0;
        while (i < n) {
            if (p[i] == '"') {
                i = js_string_end(p, i, n);
                continue;
            }
            if (p[i] == '{' || p[i] == '[')
                depth++;
            else if ((p[i] == '}' || p[i] == ']') && --depth == 0)
                return i + 1;
            i++;
        }
        return n;
    }
    while (i < n && p[i] != ',' && p[i] != '}' && p[i] != ']' &&
           p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
        i++;
    return i;
}

/* The 1-based column of the value at path[0..depth) in the line (a line
 * jansson has read, so well formed), 0 when it is not there. Of a key
 * given twice the last counts, as for jansson. */
int fray__js_column(const fray__jline *l, const fray__jseg *path, int depth) {
    const char *p = l->text;
    size_t n = l->len;
    size_t i = js_ws(p, 0, n);
    for (int k = 0; k < depth; k++) {
        if (i >= n)
            return 0;
        if (path[k].key) {
            if (p[i] != '{')
                return 0;
            size_t klen = strlen(path[k].key);
            size_t found = SIZE_MAX;
            i = js_ws(p, i + 1, n);
            while (i < n && p[i] == '"') {
                size_t kend = js_string_end(p, i, n);
                bool match = kend - i == klen + 2 &&
                             memcmp(p + i + 1, path[k].key, klen) == 0;
                i = js_ws(p, kend, n);
                if (i < n && p[i] == ':')
                    i = js_ws(p, i + 1, n);
                if (match)
                    found = i;
                i = js_ws(p, js_skip(p, i, n), n);
                if (i < n && p[i] == ',')
                    i = js_ws(p, i + 1, n);
            }
            if (found == SIZE_MAX)
                return 0;
            i = found;
        } else {
            if (p[i] != '[')
                return 0;
            i = js_ws(p, i + 1, n);
            for (int e = 0; e < path[k].index; e++) {
                i = js_ws(p, js_skip(p, i, n), n);
                if (i >= n || p[i] != ',')
                    return 0;
                i = js_ws(p, i + 1, n);
            }
        }
    }
    return i < n && i < INT_MAX ? (int)i + 1 : 0;
}

/* "command.actor", "cards[2][1]", "choices[0].kind". */
static void js_path_name(const fray__jseg *path, int depth, char *out, size_t size) {
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < depth && len < size; k++) {
        int w = path[k].key ? snprintf(out + len, size - len, "%s%s",
                                       k ? "." : "", path[k].key)
                            : snprintf(out + len, size - len, "[%d]",
                                       path[k].index);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

/* A field that cannot be read: "FIELD: message" at the value's column. */
fray_status fray__jfield_error(const fray__jline *l, const fray__jseg *path, int depth,
                               const char *fmt, ...) {
    char name[96], msg[200];
    js_path_name(path, depth, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fray__diag_set(l->diag, FRAY_ERR_PARSE, fray__js_column(l, path, depth),
                          "%s: %s", name, msg);
}

/* The value at the end of path, under its parent `parent`: an object's
 * member, or an array's element. */
json_t *fray__js_at(json_t *parent, const fray__jseg *last) {
    return last->key ? json_object_get(parent, last->key)
                     : json_array_get(parent, (size_t)last->index);
}

/* An integer in [lo, hi]; def when absent. `what` (may be NULL) says
 * what the number is, in rules words, for the message. */
fray_status fray__jread_int(const fray__jline *l, json_t *parent, const fray__jseg *path,
                            int depth, long long lo, long long hi,
                            long long def, const char *what,
                            long long *out) {
    json_t *v = fray__js_at(parent, &path[depth - 1]);
    *out = def;
    if (!v && (def < lo || def > hi))
        return fray__jfield_error(l, path, depth, "missing: expected an integer "
                           "from %lld to %lld", lo, hi);
    if (!v)
        return FRAY_OK;
    if (!json_is_integer(v))
        return fray__jfield_error(l, path, depth, "expected an integer from %lld to "
                           "%lld", lo, hi);
    long long x = json_integer_value(v);
    if ((x < lo || x > hi) && what)
        return fray__jfield_error(l, path, depth, "%lld is not %s", x, what);
    if (x < lo || x > hi)
        return fray__jfield_error(l, path, depth, "%lld is out of range: from %lld "
                           "to %lld", x, lo, hi);
    *out = x;
    return FRAY_OK;
}

/* true or false; false when absent. */
fray_status fray__jread_bool(const fray__jline *l, json_t *parent, const fray__jseg *path,
                             int depth, bool *out) {
    json_t *v = fray__js_at(parent, &path[depth - 1]);
    *out = json_is_true(v);
    if (v && !json_is_boolean(v))
        return fray__jfield_error(l, path, depth, "expected true or false");
    return FRAY_OK;
}

/* The seed and trial of a line, read from its text: any unsigned 64-bit
 * number (jansson's integers stop at 2^63 - 1). In `copy`, the line
 * jansson reads, each such number of a key "seed" or "trial" (at any
 * depth: the summary line has its seed too) becomes a 0 padded with
 * spaces, so that the columns stay; those of the line's own object are
 * kept in *out. */
fray_status fray__jscan_seeds(const fray__jline *l, char *copy, fray__jseed *out) {
    const char *p = l->text;
    size_t n = l->len;
    int depth = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n;) {
        char c = p[i];
        if (c == '{' || c == '[') {
            depth++;
            i++;
            continue;
        }
        if (c == '}' || c == ']') {
            depth--;
            i++;
            continue;
        }
        if (c != '"') {
            i++;
            continue;
        }
        size_t end = js_string_end(p, i, n);
        bool seed = end - i == 6 && memcmp(p + i, "\"seed\"", 6) == 0;
        bool trial = end - i == 7 && memcmp(p + i, "\"trial\"", 7) == 0;
        i = end;
        if (!seed && !trial)
            continue;
        size_t v = js_ws(p, i, n);
        if (v >= n || p[v] != ':')
            continue;
        v = js_ws(p, v + 1, n);
        size_t e = v;
        while (e < n && p[e] >= '0' && p[e] <= '9')
            e++;
        /* Not a plain whole number (a sign, a fraction, a leading zero):
         * left to jansson, and refused below if it is the line's own. */
        if (e == v || (e < n && (p[e] == '.' || p[e] == 'e' || p[e] == 'E')) ||
            (p[v] == '0' && e - v > 1))
            continue;
        uint64_t x = 0;
        for (size_t k = v; k < e; k++) {
            unsigned d = (unsigned)(p[k] - '0');
            if (x > (UINT64_MAX - d) / 10)
                return fray__diag_set(l->diag, FRAY_ERR_PARSE,
                                      v < INT_MAX ? (int)v + 1 : 0,
                                      "%s: %.*s is past the largest %s, "
                                      "18446744073709551615",
                                      seed ? "seed" : "trial",
                                      (int)(e - v > 40 ? 40 : e - v), p + v,
                                      seed ? "seed" : "trial");
            x = x * 10 + d;
        }
        copy[v] = '0';
        memset(copy + v + 1, ' ', e - v - 1);
        if (depth == 1 && seed) {
            out->has_seed = true;
            out->seed = x;
        } else if (depth == 1) {
            out->has_trial = true;
            out->trial = x;
        }
        i = e;
    }
    return FRAY_OK;
}


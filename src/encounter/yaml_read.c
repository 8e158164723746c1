/*
 * yaml_read.c - fray's data files into a tree of nodes with places, and
 * values read from it (yaml_read.h). Taken from 99 Towers' loader
 * (src/rules/towers/load.c) unchanged, but for the reader's state being
 * its own struct and key suggestions being a choice.
 */
#define _XOPEN_SOURCE 700 /* strerror_r */

#include "yaml_read.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfyaml.h>

#include "internal.h"

#define YR_HDR ((sizeof(yr_chunk) + 15) & ~(size_t)15)

static const char *const yn_tag_uris[] = {
    "", "tag:yaml.org,2002:str", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:map"};

typedef struct yr_anchor {
    struct yr_anchor *next;
    const char *name;
    yn *node;
} yr_anchor;

void *yr_alloc(yr *L, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    yr_chunk *c = L->chunks;
    if (!c || c->size - c->used < size) {
        size_t want = size > YR_CHUNK ? size : YR_CHUNK;
        c = fray__alloc(L->alloc, YR_HDR + want);
        if (!c)
            return NULL;
        c->size = want;
        c->used = 0;
        /* A big one-off chunk goes under the current one, which keeps
         * serving small requests. */
        if (L->chunks && want > YR_CHUNK) {
            c->next = L->chunks->next;
            L->chunks->next = c;
        } else {
            c->next = L->chunks;
            L->chunks = c;
        }
    }
    void *p = (char *)c + YR_HDR + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

void yr_free_all(yr *L) {
    yr_chunk *c = L->chunks;
    while (c) {
        yr_chunk *next = c->next;
        fray__free(L->alloc, c, YR_HDR + c->size);
        c = next;
    }
    L->chunks = NULL;
}

char *yr_strndup(yr *L, const char *s, size_t n) {
    char *p = yr_alloc(L, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* ---- Errors ------------------------------------------------------------------------ */

fray_status yr_fail(yr *L, const yn *at, fray_status status,
                           const char *fmt, ...) {
    if (L->err != FRAY_OK)
        return L->err; /* the first error is the one reported */
    L->err = status;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(L->msg, sizeof L->msg, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof L->msg)
        memcpy(L->msg + sizeof L->msg - 4, "...", 4);
    L->err_file = L->cur_file;
    L->err_line = at ? at->line : 0;
    L->err_col = at ? at->col : 0;
    return status;
}

fray_status yr_fail_in_art(yr *L, const yn *art, const fray_diag *gd,
                           fray_status status) {
    if (art->style == FYSS_LITERAL && gd->line > 0) {
        /* The block's lines start at the art's line; count the indent of
         * its first non-blank line. */
        int indent = 0;
        size_t p = art->pos;
        for (;;) {
            size_t q = p;
            int sp = 0;
            while (q < art->src_len && art->src[q] == ' ') {
                q++;
                sp++;
            }
            if (q < art->src_len && art->src[q] == '\n') {
                p = q + 1;
                continue;
            }
            indent = sp;
            break;
        }
        yn at = *art;
        at.line = art->line + gd->line - 1;
        at.col = indent + gd->column;
        return yr_fail(L, &at, status, "%s", gd->message);
    }
    return yr_fail(L, art, status, "%s (map row %d, column %d)", gd->message,
                   gd->line, gd->column);
}

fray_status yr_nomem(yr *L) {
    return yr_fail(L, NULL, FRAY_ERR_NOMEM, "out of memory");
}

/* Hands the first error to the caller's diag: a path the caller passed is
 * borrowed (diag->file); any other is copied into diag->file_name, so that
 * a copy of the diag stays valid (include/fray/common.h). */
void yr_publish(const yr *L, fray_diag *diag) {
    if (!diag)
        return;
    memset(diag, 0, sizeof *diag);
    diag->line = L->err_line;
    diag->column = L->err_col;
    memcpy(diag->message, L->msg, strlen(L->msg) + 1);
    const char *f = L->err_file;
    for (int i = 0; i < L->n_top; i++)
        if (f == L->top_paths[i])
            diag->file = f;
    if (diag->file || !f)
        return;
    /* A path too long for file_name loses its start, not its file name. */
    size_t fl = strlen(f), cap = sizeof diag->file_name;
    if (fl + 1 <= cap) {
        memcpy(diag->file_name, f, fl + 1);
    } else {
        memcpy(diag->file_name, "...", 3);
        memcpy(diag->file_name + 3, f + fl - (cap - 4), cap - 4);
        diag->file_name[cap - 1] = '\0';
    }
}

/* ---- Small text helpers --------------------------------------------------------- */

bool yr_ieq(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool yr_ieqn(const char *a, size_t n, const char *b) {
    for (size_t i = 0; i < n; i++, b++)
        if (!*b || tolower((unsigned char)a[i]) != tolower((unsigned char)*b))
            return false;
    return *b == '\0';
}

int yr_find_name(const char *s, const char *const *names, int count) {
    for (int i = 0; i < count; i++)
        if (yr_ieq(s, names[i]))
            return i;
    return -1;
}

/* "a, b, c" into buf (truncated with "..." when it does not fit). */
const char *yr_join_names(char *buf, size_t size, const char *const *names,
                              int count) {
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < count; i++) {
        int n = snprintf(buf + at, size - at, "%s%s", i ? ", " : "", names[i]);
        if (n < 0 || (size_t)n >= size - at) {
            if (size > 4)
                memcpy(buf + size - 4, "...", 4);
            break;
        }
        at += (size_t)n;
    }
    return buf;
}

/* Levenshtein distance of two short strings, case-insensitive (for "did you
 * mean"); large for long strings. */
int yr_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int row[41];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int cost = tolower((unsigned char)a[i - 1]) ==
                               tolower((unsigned char)b[j - 1])
                           ? 0
                           : 1;
            int best = prev + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

bool yr_parse_long(const char *s, long *out) {
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    errno = 0;
    long v = strtol(s, NULL, 10);
    if (errno == ERANGE)
        return false;
    *out = v;
    return true;
}

/* A scalar's whole number, unless its tag says it is something else
 * (`!!str 5` is the text "5"). */
bool yr_node_long(const yn *n, long *out) {
    if (n->tag != YT_NONE && n->tag != YT_INT)
        return false;
    return yr_parse_long(n->text, out);
}

void yr_copy(char *dst, size_t size, const char *src) {
    snprintf(dst, size, "%s", src);
}

/* ---- The document tree --------------------------------------------------------- */

bool yr_is_null(const yn *n) {
    if (!n)
        return true;
    if (n->tag == YT_STR || n->tag == YT_NULL) /* checked: yr_tag_problem */
        return n->tag == YT_NULL;
    if (n->type != YN_SCALAR || n->style != FYSS_PLAIN)
        return false;
    return n->len == 0 || strcmp(n->text, "~") == 0 || yr_ieq(n->text, "null");
}

/* What a node is, for "expected ..., got ..." messages. */
const char *yr_got(const yn *n, char buf[64]) {
    if (yr_is_null(n))
        return "nothing";
    if (n->type == YN_SEQ)
        return "a list";
    if (n->type == YN_MAP)
        return "a mapping";
    const char *nl = strchr(n->text, '\n');
    size_t len = nl ? (size_t)(nl - n->text) : n->len;
    int w;
    if (len > 40)
        w = snprintf(buf, 64, "'%.40s...'", n->text);
    else
        w = snprintf(buf, 64, "'%.*s'%s", (int)len, n->text, nl ? " (several lines)" : "");
    if (n->tag_src && w > 0 && w < 64) /* '5' (tagged !!str) */
        snprintf(buf + w, 64 - (size_t)w, " (tagged %.12s)", n->tag_src);
    return buf;
}

/* A list's items; a single value where a list is expected stands for a
 * list of one; nothing for an empty list. */
const yn *yr_items(const yn *n) {
    if (yr_is_null(n))
        return NULL;
    return n->type == YN_SEQ ? n->first : n;
}
const yn *yr_next_item(const yn *list, const yn *it) {
    return list->type == YN_SEQ ? it->next : NULL;
}
int yr_n_items(const yn *n) {
    if (yr_is_null(n))
        return 0;
    return n->type == YN_SEQ ? n->n : 1;
}

/* The value of key in a mapping (NULL when absent). */
const yn *yr_key_node(const yn *map, const char *key, bool nocase) {
    if (!map || map->type != YN_MAP)
        return NULL;
    for (const yn *k = map->first; k; k = k->next)
        if (k->type == YN_SCALAR &&
            (nocase ? yr_ieq(k->text, key) : strcmp(k->text, key) == 0))
            return k;
    return NULL;
}
const yn *yr_get(const yn *map, const char *key) {
    const yn *k = yr_key_node(map, key, false);
    return k ? k->value : NULL;
}

/* What a file that is not a regular file is, for messages. */
static const char *file_type(mode_t mode) {
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    return "not a regular file";
}

/* `display`: the path as the user would write it (a loader's include). */
static fray_status yr_os_error(yr *L, const char *display, const yn *from, int err) {
    /* strerror_r (XSI): strerror's buffer is shared between threads. */
    char why[128];
    if (strerror_r(err, why, sizeof why) != 0)
        yr_copy(why, sizeof why, "error");
    if (from)
        return yr_fail(L, from, FRAY_ERR_IO, "cannot open '%s' (%s): %s",
                       from->text, display, why);
    return yr_fail(L, NULL, FRAY_ERR_IO, "cannot open the file: %s", why);
}

static fray_status yr_not_regular(yr *L, const yn *from, mode_t mode) {
    return yr_fail(L, from, FRAY_ERR_PARSE,
                   "cannot read %s: it is %s; a fray file is a regular file",
                   from ? from->text : "the file", file_type(mode));
}

/* Reads the file at `path` (named `display` in messages) into a buffer.
 * `from` is the node that named the file (errors opening it are reported
 * there), NULL for a file the caller gave.
 *
 * Only a regular file is read: a FIFO, a device or a folder is refused
 * before anything waits on it. stat() first, so that a device is never
 * even opened; then the file is opened without waiting (O_NONBLOCK) and
 * what was opened is checked again, in case the path changed between. */
fray_status yr_read_text(yr *L, const char *path, const char *display,
                                const yn *from, char **out, size_t *out_len) {
    if (L->mem_text && !from && path == L->top_paths[0]) {
        /* ft_load_text: the first file is the caller's text (copied, so
         * that it ends in a NUL like a file read from the disk). */
        if (L->mem_len > YR_MAX_FILE_BYTES)
            return yr_fail(L, NULL, FRAY_ERR_RANGE,
                           "the file is %zu bytes long; at most %d (1 MiB)",
                           L->mem_len, YR_MAX_FILE_BYTES);
        L->total_bytes += L->mem_len;
        char *buf = yr_strndup(L, L->mem_text, L->mem_len);
        if (!buf)
            return yr_nomem(L);
        *out = buf;
        *out_len = L->mem_len;
        return FRAY_OK;
    }
    struct stat info;
    if (stat(path, &info) != 0)
        return yr_os_error(L, display, from, errno);
    if (!S_ISREG(info.st_mode))
        return yr_not_regular(L, from, info.st_mode);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return yr_os_error(L, display, from, errno);
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        mode_t mode = info.st_mode;
        close(fd);
        return yr_not_regular(L, from, mode);
    }
    if (info.st_size > YR_MAX_FILE_BYTES) {
        close(fd);
        return yr_fail(L, from, FRAY_ERR_RANGE,
                       "%s is %lld bytes long; at most %d (1 MiB)",
                       from ? from->text : "the file", (long long)info.st_size,
                       YR_MAX_FILE_BYTES);
    }
    if (L->total_bytes + (size_t)info.st_size > YR_MAX_TOTAL_BYTES) {
        close(fd);
        return yr_fail(L, from, FRAY_ERR_RANGE,
                       "with %s the files loaded together hold %zu bytes; at "
                       "most %d (4 MiB)",
                       from ? from->text : "this file",
                       L->total_bytes + (size_t)info.st_size, YR_MAX_TOTAL_BYTES);
    }
    size_t size = (size_t)info.st_size;
    char *buf = yr_alloc(L, size + 1);
    if (!buf) {
        close(fd);
        return yr_nomem(L);
    }
    /* A file that shrinks while it is read is read as far as it goes; one
     * that grows, as far as its size when it was opened. */
    size_t got_bytes = 0;
    int err = 0;
    while (got_bytes < size) {
        ssize_t r = read(fd, buf + got_bytes, size - got_bytes);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            err = errno;
        if (r <= 0)
            break;
        got_bytes += (size_t)r;
    }
    close(fd);
    if (err != 0) {
        char why[128];
        if (strerror_r(err, why, sizeof why) != 0)
            yr_copy(why, sizeof why, "error");
        return yr_fail(L, from, FRAY_ERR_IO, "cannot read %s: %s",
                       from ? from->text : "the file", why);
    }
    buf[got_bytes] = '\0';
    L->total_bytes += got_bytes;
    if (L->files && fray__files_add(L->files, path) != FRAY_OK)
        return yr_nomem(L);
    *out = buf;
    *out_len = got_bytes;
    return FRAY_OK;
}

static void mark_of(struct fy_event *e, int *line, int *col) {
    const struct fy_mark *m = fy_event_start_mark(e);
    *line = m ? m->line + 1 : 0;
    *col = m ? m->column + 1 : 0;
}

/* Attaches a finished node to the open container on top of the stack. */
static fray_status attach(yr *L, yn **stack, int depth, yn **root, yn *n) {
    if (depth == 0) {
        *root = n;
        return FRAY_OK;
    }
    yn *top = stack[depth - 1];
    if (top->type == YN_MAP && !top->pending) {
        if (n->type != YN_SCALAR) {
            char b[64];
            return yr_fail(L, n, FRAY_ERR_PARSE,
                           "expected a name as a key, got %s", yr_got(n, b));
        }
        top->pending = n;
        return FRAY_OK;
    }
    yn *item = n;
    if (top->type == YN_MAP) {
        item = top->pending;
        item->value = n;
        top->pending = NULL;
    }
    if (top->last)
        top->last->next = item;
    else
        top->first = item;
    top->last = item;
    top->n++;
    return FRAY_OK;
}

/* The text of an anchor or alias token. */
static const char *token_text(yr *L, struct fy_token *t) {
    size_t len = 0;
    const char *s = t ? fy_token_get_text(t, &len) : NULL;
    return s ? yr_strndup(L, s, len) : NULL;
}

/*
 * The text of a single-quoted scalar from its source (raw: between the
 * quotes), as YAML 1.2 "Single-Quoted Style" reads it: '' is one quote;
 * a line break between two lines is a space, n empty lines are n line
 * breaks; spaces and tabs around line breaks go. libfyaml 0.7 gets a run
 * of two or more '' wrong ('a''''b' reads as "a'''b" or worse) and leaks
 * memory doing it, so fray reads these scalars itself. `out` has room for
 * n + 1 bytes (the text is never longer than its source).
 */
static size_t single_quoted(const char *raw, size_t n, char *out) {
    size_t o = 0, i = 0;
    int empties = 0;
    for (bool first = true;; first = false) {
        size_t s = i;
        while (i < n && raw[i] != '\n' && raw[i] != '\r')
            i++;
        size_t e = i;
        bool last = i >= n;
        if (!last)
            i += raw[i] == '\r' && i + 1 < n && raw[i + 1] == '\n' ? 2 : 1;
        if (!first)
            while (s < e && (raw[s] == ' ' || raw[s] == '\t'))
                s++;
        if (!last)
            while (e > s && (raw[e - 1] == ' ' || raw[e - 1] == '\t'))
                e--;
        if (!first) {
            if (s == e && !last) {
                empties++;
                continue;
            }
            if (empties == 0)
                out[o++] = ' ';
            for (; empties > 0; empties--)
                out[o++] = '\n';
        }
        for (size_t k = s; k < e; k++) {
            out[o++] = raw[k];
            if (raw[k] == '\'' && k + 1 < e && raw[k + 1] == '\'')
                k++;
        }
        if (last)
            break;
    }
    out[o] = '\0';
    return o;
}

/* YAML 1.2 Core Schema float: [-+]?(.digits|digits(.digits?)?)([eE][-+]?digits)?,
 * [-+]?.inf, .nan (any of the three cases the schema allows). */
static bool core_float(const char *s) {
    const char *p = s + (*s == '+' || *s == '-');
    static const char *const special[] = {".inf", ".Inf", ".INF"};
    for (int i = 0; i < 3; i++)
        if (strcmp(p, special[i]) == 0)
            return true;
    if (p == s && (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 ||
                   strcmp(s, ".NAN") == 0))
        return true;
    bool digits = false;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits = true;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            p++;
            digits = true;
        }
    }
    if (!digits)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '+' || *p == '-';
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p == '\0';
}

/*
 * Whether a tagged node breaks its tag, and then the message. fray honours
 * the Core Schema's tags as assertions: !!str makes a scalar text (so a
 * number field refuses `!!str 5`), !!int, !!float, !!bool and !!null
 * require a scalar that is one, !!seq and !!map a list and a mapping; any
 * other tag is refused. Asked while the tree is built, but told only once
 * the file is a fray file (yr_tag_check), as it quotes the file.
 */
static bool tag_problem(const yn *n, char *msg, size_t size) {
    char b[64];
    const char *t = n->tag_src ? n->tag_src : "?";
    yn plain = *n; /* for yr_got(): the text alone, without its tag */
    plain.tag = YT_NONE;
    plain.tag_src = NULL;
    plain.style = FYSS_PLAIN;
    const char *want = NULL;
    switch (n->tag) {
    case YT_NONE:
        return false;
    case YT_OTHER:
        snprintf(msg, size,
                 "the YAML tag '%s' is not one fray reads; it reads !!str, !!int, "
                 "!!float, !!bool, !!null, !!seq and !!map",
                 t);
        return true;
    case YT_SEQ:
        if (n->type == YN_SEQ)
            return false;
        want = "a list";
        break;
    case YT_MAP:
        if (n->type == YN_MAP)
            return false;
        want = "a mapping";
        break;
    default:
        if (n->type != YN_SCALAR) {
            want = "a single value";
            break;
        }
        if (n->tag == YT_STR)
            return false;
        if (n->tag == YT_INT) {
            const char *p = n->text + (n->text[0] == '+' || n->text[0] == '-');
            bool ok = *p != '\0';
            for (; *p && ok; p++)
                ok = isdigit((unsigned char)*p);
            if (ok)
                return false;
            want = "a whole number (in decimal)";
        } else if (n->tag == YT_FLOAT) {
            if (core_float(n->text))
                return false;
            want = "a number";
        } else if (n->tag == YT_BOOL) {
            if (yr_ieq(n->text, "true") || yr_ieq(n->text, "false"))
                return false;
            want = "true or false";
        } else {
            if (n->len == 0 || strcmp(n->text, "~") == 0 || yr_ieq(n->text, "null"))
                return false;
            want = "nothing (null, ~ or no value)";
        }
        break;
    }
    snprintf(msg, size, "the tag %s says %s, got %s", t, want, yr_got(&plain, b));
    return true;
}

/* A node's tag: which one, and how it was written. */
static fray_status yr_tag(yr *L, yn *n, struct fy_token *tag, const char *src,
                          size_t src_len) {
    size_t len = 0;
    const char *uri = fy_token_get_text(tag, &len);
    n->tag = YT_OTHER;
    for (int i = YT_STR; i < YT_OTHER && uri; i++)
        if (strlen(yn_tag_uris[i]) == len && memcmp(yn_tag_uris[i], uri, len) == 0)
            n->tag = (uint8_t)i;
    /* As written ("!!str", "!e!int"), from the source; at most 40 bytes. */
    const struct fy_mark *a = fy_token_start_mark(tag);
    const struct fy_mark *b = fy_token_end_mark(tag);
    if (a && b && a->input_pos < b->input_pos && b->input_pos <= src_len) {
        size_t w = b->input_pos - a->input_pos;
        if (w > 40) {
            w = 40;
            while (w > 0 && (src[a->input_pos + w] & 0xC0) == 0x80)
                w--; /* not inside a UTF-8 character */
        }
        n->tag_src = yr_strndup(L, src + a->input_pos, w);
    } else {
        n->tag_src = uri ? yr_strndup(L, uri, len < 40 ? len : 40) : yr_strndup(L, "!", 1);
    }
    if (!n->tag_src)
        return yr_nomem(L);
    char msg[8];
    if (!L->tag_bad && tag_problem(n, msg, sizeof msg)) {
        L->tag_bad = n;
        L->tag_at.line = a ? a->line + 1 : n->line;
        L->tag_at.col = a ? a->column + 1 : n->col;
    }
    return FRAY_OK;
}

static fray_status build_tree(yr *L, struct fy_parser *p, const char *src,
                              size_t src_len, yn **out_root) {
    yn *stack[YR_MAX_DEPTH];
    int depth = 0, docs = 0, last_line = 1, last_col = 1;
    yn *root = NULL;
    yr_anchor *anchors = NULL;
    struct fy_event *e;
    while ((e = fy_parser_parse(p)) != NULL) {
        fray_status st = FRAY_OK;
        int line, col;
        mark_of(e, &line, &col);
        if (line == 0) { /* libfyaml gives no mark to an empty value */
            line = last_line;
            col = last_col;
        }
        last_line = line;
        last_col = col;
        yn *n = NULL;
        struct fy_token *anchor = NULL;
        switch (e->type) {
        case FYET_DOCUMENT_START:
            if (++docs > 1) {
                yn at = {0};
                at.line = line;
                at.col = col;
                st = yr_fail(L, &at, FRAY_ERR_PARSE,
                             "a second YAML document ('---'); a fray file "
                             "holds one");
            }
            break;
        case FYET_SCALAR:
        case FYET_SEQUENCE_START:
        case FYET_MAPPING_START:
            if (++L->n_nodes > YR_MAX_NODES) {
                yn at = {0};
                at.line = line;
                at.col = col;
                st = yr_fail(L, &at, FRAY_ERR_RANGE,
                             "more than %d values (single values, lists and "
                             "mappings) in the files loaded together",
                             YR_MAX_NODES);
                break;
            }
            n = yr_alloc(L, sizeof *n);
            if (!n) {
                st = yr_nomem(L);
                break;
            }
            n->line = line;
            n->col = col;
            n->src = src;
            n->src_len = src_len;
            if (e->type == FYET_SCALAR) {
                struct fy_token *t = e->scalar.value;
                n->type = YN_SCALAR;
                n->style = (uint8_t)fy_token_scalar_style(t);
                /* A single-quoted scalar's marks are its text between the
                 * quotes. */
                const struct fy_mark *a = fy_token_start_mark(t);
                const struct fy_mark *b = fy_token_end_mark(t);
                if (n->style == FYSS_SINGLE_QUOTED && a && b &&
                    a->input_pos > 0 && a->input_pos <= b->input_pos &&
                    b->input_pos < src_len && src[a->input_pos - 1] == '\'' &&
                    src[b->input_pos] == '\'') {
                    size_t raw = b->input_pos - a->input_pos;
                    char *text = yr_alloc(L, raw + 1);
                    if (text) {
                        n->len = single_quoted(src + a->input_pos, raw, text);
                        n->text = text;
                    }
                } else {
                    size_t len = 0;
                    const char *s = fy_token_get_text(t, &len);
                    n->text = yr_strndup(L, s ? s : "", s ? len : 0);
                    n->len = s ? len : 0;
                }
                const struct fy_mark *m = fy_event_start_mark(e);
                n->pos = m ? m->input_pos : 0;
                anchor = e->scalar.anchor;
                if (!n->text) {
                    st = yr_nomem(L);
                    break;
                }
            } else {
                n->type = e->type == FYET_SEQUENCE_START ? YN_SEQ : YN_MAP;
                anchor = e->type == FYET_SEQUENCE_START
                             ? e->sequence_start.anchor
                             : e->mapping_start.anchor;
            }
            struct fy_token *tag = e->type == FYET_SCALAR ? e->scalar.tag
                                   : e->type == FYET_SEQUENCE_START
                                       ? e->sequence_start.tag
                                       : e->mapping_start.tag;
            if (tag && (st = yr_tag(L, n, tag, src, src_len)) != FRAY_OK)
                break;
            if (anchor) {
                yr_anchor *a = yr_alloc(L, sizeof *a);
                if (!a || !(a->name = token_text(L, anchor))) {
                    st = yr_nomem(L);
                    break;
                }
                a->node = n;
                a->next = anchors;
                anchors = a;
            }
            st = attach(L, stack, depth, &root, n);
            if (st == FRAY_OK && n->type != YN_SCALAR) {
                if (depth == YR_MAX_DEPTH) {
                    st = yr_fail(L, n, FRAY_ERR_RANGE,
                                 "lists and mappings nested more than %d "
                                 "deep",
                                 YR_MAX_DEPTH);
                    break;
                }
                stack[depth++] = n;
            }
            break;
        case FYET_SEQUENCE_END:
        case FYET_MAPPING_END:
            if (depth > 0)
                depth--;
            break;
        case FYET_ALIAS: {
            const char *name = token_text(L, e->alias.anchor);
            if (!name) {
                st = yr_nomem(L);
                break;
            }
            yr_anchor *a = anchors;
            while (a && strcmp(a->name, name) != 0)
                a = a->next;
            yn at = {0};
            at.line = line;
            at.col = col;
            if (!a) {
                /* Not named: the file may not be a fray file (the loader's kind check). */
                st = yr_fail(L, &at, FRAY_ERR_PARSE,
                             "an alias ('*') with no anchor ('&') of its name "
                             "before it");
                break;
            }
            /* A shallow copy: the anchored node is complete and read-only
             * from now on, so its items can be shared. */
            if (++L->n_nodes > YR_MAX_NODES) {
                st = yr_fail(L, &at, FRAY_ERR_RANGE,
                             "more than %d values (single values, lists and "
                             "mappings) in the files loaded together",
                             YR_MAX_NODES);
                break;
            }
            n = yr_alloc(L, sizeof *n);
            if (!n) {
                st = yr_nomem(L);
                break;
            }
            *n = *a->node;
            n->line = line; /* errors point at the alias */
            n->col = col;
            n->next = NULL;
            n->value = NULL;
            n->pending = NULL;
            st = attach(L, stack, depth, &root, n);
            break;
        }
        default:
            break;
        }
        fy_parser_event_free(p, e);
        if (st != FRAY_OK)
            return st;
    }
    *out_root = root;
    return FRAY_OK;
}

/* The length of the UTF-8 sequence at p (at most `left` bytes), 0 when it
 * is not one (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF). */
static size_t utf8_len(const unsigned char *p, size_t left) {
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (left < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

/* The line and column (1-based, in characters) of byte i of a text that is
 * UTF-8 up to there. */
static yn text_place(const char *text, size_t i) {
    const unsigned char *p = (const unsigned char *)text;
    yn at = {0};
    at.line = 1;
    at.col = 1;
    for (size_t k = 0; k < i; k++) {
        if (p[k] == '\n') {
            at.line++;
            at.col = 1;
        } else if ((p[k] & 0xC0) != 0x80) {
            at.col++;
        }
    }
    return at;
}

/*
 * A fray file is UTF-8 text (YAML 1.2 "Character Encodings") without NUL
 * bytes. Checked before libfyaml sees it: libfyaml 0.7 loops forever on a
 * byte that is not UTF-8 inside an unknown directive ("%e\xF7"), and takes
 * a NUL for the end of the text, so that whatever follows one would be
 * dropped without a word. The message names the byte, never the text
 * around it (the file may not be a fray file at all).
 */
fray_status yr_check_text(yr *L, const char *text, size_t len) {
    const unsigned char *p = (const unsigned char *)text;
    const char *nul = memchr(text, '\0', len);
    size_t end = nul ? (size_t)(nul - text) : len;
    size_t i = 0;
    while (i < end) {
        uint64_t w;
        if (end - i >= sizeof w) { /* eight ASCII bytes at a time */
            memcpy(&w, p + i, sizeof w);
            if ((w & 0x8080808080808080u) == 0) {
                i += sizeof w;
                continue;
            }
        }
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = utf8_len(p + i, end - i);
        if (n == 0)
            break;
        i += n;
    }
    if (i >= len)
        return FRAY_OK;
    yn at = text_place(text, i);
    if (i == end)
        return yr_fail(L, &at, FRAY_ERR_PARSE,
                       "a NUL byte (0x00); a fray file is text, and holds none");
    return yr_fail(L, &at, FRAY_ERR_PARSE,
                   "the file is not UTF-8 text (a byte 0x%02X)", p[i]);
}

/* Reads and parses a file into a tree. Errors opening it are blamed on
 * `from` in the current file; errors inside it on `display`, which becomes
 * the current file. */
fray_status yr_parse_file(yr *L, const char *path, const char *display,
                                 const yn *from, yn **out_root) {
    char *text = NULL;
    size_t len = 0;
    fray_status st = yr_read_text(L, path, display, from, &text, &len);
    if (st != FRAY_OK)
        return st;
    L->cur_file = display;
    L->tag_bad = NULL;
    if ((st = yr_check_text(L, text, len)) != FRAY_OK)
        return st;
    /* The error position of a syntax error comes from a diagnostics
     * object that collects errors instead of printing them. */
    struct fy_diag_cfg dcfg;
    fy_diag_cfg_default(&dcfg);
    dcfg.fp = NULL;
    dcfg.output_fn = NULL;
    struct fy_diag *fdiag = fy_diag_create(&dcfg);
    if (!fdiag)
        return yr_nomem(L);
    fy_diag_set_collect_errors(fdiag, true);
    struct fy_parse_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = (enum fy_parse_cfg_flags)(FYPCF_QUIET | FYPCF_JSON_NONE);
    cfg.diag = fdiag;
    struct fy_parser *p = fy_parser_create(&cfg);
    if (!p) {
        fy_diag_destroy(fdiag);
        return yr_nomem(L);
    }
    yn *root = NULL;
    if (fy_parser_set_string(p, text, len) != 0)
        st = yr_nomem(L);
    else
        st = build_tree(L, p, text, len, &root);
    if (st == FRAY_OK && fy_parser_get_stream_error(p)) {
        void *it = NULL;
        struct fy_diag_error *de = fy_diag_errors_iterate(fdiag, &it);
        yn at = {0};
        if (de) {
            at.line = de->line;
            at.col = de->column;
        }
        /* libfyaml's message, without what it quotes of the text in
         * parentheses ("illegal major version number (...)"): the file
         * may not be a fray file (the loader's kind check). */
        const char *msg = de && de->msg ? de->msg : "the text is not valid YAML";
        const char *paren = strstr(msg, " (");
        int mlen = paren && paren - msg < 200 ? (int)(paren - msg) : 200;
        st = yr_fail(L, de ? &at : NULL, FRAY_ERR_PARSE, "YAML syntax: %.*s", mlen, msg);
    }
    fy_parser_destroy(p);
    fy_diag_destroy(fdiag);
    if (st != FRAY_OK)
        return st;
    if (!root) {
        yn at = {0};
        at.line = 1;
        at.col = 1;
        return yr_fail(L, &at, FRAY_ERR_PARSE,
                       "the file is empty; expected a mapping that starts "
                       "with 'fray: encounter', 'fray: statblocks' or "
                       "'fray: catalog'");
    }
    *out_root = root;
    return FRAY_OK;
}

/* ---- Reading values --------------------------------------------------------------- */

/* Checks that `map` is a mapping whose keys are all in `keys` (compared
 * without case when `nocase`), each at most once. `what` names the
 * mapping in messages: "a stat block". */
fray_status yr_keys(yr *L, const yn *map, const char *what,
                           const char *const *keys, int n_keys, bool nocase) {
    char b[64];
    if (!map || map->type != YN_MAP)
        return yr_fail(L, map, FRAY_ERR_PARSE, "expected a mapping for %s, got %s",
                       what, yr_got(map, b));
    for (const yn *k = map->first; k; k = k->next) {
        bool known = false;
        for (int i = 0; i < n_keys && !known; i++)
            known = nocase ? yr_ieq(k->text, keys[i]) : strcmp(k->text, keys[i]) == 0;
        if (!known) {
            /* "notes" (free text, allowed everywhere) is left out of the
             * list to keep the message within the diag's 255 bytes. */
            char list[256];
            int shown = n_keys;
            if (shown > 1 && strcmp(keys[shown - 1], "notes") == 0)
                shown--;
            int best = -1, best_d = 99;
            for (int i = 0; i < n_keys; i++) {
                int d = yr_distance(k->text, keys[i]);
                if (d < best_d) {
                    best_d = d;
                    best = i;
                }
            }
            if (L->suggest_keys && best >= 0 && best_d <= 2 &&
                best_d * 3 <= (int)strlen(keys[best]))
                return yr_fail(L, k, FRAY_ERR_PARSE,
                               "unknown key '%.40s' in %s (did you mean '%s'?)",
                               k->text, what, keys[best]);
            return yr_fail(L, k, FRAY_ERR_PARSE,
                           "unknown key '%.40s' in %s; expected one of: %s",
                           k->text, what, yr_join_names(list, sizeof list, keys, shown));
        }
        for (const yn *j = map->first; j != k; j = j->next)
            if (nocase ? yr_ieq(j->text, k->text) : strcmp(j->text, k->text) == 0)
                return yr_fail(L, k, FRAY_ERR_PARSE,
                               "key '%.40s' appears twice in %s (first at line %d)",
                               k->text, what, j->line);
    }
    return FRAY_OK;
}

fray_status yr_missing(yr *L, const yn *map, const char *key,
                              const char *what) {
    return yr_fail(L, map, FRAY_ERR_PARSE, "missing key '%s' in %s", key, what);
}

fray_status yr_int(yr *L, const yn *n, const char *what, long lo,
                          long hi, int *out) {
    char b[64];
    long v;
    if (!n || n->type != YN_SCALAR || yr_is_null(n) || !yr_node_long(n, &v))
        return yr_fail(L, n, FRAY_ERR_PARSE, "expected a whole number for %s, got %s",
                       what, yr_got(n, b));
    if (v < lo || v > hi)
        return yr_fail(L, n, FRAY_ERR_RANGE, "%s must be between %ld and %ld, got %ld",
                       what, lo, hi, v);
    *out = (int)v;
    return FRAY_OK;
}

fray_status yr_bool(yr *L, const yn *n, const char *what, bool *out) {
    char b[64];
    if (n && n->type == YN_SCALAR && !yr_is_null(n) &&
        (n->tag == YT_NONE || n->tag == YT_BOOL)) {
        static const char *const yes[] = {"true", "yes", "on"};
        static const char *const no[] = {"false", "no", "off"};
        if (yr_find_name(n->text, yes, 3) >= 0) {
            *out = true;
            return FRAY_OK;
        }
        if (yr_find_name(n->text, no, 3) >= 0) {
            *out = false;
            return FRAY_OK;
        }
    }
    return yr_fail(L, n, FRAY_ERR_PARSE, "expected true or false for %s, got %s",
                   what, yr_got(n, b));
}

/* Text that fits in size bytes with its NUL. */
fray_status yr_text(yr *L, const yn *n, const char *what, char *buf,
                           size_t size) {
    char b[64];
    if (!n || n->type != YN_SCALAR || yr_is_null(n) || n->len == 0)
        return yr_fail(L, n, FRAY_ERR_PARSE, "expected text for %s, got %s", what,
                       n && n->type == YN_SCALAR && n->len == 0 ? "nothing"
                                                                 : yr_got(n, b));
    if (n->len >= size)
        return yr_fail(L, n, FRAY_ERR_RANGE,
                       "%s '%.40s...' is %zu characters long; at most %zu", what,
                       n->text, n->len, size - 1);
    memcpy(buf, n->text, n->len + 1);
    return FRAY_OK;
}

/* One of a closed list of names, without case. */
fray_status yr_choice(yr *L, const yn *n, const char *what,
                             const char *const *names, int count, int *out) {
    char b[64], list[200];
    int i = -1;
    if (n && n->type == YN_SCALAR && !yr_is_null(n))
        i = yr_find_name(n->text, names, count);
    if (i < 0)
        return yr_fail(L, n, FRAY_ERR_PARSE, "expected one of %s for %s, got %s",
                       yr_join_names(list, sizeof list, names, count), what, yr_got(n, b));
    *out = i;
    return FRAY_OK;
}

/* A space [x, y] (or "x,y"), 0-based, on a map of at most FRAY_GRID_MAX. */
fray_status yr_pos(yr *L, const yn *n, const char *what, fray_pos *out) {
    char b[64];
    long xy[2];
    if (n && n->type == YN_SEQ && n->n == 2) {
        int v[2];
        const yn *it = n->first;
        for (int i = 0; i < 2; i++, it = it->next) {
            fray_status st = yr_int(L, it, i ? "y (row from 0)" : "x (column from 0)",
                                    0, FRAY_GRID_MAX - 1, &v[i]);
            if (st != FRAY_OK)
                return st;
        }
        out->x = (int16_t)v[0];
        out->y = (int16_t)v[1];
        return FRAY_OK;
    }
    if (n && n->type == YN_SCALAR && !yr_is_null(n)) {
        const char *comma = strchr(n->text, ',');
        char tmp[32];
        if (comma && n->len < sizeof tmp) {
            memcpy(tmp, n->text, n->len + 1);
            tmp[comma - n->text] = '\0';
            char *ys = tmp + (comma - n->text) + 1;
            while (*ys == ' ')
                ys++;
            if (yr_parse_long(tmp, &xy[0]) && yr_parse_long(ys, &xy[1])) {
                if (xy[0] < 0 || xy[0] >= FRAY_GRID_MAX || xy[1] < 0 ||
                    xy[1] >= FRAY_GRID_MAX)
                    return yr_fail(L, n, FRAY_ERR_RANGE,
                                   "%s: x and y must be between 0 and %d",
                                   what, FRAY_GRID_MAX - 1);
                out->x = (int16_t)xy[0];
                out->y = (int16_t)xy[1];
                return FRAY_OK;
            }
        }
    }
    return yr_fail(L, n, FRAY_ERR_PARSE,
                   "expected a space [x, y] for %s, got %s", what, yr_got(n, b));
}

/* ---- Weapons and armor (rules-facts.md "Equipment") ------------------------------ */


fray_status yr_tag_check(yr *L) {
    char msg[200];
    if (L->tag_bad && tag_problem(L->tag_bad, msg, sizeof msg))
        return yr_fail(L, &L->tag_at, FRAY_ERR_PARSE, "%s", msg);
    return FRAY_OK;
}

fray_status yr_unknown(yr *L, const yn *at, const char *what, const char *name,
                       const char *const *names, int count, const char *none_hint) {
    if (count == 0)
        return yr_fail(L, at, FRAY_ERR_PARSE, "unknown %s '%.40s': %s", what, name,
                       none_hint);
    int best = -1, best_d = 99;
    for (int i = 0; i < count; i++) {
        int d = yr_distance(name, names[i]);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (best >= 0 && best_d <= 3 && best_d * 3 <= (int)strlen(names[best]))
        return yr_fail(L, at, FRAY_ERR_PARSE,
                       "unknown %s '%.40s' (did you mean '%s'?)", what, name,
                       names[best]);
    char list[200];
    return yr_fail(L, at, FRAY_ERR_PARSE, "unknown %s '%.40s'; known: %s", what,
                   name, yr_join_names(list, sizeof list, names, count));
}

/* ---- A ruleset's data file -------------------------------------------------- */

fray_status yr_open_rules_file(yr *L, const char *path, const yn *from,
                               char **seen, int *n_seen, int max_seen,
                               const char *rules, const char *title,
                               const char *const *kinds, int n_kinds,
                               yn **root, int *kind) {
    *root = NULL;
    char real[PATH_MAX];
    const char *key = realpath(path, real) ? real : path;
    for (int i = 0; i < *n_seen; i++)
        if (strcmp(seen[i], key) == 0)
            return FRAY_OK; /* read once */
    if (*n_seen >= max_seen)
        return yr_fail(L, from, FRAY_ERR_RANGE, "more than %d files", max_seen);
    char *k = yr_strndup(L, key, strlen(key));
    if (!k)
        return yr_nomem(L);
    seen[(*n_seen)++] = k;
    yn *r = NULL;
    fray_status st = yr_parse_file(L, path, path, from, &r);
    if (st != FRAY_OK)
        return st;
    char b[64];
    if (!r || r->type != YN_MAP)
        return yr_fail(L, r, FRAY_ERR_PARSE,
                       "expected a %s file (a mapping with fray: and rules: %s), got %s",
                       title, rules, yr_got(r, b));
    const yn *fv = yr_get(r, "fray");
    if (!fv) {
        char what[160];
        size_t len = (size_t)snprintf(what, sizeof what, "a %s file (fray: ", title);
        for (int i = 0; i < n_kinds && len < sizeof what; i++)
            len += (size_t)snprintf(what + len, sizeof what - len, "%s%s",
                                    i == 0 ? "" : i + 1 < n_kinds ? ", " : " or ",
                                    kinds[i]);
        if (len < sizeof what)
            snprintf(what + len, sizeof what - len, ")");
        return yr_missing(L, r, "fray", what);
    }
    if ((st = yr_choice(L, fv, "the kind of file (fray:)", kinds, n_kinds, kind)) != FRAY_OK)
        return st;
    const yn *rv = yr_get(r, "rules");
    if (!rv || rv->type != YN_SCALAR || strcmp(rv->text, rules) != 0)
        return yr_fail(L, rv ? rv : r, FRAY_ERR_PARSE, "a %s file says rules: %s",
                       title, rules);
    if ((st = yr_tag_check(L)) != FRAY_OK)
        return st;
    *root = r;
    return FRAY_OK;
}

/* ---- The files a load read ------------------------------------------------ */

fray_status fray__files_add(fray__files *l, const char *path) {
    char real[PATH_MAX];
    const char *p = realpath(path, real) ? real : path;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->path[i], p) == 0)
            return FRAY_OK;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        char **np = fray__realloc(l->alloc, l->path,
                                  (size_t)l->cap * sizeof *np,
                                  (size_t)cap * sizeof *np);
        if (!np)
            return FRAY_ERR_NOMEM;
        l->path = np;
        l->cap = cap;
    }
    size_t n = strlen(p);
    char *copy = fray__alloc(l->alloc, n + 1);
    if (!copy)
        return FRAY_ERR_NOMEM;
    memcpy(copy, p, n + 1);
    l->path[l->n++] = copy;
    return FRAY_OK;
}

void fray__files_free(fray__files *l) {
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        fray__free(l->alloc, l->path[i], strlen(l->path[i]) + 1);
    fray__free(l->alloc, l->path, (size_t)l->cap * sizeof *l->path);
    l->path = NULL;
    l->n = l->cap = 0;
}

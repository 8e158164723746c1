/* out.c - terminal bars, percentages, an exact JSON writer, and files
 * written whole or not at all. */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp, fchmod, O_DIRECTORY */

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void out_bar(FILE *f, double p, int width) {
    static const char *const eighths[] = {"",
                                          "\xe2\x96\x8f", "\xe2\x96\x8e",
                                          "\xe2\x96\x8d", "\xe2\x96\x8c",
                                          "\xe2\x96\x8b", "\xe2\x96\x8a",
                                          "\xe2\x96\x89"};
    if (p < 0)
        p = 0;
    if (p > 1)
        p = 1;
    long cells = lround(p * width * 8);
    for (long i = 0; i < cells / 8; i++)
        fputs("\xe2\x96\x88", f);
    fputs(eighths[cells % 8], f);
}

void out_percent(FILE *f, double p) {
    double pc = p * 100.0;
    if (p == 0)
        fprintf(f, "%7s", "0%");
    else if (p == 1)
        fprintf(f, "%7s", "100%");
    else if (pc < 0.01)
        fprintf(f, "%7s", "<0.01%");
    else if (pc > 99.99)
        fprintf(f, "%7s", ">99.99%");
    else
        fprintf(f, "%6.2f%%", pc);
}

void out_prob_row(FILE *f, fray_ratio r, double scale) {
    char buf[84];
    double p = fray_ratio_to_double(r);
    fprintf(f, "%24s ", fray_ratio_format(r, buf));
    out_percent(f, p);
    fputs("  ", f);
    out_bar(f, scale > 0 ? p / scale : 0, 30);
    fputc('\n', f);
}

/* ---- JSON ----------------------------------------------------------------- */

void json_init(json_out *j, FILE *f) {
    memset(j, 0, sizeof *j);
    j->f = f;
}

static void json_sep(json_out *j) {
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->need_comma[j->depth])
        fputc(',', j->f);
    j->need_comma[j->depth] = true;
}

static void json_open(json_out *j, char c) {
    json_sep(j);
    fputc(c, j->f);
    j->depth++;
    j->need_comma[j->depth] = false;
}

static void json_close(json_out *j, char c) {
    fputc(c, j->f);
    j->depth--;
}

void json_begin_object(json_out *j) { json_open(j, '{'); }
void json_end_object(json_out *j) { json_close(j, '}'); }
void json_begin_array(json_out *j) { json_open(j, '['); }
void json_end_array(json_out *j) { json_close(j, ']'); }

static void json_raw_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void json_key(json_out *j, const char *key) {
    json_sep(j);
    json_raw_string(j->f, key);
    fputc(':', j->f);
    j->after_key = true;
}

void json_string(json_out *j, const char *s) {
    json_sep(j);
    json_raw_string(j->f, s);
}

void json_null(json_out *j) {
    json_sep(j);
    fputs("null", j->f);
}

void json_int(json_out *j, long long v) {
    json_sep(j);
    fprintf(j->f, "%lld", v);
}

void json_u64(json_out *j, uint64_t v) {
    json_sep(j);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_bool(json_out *j, bool v) {
    json_sep(j);
    fputs(v ? "true" : "false", j->f);
}

void json_double(json_out *j, double v) {
    json_sep(j);
    /* 17 significant digits round-trip a double. */
    fprintf(j->f, "%.17g", v);
}

void json_u128(json_out *j, fray_u128 v) {
    char buf[40];
    json_sep(j);
    fputs(fray_u128_format(v, buf), j->f);
}

void json_ratio(json_out *j, fray_ratio r) {
    json_begin_object(j);
    json_ratio_fields(j, r);
    json_end_object(j);
}

void json_ratio_fields(json_out *j, fray_ratio r) {
    char buf[40];
    json_key(j, "num");
    json_sep(j);
    if (r.negative)
        fputc('-', j->f);
    fputs(fray_u128_format(r.num, buf), j->f);
    json_key(j, "den");
    json_u128(j, r.den);
    json_key(j, "p");
    json_double(j, fray_ratio_to_double(r));
}

void json_finish(json_out *j) { fputc('\n', j->f); }

void json_kv_int(json_out *j, const char *key, long long v) {
    json_key(j, key);
    json_int(j, v);
}

void json_kv_u64(json_out *j, const char *key, uint64_t v) {
    json_key(j, key);
    json_u64(j, v);
}

void json_kv_string(json_out *j, const char *key, const char *s) {
    json_key(j, key);
    json_string(j, s);
}

void json_kv_bool(json_out *j, const char *key, bool v) {
    json_key(j, key);
    json_bool(j, v);
}

void json_kv_ratio(json_out *j, const char *key, fray_ratio r) {
    json_key(j, key);
    json_ratio(j, r);
}

/* ---- Files -------------------------------------------------------------------- */

/* All n bytes, whatever write() takes at a time; false with errno set. */
bool cli_write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return false;
        if (w == 0) {
            errno = EIO;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Where a file written to `path` goes: the file a symbolic link names (the
 * link stays), else path itself. Refuses what is not a regular file: a
 * rename over a device or a directory would replace it. NULL (message
 * printed) when it cannot; else a copy the caller frees. */
static char *target_of(const char *path, const char *what) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT) {
            fprintf(stderr, "error: cannot write %s to '%s': %s\n",
                    what, path, strerror(errno));
            return NULL;
        }
        char *copy = malloc(strlen(path) + 1);
        if (copy)
            strcpy(copy, path);
        else
            fprintf(stderr, "error: out of memory\n");
        return copy;
    }
    char *target = S_ISLNK(st.st_mode) ? realpath(path, NULL) : NULL;
    if (S_ISLNK(st.st_mode) && !target) {
        fprintf(stderr, "error: cannot write %s to '%s': %s\n", what, path,
                strerror(errno));
        return NULL;
    }
    if (!target) {
        target = malloc(strlen(path) + 1);
        if (!target) {
            fprintf(stderr, "error: out of memory\n");
            return NULL;
        }
        strcpy(target, path);
    }
    if (stat(target, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "error: cannot write %s to '%s': it is not a "
                "regular file (%s is written to a new file and renamed over "
                "it)\n", what, path, what);
        free(target);
        return NULL;
    }
    return target;
}

/* The directory of path ("." when it has none), for its new files and its
 * fsync. The caller frees it. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    if (slash && n == 0)
        n = 1; /* "/journal": the root */
    char *dir = malloc(n + 1);
    if (!dir)
        return NULL;
    memcpy(dir, slash ? path : ".", n);
    dir[n] = '\0';
    return dir;
}

/* Makes a rename in dir last (the directory's entry is on disk). */
static bool sync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok)
        return false;
    errno = e;
    return ok;
}

/*
 * Writes the n bytes of buf to path through a new file in the same
 * directory: written, synced, given the old file's permissions (or those
 * of a new file), renamed over path, the directory synced. path keeps its
 * old content until the rename. With out_fd, the new file stays open for
 * appending (its descriptor in *out_fd); else it is closed. false (message
 * printed, the new file removed) when it cannot.
 */
bool cli_write_whole(const char *path, const char *what, const char *buf,
                     size_t n, int *out_fd) {
    char *target = target_of(path, what);
    if (!target)
        return false;
    char *dir = dir_of(target);
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    size_t tn = (dir ? strlen(dir) : 0) + strlen(base) + 16;
    char *tmp = dir ? malloc(tn) : NULL;
    if (!tmp) {
        fprintf(stderr, "error: out of memory\n");
        free(dir);
        free(target);
        return false;
    }
    /* (The six X are mkstemp's template, not a marker.) */
    snprintf(tmp, tn, "%s/.%s.XXXXXX", dir, base);
    const char *failed = "cannot write %s to '%s': %s\n";
    int fd = mkstemp(tmp);
    bool made = fd >= 0;
    bool ok = made;
    if (ok) {
        struct stat st;
        mode_t mode;
        if (stat(target, &st) == 0) {
            mode = st.st_mode & 07777;
        } else {
            mode_t mask = umask(0);
            umask(mask);
            mode = 0666 & ~mask;
        }
        ok = fchmod(fd, mode) == 0 && cli_write_all(fd, buf, n) && fsync(fd) == 0;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = false;
        failed = "cannot put %s in place at '%s': %s\n";
    }
    if (ok) {
        made = false; /* it is the journal now */
        if (!sync_dir(dir)) {
            ok = false;
            failed = "cannot sync the folder of %s at '%s': %s\n";
        }
    }
    int e = errno;
    if (fd >= 0 && (!ok || !out_fd) && close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (made && unlink(tmp) != 0)
        fprintf(stderr, "warning: cannot remove '%s': %s\n", tmp,
                strerror(errno));
    if (!ok) {
        fputs("error: ", stderr);
        fprintf(stderr, failed, what, path, strerror(e));
    } else if (out_fd) {
        *out_fd = fd;
    }
    free(tmp);
    free(dir);
    free(target);
    return ok;
}


bool cli_ends_with_ci(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return false;
    for (size_t i = 0; i < m; i++)
        if ((s[n - m + i] | 0x20) != (suffix[i] | 0x20))
            return false;
    return true;
}

/* A JSON number while it fits in 2^53 (exact in every JSON reader), a
 * string of digits beyond (docs/rules/dice.md "Exact numbers in JSON"). */
void json_digits(json_out *j, const char *key, const char *digits,
                        bool negative) {
    size_t n = strlen(digits);
    bool fits = n < 16 || (n == 16 && strcmp(digits, "9007199254740992") <= 0);
    json_key(j, key);
    if (fits) {
        char buf[24];
        snprintf(buf, sizeof buf, "%s%s", negative ? "-" : "", digits);
        json_int(j, strtoll(buf, NULL, 10));
    } else {
        size_t len = n + 2;
        char *s = malloc(len);
        if (!s) {
            json_string(j, "");
            return;
        }
        snprintf(s, len, "%s%s", negative ? "-" : "", digits);
        json_string(j, s);
        free(s);
    }
}

void json_big_fields(json_out *j, const fray_bigratio *r) {
    json_digits(j, "num", r->num, r->negative);
    json_digits(j, "den", r->den, false);
    json_key(j, "p");
    json_double(j, r->value);
}

void json_big(json_out *j, const char *key, const fray_bigratio *r) {
    json_key(j, key);
    json_begin_object(j);
    json_big_fields(j, r);
    json_end_object(j);
}

/* out.c - terminal bars, percentages, an exact JSON writer, and files
 * written whole or not at all. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* Writes all of buf to fd; false with errno set on the first failure. */
static bool write_all(int fd, const char *buf, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        buf += w;
        n -= (size_t)w;
    }
    return true;
}

int cli_write_file(const char *path, const char *buf, size_t n) {
    /* A new file beside the old one, its data synced, then renamed over it:
     * a reader sees the old file or the whole new one, never a torn one,
     * and a failure leaves the old file as it was. The same directory, so
     * that rename() is one step of one file system. */
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (!tmp)
        return ENOMEM;
    snprintf(tmp, len + 32, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        int err = errno;
        free(tmp);
        return err;
    }
    int err = 0;
    if (!write_all(fd, buf, n) || fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && err == 0)
        err = errno;
    if (err == 0 && rename(tmp, path) != 0)
        err = errno;
    if (err != 0 && unlink(tmp) != 0)
        fprintf(stderr, "fray: cannot remove %s: %s\n", tmp, strerror(errno));
    free(tmp);
    return err;
}

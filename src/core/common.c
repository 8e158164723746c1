/* common.c - status strings, exact ratios, allocation, diagnostics. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/fray.h"

const char *fray_strerror(fray_status status) {
    switch (status) {
#define FRAY__STATUS_TEXT(name, text)                                         \
    case name:                                                                \
        return text;
        FRAY_STATUS_LIST(FRAY__STATUS_TEXT)
#undef FRAY__STATUS_TEXT
    }
    return "unknown status";
}

const char *fray_version(void) { return FRAY_VERSION_STRING; }

fray__u128 fray__u128_gcd(fray__u128 a, fray__u128 b) {
    while (b != 0) {
        fray__u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

fray_ratio fray__ratio(fray__u128 num, fray__u128 den, bool negative) {
    fray_ratio r;
    if (den == 0 || num == 0) {
        num = 0;
        den = 1;
        negative = false;
    } else {
        fray__u128 g = fray__u128_gcd(num, den);
        num /= g;
        den /= g;
    }
    r.num = fray__u128_to(num);
    r.den = fray__u128_to(den);
    r.negative = negative;
    return r;
}

double fray_ratio_to_double(fray_ratio r) {
    fray__u128 num = fray__u128_from(r.num);
    fray__u128 den = fray__u128_from(r.den);
    if (den == 0)
        return 0.0;
    /* Integer part plus the remainder's fraction keeps precision when both
     * parts are huge. */
    fray__u128 whole = num / den;
    fray__u128 rem = num % den;
    double v = (double)whole + (double)rem / (double)den;
    return r.negative ? -v : v;
}

char *fray_u128_format(fray_u128 v, char buf[40]) {
    fray__u128 x = fray__u128_from(v);
    char tmp[40];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x != 0);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return buf;
}

char *fray_ratio_format(fray_ratio r, char buf[84]) {
    char num[40], den[40];
    fray_u128_format(r.num, num);
    fray_u128_format(r.den, den);
    if (r.den.hi == 0 && r.den.lo == 1)
        snprintf(buf, 84, "%s%s", r.negative ? "-" : "", num);
    else
        snprintf(buf, 84, "%s%s/%s", r.negative ? "-" : "", num, den);
    return buf;
}

fray_ratio fray_ratio_one_minus(fray_ratio p) {
    fray__u128 num = fray__u128_from(p.num), den = fray__u128_from(p.den);
    if (p.negative || num > den)
        return fray__ratio(0, 1, false);
    return fray__ratio(den - num, den, false);
}

bool fray_ratio_equal(fray_ratio a, fray_ratio b) {
    /* Both are in lowest terms, so equal numbers have equal parts. */
    bool zero_a = a.num.hi == 0 && a.num.lo == 0;
    bool zero_b = b.num.hi == 0 && b.num.lo == 0;
    if (zero_a || zero_b)
        return zero_a && zero_b;
    return a.negative == b.negative && a.num.hi == b.num.hi &&
           a.num.lo == b.num.lo && a.den.hi == b.den.hi && a.den.lo == b.den.lo;
}

void fray__binom_init(fray__binom *b) {
    memset(b, 0, sizeof *b);
    for (int n = 0; n <= FRAY__BINOM_N; n++) {
        b->c[n][0] = 1;
        for (int k = 1; k <= n; k++)
            b->c[n][k] = b->c[n - 1][k - 1] + (k <= n - 1 ? b->c[n - 1][k] : 0);
    }
}

void *fray__alloc(const fray_allocator *a, size_t size) {
    if (a && a->realloc)
        return a->realloc(a->ud, NULL, 0, size);
    return malloc(size);
}

void *fray__realloc(const fray_allocator *a, void *p, size_t old_size,
                    size_t new_size) {
    if (a && a->realloc)
        return a->realloc(a->ud, p, old_size, new_size);
    return realloc(p, new_size);
}

void fray__free(const fray_allocator *a, void *p, size_t size) {
    if (!p)
        return;
    if (a && a->realloc)
        (void)a->realloc(a->ud, p, size, 0);
    else
        free(p);
}

fray_status fray__diag_set(fray_diag *diag, fray_status status, int column,
                           const char *fmt, ...) {
    if (!diag)
        return status;
    diag->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return status;
}

const char *fray_diag_file(const fray_diag *diag) {
    if (!diag)
        return NULL;
    return diag->file_name[0] ? diag->file_name : diag->file;
}

/* ---- A bounded text builder ---------------------------------------------- */

void fray__text_init(fray__text *t, char *buf, size_t size) {
    t->buf = buf;
    t->size = buf ? size : 0;
    t->len = 0;
    if (t->size > 0)
        t->buf[0] = '\0';
}

void fray__text_put(fray__text *t, const char *s, size_t n) {
    if (n == 0)
        return;
    if (t->len + 1 < t->size) {
        size_t room = t->size - 1 - t->len;
        size_t k = n < room ? n : room;
        memcpy(t->buf + t->len, s, k);
        t->buf[t->len + k] = '\0';
    }
    t->len += n;
}

void fray__text_s(fray__text *t, const char *s) {
    fray__text_put(t, s, strlen(s));
}

void fray__text_vf(fray__text *t, const char *fmt, va_list ap) {
    int n;
    /* Formatted in place: vsnprintf truncates and terminates as we must. */
    if (t->len + 1 < t->size)
        n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
    else
        n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0)
        t->len += (size_t)n;
}

void fray__text_f(fray__text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fray__text_vf(t, fmt, ap);
    va_end(ap);
}

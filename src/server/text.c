/* text.c - the server's growing text buffer (text.h). */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fsv_text_reserve(fsv_text *t, size_t n) {
    if (t->failed)
        return false;
    if (t->len + n + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->len + n + 1) {
        if (cap > ((size_t)-1) / 2) {
            t->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(t->p, cap);
    if (!p) {
        t->failed = true;
        return false;
    }
    t->p = p;
    t->cap = cap;
    return true;
}

void fsv_text_add(fsv_text *t, const char *s, size_t n) {
    if (!fsv_text_reserve(t, n))
        return;
    if (n)
        memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void fsv_text_str(fsv_text *t, const char *s) { fsv_text_add(t, s, strlen(s)); }

void fsv_text_printf(fsv_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        return;
    }
    if (!fsv_text_reserve(t, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* The length of the valid UTF-8 sequence at s (0: not valid). */
static size_t utf8_len(const unsigned char *s) {
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    unsigned v = c & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    return n;
}

void fsv_text_json(fsv_text *t, const char *s) {
    if (!s) {
        fsv_text_str(t, "null");
        return;
    }
    fsv_text_add(t, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            fsv_text_add(t, e, 2);
            p++;
        } else if (c == '\n') {
            fsv_text_add(t, "\\n", 2);
            p++;
        } else if (c == '\r') {
            fsv_text_add(t, "\\r", 2);
            p++;
        } else if (c == '\t') {
            fsv_text_add(t, "\\t", 2);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            fsv_text_printf(t, "\\u%04x", c);
            p++;
        } else {
            size_t n = utf8_len(p);
            if (n == 0) {
                fsv_text_str(t, "\xef\xbf\xbd");
                p++;
            } else {
                fsv_text_add(t, (const char *)p, n);
                p += n;
            }
        }
    }
    fsv_text_add(t, "\"", 1);
}

void fsv_text_free(fsv_text *t) {
    free(t->p);
    t->p = NULL;
    t->len = t->cap = 0;
    t->failed = false;
}

/*
 * text.h - a growing text buffer for the server's answers (JSON written
 * by hand: the view's JSON comes from the library as text and is put in
 * as it is). Out of memory is sticky: `failed` is set and nothing more is
 * added; the caller checks it once at the end.
 */
#ifndef FRAY_SERVER_TEXT_H
#define FRAY_SERVER_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct fsv_text {
    char *p;      /* NUL-terminated when len > 0 (malloc'd; the owner frees) */
    size_t len, cap;
    bool failed;  /* out of memory: p holds what fitted before */
} fsv_text;

/* Makes room for n more bytes (and the NUL); false when out of memory. */
bool fsv_text_reserve(fsv_text *t, size_t n);
void fsv_text_add(fsv_text *t, const char *s, size_t n);
void fsv_text_str(fsv_text *t, const char *s);
void fsv_text_printf(fsv_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* s as a JSON string, quoted and escaped (NULL writes null). Bytes that
 * are not valid UTF-8 are written as U+FFFD. */
void fsv_text_json(fsv_text *t, const char *s);
void fsv_text_free(fsv_text *t);

#endif

/*
 * xml_check.h - a small well-formedness checker for the documents fray
 * writes (the simulation report's SVG and HTML, test_sim_report.c; issue 4
 * section 5: "the report files are well-formed SVG/HTML").
 *
 * It checks what a browser's XML parser would refuse: tags that do not
 * balance or nest, names that are not names, attribute values without
 * quotes or given twice, entities other than the five predefined ones
 * (&amp; &lt; &gt; &quot; &apos;) and numeric ones, a stray '<' or '&',
 * control characters, and (XML mode) more or less than one root element.
 * It does not read DTDs, CDATA sections or processing instructions other
 * than the <?xml ...?> declaration at the very start.
 *
 * HTML mode also accepts <!DOCTYPE ...> and the void elements (meta, br,
 * link, img, hr, input) written without "/>".
 *
 * Header-only (static inline) so that each test executable takes only
 * what it uses.
 */
#ifndef FRAY_TESTS_XML_CHECK_H
#define FRAY_TESTS_XML_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { XC_MAX_DEPTH = 128, XC_MAX_NAME = 64, XC_MAX_ATTRS = 48 };

typedef struct xc {
    const char *s;
    size_t n, i;
    bool html;
    int depth;
    char stack[XC_MAX_DEPTH][XC_MAX_NAME];
    char err[200];
} xc;

static inline bool xc_fail(xc *x, const char *what) {
    /* The line and a little context, for the test's message. */
    int line = 1;
    for (size_t k = 0; k < x->i && k < x->n; k++)
        if (x->s[k] == '\n')
            line++;
    size_t from = x->i > 30 ? x->i - 30 : 0;
    size_t len = x->n - from < 60 ? x->n - from : 60;
    snprintf(x->err, sizeof x->err, "line %d: %s near \"%.*s\"", line, what,
             (int)len, x->s + from);
    return false;
}

static inline bool xc_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == ':' || (unsigned char)c >= 0x80;
}

static inline bool xc_name_char(char c) {
    return xc_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static inline bool xc_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline void xc_skip_space(xc *x) {
    while (x->i < x->n && xc_space(x->s[x->i]))
        x->i++;
}

/* Reads a name into out; false when there is none. */
static inline bool xc_name(xc *x, char out[XC_MAX_NAME]) {
    if (x->i >= x->n || !xc_name_start(x->s[x->i]))
        return false;
    size_t k = 0;
    while (x->i < x->n && xc_name_char(x->s[x->i])) {
        if (k + 1 < XC_MAX_NAME)
            out[k++] = x->s[x->i];
        x->i++;
    }
    out[k] = '\0';
    return true;
}

/* An entity at x->i (on the '&'): the five predefined or numeric. */
static inline bool xc_entity(xc *x) {
    static const char *const named[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
    const char *p = x->s + x->i + 1;
    size_t left = x->n - x->i - 1;
    for (size_t k = 0; k < 5; k++) {
        size_t l = strlen(named[k]);
        if (left >= l && memcmp(p, named[k], l) == 0) {
            x->i += 1 + l;
            return true;
        }
    }
    if (left >= 3 && p[0] == '#') {
        size_t k = 1;
        bool hex = p[1] == 'x';
        if (hex)
            k++;
        size_t digits = 0;
        while (k < left &&
               ((p[k] >= '0' && p[k] <= '9') ||
                (hex && ((p[k] >= 'a' && p[k] <= 'f') ||
                         (p[k] >= 'A' && p[k] <= 'F'))))) {
            k++;
            digits++;
        }
        if (digits > 0 && k < left && p[k] == ';') {
            x->i += 1 + k + 1;
            return true;
        }
    }
    return xc_fail(x, "an '&' that starts no predefined or numeric entity");
}

/* Character data up to the next '<' (or the end). */
static inline bool xc_text(xc *x, bool allowed) {
    while (x->i < x->n && x->s[x->i] != '<') {
        char c = x->s[x->i];
        if (c == '&') {
            if (!xc_entity(x))
                return false;
            continue;
        }
        if ((unsigned char)c < 0x20 && !xc_space(c))
            return xc_fail(x, "a control character");
        if (!allowed && !xc_space(c))
            return xc_fail(x, "text outside the root element");
        x->i++;
    }
    return true;
}

static inline bool xc_void(const xc *x, const char *name) {
    static const char *const v[] = {"meta", "br", "link", "img", "hr", "input"};
    if (!x->html)
        return false;
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (strcasecmp(name, v[k]) == 0)
            return true;
    return false;
}

/* A start tag at x->i (on the '<'). */
static inline bool xc_start_tag(xc *x) {
    char name[XC_MAX_NAME];
    char attrs[XC_MAX_ATTRS][XC_MAX_NAME];
    int n_attrs = 0;
    x->i++;
    if (!xc_name(x, name))
        return xc_fail(x, "a '<' that starts no tag");
    for (;;) {
        size_t before = x->i;
        xc_skip_space(x);
        if (x->i >= x->n)
            return xc_fail(x, "a tag that never ends");
        char c = x->s[x->i];
        if (c == '>' || c == '/')
            break;
        if (x->i == before)
            return xc_fail(x, "no space before an attribute");
        char an[XC_MAX_NAME];
        if (!xc_name(x, an))
            return xc_fail(x, "a bad attribute name");
        for (int k = 0; k < n_attrs; k++)
            if (strcmp(attrs[k], an) == 0)
                return xc_fail(x, "an attribute given twice");
        if (n_attrs < XC_MAX_ATTRS)
            memcpy(attrs[n_attrs++], an, XC_MAX_NAME);
        xc_skip_space(x);
        if (x->i >= x->n || x->s[x->i] != '=')
            return xc_fail(x, "an attribute without a value");
        x->i++;
        xc_skip_space(x);
        if (x->i >= x->n || (x->s[x->i] != '"' && x->s[x->i] != '\''))
            return xc_fail(x, "an attribute value without quotes");
        char q = x->s[x->i++];
        while (x->i < x->n && x->s[x->i] != q) {
            char v = x->s[x->i];
            if (v == '<')
                return xc_fail(x, "a '<' inside an attribute value");
            if (v == '&') {
                if (!xc_entity(x))
                    return false;
                continue;
            }
            if ((unsigned char)v < 0x20 && !xc_space(v))
                return xc_fail(x, "a control character in an attribute");
            x->i++;
        }
        if (x->i >= x->n)
            return xc_fail(x, "an attribute value that never ends");
        x->i++;
    }
    bool empty = false;
    if (x->s[x->i] == '/') {
        x->i++;
        if (x->i >= x->n || x->s[x->i] != '>')
            return xc_fail(x, "a '/' not followed by '>'");
        empty = true;
    }
    x->i++; /* '>' */
    if (empty || xc_void(x, name))
        return true;
    if (x->depth >= XC_MAX_DEPTH)
        return xc_fail(x, "elements nested too deep");
    memcpy(x->stack[x->depth++], name, XC_MAX_NAME);
    return true;
}

/* An end tag at x->i (on the "</"). */
static inline bool xc_end_tag(xc *x) {
    char name[XC_MAX_NAME];
    x->i += 2;
    if (!xc_name(x, name))
        return xc_fail(x, "a bad end tag");
    xc_skip_space(x);
    if (x->i >= x->n || x->s[x->i] != '>')
        return xc_fail(x, "an end tag that never ends");
    x->i++;
    if (x->depth == 0)
        return xc_fail(x, "an end tag with no element open");
    if (strcmp(x->stack[x->depth - 1], name) != 0) {
        char what[160];
        snprintf(what, sizeof what, "</%s> closes <%s>", name,
                 x->stack[x->depth - 1]);
        return xc_fail(x, what);
    }
    x->depth--;
    return true;
}

/* Skips from x->i past `end`; false when it never comes. */
static inline bool xc_skip_past(xc *x, const char *end, const char *what) {
    size_t l = strlen(end);
    for (; x->i + l <= x->n; x->i++)
        if (memcmp(x->s + x->i, end, l) == 0) {
            x->i += l;
            return true;
        }
    return xc_fail(x, what);
}

/*
 * Checks s[0..n): true when well-formed; otherwise false with the first
 * problem in err (errsize bytes).
 */
static inline bool xml_check(const char *s, size_t n, bool html, char *err,
                             size_t errsize) {
    static xc x; /* big (the name stack); tests run one at a time */
    memset(&x, 0, sizeof x);
    x.s = s;
    x.n = n;
    x.html = html;
    int roots = 0;
    bool ok = true;
    if (n >= 5 && memcmp(s, "<?xml", 5) == 0)
        ok = xc_skip_past(&x, "?>", "an XML declaration that never ends");
    while (ok && x.i < x.n) {
        if (x.s[x.i] != '<') {
            ok = xc_text(&x, x.depth > 0);
            continue;
        }
        if (x.n - x.i >= 4 && memcmp(x.s + x.i, "<!--", 4) == 0) {
            ok = xc_skip_past(&x, "-->", "a comment that never ends");
        } else if (x.n - x.i >= 9 && strncasecmp(x.s + x.i, "<!DOCTYPE", 9) == 0) {
            if (!html || x.depth > 0 || roots > 0)
                ok = xc_fail(&x, "a DOCTYPE out of place");
            else
                ok = xc_skip_past(&x, ">", "a DOCTYPE that never ends");
        } else if (x.n - x.i >= 2 && x.s[x.i + 1] == '/') {
            ok = xc_end_tag(&x);
        } else {
            if (x.depth == 0 && ++roots > 1) {
                ok = xc_fail(&x, "a second root element");
                break;
            }
            ok = xc_start_tag(&x);
        }
    }
    if (ok && x.depth > 0) {
        char what[120];
        snprintf(what, sizeof what, "<%s> is never closed", x.stack[x.depth - 1]);
        ok = xc_fail(&x, what);
    }
    if (ok && roots == 0)
        ok = xc_fail(&x, "no root element");
    if (err && errsize)
        snprintf(err, errsize, "%s", ok ? "" : x.err);
    return ok;
}

#endif

/* render.c - STUB: replaced by the real module. */
#include "towers_int.h"

size_t ft_render_event(const ft_setup *s, const ft_event *ev, char *buf, size_t size) {
    (void)s;
    (void)ev;
    (void)buf;
    (void)size;
    return 0;
}

size_t ft_render_event_json(const ft_setup *s, const ft_event *ev, char *buf, size_t size) {
    (void)s;
    (void)ev;
    (void)buf;
    (void)size;
    return 0;
}

size_t ft_render_clock(const ft_setup *s, const ft_state *st, char *buf, size_t size) {
    (void)s;
    (void)st;
    (void)buf;
    (void)size;
    return 0;
}

size_t ft_render_map(const ft_setup *s, const ft_state *st, char *buf, size_t size) {
    (void)s;
    (void)st;
    (void)buf;
    (void)size;
    return 0;
}

size_t ft_render_summary(const ft_setup *s, const ft_state *st, char *buf, size_t size) {
    (void)s;
    (void)st;
    (void)buf;
    (void)size;
    return 0;
}

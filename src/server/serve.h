/*
 * serve.h - `fray serve`: the server's HTTP side on civetweb
 * (docs/server.md). The fights and calls are api.h's; this file puts them
 * on HTTP, streams the live views and runs until SIGINT or SIGTERM.
 */
#ifndef FRAY_SERVER_SERVE_H
#define FRAY_SERVER_SERVE_H

#include <stdbool.h>

typedef struct fsv_serve_options {
    const char *listen;   /* the address to bind ("127.0.0.1") */
    int port;             /* 0: any free port (the link says which) */
    const char *data;     /* the data folder (made when missing) */
    bool new_gm_token;    /* make the GM's token anew */
    int threads;          /* civetweb's worker threads (each live page
                             holds one) */
    const char *web;      /* the pages' folder (web.h); NULL: the default
                             (fsv_web_default_dir), none found: GET / lists
                             the calls */
} fsv_serve_options;

/* Serves until SIGINT or SIGTERM. Prints the GM's link on standard output
 * when it is up. Returns 0 after a clean stop, 1 when it cannot start
 * (said on standard error), 2 when the store could not be closed at the
 * stop (said on standard error). */
int fsv_serve(const fsv_serve_options *o);

#endif

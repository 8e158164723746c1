/*
 * serve.c - `fray serve` on civetweb (serve.h; docs/server.md): requests
 * to api.c, live views as text/event-stream, the GM's link, the stop.
 */
#define _POSIX_C_SOURCE 200809L /* sigwait, pthread_sigmask */
#include "serve.h"

#include <civetweb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "web.h"

/* A live stream's keep-alive comment, after this long without a change:
 * also how long a page that went away holds its thread. */
enum { KEEP_ALIVE_MS = 5000 };

/* Sends an answer. civetweb's header and write calls fail only when the
 * page has gone away (or the headers were already sent): then nothing is
 * left to tell anyone, and the fight is not touched by an answer. */
static void send_answer(struct mg_connection *c, const fsv_response *r,
                        bool close) {
    char len[32];
    snprintf(len, sizeof len, "%zu", r->len);
    mg_response_header_start(c, r->status);
    mg_response_header_add(c, "Content-Type", r->type, -1);
    mg_response_header_add(c, "Content-Length", len, -1);
    mg_response_header_add(c, "Cache-Control", "no-store", -1);
    mg_response_header_add(c, "X-Content-Type-Options", "nosniff", -1);
    if (close)
        mg_response_header_add(c, "Connection", "close", -1);
    mg_response_header_send(c);
    if (r->len)
        mg_write(c, r->body, r->len);
}

/* A file of the pages (web.h), with a policy that lets the page run only
 * its own scripts and talk only to this server, and no other site frame
 * it (the GM's page holds the GM's token). */
static void send_page(struct mg_connection *c, int status, const char *type,
                      const char *body, size_t n) {
    char len[32];
    snprintf(len, sizeof len, "%zu", n);
    mg_response_header_start(c, status);
    mg_response_header_add(c, "Content-Type", type, -1);
    mg_response_header_add(c, "Content-Length", len, -1);
    mg_response_header_add(c, "Cache-Control", "no-cache", -1);
    mg_response_header_add(c, "X-Content-Type-Options", "nosniff", -1);
    mg_response_header_add(c, "Referrer-Policy", "no-referrer", -1);
    mg_response_header_add(c, "Content-Security-Policy",
                           "default-src 'self'; script-src 'self'; "
                           "style-src 'self' 'unsafe-inline'; img-src 'self' "
                           "data: blob:; connect-src 'self'; object-src "
                           "'none'; base-uri 'none'; frame-ancestors 'none'",
                           -1);
    mg_response_header_send(c);
    if (n)
        mg_write(c, body, n);
}

static int live(struct mg_connection *c, fsv_server *s, const char *path,
                const char *auth) {
    fsv_live *l = NULL;
    fsv_response refusal;
    fsv_live_open(s, path, auth, &l, &refusal);
    if (!l) {
        send_answer(c, &refusal, false);
        int st = refusal.status;
        fsv_response_free(&refusal);
        return st;
    }
    mg_response_header_start(c, 200);
    mg_response_header_add(c, "Content-Type", "text/event-stream", -1);
    mg_response_header_add(c, "Cache-Control", "no-store", -1);
    mg_response_header_add(c, "X-Accel-Buffering", "no", -1);
    mg_response_header_add(c, "Connection", "close", -1);
    mg_response_header_send(c);
    for (;;) {
        char *text = NULL;
        size_t len = 0;
        int rc = fsv_live_next(l, KEEP_ALIVE_MS, &text, &len);
        int w;
        if (rc < 0)
            break;
        if (rc == 0)
            w = mg_write(c, ": keep-alive\n\n", 14);
        else
            w = mg_write(c, text, len);
        free(text);
        if (w <= 0)
            break; /* the page went away */
    }
    fsv_live_close(l);
    return 200;
}

/* What a request reaches: the fights, and the pages' files (NULL: none). */
typedef struct serve_ctx {
    fsv_server *s;
    const fsv_web *web;
} serve_ctx;

static int handle(struct mg_connection *c, const serve_ctx *ctx) {
    fsv_server *s = ctx->s;
    const struct mg_request_info *ri = mg_get_request_info(c);
    const char *path = ri->local_uri ? ri->local_uri : "/";
    const char *auth = mg_get_header(c, "Authorization");
    int page_status = 0;
    const char *page_type = NULL, *page_body = NULL;
    size_t page_len = 0;
    if (fsv_web_lookup(ctx->web, ri->request_method, path, &page_status,
                       &page_type, &page_body, &page_len)) {
        send_page(c, page_status, page_type, page_body, page_len);
        return page_status;
    }
    if (fsv_is_live(ri->request_method, path))
        return live(c, s, path, auth);
    fsv_response r;
    if (ri->content_length > FSV_BODY_MAX) {
        fsv_request(s, "POST", "/", NULL, NULL, (size_t)FSV_BODY_MAX + 1, &r);
        send_answer(c, &r, true);
        fsv_response_free(&r);
        return 413;
    }
    /* The body, up to one byte past the limit (a body sent without its
     * length). */
    size_t cap = ri->content_length > 0 ? (size_t)ri->content_length + 1 : 4096;
    size_t n = 0;
    char *body = malloc(cap);
    bool too_long = false;
    while (body) {
        if (n == cap) {
            if (cap > FSV_BODY_MAX) {
                too_long = true;
                break;
            }
            char *p = realloc(body, cap * 2);
            if (!p) {
                free(body);
                body = NULL;
                break;
            }
            body = p;
            cap *= 2;
        }
        int got = mg_read(c, body + n, cap - n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    if (!body) {
        static const char nomem[] = "{\"error\":\"out of memory\"}\n";
        fsv_response x = {500, "application/json", (char *)nomem,
                          sizeof nomem - 1};
        send_answer(c, &x, true);
        return 500;
    }
    /* Issue 19: the query (odds?who=ID) goes to api.c with the path. */
    char with_query[512];
    if (ri->query_string && ri->query_string[0] &&
        snprintf(with_query, sizeof with_query, "%s?%s", path,
                 ri->query_string) < (int)sizeof with_query)
        path = with_query;
    fsv_request(s, ri->request_method, path, auth, body,
                too_long ? (size_t)FSV_BODY_MAX + 1 : n, &r);
    free(body);
    send_answer(c, &r, too_long);
    int st = r.status;
    fsv_response_free(&r);
    return st;
}

/* civetweb's worker threads have small stacks (Debian's build: 100 KiB);
 * loading an encounter and the tactics need more. Each request runs on a
 * thread of its own with the stack of a program's main thread, which the
 * worker waits for. */
enum { REQUEST_STACK = 8 << 20 };

typedef struct request_job {
    struct mg_connection *c;
    const serve_ctx *ctx;
    int status;
} request_job;

static void *request_thread(void *arg) {
    request_job *j = arg;
    j->status = handle(j->c, j->ctx);
    return NULL;
}

static int handler(struct mg_connection *c, void *cb) {
    request_job j = {c, cb, 500};
    pthread_attr_t attr;
    pthread_t t;
    bool started = pthread_attr_init(&attr) == 0;
    if (started) {
        started = pthread_attr_setstacksize(&attr, REQUEST_STACK) == 0 &&
                  pthread_create(&t, &attr, request_thread, &j) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) {
        static const char busy[] =
            "{\"error\":\"the server cannot take this request now (no "
            "thread)\"}\n";
        fsv_response x = {503, "application/json", (char *)busy,
                          sizeof busy - 1};
        send_answer(c, &x, true);
        return 503;
    }
    if (pthread_join(t, NULL) != 0)
        return 500;
    return j.status;
}

static int log_message(const struct mg_connection *c, const char *msg) {
    (void)c;
    fprintf(stderr, "fray serve: %s\n", msg);
    return 1;
}

int fsv_serve(const fsv_serve_options *o) {
    /* SIGINT and SIGTERM are waited for by this thread only: blocked
     * before civetweb's threads start (they inherit the mask). A page
     * that goes away must not kill the server (SIGPIPE). */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    if (pthread_sigmask(SIG_BLOCK, &stop, NULL) != 0) {
        fprintf(stderr, "fray serve: cannot wait for signals\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);

    /* The pages: --web's folder must be read whole; without it, the
     * default folder when there is one. */
    fsv_web *web = NULL;
    char web_dir[4096];
    const char *wdir = o->web;
    if (!wdir && fsv_web_default_dir(web_dir, sizeof web_dir))
        wdir = web_dir;
    if (wdir) {
        fray_diag dw;
        memset(&dw, 0, sizeof dw);
        fray_status sw = fsv_web_open(wdir, &web, &dw);
        if (sw != FRAY_OK) {
            fprintf(stderr, "fray serve: the pages (--web): %s\n",
                    dw.message[0] ? dw.message : fray_strerror(sw));
            return 1;
        }
    }

    fsv_server *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = fsv_open(o->data, o->new_gm_token, stderr, &s, &d);
    if (st != FRAY_OK) {
        fprintf(stderr, "fray serve: %s\n",
                d.message[0] ? d.message : fray_strerror(st));
        fsv_web_free(web);
        return 1;
    }
    serve_ctx sctx = {s, web};
    int failed = 0;
    int resumed = fsv_resumed(s, &failed);

    char ports[300], threads[16];
    bool v6 = strchr(o->listen, ':') != NULL;
    snprintf(ports, sizeof ports, "%s%s%s:%d", v6 ? "[" : "", o->listen,
             v6 ? "]" : "", o->port);
    snprintf(threads, sizeof threads, "%d", o->threads > 0 ? o->threads : 64);
    const char *options[] = {"listening_ports", ports, "num_threads", threads,
                             "enable_keep_alive", "yes",
                             /* Headers and body go out in separate writes:
                              * with Nagle's algorithm each answer waited
                              * for the page's delayed ACK (40 ms). */
                             "tcp_nodelay", "1", NULL};
    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.log_message = log_message;
    mg_init_library(0);
    struct mg_context *ctx = mg_start(&cb, NULL, options);
    if (!ctx) {
        fprintf(stderr, "fray serve: cannot listen on %s (in use, or not an "
                "address of this machine?)\n", ports);
        fray_diag d2;
        if (fsv_close(s, &d2) != FRAY_OK)
            fprintf(stderr, "fray serve: %s\n", d2.message);
        mg_exit_library();
        fsv_web_free(web);
        return 1;
    }
    mg_set_request_handler(ctx, "/", handler, &sctx);
    struct mg_server_port sp[4];
    int np = mg_get_server_ports(ctx, 4, sp);
    int port = np > 0 ? sp[0].port : o->port;
    printf("fray serve: %d fight%s resumed%s from %s\n", resumed,
           resumed == 1 ? "" : "s", failed ? " (some could not be: see above)" : "",
           o->data);
    if (web)
        printf("fray serve: the pages from %s\n", wdir);
    else
        printf("fray serve: no pages (no web/ folder found: --web DIR)\n");
    printf("The GM's link: http://%s%s%s:%d/#gm=%s\n", v6 ? "[" : "",
           o->listen, v6 ? "]" : "", port, fsv_gm_token(s));
    fflush(stdout);

    int sig = 0;
    while (sigwait(&stop, &sig) != 0)
        ;
    fprintf(stderr, "fray serve: %s: stopping\n",
            sig == SIGINT ? "SIGINT" : "SIGTERM");
    fsv_stop(s);
    mg_stop(ctx);
    mg_exit_library();
    fsv_web_free(web);
    fray_diag d3;
    memset(&d3, 0, sizeof d3);
    if (fsv_close(s, &d3) != FRAY_OK) {
        fprintf(stderr, "fray serve: %s\n", d3.message);
        return 2;
    }
    return 0;
}

/*
 * api.h - the server's fights and its HTTP calls without the HTTP
 * (docs/server.md "The HTTP interface"): a request is a method, a path,
 * the Authorization header and a body; the answer is a status, a type and
 * a body. serve.c puts it on civetweb; the tests call it directly.
 *
 * Threads: every call may come from any thread at once. Each fight has
 * its own mutex (a command, a step, a view: one at a time per fight);
 * the store is one SQLite connection used under one mutex (lock order:
 * the fight's, then the store's); the list of fights and of players'
 * tokens has its own mutex, never held while a fight's is taken.
 */
#ifndef FRAY_SERVER_API_H
#define FRAY_SERVER_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fray/common.h"

/* The largest body a request may have (413 above it). */
enum { FSV_BODY_MAX = 1 << 20 };

typedef struct fsv_server fsv_server;

/* An answer: status (200, 201, 4xx, 5xx), its Content-Type (static
 * text) and its body (malloc'd; fsv_response_free). */
typedef struct fsv_response {
    int status;
    const char *type;
    char *body;
    size_t len;
} fsv_response;

void fsv_response_free(fsv_response *r);

/* Opens the server's data folder `data` (made when missing, with
 * encounters/ and fights/ inside), its store (data/fray.sqlite), its GM
 * token (made at the first start, or anew with new_gm_token: 32 bytes of
 * getrandom, in hex) and resumes every fight not archived; a fight that
 * cannot be resumed is said on `log` (which may be NULL) and left out.
 * Errors: FRAY_ERR_IO (the folder, the store, getrandom), FRAY_ERR_NOMEM,
 * FRAY_ERR_INVALID (a store of another format), with diag. */
FRAY_MUST_CHECK fray_status fsv_open(const char *data, bool new_gm_token,
                                     FILE *log, fsv_server **out,
                                     fray_diag *diag);
/* Wakes every live stream to end (fsv_live_next returns -1), for a stop. */
void fsv_stop(fsv_server *s);
/* Frees every fight and closes the store (FRAY_ERR_IO when SQLite cannot:
 * the server is freed anyway). No call may be running. */
FRAY_MUST_CHECK fray_status fsv_close(fsv_server *s, fray_diag *diag);
/* The GM's token (64 hex digits), valid until fsv_close. */
const char *fsv_gm_token(const fsv_server *s);
/* The fights resumed at the start (and those that could not be). */
int fsv_resumed(const fsv_server *s, int *out_failed);

/* One request. authorization: the header's value ("Bearer TOKEN") or
 * NULL; body: len bytes (may be NULL when len is 0). *out is always set
 * (out of memory: a 500 with a static body). */
void fsv_request(fsv_server *s, const char *method, const char *path,
                 const char *authorization, const char *body, size_t len,
                 fsv_response *out);

/* ---- Live streams (GET /api/fights/ID/live) -------------------------------- */

typedef struct fsv_live fsv_live;

/* true when path is a live stream's. */
bool fsv_is_live(const char *method, const char *path);
/* Opens a live stream: *out set, or NULL with the refusal in *refusal
 * (401, 403, 404, 410). */
void fsv_live_open(fsv_server *s, const char *path, const char *authorization,
                   fsv_live **out, fsv_response *refusal);
/* Waits for the next state to send (the first at once): 1 with the
 * event's text in *out (an SSE "event: state" block, malloc'd), 0 when
 * timeout_ms passed without a change (send a keep-alive), -1 when the
 * stream must end (the server stops, the fight was archived, out of
 * memory). */
int fsv_live_next(fsv_live *l, int timeout_ms, char **out, size_t *out_len);
void fsv_live_close(fsv_live *l);

#endif

/*
 * web.h - the pages' files for `fray serve` (docs/server.md "The pages"):
 * the plain HTML, ES modules and CSS of web/, read once at the start and
 * served from memory. A request never names a path on the disk: it names
 * a file of the list read at the start, matched as a whole string.
 *
 * Thread-safety: a fsv_web is read-only once fsv_web_open returned; any
 * number of threads may look files up in it.
 */
#ifndef FRAY_SERVER_WEB_H
#define FRAY_SERVER_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "fray/common.h"

typedef struct fsv_web fsv_web;

/* Reads the pages' folder `dir`: every regular file directly in it (no
 * sub-folders, links not followed) whose name is letters, digits, '-',
 * '_' and one '.' before a known kind (html, js, css, svg, png, ico),
 * at most 64 files of at most 2 MiB each. The folder must hold
 * index.html. Errors: FRAY_ERR_IO (the folder or a file cannot be read,
 * no index.html, too many or too large files), FRAY_ERR_NOMEM, with diag. */
FRAY_MUST_CHECK fray_status fsv_web_open(const char *dir, fsv_web **out,
                                         fray_diag *diag);
void fsv_web_free(fsv_web *w);
/* How many files were read. */
int fsv_web_count(const fsv_web *w);

/* The pages' folder when --web is not given: `share/fray/web` beside the
 * program's folder (PREFIX/bin/fray -> PREFIX/share/fray/web), else the
 * source tree's web/ this program was built from (a build directory's
 * program). Writes it to buf and returns true when one holds index.html;
 * false when neither does. */
bool fsv_web_default_dir(char *buf, size_t size);

/* Looks a request up: true when path is one of the pages' (`/`,
 * `/index.html`, `/web/NAME`), with the answer's status (200, 404, 405),
 * its Content-Type and its body (borrowed from w, or static text: valid
 * until fsv_web_free). false: not a page's path (the API's). */
bool fsv_web_lookup(const fsv_web *w, const char *method, const char *path,
                    int *out_status, const char **out_type,
                    const char **out_body, size_t *out_len);

#endif

/*
 * The pages' files of `fray serve` (src/server/web.c; docs/server.md "The
 * pages"; issue 14 "no path from a request reaches outside"): a list read
 * at the start, served from memory, looked up by whole names; links,
 * folders, dot files and other kinds are not the pages'; `..` names
 * nothing. tests/web/run_web.sh drives the pages themselves in chromium.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "web.h"

static char dir[64];

static void put(const char *name, const char *text) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f, "%s", p);
    cr_assert(fputs(text, f) >= 0);
    cr_assert_eq(fclose(f), 0);
}

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/fray-web-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static fsv_web *open_web(void) {
    fsv_web *w = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fsv_web_open(dir, &w, &d), FRAY_OK, "%s", d.message);
    return w;
}

/* The status of GET path (0: not a page's path). */
static int get(const fsv_web *w, const char *method, const char *path,
               const char **body, const char **type) {
    int st = 0;
    size_t len = 0;
    const char *b = NULL, *t = NULL;
    if (!fsv_web_lookup(w, method, path, &st, &t, &b, &len))
        return 0;
    if (body)
        *body = b;
    if (type)
        *type = t;
    return st;
}

Test(server_web, the_pages_are_the_files_read_at_the_start) {
    make_dir();
    put("index.html", "<!DOCTYPE html><p>the page</p>");
    put("app.js", "export const x = 1;");
    put("style.css", "body{}");
    fsv_web *w = open_web();
    cr_assert_eq(fsv_web_count(w), 3);
    const char *body, *type;
    cr_assert_eq(get(w, "GET", "/", &body, &type), 200);
    cr_assert(strstr(body, "the page"));
    cr_assert(strstr(type, "text/html"));
    cr_assert_eq(get(w, "GET", "/index.html", NULL, NULL), 200);
    cr_assert_eq(get(w, "GET", "/web/app.js", &body, &type), 200);
    cr_assert(strstr(type, "text/javascript"), "modules need a JavaScript type");
    cr_assert_str_eq(body, "export const x = 1;");
    cr_assert_eq(get(w, "GET", "/web/style.css", NULL, &type), 200);
    cr_assert(strstr(type, "text/css"));
    /* Served from memory: a file changed or made after the start is not. */
    put("late.js", "late");
    cr_assert_eq(get(w, "GET", "/web/late.js", NULL, NULL), 404);
    /* The API's paths are not the pages'; other methods are refused. */
    cr_assert_eq(get(w, "GET", "/api/health", NULL, NULL), 0);
    cr_assert_eq(get(w, "POST", "/web/app.js", NULL, NULL), 405);
    cr_assert_eq(get(w, "POST", "/", NULL, NULL), 0, "POST / is the API's 405");
    fsv_web_free(w);
    remove_dir();
}

/* Issue 14 "Safety": no path from a request reaches outside. */
Test(server_web, no_request_names_a_path_outside_the_list) {
    make_dir();
    put("index.html", "page");
    put(".secret.js", "dot file");
    put("notes.txt", "another kind");
    put("two.dots.js", "two dots");
    char p[256], q[256];
    snprintf(p, sizeof p, "%s/sub", dir);
    cr_assert_eq(mkdir(p, 0700), 0);
    put("sub/inner.js", "in a folder");
    snprintf(p, sizeof p, "%s/link.js", dir);
    snprintf(q, sizeof q, "%s/index.html", dir);
    cr_assert_eq(symlink(q, p), 0);
    snprintf(p, sizeof p, "%s/passwd.js", dir);
    cr_assert_eq(symlink("/etc/passwd", p), 0);
    fsv_web *w = open_web();
    cr_assert_eq(fsv_web_count(w), 1, "only index.html is a page's file");
    static const char *const refused[] = {
        "/web/.secret.js", "/web/notes.txt", "/web/two.dots.js",
        "/web/sub/inner.js", "/web/link.js", "/web/passwd.js",
        "/web/../index.html", "/web/./index.html", "/web/%2e%2e/fray.sqlite",
        "/web/", "/web//etc/passwd", "/web/index.html/",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        cr_assert_eq(get(w, "GET", refused[i], NULL, NULL), 404, "%s",
                     refused[i]);
    fsv_web_free(w);
    remove_dir();
}

Test(server_web, a_folder_without_index_html_is_refused) {
    make_dir();
    put("app.js", "x");
    fsv_web *w = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fsv_web_open(dir, &w, &d), FRAY_ERR_IO);
    cr_assert_null(w);
    cr_assert(strstr(d.message, "index.html"), "%s", d.message);
    char missing[128];
    snprintf(missing, sizeof missing, "%s/nowhere", dir);
    cr_assert_eq(fsv_web_open(missing, &w, &d), FRAY_ERR_IO);
    cr_assert(strstr(d.message, "nowhere"), "%s", d.message);
    remove_dir();
}

/* No pages: GET / stays the API's list of calls. */
Test(server_web, without_pages_the_root_is_the_apis) {
    cr_assert_eq(get(NULL, "GET", "/", NULL, NULL), 0);
    cr_assert_eq(get(NULL, "GET", "/web/app.js", NULL, NULL), 404);
}

/* The default folder: the source tree's web/ for this build's programs. */
Test(server_web, the_default_folder_is_found) {
    char buf[4096];
    cr_assert(fsv_web_default_dir(buf, sizeof buf));
    char p[4200];
    snprintf(p, sizeof p, "%s/index.html", buf);
    cr_assert_eq(access(p, R_OK), 0, "%s", p);
}

/*
 * web.c - the pages' files (web.h; docs/server.md "The pages"): a list
 * read at the start, served from memory, looked up by whole names.
 */
#define _POSIX_C_SOURCE 200809L /* openat, fdopendir, O_NOFOLLOW */
#include "web.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { WEB_MAX_FILES = 64, WEB_MAX_FILE = 2 << 20, WEB_NAME = 64 };

typedef struct web_file {
    char name[WEB_NAME];
    const char *type;
    char *body;
    size_t len;
} web_file;

struct fsv_web {
    int n;
    web_file files[WEB_MAX_FILES];
};

static const struct {
    const char *ext;
    const char *type;
} KINDS[] = {
    {"html", "text/html; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"ico", "image/x-icon"},
};

/* The Content-Type of a name the pages may serve; NULL for any other
 * name (dot files, two dots, other characters, other kinds). */
static const char *kind_of(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n >= WEB_NAME)
        return NULL;
    const char *dot = NULL;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c == '.') {
            if (dot || i == 0)
                return NULL;
            dot = name + i;
        } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                     (c >= '0' && c <= '9') || c == '-' || c == '_')) {
            return NULL;
        }
    }
    if (!dot)
        return NULL;
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++)
        if (strcmp(dot + 1, KINDS[k].ext) == 0)
            return KINDS[k].type;
    return NULL;
}

static void diag_set(fray_diag *diag, const char *file, const char *msg) {
    if (!diag)
        return;
    memset(diag, 0, sizeof *diag);
    /* (cut to fit: a file name longer than these is cut short) */
    size_t flen = strnlen(file, sizeof diag->file_name - 1);
    memcpy(diag->file_name, file, flen);
    diag->file_name[flen] = '\0';
    diag->file = diag->file_name;
    snprintf(diag->message, sizeof diag->message, "%.100s: %.150s", file, msg);
}

/* Reads the regular file `name` in the folder dfd (no link followed). */
static fray_status read_file(int dfd, const char *dir, const char *name,
                             web_file *f, fray_diag *diag) {
    char where[600];
    snprintf(where, sizeof where, "%s/%s", dir, name);
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        diag_set(diag, where, strerror(errno));
        return FRAY_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        diag_set(diag, where, "not a regular file");
        return FRAY_ERR_IO;
    }
    if (st.st_size > WEB_MAX_FILE) {
        close(fd);
        diag_set(diag, where, "larger than 2 MiB");
        return FRAY_ERR_IO;
    }
    size_t size = (size_t)st.st_size;
    char *body = malloc(size + 1);
    if (!body) {
        close(fd);
        return FRAY_ERR_NOMEM;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, body + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            free(body);
            close(fd);
            diag_set(diag, where, r < 0 ? strerror(errno) : "shorter than it said");
            return FRAY_ERR_IO;
        }
        got += (size_t)r;
    }
    if (close(fd) != 0) {
        free(body);
        diag_set(diag, where, strerror(errno));
        return FRAY_ERR_IO;
    }
    body[size] = '\0';
    snprintf(f->name, sizeof f->name, "%s", name);
    f->body = body;
    f->len = size;
    return FRAY_OK;
}

fray_status fsv_web_open(const char *dir, fsv_web **out, fray_diag *diag) {
    *out = NULL;
    fsv_web *w = calloc(1, sizeof *w);
    if (!w)
        return FRAY_ERR_NOMEM;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        diag_set(diag, dir, dfd < 0 ? strerror(errno) : "cannot be listed");
        if (dfd >= 0)
            close(dfd);
        free(w);
        return FRAY_ERR_IO;
    }
    fray_status st = FRAY_OK;
    bool index = false;
    struct dirent *e;
    while (st == FRAY_OK && (e = readdir(d)) != NULL) {
        const char *type = kind_of(e->d_name);
        if (!type)
            continue;
        if (w->n == WEB_MAX_FILES) {
            diag_set(diag, dir, "more than 64 files for the pages");
            st = FRAY_ERR_IO;
            break;
        }
        struct stat sb;
        if (fstatat(dfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode))
            continue; /* links and folders are not the pages' */
        st = read_file(dfd, dir, e->d_name, &w->files[w->n], diag);
        if (st == FRAY_OK) {
            w->files[w->n].type = type;
            index |= strcmp(e->d_name, "index.html") == 0;
            w->n++;
        }
    }
    closedir(d); /* closes dfd */
    if (st == FRAY_OK && !index) {
        diag_set(diag, dir, "holds no index.html");
        st = FRAY_ERR_IO;
    }
    if (st != FRAY_OK) {
        fsv_web_free(w);
        return st;
    }
    *out = w;
    return FRAY_OK;
}

void fsv_web_free(fsv_web *w) {
    if (!w)
        return;
    for (int i = 0; i < w->n; i++)
        free(w->files[i].body);
    free(w);
}

int fsv_web_count(const fsv_web *w) { return w ? w->n : 0; }

static bool has_index(const char *dir) {
    char p[4200];
    int k = snprintf(p, sizeof p, "%s/index.html", dir);
    struct stat sb;
    return k > 0 && (size_t)k < sizeof p && stat(p, &sb) == 0 &&
           S_ISREG(sb.st_mode);
}

bool fsv_web_default_dir(char *buf, size_t size) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
#ifdef FRAY_WEB_FROM_BIN
            int k = snprintf(buf, size, "%s/%s", exe, FRAY_WEB_FROM_BIN);
#else
            int k = snprintf(buf, size, "%s/../share/fray/web", exe);
#endif
            if (k > 0 && (size_t)k < size && has_index(buf))
                return true;
        }
    }
#ifdef FRAY_WEB_SOURCE_DIR
    int k = snprintf(buf, size, "%s", FRAY_WEB_SOURCE_DIR);
    if (k > 0 && (size_t)k < size && has_index(buf))
        return true;
#endif
    if (size)
        buf[0] = '\0';
    return false;
}

static const char NOT_FOUND[] =
    "{\"error\":\"no such file of the pages (GET / is the page)\"}\n";
static const char ONLY_GET[] = "{\"error\":\"the pages' files: only GET\"}\n";

bool fsv_web_lookup(const fsv_web *w, const char *method, const char *path,
                    int *out_status, const char **out_type,
                    const char **out_body, size_t *out_len) {
    const char *name;
    bool root = strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0;
    if (root)
        name = "index.html";
    else if (strncmp(path, "/web/", 5) == 0)
        name = path + 5;
    else
        return false;
    if (strcmp(method, "GET") != 0) {
        if (root)
            return false; /* the API's own answer (405) */
        *out_status = 405;
        *out_type = "application/json";
        *out_body = ONLY_GET;
        *out_len = sizeof ONLY_GET - 1;
        return true;
    }
    for (int i = 0; w && i < w->n; i++) {
        if (strcmp(w->files[i].name, name) == 0) {
            *out_status = 200;
            *out_type = w->files[i].type;
            *out_body = w->files[i].body;
            *out_len = w->files[i].len;
            return true;
        }
    }
    if (root)
        return false; /* no pages: the API's list of calls */
    *out_status = 404;
    *out_type = "application/json";
    *out_body = NOT_FOUND;
    *out_len = sizeof NOT_FOUND - 1;
    return true;
}

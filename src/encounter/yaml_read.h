/*
 * yaml_read.h - reading fray's YAML (and JSON) data files into a small
 * tree whose every node keeps its file, line and column, and reading
 * values from it with errors in the form file:line:column: what was
 * expected (docs/file-formats.md "Errors", "Limits").
 *
 * The code is 99 Towers' reader, taken out of src/rules/towers/load.c
 * (which now uses it under its old names) so that every ruleset's loader
 * reads files the same way; Alloy's loader (src/rules/alloy/load.c) uses
 * it too.
 *
 * Memory: the tree and every string live in an arena of chunks taken from
 * the caller's fray_allocator and freed in one go (yr_free_all).
 * Errors: the first one is kept (yr_fail returns it ever after) and handed
 * to a fray_diag by yr_publish. Not thread-safe per reader; readers share
 * nothing.
 */
#ifndef FRAY_YAML_READ_H
#define FRAY_YAML_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/grid.h"

enum {
    YR_CHUNK = 64 * 1024,
    YR_MAX_DEPTH = 64,
    /* What one load may hold (docs/file-formats.md "Limits"). */
    YR_MAX_FILE_BYTES = 1024 * 1024,
    YR_MAX_TOTAL_BYTES = 4 * 1024 * 1024,
    YR_MAX_NODES = 100000
};

typedef struct yr_chunk {
    struct yr_chunk *next;
    size_t size; /* bytes after the header */
    size_t used;
} yr_chunk;

/* A node of the document tree. */
enum { YN_SCALAR, YN_SEQ, YN_MAP };
typedef struct yn {
    struct yn *first, *last, *next; /* items of a list; keys of a mapping */
    struct yn *value;               /* a mapping's key: its value */
    struct yn *pending;             /* while building a mapping: a key */
    const char *text;               /* scalars: NUL-terminated */
    size_t len;
    size_t pos;                     /* byte offset of a scalar in its file */
    const char *src;                /* the file's text (for map art columns) */
    size_t src_len;
    int line, col;                  /* 1-based */
    int n;                          /* items or keys */
    uint8_t type;
    uint8_t style;                  /* scalars: enum fy_scalar_style */
    uint8_t tag;                    /* enum yn_tag */
    const char *tag_src;            /* the tag as written, or NULL */
} yn;

/* The YAML tags fray honours, as assertions of a node's type (YAML 1.2
 * "Core Schema"); any other tag is refused. */
enum yn_tag { YT_NONE, YT_STR, YT_INT, YT_FLOAT, YT_BOOL, YT_NULL, YT_SEQ,
              YT_MAP, YT_OTHER };

/* The reader. Zero it, set alloc (NULL: malloc), top_paths/n_top (the
 * caller's paths: errors in them point at the caller's string) and,
 * to read the first file from memory, mem_text/mem_len. */
typedef struct yr {
    const fray_allocator *alloc;
    yr_chunk *chunks;
    /* The first error. */
    fray_status err;
    char msg[256];
    const char *err_file;
    int err_line, err_col;
    /* Files. */
    const char *const *top_paths; /* borrowed */
    int n_top;
    const char *cur_file;         /* display path of the file being read */
    const yn *tag_bad;            /* its first node with a tag it breaks, */
    yn tag_at;                    /* and where that tag is */
    const char *mem_text;
    size_t mem_len;
    size_t total_bytes;           /* of the files read so far */
    long n_nodes;                 /* values in their trees */
    bool suggest_keys;            /* yr_keys: "did you mean" for a near miss
                                     (Alloy; 99 Towers lists the keys) */
    struct fray__files *files;    /* when set: every file read from the disk
                                     is added to it (fray_setup_file_path) */
} yr;

/* Arena (zeroed memory; NULL when out of memory). */
void *yr_alloc(yr *L, size_t size);
void yr_free_all(yr *L);
char *yr_strndup(yr *L, const char *s, size_t n);

/* Errors: keeps the first (at `at`'s line and column in L->cur_file) and
 * returns it. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
fray_status yr_fail(yr *L, const yn *at, fray_status status, const char *fmt, ...);
/* An error at line:column of a map's ASCII art (gd, 1-based within the
 * art, from fray_grid_parse) as one of the file: exact for a literal
 * block (art: |), else the art's own place with the map's row and
 * column in the message. */
fray_status yr_fail_in_art(yr *L, const yn *art, const fray_diag *gd,
                           fray_status status);
fray_status yr_nomem(yr *L);
/* The first error into diag: a file other than the caller's is copied
 * into diag->file_name (diag->file NULL). */
void yr_publish(const yr *L, fray_diag *diag);

/* Text. */
bool yr_ieq(const char *a, const char *b);
bool yr_ieqn(const char *a, size_t n, const char *b);
int yr_find_name(const char *s, const char *const *names, int count);
const char *yr_join_names(char *buf, size_t size, const char *const *names,
                          int count);
int yr_distance(const char *a, const char *b); /* Levenshtein, without case */
bool yr_parse_long(const char *s, long *out);
bool yr_node_long(const yn *n, long *out);
void yr_copy(char *dst, size_t size, const char *src);

/* The tree. */
bool yr_is_null(const yn *n);
const char *yr_got(const yn *n, char buf[64]); /* "'three'", "a list" ... */
const yn *yr_items(const yn *n);   /* a single value stands for a list of one */
const yn *yr_next_item(const yn *list, const yn *it);
int yr_n_items(const yn *n);
const yn *yr_key_node(const yn *map, const char *key, bool nocase);
const yn *yr_get(const yn *map, const char *key);

/* Files: reads (regular files only, within the limits) and parses one
 * into a tree; `display` becomes L->cur_file. Errors opening it are
 * blamed on `from` (NULL: the caller's file). */
fray_status yr_read_text(yr *L, const char *path, const char *display,
                         const yn *from, char **out, size_t *out_len);
fray_status yr_check_text(yr *L, const char *text, size_t len);
fray_status yr_parse_file(yr *L, const char *path, const char *display,
                          const yn *from, yn **out_root);
/* The deferred tag error of the file just parsed (told once the file has
 * shown it is a fray file). */
fray_status yr_tag_check(yr *L);
/* A ruleset's data file, opened for one load: read once (by its real
 * path, remembered in seen[0 .. *n_seen - 1], at most max_seen, in the
 * reader's memory; *root is NULL when this load read it before), parsed,
 * and shown to be a file of the ruleset: a mapping whose `fray:` is one
 * of `kinds` (*kind its index) and whose `rules:` is the word `rules`;
 * `title` names the ruleset in the messages ("expected a D6 file ...").
 * The deferred tag error follows. Afterwards L->cur_file is the file's
 * own: the caller restores its own when done with it. */
fray_status yr_open_rules_file(yr *L, const char *path, const yn *from,
                               char **seen, int *n_seen, int max_seen,
                               const char *rules, const char *title,
                               const char *const *kinds, int n_kinds,
                               yn **root, int *kind);

/* Values. `what` names the value in rules words ("Reflex", "a stat
 * block"). */
fray_status yr_keys(yr *L, const yn *map, const char *what,
                    const char *const *keys, int n_keys, bool nocase);
fray_status yr_missing(yr *L, const yn *map, const char *key, const char *what);
fray_status yr_int(yr *L, const yn *n, const char *what, long lo, long hi,
                   int *out);
fray_status yr_bool(yr *L, const yn *n, const char *what, bool *out);
fray_status yr_text(yr *L, const yn *n, const char *what, char *buf, size_t size);
fray_status yr_choice(yr *L, const yn *n, const char *what,
                      const char *const *names, int count, int *out);
fray_status yr_pos(yr *L, const yn *n, const char *what, fray_pos *out);
/* "unknown WHAT 'name' (did you mean 'x'?)" or "; known: a, b, c". */
fray_status yr_unknown(yr *L, const yn *at, const char *what, const char *name,
                       const char *const *names, int count, const char *none_hint);

/* The files one load read from the disk (fray_setup_file_count,
 * include/fray/fight.h): each once, by its real path (absolute, links
 * resolved), in the order first read. Memory from alloc (NULL: malloc). */
typedef struct fray__files {
    const fray_allocator *alloc; /* borrowed; the setup's own allocator */
    char **path;
    int n, cap;
} fray__files;

/* Adds path's real path (path itself when it has none) unless it is
 * there; FRAY_ERR_NOMEM. */
fray_status fray__files_add(fray__files *l, const char *path);
/* Frees the paths (the struct itself is the caller's). */
void fray__files_free(fray__files *l);

#endif

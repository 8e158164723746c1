/* journal.c - the fight's journal on disk (docs/journal.md "On disk"):
 * written whole through a new file and an atomic rename, never over the
 * old file in place; at the table, written ahead: each event is appended
 * and synced when the command is acknowledged, before it is told, so that
 * the file always replays to the state the game master was last told. */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp, fchmod, O_DIRECTORY */

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fray/encounter.h"

/* ---- Bytes to a file descriptor ------------------------------------------- */

/* A growing byte buffer: the lines to write in one go. */
typedef struct bytes {
    char *p;
    size_t len, cap;
    bool failed; /* out of memory */
} bytes;

static void bytes_add(bytes *b, const char *s, size_t n) {
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* Event i's line (its JSON and a newline). */
static void bytes_event(bytes *b, const fray_fight *f, int i) {
    size_t n = fray_event_json(f, i, NULL, 0);
    char *line = malloc(n + 1);
    if (!line) {
        b->failed = true;
        return;
    }
    fray_event_json(f, i, line, n + 1);
    bytes_add(b, line, n);
    bytes_add(b, "\n", 1);
    free(line);
}

static void bytes_mark(bytes *b, fray_mark mark, int n) {
    char line[64];
    size_t len = fray_journal_mark(mark, n, line, sizeof line);
    if (len >= sizeof line) {
        b->failed = true;
        return;
    }
    bytes_add(b, line, len);
    bytes_add(b, "\n", 1);
}

/* The whole journal of the fight: every event recorded, the undone ones
 * kept for redo with their undo marks (so that redo still replays), and
 * with `end` the end mark. */
static void bytes_journal(bytes *b, const fray_fight *f, bool end) {
    int n = fray_fight_events(f);
    int kept = fray_fight_recorded(f);
    for (int i = 0; i < kept; i++)
        bytes_event(b, f, i);
    for (int i = kept - 1; i >= n; i--)
        bytes_mark(b, FRAY_MARK_UNDO, i);
    if (end)
        bytes_mark(b, FRAY_MARK_END, n);
}

/* ---- Reading ---------------------------------------------------------------- */

char *cli_read_journal(const char *path, size_t *out_len) {
    /* Opened without waiting (a FIFO without a writer would hang the
     * open), then read as usual: a regular file or a pipe (`<(...)`), up
     * to CLI_JOURNAL_MAX bytes, so that neither a device (/dev/zero) nor
     * an endless pipe can take all the memory. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    const char *refused = NULL;
    int e = 0;
    if (fstat(fd, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        refused = "it is a folder";
    else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        refused = "it is a device or socket, not a file";
    int flags = e || refused ? 0 : fcntl(fd, F_GETFL);
    if (!e && !refused &&
        (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0))
        e = errno;
    size_t cap = 65536, n = 0;
    char *buf = e || refused ? NULL : malloc(cap);
    if (!e && !refused && !buf)
        e = ENOMEM;
    while (buf) {
        if (n + 1 == cap) {
            if (cap > CLI_JOURNAL_MAX) {
                refused = "it is larger than the 256 MiB a journal may be";
                break;
            }
            char *p = realloc(buf, cap * 2);
            if (!p) {
                e = ENOMEM;
                break;
            }
            buf = p;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            e = errno;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (close(fd) != 0 && e == 0 && !refused)
        e = errno;
    if (e != 0 || refused) {
        free(buf);
        if (refused)
            fprintf(stderr, "%s: cannot read the journal: %s\n", path,
                    refused);
        else
            fprintf(stderr, "%s: %s\n", path, strerror(e));
        return NULL;
    }
    buf[n] = '\0';
    *out_len = n;
    return buf;
}

fray_status cli_replay_journal(fray_fight *f, const char *path,
                               const char *text, size_t len) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_replay_info info;
    fray_status st = fray_fight_replay_journal(f, text, len, &info,
                                                      &diag);
    if (st != FRAY_OK) {
        const char *msg = diag.message[0] ? diag.message : fray_strerror(st);
        /* JOURNAL:LINE:COLUMN: message, as fray check reports files (the
         * column when it is known). */
        if (diag.line > 0 && diag.column > 0)
            fprintf(stderr, "%s:%d:%d: %s\n", path, diag.line, diag.column,
                    msg);
        else if (diag.line > 0)
            fprintf(stderr, "%s:%d: %s\n", path, diag.line, msg);
        else
            fprintf(stderr, "%s: %s\n", path, msg);
        return st;
    }
    int last = fray_fight_events(f) - 1;
    if (info.torn)
        fprintf(stderr, "warning: %s: the journal was cut short after event "
                "%d (its last line, %d, was cut in the middle and is left "
                "out)\n", path, last, info.lines);
    else if (!info.ended)
        fprintf(stderr, "warning: %s: the journal was cut short after event "
                "%d (it has no end mark: the session did not end)\n", path,
                last);
    return FRAY_OK;
}

bool cli_write_journal(const fray_fight *f, const char *path) {
    bytes b = {NULL, 0, 0, false};
    bytes_journal(&b, f, true);
    bool ok = !b.failed;
    if (!ok) {
        fprintf(stderr, "error: out of memory writing the journal\n");
    } else if (strcmp(path, "-") == 0) {
        ok = fwrite(b.p, 1, b.len, stdout) == b.len && fflush(stdout) == 0;
        if (!ok)
            fprintf(stderr, "error: cannot write the journal to standard "
                    "output: %s\n", strerror(errno));
    } else {
        ok = cli_write_whole(path, "the journal", b.p ? b.p : "", b.len, NULL);
    }
    free(b.p);
    return ok;
}

/* ---- Written ahead, at the table -------------------------------------------- */

bool cli_journal_start(cli_journal *j, const char *path,
                       const fray_fight *f) {
    memset(j, 0, sizeof *j);
    j->fd = -1;
    bytes b = {NULL, 0, 0, false};
    bytes_journal(&b, f, false);
    if (b.failed) {
        free(b.p);
        fprintf(stderr, "error: out of memory writing the journal\n");
        return false;
    }
    int fd = -1;
    bool ok = cli_write_whole(path, "the journal", b.p ? b.p : "", b.len, &fd);
    free(b.p);
    if (!ok)
        return false;
    j->fd = fd;
    j->path = path;
    j->size = (long long)b.len; /* (a buffer in memory: below LLONG_MAX) */
    return true;
}

/* Appends the bytes and syncs them; on failure cuts the file back to what
 * it held (a journal still whole up to its last line). */
static bool journal_append(cli_journal *j, bytes *b) {
    if (j->fd < 0)
        return false;
    if (b->failed) {
        fprintf(stderr, "error: out of memory writing the journal '%s'\n",
                j->path);
        return false;
    }
    if (b->len > (size_t)LLONG_MAX - (size_t)j->size) {
        errno = EFBIG;
    } else if (cli_write_all(j->fd, b->p, b->len) && fsync(j->fd) == 0) {
        j->size += (long long)b->len; /* (checked above) */
        return true;
    }
    int e = errno;
    fprintf(stderr, "error: cannot write to the journal '%s': %s\n", j->path,
            strerror(e));
    if (ftruncate(j->fd, (off_t)j->size) != 0 || fsync(j->fd) != 0)
        fprintf(stderr, "error: cannot cut the journal '%s' back to its "
                "last whole line: %s\n", j->path, strerror(errno));
    return false;
}

bool cli_journal_events(cli_journal *j, const fray_fight *f, int from,
                        int to) {
    if (from >= to)
        return true;
    bytes b = {NULL, 0, 0, false};
    for (int i = from; i < to; i++)
        bytes_event(&b, f, i);
    bool ok = journal_append(j, &b);
    free(b.p);
    return ok;
}

bool cli_journal_mark(cli_journal *j, fray_mark mark, int n) {
    bytes b = {NULL, 0, 0, false};
    bytes_mark(&b, mark, n);
    bool ok = journal_append(j, &b);
    free(b.p);
    return ok;
}

bool cli_journal_close(cli_journal *j, int end_events) {
    if (j->fd < 0)
        return true;
    bool ok = end_events < 0 ||
              cli_journal_mark(j, FRAY_MARK_END, end_events);
    if (close(j->fd) != 0 && ok) {
        fprintf(stderr, "error: cannot write the journal '%s': %s\n", j->path,
                strerror(errno));
        ok = false;
    }
    j->fd = -1;
    return ok;
}

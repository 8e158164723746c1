/*
 * bench_serve.c - `fray serve` under a table's load (issue 14 "Speed"; a
 * benchmark, not a test): starts the server (the fray program: its path
 * as the first argument, else the `fray` beside this program) on a free
 * loopback port with a temporary data folder holding the 99 Towers
 * skirmish, opens PAGES live streams (GET /api/fights/ID/live, half with
 * the GM's token, half with a player's), sends RATE commands a second
 * for SECONDS seconds (`step`, then `undo`, alternating: the fight never
 * ends), and reports the median, 99th percentile and maximum of the time
 * from sending a command to the last of the pages reading the state event
 * it caused (or a later one), with one line of progress a second.
 *
 *   bench_serve [FRAY] [--pages N] [--rate R] [--seconds S] [--quick]
 *
 * Defaults: 50 pages, 20 commands a second, 10 seconds (--quick: 4 pages,
 * 1 second, for CTest's smoke run). A plain C client over loopback
 * sockets: no dependency. Exit status 1 when the server does not start,
 * a command is refused, or a page misses a command's state.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, kill, strdup */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

enum { PAGES_MAX = 1000 };

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_until(double t) {
    for (;;) {
        double d = t - now_s();
        if (d <= 0)
            return;
        struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

/* ---- The data folder ------------------------------------------------------------ */

static bool copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb");
    if (!in) {
        fprintf(stderr, "bench_serve: %s: %s\n", from, strerror(errno));
        return false;
    }
    FILE *out = fopen(to, "wb");
    if (!out) {
        fprintf(stderr, "bench_serve: %s: %s\n", to, strerror(errno));
        fclose(in);
        return false;
    }
    char buf[65536];
    size_t n;
    bool ok = true;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    ok = ok && !ferror(in);
    fclose(in);
    if (fclose(out) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "bench_serve: cannot copy %s to %s\n", from, to);
    return ok;
}

static bool make_data(const char *dir) {
    static const char *const dirs[] = {"encounters", "encounters/examples",
                                       "encounters/examples/towers",
                                       "encounters/data",
                                       "encounters/data/towers"};
    char path[1024], src[1024];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        if (mkdir(path, 0755) != 0) {
            fprintf(stderr, "bench_serve: %s: %s\n", path, strerror(errno));
            return false;
        }
    }
    static const char *const files[] = {"examples/towers/skirmish.yaml",
                                        "examples/towers/statblocks.yaml",
                                        "data/towers/equipment.yaml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(src, sizeof src, "%s/%s", FRAY_SOURCE_DIR, files[i]);
        snprintf(path, sizeof path, "%s/encounters/%s", dir, files[i]);
        if (!copy_file(src, path))
            return false;
    }
    return true;
}

/* ---- The server ------------------------------------------------------------------- */

typedef struct server {
    pid_t pid;
    int port;
    char token[80];
} server;

/* Starts `fray serve --port 0 --data dir`; reads its link. */
static bool start_server(const char *fray, const char *dir, int threads,
                         server *sv) {
    int fds[2];
    if (pipe(fds) != 0) {
        perror("bench_serve: pipe");
        return false;
    }
    char th[16];
    snprintf(th, sizeof th, "%d", threads);
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_serve: fork");
        return false;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execl(fray, fray, "serve", "--port", "0", "--data", dir, "--threads",
              th, (char *)NULL);
        fprintf(stderr, "bench_serve: cannot run %s: %s\n", fray,
                strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    sv->pid = pid;
    FILE *out = fdopen(fds[0], "r");
    if (!out) {
        close(fds[0]);
        return false;
    }
    char line[512];
    bool ok = false;
    while (fgets(line, sizeof line, out)) {
        const char *p = strstr(line, "http://127.0.0.1:");
        if (!p)
            continue;
        sv->port = atoi(p + strlen("http://127.0.0.1:"));
        const char *t = strstr(line, "#gm=");
        if (t && sv->port > 0) {
            snprintf(sv->token, sizeof sv->token, "%.64s", t + 4);
            ok = strlen(sv->token) == 64;
        }
        break;
    }
    fclose(out); /* (the server's later output goes nowhere) */
    if (!ok)
        fprintf(stderr, "bench_serve: the server did not print its link\n");
    return ok;
}

static void stop_server(server *sv) {
    if (sv->pid <= 0)
        return;
    if (kill(sv->pid, SIGTERM) != 0)
        perror("bench_serve: kill");
    int st = 0;
    if (waitpid(sv->pid, &st, 0) < 0)
        perror("bench_serve: waitpid");
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fprintf(stderr, "bench_serve: the server stopped with status %d\n",
                WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    sv->pid = 0;
}

/* ---- HTTP -------------------------------------------------------------------------- */

static int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
        close(fd);
        return -1;
    }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* One request on a kept-alive connection; the status, the body in body
 * (cut to size). -1 when the connection fails. */
static int request(int fd, const char *method, const char *path,
                   const char *token, const char *body, char *out,
                   size_t size) {
    char req[2048];
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Authorization: Bearer %s\r\nContent-Length: %zu\r\n"
                     "Content-Type: application/json\r\n\r\n%s",
                     method, path, token, body ? strlen(body) : 0,
                     body ? body : "");
    if (n < 0 || (size_t)n >= sizeof req || !write_all(fd, req, (size_t)n))
        return -1;
    static char buf[1 << 20]; /* (the main thread's only) */
    size_t have = 0;
    buf[0] = '\0';
    char *end = NULL;
    while (!(end = strstr(buf, "\r\n\r\n"))) {
        if (have + 1 >= sizeof buf)
            return -1;
        ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
        if (r <= 0)
            return -1;
        have += (size_t)r;
        buf[have] = '\0';
    }
    int status = atoi(buf + 9);
    const char *cl = strstr(buf, "Content-Length:");
    size_t len = cl && cl < end ? (size_t)strtoul(cl + 15, NULL, 10) : 0;
    size_t head = (size_t)(end + 4 - buf);
    while (have < head + len) {
        if (have + 1 >= sizeof buf)
            return -1;
        ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
        if (r <= 0)
            return -1;
        have += (size_t)r;
    }
    buf[head + len] = '\0';
    snprintf(out, size, "%s", buf + head);
    return status;
}

/* ---- The pages ----------------------------------------------------------------------- */

typedef struct page {
    int fd;
    char *buf;
    size_t len, cap;
    bool headers;          /* the response's headers were read */
    int64_t last;          /* the last change it read */
    double *at;            /* at[k]: when it first read a change >= base + k */
    int64_t filled;        /* at[0 .. filled) are set */
} page;

typedef struct bench {
    int n_pages;
    page *pages;
    int64_t base;          /* the change before the first command */
    int64_t n_cmds;        /* room in each page's at[] */
    double *sent;          /* sent[k]: when command k + 1 went */
    pthread_mutex_t mu;
    atomic_bool stop;
    atomic_bool failed;
} bench;

/* A state event's change number (-1 when there is none). */
static int64_t change_of(const char *block, size_t n) {
    static const char key[] = "\"change\":";
    const char *end = block + n;
    for (const char *p = block; p + sizeof key - 1 < end; p++)
        if (memcmp(p, key, sizeof key - 1) == 0)
            return strtoll(p + sizeof key - 1, NULL, 10);
    return -1;
}

/* Reads what page p's stream sent; records the state events. */
static bool page_read(bench *b, page *p, double t) {
    if (p->len + 65536 > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 1 << 18;
        char *nb = realloc(p->buf, cap);
        if (!nb)
            return false;
        p->buf = nb;
        p->cap = cap;
    }
    ssize_t r = read(p->fd, p->buf + p->len, p->cap - p->len - 1);
    if (r <= 0)
        return false;
    p->len += (size_t)r;
    p->buf[p->len] = '\0';
    size_t start = 0;
    if (!p->headers) {
        char *e = strstr(p->buf, "\r\n\r\n");
        if (!e)
            return true;
        if (strncmp(p->buf, "HTTP/1.1 200", 12) != 0) {
            fprintf(stderr, "bench_serve: a live stream was refused: %.200s\n",
                    p->buf);
            return false;
        }
        p->headers = true;
        start = (size_t)(e + 4 - p->buf);
    }
    for (;;) {
        char *e = strstr(p->buf + start, "\n\n");
        if (!e)
            break;
        size_t n = (size_t)(e - (p->buf + start));
        if (strncmp(p->buf + start, "event: state", 12) == 0) {
            int64_t c = change_of(p->buf + start, n);
            if (c > p->last) {
                p->last = c;
                pthread_mutex_lock(&b->mu);
                while (p->filled < b->n_cmds + 1 && b->base + p->filled <= c)
                    p->at[p->filled++] = t;
                pthread_mutex_unlock(&b->mu);
            }
        }
        start = (size_t)(e + 2 - p->buf);
    }
    memmove(p->buf, p->buf + start, p->len - start);
    p->len -= start;
    p->buf[p->len] = '\0';
    return true;
}

static void *reader(void *arg) {
    bench *b = arg;
    struct pollfd *fds = calloc((size_t)b->n_pages, sizeof *fds);
    if (!fds) {
        b->failed = true;
        return NULL;
    }
    for (int i = 0; i < b->n_pages; i++) {
        fds[i].fd = b->pages[i].fd;
        fds[i].events = POLLIN;
    }
    while (!b->stop) {
        int r = poll(fds, (nfds_t)b->n_pages, 100);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        double t = now_s();
        for (int i = 0; i < b->n_pages; i++)
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                if (!page_read(b, &b->pages[i], t)) {
                    if (!b->stop) {
                        fprintf(stderr, "bench_serve: page %d's stream "
                                "ended\n", i);
                        b->failed = true;
                    }
                    fds[i].fd = -1;
                }
            }
    }
    free(fds);
    return NULL;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The latencies of commands 1 .. done whose state every page has read
 * (into lat, sorted); how many. */
static int64_t latencies(bench *b, int64_t done, double *lat) {
    int64_t n = 0;
    pthread_mutex_lock(&b->mu);
    for (int64_t k = 1; k <= done; k++) {
        double last = 0;
        bool all = true;
        for (int i = 0; i < b->n_pages && all; i++) {
            if (b->pages[i].filled <= k)
                all = false;
            else if (b->pages[i].at[k] > last)
                last = b->pages[i].at[k];
        }
        if (all)
            lat[n++] = (last - b->sent[k - 1]) * 1e3;
    }
    pthread_mutex_unlock(&b->mu);
    qsort(lat, (size_t)n, sizeof *lat, cmp_double);
    return n;
}

static double pct(const double *v, int64_t n, double p) {
    if (n == 0)
        return 0;
    int64_t i = (int64_t)(p * (double)(n - 1) + 0.5);
    return v[i];
}

static void usage(void) {
    fprintf(stderr, "usage: bench_serve [FRAY] [--pages N] [--rate R] "
            "[--seconds S] [--quick]\n");
}

int main(int argc, char **argv) {
    int pages = 50, seconds = 10;
    double rate = 20;
    char fray[1024] = "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            pages = 4;
            seconds = 1;
        } else if (strcmp(argv[i], "--pages") == 0 && i + 1 < argc) {
            pages = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) {
            rate = atof(argv[++i]);
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atoi(argv[++i]);
        } else if (argv[i][0] != '-' && !fray[0]) {
            snprintf(fray, sizeof fray, "%s", argv[i]);
        } else {
            usage();
            return 2;
        }
    }
    if (pages < 1 || pages > PAGES_MAX || rate <= 0 || rate > 1000 ||
        seconds < 1 || seconds > 3600) {
        fprintf(stderr, "bench_serve: --pages 1 to %d, --rate above 0 to "
                "1000, --seconds 1 to 3600\n", PAGES_MAX);
        return 2;
    }
    if (!fray[0]) {
        /* The fray built beside this program. */
        const char *slash = strrchr(argv[0], '/');
        snprintf(fray, sizeof fray, "%.*sfray",
                 slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
    }
    signal(SIGPIPE, SIG_IGN);
    char dir[] = "/tmp/fray-bench-serve-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("bench_serve: mkdtemp");
        return 1;
    }
    int rc = 1;
    server sv = {0, 0, ""};
    bench b;
    memset(&b, 0, sizeof b);
    pthread_mutex_init(&b.mu, NULL);
    b.n_pages = pages;
    b.n_cmds = (int64_t)(rate * seconds + 0.5);
    int cmd_fd = -1;
    pthread_t rd;
    bool reading = false;
    char body[1 << 16];
    if (!make_data(dir) || !start_server(fray, dir, pages + 32, &sv))
        goto out;
    cmd_fd = connect_to(sv.port);
    if (cmd_fd < 0) {
        perror("bench_serve: connect");
        goto out;
    }
    if (request(cmd_fd, "POST", "/api/fights", sv.token,
                "{\"encounter\":\"examples/towers/skirmish.yaml\",\"seed\":7}",
                body, sizeof body) != 201) {
        fprintf(stderr, "bench_serve: the fight did not begin: %s\n", body);
        goto out;
    }
    int id = atoi(strstr(body, "\"id\":") ? strstr(body, "\"id\":") + 5 : "0");
    char path[128], player[80] = "";
    snprintf(path, sizeof path, "/api/fights/%d/players", id);
    if (request(cmd_fd, "POST", path, sv.token,
                "{\"name\":\"Bench\",\"combatants\":[\"tony\"]}", body,
                sizeof body) != 201 ||
        !strstr(body, "\"token\":\"")) {
        fprintf(stderr, "bench_serve: no player's token: %s\n", body);
        goto out;
    }
    snprintf(player, sizeof player, "%.64s",
             strstr(body, "\"token\":\"") + strlen("\"token\":\""));
    snprintf(path, sizeof path, "/api/fights/%d", id);
    if (request(cmd_fd, "GET", path, sv.token, NULL, body, sizeof body) != 200) {
        fprintf(stderr, "bench_serve: the fight cannot be read: %s\n", body);
        goto out;
    }
    b.base = change_of(body, strlen(body));
    b.pages = calloc((size_t)pages, sizeof *b.pages);
    b.sent = calloc((size_t)b.n_cmds + 1, sizeof *b.sent);
    if (!b.pages || !b.sent)
        goto out;
    snprintf(path, sizeof path, "/api/fights/%d/live", id);
    for (int i = 0; i < pages; i++) {
        page *p = &b.pages[i];
        p->last = b.base - 1;
        p->at = calloc((size_t)b.n_cmds + 2, sizeof *p->at);
        p->fd = connect_to(sv.port);
        char req[512];
        int n = snprintf(req, sizeof req,
                         "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Authorization: Bearer %s\r\n\r\n",
                         path, i % 2 ? player : sv.token);
        if (!p->at || p->fd < 0 || !write_all(p->fd, req, (size_t)n)) {
            fprintf(stderr, "bench_serve: page %d cannot open its stream\n", i);
            goto out;
        }
    }
    if (pthread_create(&rd, NULL, reader, &b) != 0)
        goto out;
    reading = true;
    /* Every page has read the state as it is before the first command. */
    for (double until = now_s() + 10;;) {
        bool all = true;
        pthread_mutex_lock(&b.mu);
        for (int i = 0; i < pages; i++)
            all = all && b.pages[i].filled >= 1;
        pthread_mutex_unlock(&b.mu);
        if (all)
            break;
        if (now_s() > until || b.failed) {
            fprintf(stderr, "bench_serve: not every page opened\n");
            goto out;
        }
        sleep_until(now_s() + 0.01);
    }
    printf("bench_serve: %d pages (half the GM's, half a player's), %g "
           "commands a second for %d s (step, undo, ...), the 99 Towers "
           "skirmish\n", pages, rate, seconds);
    double *lat = calloc((size_t)b.n_cmds + 1, sizeof *lat);
    if (!lat)
        goto out;
    snprintf(path, sizeof path, "/api/fights/%d/step", id);
    char undo[128];
    snprintf(undo, sizeof undo, "/api/fights/%d/undo", id);
    double t0 = now_s() + 0.05, next_report = t0 + 1;
    for (int64_t k = 0; k < b.n_cmds; k++) {
        sleep_until(t0 + (double)k / rate);
        b.sent[k] = now_s();
        int st = request(cmd_fd, "POST", k % 2 ? undo : path, sv.token, NULL,
                         body, sizeof body);
        if (st != 200) {
            fprintf(stderr, "bench_serve: command %lld: status %d: %.300s\n",
                    (long long)k + 1, st, body);
            free(lat);
            goto out;
        }
        if (now_s() >= next_report) {
            int64_t n = latencies(&b, k + 1, lat);
            printf("  %2.0f s: %lld commands, %lld seen by every page: median "
                   "%.1f ms, max %.1f ms\n", next_report - t0,
                   (long long)k + 1, (long long)n, pct(lat, n, 0.5),
                   n ? lat[n - 1] : 0.0);
            fflush(stdout);
            next_report += 1;
        }
    }
    /* The last states: every page has them within a second more. */
    for (double until = now_s() + 2; now_s() < until;) {
        if (latencies(&b, b.n_cmds, lat) == b.n_cmds)
            break;
        sleep_until(now_s() + 0.01);
    }
    int64_t n = latencies(&b, b.n_cmds, lat);
    printf("bench_serve: %lld commands, from the command to the last of %d "
           "pages reading its state: median %.2f ms, 99th percentile %.2f ms, "
           "max %.2f ms\n",
           (long long)b.n_cmds, pages, pct(lat, n, 0.5), pct(lat, n, 0.99),
           n ? lat[n - 1] : 0.0);
    if (n != b.n_cmds)
        fprintf(stderr, "bench_serve: %lld commands' states did not reach "
                "every page\n", (long long)(b.n_cmds - n));
    else if (!b.failed)
        rc = 0;
    free(lat);
out:
    b.stop = true;
    if (reading && pthread_join(rd, NULL) != 0)
        rc = 1;
    if (cmd_fd >= 0)
        close(cmd_fd);
    for (int i = 0; b.pages && i < pages; i++) {
        if (b.pages[i].fd > 0)
            close(b.pages[i].fd);
        free(b.pages[i].buf);
        free(b.pages[i].at);
    }
    free(b.pages);
    free(b.sent);
    stop_server(&sv);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_serve: %s failed\n", cmd);
        rc = 1;
    }
    pthread_mutex_destroy(&b.mu);
    return rc;
}

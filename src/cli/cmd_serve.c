/* cmd_serve.c - `fray serve`: the GM's table over HTTP (docs/server.md;
 * the server is src/server/). */
#include "cli.h"

#include "serve.h"

static const char HELP[] =
    "usage: fray serve [--port N] [--listen ADDR] [--data DIR] "
    "[--new-gm-token]\n"
    "                  [--threads N] [--web DIR]\n"
    "\n"
    "Serves the fights of a data folder over HTTP (docs/server.md): the GM\n"
    "starts fights from the encounter files under DIR/encounters/, plays\n"
    "them with commands in rules words, undoes and redoes; players follow\n"
    "with their own links, filtered on the server. Every command is kept in\n"
    "DIR/fray.sqlite before it is answered: after a crash and a restart,\n"
    "every fight not archived resumes at its last answered command.\n"
    "Prints the GM's link (with the GM's token) and serves until SIGINT or\n"
    "SIGTERM.\n"
    "\n"
    "  --port N        the port (default 8080; 0: any free port, the link\n"
    "                  says which)\n"
    "  --listen ADDR   the address to listen on (default 127.0.0.1: this\n"
    "                  machine only; 0.0.0.0 opens it to the network)\n"
    "  --data DIR      the data folder (default ./fray-data; made when\n"
    "                  missing, with encounters/ inside)\n"
    "  --new-gm-token  make the GM's token anew (the old link stops working)\n"
    "  --threads N     requests served at once (default 256, 2 to 4096): each\n"
    "                  open page's live stream holds one as long as it is\n"
    "                  open, so a table of many pages needs more\n"
    "  --web DIR       the pages' folder (default: share/fray/web beside the\n"
    "                  program's folder, else the source tree's web/)\n";

int cmd_serve(int argc, char **argv) {
    cli_opt opts[] = {
        {"port", true, NULL, false},
        {"listen", true, NULL, false},
        {"data", true, NULL, false},
        {"new-gm-token", false, NULL, false},
        {"web", true, NULL, false},
        {"threads", true, NULL, false},
    };
    cli_args args = {"fray serve", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 0, "no arguments");
    if (rc >= 0)
        return rc;
    long port = 8080;
    if (cli_get(&args, "port")->present &&
        !cli_int_opt(&args, "port", 0, 65535, &port))
        return EXIT_USAGE;
    long threads = 256; /* (each open live page holds one) */
    if (cli_get(&args, "threads")->present &&
        !cli_int_opt(&args, "threads", 2, 4096, &threads))
        return EXIT_USAGE;
    cli_opt *listen = cli_get(&args, "listen");
    cli_opt *data = cli_get(&args, "data");
    cli_opt *web = cli_get(&args, "web");
    if ((listen->present && !listen->value[0]) ||
        (data->present && !data->value[0]) || (web->present && !web->value[0])) {
        cli_error(&args, "--listen, --data and --web need a value");
        return EXIT_USAGE;
    }
    fsv_serve_options o = {
        listen->present ? listen->value : "127.0.0.1",
        (int)port,
        data->present ? data->value : "fray-data",
        cli_get(&args, "new-gm-token")->present,
        (int)threads,
        web->present ? web->value : NULL,
    };
    rc = fsv_serve(&o);
    return rc == 0 ? EXIT_OK : rc == 1 ? EXIT_USAGE : EXIT_UNFINISHED;
}

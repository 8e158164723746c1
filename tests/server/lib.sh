# tests/server/lib.sh - what the tests of `fray serve` over real HTTP share
# (run_serve.sh, run_odds.sh; docs/server.md "Tests"), sourced after
# FRAY and SRC are set: the tools they need, a temporary folder and the
# servers started in it (ended on exit), ok/fail counting, a data folder
# of the example encounters, a server on a free port, a call with a
# token, and the end's verdict.
#   server_lib_init NAME     curl (skipped, exit 77, without it) and jq;
#                            TMP=/tmp/fray-NAME-XXXXXX, removed on exit
#   make_data DIR RULES...   DIR/encounters/examples/RULES/*.yaml and the
#                            catalogs of data/RULES, relative paths kept
#   start NAME DIR [ARGS]    `fray serve --port 0 --data DIR ARGS` on a free
#                            port; sets NAME_URL, NAME_TOKEN, NAME_PID;
#                            its output in $TMP/NAME.out and NAME.err
#   call_url URL TOKEN METHOD PATH [BODY]   prints the body; the status in
#                            $TMP/status (status prints it)
#   expect_status WHAT WANT  ok or fail by the last call's status
#   finish                   exit 1 when anything failed, else "all passed"

server_lib_init() {
    command -v curl >/dev/null 2>&1 || { echo "curl is missing: skipped"; exit 77; }
    command -v jq >/dev/null 2>&1 || { echo "jq is missing (scripts/install-deps.sh installs it)"; exit 1; }
    TMP=$(mktemp -d "/tmp/fray-$1-XXXXXX")
    PIDS=""
    FAILS=0
    trap server_lib_cleanup EXIT INT TERM
}

server_lib_cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null; done
    rm -rf "$TMP"
}

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

make_data() {
    dir=$1
    shift
    mkdir -p "$dir/encounters/data"
    for rules in "$@"; do
        mkdir -p "$dir/encounters/examples/$rules"
        cp "$SRC/examples/$rules"/*.yaml "$dir/encounters/examples/$rules/"
        cp -r "$SRC/data/$rules" "$dir/encounters/data/"
    done
}

start() {
    name=$1
    dir=$2
    shift 2
    rm -f "$TMP/$name.out" "$TMP/$name.err"
    "$FRAY" serve --port 0 --data "$dir" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    pid=$!
    PIDS="$PIDS $pid"
    i=0
    while ! grep -q "GM's link" "$TMP/$name.out" 2>/dev/null; do
        i=$((i + 1))
        if [ $i -gt 100 ] || ! kill -0 $pid 2>/dev/null; then
            echo "the server $name did not start:"; cat "$TMP/$name.err"; exit 1
        fi
        sleep 0.1
    done
    url=$(grep -o 'http://[0-9.]*:[0-9]*' "$TMP/$name.out")
    token=$(sed -n 's/.*#gm=//p' "$TMP/$name.out")
    eval "${name}_URL=$url ${name}_TOKEN=$token ${name}_PID=$pid"
}

call_url() {
    if [ -n "${5+x}" ]; then
        curl -s -o "$TMP/body" -w '%{http_code}' -X "$3" \
             -H "Authorization: Bearer $2" --data-binary "$5" "$1$4" >"$TMP/status"
    else
        curl -s -o "$TMP/body" -w '%{http_code}' -X "$3" \
             -H "Authorization: Bearer $2" "$1$4" >"$TMP/status"
    fi
    cat "$TMP/body"
}
status() { cat "$TMP/status"; }
expect_status() {
    got=$(status)
    if [ "$got" = "$2" ]; then ok "$1 ($got)"; else fail "$1: status $got, not $2: $(cat "$TMP/body")"; fi
}

finish() {
    if [ "$FAILS" -ne 0 ]; then echo "$FAILS failed"; exit 1; fi
    echo "all passed"
}

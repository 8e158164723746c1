#!/bin/sh
# tests/web/run_web.sh FRAY SOURCE_DIR BUILD_DIR - fray serve's pages in a
# real browser (issue 14 "Tests"; docs/server.md "Tests"): web.test.mjs
# starts the real server and Debian's chromium through playwright-core.
# Skipped (exit 77) only when node or chromium is missing; playwright-core
# is installed from the committed lock file when node_modules is missing
# or older than it (scripts/install-deps.sh does the same).
# FRAY_SCREENSHOTS=1 writes docs/images/gm-page.png and player-page.png;
# else the screenshots go to BUILD_DIR/web-screens/.
set -u
FRAY=$1
SRC=$2
BUILD=$3
HERE="$SRC/tests/web"
CHROMIUM=${FRAY_CHROMIUM:-/usr/bin/chromium}

command -v node >/dev/null 2>&1 || { echo "node is missing: skipped"; exit 77; }
[ -x "$CHROMIUM" ] || { echo "chromium ($CHROMIUM) is missing: skipped"; exit 77; }
if [ ! -d "$HERE/node_modules/playwright-core" ] ||
   [ "$HERE/package-lock.json" -nt "$HERE/node_modules" ]; then
    command -v npm >/dev/null 2>&1 || { echo "npm is missing (scripts/install-deps.sh installs it)"; exit 1; }
    (cd "$HERE" && npm ci --no-audit --no-fund) || { echo "npm ci failed in tests/web"; exit 1; }
fi

# The test runs in a process group of its own (setsid), and the servers
# it starts with it. Every exit path ends the group: SIGTERM first, on
# which playwright closes chromium (which it starts in a group of its own)
# and each server stops; SIGKILL for what is left after 5 s.
PGID=""
cleanup() {
    [ -n "$PGID" ] || return 0
    kill -TERM "-$PGID" 2>/dev/null
    i=0
    while kill -0 "-$PGID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "-$PGID" 2>/dev/null
    PGID=""
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

mkdir -p "$BUILD/web-screens"
FRAY="$FRAY" FRAY_SRC="$SRC" FRAY_OUT="$BUILD/web-screens" FRAY_CHROMIUM="$CHROMIUM" \
    setsid node --test-timeout=120000 "$HERE/web.test.mjs" &
PGID=$!
wait "$PGID"
rc=$?
cleanup # what the test may have left behind in its group
exit $rc

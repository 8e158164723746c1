#!/bin/sh
# man_render.sh MANPAGE - the man page renders (issue 15 "A clean package"):
# groff reads it without a warning (-ww: every warning), and what man shows
# holds no raw troff: no request or font escape left as text, and the JSON
# section's probability object keeps its quotes. Exit status 77 (skipped)
# when groff is not installed.
set -u
page=$1
command -v groff >/dev/null 2>&1 || { echo "man_render: no groff: skipped"; exit 77; }
fail=0
warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
if [ -n "$warn" ]; then
    echo "man_render: groff warns:"; echo "$warn"; fail=1
fi
text=$(MANWIDTH=80 groff -man -Tutf8 -ww -P-c -P-b -P-u "$page" 2>/dev/null)
raw=$(printf '%s\n' "$text" | grep -nE '^ *\.[A-Za-z]{1,2}( |$)|\\f[BIRP1-4]|\\\(|\\-|\\\*' )
if [ -n "$raw" ]; then
    echo "man_render: raw troff in the rendered page:"; echo "$raw"; fail=1
fi
for want in '{"num": N, "den": D, "p": P}' '{"file", "ok": true, "summary"}' \
            'EXIT STATUS' 'DECK OPTIONS'; do
    printf '%s\n' "$text" | grep -qF "$want" || {
        echo "man_render: the page does not show: $want"; fail=1; }
done
[ $fail -eq 0 ] && echo "man_render: $page renders cleanly"
exit $fail

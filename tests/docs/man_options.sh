#!/bin/sh
# man_options.sh FRAY MANPAGE - each command's --help and the man page agree
# (issue 15 "A clean package"): for every command `fray --help` lists,
#  - the man page has a SYNOPSIS line and a section (.SS fray CMD) for it;
#  - every option `fray CMD --help` lists is in the man page's synopsis or
#    section for CMD (card commands: or its DECK OPTIONS);
#  - every option the man page's synopsis gives CMD is one `fray CMD --help`
#    lists.
# Exit status 0 when they agree, 1 (with each difference) when not.
set -u
fray=$1
man=$2
fail=0

# Option names in text: -C, -n, --aspect ... (not the - inside a word or
# after a digit, as in 2-N or fray-data).
opts() {
    sed 's/\\-/-/g; s/\\f[BIRP]//g' |
        grep -oE '(^|[^A-Za-z0-9_.-])--?[A-Za-z][A-Za-z0-9-]*' |
        sed 's/^[^-]*//' | grep -v '^--help$' | sort -u
}

# The man page's SYNOPSIS entries for "fray WORDS": from a ".B fray WORDS"
# line (exactly those words, then an argument or nothing) to its ".br".
man_synopsis() {
    awk -v cmd="$1" '
        /^\.SH / { in_syn = ($2 == "SYNOPSIS") }
        in_syn && /^\.B fray / {
            line = $0; sub(/^\.B /, "", line)
            take = (line == cmd) || (index(line, cmd " ") == 1 &&
                    substr(line, length(cmd) + 2) !~ /^[a-z]/)
        }
        in_syn && /^\.br/ { take = 0 }
        in_syn && take { print }
    ' "$man"
}

# The man page's section ".SS fray WORDS ..." up to the next .SS or .SH.
man_section() {
    awk -v cmd="$1" '
        /^\.S[SH] / { take = 0 }
        /^\.SS / {
            line = $0; sub(/^\.SS /, "", line)
            take = (line == cmd) || (index(line, cmd " ") == 1 &&
                    substr(line, length(cmd) + 2) !~ /^[a-z\\]/)
        }
        take { print }
    ' "$man"
}

man_deck_options() {
    awk '/^\.SH / { take = ($2 == "DECK") } take { print }' "$man"
}

# What `fray CMD --help` lists. For odds, whose --help is shared, the usage
# lines of that subcommand, the deck options of card commands and --json.
help_opts() {
    case "$1" in
    odds\ *)
        sub=${1#odds }
        "$fray" odds "$sub" --help 2>&1 | awk -v sub_="$sub" '
            /^(usage:)? *fray odds / { take = ($0 ~ ("fray odds " sub_ " ")) }
            /^$/ { take = 0 }
            take { print }'
        case "$sub" in
        flip | attack | opposed)
            "$fray" odds "$sub" --help 2>&1 | grep -A1 "Card commands also take" ;;
        esac
        echo "--json"
        ;;
    *) "$fray" $1 --help 2>&1 ;;
    esac
}

commands=$("$fray" --help | awk '
    /^commands:/ { on = 1; next }
    /^$/ { on = 0 }
    on && /^  [a-z]/ {
        n = split(substr($0, 3, 17), f, " ")
        w = f[1]
        if (n > 1 && f[2] ~ /^[a-z][a-z0-9]*$/) w = w " " f[2]
        print w
    }')
[ -n "$commands" ] || { echo "man_options: fray --help lists no commands"; exit 1; }

TMPFAIL=$(mktemp)
trap 'rm -f "$TMPFAIL"' EXIT
echo "$commands" | while IFS= read -r cmd; do
    syn=$(man_synopsis "fray $cmd")
    sec=$(man_section "fray $cmd")
    if [ -z "$syn" ]; then
        echo "fray $cmd: not in the man page's SYNOPSIS"; echo x >> "$TMPFAIL"
    fi
    if [ -z "$sec" ] && [ "$cmd" != version ]; then
        echo "fray $cmd: no section (.SS fray $cmd) in the man page"; echo x >> "$TMPFAIL"
    fi
    h=$(help_opts "$cmd" | opts)
    m=$( { echo "$syn"; echo "$sec"; case "$cmd" in flip | "odds flip" | "odds attack" | "odds opposed") man_deck_options ;; esac; } | opts)
    ms=$(echo "$syn" | opts)
    for o in $h; do
        echo "$m" | grep -qx -- "$o" || {
            echo "fray $cmd: $o is in --help but not in the man page"; echo x >> "$TMPFAIL"; }
    done
    for o in $ms; do
        echo "$h" | grep -qx -- "$o" || {
            echo "fray $cmd: $o is in the man page's synopsis but not in --help"; echo x >> "$TMPFAIL"; }
    done
done
# The other way: every command of the man page's SYNOPSIS is in --help.
awk '/^\.SH /{ s = ($2 == "SYNOPSIS") } s && /^\.B fray /{ print $3 (($4 ~ /^[a-z][a-z0-9]*$/) ? " " $4 : "") }' "$man" |
    sort -u | while IFS= read -r cmd; do
        echo "$commands" | grep -qx -- "$cmd" || {
            echo "fray $cmd: in the man page's SYNOPSIS but not in fray --help"; echo x >> "$TMPFAIL"; }
    done
[ ! -s "$TMPFAIL" ] || exit 1
echo "man_options: $(echo "$commands" | wc -l) commands agree"

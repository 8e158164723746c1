#!/bin/bash
# docs_links.sh SRC - nothing in the docs points to a file the repository
# does not have (issue 15 "A clean package"). In README.md and every
# docs/**/*.md:
#  - every relative Markdown link [text](path) or [text](path#part): path,
#    from the linking file's folder, exists;
#  - every backquoted repository path (`src/core/dice.c`, `docs/rules/`,
#    `include/fray/*.h`, `tests/cli/cases.txt:12`): a path whose first part
#    is a top-level folder of the repository, without spaces, exists (a
#    glob: matches something), from the repository's root.
# Repository paths in the text without backquotes, and the man page's
# docs/... references, are checked the same way; and a page's section
# named in quotes after it (docs/journal.md "On disk") exists.
# Exit status 0 when every one exists, 1 (listing each that does not) else.
set -u
src=$1
cd "$src" || exit 2
shopt -s nullglob globstar
tops="src include docs tests examples data scripts bench"
fail=0
n=0

exists() { # a path from the current folder, maybe a glob
    local p=$1
    case "$p" in
    *[*?[]*) local m=($p); [ ${#m[@]} -gt 0 ] ;;
    *) [ -e "$p" ] ;;
    esac
}

for f in README.md docs/**/*.md; do
    dir=$(dirname "$f")
    # Markdown links, one per line: ](target)
    while IFS=: read -r ln target; do
        target=${target#*](}; target=${target%)}
        target=${target%% *}          # [x](path "title")
        case "$target" in
        http:* | https:* | mailto:* | '#'* | '') continue ;;
        esac
        path=${target%%#*}
        n=$((n + 1))
        if ! (cd "$dir" && exists "$path"); then
            echo "$f:$ln: the link ($target) points to nothing"; fail=1
        fi
    done < <(grep -noE '\]\([^)]+\)' "$f")
    # Backquoted repository paths.
    while IFS=: read -r ln quoted; do
        p=${quoted#\`}; p=${p%\`}
        case "$p" in *' '* | *'<'* | *'{'* | *'$'* | *'('* | *'='* ) continue ;; esac
        case "$p" in
        ../*) # outside the repository: a reader of it does not have it
            n=$((n + 1))
            echo "$f:$ln: \`$p\` is outside the repository"; fail=1; continue ;;
        esac
        first=${p%%/*}
        [ "$first" != "$p" ] || continue
        case " $tops " in *" $first "*) ;; *) continue ;; esac
        p=$(printf '%s' "$p" | sed -E 's/(:[0-9]+(-[0-9]+)?)+$//; s/[.,;:]$//')
        n=$((n + 1))
        if ! exists "$p"; then
            echo "$f:$ln: \`$p\` is not in the repository"; fail=1
        fi
    done < <(grep -noE '`[^`]+`' "$f")
    # Repository paths written without backquotes (docs/journal.md "On disk").
    while IFS=: read -r ln p; do
        p=${p#[ (\"]}
        n=$((n + 1))
        exists "$p" || { echo "$f:$ln: $p is not in the repository"; fail=1; }
    done < <(grep -noE '(^|[ ("])(src|include|docs|tests|examples|data|scripts|bench)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/]' "$f")
done
# The man page names docs by path in its text.
while IFS=: read -r ln p; do
    n=$((n + 1))
    exists "$p" || { echo "docs/fray.1:$ln: $p is not in the repository"; fail=1; }
done < <(grep -noE 'docs/[A-Za-z0-9_/.-]*[A-Za-z0-9_]' docs/fray.1)
# A section named after a page (docs/journal.md "On disk", rules/alloy.md
# "Tactics") in the docs, the man page, the public headers or the
# command's help texts (src/cli/): the page
# has a heading, or a bold item (**Ties.**), that begins with that name.
while IFS=: read -r f ln ref; do
    page=${ref%% \"*}
    title=${ref#*\"}; title=${title%\"}
    case "$page" in
    docs/*) ;;
    rules/*) page=docs/$page ;;
    *) if [ -e "docs/$page" ]; then page=docs/$page
       elif [ -e "docs/rules/$page" ]; then page=docs/rules/$page
       else continue; fi ;;   # a source that does not ship (rules-facts.md)
    esac
    [ -e "$page" ] || continue   # the path itself is checked above
    n=$((n + 1))
    grep -E '^#+ |\*\*' "$page" | grep -qiF -- "$title" || {
        echo "$f:$ln: $page has no section \"$title\""; fail=1; }
done < <(grep -noE '(docs/)?[a-z-]+(/[a-z-]+)?\.md "[^"]+"' README.md docs/*.md docs/**/*.md docs/fray.1 include/fray/*.h src/cli/*.c | sort -u)
[ $fail -eq 0 ] && echo "docs_links: all $n references exist"
exit $fail

#!/bin/sh
# tests/server/run_d6.sh FRAY SOURCE_DIR - a D6 fight served (issues 18 and
# 19; docs/server.md): made from examples/d6/duel.yaml, its view
# (whose turn, each fighter's Wound level), a command, and its chances
# panel: GET .../odds?who=ID ranks the attacks with exact fractions (the
# same as `fray odds d6` for the same codes), and the forecast in rounds.
# Needs curl (skipped, exit 77, without it) and jq.
set -u

FRAY=$1
SRC=$2
. "$(dirname "$0")/lib.sh"
server_lib_init d6
make_data "$TMP/d" d6

start S "$TMP/d"
URL=$S_URL GM=$S_TOKEN PID=$S_PID
call() { call_url "$URL" "$@"; } # call TOKEN METHOD PATH [BODY]

call "$GM" POST /api/fights '{"encounter":"examples/d6/duel.yaml","seed":3}' >/dev/null
expect_status "a D6 duel" 201
F=$(jq -r .id "$TMP/body")
call "$GM" GET "/api/fights/$F" >/dev/null
expect_status "its view" 200
cp "$TMP/body" "$TMP/view"
jq -e '.view.rules == "d6" and .view.time_unit == "round" and .view.turn == 0
       and (.view.combatants | map(.id)) == ["brand", "osric"]
       and .view.combatants[1].health[0].name == "Wound level"
       and .view.combatants[1].health[0].descriptor == "unhurt"' "$TMP/view" >/dev/null \
    && ok "the view: Brand's turn, both unhurt" || fail "view: $(head -c 800 "$TMP/view")"
call "$GM" GET "/api/fights/$F/odds?who=brand" >/dev/null
expect_status "the GM asks Brand's odds" 200
cp "$TMP/body" "$TMP/odds"
# 17 options on Osric (issue 19): 3 plain forms, all-out, sweep, knockout,
# six hit locations, grab, choke, flip, tackle and the disarm of the sword
# (no lunge in reach, no knockdown or push with a sword)
jq -e '.who == "brand" and (.actions | length) == 17
       and (.actions | map(.command) | index("attack osric disarm called large"))
       and (.actions | map(.command) | index("attack osric"))
       and (.actions[] | select(.command == "attack osric")
            | .outcomes[0].exact == "653/7776"
              and (.outcomes | map(.name)) == ["miss", "hit, no harm", "hit and hurt", "out of the fight"]
              and .damage.tracks == ["Wound levels"]
              and (.modifiers | test("passive defense 10"))
              and (.assumed | test("Wild Die")))' "$TMP/odds" >/dev/null \
    && ok "Brand's attacks ranked, in rules words, exactly fray odds d6 5D+1 --vs 10" || fail "odds: $(head -c 1500 "$TMP/odds")"
call "$GM" GET "/api/fights/$F/odds?who=nobody" >/dev/null
expect_status "no such combatant" 404
# a command, then the view and the chances follow the fight
call "$GM" POST "/api/fights/$F/command" '{"text":"brand attack osric","dice":[4,5,5,3,2,5,4,3,2,2,2,2]}' >/dev/null
expect_status "Brand attacks with dice by hand" 200
call "$GM" GET "/api/fights/$F" >/dev/null
jq -e '.view.combatants[1].health[0].descriptor == "Stunned"' "$TMP/body" >/dev/null \
    && ok "the view: Osric Stunned" || fail "view after: $(head -c 800 "$TMP/body")"
call "$GM" GET "/api/fights/$F/odds?who=osric" >/dev/null
expect_status "Osric's odds" 200
jq -e '(.actions[] | select(.command == "attack brand") | .modifiers | test("wounds -1D"))' \
    "$TMP/body" >/dev/null && ok "Osric's chances count his Stunned -1D" \
    || fail "odds after: $(head -c 1500 "$TMP/body")"

finish

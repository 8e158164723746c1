#!/bin/sh
# tests/server/run_serve.sh FRAY SOURCE_DIR - `fray serve` over real HTTP
# (docs/server.md; issue 14): fights from encounters/, commands, steps,
# undo and redo, the players' filter, refusals that change nothing, the
# live stream, and kill -9 then a restart that resumes every fight exactly
# (compared with a second server whose fight never stopped).
# Needs curl (skipped, exit 77, without it) and jq.
set -u

FRAY=$1
SRC=$2
. "$(dirname "$0")/lib.sh"
server_lib_init serve

call() { call_url "$@"; } # call URL TOKEN METHOD PATH [BODY]

make_data "$TMP/a" towers alloy
make_data "$TMP/b" towers alloy
start A "$TMP/a" --threads 64
start B "$TMP/b" --threads 64
GA="$A_TOKEN"

# ---- health, encounters -------------------------------------------------------
curl -s -o "$TMP/body" -w '%{http_code}' "$A_URL/api/health" >"$TMP/status"
expect_status "GET /api/health needs no token" 200
[ "$(jq -r .ok "$TMP/body")" = true ] || fail "health says ok"
call "$A_URL" "$GA" GET /api/encounters >/dev/null
expect_status "GET /api/encounters" 200
jq -e '.encounters | map(.name) | index("examples/towers/skirmish.yaml") and index("examples/alloy/duel.yaml")' "$TMP/body" >/dev/null \
    && ok "the encounters are listed by their paths under encounters/" || fail "encounters: $(cat "$TMP/body")"
jq -e '.encounters | map(.name) | index("examples/towers/statblocks.yaml") | not' "$TMP/body" >/dev/null \
    && ok "a stat-block file is not an encounter" || fail "statblocks listed"

# No path from a request is a path: names not on the list are refused.
for bad in "../fray.sqlite" "/etc/passwd" "examples/towers/../towers/duel.yaml" "data/towers/equipment.yaml"; do
    call "$A_URL" "$GA" POST /api/fights "{\"encounter\":\"$bad\"}" >/dev/null
    expect_status "encounter '$bad' refused" 404
done

# ---- uploading an encounter (issue 14 "start one from an encounter file ... uploaded") ----
UP='fray: encounter
rules: towers
name: Uploaded duel
catalog: [../data/towers/equipment.yaml]
statblocks: [../examples/towers/statblocks.yaml]
sides: [A, B]
combatants:
  - {id: a, statblock: Knight of Areast, side: A}
  - {id: b, statblock: Black Knight, side: B}
'
upload_body() { jq -n --arg n "$1" --arg t "$2" '{upload: {name: $n, text: $t}, seed: 3}'; }
call "$A_URL" "$GA" POST /api/fights "$(upload_body my-duel.yaml "$UP")" >/dev/null
expect_status "an uploaded encounter begins a fight" 201
UF=$(jq -r .id "$TMP/body")
[ "$(cat "$TMP/a/encounters/uploads/my-duel.yaml")" = "$(printf '%s' "$UP")" ] \
    && ok "the upload is kept under encounters/uploads/ as it was sent" || fail "upload not kept"
got=$(cd "$TMP/a/fights/$UF" && find . -type f | sort | tr '\n' ' ')
[ "$got" = "./data/towers/equipment.yaml ./examples/towers/statblocks.yaml ./uploads/my-duel.yaml " ] \
    && ok "the upload's fight keeps the upload and the files it names" || fail "upload's files: $got"
call "$A_URL" "$GA" GET /api/encounters >/dev/null
jq -e '.encounters | map(.name) | index("uploads/my-duel.yaml")' "$TMP/body" >/dev/null \
    && ok "GET /api/encounters lists the upload" || fail "upload not listed: $(cat "$TMP/body")"
call "$A_URL" "$GA" POST /api/fights "$(upload_body my-duel.yaml "$UP")" >/dev/null
expect_status "the same name with the same text: the same file again" 201
call "$A_URL" "$GA" POST /api/fights "$(upload_body my-duel.yaml "$UP# changed")" >/dev/null
expect_status "the same name with another text" 409
[ "$(cat "$TMP/a/encounters/uploads/my-duel.yaml")" = "$(printf '%s' "$UP")" ] \
    && ok "the 409 left the upload as it was" || fail "the 409 changed the upload"
for bad in "../evil.yaml" "a/b.yaml" ".hidden.yaml" "notes.txt" "x y.yaml" ""; do
    call "$A_URL" "$GA" POST /api/fights "$(upload_body "$bad" "$UP")" >/dev/null
    expect_status "upload name '$bad' refused" 400
done
BAD=$(printf '%s' "$UP" | sed 's/^name: Uploaded duel/name: Bad\nswords: 3/')
call "$A_URL" "$GA" POST /api/fights "$(upload_body bad.yaml "$BAD")" >/dev/null
expect_status "an upload the rules refuse" 422
jq -e '.error | test("^uploads/bad.yaml:4:1: ")' "$TMP/body" >/dev/null \
    && ok "the refusal names uploads/bad.yaml:4:1" || fail "refusal: $(cat "$TMP/body")"
ABS_SRC=$(cd "$SRC" && pwd)
OUT=$(printf "%s" "$UP" | sed -e "/^catalog: /d" -e "s|^statblocks: .*|statblocks: [$ABS_SRC/examples/towers/statblocks.yaml]|")
call "$A_URL" "$GA" POST /api/fights "$(upload_body outside.yaml "$OUT")" >/dev/null
expect_status "an upload that reads a file outside encounters/" 422
jq -e '.error | test("not under encounters/")' "$TMP/body" >/dev/null \
    && ok "the refusal says the file is not under encounters/" || fail "outside: $(cat "$TMP/body")"
call "$A_URL" "$GA" POST /api/fights "$(upload_body cat.yaml 'fray: catalog')" >/dev/null
expect_status "an upload that is not an encounter" 422
call "$A_URL" "$GA" POST /api/fights "$(jq -n --arg t "$UP" '{encounter: "examples/towers/duel.yaml", upload: {name: "x.yaml", text: $t}}')" >/dev/null
expect_status "an encounter and an upload at once" 400
[ "$(ls -A "$TMP/a/encounters/uploads")" = "my-duel.yaml" ] \
    && ok "the refused uploads left nothing behind" || fail "left behind: $(ls -A "$TMP/a/encounters/uploads")"

# ---- a 99 Towers fight --------------------------------------------------------------
call "$A_URL" "$GA" POST /api/fights '{"encounter":"examples/towers/skirmish.yaml","seed":5}' >/dev/null
expect_status "POST /api/fights (skirmish, seed 5)" 201
F=$(jq -r .id "$TMP/body")
jq -e '.events[0].text | test("Initiative: Tony")' "$TMP/body" >/dev/null \
    && ok "the begin event is narrated" || fail "begin: $(cat "$TMP/body")"
# The fight keeps exactly the files its load read (docs/server.md "The
# process"), not every file under encounters/.
got=$(cd "$TMP/a/fights/$F" && find . -type f | sort | tr '\n' ' ')
[ "$got" = "./data/towers/equipment.yaml ./examples/towers/skirmish.yaml ./examples/towers/statblocks.yaml " ] \
    && ok "the fight keeps the three files skirmish.yaml read" || fail "files kept: $got"

call "$A_URL" "$GA" GET "/api/fights/$F" >"$TMP/v0"
expect_status "GET /api/fights/$F" 200
jq -e '.view.rules == "towers" and .view.time_unit == "phase" and (.view.combatants | length) == 6
       and .view.turn == 3 and .events == 1 and .view.combatants[0].id == "tony"
       and .view.combatants[0].health[0].name == "STUN" and (.view.hands | length) == 4' "$TMP/v0" >/dev/null \
    && ok "the GM's view: 6 combatants, Vask's turn, STUN, four hands" || fail "view: $(head -c 600 "$TMP/v0")"

call "$A_URL" "$GA" GET "/api/fights/$F/journal" >"$TMP/j0"
[ "$(wc -l <"$TMP/j0")" -eq 1 ] && jq -e '.command.action == "begin" and .seed == 5' "$TMP/j0" >/dev/null \
    && ok "journal line 0 is the begin event" || fail "journal: $(cat "$TMP/j0")"

call "$A_URL" "$GA" POST "/api/fights/$F/step" >/dev/null
expect_status "a step of the tactics" 200
jq -e '.events[-1].text | test("Vask")' "$TMP/body" >/dev/null && ok "the step narrates Vask's action" \
    || fail "step: $(cat "$TMP/body")"
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{"text":"next"}' >/dev/null
expect_status "command 'next'" 200
jq -e '.phase == 5 and .turn == "Sir Aldric"' "$TMP/body" >/dev/null && ok "the clock moved on to phase 5" \
    || fail "next: $(cat "$TMP/body")"
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{"text":"aldric move 5,6"}' >/dev/null
expect_status "aldric moves" 200
call "$A_URL" "$GA" GET "/api/fights/$F/journal" >"$TMP/j1"

# Refusals change nothing: the journal is the same after each.
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{"text":"tony attack gunman"}' >/dev/null
expect_status "a command the rules refuse (not Tony's turn)" 422
jq -e '.error | length > 0' "$TMP/body" >/dev/null || fail "no message: $(cat "$TMP/body")"
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{"text":"aldric fly"}' >/dev/null
expect_status "a command that does not parse" 422
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{' >/dev/null
expect_status "malformed JSON" 400
jq -e '.error | test("not JSON")' "$TMP/body" >/dev/null || fail "malformed: $(cat "$TMP/body")"
call "$A_URL" "$GA" POST "/api/fights/$F/command" '[1]' >/dev/null
expect_status "a body that is not an object" 400
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{"txt":"next"}' >/dev/null
expect_status "an unknown key" 400
call "$A_URL" "$GA" POST "/api/fights/$F/command" '{"text":"next","cards":["ZZ"]}' >/dev/null
expect_status "cards that are not cards" 422
head -c 1100000 /dev/zero | tr '\0' ' ' >"$TMP/big"
curl -s -o "$TMP/body" -w '%{http_code}' -X POST -H "Authorization: Bearer $GA" \
     --data-binary @"$TMP/big" "$A_URL/api/fights/$F/command" >"$TMP/status"
expect_status "a body over 1 MiB" 413
curl -s -o "$TMP/body" -w '%{http_code}' -X POST -d '{"text":"next"}' "$A_URL/api/fights/$F/command" >"$TMP/status"
expect_status "no token" 401
call "$A_URL" "0000000000000000000000000000000000000000000000000000000000000000" POST "/api/fights/$F/command" '{"text":"next"}' >/dev/null
expect_status "a wrong token" 401
call "$A_URL" "$B_TOKEN" POST "/api/fights/$F/step" >/dev/null
expect_status "another server's GM token" 401
call "$A_URL" "$GA" POST "/api/fights/999/step" >/dev/null
expect_status "an unknown fight" 404
call "$A_URL" "$GA" GET "/api/fights/$F/nothing" >/dev/null
expect_status "an unknown call" 404
call "$A_URL" "$GA" GET "/api/fights/$F/step" >/dev/null
expect_status "GET on a POST call" 405

# Players' tokens.
call "$A_URL" "$GA" POST "/api/fights/$F/players" '{"name":"Ann","combatants":["tony"]}' >/dev/null
expect_status "a player's token for Tony" 201
PA=$(jq -r .token "$TMP/body")
call "$A_URL" "$GA" POST "/api/fights/$F/players" '{"name":"Bob","combatants":["nobody"]}' >/dev/null
expect_status "a player's token for a combatant not in the fight" 422
call "$A_URL" "$PA" POST "/api/fights/$F/step" >/dev/null
expect_status "a player's token cannot step" 403
call "$A_URL" "$PA" POST "/api/fights/$F/undo" >/dev/null
expect_status "a player's token cannot undo" 403
call "$A_URL" "$PA" GET "/api/fights/$F/journal" >/dev/null
expect_status "a player's token cannot read the journal" 403
call "$A_URL" "$PA" POST "/api/fights/$F/command" '{"text":"aldric move 5,5"}' >/dev/null
expect_status "a player's command while the GM has not let players play" 403
call "$A_URL" "$PA" POST "/api/fights/$F/players" '{"name":"Eve","combatants":["aldric"]}' >/dev/null
expect_status "a player's token cannot make tokens" 403
call "$A_URL" "$GA" POST "/api/fights/$F/settings" '{"players_play":true}' >/dev/null
expect_status "the GM lets players play" 200
call "$A_URL" "$PA" POST "/api/fights/$F/command" '{"text":"aldric move 5,5"}' >/dev/null
expect_status "a player commands another's combatant" 403
call "$A_URL" "$PA" POST "/api/fights/$F/command" '{"text":"gm set gunman stun 1"}' >/dev/null
expect_status "a player gives the GM's word" 403
call "$A_URL" "$GA" GET "/api/fights/$F/journal" >"$TMP/j2"
if cmp -s "$TMP/j1" "$TMP/j2"; then ok "refused requests changed nothing (the journal is the same)"
else fail "the journal changed:"; diff "$TMP/j1" "$TMP/j2"; fi

# The player's view: its own hand only, never another's cards.
call "$A_URL" "$PA" GET "/api/fights/$F" >"$TMP/pv"
expect_status "the player's view" 200
jq -e '.you.gm == false and (.view.hands | map(.deck)) == ["Tony"]' "$TMP/pv" >/dev/null \
    && ok "the player sees Tony's Hand of Fate and no other" || fail "hands: $(jq -c .view.hands "$TMP/pv")"
jq -e '[.view.combatants[] | select(.hand >= 0)] | all(.id == "tony")' "$TMP/pv" >/dev/null \
    && ok "only Tony has a hand in the player's view" || fail "hands of others: $(jq -c '[.view.combatants[] | {id, hand}]' "$TMP/pv")"

# Undo and redo: the marks are stored; redo gives the state back.
call "$A_URL" "$GA" GET "/api/fights/$F" | jq -c .view >"$TMP/before_undo"
call "$A_URL" "$GA" POST "/api/fights/$F/undo" >/dev/null
expect_status "undo" 200
call "$A_URL" "$GA" GET "/api/fights/$F" | jq -c .view >"$TMP/after_undo"
cmp -s "$TMP/before_undo" "$TMP/after_undo" && fail "undo changed nothing"
call "$A_URL" "$GA" POST "/api/fights/$F/redo" >/dev/null
expect_status "redo" 200
call "$A_URL" "$GA" GET "/api/fights/$F" | jq -c .view >"$TMP/after_redo"
cmp -s "$TMP/before_undo" "$TMP/after_redo" && ok "redo gives the state before the undo back" \
    || fail "redo: the view differs"
call "$A_URL" "$GA" GET "/api/fights/$F/journal" >"$TMP/j3"
tail -n 2 "$TMP/j3" | jq -e -s '.[0].undo != null and .[1].redo != null' >/dev/null \
    && ok "the undo and redo marks are in the journal" || fail "marks: $(tail -n 2 "$TMP/j3")"
call "$A_URL" "$GA" POST "/api/fights/$F/redo" >/dev/null
expect_status "nothing to redo" 409

# ---- not yet in the fight: the player never sees it ---------------------------------------
call "$A_URL" "$GA" POST /api/fights '{"encounter":"examples/towers/reinforcements.yaml","seed":3}' >/dev/null
expect_status "POST /api/fights (reinforcements)" 201
R=$(jq -r .id "$TMP/body")
call "$A_URL" "$GA" POST "/api/fights/$R/players" '{"name":"Ann","combatants":["tony"]}' >/dev/null
PR=$(jq -r .token "$TMP/body")
call "$A_URL" "$GA" GET "/api/fights/$R" >"$TMP/rg"
jq -e '.view.combatants[] | select(.id == "bandit-2") | .gm_only' "$TMP/rg" >/dev/null \
    && ok "the GM sees bandit-2, not yet in the fight" || fail "GM view: $(jq -c '.view.combatants | map(.id)' "$TMP/rg")"
call "$A_URL" "$PR" GET "/api/fights/$R" >"$TMP/rp"
if grep -q "bandit-2\|Bandit 2" "$TMP/rp"; then fail "the player's answer names bandit-2"
else ok "the player's answer holds no trace of bandit-2"; fi
call "$A_URL" "$PA" GET "/api/fights/$R" >/dev/null
expect_status "a player's token of another fight" 403

# A player plays its own combatant's turn once the GM lets players play
# (players_play: off by default, refused above; on here).
call "$A_URL" "$GA" POST "/api/fights/$R/command" '{"text":"next"}' >/dev/null
call "$A_URL" "$GA" GET "/api/fights/$R" >"$TMP/rg2"
TURN=$(jq -r '.view.turn as $t | .view.combatants[] | select(.index == $t) | .id' "$TMP/rg2")
call "$A_URL" "$GA" POST "/api/fights/$R/players" "{\"name\":\"Cy\",\"combatants\":[\"$TURN\"]}" >/dev/null
PT=$(jq -r .token "$TMP/body")
call "$A_URL" "$PT" POST "/api/fights/$R/command" "{\"text\":\"$TURN hold\"}" >/dev/null
expect_status "players_play off: $TURN's player may not play its turn" 403
call "$A_URL" "$GA" POST "/api/fights/$R/settings" '{"players_play":true}' >/dev/null
call "$A_URL" "$PT" POST "/api/fights/$R/command" "{\"text\":\"$TURN hold\",\"cards\":[\"KH\"]}" >/dev/null
expect_status "a player gives no cards by hand" 403
call "$A_URL" "$PT" POST "/api/fights/$R/command" "{\"text\":\"$TURN hold\"}" >/dev/null
expect_status "players_play on: $TURN's player plays its turn" 200
# enemy_numbers false: the enemies' health by descriptor only, and every
# event told in full (the cards, hit or miss) with the enemies' STUN and
# LETHAL as descriptors (fray_event_narrate_for): the skirmish, stepped
# until blows land both ways.
call "$A_URL" "$GA" POST /api/fights '{"encounter":"examples/towers/skirmish.yaml","seed":"1"}' >/dev/null
expect_status "POST /api/fights (skirmish)" 201
SK=$(jq -r .id "$TMP/body")
call "$A_URL" "$GA" POST "/api/fights/$SK/players" '{"name":"Dee","combatants":["tony"],"enemy_numbers":false}' >/dev/null
PN=$(jq -r .token "$TMP/body")
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    call "$A_URL" "$GA" POST "/api/fights/$SK/step" >/dev/null
done
call "$A_URL" "$PN" GET "/api/fights/$SK" >"$TMP/rn"
call "$A_URL" "$GA" GET "/api/fights/$SK" >"$TMP/rn_gm"
jq -e '([.view.combatants[] | select(.side != 0) | .health[]] | length > 0 and all(has("value") | not))
       and ([.view.combatants[] | select(.id == "tony") | .health[]] | all(has("value")))' "$TMP/rn" >/dev/null \
    && ok "enemy_numbers false: descriptors only for enemies" || fail "enemy numbers: $(head -c 800 "$TMP/rn")"
jq -e --slurpfile gm "$TMP/rn_gm" '[$gm[0].view.combatants[] | select(.side != 0 and (.gm_only | not)) | .name] as $foes
       | ([.log[] | select(.brief)] | length) == 0
       and (.log | length) == ($gm[0].log | length)
       and ([.log[] | .text | test("hit:|miss:")] | any)
       and ([.log[] | .text | split("\n")[] | select(. as $l | any($foes[]; . as $f | $l | contains($f)))
             | test("(STUN|LETHAL) (unhurt|hurt|badly hurt|out)")] | any)
       and ([.log[] | .text | split("\n")[] | select(. as $l | any($foes[]; . as $f | $l | contains($f)))
             | test("[0-9]+(/[0-9]+)? (STUN|LETHAL)")] | any | not)
       and ([$gm[0].log[] | .text | split("\n")[] | select(. as $l | any($foes[]; . as $f | $l | contains($f)))
             | test("[0-9]+(/[0-9]+)? (STUN|LETHAL)")] | any)' "$TMP/rn" >/dev/null \
    && ok "enemy_numbers false: every event told, the enemies' STUN and LETHAL as descriptors, no numbers ($(jq '.log | length' "$TMP/rn") events)" \
    || fail "enemy numbers' log: $(jq -c .log "$TMP/rn" | head -c 1500)"
call "$A_URL" "$GA" POST "/api/fights/$SK/archive" >/dev/null   # (the fights resumed below are counted)
expect_status "archive the skirmish of the players' numbers" 200
call "$A_URL" "$PR" GET "/api/fights/$R" >"$TMP/rp2"
jq -e '.log | length > 0' "$TMP/rp2" >/dev/null && ok "enemy_numbers true (default): the player reads the log" \
    || fail "log: $(head -c 300 "$TMP/rp2")"

# ---- an Alloy fight -------------------------------------------------------------------------
call "$A_URL" "$GA" POST /api/fights '{"encounter":"examples/alloy/duel.yaml","seed":"11"}' >/dev/null
expect_status "POST /api/fights (Alloy duel)" 201
AL=$(jq -r .id "$TMP/body")
call "$A_URL" "$GA" POST "/api/fights/$AL/step" >/dev/null
expect_status "an Alloy step" 200
call "$A_URL" "$GA" GET "/api/fights/$AL" >"$TMP/al"
jq -e '.view.rules == "alloy" and .view.time_unit == "round" and .view.combatants[0].health[0].name == "HP"' "$TMP/al" >/dev/null \
    && ok "the Alloy view: rounds, HP" || fail "alloy: $(head -c 400 "$TMP/al")"

# ---- the live stream --------------------------------------------------------------------------
: >"$TMP/live"
curl -sN -H "Authorization: Bearer $PA" "$A_URL/api/fights/$F/live" >>"$TMP/live" &
LIVE=$!
PIDS="$PIDS $LIVE"
i=0
while [ "$(grep -c '^event: state' "$TMP/live")" -lt 1 ] && [ $i -lt 250 ]; do sleep 0.02; i=$((i + 1)); done
[ "$(grep -c '^event: state' "$TMP/live")" -ge 1 ] && ok "the live stream sends the state at once" \
    || fail "no first state event"
t0=$(date +%s%N)
call "$A_URL" "$GA" POST "/api/fights/$F/step" >/dev/null
i=0
while [ "$(grep -c '^event: state' "$TMP/live")" -lt 2 ] && [ $i -lt 500 ]; do sleep 0.002; i=$((i + 1)); done
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
if [ "$(grep -c '^event: state' "$TMP/live")" -ge 2 ] && [ $ms -lt 1000 ]; then
    ok "a state event followed the step within a second ($ms ms from the command's start to the event read)"
else fail "no state event after the step ($ms ms)"; fi
grep '^data: ' "$TMP/live" | tail -n 1 | sed 's/^data: //' >"$TMP/live_last"
jq -e '.you.gm == false and (.view.hands | map(.deck)) == ["Tony"]' "$TMP/live_last" >/dev/null \
    && ok "the live state is the player's, filtered" || fail "live state: $(head -c 300 "$TMP/live_last")"
kill $LIVE 2>/dev/null

# ---- kill -9 mid-fight: every fight resumes exactly ------------------------------------------------
# The same fight on B, never stopped: the same requests.
play() { # URL TOKEN
    call "$1" "$2" POST /api/fights '{"encounter":"examples/towers/ambush.yaml","seed":42}' | jq -r .id
    id=$(jq -r .id "$TMP/body")
    for k in 1 2 3; do call "$1" "$2" POST "/api/fights/$id/step" >/dev/null; done
    call "$1" "$2" POST "/api/fights/$id/undo" >/dev/null
    call "$1" "$2" POST "/api/fights/$id/step" >/dev/null
}
KA=$(play "$A_URL" "$GA")
KB=$(play "$B_URL" "$B_TOKEN")
call "$A_URL" "$GA" GET "/api/fights/$KA" | jq -c 'del(.change)' >"$TMP/ka_view"
call "$A_URL" "$GA" GET "/api/fights/$KA/journal" >"$TMP/ka_journal"
call "$A_URL" "$GA" GET "/api/fights/$F" | jq -c 'del(.change)' >"$TMP/f_view"
call "$A_URL" "$GA" GET "/api/fights/$F/journal" >"$TMP/f_journal"
kill -9 "$A_PID"
wait "$A_PID" 2>/dev/null
start A "$TMP/a" --threads 64
GA="$A_TOKEN"
grep -q "6 fights resumed" "$TMP/A.out" && ok "6 fights resumed after kill -9 (two from an upload)" || fail "resumed: $(cat "$TMP/A.out" "$TMP/A.err")"
call "$A_URL" "$GA" GET "/api/fights/$KA" | jq -c 'del(.change)' >"$TMP/ka_view2"
call "$A_URL" "$GA" GET "/api/fights/$KA/journal" >"$TMP/ka_journal2"
call "$A_URL" "$GA" GET "/api/fights/$F" | jq -c 'del(.change)' >"$TMP/f_view2"
call "$A_URL" "$GA" GET "/api/fights/$F/journal" >"$TMP/f_journal2"
cmp -s "$TMP/ka_view" "$TMP/ka_view2" && cmp -s "$TMP/f_view" "$TMP/f_view2" \
    && ok "after kill -9 and a restart GET /api/fights/ID is identical" || fail "the views differ after the restart"
cmp -s "$TMP/ka_journal" "$TMP/ka_journal2" && cmp -s "$TMP/f_journal" "$TMP/f_journal2" \
    && ok "after kill -9 and a restart the journals are identical" || fail "the journals differ after the restart"
# The stored journal is a journal: fray replay plays it on the encounter
# to the same fight (as many events, the same phase).
"$FRAY" replay -C "$TMP/a/encounters" examples/towers/skirmish.yaml "$TMP/f_journal2" --json \
    2>/dev/null | tail -n 1 >"$TMP/replayed"
jq -e --slurpfile v "$TMP/f_view2" '.summary.events == $v[0].events and .summary.phase == $v[0].view.now' "$TMP/replayed" >/dev/null \
    && ok "fray replay plays the stored journal to the same fight" || fail "replay: $(cat "$TMP/replayed")"
# The player's token still opens its view.
call "$A_URL" "$PA" GET "/api/fights/$F" >/dev/null
expect_status "a player's token after the restart" 200
# The next step is the same as on the fight that never stopped.
call "$A_URL" "$GA" POST "/api/fights/$KA/step" >/dev/null
call "$B_URL" "$B_TOKEN" POST "/api/fights/$KB/step" >/dev/null
call "$A_URL" "$GA" GET "/api/fights/$KA/journal" >"$TMP/ka_j3"
call "$B_URL" "$B_TOKEN" GET "/api/fights/$KB/journal" >"$TMP/kb_j3"
if cmp -s "$TMP/ka_j3" "$TMP/kb_j3"; then ok "the next step after the restart is the step of a fight that never stopped"
else fail "the resumed fight went another way:"; diff "$TMP/ka_j3" "$TMP/kb_j3" | head -5; fi
call "$A_URL" "$GA" GET "/api/fights/$KA" | jq -c '.view' >"$TMP/ka_v3"
call "$B_URL" "$B_TOKEN" GET "/api/fights/$KB" | jq -c '.view' >"$TMP/kb_v3"
cmp -s "$TMP/ka_v3" "$TMP/kb_v3" && ok "and the views are the same" || fail "the views differ"

# Requests at once on one fight are taken one at a time: steps, undos,
# redos and views from four clients leave a journal that replays to the
# fight the server holds.
call "$A_URL" "$GA" POST /api/fights '{"encounter":"examples/towers/skirmish.yaml","seed":8}' >/dev/null
CC=$(jq -r .id "$TMP/body")
for c in 1 2 3 4; do
    (for k in 1 2 3 4 5; do
        for what in step step undo redo; do
            curl -s -o /dev/null -X POST -H "Authorization: Bearer $GA" "$A_URL/api/fights/$CC/$what"
        done
        curl -s -o /dev/null -H "Authorization: Bearer $GA" "$A_URL/api/fights/$CC"
    done) &
    eval "CL$c=\$!"
done
wait $CL1 $CL2 $CL3 $CL4
call "$A_URL" "$GA" GET "/api/fights/$CC/journal" >"$TMP/cc_journal"
call "$A_URL" "$GA" GET "/api/fights/$CC" >"$TMP/cc_view"
"$FRAY" replay -C "$TMP/a/encounters" examples/towers/skirmish.yaml "$TMP/cc_journal" --json \
    2>/dev/null | tail -n 1 >"$TMP/cc_replayed"
jq -e --slurpfile v "$TMP/cc_view" '.summary.events == $v[0].events and .summary.phase == $v[0].view.now and .summary.events > 10' "$TMP/cc_replayed" >/dev/null \
    && ok "four clients at once: the journal replays to the fight held ($(jq .events "$TMP/cc_view") events)" \
    || fail "at once: $(cat "$TMP/cc_replayed") vs $(jq -c '{events, now: .view.now}' "$TMP/cc_view")"

# Archive: kept, not resumed, refused to play; the journal stays readable.
call "$A_URL" "$GA" POST "/api/fights/$AL/archive" >/dev/null
expect_status "archive" 200
call "$A_URL" "$GA" POST "/api/fights/$AL/step" >/dev/null
expect_status "an archived fight is not played" 410
call "$A_URL" "$GA" GET "/api/fights/$AL/journal" >/dev/null
expect_status "an archived fight's journal" 200

# A clean stop (SIGTERM) closes the store.
kill -TERM "$A_PID"
wait "$A_PID"
rc=$?
[ $rc -eq 0 ] && ok "SIGTERM: a clean stop (exit 0)" || fail "SIGTERM: exit $rc: $(cat "$TMP/A.err")"
start A "$TMP/a" --threads 64
grep -q "6 fights resumed" "$TMP/A.out" && ok "the archived fight is not resumed" || fail "$(cat "$TMP/A.out")"

finish

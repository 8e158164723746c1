#!/bin/sh
# tests/server/run_odds.sh FRAY SOURCE_DIR - the odds at the table over
# real HTTP (issue 19; docs/server.md): GET .../odds?who=ID (the GM: any
# combatant; a player: its own only), GET .../forecast (done false while
# it runs, then done; a player only when the GM allows it, kept in the
# store across a restart), for 99 Towers, Alloy and Silent Winter.
# Needs curl (skipped, exit 77, without it) and jq.
set -u

FRAY=$1
SRC=$2
. "$(dirname "$0")/lib.sh"
server_lib_init odds
make_data "$TMP/d" towers alloy silent-winter

# start: the server (again) on $TMP/d; URL, GM and PID are its.
start_odds() {
    start S "$TMP/d"
    URL=$S_URL GM=$S_TOKEN PID=$S_PID
}
call() { call_url "$URL" "$@"; } # call TOKEN METHOD PATH [BODY]

# forecast TOKEN FIGHT: asks until done (at most 30 s); the last body in $TMP/body.
forecast_done() {
    i=0
    while :; do
        call "$1" GET "/api/fights/$2/forecast" >/dev/null
        [ "$(cat "$TMP/status")" = 200 ] || return 1
        [ "$(jq -r .done "$TMP/body")" = true ] && return 0
        i=$((i + 1))
        [ $i -gt 300 ] && return 1
        sleep 0.1
    done
}

start_odds

# ---- 99 Towers: the duel --------------------------------------------------------
call "$GM" POST /api/fights '{"encounter":"examples/towers/duel.yaml","seed":3}' >/dev/null
expect_status "a 99 Towers duel" 201
F=$(jq -r .id "$TMP/body")
call "$GM" GET "/api/fights/$F/odds?who=aldric" >/dev/null
expect_status "the GM asks Sir Aldric's odds" 200
jq -e '.who == "aldric" and (.actions | length) == 4
       and .actions[0].command == "power-attack black-knight"
       and .actions[3].command == "grapple black-knight"
       and .actions[3].p_success > 0.6 and .actions[3].damage.p_drop == -1
       and .actions[0].p_success == null
       and (.actions | map(.command) | index("aim then attack black-knight"))
       and (.actions[] | select(.command == "attack black-knight")
            | (.outcomes | map(.name)) == ["miss", "hit", "critical"]
              and .outcomes[2].exact == "8689362/12724075"
              and .damage.tracks == ["STUN", "LETHAL"]
              and (.assumed | test("Hand of Fate"))
              and (.modifiers | test("flat-footed")))' "$TMP/body" >/dev/null \
    && ok "the options ranked, with exact chances equal to fray odds attack" \
    || fail "odds: $(head -c 800 "$TMP/body")"
call "$GM" GET "/api/fights/$F/odds?who=nobody" >/dev/null
expect_status "no such combatant" 404
call "$GM" GET "/api/fights/$F/odds" >/dev/null
expect_status "odds without ?who=" 400
call "$GM" POST "/api/fights/$F/odds" '{}' >/dev/null
expect_status "POST on odds" 405

call "$GM" POST "/api/fights/$F/players" '{"name":"Ann","combatants":["aldric"]}' >/dev/null
expect_status "a player's token for Sir Aldric" 201
PA=$(jq -r .token "$TMP/body")
call "$PA" GET "/api/fights/$F/odds?who=aldric" >/dev/null
expect_status "a player asks its own combatant's odds" 200
call "$PA" GET "/api/fights/$F/odds?who=black-knight" >/dev/null
expect_status "a player asks another's odds" 403

forecast_done "$GM" "$F" && ok "the forecast ends (done)" || fail "forecast: $(cat "$TMP/body")"
jq -e '(.sides | length) == 2 and .trials == 4000 and .done == true
       and (.sides[0].p + .sides[1].p + .no_winner) > 0.999
       and .sides[0].low <= .sides[0].p and .sides[0].p <= .sides[0].high
       and (.combatants | map(.id)) == ["aldric", "black-knight"]
       and .length.unit == "phase"' "$TMP/body" >/dev/null \
    && ok "the forecast: two sides with intervals, standing, length" || fail "forecast: $(cat "$TMP/body")"
cp "$TMP/body" "$TMP/fc1"
forecast_done "$GM" "$F"
cmp -s "$TMP/body" "$TMP/fc1" && ok "asked again without a change: the same forecast" \
    || fail "the forecast changed without a change"

call "$PA" GET "/api/fights/$F/forecast" >/dev/null
expect_status "a player's forecast before the GM allows it" 403
call "$PA" POST "/api/fights/$F/settings" '{"players_forecast":true}' >/dev/null
expect_status "a player cannot allow it" 403
call "$GM" POST "/api/fights/$F/settings" '{"players_forecast":"yes"}' >/dev/null
expect_status "players_forecast must be true or false" 400
call "$GM" POST "/api/fights/$F/settings" '{"players_forecast":true}' >/dev/null
expect_status "the GM allows the players' forecast" 200
forecast_done "$PA" "$F" && ok "then a player sees it" || fail "player's forecast: $(cat "$TMP/body")"

# A change: a new forecast, for the new state.
call "$GM" POST "/api/fights/$F/command" '{"text":"next"}' >/dev/null
call "$GM" POST "/api/fights/$F/command" '{"text":"aldric attack black-knight","cards":"KH 7C 4D 9S 2H 5C"}' >/dev/null
expect_status "Sir Aldric attacks" 200
call "$GM" GET "/api/fights/$F/forecast" >/dev/null
expect_status "the forecast after a change" 200
forecast_done "$GM" "$F"
jq -e '.length.from == 4 and .done == true' "$TMP/body" >/dev/null \
    && ok "the forecast is from the new state (phase 4)" || fail "after the change: $(cat "$TMP/body")"
# Changes in a row while a forecast runs: each stops the one before.
for i in 1 2 3; do
    call "$GM" POST "/api/fights/$F/step" >/dev/null
    call "$GM" GET "/api/fights/$F/forecast" >/dev/null
done
forecast_done "$GM" "$F" && ok "steps in a row, then a whole forecast" || fail "$(cat "$TMP/body")"

# ---- Alloy: the skirmish ----------------------------------------------------------------
call "$GM" POST /api/fights '{"encounter":"examples/alloy/skirmish.yaml","seed":3}' >/dev/null
expect_status "an Alloy skirmish" 201
G=$(jq -r .id "$TMP/body")
call "$GM" GET "/api/fights/$G/odds?who=merc" >/dev/null
expect_status "Vance's odds" 200
jq -e '(.actions | length) >= 1 and .actions[0].damage.tracks == ["HP"]
       and (.actions[0].outcomes[0].exact | test("/20$"))
       and .actions[0].damage.p_drop >= 0' "$TMP/body" >/dev/null \
    && ok "Alloy: attacks with hit points and twentieths" || fail "alloy odds: $(head -c 800 "$TMP/body")"
# What deals no damage, after the attacks, with its chance of success
# (issue 19): the pistol's disarm of Thug 1, 13/20.
jq -e '.actions[0].p_success == null
       and ([.actions[] | select(.damage.p_drop < 0)] | length) >= 1
       and ([.actions[] | select(.damage.p_drop < 0) | .p_success > 0 and .p_success <= 1] | all)
       and (.actions | map(select(.command == "disarm thug-1")) | .[0].p_success == 0.65
            and .[0].outcomes[1].exact == "13/20")
       and ([.actions[] | .damage.p_drop < 0] | . == (. | sort))' "$TMP/body" >/dev/null \
    && ok "Alloy: a disarm ranked after the attacks by its chance of success" \
    || fail "alloy no-damage odds: $(head -c 1200 "$TMP/body")"
forecast_done "$GM" "$G" && jq -e '.length.unit == "round" and (.sides | map(.name)) == ["Crew", "Gang"]' "$TMP/body" >/dev/null \
    && ok "Alloy: the forecast in rounds" || fail "alloy forecast: $(cat "$TMP/body")"

# ---- 99 Towers: an area (the Fireball in the brawl) ------------------------------------
call "$GM" POST /api/fights '{"encounter":"examples/towers/brawl.yaml","seed":3}' >/dev/null
expect_status "a 99 Towers brawl" 201
B=$(jq -r .id "$TMP/body")
call "$GM" GET "/api/fights/$B/odds?who=ysolde" >/dev/null
expect_status "Ysolde's odds" 200
jq -e '[.actions[] | select(.area)] | length >= 1
       and (.[0].area.caught | length) >= 2
       and (.[0].area.caught[0].outcomes | map(.name)) == ["miss", "hit", "critical"]
       and .[0].area.dropped == null
       and (.[0].area.expected_dropped >= 0)' "$TMP/body" >/dev/null \
    && ok "99 Towers: an area, each creature caught" || fail "area odds: $(head -c 800 "$TMP/body")"

# ---- Silent Winter: the brawl ---------------------------------------------------------
call "$GM" POST /api/fights '{"encounter":"examples/silent-winter/brawl.yaml","seed":3}' >/dev/null
expect_status "a Silent Winter brawl" 201
W=$(jq -r .id "$TMP/body")
call "$GM" POST "/api/fights/$W/command" '{"text":"bandit-1 engage warrior"}' >/dev/null
expect_status "bandit 1 Engages the Warrior" 200
for i in 1 2 3 4; do
    call "$GM" POST "/api/fights/$W/command" '{"text":"next"}' >/dev/null
done
call "$GM" GET "/api/fights/$W/odds?who=bandit-1" >/dev/null
expect_status "bandit 1's odds once engaged" 200
jq -e '(.actions | length) == 2 and .actions[0].command == "attack warrior"
       and .actions[1].command == "disengage warrior" and .actions[1].p_success > 0
       and (.actions[0].outcomes | map(.name)) == ["miss", "hit"]
       and .actions[0].outcomes[1].exact == "3/10"
       and .actions[0].damage.tracks == ["Health", "Pain"]
       and (.actions[0].assumed | test("d20\\+4 against d20\\+8"))' "$TMP/body" >/dev/null \
    && ok "Silent Winter: the attack's exact chances on Health and Pain" \
    || fail "winter odds: $(head -c 800 "$TMP/body")"
forecast_done "$GM" "$W" && jq -e '.length.unit == "segment" and .done == true
       and (.sides | map(.name)) == ["Heroes", "Bandits"]
       and (.combatants | length) == 5' "$TMP/body" >/dev/null \
    && ok "Silent Winter: the forecast in segments" || fail "winter forecast: $(cat "$TMP/body")"

# ---- kept across a restart ------------------------------------------------------------
kill -TERM "$PID"
wait "$PID"
rc=$?
[ $rc -eq 0 ] && ok "SIGTERM with forecasts run: a clean stop (exit 0)" \
    || fail "SIGTERM: exit $rc: $(cat "$TMP/S.err")"
start_odds
call "$PA" GET "/api/fights/$F/forecast" >/dev/null
expect_status "after a restart the players still see the forecast" 200

finish

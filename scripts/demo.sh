#!/bin/sh
# fray's main job: a short tour of flips, dice and exact odds, then a whole
# 99 Towers fight told as it happens. usage: demo.sh PATH/TO/fray
set -eu
fray=$1
# The example files are found from the sources, wherever this runs from.
root=$(cd "$(dirname "$0")/.." && pwd)
show() {
    echo
    line="\$ fray"
    for a in "$@"; do
        case "$a" in *" "*) line="$line \"$a\"" ;; *) line="$line $a" ;; esac
    done
    echo "$line"
    "$fray" "$@" || true
}
echo "fray $("$fray" version | cut -d' ' -f2): card flips, dice and exact odds"
echo
echo "Tony has Initiative 2. He flips two cards, a King and a Four, keeps the"
echo "King (13) and adds his 2: Calculated Initiative 15 (seed 000)."
show flip 2 --shift 2 --cards "KH 4S"
echo
echo "A skill flip of 3 cards with Aspect 2 against DTN 15, shuffled with seed 7:"
show flip 3 --aspect 2 --dtn 15 --seed 7
echo
echo "How likely is that to succeed? Exactly:"
show odds flip 3 --aspect 2 --dtn 15
echo
echo "Tony fires a heavy rifle (PA 3 cards, damage 7) at a bandit (PD 2, ER 1):"
show odds attack 3 2 --damage 7 --resilience 1
echo
echo "An opposed skill flip: Stealth 3 + Aspect 2 against Notice 2 + Aspect 3:"
show odds opposed 3 2 --aspect 2 --opposing-aspect 3
echo
echo "Dice for the other rulesets: a D6 code with a Wild Die, and its odds:"
show roll 4D!+2 --seed 11
show odds roll 4D!+2 --vs 15
echo
echo "An Alloy attack: d20+5 against Defense 15, 2{W}+3 with a 1d8 weapon:"
show odds roll d20+5 --attack --vs 15 --damage "2{W}+3" --weapon 1d8
echo
cd "$root"
echo "For the designer: how often does Sir Aldric beat the Black Knight, and"
echo "what if longblades dealt 5 or 6? 20,000 duels per variant, the same"
echo "decks for each (fray sim --report duel.html would draw the charts):"
show sim examples/towers/duel.yaml -n 20000 --vary longblade.damage=4,5,6 --quiet
echo
echo "The same duel without Hand of Fate, each flip from a fresh deck, exactly:"
show odds duel tests/data/towers/duel_knights.yaml
echo
echo "A skirmish at a waystation, run by the tactics policies: each round the"
echo "Combat Clock and the map, every card flipped, STUN and LETHAL, the winner."
echo "(The same seed gives the same fight; --json gives a replayable journal.)"
cd "$root"
show fight examples/towers/skirmish.yaml --seed 7

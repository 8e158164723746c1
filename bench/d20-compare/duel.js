// duel.js - the Alloy duel of bench_sim (soldier against thug) in the npm
// package dnd-combat-simulator, run N times: prints duels per second and
// who won. Usage: node duel.js N
//
// The two fighters, as bench_sim builds them: soldier 30 hit points,
// Defense (AC) 15, initiative +2, +5 to hit, 1d8+3; thug 26, 13, +1, +4,
// 1d8+2. dnd-combat-simulator rolls d20 + bonus >= AC to hit (no natural
// 1 or 20, no crits) and d8 + bonus damage, each round in initiative
// order, until one side is down: the same dice per attack as fray's bare
// loop, a little less rules than fray's engine.
'use strict';
const dnd = require('dnd-combat-simulator');

const n = parseInt(process.argv[2] || '100000', 10);
const soldier = new dnd.Combatant('soldier', 30, 15, 2, 5, 8, 1, 3);
const thug = new dnd.Combatant('thug', 26, 13, 1, 4, 8, 1, 2);
const a = new dnd.Party();
a.addMember(soldier);
const b = new dnd.Party();
b.addMember(thug);
const combat = new dnd.Combat();
combat.addParty(a, 'soldier');
combat.addParty(b, 'thug');

function run(count) {
  let wins = 0;
  for (let i = 0; i < count; i++) {
    combat.reset();
    const survivors = combat.runFight();
    if (survivors.length > 0 && survivors[0].party_id === 'soldier') wins++;
  }
  return wins;
}

run(Math.min(n, 2000)); // warm the JIT up
const t0 = process.hrtime.bigint();
const wins = run(n);
const dt = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`dnd-combat-simulator-duels-per-s ${(n / dt).toFixed(0)}`);
console.log(`dnd-combat-simulator-soldier-wins ${(wins / n).toFixed(4)}`);

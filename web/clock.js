// clock.js - the Combat Clock drawn as its 10x10 grid of phases (99
// Towers), or Alloy's initiative order and round.
import { h, s, sideColor, initials } from './dom.js';

const CELL = 34;

function byTime(view) {
  return view.combatants
    .filter((c) => c.time && c.time.on)
    .sort((a, b) => a.time.at - b.time.at || a.time.order - b.time.order);
}

// The grid: phases 0-99 (as the terminal table draws it), each combatant's
// token on the phase of its next activation, the current phase marked,
// and the order within a phase (first on the left).
export function combatClock(view) {
  const now = ((view.now % 100) + 100) % 100;
  const on = byTime(view);
  const at = new Map();
  for (const c of on) {
    const p = ((c.time.at % 100) + 100) % 100;
    if (!at.has(p)) at.set(p, []);
    at.get(p).push(c);
  }
  const pad = 26;
  const svg = s('svg', {
    viewBox: `0 0 ${pad + 10 * CELL + 2} ${pad + 10 * CELL + 2}`,
    class: 'clock', role: 'img',
    'aria-label': `Combat Clock, now phase ${view.now}`,
  });
  for (let i = 0; i < 10; i++) {
    svg.append(s('text', { x: pad + i * CELL + CELL / 2, y: 16, class: 'axis', 'text-anchor': 'middle' }, `+${i}`));
    svg.append(s('text', { x: pad - 4, y: pad + i * CELL + CELL / 2 + 4, class: 'axis', 'text-anchor': 'end' }, String(i * 10)));
  }
  for (let p = 0; p < 100; p++) {
    const x = pad + (p % 10) * CELL;
    const y = pad + Math.floor(p / 10) * CELL;
    const g = s('g', { class: p === now ? 'phase now' : 'phase', 'data-phase': p });
    g.append(s('rect', { x, y, width: CELL, height: CELL }));
    g.append(s('title', {}, `phase ${p}`));
    const here = at.get(p) || [];
    here.forEach((c, k) => {
      const n = here.length;
      const w = (CELL - 4) / Math.max(n, 1);
      const cx = x + 2 + w * k + w / 2;
      const cy = y + CELL / 2;
      const r = Math.min(w / 2, CELL / 2 - 3);
      g.append(s('circle', { cx, cy, r, fill: sideColor(c.side), class: c.time.holding ? 'holding' : '' }));
      g.append(s('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'tok', 'font-size': n > 2 ? 8 : 11 }, initials(c.name)));
    });
    svg.append(g);
  }
  return h('figure', { class: 'clockbox' },
    svg,
    h('figcaption', {}, `Now phase ${view.now}`, view.turn_words ? `; next: ${view.turn_words}` : ''),
    h('ol', { class: 'order', 'aria-label': 'Who acts next, in order' },
      on.map((c) => h('li', { class: view.turn === c.index ? 'turn' : '' },
        h('span', { class: 'dot', style: `background:${sideColor(c.side)}` }),
        `${c.name}: ${c.time.words}${c.time.holding ? ' (holding)' : ''}`))),
    holders(view));
}

function holders(view) {
  const hold = view.combatants.filter((c) => c.time && !c.time.on && c.time.holding);
  if (!hold.length) return null;
  return h('p', {}, 'Holding: ', hold.map((c) => `${c.name} (${c.time.words})`).join(', '));
}

// Alloy: the round and the initiative order, whose turn it is marked.
export function initiativeOrder(view) {
  const on = view.combatants.filter((c) => c.time && c.time.on)
    .sort((a, b) => a.time.order - b.time.order);
  return h('section', { class: 'initiative', 'aria-label': 'Initiative order' },
    h('p', { class: 'round' }, `Round ${view.now}`, view.turn_words ? ` (${view.turn_words})` : ''),
    h('ol', { class: 'order' },
      on.map((c) => h('li', { class: view.turn === c.index ? 'turn' : (c.time.acted ? 'acted' : '') },
        h('span', { class: 'dot', style: `background:${sideColor(c.side)}` }),
        `${c.name}: initiative ${c.time.at}`,
        view.turn === c.index ? ' (their turn)' : (c.time.acted ? ' (has acted)' : ''),
        c.time.holding ? ' (delaying)' : ''))));
}

// Silent Winter: the segment count and who declares when (each one's next
// segment and what it waits on, as the view's words say).
export function segmentTrack(view) {
  const on = view.combatants.filter((c) => c.time && c.time.on)
    .sort((a, b) => a.time.at - b.time.at || a.time.order - b.time.order);
  return h('section', { class: 'initiative', 'aria-label': 'Segments' },
    h('p', { class: 'round' }, `Segment ${view.now}`, view.turn_words ? ` (${view.turn_words})` : ''),
    h('ol', { class: 'order' },
      on.map((c) => h('li', { class: view.turn === c.index ? 'turn' : '' },
        h('span', { class: 'dot', style: `background:${sideColor(c.side)}` }),
        `${c.name}: ${c.time.words || `segment ${c.time.at}`}`,
        view.turn === c.index ? ' (declares now)' : ''))));
}

export function timeTrack(view) {
  return view.rules === 'towers' ? combatClock(view)
    : view.rules === 'silent-winter' ? segmentTrack(view) : initiativeOrder(view);
}

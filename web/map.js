// map.js - the tactical map: cells from view.map with the legend, tokens
// by side with their size, marks, areas, and reach when the view has it.
import { h, s, sideColor, initials } from './dom.js';

const CELL = 30;
const FILL = {
  '.': '#f4f1e8', '#': '#4a4a4a', '~': '#c9dbe8', '=': '#d9c9a3', v: '#262626',
};
function fill(code) {
  if (FILL[code]) return FILL[code];
  if (code >= '1' && code <= '9') { const k = 230 - 12 * Number(code); return `rgb(${k},${k + 10},${k - 20})`; }
  return '#e0e0e0';
}

// A space as the view writes it: [x, y] (areas, reach) or {x, y} (seen).
const pt = (p) => (Array.isArray(p) ? { x: p[0], y: p[1] } : p);

// A reach, as serve2 may give it: cells ([[x,y]...] or [{x,y}...]) or a
// number of spaces around the token.
function reachCells(c) {
  const r = c.reach;
  if (r === undefined || r === null) return null;
  if (Array.isArray(r)) return r.map(pt);
  if (typeof r === 'object' && Array.isArray(r.spaces)) return reachCells({ reach: r.spaces });
  if (typeof r === 'number' && c.place) {
    const out = [];
    const { x, y, size } = c.place;
    for (let j = y - r; j < y + size + r; j++) for (let i = x - r; i < x + size + r; i++) out.push({ x: i, y: j });
    return out;
  }
  return null;
}

// opts: {choosing: bool, onSpace(x, y), reachOf: combatant index or -1}
export function tacticalMap(view, opts = {}) {
  const m = view.map;
  if (!m) return h('p', { class: 'nomap' }, 'No map in this fight.');
  const W = m.width * CELL;
  const H = m.height * CELL;
  const svg = s('svg', {
    viewBox: `0 0 ${W + 1} ${H + 1}`, width: W + 1, height: H + 1,
    class: opts.choosing ? 'map choosing' : 'map', role: 'img',
    'aria-label': `Map ${m.width} by ${m.height}`,
  });
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      const code = m.rows[y][x];
      const r = s('rect', { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: fill(code), class: 'cell', 'data-x': x, 'data-y': y });
      r.append(s('title', {}, `${x},${y}`));
      if (opts.choosing) r.addEventListener('click', () => opts.onSpace(x, y));
      svg.append(r);
      if (code >= '1' && code <= '9') svg.append(s('text', { x: x * CELL + 3, y: y * CELL + 10, class: 'lvl' }, code));
    }
  }
  for (const a of m.areas || []) {
    for (const p of a.spaces.map(pt)) svg.append(s('rect', { x: p.x * CELL + 1, y: p.y * CELL + 1, width: CELL - 2, height: CELL - 2, class: `area area-${a.name}` }));
  }
  // Reach: the turn's combatant's, or everyone's when asked (opts.reachAll).
  for (const c of view.combatants) {
    if (!opts.reachAll && c.index !== view.turn) continue;
    const cells = reachCells(c);
    if (!cells || c.out) continue;
    for (const p of cells) svg.append(s('rect', { x: p.x * CELL + 3, y: p.y * CELL + 3, width: CELL - 6, height: CELL - 6, class: 'reach', stroke: sideColor(c.side) }));
  }
  const byIndex = new Map(view.combatants.map((c) => [c.index, c]));
  for (const c of view.combatants) {
    if (!c.place) continue;
    const { x, y, size } = c.place;
    const cx = (x + size / 2) * CELL;
    const cy = (y + size / 2) * CELL;
    const g = s('g', { class: c.out ? 'token out' : 'token', 'data-id': c.id });
    g.append(s('circle', { cx, cy, r: (size * CELL) / 2 - 3, fill: sideColor(c.side), stroke: view.turn === c.index ? '#000' : '#fff', 'stroke-width': view.turn === c.index ? 3 : 1.5 }));
    g.append(s('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'tok' }, initials(c.name)));
    g.append(s('title', {}, `${c.name} at ${x},${y}${size > 1 ? ` (${size}x${size})` : ''}, ${c.status}`));
    if (opts.choosing) g.addEventListener('click', () => opts.onSpace(x, y));
    svg.append(g);
    // Where a side last saw it, when that is not where it is (Alloy's
    // total concealment): a dashed ring with the side's name.
    (c.seen || []).forEach((p, side) => {
      if (!p) return;
      const q = pt(p);
      if (q.x === x && q.y === y) return;
      const ring = s('circle', { cx: (q.x + 0.5) * CELL, cy: (q.y + 0.5) * CELL, r: CELL / 2 - 4, class: 'seen', stroke: sideColor(c.side) });
      ring.append(s('title', {}, `${c.name}, where ${view.sides[side] ?? `side ${side}`} last saw it`));
      svg.append(ring);
    });
  }
  for (const mk of m.marks || []) {
    let px; let py;
    if (mk.kind === 'space') { px = mk.x; py = mk.y; } else {
      const t = byIndex.get(mk.target);
      if (!t || !t.place) continue;
      px = t.place.x; py = t.place.y;
    }
    svg.append(s('rect', { x: px * CELL + 1, y: py * CELL + 1, width: CELL - 2, height: CELL - 2, class: `mark mark-${mk.kind}` }));
  }
  const legend = h('ul', { class: 'legend', 'aria-label': 'Legend' },
    (m.legend || []).map((l) => h('li', {}, h('span', { class: 'swatch', style: `background:${fill(l.code)}` }), `${l.code} ${l.name}`)),
    (m.areas || []).length ? (m.areas.map((a) => h('li', {}, h('span', { class: `swatch area-${a.name}` }), `${a.name} (area)`))) : null,
    (m.marks || []).length ? h('li', {}, h('span', { class: 'swatch markswatch' }), 'marked target') : null,
    view.combatants.some((c) => reachCells(c)) ? h('li', {}, h('span', { class: 'swatch reachswatch' }), opts.reachAll ? 'reach (dashed, by side)' : 'reach of whose turn it is (dashed)') : null);
  const placed = view.combatants.filter((c) => c.place);
  return h('div', {},
    h('div', { class: 'mapbox', tabindex: 0, 'aria-label': 'The map (scrolls)' }, svg),
    legend,
    h('ul', { class: 'places', 'aria-label': 'Where each combatant stands' },
      placed.map((c) => h('li', {}, h('span', { class: 'dot', style: `background:${sideColor(c.side)}` }),
        `${c.name} (${initials(c.name)}): ${c.place.x},${c.place.y}${c.place.size > 1 ? `, ${c.place.size}x${c.place.size}` : ''}`))));
}

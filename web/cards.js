// cards.js - each combatant's card: health tracks with descriptors,
// conditions with what ends them, resources, weapons, time; and the Hands
// of Fate the page may see.
import { h, card, sideColor } from './dom.js';

function track(t) {
  if (t.value === undefined || t.value === null) {
    return h('li', { class: 'track' }, h('strong', {}, t.name), ` ${t.descriptor}`);
  }
  const pct = t.max > 0 ? Math.max(0, Math.min(100, (100 * t.value) / t.max)) : 0;
  return h('li', { class: 'track' },
    h('strong', {}, t.name), ` ${t.value}/${t.max}`,
    t.temporary ? ` (${t.temporary} temporary)` : '',
    ` ${t.descriptor}`,
    h('span', { class: 'bar', 'aria-hidden': 'true' }, h('span', { style: `width:${pct}%` })));
}

function condition(c) {
  return h('li', {}, c.name, c.value ? ` ${c.value}` : '', c.until ? `: ${c.until}` : '');
}

export function combatantCard(view, c, mine) {
  const side = view.sides[c.side] ?? `side ${c.side}`;
  return h('article', {
    class: `ccard${c.out ? ' out' : ''}${view.turn === c.index ? ' turn' : ''}${mine ? ' mine' : ''}`,
    'aria-label': c.name, 'data-id': c.id, style: `border-left-color:${sideColor(c.side)}`,
  },
  h('h3', {}, c.name, h('span', { class: 'cid' }, ` (${c.id})`)),
  h('p', { class: 'meta' }, `${side}: ${c.status}`, c.time && c.time.words && c.time.words !== c.status ? `, ${c.time.words}` : '',
    c.gm_only ? ', not yet in the fight (GM only)' : '', c.unnoticed ? ', not yet noticed' : ''),
  h('ul', { class: 'tracks' }, (c.health || []).map(track)),
  c.conditions && c.conditions.length ? h('div', {}, h('h4', {}, 'Conditions'), h('ul', {}, c.conditions.map(condition))) : null,
  c.resources && c.resources.length ? h('p', { class: 'res' }, c.resources.map((r) => `${r.name} ${r.value}`).join(', ')) : null,
  c.weapons && c.weapons.length ? h('p', { class: 'weap' }, 'In hand: ', c.weapons.join(', ')) : null);
}

export function hands(view) {
  if (!view.hands || !view.hands.length) return null;
  const name = (i) => (view.combatants.find((c) => c.index === i) || {}).name || `#${i}`;
  return h('section', { class: 'hands', 'aria-labelledby': 'hands-h' },
    h('h2', { id: 'hands-h' }, 'Hand of Fate'),
    view.hands.map((hd) => h('div', { class: 'hand', 'data-deck': hd.deck },
      h('h3', {}, hd.gm_deck ? "The GM's deck" : `${hd.deck}'s deck`,
        hd.users && hd.users.length ? h('span', { class: 'cid' }, ` (${hd.users.map(name).join(', ')})`) : ''),
      h('p', {}, hd.cards.length ? hd.cards.map(card) : 'no cards'))));
}

// dom.js - small helpers to build the pages' elements (no framework).

// h('button', {class: 'x', onclick: f}, 'text', child...)
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

const SVG = 'http://www.w3.org/2000/svg';
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Replaces box's children, keeping the keyboard focus on the element
// with the same data-key (a live update must not throw the focus away).
export function replace(box, ...children) {
  const active = document.activeElement;
  const key = active && box.contains(active) ? active.dataset.key : null;
  box.replaceChildren();
  append(box, children);
  if (key) {
    const again = box.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus();
  }
}

const SUITS = { H: '♥', D: '♦', C: '♣', S: '♠' };
// "KH" -> "K♥" (red for hearts and diamonds), "JK" -> a Joker.
export function card(code) {
  if (code === 'JK' || code === 'BJ' || code === 'RJ') return h('span', { class: 'card joker', title: 'Joker' }, 'Joker');
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  const red = suit === 'H' || suit === 'D';
  return h('span', { class: red ? 'card red' : 'card', title: code }, rank + (SUITS[suit] || suit));
}

export const SIDE_COLORS = ['#1f5fbf', '#b3261e', '#2e7d32', '#8e24aa', '#b85c00', '#00796b'];
export function sideColor(side) { return SIDE_COLORS[((side % SIDE_COLORS.length) + SIDE_COLORS.length) % SIDE_COLORS.length]; }

// Two letters for a token: "Sir Aldric" -> "SA", "bandit 2" -> "b2".
export function initials(name) {
  const words = String(name).replace(/^The /, '').split(/\s+/).filter(Boolean);
  if (words.length === 1) return words[0].slice(0, 2);
  return words.slice(0, 2).map((w) => w[0]).join('');
}

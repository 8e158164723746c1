// odds.js - the chances beside the actions (GET /api/fights/ID/odds?who=ID)
// and "who wins from here" (GET /api/fights/ID/forecast), when the server
// has them (issue 19); on 404 (or any refusal) both panels stay hidden.
import { h, replace } from './dom.js';

const pct = (p) => `${(100 * p).toFixed(p > 0 && p < 0.01 ? 1 : 0)}%`;

export function makeOdds(api, fight) {
  const oddsBox = h('section', { class: 'odds', 'aria-labelledby': 'odds-h', hidden: true },
    h('h2', { id: 'odds-h' }, 'Chances'), h('div', {}));
  const foreBox = h('section', { class: 'forecast', 'aria-labelledby': 'fore-h', hidden: true },
    h('h2', { id: 'fore-h' }, 'Who wins from here'), h('div', {}));
  let asked = '';
  let foreTimer = null;
  let byCommand = new Map();

  async function forecast(key, tries) {
    try {
      const f = await api.get(`/api/fights/${fight}/forecast`);
      if (asked !== key) return;
      replace(foreBox.lastChild,
        h('ul', {}, (f.sides || []).map((sd) => h('li', {}, `${sd.name}: ${pct(sd.p)}`,
          sd.low !== undefined ? ` (${pct(sd.low)} to ${pct(sd.high)})` : ''))),
        h('p', { class: 'small' }, f.length !== undefined ? `about ${Number(f.length).toFixed(1)} more to the end; ` : '',
          `${f.trials} fights played out${f.done ? '' : ' so far'}`));
      foreBox.hidden = false;
      if (!f.done && tries < 10) foreTimer = setTimeout(() => forecast(key, tries + 1), 1000);
    } catch {
      foreBox.hidden = true;
    }
  }

  return {
    panels: [oddsBox, foreBox],
    // The chances of one action's command ("aldric attack black-knight"), if known.
    chances(command) { return byCommand.get(command) || null; },
    async update(state, onReady) {
      const v = state.view;
      const key = `${state.change}:${state.events}:${v.turn}`;
      if (key === asked) return;
      asked = key;
      clearTimeout(foreTimer);
      forecast(key, 0);
      const actor = v.combatants.find((c) => c.index === v.turn && c.actions && c.actions.length);
      if (!actor) { oddsBox.hidden = true; byCommand = new Map(); return; }
      try {
        const o = await api.get(`/api/fights/${fight}/odds?who=${encodeURIComponent(actor.id)}`);
        if (asked !== key) return;
        byCommand = new Map((o.actions || []).map((a) => [a.command, a.outcomes || []]));
        replace(oddsBox.lastChild, h('ul', {}, (o.actions || []).map((a) => h('li', {},
          h('strong', {}, a.title || a.command), ': ',
          (a.outcomes || []).map((x) => `${x.name} ${pct(x.p)}`).join(', ')))));
        oddsBox.hidden = false;
        if (onReady) onReady();
      } catch {
        oddsBox.hidden = true;
        byCommand = new Map();
      }
    },
  };
}

export function chancesText(outcomes) {
  return outcomes.map((x) => `${x.name} ${pct(x.p)}`).join(', ');
}

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

  let state = { view: { combatants: [] } };

  async function forecast(key, tries) {
    try {
      const f = await api.get(`/api/fights/${fight}/forecast`);
      if (asked !== key) return;
      // length: {unit, from, mean, sd}: when the fights end (the server's
      // shape, docs/server.md); a plain number is read as the mean.
      const L = f.length;
      const ends = L && typeof L === 'object' && L.mean
        ? `ends about ${L.unit} ${Number(L.mean).toFixed(0)} (give or take ${Number(L.sd).toFixed(0)}); `
        : typeof L === 'number' ? `ends about ${L.toFixed(1)}; ` : '';
      const names = new Map((state.view.combatants || []).map((c) => [c.id, c.name]));
      replace(foreBox.lastChild,
        h('ul', {}, (f.sides || []).map((sd) => h('li', {}, `${sd.name}: ${pct(sd.p)}`,
          sd.low !== undefined ? ` (${pct(sd.low)} to ${pct(sd.high)})` : ''))),
        (f.combatants || []).length
          ? h('p', { class: 'small' }, 'Still standing at the end: ',
            f.combatants.map((c) => `${names.get(c.id) || c.id} ${pct(c.standing)}`).join(', '))
          : null,
        h('p', { class: 'small' }, ends,
          `${f.trials} fights played out${f.done ? '' : ' so far'}`));
      foreBox.hidden = false;
      // Asked again each second until the server has played every fight
      // (a slow machine or a big fight takes longer; at most ten minutes).
      if (!f.done && tries < 600) foreTimer = setTimeout(() => forecast(key, tries + 1), 1000);
    } catch {
      foreBox.hidden = true;
    }
  }

  return {
    panels: [oddsBox, foreBox],
    // The chances of one action's command ("aldric attack black-knight"), if known.
    chances(command) { return byCommand.get(command) || null; },
    async update(st, onReady) {
      state = st;
      const v = st.view;
      const key = `${st.change}:${st.events}:${v.turn}`;
      if (key === asked) return;
      asked = key;
      byCommand = new Map();
      clearTimeout(foreTimer);
      forecast(key, 0);
      const actor = v.combatants.find((c) => c.index === v.turn && c.actions && c.actions.length);
      if (!actor) { oddsBox.hidden = true; byCommand = new Map(); return; }
      try {
        const o = await api.get(`/api/fights/${fight}/odds?who=${encodeURIComponent(actor.id)}`);
        if (asked !== key) return;
        // The server's command leaves out the actor ("attack bandit-1"):
        // the page's buttons ask by the whole command.
        byCommand = new Map((o.actions || []).map((a) => [`${actor.id} ${a.command}`, a.outcomes || []]));
        // What deals no damage (a trip, an aid, an Avoid): its chance of
        // success first ("55% succeeds"), then its outcomes. An attack
        // tells its outcomes only, whatever p_success the ruleset gives
        // it (D6's attacks carry the chance not to miss).
        const succeeds = (a) => typeof a.p_success === 'number' &&
          !(a.damage && typeof a.damage.p_drop === 'number' && a.damage.p_drop >= 0);
        replace(oddsBox.lastChild, h('ul', {}, (o.actions || []).map((a) => h('li', {},
          h('strong', {}, a.title || a.command), ': ',
          succeeds(a) ? `${pct(a.p_success)} succeeds (` : '',
          (a.outcomes || []).map((x) => `${x.name} ${pct(x.p)}`).join(', '),
          succeeds(a) ? ')' : '',
          // An area: each creature caught has its own chances (the ones
          // above are the one aimed at's); how many it drops.
          a.area ? `; ${a.area.caught.length} caught, on average ${Number(a.area.expected_dropped).toFixed(1)} out of the fight after it` : ''))));
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

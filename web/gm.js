// gm.js - the GM's parts: the list of fights (start, upload, open,
// archive), the GM's overrides as the table's `gm ...` words, the players'
// links and the "players may play" switch, the journal download.
import { h, replace } from './dom.js';

const RULES = { towers: '99 Towers', alloy: 'Alloy' };
let uid = 0;
const id = (p) => `${p}-${++uid}`;

function field(label, input) {
  const i = input.id || id('f');
  input.id = i;
  return h('span', { class: 'field' }, h('label', { for: i }, label), input);
}

function select(name, options) {
  return h('select', { name }, options.map(([v, t]) => h('option', { value: v }, t)));
}

// The overrides (the GM's words of 99 Towers and Alloy: docs/file-formats.md
// "Commands").
export function overrides(command) {
  const forms = h('div', {});
  const el = h('section', { class: 'panel gmp', 'aria-labelledby': 'gm-h' },
    h('h2', { id: 'gm-h' }, "The GM's overrides"), forms);
  let key = '';

  function who(name) { return select(name, []); }
  const sel = [];
  function whoSel(label) { const s = who('who'); sel.push(s); return field(label, s); }

  function form(title, fields, make) {
    return h('form', {
      class: 'gmform', onsubmit: async (e) => {
        e.preventDefault();
        const text = make(e.target);
        if (text && await command(text)) e.target.reset();
      },
    }, h('fieldset', {}, h('legend', {}, title), fields, h('button', { type: 'submit' }, title)));
  }

  const damage = form('Adjust damage', [
    whoSel('Combatant'),
    field('Track', select('track', [['stun', 'STUN'], ['lethal', 'LETHAL'], ['temp-stun', 'temporary STUN'], ['temp-lethal', 'temporary LETHAL']])),
    field('How', select('how', [['adjust', 'change by'], ['set', 'set to']])),
    field('Amount', h('input', { name: 'n', type: 'number', required: true, step: 1 })),
  ], (f) => {
    const n = Number(f.n.value);
    if (f.how.value === 'set') return `gm set ${f.who.value} ${f.track.value} ${n}`;
    return `gm adjust ${f.who.value} ${f.track.value} ${n >= 0 ? '+' : ''}${n}`;
  });
  const cond = form('Condition', [
    whoSel('Combatant'),
    field('Condition', h('input', { name: 'cname', required: true, placeholder: 'bleeding, prone' })),
    field('Value (bleeding, burning)', h('input', { name: 'x', type: 'number', min: 0, step: 1 })),
    field('For N activations', h('input', { name: 'for', type: 'number', min: 1, step: 1 })),
    field('Put on or take off', select('onoff', [['on', 'put on'], ['off', 'take off']])),
  ], (f) => {
    const w = f.cname.value.trim();
    if (f.onoff.value === 'off') return `gm condition ${f.who.value} ${w} off`;
    return `gm condition ${f.who.value} ${w}${f.x.value ? ` ${f.x.value}` : ''}${f.for.value ? ` for ${f.for.value}` : ''}`;
  });
  const join = form('Bring in', [
    whoSel('Combatant'),
    field('At X,Y (empty: as the file says)', h('input', { name: 'at', placeholder: '3,4', pattern: '\\d+,\\d+' })),
    field('In phase (empty: an Initiative flip)', h('input', { name: 'phase', type: 'number', min: 0, step: 1 })),
  ], (f) => `gm join ${f.who.value}${f.at.value ? ` at ${f.at.value}` : ''}${f.phase.value ? ` phase ${f.phase.value}` : ''}`);
  const flee = form('Take out', [whoSel('Combatant')], (f) => `gm flee ${f.who.value}`);
  // Alloy's (docs/file-formats.md "Alloy commands"): hit points (dying at
  // 0 and below, dead at -half), the conditions of its seed with how they
  // end, a combatant brought in at a square.
  const hp = form('Hit points', [
    whoSel('Combatant'),
    field('How', select('how', [['adjust', 'change by'], ['set', 'set to']])),
    field('Hit points', h('input', { name: 'n', type: 'number', required: true, step: 1 })),
  ], (f) => {
    const n = Number(f.n.value);
    if (f.how.value === 'set') return `gm set ${f.who.value} hp ${n}`;
    return `gm adjust ${f.who.value} hp ${n >= 0 ? '+' : ''}${n}`;
  });
  const alloyConds = ['blinded', 'dazed', 'deafened', 'dominated', 'helpless', 'immobilized',
    'prone', 'slowed', 'snared', 'stunned', 'unconscious', 'withered'];
  const aCond = form('Condition', [
    whoSel('Combatant'),
    field('Condition', select('cname', alloyConds.map((c) => [c, c]))),
    field('Ends', select('ends', [['until-removed', 'when the GM takes it off'], ['save-ends', 'save ends'],
      ['end-of-turn', 'at the end of its next turn'], ['start-of-turn', 'at the start of its next turn']])),
    field('Put on or take off', select('onoff', [['on', 'put on'], ['off', 'take off']])),
  ], (f) => (f.onoff.value === 'off' ? `gm condition ${f.who.value} ${f.cname.value} off`
    : `gm condition ${f.who.value} ${f.cname.value} ${f.ends.value}`));
  const aJoin = form('Bring in', [
    whoSel('Combatant'),
    field('At X,Y (empty: as the file says)', h('input', { name: 'at', placeholder: '3,4', pattern: '\\d+,\\d+' })),
  ], (f) => `gm join ${f.who.value}${f.at.value ? ` ${f.at.value}` : ''}`);
  const place = form('Move a token', [
    whoSel('Combatant'),
    field('To X,Y', h('input', { name: 'to', required: true, placeholder: '3,4', pattern: '\\d+,\\d+' })),
  ], (f) => `gm place ${f.who.value} ${f.to.value}`);

  return {
    el,
    update(state) {
      const v = state.view;
      const k = v.combatants.map((c) => `${c.id}:${c.name}`).join('|') + v.rules;
      if (k === key) return;
      key = k;
      for (const s of sel) {
        const keep = s.value;
        replace(s, v.combatants.map((c) => h('option', { value: c.id }, `${c.name} (${c.id})`)));
        if (keep) s.value = keep;
      }
      if (v.rules === 'towers') replace(forms, damage, cond, join, flee, place);
      else if (v.rules === 'alloy') replace(forms, hp, aCond, aJoin, flee, place);
      else replace(forms, h('p', {}, "No GM's words for these rules here yet."));
    },
  };
}

// The journal as a file (GET .../journal with the token in its header,
// so not a plain link).
async function downloadJournal(api, fight, say) {
  try {
    const text = await api.text(`/api/fights/${fight}/journal`);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }));
    const a = h('a', { href: url, download: `fight-${fight}.jsonl` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) { say(e.message, true); }
}

// Players' links, "players may play", the journal.
export function playersPanel(api, fight, say) {
  const pp = h('input', { type: 'checkbox', id: 'players-play' });
  const boxes = h('div', { class: 'checks', role: 'group', 'aria-label': 'The combatants the player controls' });
  const links = h('ul', { id: 'links', class: 'links' });
  const nameIn = h('input', { id: 'player-name', required: true, placeholder: 'Ann' });
  const numbers = h('input', { type: 'checkbox', id: 'enemy-numbers', checked: true });
  const unnoticed = h('input', { type: 'checkbox', id: 'show-unnoticed' });
  let key = '';
  pp.addEventListener('change', async () => {
    try {
      await api.post(`/api/fights/${fight}/settings`, { players_play: pp.checked });
      say('');
    } catch (e) { say(e.message, true); pp.checked = !pp.checked; }
  });
  const make = h('form', {
    class: 'gmform', onsubmit: async (e) => {
      e.preventDefault();
      const combatants = [...boxes.querySelectorAll('input:checked')].map((b) => b.value);
      try {
        const r = await api.post(`/api/fights/${fight}/players`, {
          name: nameIn.value.trim(), combatants, enemy_numbers: numbers.checked, show_unnoticed: unnoticed.checked,
        });
        const url = new URL(r.link, window.location.href).href;
        const out = h('input', { readonly: true, value: url, 'aria-label': `${r.name}'s link`, class: 'link', size: 30 });
        links.append(h('li', {}, `${r.name}: `, out,
          h('button', { type: 'button', onclick: async () => { out.select(); try { await navigator.clipboard.writeText(url); say('copied'); } catch { say('select the link and copy it'); } } }, 'Copy')));
        e.target.reset();
        say('');
      } catch (err) { say(err.message, true); }
    },
  }, h('fieldset', {}, h('legend', {}, "A player's link"),
    h('label', { for: 'player-name' }, 'Name'), nameIn, boxes,
    h('span', { class: 'field' }, numbers, h('label', { for: 'enemy-numbers' }, 'sees the enemies\' numbers (else descriptors)')),
    h('span', { class: 'field' }, unnoticed, h('label', { for: 'show-unnoticed' }, 'sees combatants not yet noticed')),
    h('button', { type: 'submit', id: 'make-link' }, 'Make the link')));
  const journal = h('button', { type: 'button', id: 'journal', onclick: () => downloadJournal(api, fight, say) },
    'Download the journal (JSON Lines)');
  const el = h('section', { class: 'panel playersp', 'aria-labelledby': 'players-h' },
    h('h2', { id: 'players-h' }, 'Players'),
    h('p', { class: 'field' }, pp, h('label', { for: 'players-play' }, 'Players may play their own turns')),
    make, links, h('p', {}, journal));
  return {
    el,
    update(state) {
      pp.checked = !!state.players_play;
      const v = state.view;
      const k = v.combatants.map((c) => c.id).join('|');
      if (k === key) return;
      key = k;
      replace(boxes, v.combatants.map((c) => h('span', { class: 'field' },
        h('input', { type: 'checkbox', id: `pc-${c.id}`, value: c.id }),
        h('label', { for: `pc-${c.id}` }, c.name))));
    },
  };
}

// The list of fights, a new fight from an encounter or an upload.
export async function fightList(root, api, { open, say }) {
  const encSel = h('select', { id: 'encounter', required: true });
  const seedIn = h('input', { id: 'seed', inputmode: 'numeric', pattern: '\\d*', placeholder: 'random' });
  const fileIn = h('input', { id: 'upload', type: 'file', accept: '.yaml,.yml' });
  const upSeed = h('input', { id: 'upload-seed', inputmode: 'numeric', pattern: '\\d*', placeholder: 'random' });
  const table = h('div', { id: 'fights' });

  async function start(body) {
    try {
      const r = await api.post('/api/fights', body);
      say('');
      open(r.id);
    } catch (e) { say(e.message, true); }
  }
  async function refresh() {
    try {
      const [{ encounters }, { fights }] = await Promise.all([api.get('/api/encounters'), api.get('/api/fights')]);
      replace(encSel, encounters.map((e) => h('option', { value: e.name }, e.name)));
      const active = fights.filter((f) => !f.archived);
      const archived = fights.filter((f) => f.archived);
      const row = (f) => h('li', { class: 'fightrow', 'data-fight': f.id },
        h('span', {}, h('strong', {}, `${f.title}`), ` (${RULES[f.rules] || f.rules}, ${f.encounter}, seed ${f.seed})`,
          f.problem ? `: cannot be resumed: ${f.problem}` : f.over ? ': over' : f.when ? `: ${f.turn ? `${f.turn}, ` : ''}${f.when}` : ''),
        f.archived ? h('button', { type: 'button', class: 'quiet', onclick: () => downloadJournal(api, f.id, say) }, `Journal of fight ${f.id}`) :
          [h('button', { type: 'button', onclick: () => open(f.id) }, `Open fight ${f.id}`),
            h('button', { type: 'button', class: 'quiet', onclick: async () => {
              if (!window.confirm(`Archive fight ${f.id}? It is kept, but not played on.`)) return;
              try { await api.post(`/api/fights/${f.id}/archive`, {}); refresh(); } catch (e) { say(e.message, true); }
            } }, `Archive fight ${f.id}`)]);
      replace(table,
        active.length ? h('ul', { class: 'fights' }, active.map(row)) : h('p', {}, 'No fight yet.'),
        archived.length ? h('details', {}, h('summary', {}, `Archived (${archived.length})`), h('ul', { class: 'fights' }, archived.map(row))) : null);
    } catch (e) { say(e.message, true); }
  }
  const seedOf = (inp) => (inp.value.trim() ? inp.value.trim() : undefined);
  replace(root, h('div', { class: 'list' },
    h('section', { class: 'panel', 'aria-labelledby': 'new-h' },
      h('h2', { id: 'new-h' }, 'A new fight'),
      h('form', { class: 'gmform', onsubmit: (e) => { e.preventDefault(); start({ encounter: encSel.value, seed: seedOf(seedIn) }); } },
        field('Encounter on the server', encSel), field('Seed', seedIn),
        h('button', { type: 'submit', id: 'start' }, 'Start the fight')),
      h('form', { class: 'gmform', onsubmit: async (e) => {
        e.preventDefault();
        const f = fileIn.files && fileIn.files[0];
        if (!f) { say('choose an encounter file to upload', true); return; }
        start({ upload: { name: f.name, text: await f.text() }, seed: seedOf(upSeed) });
      } },
      field('Or upload an encounter file', fileIn), field('Seed', upSeed),
      h('button', { type: 'submit', id: 'start-upload' }, 'Upload and start'))),
    h('section', { class: 'panel', 'aria-labelledby': 'fights-h' }, h('h2', { id: 'fights-h' }, 'Fights'),
      h('p', {}, h('button', { type: 'button', class: 'quiet', id: 'refresh', onclick: refresh }, 'Refresh the list')), table)));
  await refresh();
}

// fight.js - one fight's page, the GM's or a player's: the clock, the map,
// the cards, the log, the actions by clicking or typing, and (GM) cards
// and dice by hand, Step, undo and redo, the overrides, the players, the
// journal. It shows what the server sent: the server filters a player's.
import { h, replace } from './dom.js';
import { timeTrack } from './clock.js';
import { tacticalMap } from './map.js';
import { combatantCard, hands } from './cards.js';
import { makeOdds, chancesText } from './odds.js';
import { overrides, playersPanel } from './gm.js';

export function fightPage(root, api, fight, opts) {
  const gm = !!opts.gm;
  let cur = null;
  let choice = null; // {actor, action, option, target, space}
  let busy = false;

  const say = opts.say;
  const banner = h('p', { id: 'banner', class: 'banner', role: 'status' });
  const clockBox = h('div', { id: 'clock' });
  const mapBox = h('div', { id: 'map' });
  const actBox = h('div', { id: 'actions' });
  const cardsBox = h('div', { id: 'cards', class: 'cards' });
  const handsBox = h('div', { id: 'hands' });
  const logList = h('ol', { id: 'log', class: 'log', 'aria-label': 'The narrated log' });
  const odds = makeOdds(api, fight);

  const cardsIn = h('input', { id: 'given-cards', name: 'cards', autocomplete: 'off', placeholder: 'KH 7C', 'aria-describedby': 'given-help' });
  const diceIn = h('input', { id: 'given-dice', name: 'dice', autocomplete: 'off', placeholder: '14 3', 'aria-describedby': 'given-help' });
  const cmdIn = h('input', { id: 'command', name: 'command', autocomplete: 'off', placeholder: 'aldric attack black-knight', spellcheck: 'false' });

  function given() {
    const body = {};
    if (!gm) return body;
    const c = cardsIn.value.trim();
    const d = diceIn.value.trim();
    if (c) body.cards = c.toUpperCase();
    if (d) {
      const dice = d.split(/[\s,]+/).map((x) => Number(x));
      if (dice.some((x) => !Number.isInteger(x))) throw new Error(`the dice are whole numbers: "${d}"`);
      body.dice = dice;
    }
    return body;
  }

  async function act(path, body, what) {
    if (busy) return false;
    busy = true;
    root.dataset.sentAt = String(Date.now());
    try {
      const r = await api.post(`/api/fights/${fight}/${path}`, body);
      say('');
      if (r && r.events && r.events.length === 0 && what) say(`${what}: nothing happened`);
      return true;
    } catch (e) {
      say(e.message, true);
      return false;
    } finally {
      busy = false;
    }
  }

  async function command(text) {
    let body;
    try { body = { text, ...given() }; } catch (e) { say(e.message, true); return false; }
    const ok = await act('command', body);
    if (ok) { cardsIn.value = ''; diceIn.value = ''; choice = null; renderActions(); }
    return ok;
  }

  const byIndex = (i) => cur.view.combatants.find((c) => c.index === i);

  // What the choice needs next: the option's own needs once one is chosen
  // (a weapon, a spell, a power: the view's `options`), else the action's.
  const hasOptions = (a) => !!(a.options && a.options.length);
  const step = (c) => (c && c.option) || (c && c.action);
  const needsSpace = (c) => !!(c && step(c).needs_space && (!hasOptions(c.action) || c.option));

  function finish(action) {
    const parts = [choice.actor.id, action.word];
    if (choice.option) parts.push(choice.option.word);
    if (choice.target) parts.push(choice.target.id);
    if (choice.space) parts.push(`${choice.space.x},${choice.space.y}`);
    return command(parts.join(' '));
  }

  function pick(actor, action) {
    choice = { actor, action, option: null, target: null, space: null };
    const needsWords = !action.needs_target && !action.needs_space && !action.checked;
    if (needsWords) {
      cmdIn.value = `${actor.id} ${action.word} `;
      cmdIn.focus();
      choice = null;
      say(`${action.title}: finish the command in words, then Send.`);
      return;
    }
    if (!hasOptions(action) && !action.needs_target && !action.needs_space) { finish(action); return; }
    renderActions();
    renderMap();
    focusNextStep();
  }

  function pickOption(op) {
    choice.option = op;
    if (!op.needs_target && !op.needs_space) { finish(choice.action); return; }
    renderActions();
    renderMap();
    focusNextStep();
  }

  // After a choice, the keyboard goes on to the next one: the first
  // option, else the first target, else the space's field.
  function focusNextStep() {
    const next = actBox.querySelector('button.opt, button.tgt, #space');
    if (next) next.focus();
  }

  function pickTarget(t) {
    choice.target = t;
    if (step(choice).needs_space) { renderActions(); renderMap(); focusNextStep(); return; }
    finish(choice.action);
  }

  function pickSpace(x, y) {
    if (!choice || !needsSpace(choice)) return;
    choice.space = { x, y };
    finish(choice.action);
  }

  function mayAct() {
    if (!cur) return null;
    const v = cur.view;
    if (v.over) return null;
    const actor = v.combatants.find((c) => c.index === v.turn && c.actions && c.actions.length);
    if (!actor) return null;
    if (!gm) {
      const mine = (cur.you && cur.you.combatants) || [];
      if (!cur.players_play || !mine.includes(actor.index)) return null;
    }
    return actor;
  }

  function renderActions() {
    if (!cur) return;
    const v = cur.view;
    const actor = mayAct();
    const parts = [];
    if (!actor) {
      const whose = v.turn >= 0 ? byIndex(v.turn) : null;
      let why;
      if (v.over) why = 'The fight is over.';
      else if (!gm && whose && ((cur.you && cur.you.combatants) || []).includes(whose.index) && !cur.players_play) why = 'The GM plays the turns now (players may not play).';
      else if (gm) {
        const next = v.rules === 'towers' ? 'Next moves the Combat Clock on'
          : v.rules === 'silent-winter' ? 'Next ends the segment' : 'Next starts the turn';
        why = whose ? `${whose.name}'s turn comes at ${v.turn_words}: ${next}.` : `Nobody may act now: ${next}.`;
      }
      else why = whose ? `Waiting: ${whose.name}'s turn (${v.turn_words}).` : 'Waiting for the GM.';
      parts.push(h('p', { class: 'why' }, why));
    } else {
      if (choice && choice.actor.index !== actor.index) choice = null;
      parts.push(h('p', { class: 'who' }, `${actor.name}'s turn (${v.turn_words}). Choose an action:`));
      parts.push(h('div', { class: 'buttons', role: 'group', 'aria-label': `${actor.name}'s actions` },
        actor.actions.map((a) => {
          const chosen = choice && choice.action.word === a.word;
          // The command its chances are known by (fillChances).
          const cmd = a.targets && a.targets.length === 1 ? `${actor.id} ${a.word} ${byIndex(a.targets[0])?.id}` : `${actor.id} ${a.word}`;
          return h('button', {
            type: 'button', class: chosen ? 'act chosen' : 'act', 'aria-pressed': chosen ? 'true' : 'false',
            dataset: { key: `act-${a.word}`, word: a.word, chances: cmd },
            title: a.checked ? a.word : `${a.word} (the engine checks the words you give)`,
            onclick: () => pick(actor, a),
          }, a.title, h('span', { class: 'chance' }));
        })));
      if (choice && hasOptions(choice.action) && !choice.option) {
        const a = choice.action;
        parts.push(h('p', {}, `${a.title}: choose one`));
        parts.push(h('div', { class: 'buttons', role: 'group', 'aria-label': `${a.title}: the choices` },
          a.options.map((op) => h('button', {
            type: 'button', class: 'opt', dataset: { key: `opt-${op.word}`, word: op.word },
            onclick: () => pickOption(op),
          }, op.title))));
        // The action as it is (Alloy's basic attack, 99 Towers' spell in
        // hand): its own targets too.
        const own = (a.targets || []).map(byIndex).filter(Boolean);
        if (own.length) {
          parts.push(h('p', {}, `or ${a.title} as it is: choose a target`));
          parts.push(h('div', { class: 'buttons', role: 'group', 'aria-label': 'Targets' },
            own.map((t) => h('button', { type: 'button', class: 'tgt', dataset: { key: `tgt-${t.id}` }, onclick: () => pickTarget(t) }, t.name))));
        }
        parts.push(h('button', { type: 'button', class: 'quiet', dataset: { key: 'cancel' }, onclick: () => { choice = null; renderActions(); renderMap(); } }, 'Cancel'));
      } else if (choice) {
        const a = step(choice);
        const what = choice.option ? `${choice.action.title}: ${choice.option.title}` : a.title;
        if (a.needs_target && !choice.target) {
          const ts = (a.targets || []).map(byIndex).filter(Boolean);
          parts.push(h('p', {}, `${what}: choose a target`));
          if (ts.length) {
            parts.push(h('div', { class: 'buttons', role: 'group', 'aria-label': 'Targets' },
              ts.map((t) => h('button', { type: 'button', class: 'tgt', dataset: { key: `tgt-${t.id}` }, onclick: () => pickTarget(t) }, t.name))));
          } else {
            const others = v.combatants.filter((c) => c.index !== actor.index && !c.out);
            parts.push(h('div', { class: 'buttons', role: 'group', 'aria-label': 'Targets' },
              others.map((t) => h('button', { type: 'button', class: 'tgt', dataset: { key: `tgt-${t.id}` }, onclick: () => pickTarget(t) }, t.name))));
          }
        } else if (a.needs_space) {
          const xy = h('input', { id: 'space', name: 'space', placeholder: 'X,Y', size: 6, dataset: { key: 'space' } });
          parts.push(h('form', {
            class: 'row', onsubmit: (e) => {
              e.preventDefault();
              const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(xy.value);
              if (!m) { say(`a space is X,Y: "${xy.value}"`, true); return; }
              pickSpace(Number(m[1]), Number(m[2]));
            },
          }, h('label', { for: 'space' }, `${what}${choice.target ? ` (${choice.target.name})` : ''}: click a space on the map, or give it `), xy,
          h('button', { type: 'submit', dataset: { key: 'space-go' } }, 'Go')));
        }
        parts.push(h('button', { type: 'button', class: 'quiet', dataset: { key: 'cancel' }, onclick: () => { choice = null; renderActions(); renderMap(); } }, 'Cancel'));
      }
    }
    replace(actBox, parts);
    fillChances();
  }

  // The chances beside each action, written into the buttons as they are:
  // they arrive after the state does, and drawing the actions again then
  // would replace a button the user is clicking.
  function fillChances() {
    for (const b of actBox.querySelectorAll('button.act')) {
      const odd = odds.chances(b.dataset.chances);
      const span = b.querySelector('span.chance');
      if (span) span.textContent = odd ? ` ${chancesText(odd)}` : '';
    }
  }

  const reachAll = h('input', { type: 'checkbox', id: 'reach-all', onchange: () => renderMap() });
  // A part of the page is drawn again only when what it shows changed
  // (the key: its data as JSON): a live state redraws what moved.
  const drawn = new Map();
  function changed(part, data) {
    const key = JSON.stringify(data);
    if (drawn.get(part) === key) return false;
    drawn.set(part, key);
    return true;
  }

  function renderMap() {
    if (!cur) return;
    const v = cur.view;
    const choosing = !!(choice && needsSpace(choice) && (!step(choice).needs_target || choice.target));
    if (!changed('map', [v.map, v.turn, v.sides, reachAll.checked, choosing,
      v.combatants.map((c) => [c.index, c.name, c.side, c.out, c.status, c.place, c.seen, c.reach])])) return;
    replace(mapBox, tacticalMap(v, { reachAll: reachAll.checked, choosing, onSpace: pickSpace }));
  }

  function renderLog() {
    if (!changed('log', cur.log)) return;
    const atBottom = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
    replace(logList, (cur.log || []).map((e) => h('li', { 'data-event': e.event }, e.text.replace(/\n$/, ''))));
    if (!cur.log || !cur.log.length) logList.append(h('li', { class: 'empty' }, gm ? 'Nothing yet.' : 'Nothing in the log for you yet.'));
    if (atBottom || !renderLog.once) logList.scrollTop = logList.scrollHeight;
    renderLog.once = true;
  }

  function render(state) {
    const t0 = performance.now();
    cur = state;
    const v = state.view;
    opts.setTitle(gm || !state.you || !state.you.player ? state.title : `${state.title}: ${state.you.player}'s page`);
    let words;
    if (v.over) {
      words = v.winner >= 0 ? `The fight is over: ${v.sides[v.winner]} wins.` : (v.winner === -2 ? 'The fight is over: every side is out.' : 'The fight is over.');
    } else {
      const whose = v.turn >= 0 ? byIndex(v.turn) : null;
      const now = `${v.title}, ${v.time_unit} ${v.now}`;
      if (!whose) words = `${now}.`;
      else if (whose.actions && whose.actions.length) words = `${now}: ${whose.name}'s turn.`;
      else words = `${now}. Next: ${whose.name}, ${v.turn_words}.`;
    }
    banner.textContent = words;
    banner.dataset.over = v.over ? 'yes' : 'no';
    if (changed('clock', [v.rules, v.now, v.turn, v.turn_words, v.combatants.map((c) => [c.index, c.name, c.side, c.time])])) replace(clockBox, timeTrack(v));
    renderMap();
    const mine = (state.you && state.you.combatants) || [];
    const shown = gm ? v.combatants : [...v.combatants].sort((a, b) => Number(mine.includes(b.index)) - Number(mine.includes(a.index)));
    if (changed('cards', [shown.map((c) => ({ ...c, actions: null })), v.turn, v.sides, mine])) {
      replace(cardsBox, shown.map((c) => combatantCard(v, c, !gm && mine.includes(c.index))));
    }
    if (changed('hands', [v.hands, v.combatants.map((c) => c.name)])) replace(handsBox, hands(v));
    handsBox.parentElement.hidden = !v.hands || !v.hands.length;
    // (The chances of the state before are forgotten first, so that no
    // button shows them beside this state's actions.)
    odds.update(state, fillChances);
    renderActions();
    renderLog();
    if (gmParts) gmParts.update(state);
    root.dataset.drawnAt = String(Date.now());
    root.dataset.drawMs = (performance.now() - t0).toFixed(1);
    root.dataset.change = String(state.change);
    root.dataset.events = String(state.events);
  }

  // ---- the layout ----
  const controls = [];
  if (gm) {
    controls.push(h('div', { class: 'buttons', role: 'group', 'aria-label': 'The clock and the tactics' },
      h('button', { type: 'button', id: 'next', onclick: () => command('next') }, 'Next'),
      h('button', { type: 'button', id: 'step', title: 'the tactics play one turn', onclick: () => act('step', {}, 'Step') }, 'Step'),
      h('button', { type: 'button', id: 'undo', onclick: () => act('undo', {}) }, 'Undo'),
      h('button', { type: 'button', id: 'redo', onclick: () => act('redo', {}) }, 'Redo')));
    controls.push(h('fieldset', { class: 'given' },
      h('legend', {}, 'Cards and dice given by hand (sent with the next command)'),
      h('p', { id: 'given-help', class: 'small' }, 'Cards as flipped at the table, in order ("KH 7C": the attack flip, then the defense flip); dice as rolled ("14 3"). Empty: fray flips and rolls.'),
      h('label', { for: 'given-cards' }, 'Cards'), cardsIn,
      h('label', { for: 'given-dice' }, 'Dice'), diceIn));
  }
  const cmdForm = h('form', {
    class: 'row cmd', onsubmit: async (e) => {
      e.preventDefault();
      const t = cmdIn.value.trim();
      if (!t) return;
      if (await command(t)) cmdIn.value = '';
    },
  }, h('label', { for: 'command' }, 'Command in rules words'), cmdIn, h('button', { type: 'submit', id: 'send' }, 'Send'));

  const gmParts = gm ? { o: overrides(command), p: playersPanel(api, fight, say) } : null;
  if (gmParts) {
    gmParts.update = (state) => { gmParts.o.update(state); gmParts.p.update(state); };
  }

  const showCmd = gm || null;
  const page = h('div', { class: 'fight' },
    opts.back ? h('p', {}, h('button', { type: 'button', class: 'quiet', id: 'back', onclick: opts.back }, '← All fights')) : null,
    banner,
    h('div', { class: 'grid' },
      h('section', { class: 'panel clockp', 'aria-labelledby': 'clock-h' }, h('h2', { id: 'clock-h' }, 'Combat Clock'), clockBox),
      h('section', { class: 'panel mapp', 'aria-labelledby': 'map-h' }, h('h2', { id: 'map-h' }, 'Map'), mapBox,
        h('p', { class: 'field' }, reachAll, h('label', { for: 'reach-all' }, "Show every combatant's reach"))),
      h('section', { class: 'panel actp', 'aria-labelledby': 'act-h' }, h('h2', { id: 'act-h' }, 'Actions'), actBox, controls, showCmd ? cmdForm : null),
      odds.panels,
      h('section', { class: 'panel cardp', 'aria-labelledby': 'cards-h' }, h('h2', { id: 'cards-h' }, gm ? 'Combatants' : 'Combatants (yours first)'), cardsBox),
      h('section', { class: 'panel', 'aria-label': 'Hand of Fate' }, handsBox),
      h('section', { class: 'panel logp', 'aria-labelledby': 'log-h' }, h('h2', { id: 'log-h' }, 'Log'), logList),
      gmParts ? gmParts.o.el : null,
      gmParts ? gmParts.p.el : null));
  replace(root, page);

  // Player: the command line too, once the GM lets players play.
  if (!gm) {
    const extra = h('div', { id: 'player-cmd', hidden: true }, cmdForm);
    actBox.after(extra);
    const base = render;
    render = (st) => { base(st); extra.hidden = !st.players_play; };
  }
  // The clock's heading says what the time track is.
  const clockH = page.querySelector('#clock-h');

  let stopLive = null;
  return {
    start() {
      stopLive = api.live(fight, (st) => {
        clockH.textContent = st.view.rules === 'towers' ? 'Combat Clock'
          : st.view.rules === 'silent-winter' ? 'Segments' : 'Initiative';
        render(st);
      }, opts.onConn);
    },
    stop() { if (stopLive) stopLive(); },
  };
}

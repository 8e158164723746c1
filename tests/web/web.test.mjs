// tests/web/web.test.mjs - fray serve's pages in a real browser (issue 14
// "Tests"; docs/server.md "Tests"): the real server (FRAY serve on a free
// port with a temporary --data holding the example encounters) and
// Debian's chromium driven by playwright-core. Run by run_web.sh:
//   node web.test.mjs   with FRAY, FRAY_SRC, FRAY_OUT (screenshots) set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, mkdirSync, cpSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const FRAY = process.env.FRAY;
const SRC = process.env.FRAY_SRC;
const OUT = process.env.FRAY_OUT;
const CHROMIUM = process.env.FRAY_CHROMIUM || '/usr/bin/chromium';
assert.ok(FRAY && SRC && OUT, 'FRAY, FRAY_SRC and FRAY_OUT must be set (run_web.sh sets them)');

// ---- the server ----------------------------------------------------------
const data = mkdtempSync(join(tmpdir(), 'fray-web-'));
for (const rules of ['towers', 'alloy', 'silent-winter', 'd6']) {
  mkdirSync(join(data, 'encounters/examples', rules), { recursive: true });
  for (const f of readdirSync(join(SRC, 'examples', rules))) {
    if (f.endsWith('.yaml')) cpSync(join(SRC, 'examples', rules, f), join(data, 'encounters/examples', rules, f));
  }
  cpSync(join(SRC, 'data', rules), join(data, 'encounters/data', rules), { recursive: true });
}

let server = null;
function startServer(port) {
  return new Promise((resolve, reject) => {
    const proc = spawn(FRAY, ['serve', '--port', String(port), '--data', data, '--web', join(SRC, 'web')],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /The GM's link: (http:\/\/[^/]+)\/#gm=([0-9a-f]+)/.exec(out);
      if (m) resolve({ proc, url: m[1], token: m[2], out });
    });
    proc.stderr.on('data', (d) => { err += d; });
    proc.stderrText = () => err;
    proc.on('exit', (code) => reject(new Error(`fray serve exited ${code}: ${err}`)));
  });
}
async function startOn(port) {
  // After kill -9 the port may be held a moment: a few tries.
  for (let i = 0; ; i++) {
    try { return await startServer(port); } catch (e) {
      if (i >= 20) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

// The test's own calls go over a fresh connection each (node:http, no
// keep-alive): node's fetch reuses a pooled connection, and one the server
// has just closed as idle fails the call ("fetch failed") now and then on
// a loaded machine. The pages themselves use the browser's fetch.
function api(token, method, path, body) {
  const data = body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.url + path, {
      method, agent: false,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Connection: 'close',
        ...(data === undefined ? {} : { 'Content-Length': Buffer.byteLength(data) }) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json = null;
        if ((res.headers['content-type'] || '').split(';')[0].trim() === 'application/json') json = JSON.parse(text);
        resolve({ status: res.statusCode, text, json, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}
const gmGet = async (path) => (await api(server.token, 'GET', path)).json;
const journal = async (id) => (await api(server.token, 'GET', `/api/fights/${id}/journal`)).text;

let browser;
before(async () => {
  server = await startOn(0);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-crash-reporter', '--disable-breakpad'] });
});
after(async () => {
  if (browser) await browser.close();
  let code = null;
  if (server) {
    // A clean stop: SIGTERM, the store closed, exit 0 (under the
    // sanitizers also: no leak, no error).
    const exited = new Promise((r) => server.proc.once('exit', (c, sig) => r(c === null ? sig : c)));
    server.proc.kill('SIGTERM');
    code = await exited;
  }
  rmSync(data, { recursive: true, force: true });
  assert.equal(code, 0, `fray serve stopped on SIGTERM with ${code}: ${server && server.proc.stderrText()}`);
});

async function newPage(width = 1280) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  // Console errors: any but a refused fetch (the odds calls answer 404 while the server has none).
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) page.errors.push(m.text()); });
  return page;
}
const mainData = (page) => page.evaluate(() => ({ ...document.getElementById('main').dataset }));
// Waits until #main's data-change differs from `before` (a state from the live stream).
async function nextState(page, before, timeout = 5000) {
  await page.waitForFunction((b) => {
    const d = document.getElementById('main').dataset;
    return d.change !== undefined && `${d.change}:${d.events}` !== b;
  }, before, { timeout });
}
const stateKey = async (page) => { const d = await mainData(page); return `${d.change}:${d.events}`; };
const lastLog = (page) => page.evaluate(() => { const l = [...document.querySelectorAll('#log li[data-event]')]; return l.length ? l[l.length - 1].dataset.event + l[l.length - 1].textContent : ''; });
const clockNow = (page) => page.evaluate(() => { const n = document.querySelector('.clock .phase.now'); return n ? n.dataset.phase : null; });
const clockTokens = (page) => page.evaluate(() => [...document.querySelectorAll('.clock .phase')].filter((g) => g.querySelector('circle')).map((g) => `${g.dataset.phase}:${g.querySelectorAll('circle').length}`).join(' '));

async function startFight(page, encounter, seed) {
  await page.goto(`${server.url}/#gm=${server.token}`);
  await page.selectOption('#encounter', encounter);
  await page.fill('#seed', String(seed));
  await page.click('#start');
  await page.waitForFunction(() => /fight=\d+/.test(window.location.hash));
  await page.waitForSelector('#conn[data-state="live"]');
  await page.waitForFunction(() => document.getElementById('main').dataset.change !== undefined);
  return Number(/fight=(\d+)/.exec(await page.evaluate(() => window.location.hash))[1]);
}

// One click of the GM's: the turn's Attack on its first target when it
// is listed, else Next (the clock moves on), else Step.
async function gmClick(page) {
  const before = await stateKey(page);
  const attack = page.locator('#actions button.act[data-word="attack"]');
  if (await attack.count()) {
    await attack.click();
    await page.locator('#actions button.tgt').first().click();
    await nextState(page, before);
    return 'attack';
  }
  await page.click('#next');
  try {
    await nextState(page, before, 3000);
    return 'next';
  } catch {
    await page.click('#step');
    await nextState(page, before);
    return 'step';
  }
}

// ---- 1. A GM plays a whole 99 Towers fight by clicking --------------------------
test('1. the GM plays the 99 Towers duel to its end by clicking (issue 14 "A GM plays a whole fight by clicking")', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 3);
  assert.match(await page.textContent('#clock-h'), /Combat Clock/);
  assert.equal(await page.locator('.clock .phase').count(), 100, 'the Combat Clock is a 10x10 grid of phases');
  assert.equal(await page.locator('.map .token').count(), 2, 'both tokens on the map');
  let attacks = 0;
  for (let i = 0; i < 400; i++) {
    if ((await page.getAttribute('#banner', 'data-over')) === 'yes') break;
    const log0 = await lastLog(page);
    const clock0 = `${await clockNow(page)} ${await clockTokens(page)}`;
    const did = await gmClick(page);
    const log1 = await lastLog(page);
    const clock1 = `${await clockNow(page)} ${await clockTokens(page)}`;
    if (did === 'attack') {
      attacks++;
      assert.notEqual(log1, log0, 'an attack is narrated in the log');
      assert.match(log1, /attack flip/, 'the log tells the attack flip');
      assert.match(log1, /[♠♥♦♣]/, 'the log shows the cards flipped');
    }
    assert.notEqual(clock1, clock0, `the clock changes after a click (${did})`);
  }
  const banner = await page.textContent('#banner');
  assert.match(banner, /The fight is over: .* wins\./, 'the page shows the winner');
  assert.ok(attacks >= 2, `attacks were clicked (${attacks})`);
  const st = await gmGet(`/api/fights/${id}`);
  assert.equal(st.view.over, true, 'the server says the fight is over');
  assert.ok(banner.includes(st.view.sides[st.view.winner]), 'the page names the server\'s winner');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- 2. A player's page: live, and never hidden data --------------------------
test('2. a player\'s page follows the GM live and never holds hidden data (issue 14 "The players\' pages")', async (t) => {
  const gm = await newPage();
  const id = await startFight(gm, 'examples/towers/reinforcements.yaml', 11);
  const gmView = (await gmGet(`/api/fights/${id}`)).view;
  const hidden = gmView.combatants.find((c) => c.gm_only);
  assert.ok(hidden, 'reinforcements.yaml has a combatant not yet in the fight');
  const tony = gmView.combatants.find((c) => c.id === 'tony');
  const otherHands = gmView.hands.filter((hd) => !hd.users.includes(tony.index));
  assert.ok(otherHands.length, 'a hand Tony does not flip from');
  // The GM makes Tony's player's link, enemy numbers hidden.
  await gm.fill('#player-name', 'Ann');
  await gm.check('#pc-tony');
  await gm.uncheck('#enemy-numbers');
  await gm.click('#make-link');
  const link = await gm.locator('#links input').first().inputValue();
  assert.match(link, /#fight=\d+&player=[0-9a-f]+$/, 'a player\'s link');

  const player = await newPage(390);
  const bodies = [];
  // Every response the page got (the live stream's text is read by the page as it comes: recorded there).
  player.on('response', async (res) => {
    if (res.url().endsWith('/live')) return;
    try { bodies.push(`${res.url()}\n${(await res.body()).toString('utf8')}`); } catch { /* gone */ }
  });
  await player.addInitScript(() => {
    window.__live = '';
    const f = window.fetch;
    window.fetch = async (...a) => {
      const res = await f(...a);
      if (String(a[0]).endsWith('/live') && res.body) {
        const [x, y] = res.body.tee();
        (async () => { const r = y.getReader(); const d = new TextDecoder(); for (;;) { const { value, done } = await r.read(); if (done) break; window.__live += d.decode(value, { stream: true }); } })();
        return new Response(x, { status: res.status, headers: res.headers });
      }
      return res;
    };
  });
  await player.goto(link);
  await player.waitForSelector('#conn[data-state="live"]');
  await player.waitForFunction(() => document.getElementById('main').dataset.change !== undefined);
  assert.match(await player.textContent('#title'), /Ann's page/, 'the page says whose it is');
  const pw = await player.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(pw[0] <= pw[1], `the player's page at 390 px is ${pw[0]} px wide`);

  // Live: the GM clicks, the player's page follows within a second.
  for (let k = 0; k < 8; k++) {
    const before = await stateKey(player);
    await gmClick(gm);
    await nextState(player, before, 1000);
    // From the GM's page sending the command to the player's page drawing
    // its state (both read the one clock of this machine).
    const sent = Number((await mainData(gm)).sentAt);
    const drawn = Number((await mainData(player)).drawnAt);
    const ms = drawn - sent;
    assert.ok(ms >= 0 && ms < 1000, `the player's page followed in ${ms} ms`);
    t.diagnostic(`from the GM's command to the player's page drawn: ${ms} ms (drawing it: ${(await mainData(player)).drawMs} ms)`);
    assert.equal(await stateKey(player), await stateKey(gm), 'the same state as the GM\'s page');
  }
  // Players may play (the GM's switch): on Tony's turn the player's page
  // offers Tony's actions, and an attack by clicking is played.
  assert.equal(await player.locator('#actions button.act').count(), 0, 'no actions while players may not play');
  await gm.check('#players-play');
  for (let i = 0; i < 60; i++) {
    const v = (await gmGet(`/api/fights/${id}`)).view;
    const t = v.combatants.find((c) => c.index === v.turn);
    if (t && t.id === 'tony' && t.actions.length) break;
    await gmClick(gm);
  }
  await player.waitForSelector('#actions button.act[data-word="attack"]', { timeout: 2000 });
  const j0 = await journal(id);
  const before0 = await stateKey(player);
  await player.click('#actions button.act[data-word="attack"]');
  await player.click('#actions button.tgt[data-key="tgt-bandit-1"]');
  await nextState(player, before0, 2000);
  const added = (await journal(id)).slice(j0.length).trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(added.some((l) => l.command && l.command.actor === 'tony' && l.command.target === 'bandit-1'), 'the player\'s attack is in the journal');
  await gm.uncheck('#players-play');
  await player.waitForFunction(() => !document.querySelector('#actions button.act'), null, { timeout: 2000 });

  // The player's page: Tony's card and hand; enemies by descriptors only.
  const enemyCard = await player.textContent('.ccard[data-id="bandit-1"]');
  assert.match(enemyCard, /STUN (unhurt|hurt|badly hurt|out)/, 'an enemy\'s STUN as a descriptor');
  assert.doesNotMatch(enemyCard, /\d+\/\d+/, 'no enemy numbers on the page');
  assert.match(await player.textContent('.ccard[data-id="tony"]'), /STUN \d+\/\d+/, 'its own numbers');
  assert.equal(await player.locator('#given-cards').count(), 0, 'no cards by hand on a player\'s page');
  assert.equal(await player.locator('#step').count(), 0, 'no Step on a player\'s page');

  await gm.waitForTimeout(200);
  const live = await player.evaluate(() => window.__live);
  assert.match(live, /event: state/, 'the live stream was recorded');
  const dom = await player.content();
  const everything = [dom, live, ...bodies].join('\n');
  for (const word of [hidden.id, hidden.name]) {
    assert.ok(!everything.includes(word), `no trace of "${word}" (not yet in the fight)`);
  }
  for (const hd of otherHands) {
    if (hd.cards.length) assert.ok(!everything.includes(JSON.stringify(hd.cards)), `no other hand's cards (${hd.deck})`);
    assert.ok(!everything.includes(`"deck":"${hd.deck}"`), `no other deck (${hd.deck})`);
  }
  for (const b of [live, ...bodies.filter((x) => x.includes('"view"'))]) {
    for (const m of b.matchAll(/"id":"(bandit-1)"[^{]*?"health":\[(.*?)\]/g)) {
      assert.doesNotMatch(m[2], /"value"/, 'no enemy numbers in any response');
    }
  }
  // Now the GM brings the bandit in: the player sees it.
  const before = await stateKey(player);
  await gm.selectOption('.gmform select[name="who"] >> nth=2', hidden.id);
  await gm.fill('.gmform input[name="at"]', '7,2');
  await gm.getByRole('button', { name: 'Bring in' }).click();
  try { await nextState(player, before, 1000); } catch (e) {
    throw new Error(`the player's page did not follow "gm join": ${await gm.textContent('#message')}`);
  }
  await player.waitForSelector(`.ccard[data-id="${hidden.id}"]`, { timeout: 1000 });
  await shot(player, 'player-page.png');
  assert.deepEqual(player.errors, []);
  await player.context().close();
  await gm.context().close();
});

// ---- 3. Undo and redo --------------------------------------------------------------
test('3. undo and redo from the GM\'s page (issue 14 "undo and redo")', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 5);
  let did;
  do { did = await gmClick(page); } while (did !== 'attack');
  const after = await gmGet(`/api/fights/${id}`);
  const log = await lastLog(page);
  let before = await stateKey(page);
  await page.click('#undo');
  await nextState(page, before);
  const undone = await gmGet(`/api/fights/${id}`);
  assert.notEqual(await lastLog(page), log, 'the attack left the log');
  assert.equal(undone.events, after.events - 1, 'one event taken back');
  assert.ok(await page.locator('#actions button.act[data-word="attack"]').count(), 'the attack may be chosen again');
  before = await stateKey(page);
  await page.click('#redo');
  await nextState(page, before);
  assert.equal(await lastLog(page), log, 'the same attack, told again');
  const redone = await gmGet(`/api/fights/${id}`);
  assert.deepEqual(redone.view, after.view, 'redo gives the same state');
  await page.click('#redo');
  await page.waitForSelector('#message[data-bad="yes"]');
  assert.match(await page.textContent('#message'), /redo/i, 'nothing to redo is said');
  // The journal downloads as the server keeps it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#journal')]);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  assert.equal(readFileSync(path, 'utf8'), await journal(id), 'the downloaded journal is the stored one');
  assert.match(download.suggestedFilename(), /\.jsonl$/);
  // The GM's override: set the Black Knight's STUN, then undo it.
  before = await stateKey(page);
  const f = page.locator('form.gmform', { hasText: 'Adjust damage' });
  await f.locator('select[name="who"]').selectOption('black-knight');
  await f.locator('select[name="how"]').selectOption('set');
  await f.locator('input[name="n"]').fill('10');
  await f.getByRole('button', { name: 'Adjust damage' }).click();
  await nextState(page, before);
  assert.match(await page.textContent('.ccard[data-id="black-knight"]'), /STUN 10\/24/, 'the card shows the STUN the GM set');
  before = await stateKey(page);
  await page.click('#undo');
  await nextState(page, before);
  assert.doesNotMatch(await page.textContent('.ccard[data-id="black-knight"]'), /STUN 10\/24/, 'undone');
  // The other overrides: a condition on and off, a token moved, one taken out.
  const gmForm = async (title, fill) => {
    const b = await stateKey(page);
    const form = page.locator('form.gmform', { hasText: title });
    await fill(form);
    await form.getByRole('button', { name: title }).click();
    await nextState(page, b);
  };
  await gmForm('Condition', async (f) => { await f.locator('select[name="who"]').selectOption('black-knight'); await f.locator('input[name="cname"]').fill('prone'); });
  assert.match(await page.textContent('.ccard[data-id="black-knight"]'), /Conditions\s*prone/, 'the condition on the card');
  await gmForm('Condition', async (f) => {
    await f.locator('select[name="who"]').selectOption('black-knight'); await f.locator('input[name="cname"]').fill('prone');
    await f.locator('select[name="onoff"]').selectOption('off');
  });
  assert.doesNotMatch(await page.textContent('.ccard[data-id="black-knight"]'), /prone/, 'and off again');
  const v = (await gmGet(`/api/fights/${id}`)).view;
  const ald = v.combatants.find((c) => c.id === 'aldric');
  const taken = new Set(v.combatants.map((c) => `${c.place.x},${c.place.y}`));
  const to = [[ald.place.x - 1, ald.place.y], [ald.place.x, ald.place.y - 1], [ald.place.x, ald.place.y + 1]]
    .find(([x, y]) => v.map.rows[y][x] === '.' && !taken.has(`${x},${y}`));
  await gmForm('Move a token', async (f) => { await f.locator('select[name="who"]').selectOption('aldric'); await f.locator('input[name="to"]').fill(`${to[0]},${to[1]}`); });
  assert.match(await page.textContent('.places'), new RegExp(`Sir Aldric \\(SA\\): ${to[0]},${to[1]}`), 'the token moved');
  await gmForm('Take out', async (f) => { await f.locator('select[name="who"]').selectOption('black-knight'); });
  assert.match(await page.textContent('#banner'), /The fight is over: Sir Aldric wins/, 'the one left wins');
  await page.context().close();
});

// ---- 4. kill -9 mid-fight, restart, reload -----------------------------------------
test('4. kill -9 of the server mid-fight, a restart on the same port: the page shows the same fight and it goes on', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 9);
  for (let k = 0; k < 4; k++) await gmClick(page);
  const view0 = (await gmGet(`/api/fights/${id}`)).view;
  const shown0 = await page.textContent('#cards');
  const log0 = await lastLog(page);
  const port = new URL(server.url).port;
  server.proc.kill('SIGKILL');
  await new Promise((r) => server.proc.once('exit', r));
  await page.waitForSelector('#conn:not([data-state="live"])', { timeout: 5000 });
  server = await startOn(port);
  await page.reload();
  await page.waitForSelector('#conn[data-state="live"]');
  await page.waitForFunction(() => document.getElementById('main').dataset.change !== undefined);
  const view1 = (await gmGet(`/api/fights/${id}`)).view;
  assert.deepEqual(view1, view0, 'the same view after the restart');
  assert.equal(await page.textContent('#cards'), shown0, 'the page shows the same cards');
  assert.equal(await lastLog(page), log0, 'and the same log');
  const j0 = await journal(id);
  await gmClick(page);
  assert.ok((await journal(id)).length > j0.length, 'the fight goes on');
  await page.context().close();
});

// ---- 5. Bad requests and wrong tokens change nothing ----------------------------------
test('5. bad requests and wrong tokens from the page change nothing (issue 14 "Safety")', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 13);
  await gmClick(page);
  const p = await api(server.token, 'POST', `/api/fights/${id}/players`, { name: 'Bo', combatants: ['aldric'] });
  const ptoken = p.json.token;
  const j0 = await journal(id);
  const v0 = (await gmGet(`/api/fights/${id}`)).view;
  const got = await page.evaluate(async ({ id, gmToken, ptoken }) => {
    const call = async (token, method, path, body) => {
      const r = await fetch(path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body });
      return r.status;
    };
    return {
      wrongToken: await call('0'.repeat(64), 'POST', `/api/fights/${id}/step`, '{}'),
      noToken: (await fetch(`/api/fights/${id}/command`, { method: 'POST', body: '{"text":"next"}' })).status,
      playerStep: await call(ptoken, 'POST', `/api/fights/${id}/step`, '{}'),
      playerUndo: await call(ptoken, 'POST', `/api/fights/${id}/undo`, '{}'),
      playerCommand: await call(ptoken, 'POST', `/api/fights/${id}/command`, '{"text":"next"}'),
      malformed: await call(gmToken, 'POST', `/api/fights/${id}/command`, '{"text": '),
      unknownKey: await call(gmToken, 'POST', `/api/fights/${id}/command`, '{"txt":"next"}'),
      badWords: await call(gmToken, 'POST', `/api/fights/${id}/command`, '{"text":"aldric dance"}'),
      badCards: await call(gmToken, 'POST', `/api/fights/${id}/command`, '{"text":"next","cards":"ZZ"}'),
      notAPage: (await fetch('/web/../fray.sqlite')).status,
    };
  }, { id, gmToken: server.token, ptoken });
  assert.equal(got.wrongToken, 401);
  assert.equal(got.noToken, 401);
  assert.equal(got.playerStep, 403);
  assert.equal(got.playerUndo, 403);
  assert.equal(got.playerCommand, 403);
  assert.equal(got.malformed, 400);
  assert.equal(got.unknownKey, 400);
  assert.equal(got.badWords, 422);
  assert.ok(got.badCards >= 400 && got.badCards < 500, `bad cards refused (${got.badCards})`);
  assert.equal(got.notAPage, 404);
  // The page runs only its own scripts, talks only to its server, and no other site may frame it.
  const root = await api('', 'GET', '/');
  const csp = root.headers['content-security-policy'] || '';
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /connect-src 'self'/);
  // The page's own command line: a refusal is said, nothing changes.
  await page.fill('#command', 'aldric dance');
  await page.click('#send');
  await page.waitForSelector('#message[data-bad="yes"]');
  assert.match(await page.textContent('#message'), /dance/, 'the refusal names the word');
  assert.equal(await journal(id), j0, 'the journal is as it was');
  assert.deepEqual((await gmGet(`/api/fights/${id}`)).view, v0, 'the fight is as it was');
  await page.context().close();
});

// ---- 6. An Alloy fight ----------------------------------------------------------------
test('6. an Alloy fight: the initiative order and the round show, an attack by clicking works', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/alloy/duel.yaml', 3);
  assert.match(await page.textContent('#clock-h'), /Initiative/);
  assert.match(await page.textContent('.initiative .round'), /Round 1/);
  const order = await page.locator('.initiative .order li').allTextContents();
  assert.equal(order.length, 2, 'two in the initiative order');
  assert.match(order[0], /Vance: initiative 15/);
  let did;
  for (let i = 0; i < 5 && did !== 'attack'; i++) did = await gmClick(page);
  assert.equal(did, 'attack', 'an attack was clicked');
  const log = await lastLog(page);
  assert.match(log, /Vance/, 'the attack is narrated');
  assert.match(log, /d20 \d+/, 'with its die');
  const st = await gmGet(`/api/fights/${id}`);
  assert.equal(st.rules, 'alloy');
  // The GM's override by its form (issue 14 "the GM's overrides"): Lyra's
  // hit points set to 9, then undone.
  let before = await stateKey(page);
  const f = page.locator('form.gmform', { hasText: 'Hit points' });
  await f.locator('select[name="who"]').selectOption('lyra');
  await f.locator('select[name="how"]').selectOption('set');
  await f.locator('input[name="n"]').fill('9');
  await f.getByRole('button', { name: 'Hit points' }).click();
  await nextState(page, before);
  assert.match(await page.textContent('.ccard[data-id="lyra"]'), /(^|[^0-9])9\/26/, 'the card shows the hit points the GM set');
  assert.match(await lastLog(page), /GM: Lyra's hit points set to 9/, 'narrated');
  before = await stateKey(page);
  await page.click('#undo');
  await nextState(page, before);
  assert.doesNotMatch(await page.textContent('.ccard[data-id="lyra"]'), /(^|[^0-9])9\/26/, 'undone');
  // Alloy's map with its areas (obscured, dark): drawn, in the legend.
  const sid = await startFight(page, 'examples/alloy/skirmish.yaml', 2);
  const areas = (await gmGet(`/api/fights/${sid}`)).view.map.areas;
  const n = areas.reduce((k, a) => k + a.spaces.length, 0);
  assert.ok(n > 0, 'the skirmish has areas');
  assert.equal(await page.locator('svg.map rect.area').count(), n, 'every space of every area drawn');
  for (const a of areas) assert.match(await page.textContent('.legend'), new RegExp(`${a.name} \\(area\\)`));
  assert.ok(await page.isHidden('#hands'), 'no Hand of Fate in Alloy');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- 6b. Silent Winter (issue 17 "the browser table if it exists by then") -----------------
test('6b. a Silent Winter fight: the segment count and who declares when, an Engage by clicking', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/silent-winter/duel.yaml', 5);
  assert.match(await page.textContent('#clock-h'), /Segments/);
  assert.match(await page.textContent('.initiative .round'), /Segment \d+/);
  assert.equal(await page.locator('.initiative .order li').count(), 2, 'both on the segment track');
  const engage = page.locator('#actions button.act[data-word="engage"]');
  await engage.waitFor();
  const before = await stateKey(page);
  await engage.click();
  await page.locator('#actions button.tgt').first().click();
  await nextState(page, before);
  assert.match(await lastLog(page), /Engage/i, 'the Engage is narrated');
  const st = await gmGet(`/api/fights/${id}`);
  assert.equal(st.rules, 'silent-winter');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- 6f. D6 (issue 19: each ruleset in the browser) ---------------------------------
test('6f. a D6 fight: the round and the initiative order show, an attack by clicking is narrated with its roll and its dice journaled, the chances are the server\'s', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/d6/duel.yaml', 3);
  const st = await gmGet(`/api/fights/${id}`);
  assert.equal(st.rules, 'd6');
  assert.match(await page.textContent('#clock-h'), /Initiative/);
  assert.match(await page.textContent('.initiative .round'), /Round 1/);
  // The order the server gives (each one's initiative total), first to last.
  const want = st.view.combatants.filter((c) => c.time && c.time.on)
    .sort((a, b) => a.time.order - b.time.order).map((c) => `${c.name}: initiative ${c.time.at}`);
  const order = await page.locator('.initiative .order li').allTextContents();
  assert.equal(order.length, 2, 'both in the initiative order');
  want.forEach((w, i) => assert.ok(order[i].startsWith(w), `${order[i]} is ${w}`));
  const turn = st.view.combatants.find((c) => c.index === st.view.turn);
  assert.match(await page.textContent('.initiative .order li.turn'), new RegExp(`${turn.name}: .*\\(their turn\\)`));
  // The chances: the server's odds for the one whose turn it is, in the
  // panel and beside the Attack (docs/rules/odds-at-the-table.md "D6").
  const pctOf = (p) => `${(100 * p).toFixed(p > 0 && p < 0.01 ? 1 : 0)}%`;
  const odds = (await api(server.token, 'GET', `/api/fights/${id}/odds?who=${turn.id}`)).json;
  const attack = odds.actions.find((a) => /^attack [a-z]+$/.test(a.command));
  assert.ok(attack, 'the server counts the plain attack');
  await page.waitForSelector('#actions button.act[data-word="attack"]');
  await page.waitForSelector('section.odds:not([hidden])');
  const panel = await page.textContent('section.odds');
  // An attack says its outcomes, not "succeeds" (D6's odds give an
  // attack a p_success, the chance not to miss: the page leaves it out);
  // what deals no damage (a disarm) says how often it succeeds first.
  const harmless = (a) => typeof a.p_success === 'number' &&
    !(a.damage && typeof a.damage.p_drop === 'number' && a.damage.p_drop >= 0);
  for (const a of odds.actions) {
    const outs = a.outcomes.map((x) => `${x.name} ${pctOf(x.p)}`).join(', ');
    const line = `${a.title || a.command}: ${harmless(a) ? `${pctOf(a.p_success)} succeeds (${outs})` : outs}`;
    assert.ok(panel.includes(line), `the panel says ${line}: ${panel}`);
  }
  const succeeds = (panel.match(/succeeds/g) || []).length;
  assert.equal(succeeds, odds.actions.filter(harmless).length, `"succeeds" only beside what deals no damage: ${panel}`);
  assert.ok(odds.actions.some((a) => !harmless(a) && typeof a.p_success === 'number'), 'attacks carry a chance to hit the page leaves out');
  const outcomes = attack.outcomes.map((x) => `${x.name} ${pctOf(x.p)}`).join(', ');
  assert.match(outcomes, /^miss \d+%, hit, no harm \d+%, hit and hurt \d+%, out of the fight \d+%$/);
  await page.waitForFunction((t) => document.querySelector('#actions button.act[data-word="attack"]').textContent.includes(t), outcomes);
  // The attack by clicking: the action, then its target's button.
  const before = await stateKey(page);
  await page.click('#actions button.act[data-word="attack"]');
  const target = st.view.combatants.find((c) => c.side !== turn.side);
  await page.locator(`#actions button.tgt[data-key="tgt-${target.id}"]`).click();
  await nextState(page, before);
  // D6's narration tells the roll's total against the difficulty (the
  // passive defense 10 here, 003's standard), and the damage's against the
  // resistance on a hit; the dice themselves are in the fight's journal.
  const told = await lastLog(page);
  const m = new RegExp(`${turn.name} attacks ${target.name}: (\\d+) against (\\d+), (a hit|a miss)\\.`).exec(told);
  assert.ok(m, `the attack narrated with its roll: ${told}`);
  assert.equal(m[3] === 'a hit', Number(m[1]) >= Number(m[2]), 'a hit when the roll reaches the difficulty');
  if (m[3] === 'a hit') assert.match(told, new RegExp(`${target.name} takes \\d+ damage against a resistance of \\d+`));
  const last = (await journal(id)).trim().split('\n').pop();
  assert.match(last, /"dice":\[\d+(,\d+)+\]/, `the dice rolled, in the journal: ${last}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- 6c, 6d. Options by clicking (issue 17: the view's `options`) -------------------------
// An action that takes a choice (a weapon, a spell) offers it as a second
// row of buttons, reached by the keyboard; the command sent is the one the
// engine takes.
async function chooseByKeyboard(page, word, option, target) {
  const before = await stateKey(page);
  const act = page.locator(`#actions button.act[data-word="${word}"]`);
  await act.waitFor();
  await act.focus();
  await page.keyboard.press('Enter');
  // The choices come as buttons and the keyboard is on the first of them.
  await page.locator('#actions button.opt').first().waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('opt')), true, 'the focus is on the first choice');
  const opt = page.locator(`#actions button.opt[data-word="${option}"]`);
  assert.equal(await opt.count(), 1, `${word}: the choice ${option} is offered`);
  await opt.focus();
  await page.keyboard.press('Enter');
  if (target) {
    const tgt = page.locator(`#actions button.tgt[data-key="tgt-${target}"]`);
    await tgt.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('tgt')), true, 'then on the first target');
    await tgt.focus();
    await page.keyboard.press('Enter');
  }
  await nextState(page, before);
}

test('6c. Silent Winter: Switch Weapons and a spell by clicking (002:85, 002:71-77); docs/images/winter-options.png with FRAY_SCREENSHOTS=1', async () => {
  const page = await newPage();
  await startFight(page, 'examples/silent-winter/huntress.yaml', 17);
  const wield = page.locator('#actions button.act[data-word="wield"]');
  await wield.waitFor();
  await wield.click();
  const offered = (await page.locator('#actions button.opt').allTextContents()).sort();
  assert.deepEqual(offered, ['dagger', 'spear'], 'the dagger on her person and the spear nearby, not the bow in hand');
  await page.click('#actions button[data-key="cancel"]');
  assert.equal(await page.locator('#actions button.opt').count(), 0, 'Cancel takes the choices away');
  await chooseByKeyboard(page, 'wield', 'dagger');
  assert.match(await lastLog(page), /Huntress declares Switch Weapons to dagger/);
  assert.match(await page.textContent('.ccard[data-id="huntress"]'), /dagger/, 'the card shows the dagger in hand');

  const id = await startFight(page, 'examples/silent-winter/witch.yaml', 71);
  await page.locator('#actions button.act[data-word="cast"]').click();
  const spells = (await page.locator('#actions button.opt').allTextContents()).sort();
  assert.deepEqual(spells, ['firebolt', 'mend', 'ward']);
  await shot(page, 'winter-options.png');
  await page.click('#actions button[data-key="cancel"]');
  await chooseByKeyboard(page, 'cast', 'firebolt', 'corpse');
  assert.match(await lastLog(page), /Hedge-Witch casts firebolt on Walking Corpse/);
  const st = await gmGet(`/api/fights/${id}`);
  const witch = st.view.combatants.find((c) => c.id === 'witch');
  assert.ok(witch.conditions.some((c) => /casting firebolt/.test(c.name)), 'the spell is under way');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('6d. 99 Towers: Draw a Weapon by clicking (seed 000 "Draw a Weapon")', async () => {
  const page = await newPage();
  await startFight(page, 'examples/towers/duel.yaml', 1187);
  const draw = page.locator('#actions button.act[data-word="draw-weapon"]');
  for (let i = 0; i < 5 && !(await draw.count()); i++) {
    const before = await stateKey(page);
    await page.click('#next');
    await nextState(page, before);
  }
  await chooseByKeyboard(page, 'draw-weapon', 'Dagger');
  assert.match(await lastLog(page), /Draw a Weapon: the Dagger/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('6e. Alloy: an attack with a power by clicking, beside the basic attack', async () => {
  const page = await newPage();
  await startFight(page, 'examples/alloy/duel.yaml', 3);
  await page.click('#next');
  const attack = page.locator('#actions button.act[data-word="attack"]');
  await attack.waitFor();
  await attack.click();
  assert.equal(await page.locator('#actions button.opt[data-word="with stunning-blow"]').count(), 1, 'the power is a choice');
  assert.equal(await page.locator('#actions button.tgt[data-key="tgt-lyra"]').count(), 1, 'the basic attack\'s target beside it');
  await page.click('#actions button[data-key="cancel"]');
  await chooseByKeyboard(page, 'attack', 'with stunning-blow', 'lyra');
  assert.match(await lastLog(page), /Vance: Attack on Lyra with Stunning blow/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- 7. A phone's width -------------------------------------------------------------------
test('7. a phone\'s width (390 px): no sideways scrolling of the page; every control reachable by Tab', async () => {
  const page = await newPage(390);
  await startFight(page, 'examples/towers/skirmish.yaml', 4);
  await page.click('#next');
  await page.waitForSelector('#actions button.act');
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  assert.ok(widths.doc <= widths.view, `the page is ${widths.doc} px wide in ${widths.view}`);
  const controls = await page.evaluate(() => [...document.querySelectorAll('button, input, select, [tabindex="0"]')]
    .filter((e) => !e.disabled && e.offsetParent !== null).length);
  const reached = new Set();
  await page.focus('body');
  for (let i = 0; i < controls + 10; i++) {
    await page.keyboard.press('Tab');
    const k = await page.evaluate(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return null;
      if (!a.__k) a.__k = `${a.tagName}-${Math.random()}`;
      return a.__k;
    });
    if (k) reached.add(k);
  }
  assert.ok(reached.size >= controls, `Tab reached ${reached.size} of ${controls} controls`);
  // Contrast: every piece of text on the page against its background, at least 4.5:1 (WCAG AA).
  const low = await page.evaluate(() => {
    const rgba = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lin = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    const bgOf = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
      }
      return [253, 252, 248];
    };
    const out = [];
    let checked = 0;
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('svg') || el.offsetParent === null) continue;
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      checked++;
      const fg = lum(rgba(getComputedStyle(el).color));
      const bg = lum(bgOf(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      if (ratio < 4.5) out.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
    }
    return { out, checked };
  });
  assert.ok(low.checked > 100, `the texts were checked (${low.checked})`);
  assert.deepEqual(low.out, [], 'text with a contrast under 4.5:1');
  // The keyboard plays: focus an action and press Enter.
  await page.locator('#actions button.act[data-word="attack"]').focus();
  const focused = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(focused, 'none', 'the focus is visible');
  const before = await stateKey(page);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#actions button.tgt');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'tgt', 'the focus goes on to the targets');
  await page.keyboard.press('Enter');
  await nextState(page, before);
  assert.match(await lastLog(page), /Attack on/, 'an attack played by keyboard alone');
  await shot(page, 'gm-page-phone.png', true);
  await page.context().close();
});

// ---- 8. Screenshots -------------------------------------------------------------------------
async function shot(page, name, buildOnly) {
  const dir = process.env.FRAY_SCREENSHOTS === '1' && !buildOnly ? join(SRC, 'docs/images') : OUT;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name), fullPage: true });
}
test('8. the GM\'s page as a screenshot (docs/images/gm-page.png with FRAY_SCREENSHOTS=1)', async () => {
  const page = await newPage(1280);
  await startFight(page, 'examples/towers/skirmish.yaml', 5);
  await page.click('#next');
  await page.waitForSelector('#actions button.act[data-word="attack"]');
  await page.click('#actions button.act[data-word="attack"]');
  await page.waitForSelector('#actions button.tgt');
  await shot(page, 'gm-page.png');
  await page.context().close();
});

// ---- 9. Odds and "who wins from here" (issue 19's calls) --------------------------------
test('9. the chances beside the actions and "who wins from here", as the server counts them', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 21);
  await page.click('#next');
  await page.waitForSelector('#actions button.act[data-word="attack"]');
  // The server's own answers (issue 19): the page shows the same numbers.
  const pctOf = (p) => `${(100 * p).toFixed(p > 0 && p < 0.01 ? 1 : 0)}%`;
  const st = (await api(server.token, 'GET', `/api/fights/${id}`)).json;
  const who = st.view.combatants.find((c) => c.index === st.view.turn).id;
  const odds = (await api(server.token, 'GET', `/api/fights/${id}/odds?who=${who}`)).json;
  const attack = odds.actions.find((a) => a.command.startsWith('attack '));
  assert.ok(attack, 'the server counts an attack');
  const hit = attack.outcomes.find((x) => x.name === 'hit');
  await page.waitForSelector('section.odds:not([hidden])');
  assert.ok((await page.textContent('section.odds')).includes(`hit ${pctOf(hit.p)}`), 'the chances panel');
  assert.ok((await page.textContent('#actions button.act[data-word="attack"]')).includes(`hit ${pctOf(hit.p)}`),
    'beside the action');
  // Who wins from here: both sides with an interval, who stands, when it ends.
  await page.waitForSelector('section.forecast:not([hidden])');
  // (A generous wait: the forecast's 2000 fights run in the server's
  // background, and the suite also runs on an ASan build of a loaded
  // machine; its speed is measured in bench/, not here.)
  await page.waitForFunction(() => /fights played out$/.test(document.querySelector('section.forecast').textContent.trim()),
    null, { timeout: 90000 });
  const fore = await page.textContent('section.forecast');
  for (const side of st.view.sides) assert.match(fore, new RegExp(`${side}: \\d+%( \\(\\d+% to \\d+%\\))?`));
  assert.match(fore, /Still standing at the end: /);
  assert.match(fore, /ends about phase \d+/);
  await page.context().close();
});

// ---- 9b. What deals no damage, ranked (issue 19) --------------------------------
test('9b. the chances panel says how often an action that deals no damage succeeds', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/alloy/duel.yaml', 3);
  await page.click('#next');
  // (The turn has begun once its Attack is offered: only then ask.)
  await page.waitForSelector('#actions button.act[data-word="attack"]');
  const pctOf = (p) => `${(100 * p).toFixed(p > 0 && p < 0.01 ? 1 : 0)}%`;
  const st = (await api(server.token, 'GET', `/api/fights/${id}`)).json;
  const who = st.view.combatants.find((c) => c.index === st.view.turn).id;
  const odds = (await api(server.token, 'GET', `/api/fights/${id}/odds?who=${who}`)).json;
  // Vance's turn: his trip, grapple, bull rush, disarm and feint on Lyra
  // after his attacks, each with its chance of success.
  const first = odds.actions.findIndex((a) => typeof a.p_success === 'number');
  assert.ok(first > 0, 'the attacks first, then what deals no damage');
  assert.ok(odds.actions.slice(first).every((a) => typeof a.p_success === 'number' && a.damage.p_drop < 0));
  const trip = odds.actions.find((a) => a.command.startsWith('trip '));
  assert.ok(trip, 'the server ranks a trip');
  await page.waitForSelector('section.odds:not([hidden])');
  const text = await page.textContent('section.odds');
  assert.ok(text.includes(`${trip.title}: ${pctOf(trip.p_success)} succeeds (`), `the trip in the panel: ${text}`);
  // The panel is the server's list (`odds vance`), in its order: among it
  // the bull rush to each square the engine allows (004:512), each named.
  const named = odds.actions.filter((a) => /^bull-rush lyra \d+,\d+$/.test(a.command));
  assert.ok(named.length >= 1, 'a bull rush to a square named');
  for (const a of named) assert.match(a.title, /^Bull rush Lyra to \d+,\d+$/);
  const items = await page.locator('section.odds li').allTextContents();
  assert.equal(items.length, odds.actions.length, 'as many as the server lists');
  odds.actions.forEach((a, i) => assert.ok(items[i].startsWith(`${a.title}: `), `${i + 1}. ${items[i]} is ${a.title}`));
  await page.context().close();
});

// ---- 10. An uploaded encounter -------------------------------------------------------------
test('10. an uploaded encounter file starts a fight, or the server\'s refusal is shown; a fight archived from the list', async () => {
  const page = await newPage();
  await page.goto(`${server.url}/#gm=${server.token}`);
  await page.waitForSelector('#encounter option', { state: 'attached' });
  const { readFileSync } = await import('node:fs');
  await page.setInputFiles('#upload', { name: 'mine.yaml', mimeType: 'text/yaml', buffer: readFileSync(join(SRC, 'examples/alloy/duel.yaml')) });
  await page.fill('#upload-seed', '8');
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/fights') && r.request().method() === 'POST'),
    page.click('#start-upload'),
  ]);
  if (res.status() === 201) {
    await page.waitForFunction(() => /fight=\d+/.test(window.location.hash));
    await page.waitForSelector('.initiative .order li');
  } else {
    const said = (await res.json()).error;
    await page.waitForSelector('#message[data-bad="yes"]');
    assert.equal(await page.textContent('#message'), said, 'the server\'s words are shown');
    assert.ok(res.status() >= 400 && res.status() < 500, `a refusal (${res.status()})`);
  }
  // A bad upload is refused in words.
  await page.goto(`${server.url}/#gm=${server.token}`);
  await page.waitForSelector('#encounter option', { state: 'attached' });
  await page.setInputFiles('#upload', { name: 'bad.yaml', mimeType: 'text/yaml', buffer: Buffer.from('fray: encounter\nrules: nonsense\n') });
  await page.click('#start-upload');
  await page.waitForSelector('#message[data-bad="yes"]');
  assert.ok((await page.textContent('#message')).length > 5, 'a refusal in words');
  // Archive a fight from the list (asked first): listed as archived, closed to play.
  const fid = (await api(server.token, 'POST', '/api/fights', { encounter: 'examples/towers/duel.yaml', seed: 2 })).json.id;
  await page.click('#refresh');
  const row = page.locator(`li.fightrow[data-fight="${fid}"]`);
  await row.waitFor();
  page.once('dialog', (d) => d.accept());
  await row.getByRole('button', { name: `Archive fight ${fid}` }).click();
  await page.waitForSelector(`details li.fightrow[data-fight="${fid}"]`, { state: 'attached' });
  assert.equal((await api(server.token, 'POST', `/api/fights/${fid}/step`, {})).status, 410, 'an archived fight is not played');
  assert.equal((await gmGet('/api/fights')).fights.find((f) => f.id === fid).archived, true);
  // Its journal is still there to download.
  await page.locator('details summary').click();
  const [dl] = await Promise.all([page.waitForEvent('download'),
    page.getByRole('button', { name: `Journal of fight ${fid}` }).click()]);
  assert.equal(readFileSync(await dl.path(), 'utf8'), await journal(fid), 'the archived fight\'s journal');
  await page.context().close();
});

// ---- 11. A space chosen on the map ----------------------------------------------------------
test('11. a move to a space clicked on the map', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 3);
  await page.click('#next');
  await page.waitForSelector('#actions button.act[data-word="move"]');
  const v = (await gmGet(`/api/fights/${id}`)).view;
  const me = v.combatants.find((c) => c.index === v.turn);
  const taken = new Set(v.combatants.filter((c) => c.place).map((c) => `${c.place.x},${c.place.y}`));
  let to = null;
  for (const [dx, dy] of [[-1, 0], [0, -1], [0, 1], [1, 0]]) {
    const x = me.place.x + dx; const y = me.place.y + dy;
    if (v.map.rows[y] && v.map.rows[y][x] === '.' && !taken.has(`${x},${y}`)) { to = { x, y }; break; }
  }
  assert.ok(to, 'an open space beside the actor');
  await page.click('#actions button.act[data-word="move"]');
  await page.waitForSelector('svg.map.choosing');
  const before = await stateKey(page);
  await page.click(`svg.map rect.cell[data-x="${to.x}"][data-y="${to.y}"]`);
  await nextState(page, before);
  const v2 = (await gmGet(`/api/fights/${id}`)).view;
  const me2 = v2.combatants.find((c) => c.id === me.id);
  assert.deepEqual([me2.place.x, me2.place.y], [to.x, to.y], 'the token moved to the space clicked');
  assert.match(await page.textContent('.places'), new RegExp(`${me.name} \\(\\w+\\): ${to.x},${to.y}`));
  // Reach, when the view gives it ([[x, y], ...] per combatant): the turn's
  // combatant's drawn, everyone's when asked. The state is given by the test.
  const st = await gmGet(`/api/fights/${id}`);
  st.view.combatants.forEach((c, k) => { c.reach = [[k, 0], [k, 1], [k, 2]]; });
  await page.route('**/live', (r) => r.fulfill({ status: 200, contentType: 'text/event-stream', body: `event: state\ndata: ${JSON.stringify(st)}\n\n` }));
  await page.reload();
  await page.waitForSelector('svg.map rect.reach');
  const whose = st.view.combatants.filter((c) => c.index === st.view.turn).length;
  assert.equal(await page.locator('svg.map rect.reach').count(), 3 * whose, 'the turn\'s reach');
  await page.check('#reach-all');
  assert.equal(await page.locator('svg.map rect.reach').count(), 3 * st.view.combatants.length, 'every reach');
  await page.context().close();
});

// ---- 12. Cards and dice given by hand; Step -----------------------------------------------
test('12. cards and dice given by hand go with the command; Step plays a turn of the tactics', async () => {
  const page = await newPage();
  const id = await startFight(page, 'examples/towers/duel.yaml', 3);
  await page.click('#next');
  await page.waitForSelector('#actions button.act[data-word="attack"]');
  // Seed 3: the initiative flipped A♦ K♠ 7♥, the GM's hand holds A♣ 3♥ 9♥;
  // Sir Aldric's attack flips 4 cards, the Black Knight's defense 2.
  await page.fill('#given-cards', 'kh qh jh 10h 2c 3c');
  let before = await stateKey(page);
  await page.click('#actions button.act[data-word="attack"]');
  await page.click('#actions button.tgt');
  await nextState(page, before);
  const log = await lastLog(page);
  assert.match(log, /attack flip[^\n]*K♥ Q♥ J♥ 10♥/, 'the attack flip is the cards given');
  assert.match(log, /defense flip[^\n]*2♣ 3♣/, 'then the defense flip');
  // The live stream may draw the new state before the command's own answer
  // comes back and empties the field: wait for the answer.
  await page.waitForFunction(() => document.getElementById('given-cards').value === '', null, { timeout: 5000 })
    .catch(() => {});
  assert.equal(await page.inputValue('#given-cards'), '', 'the field is emptied once the command is taken');
  const last = (await journal(id)).trim().split('\n').pop();
  assert.match(last, /"KH"/, 'the journal keeps the cards');
  // Step: the tactics play one turn.
  before = await stateKey(page);
  const events0 = (await gmGet(`/api/fights/${id}`)).events;
  await page.click('#step');
  await nextState(page, before);
  assert.ok((await gmGet(`/api/fights/${id}`)).events > events0, 'Step played');
  assert.notEqual(await lastLog(page), log, 'and the log tells it');

  // Alloy: dice given by hand.
  const aid = await startFight(page, 'examples/alloy/duel.yaml', 3);
  await page.click('#next');
  await page.waitForSelector('#actions button.act[data-word="attack"]');
  await page.fill('#given-dice', '17 4');
  before = await stateKey(page);
  await page.click('#actions button.act[data-word="attack"]');
  await page.click('#actions button.tgt');
  await nextState(page, before);
  assert.match(await lastLog(page), /d20 17/, 'the d20 is the die given');
  assert.ok((await journal(aid)).includes('17'), 'the journal keeps it');
  // A die that does not fit is refused in words, and nothing changes.
  const j0 = await journal(aid);
  await page.fill('#given-dice', 'x');
  await page.click('#next');
  await page.waitForSelector('#message[data-bad="yes"]');
  assert.match(await page.textContent('#message'), /dice/);
  assert.equal(await journal(aid), j0);
  await page.context().close();
});

// ---- 13. --web names a folder that must hold the pages ----------------------------------------
test('13. fray serve --web with a folder that is not the pages\' refuses to start, in words', async () => {
  const { spawnSync } = await import('node:child_process');
  const empty = mkdtempSync(join(tmpdir(), 'fray-web-empty-'));
  try {
    for (const [dir, words] of [[join(empty, 'nowhere'), /nowhere: No such file/], [empty, /holds no index\.html/]]) {
      const r = spawnSync(FRAY, ['serve', '--port', '0', '--data', join(empty, 'data'), '--web', dir], { encoding: 'utf8', timeout: 10000 });
      assert.equal(r.status, 2, `exit 2 (bad usage): ${r.stderr}`);
      assert.match(r.stderr, /the pages \(--web\)/);
      assert.match(r.stderr, words);
    }
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

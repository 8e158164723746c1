// app.js - reads the link's fragment and opens the GM's or a player's page.
//   #gm=TOKEN             the GM's link (fray serve prints it): the fights
//   #gm=TOKEN&fight=ID    the GM in one fight
//   #fight=ID&player=TOKEN  a player's link (POST /api/fights/ID/players)
// The token stays in the fragment (never sent to the server in a URL)
// and goes out only in Authorization headers.
import { makeApi } from './api.js';
import { fightList } from './gm.js';
import { fightPage } from './fight.js';

const main = document.getElementById('main');
const msg = document.getElementById('message');
const conn = document.getElementById('conn');
const title = document.getElementById('title');

function say(text, bad) {
  msg.textContent = text || '';
  msg.hidden = !text;
  msg.dataset.bad = bad ? 'yes' : 'no';
}

const CONN_WORDS = {
  connecting: 'connecting…', live: 'live', reconnecting: 'connection lost: reconnecting…', closed: 'not connected',
};
function onConn(state, why) {
  conn.hidden = false;
  conn.dataset.state = state;
  conn.textContent = CONN_WORDS[state] + (why ? `: ${why}` : '');
  if (why) say(why, true);
}

function setTitle(t) {
  title.textContent = t;
  document.title = `${t}: fray`;
}

let current = null;

function route() {
  if (current) { current.stop(); current = null; }
  say('');
  const p = new URLSearchParams(window.location.hash.slice(1));
  const gmToken = p.get('gm');
  const player = p.get('player');
  const fight = p.get('fight');
  if (gmToken) {
    const api = makeApi(gmToken);
    if (fight) {
      current = fightPage(main, api, fight, {
        gm: true, say, onConn, setTitle,
        back: () => { window.location.hash = `gm=${gmToken}`; },
      });
      current.start();
    } else {
      setTitle("The GM's fights");
      conn.hidden = true; // the list is read on demand, not followed live
      fightList(main, api, {
        say, open: (id) => { window.location.hash = `gm=${gmToken}&fight=${id}`; },
      });
    }
    return;
  }
  if (player && fight) {
    const api = makeApi(player);
    current = fightPage(main, api, fight, { gm: false, say, onConn, setTitle });
    current.start();
    return;
  }
  setTitle('fray');
  main.replaceChildren();
  const p1 = document.createElement('p');
  p1.textContent = "Open the GM's link that fray serve prints (…/#gm=TOKEN), or a player's link the GM made.";
  main.append(p1);
}

window.addEventListener('hashchange', route);
route();

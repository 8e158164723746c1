// api.js - fray serve's HTTP calls (docs/server.md "The HTTP interface").
// The token goes only in the Authorization header: never a cookie, never
// the URL.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function makeApi(token) {
  const headers = (json) => {
    const h = { Authorization: `Bearer ${token}` };
    if (json) h['Content-Type'] = 'application/json';
    return h;
  };
  async function answer(res) {
    const text = await res.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch { body = null; }
    if (!res.ok) {
      const msg = body && body.error ? body.error : `${res.status} ${res.statusText}`;
      throw new ApiError(res.status, msg);
    }
    return body;
  }
  return {
    token,
    async get(path) {
      return answer(await fetch(path, { headers: headers(false), cache: 'no-store' }));
    },
    async post(path, body) {
      return answer(await fetch(path, {
        method: 'POST', headers: headers(true),
        body: JSON.stringify(body === undefined ? {} : body),
      }));
    },
    // The raw text of a GET (the journal, JSON Lines).
    async text(path) {
      const res = await fetch(path, { headers: headers(false), cache: 'no-store' });
      if (!res.ok) await answer(res);
      return res.text();
    },
    // Follows GET /api/fights/ID/live: EventSource cannot send headers, so
    // fetch and a stream reader. onState(state) for every `event: state`;
    // onConn(word) with "connecting", "live", "reconnecting", "closed".
    // Reconnects after a drop (0.25 s, doubling to 4 s); stops for good on
    // a refusal (4xx: 401, 403, 404, 409, 410) and says why with
    // onConn("closed", msg).
    live(fight, onState, onConn) {
      let stopped = false;
      let ctrl = null;
      let wait = 250;
      async function once() {
        ctrl = new AbortController();
        onConn('connecting');
        const res = await fetch(`/api/fights/${fight}/live`, {
          headers: headers(false), signal: ctrl.signal, cache: 'no-store',
        });
        if (!res.ok) {
          let msg = `${res.status}`;
          try { msg = (await res.json()).error || msg; } catch { /* not JSON */ }
          const err = new ApiError(res.status, msg);
          throw err;
        }
        onConn('live');
        wait = 250;
        const reader = res.body.getReader();
        const dec = new TextDecoder();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true });
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            let ev = 'message';
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) ev = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
            }
            if (ev === 'state' && data.length) onState(JSON.parse(data.join('\n')));
          }
        }
      }
      (async () => {
        while (!stopped) {
          try {
            await once();
          } catch (e) {
            if (stopped) break;
            if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
              onConn('closed', e.message);
              return;
            }
          }
          if (stopped) break;
          onConn('reconnecting');
          await new Promise((r) => setTimeout(r, wait));
          wait = Math.min(wait * 2, 4000);
        }
      })();
      return () => { stopped = true; if (ctrl) ctrl.abort(); onConn('closed'); };
    },
  };
}

// The admin page's Sessions view: the web chat's signed-in sessions, and a button that ends all of a
// person's. Every text from the store is set with textContent, never parsed as HTML.

const $ = (id) => document.getElementById(id);
const when = (ms) => new Date(ms).toLocaleString();

/** Shows the sessions in #sessions-body; `say` reports progress and failures in the status line. */
export async function showSessions(say) {
  const res = await fetch('/admin/api/sessions', {
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  const body = await res.json().catch(() => undefined);
  if (res.status !== 200) throw new Error(body?.error ?? String(res.status));
  const box = $('sessions-body');
  box.replaceChildren();
  if (!body.signIn) {
    const note = document.createElement('p');
    note.textContent =
      'Nobody signs in to this web chat (WEB_AUTH is token or none), so there are no sessions to list.';
    box.append(note);
    return;
  }
  if (body.sessions.length === 0) {
    const note = document.createElement('p');
    note.textContent = 'Nobody is signed in.';
    box.append(note);
    return;
  }
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const title of ['Person', 'Signed in', 'Last used', 'Address', 'Browser', '']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = title;
    head.append(th);
  }
  const rows = table.createTBody();
  for (const s of body.sessions) {
    const row = rows.insertRow();
    for (const text of [
      `${s.name} (${s.principal})`,
      when(s.createdAt),
      when(s.lastSeen),
      s.address,
      s.userAgent,
    ]) {
      row.insertCell().textContent = text;
    }
    const end = document.createElement('button');
    end.type = 'button';
    end.className = 'secondary';
    end.textContent = 'End their sessions';
    end.setAttribute('aria-label', `End every session of ${s.name}`);
    end.addEventListener('click', async () => {
      end.disabled = true;
      const done = await fetch('/admin/api/sessions/end', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ principal: s.principal }),
      });
      const reply = await done.json().catch(() => undefined);
      if (done.status !== 200) {
        end.disabled = false;
        say(`Could not end the sessions: ${reply?.error ?? done.status}`);
        return;
      }
      say(`Ended ${reply.ended} ${reply.ended === 1 ? 'session' : 'sessions'} of ${s.name}.`);
      await showSessions(say);
    });
    row.insertCell().append(end);
  }
  box.append(table);
}

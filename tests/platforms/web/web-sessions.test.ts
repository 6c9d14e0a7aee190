import { afterEach, describe, expect, it } from 'vitest';
import { createChatSessions } from '../../../src/platforms/web/chat-sessions.js';
import type { EventStream } from '../../../src/platforms/web/event-stream.js';
import type { WebRun } from '../../../src/platforms/web/web-run.js';
import { startWebBed, type WebBed, WebUser } from './web-harness.js';

const watcher: EventStream = { send: () => {}, close: () => {}, onClose: () => {} };

describe('live web conversations are bounded (MAX_SESSIONS)', () => {
  it('forgets idle ones oldest first, never one answering or watched', () => {
    const sessions = createChatSessions(2);
    const answering = sessions.get('web:answering');
    answering.stop = new AbortController();
    sessions.get('web:watched').clients.add(watcher);
    sessions.get('web:idle-old');
    sessions.get('web:idle-new');
    expect([...sessions.all()].map((s) => s.key)).toEqual(['web:answering', 'web:watched', 'web:idle-new']);
    // Once its answer ends, the answering one is idle too, and goes before a newer one.
    answering.stop = undefined;
    sessions.get('web:idle-new');
    sessions.get('web:another');
    expect([...sessions.all()].map((s) => s.key)).toEqual(['web:watched', 'web:another']);
  });

  let bed: WebBed | undefined;
  const users: WebUser[] = [];
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
  });

  it('takes MAX_SESSIONS from the configuration: past it, an idle chat’s last run is forgotten', async () => {
    bed = await startWebBed({ MAX_SESSIONS: '1' });
    bed.test.fake.script({ content: 'First.' }, { content: 'Second.' });
    const first = new WebUser(bed.url);
    const second = new WebUser(bed.url);
    users.push(first, second);
    await first.ask('one');
    first.close();
    await second.ask('two');
    await bed.adapter.idle();
    const again = await first.client.events();
    const snapshot = (await again.next((e) => e.event === 'conversation')).data as { run?: WebRun };
    again.close();
    // The answer is in memory still; only the live run (kept for reconnecting pages) is gone.
    expect(snapshot.run).toBeUndefined();
  });
});

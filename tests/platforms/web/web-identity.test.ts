import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { type EventFeed, EventsRefused, WebClient } from './web-client.js';
import { startWebBed, TOKEN, type WebBed, WebUser } from './web-harness.js';

/** Issue 26's attacks on the web chat's identity, over HTTP: each was possible before. */
describe('the web chat’s identity cannot be chosen by the client', () => {
  let bed: WebBed | undefined;
  const users: WebUser[] = [];
  const feeds: EventFeed[] = [];
  const user = (browserId?: string) => {
    const u = new WebUser(bed!.url, browserId);
    users.push(u);
    return u;
  };
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    for (const f of feeds.splice(0)) f.close();
    await bed?.close();
    bed = undefined;
  });

  it('replaces a chosen tt_browser cookie (Cookie: tt_browser=U0ADMIN01): /settings is refused and limits apply', async () => {
    bed = await startWebBed({ ADMIN_USERS: 'U0ADMIN01,web:U0ADMIN01', RATE_LIMIT_USER: '1/hour' });
    const spoof = user('U0ADMIN01');
    const session = await spoof.client.request('/api/session');
    expect(session.status).toBe(200);
    const issued = session.headers.getSetCookie().find((c) => c.startsWith('tt_browser='));
    expect(issued).toBeDefined();
    expect(spoof.client.cookies.get('tt_browser')).not.toBe('U0ADMIN01');

    expect(await spoof.command('/settings prompt Be rude.')).toBe(WORDING.settingsAdminsOnly);
    expect(await spoof.command('/usage')).not.toMatch(/top users/i);
    bed.test.fake.script({ content: 'Only one.' });
    expect((await spoof.ask('first')).answer).toBe('Only one.');
    expect((await spoof.ask('second')).problem).toMatch(/limit of 1 question per hour/);
    expect(bed.test.fake.requests).toHaveLength(1);
  });

  it('token mode: a fresh cookie jar from the same address is still limited', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, RATE_LIMIT_USER: '1/hour' });
    bed.test.fake.script({ content: 'Only one.' });
    const first = user();
    expect((await first.client.request('/api/login', { token: TOKEN })).status).toBe(204);
    expect((await first.ask('first')).answer).toBe('Only one.');

    const fresh = user();
    expect((await fresh.client.request('/api/login', { token: TOKEN })).status).toBe(204);
    expect(fresh.client.cookies.get('tt_browser')).not.toBe(first.client.cookies.get('tt_browser'));
    expect((await fresh.ask('second')).problem).toMatch(/limit of 1 question per hour/);
    expect(bed.test.fake.requests).toHaveLength(1);
  });

  it('token mode: after a few wrong tokens an address gets 429 with Retry-After, even for the right one', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN });
    const guesser = user();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await guesser.client.request('/api/login', { token: `guess-${i}` })).status);
    }
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
    const held = await user().client.request('/api/login', { token: TOKEN });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('token mode: the wait doubles with each wrong token, and the right one is taken once it is over', async () => {
    let clock = Date.parse('2025-01-06T12:00:00Z');
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN }, {}, { now: () => clock });
    const guesser = user();
    const login = (token: string) => guesser.client.request('/api/login', { token });
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) expect((await login('wrong')).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      expect((await login('wrong')).status).toBe(401);
      const held = await login(TOKEN);
      expect(held.status).toBe(429);
      waits.push(Number(held.headers.get('retry-after')));
      clock += waits.at(-1)! * 1000;
    }
    expect(waits).toEqual([1, 2, 4]);
    expect((await login(TOKEN)).status).toBe(204);
    // Proving the token forgets the failures.
    expect((await login('wrong')).status).toBe(401);
  });

  it('token mode: another address is not held back by one guessing (behind a trusted proxy)', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, WEB_TRUST_PROXY: 'true' });
    const guesser = user();
    guesser.client.sendHeaders['x-forwarded-for'] = '203.0.113.66';
    for (let i = 0; i < 5; i++) await guesser.client.request('/api/login', { token: 'wrong' });
    expect((await guesser.client.request('/api/login', { token: TOKEN })).status).toBe(429);
    const other = user();
    // The first hop is the client's to write; only the proxy's last hop counts.
    other.client.sendHeaders['x-forwarded-for'] = '203.0.113.66, 198.51.100.9';
    expect((await other.client.request('/api/login', { token: TOKEN })).status).toBe(204);
  });

  it('opens at most 8 event streams per client address: the 9th gets 429', async () => {
    bed = await startWebBed();
    for (let i = 0; i < 8; i++) feeds.push(await new WebClient(bed.url).events());
    const refused = await new WebClient(bed.url).events().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(EventsRefused);
    expect((refused as EventsRefused).status).toBe(429);
    expect(Number((refused as EventsRefused).headers.get('retry-after'))).toBeGreaterThan(0);
    // One closing makes room again.
    feeds.pop()?.close();
    await expect
      .poll(async () => {
        const again = await new WebClient(bed!.url).events().catch(() => undefined);
        if (again) feeds.push(again);
        return again !== undefined;
      })
      .toBe(true);
  });

  it('opens at most WEB_MAX_STREAMS event streams in all, whatever the addresses', async () => {
    bed = await startWebBed({ WEB_MAX_STREAMS: '3', WEB_TRUST_PROXY: 'true' });
    const from = (address: string) => {
      const client = new WebClient(bed!.url);
      client.sendHeaders['x-forwarded-for'] = address;
      return client;
    };
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      feeds.push(await from(address).events());
    const refused = await from('203.0.113.4')
      .events()
      .catch((err: unknown) => err);
    expect((refused as EventsRefused).status).toBe(429);
  });
});

import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import type { WebRun } from '../../../src/platforms/web/web-run.js';
import { createGate } from '../../helpers/gate.js';
import { startWebBed, TOKEN, type WebBed, WebUser } from './web-harness.js';

const isRun = (id: unknown, phase?: string) => (e: { event: string; data: unknown }) =>
  e.event === 'run' &&
  (e.data as WebRun).id === id &&
  (phase === undefined || (e.data as WebRun).phase === phase);

/** GET /api/session addressed to `host` (fetch may not set Host). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/session', url), { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web chat over HTTP', () => {
  let bed: WebBed | undefined;
  const users: WebUser[] = [];
  const user = (browserId?: string) => {
    const u = new WebUser(bed!.url, browserId);
    users.push(u);
    return u;
  };
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
  });

  it('serves the page and its files with their types and a strict CSP', async () => {
    bed = await startWebBed();
    const page = await fetch(bed.url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|\son\w+=|style=|https?:\/\/(?!www\.w3\.org)/);
    for (const [path, type] of [
      ['app.js', 'text/javascript; charset=utf-8'],
      ['markdown.js', 'text/javascript; charset=utf-8'],
      ['app.css', 'text/css; charset=utf-8'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const res = await fetch(new URL(path!, bed.url));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
    }
  });

  it('keeps the browser and chat IDs sealed in HttpOnly, SameSite=Strict cookies (not Secure on loopback http)', async () => {
    bed = await startWebBed();
    const session = await fetch(new URL('/api/session', bed.url));
    const cookies = session.headers.getSetCookie();
    expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual(['tt_browser', 'tt_chat']);
    for (const c of cookies) {
      expect(c).toMatch(/^tt_\w+=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    }
  });

  it('marks its cookies Secure when WEB_PUBLIC_URL is https', async () => {
    bed = await startWebBed({ WEB_PUBLIC_URL: 'https://chat.example.com' });
    const cookies = (await fetch(new URL('/api/session', bed.url))).headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    for (const c of cookies) expect(c).toMatch(/; Secure$/);
  });

  it('marks its cookies Secure when served beyond loopback without WEB_PUBLIC_URL (it must sit behind TLS)', async () => {
    bed = await startWebBed({ WEB_HOST: '0.0.0.0', WEB_CHAT_TOKEN: TOKEN });
    const login = await user().client.request('/api/login', { token: TOKEN });
    expect(login.headers.getSetCookie().find((c) => c.startsWith('tt_auth='))).toMatch(/; Secure$/);
  });

  it('validates and bounds what it reads', async () => {
    bed = await startWebBed();
    const u = user();
    const post = (body: string, type = 'application/json') =>
      fetch(new URL('/api/ask', bed!.url), { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('{"text":"hi"}', 'text/plain')).status).toBe(415);
    expect((await post('not json')).status).toBe(400);
    expect((await post('{"text":"   "}')).status).toBe(400);
    expect((await post(JSON.stringify({ text: 'x'.repeat(8001) }))).status).toBe(400);
    expect((await post(JSON.stringify({ text: 'x'.repeat(40_000) }))).status).toBe(413);
    expect((await u.client.request('/api/ask', { question: 'wrong field' })).status).toBe(400);
    expect(bed.test.fake.requests).toHaveLength(0);
  });

  it('refuses writes from other sites, and (without a token) requests addressed to other hosts', async () => {
    bed = await startWebBed();
    const ask = (headers: Record<string, string>) =>
      fetch(new URL('/api/ask', bed!.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"text":"/help"}',
      });
    expect((await ask({ origin: 'https://evil.example' })).status).toBe(403);
    expect(await statusWithHost(bed.url, 'rebound.example')).toBe(403);
    expect(await statusWithHost(bed.url, `localhost:${new URL(bed.url).port}`)).toBe(200);
    expect((await ask({ origin: new URL(bed.url).origin })).status).toBe(200);
  });

  it('asks for the token before anything else, and keeps it out of every reply', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN });
    const u = user();
    expect((await u.client.request('/api/session')).status).toBe(401);
    expect((await u.client.request('/api/ask', { text: 'hi' })).status).toBe(401);
    await expect(u.client.events()).rejects.toThrow(/401/);
    expect((await u.client.request('/api/login', { token: 'tok-wrong' })).status).toBe(401);
    const login = await u.client.request('/api/login', { token: TOKEN });
    expect(login.status).toBe(204);
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('tt_auth='));
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    expect((await u.client.request('/api/session')).status).toBe(200);
    bed.test.fake.script({ content: 'In.' });
    expect((await u.ask('hello')).answer).toBe('In.');
  });

  it('shows a reconnecting page the finished answer of a run that ended while it was away', async () => {
    bed = await startWebBed();
    const gate = createGate();
    bed.test.fake.script(
      {
        content: 'Using the calculator.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
      },
      { content: 'It is 56877.', until: gate.promise },
    );
    const u = user();
    const first = await u.client.events();
    const sent = await u.client.request('/api/ask', { text: 'what is 123 * 456 + 789' });
    await first.next(
      (e) => e.event === 'step' && (e.data as { step: { kind: string } }).step.kind === 'observation',
    );
    first.close();
    gate.open();
    await bed.adapter.idle();

    const again = await u.client.events();
    const snapshot = (await again.next((e) => e.event === 'conversation')).data as {
      turns: unknown[];
      run: WebRun;
    };
    expect(snapshot.turns).toEqual([]);
    expect(snapshot.run).toMatchObject({ id: sent.body?.id, phase: 'final', answer: 'It is 56877.' });
    expect(snapshot.run.steps.map((s) => s.kind)).toEqual(['thought', 'action', 'observation']);
    again.close();
  });

  it('takes one question at a time per chat', async () => {
    bed = await startWebBed();
    const gate = createGate();
    bed.test.fake.script({ content: 'First.', until: gate.promise });
    const u = user();
    const feed = await u.stream();
    const sent = await u.client.request('/api/ask', { text: 'first' });
    expect(sent.status).toBe(202);
    const second = await u.client.request('/api/ask', { text: 'second' });
    expect(second.status).toBe(409);
    gate.open();
    await feed.next(isRun(sent.body?.id, 'final'));
  });

  it('counts limits per browser, across its chats', async () => {
    bed = await startWebBed({ RATE_LIMIT_USER: '1/hour' });
    bed.test.fake.script({ content: 'Only one.' });
    const u = user();
    expect((await u.ask('first')).answer).toBe('Only one.');
    expect((await u.client.request('/api/new-chat', {})).status).toBe(204);
    u.close();
    const again = new WebUser(bed.url);
    users.push(again);
    for (const [k, v] of u.client.cookies) again.client.cookies.set(k, v);
    const limited = await again.ask('second');
    expect(limited.problem).toMatch(/limit of 1 question per hour/);
    expect(bed.test.fake.requests).toHaveLength(1);
  });

  it('ends a run still going at shutdown with the restart notice', async () => {
    bed = await startWebBed({ SHUTDOWN_GRACE_MS: '0' });
    const gate = createGate();
    bed.test.fake.script({ content: 'Too late.', until: gate.promise });
    const u = user();
    const feed = await u.stream();
    const sent = await u.client.request('/api/ask', { text: 'slow question' });
    await bed.test.fake.waitForRequests(1);
    await bed.adapter.stop();
    const ended = await feed.next(isRun(sent.body?.id, 'cancelled'));
    expect((ended.data as WebRun).problem).toBe(WORDING.restarted);
    gate.open();
  });
});

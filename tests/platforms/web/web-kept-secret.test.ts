import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signInOverHttp, startSlackSignInBed } from './sign-in-harness.js';
import { WebClient } from './web-client.js';
import { startWebBed, TOKEN, type WebBed, WebUser } from './web-harness.js';

describe('without WEB_SESSION_SECRET, a restart keeps the browser’s chats and sessions', () => {
  const closing: { close(): Promise<void> }[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const c of closing.splice(0).reverse()) await c.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const database = () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-kept-secret-'));
    dirs.push(dir);
    return `sqlite:${join(dir, 'bot.db')}`;
  };
  const copy = (from: WebClient, to: WebBed) => {
    const client = new WebClient(to.url);
    for (const [k, v] of from.cookies) client.cookies.set(k, v);
    return client;
  };

  it('a token browser finds its conversation with its answer after the restart', async () => {
    const env = { WEB_CHAT_TOKEN: TOKEN, DATABASE_URL: database() };
    const before = await startWebBed(env);
    const user = new WebUser(before.url);
    expect((await user.client.request('/api/login', { token: TOKEN })).status).toBe(204);
    before.test.fake.script({ content: 'Kept.' });
    expect((await user.ask('will you keep this?')).answer).toBe('Kept.');
    user.close();
    await before.close();

    const after = await startWebBed(env);
    closing.push(after);
    const again = copy(user.client, after);
    const chats = await again.request('/api/chats');
    expect(chats.status).toBe(200);
    expect(chats.body).toMatchObject({ kept: true, chats: [{ title: 'will you keep this?' }] });
  });

  it('a signed-in person stays signed in; a copied cookie from another database is refused', async () => {
    const url = database();
    const signIn = await startSlackSignInBed({ DATABASE_URL: url });
    closing.push(signIn);
    const browser = new WebClient(signIn.bed.url);
    expect(await signInOverHttp(browser)).toBe(signIn.bed.url);
    const slack = {
      WEB_AUTH: 'slack',
      WEB_PUBLIC_URL: signIn.bed.url,
      SLACK_CLIENT_ID: 'x',
      SLACK_CLIENT_SECRET: 'y',
      SLACK_TEAM_ID: 'T0ACME01',
    };
    const restarted = await startWebBed({ ...slack, DATABASE_URL: url });
    closing.push(restarted);
    expect((await copy(browser, restarted).request('/api/session')).status).toBe(200);
    // Another deployment (its own database, so its own kept secret) cannot open the cookie.
    const elsewhere = await startWebBed({ ...slack, DATABASE_URL: database() });
    closing.push(elsewhere);
    expect((await copy(browser, elsewhere).request('/api/session')).status).toBe(401);
  });
});

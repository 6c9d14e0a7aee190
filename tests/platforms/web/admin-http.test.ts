import { afterEach, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../../src/core/ports/run-log-store.js';
import { type SignInBed, SLACK_PRINCIPAL, signInOverHttp, startSlackSignInBed } from './sign-in-harness.js';
import { type Reply, WebClient } from './web-client.js';

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field as the page reads it
const json = (reply: Reply): any => reply.body;

import { startWebBed, TOKEN, type WebBed, WebUser } from './web-harness.js';

const ADMIN_TOKEN = 'admin-token-0123456789-abcdefghij';

/** A question answered after two tool calls, as the scripted model plays it. */
function scriptTwoTools(bed: WebBed): void {
  bed.test.fake.script(
    {
      content: null,
      toolCalls: [
        { name: 'calculator', arguments: { expression: '6*7' } },
        { name: 'current_time', arguments: { timezone: 'Not/AZone' } },
      ],
      usage: { prompt_tokens: 120, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 100 } },
    },
    { content: 'It is 42.', usage: { prompt_tokens: 200, completion_tokens: 8 } },
  );
}

describe('the admin page over HTTP', () => {
  let bed: WebBed | undefined;
  let signIn: SignInBed<unknown> | undefined;
  afterEach(async () => {
    await bed?.close();
    await signIn?.close();
    bed = undefined;
    signIn = undefined;
  });

  it('without sign-in lets in only ADMIN_TOKEN: never anonymous or WEB_CHAT_TOKEN visitors', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, ADMIN_TOKEN });
    const anonymous = new WebClient(bed.url);
    expect(await anonymous.request('/admin/api/stats')).toMatchObject({
      status: 401,
      body: { auth: 'token' },
    });

    const chatUser = new WebClient(bed.url);
    expect((await chatUser.request('/api/login', { token: TOKEN })).status).toBe(204);
    expect((await chatUser.request('/api/session')).status).toBe(200);
    expect((await chatUser.request('/admin/api/stats')).status).toBe(401);
    expect((await chatUser.request('/admin/api/login', { token: TOKEN })).status).toBe(401);
    expect((await chatUser.request('/admin/api/runs')).status).toBe(401);

    const admin = new WebClient(bed.url);
    expect((await admin.request('/admin/api/login', { token: ADMIN_TOKEN })).status).toBe(204);
    const stats = await admin.request('/admin/api/stats?days=7');
    expect(stats.status).toBe(200);
    expect(json(stats).charts.days).toHaveLength(7);
    expect(JSON.stringify(stats.body)).not.toContain(ADMIN_TOKEN);
    const settings = await admin.request('/admin/api/settings');
    expect(settings.status).toBe(200);
    expect(JSON.stringify(settings.body)).not.toContain(TOKEN);
    expect(JSON.stringify(settings.body)).not.toContain(ADMIN_TOKEN);
    expect((await admin.request('/admin/api/logout', {})).status).toBe(204);
    expect((await admin.request('/admin/api/stats')).status).toBe(401);

    const bearer = new WebClient(bed.url);
    bearer.sendHeaders.authorization = `Bearer ${ADMIN_TOKEN}`;
    expect((await bearer.request('/admin/api/runs')).status).toBe(200);
    bearer.sendHeaders.authorization = `Bearer ${TOKEN}`;
    expect((await bearer.request('/admin/api/runs')).status).toBe(401);

    // Another site's page cannot log in with a guessed token, nor read the API.
    const res = await fetch(new URL('/admin/api/login', bed.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    expect(res.status).toBe(403);
    const page = await fetch(new URL('/admin', bed.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).not.toContain(ADMIN_TOKEN);
  });

  it('is off without ADMIN_TOKEN when nobody signs in', async () => {
    bed = await startWebBed({});
    const res = await new WebClient(bed.url).request('/admin/api/stats');
    expect(res.status).toBe(404);
    expect(json(res).error).toMatch(/ADMIN_TOKEN/);
  });

  it('with sign-in lets in signed-in ADMIN_USERS only, and no longer takes ADMIN_TOKEN', async () => {
    signIn = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL, ADMIN_TOKEN });
    const url = signIn.bed.url;
    const anonymous = new WebClient(url);
    expect(await anonymous.request('/admin/api/stats')).toMatchObject({
      status: 401,
      body: { auth: 'sign-in', signIn: '/auth/sign-in?return=%2Fadmin' },
    });
    anonymous.sendHeaders.authorization = `Bearer ${ADMIN_TOKEN}`;
    expect((await anonymous.request('/admin/api/stats')).status).toBe(401);
    expect((await anonymous.request('/admin/api/login', { token: ADMIN_TOKEN })).status).toBe(404);

    const alice = new WebClient(url);
    await signInOverHttp(alice);
    expect((await alice.request('/admin/api/stats')).status).toBe(200);
  });

  it('brings an admin back to the admin page after signing in from it, and nobody anywhere else', async () => {
    signIn = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL });
    const url = signIn.bed.url;
    const gate = await new WebClient(url).request('/admin/api/stats');
    expect(await signInOverHttp(new WebClient(url), json(gate).signIn)).toBe(`${url}admin`);
    for (const elsewhere of ['https://evil.example/', '//evil.example', '/api/session', '/admin/../api']) {
      const landed = await signInOverHttp(
        new WebClient(url),
        `/auth/sign-in?return=${encodeURIComponent(elsewhere)}`,
      );
      expect(landed).toBe(url);
    }
  });

  it('refuses a signed-in person who is not an admin', async () => {
    signIn = await startSlackSignInBed({ ADMIN_USERS: 'slack:U0SOMEONEELSE' });
    const alice = new WebClient(signIn.bed.url);
    await signInOverHttp(alice);
    expect((await alice.request('/api/session')).status).toBe(200);
    const refused = await alice.request('/admin/api/runs');
    expect(refused.status).toBe(403);
    expect(json(refused).error).toMatch(/admins/);
  });

  it('keeps a web question’s steps, model calls and tool calls, and shows them on the run page', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, ADMIN_TOKEN });
    const user = new WebUser(bed.url);
    await user.client.request('/api/login', { token: TOKEN });
    scriptTwoTools(bed);
    const run = await user.ask('What is 6 * 7, and the time?');
    expect(run.phase).toBe('final');
    user.close();
    await bed.adapter.idle();

    const admin = new WebClient(bed.url);
    admin.sendHeaders.authorization = `Bearer ${ADMIN_TOKEN}`;
    // The run log is written as the run ends; the list shows it once it is there.
    let runs: { id: number; question: string | null }[] = [];
    for (let tries = 0; tries < 200 && !runs[0]?.question; tries++) {
      runs = json(await admin.request('/admin/api/runs?q=6%20*%207')).runs;
    }
    const [row] = runs;
    expect(row).toMatchObject({ question: 'What is 6 * 7, and the time?', outcome: 'answered' });
    const detail = json(await admin.request(`/admin/api/run?id=${row!.id}`)).run as RunDetail;
    expect(detail).toMatchObject({
      promptTokens: 320,
      completionTokens: 28,
      cachedTokens: 100,
      modelCalls: 2,
    });
    const steps = detail.log!.steps;
    expect(steps.map((s) => s.kind)).toEqual([
      'model',
      'thought',
      'action',
      'action',
      'observation',
      'observation',
      'model',
      'answer',
    ]);
    expect(steps[0]).toMatchObject({ promptTokens: 120, completionTokens: 20, cachedTokens: 100 });
    expect(steps[2]).toMatchObject({ tool: 'calculator', input: '{"expression":"6*7"}' });
    expect(steps[4]).toMatchObject({ tool: 'calculator', ok: true });
    expect((steps[4] as { text: string }).text).toContain('42');
    expect(steps[5]).toMatchObject({ tool: 'current_time', ok: false });
    expect(detail.log!.answer).toBe('It is 42.');
    const stats = json(await admin.request('/admin/api/stats?days=7'));
    expect(stats.tools).toEqual([
      { tool: 'calculator', calls: 1, failed: 0 },
      { tool: 'current_time', calls: 1, failed: 1 },
    ]);
    expect(stats.charts.totals).toMatchObject({ questions: 1, promptTokens: 320, cachedTokens: 100 });
  });

  it('with RUN_LOG_RETENTION_DAYS=0 lists the run from its usage record but keeps no steps', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, ADMIN_TOKEN, RUN_LOG_RETENTION_DAYS: '0' });
    const user = new WebUser(bed.url);
    await user.client.request('/api/login', { token: TOKEN });
    scriptTwoTools(bed);
    await user.ask('What is 6 * 7?');
    user.close();
    await bed.adapter.idle();
    const admin = new WebClient(bed.url);
    admin.sendHeaders.authorization = `Bearer ${ADMIN_TOKEN}`;
    const listed = json(await admin.request('/admin/api/runs'));
    expect(listed.runLogDays).toBe(0);
    const [row] = listed.runs;
    expect(row).toMatchObject({ question: null });
    const detail = await admin.request(`/admin/api/run?id=${row.id}`);
    expect(json(detail).run.log).toBeUndefined();
    expect(json(detail).runLogDays).toBe(0);
  });
});

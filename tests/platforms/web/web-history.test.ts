import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { storedRun } from '../../../src/platforms/web/chat-history.js';
import { UNKNOWN_COMMAND } from '../../../src/platforms/web/commands.js';
import type { ConversationSnapshot } from '../../../src/platforms/web/conversation.js';
import type { WebRun } from '../../../src/platforms/web/web-run.js';
import { startWebBed, type WebBed, WebUser } from './web-harness.js';

const calculatorStep = {
  content: 'I will use the calculator.',
  toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
};

interface ChatList {
  chats: { id: string; title: string }[];
  current: string;
}

/** The conversation a fresh event stream of `user` is sent first. */
async function snapshot(user: WebUser): Promise<ConversationSnapshot> {
  const feed = await user.client.events();
  try {
    return (await feed.next((e) => e.event === 'conversation')).data as ConversationSnapshot;
  } finally {
    feed.close();
  }
}

const list = async (user: WebUser) => (await user.client.request('/api/chats')).body as unknown as ChatList;

describe('the web chat keeps its conversations, each person’s own', () => {
  let bed: WebBed | undefined;
  const users: WebUser[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-web-history-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'history.db')}`, WEB_SESSION_SECRET: 's'.repeat(40) };
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const user = () => {
    const u = new WebUser(bed!.url);
    users.push(u);
    return u;
  };
  /** The same browser, its page reloaded (a new event stream, on its current chat). */
  const reload = (u: WebUser) => {
    u.close();
    const again = user();
    for (const [k, v] of u.client.cookies) again.client.cookies.set(k, v);
    return again;
  };

  it('lists them and reopens each with every answer and its steps, after a restart too; no one else sees them', async () => {
    bed = await startWebBed(env);
    bed.test.fake.script(calculatorStep, { content: 'It is 56877.' }, calculatorStep, {
      content: 'Again 56877.',
    });
    const ann = user();
    await ann.ask('what is 123 * 456 + 789');
    await ann.ask('and once more?');
    const first = (await list(ann)).current;
    expect((await ann.client.request('/api/new-chat', {})).status).toBe(204);
    bed.test.fake.script({ content: 'Hello.' });
    const ann2 = reload(ann);
    await ann2.ask('hi there');
    await bed.close();

    bed = await startWebBed(env);
    const again = reload(ann2);
    const listed = await list(again);
    expect(listed.chats.map((c) => c.title)).toEqual(['hi there', 'what is 123 * 456 + 789']);
    expect((await again.client.request('/api/chats/open', { id: first })).status).toBe(204);
    const shown = await snapshot(again);
    expect(shown.runs.map((r) => [r.question, r.answer])).toEqual([
      ['what is 123 * 456 + 789', 'It is 56877.'],
      ['and once more?', 'Again 56877.'],
    ]);
    for (const run of shown.runs) {
      expect(run.steps.map((s) => s.kind)).toEqual(['thought', 'action', 'observation']);
      expect(run.steps[2]?.text).toMatch(/56,?877/);
    }

    // Another browser: no chats, and naming one of Ann's gets nothing.
    const bob = user();
    expect((await list(bob)).chats).toEqual([]);
    for (const path of ['/api/chats/open', '/api/chats/delete']) {
      expect((await bob.client.request(path, { id: first })).status).toBe(404);
    }
    expect((await bob.client.request('/api/chats/rename', { id: first, title: 'mine' })).status).toBe(404);
    expect((await snapshot(bob)).runs).toEqual([]);
    expect((await list(again)).chats.map((c) => c.title)).toContain('what is 123 * 456 + 789');
  });

  it('renames and deletes; deleting the open chat starts a new one', async () => {
    bed = await startWebBed();
    bed.test.fake.script({ content: 'One.' }, { content: 'Two.' });
    const ann = user();
    await ann.ask('first chat');
    const first = (await list(ann)).current;
    await ann.client.request('/api/new-chat', {});
    const same = reload(ann);
    await same.ask('second chat');
    const second = (await list(same)).current;
    expect(
      (await same.client.request('/api/chats/rename', { id: first, title: '  Taxes\n2026 ' })).status,
    ).toBe(204);
    expect((await list(same)).chats.map((c) => c.title)).toEqual(['second chat', 'Taxes 2026']);
    expect((await same.client.request('/api/chats/delete', { id: second })).status).toBe(204);
    const after = await list(same);
    expect(after.chats.map((c) => c.title)).toEqual(['Taxes 2026']);
    expect(after.current).not.toBe(second);
    expect((await snapshot(same)).runs).toEqual([]);
  });

  it('/reset clears the chat’s kept steps; /memory forget-me forgets the chat', async () => {
    const own = { ...env, DATABASE_URL: `sqlite:${join(dir, 'reset.db')}` };
    bed = await startWebBed(own);
    bed.test.fake.script(calculatorStep, { content: 'It is 56877.' }, calculatorStep, { content: 'Kept.' });
    const ann = user();
    await ann.ask('what is 123 * 456 + 789');
    await bed.close();
    // Kept across a restart, then cleared by /reset.
    bed = await startWebBed(own);
    bed.test.fake.script({ content: 'Fine.' });
    let page = reload(ann);
    expect((await snapshot(page)).runs.map((r) => r.answer)).toEqual(['It is 56877.']);
    expect(await page.command('/reset')).toMatch(/cleared\.$/);
    await bed.close();
    bed = await startWebBed(own);
    bed.test.fake.script({ content: 'Fine.' });
    page = reload(page);
    const reset = await snapshot(page);
    expect(reset.runs).toEqual([]);
    expect(reset.turns).toEqual([]);
    await page.ask('again');
    expect((await list(page)).chats).toHaveLength(1);
    // The reply says, in words, what went: the chat whole, its runs' logs, the usage kept without the name.
    expect(await page.command('/memory forget-me')).toMatch(
      /^Forgotten in this channel: 1 question and its answer, 1 web chat with its history, 2 run logs, 2 usage records \(kept as counts, without the name\)\. /,
    );
    expect((await list(page)).chats).toEqual([]);
  });

  it('answers an unknown /command itself instead of asking the model', async () => {
    bed = await startWebBed();
    const ann = user();
    expect(await ann.command('/frobnicate now')).toBe(UNKNOWN_COMMAND);
    expect(await ann.command('/memory sideways')).toBe(UNKNOWN_COMMAND);
    expect(bed.test.fake.requests).toHaveLength(0);
    // A path is a question, not a command.
    bed.test.fake.script({ content: 'A folder.' });
    const run: WebRun = await ann.ask('/usr/local is what?');
    expect(run.answer).toBe('A folder.');
  });

  it('keeps steps bounded: long texts cut, at most 60 steps an answer', () => {
    const run: WebRun = {
      id: 'r',
      question: 'q',
      phase: 'final',
      answer: 'a',
      steps: Array.from({ length: 80 }, () => ({
        kind: 'observation' as const,
        text: 'x'.repeat(5000),
        ok: true,
      })),
    };
    const kept = storedRun(run);
    expect(kept.steps).toHaveLength(60);
    expect(kept.steps[0]!.text.length).toBeLessThanOrEqual(2001);
  });
});

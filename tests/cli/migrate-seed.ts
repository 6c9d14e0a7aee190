import type { Store } from '../../src/core/ports/store.js';
import { seedPerson } from '../contract/forget-seed.js';

/** When the usage fill was taken. */
export const T = Date.UTC(2026, 2, 1, 12);
/** The person whose web chat, run log, votes, approvals, waits and session are seeded. */
export const PERSON = 'slack:T1:USAM';
/** The conversations the fill makes (besides the seeded person's). */
export const KEYS = ['discord:g:c1', 'slack:T:C2', 'console:local', 'slack:T1:C1'];
/** A key with notes but no conversation: its notes must come along too. */
export const NOTES_ONLY = 'discord:g:notes-only';
/** The kept secret's value in the SQLite store. */
export const SECRET_VALUE = 'kept-in-sqlite';

/**
 * Fills a SQLite store so that every table it has holds rows: a compacted conversation, a plain one, a reset
 * one, usage of each outcome with a run log whose tool failed, channel settings, a note on a key with no
 * conversation, a kept secret, and a person's web chat, votes, schedule, approvals, grant, waits and session.
 */
export async function fillEveryTable(store: Store): Promise<void> {
  const turn = (n: number) => ({ author: `user${n % 2}`, question: `q${n}`, answer: `a${n}`, tokens: n });
  const ids: number[] = [];
  for (let n = 1; n <= 5; n++) ids.push((await store.appendTurn('discord:g:c1', turn(n))).id);
  for (let n = 6; n <= 7; n++) await store.appendTurn('slack:T:C2', turn(n));
  await store.appendTurn('discord:g:c1', turn(8));
  const snap = await store.load('discord:g:c1');
  await store.compact('discord:g:c1', {
    throughId: ids[1]!,
    foldedTurns: 2,
    expectedVersion: snap.version,
    summary: { text: 'q1 and q2 were asked', tokens: 5 },
  });
  await store.appendTurn('console:local', turn(9));
  await store.reset('console:local');
  const start = (at: number, userId: string | null) => ({
    at,
    platform: 'discord',
    key: 'discord:g:c1',
    userId,
    model: 'gpt-4o-mini',
    protocol: 'tools',
  });
  const rules = { rates: [{ name: 'RATE', scope: 'all' as const, limit: 2, windowMs: 60_000 }], budgets: [] };
  const first = await store.admit(start(T, 'u1'), rules);
  await store.admit(start(T + 1, 'u2'), rules);
  await store.admit(start(T + 2, 'u3'), rules);
  if (!first.admitted) throw new Error('expected the first ask to be admitted');
  const spent = {
    modelCalls: 2,
    promptTokens: 100,
    completionTokens: 20,
    cachedTokens: 40,
    tools: { calculator: 1 },
    durationMs: 900,
  };
  await store.complete(first.id, { outcome: 'answered', ...spent });
  await store.saveRunLog({
    usageId: first.id,
    at: T,
    platform: 'discord',
    key: 'discord:g:c1',
    userId: 'u1',
    question: 'what is 1/0?',
    answer: 'It is undefined.',
    steps: [
      { kind: 'action', at: 5, step: 1, callId: 'c1', tool: 'calculator', input: '{"expression":"1/0"}' },
      {
        kind: 'observation',
        at: 9,
        step: 1,
        callId: 'c1',
        tool: 'calculator',
        text: 'error',
        ok: false,
        ms: 4,
      },
      { kind: 'answer', at: 12, text: 'It is undefined.' },
    ],
  });
  await store.record({ ...start(T + 3, null), outcome: 'summary', ...spent, tools: {} });
  await store.record({ ...start(T + 4, 'u4'), outcome: 'refused', ...spent, modelCalls: 0, tools: {} });
  await store.setSettings('discord:g:c1', { prompt: 'Answer in French.', steps: 'off' });
  await store.setSettings('slack:T:C2', { model: 'big-model' });
  await store.addNote({
    key: 'discord:g:c1',
    subject: null,
    text: 'deploys on Tuesdays',
    author: 'discord:1',
    instruction: true,
  });
  await store.addNote({ key: NOTES_ONLY, subject: null, text: 'standup at nine', author: 'discord:2' });
  await store.appSecret('web_session_secret', () => SECRET_VALUE);
  await seedPerson(store, { person: PERSON, other: 'slack:T1:UOTHER', key: 'slack:T1:C1', tag: 'sam' });
  // Embeddings (EMBEDDINGS_MODEL): bytes with zeros in them, as floats always have.
  await store.putKnowledgeFile(
    { scope: 'base', path: 'handbook.md', size: 10, modifiedAt: T, indexedAt: T, passages: 1 },
    [{ heading: 'Rotation', text: 'Swaps need approval.' }],
  );
  const waiting = await store.passagesToEmbed(EMBEDDING_MODEL, 10);
  const handbook = waiting.find((p) => p.path === 'handbook.md')!;
  await store.putEmbeddings(EMBEDDING_MODEL, [{ ...handbook, embedding: EMBEDDING }], T);
}

/** The embedding kept for the seed's knowledge passage. */
export const EMBEDDING = new Float32Array([0, 1.5, -2, 0]);
/** The model it is kept under. */
export const EMBEDDING_MODEL = 'nomic-embed-text';

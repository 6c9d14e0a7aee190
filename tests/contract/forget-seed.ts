import type { Store } from '../../src/core/ports/store.js';
import type { UsageRecord } from '../../src/core/ports/usage-store.js';
import { aSchedule } from './schedules-contract.js';

/** When the seeded recent records were made; the old ones are five days before. */
export const T = Date.UTC(2026, 0, 15, 12);
export const DAY = 86_400_000;
/** The person forgotten, and someone who stays. */
export const FORGET = 'slack:T1:UFORGET';
export const STAYS = 'slack:T1:USTAYS';
/** Two channels of the workspace. */
export const HERE = 'slack:T1:C1';
export const THERE = 'slack:T1:C2';

const usage = (userId: string, key: string, at: number): UsageRecord => ({
  at,
  platform: 'slack',
  key,
  userId,
  origin: null,
  model: 'gpt-a',
  protocol: 'tools',
  outcome: 'answered',
  modelCalls: 1,
  promptTokens: 100,
  completionTokens: 10,
  cachedTokens: 0,
  tools: { calculator: 1 },
  durationMs: 900,
});

/**
 * Everything the store keeps that can name `person` in `key`, through the store's own methods: turns,
 * notes, usage (old and recent) with a run log and a vote, a schedule, approval records (asked by them
 * and decided by `other`, and the other way round), a channel grant, a waiting call of theirs and a press
 * of theirs on `other`'s, a web chat of their own with its history and summary, and a sign-in session. Ids are made of `tag`,
 * never of the person, as the bot's own ids are.
 */
export async function seedPerson(
  store: Store,
  seed: { person: string; other: string; key: string; tag: string },
): Promise<void> {
  const { person, other, key, tag } = seed;
  await store.appendTurn(key, {
    author: 'Sam',
    question: 'my phone is 555',
    answer: 'noted',
    tokens: 5,
    principal: person,
  });
  await store.addNote({ key, subject: person, text: 'likes tea', author: person });
  await store.addNote({ key, subject: null, text: 'deploys on Friday', author: person });
  await store.record(usage(person, key, T - 5 * DAY));
  const admitted = await store.admit(usage(person, key, T), { rates: [], budgets: [] });
  if (!admitted.admitted) throw new Error('not admitted');
  await store.complete(admitted.id, usage(person, key, T));
  await store.saveRunLog({
    usageId: admitted.id,
    at: T,
    platform: 'slack',
    key,
    userId: person,
    question: 'my phone is 555',
    answer: 'noted',
    steps: [{ kind: 'answer', at: 1, text: 'noted' }],
  });
  await store.recordFeedback({
    runId: `run-${tag}`,
    platform: 'slack',
    key,
    userId: person,
    vote: 'up',
    at: T,
  });
  const creator = { ...aSchedule('x').creator, platform: 'slack', principal: person };
  await store.addSchedule(aSchedule(`s-${tag}`, { key, settingsKey: key, creator }), 10);
  const approval = {
    at: T,
    requestedAt: T - 1000,
    platform: 'slack',
    key,
    tool: 'deploy',
    argsDigest: 'f'.repeat(64),
  };
  await store.recordApproval({
    ...approval,
    id: `a-${tag}`,
    asker: person,
    decidedBy: other,
    outcome: 'denied',
    reason: 'not now',
  });
  await store.recordApproval({
    ...approval,
    id: `b-${tag}`,
    asker: other,
    decidedBy: person,
    outcome: 'denied',
    reason: 'no',
  });
  await store.grantApproval({ settingsKey: key, tool: `tool-${tag}`, grantedBy: person, at: T });
  const wait = {
    runId: `r-${tag}`,
    platform: 'slack',
    key,
    tool: 'deploy',
    requestedAt: T,
    expiresAt: T + DAY,
  };
  const state = (asker: string) => JSON.stringify({ asker: { principal: asker }, question: 'deploy?' });
  await store.saveWait({
    ...wait,
    id: `w-${tag}`,
    asker: person,
    owner: 'replica-a',
    seenAt: T,
    state: state(person),
  });
  await store.saveWait({
    ...wait,
    id: `v-${tag}`,
    asker: other,
    owner: 'replica-a',
    seenAt: T,
    state: state(other),
  });
  await store.decideWait(`v-${tag}`, {
    outcome: 'denied',
    at: T + 1,
    by: person,
    byName: 'Sam',
    reason: 'no',
  });
  const chat = `web:${tag}`;
  const run = { id: `run-${tag}`, question: 'hi', phase: 'final', steps: [], answer: 'hello' };
  await store.saveWebChatRun(person, chat, run, { title: 'hi', keep: 10, at: T });
  const said = await store.appendTurn(chat, {
    author: 'Sam',
    question: 'hi',
    answer: 'hello',
    tokens: 2,
    principal: person,
  });
  await store.appendTurn(chat, {
    author: 'Sam',
    question: 'and?',
    answer: 'yes',
    tokens: 2,
    principal: person,
  });
  const { version } = await store.load(chat);
  const summary = { text: 'Sam said hi', tokens: 3 };
  await store.compact(chat, { throughId: said.id, foldedTurns: 1, expectedVersion: version, summary });
  // A file they shared in the channel, with a passage.
  await store.putKnowledgeFile(
    {
      scope: key,
      path: `notes-${tag}.pdf`,
      size: 10,
      modifiedAt: T,
      indexedAt: T,
      passages: 1,
      sharedBy: person,
    },
    [{ page: 1, text: 'quarterly numbers' }],
  );
  // A thread of the channel the bot follows for them.
  await store.followThread(`${key}:1700000000.${tag}`, person, T, 0);
  await store.createWebSession({
    id: `session-${tag}`,
    principal: person,
    userId: 'U0SAM',
    name: 'Sam',
    roles: [],
    createdAt: T,
    lastSeen: T,
    checkedAt: T,
    address: '203.0.113.7',
    userAgent: 'test',
  });
}

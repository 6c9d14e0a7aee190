/**
 * The admin page's evals over HTTP: the pass rate per set and model from the kept eval runs, a 👎 with a
 * reason listed as a candidate and turned into a case (its tool's observation recorded), another dismissed,
 * and "Add to evals" on a run refusing a bad set name or an id already used.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEvalSet } from '../../../src/evals/eval-case.js';
import { type Reply, WebClient } from './web-client.js';
import { startWebBed, TOKEN, type WebBed, WebUser } from './web-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field as the page reads it
const json = (reply: Reply): any => reply.body;
const ADMIN_TOKEN = 'admin-token-0123456789-abcdefghij';

/** One kept eval run of set `starter`, `passed` of 4 cases passing. */
const keptRun = (at: number, model: string, passed: number) =>
  JSON.stringify({
    at,
    sets: ['starter'],
    model,
    protocol: 'tools',
    recorded: true,
    passed,
    total: 4,
    cases: [0, 1, 2, 3].map((i) => ({ set: 'starter', id: `c${i}`, pass: i < passed })),
  });

describe('the admin page’s evals over HTTP', () => {
  let bed: WebBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('draws the trend, turns a 👎 into a case in two steps, and dismisses another', async () => {
    const b = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, ADMIN_TOKEN });
    bed = b;
    mkdirSync(join(b.test.dir, 'evals'), { recursive: true });
    writeFileSync(
      join(b.test.dir, 'evals', 'runs.jsonl'),
      [keptRun(1000, 'gpt-a', 3), keptRun(2000, 'gpt-a', 4), keptRun(3000, 'gpt-b', 2), ''].join('\n'),
    );
    const user = new WebUser(b.url);
    await user.client.request('/api/login', { token: TOKEN });
    const admin = new WebClient(b.url);
    admin.sendHeaders.authorization = `Bearer ${ADMIN_TOKEN}`;
    /** Asks `question`, answered `answer` after a calculator call, and votes it down with `reason`. */
    const askAndVoteDown = async (question: string, answer: string, reason: string) => {
      b.test.fake.script(
        { content: null, toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
        { content: answer },
      );
      expect((await user.ask(question)).phase).toBe('final');
      await b.adapter.idle();
      let runs: { id: number; key: string; platform: string; question: string | null }[] = [];
      for (let tries = 0; tries < 200 && runs[0]?.question !== question; tries++) {
        runs = json(await admin.request('/admin/api/runs')).runs;
      }
      const run = runs[0]!;
      await b.test.core.assistant.feedback({
        platform: run.platform,
        key: run.key,
        userId: 'web:alice',
        runId: `vote-${run.id}`,
        vote: 'down',
        comment: reason,
      });
      return run.id;
    };

    const wrong = await askAndVoteDown('What is 6 * 7?', 'It is 41.', 'six times seven is 42');
    const before = json(await admin.request('/admin/api/evals'));
    expect(before.trend.map((l: { model: string; points: unknown[] }) => [l.model, l.points])).toEqual([
      [
        'gpt-a',
        [
          { at: 1000, passed: 3, total: 4 },
          { at: 2000, passed: 4, total: 4 },
        ],
      ],
      ['gpt-b', [{ at: 3000, passed: 2, total: 4 }]],
    ]);
    const [candidate] = before.candidates;
    expect(candidate).toMatchObject({
      comment: 'six times seven is 42',
      usageId: wrong,
      question: 'What is 6 * 7?',
      answer: 'It is 41.',
    });
    // Accept, with the expected answer written in: the case is written and the candidate is gone.
    const accepted = await admin.request('/admin/api/evals/cases', {
      usageId: candidate.usageId,
      set: 'from-feedback',
      checks: { contains: ['42'] },
      candidate: candidate.id,
    });
    expect(accepted.status).toBe(201);
    const written = parseEvalSet(
      'from-feedback',
      readFileSync(join(b.test.dir, 'evals', 'sets', 'from-feedback.jsonl'), 'utf8'),
    ).cases;
    expect(written).toMatchObject([{ question: 'What is 6 * 7?', checks: { contains: ['42'] } }]);
    expect(json(await admin.request('/admin/api/evals')).candidates).toEqual([]);

    await askAndVoteDown('Say hi', 'Hello!', 'fine, really');
    const [other] = json(await admin.request('/admin/api/evals')).candidates;
    expect(other).toMatchObject({ comment: 'fine, really', question: 'Say hi' });
    expect((await admin.request('/admin/api/evals/dismiss', { candidate: other.id })).status).toBe(204);
    expect(json(await admin.request('/admin/api/evals')).candidates).toEqual([]);
    user.close();
  });

  it('makes a run a case with its observations recorded, refusing a bad set name and an id used twice', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, ADMIN_TOKEN });
    const user = new WebUser(bed.url);
    await user.client.request('/api/login', { token: TOKEN });
    bed.test.fake.script(
      { content: null, toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
      { content: 'It is 42.' },
    );
    await user.ask('What is 6 * 7?');
    user.close();
    await bed.adapter.idle();
    const admin = new WebClient(bed.url);
    admin.sendHeaders.authorization = `Bearer ${ADMIN_TOKEN}`;
    let runs: { id: number; question: string | null }[] = [];
    for (let tries = 0; tries < 200 && !runs[0]?.question; tries++)
      runs = json(await admin.request('/admin/api/runs')).runs;
    const usageId = runs[0]!.id;
    const add = (body: object) =>
      admin.request('/admin/api/evals/cases', {
        usageId,
        set: 'from-runs',
        checks: { contains: ['42'], calls: ['calculator'] },
        ...body,
      });

    const added = await add({});
    expect(added.status).toBe(201);
    const file = join(bed.test.dir, 'evals', 'sets', 'from-runs.jsonl');
    const [made] = parseEvalSet('from-runs', readFileSync(file, 'utf8')).cases;
    expect(made).toMatchObject({
      id: `run-${usageId}`,
      question: 'What is 6 * 7?',
      recorded: [{ tool: 'calculator', input: { expression: '6*7' } }],
      checks: { contains: ['42'], calls: ['calculator'] },
    });
    expect(made!.recorded![0]!.output).toContain('42');
    expect(json(await admin.request('/admin/api/evals')).sets).toEqual(['from-runs']);

    expect(await add({})).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/already has a case/) },
    });
    expect((await add({ set: '../escape' })).status).toBe(400);
    expect((await add({ usageId: 999_999 })).status).toBe(404);
    expect((await add({ id: 'second' })).status).toBe(201);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

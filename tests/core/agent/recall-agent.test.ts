import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { createNotesPrompt } from '../../../src/core/memory/notes-prompt.js';
import type { Store } from '../../../src/core/ports/store.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { createRecallTool } from '../../../src/core/tools/recall.js';
import { createRememberTool } from '../../../src/core/tools/remember.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../../fakes/openai-server.js';

const KEY = 'slack:T1:C1';
const ANA = 'slack:T1:U1';
const FACT = 'We decided the release date is 14 April, after the ECONNRESET fix lands.';

/** What the model was told by the tool, as either protocol carries it. */
function observations(request: RecordedRequest): string {
  return request.body.messages
    .filter((m) => m.role === 'tool' || (m.role === 'user' && String(m.content).startsWith('Observation')))
    .map((m) => String(m.content))
    .join('\n');
}

function systemText(request: RecordedRequest): string {
  return request.body.messages
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}

for (const protocol of ['tools', 'react'] as const) {
  describe(`recall and remember (${protocol} protocol)`, () => {
    let fake: FakeOpenAI;
    let store: Store;
    beforeEach(async () => {
      fake = await startFakeOpenAI();
      store = openSqliteStore(':memory:');
    });
    afterEach(async () => {
      await fake.close();
      await store.close();
    });

    const agent = () =>
      createAgent({
        model: createOpenAIChatModel({
          baseURL: fake.url,
          model: 'm',
          maxRetries: 0,
          timeoutMs: 5000,
          stream: false,
        }),
        tools: [createRecallTool({ archive: store, maxTokens: 1500 }), createRememberTool({ notes: store })],
        prompts: loadPrompts('prompts'),
        settings: {
          AGENT_PROTOCOL: protocol,
          AGENT_MAX_STEPS: 4,
          TOOL_TIMEOUT_MS: 2000,
          TOOL_CONCURRENCY: 4,
          RUN_TIMEOUT_MS: 10_000,
          ANSWER_MAX_CHARS: 40_000,
        },
        notes: createNotesPrompt({ notes: store, maxTokens: 500 }),
      });

    const call = (tool: string, args: Record<string, unknown>) =>
      protocol === 'tools'
        ? { content: 'Looking it up.', toolCalls: [{ name: tool, arguments: args }] }
        : { content: `Thought: look it up.\nAction: ${tool}\nAction Input: ${JSON.stringify(args)}` };
    const answer = (text: string) =>
      protocol === 'tools' ? { content: text } : { content: `Thought: done.\nFinal Answer: ${text}` };

    const ask = async (message: string, key = KEY, principal = ANA) => {
      const snapshot = await store.load(key, { maxTokens: 2000, keep: 4 });
      return agent().run({
        message,
        author: 'Ana',
        key,
        principal,
        context: { summary: snapshot.summary?.text, turns: snapshot.turns },
      });
    };

    it('answers a fact from 300 turns ago, long folded into the summary, via recall with its date', async () => {
      const first = await store.appendTurn(KEY, {
        author: 'Sam',
        question: 'When do we release?',
        answer: FACT,
        tokens: 30,
      });
      for (let i = 1; i < 300; i++) {
        await store.appendTurn(KEY, {
          author: 'Bo',
          question: `chatter ${i} about lunch`,
          answer: 'ok',
          tokens: 10,
        });
      }
      // Every other channel says something close; none of it may come back.
      await store.appendTurn('slack:T1:C2', {
        author: 'Eve',
        question: 'release date?',
        answer: 'OTHER CHANNEL 1 May',
        tokens: 10,
      });
      await store.appendTurn(`${KEY}:thread`, {
        author: 'Eve',
        question: 'release date?',
        answer: 'THREAD 2 May',
        tokens: 10,
      });
      const snap = await store.load(KEY);
      const last = snap.turns[295]!;
      expect(
        await store.compact(KEY, {
          throughId: last.id,
          foldedTurns: 296,
          expectedVersion: snap.version,
          summary: { text: 'The team chatted about lunch.', tokens: 8 },
        }),
      ).toBe(true);

      fake.script(call('recall', { query: 'release date decided' }), answer('14 April.'));
      const result = await ask('What did we decide about the release date?');
      expect(result).toMatchObject({ status: 'answered', text: '14 April.' });
      const seen = observations(fake.requests[1]!);
      expect(seen).toContain(FACT);
      expect(seen).toContain(new Date(first.createdAt).toISOString().slice(0, 10));
      expect(seen).toContain('Sam asked');
      expect(seen).not.toContain('OTHER CHANNEL');
      expect(seen).not.toContain('THREAD');
      // The model was told that recall exists and when to use it.
      expect(systemText(fake.requests[0]!)).toMatch(/call the recall tool/);
    });

    it('survives hostile queries and bad dates as observations, never a failed run', async () => {
      await store.appendTurn(KEY, { author: 'Sam', question: 'gate', answer: 'NEAR the OR gate', tokens: 5 });
      fake.script(
        call('recall', { query: `NEAR("gate" OR -(* ${'x'.repeat(10_000)}` }),
        call('recall', { query: 'gate', from: 'last Tuesday' }),
        answer('done'),
      );
      expect(await ask('what about the gate?')).toMatchObject({ status: 'answered' });
      expect(observations(fake.requests[1]!)).toContain('NEAR the OR gate');
      expect(observations(fake.requests[2]!)).toContain('is not a date');
    });

    it('a note made in one channel shows up for the same person in another, after the base prompt', async () => {
      fake.script(call('remember', { text: 'Ana prefers metric units', about: 'me' }), answer('Noted.'));
      fake.script(call('remember', { text: 'Deploys happen on Tuesdays' }), answer('Noted.'));
      await ask('remember that I prefer metric units');
      await ask('remember: deploys happen on Tuesdays');
      expect((await store.notesFor(KEY)).map((n) => [n.text, n.author])).toEqual([
        ['Deploys happen on Tuesdays', ANA],
      ]);

      fake.script(answer('20 °C'));
      await ask('how warm is it?', 'discord:g:9', ANA);
      const elsewhere = fake.requests.at(-1)!;
      // Ana is no admin: her note is what she said, quoted with her name, after the base prompt.
      expect(elsewhere.body.messages[1]).toMatchObject({ role: 'user' });
      expect(String(elsewhere.body.messages[1]!.content)).toContain(
        `<untrusted source="note" author="${ANA}">\n(about the person asking now) Ana prefers metric units\n</untrusted>`,
      );
      expect(systemText(elsewhere)).not.toContain('Ana prefers metric units');
      expect(JSON.stringify(elsewhere.body.messages)).not.toContain('Deploys happen on Tuesdays');

      fake.script(answer('ok'));
      await ask('hi', 'discord:g:9', 'discord:someone-else');
      expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).not.toContain('Ana prefers metric units');
    });
  });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import type { ChatModel } from '../../../src/core/llm/types.js';
import { createChannelMemory } from '../../../src/core/memory/channel-memory.js';
import { createSummarizer, type Summarizer } from '../../../src/core/memory/summarizer.js';
import type { ChannelMemory, MemoryBudget } from '../../../src/core/memory/types.js';
import type { ConversationStore } from '../../../src/core/ports/conversation-store.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import {
  type FakeOpenAI,
  type RecordedRequest,
  type Responder,
  startFakeOpenAI,
} from '../../fakes/openai-server.js';

/** The repository's prompts folder. */
export const PROMPTS_DIR = resolve(import.meta.dirname, '../../../prompts');

/** Text of a recorded request's messages, joined (for "was the model shown X" assertions). */
export function shownText(request: RecordedRequest): string {
  return request.body.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}

/** True when the request is one the summariser sent (fold or re-compress). */
export function isSummaryRequest(request: RecordedRequest): boolean {
  const text = shownText(request);
  return text.includes('New part of the conversation:') || text.includes('has grown too long');
}

/**
 * A scripted summariser that keeps what it is told to remember: every question containing "remember"
 * becomes a fact line, everything else is only counted. Asked for a new part, it writes the facts and count
 * of the new part only; asked to rewrite a summary made of parts, it merges their facts and counts.
 */
export function echoSummary(request: RecordedRequest): string {
  const text = shownText(request);
  if (text.includes('has grown too long')) return mergeParts(text.split('Summary:\n')[1] ?? '');
  const [, rest = ''] = text.split('Previous summary:\n');
  const [, conversation = ''] = rest.split('\n\nNew part of the conversation:\n');
  const facts: string[] = [];
  let others = 0;
  for (const line of conversation.split('\n')) {
    if (!line.startsWith('[')) continue;
    if (/remember/i.test(line)) facts.push(`- ${line}`);
    else others++;
  }
  return ['Facts:', ...facts, `Other exchanges: ${others}`].join('\n');
}

function mergeParts(summary: string): string {
  const facts = summary.split('\n').filter((l) => l.startsWith('- '));
  const others = [...summary.matchAll(/Other exchanges: (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  return ['Facts:', ...facts, `Other exchanges: ${others}`].join('\n');
}

/** Answers summary requests with {@link echoSummary} and every other request with `ok: <last message>`. */
export const chatResponder: Responder = (request) => {
  if (isSummaryRequest(request)) return { content: echoSummary(request) };
  const last = request.body.messages.at(-1);
  return { content: `ok: ${typeof last?.content === 'string' ? last.content : ''}` };
};

/** A real OpenAI-compatible client on the fake server, without retries. */
export function fakeModel(fake: FakeOpenAI): ChatModel {
  return createOpenAIChatModel({
    baseURL: fake.url,
    model: 'fake-model',
    maxRetries: 0,
    timeoutMs: 10_000,
    stream: false,
  });
}

/** Channel memory on a real SQLite file in a temp folder, summarised over a scripted model. */
export interface MemoryFixture {
  dir: string;
  path: string;
  fake: FakeOpenAI;
  model: ChatModel;
  store: ConversationStore;
  summarizer: Summarizer;
  memory: ChannelMemory;
  budget: MemoryBudget;
  close(): Promise<void>;
}

/** Starts a {@link MemoryFixture}; `fallback` answers the fake's requests (default {@link chatResponder}). */
export async function startMemoryFixture(
  options: { budget?: Partial<MemoryBudget>; fallback?: Responder; summarizer?: Summarizer } = {},
): Promise<MemoryFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-memory-'));
  const path = join(dir, 'memory.db');
  const fake = await startFakeOpenAI({ fallback: options.fallback ?? chatResponder });
  const model = fakeModel(fake);
  const store = openSqliteStore(path);
  const budget: MemoryBudget = {
    MEMORY_MAX_TOKENS: 2000,
    MEMORY_KEEP_TURNS: 4,
    MEMORY_SUMMARY_MAX_TOKENS: 600,
    ...options.budget,
  };
  const summarizer =
    options.summarizer ??
    createSummarizer({
      model,
      prompts: loadPrompts(PROMPTS_DIR),
      maxTokens: budget.MEMORY_SUMMARY_MAX_TOKENS,
    });
  const memory = createChannelMemory({ store, summarizer, budget });
  return {
    dir,
    path,
    fake,
    model,
    store,
    summarizer,
    memory,
    budget,
    async close() {
      await memory.idle();
      await store.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

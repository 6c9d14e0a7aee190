import type { RunResult } from '../../../src/core/agent/events.js';
import type { Agent, RunInput } from '../../../src/core/agent/types.js';
import { isAbortError } from '../../../src/core/errors.js';
import type { ChatMessage, ChatModel } from '../../../src/core/llm/types.js';
import { withDeadline } from '../../helpers/wait-until.js';

/** The system prompt of {@link createPromptAgent}. */
export const FAKE_SYSTEM_PROMPT = 'You are a test bot.';

/**
 * A one-step agent that shows the model its memory the way the real loop does (system prompt, summary,
 * turns, new message) and answers with whatever the model says.
 */
export function createPromptAgent(model: ChatModel): Agent {
  return {
    async run(input, onEvent) {
      const messages: ChatMessage[] = [{ role: 'system', content: FAKE_SYSTEM_PROMPT }];
      if (input.context.summary) {
        messages.push({
          role: 'system',
          content: `Summary of the earlier conversation:\n${input.context.summary}`,
        });
      }
      for (const turn of input.context.turns) {
        messages.push({ role: 'user', content: `[${turn.author}] ${turn.question}` });
        messages.push({ role: 'assistant', content: turn.answer });
      }
      messages.push({ role: 'user', content: `[${input.author}] ${input.message}` });
      try {
        const completion = await model.complete({ messages, signal: input.signal });
        onEvent?.({ type: 'answer', text: completion.content, usage: completion.usage, steps: 1 });
        return { status: 'answered', text: completion.content, usage: completion.usage, steps: 1 };
      } catch (err) {
        if (isAbortError(err)) return { status: 'cancelled' };
        const message = err instanceof Error ? err.message : String(err);
        onEvent?.({ type: 'error', code: 'model_error', message });
        return { status: 'failed', code: 'model_error', message };
      }
    },
  };
}

/** A run held by a {@link createGatedAgent} until the test settles it. */
export interface GatedRun {
  input: RunInput;
  answer(text: string): void;
  finish(result: RunResult): void;
}

/** An agent whose runs wait until the test answers them, to observe ordering and concurrency. */
export interface GatedAgent extends Agent {
  /** Runs started so far, in start order. */
  runs: GatedRun[];
  /** Runs started and not yet settled. */
  active(): number;
  /** Resolves once `count` runs have started; rejects with a clear error after 5 s. */
  started(count: number): Promise<void>;
}

/** Creates a {@link GatedAgent}; an aborted signal settles its run as cancelled. */
export function createGatedAgent(): GatedAgent {
  const runs: GatedRun[] = [];
  let active = 0;
  let waiters: (() => void)[] = [];
  const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
  return {
    runs,
    active: () => active,
    async started(count) {
      const arrived = async () => {
        while (runs.length < count) await new Promise<void>((r) => waiters.push(r));
      };
      await withDeadline(arrived(), { what: () => `${count} runs to start (started: ${runs.length})` });
    },
    run(input, onEvent) {
      active++;
      return new Promise<RunResult>((resolve) => {
        let settled = false;
        const finish = (result: RunResult) => {
          if (settled) return;
          settled = true;
          active--;
          resolve(result);
        };
        input.signal?.addEventListener('abort', () => finish({ status: 'cancelled' }), { once: true });
        runs.push({
          input,
          finish,
          answer(text) {
            onEvent?.({ type: 'answer', text, usage, steps: 1 });
            finish({ status: 'answered', text, usage, steps: 1 });
          },
        });
        const notify = waiters;
        waiters = [];
        for (const w of notify) w();
      });
    },
  };
}

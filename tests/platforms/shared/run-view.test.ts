import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import type { Assistant } from '../../../src/core/assistant.js';
import { createLogger } from '../../../src/core/logger.js';
import { askAndRender, type RunRenderer } from '../../../src/platforms/shared/run-renderer.js';
import {
  applyEvent,
  createRunView,
  outcomeText,
  type RunView,
} from '../../../src/platforms/shared/run-view.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
const logger = createLogger({ level: 'silent', secrets: [] });

function reduce(events: AgentEvent[]): RunView {
  const view = createRunView();
  for (const event of events) applyEvent(view, event);
  return view;
}

/** A renderer that records a copy of each view it is handed. */
function recorder(): RunRenderer & { seen: RunView[]; ended?: RunView } {
  const seen: RunView[] = [];
  const r: RunRenderer & { seen: RunView[]; ended?: RunView } = {
    seen,
    render: (view) => seen.push(structuredClone(view)),
    async finish(view) {
      r.ended = structuredClone(view);
    },
  };
  return r;
}

/** An assistant that plays `events` and returns `outcome` (or throws it when it is an Error). */
function scripted(events: AgentEvent[], outcome: unknown, onAsk?: (signal?: AbortSignal) => void): Assistant {
  return {
    async ask(request, onEvent) {
      onAsk?.(request.signal);
      for (const event of events) onEvent(event);
      if (outcome instanceof Error) throw outcome;
      return outcome as never;
    },
    access: async () => ({ allowed: true }),
    memoryCommand: () => undefined,
    usage: async () => {
      throw new Error('not used');
    },
    reset: async () => {},
    feedback: async () => {},
    memory: async () => ({ summary: null, turns: 0, tokens: 0, summarizedTurns: 0 }),
    health: () => undefined,
    inFlight: () => 0,
    history: async () => ({ turns: [] }),
    tools: () => ({ groups: [] }),
    toolsIn: async () => ({ groups: [] }),
    settings: async () => {
      throw new Error('not used');
    },
    settingsIn: async () => {
      throw new Error('not used');
    },
    close: async () => {},
  };
}

describe('the run view', () => {
  it('collects steps in order, streams the answer, and ends final with usage', () => {
    const view = reduce([
      { type: 'thought', step: 1, text: 'Use the calculator.' },
      { type: 'action', step: 1, callId: 'a', tool: 'calculator', input: { expression: '2+2' } },
      { type: 'observation', step: 1, callId: 'a', tool: 'calculator', text: '4', ok: true },
      { type: 'answer_delta', text: 'It is ' },
      { type: 'answer_delta', text: '4.' },
    ]);
    expect(view.phase).toBe('streaming');
    expect(view.answer).toBe('It is 4.');
    expect(view.steps.map((s) => s.kind)).toEqual(['thought', 'action', 'observation']);
    applyEvent(view, { type: 'answer', text: 'It is 4.', usage, steps: 2 });
    expect(view).toMatchObject({ phase: 'final', answer: 'It is 4.', usage });
    expect(outcomeText(view)).toEqual({ kind: 'answer', text: 'It is 4.' });
  });

  it('goes back to thinking when streamed text turns out not to be the answer', () => {
    const view = reduce([{ type: 'answer_delta', text: 'Let me check' }, { type: 'answer_reset' }]);
    expect(view).toMatchObject({ phase: 'thinking', answer: '' });
  });

  it('ends failed or cancelled with the reason, and nothing changes it afterwards', () => {
    const failed = reduce([{ type: 'error', code: 'model_error', message: 'The model failed.' }]);
    expect(failed.phase).toBe('failed');
    expect(applyEvent(failed, { type: 'answer_delta', text: 'late' })).toBe(false);
    expect(outcomeText(failed)).toEqual({ kind: 'problem', text: 'The model failed.' });
    expect(reduce([{ type: 'error', code: 'cancelled', message: 'Cancelled.' }]).phase).toBe('cancelled');
  });

  it('puts notices under the answer, after the length-limit note', () => {
    const view = reduce([
      { type: 'answer', text: 'Part of it', usage, steps: 1, truncated: 'length' },
      { type: 'notice', code: 'not_remembered', message: 'Not saved.' },
    ]);
    expect(outcomeText(view)).toEqual({
      kind: 'answer',
      text: 'Part of it',
      note: `${WORDING.lengthCut} Not saved.`,
    });
  });

  it('says why an incomplete answer is incomplete', () => {
    const answer = (truncated: 'length' | 'max_chars') =>
      reduce([{ type: 'answer', text: 'Part', usage, steps: 1, truncated }]);
    expect(outcomeText(answer('length'))).toEqual({ kind: 'answer', text: 'Part', note: WORDING.lengthCut });
    expect(outcomeText(answer('max_chars'))).toEqual({
      kind: 'answer',
      text: 'Part',
      note: WORDING.maxCharsCut,
    });
  });

  it('never shows a blank answer', () => {
    const view = reduce([{ type: 'answer', text: '  ', usage, steps: 1 }]);
    expect(outcomeText(view)).toEqual({ kind: 'answer', text: WORDING.emptyAnswer });
  });
});

describe('askAndRender', () => {
  it('hands the renderer each change, then the ended view', async () => {
    const r = recorder();
    const events: AgentEvent[] = [
      { type: 'thought', step: 1, text: 'thinking' },
      { type: 'answer_delta', text: 'Hi' },
      { type: 'answer', text: 'Hi', usage, steps: 1 },
    ];
    const outcome = { status: 'answered', text: 'Hi', usage, steps: 1 };
    await askAndRender({
      assistant: scripted(events, outcome),
      request: { key: 'k', author: 'a', text: 'q' },
      renderer: r,
      signal: new AbortController().signal,
      abortedBy: 'shutdown',
      logger,
    });
    expect(r.seen.map((v) => v.phase)).toEqual(['thinking', 'streaming', 'final']);
    expect(r.ended).toMatchObject({ phase: 'final', answer: 'Hi' });
  });

  it('ends a run cut short by shutdown with the restart notice, not a bare "Cancelled."', async () => {
    const r = recorder();
    const shutdown = new AbortController();
    const assistant = scripted(
      [{ type: 'error', code: 'cancelled', message: 'Cancelled.' }],
      { status: 'cancelled' },
      () => shutdown.abort(),
    );
    await askAndRender({
      assistant,
      request: { key: 'k', author: 'a', text: 'q' },
      renderer: r,
      signal: shutdown.signal,
      abortedBy: 'shutdown',
      logger,
    });
    expect(r.ended).toMatchObject({ phase: 'cancelled', error: { message: WORDING.restarted } });
  });

  it('keeps "Cancelled." when the asker cancelled', async () => {
    const r = recorder();
    const asker = new AbortController();
    const assistant = scripted(
      [{ type: 'error', code: 'cancelled', message: WORDING.cancelled }],
      { status: 'cancelled' },
      () => asker.abort(),
    );
    await askAndRender({
      assistant,
      request: { key: 'k', author: 'a', text: 'q' },
      renderer: r,
      signal: asker.signal,
      abortedBy: 'asker',
      logger,
    });
    expect(r.ended).toMatchObject({ phase: 'cancelled', error: { message: WORDING.cancelled } });
  });

  it('still ends the run when the assistant throws, or the renderer does', async () => {
    const r = recorder();
    await askAndRender({
      assistant: scripted([], new Error('bug')),
      request: { key: 'k', author: 'a', text: 'q' },
      renderer: r,
      signal: new AbortController().signal,
      abortedBy: 'shutdown',
      logger,
    });
    expect(r.ended).toMatchObject({ phase: 'failed', error: { message: WORDING.failed } });

    const broken: RunRenderer = {
      render: () => {
        throw new Error('render bug');
      },
      finish: async () => {
        throw new Error('finish bug');
      },
    };
    const view = await askAndRender({
      assistant: scripted([{ type: 'answer', text: 'ok', usage, steps: 1 }], {
        status: 'answered',
        text: 'ok',
        usage,
        steps: 1,
      }),
      request: { key: 'k', author: 'a', text: 'q' },
      renderer: broken,
      signal: new AbortController().signal,
      abortedBy: 'shutdown',
      logger,
    });
    expect(view.phase).toBe('final');
  });
});

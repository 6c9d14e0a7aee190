import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import type { Assistant } from '../../../src/core/assistant.js';
import { StorageError } from '../../../src/core/errors.js';
import type { RunQueue } from '../../../src/core/ports/run-queue.js';
import { createAssistant } from '../../../src/core/runs/create-assistant.js';
import { createRunQueue } from '../../../src/core/runs/run-queue.js';
import { type MemoryFixture, startMemoryFixture } from '../memory/fixture.js';
import { createGatedAgent, type GatedAgent } from './fake-agents.js';

const limits = { MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 5 };

/** An in-process line whose tasks can be told, all at once, that their places are lost (as on Postgres). */
function losableQueue(): { queue: RunQueue; lose(reason: unknown): void } {
  const inner = createRunQueue(limits);
  const lost = new AbortController();
  return {
    queue: {
      ...inner,
      run: (key, task, signal, arrival) => inner.run(key, () => task(lost.signal), signal, arrival),
    },
    lose: (reason) => lost.abort(reason),
  };
}

describe('a run whose place in the shared line is lost', () => {
  let fx: MemoryFixture;
  let agent: GatedAgent;
  let assistant: Assistant;
  afterEach(async () => {
    await assistant.close();
    await fx.close();
  });

  async function setup() {
    fx = await startMemoryFixture();
    agent = createGatedAgent();
    const line = losableQueue();
    assistant = createAssistant({ agent, memory: fx.memory, limits, queue: line.queue });
    return line;
  }

  it('is stopped with the reason, through the signal linked with the asker’s own, and remembers nothing', async () => {
    const line = await setup();
    const stop = new AbortController();
    const pending = assistant.ask({ key: 'k', author: 'alice', text: 'hi', signal: stop.signal }, () => {});
    await agent.started(1);
    const reason = new StorageError('The connection to the database was lost while answering.');
    line.lose(reason);
    expect(agent.runs[0]!.input.signal?.aborted).toBe(true);
    expect(agent.runs[0]!.input.signal?.reason).toBe(reason);
    await pending;
    expect((await assistant.memory('k')).turns).toBe(0);
  });

  it('delivers an answer that came in as the place was lost, but does not remember it, and says so', async () => {
    const line = await setup();
    const events: AgentEvent[] = [];
    const pending = assistant.ask({ key: 'k', author: 'alice', text: 'hi' }, (e) => events.push(e));
    await agent.started(1);
    // The agent has its answer; the place is lost before the turn is written.
    agent.runs[0]!.answer('Here it is.');
    line.lose(new StorageError('lost'));
    expect(await pending).toMatchObject({ status: 'answered', text: 'Here it is.' });
    expect(events.some((e) => e.type === 'notice' && e.code === 'not_remembered')).toBe(true);
    expect((await assistant.memory('k')).turns).toBe(0);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRunQueue } from '../../src/core/runs/run-queue.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createGate } from '../helpers/gate.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('queue metrics', () => {
  it('shows how many questions wait for their turn, and how long each waited', async () => {
    let queue: ReturnType<typeof createRunQueue> | undefined;
    const metrics = createMetrics({
      inFlight: () => queue?.size() ?? 0,
      queueDepth: () => queue?.waiting() ?? 0,
      toolNames: () => [],
    });
    queue = createRunQueue({ MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 5 }, (ms) =>
      metrics.observer.waited?.(ms),
    );
    const server = createServer((req, res) => void metrics.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const scrape = async () =>
      (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
    try {
      const gate = createGate();
      let started = false;
      const first = queue.run('k', async () => {
        started = true;
        await gate.promise;
      });
      await waitUntil(() => started, { what: 'the first question to start' });
      const second = queue.run('k', async () => undefined);
      const busy = await scrape();
      expect(busy).toMatch(/^thinkthread_queue_depth 1$/m);
      expect(busy).toMatch(/^thinkthread_questions_in_flight 2$/m);
      gate.open();
      await Promise.all([first, second]);
      const after = await scrape();
      expect(after).toMatch(/^thinkthread_queue_depth 0$/m);
      expect(after).toMatch(/^thinkthread_queue_wait_seconds_count 2$/m);
    } finally {
      server.close();
    }
  });
});

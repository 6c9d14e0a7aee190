import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/create-metrics.js';

describe('the model fallback counter', () => {
  it('counts by primary and fallback, each label cut to 64 characters', async () => {
    const metrics = createMetrics({ inFlight: () => 0, toolNames: () => [] });
    metrics.observer.modelFallback('gpt-4o-mini@api.openai.com', 'qwen2.5@localhost:11434');
    metrics.observer.modelFallback('gpt-4o-mini@api.openai.com', 'qwen2.5@localhost:11434');
    metrics.observer.modelFallback('gpt-4o-mini@api.openai.com', `m@${'h'.repeat(100)}`);
    const server = createServer((req, res) => void metrics.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
      const text = await res.text();
      expect(text).toMatch(
        /^thinkthread_model_fallbacks_total\{from="gpt-4o-mini@api.openai.com",to="qwen2.5@localhost:11434"\} 2$/m,
      );
      expect(text).toContain(`to="m@${'h'.repeat(62)}"} 1`);
    } finally {
      server.close();
    }
  });
});

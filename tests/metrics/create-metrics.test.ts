import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/create-metrics.js';

describe('metrics', () => {
  it('counts questions by platform and outcome, tokens by kind and tools by name, in Prometheus text', async () => {
    const metrics = createMetrics({ inFlight: () => 3, toolNames: () => ['calculator'] });
    const base = { durationMs: 1500, modelCalls: 2, promptTokens: 100, completionTokens: 20 };
    metrics.observer.observe({ platform: 'slack', outcome: 'answered', ...base, tools: { calculator: 2 } });
    metrics.observer.observe({ platform: 'slack', outcome: 'limited', ...base, tools: {} });
    metrics.rateLimited('discord');
    const server = createServer((req, res) => void metrics.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
      const text = await res.text();
      expect(text).toMatch(/^thinkthread_runs_total\{platform="slack",outcome="answered"\} 1$/m);
      expect(text).toMatch(/^thinkthread_runs_total\{platform="slack",outcome="limited"\} 1$/m);
      expect(text).toMatch(/^thinkthread_tokens_total\{platform="slack",kind="prompt"\} 100$/m); // the limited one spent nothing
      expect(text).toMatch(/^thinkthread_tool_calls_total\{tool="calculator"\} 2$/m);
      expect(text).toMatch(/^thinkthread_run_duration_seconds_count\{platform="slack"\} 1$/m);
      expect(text).toMatch(/^thinkthread_questions_in_flight 3$/m);
      expect(text).toMatch(/^thinkthread_platform_rate_limited_total\{platform="discord"\} 1$/m);
      // The process's own metrics carry the prefix once: thinkthread_process_*, never thinkthread_process_process_*.
      expect(text).toMatch(/^thinkthread_process_cpu_seconds_total \d/m);
      expect(text).toMatch(/^thinkthread_nodejs_heap_size_used_bytes \d/m);
      expect(text).not.toMatch(/process_process/);
    } finally {
      server.close();
    }
  });
});

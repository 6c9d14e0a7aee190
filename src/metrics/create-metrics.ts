import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RunObservation, RunObserver } from '../core/ports/run-observer.js';
import type { RouteHandler } from '../server/http-server.js';

/** The bot's Prometheus metrics: an observer for the core, counters for the platforms, and the route. */
export interface Metrics {
  observer: RunObserver;
  /** A platform's API answered 429 (the client waits and retries). */
  rateLimited(platform: string): void;
  /** `GET /metrics` in Prometheus text format. */
  handler: RouteHandler;
}

/**
 * Creates the metrics. Labels are platform names, outcomes, token kinds and tool names (the bot's own and
 * MCP tool names from its configuration): never user text, IDs or secrets.
 */
export function createMetrics(options: { inFlight: () => number; queueDepth?: () => number }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'thinkthread_process_' });
  const runs = new Counter({
    name: 'thinkthread_runs_total',
    help: 'Questions finished, by platform and outcome.',
    labelNames: ['platform', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'thinkthread_run_duration_seconds',
    help: 'Time from a question being taken to its end.',
    labelNames: ['platform'] as const,
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    registers: [registry],
  });
  const modelCalls = new Counter({
    name: 'thinkthread_model_calls_total',
    help: 'Model calls made by questions.',
    labelNames: ['platform'] as const,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'thinkthread_tokens_total',
    help: 'Tokens the model reported, by kind (prompt or completion).',
    labelNames: ['platform', 'kind'] as const,
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: 'thinkthread_tool_calls_total',
    help: 'Tool calls, by tool.',
    labelNames: ['tool'] as const,
    registers: [registry],
  });
  const limited = new Counter({
    name: 'thinkthread_platform_rate_limited_total',
    help: 'Platform API calls answered 429, by platform.',
    labelNames: ['platform'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'thinkthread_questions_in_flight',
    help: 'Questions running or waiting, all channels together.',
    registers: [registry],
    collect() {
      this.set(options.inFlight());
    },
  });

  new Gauge({
    name: 'thinkthread_queue_depth',
    help: 'Questions of this process waiting for their turn in their channel or for a free slot.',
    registers: [registry],
    collect() {
      this.set(options.queueDepth?.() ?? 0);
    },
  });
  const queueWait = new Histogram({
    name: 'thinkthread_queue_wait_seconds',
    help: 'Time from a question arriving to its run starting (its turn in the channel and a free slot).',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });

  const observe = (o: RunObservation) => {
    runs.inc({ platform: o.platform, outcome: o.outcome });
    if (o.outcome === 'refused' || o.outcome === 'limited') return;
    duration.observe({ platform: o.platform }, o.durationMs / 1000);
    modelCalls.inc({ platform: o.platform }, o.modelCalls);
    tokens.inc({ platform: o.platform, kind: 'prompt' }, o.promptTokens);
    tokens.inc({ platform: o.platform, kind: 'completion' }, o.completionTokens);
    for (const [tool, count] of Object.entries(o.tools)) toolCalls.inc({ tool }, count);
  };

  return {
    observer: { observe, waited: (ms) => queueWait.observe(ms / 1000) },
    rateLimited: (platform) => limited.inc({ platform }),
    async handler(_req, res) {
      const body = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(body);
    },
  };
}

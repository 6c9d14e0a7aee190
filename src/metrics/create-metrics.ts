import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ModelFallbackObserver } from '../core/llm/fallback-model.js';
import type { RunObservation, RunObserver } from '../core/ports/run-observer.js';
import type { RouteHandler } from '../server/http-server.js';
import { boundedCounter, boundedHistogram } from './bounded-metrics.js';

/** The `tool` label of a call to a tool the bot does not have: the model's invented names share one series. */
export const UNKNOWN_TOOL = 'unknown';

/** The bot's Prometheus metrics: an observer for the core, counters for the platforms, and the route. */
export interface Metrics {
  /** Told of every question as it ends, and of every model request a fallback answered (LLM_FALLBACK). */
  observer: RunObserver & Required<ModelFallbackObserver>;
  /** A platform's API answered 429 (the client waits and retries). */
  rateLimited(platform: string): void;
  /** `GET /metrics` in Prometheus text format. */
  handler: RouteHandler;
}

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  inFlight: () => number;
  queueDepth?: () => number;
  /**
   * The tools in force (built-in and MCP), asked when a run ends: a tool call is labelled with its name only
   * when it is one of these, because the name comes from the model and a prompt can steer it.
   */
  toolNames: () => Iterable<string>;
}

/**
 * Creates the metrics. Labels are platform names, outcomes, token kinds, tool names the bot has (else
 * `unknown`) and model endpoints as configured (`model@host`): never user text, IDs or secrets; every label
 * value is cut to 64 characters.
 */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'thinkthread_' });
  // Every labelled metric is declared through bounded-metrics, which cuts each label value.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    boundedCounter({ name, help, labelNames, registry });
  const runs = counter('thinkthread_runs_total', 'Questions finished, by platform and outcome.', [
    'platform',
    'outcome',
  ]);
  const duration = boundedHistogram({
    name: 'thinkthread_run_duration_seconds',
    help: 'Time from a question being taken to its end.',
    labelNames: ['platform'] as const,
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    registry,
  });
  const modelCalls = counter('thinkthread_model_calls_total', 'Model calls made by questions.', ['platform']);
  const tokens = counter(
    'thinkthread_tokens_total',
    'Tokens the model reported, by kind (prompt or completion).',
    ['platform', 'kind'],
  );
  const toolCalls = counter(
    'thinkthread_tool_calls_total',
    'Tool calls, by tool (`unknown`: a name the bot has no tool by).',
    ['tool'],
  );
  const fallbacks = counter(
    'thinkthread_model_fallbacks_total',
    'Model requests a fallback (LLM_FALLBACK) answered because the primary was unavailable or kept out, by primary and fallback (model@host).',
    ['from', 'to'],
  );
  const limited = counter(
    'thinkthread_platform_rate_limited_total',
    'Platform API calls answered 429, by platform.',
    ['platform'],
  );
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
    const entries = Object.entries(o.tools);
    if (entries.length === 0) return;
    const known = new Set(options.toolNames());
    for (const [tool, count] of entries)
      toolCalls.inc({ tool: known.has(tool) ? tool : UNKNOWN_TOOL }, count);
  };

  return {
    observer: {
      observe,
      waited: (ms) => queueWait.observe(ms / 1000),
      modelFallback: (from, to) => fallbacks.inc({ from, to }),
    },
    rateLimited: (platform) => limited.inc({ platform }),
    async handler(_req, res) {
      const body = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(body);
    },
  };
}

// What OpenTelemetry tracing costs the loop (issue 30). Off (no OTEL_EXPORTER_OTLP_ENDPOINT) the core's spans
// are the API's no-op calls: measured per call and per run, against a run's whole CPU. On, with the SDK's
// BatchSpanProcessor and OTLP/HTTP exporter sending to a receiver on this machine: CPU and wall time per run
// through the assistant (queue, SQLite memory, three model calls and two tool calls per question).
// Run alone: npx tsx bench/run.ts --quick tracing.
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { getPrompt, loadPrompts, renderPrompt } from '../../src/core/prompts.js';
import { inSpan } from '../../src/core/tracing/spans.js';
import { startOtlpReceiver } from '../../tests/fakes/otlp-receiver.js';
import { createThinkthread } from '../contenders/thinkthread.js';
import type { Contender } from '../contenders/types.js';
import { arithmeticFor, questionText } from '../support/arithmetic.js';
import { startFakeModel } from '../support/fake-model.js';
import { PROMPTS_DIR } from '../support/paths.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { cpuMsSince, round } from '../support/stats.js';

/** Spans a question makes here: the question, queue wait, memory load, three model calls, two tool calls. */
const SPANS_PER_RUN = 8;

/** Nanoseconds one no-op span costs (an awaited `inSpan` around an async function), beyond the call itself. */
async function noopSpanNs(iterations: number): Promise<number> {
  const work = async () => 1;
  const time = async (fn: () => Promise<number>) => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    return Number(process.hrtime.bigint() - t) / iterations;
  };
  await time(work);
  await time(() => inSpan('bench', {}, work));
  const plain = await time(work);
  const spanned = await time(() => inSpan('bench', {}, work));
  return Math.max(0, spanned - plain);
}

/** CPU and wall milliseconds per run over `runs` questions, one after another. */
async function perRun(
  contender: Contender,
  runs: number,
  from: number,
): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < runs; i++) await contender.ask(questionText(arithmeticFor(from + i)));
  return { cpu: cpuMsSince(cpu) / runs, wall: (performance.now() - t) / runs };
}

export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const runs = options.quick ? 300 : 2000;
  const fake = await startFakeModel({ delayMs: 0 });
  const prompts = loadPrompts(PROMPTS_DIR);
  const systemPrompt = renderPrompt(getPrompt(prompts, 'system-tools'), {
    date: 'Sunday, 29 November 2026 (UTC)',
    tool_names: 'calculator',
  });
  const contender = await createThinkthread(
    { url: fake.url, stream: true, systemPrompt },
    { protocol: 'tools', assistant: true },
  );
  const receiver = await startOtlpReceiver();
  try {
    const spanNs = await noopSpanNs(options.quick ? 200_000 : 1_000_000);
    await perRun(contender, Math.floor(runs / 5), 0);
    const off = await perRun(contender, runs, runs);
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
    const provider = new NodeTracerProvider({
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    provider.register();
    await perRun(contender, Math.floor(runs / 5), 2 * runs);
    const on = await perRun(contender, runs, 3 * runs);
    await provider.shutdown();
    trace.disable();
    context.disable();
    const offShare = (spanNs * SPANS_PER_RUN) / 1e6 / off.cpu;
    const onShare = on.cpu / off.cpu - 1;
    const targets: TargetCheck[] = [
      {
        target: 'tracing off: the no-op spans cost < 2% of a run’s CPU',
        measured: `${round(spanNs, 0)} ns a span × ${SPANS_PER_RUN} = ${round(offShare * 100, 3)}% of ${round(off.cpu, 3)} ms`,
        met: offShare < 0.02,
      },
      {
        target: 'tracing on (OTLP/HTTP to this machine): cost stated',
        measured: `+${round(onShare * 100, 1)}% CPU a run, ${receiver.spans.length} spans received`,
        met: null,
      },
    ];
    return {
      name: 'tracing',
      title: 'Tracing cost per question (assistant, tools protocol, scripted model, two tool calls)',
      tables: [
        {
          columns: ['tracing', 'CPU ms a run', 'wall ms a run', 'spans a run'],
          rows: [
            ['off (no-op API)', round(off.cpu, 3), round(off.wall, 3), 0],
            [
              'on (batch, OTLP/HTTP JSON)',
              round(on.cpu, 3),
              round(on.wall, 3),
              round(receiver.spans.length / (runs * 1.2), 1),
            ],
          ],
        },
      ],
      targets,
      notes: [
        `${runs} questions each way, one at a time, after a warm-up; the receiver runs in this process, so its parsing counts against tracing on.`,
        `A no-op span (an awaited inSpan around an async function) costs ${round(spanNs, 0)} ns more than the call alone.`,
      ],
      data: { spanNs, off, on, spans: receiver.spans.length },
    };
  } finally {
    await contender.close?.();
    await receiver.close();
    await fake.close();
  }
}

import { createHash } from 'node:crypto';
import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The core's spans. Only the OpenTelemetry API is used here: until the root registers a tracer provider
 * (OTEL_EXPORTER_OTLP_ENDPOINT), every call is the API's no-op and records nothing.
 */
const tracer = trace.getTracer('thinkthread');

let capture = false;

/** OTEL_CAPTURE_CONTENT: whether spans carry messages, tool arguments and results (set once by the root). */
export function setTraceContent(on: boolean): void {
  capture = on;
}

/** Whether spans may carry contents (questions, answers, tool input and output). */
export function tracesContent(): boolean {
  return capture;
}

/** A conversation key as traces name it: a short hash, never the platform's raw IDs. */
export function channelHash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** How a span is started. */
export interface SpanOptions {
  attributes?: Attributes;
  /** CLIENT for calls leaving the process (a model), INTERNAL otherwise. */
  client?: boolean;
}

/**
 * Runs `work` inside a span that is the active one for everything it starts, and ends it: in error when
 * `work` throws (the error's type, never its message, which may hold what was asked).
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    name,
    { kind: options.client ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: options.attributes },
    async (span) => {
      try {
        return await work(span);
      } catch (err) {
        failSpan(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** A span started now and ended by the caller (e.g. a wait that ends elsewhere). */
export function startSpan(name: string, attributes?: Attributes): Span {
  return tracer.startSpan(name, { attributes });
}

/** `fn`, run later (e.g. by a queue, from another run's turn) as a child of the span active now. */
export function bindToActive<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return context.bind(context.active(), fn);
}

/** Marks `span` failed with `what`, or `err`'s code or name (never its message, which may quote a question). */
export function failSpan(span: Span, err: unknown, what?: string): void {
  const code = (err as { code?: unknown } | undefined)?.code;
  const type = what ?? (typeof code === 'string' ? code : err instanceof Error ? err.name : 'error');
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

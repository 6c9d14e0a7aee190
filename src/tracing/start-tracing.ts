import type { Logger } from '../core/logger.js';

/** Tracing while it is on: flush what is batched and stop, at shutdown. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/** What {@link startTracing} needs. */
export interface TracingOptions {
  /** The service's name when OTEL_SERVICE_NAME does not say. */
  serviceName?: string;
  logger: Logger;
}

/**
 * Registers the OpenTelemetry SDK's tracer provider: spans batched (BatchSpanProcessor) and sent by
 * OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces`); the exporter reads the standard OTEL_* variables
 * (headers, timeouts, a traces-only endpoint). The SDK is loaded only here, so tracing off costs no import.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME || (options.serviceName ?? 'thinkthread'),
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  options.logger.info('tracing on: spans go to OTEL_EXPORTER_OTLP_ENDPOINT');
  return {
    async shutdown() {
      try {
        await provider.shutdown();
      } catch (err) {
        options.logger.warn({ err }, 'could not send the last spans');
      }
    },
  };
}

import { context, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (instrumentation.ts): spans go in batches to
 * `<endpoint>/v1/traces` over OTLP/HTTP. Without it the API's no-op tracer makes every span free, so the gateway's
 * hooks (lib/platform/metrics.ts, observeStage) always call it.
 */
export function tracer(): Tracer {
  return trace.getTracer('almanac');
}

/** Runs `work` inside a span that ends with it, recording a thrown error on the span and passing it on. */
export async function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: 2 }); // SpanStatusCode.ERROR
      throw error;
    } finally {
      span.end();
    }
  });
}

export interface Tracing {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Registers the process's tracer provider and the async context that nests spans; returns it for flush and shutdown. */
export function startTracing(options: { endpoint: string; serviceName: string }): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }) })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}

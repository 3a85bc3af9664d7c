import { trace, type Attributes, type Tracer } from '@opentelemetry/api';

// Spans through the OpenTelemetry API only: exported once instrumentation.ts starts the SDK (trace-export.ts), and
// free until then (the API's no-op tracer), so the gateway's hooks always call it.
function tracer(): Tracer {
  return trace.getTracer('almanac');
}

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

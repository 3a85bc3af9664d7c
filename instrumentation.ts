/**
 * Runs once when the server starts, before the first request: report the base URL, migrate and (on an empty database) seed, start the
 * job queue and its worker, the sweep that expires subscriptions cancelled at period end (lib/subscriptions/sweeper.ts)
 * and the purge of old Idempotency-Key records, then offer
 * the fast lane to scripts/serve.mjs (`npm start`), which answers the keyed endpoints and the public catalog's GETs
 * without Next's request machinery (lib/server/). Under `next dev` or a bare `next start` nothing picks it up, and the route
 * handler serves the same path.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // /metrics counts every request scripts/serve.mjs answers from here on, the health probes of start-up included.
  const { observeRequest } = await import('./lib/platform/metrics');
  const { registerRequestObserver } = await import('./lib/server/request-metrics-slot.mjs');
  registerRequestObserver(observeRequest);
  // Whatever fails here stops the process with its reason instead of leaving a server that answers 500 to everything
  // (lib/platform/startup.ts): a bad variable, a missing ALMANAC_SECRET, a database that cannot be opened.
  const { checkConfiguration, startOrExit } = await import('./lib/platform/startup');
  await startOrExit(async () => {
    checkConfiguration();
    // The log says which address every link and callback will use (lib/platform/base-url.ts).
    const { announceBaseUrl } = await import('./lib/platform/base-url');
    announceBaseUrl();
    const { openServerDatabase } = await import('./lib/seed');
    await openServerDatabase().catch((error: unknown) => {
      throw new Error(`the database cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
    });
    // Durable background jobs on pg-boss (lib/platform/jobs.ts): started before any request can send a job inside a
    // transaction; the handlers and the worker follow below.
    const { startJobQueue } = await import('./lib/platform/jobs');
    await startJobQueue('worker').catch((error: unknown) => {
      throw new Error(`the job queue cannot be started: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  // Timers (lib/platform/periodic-task.ts): pg-boss cron schedules, one run per tick across instances.
  const { startSubscriptionSweeper } = await import('./lib/subscriptions');
  startSubscriptionSweeper();
  const { startIdempotencyPurge } = await import('./lib/gateway');
  startIdempotencyPurge();
  const { startFormSubmissionPurge } = await import('./lib/platform/form-submissions');
  startFormSubmissionPurge();
  // Expired OAuth codes and tokens, and grants left with no token (lib/oauth/housekeeping.ts).
  const { startOAuthPurge } = await import('./lib/oauth');
  startOAuthPurge();
  // Chunks staged by an ingestion that was killed before its transaction (lib/engine/chunk-store.ts).
  const { startStagedChunkPurge } = await import('./lib/engine');
  startStagedChunkPurge();
  // Knowledge bases whose gate threshold was calibrated for other weights than these (lib/engine/gate-calibration.ts).
  const { startGateRecalibration } = await import('./lib/engine');
  startGateRecalibration();
  // Each domain registers its job handlers, then the worker takes their queues' jobs.
  const { registerContentJobs } = await import('./lib/engine');
  registerContentJobs();
  // Email delivery over SMTP (lib/platform/mail.ts) and usage-alert webhooks (lib/alerts/webhooks.ts).
  const { registerMailJobs } = await import('./lib/platform/mail');
  registerMailJobs();
  const { registerAlertJobs } = await import('./lib/alerts');
  registerAlertJobs();
  // A replaced plan's Stripe subscriptions move to the new price from their next invoice (lib/billing/plan-replacement.ts).
  const { registerBillingJobs } = await import('./lib/billing');
  registerBillingJobs();
  // SIGTERM stops it taking jobs and waits for the running ones; a job cut short by the exit is retried elsewhere
  // once its heartbeat lapses.
  const { startJobWorker } = await import('./lib/platform/jobs');
  await startJobWorker();
  // /metrics (lib/platform/metrics.ts): the gauges read at scrape time, and the requests scripts/serve.mjs answers.
  const { provideGauge } = await import('./lib/platform/metrics');
  const { databasePoolState } = await import('./lib/platform/db');
  const { queueDepth } = await import('./lib/platform/jobs');
  provideGauge('jobs', () => queueDepth());
  provideGauge('db-pool', databasePoolState);
  // Traces only toward a collector (lib/platform/tracing.ts); the spans of work in flight are lost with a kill -9.
  const { getEnv } = await import('./lib/platform/env');
  const { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME } = getEnv();
  if (OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import('./lib/platform/trace-export');
    const { inSpan } = await import('./lib/platform/tracing');
    startTracing({ endpoint: OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: OTEL_SERVICE_NAME });
    // The fast lane's keyed requests as root spans, the gateway's stages nested in them.
    const { registerRequestTracer } = await import('./lib/server/request-metrics-slot.mjs');
    registerRequestTracer((name, work) => inSpan(name, {}, work));
  }
  const { registerNodeLane } = await import('./lib/server/lane');
  registerNodeLane();
}

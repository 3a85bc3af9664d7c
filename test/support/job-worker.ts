import { openPostgres } from '@/db/client';
import { runIngestJob, INGEST_QUEUE } from '@/lib/engine';
import { useDatabase } from '@/lib/platform/db';
import { defineJobHandler, startJobWorker } from '@/lib/platform/jobs';

/**
 * An instance's job worker in its own process (run with tsx by test/integration/publishing-content.test.ts) on the
 * PostgreSQL database in DATABASE_URL. Prints `ran <job id> <document id>` when it starts an ingestion job; with
 * PAUSE_AFTER_PARSE=1 every ingestion stops after parsing (the document is `ingesting`) and waits to be killed.
 */
const handle = await openPostgres(process.env.DATABASE_URL!, 4);
useDatabase(handle);
const pause = process.env.PAUSE_AFTER_PARSE === '1';
defineJobHandler(INGEST_QUEUE, async (payload, ctx) => {
  console.log(`ran ${ctx.jobId} ${payload.documentId}`);
  await runIngestJob(handle.db, payload, ctx.attempt, pause ? { afterParse: () => new Promise<void>(() => {}) } : {});
});
await startJobWorker();
setInterval(() => {}, 60_000);
console.log('worker ready');

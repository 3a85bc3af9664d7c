/**
 * The peer instance of bench/stall (README.md there): a second process on the same PostgreSQL database and Redis as
 * the bench, running what a second `npm start` runs for hosted content (pg-boss's worker with the content queues'
 * handlers) and a health endpoint that does what /api/health does. It takes its share of the ingestion jobs the bench
 * queues, as the probe's second instance took the stalled one's job. Prints `{"port": …}` when ready.
 *
 *   npx tsx bench/stall/peer.ts <postgres url>
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';

const url = process.argv[2];
if (!url) throw new Error('usage: peer.ts <postgres url>');

const { openPostgres } = await import('@/db/client');
const { useDatabase } = await import('@/lib/platform/db');
const { startJobWorker } = await import('@/lib/platform/jobs');
const { registerContentJobs } = await import('@/lib/engine');

const handle = await openPostgres(url, 10);
useDatabase(handle);
registerContentJobs();
const worker = await startJobWorker();

const server = http.createServer((_req, res) => {
  void handle.db.execute(sql`select 1`).then(() => res.writeHead(200).end('ok'));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));

process.removeAllListeners('SIGTERM');
process.once('SIGTERM', () => {
  server.close();
  void worker
    .stop()
    .then(() => handle.close())
    .finally(() => process.exit(0));
});

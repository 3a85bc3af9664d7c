import type { DatabaseHandle } from '@/db/client';
import type { BoughtKey, RunningPublisher } from '../../test/support/gateway-fixtures';
import { createScratchDatabase } from '../../test/support/scratch-database';

/**
 * What the in-process diagnostics (stages.ts, cpu-inprocess.ts, profile-inprocess.ts) share: a scratch Postgres
 * database, migrated and used as the process's database; the instant example publisher in its own process; an
 * `http` knowledge base pointing at it and a bought key whose cap and rate never refuse. Sets the configuration
 * first, so lib/ modules must be imported after this resolves.
 */
export interface GatewayFixture {
  handle: DatabaseHandle;
  publisher: RunningPublisher;
  kbId: string;
  key: BoughtKey;
  /** Flushes the usage recorder, stops the publisher, closes and drops the database. */
  close(): Promise<void>;
}

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function openGatewayFixture(name: string): Promise<GatewayFixture> {
  const scratch = await createScratchDatabase(`almanac_${name}_${Math.random().toString(36).slice(2, 8)}`, ADMIN_URL);
  Object.assign(process.env, {
    ALMANAC_SECRET: `fake-${name}-secret-0123456789abcdef`,
    ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
    LOG_LEVEL: 'warn',
    SEED_ON_START: 'false',
    DATABASE_URL: scratch.url,
  });
  try {
    const { openPostgres } = await import('@/db/client');
    const { prepareDatabase, useDatabase } = await import('@/lib/platform/db');
    const f = await import('../../test/support/gateway-fixtures');
    const handle = await openPostgres(scratch.url, 20);
    await prepareDatabase(handle);
    useDatabase(handle);
    const publisher = await f.startExamplePublisher();
    const kbId = await f.createHttpKnowledgeBase(handle.db, await f.createPublisher(handle.db), {
      endpointUrl: publisher.url,
      infraKey: publisher.infraKey,
      signingSecret: publisher.signingSecret,
    });
    const key = await f.buyKey(handle.db, kbId, { cap: 100_000_000, perMinute: 100_000_000 });
    return {
      handle,
      publisher,
      kbId,
      key,
      close: async () => {
        try {
          await (await import('@/lib/gateway/usage-recorder')).getUsageRecorder().flush();
          await publisher.stop();
          await handle.close();
        } finally {
          await scratch.drop();
        }
      },
    };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

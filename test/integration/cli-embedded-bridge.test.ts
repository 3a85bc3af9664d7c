import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type DatabaseHandle } from '@/db/client';
import { startPgliteBridge, type PgliteBridge } from '@/db/pglite-bridge';
import { testDbKind } from '../support/db';

/** The socket bridge that lets the CLI use a running server's embedded PGlite (db/pglite-bridge.ts). */
describe.runIf(testDbKind() === 'pglite')('PGlite socket bridge', () => {
  let handle: DatabaseHandle;
  let pglite: PGlite;
  let bridge: PgliteBridge;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'almanac-bridge-'));
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    handle = await openPglite();
    pglite = handle.pglite!;
    await pglite.exec('create table t (n int not null)');
    bridge = await startPgliteBridge(pglite, { socketDir: dir, idleInTransactionMs: 1_500 });
  });
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    await bridge.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ host: bridge.socketDir, port: bridge.port, user: 'postgres', database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  }

  const rows = async () => (await pglite.query<{ n: number }>('select n from t order by n')).rows.map((r) => r.n);
  const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Resolves to 'pending' if the promise has not settled within ms. */
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => 'done' as const), settle(ms).then(() => 'pending' as const)]);

  it('answers simple and parameterised queries, and commits are visible to the server', async () => {
    await pglite.exec('delete from t');
    const client = await connect();
    expect((await client.query('select 1 + 1 as two')).rows).toEqual([{ two: 2 }]);
    expect((await client.query('select $1::int * 3 as v', [7])).rows).toEqual([{ v: 21 }]);
    await client.query('begin');
    await client.query('insert into t values ($1)', [1]);
    await client.query('commit');
    expect(await rows()).toEqual([1]);
    // Errors come back as errors and leave the session usable.
    await expect(client.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect((await client.query('select count(*)::int as c from t')).rows).toEqual([{ c: 1 }]);
    // An idle client does not hold the server up.
    expect(await within(pglite.query('select 1'), 1_000)).toBe('done');
  });

  it("keeps a client's transaction and the server's statements apart", async () => {
    await pglite.exec('delete from t');
    const client = await connect();
    await client.query('begin');
    await client.query('insert into t values (10)');
    // The server's statement waits for the client's transaction instead of running inside it.
    const serverInsert = pglite.query('insert into t values (20)');
    expect(await within(serverInsert, 300)).toBe('pending');
    await client.query('rollback');
    await serverInsert;
    expect(await rows()).toEqual([20]);

    // And a client statement never lands inside a server transaction.
    let release!: () => void;
    const serverTx = pglite.transaction(async (tx) => {
      await tx.query('insert into t values (30)');
      await new Promise<void>((r) => (release = r));
      throw new Error('server rolls back');
    });
    await settle(20);
    const clientInsert = client.query('insert into t values (40)');
    expect(await within(clientInsert, 300)).toBe('pending');
    release();
    await expect(serverTx).rejects.toThrow('server rolls back');
    await clientInsert;
    expect(await rows()).toEqual([20, 40]);
  });

  it('rolls back and frees the database when a client vanishes or idles inside a transaction', async () => {
    await pglite.exec('delete from t');
    const vanishing = await connect();
    await vanishing.query('begin');
    await vanishing.query('insert into t values (50)');
    // Kill the connection without COMMIT/ROLLBACK/Terminate.
    (vanishing as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect(await within(pglite.query('insert into t values (60)'), 2_000)).toBe('done');
    expect(await rows()).toEqual([60]);

    const idler = await connect();
    await idler.query('begin');
    await idler.query('insert into t values (70)');
    const started = Date.now();
    // Blocked until the idle-in-transaction limit (1.5 s here) disconnects the idler.
    await pglite.query('insert into t values (80)');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(await rows()).toEqual([60, 80]);
    await expect(idler.query('commit')).rejects.toThrow();
  });
});

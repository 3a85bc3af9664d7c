import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { openEmbeddedDatabase } from '@/lib/platform/embedded-db';
import { hashApiKey, parseApiKey } from '@/lib/keys';
import { findKeyByHash } from '@/lib/gateway/key-lookup';
import { getSubscriptionForUser } from '@/lib/subscriptions';
import { createTestDatabase, testDbKind } from '../support/db';
import { childLogFile } from '../support/log-scan';
import { createCatalogFixture } from './subscriptions-fixtures';

const ROOT = path.resolve(import.meta.dirname, '../..');
const APP_URL = 'http://almanac.test:3999';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The real CLI in a child process, as an operator runs it (`npm run almanac`): the compiled dist/almanac.mjs when the
 * build is current (CI builds first), else the TypeScript source through tsx.
 */
function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/run.mjs', 'almanac', ...args],
      { cwd: ROOT, env: { ...process.env, LOG_FILE: childLogFile('cli'), SEED_ON_START: 'false', APP_URL, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

const KEY_PATTERN = /alm_sk_(?:live|test)_[0-9A-Za-z]{38}/g;

describe.runIf(testDbKind() === 'postgres')('operator CLI on PostgreSQL', () => {
  // Each spawn loads the app's modules (through tsx when there is no current build): seconds apiece on a shared machine.
  it('creates a buyer and subscription, prints the key once, lists, reports usage, revokes, and rejects bad input', { timeout: 240_000 }, async () => {
    const handle = await createTestDatabase({ install: false });
    const { kbId, plans } = await createCatalogFixture(handle.db, { slug: 'cli-fixture' });
    const env = { DATABASE_URL: handle.url };

    const created = await runCli(['create-subscription', '--email', 'Ana@Example.com', '--kb', 'cli-fixture', '--plan', 'professional'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const keys = created.stdout.match(KEY_PATTERN) ?? [];
    // The key appears in the "shown once" line and in the curl line, and nowhere else.
    expect(keys).toHaveLength(2);
    const key = keys[0]!;
    expect(keys[1]).toBe(key);
    expect(parseApiKey(key)).toMatchObject({ ok: true, mode: 'live' });
    expect(created.stdout).toContain(
      `curl -X POST ${APP_URL}/kb/${kbId}/query -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{"query":`,
    );
    const record = await findKeyByHash(handle.db, hashApiKey(key));
    expect(record).toMatchObject({ kbId, plan: { id: plans.pro, queriesPerPeriod: 500 }, subscription: { status: 'active', mode: 'live' } });
    const view = await getSubscriptionForUser(handle.db, record!.subscription.userId, record!.subscription.id);
    expect(view.ok).toBe(true);
    const user = await handle.db.execute(sql`select email, password_hash from users where id = ${record!.subscription.userId}`);
    expect(user.rows[0]).toEqual({ email: 'ana@example.com', password_hash: null });

    // Second subscription to the same KB: a clear refusal, exit 1. Missing option / unknown KB: exit 2 / 1.
    const [again, missing, listed] = await Promise.all([
      runCli(['create-subscription', '--email', 'ana@example.com', '--kb', kbId], env),
      runCli(['create-subscription', '--kb', kbId], env),
      runCli(['list-keys', '--email', 'ana@example.com'], env),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`already has an active subscription`);
    expect(again.stderr).toContain(record!.subscription.id);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email is required');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(record!.keyId);
    expect(listed.stdout).toContain(`alm_sk_live_${key.slice(12, 20)}…${key.slice(-4)}`);
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).toMatch(/active/);

    await handle.db.execute(sql`update usage_periods set used = 37 where subscription_id = ${record!.subscription.id}`);
    const [usage, revoked] = await Promise.all([
      runCli(['usage', '--email', 'ana@example.com', '--kb', `${kbId}`], env),
      runCli(['revoke-key', record!.keyId], env),
    ]);
    expect(usage.code).toBe(0);
    expect(usage.stdout).toContain('Used          37 of 500 (463 remaining');
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${record!.keyId}`);
    expect(usage.stdout).toContain(`Subscription ${record!.subscription.id}`);
    expect((await findKeyByHash(handle.db, hashApiKey(key)))?.keyRevokedAt).toBeInstanceOf(Date);
  });
});

describe.runIf(testDbKind() === 'pglite')('operator CLI on embedded PGlite', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-cli-'));
  let server: DatabaseHandle | undefined;
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('works through the running server, whose own transactions keep going, then directly once it stops', { timeout: 240_000 }, async () => {
    // This test process plays the server: it holds the data directory and shares it over the socket.
    server = await openEmbeddedDatabase(dataDir, { role: 'server', prepare: (h) => prepareDatabase(h) });
    const db = server.db;
    const { kbId } = await createCatalogFixture(db, { slug: 'embedded-fixture' });
    const info = JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as { pid: number; socketDir: string };
    expect(info.pid).toBe(process.pid);

    // The server's own transactions run the whole time; each writes a +n and a -n row, so the sum stays 0 only
    // if no CLI statement ever runs inside them (and none of theirs inside the CLI's).
    await db.execute(sql`create table server_work (n int not null)`);
    let running = true;
    let n = 0;
    const serverWork = (async () => {
      while (running) {
        await db.transaction(async (tx) => {
          n++;
          await tx.execute(sql`insert into server_work values (${n})`);
          await new Promise((r) => setTimeout(r, 2));
          await tx.execute(sql`insert into server_work values (${-n})`);
        });
      }
    })();

    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const created = await runCli(['create-subscription', '--email', 'bo@example.com', '--kb', 'embedded-fixture', '--test'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = (created.stdout.match(KEY_PATTERN) ?? [])[0]!;
    expect(parseApiKey(key)).toMatchObject({ ok: true, mode: 'test' });
    // The server process sees the CLI's write at once: same database.
    const record = await findKeyByHash(db, hashApiKey(key));
    expect(record).toMatchObject({ kbId, subscription: { status: 'active', mode: 'test' } });

    running = false;
    await serverWork;
    const sums = await db.execute(sql`select coalesce(sum(n), 0)::int as total, count(*)::int as rows from server_work`);
    expect(sums.rows[0]).toMatchObject({ total: 0 });
    expect((sums.rows[0] as { rows: number }).rows).toBeGreaterThan(10);

    // The server stops: its files go away and the CLI opens the directory itself.
    await server.close();
    server = undefined;
    expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    const listed = await runCli(['list-keys', '--email', 'bo@example.com'], env);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(record!.keyId);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });
});

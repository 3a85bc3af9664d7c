import { itemAt } from '@/lib/platform/arrays';
import '../support/gateway-env';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeBases, usageDaily, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { randomBase62 } from '@/lib/platform/ids';
import { revokeKeyAsOperator } from '@/lib/keys';
import { createTestDatabase, testDbKind, firstRow } from '../support/db';
import { LOG_FILE } from '../support/gateway-env';
import { postQuery, startInstance as startGatewayInstance, type Instance } from '../support/gateway-instance';
import { buyKey, createHttpKnowledgeBase, createPublisher, startExamplePublisher, type BoughtKey, type RunningPublisher } from '../support/gateway-fixtures';
import { expectLogsFreeOfSecrets, rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/**
 * Two app instances: two separate Node processes (test/support/gateway-server.ts run with tsx), each serving the
 * gateway's fast lane over HTTP as `npm start` does, sharing one PostgreSQL database and one Redis (rate limits).
 * Postgres project only.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `almanac-test-gw:${randomBase62(8)}`;

const instanceLogs: string[] = [];

async function startInstance(databaseUrl: string, name: string): Promise<Instance> {
  const instance = await startGatewayInstance({ databaseUrl, redisUrl: REDIS_URL, rateLimitPrefix: prefix, name });
  instanceLogs.push(instance.logFile);
  return instance;
}

const post = postQuery;

/** Raw HTTP, for bodies whose framing fetch would not allow. */
function rawRequest(port: number, head: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head + '\r\n\r\n');
      if (body) socket.write(body);
    });
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      const match = /^HTTP\/1\.1 (\d+)/.exec(data);
      if (match && data.includes('\r\n\r\n') && data.includes('}')) {
        socket.destroy();
        resolve({ status: Number(match[1]), text: data });
      }
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error('raw request timed out')), 5_000);
  });
}

describe.runIf(testDbKind() === 'postgres')('two app instances sharing Postgres and Redis', () => {
  const openapi = new OpenApiChecker();
  let handle: DatabaseHandle & { url?: string };
  let publisher: RunningPublisher;
  let a: Instance;
  let b: Instance;
  let kb: string;

  beforeAll(async () => {
    handle = await createTestDatabase();
    publisher = await startExamplePublisher();
    rememberSecret(publisher.infraKey, publisher.signingSecret);
    const pub = await createPublisher(handle.db);
    kb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret });
    [a, b] = await Promise.all([startInstance(handle.url!, 'a'), startInstance(handle.url!, 'b')]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await publisher?.stop();
    const redis = new Redis(REDIS_URL);
    const stale = await redis.keys(`${prefix}*`);
    if (stale.length) await redis.del(...stale);
    redis.disconnect();
  });

  const buy = async (options: { cap?: number; perMinute?: number }): Promise<BoughtKey> => {
    const k = await buyKey(handle.db, kb, options);
    rememberSecret(k.key);
    return k;
  };

  const volume = async (kbId = kb) =>
    firstRow(await handle.db.select({ v: knowledgeBases.queryVolume }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId))).v;

  it('plan of 50, 200 concurrent requests over both instances: exactly 50 answers and 150 query_cap_exceeded', async () => {
    const k = await buy({ cap: 50, perMinute: 10_000 });
    const before = await volume();
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => post(i % 2 === 0 ? a.url : b.url, kb, k.key, `tide question ${i}`)));
    const counts: Record<number, number> = {};
    for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
    expect(counts).toEqual({ 200: 50, 429: 150 });
    expect(replies.filter((r) => r.status === 429).every((r) => r.body.error === 'query_cap_exceeded')).toBe(true);
    // Both instances served answers (the split is real).
    const [used] = await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, k.subscriptionId));
    expect(used?.used).toBe(50);
    openapi.expectConforms(
      '/kb/{kb_id}/query',
      'POST',
      replies.find((r) => r.status === 200)!,
    );
    openapi.expectConforms(
      '/kb/{kb_id}/query',
      'POST',
      replies.find((r) => r.status === 429)!,
    );
    // Each instance's recorder flushes within about a second; the increments add up.
    const deadline = Date.now() + 5_000;
    while ((await volume()) < before + 50 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await volume()).toBe(before + 50);
    const daily = await handle.db.select().from(usageDaily).where(eq(usageDaily.subscriptionId, k.subscriptionId));
    expect(daily.reduce((s, d) => s + d.queries, 0)).toBe(50);
  });

  it('shares the per-key rate limit through Redis: limit 10, 30 requests over both instances, exactly 10 pass', async () => {
    const k = await buy({ cap: 1_000, perMinute: 10 });
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => post(i % 2 === 0 ? a.url : b.url, kb, k.key)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10);
    const limited = replies.filter((r) => r.status === 429);
    expect(limited).toHaveLength(20);
    expect(limited.every((r) => r.body.error === 'rate_limit_exceeded' && Number(r.headers.get('Retry-After')) >= 1)).toBe(true);
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', itemAt(limited, 0));
  });

  it('a key revoked on one instance is refused by the other within one second', async () => {
    const k = await buy({ cap: 10_000, perMinute: 10_000 });
    expect((await post(a.url, kb, k.key)).status).toBe(200);
    expect((await post(b.url, kb, k.key)).status).toBe(200);
    // Revoke through instance A's side of the world (the shared database), then watch instance B.
    await revokeKeyAsOperator(handle.db, k.keyId);
    const revokedAt = Date.now();
    let reply;
    for (;;) {
      reply = await post(b.url, kb, k.key);
      if (reply.status !== 200 || Date.now() - revokedAt > 3_000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const elapsed = Date.now() - revokedAt;
    expect(reply.status).toBe(403);
    expect(reply.body.error).toBe('key_revoked');
    expect(elapsed).toBeLessThan(1_000);
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', reply);
  });

  it('refuses bodies over 16 KiB on the wire: chunked without a length, and a declared length (413)', async () => {
    const k = await buy({ cap: 10 });
    const port = Number(new URL(a.url).port);
    const payload = JSON.stringify({ query: 'x'.repeat(17 * 1024) });
    const chunked = `${payload.length.toString(16)}\r\n${payload}\r\n0\r\n\r\n`;
    const head = (extra: string) =>
      `POST /kb/${kb}/query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${k.key}\r\nContent-Type: application/json\r\nConnection: close\r\n${extra}`;
    const viaChunks = await rawRequest(port, head('Transfer-Encoding: chunked'), chunked);
    expect(viaChunks.status).toBe(413);
    expect(viaChunks.text).toContain('"error":"payload_too_large"');
    // Declares 20,000 bytes and sends ten: refused on the header, without waiting for the rest.
    const declared = await rawRequest(port, head('Content-Length: 20000'), '{"query":');
    expect(declared.status).toBe(413);
  });

  it('keeps counts across a SIGTERM and a restart, and caps survive a Redis data loss', async () => {
    // A knowledge base of its own, so no earlier test's pending batch can blur the count.
    const ownKb = await createHttpKnowledgeBase(handle.db, await createPublisher(handle.db), {
      endpointUrl: publisher.url,
      infraKey: publisher.infraKey,
      signingSecret: publisher.signingSecret,
    });
    const k = await buyKey(handle.db, ownKb, { cap: 20, perMinute: 10_000 });
    rememberSecret(k.key);
    const replies = await Promise.all(Array.from({ length: 20 }, () => post(b.url, ownKb, k.key)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    // Stop B at once: its recorder must flush the batch before the process exits.
    const code = await b.stop('SIGTERM');
    expect(code).not.toBeNull();
    expect(await volume(ownKb)).toBe(20);
    // Simulate Redis losing its data: the cap lives in the database, so nothing more gets through.
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    b = await startInstance(handle.url!, 'b2');
    const after = await post(b.url, ownKb, k.key);
    expect(after.status).toBe(429);
    expect(after.body).toMatchObject({ error: 'query_cap_exceeded', usage: { used: 20, cap: 20 } });
  });

  it('logs of the test process and both instances hold no key and no publisher secret', async () => {
    await Promise.all([a.stop(), b.stop()]);
    const { lines } = expectLogsFreeOfSecrets([LOG_FILE, ...instanceLogs]);
    // Every instance wrote at least its start line, so the scan read real log files.
    expect(lines).toBeGreaterThanOrEqual(instanceLogs.length);
  });
});

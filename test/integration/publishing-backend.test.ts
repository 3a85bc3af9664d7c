import '../support/gateway-env';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { ingestDocument } from '@/lib/engine';
import { resetEnvForTesting } from '@/lib/platform/env';
import { newId } from '@/lib/platform/ids';
import { getBackendSettings, saveHttpBackend, switchToHostedBackend, tryKnowledgeBase } from '@/lib/routing';
import { createTestDatabase } from '../support/db';
import { startExamplePublisher, type RunningPublisher } from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';
import { createUser } from './subscriptions-fixtures';

/**
 * The console's backend settings and "try it" (lib/routing/console.ts, docs/api.md §9.5): secrets are write-only,
 * the endpoint passes the SSRF guard, a test query is a real signed call through the connector (the example publisher
 * verifies the signature), and trying a listing counts nowhere. Ownership: a stranger gets not_found.
 */

let db: Database;
let owner: string;
let stranger: string;
let publisherId: string;
let example: RunningPublisher;

async function newKb(): Promise<string> {
  const kbId = newId('kb');
  await db
    .insert(knowledgeBases)
    .values({ id: kbId, publisherId, slug: `kb-${kbId.slice(-8).toLowerCase()}`, title: 'Backend test', summary: 's', category: 'education', status: 'draft' });
  return kbId;
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  owner = await createUser(db);
  stranger = await createUser(db);
  publisherId = newId('pub');
  await db.insert(publishers).values({ id: publisherId, slug: `b-${owner.slice(-6).toLowerCase()}`, name: 'Backend Press', ownerUserId: owner });
  await db.insert(publishers).values({ id: newId('pub'), slug: `s-${stranger.slice(-6).toLowerCase()}`, name: 'Other', ownerUserId: stranger });
  example = await startExamplePublisher();
  rememberSecret(example.infraKey, example.signingSecret);
});
afterAll(async () => {
  await example?.stop();
});

describe('console backend', () => {
  it('saves write-only secrets, keeps them when left blank, and a test query is a real signed call', async () => {
    const kbId = await newKb();
    const saved = await saveHttpBackend(db, owner, {
      kbId,
      endpointUrl: example.url,
      infraKey: example.infraKey,
      signingSecret: example.signingSecret,
      timeoutMs: 5_000,
    });
    expect(saved).toMatchObject({ ok: true, kbId, timeoutMs: 5_000 });
    const [row] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    expect(row!.backendKind).toBe('http');
    expect(row!.infraKeyEncrypted).not.toContain(example.infraKey);
    expect(row!.signingSecretEncrypted).not.toContain(example.signingSecret);
    const settings = await getBackendSettings(db, owner, kbId);
    expect(settings).toEqual({ ok: true, settings: { kind: 'http', endpointUrl: example.url, timeoutMs: 5_000, hasInfraKey: true, hasSigningSecret: true } });
    expect(JSON.stringify(settings)).not.toContain(example.signingSecret);

    // Blank secrets keep the stored ones; the signed call still verifies at the publisher.
    expect(await saveHttpBackend(db, owner, { kbId, endpointUrl: example.url, infraKey: '', signingSecret: '', timeoutMs: 4_000 })).toMatchObject({
      ok: true,
      timeoutMs: 4_000,
    });
    const answered = await tryKnowledgeBase(db, owner, kbId, 'What is the warranty period?');
    expect(answered).toMatchObject({ ok: true, answer: { answer: expect.any(String) } });

    // A wrong signing secret: the precise failure comes back.
    await saveHttpBackend(db, owner, { kbId, endpointUrl: example.url, signingSecret: 'x'.repeat(40) });
    const refused = await tryKnowledgeBase(db, owner, kbId, 'What is the warranty period?');
    expect(refused).toMatchObject({ ok: false, code: 'publisher_error', reason: expect.stringMatching(/401|403|status/) });
  });

  it('refuses a metadata endpoint and a stranger', async () => {
    const kbId = await newKb();
    const ssrf = await saveHttpBackend(db, owner, {
      kbId,
      endpointUrl: 'https://169.254.169.254/latest',
      infraKey: 'k'.repeat(20),
      signingSecret: 's'.repeat(40),
    });
    expect(ssrf).toMatchObject({ ok: false, code: 'invalid_request', fieldErrors: { endpointUrl: expect.stringMatching(/^[A-Z].*\.$/) } });
    // Each field's own message, in a sentence, for the console's form (the combined message stays for the CLI).
    const short = await saveHttpBackend(db, owner, { kbId, endpointUrl: example.url, infraKey: 'short', signingSecret: 'short' });
    expect(short).toMatchObject({ ok: false, code: 'invalid_request', message: expect.stringContaining('infraKey: ') });
    expect(short.ok === false && 'fieldErrors' in short ? short.fieldErrors : null).toEqual({
      infraKey: expect.stringMatching(/^The infrastructure key must be at least 16 characters\.?$/),
      signingSecret: expect.stringMatching(/^The signing secret must be at least 32 characters\.?$/),
    });
    expect(await saveHttpBackend(db, stranger, { kbId, endpointUrl: example.url, infraKey: 'k'.repeat(20), signingSecret: 's'.repeat(40) })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await tryKnowledgeBase(db, stranger, kbId, 'hello')).toMatchObject({ ok: false, code: 'not_found' });
    expect(await getBackendSettings(db, stranger, kbId)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('try it on a hosted draft answers through the engine and counts nowhere', async () => {
    const kbId = await newKb();
    const ingested = await ingestDocument(db, kbId, {
      sourceName: 'lights.md',
      bytes: new TextEncoder().encode('# Lights\n\nA red light marks the port side of the channel when entering harbour.'),
    });
    expect(ingested.ok).toBe(true);
    const result = await tryKnowledgeBase(db, owner, kbId, 'Which light marks the port side?');
    expect(result).toMatchObject({ ok: true, answer: { citations: [expect.objectContaining({ title: 'Lights' })] } });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const counted = await db.execute(
      sql`select (select count(*)::int from query_log where kb_id = ${kbId}) + (select count(*)::int from kb_stats_daily where kb_id = ${kbId}) as n`,
    );
    expect(counted.rows[0]).toEqual({ n: 0 });
  });

  it('switches back to the uploaded documents: the endpoint and secrets are forgotten, the documents answer again, strangers get not_found', async () => {
    const kbId = await newKb();
    await ingestDocument(db, kbId, {
      sourceName: 'buoys.md',
      bytes: new TextEncoder().encode('# Buoys\n\nA yellow buoy marks a special area such as a mooring field or a cable.'),
    });
    await saveHttpBackend(db, owner, { kbId, endpointUrl: example.url, infraKey: example.infraKey, signingSecret: example.signingSecret });
    expect(await switchToHostedBackend(db, stranger, kbId)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await getBackendSettings(db, owner, kbId)).toMatchObject({ ok: true, settings: { kind: 'http' } });

    expect(await switchToHostedBackend(db, owner, kbId)).toEqual({ ok: true });
    expect(await switchToHostedBackend(db, owner, kbId)).toEqual({ ok: true });
    const [row] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    expect(row).toMatchObject({ backendKind: 'hosted', endpointUrl: null, infraKeyEncrypted: null, signingSecretEncrypted: null });
    const result = await tryKnowledgeBase(db, owner, kbId, 'What does a yellow buoy mark?');
    expect(result).toMatchObject({ ok: true, answer: { citations: [expect.objectContaining({ title: 'Buoys' })] } });
  });

  it('meters test questions per account: over the limit, a refusal that names it and when to try again', async () => {
    process.env.CONSOLE_QUERIES_PER_MINUTE = '3';
    resetEnvForTesting();
    try {
      const listingsOf = async (count: number) => {
        const user = await createUser(db);
        const pub = newId('pub');
        await db.insert(publishers).values({ id: pub, slug: `m-${user.slice(-6).toLowerCase()}`, name: 'Metered Press', ownerUserId: user });
        const ids = Array.from({ length: count }, () => newId('kb'));
        for (const kbId of ids) {
          await db.insert(knowledgeBases).values({
            id: kbId,
            publisherId: pub,
            slug: `kb-${kbId.slice(-8).toLowerCase()}`,
            title: 'Metered',
            summary: 's',
            category: 'education',
            status: 'draft',
          });
        }
        return { user, kbIds: ids };
      };
      const { user: busy, kbIds } = await listingsOf(2);
      // Three across two listings: the limit is the account's, not a listing's.
      for (const kbId of [kbIds[0]!, kbIds[1]!, kbIds[0]!]) expect(await tryKnowledgeBase(db, busy, kbId, 'tides')).toHaveProperty('requestId');
      const refused = await tryKnowledgeBase(db, busy, kbIds[1]!, 'tides');
      expect(refused).toEqual({
        ok: false,
        code: 'rate_limit_exceeded',
        message: expect.stringMatching(/^The console allows 3 test questions a minute per account, across all your listings\. Try again in \d+ s\.$/),
        retryAfterSeconds: expect.any(Number),
      });
      // Another account is not held up by this one.
      const calm = await listingsOf(1);
      expect(await tryKnowledgeBase(db, calm.user, calm.kbIds[0]!, 'tides')).toHaveProperty('requestId');
    } finally {
      delete process.env.CONSOLE_QUERIES_PER_MINUTE;
      resetEnvForTesting();
    }
  });
});

import { GATEWAY_TEST_SECRET } from '../support/gateway-env';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertWebhooks, knowledgeBases } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { decryptSecret, deriveEncryptionKey, encryptSecret } from '@/lib/platform/crypto';
import { rotateStoredSecrets } from '@/lib/routing';
import { createTestDatabase } from '../support/db';
import { buyKey, createHttpKnowledgeBase, createPublisher } from '../support/gateway-fixtures';

/** `almanac rotate-secret`: stored publisher secrets move from the previous server secret's key to the new one's. */
const NEXT_SECRET = 'the-next-almanac-secret-for-rotation-tests-0123456789';
const previousKey = deriveEncryptionKey(GATEWAY_TEST_SECRET);
const nextKey = deriveEncryptionKey(NEXT_SECRET);
let handle: DatabaseHandle;
let kbId: string;
let subscriptionId: string;

const stored = async () => {
  const [kb] = await handle.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
  const [hook] = await handle.db.select().from(alertWebhooks).where(eq(alertWebhooks.subscriptionId, subscriptionId));
  return [kb!.infraKeyEncrypted!, kb!.signingSecretEncrypted!, hook!.secretCiphertext];
};

beforeAll(async () => {
  handle = await createTestDatabase();
  const pub = await createPublisher(handle.db);
  kbId = await createHttpKnowledgeBase(handle.db, pub, {
    endpointUrl: 'http://127.0.0.1:9/answer',
    infraKey: 'infra-key-to-rotate',
    signingSecret: 'signing-secret-to-rotate-0123456789abcdef',
  });
  ({ subscriptionId } = await buyKey(handle.db, kbId));
  await handle.db
    .insert(alertWebhooks)
    .values({ subscriptionId, url: 'https://hooks.example.test/almanac', secretCiphertext: encryptSecret('webhook-secret-to-rotate', previousKey) });
});

describe('rotateStoredSecrets', () => {
  it('changes nothing when a stored secret opens with neither key', async () => {
    const [other] = await handle.db.select({ id: knowledgeBases.publisherId }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const strayKb = await createHttpKnowledgeBase(handle.db, other!.id, {
      endpointUrl: 'http://127.0.0.1:9/other',
      infraKey: 'infra-key-of-a-stray-kb',
      signingSecret: 'signing-secret-of-a-stray-kb-0123456789',
    });
    await handle.db
      .update(knowledgeBases)
      .set({ infraKeyEncrypted: encryptSecret('x', deriveEncryptionKey('a-third-secret-nobody-has-0123456789')) })
      .where(eq(knowledgeBases.id, strayKb));
    const before = await stored();
    await expect(rotateStoredSecrets(handle.db, GATEWAY_TEST_SECRET, NEXT_SECRET)).rejects.toThrow(`The backend secrets of ${strayKb} opens with neither`);
    expect(await stored()).toEqual(before);
    await handle.db.delete(knowledgeBases).where(eq(knowledgeBases.id, strayKb));
  });

  it('re-encrypts backend and webhook secrets under the new key, and a second run changes nothing', async () => {
    expect(await rotateStoredSecrets(handle.db, GATEWAY_TEST_SECRET, NEXT_SECRET)).toEqual({ reencrypted: 3, alreadyCurrent: 0 });
    const rotated = await stored();
    expect(rotated.map((c) => decryptSecret(c, nextKey))).toEqual([
      'infra-key-to-rotate',
      'signing-secret-to-rotate-0123456789abcdef',
      'webhook-secret-to-rotate',
    ]);
    for (const ciphertext of rotated) expect(() => decryptSecret(ciphertext, previousKey)).toThrow();
    expect(await rotateStoredSecrets(handle.db, GATEWAY_TEST_SECRET, NEXT_SECRET)).toEqual({ reencrypted: 0, alreadyCurrent: 3 });
    expect(await stored()).toEqual(rotated);
  });
});

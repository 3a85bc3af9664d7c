import { eq, isNotNull, or } from 'drizzle-orm';
import { alertWebhooks, knowledgeBases } from '@/db/schema';
import { decryptSecret, deriveEncryptionKey, encryptSecret } from '@/lib/platform/crypto';
import type { Executor } from '@/lib/platform/db';
import { inTransaction } from '@/lib/platform/transactions';

export interface SecretRotation {
  /** Ciphertexts moved from the previous secret's key to the current one. */
  reencrypted: number;
  /** Ciphertexts already under the current key (a second run changes nothing). */
  alreadyCurrent: number;
}

/**
 * Re-encrypts every stored publisher secret from `previousSecret`'s key to `currentSecret`'s in one transaction (README,
 * "Rotate ALMANAC_SECRET"). A ciphertext neither key opens stops the whole rotation: it would be lost otherwise.
 */
export async function rotateStoredSecrets(db: Executor, previousSecret: string, currentSecret: string): Promise<SecretRotation> {
  const previous = deriveEncryptionKey(previousSecret);
  const current = deriveEncryptionKey(currentSecret);
  const counts: SecretRotation = { reencrypted: 0, alreadyCurrent: 0 };
  const move = (ciphertext: string | null, where: string): string | null => {
    if (ciphertext === null) return null;
    try {
      decryptSecret(ciphertext, current);
      counts.alreadyCurrent++;
      return ciphertext;
    } catch {
      /* not under the current key: it must be under the previous one */
    }
    let plaintext: string;
    try {
      plaintext = decryptSecret(ciphertext, previous);
    } catch {
      throw new Error(`${where} opens with neither the previous nor the current secret; nothing was changed.`);
    }
    counts.reencrypted++;
    return encryptSecret(plaintext, current);
  };
  await inTransaction(db, async (tx) => {
    const backends = await tx
      .select({ id: knowledgeBases.id, infraKey: knowledgeBases.infraKeyEncrypted, signingSecret: knowledgeBases.signingSecretEncrypted })
      .from(knowledgeBases)
      .where(or(isNotNull(knowledgeBases.infraKeyEncrypted), isNotNull(knowledgeBases.signingSecretEncrypted)))
      .for('update');
    for (const kb of backends) {
      const values = {
        infraKeyEncrypted: move(kb.infraKey, `The backend secrets of ${kb.id}`),
        signingSecretEncrypted: move(kb.signingSecret, `The backend secrets of ${kb.id}`),
      };
      await tx.update(knowledgeBases).set(values).where(eq(knowledgeBases.id, kb.id));
    }
    const hooks = await tx.select({ subscriptionId: alertWebhooks.subscriptionId, secret: alertWebhooks.secretCiphertext }).from(alertWebhooks).for('update');
    for (const hook of hooks) {
      const secretCiphertext = move(hook.secret, `The alert webhook of ${hook.subscriptionId}`)!;
      await tx.update(alertWebhooks).set({ secretCiphertext }).where(eq(alertWebhooks.subscriptionId, hook.subscriptionId));
    }
  });
  return counts;
}

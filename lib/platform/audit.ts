import { auditLog } from '@/db/schema';
import type { Executor } from '@/db/client';
import { newId } from './ids';

export type AuditActorKind = 'cli' | 'web' | 'stripe' | 'system';

export interface AuditEntry {
  actorUserId?: string | null;
  actorKind: AuditActorKind;
  /** Dotted verb, e.g. `subscription.purchase`, `key.revoke`. */
  action: string;
  targetType: string;
  targetId: string;
  /** Never secrets or whole keys: ids, plan names, display prefixes. */
  metadata?: Record<string, unknown>;
}

/** Append-only; pass the transaction of the change it records so both commit or neither does. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<string> {
  const id = newId('aud');
  await db.insert(auditLog).values({
    id,
    actorUserId: entry.actorUserId ?? null,
    actorKind: entry.actorKind,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    metadata: entry.metadata ?? {},
  });
  return id;
}

import { and, eq, ne, or } from 'drizzle-orm';
import { publishers, type Publisher } from '@/db/schema';
import { recordAudit } from '@/lib/platform/audit';
import type { Executor } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { inTransaction } from '@/lib/platform/transactions';
import { findPublisherForUser } from './ownership';
import { fieldErrors, publisherProfileSchema } from './rules';

/**
 * Publisher profiles (docs/api.md §9.1): any signed-in account creates one, and edits it on /publish/profile. The bio
 * is the public page's description; the contact email is for the operator only and never shown publicly.
 */

export type FormRefusal = { ok: false; code: 'invalid_input'; fieldErrors: Record<string, string> };
export type ProfileResult = { ok: true; publisher: Publisher } | FormRefusal | { ok: false; code: 'conflict' | 'not_found'; message: string };

const SLUG_TAKEN: FormRefusal = { ok: false, code: 'invalid_input', fieldErrors: { slug: 'Another publisher uses this address; choose another.' } };

export interface PublisherProfileView {
  id: string;
  name: string;
  slug: string;
  websiteUrl: string | null;
  bio: string;
  contactEmail: string;
  suspended: boolean;
  suspensionReason: string | null;
}

export function toProfileView(row: Publisher): PublisherProfileView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    websiteUrl: row.websiteUrl,
    bio: row.description,
    contactEmail: row.contactEmail ?? '',
    suspended: row.suspendedAt !== null,
    suspensionReason: row.suspensionReason,
  };
}

export async function createPublisherProfile(db: Executor, userId: string, input: Record<string, unknown>): Promise<ProfileResult> {
  const parsed = publisherProfileSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: 'invalid_input', fieldErrors: fieldErrors(parsed.error) };
  const value = parsed.data;
  return inTransaction(db, async (tx) => {
    if (await findPublisherForUser(tx, userId)) return { ok: false, code: 'conflict', message: 'This account already has a publisher profile.' };
    const [taken] = await tx.select({ id: publishers.id }).from(publishers).where(eq(publishers.slug, value.slug));
    if (taken) return SLUG_TAKEN;
    const id = newId('pub');
    // The two unique indexes (slug; owner) settle a race between two first submissions: the loser inserts nothing.
    const [row] = await tx
      .insert(publishers)
      .values({
        id,
        ownerUserId: userId,
        name: value.name,
        slug: value.slug,
        websiteUrl: value.websiteUrl,
        description: value.bio,
        contactEmail: value.contactEmail,
      })
      .onConflictDoNothing()
      .returning();
    if (!row)
      return (await findPublisherForUser(tx, userId)) ? { ok: false, code: 'conflict', message: 'This account already has a publisher profile.' } : SLUG_TAKEN;
    await recordAudit(tx, {
      actorUserId: userId,
      actorKind: 'web',
      action: 'publisher.create',
      targetType: 'publisher',
      targetId: id,
      metadata: { slug: value.slug },
    });
    return { ok: true, publisher: row };
  });
}

export async function updatePublisherProfile(db: Executor, userId: string, input: Record<string, unknown>): Promise<ProfileResult> {
  const parsed = publisherProfileSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: 'invalid_input', fieldErrors: fieldErrors(parsed.error) };
  const value = parsed.data;
  return inTransaction(db, async (tx) => {
    const current = await findPublisherForUser(tx, userId);
    if (!current) return { ok: false, code: 'not_found', message: 'This account has no publisher profile yet.' };
    const [taken] = await tx
      .select({ id: publishers.id })
      .from(publishers)
      .where(and(eq(publishers.slug, value.slug), ne(publishers.id, current.id)));
    if (taken) return SLUG_TAKEN;
    const [updated] = await tx
      .update(publishers)
      .set({
        name: value.name,
        slug: value.slug,
        websiteUrl: value.websiteUrl,
        description: value.bio,
        contactEmail: value.contactEmail,
        updatedAt: new Date(),
      })
      .where(eq(publishers.id, current.id))
      .returning();
    await recordAudit(tx, {
      actorUserId: userId,
      actorKind: 'web',
      action: 'publisher.update',
      targetType: 'publisher',
      targetId: current.id,
      metadata: { slug: value.slug },
    });
    return { ok: true, publisher: updated! };
  });
}

export async function findPublisherByRef(db: Executor, ref: string): Promise<Publisher | null> {
  const value = ref.trim();
  if (!value || value.length > 64 || /[\u0000-\u001f\u007f]/.test(value)) return null;
  const [row] = await db
    .select()
    .from(publishers)
    .where(or(eq(publishers.id, value), eq(publishers.slug, value.toLowerCase())))
    .limit(1);
  return row ?? null;
}

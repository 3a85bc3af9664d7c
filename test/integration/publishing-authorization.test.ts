import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, knowledgeBases, plans, publishers } from '@/db/schema';
import type { Database } from '@/db/client';
import {
  createListing,
  createPlan,
  createPublisherProfile,
  deletePlan,
  editPlan,
  publishListing,
  requireOwnedKnowledgeBase,
  requireOwnedPlan,
  retirePlan,
  unpublishListing,
  updateListing,
  updatePublisherProfile,
  type Actor,
} from '@/lib/publishing';
import { deleteDocumentForOwner, listDocumentsForOwner, requestReindex, uploadDocument } from '@/lib/engine';
import { getKnowledgeBaseAnalytics } from '@/lib/publishing';
import { getBackendSettings, saveHttpBackend, switchToHostedBackend, tryKnowledgeBase } from '@/lib/routing';
import { createTestDatabase } from '../support/db';
import { createUser } from './subscriptions-fixtures';

/**
 * The console's authorization suite: every console action and page loader, called as a signed-in account
 * that does not own the publisher or the listing, is refused as `not_found` (never "forbidden": a stranger learns
 * nothing about what exists) and changes nothing. Each row is one action; add a row for every new console action
 * (content, analytics, earnings…). `run` gets the stranger's user id and the victim's ids.
 */

export interface Victim {
  userId: string;
  publisherId: string;
  kbId: string;
  draftKbId: string;
  planId: string;
}

type Outcome = { ok: boolean; code?: string } | null;

export const CONSOLE_ACTIONS: { name: string; run: (db: Database, strangerId: string, victim: Victim) => Promise<Outcome> }[] = [
  // Page loaders (every /publish/listings/[kbId]/… page starts with one of these).
  { name: 'page: a listing (requireOwnedKnowledgeBase)', run: (db, s, v) => requireOwnedKnowledgeBase(db, s, v.kbId) },
  { name: 'page: a plan (requireOwnedPlan)', run: (db, s, v) => requireOwnedPlan(db, s, v.planId) },
  // Listing actions.
  { name: 'update listing', run: (db, s, v) => updateListing(db, stranger(s), v.kbId, LISTING) },
  { name: 'publish listing', run: (db, s, v) => publishListing(db, stranger(s), v.draftKbId) },
  { name: 'unpublish listing', run: (db, s, v) => unpublishListing(db, stranger(s), v.kbId) },
  // Plan actions.
  { name: 'create plan', run: (db, s, v) => createPlan(db, stranger(s), v.kbId, PLAN, null) },
  { name: 'edit plan', run: (db, s, v) => editPlan(db, stranger(s), v.planId, { ...PLAN, price: '1' }, null) },
  { name: 'retire plan', run: (db, s, v) => retirePlan(db, stranger(s), v.planId) },
  { name: 'delete plan', run: (db, s, v) => deletePlan(db, stranger(s), v.planId) },
  // Content (hosted documents), backend and try it, analytics.
  { name: 'list documents', run: (db, s, v) => listDocumentsForOwner(db, s, v.kbId) },
  { name: 'upload a document', run: (db, s, v) => uploadDocument(db, s, v.kbId, { name: 'x.md', bytes: new TextEncoder().encode('# X\n\nInjected.') }) },
  { name: 'delete a document', run: (db, s, v) => deleteDocumentForOwner(db, s, v.kbId, 'doc_0000000000000000') },
  { name: 'reindex', run: (db, s, v) => requestReindex(db, s, v.kbId) },
  { name: 'page: backend settings', run: (db, s, v) => getBackendSettings(db, s, v.draftKbId) },
  {
    name: 'save the http backend',
    run: (db, s, v) =>
      saveHttpBackend(db, s, { kbId: v.draftKbId, endpointUrl: 'https://example.com/q', infraKey: 'k'.repeat(20), signingSecret: 's'.repeat(40) }),
  },
  { name: 'switch back to uploaded documents', run: (db, s, v) => switchToHostedBackend(db, s, v.draftKbId) },
  { name: 'try it / send a test query', run: (db, s, v) => tryKnowledgeBase(db, s, v.kbId, 'What is inside?') },
  { name: 'page and CSV: listing analytics', run: (db, s, v) => getKnowledgeBaseAnalytics(db, s, v.kbId) },
];

const stranger = (userId: string): Actor => ({ kind: 'publisher', userId });

const LISTING = {
  title: 'Hijacked title',
  summary: 'A summary written by someone else.',
  description: '',
  category: 'legal',
  tags: 'x',
  language: 'en',
  licence: 'CC0 1.0',
  sampleQuestions: '',
};
const PLAN = { name: 'Stolen', price: '0', currency: 'usd', queriesPerPeriod: '10', requestsPerMinute: '60' };

let db: Database;
let victim: Victim;
const strangers: { label: string; id: string }[] = [];

async function snapshot() {
  return {
    publisher: await db.select().from(publishers).where(eq(publishers.id, victim.publisherId)),
    kbs: await db.select().from(knowledgeBases).where(eq(knowledgeBases.publisherId, victim.publisherId)),
    plans: await db.select().from(plans).where(eq(plans.kbId, victim.kbId)),
    documents: await db.select().from(documents).where(eq(documents.kbId, victim.kbId)),
    jobs: (await db.execute(sql`select id, name, state from pgboss.job order by id`)).rows,
  };
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  const userId = await createUser(db);
  const profile = await createPublisherProfile(db, userId, {
    name: 'Victim Press',
    slug: `victim-${userId.slice(-6).toLowerCase()}`,
    websiteUrl: '',
    bio: '',
    contactEmail: 'v@victim.example',
  });
  if (!profile.ok) throw new Error('profile');
  const owner: Actor = { kind: 'publisher', userId };
  const kb = await createListing(db, owner, { ...LISTING, title: 'Victim listing', backendKind: 'hosted' });
  const draft = await createListing(db, owner, { ...LISTING, title: 'Victim draft', backendKind: 'http' });
  if (!kb.ok || !draft.ok) throw new Error('listing');
  const plan = await createPlan(db, owner, kb.kb.id, { ...PLAN, name: 'Starter', price: '9' }, null);
  await createPlan(db, owner, draft.kb.id, { ...PLAN, name: 'Starter', price: '9' }, null);
  if (!plan.ok) throw new Error('plan');
  await publishListing(db, owner, kb.kb.id);
  victim = { userId, publisherId: profile.publisher.id, kbId: kb.kb.id, draftKbId: draft.kb.id, planId: plan.plan.id };

  strangers.push({ label: 'an account without a publisher profile', id: await createUser(db) });
  const other = await createUser(db);
  await createPublisherProfile(db, other, {
    name: 'Other Press',
    slug: `other-${other.slice(-6).toLowerCase()}`,
    websiteUrl: '',
    bio: '',
    contactEmail: 'o@other.example',
  });
  strangers.push({ label: 'another publisher', id: other });
});

describe.each(['an account without a publisher profile', 'another publisher'])('as %s', (label) => {
  it.each(CONSOLE_ACTIONS.map((a) => [a.name, a] as const))('%s is not_found and changes nothing', async (_name, action) => {
    const strangerId = strangers.find((s) => s.label === label)!.id;
    const before = await snapshot();
    const outcome = await action.run(db, strangerId, victim);
    expect(outcome === null || outcome.ok === false).toBe(true);
    if (outcome !== null) expect(outcome.code).toBe('not_found');
    expect(await snapshot()).toEqual(before);
  });
});

describe('the owner', () => {
  it('passes the same guards (the suite would pass vacuously if they refused everyone)', async () => {
    expect(await requireOwnedKnowledgeBase(db, victim.userId, victim.kbId)).toMatchObject({ ok: true });
    expect(await requireOwnedPlan(db, victim.userId, victim.planId)).toMatchObject({ ok: true });
  });

  it('cannot create a listing under, or edit the profile of, a publisher that is not theirs: both act on the session account only', async () => {
    const strangerId = strangers[0]!.id;
    expect(await createListing(db, stranger(strangerId), { ...LISTING, backendKind: 'hosted', publisherId: victim.publisherId })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(
      await updatePublisherProfile(db, strangerId, { name: 'Hijack', slug: 'hijack', websiteUrl: '', bio: '', contactEmail: 'h@h.example' }),
    ).toMatchObject({ ok: false, code: 'not_found' });
    expect((await db.select().from(publishers).where(eq(publishers.id, victim.publisherId)))[0]!.name).toBe('Victim Press');
  });
});

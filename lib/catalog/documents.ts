import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { documents, knowledgeBases } from '@/db/schema';
import { getDb } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';

/** What a buyer may see of a published knowledge base's documents: no file names, hashes or bytes. */
export interface PublicDocumentView {
  title: string;
  type: string;
  pages: number | null;
  updatedAt: string;
}

const TYPE_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'text/markdown': 'Markdown',
  'text/html': 'HTML',
  'text/plain': 'Text',
};

function documentTypeName(mimeType: string): string {
  return TYPE_NAMES[mimeType.split(';')[0]!.trim().toLowerCase()] ?? 'Document';
}

/** The ready documents of a published knowledge base, by title (empty for an http backend or an unknown id). */
export async function listPublicDocuments(kbId: string, db?: Executor): Promise<PublicDocumentView[]> {
  if (!isCleanId(kbId)) return [];
  const executor = db ?? (await getDb());
  const rows = await executor
    .select({ title: documents.title, mimeType: documents.mimeType, pageCount: documents.pageCount, updatedAt: documents.updatedAt })
    .from(documents)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, documents.kbId))
    .where(and(eq(documents.kbId, kbId), eq(documents.status, 'ready'), eq(knowledgeBases.status, 'published'), eq(knowledgeBases.backendKind, 'hosted')))
    .orderBy(asc(documents.title), asc(documents.id));
  return rows.map((r) => ({ title: r.title, type: documentTypeName(r.mimeType), pages: r.pageCount, updatedAt: r.updatedAt.toISOString() }));
}

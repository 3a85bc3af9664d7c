import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LegalPage } from '@/components/site/legal-page';
import { LEGAL_DOCUMENTS, readLegalDocument } from '@/lib/platform/legal';

export const metadata: Metadata = { title: LEGAL_DOCUMENTS.refunds };
export const dynamic = 'force-dynamic';

/** The operator's refunds text (LEGAL_DIR/refunds.md). */
export default async function RefundsPage() {
  const document = await readLegalDocument('refunds');
  if (!document) notFound();
  return <LegalPage document={document} />;
}

import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LegalPage } from '@/components/site/legal-page';
import { LEGAL_DOCUMENTS, readLegalDocument } from '@/lib/platform/legal';

export const metadata: Metadata = { title: LEGAL_DOCUMENTS.terms };
export const dynamic = 'force-dynamic';

/** The operator's terms text (LEGAL_DIR/terms.md). */
export default async function TermsPage() {
  const document = await readLegalDocument('terms');
  if (!document) notFound();
  return <LegalPage document={document} />;
}

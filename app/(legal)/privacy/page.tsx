import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LegalPage } from '@/components/site/legal-page';
import { LEGAL_DOCUMENTS, readLegalDocument } from '@/lib/platform/legal';

export const metadata: Metadata = { title: LEGAL_DOCUMENTS.privacy };
export const dynamic = 'force-dynamic';

/** The operator's privacy text (LEGAL_DIR/privacy.md). */
export default async function PrivacyPage() {
  const document = await readLegalDocument('privacy');
  if (!document) notFound();
  return <LegalPage document={document} />;
}

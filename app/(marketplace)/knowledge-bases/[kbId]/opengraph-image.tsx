import { ImageResponse } from 'next/og';
import { categoryLabel, languageName } from '@/components/marketplace/format';
import { SocialImageFrame } from '@/components/marketplace/social-image';
import { getKnowledgeBaseView } from '@/lib/catalog';
import { formatPrice, plural } from '@/lib/platform/format';

// A knowledge base's Open Graph image, drawn with ImageResponse's bundled font: nothing fetched from elsewhere.
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';
export const alt = 'Almanac knowledge base';

export default async function OpenGraphImage({ params }: { params: Promise<{ kbId: string }> }) {
  const kb = await getKnowledgeBaseView(decodeURIComponent((await params).kbId));
  const paid = kb?.plans.filter((p) => p.priceCents > 0).sort((a, b) => a.priceCents - b.priceCents)[0];
  const free = kb?.plans.some((p) => p.priceCents === 0);
  const price = [free ? 'Free plan' : null, paid ? `from ${formatPrice(paid.priceCents, paid.currency)}/month` : null].filter(Boolean).join(' · ');
  const facts = kb ? [price, languageName(kb.language), plural(kb.documentsCount, 'document'), 'answers with citations'].filter(Boolean).join(' · ') : '';
  return new ImageResponse(
    <SocialImageFrame facts={facts}>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 18 }}>
        <div style={{ display: 'flex', fontSize: 28, color: '#1f57c9' }}>{kb ? categoryLabel(kb.category) : 'Knowledge base'}</div>
        <div style={{ display: 'flex', fontSize: 64, fontWeight: 700, lineHeight: 1.1 }}>{kb?.title ?? 'Knowledge base not found'}</div>
        {kb ? <div style={{ display: 'flex', fontSize: 32, color: '#334155' }}>by {kb.publisherRef.name}</div> : null}
      </div>
    </SocialImageFrame>,
    size,
  );
}

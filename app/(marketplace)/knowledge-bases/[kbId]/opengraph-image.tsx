import { ImageResponse } from 'next/og';
import { categoryLabel, languageName } from '@/components/marketplace/format';
import { getKnowledgeBaseView } from '@/lib/catalog';
import { formatPrice, plural } from '@/lib/platform/format';

/**
 * The social preview (Open Graph) image of a knowledge base: title, publisher, what it sells, drawn on the server by
 * Next's ImageResponse with its bundled font (nothing fetched from elsewhere). Next adds the og:image tags itself.
 */
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';
export const alt = 'Almanac knowledge base';

export default async function OpenGraphImage({ params }: { params: Promise<{ kbId: string }> }) {
  const kb = await getKnowledgeBaseView(decodeURIComponent((await params).kbId));
  const paid = kb?.plans.filter((p) => p.priceCents > 0).sort((a, b) => a.priceCents - b.priceCents)[0];
  const free = kb?.plans.some((p) => p.priceCents === 0);
  const price = [free ? 'Free plan' : null, paid ? `from ${formatPrice(paid.priceCents, paid.currency)}/month` : null].filter(Boolean).join(' · ');
  return new ImageResponse(
    (
      <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'space-between', padding: 72, background: '#f8fafc', color: '#0f172a' }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 34, fontWeight: 700 }}>
          <div style={{ display: 'flex', width: 64, height: 64, borderRadius: 14, background: '#1f57c9', color: 'white', alignItems: 'center', justifyContent: 'center' }}>A</div>
          Almanac
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 18 }}>
          <div style={{ display: 'flex', fontSize: 28, color: '#1f57c9' }}>{kb ? categoryLabel(kb.category) : 'Knowledge base'}</div>
          <div style={{ display: 'flex', fontSize: 64, fontWeight: 700, lineHeight: 1.1 }}>{kb?.title ?? 'Knowledge base not found'}</div>
          {kb ? <div style={{ display: 'flex', fontSize: 32, color: '#334155' }}>by {kb.publisherRef.name}</div> : null}
        </div>
        {kb ? (
          <div style={{ display: 'flex', fontSize: 30, color: '#334155' }}>
            {[price, languageName(kb.language), plural(kb.documentsCount, 'document'), 'answers with citations'].filter(Boolean).join(' · ')}
          </div>
        ) : (
          <div style={{ display: 'flex' }} />
        )}
      </div>
    ),
    size,
  );
}

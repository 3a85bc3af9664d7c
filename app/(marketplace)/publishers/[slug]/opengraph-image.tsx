import { ImageResponse } from 'next/og';
import { publisherColourHex, publisherInitials } from '@/components/marketplace/publisher-mark';
import { SocialImageFrame } from '@/components/marketplace/social-image';
import { getPublisher } from '@/lib/catalog';
import { plural } from '@/lib/platform/format';

// A publisher page's Open Graph image, drawn with ImageResponse's bundled font: nothing fetched from elsewhere.
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';
export const alt = 'Almanac publisher';

/** Short enough for two lines of the image. */
function tagline(description: string): string {
  const first = description.split(/(?<=[.!?])\s+/)[0]?.trim() ?? '';
  return first.length > 140 ? `${first.slice(0, 139).trimEnd()}…` : first;
}

export default async function OpenGraphImage({ params }: { params: Promise<{ slug: string }> }) {
  const publisher = await getPublisher(decodeURIComponent((await params).slug));
  const facts = publisher
    ? [plural(publisher.knowledgeBasesCount, 'published knowledge base'), tagline(publisher.description)].filter(Boolean).join(' · ')
    : '';
  return new ImageResponse(
    <SocialImageFrame facts={facts}>
      {publisher ? (
        <div style={{ display: 'flex', alignItems: 'center', gap: 40 }}>
          <div
            style={{
              display: 'flex',
              flexShrink: 0,
              width: 160,
              height: 160,
              borderRadius: 80,
              background: publisherColourHex(publisher.slug),
              color: 'white',
              alignItems: 'center',
              justifyContent: 'center',
              fontSize: 64,
              fontWeight: 700,
            }}
          >
            {publisherInitials(publisher.name)}
          </div>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 14 }}>
            <div style={{ display: 'flex', fontSize: 28, color: '#1f57c9' }}>Publisher</div>
            <div style={{ display: 'flex', fontSize: 60, fontWeight: 700, lineHeight: 1.1 }}>{publisher.name}</div>
          </div>
        </div>
      ) : (
        <div style={{ display: 'flex', fontSize: 60, fontWeight: 700 }}>Publisher not found</div>
      )}
    </SocialImageFrame>,
    size,
  );
}

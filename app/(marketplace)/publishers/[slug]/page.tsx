import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { plural } from '@/lib/platform/format';
import { KnowledgeBaseGrid } from '@/components/marketplace/knowledge-base-card';
import { PublisherMark } from '@/components/marketplace/publisher-mark';
import { getPublisher, listPublisherKnowledgeBases } from '@/lib/catalog';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { Section } from '@/components/ui/section';

type Params = Promise<{ slug: string }>;

const loadPublisher = cache((slug: string) => getPublisher(slug));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const publisher = await loadPublisher(decodeURIComponent((await params).slug));
  if (!publisher) return { title: 'Publisher not found' };
  return { title: publisher.name, description: publisher.description.slice(0, 200) };
}

export default async function PublisherPage({ params }: { params: Params }) {
  const slug = decodeURIComponent((await params).slug);
  const [publisher, items] = await Promise.all([loadPublisher(slug), listPublisherKnowledgeBases(slug)]);
  if (!publisher) notFound();
  const paragraphs = publisher.description.split(/\n\s*\n/).filter((p) => p.trim());
  let website: string | null = null;
  try {
    // Only http(s) links are rendered: a stored javascript: URL must never become a link.
    if (publisher.websiteUrl && ['http:', 'https:'].includes(new URL(publisher.websiteUrl).protocol)) website = publisher.websiteUrl;
  } catch {
    website = null;
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <Breadcrumb items={[{ label: 'Knowledge bases', href: '/knowledge-bases' }, { label: publisher.name }]} />
      <header className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm [overflow-wrap:anywhere] sm:p-8">
        <div className="flex items-start gap-4">
          <PublisherMark name={publisher.name} slug={publisher.slug} size="lg" />
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-600">Publisher</p>
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{publisher.name}</h1>
            <p className="mt-1 text-sm text-slate-700">
              {plural(publisher.knowledgeBasesCount, 'published knowledge base')}
              {website ? (
                <>
                  {' · '}
                  <a href={website} rel="noopener noreferrer" className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {new URL(website).host}
                  </a>
                </>
              ) : null}
            </p>
          </div>
        </div>
        {paragraphs.length > 0 ? (
          <div className="mt-5 max-w-3xl space-y-3 leading-relaxed text-slate-800">
            {paragraphs.map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        ) : null}
      </header>

      <Section id="publisher-kbs" title={`Knowledge bases by ${publisher.name}`} className="mt-10">
        <div className="mt-5">
          {items.length > 0 ? (
            <KnowledgeBaseGrid items={items} />
          ) : (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-700">
              This publisher has nothing published yet.
            </p>
          )}
        </div>
      </Section>
    </div>
  );
}

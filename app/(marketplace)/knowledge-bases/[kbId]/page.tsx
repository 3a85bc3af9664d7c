import { MarkdownText } from '@/components/marketplace/markdown';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { TryItSection } from '@/components/try-it/try-it-section';
import { AgentSnippets } from '@/components/marketplace/agent-snippets';
import { CodeSnippets } from '@/components/marketplace/code-snippets';
import { catalogHref, EMPTY_CATALOG_STATE, withChange } from '@/components/marketplace/catalog-url';
import { categoryLabel, languageName } from '@/components/marketplace/format';
import { formatDate, formatInteger } from '@/lib/platform/format';
import { PlanCards } from '@/components/marketplace/plan-cards';
import { buildSnippets } from '@/components/marketplace/snippets';
import { SubscriptionStanding } from '@/components/marketplace/subscription-standing';
import { previewAction, tryItAction } from './actions';
import { getKnowledgeBaseView, listPublicDocuments, type PublicDocumentView } from '@/lib/catalog';
import { previewAllowance, previewsOffered } from '@/lib/gateway';
import { headers } from 'next/headers';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { getDb } from '@/lib/platform/db';
import { baseUrl } from '@/lib/platform/base-url';
import { getSessionUser } from '@/lib/accounts';
import { getSubscriberStanding, offerFor } from '@/lib/subscriptions';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { Section } from '@/components/ui/section';
import { marketplacePaths } from '@/lib/site/paths';

type Params = Promise<{ kbId: string }>;

// generateMetadata and the page ask for the same row; one query per request.
const loadKnowledgeBase = cache((id: string) => getKnowledgeBaseView(id));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const kb = await loadKnowledgeBase(decodeURIComponent((await params).kbId));
  if (!kb) return { title: 'Knowledge base not found' };
  return { title: kb.title, description: kb.summary };
}

async function loadViewer(kbId: string) {
  const user = await getSessionUser();
  if (!user) return { signedIn: false, standing: null };
  return { signedIn: true, standing: await getSubscriberStanding(await getDb(), user.id, kbId) };
}

async function loadPreview(kbId: string) {
  return (await previewsOffered(kbId)) ? previewAllowance(kbId, await headers()) : null;
}

const DOCUMENT_COLUMNS: DataColumn<PublicDocumentView>[] = [
  { header: 'Title', cell: (d) => d.title },
  { header: 'Type', cell: (d) => d.type },
  { header: 'Pages', cell: (d) => (d.pages === null ? '–' : formatInteger(d.pages)), numeric: true },
  { header: 'Updated', cell: (d) => <time dateTime={d.updatedAt}>{formatDate(d.updatedAt)}</time> },
];

export default async function KnowledgeBasePage({ params }: { params: Params }) {
  const id = decodeURIComponent((await params).kbId);
  const [kb, viewer, preview, documents] = await Promise.all([loadKnowledgeBase(id), loadViewer(id), loadPreview(id), listPublicDocuments(id)]);
  if (!kb) notFound();
  const { standing } = viewer;
  const planItems = kb.plans.map((plan) => ({ plan, offer: offerFor(plan, standing) }));
  const question = kb.sampleQuestions[0] ?? `What does ${kb.title} cover?`;
  const snippets = buildSnippets(baseUrl(), kb.id, question);

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <Breadcrumb
        items={[
          { label: 'Knowledge bases', href: '/knowledge-bases' },
          { label: categoryLabel(kb.category), href: catalogHref(withChange(EMPTY_CATALOG_STATE, { category: kb.category })) },
          { label: kb.title },
        ]}
      />

      <header className="mt-4 grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{kb.title}</h1>
          <p className="mt-2 text-slate-700">
            by{' '}
            <Link
              prefetch={false}
              href={marketplacePaths.publisher(kb.publisherRef.slug)}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              {kb.publisherRef.name}
            </Link>
          </p>
          <p className="mt-4 text-lg leading-relaxed text-slate-800">{kb.summary}</p>
          <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Tags">
            {kb.tags.map((tag) => (
              <li key={tag}>
                <Link
                  prefetch={false}
                  href={catalogHref(withChange(EMPTY_CATALOG_STATE, { tags: [tag] }))}
                  className="inline-block rounded-full border border-slate-300 bg-white px-2.5 py-0.5 text-xs font-medium text-slate-700 hover:border-slate-400"
                >
                  {tag}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 self-start rounded-xl border border-slate-200 bg-white p-5 text-sm shadow-sm">
          <Fact label="Category" value={categoryLabel(kb.category)} />
          <Fact label="Documents" value={formatInteger(kb.documentsCount)} />
          <Fact label="Language" value={languageName(kb.language)} />
          <Fact label="Subscribers" value={formatInteger(kb.subscribersCount)} />
          <Fact label="Queries answered" value={formatInteger(kb.queryVolume)} />
          <div className="col-span-2">
            <dt className="text-slate-600">Licence</dt>
            <dd className="font-medium text-slate-900">{kb.licence}</dd>
          </div>
          <div className="col-span-2">
            <dt className="text-slate-600">Last updated</dt>
            <dd className="font-medium text-slate-900">
              <time dateTime={kb.updatedAt}>{formatDate(kb.updatedAt)}</time>
            </dd>
          </div>
        </dl>
      </header>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <Section id="plans-heading" title="Plans">
          <p className="mt-1 text-sm text-slate-700">Billed monthly. Only answered queries count against your plan; cancel at any time.</p>
          {standing ? (
            <div className="mt-4">
              <SubscriptionStanding standing={standing} canUpgrade={planItems.some((item) => item.offer.kind === 'upgrade')} />
            </div>
          ) : null}
          <div className="mt-6">
            <PlanCards items={planItems} mostChosenPlanId={kb.mostChosenPlanId} />
          </div>
        </Section>
        <TryItSection
          kbId={kb.id}
          signedIn={viewer.signedIn}
          standing={standing}
          sampleQuestions={kb.sampleQuestions}
          preview={preview}
          actions={{ subscriber: tryItAction, preview: previewAction }}
          className="self-start rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        />
      </div>

      <Section id="about-heading" title="About this knowledge base" className="mt-12 max-w-3xl">
        {/* The publisher's Markdown, rendered without raw HTML (components/marketplace/markdown.tsx). */}
        <MarkdownText text={kb.description} className="mt-3 leading-relaxed text-slate-800" />
      </Section>

      {documents.length > 0 ? (
        <Section id="documents-heading" title={`Documents (${formatInteger(documents.length)})`} className="mt-12">
          <p className="mt-1 text-sm text-slate-700">What the answers are drawn from; every answer cites its document and page.</p>
          <DataTable
            caption="Documents of this knowledge base"
            columns={DOCUMENT_COLUMNS}
            rows={documents}
            rowKey={(d, i) => `${d.title}-${i}`}
            className="mt-4"
          />
        </Section>
      ) : null}

      <details className="group mt-12 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <summary className="cursor-pointer text-xl font-semibold text-slate-900">Use it from your code or an AI agent</summary>
        <Section id="api-heading" title="Query it from your code" size="lg" className="mt-6">
          <p className="mt-1 text-sm text-slate-700">
            Send <code className="rounded bg-slate-100 px-1 py-0.5 text-[13px]">POST /kb/{kb.id}/query</code> with{' '}
            {standing ? (
              <>
                your key for this knowledge base (
                <Link prefetch={false} href="/account/keys" className="font-medium text-brand-700 underline">
                  see your keys
                </Link>
                )
              </>
            ) : (
              'the key you receive after buying a plan'
            )}
            . Set it as <code className="rounded bg-slate-100 px-1 py-0.5 text-[13px]">ALMANAC_API_KEY</code>.
          </p>
          <div className="mt-5">
            <CodeSnippets snippets={snippets} />
          </div>
          <p className="mt-4 text-sm text-slate-700">
            Errors, headers, limits and every endpoint:{' '}
            <Link prefetch={false} href={marketplacePaths.docsFor(kb.id)} className="font-medium text-brand-700 underline">
              the API reference
            </Link>
            .
          </p>
        </Section>

        <Section id="agents-heading" title="Use it from an AI agent" size="lg" className="mt-10">
          <p className="mt-1 text-sm text-slate-700">The same key works with MCP clients and Dify, counted the same way.</p>
          <div className="mt-5">
            <AgentSnippets baseUrl={baseUrl()} kbId={kb.id} question={question} />
          </div>
        </Section>
      </details>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}

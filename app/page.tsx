import type { ReactNode } from 'react';
import Link from 'next/link';
import { CategoryIcon } from '@/components/marketplace/category-icon';
import { SearchForm } from '@/components/marketplace/catalog-controls';
import { catalogHref, EMPTY_CATALOG_STATE } from '@/components/marketplace/catalog-url';
import { categoryLabel } from '@/components/marketplace/format';
import { formatInteger, plural } from '@/lib/platform/format';
import { KnowledgeBaseGrid } from '@/components/marketplace/knowledge-base-card';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { Section } from '@/components/ui/section';
import { categoryCounts, getKnowledgeBaseView, listKnowledgeBaseCards } from '@/lib/catalog';
import type { Category } from '@/lib/catalog';
import { DEFAULT_LISTING_PARAMS } from '@/lib/catalog';
import { getEnv } from '@/lib/platform/env';
import { marketplacePaths } from '@/lib/site/paths';

const CATEGORY_BLURBS: Record<Category, string> = {
  education: 'Curricula, textbooks and study guides',
  policy: 'Briefings, regulation and public programmes',
  health: 'Clinical guidelines and public health',
  research: 'Methods, datasets and literature reviews',
  legal: 'Statutes, case law and compliance',
};

const STEPS = [
  { title: 'Find a source', body: 'Search and filter curated knowledge bases by topic, category, language and tags. Ask a few questions free on its page.' },
  { title: 'Pick a plan', body: 'Monthly plans with a clear query allowance, free tasters included. Your API key is shown right after purchase.' },
  { title: 'Query over HTTP', body: 'POST a question and get an answer with citations to the exact documents and pages. Answers that find nothing are free.' },
];

function Tick() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" focusable="false" className="mt-0.5 h-4 w-4 shrink-0 text-brand-600">
      <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" clipRule="evenodd" />
    </svg>
  );
}

function Audience({ id, eyebrow, title, points, children }: { id: string; eyebrow: string; title: string; points: string[]; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">
        {title}
      </h2>
      <ul className="mt-4 space-y-2 text-slate-700">
        {points.map((p) => (
          <li key={p} className="flex gap-2">
            <Tick />
            <span>{p}</span>
          </li>
        ))}
      </ul>
      <div className="mt-auto flex flex-wrap gap-3 pt-6">{children}</div>
    </section>
  );
}

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const signedOut = (await searchParams).signedOut === '1';
  const [popular, counts] = await Promise.all([listKnowledgeBaseCards({ ...DEFAULT_LISTING_PARAMS, pageSize: 6 }), categoryCounts()]);
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  const publisherShare = 100 - getEnv().PLATFORM_FEE_PERCENT;
  const example = popular.items[0];
  const question = example ? ((await getKnowledgeBaseView(example.id))?.sampleQuestions[0] ?? null) : null;

  return (
    <>
      {signedOut ? (
        <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
          <Alert tone="success">You are signed out.</Alert>
        </div>
      ) : null}
      <section aria-labelledby="hero-heading" className="border-b border-slate-200 bg-gradient-to-b from-brand-50 via-white to-slate-50">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
          <div className="min-w-0">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">The marketplace for citable knowledge</p>
            <h1 id="hero-heading" className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              Answers your product can cite, from sources you can trust.
            </h1>
            <p className="mt-4 max-w-2xl text-lg text-slate-700">
              Buy a plan for one of {plural(total, 'curated knowledge base')} in education, policy, health, research and law, and ask it questions with one HTTP
              call. Publishers sell what they know, and keep {publisherShare}% of every sale.
            </p>
            <div className="mt-7 max-w-2xl">
              <SearchForm state={EMPTY_CATALOG_STATE} size="lg" />
            </div>
            <div className="mt-5 flex flex-wrap items-center gap-3">
              <ButtonLink href="/knowledge-bases">Browse knowledge bases</ButtonLink>
              <ButtonLink href="/publish" variant="secondary">
                Publish your knowledge
              </ButtonLink>
            </div>
          </div>
          {example ? (
            <figure className="min-w-0 overflow-hidden rounded-2xl bg-slate-900 text-sm shadow-lg ring-1 ring-slate-900/10">
              <figcaption className="flex items-center justify-between gap-3 border-b border-white/10 px-4 py-2.5 text-xs text-slate-300">
                <span>One call, a cited answer</span>
                <Link prefetch={false} href={marketplacePaths.docsFor(example.id)} className="font-medium text-white underline underline-offset-2">
                  API reference
                </Link>
              </figcaption>
              <pre className="whitespace-pre-wrap px-4 py-4 leading-relaxed text-slate-100 [overflow-wrap:anywhere]">
                <code>
                  <span className="text-sky-300">POST</span> /kb/{example.id}/query{'\n'}
                  <span className="text-slate-400">Authorization: Bearer alm_sk_live_…</span>
                  {'\n\n'}
                  {`{ "query": ${JSON.stringify(question ?? '…')} }`}
                  {'\n\n'}
                  <span className="text-emerald-300">200 OK</span>
                  {'\n{\n  "answer": "…",\n  "citations": [\n    { "title": "…", "page": 3,\n      "excerpt": "…" }\n  ],\n  "tokens_used": 412\n}'}
                </code>
              </pre>
              <p className="border-t border-white/10 px-4 py-2.5 text-xs text-slate-300">
                Every excerpt is quoted from the cited document. Try it free on{' '}
                <Link prefetch={false} href={marketplacePaths.knowledgeBase(example.id)} className="font-medium text-white underline underline-offset-2">
                  {example.title}
                </Link>
                .
              </p>
            </figure>
          ) : null}
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mt-12 grid gap-6 md:grid-cols-2">
          <Audience
            id="buyers-heading"
            eyebrow="For buyers"
            title="Ground your product in real sources"
            points={[
              'Ask a few questions free on any knowledge base page before you buy.',
              'Monthly plans with a fixed number of queries; free taster plans.',
              'Citations to the exact document and page, in every answer.',
              'REST, streaming, MCP for AI agents, and Dify retrieval.',
            ]}
          >
            <ButtonLink href="/knowledge-bases">Find a knowledge base</ButtonLink>
            <ButtonLink href="/docs" variant="secondary">
              Read the API docs
            </ButtonLink>
          </Audience>
          <Audience
            id="publishers-heading"
            eyebrow="For publishers"
            title="Sell access to what you know"
            points={[
              'Upload documents for the built-in engine, or connect your own endpoint.',
              'Set your plans and prices; Almanac handles keys, limits and billing.',
              `You keep ${publisherShare}% of every payment.`,
              'See demand: answers, free previews and refusals, day by day and by month.',
            ]}
          >
            <ButtonLink href="/publish">Start publishing</ButtonLink>
          </Audience>
        </div>

        <Section id="categories-heading" title="Browse by category" className="mt-14">
          <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {counts.map(({ category, count }, i) => (
              // Five tiles in two columns: the last one takes the whole row rather than standing alone.
              <li key={category} className={i === counts.length - 1 && counts.length % 2 === 1 ? 'col-span-2 min-w-0 sm:col-span-1' : 'min-w-0'}>
                <Link
                  prefetch={false}
                  href={catalogHref({ ...EMPTY_CATALOG_STATE, category })}
                  className="group flex h-full flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-500 hover:shadow-md"
                >
                  <span className="grid h-10 w-10 place-items-center rounded-lg bg-brand-50 text-brand-700 transition group-hover:bg-brand-600 group-hover:text-white">
                    <CategoryIcon category={category} />
                  </span>
                  <span className="mt-3 font-semibold text-slate-900">{categoryLabel(category)}</span>
                  <span className="mt-1 hidden text-sm text-slate-600 sm:block">{CATEGORY_BLURBS[category]}</span>
                  <span className="mt-2 text-sm font-medium text-brand-700">{plural(count, 'knowledge base')}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Section>

        <Section
          id="popular-heading"
          title="Most popular"
          className="mt-14"
          action={
            <Link prefetch={false} href="/knowledge-bases" className="text-sm font-semibold text-brand-700 hover:underline">
              See all {formatInteger(total)} <span aria-hidden="true">→</span>
            </Link>
          }
        >
          <div className="mt-4">
            <KnowledgeBaseGrid items={popular.items} />
          </div>
        </Section>

        <Section id="how-heading" title="How it works" className="mt-14">
          <ol className="mt-4 grid gap-4 md:grid-cols-3">
            {STEPS.map((step, i) => (
              <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <span className="grid h-8 w-8 place-items-center rounded-full bg-brand-600 text-sm font-bold text-white" aria-hidden="true">
                  {i + 1}
                </span>
                <h3 className="mt-3 font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-1 text-sm text-slate-700">{step.body}</p>
              </li>
            ))}
          </ol>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink href="/signup">Create a free account</ButtonLink>
          </div>
        </Section>
      </div>
    </>
  );
}

import Link from 'next/link';
import { SearchForm } from '@/components/marketplace/catalog-controls';
import { catalogHref, EMPTY_CATALOG_STATE } from '@/components/marketplace/catalog-url';
import { categoryLabel } from '@/components/marketplace/format';
import { formatInteger } from '@/lib/platform/format';
import { KnowledgeBaseGrid } from '@/components/marketplace/knowledge-base-card';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { Section } from '@/components/ui/section';
import { categoryCounts, listKnowledgeBaseCards } from '@/lib/catalog';
import type { Category } from '@/lib/catalog';
import { DEFAULT_LISTING_PARAMS } from '@/lib/catalog';

const CATEGORY_BLURBS: Record<Category, string> = {
  education: 'Curricula, textbooks and study guides',
  policy: 'Briefings, regulation and public programmes',
  health: 'Clinical guidelines and public health',
  research: 'Methods, datasets and literature reviews',
  legal: 'Statutes, case law and compliance',
};

const STEPS = [
  { title: 'Find a source', body: 'Search and filter curated knowledge bases by topic, category and tags.' },
  { title: 'Pick a plan', body: 'Monthly plans with a clear query allowance. Your API key is shown right after purchase.' },
  { title: 'Query over HTTP', body: 'POST a question and get an answer with citations to the exact documents and pages.' },
];

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const signedOut = (await searchParams).signedOut === '1';
  const [popular, counts] = await Promise.all([listKnowledgeBaseCards({ ...DEFAULT_LISTING_PARAMS, pageSize: 6 }), categoryCounts()]);
  const total = counts.reduce((sum, c) => sum + c.count, 0);

  return (
    <>
      {signedOut ? (
        <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
          <Alert tone="success">You are signed out.</Alert>
        </div>
      ) : null}
      <section className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Knowledge bases with a query API</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            Answers your product can cite, from sources you can trust.
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-700">
            Almanac is a marketplace of {formatInteger(total)} curated knowledge bases in education, policy, health, research and law. Subscribe
            to one and query it with a single HTTP call.
          </p>
          <div className="mt-8 max-w-2xl">
            <SearchForm state={EMPTY_CATALOG_STATE} size="lg" />
          </div>
          <p className="mt-4 text-sm text-slate-700">
            or{' '}
            <Link href="/knowledge-bases" className="font-semibold text-brand-700 underline underline-offset-2">
              browse the whole catalogue
            </Link>
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <Section id="categories-heading" title="Browse by category" className="mt-12">
          <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            {counts.map(({ category, count }) => (
              <li key={category}>
                <Link
                  href={catalogHref({ ...EMPTY_CATALOG_STATE, category })}
                  className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-500 hover:shadow-md"
                >
                  <span className="font-semibold text-slate-900">{categoryLabel(category)}</span>
                  <span className="mt-1 text-sm text-slate-600">{CATEGORY_BLURBS[category]}</span>
                  <span className="mt-3 text-sm font-medium text-brand-700">{formatInteger(count)} knowledge bases</span>
                </Link>
              </li>
            ))}
          </ul>
        </Section>

        <Section
          id="popular-heading"
          title="Most popular"
          className="mt-12"
          action={
            <Link href="/knowledge-bases" className="text-sm font-semibold text-brand-700 hover:underline">
              See all <span aria-hidden="true">→</span>
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
          <div className="mt-8">
            <ButtonLink href="/signup">Create a free account</ButtonLink>
          </div>
        </Section>
      </div>
    </>
  );
}

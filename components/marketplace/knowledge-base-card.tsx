import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { PublisherMark } from './publisher-mark';
import { CategoryIcon } from './category-icon';
import { categoryLabel, languageName } from './format';
import { formatCompact, formatDate, formatInteger, formatPrice, plural } from '@/lib/platform/format';
import type { CardFacts, KnowledgeBaseCard as KnowledgeBaseCardView } from '@/lib/catalog';
import { marketplacePaths } from '@/lib/site/paths';

// One catalogue result. Only the title and publisher are links, so keyboard users get two stops per card. A null
// category comes only from the listing editor's preview.
export function KnowledgeBaseCard({
  kb,
  headingLevel = 'h3',
}: {
  kb: Omit<KnowledgeBaseCardView, 'category'> & { category: KnowledgeBaseCardView['category'] | null };
  headingLevel?: 'h2' | 'h3';
}) {
  const Heading = headingLevel;
  return (
    <article className="relative flex h-full min-w-0 flex-col rounded-xl border [overflow-wrap:anywhere] border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-500 hover:shadow-md">
      <div className="flex items-center justify-between gap-2 text-xs text-slate-600">
        {kb.category ? (
          <Badge tone="brand">
            <span className="inline-flex items-center gap-1">
              <CategoryIcon category={kb.category} className="h-3.5 w-3.5" />
              {categoryLabel(kb.category)}
            </span>
          </Badge>
        ) : (
          <Badge>No category yet</Badge>
        )}
        <span>
          Updated <time dateTime={kb.updatedAt}>{formatDate(kb.updatedAt)}</time>
        </span>
      </div>
      <Heading className="mt-2 text-base font-semibold leading-snug text-slate-900">
        <Link prefetch={false} href={marketplacePaths.knowledgeBase(kb.id)} className="after:absolute after:inset-0 after:rounded-xl after:content-['']">
          {kb.title}
        </Link>
      </Heading>
      <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
        <PublisherMark name={kb.publisher.name} slug={kb.publisher.slug} />
        <span className="sr-only">by</span>
        {kb.publisher.slug ? (
          <Link
            prefetch={false}
            href={marketplacePaths.publisher(kb.publisher.slug)}
            className="relative z-10 font-medium text-slate-800 underline-offset-2 hover:underline"
          >
            {kb.publisher.name}
          </Link>
        ) : (
          <span className="font-medium text-slate-800">{kb.publisher.name}</span>
        )}
      </p>
      <p className="mt-2 line-clamp-2 text-sm leading-relaxed text-slate-700">{kb.summary}</p>
      {kb.tags.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Tags">
          {kb.tags.map((tag) => (
            <li key={tag} className="rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-auto pt-4">
        {kb.facts ? (
          <p className="text-sm text-slate-600" data-testid="card-facts">
            <span className="font-semibold text-slate-900">{priceLine(kb.facts)}</span> · {languageName(kb.facts.language)} ·{' '}
            {plural(kb.facts.documentsCount, 'document')}
          </p>
        ) : null}
        <dl className="mt-2 flex gap-5 border-t border-slate-100 pt-2 text-xs text-slate-600">
          <CardStat label="Subscribers" value={kb.subscribersCount} />
          <CardStat label="Queries" value={kb.queryVolume} />
        </dl>
      </div>
    </article>
  );
}

/** "Free plan · from $19/month", "From $19/month", or "Free plan". */
export function priceLine(facts: CardFacts): string {
  const price = facts.lowestPrice ? `${formatPrice(facts.lowestPrice.cents, facts.lowestPrice.currency)}/month` : null;
  if (facts.freePlan) return price ? `Free plan · from ${price}` : 'Free plan';
  return price ? `From ${price}` : 'No plan on sale';
}

function CardStat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex gap-1">
      <dt>{label}</dt>
      <dd className="font-semibold text-slate-900" title={formatInteger(value)}>
        {formatCompact(value)}
      </dd>
    </div>
  );
}

export function KnowledgeBaseGrid({ items, headingLevel }: { items: KnowledgeBaseCardView[]; headingLevel?: 'h2' | 'h3' }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Knowledge bases">
      {items.map((kb) => (
        <li key={kb.id}>
          <KnowledgeBaseCard kb={kb} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}

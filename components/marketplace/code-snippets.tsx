import { CopyButton } from '@/components/ui/copy-button';
import type { Snippet } from './snippets';

/** `columns` is a container query: the key reveal's narrow box keeps them stacked on any screen. */
export function CodeSnippets({ snippets, layout = 'stack' }: { snippets: Snippet[]; layout?: 'stack' | 'columns' }) {
  const list = (
    <div className={layout === 'columns' ? 'grid items-start gap-4 @3xl:grid-cols-2' : 'space-y-4'}>
      {snippets.map((s) => (
        <figure key={s.id} data-testid={`snippet-${s.id}`} className="min-w-0 overflow-hidden rounded-xl border border-slate-800 bg-slate-900 shadow-sm">
          <figcaption className="flex items-center justify-between border-b border-slate-700 px-4 py-2">
            <span className="text-xs font-semibold uppercase tracking-wide text-slate-200">{s.label}</span>
            <CopyButton value={s.code} label={`Copy ${s.label}`} tone="dark" className="flex-row-reverse" />
          </figcaption>
          <pre className="overflow-x-auto p-4 text-[13px] leading-relaxed text-slate-100" tabIndex={0} aria-label={`${s.label} example`}>
            <code>{s.code}</code>
          </pre>
        </figure>
      ))}
    </div>
  );
  return layout === 'columns' ? <div className="@container">{list}</div> : list;
}

import { MarkdownText } from '@/components/marketplace/markdown';
import { CopyButton } from '@/components/ui/copy-button';
import { cx } from '@/components/ui/cx';
import type { ReferenceOperation } from './reference-text';

const METHOD_TONE: Record<string, string> = {
  GET: 'bg-emerald-100 text-emerald-900',
  POST: 'bg-brand-100 text-brand-900',
  PUT: 'bg-amber-100 text-amber-950',
  PATCH: 'bg-amber-100 text-amber-950',
  DELETE: 'bg-red-100 text-red-900',
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

function Example({ label, value }: { label: string; value: unknown }) {
  const text = json(value);
  return (
    <div className="mt-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</p>
        <CopyButton value={text} label={`Copy ${label.toLowerCase()}`} />
      </div>
      <pre className="mt-1 max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100" tabIndex={0} aria-label={label}>
        <code>{text}</code>
      </pre>
    </div>
  );
}

// The endpoints' reference (docs/api.md §2.12), rendered on the server: readable without JavaScript, at any width.
export function ReferenceList({ operations }: { operations: ReferenceOperation[] }) {
  return (
    <div className="mx-auto max-w-6xl px-4 pb-12 sm:px-6" data-testid="api-reference">
      <nav aria-label="Endpoints" className="mt-6">
        <ul className="grid gap-1 text-sm sm:grid-cols-2">
          {operations.map((op) => (
            <li key={op.id}>
              <a href={`#${op.id}`} className="inline-flex items-baseline gap-2 rounded px-1 py-0.5 text-brand-700 underline-offset-2 hover:underline">
                <span className={cx('rounded px-1.5 py-0.5 font-mono text-[11px] font-semibold', METHOD_TONE[op.method])}>{op.method}</span>
                <span>{op.heading}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {operations.map((op) => (
        <section key={op.id} id={op.id} aria-labelledby={`${op.id}-heading`} className="mt-10 scroll-mt-4 border-t border-slate-200 pt-8">
          <h3 id={`${op.id}-heading`} className="text-lg font-semibold text-slate-900">
            {op.heading}
          </h3>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
            <span className={cx('rounded px-2 py-0.5 font-mono text-xs font-semibold', METHOD_TONE[op.method])}>{op.method}</span>
            <code className="break-all font-mono text-[13px] text-slate-900">{op.path}</code>
          </p>
          {op.note ? <p className="mt-2 text-sm text-slate-700">{op.note}.</p> : null}
          {op.description ? <MarkdownText text={op.description} className="max-w-3xl text-sm text-slate-800" /> : null}
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <div className="min-w-0">
              {op.parameters.length > 0 ? (
                <>
                  <h4 className="text-sm font-semibold text-slate-900">Parameters</h4>
                  <dl className="mt-2 space-y-2 text-sm">
                    {op.parameters.map((p) => (
                      <div key={`${p.in}-${p.name}`}>
                        <dt>
                          <code className="font-mono text-[13px] font-semibold text-slate-900">{p.name}</code>{' '}
                          <span className="text-xs text-slate-600">
                            {p.in}
                            {p.required ? ', required' : ''}
                          </span>
                        </dt>
                        {p.description ? <dd className="text-slate-700">{p.description}</dd> : null}
                      </div>
                    ))}
                  </dl>
                </>
              ) : null}
              <h4 className={cx('text-sm font-semibold text-slate-900', op.parameters.length > 0 && 'mt-4')}>Responses</h4>
              <dl className="mt-2 space-y-1 text-sm">
                {op.responses.map((r) => (
                  <div key={r.status} className="flex gap-3">
                    <dt className={cx('w-10 shrink-0 font-mono font-semibold', r.status.startsWith('2') ? 'text-emerald-800' : 'text-red-800')}>{r.status}</dt>
                    <dd className="text-slate-700">{r.description}</dd>
                  </div>
                ))}
              </dl>
            </div>
            <div className="min-w-0">
              {op.requestExample !== null ? <Example label="Request body" value={op.requestExample} /> : null}
              {op.responses
                .filter((r) => r.example !== null)
                .slice(0, 1)
                .map((r) => (
                  <Example key={r.status} label={`Response ${r.status}`} value={r.example} />
                ))}
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}

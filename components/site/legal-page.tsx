import Markdown, { type Components } from 'react-markdown';
import type { LegalDocument } from '@/lib/platform/legal';

// An operator's legal text, rendered as safely as listings (components/marketplace/markdown.tsx).
const components: Components = {
  h1: ({ children }) => <h2 className="mt-8 text-xl font-semibold text-slate-900">{children}</h2>,
  h2: ({ children }) => <h2 className="mt-8 text-xl font-semibold text-slate-900">{children}</h2>,
  h3: ({ children }) => <h3 className="mt-6 text-lg font-semibold text-slate-900">{children}</h3>,
  h4: ({ children }) => <h4 className="mt-4 font-semibold text-slate-900">{children}</h4>,
  p: ({ children }) => <p className="mt-3 leading-relaxed">{children}</p>,
  ul: ({ children }) => <ul className="mt-3 list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="mt-3 list-decimal space-y-1 pl-6">{children}</ol>,
  a: ({ href, children }) =>
    href ? (
      <a href={href} className="font-medium text-brand-700 underline">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  img: ({ alt }) => (alt ? <span className="italic">[{alt}]</span> : null),
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.9em] break-words">{children}</code>,
  blockquote: ({ children }) => (
    <div role="note" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-1 text-amber-950 [&>p]:mt-2 [&>p:last-child]:mb-2">
      {children}
    </div>
  ),
};

export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 text-slate-800 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{document.title}</h1>
      <Markdown skipHtml components={components}>
        {document.markdown}
      </Markdown>
    </article>
  );
}

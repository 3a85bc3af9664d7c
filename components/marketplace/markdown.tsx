import Markdown, { type Components } from 'react-markdown';

/**
 * A listing's description, written in Markdown by its publisher, rendered safely: react-markdown builds React
 * elements from the Markdown syntax tree and never injects HTML. Raw HTML in the text is dropped (`skipHtml`), and
 * link and image addresses pass its `defaultUrlTransform`, which keeps only http(s), mailto and relative URLs (a
 * `javascript:` link comes out empty). Images are shown as their alt text: a listing cannot load other origins
 * (the site's CSP refuses them anyway) or track its readers. Headings start at h3 under the page's h1/h2.
 */
const components: Components = {
  h1: ({ children }) => <h3 className="mt-5 text-lg font-semibold text-slate-900">{children}</h3>,
  h2: ({ children }) => <h3 className="mt-5 text-lg font-semibold text-slate-900">{children}</h3>,
  h3: ({ children }) => <h4 className="mt-4 text-base font-semibold text-slate-900">{children}</h4>,
  h4: ({ children }) => <h4 className="mt-4 text-base font-semibold text-slate-900">{children}</h4>,
  h5: ({ children }) => <p className="mt-3 font-semibold text-slate-900">{children}</p>,
  h6: ({ children }) => <p className="mt-3 font-semibold text-slate-900">{children}</p>,
  p: ({ children }) => <p className="mt-3 leading-relaxed">{children}</p>,
  ul: ({ children }) => <ul className="mt-3 list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="mt-3 list-decimal space-y-1 pl-6">{children}</ol>,
  a: ({ href, children }) =>
    href ? (
      <a href={href} rel="nofollow noopener noreferrer" className="font-medium text-brand-700 underline underline-offset-2">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  img: ({ alt }) => (alt ? <span className="italic">[{alt}]</span> : null),
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] break-words">{children}</code>,
  pre: ({ children }) => <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-100 p-3 text-sm">{children}</pre>,
  blockquote: ({ children }) => <blockquote className="mt-3 border-l-4 border-slate-300 pl-4 text-slate-700">{children}</blockquote>,
};

export function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ?? 'text-slate-800 [&>*:first-child]:mt-0'}>
      <Markdown skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
}

import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

// A publisher's Markdown, rendered safely: react-markdown never injects HTML, raw HTML is dropped (`skipHtml`) and
// `defaultUrlTransform` keeps only http(s), mailto and relative URLs. Images show as alt text, so a listing cannot
// load other origins or track its readers. remark-gfm only changes parsing, so these rules cover what it adds.
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
  // id and aria-label: a footnote's reference and back link name each other.
  a: ({ href, id, 'aria-label': label, children }) =>
    href ? (
      <a href={href} id={id} aria-label={label} rel="nofollow noopener noreferrer" className="font-medium text-brand-700 underline underline-offset-2">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  img: ({ alt }) => (alt ? <span className="italic">[{alt}]</span> : null),
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] break-words">{children}</code>,
  pre: ({ children }) => <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-100 p-3 text-sm">{children}</pre>,
  blockquote: ({ children }) => <blockquote className="mt-3 border-l-4 border-slate-300 pl-4 text-slate-700">{children}</blockquote>,
  // Focusable so a keyboard can scroll it. overflow-wrap normal: under a parent's `anywhere` the columns would shrink
  // to one letter each rather than scroll.
  table: ({ children }) => (
    <div role="group" aria-label="Table" tabIndex={0} className="mt-3 overflow-x-auto rounded-lg border border-slate-200">
      <table className="min-w-full border-collapse text-left text-sm [overflow-wrap:normal]">{children}</table>
    </div>
  ),
  thead: ({ children }) => <thead className="bg-slate-50">{children}</thead>,
  th: ({ children, style }) => (
    <th scope="col" style={style} className="border-b border-slate-200 px-3 py-2 font-semibold text-slate-900">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border-t border-slate-200 px-3 py-2 align-top">
      {children}
    </td>
  ),
};

const REMARK_PLUGINS = [remarkGfm];

export function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ?? 'text-slate-800 [&>*:first-child]:mt-0'}>
      <Markdown skipHtml remarkPlugins={REMARK_PLUGINS} components={components}>
        {text}
      </Markdown>
    </div>
  );
}

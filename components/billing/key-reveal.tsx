import Link from 'next/link';
import { AgentSnippets } from '@/components/marketplace/agent-snippets';
import { CodeSnippets } from '@/components/marketplace/code-snippets';
import { buildSnippets } from '@/components/marketplace/snippets';
import { CopyButton } from '@/components/ui/copy-button';
import { Section } from '@/components/ui/section';
import { formatInteger, plural } from '@/lib/platform/format';
import type { UsageView } from '@/lib/subscriptions';
import { marketplacePaths } from '@/lib/site/paths';

/** The usage call is free; the sample question is answered with citations, so it is billed and the page says so. */
export function firstRequestCommands({
  apiKey,
  kbId,
  baseUrl,
  sampleQuestion,
}: {
  apiKey: string;
  kbId: string;
  baseUrl: string;
  sampleQuestion: string | null;
}) {
  const root = `${baseUrl.replace(/\/$/, '')}/kb/${kbId}`;
  const question = (sampleQuestion ?? 'Your question here').replace(/'/g, '’');
  return {
    sample: sampleQuestion !== null,
    usage: [`curl ${root}/usage \\`, `  -H "Authorization: Bearer ${apiKey}"`].join('\n'),
    query: [
      `curl -X POST ${root}/query \\`,
      `  -H "Authorization: Bearer ${apiKey}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '${JSON.stringify({ query: question })}'`,
    ].join('\n'),
  };
}

export function queryCostText(usage: Pick<UsageView, 'remaining' | 'cap'> | null): string {
  const rule = 'An answer with citations counts as one query against your plan; an answer that finds nothing relevant is free.';
  if (!usage) return rule;
  if (usage.remaining <= 0)
    return `${rule} Your ${formatInteger(usage.cap)} queries for this period are used up, so it will be refused with query_cap_exceeded until the cap resets.`;
  return `${rule} You have ${plural(usage.remaining, 'query', 'queries')} of ${formatInteger(usage.cap)} left this period.`;
}

function Command({ code, label, testId }: { code: string; label: string; testId: string }) {
  return (
    <>
      <pre tabIndex={0} aria-label={label} className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-sm text-slate-100">
        <code data-testid={testId}>{code}</code>
      </pre>
      <div className="mt-2">
        <CopyButton value={code} label="Copy command" />
      </div>
    </>
  );
}

// The one and only display of a full API key (docs/api.md §4.3), with ready-to-run examples that carry it. Rendered
// from a single-read handoff, so a reload shows nothing.
export function KeyReveal({
  apiKey,
  kbId,
  baseUrl,
  sampleQuestion,
  usage,
}: {
  apiKey: string;
  kbId: string;
  baseUrl: string;
  /** Null when the listing has none: a placeholder to replace is shown. */
  sampleQuestion: string | null;
  usage: Pick<UsageView, 'remaining' | 'cap'> | null;
}) {
  const commands = firstRequestCommands({ apiKey, kbId, baseUrl, sampleQuestion });
  return (
    <Section id="key-reveal-heading" title="Your API key" size="lg" className="rounded-lg border border-amber-300 bg-amber-50 p-5">
      <p className="mt-2 font-medium text-amber-900" role="note">
        Copy it now: you will not see it again. We store only a hash of it. If you lose it, create a replacement key from your account.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code data-testid="api-key" className="select-all break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-slate-300">
          {apiKey}
        </code>
        <CopyButton value={apiKey} label="Copy key" testId="copy-key" />
      </div>
      <h3 className="mt-5 text-sm font-semibold text-slate-900">Check the key (free)</h3>
      <p className="mt-1 text-sm text-slate-800">Shows your plan&apos;s usage and limits. This call is never counted against your cap.</p>
      <Command code={commands.usage} label="curl command that checks the key" testId="usage-command" />
      <h3 className="mt-5 text-sm font-semibold text-slate-900">Ask a question</h3>
      <p className="mt-1 text-sm text-slate-800" data-testid="query-cost">
        {commands.sample ? 'One of the sample questions of this knowledge base. ' : 'This knowledge base lists no sample question, so put your own in. '}
        {queryCostText(usage)}
      </p>
      <Command code={commands.query} label="curl command that asks a question" testId="curl-command" />
      <details className="mt-5 rounded-lg border border-amber-200 bg-white/60">
        <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-white">
          Use it from code: TypeScript, Python, LangChain
        </summary>
        <div className="border-t border-amber-200 px-4 py-4">
          <p className="mb-3 text-sm text-slate-700">
            These read the key from the <code className="text-[13px]">ALMANAC_API_KEY</code> environment variable: set it to the key above.
          </p>
          <CodeSnippets snippets={buildSnippets(baseUrl, kbId, sampleQuestion ?? 'Your question here').filter((s) => s.id !== 'curl')} />
        </div>
      </details>
      <details className="mt-3 rounded-lg border border-amber-200 bg-white/60">
        <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-white">
          Use it from an AI agent: MCP clients and Dify, key included
        </summary>
        <div className="border-t border-amber-200 px-4 py-4">
          <AgentSnippets baseUrl={baseUrl} kbId={kbId} question={sampleQuestion ?? 'Your question here'} apiKey={apiKey} headingLevel={4} />
        </div>
      </details>
      <p className="mt-4 text-sm text-slate-800">
        Errors, limits, streaming and every endpoint:{' '}
        <Link href={marketplacePaths.docsFor(kbId)} className="font-medium text-brand-700 underline">
          the API reference
        </Link>
        .
      </p>
    </Section>
  );
}

import Link from 'next/link';
import { AgentSnippets } from '@/components/marketplace/agent-snippets';
import { CodeSnippets } from '@/components/marketplace/code-snippets';
import { buildSnippets } from '@/components/marketplace/snippets';
import { CopyButton } from '@/components/ui/copy-button';
import { Section } from '@/components/ui/section';

/**
 * The one and only display of a full API key: the key, a copy button, a clear warning, a ready-to-run curl
 * command against this deployment and the key's knowledge base, the same call in TypeScript, Python and as a LangChain
 * retriever, the MCP and Dify settings with the key in them, and the way to the API reference. Rendered from a single-read handoff, so a reload shows nothing.
 */
export function KeyReveal({ apiKey, kbId, baseUrl, sampleQuestion }: { apiKey: string; kbId: string; baseUrl: string; sampleQuestion?: string }) {
  const question = (sampleQuestion ?? 'What does this knowledge base cover?').replace(/'/g, '’');
  const curl = [
    `curl -X POST ${baseUrl.replace(/\/$/, '')}/kb/${kbId}/query \\`,
    `  -H "Authorization: Bearer ${apiKey}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${JSON.stringify({ query: question })}'`,
  ].join('\n');
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
      <h3 className="mt-5 text-sm font-semibold text-slate-900">Try it from a terminal</h3>
      <pre tabIndex={0} aria-label="curl command" className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-sm text-slate-100">
        <code data-testid="curl-command">{curl}</code>
      </pre>
      <div className="mt-2">
        <CopyButton value={curl} label="Copy command" />
      </div>
      <details className="mt-5 rounded-lg border border-amber-200 bg-white/60">
        <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-white">
          Use it from code: TypeScript, Python, LangChain
        </summary>
        <div className="border-t border-amber-200 px-4 py-4">
          <p className="mb-3 text-sm text-slate-700">
            These read the key from the <code className="text-[13px]">ALMANAC_API_KEY</code> environment variable: set it to the key above.
          </p>
          <CodeSnippets snippets={buildSnippets(baseUrl, kbId, question).filter((s) => s.id !== 'curl')} />
        </div>
      </details>
      <details className="mt-3 rounded-lg border border-amber-200 bg-white/60">
        <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-white">
          Use it from an AI agent: MCP clients and Dify, key included
        </summary>
        <div className="border-t border-amber-200 px-4 py-4">
          <AgentSnippets baseUrl={baseUrl} kbId={kbId} apiKey={apiKey} headingLevel={4} />
        </div>
      </details>
      <p className="mt-4 text-sm text-slate-800">
        Errors, limits, streaming and every endpoint:{' '}
        <Link href={`/docs?kb=${encodeURIComponent(kbId)}`} className="font-medium text-brand-700 underline">
          the API reference
        </Link>
        .
      </p>
    </Section>
  );
}

import { CopyButton } from '@/components/ui/copy-button';
import { CodeSnippets } from './code-snippets';
import { buildMcpSnippets, connectorSetup, difyRegistration, pythonMcpSnippet } from './snippets';

// How to plug a knowledge base into an AI agent (docs/api.md §10.1, §10.3), with the key where the page has it.
export function AgentSnippets({
  baseUrl,
  kbId,
  question,
  apiKey,
  headingLevel = 3,
}: {
  baseUrl: string;
  kbId: string;
  question: string;
  apiKey?: string;
  headingLevel?: 3 | 4;
}) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const mcp = buildMcpSnippets(baseUrl, kbId, apiKey);
  const dify = difyRegistration(baseUrl, kbId, apiKey);
  const connector = connectorSetup(baseUrl, kbId);
  return (
    <div className="space-y-8">
      <div>
        <Heading className="text-base font-semibold text-slate-900">Claude and ChatGPT connectors</Heading>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">Agent platforms that sign in with OAuth need no key: give them the server’s URL.</p>
        <dl className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white text-sm shadow-sm" data-testid="connector-setup">
          <Field label="Remote MCP server URL" value={connector.url} />
        </dl>
        <ol className="mt-3 max-w-3xl list-decimal space-y-1 pl-5 text-sm text-slate-700">
          {connector.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
      <div>
        <Heading className="text-base font-semibold text-slate-900">MCP clients</Heading>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          Each knowledge base is a remote MCP server (Streamable HTTP) with two tools, <code className="text-[13px]">ask</code> and{' '}
          <code className="text-[13px]">search</code>, each counted like one query. The first configuration is for clients that connect over HTTP themselves
          (Claude Code’s <code className="text-[13px]">.mcp.json</code>, Cursor, Windsurf); Claude Desktop reaches remote servers through{' '}
          <code className="text-[13px]">mcp-remote</code>.{apiKey ? ' Your key is already in both.' : ' Put your key in place of the placeholder.'}
        </p>
        <div className="mt-3">
          <CodeSnippets snippets={mcp} layout="columns" />
        </div>
        <p className="mt-4 max-w-3xl text-sm text-slate-700">
          From Python, with the official MCP SDK (<code className="text-[13px]">pip install &quot;mcp&gt;=2,&lt;3&quot;</code>): it lists the tools and asks a
          question, reading the key from <code className="text-[13px]">ALMANAC_API_KEY</code>.
        </p>
        <div className="mt-3">
          <CodeSnippets snippets={[pythonMcpSnippet(baseUrl, kbId, question)]} />
        </div>
      </div>
      <div>
        <Heading className="text-base font-semibold text-slate-900">Dify</Heading>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          In Dify, open <strong>Knowledge → External Knowledge API → Add an External Knowledge API</strong> and enter the endpoint and key below; then{' '}
          <strong>Connect to an External Knowledge Base</strong> with the knowledge id. Dify calls{' '}
          <code className="text-[13px]">POST {dify.endpoint}/retrieval</code>.
        </p>
        <dl className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white text-sm shadow-sm" data-testid="dify-registration">
          <Field label="API Endpoint" value={dify.endpoint} />
          <Field label="API Key" value={dify.apiKey} copyable={Boolean(apiKey)} hint={apiKey ? undefined : 'your Almanac API key'} />
          <Field label="External knowledge ID" value={dify.knowledgeId} />
        </dl>
      </div>
    </div>
  );
}

function Field({ label, value, hint, copyable = true }: { label: string; value: string; hint?: string; copyable?: boolean }) {
  return (
    <div className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
      <dt className="shrink-0 font-medium text-slate-700 sm:w-44">{label}</dt>
      <dd className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-2">
        {hint ? <span className="text-slate-600">{hint}</span> : <code className="min-w-0 break-all font-mono text-[13px] text-slate-900">{value}</code>}
        {copyable && !hint ? <CopyButton value={value} label={`Copy ${label}`} /> : null}
      </dd>
    </div>
  );
}

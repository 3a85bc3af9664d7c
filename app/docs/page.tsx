import type { Metadata } from 'next';
import Link from 'next/link';
import { referenceDocument } from '@/components/docs/reference-document';
import { ReferenceList } from '@/components/docs/reference-list';
import { referenceOperations } from '@/components/docs/reference-text';
import { AgentSnippets } from '@/components/marketplace/agent-snippets';
import { CodeSnippets } from '@/components/marketplace/code-snippets';
import { buildSnippets, KB_ID_PLACEHOLDER } from '@/components/marketplace/snippets';
import { CopyButton } from '@/components/ui/copy-button';
import { Section } from '@/components/ui/section';
import { DEFAULT_LISTING_PARAMS, getKnowledgeBaseView, listKnowledgeBases, listPublicDocuments, toDetail, type KnowledgeBaseView } from '@/lib/catalog';
import { documentationAnswer } from '@/lib/routing';
import { buildOpenApiDocument } from '@/lib/openapi';
import { baseUrl } from '@/lib/platform/base-url';
import { marketplacePaths } from '@/lib/site/paths';

export const metadata: Metadata = {
  title: 'API reference',
  description: 'Query Almanac knowledge bases from your code, an MCP client or Dify: getting started and the full reference of the API.',
};

type SearchParams = Promise<{ kb?: string | string[] }>;

const code = 'rounded bg-slate-100 px-1 py-0.5 text-[13px]';

async function chosenKnowledgeBase(searchParams: SearchParams) {
  const { kb } = await searchParams;
  if (typeof kb !== 'string' || !/^kb_[0-9A-Za-z]{1,64}$/.test(kb)) return null;
  return getKnowledgeBaseView(kb);
}

async function referenceExamples(kb: KnowledgeBaseView | null) {
  const example =
    kb ?? (await listKnowledgeBases({ ...DEFAULT_LISTING_PARAMS, pageSize: 1 }).then(({ items }) => (items[0] ? getKnowledgeBaseView(items[0].id) : null)));
  if (!example) return { values: {}, responses: {} };
  const question = example.sampleQuestions[0] ?? `What does ${example.title} cover?`;
  const [answer, documents] = await Promise.all([documentationAnswer(example.id, question), listPublicDocuments(example.id)]);
  const detail = toDetail(example);
  const { description: _d, plans: _p, documentsCount: _c, language: _l, licence: _li, sampleQuestions: _s, ...item } = detail;
  const values = { kb_id: example.id, knowledge_id: example.id, id: example.id, query: question, top_k: 3, title: documents[0]?.title ?? example.title };
  const responses: Record<string, unknown> = {
    listKnowledgeBases: { items: [item], total: 1, page: 1, pageSize: 12, totalPages: 1 },
    getKnowledgeBase: detail,
    ...(answer ? { queryKnowledgeBase: answer } : {}),
  };
  return { values, responses };
}

// /docs (docs/api.md §2.12): "Getting started", then the reference rendered from the document /api/openapi.json serves.
export default async function DocsPage({ searchParams }: { searchParams: SearchParams }) {
  const base = baseUrl();
  const kb = await chosenKnowledgeBase(searchParams);
  const kbId = kb?.id ?? KB_ID_PLACEHOLDER;
  const question = kb?.sampleQuestions[0] ?? 'What does this knowledge base cover?';
  const examples = await referenceExamples(kb);
  const operations = referenceOperations(referenceDocument(buildOpenApiDocument(base)), examples.values, examples.responses);

  return (
    <>
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">API reference</h1>
        <p className="mt-3 max-w-3xl text-lg leading-relaxed text-slate-800">
          A public catalogue of knowledge bases, and for each one a keyed, metered API that answers questions with citations you can check.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-700">
          <span>Base URL</span>
          <code data-testid="base-url" className="break-all rounded bg-white px-2 py-1 font-mono text-[13px] text-slate-900 ring-1 ring-slate-300">
            {base}
          </code>
          <CopyButton value={base} label="Copy base URL" />
          <a href="/api/openapi.json" className="font-medium text-brand-700 underline underline-offset-2">
            OpenAPI 3.1 document (JSON)
          </a>
        </div>
        <p className="mt-3 text-sm text-slate-700" data-testid="examples-for">
          {kb ? (
            <>
              The examples are for{' '}
              <Link href={marketplacePaths.knowledgeBase(kb.id)} className="font-medium text-brand-700 underline underline-offset-2">
                {kb.title}
              </Link>{' '}
              (<code className={code}>{kb.id}</code>).
            </>
          ) : (
            <>
              The examples say <code className={code}>{KB_ID_PLACEHOLDER}</code> where a knowledge base’s id goes: open this page from a{' '}
              <Link href="/knowledge-bases" className="font-medium text-brand-700 underline underline-offset-2">
                knowledge base’s page
              </Link>{' '}
              to have it filled in.
            </>
          )}
        </p>

        <nav aria-label="On this page" className="mt-6 border-l-2 border-slate-200 pl-4 text-sm">
          <ul className="flex flex-wrap gap-x-5 gap-y-1">
            <li>
              <a href="#getting-started-heading" className="font-medium text-brand-700 underline-offset-2 hover:underline">
                Getting started
              </a>
            </li>
            <li>
              <a href="#agents-heading" className="font-medium text-brand-700 underline-offset-2 hover:underline">
                Connect an AI agent
              </a>
            </li>
            <li>
              <a href="#reference-heading" className="font-medium text-brand-700 underline-offset-2 hover:underline">
                Endpoints
              </a>
            </li>
          </ul>
        </nav>

        <Section id="getting-started-heading" title="Getting started" className="mt-10">
          <ol className="mt-4 max-w-3xl list-decimal space-y-3 pl-5 leading-relaxed text-slate-800 marker:font-semibold marker:text-slate-500">
            <li>
              <strong>Get a key.</strong> Buy a plan on a knowledge base’s page. Its API key (<code className={code}>alm_sk_live_…</code>, or{' '}
              <code className={code}>alm_sk_test_…</code> from the test checkout) is shown once and works for that knowledge base only. Keep it on your server;
              the keyed API sends no CORS headers. The examples read it from <code className={code}>ALMANAC_API_KEY</code>.
            </li>
            <li>
              <strong>Ask a question</strong> with <code className={code}>POST /kb/{'{kb_id}'}/query</code>:
            </li>
          </ol>
          <div className="mt-4 max-w-4xl">
            <CodeSnippets snippets={buildSnippets(base, kbId, question)} />
          </div>
          <ol start={3} className="mt-5 max-w-3xl list-decimal space-y-3 pl-5 leading-relaxed text-slate-800 marker:font-semibold marker:text-slate-500">
            <li>
              <strong>Read the answer:</strong> <code className={code}>answer</code>, <code className={code}>citations</code> (document, title, verbatim
              excerpt, page) and <code className={code}>tokens_used</code>. Only answers with at least one citation count against your plan;{' '}
              <code className={code}>X-Usage-Remaining</code> says how many are left this period and <code className={code}>X-RateLimit-Remaining</code> how
              many requests this minute.
            </li>
            <li>
              <strong>Handle errors</strong> by status and <code className={code}>error</code> code: every error body is{' '}
              <code className={code}>{'{error, message, request_id}'}</code>. A <code className={code}>429</code> comes with{' '}
              <code className={code}>Retry-After</code>; send an <code className={code}>Idempotency-Key</code> header to retry a query without being counted
              twice.
            </li>
          </ol>
        </Section>

        <Section id="agents-heading" title="Connect an AI agent" className="mt-12">
          <div className="mt-4 max-w-4xl">
            <AgentSnippets baseUrl={base} kbId={kbId} question={question} />
          </div>
        </Section>
      </div>

      <section aria-labelledby="reference-heading" className="border-y border-slate-200 bg-white">
        <div className="mx-auto max-w-6xl px-4 pt-8 sm:px-6">
          <h2 id="reference-heading" className="text-xl font-semibold text-slate-900">
            Endpoints
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            Every request, response and error code, from the OpenAPI document, with examples from the catalogue. A method a path does not list answers{' '}
            <code className={code}>405 method_not_allowed</code> with an <code className={code}>Allow</code> header, and the catalogue answers CORS preflights.
          </p>
        </div>
        <ReferenceList operations={operations} />
      </section>
    </>
  );
}

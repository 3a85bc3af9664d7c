import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { BackendForm } from '@/components/publish/backend-form';
import { ContentManager } from '@/components/publish/content-manager';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { ListingNav } from '@/components/publish/listing-nav';
import { publishPaths } from '@/lib/site/paths';
import { ListingStatusBadge } from '@/components/publish/status-badge';
import { TryIt } from '@/components/publish/try-it';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { CopyButton } from '@/components/ui/copy-button';
import { Section } from '@/components/ui/section';
import { SubmitButton } from '@/components/ui/submit-button';
import { requireSessionUser } from '@/lib/accounts';
import { ACCEPTED_EXTENSIONS, listDocumentsForOwner } from '@/lib/engine';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { requireOwnedKnowledgeBase } from '@/lib/publishing';
import { getBackendSettings } from '@/lib/routing';
import { saveBackendAction, switchToHostedAction } from './actions';

type Params = Promise<{ kbId: string }>;

const load = cache(async (kbId: string) => {
  const user = await requireSessionUser(publishPaths.content(kbId));
  return { user, owned: await requireOwnedKnowledgeBase(await getDb(), user.id, kbId) };
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owned } = await load(decodeURIComponent((await params).kbId));
  return { title: owned.ok ? `Content · ${owned.kb.title}` : 'Listing not found' };
}

const VERIFY_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// header: the Almanac-Signature request header; rawBody: the request body exactly as received
function verifyAlmanacSignature(header, rawBody, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.trim().split('=', 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`, 'utf8').digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}`;

export default async function ContentPage({ params, searchParams }: { params: Params; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const kbId = decodeURIComponent((await params).kbId);
  const { user, owned } = await load(kbId);
  if (!owned.ok) notFound();
  const { kb } = owned;
  const db = await getDb();
  const [docs, backend] = await Promise.all([listDocumentsForOwner(db, user.id, kb.id), getBackendSettings(db, user.id, kb.id)]);
  if (!docs.ok || !backend.ok) notFound();
  const settings = backend.settings;
  const basePath = publishPaths.content(kb.id);
  const sample = kb.sampleQuestions[0] ?? '';
  const backendForm = (
    <BackendForm
      action={saveBackendAction}
      kbId={kb.id}
      endpointUrl={settings.endpointUrl ?? ''}
      timeoutMs={settings.timeoutMs}
      hasInfraKey={settings.hasInfraKey}
      hasSigningSecret={settings.hasSigningSecret}
    />
  );

  return (
    <div>
      <Breadcrumb
        items={[{ label: 'Your listings', href: publishPaths.overview }, { label: kb.title, href: publishPaths.listing(kb.id) }, { label: 'Content' }]}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Content · {kb.title}</h1>
        <ListingStatusBadge status={kb.status} />
      </div>
      <ListingNav kbId={kb.id} current="content" />
      <div className="mt-6">
        <FlashMessage message={publishFlash.read((await searchParams).flash)} />
      </div>

      {settings.kind === 'hosted' ? (
        <Section id="hosted-heading" title="Documents" className="mt-2">
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            Almanac answers from these documents with its built-in engine. Uploads are ingested in the background: you can leave this page, and a restart does
            not lose them.
          </p>
          <div className="mt-4">
            <ContentManager
              kbId={kb.id}
              basePath={basePath}
              maxBytes={getEnv().MAX_UPLOAD_BYTES}
              accept={ACCEPTED_EXTENSIONS}
              initialDocuments={docs.documents}
            />
          </div>
          <details className="mt-8 rounded-lg border border-slate-200 bg-white p-4">
            <summary className="cursor-pointer text-sm font-semibold text-slate-900">Answer from your own endpoint instead</summary>
            <p className="mt-2 text-sm text-slate-700">
              Saving a backend switches this listing to your endpoint; its documents stay stored but stop answering.
            </p>
            <div className="mt-4">{backendForm}</div>
            <p className="mt-4 text-sm text-slate-700" data-testid="save-backend-first">
              To test your endpoint, save it with its two secrets first: then a test query makes a real signed call to it.
            </p>
          </details>
        </Section>
      ) : (
        <Section id="backend-heading" title="Your backend" className="mt-2">
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            Almanac sends each buyer question to your endpoint, signed, and passes your validated answer to the buyer. The key and the secret are stored
            encrypted and never shown again.
          </p>
          <div className="mt-4">{backendForm}</div>
          <div className="mt-6 max-w-2xl rounded-lg border border-slate-200 bg-white p-4">
            <h3 className="text-base font-semibold text-slate-900">Send a test query</h3>
            <div className="mt-2">
              {settings.endpointUrl && settings.hasInfraKey && settings.hasSigningSecret ? (
                <TryIt
                  endpoint={`${basePath}/try`}
                  label="Makes a real signed call to your endpoint with the question below and shows the validated answer, or exactly why it failed."
                  submitLabel="Send a test query"
                  fixedQuestion={sample || 'What does this knowledge base cover?'}
                />
              ) : (
                // Without a saved endpoint and both secrets there is nothing to call: say so, rather than fail in 0 ms.
                <p className="text-sm text-slate-700" data-testid="save-backend-first">
                  Save your endpoint and its two secrets above first; then a test query makes a real signed call to it.
                </p>
              )}
            </div>
          </div>
          <div className="mt-6 max-w-3xl">
            <h3 className="text-base font-semibold text-slate-900">Verify that calls come from Almanac</h3>
            <p className="mt-1 text-sm text-slate-700">
              Every call is <code>POST</code> with body <code>{'{query, kb_id, request_id}'}</code>,{' '}
              <code>Authorization: Bearer &lt;infrastructure key&gt;</code> and{' '}
              <code>Almanac-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256 of &quot;t.body&quot; under the signing secret&gt;</code>. Reject a{' '}
              <code>t</code> more than five minutes from your clock.
            </p>
            <div className="relative mt-3">
              <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100" tabIndex={0} aria-label="Signature check in Node.js">
                <code>{VERIFY_EXAMPLE}</code>
              </pre>
              <div className="mt-2">
                <CopyButton value={VERIFY_EXAMPLE} label="Copy the signature check" />
              </div>
            </div>
          </div>
          <details className="mt-8 max-w-3xl rounded-lg border border-slate-200 bg-white p-4">
            <summary className="cursor-pointer text-sm font-semibold text-slate-900">Answer from uploaded documents instead</summary>
            <p className="mt-2 text-sm text-slate-700">
              Almanac&apos;s engine answers from documents you upload here.{' '}
              {docs.documents.length > 0
                ? `The ${docs.documents.length === 1 ? 'document' : `${docs.documents.length} documents`} uploaded before will answer again.`
                : 'You can upload documents once you have switched.'}{' '}
              Your endpoint, infrastructure key and signing secret are forgotten.
            </p>
            <form action={switchToHostedAction} className="mt-3">
              <input type="hidden" name="kbId" value={kb.id} />
              <SubmitButton pendingLabel="Switching…">Switch to uploaded documents</SubmitButton>
            </form>
          </details>
        </Section>
      )}

      <Section id="try-heading" title="Try it as a buyer would" className="mt-10">
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          Answered through the same {settings.kind === 'hosted' ? 'engine' : 'signed connector'} as buyers&apos; queries, whatever the listing&apos;s state. It
          counts against no one&apos;s cap and does not appear in analytics.
        </p>
        <div className="mt-4 max-w-2xl">
          <TryIt endpoint={`${basePath}/try`} label="Question" submitLabel="Ask" defaultQuestion={sample} />
        </div>
      </Section>
    </div>
  );
}

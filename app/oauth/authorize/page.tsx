import type { Metadata } from 'next';
import Link from 'next/link';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { requireSessionUser } from '@/lib/accounts';
import { consentChoices, isLoopbackRedirect, parseAuthorizationRequest } from '@/lib/oauth';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { getDb } from '@/lib/platform/db';
import { authorizeAction } from './actions';
import { marketplacePaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Connect an application' };
export const dynamic = 'force-dynamic';

// The authorization endpoint's consent page (docs/api.md §10.7): it names the domain the answer goes to.
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) if (typeof value === 'string') query.set(name, value);
  const db = await getDb();
  const parsed = await parseAuthorizationRequest(db, query, { requesterAddress: clientAddressFromHeaders(await headers()) });
  if (!parsed.ok) {
    if (parsed.redirect) redirect(parsed.redirect);
    return (
      <div className="mx-auto max-w-lg px-4 py-12">
        <h1 className="text-2xl font-semibold text-slate-900">This connection cannot be made</h1>
        <p className="mt-3 text-slate-700">{parsed.description}</p>
      </div>
    );
  }
  const { request } = parsed;
  const user = await requireSessionUser(`/oauth/authorize?${query.toString()}`);
  const choices = await consentChoices(db, user.id, request.kbId);
  const domain = new URL(request.redirectUri).host;
  return (
    <div className="mx-auto max-w-lg px-4 py-12">
      <h1 className="text-2xl font-semibold text-slate-900">Connect {request.client.name}</h1>
      <p className="mt-3 text-slate-700">
        <strong>{request.client.name}</strong>
        {request.client.metadataHost ? (
          <>
            {' '}
            (described by <strong>{request.client.metadataHost}</strong>; answers go to <strong>{domain}</strong>)
          </>
        ) : (
          <>
            {' '}
            (answers go to <strong>{domain}</strong>)
          </>
        )}{' '}
        asks to query <strong>{request.kbTitle}</strong> for you. Its queries count against the subscription you choose, like your API key; you can revoke its
        access at any time on your account page.
      </p>
      {request.client.metadataHost && isLoopbackRedirect(request.redirectUri) ? (
        <p className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          The answer goes to a program on your own computer ({domain}). Allow only if you just started connecting {request.client.name} yourself.
        </p>
      ) : null}
      {choices.length === 0 ? (
        <p className="mt-6 text-slate-700">
          You have no active subscription to {request.kbTitle}.{' '}
          <Link href={marketplacePaths.knowledgeBase(request.kbId)} className="font-medium text-brand-700 underline">
            See its plans
          </Link>{' '}
          (free ones first), then come back to this page.
        </p>
      ) : (
        <form action={authorizeAction} className="mt-6 space-y-4">
          <input type="hidden" name="request" value={query.toString()} />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Subscription</legend>
            {choices.map((s, i) => (
              <label key={s.id} className="flex items-center gap-2 text-slate-800">
                <input type="radio" name="subscriptionId" value={s.id} defaultChecked={i === 0} required />
                {s.plan.name}: {s.usage.remaining} of {s.usage.cap} queries left this period
              </label>
            ))}
          </fieldset>
          <div className="flex gap-3">
            <Button type="submit" name="decision" value="allow">
              Allow
            </Button>
            <Button type="submit" name="decision" value="deny" variant="secondary" formNoValidate>
              Deny
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

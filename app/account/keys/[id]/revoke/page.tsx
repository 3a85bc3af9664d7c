import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { SubmitButton } from '@/components/ui/submit-button';
import { ButtonLink } from '@/components/ui/button';
import { formatDateTime } from '@/lib/platform/format';
import { getDb } from '@/lib/platform/db';
import { requireSessionUser } from '@/lib/accounts';
import { getKeyForUser } from '@/lib/keys';
import { revokeKeyAction } from '../../../actions';

export const metadata: Metadata = { title: 'Revoke access' };
export const dynamic = 'force-dynamic';

/** The confirmation step before a revoke: a page of its own, so it works without JavaScript. */
export default async function RevokeKeyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireSessionUser(`/account/keys/${id}/revoke`);
  const key = await getKeyForUser(await getDb(), user.id, id);
  if (!key) notFound();
  // An OAuth grant is an app's access, not a key the buyer holds: no key to show, and its tokens answer 401, not 403.
  const grant = key.kind === 'oauth_grant';
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{grant ? 'Revoke this app’s access?' : 'Revoke this key?'}</h1>
      <dl className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] wrap-anywhere gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <dt className="font-medium text-slate-600">{grant ? 'App' : 'Name'}</dt>
        <dd className="text-slate-900">{key.name ?? 'Unnamed'}</dd>
        <dt className="font-medium text-slate-600">{grant ? 'Access' : 'Key'}</dt>
        {grant ? (
          <dd className="text-slate-900">Connected with OAuth (the app holds tokens; there is no key to copy)</dd>
        ) : (
          <dd className="break-all font-mono text-xs text-slate-900">{key.masked}</dd>
        )}
        <dt className="font-medium text-slate-600">Knowledge base</dt>
        <dd className="text-slate-900">{key.kbTitle}</dd>
        <dt className="font-medium text-slate-600">Created</dt>
        <dd className="text-slate-900">{formatDateTime(key.createdAt)}</dd>
        <dt className="font-medium text-slate-600">Last used</dt>
        <dd className="text-slate-900">{formatDateTime(key.lastUsedAt)}</dd>
      </dl>
      {key.status === 'revoked' ? (
        <p className="mt-4 text-sm text-slate-700">{grant ? 'This app’s access is already revoked.' : 'This key is already revoked.'}</p>
      ) : (
        <>
          {grant ? (
            <p className="mt-4 text-sm text-slate-800">
              The app loses access to this knowledge base within a second: its requests are refused with <code>401 invalid_token</code> and it cannot renew its
              tokens. Your subscription and your keys are not affected; to use the app again, connect it again from the app.
            </p>
          ) : (
            <p className="mt-4 text-sm text-slate-800">
              Every request with this key will be refused with <code>403 key_revoked</code> within a second. This cannot be undone; your subscription is not
              affected, and you can create a replacement key.
            </p>
          )}
          <form action={revokeKeyAction} className="mt-6 flex flex-wrap gap-3">
            <input type="hidden" name="keyId" value={key.id} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton variant="danger" pendingLabel="Revoking…">
              {grant ? 'Yes, revoke its access' : 'Yes, revoke this key'}
            </SubmitButton>
            <ButtonLink href="/account/keys" variant="secondary">
              Keep it
            </ButtonLink>
          </form>
        </>
      )}
    </div>
  );
}

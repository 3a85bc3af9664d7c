import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { accountFlash } from '@/components/account/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { ButtonLink } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { formatDateTime } from '@/lib/platform/format';
import { SubmitButton } from '@/components/ui/submit-button';
import { requireSessionUser } from '@/lib/accounts';
import { getKeyForUser, KEY_NAME_MAX_LENGTH } from '@/lib/keys';
import { getDb } from '@/lib/platform/db';
import { renameKeyAction } from '../../../actions';
import type { IdPageProps } from '@/lib/site/page-props';
import { accountPaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Rename key' };
export const dynamic = 'force-dynamic';

/** A page, not a dialog: it works without JavaScript. */
export default async function RenameKeyPage({ params, searchParams }: IdPageProps) {
  const { id } = await params;
  const query = await searchParams;
  const user = await requireSessionUser(accountPaths.renameKey(id));
  const key = await getKeyForUser(await getDb(), user.id, id);
  if (!key) notFound();
  const fromSubscription = query.from === 'subscription';
  const back = fromSubscription ? accountPaths.subscription(key.subscriptionId) : '/account/keys';
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Account', href: '/account' }, { label: 'API keys', href: '/account/keys' }, { label: 'Rename' }]} />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">
        {key.status === 'revoked' ? 'This key is revoked' : key.status === 'expired' ? 'This access has expired' : 'Rename key'}
      </h1>
      <p className="mt-1 text-sm text-slate-700 [overflow-wrap:anywhere]">
        <span className="break-all font-mono text-xs">{key.masked}</span> · {key.kbTitle} · created {formatDateTime(key.createdAt)}
      </p>
      <div className="mt-6">
        <FlashMessage message={accountFlash.read(query.flash)} />
      </div>
      {key.status !== 'active' ? (
        // renameKey refuses a revoked key or an expired access: say so rather than offer a form that cannot work.
        <div className="mt-2">
          <p className="text-sm text-slate-800" role="status">
            {key.status === 'revoked' ? (
              <>It was revoked on {formatDateTime(key.revokedAt)}</>
            ) : (
              <>The app has not renewed its access in time, so it can no longer act; connecting the app again makes a new one</>
            )}
            , so it cannot be renamed: it stays in your list as it was
            {key.name ? <>, named “{key.name}”</> : null}, for your records.
          </p>
          <ButtonLink href={back} variant="secondary" className="mt-4">
            {fromSubscription ? 'Back to the subscription' : 'Back to your keys'}
          </ButtonLink>
        </div>
      ) : (
        <form action={renameKeyAction} className="mt-2">
          <input type="hidden" name="keyId" value={key.id} />
          <input type="hidden" name="returnTo" value={fromSubscription ? 'subscription' : 'keys'} />
          <Field
            label="Name"
            name="name"
            defaultValue={key.name ?? ''}
            maxLength={KEY_NAME_MAX_LENGTH}
            autoComplete="off"
            hint={`Up to ${KEY_NAME_MAX_LENGTH} characters, for example "production server". Leave empty to remove the name.`}
          />
          <div className="mt-4 flex flex-wrap gap-3">
            <SubmitButton pendingLabel="Saving…">Save name</SubmitButton>
            <ButtonLink href={back} variant="secondary">
              Cancel
            </ButtonLink>
          </div>
        </form>
      )}
    </div>
  );
}

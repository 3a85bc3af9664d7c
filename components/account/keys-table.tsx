import Link from 'next/link';
import { formatInteger } from '@/lib/platform/format';
import { Timestamp } from '@/components/ui/timestamp';
import type { KeyUsage, KeyView } from '@/lib/keys';
import { StatusBadge } from './status-badge';
import { accountPaths } from '@/lib/site/paths';

const cell = 'px-4 py-1 @4xl:py-2';

/** The time to the minute would read as the same minute or the one before, hence "Within the last minute". */
export function LastUsed({ value, now }: { value: string | null; now: number }) {
  if (value && now - Date.parse(value) < 60_000) {
    return (
      <time dateTime={value} title={new Date(value).toISOString()}>
        within the last minute
      </time>
    );
  }
  return <Timestamp value={value} />;
}
/** A container query, not a media query: the table sits in boxes of different widths. */
const label = 'font-medium text-slate-600 @4xl:hidden';

// Keys as prefix…last4 only (docs/api.md §4.2): the whole key is never shown again.
export function KeysTable({
  keys,
  caption,
  usage,
  returnTo = 'keys',
}: {
  keys: KeyView[];
  caption: string;
  /** Last 30 days; absent keys read as zero. */
  usage?: Map<string, KeyUsage>;
  returnTo?: 'keys' | 'subscription';
}) {
  if (keys.length === 0) return <p className="text-sm text-slate-700">No keys yet.</p>;
  // eslint-disable-next-line react-hooks/purity -- a server component: it renders once per request, and "now" is that request's
  const now = Date.now();
  return (
    <div className="@container rounded-lg border border-slate-200 bg-white">
      <table role="table" className="block w-full text-left text-sm @4xl:table">
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="hidden bg-slate-50 text-slate-700 @4xl:table-header-group">
          <tr role="row">
            <th scope="col" className="px-4 py-2 font-medium">
              Key
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Knowledge base
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Created
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Last used
            </th>
            {usage ? (
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Queries, 30 days
              </th>
            ) : null}
            <th scope="col" className="px-4 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="block @4xl:table-row-group">
          {keys.map((key) => (
            <tr
              role="row"
              key={key.id}
              className="block border-t border-slate-100 py-2 first:border-t-0 @4xl:table-row @4xl:py-0 @4xl:first:border-t"
              data-testid={`key-row-${key.id}`}
            >
              <td role="cell" className={`${cell} block @4xl:table-cell`}>
                <span className="block font-medium text-slate-900 [overflow-wrap:anywhere]" data-testid="key-name">
                  {key.name ?? <span className="font-normal italic text-slate-600">Unnamed</span>}
                </span>
                {key.kind === 'oauth_grant' ? (
                  <span className="block text-xs text-slate-700">App access (OAuth)</span>
                ) : (
                  <span className="block break-all font-mono text-xs text-slate-700 @4xl:whitespace-nowrap @4xl:break-normal">{key.masked}</span>
                )}
              </td>
              <td role="cell" className={`${cell} flex flex-wrap gap-x-2 @4xl:table-cell`}>
                <span className={label}>Knowledge base</span>
                <Link href={accountPaths.subscription(key.subscriptionId)} className="text-brand-700 underline">
                  {key.kbTitle ?? key.kbId}
                </Link>
              </td>
              <td role="cell" className={`${cell} flex flex-wrap gap-x-2 @4xl:table-cell`}>
                <span className={label}>Created</span>
                <Timestamp value={key.createdAt} />
              </td>
              <td role="cell" className={`${cell} flex flex-wrap gap-x-2 @4xl:table-cell`}>
                <span className={label}>Last used</span>
                <LastUsed value={key.lastUsedAt} now={now} />
              </td>
              {usage ? (
                <td role="cell" className={`${cell} flex flex-wrap gap-x-2 tabular-nums @4xl:table-cell @4xl:text-right`} data-testid="key-usage">
                  <span className={label}>Queries, 30 days</span>
                  {formatInteger(usage.get(key.id)?.queries ?? 0)}
                </td>
              ) : null}
              <td role="cell" className={`${cell} flex flex-wrap items-center gap-x-2 @4xl:table-cell`}>
                <span className={label}>Status</span>
                <StatusBadge status={key.status} />
              </td>
              <td role="cell" className={`${cell} flex flex-wrap gap-x-4 gap-y-1 @4xl:table-cell @4xl:text-right`}>
                {key.status === 'active' ? (
                  <>
                    {/* A revoked key or an expired access is history: nothing to rename. */}
                    <Link
                      href={`${accountPaths.renameKey(key.id)}${returnTo === 'subscription' ? '?from=subscription' : ''}`}
                      className="mr-4 font-medium text-brand-700 underline"
                      aria-label={key.kind === 'oauth_grant' ? `Rename access of ${key.name ?? 'app'}` : `Rename key ${key.masked}`}
                    >
                      Rename
                    </Link>
                    <Link
                      href={`/account/keys/${key.id}/revoke`}
                      className="font-medium text-red-700 underline"
                      aria-label={key.kind === 'oauth_grant' ? `Revoke access of ${key.name ?? 'app'}` : `Revoke key ${key.masked}`}
                    >
                      Revoke…
                    </Link>
                  </>
                ) : key.status === 'expired' ? (
                  <span className="text-slate-600">Expired: the app must connect again</span>
                ) : (
                  <span className="text-slate-600">
                    Revoked <Timestamp value={key.revokedAt} />
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import Link from 'next/link';
import { formatDate, formatDateTime } from '@/components/ui/format';
import type { KeyView } from '@/lib/keys';
import { StatusBadge } from './status-badge';

/** Keys as prefix…last4 only (the whole key is never shown again), with a revoke step that asks for confirmation. */
export function KeysTable({ keys, caption }: { keys: KeyView[]; caption: string }) {
  if (keys.length === 0) return <p className="text-sm text-slate-700">No keys yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Knowledge base</th>
            <th scope="col" className="px-4 py-2 font-medium">Key</th>
            <th scope="col" className="px-4 py-2 font-medium">Created</th>
            <th scope="col" className="px-4 py-2 font-medium">Last used</th>
            <th scope="col" className="px-4 py-2 font-medium">Status</th>
            <th scope="col" className="px-4 py-2 font-medium"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} className="border-t border-slate-100" data-testid={`key-row-${key.id}`}>
              <td className="px-4 py-2">
                <Link href={`/account/subscriptions/${key.subscriptionId}`} className="text-brand-700 underline">
                  {key.kbTitle ?? key.kbId}
                </Link>
              </td>
              <td className="px-4 py-2 font-mono text-xs">{key.masked}</td>
              <td className="px-4 py-2">{formatDate(key.createdAt)}</td>
              <td className="px-4 py-2">{formatDateTime(key.lastUsedAt)}</td>
              <td className="px-4 py-2">
                <StatusBadge status={key.status} />
              </td>
              <td className="px-4 py-2 text-right">
                {key.status === 'active' ? (
                  <Link
                    href={`/account/keys/${key.id}/revoke`}
                    className="font-medium text-red-700 underline"
                    aria-label={`Revoke key ${key.masked}`}
                  >
                    Revoke…
                  </Link>
                ) : (
                  <span className="text-slate-600">Revoked {formatDate(key.revokedAt)}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { Metadata } from 'next';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { formatDateTime } from '@/lib/platform/format';
import { requireAdmin } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { listOutbox } from '@/lib/platform/mail';

export const metadata: Metadata = { title: 'Outbox — operator tools' };
export const dynamic = 'force-dynamic';

const STATUS: Record<string, string> = {
  outbox: 'bg-sky-100 text-sky-950',
  queued: 'bg-amber-100 text-amber-950',
  sent: 'bg-emerald-100 text-emerald-950',
  failed: 'bg-red-100 text-red-950',
};

/** Every email the server wrote, newest first (ADMIN_EMAILS). Without SMTP_URL this is where they are read. */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAdmin();
  const params = await searchParams;
  const to = typeof params.to === 'string' && params.to.trim() ? params.to.trim() : undefined;
  const messages = await listOutbox(await getDb(), { to, limit: 100 });
  const smtp = Boolean(getEnv().SMTP_URL);
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Operator tools', href: '/admin' }, { label: 'Outbox' }]} />
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">Outbox</h1>
      <p className="mt-1 text-sm text-slate-700">
        {smtp
          ? 'Email goes out through SMTP_URL; this is each message and its delivery status (single-use links are removed once sent).'
          : 'SMTP_URL is not set, so email is not sent: these messages are the deliveries. Also: npm run almanac -- outbox.'}
      </p>
      <form method="get" className="mt-4 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 sm:flex-none">
          <label htmlFor="outbox-to" className="block text-sm font-medium text-slate-800">
            Recipient
          </label>
          <input
            id="outbox-to"
            name="to"
            type="email"
            defaultValue={to}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm sm:w-72"
          />
        </div>
        <button
          type="submit"
          className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50"
        >
          Filter
        </button>
      </form>
      {messages.length === 0 ? (
        <p className="mt-6 text-sm text-slate-700">No messages{to ? ` to ${to}` : ''}.</p>
      ) : (
        <ol className="mt-6 space-y-4">
          {messages.map((m) => (
            <li key={m.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
                <span className={`rounded-full px-2 py-0.5 font-semibold ${STATUS[m.status] ?? ''}`}>{m.status}</span>
                <span>{formatDateTime(m.createdAt)}</span>
                <span>{m.kind}</span>
                {m.attempts > 0 ? <span>{m.attempts} attempts</span> : null}
              </div>
              <h2 className="mt-2 break-words text-sm font-semibold text-slate-900">{m.subject}</h2>
              <p className="break-all text-sm text-slate-700">To: {m.to}</p>
              {m.lastError ? <p className="mt-1 text-sm text-red-700">Last error: {m.lastError}</p> : null}
              <pre className="mt-2 whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs text-slate-900">{m.text}</pre>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

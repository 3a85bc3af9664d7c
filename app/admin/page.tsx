import type { Metadata } from 'next';
import Link from 'next/link';
import { requireAdmin } from '@/lib/accounts';

export const metadata: Metadata = { title: 'Operator tools' };
export const dynamic = 'force-dynamic';

const TOOLS = [
  { href: '/admin/listings', title: 'Listings and publishers', text: 'Review, suspend and restore knowledge bases and their publishers.' },
  { href: '/admin/outbox', title: 'Outbox', text: 'Every email the server has written: queued, sent or failed, newest first.' },
] as const;

/** The operator index (ADMIN_EMAILS; the layout refuses everyone else). */
export default async function AdminIndexPage() {
  const user = await requireAdmin();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Operator tools</h1>
      <p className="mt-1 text-sm text-slate-700">Signed in as {user.email} (an operator through ADMIN_EMAILS).</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {TOOLS.map((tool) => (
          <li key={tool.href} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <Link href={tool.href} className="text-base font-semibold text-brand-700 underline-offset-2 hover:underline">
              {tool.title}
            </Link>
            <p className="mt-1 text-sm text-slate-700">{tool.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

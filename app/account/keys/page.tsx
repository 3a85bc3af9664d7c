import type { Metadata } from 'next';
import Link from 'next/link';
import { FlashMessage } from '@/components/account/flash-message';
import { KeysTable } from '@/components/account/keys-table';
import { getDb } from '@/lib/db';
import { requireSessionUser } from '@/lib/session';
import { listKeysForUser } from '@/lib/subscriptions';

export const metadata: Metadata = { title: 'API keys' };
export const dynamic = 'force-dynamic';

export default async function KeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser('/account/keys');
  const params = await searchParams;
  const keys = await listKeysForUser(await getDb(), user.id);
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-700">
        <Link href="/account" className="text-brand-700 underline">
          Account
        </Link>{' '}
        / API keys
      </nav>
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">API keys</h1>
      <p className="mt-1 text-sm text-slate-700">
        Keys are shown in full only once, when they are created. Here you see their first characters and last four. Create a replacement
        key from a subscription&apos;s page.
      </p>
      <div className="mt-6">
        <FlashMessage code={typeof params.flash === 'string' ? params.flash : undefined} />
        <KeysTable keys={keys} caption="All your API keys" />
      </div>
    </div>
  );
}

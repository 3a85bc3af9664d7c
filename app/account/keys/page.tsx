import type { Metadata } from 'next';
import { accountFlash } from '@/components/account/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { KeysTable } from '@/components/account/keys-table';
import { getDb } from '@/lib/platform/db';
import { requireSessionUser } from '@/lib/accounts';
import { getKeyUsageForUser, listKeysForUser } from '@/lib/keys';
import { Breadcrumb } from '@/components/ui/breadcrumb';

export const metadata: Metadata = { title: 'API keys' };
export const dynamic = 'force-dynamic';

export default async function KeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser('/account/keys');
  const params = await searchParams;
  const db = await getDb();
  const [keys, usage] = await Promise.all([listKeysForUser(db, user.id), getKeyUsageForUser(db, user.id)]);
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Account', href: '/account' }, { label: 'API keys' }]} />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">API keys</h1>
      <p className="mt-1 text-sm text-slate-700">
        Keys are shown in full only once, when they are created. Here you see their names, first characters and last four, and the queries each answered in the
        last 30 days. Create a replacement key from a subscription&apos;s page.
      </p>
      <div className="mt-6">
        <FlashMessage message={accountFlash.read(params.flash)} />
        <KeysTable keys={keys} usage={usage} caption="All your API keys" />
      </div>
    </div>
  );
}

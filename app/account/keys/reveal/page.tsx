import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { withFlash } from '@/components/account/flash';
import { KeyReveal } from '@/components/billing/key-reveal';
import { ButtonLink } from '@/components/ui/button';
import { revealHandoff } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { baseUrl } from '@/lib/platform/base-url';
import { requireSessionUser } from '@/lib/accounts';
import { accountPaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'New API key', robots: { index: false } };
export const dynamic = 'force-dynamic';

/** Shows a replacement key once (single-read handoff); a reload goes back to the keys list. */
export default async function RevealKeyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const handoff = typeof params.handoff === 'string' ? params.handoff.slice(0, 100) : '';
  const user = await requireSessionUser('/account/keys');
  const shown = handoff ? await revealHandoff(await getDb(), user.id, handoff) : null;
  if (!shown) redirect(withFlash('/account/keys', 'key_gone'));
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New key for {shown.kbTitle}</h1>
      <p className="mt-2 text-sm text-slate-700">Your previous keys keep working until you revoke them.</p>
      <div className="mt-6">
        <KeyReveal apiKey={shown.plaintext} kbId={shown.kbId} baseUrl={baseUrl()} sampleQuestion={shown.sampleQuestion} usage={shown.usage} />
      </div>
      <ButtonLink href={accountPaths.subscription(shown.subscriptionId)} className="mt-6">
        Back to the subscription
      </ButtonLink>
    </div>
  );
}

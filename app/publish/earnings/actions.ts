'use server';

import { redirect } from 'next/navigation';
import { withPublishFlash } from '@/components/publish/flash';
import { publishPaths } from '@/lib/site/paths';
import { requireSessionUser } from '@/lib/accounts';
import { startConnectOnboarding } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';

/** Sends the publisher to Stripe's Express onboarding (creating the account the first time). */
export async function startConnectAction(): Promise<void> {
  const user = await requireSessionUser(publishPaths.earnings);
  const result = await startConnectOnboarding(await getDb(), { userId: user.id, email: user.email });
  if (result.ok) redirect(result.url);
  redirect(result.code === 'not_found' ? publishPaths.overview : withPublishFlash(publishPaths.earnings, 'stripe_unavailable'));
}

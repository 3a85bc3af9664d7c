'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { requireSessionUser } from '@/lib/accounts';
import { approveAuthorization, denyAuthorization, parseAuthorizationRequest } from '@/lib/oauth';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { getDb } from '@/lib/platform/db';

// The consent form's answer (docs/api.md §10.7): the request is checked again, and the buyer comes from the session.
export async function authorizeAction(formData: FormData): Promise<void> {
  const query = String(formData.get('request') ?? '');
  const returnTo = `/oauth/authorize?${query}`;
  const user = await requireSessionUser(returnTo);
  const db = await getDb();
  const parsed = await parseAuthorizationRequest(db, new URLSearchParams(query), { requesterAddress: clientAddressFromHeaders(await headers()) });
  if (!parsed.ok) redirect(parsed.redirect ?? returnTo);
  if (formData.get('decision') !== 'allow') redirect(denyAuthorization(parsed.request));
  const approved = await approveAuthorization(db, user.id, parsed.request, String(formData.get('subscriptionId') ?? ''));
  redirect(approved.ok ? approved.redirect : returnTo);
}

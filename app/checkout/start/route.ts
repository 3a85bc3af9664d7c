import { z } from 'zod';
import { findPurchasablePlan, startCheckout } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { errorResponse, isSameOriginPost, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { idSchema } from '@/lib/platform/text-input';
import { getSessionUser, requireVerifiedEmail, VERIFY_FIRST_PATH } from '@/lib/accounts';
import { accountPaths, marketplacePaths } from '@/lib/site/paths';
import { withFlash } from '@/components/account/flash';

export const dynamic = 'force-dynamic';

const formSchema = z.object({ planId: idSchema() });

/** Relative, so the browser stays on the host it used (127.0.0.1 and localhost have different cookies). */
function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

// The Buy button's target (docs/api.md §5.7): Stripe Checkout, or the test checkout when Stripe is not configured.
const start = withApiRoute(async (request, { requestId }) => {
  if (!isSameOriginPost(request)) return errorResponse('forbidden', 'Purchases must start from this site.', requestId);
  const parsed = formSchema.safeParse(Object.fromEntries((await request.formData().catch(() => new FormData())).entries()));
  if (!parsed.success) return errorResponse('invalid_request', 'planId is required.', requestId);
  const db = await getDb();
  const user = await getSessionUser();
  if (!user) {
    const plan = await findPurchasablePlan(db, parsed.data.planId);
    const back = plan ? marketplacePaths.knowledgeBase(plan.kbId) : '/';
    // The plan goes along so that sign-in can say what it is for ("Sign in to buy Starter of …").
    return seeOther(`/signin?callbackUrl=${encodeURIComponent(back)}${plan ? `&plan=${encodeURIComponent(plan.planId)}` : ''}`);
  }
  if (!(await requireVerifiedEmail(db, user.id)).ok) return seeOther(VERIFY_FIRST_PATH);
  const result = await startCheckout(db, { userId: user.id, email: user.email, planId: parsed.data.planId });
  if (result.ok) return seeOther(result.url);
  switch (result.code) {
    case 'already_subscribed':
      return seeOther(withFlash(accountPaths.subscription(result.subscriptionId), 'already_subscribed'));
    case 'stripe_unavailable':
      return seeOther(`${marketplacePaths.knowledgeBase(result.kbId)}?checkout=unavailable`);
    default:
      return errorResponse('not_found', 'That plan is not available for purchase.', requestId);
  }
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: start });

/**
 * What just happened, after a server action redirected back here (`?flash=<code>`). Only known codes are shown, so
 * a crafted link cannot put arbitrary text on the page.
 */
const MESSAGES: Record<string, { tone: 'success' | 'error' | 'info'; text: string }> = {
  plan_changed: { tone: 'success', text: 'Plan changed. The new query cap applies now; queries already used this period carry over.' },
  cancelled: { tone: 'success', text: 'Your subscription will end at the end of the current period. You keep access until then.' },
  resumed: { tone: 'success', text: 'Your subscription will renew as usual.' },
  key_revoked: { tone: 'success', text: 'The key was revoked. Requests with it are now refused with 403 key_revoked.' },
  key_already_revoked: { tone: 'info', text: 'That key was already revoked.' },
  already_subscribed: { tone: 'info', text: 'You already have a subscription to this knowledge base — here it is.' },
  not_found: { tone: 'error', text: 'We could not find that item in your account.' },
  conflict: { tone: 'error', text: 'That change is not possible in the subscription’s current state.' },
  invalid_plan: { tone: 'error', text: 'That plan is not available for this subscription.' },
  stripe_unavailable: { tone: 'error', text: 'Our payment provider could not be reached; nothing was changed. Please try again.' },
  no_customer: { tone: 'info', text: 'There is no billing account yet: it is created with your first paid purchase.' },
  stripe_not_configured: { tone: 'info', text: 'This server takes no payments (test mode), so there is no billing portal.' },
  key_gone: { tone: 'info', text: 'That key has already been shown, or the link expired. Create another replacement key if you need one.' },
};

export function FlashMessage({ code }: { code: string | undefined }) {
  const message = code ? MESSAGES[code] : undefined;
  if (!message) return null;
  const styles =
    message.tone === 'success'
      ? 'border-emerald-300 bg-emerald-50 text-emerald-950'
      : message.tone === 'error'
        ? 'border-red-300 bg-red-50 text-red-950'
        : 'border-sky-300 bg-sky-50 text-sky-950';
  return (
    <p role={message.tone === 'error' ? 'alert' : 'status'} data-testid="flash" className={`mb-6 rounded-md border px-4 py-3 text-sm ${styles}`}>
      {message.text}
    </p>
  );
}

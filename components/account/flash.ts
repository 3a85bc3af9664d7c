import { flashMessages, type FlashText } from '@/lib/site/flash';

// `?flash=<code>` after a redirect back to an account page. Only known codes are shown, so a crafted link cannot put
// arbitrary text on the page.
export const FLASH_MESSAGES = {
  plan_changed: { tone: 'success', text: 'Plan changed. The new query cap applies now; queries already used this period carry over.' },
  downgrade_scheduled: {
    tone: 'success',
    text: 'Downgrade scheduled. Your current plan and its cap stay until the next renewal; the smaller plan starts then.',
  },
  downgrade_withdrawn: { tone: 'success', text: 'The scheduled downgrade was withdrawn: your plan stays as it is.' },
  key_renamed: { tone: 'success', text: 'The key’s name was saved.' },
  cancelled: { tone: 'success', text: 'Your subscription will end at the end of the current period. You keep access until then.' },
  resumed: { tone: 'success', text: 'Your subscription will renew as usual.' },
  key_revoked: { tone: 'success', text: 'The key was revoked. Requests with it are now refused with 403 key_revoked.' },
  grant_revoked: { tone: 'success', text: "The app's access was revoked. Its tokens are now refused with 401 invalid_token, and it cannot renew them." },
  email_verified: { tone: 'success', text: 'Your email address is confirmed. You can buy plans and create API keys.' },
  already_subscribed: { tone: 'info', text: 'You already have a subscription to this knowledge base — here it is.' },
  key_gone: { tone: 'info', text: 'That key has already been shown, or the link expired. Create another replacement key if you need one.' },
  key_is_revoked: { tone: 'info', text: 'That key is revoked, so it cannot be renamed. It stays listed under the name it had, for your records.' },
  no_customer: { tone: 'info', text: 'There is no billing account yet: it is created with your first paid purchase.' },
  stripe_not_configured: { tone: 'info', text: 'This server takes no payments (test mode), so there is no billing portal.' },
  key_name_invalid: { tone: 'error', text: 'A key name has at most 60 characters and no control characters. Nothing was changed.' },
  not_found: { tone: 'error', text: 'We could not find that item in your account.' },
  conflict: { tone: 'error', text: 'That change is not possible in the subscription’s current state.' },
  invalid_plan: { tone: 'error', text: 'That plan is not available for this subscription.' },
  stripe_unavailable: { tone: 'error', text: 'Our payment provider could not be reached; nothing was changed. Please try again.' },
} as const satisfies Record<string, FlashText>;

export const accountFlash = flashMessages(FLASH_MESSAGES);
export type FlashCode = keyof typeof FLASH_MESSAGES;
export const { withFlash, parse: parseFlash } = accountFlash;

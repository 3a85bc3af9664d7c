import { flashMessages, type FlashText } from '@/lib/site/flash';

// `?flash=<code>` in the publisher console: a closed set, so a crafted link cannot put arbitrary text on a page.
const PUBLISH_FLASH = {
  profile_created: { tone: 'success', text: 'Your publisher profile is ready. Create your first listing.' },
  profile_saved: { tone: 'success', text: 'Profile saved.' },
  listing_created: { tone: 'success', text: 'Draft created. Add content and at least one plan, then publish it.' },
  listing_saved: { tone: 'success', text: 'Listing saved.' },
  listing_deleted: { tone: 'success', text: 'The draft listing was deleted, with its plans and documents.' },
  published: { tone: 'success', text: 'Published: the listing is in the catalogue and can be bought.' },
  unpublished: {
    tone: 'success',
    text: 'Unpublished: it left the catalogue and cannot be bought. Existing subscribers keep access until the end of their current period, and their subscriptions renew again if you publish it before then.',
  },
  republished_renewing: {
    tone: 'success',
    text: 'Published again: the listing is in the catalogue, and the subscriptions that unpublishing had set to end renew as before.',
  },
  plan_created: { tone: 'success', text: 'Plan added. It can be bought at once when the listing is published.' },
  plan_saved: { tone: 'success', text: 'Plan saved.' },
  plan_replaced: {
    tone: 'success',
    text: 'New terms saved as a new plan for new purchases. Current subscribers keep their plan until their next renewal, then move to it.',
  },
  plan_retired: { tone: 'success', text: 'Plan retired: it can no longer be bought. Its subscribers keep it.' },
  plan_deleted: { tone: 'success', text: 'Plan deleted.' },
  needs_plan: { tone: 'error', text: 'Add at least one plan before publishing: buyers need something to buy.' },
  needs_backend: { tone: 'error', text: 'Connect your endpoint (Content tab) before publishing: without it every query would fail.' },
  last_plan: { tone: 'error', text: 'This is the last plan of a published listing: add another plan or unpublish the listing first.' },
  has_subscribers: {
    tone: 'error',
    text: 'This plan has or had subscribers, so it cannot be deleted: retire it instead (no new purchases; its subscribers keep it).',
  },
  not_found: { tone: 'error', text: 'We could not find that in your publisher account.' },
  conflict: { tone: 'error', text: 'That change is not possible in the listing’s current state.' },
  backend_saved: { tone: 'success', text: 'Backend saved. Send a test query to check that your endpoint answers.' },
  backend_hosted: { tone: 'success', text: 'This listing answers from its uploaded documents again. Your endpoint, key and secret were forgotten.' },
  connect_returned: { tone: 'info', text: 'Back from Stripe. Your payout account status is shown below.' },
  stripe_unavailable: { tone: 'error', text: 'Stripe could not be reached to create the price; nothing was changed. Please try again.' },
  suspended: { tone: 'success', text: 'Suspended. Its keys now answer 403 and it left the catalogue.' },
  restored: { tone: 'success', text: 'Restored to the state it had before the suspension.' },
  publisher_closed: { tone: 'error', text: 'This publisher was closed when its owner deleted their account; it cannot be restored.' },
  restore_publisher_first: { tone: 'error', text: 'Its publisher is suspended: restore the publisher, which restores the listings suspended with it.' },
} as const satisfies Record<string, FlashText>;

export const publishFlash = flashMessages(PUBLISH_FLASH);
export type PublishFlashCode = keyof typeof PUBLISH_FLASH;
export const { withFlash: withPublishFlash } = publishFlash;

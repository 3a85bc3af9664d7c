/**
 * The site's paths: one typed table for every link, redirect and email naming a page, so each URL is written once and
 * its ids percent-encoded the same way; `siteUrl` (lib/platform/base-url.ts) makes them absolute.
 */
const segment = encodeURIComponent;

export const marketplacePaths = {
  home: '/',
  catalog: '/knowledge-bases',
  knowledgeBase: (kbId: string) => `/knowledge-bases/${segment(kbId)}`,
  publisher: (slug: string) => `/publishers/${segment(slug)}`,
  docs: '/docs',
  /** The API reference with its examples filled in for one knowledge base. */
  docsFor: (kbId: string) => `/docs?kb=${segment(kbId)}`,
} as const;

export const accountPaths = {
  overview: '/account',
  keys: '/account/keys',
  keyReveal: '/account/keys/reveal',
  renameKey: (keyId: string) => `/account/keys/${segment(keyId)}/rename`,
  settings: '/account/settings',
  subscription: (subscriptionId: string) => `/account/subscriptions/${segment(subscriptionId)}`,
  /** The confirmation step of a plan change; without a plan, the page the plan picker submits to (`?plan=`). */
  changePlan: (subscriptionId: string, planId?: string) =>
    `/account/subscriptions/${segment(subscriptionId)}/change${planId === undefined ? '' : `?plan=${segment(planId)}`}`,
} as const;

export const publishPaths = {
  overview: '/publish',
  profile: '/publish/profile',
  newListing: '/publish/listings/new',
  analytics: '/publish/analytics',
  earnings: '/publish/earnings',
  listing: (kbId: string) => `/publish/listings/${segment(kbId)}`,
  plans: (kbId: string) => `/publish/listings/${segment(kbId)}/plans`,
  content: (kbId: string) => `/publish/listings/${segment(kbId)}/content`,
  listingAnalytics: (kbId: string) => `/publish/listings/${segment(kbId)}/analytics`,
} as const;

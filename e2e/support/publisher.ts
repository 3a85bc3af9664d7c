import { expect, type APIRequestContext } from '@playwright/test';
import { submitPageForm } from './http-forms';

// The publisher console's forms posted over HTTP for the account signed in on `request`: publish-console.spec.ts drives
// them in the browser (listing-form.spec.ts the listing form's errors).

export async function publisherProfileOverHttp(request: APIRequestContext, profile: { name: string; slug: string }): Promise<void> {
  const created = await submitPageForm(request, '/publish', 'slug', profile);
  expect(created.status(), 'the publisher profile was refused').toBe(303);
}

/** A publisher profile and a draft listing; the listing's id. */
export async function draftListingOverHttp(
  request: APIRequestContext,
  listing: { publisher: string; slug: string; title: string; summary: string },
): Promise<string> {
  await publisherProfileOverHttp(request, { name: listing.publisher, slug: listing.slug });
  const draft = await submitPageForm(request, '/publish/listings/new', 'title', { title: listing.title, summary: listing.summary, category: 'research' });
  const location = draft.headers().location ?? '';
  expect(location, 'the draft listing was refused').toMatch(/^\/publish\/listings\/kb_[0-9A-Za-z]+\?flash=listing_created$/);
  return /kb_[0-9A-Za-z]+/.exec(location)![0];
}

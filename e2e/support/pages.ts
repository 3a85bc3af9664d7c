import type { APIRequestContext } from '@playwright/test';

// The main pages, for the accessibility scan and the screenshots; seeded ids are resolved through the public API.
export interface MainPage {
  name: string;
  path: (request: APIRequestContext) => Promise<string>;
  signedIn?: boolean;
}

interface ListItem {
  id: string;
  title: string;
  publisher: string;
  tags: string[];
  category: string;
}

export async function listViaApi(request: APIRequestContext, query = ''): Promise<{ items: ListItem[]; total: number; totalPages: number }> {
  const response = await request.get(`/api/marketplace/knowledge-bases${query ? `?${query}` : ''}`);
  if (!response.ok()) throw new Error(`listing API answered ${response.status()}`);
  return response.json();
}

export async function firstKnowledgeBase(request: APIRequestContext): Promise<ListItem> {
  const { items } = await listViaApi(request);
  if (!items[0]) throw new Error('the seeded catalogue is empty');
  return items[0];
}

export async function publisherPathOf(request: APIRequestContext, kbId: string): Promise<string> {
  const html = await (await request.get(`/knowledge-bases/${kbId}`)).text();
  const match = /href="(\/publishers\/[^"]+)"/.exec(html);
  if (!match) throw new Error('no publisher link on the knowledge-base page');
  return match[1]!;
}

export const MAIN_PAGES: MainPage[] = [
  { name: 'home', path: async () => '/' },
  { name: 'catalogue', path: async () => '/knowledge-bases' },
  { name: 'catalogue-filtered', path: async () => '/knowledge-bases?category=health&sort=new' },
  { name: 'catalogue-empty', path: async () => '/knowledge-bases?query=zzzqqqxxy' },
  { name: 'knowledge-base', path: async (request) => `/knowledge-bases/${(await firstKnowledgeBase(request)).id}` },
  { name: 'publisher', path: async (request) => publisherPathOf(request, (await firstKnowledgeBase(request)).id) },
  { name: 'sign-in', path: async () => '/signin' },
  { name: 'sign-up', path: async () => '/signup' },
  { name: 'forgot-password', path: async () => '/forgot-password' },
  { name: 'reset-password-expired', path: async () => '/reset-password?token=0000000000000000000000000000000000' },
  { name: 'verify-email-expired', path: async () => '/verify-email?invalid=1' },
  { name: 'not-found', path: async () => '/knowledge-bases/kb_doesnotexist0000' },
  // /docs is scanned by e2e/docs.spec.ts; pages with a subscription by e2e/journey.spec.ts and e2e/account.spec.ts.
  { name: 'account', path: async () => '/account', signedIn: true },
  { name: 'account-keys', path: async () => '/account/keys', signedIn: true },
  { name: 'account-settings', path: async () => '/account/settings', signedIn: true },
];

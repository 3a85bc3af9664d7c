import type { APIRequestContext, APIResponse } from '@playwright/test';
import { encodeForm, parseForms } from '../../test/support/html-forms';

// Set-up over HTTP for specs whose subject lies past a form that another spec drives in the browser.

/** The POST form of `path` that has a field named `field`, filled and sent as a browser without JavaScript sends it. */
export async function submitPageForm(request: APIRequestContext, path: string, field: string, values: Record<string, string> = {}): Promise<APIResponse> {
  const page = await request.get(path);
  const form = parseForms(await page.text(), path, false).find((f) => f.method === 'POST' && f.fields.some(([name]) => name === field));
  if (!form) throw new Error(`no form with a "${field}" field on ${path}`);
  const { body, contentType } = encodeForm(form, values);
  // Next refuses a server action whose Origin is another site's; a browser sends its own.
  return request.post(form.action, { data: body, headers: { 'Content-Type': contentType, Origin: new URL(page.url()).origin }, maxRedirects: 0 });
}

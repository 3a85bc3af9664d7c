/**
 * A client's redirect URI (docs/api.md §10.7), registered or in its metadata document: https, or http on a loopback
 * address (a desktop client's local listener); never a fragment. Matched exactly at authorization.
 */
export function isAllowedRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** A loopback redirect URI: any program on the user's machine could listen there, so the consent page says so. */
export function isLoopbackRedirect(value: string): boolean {
  const url = new URL(value);
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

import { getEnv } from './env';
import { log } from './log';
import { isHttpsUrl } from './security-headers.mjs';
import { processSingleton, replaceProcessSingleton } from './singleton';

/**
 * The one base URL every absolute link, redirect and callback is built from: APP_URL, else the address `npm start`
 * listens on, else http://localhost:3000. Production with DATABASE_URL requires APP_URL: behind a load balancer, an
 * instance's listening address is never the one its users see.
 */
const DEFAULT_BASE_URL = 'http://localhost:3000';

export type BaseUrlSource = 'APP_URL' | 'listening address' | 'default';

export function resolveBaseUrl(): { url: string; source: BaseUrlSource } {
  const env = getEnv();
  if (env.APP_URL) return { url: env.APP_URL, source: 'APP_URL' };
  if (env.NODE_ENV === 'production' && env.DATABASE_URL) {
    throw new Error(
      'APP_URL must be set when DATABASE_URL is set in production: it is the public address of this deployment (links, ' +
        'sign-in callbacks, and the only origin a form may be posted from), e.g. APP_URL=https://almanac.example.com',
    );
  }
  if (env.ALMANAC_LISTEN_URL) return { url: env.ALMANAC_LISTEN_URL, source: 'listening address' };
  const adopted = processSingleton<string | undefined>(ADOPTED, () => undefined);
  if (adopted) return { url: adopted, source: 'listening address' };
  return { url: DEFAULT_BASE_URL, source: 'default' };
}

const ADOPTED = 'base-url:adopted';

/** The operator CLI adopts the running server's address (its server.json) so its hints name that port; APP_URL wins. */
export function adoptServerBaseUrl(url: string | undefined): void {
  replaceProcessSingleton(ADOPTED, url);
}

/** Logs the base URL and its source at start; the throw when there is none stops the start (startup.ts). */
export function announceBaseUrl(): void {
  const base: { url: string; source: BaseUrlSource } = resolveBaseUrl();
  const from = base.source === 'APP_URL' ? 'APP_URL' : `the ${base.source}; set APP_URL to change it`;
  log.info({ baseUrl: base.url, source: base.source }, `base URL ${base.url} (from ${from})`);
}

/** The site's base URL: an origin without a trailing slash (`https://almanac.example.com`). */
export function baseUrl(): string {
  return resolveBaseUrl().url;
}

export function siteUrl(pathAndQuery: string): string {
  return new URL(pathAndQuery, baseUrl()).toString();
}

export function isHttpsSite(): boolean {
  return isHttpsUrl(baseUrl());
}

/** Form origins: APP_URL's alone when set, else also the request's Host, which a cross-site page cannot choose for a victim. */
export function allowedFormOrigins(request: Request): Set<string> {
  const { url, source } = resolveBaseUrl();
  const allowed = new Set([url]);
  if (source === 'APP_URL') return allowed;
  if (URL.canParse(request.url)) allowed.add(new URL(request.url).origin);
  const host = request.headers.get('host');
  if (host) {
    for (const scheme of ['http', 'https']) {
      const candidate = `${scheme}://${host}`;
      if (URL.canParse(candidate)) allowed.add(new URL(candidate).origin);
    }
  }
  return allowed;
}

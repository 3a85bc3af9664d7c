import { getEnv } from './env';
import { log } from './log';
import { isHttpsUrl } from './security-headers.mjs';
import { processSingleton, replaceProcessSingleton } from './singleton';

/**
 * The one base URL of this site, from which every absolute link, snippet, redirect and callback is built: APP_URL
 * when set (behind a proxy, the only right one); else the address `npm start` listens on (ALMANAC_LISTEN_URL, set by
 * scripts/serve.mjs, or the running server's for the CLI); else Next's default http://localhost:3000. With
 * DATABASE_URL in production an unset APP_URL stops the start (instrumentation.ts): the listening address of an
 * instance behind a load balancer is never the one its users see.
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

/**
 * For the operator CLI: the listening address of the running `npm start` whose embedded database it shares (its
 * server.json, lib/platform/embedded-db.ts), so the hints it prints name that server's port. APP_URL still wins.
 */
export function adoptServerBaseUrl(url: string | undefined): void {
  replaceProcessSingleton(ADOPTED, url);
}

/**
 * At server start (instrumentation.ts): logs the base URL and where it comes from, or throws when the configuration
 * gives none: a deployment that cannot say where it lives must not start at all.
 */
export function announceBaseUrl(): void {
  // A throw ends start-up with its reason (lib/platform/startup.ts, which wraps this call).
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

/** Whether the site is served over https (secure cookies, HSTS). */
export function isHttpsSite(): boolean {
  return isHttpsUrl(baseUrl());
}

/**
 * The origins a browser form post may come from. With APP_URL: that origin only, whatever Host the request names.
 * Without it (a laptop, a test server): the base URL and the origin the browser itself used, i.e. the request's Host
 * header (127.0.0.1:3999 and localhost:3999 are both this server), or the request's URL. A cross-site page cannot choose the Host a browser
 * sends with the victim's cookies, so this still refuses every other site.
 */
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

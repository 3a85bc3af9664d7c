// The security headers of every answer: pages and route handlers (next.config.mjs `headers()`, and scripts/serve.mjs
// at run time) and the gateway's fast lane (lib/server/keyed-lane.ts). One list, so the faces cannot drift apart. Plain
// JavaScript, because next.config.mjs and serve.mjs import it without a build step; typed by security-headers.d.mts.

/**
 * Content-Security-Policy without a nonce. Next's production pages carry inline scripts (the RSC payload,
 * `self.__next_f.push(…)`, and its bootstrap); a nonce would have to be minted per request in a proxy and would make
 * every page dynamic, giving up the static and cached pages. So scripts are `'self' 'unsafe-inline'`: no script from
 * any other origin can run, while an injected inline script could; React's escaping is the defence there. Styles
 * allow inline for React's `style` attributes. Nothing is loaded from another origin (no CDN, no remote font or
 * image). `form-action` is left out on purpose: the Buy and OAuth forms redirect to Stripe, GitHub, Google (or the
 * operator's own hosts), and Chromium applies form-action to those redirects too.
 */
function contentSecurityPolicy(development) {
  return [
    "default-src 'self'",
    // React's development build evaluates code for its stack traces and fast refresh (`next dev` only).
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** One year; no includeSubDomains or preload, which would bind the operator's other hosts. */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * @param {{ https?: boolean, development?: boolean }} [options] https: the site is served over https (APP_URL), which
 *   adds Strict-Transport-Security; development: `next dev`.
 * @returns {{ key: string, value: string }[]}
 */
export function securityHeaders({ https = false, development = false } = {}) {
  const headers = [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy(development) },
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  ];
  if (https) headers.push({ key: 'Strict-Transport-Security', value: HSTS_VALUE });
  return headers;
}

/** Whether a base URL (APP_URL) is https: the one rule for HSTS. */
export function isHttpsUrl(url) {
  return typeof url === 'string' && url.startsWith('https://');
}

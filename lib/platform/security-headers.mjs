// The security headers of every answer: Next's (next.config.mjs, scripts/serve.mjs) and the fast lane's. One list so the
// faces cannot drift apart; plain JavaScript, imported without a build step; typed by security-headers.d.mts.

/**
 * No nonce: Next's pages carry inline scripts, and a per-request nonce would make every page dynamic. So scripts are
 * `'self' 'unsafe-inline'`: no other origin's script runs, and React's escaping guards against injected inline ones
 * (styles likewise, for React's `style` attributes). `form-action` is left out on purpose: the Buy and OAuth forms
 * redirect to Stripe, GitHub or Google, and Chromium applies form-action to those redirects too.
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

/** @param {{ https?: boolean, development?: boolean }} [options] `https` (APP_URL) adds Strict-Transport-Security. */
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

export function isHttpsUrl(url) {
  return typeof url === 'string' && url.startsWith('https://');
}

import { describe, expect, it } from 'vitest';
import { HSTS_VALUE, isHttpsUrl, securityHeaders } from './security-headers.mjs';

const asRecord = (list: { key: string; value: string }[]) => Object.fromEntries(list.map(({ key, value }) => [key, value]));

describe('securityHeaders', () => {
  it('refuses framing, sniffing and cross-origin referrers, and loads nothing from another origin', () => {
    const headers = asRecord(securityHeaders());
    expect(headers).toMatchObject({
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    const csp = headers['Content-Security-Policy']!.split('; ');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    // No CDN, no other origin, no eval in production.
    expect(headers['Content-Security-Policy']).not.toMatch(/https?:|\*|unsafe-eval/);
  });

  it('adds HSTS only when the site is https', () => {
    expect(asRecord(securityHeaders({ https: false }))['Strict-Transport-Security']).toBeUndefined();
    expect(asRecord(securityHeaders({ https: true }))['Strict-Transport-Security']).toBe(HSTS_VALUE);
    expect(isHttpsUrl('https://almanac.example.com')).toBe(true);
    expect(isHttpsUrl('http://localhost:3000')).toBe(false);
    expect(isHttpsUrl(undefined)).toBe(false);
  });

  it('lets React’s development build evaluate code under next dev only', () => {
    expect(asRecord(securityHeaders({ development: true }))['Content-Security-Policy']).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
  });
});

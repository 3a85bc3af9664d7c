import { describe, expect, it } from 'vitest';
import { mayReadMetrics, observeRequest, observeStage, renderMetrics, routeLabel } from './metrics';

describe('routeLabel', () => {
  it.each([
    ['/kb/kb_jQfFzb7vprilaWNh/query', 200, '/kb/{id}/query'],
    ['/kb/kb_jQfFzb7vprilaWNh/query?stream=1', 429, '/kb/{id}/query'],
    ['/account/subscriptions/sub_Ab12Cd34Ef56', 200, '/account/subscriptions/{id}'],
    ['/_next/static/chunks/app-123.js', 200, '/_next'],
    ['/wp-login.php', 404, 'unmatched'],
    ['/', 200, '/'],
    ['/api/health/ready', 503, '/api/health/ready'],
  ])('%s (%i) is %s', (url, status, label) => {
    expect(routeLabel(url, status)).toBe(label);
  });

  it('stops adding routes at its bound', () => {
    for (let i = 0; i < 250; i++) routeLabel(`/bound-test-${i}`, 200);
    expect(routeLabel('/one-more-path', 200)).toBe('other');
    expect(routeLabel('/kb/kb_jQfFzb7vprilaWNh/query', 200)).toBe('/kb/{id}/query');
  });
});

describe('mayReadMetrics', () => {
  const token = 'scrape-token-0123456789';
  it.each([
    [token, `Bearer ${token}`, '203.0.113.9', true],
    [token, `bearer ${token}`, '203.0.113.9', true],
    [token, 'Bearer scrape-token-0123456780', '127.0.0.1', false],
    [token, null, '127.0.0.1', false],
    [undefined, null, '127.0.0.1', true],
    [undefined, null, '10.1.2.3', true],
    [undefined, null, '172.20.0.5', true],
    [undefined, null, '192.168.1.10', true],
    [undefined, null, '::1', true],
    [undefined, null, '::ffff:10.0.0.7', true],
    [undefined, null, 'fd12::1', true],
    [undefined, null, '172.32.0.1', false],
    [undefined, null, '203.0.113.9', false],
    [undefined, null, 'unknown', false],
  ])('token %s, Authorization %s, from %s: %s', (configured, authorization, clientAddress, allowed) => {
    expect(mayReadMetrics({ token: configured, authorization, clientAddress })).toBe(allowed);
  });
});

describe('observations', () => {
  it('times a stage whether it resolves or throws, and counts requests by route and status', async () => {
    await expect(observeStage('engine', async () => 42)).resolves.toBe(42);
    await expect(observeStage('engine', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    observeRequest('POST', '/kb/kb_jQfFzb7vprilaWNh/query', 200, 0.004);
    const { contentType, body } = await renderMetrics();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('almanac_gateway_stage_duration_seconds_count{stage="engine"} 2');
    expect(body).toContain('almanac_http_requests_total{route="/kb/{id}/query",method="POST",status="200"} 1');
    expect(body).toContain('almanac_http_request_duration_seconds_bucket{le="0.005",route="/kb/{id}/query"} 1');
  });
});

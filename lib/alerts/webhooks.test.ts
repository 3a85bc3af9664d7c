import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postSignedWebhook } from './webhooks';

const LOOPBACK = { development: true, allowPrivate: false };
let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function listen(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

describe('postSignedWebhook', () => {
  it('cuts off a receiver that trickles its answer within the idle timeout, at the total deadline', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    const result = await postSignedWebhook(url, 'secret', '{}', LOOPBACK, 400);
    expect(result).toEqual({ ok: false, reason: 'no complete answer within 0.4 s' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a prompt answer', async () => {
    const url = await listen((_req, res) => res.writeHead(204).end());
    expect(await postSignedWebhook(url, 'secret', '{}', LOOPBACK, 400)).toEqual({ ok: true, status: 204 });
  });
});

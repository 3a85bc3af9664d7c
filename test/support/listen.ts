import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts a test server on a free loopback port. `close` drops kept-alive connections first, so a test's clients
 * cannot hold the server (and the test run) open.
 */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

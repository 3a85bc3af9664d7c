import type http from 'node:http';

export { PEER_HEADER } from '../platform/peer-header.mjs';
export const FRONT_SERVER_TIMEOUTS: Readonly<{ headersTimeoutMs: number; requestTimeoutMs: number; checkIntervalMs: number; keepAliveTimeoutMs: number }>;
export function stampPeer(req: http.IncomingMessage): void;
export function createFrontServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  options?: {
    headersTimeoutMs?: number;
    requestTimeoutMs?: number;
    checkIntervalMs?: number;
    keepAliveTimeoutMs?: number;
    ServerResponse?: typeof http.ServerResponse;
  },
): http.Server;

// The header by which the front server (lib/server/front-server.mjs) tells the app the socket's address; a
// client-sent value is removed first. Plain JavaScript, because the front server runs without a build step; shared
// with lib/platform/client-address.ts, which reads it.

/** Set by the front server to the socket's address. */
export const PEER_HEADER = 'x-almanac-peer';

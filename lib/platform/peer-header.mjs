// Set by the front server (lib/server/front-server.mjs) to the socket's address after removing any client-sent value;
// read by client-address.ts. Plain JavaScript, because the front server runs without a build step.

export const PEER_HEADER = 'x-almanac-peer';

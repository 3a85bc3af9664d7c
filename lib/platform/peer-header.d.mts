export const PEER_HEADER: 'x-almanac-peer';

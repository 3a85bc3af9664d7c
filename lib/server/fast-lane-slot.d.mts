import type { IncomingMessage, ServerResponse } from 'node:http';

/** A keyed endpoint of the gateway (docs/api.md §3, §10) and its knowledge base (empty for Dify: named in the body). */
export interface LaneTarget {
  endpoint: 'query' | 'search' | 'usage' | 'mcp' | 'dify';
  kbId: string;
}

/** What the Node server needs of the fast lane: which URLs it answers, and how; and which requests to refuse before Next. */
export interface FastLane {
  /**
   * Answers a request Next would answer badly (an undecodable path, `/kb//query`, an unknown method, a cross-site
   * server action; front-door.ts), or a public catalogue GET that it answers without Next's machinery
   * (catalog-lane.ts), and returns true, or returns false without touching it. For a server
   * action's POST it returns a promise: of the request to hand Next (a copy whose body it read and checked), or of
   * null when it answered.
   */
  screen(req: IncomingMessage, res: ServerResponse): boolean | Promise<IncomingMessage | null>;
  /** What the lane answers at this URL (a keyed endpoint of one knowledge base), or null for any URL it does not. */
  match(url: string | undefined): LaneTarget | null;
  serve(req: IncomingMessage, res: ServerResponse, target: LaneTarget): Promise<void>;
}

export function registerFastLane(lane: FastLane): void;
export function findFastLane(): FastLane | undefined;

import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the Node server needs of the fast lane: which URLs it answers, and how; and which requests to refuse before Next. */
export interface FastLane {
  /**
   * Answers a request Next would answer badly (an undecodable path, `/kb//query`, an unknown method, a cross-site
   * server action; lib/platform/front-door.ts), or a public catalogue GET that it answers without Next's machinery
   * (lib/catalog/node.ts), and returns true, or returns false without touching it. For a server
   * action's POST it returns a promise: of the request to hand Next (a copy whose body it read and checked), or of
   * null when it answered.
   */
  screen(req: IncomingMessage, res: ServerResponse): boolean | Promise<IncomingMessage | null>;
  /** The knowledge-base id of a `POST /kb/{kb_id}/query` URL, or null for any URL the lane does not answer. */
  match(url: string | undefined): string | null;
  serve(req: IncomingMessage, res: ServerResponse, kbId: string): Promise<void>;
}

export function registerFastLane(lane: FastLane): void;
export function findFastLane(): FastLane | undefined;

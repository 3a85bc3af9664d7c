import type { IncomingMessage, ServerResponse } from 'node:http';
import { beginPriorityWork } from '@/lib/platform/priority-work';
import { serveCatalogOverNode } from './catalog-lane';
import { registerFastLane } from './fast-lane-slot.mjs';
import { screenNodeRequest } from './front-door';
import { matchKeyedPath, serveKeyedOverNode, type LaneTarget } from './keyed-lane';

/**
 * Offers the fast lane to the front server (scripts/serve.mjs), from inside Next's build: instrumentation.ts calls
 * this once the database is ready. Before Next, a request meets the front door's refusals, then the public catalog's
 * GETs, which Next's request machinery would cost more than the whole answer; the keyed endpoints are served here.
 * Paid work is marked while in flight, so the public catalog's turns yield to it (lib/platform/priority-work.ts).
 */
export function registerNodeLane(): void {
  const serve = (req: IncomingMessage, res: ServerResponse, target: LaneTarget) => serveKeyedOverNode(req, res, target).finally(beginPriorityWork());
  registerFastLane({ match: matchKeyedPath, serve, screen: (req, res) => screenNodeRequest(req, res) || serveCatalogOverNode(req, res) });
}

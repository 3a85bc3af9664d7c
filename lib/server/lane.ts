import type { IncomingMessage, ServerResponse } from 'node:http';
import { beginPriorityWork } from '@/lib/platform/priority-work';
import { serveCatalogOverNode } from './catalog-lane';
import { registerFastLane } from './fast-lane-slot.mjs';
import { screenNodeRequest } from './front-door';
import { matchKeyedPath, serveKeyedOverNode, type LaneTarget } from './keyed-lane';

/**
 * Offers the fast lane to scripts/serve.mjs from inside Next's build, once instrumentation.ts has the database ready.
 * Keyed work is marked in flight so the public catalog's turns yield to it (priority-work.ts).
 */
export function registerNodeLane(): void {
  const serve = (req: IncomingMessage, res: ServerResponse, target: LaneTarget) => serveKeyedOverNode(req, res, target).finally(beginPriorityWork());
  registerFastLane({ match: matchKeyedPath, serve, screen: (req, res) => screenNodeRequest(req, res) || serveCatalogOverNode(req, res) });
}

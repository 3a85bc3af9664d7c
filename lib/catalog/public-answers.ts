import { gzipSync, constants as zlibConstants } from 'node:zlib';
import type { DatabaseHandle } from '@/db/client';
import type { HeaderSource } from '@/lib/platform/client-address';
import { getDatabaseHandle } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { ApiError, errorBody } from '@/lib/platform/errors';
import { INTERNAL_ERROR_MESSAGE, REQUEST_ID_HEADER, newRequestId } from '@/lib/platform/http';
import { log } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/singleton';
import { describeTextProblem, idProblem } from '@/lib/platform/text-input';
import { CATALOG_CACHE_CONTROL, CATALOG_EXPOSED_HEADERS } from './http';
import { getKnowledgeBaseDetail } from './knowledge-base';
import { listKnowledgeBases } from './listing';
import { GateBusyError, createLoadGate, type LoadGate } from './load-gate';
import { parseListingSearch, type ListingParams } from './params';
import { catalogBusyError, takePublicTurn } from './public-endpoint';
import { admitPublicRequest } from './public-limit';
import { createResultCache, type ResultCache, type ResultCacheStats } from './result-cache';

/**
 * The public listing and detail endpoints (docs/api.md §2.1, §2.7–§2.9) as one transport-neutral function for Next's
 * routes and the Node face: turn, per-client limit (429), parameters (400), then the result cache or one load through
 * the gate (503), so public traffic cannot take the database from the paid API.
 */

export interface JsonBody {
  bytes: Buffer;
  gzip?: Buffer;
}

export function gzipOf(body: JsonBody): Buffer {
  body.gzip ??= gzipSync(body.bytes, { level: zlibConstants.Z_BEST_SPEED });
  return body.gzip;
}

const jsonBody = (value: unknown): JsonBody => ({ bytes: Buffer.from(JSON.stringify(value), 'utf8') });

export interface CatalogServing {
  cache: ResultCache<JsonBody | null>;
  gate: LoadGate;
}

const CATALOG_CACHE_MAX_ENTRIES = 2_000;
const CATALOG_CACHE_MAX_BYTES = 32 * 1024 * 1024;
export const CATALOG_GATE_MAX_QUEUE = 100;

/**
 * PGlite runs statements on the server's own thread: one load at a time, resting as long as it ran. On PostgreSQL a
 * load holds up to two pool connections, so a quarter of the pool leaves half of it for the gateway.
 */
export function catalogLoadBounds(handle: Pick<DatabaseHandle, 'kind' | 'pool'>): { concurrency: number; restRatio: number } {
  if (handle.kind === 'pglite') return { concurrency: 1, restRatio: 1 };
  return { concurrency: Math.max(1, Math.floor((handle.pool?.options.max ?? 10) / 4)), restRatio: 0 };
}

// Shared by every copy of this module that Next makes (route bundles, instrumentation, where the Node face runs).
const servings = processSingleton('catalog-serving', () => new WeakMap<DatabaseHandle, CatalogServing>());

export function catalogServing(handle: DatabaseHandle): CatalogServing {
  let serving = servings.get(handle);
  if (!serving) {
    serving = {
      cache: createResultCache<JsonBody | null>({
        ttlMs: () => getEnv().CATALOG_CACHE_TTL_MS,
        maxEntries: CATALOG_CACHE_MAX_ENTRIES,
        maxBytes: CATALOG_CACHE_MAX_BYTES,
        // The gzip is about a fifth of the bytes (counted up front); 200 for the key and the entry.
        sizeOf: (body) => Math.ceil(1.25 * (body?.bytes.length ?? 0)) + 200,
      }),
      gate: createLoadGate({ ...catalogLoadBounds(handle), maxQueue: CATALOG_GATE_MAX_QUEUE }),
    };
    servings.set(handle, serving);
  }
  return serving;
}

function listingCacheKey(params: ListingParams): string {
  return JSON.stringify([
    'list',
    params.query ?? null,
    params.category ?? null,
    params.language ?? null,
    [...params.tags].sort(),
    params.sort,
    params.page,
    params.pageSize,
  ]);
}

const detailCacheKey = (id: string) => JSON.stringify(['detail', id]);

async function load<T>(serving: CatalogServing, task: () => Promise<T>): Promise<T> {
  try {
    return await serving.gate.run(task);
  } catch (error) {
    throw error instanceof GateBusyError ? catalogBusyError() : error;
  }
}

async function publicListingBody(params: ListingParams): Promise<JsonBody> {
  const handle = await getDatabaseHandle();
  const serving = catalogServing(handle);
  const body = await serving.cache.get(listingCacheKey(params), () => load(serving, async () => jsonBody(await listKnowledgeBases(params, handle.db))));
  return body!;
}

async function publicDetailBody(id: string): Promise<JsonBody | null> {
  const handle = await getDatabaseHandle();
  const serving = catalogServing(handle);
  return serving.cache.get(detailCacheKey(id), () =>
    load(serving, async () => {
      const detail = await getKnowledgeBaseDetail(id, handle.db);
      return detail ? jsonBody(detail) : null;
    }),
  );
}

export async function catalogCacheStats(): Promise<ResultCacheStats> {
  return catalogServing(await getDatabaseHandle()).cache.stats();
}

export async function clearCatalogCache(): Promise<void> {
  catalogServing(await getDatabaseHandle()).cache.clear();
}

export type PublicCatalogRoute = { kind: 'listing' } | { kind: 'detail'; id: string };

export interface PublicCatalogRequest {
  search: string;
  headers: HeaderSource;
}

export interface PublicCatalogReply {
  status: number;
  headers: Record<string, string>;
  body: JsonBody;
}

function replyHeaders(status: number, requestId: string, extra: Record<string, string>): Record<string, string> {
  return {
    ...extra,
    'Content-Type': 'application/json; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': CATALOG_EXPOSED_HEADERS,
    'Cache-Control': status >= 500 || status === 429 ? 'no-store' : CATALOG_CACHE_CONTROL,
    [REQUEST_ID_HEADER]: requestId,
  };
}

async function answerRoute(route: PublicCatalogRoute, request: PublicCatalogRequest): Promise<JsonBody> {
  if (route.kind === 'listing') {
    const parsed = parseListingSearch(request.search);
    if (!parsed.ok) throw new ApiError('invalid_parameter', parsed.message);
    return publicListingBody(parsed.params);
  }
  const problem = idProblem(route.id);
  if (problem) throw new ApiError('invalid_parameter', `Invalid "id": ${describeTextProblem(problem, 'id')}.`);
  const found = await publicDetailBody(route.id);
  if (!found) throw new ApiError('knowledge_base_not_found', `No published knowledge base has the id "${route.id.slice(0, 100)}".`);
  return found;
}

/** Never throws: expected refusals are their documented bodies, anything else a logged 500 `internal_error`. */
export async function answerPublicCatalog(route: PublicCatalogRoute, request: PublicCatalogRequest, requestId: string): Promise<PublicCatalogReply> {
  let limitHeaders: Record<string, string> = {};
  try {
    await takePublicTurn();
    limitHeaders = await admitPublicRequest(request.headers);
    const body = await answerRoute(route, request);
    return { status: 200, headers: replyHeaders(200, requestId, limitHeaders), body };
  } catch (error) {
    if (error instanceof ApiError) {
      const headers = replyHeaders(error.status, requestId, { ...limitHeaders, ...error.headers });
      return { status: error.status, headers, body: jsonBody(errorBody(error.code, error.message, requestId, error.extras)) };
    }
    log.error(
      { err: error, request_id: requestId, path: route.kind === 'listing' ? '/api/marketplace/knowledge-bases' : '/api/marketplace/knowledge-bases/{id}' },
      'unhandled error',
    );
    return { status: 500, headers: replyHeaders(500, requestId, limitHeaders), body: jsonBody(errorBody('internal_error', INTERNAL_ERROR_MESSAGE, requestId)) };
  }
}

export async function respondPublicCatalog(route: PublicCatalogRoute, request: Request): Promise<Response> {
  const reply = await answerPublicCatalog(route, { search: new URL(request.url).search, headers: request.headers }, newRequestId());
  return new Response(new Uint8Array(reply.body.bytes), { status: reply.status, headers: reply.headers });
}

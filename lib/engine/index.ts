import { getDb, type Executor } from '@/lib/db';
import type { QueryAnswer, QueryRequest } from '@/lib/query-answer';
import { composeAnswer } from './answer';
import { searchChunks } from './retrieval';

export type { RetrievedChunk } from './retrieval';

/**
 * The `hosted` backend of contract §4: answers a buyer's query from the knowledge base's own documents.
 * The gateway has already authorised the request; this only reads.
 */
export async function answerHostedQuery(request: QueryRequest, db?: Executor): Promise<QueryAnswer> {
  const executor = db ?? (await getDb());
  request.signal?.throwIfAborted();
  const passages = await searchChunks(executor, request.kbId, request.query, { limit: 8 });
  request.signal?.throwIfAborted();
  return composeAnswer(request.query, passages);
}

import type { QueryAnswer } from '@/lib/query-answer';
import { getDb } from '@/lib/platform/db';
import { newRequestId } from '@/lib/platform/http';
import { processSingleton } from '@/lib/platform/singleton';
import { findKnowledgeBaseRoute, prepareRoute, routeQuery } from './backends';

/**
 * A real answer for the API reference's examples (/docs): a published hosted knowledge base answering one of its sample
 * questions, counted nowhere and kept per process (one engine call per knowledge base). A publisher's own endpoint is
 * never called for documentation: null then, and on any failure.
 */
const MAX_KEPT = 100;
const kept = processSingleton('documentation-answers', () => new Map<string, Promise<QueryAnswer | null>>());

async function answerOnce(kbId: string, question: string): Promise<QueryAnswer | null> {
  const kb = await findKnowledgeBaseRoute(await getDb(), kbId);
  if (!kb || kb.status !== 'published' || kb.backendKind !== 'hosted') return null;
  const outcome = await routeQuery(prepareRoute(kb), { kbId, query: question, requestId: newRequestId() });
  return outcome.ok ? outcome.answer : null;
}

export function documentationAnswer(kbId: string, question: string): Promise<QueryAnswer | null> {
  const key = `${kbId}\n${question}`;
  let answer = kept.get(key);
  if (!answer) {
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    answer = answerOnce(kbId, question).catch(() => null);
    kept.set(key, answer);
  }
  return answer;
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { embedTexts, EmbeddingsError, realArrayLiteral, type EmbeddingsConfig } from './embeddings';
import { fuseRanks, lexicalLead } from './retrieval';
import type { RetrievedChunk } from './types';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** An endpoint that resets the connection of the first `resets` requests, answers `status` after that. */
async function endpoint(resets: number, status = 200): Promise<{ config: EmbeddingsConfig; requests: () => number }> {
  let requests = 0;
  server = createServer((req, res) => {
    requests++;
    if (requests <= resets) return req.socket.destroy();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ index: 0, embedding: [3, 4] }] }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const config = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'k', model: 'm', timeoutMs: 2_000 };
  return { config, requests: () => requests };
}

describe('embedTexts', () => {
  it('sends once more when the connection drops before an answer (a stale keep-alive connection)', async () => {
    const { config, requests } = await endpoint(1);
    expect(await embedTexts(config, ['x'])).toEqual([[0.6, 0.8]]);
    expect(requests()).toBe(2);
  });

  it('gives up after the second drop, and never repeats a request the endpoint answered', async () => {
    const dropped = await endpoint(2);
    await expect(embedTexts(dropped.config, ['x'])).rejects.toBeInstanceOf(EmbeddingsError);
    expect(dropped.requests()).toBe(2);
    await new Promise((resolve) => server!.close(resolve));
    const refused = await endpoint(0, 503);
    await expect(embedTexts(refused.config, ['x'])).rejects.toThrow('answered 503');
    expect(refused.requests()).toBe(1);
  });
});

describe('realArrayLiteral', () => {
  it('writes single-precision numbers only', () => {
    expect(realArrayLiteral([0.1, Number.NaN, -2])).toBe(`{${Math.fround(0.1)},0,-2}`);
  });
});

describe('fuseRanks', () => {
  it('sums 1 / (60 + rank) over both lists, the vector share scaled, ties by chunk id', () => {
    // 7 is first lexically, 9 first by vector, 8 second in both: 8 wins; 7 and 9 tie, broken by id.
    expect(fuseRanks([7, 8], [9, 8])).toEqual([8, 7, 9]);
    // Weighted down, the vector list still lifts a chunk it ranks first, but by less.
    expect(fuseRanks([7, 8, 5], [5], 0.25)).toEqual([5, 7, 8]);
    expect(fuseRanks([7, 8, 6, 5], [5], 0.01)).toEqual([7, 8, 6, 5]);
    expect(fuseRanks([], [3, 2])).toEqual([3, 2]);
  });
});

describe('lexicalLead', () => {
  const ranked = (...rows: Array<[string, number]>): RetrievedChunk[] =>
    rows.map(([documentId, score], i) => ({
      chunkId: i + 1,
      documentId,
      documentTitle: documentId,
      page: null,
      heading: null,
      content: '',
      tokenCount: 1,
      score,
    }));

  it("is the best document's lead over the next document, as a share of its score", () => {
    // The best document's second chunk does not count: the lead is over another document.
    expect(lexicalLead(ranked(['a', 10], ['a', 9], ['b', 7]))).toBeCloseTo(0.3);
    expect(lexicalLead(ranked(['a', 10], ['b', 9.5]))).toBeCloseTo(0.05);
  });

  it('is 1 when no other document matched (nothing to choose between), 0 when nothing matched', () => {
    expect(lexicalLead(ranked(['a', 10], ['a', 2]))).toBe(1);
    expect(lexicalLead([])).toBe(0);
  });
});

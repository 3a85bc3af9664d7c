import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmbeddingsConfig } from '@/lib/engine';
import { itemAt } from '@/lib/platform/arrays';

/**
 * A deterministic OpenAI-compatible embeddings endpoint: words hashed into `dim` dimensions after a small synonym
 * table, so meaning the words do not share can still be near. It tests the fusion and the storage, not a model.
 */
const FAKE_SYNONYMS: Record<string, string> = {
  physician: 'doctor',
  physicians: 'doctor',
  practitioner: 'doctor',
  practitioners: 'doctor',
  doctors: 'doctor',
  appointment: 'visit',
  appointments: 'visit',
  visits: 'visit',
};

export function fakeEmbedding(text: string, dim = 64, synonyms: Record<string, string> = FAKE_SYNONYMS): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const w = synonyms[raw] ?? raw;
    if (w.length < 3) continue;
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    const slot = (h >>> 0) % dim;
    v[slot] = itemAt(v, slot) + 1;
  }
  return v;
}

export interface FakeEmbeddingsServer {
  config: EmbeddingsConfig;
  /** Failed ones included. */
  calls(): number;
  setFailing(failing: boolean): void;
  close(): Promise<void>;
}

const API_KEY = 'sk-fake-embeddings';

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

/** Listens on 127.0.0.1 at a free port; `config` points at it (base URL ending in /v1, as OpenAI's). */
export async function startFakeEmbeddingsServer(options: { dim?: number; model?: string } = {}): Promise<FakeEmbeddingsServer> {
  const dim = options.dim ?? 64;
  let failing = false;
  let calls = 0;
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { model: string; input: string[] };
    calls++;
    if (failing || req.url !== '/v1/embeddings' || req.headers.authorization !== `Bearer ${API_KEY}`) {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"error":"unavailable"}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        model: body.model,
        data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, dim) })),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    config: {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      apiKey: API_KEY,
      model: options.model ?? `fake-hash-${dim}`,
      timeoutMs: 2_000,
    },
    calls: () => calls,
    setFailing: (value) => {
      failing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

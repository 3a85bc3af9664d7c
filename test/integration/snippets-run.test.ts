import '../support/gateway-env';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { buildSnippets, pythonMcpSnippet } from '@/components/marketplace/snippets';
import { ingestDocument } from '@/lib/engine';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher, type BoughtKey } from '../support/gateway-fixtures';
import { listenGatewayServer } from '../support/gateway-server';
import { rememberSecret } from '../support/log-scan';

/**
 * The snippets of /docs, the knowledge-base page and the key reveal (components/marketplace/snippets.ts), run as a
 * user pastes them against a real server: curl in a shell, TypeScript with tsx, Python with httpx. LangChain is not
 * installable here, so the retriever runs over a stand-in `langchain_core` with the same three names and the
 * `invoke` → `_get_relevant_documents` call LangChain makes: what is tested is its request and its reading of the answer.
 * The Python ones need a python3 with httpx (Debian's python3-httpx); without one they are skipped and say so.
 * The MCP one needs the `mcp` 2.x SDK, which no Debian package carries: it runs where `PYTHON_MCP_PATH` names a
 * directory with `mcp` and its dependencies in it (scripts/check-python-mcp.sh builds one), or where a python3 has
 * them installed; otherwise it is skipped, and says why.
 */
const run = promisify(execFile);
let handle: DatabaseHandle;
let server: Awaited<ReturnType<typeof listenGatewayServer>>;
let k: BoughtKey;
let dir: string;
const QUESTION = 'What does the "Fresnel" lens do?';

async function findPythonWithHttpx(): Promise<string | null> {
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      await run(python, ['-c', 'import httpx']);
      return python;
    } catch {
      // next
    }
  }
  return null;
}
const python = await findPythonWithHttpx();

/** PYTHONPATH for the `mcp` SDK: PYTHON_MCP_PATH when set, so that its packages come before any installed ones. */
const mcpPath = process.env.PYTHON_MCP_PATH ?? '';
async function findPythonWithMcp(): Promise<{ python: string; version: string } | null> {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      const probe = 'import importlib.metadata as m, mcp.client.streamable_http, httpx2; print(m.version("mcp"))';
      const { stdout } = await run(candidate, ['-c', probe], { env: { ...process.env, PYTHONPATH: mcpPath } });
      const version = stdout.trim();
      if (version.startsWith('2.')) return { python: candidate, version };
    } catch {
      // next
    }
  }
  return null;
}
const pythonMcp = await findPythonWithMcp();
const NO_MCP = mcpPath
  ? `PYTHON_MCP_PATH=${mcpPath} holds no importable mcp 2.x for python3 (scripts/check-python-mcp.sh builds one)`
  : 'no python3 imports mcp 2.x: set PYTHON_MCP_PATH to a directory with it (scripts/check-python-mcp.sh builds one)';

beforeAll(async () => {
  handle = await createTestDatabase();
  const kb = await createKnowledgeBase(handle.db, await createPublisher(handle.db), { title: 'Lighthouse Handbook' });
  const text = 'Lighthouse Handbook\n\nThe Fresnel lens concentrates the beam of a lighthouse so that it can be seen far out at sea.';
  expect((await ingestDocument(handle.db, kb, { sourceName: 'l.txt', bytes: new TextEncoder().encode(text), mimeType: 'text/plain' })).ok).toBe(true);
  k = await buyKey(handle.db, kb, { cap: 100, perMinute: 1_000 });
  rememberSecret(k.key);
  server = await listenGatewayServer();
  dir = mkdtempSync(join(tmpdir(), 'almanac-snippets-'));
  // The stand-in for langchain_core: BaseRetriever.invoke calls _get_relevant_documents with a run manager.
  const lc = join(dir, 'stub', 'langchain_core');
  mkdirSync(lc, { recursive: true });
  writeFileSync(join(lc, '__init__.py'), '');
  writeFileSync(join(lc, 'callbacks.py'), 'class CallbackManagerForRetrieverRun:\n    pass\n');
  writeFileSync(
    join(lc, 'documents.py'),
    'class Document:\n    def __init__(self, page_content, metadata=None):\n        self.page_content = page_content\n        self.metadata = metadata or {}\n',
  );
  writeFileSync(
    join(lc, 'retrievers.py'),
    'from .callbacks import CallbackManagerForRetrieverRun\n\nclass BaseRetriever:\n    def invoke(self, input):\n        return self._get_relevant_documents(input, run_manager=CallbackManagerForRetrieverRun())\n',
  );
});

afterAll(async () => {
  await server?.close();
});

const snippet = (id: string) => buildSnippets(server.url, k.kbId, QUESTION).find((s) => s.id === id)!.code;
const env = (key = k.key) => ({ ...process.env, ALMANAC_API_KEY: key, PYTHONPATH: join(dir, 'stub') });

describe('snippets run as pasted', () => {
  it('curl', async () => {
    const { stdout } = await run('sh', ['-c', snippet('curl')], { env: env() });
    expect(JSON.parse(stdout)).toMatchObject({
      answer: expect.stringContaining('Fresnel'),
      citations: [expect.objectContaining({ title: expect.any(String) })],
    });
  });

  it('TypeScript, and its error branch with a refused key', async () => {
    const file = join(dir, 'query.mts');
    writeFileSync(file, snippet('typescript'));
    const { stdout } = await run('npx', ['tsx', file], { env: env() });
    expect(stdout).toMatch(/Fresnel[\s\S]*\n- /);
    await expect(run('npx', ['tsx', file], { env: env('alm_sk_test_nope') })).rejects.toMatchObject({ stderr: expect.stringContaining('401 invalid_api_key') });
  });

  it.skipIf(!python)('Python (httpx), and its error branch with a refused key', async () => {
    const file = join(dir, 'query.py');
    writeFileSync(file, snippet('python'));
    const { stdout } = await run(python!, [file], { env: env() });
    expect(stdout).toMatch(/Fresnel[\s\S]*\n- /);
    await expect(run(python!, [file], { env: env('alm_sk_test_nope') })).rejects.toMatchObject({ stderr: expect.stringContaining('401 invalid_api_key') });
  });

  it.skipIf(!python)('Python, streamed (Server-Sent Events), and its error branch with a refused key', async () => {
    const file = join(dir, 'stream.py');
    writeFileSync(file, snippet('python-stream'));
    const { stdout } = await run(python!, [file], { env: env() });
    expect(stdout).toMatch(/Fresnel[\s\S]*\(\d+ queries left\)\n- \S/);
    await expect(run(python!, [file], { env: env('alm_sk_test_nope') })).rejects.toMatchObject({ stderr: expect.stringContaining('401 invalid_api_key') });
  });

  it.skipIf(!python)('LangChain retriever over /search', async () => {
    const file = join(dir, 'retriever.py');
    writeFileSync(file, snippet('langchain'));
    const { stdout } = await run(python!, [file], { env: env() });
    expect(stdout).toMatch(/^\S.* 1 .*Fresnel/m);
  });

  // Vitest reports a skipped test without its reason: the reason goes to the log, and the test's name says what ran.
  if (!pythonMcp) console.warn(`snippets-run: Python mcp snippet skipped: ${NO_MCP}`);
  it.skipIf(!pythonMcp)(`Python MCP client (mcp ${pythonMcp?.version ?? '2.x, not importable'}): tools, an answer, a refused key, a refused call`, async () => {
    const file = join(dir, 'mcp_client.py');
    writeFileSync(file, pythonMcpSnippet(server.url, k.kbId, QUESTION).code);
    const mcpEnv = (key?: string) => ({ ...env(key), PYTHONPATH: mcpPath });
    const { stdout } = await run(pythonMcp!.python, [file], { env: mcpEnv() });
    expect(stdout).toMatch(/^tools: ask, search\n[\s\S]*Fresnel[\s\S]*\n- \S/);
    await expect(run(pythonMcp!.python, [file], { env: mcpEnv('alm_sk_test_nope') })).rejects.toMatchObject({
      stderr: expect.stringMatching(/^invalid_api_key: The Authorization header/m),
    });
    // A refused call (here a question over 2,000 characters) is a tool result with is_error and the API's body.
    const tooLong = join(dir, 'mcp_client_too_long.py');
    writeFileSync(tooLong, pythonMcpSnippet(server.url, k.kbId, 'x'.repeat(2_001)).code);
    await expect(run(pythonMcp!.python, [tooLong], { env: mcpEnv() })).rejects.toMatchObject({ stderr: expect.stringMatching(/^invalid_query: /m) });
  });
});

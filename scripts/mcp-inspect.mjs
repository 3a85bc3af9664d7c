#!/usr/bin/env node
// `npm run mcp:inspect -- <base URL> <kb_id> [question]`: the official MCP Inspector's CLI against a running Almanac
// (docs/api.md §10.1). ALMANAC_API_KEY travels in a file readable only by this user, never on a command line `ps` shows.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

const [baseUrl, kbId, question] = process.argv.slice(2);
const key = process.env.ALMANAC_API_KEY;
if (!baseUrl || !kbId || !key) {
  console.error('Usage: ALMANAC_API_KEY=<key or OAuth access token> npm run mcp:inspect -- <base URL> <kb_id> [question]');
  process.exit(2);
}
const url = `${baseUrl.replace(/\/+$/, '')}/kb/${encodeURIComponent(kbId)}/mcp`;

const dir = mkdtempSync(path.join(tmpdir(), 'almanac-inspect-'));
const config = path.join(dir, 'mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { almanac: { type: 'streamable-http', url, headers: { Authorization: `Bearer ${key}` } } } }), {
  mode: 0o600,
});

function inspect(...args) {
  const run = spawnSync('npx', ['-y', INSPECTOR, '--cli', '--stored-auth-only', '--config', config, '--server', 'almanac', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ALMANAC_API_KEY: '' },
  });
  if (run.status !== 0) {
    console.error(run.stderr || run.stdout || `the Inspector exited with ${run.status}`);
    return null;
  }
  try {
    return JSON.parse(run.stdout);
  } catch {
    console.error(`The Inspector did not answer JSON:\n${run.stdout}`);
    return null;
  }
}

let failed = false;
try {
  const listed = inspect('--method', 'tools/list');
  const names = (listed?.tools ?? []).map((tool) => tool.name).sort();
  console.log(`${url}: tools ${names.join(', ') || '(none)'}`);
  if (names.join(',') !== 'ask,search') failed = true;
  if (!failed && question) {
    const called = inspect('--method', 'tools/call', '--tool-name', 'ask', '--tool-arg', `query=${question}`);
    const text = called?.content?.find((part) => part.type === 'text')?.text ?? '';
    console.log(called?.isError ? `ask: tool error: ${text}` : `ask: ${text.slice(0, 500)}`);
    if (!called || called.isError) failed = true;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

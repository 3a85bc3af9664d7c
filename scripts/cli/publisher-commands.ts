import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getDb } from '@/lib/platform/db';
import { guardPolicy } from '@/lib/platform/ssrf-guard';
import { configureHttpBackend } from '@/lib/routing';
import { describeResolveFailure, resolveKnowledgeBase } from '@/lib/publishing';
import type { CliCommand } from './types';

// The secrets are read from stdin, not flags, so they never appear in the process list or shell history.
const USAGE = `Usage: npm run almanac -- configure-backend --kb <kb id | slug | publisher/slug> --endpoint <url> [--timeout-ms <n>] < secrets.txt
  stdin: line 1 the publisher's infrastructure key (≥ 16 chars), line 2 its signing secret (≥ 32 chars).
  The endpoint must be https to a public address, as the production server requires; private, loopback and link-local
  addresses (http or https) only with ALLOW_PRIVATE_PUBLISHER_ENDPOINTS=true here and on the server.`;

export const publisherCommands: CliCommand[] = [
  {
    name: 'configure-backend',
    summary: "Route a knowledge base to the publisher's own HTTP endpoint (secrets stored encrypted)",
    usage: USAGE,
    async run(args) {
      let values;
      try {
        values = parseArgs({ args, strict: true, options: { kb: { type: 'string' }, endpoint: { type: 'string' }, 'timeout-ms': { type: 'string' } } }).values;
      } catch (error) {
        console.error(`configure-backend: ${(error as Error).message}\n\n${USAGE}`);
        return 2;
      }
      if (!values.kb || !values.endpoint) {
        console.error(`configure-backend: --kb and --endpoint are required.\n\n${USAGE}`);
        return 2;
      }
      const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
      const [infraKey = '', signingSecret = ''] = readFileSync(0, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim());
      const db = await getDb();
      const resolved = await resolveKnowledgeBase(db, values.kb);
      if (!resolved.ok) {
        console.error(describeResolveFailure(values.kb, resolved));
        return 1;
      }
      // Judged as the production server will at call time, not by this process's mode: a success here must not be an
      // endpoint every query then fails on.
      const input = { kbId: resolved.kb.id, endpointUrl: values.endpoint, infraKey, signingSecret, timeoutMs };
      const result = await configureHttpBackend(db, input, guardPolicy({ production: true }));
      if (!result.ok) {
        console.error(`configure-backend: ${result.message}`);
        return 1;
      }
      console.log(`${resolved.kb.id} now answers through ${result.endpointUrl} (timeout ${result.timeoutMs} ms); secrets stored encrypted.`);
      return 0;
    },
  },
];

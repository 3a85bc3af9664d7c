import { createHash } from 'node:crypto';
import http from 'node:http';
import { Redis } from 'ioredis';
import { listenOnLoopback } from './listen';

/**
 * Upstash's REST API in front of the local Redis, so the Upstash backend is tested through its production protocol
 * without any cloud, base64 results and the NOSCRIPT fallback from EVALSHA to EVAL included.
 */
export interface UpstashRestAdapter {
  url: string;
  token: string;
  /** Commands served, for assertions that traffic really went through the adapter. */
  commandCount(): number;
  close(): Promise<void>;
}

type Command = (string | number | null)[];

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

/**
 * @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`, a flag Upstash understands and Redis 7.0
 * rejects. The adapter drops the shebang line before Redis sees the script and keeps a map from the client's SHA
 * (of the original text) to the SHA Redis knows, so EVALSHA/NOSCRIPT behave exactly as they do against Upstash.
 */
function stripShebang(script: string): string {
  return script.startsWith('#!') ? script.slice(script.indexOf('\n') + 1) : script;
}

function encodeResult(value: unknown, base64: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (Buffer.isBuffer(value)) return base64 ? value.toString('base64') : value.toString('utf8');
  if (typeof value === 'string') return base64 ? Buffer.from(value, 'utf8').toString('base64') : value;
  if (Array.isArray(value)) return value.map((v) => encodeResult(v, base64));
  return value;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function startUpstashRestAdapter(options: { redisUrl?: string; token?: string } = {}): Promise<UpstashRestAdapter> {
  const redis = new Redis(options.redisUrl ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const token = options.token ?? 'fake-upstash-token-for-tests';
  let served = 0;

  const shaMap = new Map<string, string>();
  const args = (command: Command) => command.slice(1).map((a) => (a === null ? '' : String(a)));

  function translate(command: Command): { run: string[] } | { error: string } {
    const name = String(command[0]).toLowerCase();
    const rest = args(command);
    if (name === 'eval') {
      const original = rest[0] ?? '';
      const stripped = stripShebang(original);
      shaMap.set(sha1(original), sha1(stripped));
      return { run: ['eval', stripped, ...rest.slice(1)] };
    }
    if (name === 'evalsha') {
      const mapped = shaMap.get(rest[0] ?? '');
      if (!mapped) return { error: 'NOSCRIPT No matching script. Please use EVAL.' };
      return { run: ['evalsha', mapped, ...rest.slice(1)] };
    }
    if (name === 'script' && (rest[0] ?? '').toLowerCase() === 'load') {
      const original = rest[1] ?? '';
      const stripped = stripShebang(original);
      shaMap.set(sha1(original), sha1(stripped));
      return { run: ['script', 'load', stripped] };
    }
    return { run: [String(command[0]), ...rest] };
  }

  async function execute(command: Command): Promise<unknown> {
    const translated = translate(command);
    if ('error' in translated) throw new Error(translated.error);
    const [name = '', ...rest] = translated.run;
    const result = await redis.call(name, ...rest);
    // SCRIPT LOAD answers with the SHA of what Redis loaded; the client expects the SHA of what it sent.
    if (name === 'script' && rest[0] === 'load') return sha1(String(command[2] ?? ''));
    return result;
  }

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'upstash-sync-token': '' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    if (req.method !== 'POST') return send(405, { error: 'only POST is served by this adapter' });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(400, { error: 'ERR invalid JSON body' });
    }
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const path = new URL(req.url ?? '/', 'http://adapter').pathname.replace(/\/+$/, '');

    if (path === '' || path === '/') {
      const command = body as Command;
      if (!Array.isArray(command) || command.length === 0) return send(400, { error: 'ERR command must be a non-empty array' });
      served++;
      try {
        const result = await execute(command);
        return send(200, { result: encodeResult(result, base64) });
      } catch (err) {
        return send(400, { error: errorText(err) });
      }
    }
    if (path === '/pipeline' || path === '/multi-exec') {
      const commands = body as Command[];
      if (!Array.isArray(commands) || commands.some((c) => !Array.isArray(c) || c.length === 0)) {
        return send(400, { error: 'ERR body must be an array of commands' });
      }
      served += commands.length;
      if (path === '/pipeline') {
        const results = await Promise.all(
          commands.map(async (c) => {
            try {
              return { result: encodeResult(await execute(c), base64) };
            } catch (err) {
              return { error: errorText(err) };
            }
          }),
        );
        return send(200, results);
      }
      const multi = redis.multi();
      for (const c of commands) {
        const translated = translate(c);
        if ('error' in translated) return send(400, { error: translated.error });
        const [name = '', ...rest] = translated.run;
        multi.call(name, ...rest);
      }
      try {
        const results = (await multi.exec()) ?? [];
        return send(
          200,
          results.map(([err, result]) => (err ? { error: errorText(err) } : { result: encodeResult(result, base64) })),
        );
      } catch (err) {
        return send(400, { error: errorText(err) });
      }
    }
    return send(404, { error: `unknown path ${path}` });
  });

  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    token,
    commandCount: () => served,
    async close() {
      await listening.close();
      redis.disconnect();
    },
  };
}

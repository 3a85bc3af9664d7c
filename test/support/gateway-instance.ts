import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { GATEWAY_TEST_SECRET, RATE_WINDOW_MS } from './gateway-env';
import { childLogFile } from './log-scan';

/**
 * An app instance in its own Node process (test/support/gateway-server.ts run with tsx), serving the gateway's fast
 * lane over HTTP as `npm start` does, on a given PostgreSQL database and Redis. Several of them make a cluster.
 */
export interface Instance {
  url: string;
  child: ChildProcess;
  logFile: string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const root = path.resolve(import.meta.dirname, '..', '..');

export async function startInstance(options: {
  databaseUrl: string;
  redisUrl: string;
  rateLimitPrefix: string;
  name: string;
  env?: Record<string, string>;
}): Promise<Instance> {
  const logFile = childLogFile(`instance-${options.name}`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/support/gateway-server.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: options.databaseUrl,
      DATABASE_POOL_MAX: '20',
      SEED_ON_START: 'false',
      REDIS_URL: options.redisUrl,
      RATE_LIMIT_PREFIX: options.rateLimitPrefix,
      RATE_LIMIT_WINDOW_MS: String(RATE_WINDOW_MS),
      ALMANAC_SECRET: GATEWAY_TEST_SECRET,
      ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
      APP_URL: 'http://almanac.test',
      LOG_LEVEL: 'info',
      LOG_FILE: logFile,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /gateway listening on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`instance ${options.name} exited with ${code}`)));
  });
  return {
    url,
    child,
    logFile,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** One query over HTTP; a connection that fails (a killed instance) is status 0. */
export async function postQuery(base: string, kbId: string, key: string, query = 'When do neap tides occur?') {
  try {
    const response = await fetch(`${base}/kb/${kbId}/query`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  } catch {
    return { status: 0, headers: new Headers(), body: null };
  }
}

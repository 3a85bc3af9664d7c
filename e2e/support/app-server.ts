import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { WITHOUT_OUTSIDE_SERVICES } from './server-env';

// A second app server for specs that need one configured differently from Playwright's own: the same build, on a
// scratch PostgreSQL database the spec can query; it can be stopped with a signal and started again on the same data.

export interface AppServerOptions {
  /** A lower-case word: it names the scratch database. */
  name: string;
  env?: Record<string, string | undefined>;
  readyPath: string;
  /** The first start may include a build. */
  startTimeoutMs?: number;
}

export interface AppServer {
  url: string;
  databaseUrl: string;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  output(): string;
  /** null if a signal ended start-server.mjs itself. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url: string, server: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the ${name} test server exited with code ${server.exitCode}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the ${name} test server did not answer ${url} within ${timeoutMs} ms`);
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const { name, readyPath, startTimeoutMs = 230_000 } = options;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `almanac-e2e-${name}-`));
  // The global teardown scans the run's log folder for leaked keys and secrets.
  const logFile = path.join(process.env.ALMANAC_TEST_LOG_DIR ?? dataDir, `${name}-${port}-server.log`);
  const database = await createScratchDatabase(`almanac_e2e_${name}_${randomBytes(5).toString('hex')}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_PORT: String(port),
    E2E_SKIP_BUILD: '1',
    APP_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ALMANAC_SECRET: randomBytes(32).toString('base64url'),
    SEED_ON_START: 'false',
    LOG_FILE: logFile,
    LOG_LEVEL: 'info',
    ...WITHOUT_OUTSIDE_SERVICES,
    ...options.env,
  };
  // lib/accounts/auth.ts derives next-auth's URL from APP_URL only when NEXTAUTH_URL is unset.
  delete env.NEXTAUTH_URL;
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // A dropped connection must not surface as an unhandled error in whichever test runs then.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  let consoleOutput = '';
  let server: ChildProcess | undefined;
  const running = () => server !== undefined && server.exitCode === null && server.signalCode === null;

  const start = async () => {
    if (running()) throw new Error(`the ${name} test server is already running`);
    // Its own process group, so the server it spawns dies with it should this process exit first.
    const child = spawn(process.execPath, [path.resolve('e2e/support/start-server.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    server = child;
    child.stdout!.on('data', (chunk: Buffer) => (consoleOutput += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (consoleOutput += chunk.toString('utf8')));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    process.once('exit', killGroup);
    child.once('exit', () => process.off('exit', killGroup));
    try {
      await waitUntilServing(`${url}${readyPath}`, child, name, startTimeoutMs);
    } catch (error) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      killGroup();
      if (running()) await exited;
      throw new Error(`${(error as Error).message}\n${consoleOutput.slice(-4000)}`);
    }
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    const child = server;
    if (!child) return null;
    if (running()) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    }
    return child.exitCode;
  };

  const close = async () => {
    await stop();
    if (process.env.ALMANAC_TEST_LOG_DIR) writeFileSync(path.join(process.env.ALMANAC_TEST_LOG_DIR, `${name}-${port}-console.log`), consoleOutput);
    await pool.end();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    databaseUrl: database.url,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    output: () => {
      let logs = '';
      try {
        logs = readFileSync(logFile, 'utf8');
      } catch {
        // No log line written yet.
      }
      return `${consoleOutput}\n${logs}`;
    },
    stop,
    start,
    close,
  };
}

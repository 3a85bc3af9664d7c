import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A test's own PostgreSQL and Redis, so it can restart or crash them while queries flow without touching the shared
 * services. PostgreSQL refuses to run as root, so as root its cluster belongs to the `postgres` user.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitUntil(ready: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} did not become ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

function postgresBin(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  return path.join('/usr/lib/postgresql', versions[versions.length - 1]!, 'bin', name);
}

export const privateServicesAvailable = existsSync('/usr/lib/postgresql') && existsSync('/usr/bin/redis-server');

export interface PrivatePostgres {
  /** The `postgres` maintenance database, to create test databases from. */
  adminUrl: string;
  /** Stops the server: `fast` is a clean shutdown, `immediate` a crash (no checkpoint; recovery replays the WAL). */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'almanac-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', postgresBin(bin), ...args], { stdio: 'pipe' })
      : execFileSync(postgresBin(bin), args, { stdio: 'pipe' });
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const pgCtl = (args: string[]) => run('pg_ctl', ['-D', dataDir, '-w', '-t', '30', ...args]);
  const start = async () => {
    pgCtl(['-o', options, '-l', path.join(dir, 'log'), 'start']);
    await waitUntil(() => canConnect(port), 'private PostgreSQL');
  };
  await start();
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: async (mode) => void pgCtl(['-m', mode, 'stop']),
    destroy: async () => {
      try {
        pgCtl(['-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  /** Kills the server (it keeps nothing on disk: every rate-limit entry is lost) and starts it again. */
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitUntil(() => canConnect(port), 'private Redis');
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stop();
      await start();
    },
    destroy: stop,
  };
}

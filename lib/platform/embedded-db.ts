import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type DatabaseHandle } from '@/db/client';
import { BRIDGE_PORT, startPgliteBridge } from '@/db/pglite-bridge';

/**
 * Embedded mode (no DATABASE_URL): two processes opening one PGlite directory corrupt it. The opener holds
 * `pglite.lock` (its pid); a server also serves its PGlite over a unix socket, advertised in `server.json`, and any
 * other process that finds a live server.json connects through it instead. A lock held by a live process without a
 * server.json is waited for, then refused with a clear error.
 */

export type EmbeddedRole = 'server' | 'client';

interface ServerInfo {
  pid: number;
  start?: string | null;
  socketDir: string;
  port: number;
  startedAt: string;
  listenUrl?: string;
}

const SERVER_FILE = 'server.json';
const LOCK_FILE = 'pglite.lock';
/** Unix socket paths are limited to ~107 bytes; longer DATA_DIRs put the socket in a private temp directory. */
const MAX_SOCKET_PATH = 100;

/** Linux: the process's start time (field 22 of /proc/<pid>/stat); null elsewhere or when unreadable. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after its closing parenthesis are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The start time guards against pid reuse (a restarted container often gets the same small pids back). */
function isAlive(pid: number, start?: string | null): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!start) return true;
  const current = processStartTime(pid);
  return current === null || current === start;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export function findEmbeddedServer(dataDir: string): ServerInfo | null {
  const info = readJson<ServerInfo>(path.join(dataDir, SERVER_FILE));
  if (!info || info.pid === process.pid || !isAlive(info.pid, info.start)) return null;
  if (!existsSync(path.join(info.socketDir, `.s.PGSQL.${info.port}`))) return null;
  return info;
}

interface LockInfo {
  pid: number;
  start: string | null;
}

function readLock(lockPath: string): LockInfo | null {
  const text = readFileSync(lockPath, 'utf8').trim();
  try {
    const parsed = JSON.parse(text) as LockInfo;
    return Number.isInteger(parsed.pid) ? parsed : null;
  } catch {
    return null;
  }
}

function tryLock(lockPath: string): { ok: true } | { ok: false; holder: number } {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeFileSync(fd, JSON.stringify({ pid: process.pid, start: processStartTime(process.pid) } satisfies LockInfo));
      closeSync(fd);
      return { ok: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: LockInfo | null = null;
      try {
        holder = readLock(lockPath);
      } catch {
        continue; // removed meanwhile
      }
      if (holder && holder.pid !== process.pid && isAlive(holder.pid, holder.start)) return { ok: false, holder: holder.pid };
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take ${lockPath}.`);
}

/** Removes a file only if it still names this process (another process may have taken over). */
function removeIfOurs(file: string, read: (f: string) => number | null): void {
  try {
    if (read(file) === process.pid) unlinkSync(file);
  } catch {
    // already gone
  }
}

const readLockPid = (f: string) => readLock(f)?.pid ?? null;
const readServerPid = (f: string) => readJson<ServerInfo>(f)?.pid ?? null;

async function connectToServer(info: ServerInfo): Promise<DatabaseHandle> {
  const url = `postgresql://postgres@localhost:${info.port}/postgres?host=${encodeURIComponent(info.socketDir)}`;
  // One connection: the bridge serialises clients anyway, and a short-lived CLI needs no more.
  const handle = await openPostgres(url, 1);
  try {
    await handle.pool!.query('select 1');
  } catch (error) {
    await handle.close().catch(() => {});
    throw new Error(
      `The Almanac server (pid ${info.pid}) has the embedded database open but its socket ${info.socketDir} does not answer ` +
        `(${(error as Error).message}). Try again, or stop the server.`,
    );
  }
  return { ...handle, kind: 'postgres' };
}

export interface OpenEmbeddedOptions {
  role: EmbeddedRole;
  /** Runs once on a directly opened database before it is shared (migrations, seed). */
  prepare: (handle: DatabaseHandle) => Promise<void>;
  /** How long to wait for another process holding the directory (ms). */
  waitMs?: number;
  listenUrl?: string;
}

export async function openEmbeddedDatabase(dataDir: string, options: OpenEmbeddedOptions): Promise<DatabaseHandle> {
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true });
  const lockPath = path.join(root, LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    const server = findEmbeddedServer(root);
    if (server) return connectToServer(server);
    const lock = tryLock(lockPath);
    if (lock.ok) break;
    if (Date.now() > deadline) {
      throw new Error(
        `The embedded database in ${root} is in use by process ${lock.holder}, which does not share it. ` +
          'Stop that process, or set DATABASE_URL to use PostgreSQL.',
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const serverFile = path.join(root, SERVER_FILE);
  const cleanupOnExit = () => {
    removeIfOurs(serverFile, readServerPid);
    removeIfOurs(lockPath, readLockPid);
  };
  process.once('exit', cleanupOnExit);
  let handle: DatabaseHandle;
  try {
    handle = await openPglite(path.join(root, 'pglite'));
    await options.prepare(handle);
  } catch (error) {
    process.off('exit', cleanupOnExit);
    cleanupOnExit();
    throw error;
  }
  if (options.role !== 'server') {
    return {
      ...handle,
      close: async () => {
        await handle.close();
        process.off('exit', cleanupOnExit);
        cleanupOnExit();
      },
    };
  }

  const preferred = path.join(root, 'run');
  const socketDir = path.join(preferred, `.s.PGSQL.${BRIDGE_PORT}`).length <= MAX_SOCKET_PATH ? preferred : mkdtempSync(path.join(os.tmpdir(), 'almanac-'));
  const bridge = await startPgliteBridge(handle.pglite!, { socketDir });
  const info: ServerInfo = {
    pid: process.pid,
    start: processStartTime(process.pid),
    socketDir: bridge.socketDir,
    port: bridge.port,
    startedAt: new Date().toISOString(),
    listenUrl: options.listenUrl,
  };
  writeFileSync(serverFile, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  return {
    ...handle,
    close: async () => {
      removeIfOurs(serverFile, readServerPid);
      await bridge.close();
      await handle.close();
      process.off('exit', cleanupOnExit);
      cleanupOnExit();
    },
  };
}

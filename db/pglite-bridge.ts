import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

// Serves one process's PGlite to local processes (the operator CLI) over the PostgreSQL wire protocol on a unix socket:
// two PGlite instances on one data directory corrupt it. Not @electric-sql/pglite-socket, which takes only the query
// lock, so a client's statements can run inside the server's open transaction. This bridge takes both locks, as
// `PGlite.transaction()` does, from a client's first message until it is idle (ReadyForQuery 'I'). PGlite accepts any
// startup without a password, so access control is the socket directory's mode (0700).

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
/** A client idle inside a transaction this long is disconnected (and rolled back) so it cannot stall the server. */
const DEFAULT_IDLE_IN_TRANSACTION_MS = 30_000;
export const BRIDGE_PORT = 5432;

export interface PgliteBridge {
  /** node-postgres connects with `host` = this directory. */
  socketDir: string;
  port: number;
  close(): Promise<void>;
}

type Release = () => void;

/** Same order as PGlite.transaction, so the bridge and the server cannot deadlock. */
function acquireExclusive(pglite: PGlite): Promise<Release> {
  return new Promise((granted) => {
    void pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(() => new Promise<void>((release) => granted(release))));
  });
}

const ROLLBACK_MESSAGE = (() => {
  const text = Buffer.from('ROLLBACK\0', 'utf8');
  const message = Buffer.alloc(1 + 4 + text.length);
  message.write('Q', 0, 'ascii');
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return new Uint8Array(message);
})();

function serveConnection(pglite: PGlite, socket: net.Socket, idleInTransactionMs: number, connections: Set<net.Socket>): void {
  connections.add(socket);
  socket.setNoDelay(true);
  let buffer: Buffer = Buffer.alloc(0);
  let started = false;
  let closed = false;
  let working = false;
  let release: Release | null = null;
  /** The last 6 bytes sent to the client: a ReadyForQuery is 'Z', int32 5, status. */
  let tail: Buffer = Buffer.alloc(0);
  let idleTimer: NodeJS.Timeout | undefined;

  const finish = async () => {
    if (release) {
      // Roll back a vanished client's transaction, with a callback of its own: PGlite 0.5.14 keeps the last
      // execProtocolRawStream callback for later raw calls, which could be another client's socket.
      if (!isIdle()) await pglite.execProtocolRawStream(ROLLBACK_MESSAGE, { onRawData: () => {} }).catch(() => {});
      release();
      release = null;
    }
  };
  const isIdle = () => tail.length === 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5 && tail[5] === 0x49;
  const send = (data: Uint8Array) => {
    if (data.length === 0) return;
    tail = Buffer.concat([tail, Buffer.from(data)]).subarray(-6);
    if (!socket.destroyed) socket.write(data);
  };

  const take = (): Buffer | null => {
    if (!started) {
      if (buffer.length < 8) return null;
      const length = buffer.readInt32BE(0);
      if (buffer.length < length) return null;
    } else {
      if (buffer.length < 5) return null;
      const length = buffer.readInt32BE(1) + 1;
      if (buffer.length < length) return null;
    }
    const length = started ? buffer.readInt32BE(1) + 1 : buffer.readInt32BE(0);
    const message = buffer.subarray(0, length);
    buffer = buffer.subarray(length);
    return Buffer.from(message);
  };

  const pump = async () => {
    if (working) return;
    working = true;
    try {
      for (let message = take(); message && !closed; message = take()) {
        let cycleEnds: boolean;
        if (!started) {
          const code = message.readInt32BE(4);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            // 'N': no TLS on a local socket, go on in clear text.
            socket.write('N');
            continue;
          }
          if (code !== PROTOCOL_3) {
            socket.destroy();
            return;
          }
          started = true;
          cycleEnds = true;
        } else {
          const type = message[0];
          if (type === 0x58 /* X: Terminate */) {
            socket.end();
            return;
          }
          cycleEnds = type === 0x53 /* S: Sync */ || type === 0x51; /* Q: simple Query */
        }
        if (idleTimer) clearTimeout(idleTimer);
        release ??= await acquireExclusive(pglite);
        if (closed) break;
        await pglite.execProtocolRawStream(new Uint8Array(message), { onRawData: send });
        if (cycleEnds && isIdle() && buffer.length === 0) {
          release();
          release = null;
        }
      }
      if (release && !closed) {
        idleTimer = setTimeout(() => socket.destroy(), idleInTransactionMs);
        idleTimer.unref();
      }
    } catch {
      socket.destroy();
    } finally {
      working = false;
      if (closed) await finish();
    }
  };

  socket.on('data', (data: Buffer) => {
    buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data]);
    void pump();
  });
  const onClose = () => {
    if (closed) return;
    closed = true;
    connections.delete(socket);
    if (idleTimer) clearTimeout(idleTimer);
    if (!working) void finish();
  };
  socket.on('close', onClose);
  socket.on('error', onClose);
}

export async function startPgliteBridge(pglite: PGlite, options: { socketDir: string; idleInTransactionMs?: number }): Promise<PgliteBridge> {
  const socketDir = path.resolve(options.socketDir);
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  chmodSync(socketDir, 0o700);
  const socketPath = path.join(socketDir, `.s.PGSQL.${BRIDGE_PORT}`);
  rmSync(socketPath, { force: true });
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => serveConnection(pglite, socket, options.idleInTransactionMs ?? DEFAULT_IDLE_IN_TRANSACTION_MS, connections));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  return {
    socketDir,
    port: BRIDGE_PORT,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => {
          rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };
}

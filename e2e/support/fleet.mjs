// Almanac as compose.yaml runs it, without Docker: instances of one build on one PostgreSQL and one Redis behind a
// round-robin proxy. Shared by the `scale-out` project and bench/scale-out, so both test the same arrangement.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Ephemeral range, so never one on the browsers' unsafe-port list. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** compose.yaml's migration job, once, before any instance. */
export function migrate(env, logFile) {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'run.mjs'), 'db-migrate'], {
    cwd: root,
    env: { ...env, LOG_FILE: logFile },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`npm run db:migrate failed (${run.status}):\n${run.stdout}${run.stderr}`);
}

/** `onExit` hears of an exit the caller did not ask for. */
export async function startInstance({ name, env, logDir, logName, onExit }) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `almanac-${logName}-${name}-`));
  const output = createWriteStream(path.join(logDir, `${logName}-${name}-console.log`));
  const child = spawn(process.execPath, [path.join(root, 'e2e', 'support', 'start-server.mjs')], {
    cwd: root,
    env: { ...env, E2E_PORT: String(port), E2E_SKIP_BUILD: '1', DATA_DIR: dataDir, LOG_FILE: path.join(logDir, `${logName}-${name}.log`) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(output);
  child.stderr.pipe(output);
  child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
  const instance = { name, port, child, dataDir, stopping: false };
  child.on('exit', (code, signal) => {
    if (!instance.stopping) onExit?.(name, signal ?? code);
  });
  return instance;
}

/** SIGTERM, as `docker stop` does: they drain. */
export async function stopInstances(instances) {
  await Promise.all(
    instances.map(async (instance) => {
      instance.stopping = true;
      const { child } = instance;
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
      }
      rmSync(instance.dataDir, { recursive: true, force: true });
    }),
  );
}

export async function waitReady(url, child, name, withinMs = 240_000) {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not ready at ${url} within ${withinMs / 1000} s`);
}

/** The answering instance is named in `X-Almanac-Instance`; the client's address goes on in X-Forwarded-For. */
export function startProxy(port, upstreams) {
  const agent = new http.Agent({ keepAlive: true });
  let turn = 0;
  const server = http.createServer((req, res) => {
    const target = upstreams[turn++ % upstreams.length];
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const headers = { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host };
    delete headers.connection;
    delete headers['keep-alive'];
    const upstream = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      const answerHeaders = { ...answer.headers, 'x-almanac-instance': target.name };
      delete answerHeaders.connection;
      delete answerHeaders['keep-alive'];
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`${target.name}: ${error.message}`);
      else res.destroy(error);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

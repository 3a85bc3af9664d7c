// Almanac as compose.yaml runs it, without Docker: the migration job, instances of the same build on one PostgreSQL
// database and one Redis, and a proxy in front that alternates requests between them (round robin, as compose's Caddy
// does). Shared by the Playwright project `scale-out` (e2e/support/scale-out.mjs) and the two-instance benchmark
// (bench/scale-out/run.ts), so both measure and test the same arrangement.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/** A port the system just handed out (ephemeral range, so never one on the browsers' unsafe-port list). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** compose.yaml's migration job: `npm run db:migrate` (the schema, pg-boss and its queues), once, before any instance. */
export function migrate(env, logFile) {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'run.mjs'), 'db-migrate'], {
    cwd: root,
    env: { ...env, LOG_FILE: logFile },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`npm run db:migrate failed (${run.status}):\n${run.stdout}${run.stderr}`);
}

/**
 * One instance: e2e/support/start-server.mjs with E2E_SKIP_BUILD=1 (the build the tree already has, served as
 * `npm start` serves it), on a free port, with a data directory of its own. Its console goes to
 * `<logDir>/<logName>-<name>-console.log` and its structured log to `<logDir>/<logName>-<name>.log`; its stderr is
 * also echoed with its name. `onExit` hears of an exit the caller did not ask for.
 */
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

/** Stops instances (SIGTERM, as `docker stop` does: they drain), waits for their exits and removes their data. */
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

/** Waits until `url` answers 2xx, failing early when the instance exits. */
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

/**
 * Alternates requests between `upstreams` ({name, port}), streaming both ways, as a reverse proxy does, on
 * 127.0.0.1:`port`. The answering instance is named in `X-Almanac-Instance`; the client's address goes on in
 * X-Forwarded-For (the instances trust 127.0.0.1 as a proxy).
 */
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
    // A client that goes away (a stream cancelled) ends the upstream request too.
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

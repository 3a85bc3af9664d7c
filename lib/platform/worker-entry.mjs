// The entry of every worker of worker-pool.ts, loaded from disk as it is (never bundled), so it serves `next start`,
// `npm start`, tsx and vitest alike; tsx's loader lets a task name a TypeScript module of lib/ by its path.
import { parentPort } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();

// Parsers talk to the console (pdf-lib about every odd object of a hostile file), and so does TensorFlow.js: never
// printed. Outcomes and errors go back as messages.
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[method] = () => {};
for (const stream of [process.stdout, process.stderr]) stream.write = () => true;

/** @type {Map<string, Promise<Record<string, unknown>>>} */
const modules = new Map();

parentPort.on('message', async ({ id, modulePath, exportName, args }) => {
  try {
    if (!modules.has(modulePath)) modules.set(modulePath, import(pathToFileURL(modulePath).href));
    const loaded = await modules.get(modulePath);
    const fn = loaded[exportName];
    if (typeof fn !== 'function') throw new Error(`${modulePath} exports no function ${exportName}`);
    parentPort.postMessage({ id, ok: true, value: await fn(...args) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

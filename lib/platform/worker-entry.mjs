// The entry of every worker thread of lib/platform/worker-pool.ts. Plain JavaScript that Node loads from disk as it
// is (never bundled by Next), so the same file serves `next start`, `npm start`, tsx and vitest. It registers tsx's
// loader, so a task names a TypeScript module of lib/ by its path and the worker imports it as the main thread would.
import { parentPort } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();

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

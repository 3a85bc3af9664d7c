import path from 'node:path';
import type { Worker as WorkerThread } from 'node:worker_threads';

/**
 * A small bounded pool of worker threads for work on untrusted input (parsing uploads, large publisher answers), so no
 * input can hold the event loop. A task over its wall-time or heap budget has its worker terminated (the only way to
 * stop synchronous code) and fails with a WorkerLimitError naming the limit. Not piscina or tinypool: they can neither
 * say which budget a task broke nor load lib/'s TypeScript through tsx (worker-entry.mjs).
 */

export type WorkerLimit = 'time' | 'memory' | 'crash';

export class WorkerLimitError extends Error {
  constructor(
    readonly limit: WorkerLimit,
    message: string,
  ) {
    super(message);
  }
}

/** A module of lib/ (its path from the project root, `lib/engine/parse-task.ts`) and one of its exported functions. */
export interface WorkerTask {
  module: string;
  exportName: string;
  args: unknown[];
  transfer?: ArrayBuffer[];
  timeoutMs: number;
}

export interface WorkerPoolOptions {
  size: number;
  /** V8's old-generation heap of each worker (MB). */
  maxHeapMb: number;
  /** An idle worker is stopped after this long, so its memory goes back. */
  idleMs?: number;
}

interface Pending {
  task: WorkerTask;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: WorkerThread;
  idleTimer?: NodeJS.Timeout;
}

/** The entry is loaded from disk at run time, hidden from the bundler, which would drag tsx and esbuild into every route. */
const { Worker: ThreadWorker } = process.getBuiltinModule('node:worker_threads');
const fromRoot = (file: string) => path.join(/* turbopackIgnore: true */ process.cwd(), file);
const ENTRY = fromRoot('lib/platform/worker-entry.mjs');

let nextTaskId = 1;

export class WorkerPool {
  private readonly idle: Slot[] = [];
  private readonly queue: Pending[] = [];
  private running = 0;

  constructor(private readonly options: WorkerPoolOptions) {}

  run<T>(task: WorkerTask): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task, resolve: resolve as (value: unknown) => void, reject });
      this.drain();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((slot) => this.stop(slot)));
  }

  private drain(): void {
    while (this.running < this.options.size && this.queue.length > 0) {
      const pending = this.queue.shift()!;
      this.running++;
      this.execute(this.idle.pop() ?? this.spawn(), pending);
    }
  }

  private spawn(): Slot {
    // The worker's console is silenced in worker-entry.mjs: a piped stdout (`stdout: true`), once read, would keep
    // this process alive however the worker is unref'd.
    const worker = new ThreadWorker(ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    // An idle worker must not keep a CLI or a test process alive.
    worker.unref();
    return { worker };
  }

  private async stop(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    await slot.worker.terminate().catch(() => {});
  }

  private execute(slot: Slot, { task, resolve, reject }: Pending): void {
    clearTimeout(slot.idleTimer);
    const { worker } = slot;
    worker.ref();
    const id = nextTaskId++;
    let settled = false;
    const finish = (reuse: boolean) => {
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      worker.unref();
      this.running--;
      if (reuse) {
        slot.idleTimer = setTimeout(() => {
          const index = this.idle.indexOf(slot);
          if (index >= 0) this.idle.splice(index, 1);
          void this.stop(slot);
        }, this.options.idleMs ?? 30_000);
        slot.idleTimer.unref();
        this.idle.push(slot);
      } else void this.stop(slot);
      this.drain();
    };
    const onMessage = (message: { id: number; ok: boolean; value?: unknown; message?: string }) => {
      if (settled || message.id !== id) return;
      finish(true);
      if (message.ok) resolve(message.value);
      else reject(new Error(message.message));
    };
    const onError = (error: Error & { code?: string }) => {
      if (settled) return;
      finish(false);
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') reject(new WorkerLimitError('memory', `needs more than ${this.options.maxHeapMb} MB of memory`));
      else reject(new WorkerLimitError('crash', error.message));
    };
    const onExit = (code: number) => {
      if (settled) return;
      finish(false);
      reject(new WorkerLimitError('crash', `the worker stopped (exit code ${code})`));
    };
    const timer = setTimeout(() => {
      if (settled) return;
      finish(false);
      reject(new WorkerLimitError('time', `took longer than ${task.timeoutMs / 1000} seconds`));
    }, task.timeoutMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage({ id, modulePath: fromRoot(task.module), exportName: task.exportName, args: task.args }, task.transfer ?? []);
  }
}

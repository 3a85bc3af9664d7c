/** Uses the worker pool once and then does nothing: the process must end by itself (lib/platform/worker-pool.test.ts). */
import { WorkerPool } from '../../lib/platform/worker-pool';

const pool = new WorkerPool({ size: 1, maxHeapMb: 64, idleMs: 60_000 });
const value = await pool.run({ module: 'test/support/noisy-task.ts', exportName: 'doubleNoisily', args: [21], timeoutMs: 30_000 });
console.log('done', value);

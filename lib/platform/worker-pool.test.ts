import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A process that has used the pool ends by itself once its work is done (a CLI, a benchmark): the idle worker must
 * not hold it. A worker whose stdout was piped and read did, whatever unref() said.
 */
describe('the worker pool', () => {
  it('lets a process that used it end on its own, and never prints what its tasks print', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/worker-pool-exit.ts'], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(child.signal).toBeNull();
    expect(child.stdout.trim()).toBe('done 42');
    expect(child.stderr).not.toContain('noise');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

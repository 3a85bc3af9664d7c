import { describe, expect, it } from 'vitest';
import { itemAt } from '@/lib/platform/arrays';
import { GateBusyError, createLoadGate } from './load-gate';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => (resolve = res));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createLoadGate', () => {
  it('runs at most `concurrency` tasks at once and the rest in arrival order', async () => {
    const gate = createLoadGate({ concurrency: 2, maxQueue: 10 });
    const releases = Array.from({ length: 5 }, deferred);
    const release = (i: number) => itemAt(releases, i).resolve();
    const started: number[] = [];
    const runs = releases.map((d, i) =>
      gate.run(async () => {
        started.push(i);
        await d.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect({ active: gate.active, queued: gate.queued }).toEqual({ active: 2, queued: 3 });
    release(1);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    release(0);
    release(2);
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    release(3);
    release(4);
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect({ active: gate.active, queued: gate.queued }).toEqual({ active: 0, queued: 0 });
  });

  it('refuses a task at once when the queue is full, and takes tasks again once it drains', async () => {
    const gate = createLoadGate({ concurrency: 1, maxQueue: 2 });
    const hold = deferred();
    const runs = [gate.run(() => hold.promise), gate.run(async () => 'q1'), gate.run(async () => 'q2')];
    await expect(gate.run(async () => 'over')).rejects.toBeInstanceOf(GateBusyError);
    hold.resolve();
    await Promise.all(runs);
    expect(await gate.run(async () => 'after')).toBe('after');
  });

  it('frees the slot when a task fails', async () => {
    const gate = createLoadGate({ concurrency: 1, maxQueue: 1 });
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
    expect(gate.active).toBe(0);
  });
});

describe('createLoadGate with a rest', () => {
  it('keeps the slot resting for restRatio × the load’s duration before the next load starts', async () => {
    let at = 0;
    const gate = createLoadGate({ concurrency: 1, maxQueue: 10, restRatio: 1, now: () => at });
    const starts: number[] = [];
    const load = (ms: number) =>
      gate.run(async () => {
        starts.push(Date.now());
        at += ms; // the load "took" ms on the gate's clock
      });
    const t0 = Date.now();
    await Promise.all([load(40), load(40), load(0)]);
    expect(itemAt(starts, 1) - t0).toBeGreaterThanOrEqual(35);
    expect(itemAt(starts, 2) - t0).toBeGreaterThanOrEqual(75);
  });
});

import { describe, expect, it } from 'vitest';
import { GateBusyError } from './load-gate';
import { createTurnQueue } from './turns';

describe('createTurnQueue', () => {
  it('gives one waiting request a turn per turn of the event loop, in arrival order, with I/O between turns', async () => {
    const turns = createTurnQueue({ maxWaiting: 10 });
    const events: string[] = [];
    const served = [1, 2, 3].map((n) => turns.take().then(() => events.push(`turn ${n}`)));
    // A callback of the poll/check cycle, like a paid query's I/O: it runs before the second turn, not after the third.
    setImmediate(() => events.push('io'));
    await Promise.all(served);
    expect(events.indexOf('turn 1')).toBe(0);
    expect(events.filter((e) => e.startsWith('turn'))).toEqual(['turn 1', 'turn 2', 'turn 3']);
    expect(events.indexOf('io')).toBeLessThan(events.indexOf('turn 3'));
    expect(turns.waiting).toBe(0);
  });

  it('refuses once maxWaiting requests are in line', async () => {
    const turns = createTurnQueue({ maxWaiting: 2 });
    const first = [turns.take(), turns.take()];
    await expect(turns.take()).rejects.toBeInstanceOf(GateBusyError);
    await Promise.all(first);
    await expect(turns.take()).resolves.toBeUndefined();
  });

  it('while yieldNow says so, turns come a timer apart, so other work runs in between', async () => {
    let paid = true;
    const turns = createTurnQueue({ maxWaiting: 10, yieldNow: () => paid });
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => turns.take()));
    // Five turns, each at least a timer (about a millisecond) after the previous one.
    expect(performance.now() - started).toBeGreaterThanOrEqual(4);
    paid = false;
    const events: string[] = [];
    const fast = [1, 2].map((n) => turns.take().then(() => events.push(`turn ${n}`)));
    await Promise.all(fast);
    expect(events).toEqual(['turn 1', 'turn 2']);
  });
});

import { describe, expect, it } from 'vitest';
import { isReadableRouterState } from './next-router-state';

// The front door's one dependency on Next's internals. If a Next upgrade moves the module, this file fails to load;
// if it changes what it accepts, these cases fail: either way, fix lib/server/next-router-state.ts before shipping.
describe('Next router state, as Next reads it', () => {
  it('reads the state tree a client router sends', () => {
    expect(isReadableRouterState(encodeURIComponent('["",{"children":["__PAGE__",{}]}]'))).toBe(true);
    expect(isReadableRouterState(encodeURIComponent('["",{"children":["knowledge-bases",{"children":["__PAGE__",{}]}]}]'))).toBe(true);
  });

  it('refuses what Next would answer with a 500', () => {
    for (const tree of ['[', 'garbage', '%ZZ', encodeURIComponent('{"a":1}'), encodeURIComponent('[1,2]'), 'x'.repeat(50_000)]) {
      expect(isReadableRouterState(tree), tree.slice(0, 20)).toBe(false);
    }
  });
});

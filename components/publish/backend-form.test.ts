import { describe, expect, it } from 'vitest';
import { generateSecret } from './backend-form';

describe('generateSecret', () => {
  it('makes distinct base62 secrets of the asked length after their prefix, long enough for the backend rules', () => {
    const a = generateSecret('whsec_', 40);
    const b = generateSecret('whsec_', 40);
    expect(a).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(a).not.toBe(b);
    expect(generateSecret('infra_', 32)).toMatch(/^infra_[0-9A-Za-z]{32}$/);
  });
});

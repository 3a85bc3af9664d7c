import { describe, expect, it } from 'vitest';
import { isCommonPassword, newPasswordSchema } from './passwords';

describe('password rule', () => {
  it.each([
    ['password123', false],
    ['Password123', false],
    ['1234567890', false],
    ['qwertyuiop', false],
    ['iloveyou12345', false],
    ['dragon2024!!', false],
    ['short', false],
    ['x'.repeat(201), false],
    ['e2e password that is long', true],
    ['correct horse battery staple', true],
    ['dragonfly-violet-lamp', true],
  ])('%s -> accepted %s', (password, accepted) => {
    expect(newPasswordSchema.safeParse(password).success).toBe(accepted);
  });

  it('reads the shipped list (comments skipped)', () => {
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('# The most common passwords')).toBe(false);
  });
});

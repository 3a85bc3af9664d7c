import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnvForTesting } from '@/lib/platform/env';
import { isAdmin } from './admin';

vi.mock('./session', () => ({ getSessionUser: async () => null }));

afterEach(() => {
  delete process.env.ADMIN_EMAILS;
  resetEnvForTesting();
});

describe('isAdmin', () => {
  it.each([
    { list: undefined, email: 'ops@example.com', admin: false },
    { list: '', email: 'ops@example.com', admin: false },
    { list: 'ops@example.com', email: 'ops@example.com', admin: true },
    { list: ' Ops@Example.com , other@example.com', email: 'ops@example.COM', admin: true },
    { list: 'ops@example.com', email: 'ops@example.com.evil', admin: false },
    { list: 'ops@example.com', email: 'buyer@example.com', admin: false },
  ])('ADMIN_EMAILS=$list, $email -> $admin', ({ list, email, admin }) => {
    if (list !== undefined) process.env.ADMIN_EMAILS = list;
    resetEnvForTesting();
    expect(isAdmin({ email })).toBe(admin);
  });

  it('nobody signed in is not an operator', () => {
    process.env.ADMIN_EMAILS = 'ops@example.com';
    resetEnvForTesting();
    expect(isAdmin(null)).toBe(false);
  });
});

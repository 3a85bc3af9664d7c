import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { registerUser, verifyCredentials } from '@/lib/accounts/users';
import { createTestDatabase } from '@/test/support/db';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle.close();
});

describe('registerUser / verifyCredentials', () => {
  it('stores a lower-cased email and an argon2id hash, never the password', async () => {
    const result = await registerUser(handle.db, { email: '  Ada@Example.TEST ', password: 'correct horse battery', name: 'Ada' });
    expect(result).toMatchObject({ ok: true, user: { email: 'ada@example.test', name: 'Ada' } });
    if (!result.ok) throw new Error('unreachable');
    expect(result.user.id).toMatch(/^usr_/);
    expect(Object.keys(result.user).sort()).toEqual(['email', 'id', 'name']);
    const [row] = await handle.db.select().from(users).where(eq(users.id, result.user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain('correct horse');
  });

  it('refuses a second account with the same email in any case as a value', async () => {
    expect(await registerUser(handle.db, { email: 'ADA@example.test', password: 'another password' })).toEqual({ ok: false, code: 'email_taken' });
  });

  it.each([
    [{ email: 'not-an-email', password: 'long enough password' }, 'email'],
    [{ email: 'short@example.test', password: 'short' }, 'password'],
    [{ email: 'long@example.test', password: 'x'.repeat(201) }, 'password'],
    // docs/api.md §7.2: a form error, never a database error (PostgreSQL refuses U+0000 in text).
    [{ email: 'nul@example.test', password: 'long enough password', name: 'Ada\u0000' }, 'name'],
    [{ email: 'esc@example.test', password: 'long enough password', name: 'Ada \u001b[2J' }, 'name'],
    [{ email: 'nl@example.test', password: 'long enough password', name: 'Ada\nLovelace' }, 'name'],
    [{ email: 'sur@example.test', password: 'long enough password', name: 'Ada \ud800' }, 'name'],
    [{ email: 'nul\u0000@example.test', password: 'long enough password' }, 'email'],
  ])('rejects invalid input %# naming the field', async (input, field) => {
    const result = await registerUser(handle.db, input);
    expect(result.ok).toBe(false);
    if (result.ok || result.code !== 'invalid_input') throw new Error('expected invalid_input');
    expect(Object.keys(result.fieldErrors)).toEqual([field]);
  });

  it('verifies the right password only', async () => {
    expect(await verifyCredentials(handle.db, 'ada@EXAMPLE.test', 'correct horse battery')).toMatchObject({ email: 'ada@example.test' });
    expect(await verifyCredentials(handle.db, 'ada@example.test', 'wrong password!')).toBeNull();
    expect(await verifyCredentials(handle.db, 'nobody@example.test', 'correct horse battery')).toBeNull();
    expect(await verifyCredentials(handle.db, 'ada@example.test', '')).toBeNull();
  });
});

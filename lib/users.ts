import { hash, verify } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { oauthAccounts, users } from '@/db/schema';
import type { Executor } from '@/db/client';
import { newId, randomBase62 } from './ids';

/** What pages and sessions may see of a user: never the password hash or the Stripe customer id. */
export interface UserView {
  id: string;
  email: string;
  name: string | null;
}

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address.' }).max(254, { message: 'Email addresses are at most 254 characters.' }));

export const registerUserSchema = z.object({
  email: emailSchema,
  // The upper bound keeps one request from making argon2 hash megabytes.
  password: z
    .string()
    .min(10, { message: 'Use at least 10 characters.' })
    .max(200, { message: 'Use at most 200 characters.' }),
  name: z
    .string()
    .trim()
    .max(100, { message: 'Use at most 100 characters.' })
    .optional()
    .transform((v) => (v ? v : undefined)),
});

export type RegisterUserInput = z.input<typeof registerUserSchema>;

export type RegisterUserResult =
  | { ok: true; user: UserView }
  | { ok: false; code: 'email_taken' }
  | { ok: false; code: 'invalid_input'; fieldErrors: Partial<Record<'email' | 'password' | 'name', string>> };

// OWASP-recommended argon2id parameters (19 MiB, 2 passes); algorithm 2 = argon2id.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function toUserView(row: { id: string; email: string; name: string | null }): UserView {
  return { id: row.id, email: row.email, name: row.name };
}

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function registerUser(db: Executor, input: RegisterUserInput): Promise<RegisterUserResult> {
  const parsed = registerUserSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<'email' | 'password' | 'name', string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'email' || field === 'password' || field === 'name') && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    return { ok: false, code: 'invalid_input', fieldErrors };
  }
  const { email, password, name } = parsed.data;
  const passwordHash = await hashPassword(password);
  // The unique index decides between two concurrent sign-ups with the same email, not a prior SELECT.
  const inserted = await db
    .insert(users)
    .values({ id: newId('usr'), email, name: name ?? null, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, name: users.name });
  if (inserted.length === 0) return { ok: false, code: 'email_taken' };
  return { ok: true, user: toUserView(inserted[0]!) };
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks an email and password. An unknown email still costs one argon2 verification so response times do not
 * tell which emails have accounts.
 */
export async function verifyCredentials(db: Executor, email: string, password: string): Promise<UserView | null> {
  const normalised = emailSchema.safeParse(email);
  if (!normalised.success || typeof password !== 'string' || password.length === 0 || password.length > 200) return null;
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalised.data))
    .limit(1);
  if (!row || !row.passwordHash) {
    dummyHash ??= hashPassword('almanac-timing-equaliser');
    await verify(await dummyHash, password).catch(() => false);
    return null;
  }
  const valid = await verify(row.passwordHash, password).catch(() => false);
  return valid ? toUserView(row) : null;
}

export async function findUserById(db: Executor, id: string): Promise<UserView | null> {
  const [row] = await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return row ? toUserView(row) : null;
}

/**
 * Signs in through an OAuth provider: the linked account's user, else the user with the same (provider-verified)
 * email gets the identity linked, else a new user without a password. One transaction so a double callback
 * cannot create two users.
 */
export async function upsertOAuthUser(
  db: Executor,
  input: { provider: string; providerAccountId: string; email: string; name?: string | null; image?: string | null },
): Promise<UserView> {
  const email = emailSchema.parse(input.email);
  const run = async (tx: Executor): Promise<UserView> => {
    const [linked] = await tx
      .select({ id: users.id, email: users.email, name: users.name })
      .from(oauthAccounts)
      .innerJoin(users, eq(users.id, oauthAccounts.userId))
      .where(and(eq(oauthAccounts.provider, input.provider), eq(oauthAccounts.providerAccountId, input.providerAccountId)))
      .limit(1);
    if (linked) return toUserView(linked);
    await tx
      .insert(users)
      .values({ id: newId('usr'), email, name: input.name ?? null, image: input.image ?? null })
      .onConflictDoNothing({ target: users.email });
    const [user] = await tx.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.email, email)).limit(1);
    await tx
      .insert(oauthAccounts)
      .values({ id: `oau_${randomBase62(16)}`, userId: user!.id, provider: input.provider, providerAccountId: input.providerAccountId })
      .onConflictDoNothing();
    return toUserView(user!);
  };
  return db.transaction((tx) => run(tx));
}

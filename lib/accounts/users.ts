import { hash, verify } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { oauthAccounts, users } from '@/db/schema';
import type { Executor } from '@/db/client';
import { newId, randomBase62 } from '@/lib/platform/ids';
import { isCleanId } from '@/lib/platform/text-input';
import { newPasswordSchema } from './passwords';

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
  password: newPasswordSchema,
  name: z
    .string()
    .trim()
    .max(100, { message: 'Use at most 100 characters.' })
    // docs/api.md §7.2: a NUL would reach PostgreSQL, which refuses it; no control character belongs in a name.
    .refine(isCleanId, { message: 'Remove control characters from your name.' })
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

/** An unknown email still costs one argon2 verification, so response times do not tell which emails have accounts. */
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

export interface OAuthIdentity {
  provider: string;
  providerAccountId: string;
  email: string | null | undefined;
  emailVerified: boolean;
  name?: string | null;
  image?: string | null;
}

export type OAuthSignInResult =
  | { ok: true; user: UserView; outcome: 'returning' | 'linked' | 'created' }
  | { ok: false; code: 'email_missing' | 'email_not_verified' | 'account_unverified' };

async function findLinkedUser(db: Executor, identity: OAuthIdentity): Promise<UserView | null> {
  const [linked] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .where(and(eq(oauthAccounts.provider, identity.provider), eq(oauthAccounts.providerAccountId, identity.providerAccountId)))
    .limit(1);
  return linked ? toUserView(linked) : null;
}

/**
 * OAuth sign-in's linking rule: a linked identity signs in to its user; otherwise only a provider-verified email links
 * to the account with that email or makes a new one (an unverified one would hand over or squat an address). An
 * account whose own address is unverified is not linked either (docs/api.md §11.3). One transaction, and the link is
 * read back after the insert, so concurrent callbacks end on the same user.
 */
export async function signInWithOAuth(db: Executor, identity: OAuthIdentity): Promise<OAuthSignInResult> {
  const email = emailSchema.safeParse(identity.email ?? '');
  return db.transaction(async (tx): Promise<OAuthSignInResult> => {
    const returning = await findLinkedUser(tx, identity);
    if (returning) return { ok: true, user: returning, outcome: 'returning' };
    if (!email.success) return { ok: false, code: 'email_missing' };
    if (!identity.emailVerified) return { ok: false, code: 'email_not_verified' };
    const created = await tx
      .insert(users)
      .values({ id: newId('usr'), email: email.data, name: identity.name ?? null, image: identity.image ?? null, emailVerifiedAt: new Date() })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    const [owner] = await tx.select({ id: users.id, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email.data)).limit(1);
    // An unproven account may have been opened by someone else: its owner proves the address first, then links.
    if (created.length === 0 && !owner!.verifiedAt) return { ok: false, code: 'account_unverified' };
    await tx
      .insert(oauthAccounts)
      .values({ id: `oau_${randomBase62(16)}`, userId: owner!.id, provider: identity.provider, providerAccountId: identity.providerAccountId })
      .onConflictDoNothing();
    const user = await findLinkedUser(tx, identity);
    return { ok: true, user: user!, outcome: created.length > 0 ? 'created' : 'linked' };
  });
}

export type BuyerResult = { ok: true; user: { id: string; email: string }; created: boolean } | { ok: false; code: 'invalid_email'; message: string };

export async function findOrCreateBuyer(db: Executor, email: string): Promise<BuyerResult> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return { ok: false, code: 'invalid_email', message: parsed.error.issues[0]?.message ?? 'Invalid email.' };
  const normalised = parsed.data;
  const inserted = await db
    .insert(users)
    // An operator vouches for the address they type (README, "Accounts").
    .values({ id: newId('usr'), email: normalised, emailVerifiedAt: new Date() })
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  if (inserted[0]) return { ok: true, user: inserted[0], created: true };
  const [existing] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, normalised));
  if (!existing) throw new Error('User vanished between insert and select.');
  return { ok: true, user: existing, created: false };
}

export async function findUserByEmail(db: Executor, email: string): Promise<{ id: string; email: string } | null> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return null;
  const [row] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, parsed.data));
  return row ?? null;
}

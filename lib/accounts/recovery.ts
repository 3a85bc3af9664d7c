import { verify } from '@node-rs/argon2';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { accountTokens, users } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { siteUrl } from '@/lib/platform/base-url';
import { log } from '@/lib/platform/log';
import { sendMail } from '@/lib/platform/mail';
import { inTransaction } from '@/lib/platform/transactions';
import { recordAudit } from '@/lib/platform/audit';
import { consumeAccountToken, issueAccountToken } from './account-tokens';
import { newPasswordSchema } from './passwords';
import { forgetSessionVersion } from './session-version';
import { getSignInLimiter, type SignInGate } from './sign-in-limiter';
import { emailSchema, hashPassword, registerUser, toUserView, type RegisterUserInput, type UserView } from './users';

/** Accounts that recover (docs/api.md §11.3); sign-up and reset answer the same whether or not the address has an account. */

type Limited = Extract<SignInGate, { ok: false }>;

export type SignUpOutcome =
  { ok: true; email: string } | Limited | { ok: false; code: 'invalid_input'; fieldErrors: Partial<Record<'email' | 'password' | 'name', string>> };

function verificationText(link: string): string {
  return [
    'Confirm the email address of your Almanac account by opening this link:',
    '',
    link,
    '',
    'The link works once and expires in 24 hours. Until you confirm, you can browse the marketplace but not buy or create API keys.',
    '',
    'If you did not create an Almanac account, ignore this email: nothing happens without the link.',
  ].join('\n');
}

export async function sendVerificationEmail(db: Executor, user: { id: string; email: string }, returnTo?: string): Promise<void> {
  const token = await issueAccountToken(db, { userId: user.id, purpose: 'verify_email', email: user.email });
  const next = returnTo && returnTo !== '/' ? `&next=${encodeURIComponent(returnTo)}` : '';
  await sendMail(db, {
    to: user.email,
    subject: 'Confirm your email address — Almanac',
    text: verificationText(siteUrl(`/verify-email?token=${token}${next}`)),
    kind: 'verify_email',
  });
}

/** The same answer for a new address and a taken one, and neither signs anyone in; a taken address's owner is told by email. */
export async function signUpWithVerification(db: Executor, input: RegisterUserInput, address: string, returnTo?: string): Promise<SignUpOutcome> {
  const gate = await getSignInLimiter().admitSignUp(address);
  if (!gate.ok) {
    log.warn({ address }, 'sign-up refused: too many sign-ups from this address');
    return gate;
  }
  const registered = await registerUser(db, input);
  if (registered.ok) {
    await sendVerificationEmail(db, registered.user, returnTo);
    return { ok: true, email: registered.user.email };
  }
  if (registered.code === 'invalid_input') return registered;
  const email = emailSchema.parse(input.email);
  const [owner] = await db
    .select({ id: users.id, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  if (owner && !owner.verifiedAt) await sendVerificationEmail(db, { id: owner.id, email }, returnTo);
  else if (owner) {
    await sendMail(db, {
      to: email,
      subject: 'Someone tried to create an Almanac account with your address',
      text: [
        'Someone (perhaps you) tried to create an Almanac account with this email address, which already has one.',
        '',
        `To sign in: ${siteUrl('/signin')}`,
        `Forgot your password? ${siteUrl('/forgot-password')}`,
        '',
        'If it was not you, nothing has changed and you need not do anything.',
      ].join('\n'),
      kind: 'verify_email',
    });
  }
  return { ok: true, email };
}

export type ConfirmEmailResult = { ok: true; user: UserView } | { ok: false; code: 'invalid_link' };

/** Uses a verification link: the address it was sent to is proven, and the person who opened it is signed in. */
export function confirmEmail(db: Executor, token: string): Promise<ConfirmEmailResult> {
  return inTransaction(db, async (tx): Promise<ConfirmEmailResult> => {
    const used = await consumeAccountToken(tx, token, 'verify_email');
    if (!used) return { ok: false, code: 'invalid_link' };
    const [row] = await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() })
      .where(and(eq(users.id, used.userId), eq(users.email, used.email), isNull(users.deletedAt)))
      .returning({ id: users.id, email: users.email, name: users.name });
    if (!row) return { ok: false, code: 'invalid_link' };
    await recordAudit(tx, { actorUserId: row.id, actorKind: 'web', action: 'user.verify_email', targetType: 'user', targetId: row.id });
    return { ok: true, user: toUserView(row) };
  });
}

export async function isEmailVerified(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(row?.at);
}

export const VERIFY_FIRST_PATH = '/account/settings?error=verify_first';

export type VerifiedGate = { ok: true } | { ok: false; code: 'email_unverified' };

export async function requireVerifiedEmail(db: Executor, userId: string): Promise<VerifiedGate> {
  return (await isEmailVerified(db, userId)) ? { ok: true } : { ok: false, code: 'email_unverified' };
}

export type ResendResult = { ok: true; alreadyVerified: boolean } | Limited;

export async function resendVerification(db: Executor, user: { id: string; email: string }, address: string): Promise<ResendResult> {
  const gate = await getSignInLimiter().admitEmailLink('verify', user.email, address);
  if (!gate.ok) return gate;
  if (await isEmailVerified(db, user.id)) return { ok: true, alreadyVerified: true };
  await inTransaction(db, (tx) => sendVerificationEmail(tx, user));
  return { ok: true, alreadyVerified: false };
}

export type ResetRequestResult = { ok: true } | Limited | { ok: false; code: 'invalid_email'; message: string };

export async function requestPasswordReset(db: Executor, rawEmail: string, address: string): Promise<ResetRequestResult> {
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success) return { ok: false, code: 'invalid_email', message: parsed.error.issues[0]?.message ?? 'Enter a valid email address.' };
  const email = parsed.data;
  const gate = await getSignInLimiter().admitEmailLink('reset', email, address);
  if (!gate.ok) return gate;
  await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), isNull(users.deletedAt)))
      .limit(1);
    if (!user) return;
    const token = await issueAccountToken(tx, { userId: user.id, purpose: 'reset_password', email });
    await sendMail(tx, {
      to: email,
      subject: 'Reset your Almanac password',
      text: [
        'Someone (we hope you) asked to reset the password of your Almanac account. Choose a new one here:',
        '',
        siteUrl(`/reset-password?token=${token}`),
        '',
        'The link works once and expires in 1 hour. Setting a new password signs you out everywhere.',
        '',
        'If you did not ask, ignore this email: your password stays as it is.',
      ].join('\n'),
      kind: 'reset_password',
    });
  });
  return { ok: true };
}

export type PasswordField = 'password' | 'currentPassword';
export type NewPasswordResult =
  | { ok: true; user: UserView }
  | { ok: false; code: 'invalid_input'; fieldErrors: Partial<Record<PasswordField, string>> }
  | { ok: false; code: 'invalid_link' }
  | Limited;

function checkNewPassword(password: string): Partial<Record<PasswordField, string>> | null {
  const parsed = newPasswordSchema.safeParse(password);
  return parsed.success ? null : { password: parsed.error.issues[0]?.message ?? 'Choose another password.' };
}

/** Password, end of every session (`session_version`) and proven address in one statement, in the caller's transaction. */
async function replacePassword(tx: Executor, userId: string, password: string, proveEmail: string | null): Promise<UserView | null> {
  const passwordHash = await hashPassword(password);
  const [row] = await tx
    .update(users)
    .set({
      passwordHash,
      sessionVersion: sql`${users.sessionVersion} + 1`,
      emailVerifiedAt: proveEmail
        ? sql`case when ${users.email} = ${proveEmail} then coalesce(${users.emailVerifiedAt}, now()) else ${users.emailVerifiedAt} end`
        : users.emailVerifiedAt,
      updatedAt: new Date(),
    })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ id: users.id, email: users.email, name: users.name });
  return row ? toUserView(row) : null;
}

export async function resetPassword(db: Executor, token: string, password: string): Promise<NewPasswordResult> {
  const invalid = checkNewPassword(password);
  if (invalid) return { ok: false, code: 'invalid_input', fieldErrors: invalid };
  const result = await inTransaction(db, async (tx): Promise<NewPasswordResult> => {
    const used = await consumeAccountToken(tx, token, 'reset_password');
    if (!used) return { ok: false, code: 'invalid_link' };
    const user = await replacePassword(tx, used.userId, password, used.email);
    if (!user) return { ok: false, code: 'invalid_link' };
    await tx
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, 'reset_password'), isNull(accountTokens.usedAt)));
    await sendMail(tx, {
      to: user.email,
      subject: 'Your Almanac password was changed',
      text: `The password of your Almanac account was just reset, and every session was signed out.\n\nIf this was not you, reset it again at ${siteUrl('/forgot-password')} and tell us.`,
      kind: 'password_changed',
    });
    await recordAudit(tx, { actorUserId: user.id, actorKind: 'web', action: 'user.password_reset', targetType: 'user', targetId: user.id });
    return { ok: true, user };
  });
  if (result.ok) forgetSessionVersion(result.user.id);
  return result;
}

/** The current password is checked, counted like a sign-in (an OAuth account sets its first without); every session ends. */
export async function changePassword(
  db: Executor,
  input: { userId: string; currentPassword: string; password: string },
  address: string,
): Promise<NewPasswordResult> {
  const [row] = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return { ok: false, code: 'invalid_link' };
  if (row.passwordHash) {
    const gate = await getSignInLimiter().admitSignIn(row.email, address);
    if (!gate.ok) return gate;
    const valid =
      input.currentPassword.length > 0 && input.currentPassword.length <= 200 && (await verify(row.passwordHash, input.currentPassword).catch(() => false));
    if (!valid) return { ok: false, code: 'invalid_input', fieldErrors: { currentPassword: 'That is not your current password.' } };
  }
  const invalid = checkNewPassword(input.password);
  if (invalid) return { ok: false, code: 'invalid_input', fieldErrors: invalid };
  const result = await inTransaction(db, async (tx): Promise<NewPasswordResult> => {
    const user = await replacePassword(tx, input.userId, input.password, null);
    if (!user) return { ok: false, code: 'invalid_link' };
    await sendMail(tx, {
      to: user.email,
      subject: 'Your Almanac password was changed',
      text: `The password of your Almanac account was just changed, and every other session was signed out.\n\nIf this was not you, reset it at ${siteUrl('/forgot-password')}.`,
      kind: 'password_changed',
    });
    await recordAudit(tx, { actorUserId: user.id, actorKind: 'web', action: 'user.password_change', targetType: 'user', targetId: user.id });
    return { ok: true, user };
  });
  if (result.ok) forgetSessionVersion(result.user.id);
  return result;
}

export async function getAccountSettings(
  db: Executor,
  userId: string,
): Promise<{ email: string; name: string | null; verified: boolean; hasPassword: boolean } | null> {
  const [row] = await db
    .select({ email: users.email, name: users.name, verifiedAt: users.emailVerifiedAt, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  return row ? { email: row.email, name: row.name, verified: Boolean(row.verifiedAt), hasPassword: Boolean(row.passwordHash) } : null;
}

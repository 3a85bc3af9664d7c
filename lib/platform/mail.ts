import { desc, eq, lt, and, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { mailOutbox } from '@/db/schema';
import type { Executor } from './db';
import { getDb } from './db';
import { getEnv } from './env';
import { newId } from './ids';
import { defineJobHandler, enqueueJob } from './jobs';
import { log } from './log';
import { processSingleton } from './singleton';

/**
 * Email (docs/api.md §11.2). Every message is first a `mail_outbox` row in the caller's transaction, so it exists iff
 * its cause committed. Without SMTP_URL the row is the delivery (read at /admin/outbox); with it, a durable job sends
 * it at least once and marks the row. A single-use link's body is removed once an SMTP server has accepted it, so the
 * database never holds a usable link longer than needed.
 */

type MailKind = 'verify_email' | 'reset_password' | 'password_changed' | 'account_deleted' | 'usage_alert' | 'subscription_notice';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
}

export type MailStatus = 'outbox' | 'queued' | 'sent' | 'failed';

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
}

export const MAIL_QUEUE = 'mail';
const MAIL_MAX_ATTEMPTS = 8;
const LINK_KINDS = new Set<string>(['verify_email', 'reset_password']);
const REMOVED_BODY = '(Delivered by SMTP; the body carried a single-use link and was removed from the outbox.)';

export async function sendMail(db: Executor, mail: OutgoingMail): Promise<{ id: string; status: MailStatus }> {
  const id = newId('msg');
  const status: MailStatus = getEnv().SMTP_URL ? 'queued' : 'outbox';
  await db.insert(mailOutbox).values({ id, toAddress: mail.to, subject: mail.subject, textBody: mail.text, kind: mail.kind, status });
  if (status === 'queued') {
    await enqueueJob(db, { queue: MAIL_QUEUE, payload: { messageId: id }, dedupeKey: `mail:${id}`, maxAttempts: MAIL_MAX_ATTEMPTS });
  }
  return { id, status };
}

/** One transport per SMTP URL per process (nodemailer pools nothing by default; a transport is cheap to keep). */
function transportFor(url: string): Transporter {
  const transports = processSingleton('smtp-transports', () => new Map<string, Transporter>());
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/** A retry after a crash between the send and the row's update is the one case that sends twice. Throws to retry. */
async function deliverMail(messageId: string, attempt: number, db?: Executor): Promise<void> {
  const database = db ?? (await getDb());
  const [row] = await database.select().from(mailOutbox).where(eq(mailOutbox.id, messageId)).limit(1);
  if (!row || row.status === 'sent') return;
  const { SMTP_URL, MAIL_FROM } = getEnv();
  try {
    if (!SMTP_URL) throw new Error('SMTP_URL is not set any more');
    const info = await transportFor(SMTP_URL).sendMail({ from: MAIL_FROM, to: row.toAddress, subject: row.subject, text: row.textBody });
    await database
      .update(mailOutbox)
      .set({
        status: 'sent',
        attempts: attempt,
        sentAt: new Date(),
        messageId: typeof info.messageId === 'string' ? info.messageId : null,
        lastError: null,
        textBody: LINK_KINDS.has(row.kind) ? REMOVED_BODY : row.textBody,
      })
      .where(eq(mailOutbox.id, messageId));
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const last = attempt >= MAIL_MAX_ATTEMPTS;
    await database
      .update(mailOutbox)
      .set({ attempts: attempt, lastError: message, status: last ? 'failed' : 'queued' })
      .where(eq(mailOutbox.id, messageId));
    log.warn({ messageId, attempt, last, err: message }, 'email not delivered');
    throw error;
  }
}

export function registerMailJobs(): void {
  defineJobHandler(MAIL_QUEUE, async (payload: { messageId: string }, { attempt }) => deliverMail(payload.messageId, attempt));
}

/** The newest messages first, for operators (page by passing the last one's `createdAt` as `before`). */
export async function listOutbox(db: Executor, options: { limit?: number; before?: Date; to?: string } = {}): Promise<OutboxMessage[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
  const conditions = [
    options.before ? lt(mailOutbox.createdAt, options.before) : undefined,
    options.to ? eq(mailOutbox.toAddress, options.to.trim().toLowerCase()) : undefined,
  ].filter((c) => c !== undefined);
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(conditions.length > 0 ? and(...conditions) : sql`true`)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    to: r.toAddress,
    subject: r.subject,
    text: r.textBody,
    kind: r.kind,
    status: r.status as MailStatus,
    attempts: r.attempts,
    lastError: r.lastError,
    sentAt: r.sentAt,
    createdAt: r.createdAt,
  }));
}

/** Account deletion: the messages to an address are personal data. */
export async function deleteMailTo(db: Executor, address: string): Promise<number> {
  const deleted = await db.delete(mailOutbox).where(eq(mailOutbox.toAddress, address)).returning({ id: mailOutbox.id });
  return deleted.length;
}

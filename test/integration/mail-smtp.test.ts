import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { resetEnvForTesting } from '@/lib/platform/env';
import { runDueJobs } from '@/lib/platform/jobs';
import { listOutbox, MAIL_QUEUE, registerMailJobs, sendMail } from '@/lib/platform/mail';
import { inTransaction } from '@/lib/platform/transactions';
import { createTestDatabase } from '../support/db';
import { startSmtpSink } from '../support/smtp-sink';

/**
 * Email as a component (docs/api.md §11.2), contract: without SMTP_URL the outbox row is the delivery; with it, a job
 * delivers to a real SMTP server (smtp-server, started here) and what arrived is read back, retried on a temporary
 * failure, marked sent once.
 */

let db: Database;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  sink = await startSmtpSink();
  registerMailJobs();
});

afterAll(async () => {
  await sink.close();
});

afterEach(() => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetEnvForTesting();
});

function useSmtp(): void {
  process.env.SMTP_URL = sink.url;
  process.env.MAIL_FROM = 'Almanac Test <almanac@test.example>';
  resetEnvForTesting();
}

async function drainMail(): Promise<void> {
  while ((await runDueJobs({ queues: [MAIL_QUEUE] })) > 0) {
    /* next */
  }
}

describe('mail', () => {
  it('without SMTP_URL, a message is a row of the outbox and nothing is queued', async () => {
    const sent = await sendMail(db, { to: 'a@example.com', subject: 'Hello', text: 'Line one\nLine two', kind: 'usage_alert' });
    expect(sent.status).toBe('outbox');
    const [row] = await listOutbox(db, { to: 'a@example.com' });
    expect(row).toMatchObject({ id: sent.id, to: 'a@example.com', subject: 'Hello', text: 'Line one\nLine two', status: 'outbox', kind: 'usage_alert' });
    const jobs = await db.execute(sql`select count(*)::int as n from pgboss.job where name = 'mail'`);
    expect(jobs.rows[0]).toEqual({ n: 0 });
  });

  it('a message written in a rolled-back transaction is neither stored nor queued', async () => {
    useSmtp();
    await expect(
      inTransaction(db, async (tx) => {
        await sendMail(tx, { to: 'rollback@example.com', subject: 'Never', text: 'x', kind: 'usage_alert' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await listOutbox(db, { to: 'rollback@example.com' })).toEqual([]);
  });

  it('with SMTP_URL, the job delivers to the SMTP server (authenticated, From, To, Subject, body) and marks the row sent', async () => {
    useSmtp();
    const before = sink.received.length;
    const link = 'http://localhost:3000/verify-email?token=abc_DEF-123=xyz';
    const text = `Confirm your address: ${link}\n\nA long line ${'é'.repeat(100)} so that the body is encoded on the way.`;
    const sent = await sendMail(db, { to: 'buyer@example.com', subject: 'Confirm your email — Almanac', text, kind: 'verify_email' });
    expect(sent.status).toBe('queued');
    await drainMail();
    const received = (await sink.waitFor(before + 1))[before]!;
    expect(received).toMatchObject({ from: 'almanac@test.example', to: ['buyer@example.com'], user: 'tester', subject: 'Confirm your email — Almanac' });
    expect(received.text).toBe(text);
    const [row] = await listOutbox(db, { to: 'buyer@example.com' });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    // The single-use link does not stay in the database once the SMTP server has it.
    expect(row!.text).not.toContain('token=');
    // Running the queue again sends nothing more.
    await drainMail();
    expect(sink.received.length).toBe(before + 1);
  });

  it('a temporary SMTP failure is retried by the queue; the message arrives once', async () => {
    useSmtp();
    const before = sink.received.length;
    sink.failNext(1);
    const sent = await sendMail(db, { to: 'retry@example.com', subject: 'Usage at 80%', text: 'You used 80%.', kind: 'usage_alert' });
    await drainMail();
    let [row] = await listOutbox(db, { to: 'retry@example.com' });
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row!.lastError).toMatch(/451|Try again/);
    // The retry waits for its backoff; make it due now.
    await db.execute(sql`update pgboss.job set start_after = now() where name = 'mail' and state = 'retry' and data->>'messageId' = ${sent.id}`);
    await drainMail();
    [row] = await listOutbox(db, { to: 'retry@example.com' });
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(sink.received.slice(before).map((m) => m.subject)).toEqual(['Usage at 80%']);
  });
});

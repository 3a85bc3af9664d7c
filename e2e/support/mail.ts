import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { parseMail } from '../../test/support/smtp-sink';

// Email in the browser tests arrives for real, at one SMTP server in Playwright's main process; each message lands as a
// JSON file in E2E_MAIL_DIR, where any worker reads it.
export function startFileMailSink(port: number, dir: string): void {
  mkdirSync(dir, { recursive: true });
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { subject, text } = parseMail(Buffer.concat(chunks).toString('utf8'));
        counter += 1;
        const name = `${Date.now().toString().padStart(15, '0')}-${String(counter).padStart(6, '0')}.json`;
        writeFileSync(path.join(dir, name), JSON.stringify({ to: session.envelope.rcptTo.map((r) => r.address), subject, text }));
        callback();
      });
    },
  });
  server.listen(port, '127.0.0.1');
  server.server.unref();
}

export interface ArrivedMail {
  to: string[];
  subject: string;
  text: string;
  link: string | null;
}

/** Waits: the server sends from a job. */
export async function waitForMail(to: string, subject: string, options: { after?: number; timeoutMs?: number } = {}): Promise<ArrivedMail> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set (playwright.config.ts starts the mail sink)');
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const names = readdirSync(dir).sort().reverse();
    for (const name of names) {
      if (options.after !== undefined && Number(name.split('-')[0]) < options.after) break;
      const mail = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Omit<ArrivedMail, 'link'>;
      if (mail.to.includes(to.toLowerCase()) && mail.subject.includes(subject)) {
        return { ...mail, link: /https?:\/\/\S+/.exec(mail.text)?.[0] ?? null };
      }
    }
    if (Date.now() > deadline) throw new Error(`no email to ${to} with "${subject}" arrived`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

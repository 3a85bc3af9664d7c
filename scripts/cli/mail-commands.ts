import { getDb } from '@/lib/platform/db';
import { listOutbox } from '@/lib/platform/mail';
import { command, parse, UsageError } from './args';
import type { CliCommand } from './types';

const USAGE = `Usage: npm run almanac -- outbox [--to <email>] [--limit <n>] [--json]
  The newest emails first (default 20): without SMTP_URL these are the deliveries themselves (verification and reset
  links, usage alerts); with SMTP_URL, their delivery status. --json prints one JSON array (for scripts).`;

export const mailCommands: CliCommand[] = [
  command({
    name: 'outbox',
    summary: 'Print the newest emails of the outbox (the delivery itself when SMTP_URL is unset)',
    usage: USAGE,
    async body(args) {
      const { values } = parse(args, { to: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } });
      const limit = values.limit === undefined ? 20 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be an integer from 1 to 500.');
      const messages = await listOutbox(await getDb(), { to: values.to, limit });
      if (values.json) {
        console.log(JSON.stringify(messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString(), sentAt: m.sentAt?.toISOString() ?? null }))));
        return 0;
      }
      if (messages.length === 0) console.log('The outbox is empty.');
      for (const m of messages) {
        console.log(`── ${m.createdAt.toISOString()}  ${m.status}${m.attempts ? ` (${m.attempts} attempts)` : ''}  ${m.id}`);
        console.log(`To: ${m.to}\nSubject: ${m.subject}${m.lastError ? `\nLast error: ${m.lastError}` : ''}\n`);
        console.log(`${m.text.replace(/^/gm, '  ')}\n`);
      }
      return 0;
    },
  }),
];

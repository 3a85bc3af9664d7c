import { execFile } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, knowledgeBases, plans } from '@/db/schema';
import { createPublisherProfile } from '@/lib/publishing';
import { createTestDatabase, testDbKind } from '../support/db';
import { childLogFile } from '../support/log-scan';
import { createUser } from './subscriptions-fixtures';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/run.mjs', 'almanac', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_FILE: childLogFile('cli'), SEED_ON_START: 'false', APP_URL: 'http://almanac.test:3999', ...env },
        timeout: 90_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** CLI parity with the publisher console: the same lib/publishing functions, as the operator. */
describe.runIf(testDbKind() === 'postgres')('operator CLI: listings and plans', () => {
  it(
    'creates a listing, prices it, publishes and suspends it (each spawn costs seconds: the rules themselves are in publishing-console.test.ts); refusals are explained',
    { timeout: 240_000 },
    async () => {
      const handle = await createTestDatabase({ install: false });
      const env = { DATABASE_URL: handle.url };
      const owner = await createUser(handle.db);
      const profile = await createPublisherProfile(handle.db, owner, {
        name: 'Cli Press',
        slug: 'cli-press',
        websiteUrl: '',
        bio: '',
        contactEmail: 'cli@press.example',
      });
      expect(profile.ok).toBe(true);

      const created = await runCli(
        [
          'create-listing',
          '--publisher',
          'cli-press',
          '--backend',
          'hosted',
          '--title',
          'Tide tables',
          '--summary',
          'Tide tables for the whole coast, by port.',
          '--category',
          'research',
          '--tags',
          'Tides, coast',
        ],
        env,
      );
      expect(created.stderr).toBe('');
      const kbId = /^(kb_\S+)/.exec(created.stdout)![1]!;
      const refused = await runCli(['create-plan', '--kb', kbId, '--name', 'Free', '--price', '0', '--queries', '500'], env);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('--queries: A free plan allows at most 100 queries a month.') });
      const plan = await runCli(['create-plan', '--kb', kbId, '--name', 'Starter', '--price', '9.50', '--queries', '200'], env);
      const planId = /^(plan_\S+)/.exec(plan.stdout)![1]!;
      expect(await runCli(['publish', '--kb', 'cli-press/tide-tables'], env)).toMatchObject({ code: 0, stdout: expect.stringContaining('published') });
      expect(await runCli(['suspend', '--kb', kbId, '--reason', 'Complaint'], env)).toMatchObject({ code: 0 });
      expect((await handle.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId)))[0]).toMatchObject({
        status: 'suspended',
        tags: ['tides', 'coast'],
      });
      expect((await handle.db.select().from(plans).where(eq(plans.id, planId)))[0]!.priceCents).toBe(950);
      const actions = (await handle.db.select().from(auditLog).where(eq(auditLog.actorKind, 'cli'))).map((a) => a.action);
      expect(actions).toEqual(expect.arrayContaining(['kb.create', 'plan.create', 'kb.publish', 'kb.suspend']));
    },
  );
});

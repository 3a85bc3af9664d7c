import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { engineCommands } from '@/scripts/cli/engine-commands';
import { capture } from '@/lib/platform/arrays';

/** The operator commands, run in process against the test database (getDb() is the test database). */
let db: Database;
let folder: string;

async function run(name: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await engineCommands.find((c) => c.name === name)!.run(args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    stderr.mockRestore();
  }
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  folder = mkdtempSync(path.join(os.tmpdir(), 'almanac-engine-cli-'));
  writeFileSync(path.join(folder, 'beekeeping.md'), '# Beekeeping\n\nA healthy hive holds one queen and up to sixty thousand workers in summer.\n');
  writeFileSync(
    path.join(folder, 'swarms.pdf.txt'),
    '# Swarms\nSwarming usually happens in late spring.\n---page---\n## Catching a swarm\n\nA swarm box should be placed at least three metres above the ground.',
  );
  writeFileSync(path.join(folder, 'notes.docx'), 'not a document format we read');
  writeFileSync(path.join(folder, 'sample-questions.json'), '["ignored"]');
});

afterEach(() => vi.restoreAllMocks());
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('engine CLI', () => {
  it('create-kb, ingest a folder (with a failure), ask, delete-document, reindex', async () => {
    const created = await run('create-kb', [
      '--title',
      'Apiary Handbook',
      '--publisher',
      'Hive Press',
      '--category',
      'education',
      '--tags',
      'bees,farming',
      '--summary',
      'Practical notes about keeping bees.',
    ]);
    expect(created.code).toBe(0);
    const kbId = capture(/Created knowledge base (kb_\w+)/.exec(created.out)!, 1);
    const kb = (await db.execute(sql`select slug, status, backend_kind, tags from knowledge_bases where id = ${kbId}`)).rows[0];
    expect(kb).toMatchObject({ slug: 'apiary-handbook', status: 'published', backend_kind: 'hosted', tags: ['bees', 'farming'] });
    expect((await db.execute(sql`select count(*)::int as n from plans where kb_id = ${kbId}`)).rows[0]).toEqual({ n: 3 });

    const ingested = await run('ingest', ['--kb', 'apiary-handbook', folder, path.join(folder, 'notes.docx')]);
    expect(ingested.code).toBe(1); // one file failed
    expect(ingested.out).toContain('2 added, 0 replaced, 0 duplicate, 1 failed');
    expect(ingested.out).toMatch(/failed {4}notes\.docx: unsupported_type/);
    expect(ingested.out).toMatch(/added {5}swarms\.pdf → doc_\w+ \(\d+ chunks, 2 pages\)/);

    const again = await run('ingest', ['--kb', kbId, path.join(folder, 'beekeeping.md')]);
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toContain('0 added, 0 replaced, 1 duplicate, 0 failed');

    const asked = await run('ask', ['--kb', kbId, 'How high should a swarm box be placed?']);
    expect(asked.code).toBe(0);
    expect(asked.out).toContain('at least three metres above the ground');
    expect(asked.out).toMatch(/\[1\] Swarms, page 2 \(doc_\w+\)/);

    const documentId = capture(/swarms\.pdf → (doc_\w+)/.exec(ingested.out)!, 1);
    expect((await run('delete-document', ['--kb', kbId, '--document', documentId])).code).toBe(0);
    expect((await run('delete-document', ['--kb', kbId, '--document', documentId])).code).toBe(1);
    const reindexed = await run('reindex', ['--kb', kbId]);
    expect(reindexed.out).toContain('1 documents');
    const after = await run('ask', ['--kb', kbId, '--json', 'How high should a swarm box be placed?']);
    expect(JSON.parse(after.out).citations.every((c: { document_id: string }) => c.document_id !== documentId)).toBe(true);
  });

  it('usage errors exit 2; unknown knowledge bases exit 1', async () => {
    expect((await run('create-kb', ['--title', 'X'])).code).toBe(2);
    expect((await run('ingest', ['--kb', 'nope'])).code).toBe(2);
    expect((await run('ask', ['--kb', 'no-such-kb', 'question'])).code).toBe(1);
  });
});

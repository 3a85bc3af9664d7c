import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';

/**
 * The `pglite` Vitest project's global setup. A new PGlite runs initdb, which costs each test file seconds, while
 * loading a data directory costs a fraction of that; so the run migrates one PGlite here and every test file starts
 * from a copy of its data directory (test/support/db.ts). Opened by openPglite, so it has the same extensions. The
 * project's two halves (vitest.config.ts) share one template: the first setup makes it.
 */
const owner = globalThis as { __almanacPgliteTemplate?: boolean };

export default async function setup(): Promise<(() => void) | undefined> {
  if (owner.__almanacPgliteTemplate) return undefined;
  owner.__almanacPgliteTemplate = true;
  const handle = await openPglite();
  let tarball: Blob;
  try {
    await prepareDatabase(handle);
    // Copies then start without replaying the migrations from the write-ahead log.
    await handle.pglite!.exec('checkpoint');
    // Uncompressed: gunzipping it would cost every test file more than reading it does.
    tarball = await handle.pglite!.dumpDataDir('none');
  } finally {
    await handle.close();
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'almanac-pglite-template-'));
  const file = path.join(dir, 'pgdata.tar');
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  process.env.ALMANAC_TEST_PGLITE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

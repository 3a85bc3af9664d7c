import pg from 'pg';

/** The maintenance database on the PostgreSQL server that tests and benchmarks create their own databases from. */
const ADMIN_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Closes any connections still open to it. */
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function plainName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  return name;
}

/**
 * An empty database on the PostgreSQL server for one test file or benchmark run (names are plain identifiers), or a
 * copy of `template`, a database nobody may be connected to while it is copied.
 */
export async function createScratchDatabase(name: string, adminUrl = ADMIN_POSTGRES_URL, template?: string): Promise<ScratchDatabase> {
  const copyOf = template ? ` template ${plainName(template)}` : '';
  await withAdmin(adminUrl, (c) => c.query(`create database ${plainName(name)}${copyOf}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropDatabases([name], adminUrl) };
}

export async function dropDatabases(names: string[], adminUrl = ADMIN_POSTGRES_URL): Promise<void> {
  if (names.length === 0) return;
  await withAdmin(adminUrl, async (c) => {
    for (const name of names) await c.query(`drop database if exists "${name}" with (force)`);
  });
}

export async function listDatabases(prefix: string, adminUrl = ADMIN_POSTGRES_URL): Promise<string[]> {
  return withAdmin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    return rows.map((r) => r.datname);
  });
}

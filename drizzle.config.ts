import { defineConfig } from 'drizzle-kit';

// Migrations are generated from db/schema/ (its index.ts) and committed; they are applied by lib/db at start-up
// (and by `npm run db:migrate`), on PGlite and on PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
});

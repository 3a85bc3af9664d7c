#!/usr/bin/env tsx
// Operator CLI: `npm run almanac -- <command> [options]`; the commands are in scripts/cli/.
import path from 'node:path';
import nextEnv from '@next/env';
import { adoptServerBaseUrl } from '@/lib/platform/base-url';
import { closeDatabase, setEmbeddedRole } from '@/lib/platform/db';
import { findEmbeddedServer } from '@/lib/platform/embedded-db';
import { getEnv } from '@/lib/platform/env';
import { startJobQueue, stopJobQueue } from '@/lib/platform/jobs';
import { checkConfiguration } from '@/lib/platform/startup';
import { openServerDatabase } from '@/lib/seed';
import { commands } from './cli/registry';

function printHelp(): void {
  console.log('Usage: npm run almanac -- <command> [options]\n\nCommands:');
  const width = Math.max(...commands.map((c) => c.name.length));
  for (const command of commands) console.log(`  ${command.name.padEnd(width)}  ${command.summary}`);
  console.log("\nRun `npm run almanac -- <command> --help` for a command's options.");
}

async function main(): Promise<number> {
  // Through a running server's socket: two PGlite instances on one data directory corrupt it.
  setEmbeddedRole('client');
  const [name, ...args] = process.argv.slice(2);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    printHelp();
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n`);
    printHelp();
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`${command.name}: ${command.summary}\n\n${command.usage}`);
    return 0;
  }
  // Next's own .env loader, so the CLI cannot end up on another database than the server's.
  nextEnv.loadEnvConfig(path.resolve(import.meta.dirname, '..'), false, { info: () => {}, error: console.error });
  checkConfiguration();
  await openServerDatabase().catch((error: unknown) => {
    throw new Error(`The database cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
  });
  // Before any command's transaction: a command may send a job inside one.
  await startJobQueue();
  const env = getEnv();
  if (!env.DATABASE_URL) adoptServerBaseUrl(findEmbeddedServer(path.resolve(env.DATA_DIR))?.listenUrl);
  return command.run(args);
}

main()
  .then(async (code) => {
    await stopJobQueue();
    await closeDatabase();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    await closeDatabase().catch(() => {});
    process.exit(1);
  });

/**
 * The full fuzz: at least 10,000 seeded malformed requests against a real `npm start` server (the
 * production build, seeded, on a scratch PostgreSQL database: test/fuzz/server.ts), with the checks of the
 * Playwright spec e2e/fuzz.spec.ts, which runs a few thousand of the same cases in every `npm test`.
 *
 *   npx tsx bench/fuzz/run.ts [--cases 10000] [--seed N] [--only i,j,…] [--concurrency 6] [--url http://…]
 *
 * Without --url it starts its own server from the build in .next-e2e (building it when missing, as the Playwright
 * run does). With --url it fuzzes that server, which must be seeded and should be started with the limits of
 * FUZZ_SERVER_ENV. Exits 1 when a case fails; prints the seed and the line that replays the failures.
 */
import { writeFileSync } from 'node:fs';
import { discoverTargets } from '../../test/fuzz/discover';
import { newSeed } from '../../test/fuzz/random';
import { describeReport, runFuzz } from '../../test/fuzz/run';
import { startFuzzServer } from '../../test/fuzz/server';
import { closeWire } from '../../test/fuzz/wire';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

const seed = option('seed') ? Number(option('seed')) : newSeed();
const cases = Number(option('cases') ?? 10_000);
const only = option('only')?.split(',').map(Number);
const concurrency = Number(option('concurrency') ?? 6);

const app = option('url') ? null : await startFuzzServer();
const baseUrl = option('url') ?? app!.url;
let failed = true;
try {
  console.log(`fuzzing ${baseUrl}: seed ${seed}, ${only ? `${only.length} chosen` : cases} cases, ${concurrency} at a time`);
  const targets = await discoverTargets(baseUrl);
  console.log(
    `found ${targets.routes.length} routes and pages, ${targets.kbIds.length} knowledge bases, ${targets.forms.length} forms, ${targets.actionIds.length} server actions`,
  );
  let last = Date.now();
  const report = await runFuzz({
    baseUrl,
    targets,
    seed,
    count: cases,
    only,
    concurrency,
    onProgress: (done, total) => {
      if (Date.now() - last > 10_000 || done === total) {
        last = Date.now();
        console.log(`  ${done}/${total}`);
      }
    },
  });
  console.log(describeReport(report, (failing) => `npx tsx bench/fuzz/run.ts --seed ${seed} --only ${failing.join(',')}`));
  if (option('json')) writeFileSync(option('json')!, JSON.stringify(report, null, 2));
  failed = report.failures.length > 0 || !report.alive;
} finally {
  closeWire();
  await app?.close();
}
process.exit(failed ? 1 : 0);

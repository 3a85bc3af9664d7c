import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { getServerSecret } from '@/lib/platform/server-secret';
import { rotateStoredSecrets } from '@/lib/routing';
import { command, FAILED, parse } from './args';
import type { CliCommand } from './types';

const USAGE = `Usage: ALMANAC_PREVIOUS_SECRET=<old> ALMANAC_SECRET=<new> npm run almanac -- rotate-secret
  Re-encrypts every stored publisher secret (http backends, alert webhooks) from the previous server secret's key to
  the current one, in one transaction; running it again changes nothing. Stop the instances first, start them again
  with the new ALMANAC_SECRET afterwards (README, "Rotate ALMANAC_SECRET"). Secrets are read from the environment only,
  never from arguments, which other users of the machine can read.`;

export const secretCommands: CliCommand[] = [
  command({
    name: 'rotate-secret',
    summary: 'Re-encrypt stored publisher secrets from ALMANAC_PREVIOUS_SECRET to ALMANAC_SECRET',
    usage: USAGE,
    async body(args) {
      parse(args, {});
      const previous = getEnv().ALMANAC_PREVIOUS_SECRET;
      if (!previous) {
        console.error('Set ALMANAC_PREVIOUS_SECRET to the secret being replaced (and ALMANAC_SECRET to the new one).');
        return FAILED;
      }
      const current = getServerSecret();
      if (previous === current) {
        console.error('ALMANAC_PREVIOUS_SECRET and ALMANAC_SECRET are the same secret: nothing to rotate.');
        return FAILED;
      }
      const { reencrypted, alreadyCurrent } = await rotateStoredSecrets(await getDb(), previous, current);
      console.log(`Re-encrypted ${reencrypted} stored secret(s) under the new ALMANAC_SECRET; ${alreadyCurrent} already were.`);
      return 0;
    },
  }),
];

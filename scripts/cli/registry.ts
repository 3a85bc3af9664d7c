import { subscriptionCommands } from './subscription-commands';
import { engineCommands } from './engine-commands';
import { mailCommands } from './mail-commands';
import { listingCommands } from './listing-commands';
import { publisherCommands } from './publisher-commands';
import { secretCommands } from './secret-commands';
import type { CliCommand } from './types';

/** In the order `help` lists them. */
export const commands: CliCommand[] = [
  ...subscriptionCommands,
  ...engineCommands,
  ...publisherCommands,
  ...mailCommands,
  ...listingCommands,
  ...secretCommands,
];

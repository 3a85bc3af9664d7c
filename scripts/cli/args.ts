import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliCommand } from './types';

/** Exit codes shared by every command: 0 done, 1 the request could not be carried out, 2 bad usage. */
export const FAILED = 1;
export const USAGE_ERROR = 2;

/** Thrown for bad flags; `command()` turns it into the command's usage text and exit code 2. */
export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Builds a CLI command whose body may throw UsageError. */
export function command(spec: Omit<CliCommand, 'run'> & { body(args: string[]): Promise<number> }): CliCommand {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    async run(args) {
      try {
        return await spec.body(args);
      } catch (error) {
        if (error instanceof UsageError) {
          console.error(`${spec.name}: ${error.message}\n\n${spec.usage}`);
          return USAGE_ERROR;
        }
        throw error;
      }
    },
  };
}

export function required(value: string | undefined, flag: string): string {
  if (!value || value.trim() === '') throw new UsageError(`${flag} is required.`);
  return value.trim();
}

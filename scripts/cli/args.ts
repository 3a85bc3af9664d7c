import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliCommand } from './types';

export const FAILED = 1;
export const USAGE_ERROR = 2;

export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

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

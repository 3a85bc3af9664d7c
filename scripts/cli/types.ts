export interface CliCommand {
  name: string;
  summary: string;
  /** Options, one per line, shown by `<command> --help`. */
  usage: string;
  /** Returns the process exit code. */
  run(args: string[]): Promise<number>;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

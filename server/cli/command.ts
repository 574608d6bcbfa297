/** One CLI subcommand. `run` returns the process exit code; it prints its own output. */
export interface Command {
  name: string;
  /** One line for `podscope help`. */
  summary: string;
  /** Full usage text for `podscope help NAME` and usage errors. */
  usage: string;
  run(args: string[]): Promise<number>;
}

/** A usage error: printed as one line plus the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

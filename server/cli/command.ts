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

/** Runs one command: its exit code; a usage error prints the usage (2), any other error one line (1). */
export async function runCommand(command: Command, args: string[]): Promise<number> {
  try {
    return await command.run(args);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`podscope ${command.name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`podscope ${command.name}: ${message.split('\n')[0] ?? message}\n`);
    return 1;
  }
}

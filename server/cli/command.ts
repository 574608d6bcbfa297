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

/** `--help` or `-h` among a command's options (not after a `--`, where arguments are verbatim). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

/**
 * Runs one command: its exit code. `--help`/`-h` prints the usage on stdout (0) whatever else is
 * given; a usage error prints the usage on stderr (2), any other error one line (1).
 */
export async function runCommand(command: Command, args: string[]): Promise<number> {
  if (asksForHelp(args)) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
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

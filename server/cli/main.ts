/**
 * `podscope` entry: dispatches to one command module per subcommand (server/cli/commands/*).
 * Exit codes: 0 success, 1 runtime failure (one line on stderr), 2 usage error.
 */
import type { Command } from './command';
import { runCommand } from './command';
import { commands } from './commands';

function help(list: readonly Command[]): string {
  const width = Math.max(...list.map((c) => c.name.length));
  return [
    'podscope — see what Kubernetes nodes are really doing, read straight from the container runtime',
    '',
    'Usage: podscope <command> [options]',
    '',
    ...list.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `podscope help <command>` for a command’s options.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const target = rest[0] && commands.find((c) => c.name === rest[0]);
    process.stdout.write(`${target ? target.usage : help(commands)}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`podscope: unknown command "${name}"\n\n${help(commands)}\n`);
    return 2;
  }
  return runCommand(command, rest);
}

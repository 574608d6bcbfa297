/**
 * `podscope agent` entry (bin/podscope.mjs takes it for `podscope agent …`): the agent runs on
 * every node of a cluster within a DaemonSet's memory budget, so it loads its own modules only,
 * not every command of the CLI (the console, the store, the learning tools …).
 */
import { runCommand } from './command';
import { agentCommand } from './commands/agent';

export function main(argv: string[]): Promise<number> {
  return runCommand(agentCommand, argv.slice(1));
}

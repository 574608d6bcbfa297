import type { Command } from '../command';
import { simCommand } from './sim';
import { snapshotCommand } from './snapshot';

/** Every subcommand, in the order `podscope help` lists them. Add new commands here. */
export const commands: readonly Command[] = [snapshotCommand, simCommand];

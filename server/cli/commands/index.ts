import type { Command } from '../command';
import { agentCommand } from './agent';
import { exportCommand } from './export';
import { importCommand } from './import';
import { migrateCommand } from './migrate';
import { recordCommand } from './record';
import { replayCommand } from './replay';
import { runCommand } from './run';
import { scenarioCommand } from './scenario';
import { simCommand } from './sim';
import { serveCommand } from './serve';
import { snapshotCommand } from './snapshot';
import { watchCommand } from './watch';

/** Every subcommand, in the order `podscope help` lists them. Add new commands here. */
export const commands: readonly Command[] = [
  snapshotCommand,
  watchCommand,
  serveCommand,
  simCommand,
  runCommand,
  scenarioCommand,
  recordCommand,
  replayCommand,
  importCommand,
  exportCommand,
  agentCommand,
  migrateCommand,
];

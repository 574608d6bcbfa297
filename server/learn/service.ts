/**
 * The walkthroughs' recordings, made on demand and kept: in memory for the process, and on disk
 * under `<dataDir>/learn/` so a restart does not record again. A file is used only if it was made
 * from the very same scenario by the same recorder version and still replays to every step's
 * expected outcome; anything else is recorded afresh. Recordings run one at a time (each keeps a
 * simulated node, the driver and the engine busy).
 */
import { CONCEPTS } from '@/lib/learn/concepts';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, encode } from '@/lib/timeline/codec';
import { findScenario, loadLibrary } from '@/server/scenarios/library';
import type { Scenario } from '@/server/scenarios/schema';
import { QUESTIONS } from './questions';
import { RECORDING_VERSION, recordScenario } from './record';
import type { Recording, WalkthroughSummary } from './types';
import { verifyRecording } from './verify';

export class WalkthroughNotFoundError extends Error {
  override name = 'WalkthroughNotFoundError';
}

export interface LearnServiceOptions {
  /** Folder for recordings kept on disk; none: memory only. */
  dir?: string;
  /** How a scenario is recorded (tests substitute their own). */
  record?: (scenario: Scenario) => Promise<Recording>;
  log?: (line: string) => void;
}

interface StoredRecording {
  key: string;
  recording: Recording;
}

/** Identifies what a recording was made from: the recorder's version and the scenario itself. */
export function recordingKey(scenario: Scenario): string {
  return createHash('sha256')
    .update(`${RECORDING_VERSION}\n${JSON.stringify(scenario)}`)
    .digest('hex');
}

export function summarize(s: Scenario): WalkthroughSummary {
  return {
    id: s.id,
    title: s.title,
    summary: s.summary,
    level: s.level,
    topics: s.topics,
    group: s.concepts[0] ? CONCEPTS[s.concepts[0]].group : 'lifecycle',
    steps: s.steps.length,
    questions: Object.keys(QUESTIONS[s.id] ?? {}).length,
  };
}

export class LearnService {
  private readonly memory = new Map<string, Promise<Recording>>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly record: (scenario: Scenario) => Promise<Recording>;
  private readonly log: (line: string) => void;

  constructor(private readonly options: LearnServiceOptions = {}) {
    this.record = options.record ?? ((s) => recordScenario(s));
    this.log = options.log ?? (() => undefined);
  }

  list(): WalkthroughSummary[] {
    return loadLibrary().map(summarize);
  }

  /** The recording of a scenario: from memory, from disk, or recorded now. */
  recording(id: string): Promise<Recording> {
    const scenario = findScenario(id);
    if (!scenario)
      return Promise.reject(new WalkthroughNotFoundError(`no walkthrough named "${id}"`));
    let p = this.memory.get(id);
    if (!p) {
      p = this.load(scenario);
      // A failed recording is not kept: the next request tries again.
      p.catch(() => this.memory.delete(id));
      this.memory.set(id, p);
    }
    return p;
  }

  private async load(scenario: Scenario): Promise<Recording> {
    const key = recordingKey(scenario);
    const kept = this.readDisk(scenario, key);
    if (kept) return kept;
    const run = this.queue.then(() => this.record(scenario));
    this.queue = run.catch(() => undefined);
    const recording = await run;
    this.writeDisk(scenario.id, { key, recording });
    return recording;
  }

  private file(id: string): string | undefined {
    return this.options.dir ? join(this.options.dir, `${id}.json`) : undefined;
  }

  private readDisk(scenario: Scenario, key: string): Recording | undefined {
    const file = this.file(scenario.id);
    if (!file) return undefined;
    let stored: StoredRecording;
    try {
      stored = decode<StoredRecording>(readFileSync(file, 'utf8'));
    } catch {
      return undefined; // none yet, or unreadable: record afresh
    }
    if (stored.key !== key || stored.recording?.version !== RECORDING_VERSION) return undefined;
    const problems = verifyRecording(scenario, stored.recording);
    if (problems.length > 0) {
      this.log(`learn: ${file} does not replay (${problems[0]?.problem ?? ''}); recording again`);
      return undefined;
    }
    return stored.recording;
  }

  private writeDisk(id: string, stored: StoredRecording): void {
    const file = this.file(id);
    if (!file || !this.options.dir) return;
    try {
      mkdirSync(this.options.dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, encode(stored));
      renameSync(tmp, file);
    } catch (err) {
      // The recording still serves from memory; only the next process will record again.
      this.log(
        `learn: could not keep ${file}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}

/**
 * What a bundle entry loads when it starts: its output file and every chunk it imports
 * statically, transitively — not the chunks behind `import()`, which load on first use. Read from
 * esbuild's metafile (deploy/image/build.ts bundleCli), so a test can tell what a process holds
 * from its first line of code (server/agent/footprint.test.ts) apart from what it may load later.
 */
import type { Metafile } from 'esbuild';

/**
 * The outputs loaded at start by the entry point whose path ends with `entry` — or, with
 * `lazy`, every output it can ever load (the chunks behind `import()` too).
 */
export function startupOutputs(metafile: Metafile, entry: string, lazy = false): string[] {
  const outputs = metafile.outputs;
  const first = Object.keys(outputs).find((k) => outputs[k]?.entryPoint?.endsWith(entry));
  if (!first) throw new Error(`no output has the entry point ${entry}`);
  const seen = new Set([first]);
  const queue = [first];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    for (const i of outputs[path]?.imports ?? []) {
      const follow = i.kind === 'import-statement' || (lazy && i.kind === 'dynamic-import');
      if (!follow || i.external || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return [...seen];
}

/** The source files (inputs) bundled into the outputs `entry` loads at start. */
export function startupInputs(metafile: Metafile, entry: string): string[] {
  return inputsOf(metafile, startupOutputs(metafile, entry));
}

/** The source files (inputs) `entry` can ever load: at start and behind `import()`. */
export function loadableInputs(metafile: Metafile, entry: string): string[] {
  return inputsOf(metafile, startupOutputs(metafile, entry, true));
}

function inputsOf(metafile: Metafile, outputs: readonly string[]): string[] {
  const inputs = new Set<string>();
  for (const out of outputs)
    for (const input of Object.keys(metafile.outputs[out]?.inputs ?? {})) inputs.add(input);
  return [...inputs].sort();
}

/**
 * What a bundle entry loads when it starts: its output file and every chunk it imports
 * statically, transitively — not the chunks behind `import()`, which load on first use. Read from
 * esbuild's metafile (deploy/image/build.ts bundleCli), so a test can tell what a process holds
 * from its first line of code (server/agent/footprint.test.ts) apart from what it may load later.
 */
import type { Metafile } from 'esbuild';

/** The outputs loaded at start by the entry point whose path ends with `entry`. */
export function startupOutputs(metafile: Metafile, entry: string): string[] {
  const outputs = metafile.outputs;
  const first = Object.keys(outputs).find((k) => outputs[k]?.entryPoint?.endsWith(entry));
  if (!first) throw new Error(`no output has the entry point ${entry}`);
  const seen = new Set([first]);
  const queue = [first];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    for (const i of outputs[path]?.imports ?? []) {
      if (i.kind !== 'import-statement' || i.external || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return [...seen];
}

/** The source files (inputs) bundled into the outputs `entry` loads at start. */
export function startupInputs(metafile: Metafile, entry: string): string[] {
  const inputs = new Set<string>();
  for (const out of startupOutputs(metafile, entry))
    for (const input of Object.keys(metafile.outputs[out]?.inputs ?? {})) inputs.add(input);
  return [...inputs].sort();
}

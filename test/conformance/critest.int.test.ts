/**
 * The CRI's own conformance suite against the simulated node: cri-tools v1.26.1 `critest` with
 * its default test images, run against `podscope sim` over its unix socket. Every spec of the
 * groups in FOCUS must pass (26 specs). Out of scope, and why: server/sim/README.md.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutTool } from '../external-tool';
import { critoolsDir, unpackCritools, type Critools } from './critools';
import { startSimProcess, type SimProcess } from './sim-process';

export const CRITEST_FOCUS =
  'Runtime info|PodSandbox runtime should support basic|' +
  'Container runtime should support basic operations|Container runtime should support log|' +
  'Image Manager';
const EXPECTED_SPECS = 26;

const skip = skipWithoutTool('critest against podscope sim', critoolsDir);

let tools: Critools | undefined;
let sim: SimProcess | undefined;

beforeAll(async () => {
  if (skip) return;
  tools = unpackCritools();
  sim = await startSimProcess();
});
afterAll(async () => {
  await sim?.stop();
  tools?.remove();
});

function runCritest(endpoint: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      tools!.critest,
      [
        `--runtime-endpoint=${endpoint}`,
        `--image-endpoint=${endpoint}`,
        `--ginkgo.focus=${CRITEST_FOCUS}`,
        '--ginkgo.no-color',
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe.skipIf(skip)('critest against podscope sim', () => {
  it(`passes every in-scope spec (${EXPECTED_SPECS})`, { timeout: 600_000 }, async () => {
    const { code, output } = await runCritest(sim!.endpoint);
    const summary = /Ran (\d+) of \d+ Specs[\s\S]*?(\d+) Passed \| (\d+) Failed/.exec(output);
    const failures = output.match(/\[FAIL\].*$/gm) ?? [];
    expect(failures, output.slice(-4000)).toEqual([]);
    expect(summary?.slice(1, 4)).toEqual([String(EXPECTED_SPECS), String(EXPECTED_SPECS), '0']);
    expect(code).toBe(0);
  });
});

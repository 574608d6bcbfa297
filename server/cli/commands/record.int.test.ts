/**
 * podscope record against a simulated node (real gRPC over a unix socket, kubelet stand-in
 * running a crash-looping pod): the file it writes is a valid timeline that shows the incident.
 * The CLI records in real time, so this test does too (3 s of recording at 5× simulator speed).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseTimelineBytes, stateAtTime } from '@/lib/timeline/file';
import { decodeUpload } from '@/server/timelines';
import { CriClient } from '@/server/cri/client';
import { fromSimClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { createClock, startSimNode } from '@/server/sim';
import { main } from '../main';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length) await cleanups.pop()?.();
});

function captureOutput(): { err: string[] } {
  const err: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  return { err };
}

describe('podscope record', () => {
  it('records a simulated node into a valid timeline file (gzip)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-record-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const clock = createClock({ mode: 'real', speed: 5 });
    const sim = await startSimNode({
      name: 'rec-node',
      clock,
      socketPath: join(dir, 'rec-node.sock'),
    });
    const client = new CriClient(sim.endpoint);
    const driver = new Driver({
      client,
      node: 'rec-node',
      clock: fromSimClock(clock),
      uidSeed: 'record',
      backoffScale: 0.1,
    });
    cleanups.push(async () => {
      await driver.stop();
      client.close();
      await sim.stop();
    });
    await driver.apply({
      metadata: { name: 'crashy', namespace: 'rec' },
      spec: {
        restartPolicy: 'Always',
        containers: [
          {
            name: 'app',
            image: 'podscope.local/busybox:1',
            command: ['sh', '-c', 'sleep 1; exit 2'],
          },
        ],
      },
    });

    const out = join(dir, 'incident.podscope.json.gz');
    const { err } = captureOutput();
    const code = await main([
      'record',
      '--cri',
      `rec-node=${sim.endpoint}`,
      '--out',
      out,
      '--for',
      '3s',
      '--title',
      'crashy at 5x',
    ]);
    expect(code).toBe(0);
    expect(err.join('')).toMatch(/wrote .*incident\.podscope\.json\.gz: \d+ events over 3\.\d s/);

    const bytes = readFileSync(out);
    expect(bytes[0]).toBe(0x1f);
    const file = decodeUpload(bytes);
    expect(file.title).toBe('crashy at 5x');
    expect(file.source).toMatchObject({
      kind: 'recorded',
      nodes: [{ name: 'rec-node', endpoint: sim.endpoint }],
    });
    expect(file.events.length).toBeGreaterThan(5);
    expect(file.to - file.from).toBeGreaterThanOrEqual(3_000);
    const end = stateAtTime(file, file.to);
    const crashy = Object.values(end.nodes['rec-node']?.pods ?? {}).find(
      (p) => p.name === 'crashy',
    );
    expect(crashy?.status.phase).toBe('Running');
    expect(file.events.some((e) => e.kind === 'cri' && e.type === 'ContainerExited')).toBe(true);
    // And the plain form parses the same.
    expect(
      parseTimelineBytes(
        new TextEncoder().encode(JSON.stringify(JSON.parse(JSON.stringify(file)))),
      ),
    ).toBeDefined();
  }, 30_000);

  it('still writes the file when interrupted (SIGINT)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-record-int-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const sim = await startSimNode({ name: 'int-node', socketPath: join(dir, 'int-node.sock') });
    cleanups.push(() => sim.stop());
    const out = join(dir, 'interrupted.json');
    const child = spawn(
      process.execPath,
      ['bin/podscope.mjs', 'record', '--cri', sim.endpoint, '--out', out],
      {
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // Interrupt once the recording has started; a second Ctrl-C is harmless too.
      if (!interrupted && stderr.includes('Ctrl-C ends the recording')) {
        interrupted = true;
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 5);
      }
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/wrote .*interrupted\.json: \d+ events/);
    const file = decodeUpload(readFileSync(out));
    expect(file.source.nodes.map((n) => n.name)).toEqual(['int-node']);
  }, 60_000);

  it('needs --cri and --out', async () => {
    captureOutput();
    expect(await main(['record', '--out', '/tmp/x.json'])).toBe(2);
    expect(await main(['record', '--cri', '/tmp/none.sock'])).toBe(2);
  });
});

/**
 * SimProcess over several simulator processes: nodes numbered in order across them, requests
 * about a node reach the process holding it, usage sums them all, stop removes the sockets.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SimProcess } from './sim-process';

let sim: SimProcess | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('SimProcess with nodesPerProcess', () => {
  it('spreads nodes over processes and routes each request to the node’s own', async () => {
    sim = await SimProcess.start({ nodesPerProcess: 2 });
    const nodes = await sim.grow(5, { pods: 2, containers: 1, eventsMode: 'unimplemented' });
    expect(nodes.map((n) => n.name)).toEqual([
      'bench-001',
      'bench-002',
      'bench-003',
      'bench-004',
      'bench-005',
    ]);
    for (const n of nodes) {
      expect(n.endpoint).toContain(sim.socketDir);
      expect(existsSync(n.endpoint.replace(/^unix:\/\//, ''))).toBe(true);
    }
    // bench-005 lives in the third process: its slot is found and changed there.
    const before = await sim.slot('bench-005', 0);
    const flipped = await sim.flip('bench-005', 0);
    expect((await sim.slot('bench-005', 0)).state).not.toBe(before.state);
    expect(flipped.podUid).toBe(before.podUid);
    await expect(sim.flip('bench-999', 0)).rejects.toThrow(/no node bench-999/);
    // Churn reaches every process; named nodes only theirs.
    expect(await sim.churn(1)).toBe(5);
    expect(await sim.churn(1, ['bench-001', 'bench-005'])).toBe(2);
    const usage = await sim.usage();
    expect(usage.cpuMs).toBeGreaterThan(0);
    expect(usage.rssMb).toBeGreaterThan(3 * 20); // three node processes
    // Growing again adds only the missing nodes, in the last process first.
    expect((await sim.grow(6, { pods: 2, containers: 1 })).length).toBe(6);
    const dir = sim.socketDir;
    await sim.stop();
    sim = undefined;
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});

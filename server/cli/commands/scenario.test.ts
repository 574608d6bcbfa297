import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../main';
import { loadLibrary } from '@/server/scenarios/library';
import { needsSimulator } from '@/server/scenarios/schema';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  return { out: () => out.join(''), err: () => err.join('') };
}

describe('podscope scenario', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists one line per scenario: id and title', async () => {
    const io = capture();
    expect(await main(['scenario', 'list'])).toBe(0);
    const lines = io.out().trim().split('\n');
    // One line per scenario in the library (20 since the CNI, hung-runtime and memory-pressure walkthroughs).
    expect(lines.length).toBe(loadLibrary().length);
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines[0]).toMatch(/^crashloop\s+CrashLoopBackOff: a container that keeps crashing$/);
  });

  it('lists as JSON, in Chinese when asked', async () => {
    const io = capture();
    expect(await main(['scenario', 'list', '--json', '--lang', 'zh-CN'])).toBe(0);
    const list = JSON.parse(io.out()) as { id: string; title: string; simulatorOnly: boolean }[];
    expect(list.find((s) => s.id === 'crashloop')?.title).toBe('CrashLoopBackOff：反复崩溃的容器');
    expect(
      list
        .filter((s) => s.simulatorOnly)
        .map((s) => s.id)
        .sort(),
    ).toEqual(
      loadLibrary()
        .filter(needsSimulator)
        .map((s) => s.id)
        .sort(),
    );
    expect(list.filter((s) => s.simulatorOnly).length).toBeGreaterThanOrEqual(4);
  });

  it.each([
    [['scenario'], /give a subcommand/],
    [['scenario', 'frobnicate'], /unknown subcommand "frobnicate"/],
    [['scenario', 'run'], /needs a NAME/],
    [['scenario', 'run', 'nope'], /no scenario "nope"; known: crashloop/],
    [
      ['scenario', 'run', 'node-lost', '--cri', 'unix:///tmp/x.sock'],
      /runs only on the embedded simulator/,
    ],
    [
      ['scenario', 'run', 'crashloop', '--cri', 'unix:///tmp/x.sock', '--speed', '5'],
      /--speed sets the simulator clock/,
    ],
    [['scenario', 'run', 'crashloop', '--speed', 'fast'], /--speed fast/],
    [['scenario', 'run', 'crashloop', '--cri', 'containerd'], /an endpoint is unix/],
    [['scenario', 'list', '--lang', 'fr'], /--lang fr/],
    [['scenario', 'run', 'crashloop', '--bogus'], /bogus/],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const io = capture();
    expect(await main(args)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});

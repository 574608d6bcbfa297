import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../main';

describe('podscope scenario run (embedded simulator)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints each step with what it observed and exits 0 when every outcome was seen', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    expect(await main(['scenario', 'run', 'job-succeeds', '--speed', '20'])).toBe(0);
    const text = out.join('');
    expect(text).toMatch(/^job-succeeds: A Job's pod succeeds\n/);
    expect(text).toMatch(
      /ok {3}\[2\/3\] wait \(\d+\.\ds\)\n.*\n {5}✓ report\/report: terminated, Completed, exit 0, restarts 0\n {5}✓ report: Succeeded\n/,
    );
    expect(text).toMatch(/\nPASS job-succeeds: 3\/3 steps in \d+\.\ds of scenario time\n$/);
  });

  it('writes one JSON document with --json', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    expect(
      await main(['scenario', 'run', 'job-fails', '--speed', '20', '--json', '--lang', 'zh-CN']),
    ).toBe(0);
    const doc = JSON.parse(out.join('')) as {
      ok: boolean;
      steps: { status: string; text?: string }[];
    };
    expect(doc.ok).toBe(true);
    expect(doc.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed']);
    expect(doc.steps[1]?.text).toMatch(/^容器以退出码 2 退出/);
  });
});

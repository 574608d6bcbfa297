/** Every command answers `--help` and `-h` with its usage on stdout and exit code 0. */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main as agentMain } from './agent-main';
import { asksForHelp } from './command';
import { commands } from './commands';
import { main } from './main';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { out, err };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('--help', () => {
  const cases = commands.flatMap((c) =>
    ['--help', '-h'].map((flag) => ({ name: c.name, flag, usage: c.usage })),
  );
  it.each(cases)(
    'podscope $name $flag prints its usage and exits 0',
    async ({ name, flag, usage }) => {
      const { out, err } = capture();
      await expect(main([name, flag])).resolves.toBe(0);
      expect(out.join('')).toBe(`${usage}\n`);
      expect(err).toEqual([]);
    },
  );

  it('wins over other options, even ones that would be refused', async () => {
    const { out, err } = capture();
    await expect(main(['agent', '--no-such-option', '--help'])).resolves.toBe(0);
    expect(out.join('')).toMatch(/^Usage: podscope agent/);
    expect(err).toEqual([]);
  });

  it('through the agent entry point too', async () => {
    const { out } = capture();
    await expect(agentMain(['agent', '--help'])).resolves.toBe(0);
    expect(out.join('')).toMatch(/^Usage: podscope agent/);
  });

  it.each(['--help', '-h', 'help'])('podscope %s lists every command', async (flag) => {
    const { out } = capture();
    await expect(main([flag])).resolves.toBe(0);
    for (const c of commands) expect(out.join('')).toContain(`  ${c.name}`);
  });

  it('is not read after "--"', () => {
    expect(asksForHelp(['--cri', 'x', '--', '--help'])).toBe(false);
    expect(asksForHelp(['-h'])).toBe(true);
    expect(asksForHelp(['--helpful'])).toBe(false);
  });

  it('the installed binary: podscope agent --help exits 0 with the usage on stdout', () => {
    const r = spawnSync(process.execPath, ['bin/podscope.mjs', 'agent', '--help'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: podscope agent/);
    expect(r.stderr).not.toMatch(/Unknown option/);
  });
});

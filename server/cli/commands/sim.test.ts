import { describe, expect, it } from 'vitest';
import { UsageError } from '../command';
import { demoSeed, parseSimArgs } from './sim';

describe('podscope sim arguments', () => {
  it('has defaults', () => {
    expect(parseSimArgs([])).toEqual({ nodes: 1, speed: 1, seed: 'podscope', events: 'stream' });
  });
  it('reads every option', () => {
    expect(
      parseSimArgs([
        '--nodes',
        '5',
        '--socket-dir',
        '/tmp/x',
        '--speed',
        '2.5',
        '--seed',
        's',
        '--events',
        'unimplemented',
      ]),
    ).toEqual({ nodes: 5, socketDir: '/tmp/x', speed: 2.5, seed: 's', events: 'unimplemented' });
  });
  it.each([
    [['--nodes', '0']],
    [['--nodes', 'two']],
    [['--nodes', '1001']],
    [['--speed', '0']],
    [['--events', 'maybe']],
    [['--bogus']],
    [['extra']],
    [['--socket-dir', `/tmp/${'d'.repeat(120)}`]],
  ])('rejects %j', (args) => {
    expect(() => parseSimArgs(args)).toThrow(UsageError);
  });
});

describe('podscope sim --demo', () => {
  it('is off unless asked for, and seeds the demo from --seed', () => {
    expect(parseSimArgs(['--demo']).demo).toBe(true);
    expect(parseSimArgs([]).demo).toBeUndefined();
    expect(demoSeed('42')).toBe(42);
    expect(demoSeed('podscope')).toBe(demoSeed('podscope'));
    expect(demoSeed('podscope')).not.toBe(demoSeed('other'));
  });
});

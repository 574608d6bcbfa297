import { describe, expect, it } from 'vitest';
import { skipWithoutTool, underCI } from './external-tool';

const absent = () => {
  throw new Error('cri-tools not found: looked in /nowhere');
};

describe('skipWithoutTool', () => {
  it('outside CI, an absent tool skips the suite with one line naming it', () => {
    const lines: string[] = [];
    expect(skipWithoutTool('critest', absent, {}, (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual([
      '[podscope] skipping critest: cri-tools not found: looked in /nowhere (under CI=true this fails)',
    ]);
  });

  it.each(['true', '1', 'yes'])('under CI=%s it runs (and fails as without the tool)', (ci) => {
    const lines: string[] = [];
    expect(skipWithoutTool('critest', absent, { CI: ci }, (l) => lines.push(l))).toBe(false);
    expect(lines).toEqual([]);
  });

  it('a tool that is there runs, in CI or not', () => {
    expect(skipWithoutTool('critest', () => '/bin/true', {})).toBe(false);
    expect(skipWithoutTool('critest', () => '/bin/true', { CI: 'true' })).toBe(false);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['FALSE', false],
    ['1', true],
    ['true', true],
  ])('CI=%j is CI: %s', (ci, expected) => {
    expect(underCI(ci === undefined ? {} : { CI: ci })).toBe(expected);
  });
});

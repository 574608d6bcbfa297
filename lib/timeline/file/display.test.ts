import { describe, expect, it } from 'vitest';
import { inertText } from './display';

describe('inertText', () => {
  it('shows control characters as Control Pictures', () => {
    expect(inertText('a\u0000b\u0007c\u001bd\u007f')).toBe('a\u2400b\u2407c\u241bd\u2421');
    expect(inertText('one\ntwo\tthree')).toBe('one\u240atwo\u2409three');
  });
  it('keeps line breaks and tabs in multi-line text, drops carriage returns', () => {
    expect(inertText('one\r\ntwo\tthree\u0007', { multiline: true })).toBe('one\ntwo\tthree\u2407');
  });
  it('neutralises C1 controls and bidirectional overrides', () => {
    expect(inertText('abc\u202edcba\u2066x\u0085')).toBe('abc\ufffddcba\ufffdx\ufffd');
  });
  it('leaves markup as text and other scripts alone', () => {
    expect(inertText('<script>alert(1)</script> 容器 🚀')).toBe(
      '<script>alert(1)</script> 容器 🚀',
    );
  });
  it('cuts long text at code points', () => {
    expect(inertText('🚀🚀🚀🚀', { max: 3 })).toBe('🚀🚀…');
    expect(inertText('abc', { max: 3 })).toBe('abc');
  });
});

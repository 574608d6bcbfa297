import { describe, expect, it } from 'vitest';
import { redactPaths } from './init';

describe('redactPaths', () => {
  it('removes absolute paths and keeps the rest of the message', () => {
    expect(redactPaths('/tmp/x/timeline.db: disk full')).toBe('<path>: disk full');
    expect(redactPaths('cannot open "/var/lib/podscope/timeline.db" (EACCES)')).toBe(
      'cannot open "<path>" (EACCES)',
    );
    expect(redactPaths('dial unix:///run/containerd/containerd.sock failed')).toBe(
      'dial unix:<path> failed',
    );
    expect(redactPaths('a timeline id is letters, digits, - and _')).toBe(
      'a timeline id is letters, digits, - and _',
    );
    expect(redactPaths('from/to must be ordered')).toBe('from/to must be ordered');
  });
});

import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { specOf } from './util';

describe('specOf', () => {
  it('builds a spec view once, and again whenever its container lists or policy changed', () => {
    const spec: NonNullable<V1Pod['spec']> = {
      containers: [{ name: 'app' }],
      initContainers: [{ name: 'init' }],
      restartPolicy: 'Always',
    };
    const pod: V1Pod = { spec };
    const first = specOf(pod);
    expect(first.containers.map((c) => c.name)).toEqual(['app']);
    expect(specOf({ ...pod })).toBe(first);

    spec.containers.push({ name: 'side' });
    expect(specOf(pod).containers.map((c) => c.name)).toEqual(['app', 'side']);
    spec.containers[1] = { name: 'other' };
    expect(specOf(pod).containers.map((c) => c.name)).toEqual(['app', 'other']);
    spec.initContainers = [];
    expect(specOf(pod).initContainers).toEqual([]);
    spec.restartPolicy = 'Never';
    expect(specOf(pod).restartPolicy).toBe('Never');
    const last = specOf(pod);
    expect(specOf(pod)).toBe(last);
  });

  it('cleans unnamed and non-object containers every time it is asked', () => {
    const pod = {
      spec: { containers: [{ image: 'x' }, null, { name: 'ok' }] },
    } as unknown as V1Pod;
    expect(specOf(pod).containers.map((c) => c.name)).toEqual(['', 'ok']);
    expect(specOf(pod).containers.map((c) => c.name)).toEqual(['', 'ok']);
    expect(specOf(undefined).containers).toEqual([]);
  });
});

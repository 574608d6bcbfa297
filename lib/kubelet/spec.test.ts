import { describe, expect, it } from 'vitest';
import {
  INFERRED_ANNOTATION,
  INFERRED_SIDECAR_ANNOTATION,
  inferPodSpec,
  podFromSpecAnnotation,
} from './spec';
import { readySandbox, record, runtimeOf } from './testing/fixtures';

const typed = (type: string) => ({ 'io.kubernetes.container.type': type });

describe('inferPodSpec', () => {
  it('sorts records into init and regular containers by the type annotation, in order of first creation', () => {
    const pod = inferPodSpec(
      runtimeOf([
        record({ name: 'app', createdAt: 30, annotations: typed('container'), image: 'nginx:1' }),
        record({
          name: 'init',
          createdAt: 10,
          state: 'exited',
          exitCode: 0,
          annotations: typed('init'),
        }),
        record({ name: 'side', createdAt: 20, annotations: typed('init') }),
        record({ name: 'debug', createdAt: 40, annotations: typed('ephemeral') }),
        record({ name: 'legacy', createdAt: 50 }),
      ]),
    );
    expect(pod.spec?.initContainers?.map((c) => [c.name, c.restartPolicy])).toEqual([
      ['init', undefined],
      ['side', 'Always'],
    ]);
    expect(pod.spec?.containers.map((c) => c.name)).toEqual(['app', 'legacy']);
    expect(pod.spec?.containers[0]?.image).toBe('nginx:1');
    expect(pod.spec?.restartPolicy).toBe('Always');
    expect(pod.metadata?.annotations?.[INFERRED_ANNOTATION]).toBe('inferred');
    expect(pod.metadata?.annotations?.[INFERRED_SIDECAR_ANNOTATION]).toBe('side');
    expect(pod.metadata).toMatchObject({ name: 'p', namespace: 'ns', uid: 'uid1' });
  });
  it('hostNetwork from a NODE-mode sandbox; user labels kept, kubelet labels dropped', () => {
    const pod = inferPodSpec(
      runtimeOf(
        [],
        [
          readySandbox({
            networkMode: 'NODE',
            labels: { app: 'web', 'io.kubernetes.pod.uid': 'uid1' },
          }),
        ],
      ),
    );
    expect(pod.spec?.hostNetwork).toBe(true);
    expect(pod.metadata?.labels).toEqual({ app: 'web' });
  });
  it('never throws on garbage', () => {
    expect(() => inferPodSpec(null as never)).not.toThrow();
    expect(() =>
      inferPodSpec({ containers: [null, 3, { name: 7 }], sandboxes: 'x' } as never),
    ).not.toThrow();
  });
});

describe('podFromSpecAnnotation', () => {
  const withSpec = (value: string) =>
    readySandbox({ annotations: { 'podscope.dev/pod-spec': value } });
  it('reads a valid pod and revives metadata times', () => {
    const pod = podFromSpecAnnotation(
      withSpec(
        JSON.stringify({
          metadata: { name: 'web', creationTimestamp: '2026-01-01T00:00:00Z' },
          spec: {
            restartPolicy: 'OnFailure',
            containers: [{ name: 'app', image: 'busybox' }],
            initContainers: [{ name: 'i' }],
          },
          status: { phase: 'Succeeded' },
        }),
      ),
    );
    expect(pod?.spec?.restartPolicy).toBe('OnFailure');
    expect(pod?.metadata?.creationTimestamp).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(pod?.status).toBeUndefined();
  });
  it.each([
    ['not JSON', '{'],
    ['no spec', '{}'],
    ['no containers', '{"spec":{}}'],
    ['unnamed container', '{"spec":{"containers":[{}]}}'],
    ['duplicate names', '{"spec":{"containers":[{"name":"a"},{"name":"a"}]}}'],
    ['init name clashes', '{"spec":{"containers":[{"name":"a"}],"initContainers":[{"name":"a"}]}}'],
    ['bad restartPolicy', '{"spec":{"restartPolicy":"Sometimes","containers":[{"name":"a"}]}}'],
    ['bad container policy', '{"spec":{"containers":[{"name":"a","restartPolicy":1}]}}'],
    ['array', '[]'],
  ])('invalid (%s) → undefined', (_label, text) => {
    expect(podFromSpecAnnotation(withSpec(text))).toBeUndefined();
  });
  it('oversized or missing → undefined', () => {
    expect(podFromSpecAnnotation(withSpec('x'.repeat(256 * 1024 + 1)))).toBeUndefined();
    expect(podFromSpecAnnotation(readySandbox())).toBeUndefined();
    expect(podFromSpecAnnotation(undefined)).toBeUndefined();
  });
  it('reads an annotations map once, and again when its text changed', () => {
    const text = (image: string) =>
      JSON.stringify({ metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image }] } });
    const sandbox = withSpec(text('one'));
    const first = podFromSpecAnnotation(sandbox);
    expect(first?.spec?.containers[0]?.image).toBe('one');
    expect(podFromSpecAnnotation({ ...sandbox })).toBe(first); // a copy of the record, same map
    expect(podFromSpecAnnotation(withSpec(text('one')))).not.toBe(first);
    expect(podFromSpecAnnotation(withSpec(text('one')))).toEqual(first);
    (sandbox.annotations as Record<string, string>)['podscope.dev/pod-spec'] = text('two');
    expect(podFromSpecAnnotation(sandbox)?.spec?.containers[0]?.image).toBe('two');
    (sandbox.annotations as Record<string, string>)['podscope.dev/pod-spec'] = '{';
    expect(podFromSpecAnnotation(sandbox)).toBeUndefined();
    expect(podFromSpecAnnotation(sandbox)).toBeUndefined();
  });
});

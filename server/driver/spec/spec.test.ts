import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATIONS } from '@/lib/kubelet/runtime';
import { podFromSpecAnnotation } from '@/lib/kubelet/spec';
import { ConfigStore, makeEnvironmentVariables } from './env';
import { buildSandboxSpec, containerResources, podLogsDirectory } from './labels';
import { defaultImagePullPolicy, defaultPod, PodSpecError, uidGenerator } from './spec';

const opts = { node: 'node-a', uid: () => 'uid-1', now: Date.UTC(2025, 0, 1), hostNetwork: true };

describe('defaultPod', () => {
  it('fills in what the API server would, without touching the input', () => {
    const input: V1Pod = {
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    };
    const out = defaultPod(input, opts);
    expect(input.metadata?.uid).toBeUndefined();
    expect(out.metadata).toMatchObject({ name: 'web', namespace: 'default', uid: 'uid-1' });
    expect(out.spec).toMatchObject({
      nodeName: 'node-a',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      hostNetwork: true,
    });
    expect(out.spec?.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['registry.local:5000/app', 'Always'],
    ['registry.local:5000/app:v1', 'IfNotPresent'],
    ['app@sha256:abc', 'IfNotPresent'],
  ])('imagePullPolicy default for %s is %s', (image, policy) => {
    expect(defaultImagePullPolicy(image)).toBe(policy);
  });

  it.each([
    [{ metadata: {}, spec: { containers: [{ name: 'a', image: 'x' }] } }, /no metadata.name/],
    [{ metadata: { name: 'p' }, spec: { containers: [] } }, /spec.containers is empty/],
    [
      { metadata: { name: 'p' }, spec: { containers: [{ name: 'A', image: 'x' }] } },
      /not a DNS label/,
    ],
    [{ metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] } }, /has no image/],
    [
      {
        metadata: { name: 'p' },
        spec: {
          initContainers: [{ name: 'a', image: 'x' }],
          containers: [{ name: 'a', image: 'x' }],
        },
      },
      /duplicate container name "a"/,
    ],
    [
      {
        metadata: { name: 'p' },
        spec: { restartPolicy: 'Sometimes', containers: [{ name: 'a', image: 'x' }] },
      },
      /restartPolicy/,
    ],
  ] as [V1Pod, RegExp][])('rejects %j', (input, message) => {
    expect(() => defaultPod(input, opts)).toThrow(PodSpecError);
    expect(() => defaultPod(input, opts)).toThrow(message);
  });

  it('generates stable, RFC 4122-shaped uids from a seed', () => {
    const a = uidGenerator('node-a');
    const b = uidGenerator('node-a');
    const first = a();
    expect(first).toBe(b());
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a()).not.toBe(first);
    expect(uidGenerator('node-b')()).not.toBe(first);
  });
});

describe('the pod-spec annotation', () => {
  it('is read back by lib/kubelet as the same pod', () => {
    const pod = defaultPod(
      {
        metadata: {
          name: 'web',
          namespace: 'shop',
          labels: { app: 'web' },
          annotations: { team: 'payments' },
        },
        spec: {
          restartPolicy: 'OnFailure',
          initContainers: [{ name: 'proxy', image: 'x', restartPolicy: 'Always' }],
          containers: [{ name: 'app', image: 'y' }],
        },
      },
      opts,
    );
    const sandbox = buildSandboxSpec(pod, { attempt: 0 });
    const back = podFromSpecAnnotation({
      id: 's',
      name: 'web',
      namespace: 'shop',
      uid: 'uid-1',
      attempt: 0,
      state: 'ready',
      createdAt: 0,
      labels: sandbox.labels ?? {},
      annotations: sandbox.annotations ?? {},
      inspected: true,
    });
    expect(back?.metadata).toMatchObject({
      name: 'web',
      namespace: 'shop',
      uid: 'uid-1',
      labels: { app: 'web' },
    });
    expect(back?.metadata?.annotations).toEqual({ team: 'payments' });
    expect(back?.spec?.restartPolicy).toBe('OnFailure');
    expect(back?.spec?.initContainers?.[0]?.restartPolicy).toBe('Always');
    expect(sandbox.annotations?.team).toBe('payments');
    expect(sandbox.annotations?.[ANNOTATIONS.podSpec]).toBeDefined();
    expect(sandbox.networkMode).toBe('NODE');
  });

  it('puts each pod in its own log directory', () => {
    const pod = defaultPod(
      {
        metadata: { name: 'web', namespace: 'shop' },
        spec: { containers: [{ name: 'a', image: 'x' }] },
      },
      opts,
    );
    expect(podLogsDirectory('/var/log/pods/', pod)).toBe('/var/log/pods/shop_web_uid-1');
  });
});

describe('resources', () => {
  it('turns limits and requests into Linux resources as the kubelet does', () => {
    expect(
      containerResources({
        name: 'a',
        resources: { requests: { cpu: '250m' }, limits: { cpu: '500m', memory: '64Mi' } },
      }),
    ).toEqual({
      memoryLimitBytes: 67_108_864,
      cpuShares: 256,
      cpuPeriod: 100_000,
      cpuQuota: 50_000,
    });
    expect(containerResources({ name: 'a', resources: { requests: { cpu: '1m' } } })).toEqual({
      cpuShares: 2,
    });
    expect(containerResources({ name: 'a' })).toEqual({});
  });
});

describe('makeEnvironmentVariables', () => {
  const pod = defaultPod(
    {
      metadata: { name: 'p', namespace: 'shop' },
      spec: { containers: [{ name: 'a', image: 'x' }] },
    },
    opts,
  );
  const store = new ConfigStore({
    configMaps: { 'shop/cfg': { level: 'debug', mode: 'fast' } },
    secrets: { 'shop/db': { password: 's3cret' } },
  });

  it('resolves values, references, envFrom with a prefix, and fieldRefs; later entries win', () => {
    expect(
      makeEnvironmentVariables(
        pod,
        {
          name: 'a',
          envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cfg' } }],
          env: [
            { name: 'PLAIN', value: 'x' },
            { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'level' } } },
            { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
            { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'CFG_MODE', value: 'slow' },
            {
              name: 'MISSING',
              valueFrom: { configMapKeyRef: { name: 'nope', key: 'k', optional: true } },
            },
          ],
        },
        store,
      ),
    ).toEqual({
      CFG_level: 'debug',
      CFG_MODE: 'slow',
      CFG_mode: 'fast',
      PLAIN: 'x',
      LEVEL: 'debug',
      PASSWORD: 's3cret',
      POD: 'p',
    });
  });

  it.each([
    [{ configMapKeyRef: { name: 'nope', key: 'k' } }, 'configmap "nope" not found'],
    [{ configMapKeyRef: { name: 'cfg', key: 'k' } }, "couldn't find key k in ConfigMap shop/cfg"],
    [{ secretKeyRef: { name: 'nope', key: 'k' } }, 'secret "nope" not found'],
    [{ secretKeyRef: { name: 'db', key: 'user' } }, "couldn't find key user in Secret shop/db"],
  ])('fails with the API server’s words: %j', (valueFrom, message) => {
    expect(() =>
      makeEnvironmentVariables(pod, { name: 'a', env: [{ name: 'X', valueFrom }] }, store),
    ).toThrow(message);
  });
});

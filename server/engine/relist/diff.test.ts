import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { containerTransitions, planInspection, plegState, sandboxTransitions } from './diff';

const ctr = (
  state: RuntimeContainer['state'],
  extra: Partial<RuntimeContainer> = {},
): RuntimeContainer => ({
  id: 'c1',
  sandboxId: 's1',
  name: 'web',
  attempt: 0,
  state,
  createdAt: 100,
  image: 'img',
  imageRef: 'img',
  restartCount: 0,
  labels: {},
  annotations: {},
  inspected: true,
  ...extra,
});
const types = (old?: RuntimeContainer, now?: RuntimeContainer) =>
  containerTransitions(old, now, 'u1').map((t) => t.type);

describe('plegState (pleg/generic.go convertState)', () => {
  it('maps created to unknown and absence to non-existent', () => {
    expect(plegState(ctr('created'))).toBe('unknown');
    expect(plegState(ctr('unknown'))).toBe('unknown');
    expect(plegState(ctr('running'))).toBe('running');
    expect(plegState(ctr('exited'))).toBe('exited');
    expect(plegState(undefined)).toBe('non-existent');
  });
});

describe('containerTransitions (pleg/generic.go generateEvents table)', () => {
  it.each([
    ['same state → none', ctr('running'), ctr('running'), []],
    ['created → running', ctr('created'), ctr('running', { startedAt: 110 }), ['ContainerStarted']],
    [
      'running → exited',
      ctr('running'),
      ctr('exited', { exitCode: 1, reason: 'Error' }),
      ['ContainerExited'],
    ],
    ['exited → gone', ctr('exited'), undefined, ['ContainerRemoved']],
    [
      'running → gone: died then removed',
      ctr('running'),
      undefined,
      ['ContainerExited', 'ContainerRemoved'],
    ],
    [
      'unknown → gone: died then removed',
      ctr('created'),
      undefined,
      ['ContainerExited', 'ContainerRemoved'],
    ],
    ['new and created', undefined, ctr('created'), ['ContainerCreated']],
    [
      'new and running: created, started',
      undefined,
      ctr('running', { startedAt: 110 }),
      ['ContainerCreated', 'ContainerStarted'],
    ],
    [
      'new and exited after running',
      undefined,
      ctr('exited', { startedAt: 110, finishedAt: 120, exitCode: 0 }),
      ['ContainerCreated', 'ContainerStarted', 'ContainerExited'],
    ],
    [
      'new and failed to start',
      undefined,
      ctr('exited', { exitCode: 128, reason: 'StartError', startedAt: 0 }),
      ['ContainerCreated', 'ContainerExited'],
    ],
    [
      'created → exited (start error)',
      ctr('created'),
      ctr('exited', { exitCode: 128, reason: 'StartError' }),
      ['ContainerExited'],
    ],
    ['running → unknown', ctr('running'), ctr('unknown'), ['ContainerExited']],
  ])('%s', (_name, old, now, expected) => {
    expect(types(old, now)).toEqual(expected);
  });

  it('carries the runtime fields that changed', () => {
    const [t] = containerTransitions(
      ctr('running'),
      ctr('exited', { exitCode: 137, reason: 'OOMKilled', finishedAt: 500 }),
      'u1',
    );
    expect(t).toMatchObject({
      podUid: 'u1',
      container: 'web',
      runtimeTime: 500,
      detail: { exitCode: 137, reason: 'OOMKilled', state: 'exited' },
    });
  });
});

const sb = (
  state: RuntimeSandbox['state'],
  extra: Partial<RuntimeSandbox> = {},
): RuntimeSandbox => ({
  id: 's1',
  name: 'p',
  namespace: 'default',
  uid: 'u1',
  attempt: 0,
  state,
  createdAt: 50,
  labels: {},
  annotations: {},
  inspected: true,
  ...extra,
});

describe('sandboxTransitions', () => {
  it('reports ready, not ready and removal', () => {
    expect(sandboxTransitions(undefined, sb('ready')).map((t) => t.type)).toEqual(['SandboxReady']);
    expect(sandboxTransitions(sb('ready'), sb('notready')).map((t) => t.type)).toEqual([
      'SandboxNotReady',
    ]);
    expect(sandboxTransitions(sb('notready'), undefined).map((t) => t.type)).toEqual([
      'SandboxRemoved',
    ]);
    expect(sandboxTransitions(sb('ready'), sb('ready'))).toEqual([]);
  });
});

describe('planInspection', () => {
  it('inspects new, changed and previously failed records only', () => {
    const old = new Map([
      ['a', ctr('running', { id: 'a' })],
      ['b', ctr('running', { id: 'b' })],
      ['c', ctr('running', { id: 'c', inspected: false })],
    ]);
    const listed = [
      ctr('running', { id: 'a' }),
      ctr('exited', { id: 'b' }),
      ctr('running', { id: 'c' }),
      ctr('created', { id: 'd' }),
    ];
    expect(planInspection(old, listed, new Map(), []).containers).toEqual(['b', 'c', 'd']);
  });
});

import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { computePodQOS, getPodQOS } from './qos';

const pod = (...containers: V1Container[]): V1Pod => ({ spec: { containers } });
const c = (requests?: Record<string, string>, limits?: Record<string, string>): V1Container => ({
  name: 'c',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

describe('qos', () => {
  it('BestEffort without requests or limits', () => {
    expect(computePodQOS(pod(c()))).toBe('BestEffort');
    expect(computePodQOS(pod(c({ cpu: '0' })))).toBe('BestEffort');
  });
  it('Guaranteed when every container has equal cpu and memory limits and requests', () => {
    expect(
      computePodQOS(pod(c({ cpu: '1', memory: '1Gi' }, { cpu: '1000m', memory: '1024Mi' }))),
    ).toBe('Guaranteed');
  });
  it('Burstable otherwise', () => {
    expect(computePodQOS(pod(c({ cpu: '500m' }, { cpu: '1', memory: '1Gi' })))).toBe('Burstable');
    expect(computePodQOS(pod(c(undefined, { cpu: '1' })))).toBe('Burstable');
    expect(
      computePodQOS(pod(c({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }), c())),
    ).toBe('Burstable');
  });
  it('a remembered class follows quantities changed in place, added or removed', () => {
    const requests: Record<string, string> = { cpu: '1', memory: '1Gi' };
    const limits: Record<string, string> = { cpu: '1', memory: '1Gi' };
    const p = pod(c(requests, limits));
    expect(computePodQOS(p)).toBe('Guaranteed');
    expect(computePodQOS(p)).toBe('Guaranteed');
    requests.cpu = '500m';
    expect(computePodQOS(p)).toBe('Burstable');
    requests.cpu = '1';
    expect(computePodQOS(p)).toBe('Guaranteed');
    delete limits.memory;
    expect(computePodQOS(p)).toBe('Burstable');
    limits.memory = '1Gi';
    requests.ephemeral = '1Gi';
    expect(computePodQOS(p)).toBe('Guaranteed');
    const resources = p.spec?.containers[0]?.resources;
    if (!resources) throw new Error('fixture has resources');
    resources.requests = {};
    resources.limits = {};
    expect(computePodQOS(p)).toBe('BestEffort');
    // An inherited quantity is not the container's own (Object.entries skips it).
    resources.requests = Object.create({ cpu: '1' }) as Record<string, string>;
    expect(computePodQOS(p)).toBe('BestEffort');
  });
  it('a class already in the status wins', () => {
    expect(getPodQOS({ ...pod(c()), status: { qosClass: 'Guaranteed' } })).toBe('Guaranteed');
  });
});

/**
 * kubeletAdmissionRejection per minor: a pod with a `restartPolicy: Always` init container is
 * refused by a kubelet whose SidecarContainers gate is off (1.28 by default; kube_features.go
 * versioned specs) with reason InitContainerRestartPolicyForbidden (pkg/kubelet/lifecycle
 * predicate.go) and `Pod was rejected: …` (kubelet.go rejectPod).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeletAdmissionRejection } from './admission';
import { kubeletFeatures } from './version';

const gatesOf = (minor: number) => kubeletFeatures({ value: `1.${minor}`, source: 'flag' }).gates;
const withSidecar: V1Pod = {
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }],
    containers: [{ name: 'app' }],
  },
};
const plain: V1Pod = {
  spec: { initContainers: [{ name: 'setup' }], containers: [{ name: 'app' }] },
};

describe('kubeletAdmissionRejection', () => {
  for (const minor of [28, 29, 30, 31, 32, 33, 34, 35, 36]) {
    const refused = minor < 29;
    it(`1.${minor}: a pod with a sidecar is ${refused ? 'refused' : 'admitted'}`, () => {
      const r = kubeletAdmissionRejection(withSidecar, gatesOf(minor));
      if (refused)
        expect(r).toEqual({
          phase: 'Failed',
          reason: 'InitContainerRestartPolicyForbidden',
          message:
            'Pod was rejected: Init container "proxy" may not have a non-default restartPolicy',
        });
      else expect(r).toBeUndefined();
    });
  }
  it('1.28 admits a pod without sidecars, and one with the gate turned on', () => {
    expect(kubeletAdmissionRejection(plain, gatesOf(28))).toBeUndefined();
    const on = kubeletFeatures({ value: '1.28', source: 'flag' }, { SidecarContainers: true });
    expect(kubeletAdmissionRejection(withSidecar, on.gates)).toBeUndefined();
  });
  it('bad input is admitted rather than thrown on', () => {
    expect(kubeletAdmissionRejection(undefined, gatesOf(28))).toBeUndefined();
    expect(
      kubeletAdmissionRejection({ spec: null } as unknown as V1Pod, gatesOf(28)),
    ).toBeUndefined();
  });
});

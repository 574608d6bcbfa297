/**
 * Ported from kubernetes/kubernetes pkg/kubelet/kubelet_pods_test.go @
 * 001a80e975bb880d0fe60b304d30950fe661f278: every case of the TestPodPhaseWith* tables, named as
 * upstream names them (describe = test function, it = case name). Upstream runs them with the
 * binary's default gates (ContainerRestartRules on); the ContainerRestartPolicy and
 * RestartAllContainers tables force their gates on, as here.
 */
import type { V1Container, V1ContainerStatus, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FeatureGates } from './gates';
import { computePhase, getPhase } from './phase';
import type { PodPhase } from './types';
import {
  failedState,
  failedStateWithExitCode,
  runningState,
  sidecar,
  startedState,
  stoppedState,
  succeededState,
  waitingState,
  waitingStateWithLastTermination,
  waitingStateWithNonZeroTermination,
  waitingStateWithRestartingAllContainers,
} from './testing/fixtures';

type Row = {
  test: string;
  init?: V1ContainerStatus[];
  statuses?: V1ContainerStatus[];
  podIsTerminal?: boolean;
  podHasInitialized?: boolean;
  want: PodPhase;
};

function table(name: string, spec: V1PodSpec, rows: Row[], gates?: FeatureGates): void {
  describe(name, () => {
    for (const row of rows) {
      it(row.test, () => {
        const pod: V1Pod = {
          spec,
          status: { initContainerStatuses: row.init, containerStatuses: row.statuses },
        };
        // Upstream passes init statuses first, then regular ones (or only the regular list).
        const info = [...(row.init ?? []), ...(row.statuses ?? [])];
        expect(
          getPhase(pod, info, row.podIsTerminal ?? false, row.podHasInitialized ?? false, gates),
        ).toBe(row.want);
      });
    }
  });
}

const two: V1Container[] = [{ name: 'containerA' }, { name: 'containerB' }];

table(
  'TestPodPhaseWithRestartAlways',
  { nodeName: 'machine', containers: two, restartPolicy: 'Always' },
  [
    { test: 'waiting', want: 'Pending' },
    {
      test: 'all running',
      statuses: [runningState('containerA'), runningState('containerB')],
      want: 'Running',
    },
    {
      test: 'all stopped with restart always',
      statuses: [stoppedState('containerA'), stoppedState('containerB')],
      want: 'Running',
    },
    {
      test: 'all succeeded with restart always, but the pod is terminal',
      statuses: [succeededState('containerA'), succeededState('containerB')],
      podIsTerminal: true,
      want: 'Succeeded',
    },
    {
      test: 'all stopped with restart always, but the pod is terminal',
      statuses: [succeededState('containerA'), failedState('containerB')],
      podIsTerminal: true,
      want: 'Failed',
    },
    {
      test: 'mixed state #1 with restart always',
      statuses: [runningState('containerA'), stoppedState('containerB')],
      want: 'Running',
    },
    {
      test: 'mixed state #2 with restart always',
      statuses: [runningState('containerA')],
      want: 'Pending',
    },
    {
      test: 'mixed state #3 with restart always',
      statuses: [runningState('containerA'), waitingState('containerB')],
      want: 'Pending',
    },
    {
      test: 'backoff crashloop container with restart always',
      statuses: [runningState('containerA'), waitingStateWithLastTermination('containerB')],
      want: 'Running',
    },
  ],
);

table(
  'TestPodPhaseWithRestartAlwaysInitContainers',
  {
    nodeName: 'machine',
    initContainers: [{ name: 'containerX' }],
    containers: two,
    restartPolicy: 'Always',
  },
  [
    { test: 'empty, waiting', want: 'Pending' },
    { test: 'init container running', init: [runningState('containerX')], want: 'Pending' },
    {
      test: 'init container terminated non-zero',
      init: [failedState('containerX')],
      want: 'Pending',
    },
    {
      test: 'init container waiting, terminated zero',
      init: [waitingStateWithLastTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'init container waiting, terminated non-zero',
      init: [waitingStateWithNonZeroTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'init container waiting, not terminated',
      init: [waitingState('containerX')],
      want: 'Pending',
    },
    {
      test: 'init container succeeded',
      init: [succeededState('containerX')],
      statuses: [runningState('containerA'), runningState('containerB')],
      want: 'Running',
    },
  ],
);

const allRunning = [runningState('containerA'), runningState('containerB')];
const allSucceeded = [succeededState('containerA'), succeededState('containerB')];

table(
  'TestPodPhaseWithRestartAlwaysRestartableInitContainers',
  {
    nodeName: 'machine',
    initContainers: [sidecar('containerX')],
    containers: two,
    restartPolicy: 'Always',
  },
  [
    { test: 'empty, waiting', want: 'Pending' },
    {
      test: 'restartable init container running',
      init: [runningState('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container stopped',
      init: [stoppedState('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container waiting, terminated zero',
      init: [waitingStateWithLastTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container waiting, terminated non-zero',
      init: [waitingStateWithNonZeroTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container waiting, not terminated',
      init: [waitingState('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container started, 1/2 regular container running',
      init: [startedState('containerX')],
      statuses: [runningState('containerA')],
      podHasInitialized: true,
      want: 'Pending',
    },
    {
      test: 'restartable init container started, all regular containers running',
      init: [startedState('containerX')],
      statuses: allRunning,
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'restartable init container running, all regular containers running',
      init: [runningState('containerX')],
      statuses: allRunning,
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'restartable init container stopped, all regular containers running',
      init: [stoppedState('containerX')],
      statuses: allRunning,
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'backoff crashloop restartable init container, all regular containers running',
      init: [waitingStateWithLastTermination('containerX')],
      statuses: allRunning,
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal',
      init: [failedState('containerX')],
      statuses: allSucceeded,
      podIsTerminal: true,
      podHasInitialized: true,
      want: 'Succeeded',
    },
    {
      test: 'all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal',
      init: [succeededState('containerX')],
      statuses: allSucceeded,
      podIsTerminal: true,
      podHasInitialized: true,
      want: 'Succeeded',
    },
    {
      test: 're-initializing the pod after the sandbox is recreated',
      init: [runningState('containerX')],
      statuses: allRunning,
      want: 'Pending',
    },
  ],
);

table(
  'TestPodPhaseWithRestartAlwaysAndPodHasRun',
  {
    nodeName: 'machine',
    initContainers: [{ name: 'containerX' }, sidecar('containerY')],
    containers: [{ name: 'containerA' }],
    restartPolicy: 'Always',
  },
  [
    {
      test: 'regular init containers, restartable init container and regular container are all running',
      init: [runningState('containerX'), runningState('containerY')],
      statuses: [runningState('containerA')],
      want: 'Pending',
    },
    {
      test: 'regular containers is stopped, restartable init container and regular int container are both running',
      init: [runningState('containerX'), runningState('containerY')],
      statuses: [stoppedState('containerA')],
      want: 'Pending',
    },
    {
      test: 're-created sandbox: regular init container is succeeded, restartable init container is running, old regular containers is stopped',
      init: [succeededState('containerX'), runningState('containerY')],
      statuses: [stoppedState('containerA')],
      want: 'Pending',
    },
    {
      test: 'regular init container is succeeded, restartable init container is running, regular containers is stopped',
      init: [succeededState('containerX'), runningState('containerY')],
      statuses: [stoppedState('containerA')],
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'regular init container is succeeded, restartable init container and regular containers are both running',
      init: [succeededState('containerX'), runningState('containerY')],
      statuses: [runningState('containerA')],
      podHasInitialized: true,
      want: 'Running',
    },
  ],
);

table(
  'TestPodPhaseWithRestartNever',
  { nodeName: 'machine', containers: two, restartPolicy: 'Never' },
  [
    { test: 'waiting', want: 'Pending' },
    { test: 'all running with restart never', statuses: allRunning, want: 'Running' },
    { test: 'all succeeded with restart never', statuses: allSucceeded, want: 'Succeeded' },
    {
      test: 'all failed with restart never',
      statuses: [failedState('containerA'), failedState('containerB')],
      want: 'Failed',
    },
    {
      test: 'mixed state #1 with restart never',
      statuses: [runningState('containerA'), succeededState('containerB')],
      want: 'Running',
    },
    {
      test: 'mixed state #2 with restart never',
      statuses: [runningState('containerA')],
      want: 'Pending',
    },
    {
      test: 'mixed state #3 with restart never',
      statuses: [runningState('containerA'), waitingState('containerB')],
      want: 'Pending',
    },
  ],
);

table(
  'TestPodPhaseWithRestartNeverInitContainers',
  {
    nodeName: 'machine',
    initContainers: [{ name: 'containerX' }],
    containers: two,
    restartPolicy: 'Never',
  },
  [
    { test: 'empty, waiting', want: 'Pending' },
    { test: 'init container running', init: [runningState('containerX')], want: 'Pending' },
    {
      test: 'init container terminated non-zero',
      init: [failedState('containerX')],
      want: 'Failed',
    },
    {
      test: 'init container waiting, terminated zero',
      init: [waitingStateWithLastTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'init container waiting, terminated non-zero',
      init: [waitingStateWithNonZeroTermination('containerX')],
      want: 'Failed',
    },
    {
      test: 'init container waiting, not terminated',
      init: [waitingState('containerX')],
      want: 'Pending',
    },
    {
      test: 'init container succeeded',
      init: [succeededState('containerX')],
      statuses: allRunning,
      want: 'Running',
    },
  ],
);

table(
  'TestPodPhaseWithRestartNeverRestartableInitContainers',
  {
    nodeName: 'machine',
    initContainers: [sidecar('containerX')],
    containers: two,
    restartPolicy: 'Never',
  },
  [
    { test: 'empty, waiting', want: 'Pending' },
    {
      test: 'restartable init container running',
      init: [runningState('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container stopped',
      init: [stoppedState('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container waiting, terminated zero',
      init: [waitingStateWithLastTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container waiting, terminated non-zero',
      init: [waitingStateWithNonZeroTermination('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container waiting, not terminated',
      init: [waitingState('containerX')],
      want: 'Pending',
    },
    {
      test: 'restartable init container started, one main container running',
      init: [startedState('containerX')],
      statuses: [runningState('containerA')],
      podHasInitialized: true,
      want: 'Pending',
    },
    {
      test: 'restartable init container started, main containers succeeded',
      init: [startedState('containerX')],
      statuses: allSucceeded,
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'restartable init container re-running, main containers succeeded',
      init: [runningState('containerX')],
      statuses: allSucceeded,
      podHasInitialized: true,
      want: 'Running',
    },
    {
      test: 'all containers succeeded',
      init: [succeededState('containerX')],
      statuses: allSucceeded,
      podHasInitialized: true,
      want: 'Succeeded',
    },
    {
      test: 'restartable init container terminated non-zero, main containers succeeded',
      init: [failedState('containerX')],
      statuses: allSucceeded,
      podHasInitialized: true,
      want: 'Succeeded',
    },
    {
      test: 'backoff crashloop restartable init container, main containers succeeded',
      init: [waitingStateWithLastTermination('containerX')],
      statuses: allSucceeded,
      podHasInitialized: true,
      want: 'Succeeded',
    },
    {
      test: 'backoff crashloop with non-zero restartable init container, main containers succeeded',
      init: [waitingStateWithNonZeroTermination('containerX')],
      statuses: allSucceeded,
      podHasInitialized: true,
      want: 'Succeeded',
    },
  ],
);

table(
  'TestPodPhaseWithRestartOnFailure',
  { nodeName: 'machine', containers: two, restartPolicy: 'OnFailure' },
  [
    { test: 'waiting', want: 'Pending' },
    { test: 'all running with restart onfailure', statuses: allRunning, want: 'Running' },
    { test: 'all succeeded with restart onfailure', statuses: allSucceeded, want: 'Succeeded' },
    {
      test: 'all failed with restart never',
      statuses: [failedState('containerA'), failedState('containerB')],
      want: 'Running',
    },
    {
      test: 'mixed state #1 with restart onfailure',
      statuses: [runningState('containerA'), succeededState('containerB')],
      want: 'Running',
    },
    {
      test: 'mixed state #2 with restart onfailure',
      statuses: [runningState('containerA')],
      want: 'Pending',
    },
    {
      test: 'mixed state #3 with restart onfailure',
      statuses: [runningState('containerA'), waitingState('containerB')],
      want: 'Pending',
    },
    {
      test: 'backoff crashloop container with restart onfailure',
      statuses: [runningState('containerA'), waitingStateWithLastTermination('containerB')],
      want: 'Running',
    },
  ],
);

type CaseRow = {
  name: string;
  spec: V1PodSpec;
  statuses: V1ContainerStatus[];
  podIsTerminal?: boolean;
  want: PodPhase;
};
function cases(name: string, rows: CaseRow[], gates: FeatureGates): void {
  describe(name, () => {
    for (const row of rows) {
      it(row.name, () => {
        const pod: V1Pod = { spec: row.spec, status: { containerStatuses: row.statuses } };
        // upstream: getPhase(logger, pod, tc.statuses, tc.podIsTerminal, true)
        expect(getPhase(pod, row.statuses, row.podIsTerminal ?? false, true, gates)).toBe(row.want);
      });
    }
  });
}

cases(
  'TestPodPhaseWithContainerRestartPolicy',
  [
    {
      name: 'container with restart policy Never failed',
      spec: {
        containers: [{ name: 'failed-container', restartPolicy: 'Never' }],
        restartPolicy: 'Always',
      },
      statuses: [failedState('failed-container')],
      want: 'Failed',
    },
    {
      name: 'container with restart policy OnFailure failed',
      spec: {
        containers: [{ name: 'failed-container', restartPolicy: 'OnFailure' }],
        restartPolicy: 'Always',
      },
      statuses: [failedState('failed-container')],
      want: 'Running',
    },
    {
      name: 'container with restart policy Always failed',
      spec: {
        containers: [{ name: 'failed-container', restartPolicy: 'Always' }],
        restartPolicy: 'Always',
      },
      statuses: [failedState('failed-container')],
      want: 'Running',
    },
    {
      name: 'At least one container with restartable container-level restart policy failed',
      spec: {
        containers: [{ name: 'containerA', restartPolicy: 'Always' }, { name: 'containerB' }],
        restartPolicy: 'Never',
      },
      statuses: [succeededState('containerA'), failedState('containerB')],
      want: 'Running',
    },
    {
      name: 'All containers without restartable container-level restart policy failed',
      spec: {
        containers: [
          { name: 'containerA', restartPolicy: 'Never' },
          { name: 'containerB', restartPolicy: 'OnFailure' },
        ],
        restartPolicy: 'Always',
      },
      statuses: [failedState('containerA'), succeededState('containerB')],
      want: 'Failed',
    },
    {
      name: 'All containers succeeded',
      spec: {
        containers: [
          { name: 'containerA', restartPolicy: 'Never' },
          { name: 'containerB', restartPolicy: 'OnFailure' },
        ],
        restartPolicy: 'Always',
      },
      statuses: [succeededState('containerA'), succeededState('containerB')],
      want: 'Succeeded',
    },
  ],
  { ContainerRestartRules: true },
);

cases(
  'TestPodPhaseWithContainerRestartPolicyInitContainers',
  [
    {
      name: 'init container with restart policy Never failed',
      spec: {
        initContainers: [{ name: 'failed-container', restartPolicy: 'Never' }],
        containers: [{ name: 'container' }],
        restartPolicy: 'Always',
      },
      statuses: [failedState('failed-container')],
      want: 'Failed',
    },
    {
      name: 'init container with restart policy OnFailure failed',
      spec: {
        initContainers: [{ name: 'failed-container', restartPolicy: 'OnFailure' }],
        containers: [{ name: 'container' }],
        restartPolicy: 'Never',
      },
      statuses: [failedState('failed-container')],
      want: 'Pending',
    },
    {
      name: 'container with restart policy Always failed',
      spec: {
        initContainers: [{ name: 'failed-container', restartPolicy: 'Always' }],
        containers: [{ name: 'container' }],
        restartPolicy: 'Never',
      },
      statuses: [failedState('failed-container')],
      want: 'Pending',
    },
  ],
  { ContainerRestartRules: true },
);

const ruleOn42 = { action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [42] } };
const containerWithRule: V1Container = {
  name: 'container',
  restartPolicy: 'Never',
  restartPolicyRules: [ruleOn42],
};
const sidecarContainerWithRule: V1Container = {
  name: 'container',
  restartPolicy: 'Always',
  restartPolicyRules: [ruleOn42],
};
const never = (s: Partial<V1PodSpec>): V1PodSpec => ({
  containers: [],
  ...s,
  restartPolicy: 'Never',
});

cases(
  'TestPodPhaseWithRestartAllContainers',
  [
    // Trigger RestartAllContainers
    {
      name: 'regular container triggers RestartAllContainers',
      spec: never({ containers: [containerWithRule] }),
      statuses: [failedStateWithExitCode('container', 42)],
      want: 'Running',
    },
    {
      name: 'init container triggers RestartAllContainers',
      spec: never({ initContainers: [containerWithRule] }),
      statuses: [failedStateWithExitCode('container', 42), waitingState('regular')],
      want: 'Pending',
    },
    {
      name: 'sidecar container triggers RestartAllContainers',
      spec: never({
        initContainers: [sidecarContainerWithRule],
        containers: [{ name: 'regular' }],
      }),
      statuses: [failedStateWithExitCode('container', 42), waitingState('regular')],
      want: 'Pending',
    },
    {
      name: 'sidecar container triggers RestartAllContainers, kills another init container',
      spec: never({
        initContainers: [sidecarContainerWithRule, { name: 'init' }],
        containers: [{ name: 'regular' }],
      }),
      statuses: [
        failedStateWithExitCode('container', 42),
        waitingState('init'),
        waitingState('regular'),
      ],
      want: 'Pending',
    },
    // Cleanup phase
    {
      name: 'regular container triggers RestartAllContainers, cleaned up',
      spec: never({ containers: [containerWithRule] }),
      statuses: [waitingStateWithRestartingAllContainers('container')],
      want: 'Running',
    },
    {
      name: 'init container triggers RestartAllContainers, cleaned up',
      spec: never({ initContainers: [containerWithRule] }),
      statuses: [waitingStateWithRestartingAllContainers('container'), waitingState('regular')],
      want: 'Pending',
    },
    {
      name: 'sidecar container triggers RestartAllContainers, cleaned up',
      spec: never({
        initContainers: [sidecarContainerWithRule],
        containers: [{ name: 'regular' }],
      }),
      statuses: [waitingStateWithRestartingAllContainers('container'), waitingState('regular')],
      want: 'Pending',
    },
    {
      name: 'sidecar container triggers RestartAllContainers, kills another init container, cleaned up',
      spec: never({
        initContainers: [sidecarContainerWithRule, { name: 'init' }],
        containers: [{ name: 'regular' }],
      }),
      statuses: [
        waitingStateWithRestartingAllContainers('container'),
        waitingStateWithRestartingAllContainers('container'),
        waitingState('regular'),
      ],
      want: 'Pending',
    },
    // Startup phase
    {
      name: 'regular container triggered RestartAllContainers; init container succeeded',
      spec: never({ initContainers: [{ name: 'init' }], containers: [containerWithRule] }),
      statuses: [succeededState('init'), waitingStateWithRestartingAllContainers('container')],
      want: 'Running',
    },
    {
      name: 'regular container triggered RestartAllContainers; init container failed',
      spec: never({ initContainers: [{ name: 'init' }], containers: [containerWithRule] }),
      statuses: [failedState('init'), waitingStateWithRestartingAllContainers('container')],
      want: 'Failed',
    },
    {
      name: 'init container triggered RestartAllContainers',
      spec: never({ initContainers: [containerWithRule], containers: [{ name: 'regular' }] }),
      statuses: [failedStateWithExitCode('container', 42), waitingState('regular')],
      want: 'Pending',
    },
    {
      name: 'init container triggered RestartAllContainers; init container succeeds',
      spec: never({ initContainers: [containerWithRule], containers: [{ name: 'regular' }] }),
      statuses: [succeededState('container'), waitingState('regular')],
      want: 'Pending',
    },
    {
      name: 'sidecar container triggered RestartAllContainers kills regular container',
      spec: never({
        initContainers: [sidecarContainerWithRule],
        containers: [{ name: 'regular' }],
      }),
      statuses: [
        waitingStateWithRestartingAllContainers('container'),
        waitingStateWithRestartingAllContainers('regular'),
      ],
      want: 'Running',
    },
    {
      name: 'sidecar container triggered RestartAllContainers kills regular container; sidecar running',
      spec: never({
        initContainers: [sidecarContainerWithRule],
        containers: [{ name: 'regular' }],
      }),
      statuses: [runningState('container'), waitingStateWithRestartingAllContainers('regular')],
      want: 'Running',
    },
    {
      name: 'sidecar container triggered RestartAllContainers; kills init container; sidecar running',
      spec: never({
        initContainers: [sidecarContainerWithRule, { name: 'init' }],
        containers: [{ name: 'regular' }],
      }),
      statuses: [
        runningState('container'),
        waitingStateWithRestartingAllContainers('container'),
        waitingState('regular'),
      ],
      want: 'Pending',
    },
  ],
  { ContainerRestartRules: true, RestartAllContainersOnContainerExits: true },
);

// Podscope's own cases: gates off, rules and bad input.
describe('getPhase (Podscope cases)', () => {
  const spec: V1PodSpec = { containers: two, restartPolicy: 'Always' };
  it('with ContainerRestartRules off, restartPolicy Always keeps an all-exited pod Running', () => {
    const pod: V1Pod = { spec };
    const d = computePhase(pod, allSucceeded, false, false, { ContainerRestartRules: false });
    expect(d).toMatchObject({ phase: 'Running', rule: 'restartAlways' });
  });
  it('with ContainerRestartRules off, a container-level Never is ignored for regular containers', () => {
    const pod: V1Pod = {
      spec: { containers: [{ name: 'a', restartPolicy: 'Never' }], restartPolicy: 'Always' },
    };
    expect(getPhase(pod, [failedState('a')], false, false, { ContainerRestartRules: false })).toBe(
      'Running',
    );
    expect(getPhase(pod, [failedState('a')], false, false)).toBe('Failed');
  });
  it('with ContainerRestartRules off and restartPolicy Never, a failed init container fails the pod', () => {
    const pod: V1Pod = {
      spec: {
        initContainers: [{ name: 'i' }],
        containers: [{ name: 'a' }],
        restartPolicy: 'Never',
      },
    };
    expect(
      computePhase(pod, [failedState('i')], false, false, { ContainerRestartRules: false }),
    ).toMatchObject({
      phase: 'Failed',
      rule: 'initFailedRestartNever',
    });
  });
  it('a Restart rule on exit code 42 keeps a Never container restartable', () => {
    const c: V1Container = {
      name: 'a',
      restartPolicy: 'Never',
      restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
    };
    const pod: V1Pod = { spec: { containers: [c], restartPolicy: 'Never' } };
    expect(getPhase(pod, [failedStateWithExitCode('a', 42)], false, false)).toBe('Running');
    expect(getPhase(pod, [failedStateWithExitCode('a', 1)], false, false)).toBe('Failed');
  });
  it('a NotIn rule matches every code except the listed ones', () => {
    const c: V1Container = {
      name: 'a',
      restartPolicy: 'Never',
      restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'NotIn', values: [0] } }],
    };
    const pod: V1Pod = { spec: { containers: [c], restartPolicy: 'Never' } };
    expect(getPhase(pod, [failedStateWithExitCode('a', 3)], false, false)).toBe('Running');
    expect(getPhase(pod, [succeededState('a')], false, false)).toBe('Succeeded');
  });
  it('static pods are not given a terminal phase by podIsTerminal', () => {
    const pod: V1Pod = {
      metadata: { annotations: { 'kubernetes.io/config.source': 'file' } },
      spec,
    };
    expect(getPhase(pod, allSucceeded, true, false)).toBe('Running');
  });
  it('the first status of a duplicated name wins', () => {
    const pod: V1Pod = { spec: { containers: [{ name: 'a' }], restartPolicy: 'Always' } };
    expect(getPhase(pod, [runningState('a'), waitingState('a')], false, false)).toBe('Running');
    expect(getPhase(pod, [waitingState('a'), runningState('a')], false, false)).toBe('Pending');
  });
  it('a status with no state at all counts as unknown (Pending), never Unknown', () => {
    const pod: V1Pod = { spec: { containers: [{ name: 'a' }] } };
    const status = { name: 'a', image: '', imageID: '', ready: false, restartCount: 0 };
    expect(getPhase(pod, [status], false, false)).toBe('Pending');
  });
  it('a pod with no spec is Pending', () => {
    expect(getPhase({}, [], false, false)).toBe('Pending');
    expect(getPhase(null as unknown as V1Pod, null as unknown as [], false, false)).toBe('Pending');
  });
  it('an unknown restartPolicy acts as Always', () => {
    const pod: V1Pod = { spec: { containers: [{ name: 'a' }], restartPolicy: 'Sometimes' } };
    expect(getPhase(pod, [failedState('a')], false, false)).toBe('Running');
  });
});

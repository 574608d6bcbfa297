/**
 * Bad input never escapes lib/kubelet as an exception: arbitrary RuntimePodStatus- and V1Pod-ish
 * values (missing fields, unknown enums, negative exit codes, absurd or reversed times, duplicate
 * names, plain garbage) through the conversion, generateAPIPodStatus and the node conditions.
 * Every explanation produced names an id of the WHY table with exactly its parameters, and
 * renders in both locales.
 */
import type { V1Pod } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../i18n/format';
import { convertToAPIContainerStatuses } from './convert';
import type { Explanation } from './explanation';
import { generateNodeConditions } from './node';
import type { RuntimePodStatus } from './runtime';
import { generateAPIPodStatus } from './status';
import { POD_PHASES } from './types';
import { WHY } from './why';

const num = fc.oneof(
  fc.integer({ min: -2_000_000, max: 2_000_000_000_000 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -1, 0),
  fc.constant(undefined),
);
const cname = fc.constantFrom('a', 'b', 'init', 'side', '', 'a');
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constant(undefined));
const runtimeContainer = fc.record(
  {
    id: fc.string({ maxLength: 6 }),
    sandboxId: fc.constantFrom('sb1', 'sb2', ''),
    name: cname,
    attempt: num,
    state: fc.oneof(
      fc.constantFrom('created', 'running', 'exited', 'unknown'),
      fc.string({ maxLength: 4 }),
    ),
    createdAt: num,
    startedAt: num,
    finishedAt: num,
    exitCode: num,
    reason: text,
    message: text,
    image: fc.string({ maxLength: 8 }),
    imageRef: fc.string({ maxLength: 8 }),
    restartCount: num,
    labels: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
    annotations: fc.dictionary(
      fc.constantFrom('io.kubernetes.container.type', 'io.kubernetes.container.hash', 'x'),
      fc.constantFrom('init', 'container', 'ephemeral', 'h1', ''),
      { maxKeys: 2 },
    ),
    inspected: fc.boolean(),
  },
  { requiredKeys: [] },
);
const sandbox = fc.record(
  {
    id: fc.constantFrom('sb1', 'sb2'),
    name: text,
    namespace: text,
    uid: text,
    attempt: num,
    state: fc.oneof(fc.constantFrom('ready', 'notready'), fc.string({ maxLength: 4 })),
    createdAt: num,
    labels: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
    annotations: fc.dictionary(
      fc.constantFrom('podscope.dev/pod-spec', 'x'),
      fc.oneof(fc.string({ maxLength: 20 }), fc.constant('{"spec":{"containers":[{"name":"a"}]}}')),
      { maxKeys: 1 },
    ),
    network: fc.option(
      fc.record({
        ip: fc.constantFrom('10.0.0.1', '', 'fd00::1', 'junk'),
        additionalIps: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
      }),
      { nil: undefined },
    ),
    networkMode: fc.option(fc.constantFrom('POD', 'NODE', 'CONTAINER', 'TARGET'), {
      nil: undefined,
    }),
    inspected: fc.boolean(),
  },
  { requiredKeys: [] },
);
const runtimeish: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        uid: text,
        name: text,
        namespace: text,
        sandboxes: fc.array(sandbox, { maxLength: 3 }),
        containers: fc.array(runtimeContainer, { maxLength: 6 }),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
);
const v1container = fc.record(
  {
    name: cname,
    image: text,
    restartPolicy: fc.option(fc.constantFrom('Always', 'Never', 'OnFailure', 'Sometimes'), {
      nil: undefined,
    }),
    restartPolicyRules: fc.option(
      fc.array(
        fc.record({
          action: fc.constantFrom('Restart', 'RestartAllContainers', 'Nope'),
          exitCodes: fc.option(
            fc.record({
              operator: fc.constantFrom('In', 'NotIn', '?'),
              values: fc.array(fc.integer({ min: -5, max: 300 }), { maxLength: 3 }),
            }),
            { nil: undefined },
          ),
        }),
        { maxLength: 2 },
      ),
      { nil: undefined },
    ),
    resources: fc.option(
      fc.record({
        requests: fc.dictionary(
          fc.constantFrom('cpu', 'memory', 'x'),
          fc.constantFrom('1', '100m', '1Gi', 'bad'),
        ),
        limits: fc.dictionary(fc.constantFrom('cpu', 'memory'), fc.constantFrom('1', '1Gi', '-1')),
      }),
      { nil: undefined },
    ),
  },
  { requiredKeys: [] },
);
const podish: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        metadata: fc.record(
          {
            name: text,
            namespace: text,
            uid: text,
            generation: num,
            deletionTimestamp: fc.option(fc.date(), { nil: undefined }),
            annotations: fc.option(
              fc.dictionary(
                fc.constantFrom('kubernetes.io/config.source'),
                fc.constantFrom('api', 'file'),
              ),
              { nil: undefined },
            ),
          },
          { requiredKeys: [] },
        ),
        spec: fc.record(
          {
            containers: fc.array(v1container, { maxLength: 3 }),
            initContainers: fc.option(fc.array(v1container, { maxLength: 3 }), { nil: undefined }),
            restartPolicy: fc.option(fc.constantFrom('Always', 'Never', 'OnFailure', ''), {
              nil: undefined,
            }),
            hostNetwork: fc.option(fc.boolean(), { nil: undefined }),
            readinessGates: fc.option(
              fc.array(fc.record({ conditionType: fc.string({ maxLength: 5 }) }), { maxLength: 2 }),
              { nil: undefined },
            ),
            activeDeadlineSeconds: fc.option(num, { nil: undefined }),
            tolerations: fc.option(
              fc.array(
                fc.record(
                  {
                    key: fc.constantFrom(
                      'node.kubernetes.io/unreachable',
                      'node.kubernetes.io/not-ready',
                      '',
                    ),
                    operator: fc.constantFrom('Exists', 'Equal'),
                    effect: fc.constantFrom('NoExecute', ''),
                    tolerationSeconds: num,
                  },
                  { requiredKeys: [] },
                ),
                { maxLength: 2 },
              ),
              { nil: undefined },
            ),
          },
          { requiredKeys: [] },
        ),
        status: fc.oneof(
          fc.constant(undefined),
          fc.record(
            {
              phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'),
              conditions: fc.array(
                fc.record({
                  type: fc.string({ maxLength: 5 }),
                  status: fc.constantFrom('True', 'False'),
                }),
                { maxLength: 2 },
              ),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
);

function checkExplanation(e: Explanation): void {
  expect(e.id in WHY).toBe(true);
  const declared = [...WHY[e.id as keyof typeof WHY]].sort();
  expect(Object.keys(e.params ?? {}).sort()).toEqual(declared);
  // Runtime strings may carry braces themselves; blank them so a stray placeholder would show.
  const params = Object.fromEntries(
    Object.entries(e.params ?? {}).map(([k, v]) => [
      k,
      typeof v === 'string'
        ? v.replace(/[{}]/g, '')
        : Array.isArray(v)
          ? (v as readonly string[]).map((x) => x.replace(/[{}]/g, ''))
          : v,
    ]),
  );
  for (const locale of ['en', 'zh-CN'] as const) {
    const out = formatExplanation({ ...e, params }, locale);
    expect(out).not.toBe(`why.${e.id}`);
    expect(out).not.toMatch(/[{}]/);
  }
}

describe('bad input never throws', () => {
  it('convertToAPIContainerStatuses', () => {
    fc.assert(
      fc.property(podish, runtimeish, fc.boolean(), (pod, runtime, isInit) => {
        const p = pod as V1Pod;
        const list = convertToAPIContainerStatuses({
          pod: p,
          runtime: runtime as RuntimePodStatus,
          previousStatus: undefined,
          containers: (isInit ? p?.spec?.initContainers : p?.spec?.containers) ?? [],
          hasInitContainers: isInit,
          isInitContainer: isInit,
        });
        expect(Array.isArray(list)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('generateAPIPodStatus, twice (the second time with the first result as the old status)', () => {
    fc.assert(
      fc.property(
        podish,
        runtimeish,
        num,
        fc.boolean(),
        fc.option(fc.record({ status: fc.constantFrom('True', 'False', 'Unknown'), since: num }), {
          nil: undefined,
        }),
        (pod, runtime, now, terminal, nodeReady) => {
          const input = {
            pod: pod as V1Pod,
            runtime: runtime as RuntimePodStatus,
            now: now as number,
            podIsTerminal: terminal,
            ...(nodeReady ? { nodeReady: nodeReady as never } : {}),
          };
          const first = generateAPIPodStatus(input);
          const second = generateAPIPodStatus({
            ...input,
            oldStatus: first.status,
            now: (now ?? 0) + 1000,
          });
          for (const r of [first, second]) {
            expect(POD_PHASES).toContain(r.status.phase);
            expect(() => JSON.stringify(r)).not.toThrow();
            checkExplanation(r.why.phase);
            Object.values(r.why.conditions).forEach(checkExplanation);
            Object.values(r.why.containers).forEach(checkExplanation);
          }
          // a terminal phase stays terminal
          if (first.status.phase === 'Succeeded' || first.status.phase === 'Failed')
            expect(second.status.phase).toBe(first.status.phase);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('generateNodeConditions', () => {
    const rc = fc.record(
      {
        type: fc.constantFrom('RuntimeReady', 'NetworkReady', 'X'),
        status: fc.oneof(fc.boolean(), fc.constant(undefined)),
        reason: text,
        message: text,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            now: num,
            runtimeConditions: fc.option(fc.array(rc, { maxLength: 3 }), { nil: undefined }),
            runtimeStatusError: text,
            lastStatusAt: num,
            lastRelistAt: num,
            lastContactAt: num,
            startedAt: num,
            resources: fc.option(
              fc.record(
                {
                  memoryCapacityBytes: num,
                  memoryAvailableBytes: num,
                  nodeFsCapacityBytes: num,
                  nodeFsAvailableBytes: num,
                  pidMax: num,
                  pidsInUse: num,
                },
                { requiredKeys: [] },
              ),
              { nil: undefined },
            ),
          },
          { requiredKeys: [] },
        ),
        (input) => {
          const r = generateNodeConditions(input as never);
          const again = generateNodeConditions({
            ...(input as object),
            now: 1,
            oldConditions: r.conditions,
          });
          for (const res of [r, again]) {
            // Ready is always there, except while a never-heard-from node is in its startup grace.
            if (res.conditions.length === 0)
              expect(res.why.Ready?.id).toBe('node.ready.startupGrace');
            else expect(res.conditions.find((c) => c.type === 'Ready')).toBeDefined();
            Object.values(res.why).forEach(checkExplanation);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

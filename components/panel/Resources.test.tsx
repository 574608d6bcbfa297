/**
 * The panel's runtime sections rendered to HTML with the real catalogues: the runtime's
 * conditions with reason and message, and CPU / memory per pod (node panel) and per container
 * (pod panel), largest memory first, with stable hooks.
 */
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/locales';
import type { NodeView, PodView } from '@/lib/timeline/state';
import { demoTimeline } from '@/components/data/testing/demo';
import { reduceAll } from '@/lib/timeline/reducer';
import { renderIntl } from '@/components/drift/testing/render';
import { formatCores, NodeResources, PodResources, RuntimeConditions } from './Resources';

const T = Date.UTC(2026, 0, 1, 12, 0, 0);
const MiB = 2 ** 20;
const render = (node: ReactElement, locale: Locale = 'en') => renderIntl(node, T, locale);
const pod = (uid: string, name: string): PodView =>
  ({ uid, name, namespace: 'test', node: 'node-a', status: {} }) as PodView;
const node: NodeView = {
  name: 'node-a',
  endpoint: 'unix:///run/a.sock',
  runtimeConditions: [
    { type: 'RuntimeReady', status: true, reason: '', message: '' },
    {
      type: 'NetworkReady',
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'Network plugin returns error: cni plugin not initialized',
    },
  ],
  conditions: [],
  why: {},
  health: { connected: true },
  pods: { u1: pod('u1', 'web'), u2: pod('u2', 'hog') },
  usage: {
    at: T - 5000,
    pods: {
      u1: {
        cpuCores: 0.012,
        memoryBytes: 12 * MiB,
        containers: { app: { cpuCores: 0.012, memoryBytes: 12 * MiB } },
      },
      u2: {
        cpuCores: 1.5,
        memoryBytes: 7200 * MiB,
        containers: {
          main: { cpuCores: 1, memoryBytes: 7000 * MiB },
          side: { cpuCores: 0.5, memoryBytes: 200 * MiB },
        },
      },
    },
  },
};

describe('RuntimeConditions', () => {
  it('shows each CRI condition with its reason and message', () => {
    const doc = render(<RuntimeConditions conditions={node.runtimeConditions} />);
    const rows = doc.querySelectorAll('[data-runtime-condition]');
    expect(
      rows.map((r) => [r.getAttribute('data-runtime-condition'), r.getAttribute('data-status')]),
    ).toEqual([
      ['RuntimeReady', 'true'],
      ['NetworkReady', 'false'],
    ]);
    expect(rows[1]?.textContent).toBe(
      'NetworkReady=falseNetworkPluginNotReady: Network plugin returns error: cni plugin not initialized',
    );
  });
  it('says when there is no Status yet, in both languages', () => {
    expect(render(<RuntimeConditions conditions={[]} />).textContent).toBe(
      'No Status from the runtime yet',
    );
    expect(render(<RuntimeConditions conditions={[]} />, 'zh-CN').textContent).toBe(
      '尚未收到运行时的 Status',
    );
  });
});

describe('NodeResources / PodResources', () => {
  it('the node panel lists its pods by memory, largest first, with cores and binary units', () => {
    const doc = render(<NodeResources node={node} reference={T} />);
    const rows = doc.querySelectorAll('[data-usage-pod]');
    expect(rows.map((r) => r.getAttribute('data-usage-pod'))).toEqual(['u2', 'u1']);
    expect(
      rows.map((r) =>
        [...r.querySelectorAll('th'), ...r.querySelectorAll('td')].map((c) => c.textContent),
      ),
    ).toEqual([
      ['test/hog', '1.50', '7Gi'],
      ['test/web', '0.012', '12Mi'],
    ]);
    expect(doc.textContent).toContain('ListContainerStats');
  });
  it('the pod panel lists its containers and the pod total', () => {
    const doc = render(<PodResources pod={pod('u2', 'hog')} node={node} reference={T} />, 'zh-CN');
    const rows = doc.querySelectorAll('tbody tr');
    expect(
      rows.map((r) =>
        [...r.querySelectorAll('th'), ...r.querySelectorAll('td')].map((c) => c.textContent),
      ),
    ).toEqual([
      ['main', '1.00', '6.8Gi'],
      ['side', '0.500', '200Mi'],
      ['Pod 合计', '1.50', '7Gi'],
    ]);
    expect(
      doc.querySelector('[data-usage-container="main"] td')?.getAttribute('data-cpu-cores'),
    ).toBe('1');
  });
  it('without figures: says so instead of an empty table', () => {
    const bare = { ...node, usage: undefined };
    expect(render(<NodeResources node={bare} reference={T} />).querySelector('table')).toBeNull();
    expect(
      render(<PodResources pod={pod('u9', 'x')} node={node} reference={T} />).textContent,
    ).toContain('No CPU or memory figures');
  });
  it("the demo recording: every pod running at a node's last sample has CPU and memory", () => {
    const tl = demoTimeline();
    const final = reduceAll(tl.initial, tl.events);
    for (const name of tl.nodes) {
      const view = final.nodes[name];
      const sampledAt = view?.usage?.at;
      if (!view || sampledAt === undefined) throw new Error(`no usage of ${name} in the recording`);
      // A ListContainerStats round every 10 s of virtual time (server/demo/record.ts); the engine
      // records one when the figures moved (usage-sampler.ts).
      expect(sampledAt).toBeGreaterThan(tl.start);
      const running = Object.values(view.pods)
        .filter((p) =>
          p.status.containerStatuses?.some(
            (c) => c.state?.running && Date.parse(String(c.state.running.startedAt)) < sampledAt,
          ),
        )
        .map((p) => p.uid)
        .sort();
      expect(running.length).toBeGreaterThan(0);
      const doc = render(<NodeResources node={view} reference={tl.end} />);
      const rows = doc.querySelectorAll('[data-usage-pod]');
      expect(rows.map((r) => r.getAttribute('data-usage-pod')).sort()).toEqual(
        expect.arrayContaining(running),
      );
      for (const uid of running)
        expect(view.usage?.pods[uid]?.memoryBytes, `${name} ${uid}`).toBeGreaterThan(0);
    }
  });
  it('formatCores', () => {
    expect([
      formatCores(undefined),
      formatCores(0),
      formatCores(0.0004),
      formatCores(2),
      formatCores(-1),
    ]).toEqual(['—', '0', '0.000', '2.00', '—']);
  });
});

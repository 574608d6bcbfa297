/**
 * "Running, not ready" as its own state of the panel's container machine: the drawing (states,
 * edges, layout), the state at the cursor, the last transition found from the timeline — a start
 * into not-started, the startup probe passing, readiness passing, failing, passing again — and
 * the rendered figure (data-current, data-ready, the label for what holds it back, the edge).
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { NextIntlClientProvider } from 'next-intl';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MACHINES } from '@/lib/kubelet/machines';
import { messagesFor } from '@/lib/i18n/messages';
import type { ContainerEvent, TimelineEvent } from '@/lib/timeline/events';
import type { PodView } from '@/lib/timeline/state';
import { layoutMachine } from './machine-layout';
import { MACHINE_OF, PANEL_MACHINE_OF, UNREADY, type Machine } from './machines';
import { StateMachine } from './StateMachine';
import { drawnContainerState, findBySeq, lastTransition, type Transition } from './transitions';

const UID = 'pod-1';
const ID = `${UID}/app`;

const waiting: V1ContainerStatus = {
  name: 'app',
  image: 'busybox',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { waiting: { reason: 'ContainerCreating' } },
};
const running = (started: boolean, ready: boolean, restartCount = 0): V1ContainerStatus => ({
  ...waiting,
  ready,
  started,
  restartCount,
  state: { running: { startedAt: new Date(0) } },
});

const pod = { uid: UID, status: { containerStatuses: [waiting] } } as unknown as PodView;
let seq = 0;
const added: TimelineEvent = {
  seq: ++seq,
  t: seq,
  node: 'n',
  kind: 'pod',
  type: 'PodAdded',
  podUid: UID,
  pod,
};
const cri: TimelineEvent = {
  seq: ++seq,
  t: seq,
  node: 'n',
  kind: 'cri',
  type: 'ContainerStarted',
  source: 'relist',
  podUid: UID,
  container: 'app',
};
const change = (
  type: ContainerEvent['type'],
  status: V1ContainerStatus,
  cause?: number,
): ContainerEvent => ({
  seq: ++seq,
  t: seq,
  node: 'n',
  kind: 'container',
  type,
  podUid: UID,
  list: 'regular',
  name: 'app',
  status,
  from: 'waiting',
  to: 'running',
  ...(cause !== undefined ? { cause } : {}),
});

const events: TimelineEvent[] = [
  added,
  cri,
  change('ContainerStateChanged', running(false, false), cri.seq), // started, startup probe pending
  change('ContainerStatusChanged', running(true, false)), // startup probe passed
  change('ContainerStatusChanged', running(true, true)), // readiness passed
  change('ContainerStatusChanged', running(true, true, 0)), // nothing the prober did
  change('ContainerStatusChanged', running(true, false)), // readiness failed
];

const findEdge = (m: Machine, from: string, to: string) =>
  m.edges.find((e) => e.from === from && e.to === to);

const lastAt = (upTo: number): Transition | undefined =>
  lastTransition(events, upTo, ID, 'container', (s) => findBySeq(events, s));

describe('the container machine the panel draws', () => {
  const m = PANEL_MACHINE_OF.container;

  it('splits Running by readiness; the rule book and the questions keep three states', () => {
    expect(m.states.map((s) => s.id)).toEqual(['waiting', 'running', UNREADY, 'terminated']);
    expect(MACHINE_OF.container.states.map((s) => s.id)).toEqual([
      'waiting',
      'running',
      'terminated',
    ]);
    expect(MACHINES.container.states).toEqual(['waiting', 'running', 'terminated']);
  });

  it('draws every rule-book move for both halves of Running, and the prober between them', () => {
    for (const e of MACHINES.container.edges) {
      const froms = e.from === 'running' ? ['running', UNREADY] : [e.from];
      const tos = e.to === 'running' ? ['running', UNREADY] : [e.to];
      for (const from of froms)
        for (const to of tos) expect(findEdge(m, from, to), `${from}->${to}`).toBeDefined();
    }
    expect(findEdge(m, UNREADY, 'running')?.drivers).toContain('ProbeResult');
    expect(findEdge(m, 'running', UNREADY)?.why).toBe('machine.container.becameUnready');
    const keys = m.edges.map((e) => `${e.from}->${e.to}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lays the four states out inside the box, apart, with a curve per edge', () => {
    // As wide as the longest label it can show (StateMachine lays it out so).
    const wide = {
      ...m,
      states: m.states.map((s) => (s.id === UNREADY ? { ...s, label: 'Running, not started' } : s)),
    };
    const l = layoutMachine(wide, 320, 140);
    for (const s of l.states) {
      expect(s.cx - s.w / 2).toBeGreaterThanOrEqual(0);
      expect(s.cx + s.w / 2).toBeLessThanOrEqual(320);
    }
    for (const [i, a] of l.states.entries())
      for (const b of l.states.slice(i + 1)) {
        const apart =
          Math.abs(a.cx - b.cx) >= (a.w + b.w) / 2 || Math.abs(a.cy - b.cy) >= (a.h + b.h) / 2;
        expect(apart, `${a.id} / ${b.id}`).toBe(true);
      }
    expect(new Set(l.edges.map((e) => e.d)).size).toBe(m.edges.length);
  });
});

describe('the container’s state and last move, running but not ready', () => {
  it('reads the drawn state from the status', () => {
    expect(drawnContainerState(waiting)).toBe('waiting');
    expect(drawnContainerState(running(false, false))).toBe(UNREADY);
    expect(drawnContainerState(running(true, false))).toBe(UNREADY);
    expect(drawnContainerState(running(true, true))).toBe('running');
  });

  it('follows the prober: started → startup passed → ready → (no move) → not ready', () => {
    // The start lands in not-ready, labelled with the CRI event.
    expect(lastAt(3)).toMatchObject({ from: 'waiting', to: UNREADY, label: 'ContainerStarted' });
    // The startup probe passing keeps it not ready: a loop, labelled with what changed.
    expect(lastAt(4)).toMatchObject({ from: UNREADY, to: UNREADY, label: 'started=true' });
    expect(lastAt(5)).toMatchObject({ from: UNREADY, to: 'running', label: 'ready=true' });
    // A status change that is not the prober's leaves the last move where it was.
    expect(lastAt(6)).toMatchObject({ seq: events[4]?.seq, to: 'running' });
    expect(lastAt(7)).toMatchObject({ from: 'running', to: UNREADY, label: 'ready=false' });
    // Each found move is an edge of the drawing.
    for (let n = 3; n <= 7; n++) {
      const t = lastAt(n);
      expect(findEdge(PANEL_MACHINE_OF.container, t?.from ?? '', t?.to ?? '')).toBeDefined();
    }
    expect(lastAt(2)).toBeUndefined();
  });
});

function render(
  locale: 'en' | 'zh-CN',
  current: string,
  readiness: 'notready' | 'notstarted' | undefined,
  transition: Transition | undefined,
): string {
  return renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messagesFor(locale)} timeZone="UTC">
      <StateMachine
        machine={PANEL_MACHINE_OF.container}
        current={current}
        readiness={readiness}
        transition={transition}
        title="Container state"
      />
    </NextIntlClientProvider>,
  );
}

describe('the drawn figure', () => {
  it('marks the not-ready state current, says what holds it back, and labels the edge', () => {
    const html = render('en', UNREADY, 'notstarted', lastAt(3));
    expect(html).toContain('data-current="unready"');
    expect(html).toContain('data-ready="notstarted"');
    expect(html).toMatch(
      /class="ps-machine-state ps-tone-ok is-current is-unready" data-state="unready"/,
    );
    expect(html).toContain('Running, not started');
    expect(html).toContain('aria-label="Container state: now Running, not started"');
    expect(html).toMatch(/class="ps-machine-edge is-last" data-edge="waiting-&gt;unready"/);
    expect(html).toContain('data-cause="ContainerStarted"');

    const failed = render('en', UNREADY, 'notready', lastAt(7));
    expect(failed).toContain('data-ready="notready"');
    expect(failed).toContain('Running, not ready');
    expect(failed).toMatch(/data-edge="running-&gt;unready"/);
    expect(failed).toContain('data-cause="ready=false"');
  });

  it('has no data-ready once ready, and speaks Chinese', () => {
    const ready = render('en', 'running', undefined, lastAt(5));
    expect(ready).not.toContain('data-ready=');
    expect(ready).toContain('data-current="running"');
    // Not current, the state shows its default name.
    expect(ready).toContain('Running, not ready');
    const zh = render('zh-CN', UNREADY, 'notstarted', lastAt(3));
    expect(zh).toContain('Running，未完成启动');
  });
});

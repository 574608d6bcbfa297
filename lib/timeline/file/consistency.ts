/**
 * What the schema cannot say: the parts of a file that must agree with each other for replay to
 * mean what it says. The initial state is the state at `from`; every event comes after it, in
 * strictly increasing seq, filed (by timeline time, the running maximum of t) in (from, to];
 * records are keyed by their own names.
 */
import type { IssueList } from './errors';

interface Checked {
  from: number;
  to: number;
  annotations: { t: number }[];
  initialState: {
    seq: number;
    t: number;
    nodes: Record<string, { name: string; pods: Record<string, { uid: string; node: string }> }>;
  };
  events: {
    seq: number;
    t: number;
    node: string;
    kind: string;
    type: string;
    cause?: number | undefined;
    podUid?: string | undefined;
    pod?: { uid: string; node: string } | undefined;
  }[];
}

export function checkConsistency(doc: Checked, issues: IssueList): void {
  if (doc.to < doc.from) issues.add(['to'], `is before "from" (${doc.to} < ${doc.from})`);
  const state = doc.initialState;
  if (state.t > doc.from) {
    issues.add(
      ['initialState', 't'],
      `the initial state's last event (t=${state.t}) is after "from" (${doc.from})`,
    );
  }
  for (const [nodeKey, node] of Object.entries(state.nodes)) {
    if (node.name !== nodeKey)
      issues.add(['initialState', 'nodes', nodeKey, 'name'], `must equal its key "${nodeKey}"`);
    for (const [uid, pod] of Object.entries(node.pods)) {
      const at = ['initialState', 'nodes', nodeKey, 'pods', uid];
      if (pod.uid !== uid) issues.add([...at, 'uid'], `must equal its key "${uid}"`);
      if (pod.node !== nodeKey) issues.add([...at, 'node'], `must equal the node "${nodeKey}"`);
    }
  }
  let prevSeq = state.seq;
  let timelineT = state.t;
  doc.events.forEach((e, i) => {
    if (e.seq <= prevSeq) {
      issues.add(
        ['events', i, 'seq'],
        i === 0
          ? `${e.seq} is not after the initial state's seq ${prevSeq}`
          : `${e.seq} is not after the previous event's seq ${prevSeq}`,
      );
    }
    prevSeq = Math.max(prevSeq, e.seq);
    if (e.cause !== undefined && e.cause >= e.seq)
      issues.add(['events', i, 'cause'], `${e.cause} is not an earlier event (seq ${e.seq})`);
    timelineT = Math.max(timelineT, e.t);
    if (timelineT <= doc.from || timelineT > doc.to) {
      issues.add(
        ['events', i, 't'],
        `the event falls at ${timelineT}, outside the period (${doc.from}, ${doc.to}]`,
      );
    }
    if (e.kind === 'pod' && e.type === 'PodAdded' && e.pod) {
      if (e.pod.uid !== e.podUid)
        issues.add(['events', i, 'pod', 'uid'], `must equal podUid "${e.podUid ?? ''}"`);
      if (e.pod.node !== e.node)
        issues.add(['events', i, 'pod', 'node'], `must equal the event's node "${e.node}"`);
    }
  });
  doc.annotations.forEach((a, i) => {
    if (a.t < doc.from || a.t > doc.to)
      issues.add(['annotations', i, 't'], `${a.t} is outside the period [${doc.from}, ${doc.to}]`);
  });
}

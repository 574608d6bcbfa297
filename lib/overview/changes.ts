/**
 * Changes that happen together, as one row (ChangeGroup): the same transition (what → to) in the
 * same node group within CHANGE_WINDOW_MS of the group's first member. 200 nodes turning
 * Ready=Unknown in zone b within a minute are one group of 200, not 200 rows. Pure.
 *
 * Transitions come from comparing a node's (or pod's) values before and after a change
 * (`transitions`); the log keeps the newest groups and every member of each, so `change:ID`
 * (query.ts) selects them all.
 */
import type { NodeFacts, PodRow } from './cells';
import { quoteValue } from './query';
import type { ChangeMembers } from './search';
import { CHANGE_WINDOW_MS, GROUP_LABELS, MEMBERS_SHOWN, type ChangeGroup } from './wire';

export interface Transition {
  kind: 'node' | 'pod';
  /** 'node.ready', 'node.pressure', 'pod.phase', 'pod.reason'. */
  what: string;
  to: string;
  /** Node name, or pod key "namespace/name". */
  member: string;
  /** The node group ("key=value"), when the node carries a GROUP_LABELS key. */
  group?: string;
  t: number;
}

/** The node group a change is grouped in: the first GROUP_LABELS key the node carries. */
export function groupOf(facts: NodeFacts): string | undefined {
  for (const key of GROUP_LABELS) {
    const v = Object.hasOwn(facts.groups, key) ? facts.groups[key] : undefined;
    if (v !== undefined) return `${key}=${v}`;
  }
  return undefined;
}

/**
 * What changed between a node's values before (undefined: new) and after (undefined: gone), at
 * `t`. A new node or pod is no transition (it was not anything before).
 */
export function transitions(
  before: { facts: NodeFacts; rows: readonly PodRow[] } | undefined,
  after: { facts: NodeFacts; rows: readonly PodRow[] } | undefined,
  t: number,
): Transition[] {
  const out: Transition[] = [];
  if (!before || !after) return out;
  const group = groupOf(after.facts);
  const base = group !== undefined ? { group, t } : { t };
  if (before.facts.ready !== after.facts.ready && after.facts.ready !== '')
    out.push({
      kind: 'node',
      what: 'node.ready',
      to: after.facts.ready,
      member: after.facts.name,
      ...base,
    });
  const gained = after.facts.pressure & ~before.facts.pressure;
  if (gained !== 0 && after.facts.reason)
    out.push({
      kind: 'node',
      what: 'node.pressure',
      to: after.facts.reason,
      member: after.facts.name,
      ...base,
    });
  if (before.rows.length === 0) return out;
  const old = new Map(before.rows.map((r) => [r.uid, r]));
  for (const r of after.rows) {
    const o = old.get(r.uid);
    if (!o) continue;
    const member = `${r.namespace}/${r.name}`;
    if (o.phase !== r.phase && r.phase)
      out.push({ kind: 'pod', what: 'pod.phase', to: r.phase, member, ...base });
    else if (o.reason !== r.reason && r.reason)
      out.push({ kind: 'pod', what: 'pod.reason', to: r.reason, member, ...base });
  }
  return out;
}

interface Open {
  group: ChangeGroup;
  kind: 'node' | 'pod';
  all: Set<string>;
}

export interface ChangeLogOptions {
  windowMs?: number;
  /** Groups kept (newest); older ones are forgotten with their members. */
  keep?: number;
}

export class ChangeLog {
  private readonly windowMs: number;
  private readonly keep: number;
  /** Newest last. */
  private groups: Open[] = [];
  private readonly open = new Map<string, Open>();
  private made = 0;
  /** Bumped on every change (a watcher sends `changes` when it moved). */
  version = 0;

  constructor(options: ChangeLogOptions = {}) {
    this.windowMs = options.windowMs ?? CHANGE_WINDOW_MS;
    this.keep = options.keep ?? 100;
  }

  add(tr: Transition): void {
    const slot = `${tr.what}\u0000${tr.to}\u0000${tr.group ?? ''}`;
    let o = this.open.get(slot);
    if (o && tr.t - o.group.from > this.windowMs) o = undefined;
    if (!o) {
      const id = `${tr.t.toString(36)}-${(this.made++).toString(36)}`;
      o = {
        kind: tr.kind,
        all: new Set(),
        group: {
          id,
          what: tr.what,
          to: tr.to,
          ...(tr.group !== undefined ? { group: tr.group } : {}),
          count: 0,
          from: tr.t,
          until: tr.t,
          members: [],
          query: `change:${quoteValue(id)}`,
        },
      };
      this.open.set(slot, o);
      this.groups.push(o);
      if (this.groups.length > this.keep) {
        const gone = this.groups.splice(0, this.groups.length - this.keep);
        for (const g of gone) {
          const s = `${g.group.what}\u0000${g.group.to}\u0000${g.group.group ?? ''}`;
          if (this.open.get(s) === g) this.open.delete(s);
        }
      }
    }
    if (o.all.has(tr.member)) return;
    o.all.add(tr.member);
    o.group.count++;
    o.group.until = Math.max(o.group.until, tr.t);
    if (o.group.members.length < MEMBERS_SHOWN) o.group.members.push(tr.member);
    this.version++;
  }

  /** The groups newest first (by their last member), at most `limit`. */
  list(limit = 50): ChangeGroup[] {
    return this.groups
      .slice()
      .sort((a, b) => b.group.until - a.group.until || b.group.from - a.group.from)
      .slice(0, limit)
      .map((o) => ({ ...o.group, members: o.group.members.slice() }));
  }

  /** A group's members, for `change:ID` and overview.members. */
  members(id: string): ChangeMembers | undefined {
    const o = this.groups.find((g) => g.group.id === id);
    return o ? { kind: o.kind, members: o.all } : undefined;
  }
}

import { describe, expect, it } from 'vitest';
import { demoTimeline } from '@/components/data/testing/demo';
import { TimelineBuffer } from '@/components/data/timeline-buffer';
import { VisibleEvents } from '@/components/data/visible-events';
import { describeEvent, podNameIndex } from './describe';
import { EMPTY_FILTER, filterOptions, matchesFilter } from './filter';
import { LogOptions, PodNames, RowCache } from './indexes';

const tl = demoTimeline();

describe('incremental log indexes', () => {
  it('equal a rebuild after every batch, through trims and resets', () => {
    const buf = new TimelineBuffer(tl.initial, { snapshotEvery: 20, maxEvents: 200 });
    const names = new PodNames();
    const options = new LogOptions();
    const visible = new VisibleEvents();
    const sel = { id: tl.nodes[1] ?? '', layer: 'node' as const };
    let lastNames: ReadonlyMap<string, string> | undefined;
    let reused = 0;
    for (let i = 0; i < tl.events.length; i += 7) {
      buf.append(tl.events.slice(i, i + 7));
      if (i === 350) buf.reset(buf.latest);
      const state = buf.latest;
      const pods = Object.values(state.nodes).flatMap((n) => Object.values(n.pods));
      const got = names.get(buf.events, state);
      expect([...got.entries()].sort()).toEqual(
        [...podNameIndex(buf.events, pods).entries()].sort(),
      );
      if (got === lastNames) reused++;
      lastNames = got;
      expect(options.get(buf.events)).toEqual(filterOptions(buf.events));
      for (const [f, s] of [
        [EMPTY_FILTER, undefined],
        [EMPTY_FILTER, sel],
      ] as const)
        expect(visible.get(buf.events, f, s)).toEqual(
          buf.events.filter((e) => matchesFilter(e, f, s)),
        );
    }
    // Between pods coming and going the index is the same Map (memos keyed on it hold).
    expect(reused).toBeGreaterThan(0);
  });

  it('describes an event once per names index', () => {
    const rows = new RowCache();
    const names = podNameIndex(tl.events, []);
    const e = tl.events[10];
    if (!e) throw new Error('no event');
    const a = rows.get(e, names);
    expect(rows.get(e, names)).toBe(a);
    expect(a).toEqual(describeEvent(e, (uid) => names.get(uid)));
    expect(rows.get(e, new Map(names))).not.toBe(a);
  });
});

/** The soak's judgements (analysis.ts), on made-up series. */
import { describe, expect, it } from 'vitest';
import { heapGrowth, isErrorLine, sumByName } from './analysis';

const MiB = 1_048_576;
/** A saw-tooth heap: climbs 40 MiB between collections every 50 s, floor `floor(t)`. */
const saw = (minutes: number, floor: (t: number) => number) =>
  Array.from({ length: minutes * 6 }, (_, i) => {
    const t = i * 10_000;
    return { t, heapBytes: floor(t) + ((t % 50_000) / 50_000) * 40 * MiB };
  });

describe('heapGrowth', () => {
  it('a flat floor under a saw-tooth is no growth', () => {
    const g = heapGrowth(
      saw(30, () => 100 * MiB),
      5 * 60_000,
    );
    expect(g?.growthPct).toBeCloseTo(0, 5);
    expect(g?.windows).toHaveLength(6);
  });

  it('a leak shows as growth of the floor, whatever the saw-tooth does', () => {
    const g = heapGrowth(
      saw(30, (t) => 100 * MiB + (t / 60_000) * MiB),
      5 * 60_000,
    );
    // 25 minutes at 1 MiB/min over a ~105 MiB floor
    expect(g?.growthPct).toBeGreaterThan(15);
    expect(g?.slopeMibPerHour).toBeGreaterThan(50);
  });

  it('ignores the warm-up and refuses to judge too few samples', () => {
    const warm = saw(30, (t) => (t < 5 * 60_000 ? 20 * MiB : 100 * MiB));
    expect(heapGrowth(warm, 5 * 60_000)?.growthPct).toBeCloseTo(0, 5);
    expect(
      heapGrowth(
        saw(1, () => MiB),
        55_000,
      ),
    ).toBeUndefined();
  });
});

describe('sumByName', () => {
  it('sums a metric over its label sets and skips comments', () => {
    const m = sumByName(
      '# HELP x y\n# TYPE x counter\npodscope_relist_errors_total{node="a"} 2\npodscope_relist_errors_total{node="b"} 3\nprocess_heap_bytes 1024\nbad line\n',
    );
    expect(m.get('podscope_relist_errors_total')).toBe(5);
    expect(m.get('process_heap_bytes')).toBe(1024);
  });
});

describe('isErrorLine', () => {
  it('spots errors and failures, not ordinary lines', () => {
    expect(isErrorLine('[podscope] node-a: relist failed: CRI …')).toBe(true);
    expect(isErrorLine('Error: boom')).toBe(true);
    expect(isErrorLine('[podscope] watching 100 CRI endpoint(s)')).toBe(false);
    expect(
      isErrorLine(
        '[podscope] soak-001: using GetContainerEvents (GetContainerEvents stream is delivering)',
      ),
    ).toBe(false);
  });
});

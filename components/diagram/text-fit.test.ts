import { describe, expect, it } from 'vitest';
import { BADGE_STEP, podLabelMax } from './layout';
import { estimateWidth, fitText, pageMeasure } from './text-fit';

/** A monospace font, 10 px per character. */
const mono = (s: string) => [...s].length * 10;

describe('fitting a label', () => {
  it('keeps a label that fits and cuts one that does not, ellipsis included', () => {
    expect(fitText('web', 30, mono)).toBe('web');
    expect(fitText('payments-worker', 60, mono)).toBe('payme…');
    expect(mono(fitText('payments-worker', 60, mono))).toBeLessThanOrEqual(60);
    // No dangling separator before the ellipsis… except what the name itself has.
    expect(fitText('ab cdef', 40, mono)).toBe('ab…');
    expect(fitText('payments', 15, mono)).toBe('');
  });

  it('cuts by width, not by count: CJK letters take twice the room', () => {
    const w = (s: string) => estimateWidth(s, 10);
    expect(w('节点')).toBeGreaterThan(w('ab'));
    expect(w('mmmm')).toBeGreaterThan(w('iiii') * 2);
    expect(estimateWidth('api', 11, true)).toBeGreaterThan(estimateWidth('api', 11));
    const cut = fitText('数据库迁移任务', 45, w);
    expect(w(cut)).toBeLessThanOrEqual(45);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('estimates outside a browser (server rendering, tests)', () => {
    expect(pageMeasure({ px: 10 })('nginx')).toBe(estimateWidth('nginx', 10));
  });
});

describe('a pod name beside its badges', () => {
  it('ends clear of the leftmost badge', () => {
    const w = 172;
    for (let badges = 0; badges <= 4; badges++) {
      const nameEnd = 26 + podLabelMax(w, badges);
      // Badge circles (r = 7) are centred 10 from the right edge, one BADGE_STEP apart.
      const leftmostBadge = badges > 0 ? w - 10 - (badges - 1) * BADGE_STEP - 7 : w;
      expect(nameEnd).toBeLessThanOrEqual(leftmostBadge - 4);
    }
  });
});

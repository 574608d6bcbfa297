/**
 * Golden snapshot of a small rendered diagram (static markup, no browser): the three layers,
 * their contract attributes, condition pills, init divider, sidecar mark and badges. Numbers are
 * rounded and tags put on their own lines so a diff reads as a change to the drawing.
 */
import { NextIntlClientProvider } from 'next-intl';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { messagesFor } from '@/lib/i18n/messages';
import { reduceAll } from '@/lib/timeline/reducer';
import { demoTimeline } from '@/components/data/testing/demo';
import { layoutCluster } from './layout';
import { assignSlots, EMPTY_SLOTS } from './slots';
import { SvgScene } from './SvgScene';

function render(locale: 'en' | 'zh-CN', atMs: number): string {
  const tl = demoTimeline(atMs);
  const state = reduceAll(tl.initial, tl.events);
  const layout = layoutCluster(state, assignSlots(EMPTY_SLOTS, state), {
    width: 1000,
    height: 600,
  });
  const html = renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messagesFor(locale)} timeZone="UTC">
      <SvgScene
        layout={layout}
        transform={{ x: 0, y: 0, k: 1 }}
        detail="full"
        selected={undefined}
        focusId={layout.nodes[0]?.id}
        pulses={new Map()}
        onSelect={() => undefined}
        onFocus={() => undefined}
        onBackground={() => undefined}
        label="cluster"
      />
    </NextIntlClientProvider>,
  );
  return html
    .replace(/-?\d+\.\d+/g, (n) => String(Math.round(Number(n) * 100) / 100))
    .replace(/></g, '>\n<');
}

describe('rendered diagram', () => {
  it('matches the golden drawing of the demo cluster two minutes in', async () => {
    const svg = render('en', 120_000);
    expect(svg.match(/data-layer="node"/g)).toHaveLength(3);
    expect(svg).toContain('data-reason="CrashLoopBackOff"');
    await expect(svg).toMatchFileSnapshot('./__snapshots__/demo-cluster-2min.en.svg.txt');
  });

  it('speaks Chinese in its labels and keeps Kubernetes terms as they are', () => {
    const svg = render('zh-CN', 120_000);
    // The accessible name is the title (no aria-label beside it: scene.ts).
    expect(svg).toContain(`<title>节点 ${demoTimeline().nodes[0]}：Ready=True`);
    expect(svg).not.toContain('aria-label="节点');
    expect(svg).toContain('CrashLoopBackOff');
  });
});

/**
 * Page object for the console, written against the stable test contract only:
 * `data-layer` / `data-id` / `data-state` / `data-reason` on drawn entities, the timeline's
 * accessible names (Play, Pause, Live, Previous event, Next event) and the ARIA slider.
 *
 * Specs run against the live server (the embedded simulated nodes) and against the built-in
 * demo (`?source=demo`); E2E_SOURCES picks which (default: both).
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type Source = 'live' | 'demo';

export const SOURCES: Source[] = (process.env.E2E_SOURCES ?? 'live,demo')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Source => s === 'live' || s === 'demo');

/** Accessible names of the timeline controls, per language. */
export const CONTROL_NAMES = {
  en: {
    play: 'Play',
    pause: 'Pause',
    live: 'Live',
    previous: 'Previous event',
    next: 'Next event',
  },
  'zh-CN': {
    play: '播放',
    pause: '暂停',
    live: '实时',
    previous: '上一个事件',
    next: '下一个事件',
  },
} as const;

export type Locale = keyof typeof CONTROL_NAMES;

/** The timeline's "fit" button, per language. */
const FIT_NAMES: Record<Locale, string> = {
  en: 'Fit the timeline to what was recorded',
  'zh-CN': '让时间轴正好容纳全部记录',
};

/** Width of the lane labels on the left of the track (clicks there do not seek). */
const TRACK_LABELS = 150;
const TRACK_RIGHT_PAD = 10;

export class ConsolePage {
  constructor(
    readonly page: Page,
    readonly source: Source,
    readonly locale: Locale = 'en',
  ) {}

  /** The console's URL for this source and language, with extra view parameters. */
  url(params: Record<string, string> = {}): string {
    const q = new URLSearchParams(params);
    if (this.source === 'demo') q.set('source', 'demo');
    const query = q.toString();
    return `/${this.locale}${query ? `?${query}` : ''}`;
  }

  async open(params: Record<string, string> = {}): Promise<void> {
    await this.page.goto(this.url(params));
    await this.ready();
  }

  async openUrl(url: string): Promise<void> {
    await this.page.goto(url);
    await this.ready();
  }

  /** Waits for the first snapshot to be drawn. */
  async ready(): Promise<void> {
    await expect(this.nodes.first()).toBeVisible({ timeout: 60_000 });
  }

  get nodes(): Locator {
    return this.page.locator('[data-layer="node"]');
  }
  get pods(): Locator {
    return this.page.locator('[data-layer="pod"]');
  }
  get containers(): Locator {
    return this.page.locator('[data-layer="container"]');
  }
  entity(id: string): Locator {
    return this.page.locator(`[data-layer][data-id="${id}"]`);
  }

  get names() {
    return CONTROL_NAMES[this.locale];
  }
  control(name: keyof (typeof CONTROL_NAMES)['en']): Locator {
    return this.page.getByRole('button', { name: this.names[name], exact: true });
  }
  get play(): Locator {
    return this.control('play');
  }
  get pause(): Locator {
    return this.control('pause');
  }
  get live(): Locator {
    return this.control('live');
  }
  get previous(): Locator {
    return this.control('previous');
  }
  get next(): Locator {
    return this.control('next');
  }
  get scrubber(): Locator {
    return this.page.getByRole('slider');
  }
  get restartCount(): Locator {
    return this.page.getByTestId('restart-count');
  }
  get logRows(): Locator {
    return this.page.locator('.ps-log-row');
  }

  /** A container in CrashLoopBackOff (waits for one to appear); returns its data-id. */
  async crashLoopingContainer(): Promise<string> {
    const c = this.page.locator('[data-layer="container"][data-reason="CrashLoopBackOff"]').first();
    await expect(c).toBeVisible({ timeout: 120_000 });
    const id = await c.getAttribute('data-id');
    if (!id) throw new Error('crash-looping container without data-id');
    return id;
  }

  async select(id: string): Promise<void> {
    await this.entity(id).first().click();
    await expect(this.page).toHaveURL(new RegExp(`sel=${encodeURIComponent(id)}`));
  }

  async stateOf(id: string): Promise<{ state: string | null; reason: string | null }> {
    const e = this.entity(id).first();
    if ((await e.count()) === 0) return { state: null, reason: null };
    return {
      state: await e.getAttribute('data-state'),
      reason: await e.getAttribute('data-reason'),
    };
  }

  async restarts(): Promise<number> {
    return Number(await this.restartCount.textContent());
  }

  async slider(): Promise<{ min: number; max: number; now: number }> {
    const s = this.scrubber;
    return {
      min: Number(await s.getAttribute('aria-valuemin')),
      max: Number(await s.getAttribute('aria-valuemax')),
      now: Number(await s.getAttribute('aria-valuenow')),
    };
  }

  /** The stretch of time the track shows (it fits the data, and can be zoomed and panned). */
  async window(): Promise<{ from: number; to: number }> {
    const s = this.scrubber;
    return {
      from: Number(await s.getAttribute('data-window-from')),
      to: Number(await s.getAttribute('data-window-to')),
    };
  }

  /**
   * Clicks the scrubber track at moment `t`. A moment outside the shown window is brought into
   * it first by fitting the timeline to everything recorded.
   */
  async scrubTo(t: number): Promise<void> {
    const box = await this.scrubber.boundingBox();
    if (!box) throw new Error('scrubber not visible');
    let { from, to } = await this.window();
    if (t < from || t > to) {
      const fit = this.page.getByRole('button', { name: FIT_NAMES[this.locale] });
      if (await fit.isEnabled()) await fit.click();
      ({ from, to } = await this.window());
    }
    const usable = box.width - TRACK_LABELS - TRACK_RIGHT_PAD;
    const at = Math.min(Math.max(t, from), to);
    const x = box.x + TRACK_LABELS + ((at - from) / Math.max(1, to - from)) * usable;
    await this.page.mouse.click(x, box.y + Math.min(40, box.height / 2));
  }

  async isLive(): Promise<boolean> {
    return (await this.live.getAttribute('aria-pressed')) === 'true';
  }
}

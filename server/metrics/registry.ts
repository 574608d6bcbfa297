/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text
 * exposition format (version 0.0.4). Hand-written because Podscope needs a dozen series and no
 * push, default process metrics or dependency for them.
 */
type Labels = Readonly<Record<string, string>>;

const escapeLabel = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelKey = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(labels[k] ?? '')}"`)
    .join(',');
const fmt = (n: number) =>
  Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';

interface Metric {
  render(): string[];
}

abstract class Series<V> implements Metric {
  protected readonly values = new Map<string, { labels: Labels; value: V }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
  ) {}
  protected slot(labels: Labels, init: () => V): { labels: Labels; value: V } {
    const key = labelKey(labels);
    let s = this.values.get(key);
    if (!s) {
      s = { labels, value: init() };
      this.values.set(key, s);
    }
    return s;
  }
  protected header(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
  }
  abstract render(): string[];
}

export class Counter extends Series<number> {
  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }
  inc(labels: Labels = {}, by = 1): void {
    this.slot(labels, () => 0).value += by;
  }
  /** For totals kept elsewhere (monotonic by construction there). */
  setTotal(labels: Labels, value: number): void {
    this.slot(labels, () => 0).value = value;
  }
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels))?.value ?? 0;
  }
  render(): string[] {
    const out = this.header();
    for (const { labels, value } of this.values.values())
      out.push(`${this.name}${wrap(labelKey(labels))} ${fmt(value)}`);
    return out;
  }
}

export class Gauge extends Series<number> {
  constructor(name: string, help: string) {
    super(name, help, 'gauge');
  }
  set(labels: Labels, value: number): void {
    this.slot(labels, () => 0).value = value;
  }
  /** Replaces every series at once (e.g. pods by phase per node). */
  reset(): void {
    this.values.clear();
  }
  render(): string[] {
    const out = this.header();
    for (const { labels, value } of this.values.values())
      out.push(`${this.name}${wrap(labelKey(labels))} ${fmt(value)}`);
    return out;
  }
}

export class Histogram extends Series<{ buckets: number[]; sum: number; count: number }> {
  constructor(
    name: string,
    help: string,
    readonly bounds: readonly number[],
  ) {
    super(name, help, 'histogram');
  }
  observe(labels: Labels, value: number): void {
    const s = this.slot(labels, () => ({
      buckets: this.bounds.map(() => 0),
      sum: 0,
      count: 0,
    })).value;
    for (let i = 0; i < this.bounds.length; i++)
      if (value <= (this.bounds[i] ?? Infinity)) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }
  render(): string[] {
    const out = this.header();
    for (const { labels, value } of this.values.values()) {
      const key = labelKey(labels);
      this.bounds.forEach((b, i) =>
        out.push(
          `${this.name}_bucket${wrap(join(key, `le="${fmt(b)}"`))} ${value.buckets[i] ?? 0}`,
        ),
      );
      out.push(`${this.name}_bucket${wrap(join(key, 'le="+Inf"'))} ${value.count}`);
      out.push(`${this.name}_sum${wrap(key)} ${fmt(value.sum)}`);
      out.push(`${this.name}_count${wrap(key)} ${value.count}`);
    }
    return out;
  }
}

const wrap = (key: string) => (key ? `{${key}}` : '');
const join = (a: string, b: string) => (a ? `${a},${b}` : b);

export class Registry {
  private readonly metrics: Metric[] = [];
  private readonly collectors: (() => void)[] = [];
  register<M extends Metric>(m: M): M {
    this.metrics.push(m);
    return m;
  }
  /** Runs before each render (for gauges computed from current state). */
  onCollect(fn: () => void): void {
    this.collectors.push(fn);
  }
  render(): string {
    for (const fn of this.collectors) fn();
    return `${this.metrics.flatMap((m) => m.render()).join('\n')}\n`;
  }
}

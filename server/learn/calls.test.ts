/** The call ledger and re-dialable clients that let the recorder know when nothing is in flight. */
import { describe, expect, it } from 'vitest';
import { CallLedger, CLOCK_BOUND_GRACE_MS, Redialable } from './calls';

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('CallLedger', () => {
  it('is busy while an ordinary call is in flight, and counts every start and end', async () => {
    let now = 0;
    const ledger = new CallLedger(() => now);
    const call = deferred();
    void ledger.track('listContainers', call.promise);
    expect(ledger.busy()).toBe(true);
    expect(ledger.activity).toBe(1);
    now += 60_000;
    // However long it takes: its answer needs no virtual time.
    expect(ledger.busy()).toBe(true);
    call.resolve();
    await call.promise;
    await Promise.resolve();
    expect(ledger.busy()).toBe(false);
    expect(ledger.size).toBe(0);
    expect(ledger.activity).toBe(2);
  });

  it('lets a clock-bound call wait once it has had the grace period to answer', () => {
    let now = 0;
    const ledger = new CallLedger(() => now);
    void ledger.track('stopContainer', deferred().promise);
    expect(ledger.busy()).toBe(true);
    now += CLOCK_BOUND_GRACE_MS;
    expect(ledger.busy()).toBe(false);
    expect(ledger.size).toBe(1);
  });

  it('ends a call that fails as well', async () => {
    const ledger = new CallLedger(() => 0);
    await ledger.track('version', Promise.reject(new Error('UNAVAILABLE'))).catch(() => undefined);
    expect(ledger.size).toBe(0);
  });
});

describe('Redialable', () => {
  interface Fake {
    readonly endpoint: string;
    list(): Promise<string>;
    close(): void;
  }

  it('tracks calls through the proxy and forwards them to a fresh client after redial', async () => {
    const ledger = new CallLedger(() => 0);
    const closed: number[] = [];
    let n = 0;
    const dial = (): Fake => {
      const id = ++n;
      return {
        endpoint: `unix:///sock-${id}`,
        list: () => Promise.resolve(`client ${id}`),
        close: () => closed.push(id),
      };
    };
    const r = new Redialable<Fake>(dial, (c) => c.close(), ledger);
    expect(r.client.endpoint).toBe('unix:///sock-1');
    expect(await r.client.list()).toBe('client 1');
    expect(ledger.activity).toBe(2);
    r.redial();
    expect(closed).toEqual([1]);
    expect(r.client.endpoint).toBe('unix:///sock-2');
    expect(await r.client.list()).toBe('client 2');
    r.close();
    expect(closed).toEqual([1, 2]);
  });
});

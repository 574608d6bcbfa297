/**
 * Leader election through a coordination.k8s.io/v1 Lease, the way client-go's leaderelection
 * package does it (k8s.io/client-go/tools/leaderelection, LeaseLock): so that of several console
 * replicas exactly one watches the API server and publishes what only it knows on the bus.
 *
 * - **Acquire.** Read the Lease; none → create it naming us (409 AlreadyExists: someone was
 *   faster). Held by another → wait until it has not changed for `leaseDurationMs` *as observed
 *   by our own clock* (client-go's observedTime: the holder's clock and ours need not agree),
 *   then take it over with a replace guarded by the resourceVersion we read (409 Conflict:
 *   someone else took it first) and count a transition.
 * - **Renew** every `retryPeriodMs` while leading. A leader that has not renewed successfully for
 *   `renewDeadlineMs` stops leading (onStoppedLeading) — before the lease can expire for the
 *   others (`renewDeadlineMs` < `leaseDurationMs`), so two replicas never lead at once even when
 *   the old one is cut off from the API server rather than dead.
 * - **Release** on stop: holderIdentity cleared and duration 1 s, so the next replica takes over
 *   at once instead of after the lease expires (client-go ReleaseOnCancel).
 * Defaults are client-go's: 15 s lease, 10 s renew deadline, 2 s retry period.
 */
import {
  ApiException,
  CoordinationV1Api,
  KubeConfig,
  V1MicroTime,
  type V1Lease,
} from '@kubernetes/client-node';
import type { Logger } from '@/server/log';
import { loadKubeConfig } from './config';

export interface LeaseElectorOptions {
  /** The API server (a kubeconfig path or a loaded KubeConfig; default: in-cluster / $KUBECONFIG). */
  kubeconfig?: string | KubeConfig;
  /** The console's own namespace (the RBAC grants leases there only). */
  namespace: string;
  /** The Lease's name: one per job elected for. */
  name: string;
  /** Who we are, unique per replica (a pod name plus a start nonce). */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Called once each time we become the leader. */
  onStartedLeading(): void;
  /** Called once each time we stop leading (lost the lease, cut off, or stopped). */
  onStoppedLeading(): void;
  /** The holder changed (any replica, us included). */
  onNewLeader?(identity: string): void;
  now?: () => number;
  log?: Logger;
}

export const LEASE_DEFAULTS = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

/** client-go's JitterFactor for the retry period (wait.JitterUntil). */
const JITTER = 1.2;

const isConflict = (err: unknown) =>
  err instanceof ApiException && (err.code === 409 || err.code === 422);
const isNotFound = (err: unknown) => err instanceof ApiException && err.code === 404;

export class LeaseElector {
  private readonly api: CoordinationV1Api;
  private readonly opts: Required<
    Pick<LeaseElectorOptions, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>
  >;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private leading = false;
  private lastRenew = 0;
  /** What we last saw in the Lease, and when (our clock). */
  private observed: { holder: string; renew: string; rv: string } | undefined;
  private observedAt = 0;
  private holder: string | undefined;
  private cycle: Promise<void> = Promise.resolve();

  constructor(private readonly options: LeaseElectorOptions) {
    const kc =
      options.kubeconfig instanceof KubeConfig
        ? options.kubeconfig
        : loadKubeConfig({ kubeconfig: options.kubeconfig });
    this.api = kc.makeApiClient(CoordinationV1Api);
    this.now = options.now ?? Date.now;
    this.opts = {
      leaseDurationMs: options.leaseDurationMs ?? LEASE_DEFAULTS.leaseDurationMs,
      renewDeadlineMs: options.renewDeadlineMs ?? LEASE_DEFAULTS.renewDeadlineMs,
      retryPeriodMs: options.retryPeriodMs ?? LEASE_DEFAULTS.retryPeriodMs,
    };
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.opts;
    if (!(leaseDurationMs > renewDeadlineMs))
      throw new Error('leaseDurationMs must be greater than renewDeadlineMs');
    if (!(renewDeadlineMs > JITTER * retryPeriodMs))
      throw new Error(`renewDeadlineMs must be greater than ${JITTER} × retryPeriodMs`);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** The identity the Lease last named (undefined: none seen yet, or released). */
  get leader(): string | undefined {
    return this.holder;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops; a leader releases the Lease so another replica takes over at once. */
  async stop(): Promise<void> {
    this.halt();
    await this.cycle;
    if (this.leading) {
      this.lose('stopped');
      await this.release();
    }
  }

  /** Stops without releasing, as a killed process would (tests; the lease then expires). */
  abandon(): void {
    this.halt();
    if (this.leading) this.lose('abandoned');
  }

  private halt(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.cycle = this.tick().finally(() => {
        const { retryPeriodMs } = this.opts;
        // Leaders renew on the period; followers add client-go's jitter so they do not all ask at once.
        this.schedule(
          this.leading ? retryPeriodMs : retryPeriodMs * (1 + Math.random() * (JITTER - 1)),
        );
      });
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (err) {
      this.options.log?.warn(
        { err, lease: `${this.options.namespace}/${this.options.name}` },
        `lease ${this.options.name}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
      );
    }
    if (!this.running) return;
    const now = this.now();
    if (ok) {
      this.lastRenew = now;
      if (!this.leading) {
        this.leading = true;
        this.options.log?.info(`lease ${this.options.name}: ${this.options.identity} leads`);
        this.options.onStartedLeading();
      }
    } else if (this.leading && now - this.lastRenew >= this.opts.renewDeadlineMs) {
      this.lose(`not renewed for ${now - this.lastRenew} ms`);
    } else if (this.leading && this.holder !== undefined && this.holder !== this.options.identity) {
      this.lose(`taken over by ${this.holder}`);
    }
  }

  private lose(why: string): void {
    this.leading = false;
    this.options.log?.info(
      `lease ${this.options.name}: ${this.options.identity} stops leading (${why})`,
    );
    this.options.onStoppedLeading();
  }

  private see(holder: string): void {
    if (holder === this.holder) return;
    this.holder = holder || undefined;
    if (holder) this.options.onNewLeader?.(holder);
  }

  /** One round of client-go's tryAcquireOrRenew; true when we hold the Lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    const now = this.now();
    const stamp = new V1MicroTime(now);
    const seconds = Math.ceil(this.opts.leaseDurationMs / 1000);
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ name, namespace });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        const made = await this.api.createNamespacedLease({
          namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name, namespace },
            spec: {
              holderIdentity: identity,
              leaseDurationSeconds: seconds,
              acquireTime: stamp,
              renewTime: stamp,
              leaseTransitions: 0,
            },
          },
        });
        this.record(made, this.now());
        return true;
      } catch (e) {
        if (isConflict(e)) return false;
        throw e;
      }
    }
    this.record(lease, now);
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const heldByOther = holder !== '' && holder !== identity;
    const durationMs = (spec.leaseDurationSeconds ?? seconds) * 1000;
    if (heldByOther && this.observedAt + durationMs > now) return false;
    const mine = holder === identity;
    try {
      const replaced = await this.api.replaceNamespacedLease({
        name,
        namespace,
        body: {
          ...lease,
          spec: {
            ...spec,
            holderIdentity: identity,
            leaseDurationSeconds: seconds,
            renewTime: stamp,
            acquireTime: mine && spec.acquireTime ? spec.acquireTime : stamp,
            leaseTransitions: (spec.leaseTransitions ?? 0) + (mine ? 0 : 1),
          },
        },
      });
      this.record(replaced, this.now());
      return true;
    } catch (err) {
      if (isConflict(err)) return false;
      throw err;
    }
  }

  /** Notes what the Lease says; a change restarts the expiry clock (our clock, not theirs). */
  private record(lease: V1Lease, at: number): void {
    const seen = {
      holder: lease.spec?.holderIdentity ?? '',
      renew: lease.spec?.renewTime ? new Date(lease.spec.renewTime).toISOString() : '',
      rv: lease.metadata?.resourceVersion ?? '',
    };
    const o = this.observed;
    if (!o || o.holder !== seen.holder || o.renew !== seen.renew || o.rv !== seen.rv) {
      this.observed = seen;
      this.observedAt = at;
    }
    this.see(seen.holder);
  }

  private async release(): Promise<void> {
    const { namespace, name, identity } = this.options;
    try {
      const lease = await this.api.readNamespacedLease({ name, namespace });
      if (lease.spec?.holderIdentity !== identity) return;
      const now = new V1MicroTime(this.now());
      await this.api.replaceNamespacedLease({
        name,
        namespace,
        body: {
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: now,
            acquireTime: now,
          },
        },
      });
    } catch (err) {
      // The lease then expires on its own; nothing is lost but the quick hand-over.
      this.options.log?.warn({ err }, `lease ${name}: release failed; it expires on its own`);
    }
  }
}

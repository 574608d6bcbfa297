/**
 * An in-memory CRI runtime for the driver's unit tests: the DriverRuntime surface, on a manual
 * clock, with containers whose behaviour the test sets (exit after a while, exit on SIGTERM or
 * ignore it until SIGKILL, fail to pull). Errors carry a gRPC code name like CriError does.
 * It records every mutating call in order, so tests can assert the sequence the kubelet would use.
 */
import type { RuntimeContainer, RuntimeInfo, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { ANNOTATIONS, LABELS } from '@/lib/kubelet/runtime';
import type {
  ContainerSpec,
  ExecResult,
  ImageInfo,
  SandboxSpec,
  SandboxStatusResult,
} from '@/server/cri/types';
import type { DriverClock } from '../clock';
import type { DriverRuntime } from '../runtime';

export class FakeCriError extends Error {
  constructor(
    readonly rpc: string,
    readonly codeName: string,
    readonly details: string,
  ) {
    super(`CRI ${rpc} on fake: ${codeName}: ${details}`);
  }
}

/** How a started container behaves. */
export interface Behaviour {
  /** Exit by itself after this long (ms on the clock). */
  exitAfterMs?: number;
  exitCode?: number;
  reason?: string;
  /** On StopContainer: exit at once with this code (a TERM handler), else wait for SIGKILL (137). */
  onTerm?: number;
}

interface FakeSandbox {
  record: RuntimeSandbox;
}

interface FakeContainer {
  record: RuntimeContainer;
  spec: ContainerSpec;
  behaviour: Behaviour;
  exitTimer?: { cancel(): void };
  waiters: (() => void)[];
}

export class FakeRuntime implements DriverRuntime {
  readonly endpoint = 'unix:///fake/cri.sock';
  runtimeName = 'podscope-sim';
  readonly calls: string[] = [];
  readonly images = new Set<string>(['podscope.local/busybox:1']);
  readonly failingPulls = new Map<string, string>();
  /** Called for every CreateContainer to decide the behaviour; default: run until stopped. */
  behaviourFor: (spec: ContainerSpec) => Behaviour = () => ({});
  /** The next call of this RPC fails with this error. */
  readonly failNext = new Map<string, FakeCriError>();
  /** What an ExecSync of `cmd` in the container named `container` returns (and how long it takes). */
  execResults: (
    cmd: string[],
    container: string,
  ) => { exitCode: number; sleepMs?: number; stdout?: string; stderr?: string } = (cmd) =>
    cmd[0] === 'sleep' ? { exitCode: 0, sleepMs: Number(cmd[1] ?? 0) * 1000 } : { exitCode: 0 };
  execUnimplemented = false;
  private readonly sandboxes = new Map<string, FakeSandbox>();
  private readonly containers = new Map<string, FakeContainer>();
  private nextId = 1;

  constructor(private readonly clock: DriverClock) {}

  private check(rpc: string): void {
    const err = this.failNext.get(rpc);
    if (err) {
      this.failNext.delete(rpc);
      throw err;
    }
  }

  private id(prefix: string): string {
    return `${prefix}${String(this.nextId++).padStart(4, '0')}`;
  }

  // ── observing ──────────────────────────────────────────────────────────────

  version(): Promise<RuntimeInfo> {
    this.check('Version');
    return Promise.resolve({ name: this.runtimeName, version: '0.0.0-test', apiVersion: 'v1' });
  }

  listPodSandbox(filter?: { labelSelector?: Record<string, string> }): Promise<RuntimeSandbox[]> {
    this.check('ListPodSandbox');
    return Promise.resolve(
      [...this.sandboxes.values()]
        .map((s) => s.record)
        .filter((s) => matches(s.labels, filter?.labelSelector))
        .map((s) => ({ ...s, inspected: false })),
    );
  }

  podSandboxStatus(id: string): Promise<SandboxStatusResult> {
    this.check('PodSandboxStatus');
    const s = this.sandboxes.get(id);
    if (!s)
      return Promise.reject(
        new FakeCriError('PodSandboxStatus', 'NOT_FOUND', `sandbox ${id} not found`),
      );
    return Promise.resolve({ sandbox: { ...s.record }, containers: [], info: {} });
  }

  listContainers(filter?: { labelSelector?: Record<string, string> }): Promise<RuntimeContainer[]> {
    this.check('ListContainers');
    return Promise.resolve(
      [...this.containers.values()]
        .map((c) => c.record)
        .filter((c) => matches(c.labels, filter?.labelSelector))
        .map((c) => ({ ...c, inspected: false })),
    );
  }

  containerStatus(id: string): Promise<RuntimeContainer> {
    this.check('ContainerStatus');
    const c = this.containers.get(id);
    if (!c)
      return Promise.reject(
        new FakeCriError('ContainerStatus', 'NOT_FOUND', `container ${id} not found`),
      );
    return Promise.resolve({ ...c.record });
  }

  // ── sandboxes ──────────────────────────────────────────────────────────────

  runPodSandbox(spec: SandboxSpec): Promise<string> {
    this.check('RunPodSandbox');
    const id = this.id('sb');
    this.calls.push(`RunPodSandbox ${spec.name} attempt=${spec.attempt ?? 0}`);
    this.sandboxes.set(id, {
      record: {
        id,
        name: spec.name,
        namespace: spec.namespace,
        uid: spec.uid,
        attempt: spec.attempt ?? 0,
        state: 'ready',
        createdAt: this.clock.now(),
        labels: { ...spec.labels },
        annotations: { ...spec.annotations },
        network: { ip: spec.networkMode === 'NODE' ? '' : '10.0.0.2', additionalIps: [] },
        networkMode: spec.networkMode ?? 'POD',
        inspected: true,
      },
    });
    return Promise.resolve(id);
  }

  stopPodSandbox(id: string): Promise<void> {
    this.check('StopPodSandbox');
    const s = this.sandboxes.get(id);
    this.calls.push(`StopPodSandbox ${s?.record.name ?? id}`);
    if (!s) return Promise.resolve();
    for (const c of this.containers.values()) {
      if (c.record.sandboxId === id && c.record.state === 'running') this.exit(c, 137, 'Error');
    }
    s.record = { ...s.record, state: 'notready' };
    return Promise.resolve();
  }

  removePodSandbox(id: string): Promise<void> {
    this.check('RemovePodSandbox');
    this.calls.push(`RemovePodSandbox ${this.sandboxes.get(id)?.record.name ?? id}`);
    for (const [cid, c] of this.containers)
      if (c.record.sandboxId === id) this.containers.delete(cid);
    this.sandboxes.delete(id);
    return Promise.resolve();
  }

  // ── containers ─────────────────────────────────────────────────────────────

  createContainer(sandboxId: string, spec: ContainerSpec): Promise<string> {
    this.check('CreateContainer');
    const s = this.sandboxes.get(sandboxId);
    if (!s || s.record.state !== 'ready') {
      return Promise.reject(
        new FakeCriError('CreateContainer', 'UNKNOWN', `sandbox ${sandboxId} is not ready`),
      );
    }
    if (!this.images.has(spec.image)) {
      return Promise.reject(
        new FakeCriError('CreateContainer', 'NOT_FOUND', `image "${spec.image}" not found`),
      );
    }
    const id = this.id('c');
    this.calls.push(`CreateContainer ${spec.name} attempt=${spec.attempt ?? 0}`);
    const annotations = { ...spec.annotations };
    this.containers.set(id, {
      spec,
      behaviour: this.behaviourFor(spec),
      waiters: [],
      record: {
        id,
        sandboxId,
        name: spec.labels?.[LABELS.containerName] ?? spec.name,
        attempt: spec.attempt ?? 0,
        state: 'created',
        createdAt: this.clock.now(),
        image: spec.image,
        imageRef: `sha256:${spec.image}`,
        restartCount: Number(annotations[ANNOTATIONS.restartCount] ?? 0),
        labels: { ...spec.labels },
        annotations,
        inspected: true,
      },
    });
    return Promise.resolve(id);
  }

  startContainer(id: string): Promise<void> {
    this.check('StartContainer');
    const c = this.containers.get(id);
    if (!c)
      return Promise.reject(
        new FakeCriError('StartContainer', 'NOT_FOUND', `container ${id} not found`),
      );
    this.calls.push(`StartContainer ${c.record.name}`);
    c.record = { ...c.record, state: 'running', startedAt: this.clock.now() };
    const b = c.behaviour;
    if (b.exitAfterMs !== undefined) {
      c.exitTimer = this.clock.setTimer(b.exitAfterMs, () =>
        this.exit(
          c,
          b.exitCode ?? 0,
          b.reason ?? ((b.exitCode ?? 0) === 0 ? 'Completed' : 'Error'),
        ),
      );
    }
    return Promise.resolve();
  }

  stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    this.check('StopContainer');
    const c = this.containers.get(id);
    if (!c)
      return Promise.reject(
        new FakeCriError('StopContainer', 'NOT_FOUND', `container ${id} not found`),
      );
    this.calls.push(`StopContainer ${c.record.name} timeout=${timeoutSeconds}`);
    if (c.record.state !== 'running') return Promise.resolve();
    return new Promise((resolve) => {
      c.waiters.push(resolve);
      if (c.behaviour.onTerm !== undefined) {
        this.exit(c, c.behaviour.onTerm, c.behaviour.onTerm === 0 ? 'Completed' : 'Error');
      } else {
        this.clock.setTimer(timeoutSeconds * 1000, () => this.exit(c, 137, 'Error'));
      }
    });
  }

  removeContainer(id: string): Promise<void> {
    this.check('RemoveContainer');
    const c = this.containers.get(id);
    if (!c) return Promise.resolve();
    if (c.record.state === 'running') {
      return Promise.reject(
        new FakeCriError('RemoveContainer', 'UNKNOWN', `container ${id} is running`),
      );
    }
    this.calls.push(`RemoveContainer ${c.record.name}`);
    this.containers.delete(id);
    return Promise.resolve();
  }

  execSync(id: string, cmd: string[], timeoutSeconds = 0): Promise<ExecResult> {
    this.check('ExecSync');
    if (this.execUnimplemented) {
      return Promise.reject(
        new FakeCriError('ExecSync', 'UNIMPLEMENTED', 'ExecSync is not implemented'),
      );
    }
    const c = this.containers.get(id);
    this.calls.push(`ExecSync ${c?.record.name ?? id} ${cmd.join(' ')}`);
    if (c && c.record.state !== 'running') {
      return Promise.reject(
        new FakeCriError(
          'ExecSync',
          'UNKNOWN',
          `failed to exec in container: container is in CONTAINER_${c.record.state.toUpperCase()} state`,
        ),
      );
    }
    const r = this.execResults(cmd, c?.record.name ?? '');
    const done: ExecResult = {
      stdout: Buffer.from(r.stdout ?? ''),
      stderr: Buffer.from(r.stderr ?? ''),
      exitCode: r.exitCode,
    };
    const sleepMs = r.sleepMs ?? 0;
    if (timeoutSeconds > 0 && sleepMs > timeoutSeconds * 1000) {
      return new Promise((_, reject) =>
        this.clock.setTimer(timeoutSeconds * 1000, () =>
          reject(
            new FakeCriError(
              'ExecSync',
              'DEADLINE_EXCEEDED',
              `failed to exec in container: timeout ${timeoutSeconds}s exceeded: context deadline exceeded`,
            ),
          ),
        ),
      );
    }
    if (!sleepMs) return Promise.resolve(done);
    return new Promise((resolve) => this.clock.setTimer(sleepMs, () => resolve(done)));
  }

  // ── images ─────────────────────────────────────────────────────────────────

  imageStatus(image: string): Promise<ImageInfo | undefined> {
    this.check('ImageStatus');
    if (!this.images.has(image)) return Promise.resolve(undefined);
    return Promise.resolve({
      id: `sha256:${image}`,
      repoTags: [image],
      repoDigests: [],
      sizeBytes: 1,
      username: '',
      pinned: false,
    });
  }

  pullImage(image: string): Promise<string> {
    this.check('PullImage');
    this.calls.push(`PullImage ${image}`);
    const failure = this.failingPulls.get(image);
    if (failure) return Promise.reject(new FakeCriError('PullImage', 'NOT_FOUND', failure));
    this.images.add(image);
    return Promise.resolve(`sha256:${image}`);
  }

  // ── test controls ──────────────────────────────────────────────────────────

  /** Records of a container name, newest first. */
  containersNamed(name: string): RuntimeContainer[] {
    return [...this.containers.values()]
      .map((c) => c.record)
      .filter((c) => c.name === name)
      .sort((a, b) => b.createdAt - a.createdAt || b.attempt - a.attempt);
  }

  allSandboxes(): RuntimeSandbox[] {
    return [...this.sandboxes.values()].map((s) => s.record);
  }

  /** Makes the newest running container of that name exit now. */
  exitNow(name: string, exitCode: number, reason = exitCode === 0 ? 'Completed' : 'Error'): void {
    const c = [...this.containers.values()].find(
      (x) => x.record.name === name && x.record.state === 'running',
    );
    if (!c) throw new Error(`fake: no running container "${name}"`);
    this.exit(c, exitCode, reason);
  }

  private exit(c: FakeContainer, exitCode: number, reason: string): void {
    if (c.record.state !== 'running') return;
    c.exitTimer?.cancel();
    c.record = { ...c.record, state: 'exited', exitCode, reason, finishedAt: this.clock.now() };
    for (const w of c.waiters.splice(0)) w();
  }
}

function matches(
  labels: Readonly<Record<string, string>>,
  selector?: Record<string, string>,
): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/**
 * The kubelet version of a node, and the feature-gate defaults of its minor.
 *
 * Clusters run mixed kubelets (the skew policy lets a kubelet trail the API server by three
 * minors), and several rules Podscope applies changed between 1.28 and the current release. A
 * node's version comes from the API server (`status.nodeInfo.kubeletVersion`), else from the
 * operator (`--kubelet-version` / PODSCOPE_KUBELET_VERSION, per endpoint or agent), else Podscope
 * applies the newest minor it has rules for and says so.
 *
 * Gate defaults per minor: pkg/features/kube_features.go, `defaultVersionedKubernetesFeatureGates`
 * (kubernetes/kubernetes; read in two stored texts: b0b89d3bd251db932ed5a7bef66039fb88acab64, the
 * 1.33 table, and the newest stored text, the 1.36 development table — its VolumeAttributesClass
 * locks at 1.36 — whose entries for the gates below have nothing after 1.35):
 * - SidecarContainers: 1.28 alpha off; 1.29 beta on; 1.33 GA, locked on.
 * - PodReadyToStartContainersCondition: 1.28 alpha off; 1.29 beta on.
 * - ContainerRestartRules: 1.34 alpha off; 1.35 beta on (absent before 1.34: off).
 * - RestartAllContainersOnContainerExits: 1.35 alpha off.
 * - PodObservedGenerationTracking: 1.33 alpha off; 1.34 beta on; 1.35 GA, locked on.
 * - ChangeContainerStatusOnKubeletRestart: "1.0" GA on; 1.35 deprecated, off. It decides what a
 *   *restarting* kubelet does with `started` (before 1.35 it forgot it until the prober ran again).
 *   Podscope's previous view stands in for the prober's memory, which a running kubelet of any
 *   version keeps, so it stays off for every minor here.
 * - KubeletCrashLoopBackOffMax: 1.32 alpha off; 1.35 beta on (absent before 1.32: off).
 * - ReduceDefaultCrashLoopBackOffDecay: 1.33 alpha off (still alpha in the 1.36 table).
 *
 * What the crash-loop gates change (pkg/kubelet/kubelet.go newCrashLoopBackOff and NewMainKubelet,
 * newest stored text): the container back-off starts at initialCrashLoopBackOff 10 s and stops
 * doubling at MaxCrashLoopBackOff 300 s; ReduceDefaultCrashLoopBackOffDecay makes those 1 s and
 * 60 s; KubeletCrashLoopBackOffMax makes the maximum the kubelet configuration's
 * crashLoopBackOff.maxContainerRestartPeriod (the first window then min(first, maximum)). The
 * entries reset 600 s after the last restart: HasExpiredFunc in 1.32+, and client-go's 2 × max
 * (2 × 300 s) before, the same period.
 */
import { DEFAULT_FEATURE_GATES, enabled, type FeatureGateName, type FeatureGates } from './gates';
import type { Explanation } from './explanation';
import { KUBELET_DEFAULTS, MAX_CONTAINER_RESTART_PERIOD_RANGE_MS } from './timings';
import { why } from './why';

/** The oldest and newest minors Podscope has rules for (1.28 … the current release, 1.36). */
export const OLDEST_KUBELET_MINOR = 28;
export const NEWEST_KUBELET_MINOR = 36;

export const KUBELET_VERSION_SOURCES = ['api-server', 'flag', 'default'] as const;
export type KubeletVersionSource = (typeof KUBELET_VERSION_SOURCES)[number];

/** The kubelet version whose rules Podscope applies to a node, and where it came from. */
export interface KubeletVersion {
  /** The minor whose rules are applied: "1.33". */
  value: string;
  source: KubeletVersionSource;
  /** What the source said, when it is not `value` itself ("v1.33.2", "v1.26.1" → 1.28's rules). */
  reported?: string;
}

/** `v1.33.2`, `1.33`, `v1.33.0-eks-4096722`, `1.30.4+k3s1` → 1, 33; undefined when unreadable. */
export function parseKubeletVersion(raw: unknown): { major: number; minor: number } | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /^\s*v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,6}))?(?:[-+][0-9A-Za-z.+-]*)?\s*$/.exec(raw);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** The minor whose rules apply to a version: itself within 1.28–1.36, else the nearest end. */
export function ruleMinorOf(v: { major: number; minor: number }): number {
  if (v.major < 1) return OLDEST_KUBELET_MINOR;
  if (v.major > 1) return NEWEST_KUBELET_MINOR;
  return Math.min(NEWEST_KUBELET_MINOR, Math.max(OLDEST_KUBELET_MINOR, v.minor));
}

const minorText = (minor: number): string => `1.${minor}`;

/** The default: the newest minor Podscope has rules for. */
export const DEFAULT_KUBELET_VERSION: Readonly<KubeletVersion> = Object.freeze({
  value: minorText(NEWEST_KUBELET_MINOR),
  source: 'default',
});

/**
 * The version whose rules apply to a node: the API server's report when it has one Podscope can
 * read, else the operator's, else the default (the newest minor). A version outside 1.28–1.36 is
 * applied as the nearest end and keeps what was reported.
 */
export function resolveKubeletVersion(from: {
  apiServer?: string | undefined;
  flag?: string | undefined;
}): KubeletVersion {
  for (const [source, raw] of [
    ['api-server', from.apiServer],
    ['flag', from.flag],
  ] as const) {
    const parsed = parseKubeletVersion(raw);
    if (!parsed || raw === undefined) continue;
    const value = minorText(ruleMinorOf(parsed));
    const reported = raw.trim();
    return { value, source, ...(reported !== value ? { reported } : {}) };
  }
  return { ...DEFAULT_KUBELET_VERSION };
}

/** The minor number of a KubeletVersion's value (its rules), the newest when unreadable. */
export function minorOf(v: Pick<KubeletVersion, 'value'> | undefined): number {
  const p = parseKubeletVersion(v?.value);
  return p ? ruleMinorOf(p) : NEWEST_KUBELET_MINOR;
}

/** One gate's default from each minor on, as kube_features.go lists them (oldest first). */
type GateHistory = readonly (readonly [sinceMinor: number, enabled: boolean])[];

/** The versioned defaults of the gates lib/kubelet reads (see the file header for the stages). */
export const GATE_HISTORY: Readonly<Record<FeatureGateName, GateHistory>> = Object.freeze({
  SidecarContainers: [
    [28, false],
    [29, true],
  ],
  PodReadyToStartContainersCondition: [
    [28, false],
    [29, true],
  ],
  ContainerRestartRules: [
    [34, false],
    [35, true],
  ],
  RestartAllContainersOnContainerExits: [[35, false]],
  PodObservedGenerationTracking: [
    [33, false],
    [34, true],
  ],
  ChangeContainerStatusOnKubeletRestart: [[0, false]],
  KubeletCrashLoopBackOffMax: [
    [32, false],
    [35, true],
  ],
  ReduceDefaultCrashLoopBackOffDecay: [[33, false]],
});

/** A gate's default in a minor: the last entry at or before it; off before the gate existed. */
export function gateDefault(name: FeatureGateName, minor: number): boolean {
  let on = false;
  for (const [since, enabled] of GATE_HISTORY[name]) if (since <= minor) on = enabled;
  return on;
}

/** Every gate lib/kubelet reads, as a kubelet of this minor has it by default. */
export function gatesForMinor(minor: number): Record<FeatureGateName, boolean> {
  const out = {} as Record<FeatureGateName, boolean>;
  for (const name of Object.keys(DEFAULT_FEATURE_GATES) as FeatureGateName[])
    out[name] = gateDefault(name, ruleMinorOf({ major: 1, minor }));
  return out;
}

/**
 * A node's kubelet: the version whose rules apply and its gates (the minor's defaults, with the
 * operator's explicit gates on top). Threaded through the rules that differ per version.
 */
export interface KubeletFeatures {
  version: KubeletVersion;
  gates: FeatureGates;
}

export function kubeletFeatures(
  version: KubeletVersion,
  overrides?: FeatureGates,
): KubeletFeatures {
  const gates: Record<string, boolean> = gatesForMinor(minorOf(version));
  for (const [name, value] of Object.entries(overrides ?? {}))
    if (typeof value === 'boolean' && name in gates) gates[name] = value;
  return { version, gates };
}

/**
 * newCrashLoopBackOff for a node's gates and its configured crashLoopBackOff.maxContainerRestartPeriod
 * (ignored unless KubeletCrashLoopBackOffMax is on, as the kubelet ignores it): the container
 * back-off's first window, maximum and reset. RangeError outside 1 s–300 s, as the kubelet refuses it.
 */
export function crashLoopBackOffFor(
  gates: FeatureGates | undefined,
  maxContainerRestartPeriodMs: number = KUBELET_DEFAULTS.maxContainerRestartPeriodMs,
): { initialMs: number; maxMs: number; resetMs: number } {
  const { min, max } = MAX_CONTAINER_RESTART_PERIOD_RANGE_MS;
  if (
    typeof maxContainerRestartPeriodMs !== 'number' ||
    !Number.isFinite(maxContainerRestartPeriodMs) ||
    maxContainerRestartPeriodMs < min ||
    maxContainerRestartPeriodMs > max
  )
    throw new RangeError(
      `crashLoopBackOff.maxContainerRestartPeriod must be between 1s and 300s, got ${String(maxContainerRestartPeriodMs)} ms`,
    );
  const on = (name: FeatureGateName): boolean => enabled(gates, name);
  let maxMs: number = KUBELET_DEFAULTS.maxContainerBackOffMs;
  let initialMs: number = KUBELET_DEFAULTS.backOffPeriodMs;
  if (on('ReduceDefaultCrashLoopBackOffDecay')) {
    maxMs = REDUCED_CRASH_LOOP_BACKOFF.maxMs;
    initialMs = REDUCED_CRASH_LOOP_BACKOFF.initialMs;
  }
  if (on('KubeletCrashLoopBackOffMax')) {
    maxMs = maxContainerRestartPeriodMs;
    if (maxMs < initialMs) initialMs = maxMs;
  }
  return { initialMs, maxMs, resetMs: KUBELET_DEFAULTS.containerBackOffResetMs };
}

/** reducedInitialCrashLoopBackOff / reducedMaxCrashLoopBackOff (kubelet.go). */
export const REDUCED_CRASH_LOOP_BACKOFF = Object.freeze({ initialMs: 1_000, maxMs: 60_000 });

/** `[NODE=]VERSION`, comma-separated (PODSCOPE_KUBELET_VERSION, repeated --kubelet-version). */
export interface KubeletVersionSettings {
  all?: string;
  byNode: Record<string, string>;
}

/**
 * Parses `1.30` (every node) and `node-a=1.29` (one node), comma-separated; a version Podscope
 * cannot read, or a node given twice, throws with `what` (the variable or flag) in the message.
 */
export function parseKubeletVersionSettings(
  values: string | readonly string[],
  what = 'PODSCOPE_KUBELET_VERSION',
): KubeletVersionSettings {
  const out: KubeletVersionSettings = { byNode: {} };
  const items = (typeof values === 'string' ? [values] : values)
    .flatMap((v) => v.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
  for (const raw of items) {
    const eq = raw.indexOf('=');
    const node = eq >= 0 ? raw.slice(0, eq).trim() : '';
    const version = (eq >= 0 ? raw.slice(eq + 1) : raw).trim();
    if ((eq >= 0 && !node) || !parseKubeletVersion(version))
      throw new Error(
        `${what}: "${raw}" is not VERSION or NODE=VERSION (a kubelet version such as 1.33 or v1.33.2)`,
      );
    if (node ? Object.prototype.hasOwnProperty.call(out.byNode, node) : out.all !== undefined)
      throw new Error(`${what}: ${node || 'every node'} is given twice ("${raw}")`);
    if (node)
      Object.defineProperty(out.byNode, node, {
        value: version,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out.all = version;
  }
  return out;
}

/** The operator's version for a node: its own, else every node's. */
export function configuredKubeletVersion(
  s: KubeletVersionSettings | undefined,
  node: string,
): string | undefined {
  if (!s) return undefined;
  return Object.prototype.hasOwnProperty.call(s.byNode, node) ? s.byNode[node] : s.all;
}

/** Which version's rules Podscope applies to a node, and why that one (the node's panel, snapshots). */
export function explainKubeletVersion(v: KubeletVersion): Explanation {
  const rule = 'status.nodeInfo.kubeletVersion; pkg/features/kube_features.go versioned defaults';
  const inputs = { source: v.source, ...(v.reported ? { reported: v.reported } : {}) };
  if (v.source === 'default')
    return why('node.kubelet.default', { version: v.value }, rule, inputs);
  const reported = v.reported ?? v.value;
  const parsed = parseKubeletVersion(reported);
  const outside =
    parsed !== undefined && minorText(ruleMinorOf(parsed)) !== `${parsed.major}.${parsed.minor}`;
  if (outside)
    return why(
      'node.kubelet.outOfRange',
      {
        version: v.value,
        reported,
        from: v.source === 'api-server' ? 'apiServer' : 'flag',
        oldest: minorText(OLDEST_KUBELET_MINOR),
        newest: minorText(NEWEST_KUBELET_MINOR),
      },
      rule,
      inputs,
    );
  return why(
    v.source === 'api-server' ? 'node.kubelet.apiServer' : 'node.kubelet.flag',
    { version: v.value, reported },
    rule,
    inputs,
  );
}

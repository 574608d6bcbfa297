/**
 * The verbose `info` of ContainerStatus as containerd 1.6's CRI plugin gives it
 * (pkg/cri/server/container_status.go toCRIContainerInfo): one JSON document under the key
 * `info` with sandboxID, pid, removing, snapshotKey, snapshotter, runtimeType, runtimeOptions,
 * config (the CRI ContainerConfig as CreateContainer received it, marshalled the way Go's
 * encoding/json marshals the generated structs: snake_case names, empty fields omitted, enums as
 * numbers, 64-bit integers as numbers) and runtimeSpec (the OCI spec). `crictl inspect` prints
 * it, so the simulator's answer has containerd's layout; what is simulated (there is no runc, no
 * snapshot, no real pid) is filled with the values containerd's defaults would give.
 */
import type { PackageDefinition } from '@grpc/proto-loader';
import { criDefinitions } from '@/server/cri/proto';
import type { ContainerRecord, SandboxRecord } from './model';

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}

const PACKAGE = 'runtime.v1';

function descriptorOf(defs: PackageDefinition, typeName: string): FieldDescriptor[] | undefined {
  const t = defs[`${PACKAGE}.${typeName}`] as { type?: { field?: FieldDescriptor[] } } | undefined;
  return t?.type?.field;
}

function enumNumber(defs: PackageDefinition, typeName: string, value: unknown): number {
  if (typeof value === 'number') return value;
  const t = defs[`${PACKAGE}.${typeName}`] as
    { type?: { value?: { name: string; number: number }[] } } | undefined;
  return t?.type?.value?.find((v) => v.name === value)?.number ?? 0;
}

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === 0 ||
  v === false ||
  (Array.isArray(v) && v.length === 0);

function scalar(type: string, v: unknown): unknown {
  if (/^TYPE_(U?INT64|FIXED64|SFIXED64|SINT64)$/.test(type)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : 0;
  }
  if (type === 'TYPE_BYTES') return Buffer.isBuffer(v) ? v.toString('base64') : v;
  return v;
}

/**
 * A decoded proto message as Go's encoding/json writes the gogo-generated struct: fields with
 * `omitempty` drop zero values; a message that is set stays, even when empty (`{}`).
 */
export function goJson(defs: PackageDefinition, typeName: string, message: unknown): unknown {
  const fields = descriptorOf(defs, typeName);
  if (!fields || typeof message !== 'object' || message === null) return undefined;
  const out: Record<string, unknown> = {};
  const msg = message as Record<string, unknown>;
  for (const f of fields) {
    const v = msg[f.name];
    if (v === undefined || v === null) continue;
    if (f.label === 'LABEL_REPEATED' && !Array.isArray(v) && typeof v === 'object') {
      // a map<string, string>
      if (Object.keys(v).length > 0) out[f.name] = { ...(v as Record<string, unknown>) };
      continue;
    }
    const one = (item: unknown): unknown =>
      f.type === 'TYPE_MESSAGE'
        ? goJson(defs, f.typeName, item)
        : f.type === 'TYPE_ENUM'
          ? enumNumber(defs, f.typeName, item)
          : scalar(f.type, item);
    const value = Array.isArray(v) ? v.map(one) : one(v);
    if (f.type !== 'TYPE_MESSAGE' && isEmpty(value)) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[f.name] = value;
  }
  return out;
}

/** containerd's default capability set for a non-privileged container (oci.WithDefaultSpec). */
const DEFAULT_CAPABILITIES = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
];

/** Where a containerd with default paths keeps a sandbox's files (the simulator has none). */
const CRI_ROOT = '/var/lib/containerd/io.containerd.grpc.v1.cri';
const CRI_STATE = '/run/containerd/io.containerd.grpc.v1.cri';

function mounts(sandboxId: string): unknown[] {
  const m = (destination: string, type: string, source: string, options: string[]) => ({
    destination,
    type,
    source,
    options,
  });
  const bind = (destination: string, source: string) =>
    m(destination, 'bind', source, ['rbind', 'rprivate', 'rw']);
  return [
    m('/proc', 'proc', 'proc', ['nosuid', 'noexec', 'nodev']),
    m('/dev', 'tmpfs', 'tmpfs', ['nosuid', 'strictatime', 'mode=755', 'size=65536k']),
    m('/dev/pts', 'devpts', 'devpts', [
      'nosuid',
      'noexec',
      'newinstance',
      'ptmxmode=0666',
      'mode=0620',
      'gid=5',
    ]),
    m('/dev/mqueue', 'mqueue', 'mqueue', ['nosuid', 'noexec', 'nodev']),
    m('/sys', 'sysfs', 'sysfs', ['nosuid', 'noexec', 'nodev', 'ro']),
    m('/sys/fs/cgroup', 'cgroup', 'cgroup', ['nosuid', 'noexec', 'nodev', 'relatime', 'ro']),
    bind('/etc/hostname', `${CRI_ROOT}/sandboxes/${sandboxId}/hostname`),
    bind('/etc/hosts', `${CRI_ROOT}/sandboxes/${sandboxId}/hosts`),
    bind('/etc/resolv.conf', `${CRI_ROOT}/sandboxes/${sandboxId}/resolv.conf`),
    bind('/dev/shm', `${CRI_STATE}/sandboxes/${sandboxId}/shm`),
  ];
}

/** The simulator's stand-in for a process id: the sandbox's "pause" is 1, containers follow. */
export interface Pids {
  sandbox: number;
  container: number;
}

export function containerInfo(
  c: ContainerRecord,
  sandbox: SandboxRecord | undefined,
  config: unknown,
  pids: Pids,
): Record<string, string> {
  const defs = criDefinitions().packageDefinition;
  const running = c.state === 'CONTAINER_RUNNING';
  const limit = c.memoryLimitBytes;
  const nsPath = (kind: string) => `/proc/${pids.sandbox}/ns/${kind}`;
  const info = {
    sandboxID: c.sandboxId,
    pid: running ? pids.container : 0,
    removing: false,
    snapshotKey: c.id,
    snapshotter: 'overlayfs',
    runtimeType: 'io.containerd.runc.v2',
    runtimeOptions: { binary_name: '/usr/sbin/runc', root: '/run/containerd/runc' },
    config: goJson(defs, 'ContainerConfig', config) ?? {},
    runtimeSpec: {
      ociVersion: '1.0.2-dev',
      process: {
        user: { uid: 0, gid: 0, additionalGids: [0] },
        args: c.argv,
        env: Object.entries(c.env).map(([k, v]) => `${k}=${v}`),
        cwd: '/',
        capabilities: {
          bounding: DEFAULT_CAPABILITIES,
          effective: DEFAULT_CAPABILITIES,
          permitted: DEFAULT_CAPABILITIES,
        },
        oomScoreAdj: Number(c.resources?.oom_score_adj ?? 0),
      },
      root: { path: 'rootfs' },
      mounts: mounts(c.sandboxId),
      annotations: {
        'io.kubernetes.cri.container-name': c.metadata.name,
        'io.kubernetes.cri.container-type': 'container',
        'io.kubernetes.cri.image-name': c.image.repoTags[0] ?? c.imageSpec,
        'io.kubernetes.cri.sandbox-id': c.sandboxId,
        'io.kubernetes.cri.sandbox-name': sandbox?.metadata.name ?? '',
        'io.kubernetes.cri.sandbox-namespace': sandbox?.metadata.namespace ?? '',
        'io.kubernetes.cri.sandbox-uid': sandbox?.metadata.uid ?? '',
      },
      linux: {
        resources: {
          devices: [{ allow: false, access: 'rwm' }],
          memory: limit > 0 ? { limit } : {},
          cpu: {},
        },
        cgroupsPath: `/k8s.io/${c.id}`,
        namespaces: [
          { type: 'pid' },
          { type: 'ipc', path: nsPath('ipc') },
          { type: 'uts', path: nsPath('uts') },
          { type: 'mount' },
          { type: 'network', path: nsPath('net') },
        ],
      },
    },
  };
  return { info: JSON.stringify(info) };
}

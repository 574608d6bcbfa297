/**
 * Reading the manifest of `podscope run -f FILE`: a Pod or a List of Pods (kind List or
 * PodList), YAML — one or several documents — or JSON (JSON is YAML). Every problem is reported
 * with its place: the file, the line and column for a syntax error (the `yaml` package's
 * position), the path of the field for a wrong shape (`items[1].spec.containers[0].image`) and
 * what was expected there. Shapes are checked here for what the driver relies on; the rest of
 * the API server's validation the driver does itself (server/driver/spec/spec.ts), and its errors are
 * reported with the pod's path.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';

export class ManifestError extends Error {
  override name = 'ManifestError';
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(problems.map((p) => `${file}: ${p}`).join('\n'));
  }
}

/** A pod from the manifest, with the path it was found at (for the driver's errors). */
export interface ManifestPod {
  path: string;
  pod: V1Pod;
}

const MAX_BYTES = 4 * 1024 * 1024;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string')
    return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${JSON.stringify(v) ?? ''}`;
}

function checkContainers(path: string, list: unknown, required: boolean, problems: string[]): void {
  if (list === undefined && !required) return;
  if (!Array.isArray(list) || (required && list.length === 0)) {
    problems.push(`${path}: expected a non-empty list of containers, found ${describe(list)}`);
    return;
  }
  list.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(c)) {
      problems.push(`${at}: expected a container object, found ${describe(c)}`);
      return;
    }
    if (typeof c.name !== 'string' || c.name === '')
      problems.push(`${at}.name: expected a non-empty string, found ${describe(c.name)}`);
    if (typeof c.image !== 'string' || c.image.trim() === '')
      problems.push(`${at}.image: expected a non-empty string, found ${describe(c.image)}`);
    for (const field of ['command', 'args'] as const) {
      const v = c[field];
      if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string')))
        problems.push(`${at}.${field}: expected a list of strings, found ${describe(v)}`);
    }
  });
}

function checkPod(path: string, doc: unknown, problems: string[]): V1Pod | undefined {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  if (!isObject(doc)) {
    problems.push(`${path || '(document)'}: expected a Pod object, found ${describe(doc)}`);
    return undefined;
  }
  if (doc.kind !== 'Pod') {
    problems.push(`${at('kind')}: expected "Pod", found ${describe(doc.kind)}`);
    return undefined;
  }
  if (doc.apiVersion !== undefined && doc.apiVersion !== 'v1')
    problems.push(`${at('apiVersion')}: expected "v1", found ${describe(doc.apiVersion)}`);
  const before = problems.length;
  if (!isObject(doc.metadata) || typeof doc.metadata.name !== 'string' || doc.metadata.name === '')
    problems.push(
      `${at('metadata.name')}: expected a non-empty string, found ${describe(isObject(doc.metadata) ? doc.metadata.name : doc.metadata)}`,
    );
  else if (doc.metadata.namespace !== undefined && typeof doc.metadata.namespace !== 'string')
    problems.push(
      `${at('metadata.namespace')}: expected a string, found ${describe(doc.metadata.namespace)}`,
    );
  if (!isObject(doc.spec)) {
    problems.push(`${at('spec')}: expected an object, found ${describe(doc.spec)}`);
  } else {
    checkContainers(at('spec.containers'), doc.spec.containers, true, problems);
    checkContainers(at('spec.initContainers'), doc.spec.initContainers, false, problems);
  }
  return problems.length === before ? doc : undefined;
}

/** The pods of a manifest's text; throws ManifestError listing every problem. */
export function parseManifest(file: string, text: string): ManifestPod[] {
  if (Buffer.byteLength(text) > MAX_BYTES)
    throw new ManifestError(file, [`the file is larger than ${MAX_BYTES / 1024 / 1024} MiB`]);
  const docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const syntax: string[] = [];
  for (const d of list) {
    for (const e of d.errors) {
      const pos = e.linePos?.[0];
      const where = pos ? `line ${pos.line}, column ${pos.col}` : 'syntax';
      syntax.push(`${where}: ${e.message.split('\n')[0] ?? e.message}`);
    }
  }
  if (syntax.length > 0) throw new ManifestError(file, syntax);
  const values = list
    .map((d) => d.toJS({ maxAliasCount: 100 }) as unknown)
    .filter((v) => v !== null && v !== undefined);
  if (values.length === 0)
    throw new ManifestError(file, ['expected a Pod or a List of Pods, found an empty file']);
  const problems: string[] = [];
  const pods: ManifestPod[] = [];
  values.forEach((v, d) => {
    const prefix = values.length > 1 ? `document ${d + 1}: ` : '';
    const local: string[] = [];
    if (isObject(v) && (v.kind === 'List' || v.kind === 'PodList')) {
      if (!Array.isArray(v.items)) {
        local.push(`items: expected a list of Pods, found ${describe(v.items)}`);
      } else {
        v.items.forEach((item, i) => {
          const pod = checkPod(`items[${i}]`, item, local);
          if (pod) pods.push({ path: `${prefix}items[${i}]`, pod });
        });
      }
    } else if (isObject(v) && v.kind !== 'Pod') {
      local.push(`kind: expected "Pod" or "List", found ${describe(v.kind)}`);
    } else {
      const pod = checkPod('', v, local);
      if (pod) pods.push({ path: prefix ? `document ${d + 1}` : '(the Pod)', pod });
    }
    problems.push(...local.map((p) => `${prefix}${p}`));
  });
  if (problems.length > 0) throw new ManifestError(file, problems);
  const seen = new Map<string, string>();
  for (const p of pods) {
    const key = `${p.pod.metadata?.namespace ?? 'default'}/${p.pod.metadata?.name ?? ''}`;
    const other = seen.get(key);
    if (other) problems.push(`${p.path}: pod ${key} is also defined at ${other}`);
    seen.set(key, p.path);
  }
  if (problems.length > 0) throw new ManifestError(file, problems);
  return pods;
}

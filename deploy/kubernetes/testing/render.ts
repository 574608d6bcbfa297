/**
 * The subset of kustomize that deploy/kubernetes uses, so its policy test renders the manifests
 * without kubectl: `resources` (files and folders), `components`, `images` and `patches` as JSON
 * 6902 operations with a target. Anything else in a kustomization is refused, so a new feature
 * cannot slip past the test unrendered. Where kubectl is installed the test also compares this
 * output with `kubectl kustomize`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

interface PatchTarget {
  kind?: string;
  name?: string;
  namespace?: string;
  group?: string;
  version?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  components?: string[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  patches?: { target?: PatchTarget; patch?: string; path?: string }[];
}

const KNOWN_KEYS = new Set(['apiVersion', 'kind', 'resources', 'components', 'images', 'patches']);
const FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export class RenderError extends Error {
  override name = 'RenderError';
}

function parseYamlFile(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' });
  const out: unknown[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new RenderError(`${file}: ${doc.errors[0]?.message ?? ''}`);
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

function loadKustomization(
  dir: string,
  expectedKind: 'Kustomization' | 'Component',
): Kustomization {
  const file = FILE_NAMES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new RenderError(`${dir}: no kustomization.yaml`);
  const [k] = parseYamlFile(file) as Kustomization[];
  if (!k || typeof k !== 'object') throw new RenderError(`${file}: empty`);
  for (const key of Object.keys(k)) {
    if (!KNOWN_KEYS.has(key)) {
      throw new RenderError(
        `${file}: "${key}" is not in the kustomize subset render.ts implements`,
      );
    }
  }
  const kind = k.kind ?? 'Kustomization';
  if (kind !== expectedKind)
    throw new RenderError(`${file}: kind ${kind}, expected ${expectedKind}`);
  return k;
}

function assertObject(value: unknown, where: string): K8sObject {
  const o = value as K8sObject;
  if (!o || typeof o !== 'object' || !o.apiVersion || !o.kind || !o.metadata?.name) {
    throw new RenderError(`${where}: not a Kubernetes object (apiVersion, kind, metadata.name)`);
  }
  return o;
}

export const objectId = (o: K8sObject): string =>
  `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

function groupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

function matches(o: K8sObject, t: PatchTarget): boolean {
  const gv = groupVersion(o.apiVersion);
  return (
    (t.kind === undefined || t.kind === o.kind) &&
    (t.name === undefined || t.name === o.metadata.name) &&
    (t.namespace === undefined || t.namespace === o.metadata.namespace) &&
    (t.group === undefined || t.group === gv.group) &&
    (t.version === undefined || t.version === gv.version)
  );
}

// ---- JSON Patch (RFC 6902) ----------------------------------------------------------------

interface PatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new RenderError(`JSON pointer "${path}" must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function parentOf(doc: unknown, path: string): { parent: Container; key: string } {
  const parts = pointer(path);
  const key = parts.pop();
  if (key === undefined) throw new RenderError('a patch cannot replace the whole object');
  let node: unknown = doc;
  for (const part of parts) {
    node = Array.isArray(node) ? node[Number(part)] : (node as Record<string, unknown>)?.[part];
    if (node === undefined || node === null || typeof node !== 'object') {
      throw new RenderError(`path ${path}: "${part}" does not exist`);
    }
  }
  return { parent: node as Container, key };
}

function getAt(doc: unknown, path: string): unknown {
  const { parent, key } = parentOf(doc, path);
  const value = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (value === undefined) throw new RenderError(`path ${path} does not exist`);
  return value;
}

function arrayIndex(arr: unknown[], key: string, path: string, forAdd: boolean): number {
  if (forAdd && key === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw new RenderError(`path ${path}: "${key}" is not an index`);
  const i = Number(key);
  if (i > arr.length || (!forAdd && i === arr.length)) {
    throw new RenderError(`path ${path}: index ${i} is out of range`);
  }
  return i;
}

export function applyJsonPatch(doc: unknown, ops: PatchOp[]): void {
  for (const op of ops) {
    switch (op.op) {
      case 'add':
      case 'replace': {
        const { parent, key } = parentOf(doc, op.path);
        const value = structuredClone(op.value);
        if (Array.isArray(parent)) {
          const i = arrayIndex(parent, key, op.path, op.op === 'add');
          if (op.op === 'add') parent.splice(i, 0, value);
          else parent[i] = value;
        } else {
          if (op.op === 'replace' && !(key in parent)) {
            throw new RenderError(`replace ${op.path}: nothing there to replace`);
          }
          parent[key] = value;
        }
        break;
      }
      case 'remove': {
        const { parent, key } = parentOf(doc, op.path);
        if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, op.path, false), 1);
        else if (key in parent) delete parent[key];
        else throw new RenderError(`remove ${op.path}: nothing there`);
        break;
      }
      case 'copy':
      case 'move': {
        if (op.from === undefined) throw new RenderError(`${op.op} ${op.path}: no "from"`);
        const value = structuredClone(getAt(doc, op.from));
        if (op.op === 'move') applyJsonPatch(doc, [{ op: 'remove', path: op.from }]);
        applyJsonPatch(doc, [{ op: 'add', path: op.path, value }]);
        break;
      }
      case 'test': {
        if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value)) {
          throw new RenderError(`test ${op.path}: value differs`);
        }
        break;
      }
      default:
        throw new RenderError(`unknown patch op ${JSON.stringify(op)}`);
    }
  }
}

// ---- images --------------------------------------------------------------------------------

/** The repository part of an image reference (no tag, no digest). */
export function imageRepository(image: string): string {
  const noDigest = image.split('@')[0] ?? image;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

/** Every container (init containers included) of a workload's pod template or a Pod. */
export function podSpecOf(o: K8sObject): Record<string, unknown> | undefined {
  const spec = o.spec as Record<string, unknown> | undefined;
  if (!spec) return undefined;
  if (o.kind === 'Pod') return spec;
  if (o.kind === 'CronJob') {
    const job = (spec.jobTemplate as { spec?: { template?: { spec?: Record<string, unknown> } } })
      ?.spec;
    return job?.template?.spec;
  }
  return (spec.template as { spec?: Record<string, unknown> } | undefined)?.spec;
}

function setImages(objects: K8sObject[], images: NonNullable<Kustomization['images']>): void {
  for (const o of objects) {
    const pod = podSpecOf(o);
    if (!pod) continue;
    for (const list of ['initContainers', 'containers']) {
      for (const c of (pod[list] as { image?: string }[] | undefined) ?? []) {
        if (!c.image) continue;
        const rule = images.find((i) => i.name === imageRepository(c.image ?? ''));
        if (!rule) continue;
        const name = rule.newName ?? rule.name;
        const current = c.image.slice(imageRepository(c.image).length);
        c.image = rule.digest
          ? `${name}@${rule.digest}`
          : rule.newTag
            ? `${name}:${rule.newTag}`
            : `${name}${current}`;
      }
    }
  }
}

// ---- the kustomization --------------------------------------------------------------------

function applyTransforms(objects: K8sObject[], k: Kustomization, dir: string): void {
  for (const p of k.patches ?? []) {
    const text = p.patch ?? (p.path ? readFileSync(resolve(dir, p.path), 'utf8') : undefined);
    if (text === undefined) throw new RenderError(`${dir}: a patch without patch or path`);
    const [ops] = parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS() as unknown);
    if (!Array.isArray(ops)) {
      throw new RenderError(
        `${dir}: only JSON 6902 patches (a list of operations) are in the subset render.ts implements`,
      );
    }
    const targets = objects.filter((o) => matches(o, p.target ?? {}));
    if (targets.length === 0) {
      throw new RenderError(`${dir}: patch target ${JSON.stringify(p.target)} matches nothing`);
    }
    for (const o of targets) applyJsonPatch(o, ops as PatchOp[]);
  }
  if (k.images) setImages(objects, k.images);
}

function renderDir(dir: string, kind: 'Kustomization' | 'Component', into: K8sObject[]): void {
  const k = loadKustomization(dir, kind);
  const own: K8sObject[] = kind === 'Component' ? into : [];
  for (const r of k.resources ?? []) {
    const path = resolve(dir, r);
    if (!existsSync(path)) throw new RenderError(`${dir}: resource ${r} does not exist`);
    if (statSync(path).isDirectory()) renderDir(path, 'Kustomization', own);
    else for (const doc of parseYamlFile(path)) own.push(assertObject(doc, path));
  }
  for (const c of k.components ?? []) renderDir(resolve(dir, c), 'Component', own);
  applyTransforms(own, k, dir);
  if (kind === 'Kustomization') {
    for (const o of own) {
      if (into.some((x) => objectId(x) === objectId(o))) {
        throw new RenderError(`${dir}: ${objectId(o)} is declared twice`);
      }
      into.push(o);
    }
  }
}

/** Renders the kustomization in `dir` (plus extra components, as an overlay would add them). */
export function renderKustomization(dir: string, components: string[] = []): K8sObject[] {
  const out: K8sObject[] = [];
  renderDir(resolve(dir), 'Kustomization', out);
  for (const c of components) renderDir(resolve(c), 'Component', out);
  return out;
}

/**
 * What the documentation points at, and whether it is there: markdown links and repository paths
 * written in backticks, resolved inside the repository.
 *
 * - A link (`[text](target)`, `![alt](target)`, `[ref]: target`, `href=`/`src=`) leaves the
 *   repository only as an http(s) URL (or mailto:). Anything else resolves from the file's own
 *   folder to a file or folder in the repository; a `#fragment` on a markdown file names one of
 *   its headings.
 * - A code span that looks like a path — no spaces, a '/', and an extension or a trailing '/' —
 *   names something in the repository: from the root when its first segment is a top-level entry
 *   (`server/engine/api.ts`), else from the file's folder or, written from inside the folder the
 *   prose is about (`timeline/rows.ts`), as the tail of some path in the repository.
 * - No absolute path of a workstation (`/home/…`, `/work/…`) and no absolute markdown document.
 *   Absolute paths of a node or a container (`/run/containerd/containerd.sock`, `/tmp`) and URL
 *   routes (`/api/healthz`) are what they say and are not checked.
 * Fenced code blocks are commands and output, not references: they are skipped.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';

export interface Reference {
  /** 1-based line in the file. */
  line: number;
  kind: 'link' | 'path';
  target: string;
}

export interface Broken extends Reference {
  file: string;
  reason: string;
}

/** What a check needs to know about the repository. */
export interface Repo {
  /** Absolute path of the repository's root. */
  root: string;
  /** Whether a repository-relative path (posix, no leading '/') is a file or a folder. */
  exists(path: string): boolean;
  /** Whether some file or folder's repository-relative path ends with '/' + tail. */
  hasTail(tail: string): boolean;
  /** The heading anchors of a markdown file (repository-relative), GitHub's way. */
  anchors(path: string): ReadonlySet<string>;
}

/**
 * Outputs of the build, the tests and the benches (each in .gitignore): documented, not committed.
 */
export const GENERATED = [
  '.next/',
  '.podscope/',
  'bench/results/',
  'node_modules/',
  'playwright-report/',
  'test-results/',
] as const;

/** Kubernetes' own source paths, cited beside the ports of its rules (not this repository's). */
const UPSTREAM = /^(?:pkg|plugin|staging|cmd)\/|\.go$/;

/** Top-level folders of a machine's file system that hold checkouts, never a node's paths. */
const WORKSTATION = /^\/(?:work|home|Users|root|mnt|workspace|srv)(?:\/|$)/;

const FENCE = /^\s*(```|~~~)/;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const INLINE_LINK =
  /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^()\s>]+(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REF_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
const HTML_ATTR = /\b(?:href|src)\s*=\s*"([^"]+)"/g;

/** Every link and path-like code span of a markdown text, outside fenced code blocks. */
export function referencesIn(markdown: string): Reference[] {
  const out: Reference[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, i) => {
    const line = i + 1;
    const f = FENCE.exec(text);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1] === fence) fence = undefined;
      return;
    }
    if (fence) return;
    const spans: string[] = [];
    const prose = text.replace(CODE_SPAN, (span: string, _ticks: string, code: string) => {
      spans.push(code.trim());
      return ' '.repeat(span.length);
    });
    for (const m of prose.matchAll(INLINE_LINK))
      out.push({ line, kind: 'link', target: m[1] ?? '' });
    const def = REF_DEFINITION.exec(prose);
    if (def?.[1]) out.push({ line, kind: 'link', target: def[1] });
    for (const m of prose.matchAll(HTML_ATTR)) out.push({ line, kind: 'link', target: m[1] ?? '' });
    for (const code of spans)
      if (looksLikePath(code)) out.push({ line, kind: 'path', target: code });
  });
  return out;
}

/** A code span naming a file or folder: one word with a '/', and an extension or a final '/'. */
export function looksLikePath(code: string): boolean {
  if (!code.includes('/') || /\s/.test(code)) return false;
  if (code.includes('://')) return false;
  return /\.[A-Za-z0-9]+$/.test(code) || code.endsWith('/');
}

/** Why a reference in `file` (repository-relative) does not resolve, or undefined when it does. */
export function whyBroken(file: string, ref: Reference, repo: Repo): string | undefined {
  return ref.kind === 'link'
    ? brokenLink(file, ref.target, repo)
    : brokenPath(file, ref.target, repo);
}

function brokenLink(file: string, target: string, repo: Repo): string | undefined {
  if (/^https?:\/\//i.test(target) || /^mailto:/i.test(target)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'links leave the repository only as http(s) URLs';
  if (target.startsWith('/') || target.startsWith('~'))
    return 'an absolute path, not a link inside the repository';
  const [pathPart = '', fragment] = splitFragment(target);
  const path =
    pathPart === '' ? file : inside(posix.join(posix.dirname(file), decodeURIComponent(pathPart)));
  if (path === undefined) return 'resolves outside the repository';
  if (!repo.exists(path)) return `${path} does not exist`;
  if (fragment !== undefined && fragment !== '' && path.endsWith('.md')) {
    if (!repo.anchors(path).has(fragment.toLowerCase()))
      return `${path} has no heading #${fragment}`;
  }
  return undefined;
}

function brokenPath(file: string, code: string, repo: Repo): string | undefined {
  if (code.startsWith('/')) {
    if (WORKSTATION.test(code) || code.startsWith(repo.root.split(sep).join('/') + '/')) {
      return 'an absolute path on a workstation, outside the repository';
    }
    return code.endsWith('.md')
      ? 'an absolute path to a document outside the repository'
      : undefined;
  }
  if (code.startsWith('~')) return 'a path in a home directory, outside the repository';
  // Placeholders, globs, URLs' parts, package names, labels: not paths of this repository.
  if (/[<>*?${}[\]=:@…]/.test(code)) return undefined;
  if (/^[A-Z][A-Z0-9_]*\//.test(code)) return undefined; // PODSCOPE_DATA_DIR/cluster.db
  if (UPSTREAM.test(code)) return undefined;
  const path = code.replace(/^\.\//, '');
  if (GENERATED.some((g) => path === g.slice(0, -1) || path.startsWith(g))) return undefined;
  const fromFile = inside(posix.join(posix.dirname(file), path));
  if (path.startsWith('../')) {
    if (fromFile === undefined) return 'resolves outside the repository';
    return repo.exists(fromFile) ? undefined : `${fromFile} does not exist`;
  }
  const trimmed = path.replace(/\/$/, '');
  const first = trimmed.split('/')[0] ?? '';
  if (repo.exists(first)) return repo.exists(trimmed) ? undefined : `${trimmed} does not exist`;
  if (fromFile !== undefined && repo.exists(fromFile)) return undefined;
  return repo.hasTail(trimmed) ? undefined : `no ${trimmed} anywhere in the repository`;
}

function splitFragment(target: string): [string, string | undefined] {
  const noQuery = target.replace(/\?[^#]*/, '');
  const hash = noQuery.indexOf('#');
  return hash < 0 ? [noQuery, undefined] : [noQuery.slice(0, hash), noQuery.slice(hash + 1)];
}

/** A repository-relative posix path, or undefined when it climbs out of the repository. */
function inside(joined: string): string | undefined {
  const normal = posix.normalize(joined).replace(/\/$/, '');
  if (normal === '..' || normal.startsWith('../') || posix.isAbsolute(normal)) return undefined;
  return normal === '.' ? '' : normal;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown text's headings, numbered as GitHub numbers repeated ones. */
export function anchorsIn(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | undefined;
  for (const text of markdown.split('\n')) {
    const f = FENCE.exec(text);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1] === fence) fence = undefined;
      continue;
    }
    const h = fence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!h) continue;
    const base = anchorOf(h[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '.next', 'test-results', 'playwright-report']);

/** The repository on disk: every file and folder but the skipped outputs, listed once. */
export function repoOnDisk(root: string): Repo {
  const all = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (dir === '' && SKIP_DIRS.has(entry.name)) continue;
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      all.add(rel);
      if (entry.isDirectory()) walk(rel);
    }
  };
  walk('');
  const anchors = new Map<string, Set<string>>();
  return {
    root,
    exists: (path) => path === '' || all.has(path) || existsSync(join(root, path)),
    hasTail: (tail) => {
      for (const p of all) if (p === tail || p.endsWith(`/${tail}`)) return true;
      return false;
    },
    anchors: (path) => {
      let a = anchors.get(path);
      if (!a) {
        const full = join(root, path);
        a = statSync(full).isFile() ? anchorsIn(readFileSync(full, 'utf8')) : new Set();
        anchors.set(path, a);
      }
      return a;
    },
  };
}

/** The documentation checked: README.md, docs/**\/*.md, deploy/**\/*.md (repository-relative). */
export function documentationFiles(root: string): string[] {
  const out = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir: string) => {
    if (!existsSync(join(root, dir))) return;
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  walk('deploy');
  return out.sort();
}

/** Every broken reference of one markdown text, as the file `file` of `repo`. */
export function brokenIn(file: string, markdown: string, repo: Repo): Broken[] {
  const out: Broken[] = [];
  for (const ref of referencesIn(markdown)) {
    const reason = whyBroken(file, ref, repo);
    if (reason) out.push({ ...ref, file, reason });
  }
  return out;
}

export const readDoc = (root: string, file: string): string =>
  readFileSync(join(root, file), 'utf8');

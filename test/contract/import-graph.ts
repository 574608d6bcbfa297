/**
 * The repository's import graph, read with the TypeScript compiler's parser: every static
 * import and re-export, `import()` and `require()` of a repository module, each marked whether
 * only types cross it (`import type`, `export type`, an import whose every name is `type`, an
 * `import('…')` type). Specifiers resolve through the `@/` alias and relative paths to
 * repository files (`.ts`, `.tsx`, `.mts`, `.mjs`, `.js`, `index.*`); packages are left out.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

export interface Edge {
  /** Importing file, repository-relative (posix). */
  from: string;
  /** Imported file, repository-relative (posix). */
  to: string;
  /** As written. */
  specifier: string;
  /** Only types cross this edge: nothing of `to` runs when `from` is loaded. */
  typeOnly: boolean;
  /** 1-based line of the import in `from`. */
  line: number;
}

const SOURCE = /\.(?:ts|tsx|mts|mjs|js)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js'];
const SKIP = new Set(['node_modules', '.next', '.git', 'test-results', 'playwright-report']);

/** Every source file under the given top-level folders, repository-relative, sorted. */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const f of folders) if (existsSync(join(root, f))) walk(f);
  return out.sort();
}

/** A repository-relative module path for a specifier written in `from`, or undefined (a package). */
export function resolveSpecifier(
  root: string,
  from: string,
  specifier: string,
): string | undefined {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('./') || specifier.startsWith('../'))
    base = posix.normalize(posix.join(posix.dirname(from), specifier));
  else return undefined;
  const isFile = (p: string) => existsSync(join(root, p)) && statSync(join(root, p)).isFile();
  if (SOURCE.test(base) && isFile(base)) return base;
  // `./x.js` written for `./x.ts` (ESM style)
  const stem = base.replace(/\.(?:js|mjs)$/, '');
  for (const ext of EXTENSIONS) if (isFile(stem + ext)) return stem + ext;
  for (const ext of EXTENSIONS) if (isFile(`${base}/index${ext}`)) return `${base}/index${ext}`;
  return isFile(base) ? base : undefined; // .json and other assets
}

interface RawImport {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

/** The imports of one source text. */
export function importsOf(fileName: string, text: string): RawImport[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const out: RawImport[] = [];
  const add = (node: ts.Node, spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (!spec || !ts.isStringLiteralLike(spec)) return;
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    out.push({ specifier: spec.text, typeOnly, line });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      let typeOnly = false;
      if (clause) {
        const named = clause.namedBindings;
        typeOnly =
          clause.isTypeOnly ||
          (!clause.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly));
      }
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((e) => e.isTypeOnly));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isImportEqualsDeclaration(node)) {
      const ref = node.moduleReference;
      if (ts.isExternalModuleReference(ref)) add(node, ref.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) add(node, arg.literal, true);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(callee) && callee.text === 'require';
      if ((dynamic || required) && node.arguments.length > 0) add(node, node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every edge from the source files under `folders` to a repository module. */
export function importGraph(root: string, folders: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  for (const from of sourceFiles(root, folders)) {
    for (const imp of importsOf(from, readFileSync(join(root, from), 'utf8'))) {
      const to = resolveSpecifier(root, from, imp.specifier);
      if (to !== undefined) edges.push({ from, to, ...imp });
    }
  }
  return edges;
}

/** The folder a file belongs to at a depth: `server/engine/x.ts` → `server/engine` (depth 2). */
export function folderOf(path: string, depth: number): string {
  const parts = path.split('/');
  return parts.length > depth ? parts.slice(0, depth).join('/') : parts.slice(0, -1).join('/');
}

/**
 * The cycles among folders: the strongly connected components (Tarjan) of the folder graph
 * with more than one folder, each sorted, in sorted order.
 */
export function folderCycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)?.add(to);
  }
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    order.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, order.get(w) ?? 0));
      }
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!order.has(v)) connect(v);
  return out.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

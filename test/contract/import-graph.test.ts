/**
 * The import graph has no upward import and no circle between server/'s folders
 * (docs/architecture.md, "Folders"):
 * - lib/ is pure: it imports only lib/ (and the message catalogues in messages/);
 * - server/ imports neither the browser's code (components/, trpc/) nor the routes (app/);
 * - components/ imports nothing from server/, not even types (what the browser receives is typed
 *   from the router through trpc/client.ts, the one file of trpc/ that names a server type);
 * - no cycle among server/'s top-level folders (each root file, e.g. server/config.ts, counts as
 *   one), type-only imports included — a folder that needs another's types depends on it.
 *   Tests and test support (`*.test.ts`, `testing/`) wire folders together by design and are
 *   left out.
 * Unlike the lint rules, this reads every kind of import (dynamic import(), require, re-exports,
 * `import('…')` types) and relative paths as well as the `@/` alias.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderCycles, importGraph, importsOf, type Edge } from './import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));
const edges = importGraph(root, ['lib', 'server', 'components', 'app', 'trpc']);
const top = (path: string) => path.split('/')[0] ?? '';
const shown = (list: readonly Edge[]) =>
  list.map((e) => `${e.from}:${e.line} → ${e.to}${e.typeOnly ? ' (type)' : ''}`);

/**
 * Edges between server/ folders that close a cycle today, each with why it is there. The cycle
 * check runs without them; an edge of this kind that is not listed fails it. Remove an entry
 * once its imports are gone.
 */
const ALLOWED_SERVER_EDGES: Record<string, string> = {
  // server/agent/config.ts parses the agent's flags with the CLI's parser (server/cli/command.ts,
  // lib/args.ts) while server/cli/commands/agent.ts runs the agent: issue 30 item 4 gives the
  // agent a parser of its own.
  'server/agent → server/cli': 'the agent borrows the CLI parser',
  // server/config.ts parses PODSCOPE_AUTH_TRUSTED_PROXIES with
  // server/security/kube/proxy-identity.ts, while security reads the configuration.
  'server/config → server/security': 'the configuration borrows the trusted-proxy parser',
  // server/config-env.ts (the environment's part of the configuration) names config.ts's types,
  // and config.ts reads it: one module in two files.
  'server/config-env → server/config': 'one module in two files',
  // server/security/request.ts types its request check with the runtime (server/runtime),
  // which composes the tRPC context, which reads security's viewer (issue 30 item 4: the
  // composition root passes the parts through the context).
  'server/security → server/runtime': 'request.ts names the Runtime type',
};

const isTestCode = (path: string) =>
  /\.test\.tsx?$/.test(path) || /(^|\/)testing(\/|\.tsx?$)/.test(path);
/** server/engine/x.ts → server/engine; server/config.ts → server/config. */
const serverNode = (path: string) => {
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : path.replace(/\.(?:ts|tsx|mts|mjs)$/, '');
};

/** Each rule: the edges that break it. */
const rules = {
  lib: (list: readonly Edge[]) =>
    list.filter((e) => top(e.from) === 'lib' && top(e.to) !== 'lib' && top(e.to) !== 'messages'),
  server: (list: readonly Edge[]) =>
    list.filter(
      (e) => top(e.from) === 'server' && ['components', 'trpc', 'app'].includes(top(e.to)),
    ),
  components: (list: readonly Edge[]) =>
    list.filter((e) => top(e.from) === 'components' && top(e.to) === 'server'),
  trpc: (list: readonly Edge[]) =>
    list.filter(
      (e) =>
        top(e.from) === 'trpc' &&
        top(e.to) === 'server' &&
        !(e.from === 'trpc/client.ts' && e.typeOnly),
    ),
};

/** The cycles among server/'s folders, with the imports inside each, allowed edges left out. */
function serverCycles(list: readonly Edge[], allowed: Record<string, string>) {
  const kept = list
    .filter((e) => top(e.from) === 'server' && top(e.to) === 'server')
    .filter((e) => !isTestCode(e.from) && !isTestCode(e.to))
    .map((e) => ({ from: serverNode(e.from), to: serverNode(e.to), edge: e }))
    .filter((e) => e.from !== e.to && !(`${e.from} → ${e.to}` in allowed));
  return folderCycles(kept).map((cycle) => {
    const inside = new Set(cycle);
    const closing = kept.filter((e) => inside.has(e.from) && inside.has(e.to));
    return { folders: cycle, imports: shown(closing.map((e) => e.edge)) };
  });
}

describe('import graph', () => {
  it('reads the tree', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((e) => e.from.startsWith('lib/') && e.to.startsWith('lib/'))).toBe(true);
  });

  it('lib/ imports only lib/ (and the message catalogues)', () => {
    expect(shown(rules.lib(edges))).toEqual([]);
  });

  it('server/ imports neither components/, trpc/ nor app/', () => {
    expect(shown(rules.server(edges))).toEqual([]);
  });

  it('components/ imports nothing from server/, not even types', () => {
    expect(shown(rules.components(edges))).toEqual([]);
  });

  it('trpc/ names server/ only in client.ts, and only its types', () => {
    expect(shown(rules.trpc(edges))).toEqual([]);
  });

  it("no cycle among server/'s folders", () => {
    expect(serverCycles(edges, ALLOWED_SERVER_EDGES)).toEqual([]);
  });
});

describe('the rules', () => {
  const edge = (from: string, to: string, typeOnly = false): Edge => ({
    from,
    to,
    typeOnly,
    specifier: to,
    line: 1,
  });

  it('fail on an upward import', () => {
    expect(rules.lib([edge('lib/a.ts', 'server/b.ts'), edge('lib/a.ts', 'lib/c.ts')])).toHaveLength(
      1,
    );
    expect(rules.lib([edge('lib/i18n/m.ts', 'messages/en/ui.json')])).toEqual([]);
    expect(rules.server([edge('server/x/a.ts', 'components/b.tsx', true)])).toHaveLength(1);
    expect(rules.components([edge('components/a.tsx', 'server/b.ts', true)])).toHaveLength(1);
    expect(rules.trpc([edge('trpc/client.ts', 'server/trpc/root.ts', true)])).toEqual([]);
    expect(rules.trpc([edge('trpc/react.tsx', 'server/trpc/root.ts', true)])).toHaveLength(1);
  });

  it('fail on a cycle between server folders, types included, tests left out', () => {
    const cycle = [
      edge('server/cluster/a.ts', 'server/engine/b.ts'),
      edge('server/engine/c.ts', 'server/cluster/d.ts', true),
    ];
    expect(serverCycles(cycle, {})).toEqual([
      {
        folders: ['server/cluster', 'server/engine'],
        imports: [
          'server/cluster/a.ts:1 → server/engine/b.ts',
          'server/engine/c.ts:1 → server/cluster/d.ts (type)',
        ],
      },
    ]);
    expect(serverCycles(cycle, { 'server/engine → server/cluster': 'why' })).toEqual([]);
    const viaTests = [
      edge('server/cri/client.int.test.ts', 'server/sim/index.ts'),
      edge('server/sim/testing/x.ts', 'server/cri/client.ts'),
      edge('server/sim/node.ts', 'server/cri/types.ts'),
    ];
    expect(serverCycles(viaTests, {})).toEqual([]);
  });
});

describe('the graph reader', () => {
  it('marks type-only imports and finds every kind of import', () => {
    const src = [
      "import type { A } from '@/server/a';",
      "import { type B, type C } from '../b';",
      "import { type D, e } from './d';",
      "import f from '@/lib/f';",
      "export { g } from './g';",
      "export type { H } from './h';",
      "import './side-effect';",
      'const m = await import("./lazy");',
      "const r = require('./cjs');",
      "type T = import('./types').T;",
      "import x = require('./eq');",
      "import * as ns from 'react';",
    ].join('\n');
    expect(importsOf('x.ts', src).map((i) => [i.specifier, i.typeOnly, i.line])).toEqual([
      ['@/server/a', true, 1],
      ['../b', true, 2],
      ['./d', false, 3],
      ['@/lib/f', false, 4],
      ['./g', false, 5],
      ['./h', true, 6],
      ['./side-effect', false, 7],
      ['./lazy', false, 8],
      ['./cjs', false, 9],
      ['./types', true, 10],
      ['./eq', false, 11],
      ['react', false, 12],
    ]);
  });

  it('finds a cycle among folders, and none in a line', () => {
    const e = (from: string, to: string) => ({ from, to });
    expect(folderCycles([e('a', 'b'), e('b', 'c')])).toEqual([]);
    expect(folderCycles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd'), e('d', 'd')])).toEqual(
      [['a', 'b', 'c']],
    );
    expect(folderCycles([e('x', 'y'), e('y', 'x'), e('p', 'q'), e('q', 'p')])).toEqual([
      ['p', 'q'],
      ['x', 'y'],
    ]);
  });
});

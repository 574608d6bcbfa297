/**
 * Every link and repository path in README.md, docs/ and deploy/ resolves inside the repository
 * (rules: docs-links.ts); and the check does fail on what it is meant to catch.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  anchorsIn,
  brokenIn,
  documentationFiles,
  looksLikePath,
  readDoc,
  repoOnDisk,
  type Repo,
} from './docs-links';

const root = fileURLToPath(new URL('../..', import.meta.url));
const repo = repoOnDisk(root);

describe('documentation links', () => {
  const files = documentationFiles(root);

  it('checks the README, docs/ and deploy/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
    expect(files).toContain('deploy/README.md');
  });

  it.each(files)('%s: every link and path resolves inside the repository', (file) => {
    const broken = brokenIn(file, readDoc(root, file), repo).map(
      (b) => `${b.file}:${b.line} ${b.kind} ${b.target} — ${b.reason}`,
    );
    expect(broken).toEqual([]);
  });
});

describe('the check', () => {
  /** A repository of a few files, as the fixtures name them. */
  const fake: Repo = {
    root: '/work/repo',
    exists: (p) =>
      ['', 'README.md', 'docs', 'docs/a.md', 'server', 'server/x', 'server/x/y.ts'].includes(p),
    hasTail: (t) => ['server/x/y.ts', 'server/x'].some((p) => p === t || p.endsWith(`/${t}`)),
    anchors: (p) => (p === 'docs/a.md' ? new Set(['quick-start']) : new Set()),
  };
  const reasons = (file: string, md: string) => brokenIn(file, md, fake).map((b) => b.target);

  it('passes what resolves', () => {
    const md = [
      'See [a](docs/a.md), [its start](docs/a.md#quick-start), [web](https://example.com/x.md),',
      '`server/x/y.ts`, `server/x/`, `x/y.ts` (a tail), `/api/healthz`, `/run/containerd/c.sock`,',
      '`pkg/kubelet/kubelet.go`, `test-results/soak.json`, `PODSCOPE_DATA_DIR/cluster.db`, `a.b`.',
      '```sh',
      'cat missing/file.ts [x](gone.md)',
      '```',
    ].join('\n');
    expect(reasons('README.md', md)).toEqual([]);
    expect(reasons('docs/b.md', '[back](../README.md) and [a](a.md#quick-start)')).toEqual([]);
  });

  it('fails a broken link, a missing path, an absolute path and a link out of the repository', () => {
    const md = [
      '[gone](docs/gone.md) and ![img](docs/missing.png)',
      '[anchor](docs/a.md#no-such-heading)',
      '`server/store/` and `server/timelines/postgres.ts`',
      'sources: `/work/shared/design/CLUSTER.md`, [abs](/etc/passwd), [file](file:///tmp/x.md)',
      '[up](../outside.md) `nowhere/at/all.ts`',
      '[ref]: docs/nothing.md',
    ].join('\n');
    expect(reasons('README.md', md).sort()).toEqual(
      [
        'docs/gone.md',
        'docs/missing.png',
        'docs/a.md#no-such-heading',
        'server/store/',
        'server/timelines/postgres.ts',
        '/work/shared/design/CLUSTER.md',
        '/etc/passwd',
        'file:///tmp/x.md',
        '../outside.md',
        'nowhere/at/all.ts',
        'docs/nothing.md',
      ].sort(),
    );
  });

  it('says which line and why', () => {
    const [b] = brokenIn('docs/b.md', 'ok\n[x](nope.md)', fake);
    expect(b).toMatchObject({
      file: 'docs/b.md',
      line: 2,
      kind: 'link',
      reason: 'docs/nope.md does not exist',
    });
  });

  it('takes a path-like code span only when it has a / and an extension or a final /', () => {
    expect(looksLikePath('server/engine/api.ts')).toBe(true);
    expect(looksLikePath('server/engine/')).toBe(true);
    expect(looksLikePath('server/engine/workers')).toBe(false);
    expect(looksLikePath('npm run bench')).toBe(false);
    expect(looksLikePath('https://example.com/a.md')).toBe(false);
  });

  it('numbers repeated headings as GitHub does', () => {
    expect([
      ...anchorsIn('# Podscope\n## Quick start\n## Soak\n## Soak\n```\n# not a heading\n```'),
    ]).toEqual(['podscope', 'quick-start', 'soak', 'soak-1']);
    expect(anchorsIn('## The `podscope` CLI, and why').has('the-podscope-cli-and-why')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifest } from './manifest';

const pod = (name: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
    - name: app
      image: podscope.local/busybox:1${extra}
`;

function problems(text: string): string[] {
  try {
    parseManifest('pods.yaml', text);
  } catch (err) {
    if (err instanceof ManifestError) return [...err.problems];
    throw err;
  }
  throw new Error('no error');
}

describe('parseManifest', () => {
  it('reads a Pod, several YAML documents, a List, and JSON', () => {
    expect(parseManifest('a.yaml', pod('web')).map((p) => p.pod.metadata?.name)).toEqual(['web']);
    expect(
      parseManifest('a.yaml', `${pod('a')}---\n${pod('b')}`).map((p) => [
        p.path,
        p.pod.metadata?.name,
      ]),
    ).toEqual([
      ['document 1', 'a'],
      ['document 2', 'b'],
    ]);
    const list = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        { kind: 'Pod', metadata: { name: 'y' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      ],
    });
    expect(parseManifest('l.json', list).map((p) => p.path)).toEqual(['items[0]', 'items[1]']);
  });

  it('locates syntax errors by line and column', () => {
    const [p] = problems('kind: Pod\nmetadata: [oops\nspec: {}\n');
    expect(p).toMatch(/^line \d+, column \d+: /);
  });

  it('names the path and what was expected', () => {
    expect(problems('kind: Deployment\n')).toEqual([
      'kind: expected "Pod" or "List", found the string "Deployment"',
    ]);
    expect(
      problems(
        JSON.stringify({
          kind: 'List',
          items: [
            {
              kind: 'Pod',
              metadata: { name: 'ok' },
              spec: { containers: [{ name: 'a', image: 'i' }] },
            },
            {
              kind: 'Pod',
              metadata: {},
              spec: { containers: [{ name: 'a', image: 7, command: 'sh' }] },
            },
          ],
        }),
      ),
    ).toEqual([
      'items[1].metadata.name: expected a non-empty string, found nothing',
      'items[1].spec.containers[0].image: expected a non-empty string, found number 7',
      'items[1].spec.containers[0].command: expected a list of strings, found the string "sh"',
    ]);
    expect(problems('kind: Pod\nmetadata: { name: a }\nspec: { containers: [] }\n')).toEqual([
      'spec.containers: expected a non-empty list of containers, found a list',
    ]);
    expect(problems('')).toEqual(['expected a Pod or a List of Pods, found an empty file']);
    expect(problems(`${pod('a')}---\n${pod('a')}`)).toEqual([
      'document 2: pod default/a is also defined at document 1',
    ]);
    expect(problems('kind: Pod\nkind: Pod\n')[0]).toMatch(
      /^line 2, column 1: Map keys must be unique/,
    );
  });
});

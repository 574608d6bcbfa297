import { describe, expect, it } from 'vitest';
import { expandWord, parseScript, ShellSyntaxError } from './shell';
import type { Node } from './shell';

/** A compact rendering of the AST, so expectations stay readable. */
function show(node: Node): string {
  const words = (n: Extract<Node, { t: 'simple' }>) =>
    n.words.map((w) => expandWord(w, (p) => `<${p}>`)).join(' ') +
    n.redirects.map((r) => ` ${r.op}${expandWord(r.target, () => '')}`).join('');
  switch (node.t) {
    case 'simple':
      return words(node);
    case 'seq':
      return node.items.map((i) => show(i.node) + (i.background ? ' &' : '')).join('; ');
    case 'and':
      return `(${show(node.left)} && ${show(node.right)})`;
    case 'or':
      return `(${show(node.left)} || ${show(node.right)})`;
    case 'not':
      return `!(${show(node.body)})`;
    case 'pipe':
      return node.commands.map(show).join(' | ');
    case 'group':
      return `{${show(node.body)}}`;
    case 'if':
      return `if(${show(node.cond)})then(${show(node.then)})${node.else ? `else(${show(node.else)})` : ''}`;
    case 'loop':
      return `${node.until ? 'until' : 'while'}(${show(node.cond)})do(${show(node.body)})`;
  }
}

describe('parseScript', () => {
  it.each([
    ['sleep 2; exit 3', 'sleep 2; exit 3'],
    ["trap 'exit 143' TERM; sleep 3600", 'trap exit 143 TERM; sleep 3600'],
    [
      'sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M',
      'sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M',
    ],
    ['a && b || c', '((a && b) || c)'],
    ['! false', '!(false)'],
    ['sleep inf & wait', 'sleep inf &; wait'],
    ['while true; do sleep 1; done', 'while(true)do(sleep 1)'],
    ['until [ -f /tmp/x ]; do sleep 1; done', 'until([ -f /tmp/x ])do(sleep 1)'],
    [
      'if true; then exit 1; elif false; then :; else exit 2; fi',
      'if(true)then(exit 1)else(if(false)then(:)else(exit 2))',
    ],
    ['{ echo a; echo b; }', '{echo a; echo b}'],
    ['(exit 4)', '{exit 4}'],
    ['yes | head -n1', 'yes | head -n1'],
    ['echo ok > /tmp/ready 2>&1', 'echo ok >/tmp/ready'],
    ['echo "a b" \'c d\' e\\ f', 'echo a b c d e f'],
    ['echo $HOME ${X} ${Y:-dflt} $?', 'echo <HOME> <X> <Y> <?>'],
    ['sleep 1 # comment\nexit 0', 'sleep 1; exit 0'],
  ])('%s', (src, expected) => {
    expect(show(parseScript(src))).toBe(expected);
  });

  it('expands ${NAME:-word} with the fallback only when unset or empty', () => {
    const node = parseScript('exit "${CODE:-7}"');
    if (node.t !== 'simple') throw new Error('expected a simple command');
    const word = node.words[1];
    if (!word) throw new Error('missing word');
    expect(expandWord(word, () => undefined)).toBe('7');
    expect(expandWord(word, () => '')).toBe('7');
    expect(expandWord(word, () => '3')).toBe('3');
  });

  it.each([
    'if true; then',
    'while true; do sleep 1',
    "echo 'open",
    'echo "open',
    '(exit 1',
    ';',
    'a && ',
    'echo `date`',
    'echo ${}',
  ])('rejects %s', (src) => {
    expect(() => parseScript(src)).toThrow(ShellSyntaxError);
  });
});

/**
 * Property tests: whatever is done to a valid file, parsing either accepts it — and then it
 * replays without error and re-serializes to a stable form — or refuses it with a located
 * TimelineFileError. Nothing else may come out (safeParseTimeline rethrows any other exception,
 * which fails the property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '../codec';
import { safeParseTimeline, parseTimelineText } from './parse';
import { stateAtTime, timelineTimes } from './replay';
import { serializeTimelineFile } from './serialize';
import { sampleFile } from './testing';
import { findJsonSyntaxError } from './text';
import type { TimelineFile } from './types';

const sample = sampleFile({ cycles: 2 });
const text = serializeTimelineFile(sample);
const originalEnd = encode(stateAtTime(sample, sample.to));

type Path = (string | number)[];

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}
const allPaths = paths(JSON.parse(text)).filter((p) => p.length > 0);

function parentOf(
  doc: unknown,
  path: Path,
): { parent: Record<string | number, unknown>; key: string | number } | undefined {
  let node = doc as Record<string | number, unknown>;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  const key = path[path.length - 1];
  return key === undefined ? undefined : { parent: node, key };
}

const hostile = fc.constantFrom(
  '',
  '<script>alert(1)</script>',
  '\u0000\u0007\u001b[31m',
  '\u202egnp.exe',
  'x'.repeat(300),
  '2024-05-01T12:00:00Z',
  '__proto__',
  'constructor',
  'toString',
);
const nearbyNumber = fc.constantFrom(-1, 0, 1, 0.5, -0, 2 ** 53, 9e15, 1e308);

const structural = fc.record({
  at: fc.nat({ max: allPaths.length - 1 }),
  op: fc.constantFrom('replace', 'delete', 'hostile', 'number', 'swapEvents', 'duplicateEvent'),
  value: fc.jsonValue({ maxDepth: 3 }),
  text: hostile,
  number: nearbyNumber,
  other: fc.nat(),
});

function applyStructural(m: {
  at: number;
  op: string;
  value: unknown;
  text: string;
  number: number;
  other: number;
}): string {
  const doc = JSON.parse(text) as { events: unknown[] };
  const path = allPaths[m.at] ?? ['title'];
  const slot = parentOf(doc, path);
  if (!slot) return text;
  const { parent, key } = slot;
  switch (m.op) {
    case 'replace':
      parent[key] = m.value;
      break;
    case 'delete':
      if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
      else delete parent[key];
      break;
    case 'hostile':
      parent[key] = m.text;
      break;
    case 'number':
      parent[key] = m.number;
      break;
    case 'swapEvents': {
      const i = m.at % doc.events.length;
      const j = m.other % doc.events.length;
      [doc.events[i], doc.events[j]] = [doc.events[j], doc.events[i]];
      break;
    }
    case 'duplicateEvent': {
      const i = m.other % doc.events.length;
      doc.events.splice(i, 0, doc.events[i]);
      break;
    }
  }
  return JSON.stringify(doc);
}

const textual = fc.record({
  at: fc.nat({ max: text.length - 1 }),
  op: fc.constantFrom('delete', 'insert', 'replace', 'truncate'),
  length: fc.integer({ min: 1, max: 20 }),
  char: fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    '0',
    '-',
    'e',
    'n',
    ' ',
    '\n',
    'é',
    '\u0000',
    '\ud800',
  ),
});

function applyTextual(m: { at: number; op: string; length: number; char: string }): string {
  switch (m.op) {
    case 'delete':
      return text.slice(0, m.at) + text.slice(m.at + m.length);
    case 'insert':
      return text.slice(0, m.at) + m.char.repeat(m.length) + text.slice(m.at);
    case 'replace':
      return text.slice(0, m.at) + m.char + text.slice(m.at + 1);
    default:
      return text.slice(0, m.at);
  }
}

/** The property: accepted → replays and round-trips stably; refused → a located error. */
function check(mutated: string, touchesReplay: boolean): void {
  const result = safeParseTimeline(mutated);
  if (!result.ok) {
    expect(result.error.issues.length).toBeGreaterThan(0);
    for (const issue of result.error.issues) {
      expect(issue.path.length).toBeGreaterThan(0);
      expect(issue.message.length).toBeGreaterThan(0);
    }
    return;
  }
  const file: TimelineFile = result.file;
  const times = timelineTimes(file);
  for (const t of [file.from, times[Math.floor(times.length / 2)] ?? file.to, file.to])
    stateAtTime(file, t);
  const once = serializeTimelineFile(file);
  const again = parseTimelineText(once);
  expect(serializeTimelineFile(again)).toBe(once);
  expect(encode(stateAtTime(again, file.to))).toBe(encode(stateAtTime(file, file.to)));
  if (!touchesReplay) expect(encode(stateAtTime(file, file.to))).toBe(originalEnd);
}

describe('random mutations of a valid file', () => {
  it('structural mutations are accepted and replay, or are refused with located errors', () => {
    fc.assert(
      fc.property(structural, (m) => {
        const path = allPaths[m.at] ?? [];
        const touches =
          path[0] === 'initialState' ||
          path[0] === 'events' ||
          m.op === 'swapEvents' ||
          m.op === 'duplicateEvent';
        check(applyStructural(m), touches);
      }),
      { numRuns: 600 },
    );
  });

  it('textual mutations are accepted and replay, or are refused with located errors', () => {
    fc.assert(
      fc.property(textual, (m) => check(applyTextual(m), true)),
      { numRuns: 600 },
    );
  });

  it('some mutations are accepted and some refused (the property is not vacuous)', () => {
    const outcomes = fc
      .sample(structural, { numRuns: 300, seed: 42 })
      .map((m) => safeParseTimeline(applyStructural(m)).ok);
    expect(outcomes.some((ok) => ok)).toBe(true);
    expect(outcomes.some((ok) => !ok)).toBe(true);
  });
});

describe('the JSON syntax scan', () => {
  it('agrees with JSON.parse on valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const json = JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null';
        expect(findJsonSyntaxError(json)).toBeUndefined();
      }),
    );
  });

  it('agrees with JSON.parse on broken JSON', () => {
    fc.assert(
      fc.property(textual, (m) => {
        const broken = applyTextual(m);
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        const problem = findJsonSyntaxError(broken);
        expect(problem === undefined).toBe(valid);
        if (problem) expect(problem.index).toBeLessThanOrEqual(broken.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('handles any depth without recursion', () => {
    expect(findJsonSyntaxError('['.repeat(200_000) + ']'.repeat(200_000))).toBeUndefined();
    expect(findJsonSyntaxError('['.repeat(200_000))?.message).toBe(
      'unexpected end of the file (200000 unclosed brackets)',
    );
  });
});

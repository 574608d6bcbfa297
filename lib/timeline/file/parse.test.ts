import { describe, expect, it } from 'vitest';
import { TimelineFileError, type FileErrorCode } from './errors';
import { parseTimelineBytes, parseTimelineText, safeParseTimeline } from './parse';
import { stateAtTime, timelineTimes } from './replay';
import { serializeTimelineFile } from './serialize';
import { sampleFile } from './testing';
import type { TimelineFile } from './types';

const sample = sampleFile();
const text = serializeTimelineFile(sample);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
type Mutation = (d: Obj) => void;

/** The sample as a plain JSON document, to break in one place. */
const doc = (): Obj => JSON.parse(text) as Obj;

/** The container and key a dotted path ends in (`events.1.status`). */
function slot(d: Obj, path: string): { parent: Obj | Json[]; key: string } {
  const parts = path.split('.');
  let node: Json = d;
  for (const part of parts.slice(0, -1)) node = (node as Obj)[part] ?? null;
  return { parent: node as Obj, key: parts[parts.length - 1] ?? '' };
}
const set =
  (path: string, value: Json): Mutation =>
  (d) => {
    const { parent, key } = slot(d, path);
    (parent as Obj)[key] = value;
  };
const del =
  (path: string): Mutation =>
  (d) => {
    const { parent, key } = slot(d, path);
    delete (parent as Obj)[key];
  };
const swap =
  (a: string, b: string): Mutation =>
  (d) => {
    const x = slot(d, a);
    const y = slot(d, b);
    const held = (x.parent as Obj)[x.key] ?? null;
    (x.parent as Obj)[x.key] = (y.parent as Obj)[y.key] ?? null;
    (y.parent as Obj)[y.key] = held;
  };
const all =
  (...steps: Mutation[]): Mutation =>
  (d) => {
    for (const step of steps) step(d);
  };

function refusal(input: string | Uint8Array, limits = {}): TimelineFileError {
  try {
    if (typeof input === 'string') parseTimelineText(input, { limits });
    else parseTimelineBytes(input, { limits });
  } catch (err) {
    if (err instanceof TimelineFileError) return err;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('timeline file round trip', () => {
  it('accepts what serialize writes and gives back the same file, Dates and all', () => {
    const parsed = parseTimelineText(text);
    expect(parsed).toEqual(sample);
    const status = parsed.events.find((e) => e.kind === 'container')?.status;
    expect(status?.state?.running?.startedAt).toBeInstanceOf(Date);
    expect(serializeTimelineFile(parsed)).toBe(text);
  });

  it('writes the header first and one event per line', () => {
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^\{"format":"podscope.timeline","version":1,"title":"web-1 crash loop"/,
    );
    expect(lines[1]).toMatch(/^"initialState":\{"seq":5,/);
    expect(lines[2]).toBe('"events":[');
    expect(lines).toHaveLength(3 + sample.events.length + 1);
    expect(lines.at(-1)).toBe(']}');
  });

  it('replays state for state like the original events', () => {
    const parsed = parseTimelineText(text);
    const times = [...new Set([sample.from, ...timelineTimes(sample), sample.to])];
    for (const t of times) expect(stateAtTime(parsed, t)).toEqual(stateAtTime(sample, t));
    expect(stateAtTime(parsed, sample.from)).toEqual(sample.initialState);
  });

  it('accepts a BOM, an empty event list and bytes', () => {
    const empty: TimelineFile = { ...sample, events: [], to: sample.from };
    const emptyText = serializeTimelineFile({ ...empty, annotations: [] });
    expect(parseTimelineText(`\ufeff${emptyText}`).events).toEqual([]);
    expect(parseTimelineBytes(new TextEncoder().encode(text))).toEqual(sample);
  });

  it('keeps hostile strings exactly, as data', () => {
    const d = doc();
    const hostile = '<script>alert(1)</script>\u0007\u202e';
    set('title', hostile)(d);
    set('annotations.0.text', '<img src=x onerror=alert(1)>')(d);
    set('initialState.nodes.node-a.pods.uid-web.name', hostile)(d);
    set('events.1.status.state', { waiting: { reason: 'X', message: '<svg onload=alert(1)>' } })(d);
    const parsed = parseTimelineText(JSON.stringify(d));
    expect(parsed.title).toBe(hostile);
    expect(parsed.initialState.nodes['node-a']?.pods['uid-web']?.name).toBe(hostile);
    expect(parsed.annotations[0]?.text).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('timeline file refusals are located', () => {
  const initialPod = (doc().initialState as Obj).nodes as Obj;
  const webPod = ((initialPod['node-a'] as Obj).pods as Obj)['uid-web'];
  const nested = (levels: number): Json => (levels === 0 ? {} : { x: nested(levels - 1) });
  const last = sample.events.length - 1;
  const cases: [string, Mutation, FileErrorCode, string, RegExp][] = [
    [
      'a wrong type deep in an event',
      set('events.1.status.state', 'x'),
      'INVALID',
      'events[1].status.state',
      /expected object, received string/,
    ],
    [
      'an unknown event kind',
      set('events.2.kind', 'magic'),
      'INVALID',
      'events[2].kind',
      /unknown kind "magic"; expected one of "cri", "container"/,
    ],
    [
      'an unknown CRI event type',
      set('events.0.type', 'ContainerExploded'),
      'INVALID',
      'events[0].type',
      /"ContainerExploded" is not allowed/,
    ],
    ['an unknown top-level field', set('extra', 1), 'INVALID', 'extra', /unknown field/],
    [
      'a missing initial state',
      del('initialState'),
      'INVALID',
      'initialState',
      /^missing; expected object$/,
    ],
    ['an empty title', set('title', '  '), 'INVALID', 'title', /needs a title/],
    [
      'a title over 200 characters',
      set('title', 'x'.repeat(201)),
      'INVALID',
      'title',
      /longer than 200 characters/,
    ],
    [
      'a huge pod name',
      set('initialState.nodes.node-a.pods.uid-web.name', 'p'.repeat(10_000)),
      'INVALID',
      'initialState.nodes["node-a"].pods["uid-web"].name',
      /too long \(10000 characters; the limit is 253\)/,
    ],
    [
      'a time that is not RFC 3339',
      set('events.1.status.state.running.startedAt', 'yesterday'),
      'INVALID',
      'events[1].status.state.running.startedAt',
      /RFC 3339/,
    ],
    [
      'an impossible date',
      set('events.1.status.state.running.startedAt', '2024-13-45T99:00:00Z'),
      'INVALID',
      'events[1].status.state.running.startedAt',
      /not a real date/,
    ],
    [
      'a negative restart count',
      set('events.1.status.restartCount', -1),
      'INVALID',
      'events[1].status.restartCount',
      /too small/,
    ],
    ['a non-integer seq', set('events.0.seq', 6.5), 'INVALID', 'events[0].seq', /expected int/],
    [
      'seqs out of order',
      swap('events.3', 'events.4'),
      'INVALID',
      'events[4].seq',
      /not after the previous event's seq/,
    ],
    [
      'an event before the initial state',
      set('events.0.seq', 5),
      'INVALID',
      'events[0].seq',
      /not after the initial state's seq 5/,
    ],
    [
      'an event after "to"',
      set(`events.${last}.t`, sample.to + 1),
      'INVALID',
      `events[${last}].t`,
      /outside the period/,
    ],
    ['"to" before "from"', set('to', sample.from - 1), 'INVALID', 'to', /before "from"/],
    [
      'an annotation outside the period',
      set('annotations.0.t', sample.to + 1),
      'INVALID',
      'annotations[0].t',
      /outside the period/,
    ],
    [
      'an annotation without text',
      set('annotations.0.text', ''),
      'INVALID',
      'annotations[0].text',
      /needs text/,
    ],
    [
      'annotation text over 16 KiB',
      set('annotations.0.text', 'é'.repeat(9000)),
      'INVALID',
      'annotations[0].text',
      /longer than 16384 bytes/,
    ],
    [
      'a node keyed by another name',
      set('initialState.nodes.node-a.name', 'node-z'),
      'INVALID',
      'initialState.nodes["node-a"].name',
      /must equal its key "node-a"/,
    ],
    [
      'a PodAdded for another uid',
      all(
        set('events.0.kind', 'pod'),
        set('events.0.type', 'PodAdded'),
        set('events.0.pod', webPod ?? null),
        set('events.0.podUid', 'other'),
      ),
      'INVALID',
      'events[0].pod.uid',
      /must equal podUid "other"/,
    ],
    [
      'a node called like an inherited member',
      set('events.0.node', 'constructor'),
      'INVALID',
      'events[0].node',
      /is a reserved name/,
    ],
    [
      'a prototype key',
      set('initialState.nodes.node-a.why', JSON.parse('{"__proto__": {"id": "x"}}') as Json),
      'INVALID',
      'initialState.nodes["node-a"].why.__proto__',
      /not allowed/,
    ],
    [
      'no format',
      del('format'),
      'NOT_A_TIMELINE',
      'format',
      /missing; a timeline file has "format": "podscope.timeline"/,
    ],
    [
      'another format',
      set('format', 'har'),
      'NOT_A_TIMELINE',
      'format',
      /expected "podscope.timeline", got "har"/,
    ],
    [
      'a newer version',
      set('version', 2),
      'UNSUPPORTED_VERSION',
      'version',
      /format version 2; this Podscope reads version 1/,
    ],
    ['a version that is not a number', set('version', '1'), 'INVALID', 'version', /expected 1/],
    [
      'a string beyond any limit',
      set('notes', 'n'.repeat(70_000)),
      'TOO_LARGE',
      'notes',
      /70000 characters; the limit is 65536/,
    ],
    [
      'nesting beyond 32 levels',
      set('events.0.detail', nested(40)),
      'TOO_LARGE',
      'events[0].detail.x.x',
      /nested deeper than 32 levels/,
    ],
    [
      'a long array',
      set(
        'initialState.nodes.node-a.conditions',
        Array.from({ length: 10_001 }, () => 0),
      ),
      'TOO_LARGE',
      'initialState.nodes["node-a"].conditions',
      /10001 items; the limit is 10000/,
    ],
  ];

  it.each(cases)('%s', (_name, mutate, code, path, message) => {
    const d = doc();
    mutate(d);
    const err = refusal(JSON.stringify(d));
    expect(err.code).toBe(code);
    // Paths beyond the depth limit go on; compare the start.
    const issue = err.issues.find((i) => i.path === path || i.path.startsWith(`${path}.`));
    expect(issue, `${err.message}\n${JSON.stringify(err.issues)}`).toBeDefined();
    expect(issue?.message).toMatch(message);
    expect(err.message).toContain(path);
  });

  it('locates malformed JSON by line, column and byte', () => {
    // A comma dropped inside the third event's line, after a two-byte character.
    const lines = text.split('\n');
    const line = lines[5] ?? '';
    expect(line).toMatch(/^\{"kind":"container","type"/);
    lines[5] = line.replace('{"kind":"container","type"', '{"kind":"contäiner" "type"');
    const err = refusal(lines.join('\n'));
    expect(err.code).toBe('MALFORMED_JSON');
    const issue = err.issues[0];
    expect(issue?.line).toBe(6);
    expect(issue?.message).toBe("expected ',' or '}', found '\"'");
    const column = '{"kind":"contäiner" '.length + 1;
    expect(issue?.column).toBe(column);
    const charsBefore = lines.slice(0, 5).join('\n').length + 1 + column - 1;
    // "ä" is two bytes in UTF-8; everything else here is ASCII.
    expect(issue?.byte).toBe(charsBefore + 1);
    expect(err.message).toMatch(
      /^the timeline file is not valid JSON: line 6, column \d+ \(byte \d+\): /,
    );
  });

  it('says when a file ends early', () => {
    const err = refusal(text.slice(0, text.length / 2));
    expect(err.code).toBe('MALFORMED_JSON');
    expect(err.issues[0]?.message).toMatch(
      /unexpected end of the file \(\d+ unclosed brackets\)|a string is never closed/,
    );
  });

  it('refuses text that is not JSON at all, or not an object', () => {
    expect(refusal('hello').issues[0]).toMatchObject({
      line: 1,
      column: 1,
      message: "unexpected 'h' where a value was expected",
    });
    expect(refusal('[1,2]').code).toBe('NOT_A_TIMELINE');
    expect(refusal('{"a":1} x').issues[0]?.message).toBe(
      "unexpected 'x' after the end of the JSON document",
    );
  });

  it('refuses bytes that are not UTF-8 and names the byte', () => {
    const bytes = new TextEncoder().encode(text);
    bytes[40] = 0xff;
    const err = refusal(bytes);
    expect(err.code).toBe('NOT_UTF8');
    expect(err.issues[0]?.message).toBe('invalid UTF-8 at byte 40');
    expect(err.issues[0]?.byte).toBe(40);
  });

  it('refuses gzip given as plain bytes', () => {
    expect(refusal(new Uint8Array([0x1f, 0x8b, 8, 0])).code).toBe('BAD_GZIP');
  });

  it('enforces the byte and event limits', () => {
    expect(refusal(text, { maxBytes: 1000 }).issues[0]?.message).toMatch(
      /bytes; the limit is 1000/,
    );
    expect(refusal(new TextEncoder().encode(text), { maxBytes: 1000 }).code).toBe('TOO_LARGE');
    const err = refusal(text, { maxEvents: 3 });
    expect(err.code).toBe('TOO_LARGE');
    expect(err.issues[0]).toEqual({
      path: 'events',
      message: `${sample.events.length} events; the limit is 3`,
    });
  });

  it('lists at most maxIssues issues and counts the rest', () => {
    const d = doc();
    for (const e of d.events as Obj[]) e.node = '';
    const err = refusal(JSON.stringify(d), { maxIssues: 5 });
    expect(err.issues).toHaveLength(5);
    expect(err.more).toBe(sample.events.length - 5);
    expect(err.message).toMatch(new RegExp(`\\(and ${sample.events.length - 1} more\\)$`));
  });

  it('safeParseTimeline returns the error as data', () => {
    const result = safeParseTimeline('{');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'MALFORMED_JSON', more: 0 });
    expect(safeParseTimeline(text).ok).toBe(true);
  });
});

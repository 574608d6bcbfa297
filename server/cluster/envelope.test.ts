import { describe, expect, it } from 'vitest';
import {
  compareEpochs,
  encodeMessage,
  encodeMessageV1,
  epochTime,
  EVENTS_WIRE_ENVELOPE_VERSION,
  lastSeqOf,
  messageId,
  newEpoch,
  type BusMessage,
} from './envelope';
import { parseBusMessage, parseHeartbeat } from './parse';
import { eventsMessage, heartbeatOf } from './testing';

const bytes = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const EPOCH = newEpoch(1_700_000_000_000);

describe('epochs', () => {
  it('are new per call, carry their start time and order by it', () => {
    const a = newEpoch(1_000);
    const b = newEpoch(2_000);
    expect(a).not.toBe(newEpoch(1_000));
    expect(epochTime(a)).toBe(1_000);
    expect(compareEpochs(a, b)).toBeLessThan(0);
    expect(compareEpochs(b, a)).toBeGreaterThan(0);
  });
});

describe('bus messages', () => {
  const ok = eventsMessage('c1', 'n.1', EPOCH, 5, 3);

  it('accept a well-formed run of events and give its id and last seq', () => {
    const p = parseBusMessage(encodeMessage(ok), 'c1', 'n.1');
    expect(p.ok).toBe(true);
    expect(messageId(ok)).toBe(`n=2E1/${EPOCH}/5`);
    expect(lastSeqOf(ok)).toBe(7);
    const gap: BusMessage = {
      v: 1,
      type: 'gap',
      cluster: 'c1',
      node: 'n.1',
      epoch: EPOCH,
      seq: 3,
      t: 1,
      lost: { from: 3, to: 8 },
      reason: 'outbox-full',
    };
    expect(parseBusMessage(encodeMessage(gap), 'c1', 'n.1')).toEqual({ ok: true, value: gap });
    expect(lastSeqOf(gap)).toBe(8);
  });

  const cases: [string, Uint8Array, string, string | undefined][] = [
    ['not JSON', bytes('{nope'), 'not-json', 'n.1'],
    ['a JSON array', bytes([1]), 'bad-envelope', 'n.1'],
    ['an unknown version', bytes({ ...ok, v: 3 }), 'unknown-version', 'n.1'],
    ['a v2 events message with plain events', bytes({ ...ok, v: 2 }), 'bad-envelope', 'n.1'],
    [
      'a v2 events message whose frame names a string never sent',
      bytes({ ...ok, events: undefined, v: 2, wire: { type: 'wire', v: 1, s: 5, e: [{ k: 7 }] } }),
      'bad-envelope',
      'n.1',
    ],
    [
      'a v2 events message whose frame decodes to a foreign event kind',
      bytes({
        ...ok,
        events: undefined,
        v: 2,
        wire: { type: 'wire', v: 1, s: 5, e: [{ k: 'x:Y', n: 'n.1', t: 1 }] },
      }),
      'bad-envelope',
      'n.1',
    ],
    ['no version', bytes({ ...ok, v: undefined }), 'unknown-version', 'n.1'],
    ['another cluster', bytes({ ...ok, cluster: 'c2' }), 'foreign-cluster', 'n.1'],
    ['another node than its subject', bytes(ok), 'subject-mismatch', 'n.2'],
    ['a subject that is not a node subject', bytes(ok), 'subject-mismatch', undefined],
    ['an extra top-level field', bytes({ ...ok, extra: 1 }), 'bad-envelope', 'n.1'],
    ['a bad epoch', bytes({ ...ok, epoch: 'x' }), 'bad-envelope', 'n.1'],
    ['seq 0', bytes({ ...ok, seq: 0 }), 'bad-envelope', 'n.1'],
    ['no events', bytes({ ...ok, events: [] }), 'bad-envelope', 'n.1'],
    [
      'an unknown event kind',
      bytes({ ...ok, events: [{ ...ok.events[0], kind: 'x' }] }),
      'bad-envelope',
      'n.1',
    ],
    [
      'events out of sequence',
      bytes({ ...ok, events: [ok.events[1], ok.events[0], ok.events[2]] }),
      'bad-sequence',
      'n.1',
    ],
    [
      'an event of another node',
      bytes({ ...ok, events: [{ ...ok.events[0], node: 'n.2' }, ok.events[1], ok.events[2]] }),
      'subject-mismatch',
      'n.1',
    ],
    [
      'an event caused by a later one',
      bytes({ ...ok, events: [{ ...ok.events[0], cause: 99 }, ok.events[1], ok.events[2]] }),
      'bad-sequence',
      'n.1',
    ],
    [
      'a gap that does not start at its own seq',
      bytes({
        v: 1,
        type: 'gap',
        cluster: 'c1',
        node: 'n.1',
        epoch: EPOCH,
        seq: 4,
        t: 1,
        lost: { from: 3, to: 4 },
        reason: 'outbox-full',
      }),
      'bad-sequence',
      'n.1',
    ],
    ['too large', new Uint8Array(1024 * 1024), 'too-large', 'n.1'],
  ];
  it.each(cases)('refuse %s with a reason', (_what, data, reason, node) => {
    const p = parseBusMessage(data, 'c1', node);
    expect(p.ok).toBe(false);
    if (!p.ok) {
      expect(p.reason).toBe(reason);
      expect(p.detail.length).toBeLessThanOrEqual(300);
    }
  });
});

describe('events in the lean wire (envelope v2)', () => {
  const msg = eventsMessage('c1', 'n.1', EPOCH, 5, 40);

  it('are what encodeMessage sends, and read back as the very events', () => {
    const data = encodeMessage(msg);
    const raw = JSON.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>;
    expect(raw.v).toBe(EVENTS_WIRE_ENVELOPE_VERSION);
    expect(raw.events).toBeUndefined();
    expect(parseBusMessage(data, 'c1', 'n.1')).toEqual({ ok: true, value: msg });
    // Node names, kinds and ids interned within the message; seqs and times implied.
    expect(data.byteLength).toBeLessThan(encodeMessageV1(msg).byteLength * 0.7);
  });

  it('keep reading v1 messages (an agent of before the lean wire)', () => {
    const v1 = encodeMessageV1(msg);
    expect((JSON.parse(Buffer.from(v1).toString('utf8')) as { v: number }).v).toBe(1);
    expect(parseBusMessage(v1, 'c1', 'n.1')).toEqual({ ok: true, value: msg });
  });

  it('are checked like v1 once decoded: sequence, node and cause', () => {
    const bad = { ...msg, events: [msg.events[1], msg.events[0], ...msg.events.slice(2)] };
    expect(parseBusMessage(encodeMessage(bad as typeof msg), 'c1', 'n.1')).toMatchObject({
      ok: false,
      reason: 'bad-sequence',
    });
    const other = eventsMessage('c1', 'n.2', EPOCH, 5, 3);
    expect(parseBusMessage(encodeMessage(other), 'c1', 'n.1')).toMatchObject({
      ok: false,
      reason: 'subject-mismatch',
    });
  });

  it('refuse decoded events the v1 schema refuses, and say why as it does', () => {
    const cases: [string, (e: Record<string, unknown>) => void][] = [
      ['type', (e) => (e.type = '')],
      ['type', (e) => (e.type = 'x'.repeat(65))],
      ['cause', (e) => (e.cause = 0)],
      ['cause', (e) => (e.cause = 1.5)],
      ['t', (e) => (e.t = 9e15)],
      ['t', (e) => (e.t = -1)],
    ];
    for (const [field, spoil] of cases) {
      const events = msg.events.map((e) => ({ ...e })) as unknown as Record<string, unknown>[];
      spoil(events[2] as Record<string, unknown>);
      const bad = { ...msg, events } as unknown as typeof msg;
      const v2 = parseBusMessage(encodeMessage(bad), 'c1', 'n.1');
      expect(v2, field).toMatchObject({ ok: false, reason: 'bad-envelope' });
      expect(v2).toEqual(parseBusMessage(encodeMessageV1(bad), 'c1', 'n.1'));
      expect(v2.ok === false && v2.detail).toContain(`events.2.${field}`);
    }
  });

  it('leave gaps, heartbeats and node states in v1', () => {
    const hb = heartbeatOf('c1', 'n.1', EPOCH, 4);
    expect(JSON.parse(Buffer.from(encodeMessage(hb)).toString('utf8'))).toEqual(hb);
  });
});

describe('heartbeats', () => {
  it('are validated against their key and cluster', () => {
    const hb = heartbeatOf('c1', 'n.1', EPOCH, 4);
    expect(parseHeartbeat(encodeMessage(hb), 'c1', 'n.1').ok).toBe(true);
    expect(parseHeartbeat(encodeMessage(hb), 'c1', 'n.2')).toMatchObject({
      ok: false,
      reason: 'subject-mismatch',
    });
    expect(parseHeartbeat(encodeMessage(hb), 'c2', 'n.1')).toMatchObject({
      ok: false,
      reason: 'foreign-cluster',
    });
    expect(parseHeartbeat(bytes({ ...hb, seq: -1 }), 'c1', 'n.1')).toMatchObject({
      ok: false,
      reason: 'bad-envelope',
    });
  });
});

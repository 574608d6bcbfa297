/**
 * podscope import and export: a good file is stored and exported back the same; malformed and
 * hostile files exit 1 with located errors on stderr and store nothing; valid files with hostile
 * strings are kept as data and printed inert.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeTimelineFile } from '@/lib/timeline/file';
import { sampleFile } from '@/lib/timeline/file/testing';
import { openStore } from '@/server/timeline-db';
import { main } from '../main';
import { prepareReplay } from './replay';

let dir: string;
let out: string[];
let err: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'podscope-cli-import-'));
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const data = () => join(dir, 'data');
const write = (name: string, body: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
};
const savedCount = () => {
  if (!existsSync(data())) return 0;
  const store = openStore({ path: data() });
  try {
    return store.listTimelines().length;
  } finally {
    store.close();
  }
};

describe('podscope import / export', () => {
  it('imports a file, prints its id, and exports it back the same', async () => {
    const text = serializeTimelineFile(sampleFile());
    const path = write('good.podscope.json.gz', gzipSync(text));
    expect(await main(['import', path, '--data', data()])).toBe(0);
    const id = out.join('').trim();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(err.join('')).toMatch(/^imported "web-1 crash loop": \d+ events, 2 annotations\n$/);
    const back = join(dir, 'back.json');
    expect(await main(['export', id, '--out', back, '--data', data()])).toBe(0);
    const exported = JSON.parse(readFileSync(back, 'utf8')) as Record<string, unknown>;
    const original = JSON.parse(text) as { annotations: { author?: string }[] };
    // Everything round-trips, annotation authors included.
    expect(original.annotations.some((a) => a.author !== undefined)).toBe(true);
    expect({ ...exported, source: null }).toEqual({ ...original, source: null });
    expect(await main(['export', id, '--out', join(dir, 'back.json.gz'), '--data', data()])).toBe(
      0,
    );
    expect(readFileSync(join(dir, 'back.json.gz'))[0]).toBe(0x1f);
  });

  it.each([
    [
      'malformed JSON',
      () => serializeTimelineFile(sampleFile()).slice(0, 700),
      /the timeline file is not valid JSON\n {2}line \d+, column \d+ \(byte \d+\): /,
    ],
    [
      'a wrong type',
      () =>
        serializeTimelineFile(sampleFile()).replace('"restartCount":0', '"restartCount":"zero"'),
      /the timeline file is invalid\n {2}events\[\d+\]\.status\.restartCount: expected number, received string/,
    ],
    [
      'a newer version',
      () => serializeTimelineFile(sampleFile()).replace('"version":1', '"version":3'),
      /from a newer Podscope\n {2}version: this file is format version 3/,
    ],
    [
      'not a timeline',
      () => '{"log":"hello"}',
      /not a Podscope timeline file\n {2}format: missing/,
    ],
    [
      'a huge pod name',
      () =>
        serializeTimelineFile(sampleFile()).replace(
          '"name":"web-1"',
          `"name":"${'<b>'.repeat(200)}"`,
        ),
      /\.name: too long \(600 characters; the limit is 253\)/,
    ],
    [
      'a prototype key',
      () =>
        serializeTimelineFile(sampleFile()).replace(
          '"conditions":{}',
          '"conditions":{"__proto__":{"id":"x"}}',
        ),
      /\.__proto__: this key is not allowed/,
    ],
    [
      'a gzip bomb',
      () => gzipSync(Buffer.alloc(60 * 1024 * 1024, 32)),
      /too large\n {2}\(root\): decompresses to more than 52428800 bytes/,
    ],
    [
      'not UTF-8',
      () => Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]),
      /not UTF-8 text\n {2}line 1, column 3 \(byte 2\): invalid UTF-8 at byte 2/,
    ],
  ])('refuses %s: exit 1, located error, nothing stored', async (_name, body, message) => {
    const path = write('bad.json', body());
    expect(await main(['import', path, '--data', data()])).toBe(1);
    expect(out.join('')).toBe('');
    const text = err.join('');
    expect(text).toMatch(/^podscope import: refused\n/);
    expect(text).toMatch(message);
    expect(savedCount()).toBe(0);
  });

  it('keeps hostile strings as data and prints them inert', async () => {
    const doc = JSON.parse(serializeTimelineFile(sampleFile())) as { title: string };
    doc.title = 'evil \u001b[2J\u0007 <script>alert(1)</script>';
    const path = write('hostile.json', JSON.stringify(doc));
    expect(await main(['import', path, '--data', data()])).toBe(0);
    const printed = err.join('');
    const controls = [...printed].filter((c) => c !== '\n' && (c.codePointAt(0) ?? 0) < 0x20);
    expect(controls).toEqual([]);
    expect(printed).toContain('evil \u241b[2J\u2407 <script>alert(1)</script>');
    const store = openStore({ path: data() });
    try {
      expect(store.getTimeline(out.join('').trim()).title).toBe(doc.title);
    } finally {
      store.close();
    }
  });

  it('export says when the id or the data is missing', async () => {
    expect(
      await main(['export', 'nope', '--out', join(dir, 'x.json'), '--data', join(dir, 'none')]),
    ).toBe(1);
    expect(err.join('')).toMatch(/no Podscope data in/);
    write('x', 'x');
    expect(await main(['import', join(dir, 'good.json'), '--data', data()])).toBe(1);
    expect(await main(['export', 'nope', '--out', join(dir, 'x.json'), '--data', dir])).toBe(1);
    expect(err.join('')).toMatch(/no saved timeline with id "nope"/);
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
  });

  it('replay imports the file into a temporary data directory and links to its share page', async () => {
    const setup = await prepareReplay(sampleFile(), {
      path: 'f.json',
      host: '127.0.0.1',
      port: '3999',
      lang: 'zh-CN',
    });
    try {
      expect(setup.url).toBe(`http://127.0.0.1:3999/zh-CN/t/${setup.id}`);
      expect(setup.env).toMatchObject({
        PODSCOPE_SIM_NODES: '0',
        PODSCOPE_DATA_DIR: setup.dataDir,
        PODSCOPE_PORT: '3999',
      });
      expect(setup.env.PODSCOPE_CRI).toBeUndefined();
      const store = openStore({ path: setup.dataDir });
      try {
        expect(store.getTimeline(setup.id).title).toBe('web-1 crash loop');
      } finally {
        store.close();
      }
    } finally {
      setup.cleanup();
    }
    expect(existsSync(setup.dataDir)).toBe(false);
  });
});

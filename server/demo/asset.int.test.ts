/**
 * The browser demo's file as the build writes it: a timeline file any reader accepts (the browser
 * checks it with the same parser), stamped with the sources it was made from.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTimelineText } from '@/lib/timeline/file';
import { demoAssetFresh, writeDemoAsset } from './asset';
import { demoNodeNames } from './record';

const dir = mkdtempSync(join(tmpdir(), 'podscope-demo-asset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the demo asset', () => {
  it(
    'is a valid timeline file of the recording, fresh only for its sources',
    { timeout: 300_000 },
    async () => {
      const file = join(dir, 'recording.podscope.json');
      expect(demoAssetFresh(file, 'abc')).toBe(false);
      const { events } = await writeDemoAsset(file, 'abc', { durationMs: 60_000 });
      const parsed = parseTimelineText(readFileSync(file, 'utf8'));
      expect(parsed.events).toHaveLength(events);
      expect(parsed.source.nodes.map((n) => n.name)).toEqual(demoNodeNames(3));
      expect(parsed.to - parsed.from).toBeGreaterThanOrEqual(60_000);
      expect(demoAssetFresh(file, 'abc')).toBe(true);
      expect(demoAssetFresh(file, 'abd')).toBe(false);
    },
  );
});

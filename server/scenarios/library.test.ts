import { describe, expect, it } from 'vitest';
import en from '@/messages/en/learn.json';
import zh from '@/messages/zh-CN/learn.json';
import { findScenario, learnText, loadLibrary, parseScenario } from './library';
import { RAW_SCENARIOS } from './library/index';
import { messageIds, needsSimulator, parseDuration } from './schema';

/** Every leaf key of a catalogue, dot-joined. */
function keys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('scenario library', () => {
  it('loads every scenario file and each id matches its file name', () => {
    const list = loadLibrary();
    expect(list.map((s) => s.id)).toEqual(RAW_SCENARIOS.map(([file]) => file));
    expect(new Set(list.map((s) => s.id)).size).toBe(list.length);
  });

  it('has the scenarios the training course needs', () => {
    const ids = loadLibrary().map((s) => s.id);
    for (const id of [
      'crashloop',
      'image-pull-backoff',
      'oomkilled',
      'init-failure',
      'config-error',
      'sidecar',
      'graceful-termination',
      'node-lost',
      'runtime-not-ready',
      'job-succeeds',
      'job-fails',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('marks exactly the fault-injecting scenarios as simulator-only', () => {
    const simOnly = loadLibrary()
      .filter(needsSimulator)
      .map((s) => s.id);
    expect(simOnly.sort()).toEqual([
      'cni-not-ready',
      'memory-pressure',
      'node-lost',
      'not-ready-vs-lost',
      'partition-drift',
      'runtime-hung',
      'runtime-not-ready',
    ]);
  });

  it('has every message id it uses in both locales', () => {
    for (const s of loadLibrary()) {
      for (const id of messageIds(s)) {
        expect(learnText(id, 'en'), `${s.id}: ${id} (en)`).toBeTruthy();
        expect(learnText(id, 'zh-CN'), `${s.id}: ${id} (zh-CN)`).toBeTruthy();
      }
    }
  });

  it('keeps the two catalogues key for key, and uses every key', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    const used = new Set(loadLibrary().flatMap(messageIds));
    // The walkthroughs' own texts (components/learn, server/learn) share the catalogue.
    const walkthrough = (k: string) =>
      k.startsWith('walkthrough.') || /^scenarios\.[^.]+\.questions\./.test(k);
    expect(keys(en).filter((k) => !used.has(k) && !walkthrough(k))).toEqual([]);
  });

  it('writes Kubernetes terms the same way in both languages', () => {
    for (const term of [
      'CrashLoopBackOff',
      'ImagePullBackOff',
      'ErrImagePull',
      'OOMKilled',
      'CreateContainerConfigError',
      'NodeStatusUnknown',
      'PodInitializing',
    ]) {
      const inEn = keys(en).filter((k) => learnText(k, 'en')?.includes(term));
      const inZh = keys(zh).filter((k) => learnText(k, 'zh-CN')?.includes(term));
      expect(inZh, term).toEqual(inEn);
    }
  });

  it('rejects a broken scenario with the path of the bad field', () => {
    const broken = structuredClone(findScenario('crashloop')) as Record<string, unknown>;
    broken.steps = [{ do: 'apply', pod: 'nope' }];
    expect(() => parseScenario(broken, 'broken.json')).toThrow(
      /broken.json: steps.0.pod: unknown pod "nope"/,
    );
    expect(() => parseScenario({ ...broken, steps: [{ do: 'wait' }] }, 'w.json')).toThrow(
      /needs "for" or "expect"/,
    );
    expect(() =>
      parseScenario({ ...broken, steps: [{ do: 'wait', for: 'ten seconds' }] }, 'd.json'),
    ).toThrow(/duration/);
    // Drift and force deletion need the scenario's API server.
    const crash = structuredClone(findScenario('crashloop')) as Record<string, unknown>;
    const drift = [{ do: 'wait', expect: [{ pod: 'api', drift: 'staleStatus' }] }];
    expect(() => parseScenario({ ...crash, apiServer: false, steps: drift }, 'a.json')).toThrow(
      /a drift expectation needs "apiServer": true/,
    );
    expect(() =>
      parseScenario(
        { ...crash, apiServer: false, steps: [{ do: 'forceDelete', pod: 'api' }] },
        'f.json',
      ),
    ).toThrow(/forceDelete needs "apiServer": true/);
    expect(parseScenario({ ...crash, apiServer: true, steps: drift }, 'ok.json').apiServer).toBe(
      true,
    );
  });

  it('parses durations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('')).toBeUndefined();
    expect(parseDuration('10')).toBeUndefined();
  });
});

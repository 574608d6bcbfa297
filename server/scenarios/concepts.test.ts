/**
 * Every concept of the kubelet semantics and the source texts (concepts.ts) is taught by a
 * walkthrough — or is knowingly listed as not yet taught, and then only while that is true.
 */
import { describe, expect, it } from 'vitest';
import { CONCEPT_GROUPS, CONCEPTS, NOT_YET_TAUGHT, type ConceptId } from '@/lib/learn/concepts';
import { loadLibrary } from './library';

describe('concepts', () => {
  const taught = new Map<string, string[]>();
  for (const s of loadLibrary())
    for (const c of s.concepts) taught.set(c, [...(taught.get(c) ?? []), s.id]);

  it('each has a scenario that teaches it, apart from the ones listed as not yet taught', () => {
    const missing = (Object.keys(CONCEPTS) as ConceptId[]).filter((c) => !taught.has(c));
    expect(missing.sort()).toEqual([...NOT_YET_TAUGHT].sort());
  });

  it('belong to a /learn group', () => {
    for (const c of Object.values(CONCEPTS)) expect(CONCEPT_GROUPS).toContain(c.group);
  });
});

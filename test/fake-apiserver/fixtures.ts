/**
 * The recorded cluster the fake API server starts with (fixtures/*.json): two nodes (node-b's
 * kubelet has gone quiet: Ready=Unknown, Lease 90 s old at FIXTURE_NOW), seven pods with full
 * status (running, init + sidecar + readiness gate, CrashLoopBackOff, ErrImagePull,
 * CreateContainerConfigError, a completed Job pod, a static pod's mirror), Events and Leases.
 */
import { readFileSync } from 'node:fs';
import type { FakeStore, Resource, StoredObject } from './store';

/** "Now" for the fixtures: 2026-03-01T10:02:00Z (node-a's Lease renewed 5 s before). */
export const FIXTURE_NOW = Date.parse('2026-03-01T10:02:00Z');

export function fixture(resource: Resource): StoredObject[] {
  const url = new URL(`./fixtures/${resource}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as StoredObject[];
}

export function seed(store: FakeStore): void {
  for (const r of ['nodes', 'leases', 'pods', 'events'] as const)
    for (const o of fixture(r)) store.upsert(r, o);
}

export const UIDS = {
  web: 'a1b2c3d4-0001-4000-8000-000000000001',
  api: 'a1b2c3d4-0002-4000-8000-000000000002',
  worker: 'a1b2c3d4-0003-4000-8000-000000000003',
  puller: 'a1b2c3d4-0004-4000-8000-000000000004',
  job: 'a1b2c3d4-0005-4000-8000-000000000005',
  etcdMirror: 'a1b2c3d4-0006-4000-8000-000000000006',
  /** The static pod's uid (its config hash): what the sandboxes carry. */
  etcdStatic: '9c3f2b1a0e8d7c6b5a4f3e2d1c0b9a8f',
  settings: 'a1b2c3d4-0007-4000-8000-000000000007',
} as const;

/** Picks the console's data source from the view (`?source=demo` or the live server). */
import { createDemoSource } from './demo-source';
import { createLiveSource } from './live-source';
import type { ClusterSource } from './source';
import type { SourceKind } from './url-state';

export function createSource(kind: SourceKind): ClusterSource {
  return kind === 'demo' ? createDemoSource() : createLiveSource();
}

/** Picks the console's data source from the view (`?source=demo` or the live server). */
import { createDemoSource } from './demo-source';
import { createLiveSource } from './live-source';
import type { ClusterSource } from './source';
import type { ViewState } from './url-state';

export function createSource(view: Pick<ViewState, 'source' | 'demoStart'>): ClusterSource {
  if (view.source !== 'demo') return createLiveSource();
  return createDemoSource(view.demoStart !== undefined ? { start: view.demoStart } : {});
}

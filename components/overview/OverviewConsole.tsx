'use client';
/**
 * The console at cluster scale: the header; the search box and the overview of every node in
 * the centre (zooming in turns cells into pod tiles, then into the three-layer diagram of the
 * nodes in view); what needs attention — or the search's results, or the selection's panel — on
 * the right; the timeline and the event log of the nodes in view along the bottom.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { containerTone, podContainers, podTone, resolveEntity } from '@/components/data/entity';
import { Diagram } from '@/components/diagram/Diagram';
import { useElementSize } from '@/components/diagram/use-element-size';
import { EntityPanel } from '@/components/panel/EntityPanel';
import { BottomPane } from '@/components/shell/BottomPane';
import { Header } from '@/components/shell/Header';
import { focusKind, keyAction } from '@/components/shell/keys';
import { Timeline } from '@/components/timeline/Timeline';
import type { Tone } from '@/components/visual/palette';
import {
  GROUP_LABELS,
  MAX_DETAIL_NODES,
  type AttentionItem,
  type SearchHit,
  type SearchResult,
} from '@/lib/overview/wire';
import { Attention, groupText } from './Attention';
import { sameNodes } from './feed';
import { cellsInRect, layoutOverview, viewRect, type GroupBy } from './grid';
import { pastDiagram, zoomForLevel, type Level } from './levels';
import { OverviewCanvas, type OverviewCanvasHandle, type Transform } from './OverviewCanvas';
import { useOverview } from './OverviewRoot';
import { SearchBox } from './SearchBox';
import { SearchResults } from './SearchResults';
import { liveNodeCount, podCount } from './store';
import { useUrlQuery } from './use-url-query';
import '@/components/shell/console.css';
import './overview.css';

const NONE: GroupBy = { kind: 'none' };
const ZOOM_STRIP = 48;

function groupKey(g: GroupBy): string {
  return g.kind === 'label' ? `label:${g.key}` : g.kind;
}

export function OverviewConsole({ initialQuery }: { initialQuery: string }) {
  const t = useTranslations('ui.overview');
  const { overview, feed, ready } = useOverview();
  const { state, selection, actions, edge } = useCluster();
  const cells = overview.cells;
  const labelKeys = useMemo(
    () => GROUP_LABELS.filter((k) => cells.labels[k] !== undefined),
    [cells.labels],
  );
  const [chosenGroup, setGroup] = useState<GroupBy | undefined>(undefined);
  const firstLabel = labelKeys[0];
  const group: GroupBy = useMemo(
    () => chosenGroup ?? (firstLabel ? { kind: 'label', key: firstLabel } : { kind: 'ready' }),
    [chosenGroup, firstLabel],
  );
  const [level, setLevel] = useState<Level>('cells');
  const [box, size] = useElementSize<HTMLDivElement>();
  const canvas = useRef<OverviewCanvasHandle>(null);

  const shape = overview.shape;
  // Fitting leaves the zoom buttons' strip on the right free.
  const fitBox = useMemo(
    () => ({ width: Math.max(1, size.width - ZOOM_STRIP), height: Math.max(1, size.height - 8) }),
    [size.width, size.height],
  );
  // The layout changes with the set of nodes and their groups, not with their colours (Ready
  // excepted when grouping by it).
  const readyColumn = group.kind === 'ready' ? cells.ready : undefined;
  const labelsOf = cells.labels;
  const namesOf = cells.names;
  const layout = useMemo(
    () =>
      layoutOverview(
        { ...cells, names: namesOf, labels: labelsOf, ready: readyColumn ?? cells.ready },
        group,
        fitBox,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shape, group, fitBox, readyColumn, namesOf, labelsOf],
  );
  const nodes = liveNodeCount(cells);
  const pods = podCount(cells);

  // Search: `?q=`, answered by the feed a page at a time.
  const [query, setQuery] = useState(initialQuery);
  const [result, setResult] = useState<SearchResult | undefined>(undefined);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [loading, setLoading] = useState(false);
  const searchSeq = useRef(0);
  useUrlQuery(query);
  useEffect(() => {
    const seq = ++searchSeq.current;
    if (!query) return;
    feed
      .search(query)
      .then((r) => {
        if (seq !== searchSeq.current) return;
        setResult({ ...r, query });
        setHits(r.hits);
      })
      .catch((err: unknown) => {
        if (seq !== searchSeq.current) return;
        const message = err instanceof Error ? err.message : String(err);
        setResult({ query, error: { message, at: 0 }, total: 0, hits: [], cells: [] });
        setHits([]);
      })
      .finally(() => {
        if (seq === searchSeq.current) setLoading(false);
      });
    // A new overview (another replica, a gap) does not re-run the search; a new query does.
  }, [query, feed]);
  const shownResult = query && result?.query === query ? result : undefined;
  const more = () => {
    const next = shownResult?.next;
    if (!next || loading) return;
    const seq = searchSeq.current;
    setLoading(true);
    void feed
      .search(query, next)
      .then((r) => {
        if (seq !== searchSeq.current) return;
        setResult({ ...r, query });
        setHits((h) => [...h, ...r.hits]);
      })
      .finally(() => setLoading(false));
  };
  const highlight = useMemo(() => {
    if (!shownResult || shownResult.error) return undefined;
    const h = new Uint8Array(cells.names.length);
    for (const i of shownResult.cells) if (i >= 0 && i < h.length) h[i] = 1;
    return h;
  }, [shownResult, cells.names.length]);

  // The node the selection is on: the view asks for its detail whatever is on screen.
  const [focusNode, setFocusNode] = useState<string | undefined>(undefined);
  const selectedNode = useMemo(() => {
    if (!selection) return undefined;
    if (overview.index.has(selection)) return selection;
    return resolveEntity(state, selection)?.node.name ?? focusNode;
  }, [selection, overview.index, state, focusNode]);
  const selectedCell = selectedNode !== undefined ? overview.index.get(selectedNode) : undefined;

  // What the view shows, as a node set for the subscription: the viewport's nodes when they are
  // few enough to be worth their detail (or zoomed to pods), plus the selection's node.
  const [inView, setInView] = useState<string[]>([]);
  const lastTr = useRef<Transform | undefined>(undefined);
  const viewNodes = useCallback(
    (tr: Transform, lvl: Level) => {
      const found = cellsInRect(layout, viewRect(tr, size), MAX_DETAIL_NODES + 1);
      if (lvl === 'cells' && found.length > MAX_DETAIL_NODES) return [];
      return found.slice(0, MAX_DETAIL_NODES).map((i) => cells.names[i] ?? '');
    },
    [layout, size, cells.names],
  );
  const onView = useCallback(
    (tr: Transform, lvl: Exclude<Level, 'diagram'>) => {
      lastTr.current = tr;
      const next = viewNodes(tr, lvl);
      setInView((prev) => (sameNodes(prev, next) ? prev : next));
      if (pastDiagram(tr.k) && next.length > 0) setLevel('diagram');
      else setLevel((l) => (l === 'diagram' ? l : lvl));
    },
    [viewNodes],
  );
  // The layout moved under the viewport (nodes came, the grouping changed): the set follows.
  useEffect(() => {
    const tr = lastTr.current;
    if (!tr) return;
    const next = viewNodes(tr, level);
    setInView((prev) => (sameNodes(prev, next) ? prev : next));
  }, [viewNodes, level]);
  const wanted = useMemo(() => {
    // The selection's node first: it is never the one cut off.
    const set = new Set(selectedNode ? [selectedNode, ...inView] : inView);
    return [...set].slice(0, MAX_DETAIL_NODES);
  }, [inView, selectedNode]);
  const groupLabel = group.kind === 'label' ? group.key : undefined;
  useEffect(() => {
    feed.setView(wanted, groupLabel);
  }, [feed, wanted, groupLabel]);

  // Pods for the pods level: the tones of the pods of each node whose detail is held.
  const podTones = useMemo(() => {
    const m = new Map<string, Tone[]>();
    for (const n of Object.values(state.nodes))
      m.set(
        n.name,
        Object.values(n.pods)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((p) =>
            podContainers(p).some((c) => containerTone(c.status) === 'failed')
              ? 'failed'
              : podTone(p),
          ),
      );
    return m;
  }, [state]);

  const headings = useMemo(
    () =>
      layout.groups.map((g) =>
        t('groupHeading', {
          name:
            group.kind === 'none'
              ? t('group.all')
              : group.kind === 'ready'
                ? `Ready=${g.value || '—'}`
                : g.value
                  ? (groupText(`${group.key}=${g.value}`) ?? g.value)
                  : t('group.unlabelled'),
          count: g.count,
        }),
      ),
    [layout.groups, group, t],
  );

  const pick = (node: string, id: string) => {
    setFocusNode(node);
    actions.select(id);
    const i = overview.index.get(node);
    // Zoomed to its pods: the node and its neighbours are the view's detail.
    if (i !== undefined && level !== 'diagram')
      canvas.current?.reveal(i, zoomForLevel('pods', layout.fitK));
  };
  const onPickHit = (h: SearchHit) => pick(h.node, h.uid ?? h.node);
  const onPickItem = (item: AttentionItem) => pick(item.node, item.uid ?? item.node);
  const applyQuery = (q: string) => setQuery(q.trim());

  const goLevel = (l: Level) => {
    if (l === 'diagram') {
      if (wanted.length === 0 && selectedNode === undefined) {
        canvas.current?.zoomTo(zoomForLevel('pods', layout.fitK));
        return;
      }
      setLevel('diagram');
      return;
    }
    setLevel(l);
    // Back from the diagram the canvas mounts again and fits; then zoom to the level.
    requestAnimationFrame(() => {
      if (l === 'cells') canvas.current?.fit();
      else canvas.current?.zoomTo(zoomForLevel('pods', layout.fitK));
    });
  };

  // The console's keyboard map, as on the small console.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target instanceof Element ? e.target : null;
      const action = keyAction(e, focusKind(target));
      if (!action) return;
      e.preventDefault();
      if (action === 'togglePlay') actions.togglePlay();
      else if (action === 'stepBack') actions.step(-1);
      else if (action === 'stepForward') actions.step(1);
      else if (action === 'start') actions.seek(edge.from);
      else if (action === 'live') actions.goLive();
      else if (selection) actions.select(undefined);
      else if (level === 'diagram') goLevel('pods');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const side = selection ? (
    <>
      <button
        type="button"
        className="ps-link-button ps-side-back"
        onClick={() => actions.select(undefined)}
      >
        {t('backToAttention')}
      </button>
      <EntityPanel />
    </>
  ) : (
    <>
      {shownResult ? (
        shownResult.error ? null : (
          <SearchResults
            total={shownResult.total}
            hits={hits}
            more={shownResult.next !== undefined}
            loading={loading}
            onMore={more}
            onPick={onPickHit}
          />
        )
      ) : null}
      <Attention overview={overview} onQuery={applyQuery} onPick={onPickItem} />
    </>
  );

  return (
    <div className="ps-console ps-overview-console">
      <a className="ps-skip" href="#ps-panel">
        {t('skipToPanel')}
      </a>
      <Header counts={{ nodes, pods }} />
      <main className="ps-stage ps-overview-stage">
        <div className="ps-overview-bar">
          <SearchBox query={query} error={shownResult?.error} onApply={applyQuery} />
          <label className="ps-overview-group">
            <span>{t('groupBy')}</span>
            <select
              value={groupKey(group)}
              onChange={(e) => {
                const v = e.target.value;
                setGroup(
                  v === 'none'
                    ? NONE
                    : v === 'ready'
                      ? { kind: 'ready' }
                      : { kind: 'label', key: v.slice('label:'.length) },
                );
              }}
            >
              <option value="none">{t('group.none')}</option>
              <option value="ready">{t('group.ready')}</option>
              {labelKeys.map((k) => (
                <option key={k} value={`label:${k}`}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <div className="ps-overview-levels" role="group" aria-label={t('level.label')}>
            {(['cells', 'pods', 'diagram'] as const).map((l) => (
              <button
                key={l}
                type="button"
                aria-pressed={level === l}
                data-level={l}
                onClick={() => goLevel(l)}
              >
                {t(`level.${l}`)}
              </button>
            ))}
          </div>
        </div>
        <div
          className="ps-overview"
          ref={box}
          data-overview=""
          data-nodes={nodes}
          data-pods={pods}
          data-level={level}
          data-ready={ready ? 'true' : 'false'}
        >
          {level === 'diagram' ? (
            <div className="ps-overview-diagram">
              <Diagram />
            </div>
          ) : (
            <OverviewCanvas
              ref={canvas}
              layout={layout}
              cells={cells}
              size={size}
              headings={headings}
              highlight={highlight}
              selected={selectedCell}
              pods={podTones}
              onSelect={(i) => {
                const name = cells.names[i];
                if (name) {
                  setFocusNode(name);
                  actions.select(name);
                }
              }}
              onView={onView}
            />
          )}
          {!ready ? <p className="ps-diagram-empty">{t('waiting')}</p> : null}
          {level !== 'diagram' ? (
            <div className="ps-zoom" role="group" aria-label={t('zoom.label')}>
              <button
                type="button"
                onClick={() => canvas.current?.zoomBy(1.5)}
                aria-label={t('zoom.in')}
                title={t('zoom.in')}
              >
                +
              </button>
              <button
                type="button"
                onClick={() => canvas.current?.zoomBy(1 / 1.5)}
                aria-label={t('zoom.out')}
                title={t('zoom.out')}
              >
                −
              </button>
              <button
                type="button"
                onClick={() => canvas.current?.fit()}
                aria-label={t('zoom.fit')}
                title={t('zoom.fit')}
              >
                ⤢
              </button>
            </div>
          ) : null}
        </div>
      </main>
      <div id="ps-panel" className="ps-side">
        {side}
      </div>
      <div className="ps-bottom">
        <Timeline />
        <BottomPane />
      </div>
    </div>
  );
}

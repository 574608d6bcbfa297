'use client';
/**
 * The timeline along the bottom, like a video editor's: transport controls, a relative time
 * axis, lanes per node and pod with a marker for every transition, and the scrubber. The whole
 * track is the ARIA slider: click or drag anywhere to move the cursor.
 */
import { useLocale, useTranslations } from 'next-intl';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { IncidentMarkers } from '@/components/incident/IncidentMarkers';
import { useElementSize } from '@/components/diagram/use-element-size';
import { PodNames } from '@/components/log/indexes';
import { useAbsoluteTime } from '@/components/visual/RelativeTime';
import { TONE_COLOR } from '@/components/visual/palette';
import { formatDuration } from '@/components/visual/duration';
import { Controls } from './Controls';
import { buildLanes } from './lanes';
import { formatOffset, relativeTicks, timeScale } from './scales';
import { TimeZoom } from './TimeZoom';
import { useTimeWindow } from './use-time-window';
import { ZOOM_STEP } from './window';
import './timeline.css';

const LABEL_W = 150;
const LANE_H = 14;
const AXIS_H = 22;
/** Lanes are rebuilt when the window crosses a step like this, not on every frame. */
const LANE_STEP_MS = 5_000;
/** Lanes drawn at most (node lanes first, then the busiest pods). */
const MAX_LANES = 60;
/** Lane labels are monospaced (10.5 px): about this wide per character. */
const LABEL_CHAR_W = 6.5;
/** A lane's label, cut to leave the track's first pixels to the markers. */
const cutLabel = (label: string, width: number) => {
  const fit = Math.floor(width / LABEL_CHAR_W);
  return label.length > fit ? `${label.slice(0, fit - 1)}…` : label;
};
/** One notch of a mouse wheel zooms by about this much. */
const WHEEL_ZOOM = 0.0015;

export function Timeline() {
  const t = useTranslations('ui.timeline');
  const locale = useLocale();
  const absolute = useAbsoluteTime();
  const {
    buffered,
    edge,
    t: now,
    reference,
    actions,
    selection,
    cursor,
    ready,
    live,
  } = useCluster();
  const [box, size] = useElementSize<HTMLDivElement>();
  const [track, setTrack] = useState<HTMLDivElement | null>(null);
  const trackRef = useCallback(
    (el: HTMLDivElement | null) => {
      box(el);
      setTrack(el);
    },
    [box],
  );
  const dragging = useRef(false);
  const tw = useTimeWindow();
  const win = tw.window;

  const width = Math.max(size.width, LABEL_W + 50);
  const scale = useMemo(
    () => timeScale(win.from, win.to, LABEL_W, width - 10),
    [win.from, win.to, width],
  );
  const ticks = useMemo(() => relativeTicks(scale, reference, 84), [scale, reference]);
  const selectedPod = selection?.split('/')[0];
  // Lanes come from everything buffered (not the moment shown), so they stay put while scrubbing;
  // their range moves in steps so playing does not rebuild them every frame.
  const laneFrom = Math.floor(win.from / LANE_STEP_MS) * LANE_STEP_MS;
  const laneTo = Math.ceil(win.to / LANE_STEP_MS) * LANE_STEP_MS;
  const [podNames] = useState(() => new PodNames());
  const lanes = useMemo(() => {
    if (!buffered) return [];
    const { buffer } = buffered;
    const latest = buffer.latest;
    const nodeNames = Object.keys(latest.nodes);
    // With a lane per node filling the budget there are no pod lanes: skip the pods entirely.
    const podLanes = nodeNames.length < MAX_LANES;
    const pods = podLanes ? Object.values(latest.nodes).flatMap((n) => Object.values(n.pods)) : [];
    const names = podLanes ? podNames.get(buffer.events, latest) : new Map<string, string>();
    return buildLanes(buffer.events, { from: laneFrom, to: laneTo }, names, nodeNames, {
      maxLanes: MAX_LANES,
      ...(selectedPod ? { selectedPod } : {}),
      currentPods: new Map(pods.map((p) => [p.uid, p.node])),
    });
  }, [buffered, podNames, laneFrom, laneTo, selectedPod]);
  const inView = (m: number) => m >= win.from && m <= win.to;

  const height = lanes.length * LANE_H + 4;
  const x = scale(now);
  // Before the buffer starts there is nothing to show (a live window wider than the recording).
  const noData = win.from < edge.from ? scale(edge.from) - LABEL_W : 0;

  // Wheel: Ctrl/⌘ + wheel (or a pinch), or any wheel over the time axis, zooms around the
  // pointer; a sideways wheel or Shift + wheel pans. A plain wheel over the lanes scrolls them.
  useEffect(() => {
    if (!track) return;
    const onWheel = (e: WheelEvent) => {
      const r = track.getBoundingClientRect();
      const px = e.clientX - r.left;
      if (px < LABEL_W) return;
      const overAxis = e.clientY - r.top < AXIS_H;
      const sideways = e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY);
      if (sideways) {
        e.preventDefault();
        const msPerPx = (win.to - win.from) / Math.max(1, width - 10 - LABEL_W);
        tw.pan((e.shiftKey ? e.deltaY || e.deltaX : e.deltaX) * msPerPx);
      } else if (e.ctrlKey || e.metaKey || overAxis) {
        e.preventDefault();
        tw.zoom(Math.exp(e.deltaY * WHEEL_ZOOM), scale.invert(px));
      }
    };
    track.addEventListener('wheel', onWheel, { passive: false });
    return () => track.removeEventListener('wheel', onWheel);
  }, [track, tw, scale, win.from, win.to, width]);

  const goLive = () => {
    actions.goLive();
    tw.showLive();
  };

  const seekAt = (clientX: number, el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    actions.seek(scale.invert(clientX - r.left));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || e.clientX - e.currentTarget.getBoundingClientRect().left < LABEL_W)
      return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    seekAt(e.clientX, e.currentTarget);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) seekAt(e.clientX, e.currentTarget);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    if (e.currentTarget.hasPointerCapture(e.pointerId))
      e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const jump = (ms: number) => actions.seek(now + ms);
    let handled = true;
    if (e.key === 'ArrowLeft') {
      if (e.shiftKey) jump(-10_000);
      else actions.step(-1);
    } else if (e.key === 'ArrowRight') {
      if (e.shiftKey) jump(10_000);
      else actions.step(1);
    } else if (e.key === 'PageUp') jump(-60_000);
    else if (e.key === 'PageDown') jump(60_000);
    else if (e.key === 'Home') actions.seek(edge.from);
    else if (e.key === 'End') goLive();
    else if (e.key === '+' || e.key === '=') tw.zoom(1 / ZOOM_STEP);
    else if (e.key === '-' || e.key === '_') tw.zoom(ZOOM_STEP);
    else if (e.key === '0') tw.fit();
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const behind = Math.max(0, reference - now);
  const valuetext =
    cursor.mode === 'live'
      ? t('valueLive', { time: absolute(now) })
      : t('valueAt', { time: absolute(now), ago: formatDuration(behind, locale) });

  return (
    <section className="ps-timeline" aria-label={t('label')}>
      <div className="ps-timeline-top">
        <Controls onGoLive={goLive} />
        <p className="ps-cursor-readout" aria-live="off">
          {/* Nothing time-dependent before data: the server's clock is not the browser's. */}
          <span className="ps-cursor-time">{ready ? absolute(now) : '—'}</span>{' '}
          <span className="ps-muted">
            {!ready
              ? null
              : cursor.mode === 'live'
                ? t('now')
                : behind < 500
                  ? t('atEnd')
                  : t('behind', { duration: formatDuration(behind, locale) })}
          </span>
        </p>
      </div>
      <div className="ps-track-wrap">
        {/* Beside the slider, not in it: a slider holds no other controls. It sits over the lane
            labels' corner of the axis row, which is otherwise empty. */}
        <TimeZoom controls={tw} />
        <div
          className="ps-track"
          ref={trackRef}
          role="slider"
          tabIndex={0}
          aria-label={t('scrubber')}
          aria-valuemin={Math.round(edge.from)}
          aria-valuemax={Math.round(edge.to)}
          aria-valuenow={Math.round(now)}
          aria-valuetext={valuetext}
          data-testid="scrubber"
          data-window-from={Math.round(win.from)}
          data-window-to={Math.round(win.to)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        >
          <svg width={width} height={AXIS_H} className="ps-axis-svg">
            {noData > 0 ? (
              <rect className="ps-nodata" x={LABEL_W} y={0} width={noData} height={AXIS_H} />
            ) : null}
            <g className="ps-axis">
              {ticks.map((tick) => (
                <g key={tick.seconds} transform={`translate(${tick.x} 0)`}>
                  <line y1={AXIS_H - 5} y2={AXIS_H} />
                  <text y={AXIS_H - 8} textAnchor={tick.seconds === 0 ? 'end' : 'middle'}>
                    {tick.seconds !== 0
                      ? formatOffset(tick.seconds, locale)
                      : live
                        ? t('now')
                        : t('atEnd')}
                  </text>
                </g>
              ))}
            </g>
            <IncidentMarkers x={scale} height={AXIS_H} />
            {inView(now) ? (
              <g className="ps-cursor" transform={`translate(${x} 0)`}>
                <line y1={0} y2={AXIS_H} />
                <path d="M-6 0 H6 L0 8 Z" />
              </g>
            ) : null}
          </svg>
          <svg width={width} height={height} className="ps-lanes-svg">
            {noData > 0 ? (
              <rect className="ps-nodata" x={LABEL_W} y={0} width={noData} height={height} />
            ) : null}
            <g className="ps-grid">
              {ticks.map((tick) => (
                <line key={tick.seconds} x1={tick.x} x2={tick.x} y1={0} y2={height} />
              ))}
            </g>
            {lanes.map((lane, i) => {
              const y = i * LANE_H;
              return (
                <g
                  key={lane.id}
                  className={`ps-lane ps-lane-${lane.layer}${lane.id === selection || lane.id === selectedPod ? ' is-selected' : ''}`}
                  data-lane={lane.id}
                >
                  <rect className="ps-lane-bg" x={0} y={y} width={width} height={LANE_H} />
                  <text className="ps-lane-label" x={lane.layer === 'node' ? 6 : 16} y={y + 10.5}>
                    {cutLabel(lane.label, LABEL_W - (lane.layer === 'node' ? 6 : 16) - 8)}
                  </text>
                  {lane.markers
                    .filter((m) => inView(m.t))
                    .map((m) => (
                      <rect
                        key={m.seq}
                        className="ps-marker"
                        x={scale(m.t) - 1.5}
                        y={y + 2.5}
                        width={3}
                        height={LANE_H - 5}
                        rx={1}
                        fill={TONE_COLOR[m.tone]}
                        data-tone={m.tone}
                      />
                    ))}
                </g>
              );
            })}
            {inView(now) ? (
              <g className="ps-cursor" transform={`translate(${x} 0)`}>
                <line y1={0} y2={height} />
              </g>
            ) : null}
          </svg>
        </div>
      </div>
    </section>
  );
}

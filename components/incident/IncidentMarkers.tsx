'use client';
/**
 * Incident marks on the timeline's axis (its one hook into the timeline): the annotations of a
 * saved timeline — diamonds that jump to their moment and select their entity — or, in the live
 * console, the marked period as a band between its start and end flags.
 *
 * The diamonds sit inside the scrubber, an ARIA slider, which holds no other controls: they are a
 * pointer shortcut, hidden from assistive technology and out of the tab order. The same jumps
 * are the buttons of the annotation list beside the timeline (AnnotationList.tsx), reachable
 * from the keyboard and named there.
 */
import { useTranslations } from 'next-intl';
import type { PointerEvent } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { inertText, type TimelineAnnotation } from '@/lib/timeline/file';
import { useMarks } from './marks-store';
import { useSharedTimeline } from './shared-context';
import { useMoment } from './use-moment';
import './incident.css';

/** Pointer presses on a marker must not also start a scrub of the track underneath. */
const keepFromTrack = (e: PointerEvent) => e.stopPropagation();

export function IncidentMarkers({ x, height }: { x: (t: number) => number; height: number }) {
  const shared = useSharedTimeline();
  return shared ? (
    <AnnotationMarkers x={x} height={height} annotations={shared.annotations} />
  ) : (
    <PeriodMarks x={x} height={height} />
  );
}

function AnnotationMarkers({
  x,
  height,
  annotations,
}: {
  x: (t: number) => number;
  height: number;
  annotations: readonly TimelineAnnotation[];
}) {
  const t = useTranslations('incident.markers');
  const moment = useMoment();
  const { actions } = useCluster();
  const open = (a: TimelineAnnotation) => {
    actions.seek(a.t);
    if (a.entity) actions.select(a.entity);
  };
  const size = Math.min(6, height / 3);
  return (
    <g className="ps-inc-markers" data-testid="annotation-markers" aria-hidden="true">
      {annotations.map((a, i) => {
        // The scale clamps: a note at the very end of the period sits at the end of the track.
        const label = t('annotation', { time: moment(a.t), text: inertText(a.text, { max: 120 }) });
        return (
          <g
            key={`${a.t}-${i}`}
            className="ps-inc-marker"
            transform={`translate(${x(a.t)} ${size + 1})`}
            data-testid="annotation-marker"
            onPointerDown={keepFromTrack}
            onClick={(e) => {
              e.stopPropagation();
              open(a);
            }}
          >
            <title>{label}</title>
            <path d={`M0 ${-size} L${size} 0 L0 ${size} L${-size} 0 Z`} />
          </g>
        );
      })}
    </g>
  );
}

function PeriodMarks({ x, height }: { x: (t: number) => number; height: number }) {
  const t = useTranslations('incident.markers');
  const { t: cursor } = useCluster();
  const marks = useMarks();
  if (marks.start === undefined && marks.end === undefined) return null;
  const a = marks.start ?? marks.end ?? cursor;
  const b = marks.start !== undefined && marks.end !== undefined ? marks.end : cursor;
  const [from, to] = a <= b ? [a, b] : [b, a];
  return (
    <g className="ps-inc-period-marks" data-testid="period-marks" aria-label={t('period')}>
      <rect
        className="ps-inc-band"
        x={x(from)}
        y={0}
        width={Math.max(1, x(to) - x(from))}
        height={height}
      />
      {marks.start !== undefined ? (
        <Flag x={x(marks.start)} height={height} label={t('start')} />
      ) : null}
      {marks.end !== undefined ? <Flag x={x(marks.end)} height={height} label={t('end')} /> : null}
    </g>
  );
}

function Flag({ x, height, label }: { x: number; height: number; label: string }) {
  return (
    <g className="ps-inc-flag" transform={`translate(${x} 0)`}>
      <title>{label}</title>
      <line y1={0} y2={height} />
      <path d="M0 0 H7 L5 3 L7 6 H0 Z" />
    </g>
  );
}

'use client';
/**
 * One state machine, drawn from data: states as pills, edges as curves, the current state
 * highlighted. When the entity moves forward along an edge (live or playing), a dot travels that
 * edge once and the edge is labelled with the CRI event that drove it; with reduced motion the
 * edge only lights up briefly. A container's Running is drawn in two (machines.ts): ready, and
 * not ready — dashed, as the diagram draws such a container, named for what holds it back
 * (`readiness`, also the figure's `data-ready`: notready | notstarted).
 */
import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useRef, useState } from 'react';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONE_COLOR, type Tone } from '@/components/visual/palette';
import { layoutMachine } from './machine-layout';
import type { Machine, MachineState, UnreadyKind } from './machines';
import { useWhy } from './WhyText';
import type { Transition } from './transitions';

/**
 * Text and icons on a filled current state: dark where white would not reach 4.5:1 on the
 * palette colour (green, orange, grey, vermillion), white on blue.
 */
const ON_TONE: Record<Tone, string> = {
  ok: '#111',
  pending: '#111',
  done: '#fff',
  failed: '#111',
  unknown: '#111',
};

const W = 320;
const H = 140;

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    if (typeof window === 'undefined' || !window.matchMedia) return;
    const mq = window.matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setReduced(mq.matches);
    update();
    mq.addEventListener('change', update);
    return () => mq.removeEventListener('change', update);
  }, []);
  return reduced;
}

function TravellingDot({ path, color }: { path: string; color: string }) {
  const ref = useRef<SVGAnimateMotionElement | null>(null);
  // Inserted after the document timeline started, SMIL needs an explicit begin.
  useEffect(() => {
    ref.current?.beginElement();
  }, []);
  return (
    <circle className="ps-machine-dot" r={5} fill={color}>
      <animateMotion ref={ref} dur="0.9s" begin="indefinite" fill="freeze" path={path} />
    </circle>
  );
}

export function StateMachine({
  machine,
  current,
  readiness,
  transition,
  title,
}: {
  machine: Machine;
  current: string | undefined;
  /** Why the current state, if a not-ready one, is not ready. */
  readiness?: UnreadyKind | undefined;
  transition: Transition | undefined;
  title: string;
}) {
  const t = useTranslations('ui.panel');
  const describe = useWhy();
  // A state named by messages shows the one for the current readiness; it is laid out as wide
  // as the longest of them, so the drawing does not move when the readiness does.
  const layout = useMemo(() => {
    const widest = (s: MachineState): string =>
      s.labelKeys
        ? Object.values(s.labelKeys)
            .map((key) => t(`machineState.${key}`))
            .reduce((a, b) => (b.length > a.length ? b : a), '')
        : s.label;
    return layoutMachine(
      { ...machine, states: machine.states.map((s) => ({ ...s, label: widest(s) })) },
      W,
      H,
    );
  }, [machine, t]);
  const reduced = usePrefersReducedMotion();
  // Animate only forward moves onto a new transition, never when scrubbing back.
  const [animated, setAnimated] = useState<number | undefined>(undefined);
  const lastSeen = useRef<number | undefined>(transition?.seq);
  useEffect(() => {
    const seq = transition?.seq;
    if (seq !== undefined && lastSeen.current !== undefined && seq > lastSeen.current)
      setAnimated(seq);
    lastSeen.current = seq;
  }, [transition?.seq]);
  const activeKey = transition ? `${transition.from}->${transition.to}` : undefined;
  const stateTone = (id: string) => machine.states.find((s) => s.id === id)?.tone ?? 'unknown';
  const stateLabel = (id: string | undefined) => {
    const s = id !== undefined ? machine.states.find((x) => x.id === id) : undefined;
    if (!s) return '—';
    const key = s.labelKeys
      ? ((id === current && readiness ? s.labelKeys[readiness] : undefined) ??
        Object.values(s.labelKeys)[0])
      : undefined;
    return key ? t(`machineState.${key}`) : s.label;
  };
  const unready = (id: string) => machine.states.find((s) => s.id === id)?.labelKeys !== undefined;
  return (
    <figure
      className="ps-machine"
      data-machine={machine.id}
      data-current={current}
      {...(current !== undefined && unready(current) && readiness
        ? { 'data-ready': readiness }
        : {})}
    >
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={t('machineLabel', { machine: title, state: stateLabel(current) })}
      >
        <defs>
          <marker
            id={`ps-arrow-${machine.id}`}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0 0 L10 5 L0 10 z" className="ps-machine-arrow" />
          </marker>
        </defs>
        {layout.edges.map((e) => {
          const active = e.key === activeKey;
          const edge = machine.edges.find((x) => x.from === e.from && x.to === e.to);
          const hint = edge
            ? `${describe({ id: edge.why }) ?? edge.id} (${edge.drivers.join(', ')})`
            : e.key;
          return (
            <g
              key={e.key}
              className={`ps-machine-edge${active ? ' is-last' : ''}${active && animated === transition?.seq ? ' is-animating' : ''}`}
              data-edge={e.key}
            >
              <title>{hint}</title>
              <path d={e.d} markerEnd={`url(#ps-arrow-${machine.id})`} />
            </g>
          );
        })}
        {layout.states.map((s) => {
          const tone = stateTone(s.id);
          const isCurrent = s.id === current;
          return (
            <g
              key={s.id}
              className={`ps-machine-state ps-tone-${tone}${isCurrent ? ' is-current' : ''}${unready(s.id) ? ' is-unready' : ''}`}
              data-state={s.id}
            >
              <rect
                x={s.cx - s.w / 2}
                y={s.cy - s.h / 2}
                width={s.w}
                height={s.h}
                rx={s.h / 2}
                stroke={TONE_COLOR[tone]}
              />
              <StateGlyph
                tone={tone}
                x={s.cx - s.w / 2 + 9}
                y={s.cy - 6}
                size={12}
                color={isCurrent ? ON_TONE[tone] : undefined}
              />
              <text
                x={s.cx + 8}
                y={s.cy + 4.5}
                textAnchor="middle"
                style={isCurrent ? { fill: ON_TONE[tone] } : undefined}
              >
                {stateLabel(s.id)}
              </text>
            </g>
          );
        })}
        {transition && activeKey
          ? (() => {
              const e = layout.edges.find((x) => x.key === activeKey);
              if (!e) return null;
              const color = TONE_COLOR[stateTone(transition.to)];
              return (
                <g className="ps-machine-label">
                  {animated === transition.seq && !reduced ? (
                    <TravellingDot key={transition.seq} path={e.d} color={color} />
                  ) : null}
                  <text x={e.mx} y={e.my - 6} textAnchor="middle" data-cause={transition.label}>
                    {transition.label}
                  </text>
                </g>
              );
            })()
          : null}
      </svg>
    </figure>
  );
}

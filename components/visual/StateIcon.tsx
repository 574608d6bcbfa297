/** The fixed icon of a tone, for use inside SVG (`<StateGlyph>`) or in HTML (`<StateIcon>`). */
import { TONE_COLOR, TONE_ICON, type Tone } from './palette';

export function StateGlyph({
  tone,
  x,
  y,
  size = 12,
  color,
}: {
  tone: Tone;
  x: number;
  y: number;
  size?: number;
  color?: string;
}) {
  const icon = TONE_ICON[tone];
  const c = color ?? TONE_COLOR[tone];
  return (
    <path
      className="ps-glyph"
      d={icon.d}
      transform={`translate(${x} ${y}) scale(${size / 12})`}
      fill={icon.filled ? c : 'none'}
      stroke={c}
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    />
  );
}

export function StateIcon({
  tone,
  size = 12,
  className,
}: {
  tone: Tone;
  size?: number;
  className?: string;
}) {
  return (
    <svg
      className={className ? `ps-icon ${className}` : 'ps-icon'}
      width={size}
      height={size}
      viewBox="0 0 12 12"
      aria-hidden="true"
      focusable="false"
    >
      <StateGlyph tone={tone} x={0} y={0} />
    </svg>
  );
}

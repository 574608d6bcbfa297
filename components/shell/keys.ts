/**
 * The console's keyboard map, as a pure function of the key and what has focus, so the rules
 * are testable: Space plays/pauses, ←/→ step between events, Home/End jump to the start and to
 * live, Escape clears the selection. Keys typed into form controls are never taken; keys the
 * diagram or the scrubber handle themselves never reach here.
 */
export type KeyAction =
  'togglePlay' | 'stepBack' | 'stepForward' | 'start' | 'live' | 'clearSelection';

export type FocusKind = 'text' | 'button' | 'other';

export function keyAction(
  e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean },
  focus: FocusKind,
): KeyAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey || focus === 'text') return undefined;
  switch (e.key) {
    case ' ':
    case 'Spacebar':
      // A focused button activates itself with Space.
      return focus === 'button' ? undefined : 'togglePlay';
    case 'ArrowLeft':
      return 'stepBack';
    case 'ArrowRight':
      return 'stepForward';
    case 'Home':
      return 'start';
    case 'End':
      return 'live';
    case 'Escape':
      return 'clearSelection';
    default:
      return undefined;
  }
}

/** What kind of element has focus, from its tag, role and editability. */
export function focusKind(
  el: {
    tagName?: string;
    isContentEditable?: boolean;
    getAttribute?(n: string): string | null;
  } | null,
): FocusKind {
  if (!el?.tagName) return 'other';
  const tag = el.tagName.toLowerCase();
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || el.isContentEditable)
    return 'text';
  const role = el.getAttribute?.('role');
  if (tag === 'button' || tag === 'summary' || tag === 'a' || role === 'button') return 'button';
  return 'other';
}

import { describe, expect, it } from 'vitest';
import { focusKind, keyAction } from './keys';

describe('console keys', () => {
  it('maps the transport keys', () => {
    expect(keyAction({ key: ' ' }, 'other')).toBe('togglePlay');
    expect(keyAction({ key: 'ArrowLeft' }, 'other')).toBe('stepBack');
    expect(keyAction({ key: 'ArrowRight' }, 'button')).toBe('stepForward');
    expect(keyAction({ key: 'Home' }, 'other')).toBe('start');
    expect(keyAction({ key: 'End' }, 'other')).toBe('live');
    expect(keyAction({ key: 'Escape' }, 'other')).toBe('clearSelection');
  });

  it('leaves typing, shortcuts and button activation alone', () => {
    expect(keyAction({ key: ' ' }, 'text')).toBeUndefined();
    expect(keyAction({ key: 'ArrowLeft' }, 'text')).toBeUndefined();
    expect(keyAction({ key: ' ' }, 'button')).toBeUndefined();
    expect(keyAction({ key: 'ArrowLeft', altKey: true }, 'other')).toBeUndefined();
    expect(keyAction({ key: 'r', ctrlKey: true }, 'other')).toBeUndefined();
    expect(keyAction({ key: 'x' }, 'other')).toBeUndefined();
  });

  it('classifies the focused element', () => {
    const el = (tagName: string, role: string | null = null, isContentEditable = false) => ({
      tagName,
      isContentEditable,
      getAttribute: () => role,
    });
    expect(focusKind(el('SELECT'))).toBe('text');
    expect(focusKind(el('DIV', null, true))).toBe('text');
    expect(focusKind(el('BUTTON'))).toBe('button');
    expect(focusKind(el('g', 'button'))).toBe('button');
    expect(focusKind(el('g', 'treeitem'))).toBe('other');
    expect(focusKind(null)).toBe('other');
  });
});

import { describe, expect, it } from 'vitest';
import { cssString, highlightCss } from './highlight';

describe('highlightCss', () => {
  it('selects the drawn groups by data-id inside the scope', () => {
    const css = highlightCss(['a1b2/thumbnailer', 'a1b2'], '.ps-learn-stage');
    expect(css).toContain('.ps-learn-stage g[data-id="a1b2/thumbnailer"]');
    expect(css).toContain('.ps-learn-stage g[data-id="a1b2"] > rect:first-of-type');
    expect(highlightCss([], '.x')).toBe('');
  });

  it('escapes ids as CSS strings, so no id can end the rule', () => {
    expect(cssString('plain-id/app')).toBe('"plain-id/app"');
    expect(cssString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(cssString('x\n} body { display:none')).toBe('"x\\a } body { display:none"');
    const css = highlightCss(['"] , body { color: red } g[data-id="'], '.s');
    // Everything the id contained stays inside one quoted string.
    expect(css.split('\n')[0]).toMatch(
      /^\.s g\[data-id="\\"\] , body \{ color: red \} g\[data-id=\\""\] \{/,
    );
  });
});

/**
 * An axe-core audit of what a page shows right now: axe's own source evaluated in the page (over
 * the DevTools protocol, so the console's nonce-based Content-Security-Policy does not apply to
 * it), run on the whole document with axe's default rule set — nothing disabled, nothing
 * excluded. `expectAccessible` fails with every violation listed: the rule, its impact, and the
 * first few offending elements with axe's own summary of what is wrong.
 */
import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/** How many offending elements of one rule a failure message shows. */
const NODES_SHOWN = 6;

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const a = window.axe;
    if (!a) throw new Error('axe-core did not load');
    const result = await a.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
  });
}

export function formatViolations(where: string, violations: readonly AxeViolation[]): string {
  const lines = [`${where}: ${violations.length} axe rule(s) violated`];
  for (const v of violations) {
    lines.push(`- ${v.id} (${v.impact ?? 'n/a'}, ${v.nodes.length} element(s)): ${v.help}`);
    for (const n of v.nodes.slice(0, NODES_SHOWN)) lines.push(`    ${n.target} — ${n.summary}`);
    if (v.nodes.length > NODES_SHOWN) lines.push(`    … and ${v.nodes.length - NODES_SHOWN} more`);
  }
  return lines.join('\n');
}

/** Fails unless axe finds nothing on the page as it is now; `where` names it in the message. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(
    violations.map((v) => `${v.id} × ${v.nodes.length}`),
    formatViolations(where, violations),
  ).toEqual([]);
}

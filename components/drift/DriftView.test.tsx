/**
 * The drift view and badge rendered to HTML with the real catalogues, in both languages: the
 * stable test hooks, both values, the explanation, the kind filter and the badge's accessible name.
 */
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/locales';
import { DriftBadge } from './DriftBadge';
import { DriftView } from './DriftView';
import { NODES, T } from './testing/fixtures';
import { renderIntl } from './testing/render';

const render = (node: ReactElement, locale: Locale = 'en') => renderIntl(node, T, locale);

describe('DriftView', () => {
  it('lists each drift with its kind hook, both values and the explanation', () => {
    const doc = render(<DriftView nodes={NODES} now={T} />);
    const view = doc.querySelector('[data-testid="drift-view"]');
    expect(view).not.toBeNull();
    const rows = [...doc.querySelectorAll('[data-drift-kind]')];
    expect(rows.map((r) => r.getAttribute('data-drift-kind'))).toEqual([
      'staleStatus',
      'kubeletNotReporting',
      'missingPod',
    ]);
    const stale = rows[0]!;
    const cells = [...stale.querySelectorAll('td')].map((c) => c.textContent);
    expect(cells[0]).toContain('default/web/app');
    expect(cells[0]).toContain('Stale status');
    expect(cells[1]).toBe('status.containerStatuses[app].state');
    expect(cells[2]).toBe('Running');
    expect(cells[3]).toBe('Failed');
    // The lag is as of the moment shown (30 s), not as recorded (3 s).
    expect(cells[4]).toBe(
      'The API server still shows app as Running; in the runtime it became Waiting 30 s ago. The kubelet has not posted the newer status yet.',
    );
    expect(rows[1]!.querySelectorAll('td')[3]!.textContent).toBe('reachable');
    expect(rows[2]!.querySelectorAll('td')[3]!.textContent).toBe('none');
  });

  it('shows what is still propagating when asked, and narrows to one kind', () => {
    const all = render(
      <DriftView nodes={NODES} now={T} initialFilter={{ includePropagating: true }} />,
    );
    const statuses = [...all.querySelectorAll('[data-drift-kind]')].map((r) =>
      r.getAttribute('data-drift-status'),
    );
    expect(statuses).toEqual(['drift', 'drift', 'drift', 'propagating']);
    const one = render(<DriftView nodes={NODES} now={T} initialFilter={{ kind: 'missingPod' }} />);
    expect(
      [...one.querySelectorAll('[data-drift-kind]')].map((r) => r.getAttribute('data-drift-kind')),
    ).toEqual(['missingPod']);
    const options = [...one.querySelectorAll('option')].map((o) => o.getAttribute('value'));
    expect(options).toEqual(['all', 'staleStatus', 'kubeletNotReporting', 'missingPod']);
  });

  it('marks the rows of the selected entity and labels each cell for the narrow layout', () => {
    const doc = render(<DriftView nodes={NODES} now={T} selected="node-b" onSelect={() => {}} />);
    const missing = doc.querySelector('[data-drift-kind="missingPod"]');
    // A pod the runtime does not have selects the node its drift lives on.
    expect(missing?.getAttribute('data-entity')).toBe('node-b');
    expect(missing?.getAttribute('class')).toContain('is-selected');
    expect(missing?.querySelector('button')?.getAttribute('aria-pressed')).toBe('true');
    const stale = doc.querySelector('[data-drift-kind="staleStatus"]');
    expect(stale?.getAttribute('class')).not.toContain('is-selected');
    expect(stale?.querySelectorAll('td').map((c) => c.getAttribute('data-label'))).toEqual([
      'Object',
      'Field',
      'API server',
      'Runtime',
      'Why',
      'Age',
    ]);
  });

  it('says so when the two sides agree', () => {
    const doc = render(<DriftView nodes={{}} now={T} />);
    expect(doc.querySelectorAll('[data-drift-kind]')).toHaveLength(0);
    expect(doc.querySelector('.ps-drift-empty')?.textContent).toBe(
      'No drift: the API server and the runtime agree.',
    );
  });

  it('speaks Chinese', () => {
    const doc = render(<DriftView nodes={NODES} now={T} />, 'zh-CN');
    expect(doc.querySelector('h2')?.textContent).toBe('偏差');
    expect(doc.querySelector('[data-drift-kind="missingPod"] td')?.textContent).toContain(
      '节点上缺少 Pod',
    );
  });
});

describe('DriftBadge', () => {
  it('has an accessible name saying how many disagreements', () => {
    const doc = render(<DriftBadge drift={NODES['node-a']!.pods.u1!.drift} entity="web" />);
    const badge = doc.querySelector('[role="img"]');
    expect(badge?.getAttribute('aria-label')).toBe(
      'web: 1 disagreement between the API server and the runtime',
    );
    expect(badge?.getAttribute('data-drift-status')).toBe('drift');
    expect(badge?.textContent).toBe('≠1');
  });

  it('is muted when every change is still propagating, and absent when there is none', () => {
    const propagating = NODES['node-a']!.pods.u1!.drift!.filter((d) => d.status === 'propagating');
    const doc = render(<DriftBadge drift={propagating} entity="web" />, 'zh-CN');
    expect(doc.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'web：1 处变化正在传播到 API 服务器',
    );
    expect(render(<DriftBadge drift={[]} entity="web" />).html).toBe('');
  });
});

/**
 * The writer of a value beside it in the panel: a condition's status names the kubelet or the node
 * lifecycle controller (from its why), in the reader's language; a value with no known writer
 * (drift, none recorded) has no label.
 */
import { NextIntlClientProvider } from 'next-intl';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { messagesFor } from '@/lib/i18n/messages';
import { Conditions } from './Conditions';
import { WriterLabel } from './WriterLabel';

const render = (locale: 'en' | 'zh-CN', node: React.ReactNode) =>
  renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messagesFor(locale)} timeZone="UTC">
      {node}
    </NextIntlClientProvider>,
  );

describe('writer labels', () => {
  it('pod conditions: Ready marked by the node lifecycle controller, the rest by the kubelet', () => {
    const html = render(
      'en',
      <Conditions
        kind="pod"
        reference={0}
        conditions={[
          { type: 'Ready', status: 'False' },
          { type: 'ContainersReady', status: 'True' },
          { type: 'Custom', status: 'True' },
        ]}
        why={{
          Ready: { id: 'condition.ready.nodeNotReady', params: { nodeStatus: 'Unknown' } },
          ContainersReady: { id: 'condition.containersReady.true', params: { count: 1 } },
        }}
      />,
    );
    const row = (type: string) =>
      new RegExp(`data-condition="${type}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
    expect(row('Ready')).toContain('data-writer="nodeLifecycleController"');
    expect(row('Ready')).toContain('>node lifecycle controller<');
    expect(row('ContainersReady')).toContain('data-writer="kubelet"');
    // Existing data-* attributes stay.
    expect(row('Ready')).toContain('data-status="False"');
    expect(row('Custom')).not.toContain('data-writer');
  });

  it('in Chinese, with the sentence as its title', () => {
    const html = render('zh-CN', <WriterLabel writer="apiServerAdmission" />);
    expect(html).toContain('API 服务器准入');
    expect(html).toContain('title="由 API 服务器准入 写入（上游）"');
    expect(render('en', <WriterLabel why={{ id: 'drift.phase.mismatch' }} />)).toBe('');
  });
});

/** The node panel says which kubelet version's rules were applied, and why that one, in both languages. */
import { NextIntlClientProvider } from 'next-intl';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { messagesFor } from '@/lib/i18n/messages';
import { KubeletVersionFact } from './KubeletVersion';

const render = (locale: 'en' | 'zh-CN', node: React.ReactNode) =>
  renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messagesFor(locale)} timeZone="UTC">
      <dl>{node}</dl>
    </NextIntlClientProvider>,
  );

describe('KubeletVersionFact', () => {
  it('the API server’s version', () => {
    const html = render(
      'en',
      <KubeletVersionFact version={{ value: '1.29', source: 'api-server', reported: 'v1.29.3' }} />,
    );
    expect(html).toContain('data-kubelet-version="1.29"');
    expect(html).toContain('data-kubelet-version-source="api-server"');
    expect(html).toContain('Kubelet rules');
    expect(html).toContain('Kubelet v1.29.3, as the API server');
  });

  it('the default, said to be one, in Chinese', () => {
    const html = render(
      'zh-CN',
      <KubeletVersionFact version={{ value: '1.36', source: 'default' }} />,
    );
    expect(html).toContain('data-kubelet-version-source="default"');
    expect(html).toContain('kubelet 版本未知');
  });

  it('a node recorded before versions were: the default', () => {
    expect(render('en', <KubeletVersionFact version={undefined} />)).toContain(
      'data-kubelet-version-source="default"',
    );
  });
});

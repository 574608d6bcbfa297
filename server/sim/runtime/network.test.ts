import { describe, expect, it } from 'vitest';
import { listenersOf } from './network';

describe('listenersOf', () => {
  it('reads busybox httpd and nc from argv or a sh -c script', () => {
    expect(listenersOf(['httpd', '-f'])).toEqual([{ port: 80, kind: 'http', home: '/' }]);
    expect(listenersOf(['/usr/sbin/httpd', '-f', '-p', '0.0.0.0:8080', '-h', '/www'])).toEqual([
      { port: 8080, kind: 'http', home: '/www' },
    ]);
    expect(
      listenersOf([
        'sh',
        '-c',
        'mkdir -p /www; echo ok > /www/healthz; exec httpd -f -p 3631 -h /www',
      ]),
    ).toEqual([{ port: 3631, kind: 'http', home: '/www' }]);
    expect(listenersOf(['sh', '-c', 'nc -lk -p 9000 & sleep 3600'])).toEqual([
      { port: 9000, kind: 'tcp', home: '/' },
    ]);
    expect(listenersOf(['busybox', 'nc', '-lp', '7000'])).toEqual([
      { port: 7000, kind: 'tcp', home: '/' },
    ]);
  });

  it('ignores commands that do not listen', () => {
    expect(listenersOf(['sleep', '3600'])).toEqual([]);
    expect(listenersOf(['nc', 'example.com', '80'])).toEqual([]);
    expect(listenersOf(['sh', '-c', 'echo httpd'])).toEqual([]);
    expect(listenersOf(['httpd', '-p', 'nope'])).toEqual([]);
  });
});

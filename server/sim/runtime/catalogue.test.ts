import { describe, expect, it } from 'vitest';
import { resolveExecutable, startErrorMessage } from '../busybox/applets';
import { CATALOGUE, catalogueEntry, makeImage, normaliseRef, slowPullMs } from './catalogue';
import { composeArgv } from './model';

describe('image names', () => {
  it.each([
    ['busybox', 'docker.io/library/busybox:latest'],
    ['library/nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['podscope.local/app', 'podscope.local/app:latest'],
    ['podscope.local/busybox:1', 'podscope.local/busybox:1'],
    ['localhost:5000/x/y:2', 'localhost:5000/x/y:2'],
  ])('%s → %s', (input, name) => {
    expect(normaliseRef(input)?.name).toBe(name);
  });
  it('ids, digests and junk are not names', () => {
    for (const ref of ['sha256:abc', 'x@sha256:abc', '', 'UPPER/case', 'a:b:c:d'])
      expect(normaliseRef(ref)).toBeUndefined();
  });
  it('slow-pull reads its tag as a duration', () => {
    expect(slowPullMs('30s')).toBe(30_000);
    expect(slowPullMs('2m')).toBe(120_000);
    expect(slowPullMs('latest')).toBe(20_000);
  });
  it('every catalogue repository is unique and under podscope.local', () => {
    const repos = CATALOGUE.map((e) => e.repository);
    expect(new Set(repos).size).toBe(repos.length);
    for (const r of repos) expect(r.startsWith('podscope.local/')).toBe(true);
  });
});

describe("containerd's command composition (WithProcessArgs)", () => {
  const busybox = makeImage(
    normaliseRef('podscope.local/busybox:1')!,
    catalogueEntry('podscope.local/busybox')!,
  );
  const missing = makeImage(
    normaliseRef('podscope.local/missing-binary:1')!,
    catalogueEntry('podscope.local/missing-binary')!,
  );
  it('command replaces the entrypoint and drops the image cmd', () => {
    expect(composeArgv(['sleep'], [], busybox)).toEqual(['sleep']);
    expect(composeArgv(['sleep'], ['5'], busybox)).toEqual(['sleep', '5']);
  });
  it('no command: image entrypoint, with args or else the image cmd', () => {
    expect(composeArgv([], [], busybox)).toEqual(['/bin/sleep', '2147483647']);
    expect(composeArgv([], ['echo', 'hi'], busybox)).toEqual(['echo', 'hi']);
    expect(composeArgv([], ['--flag'], missing)).toEqual(['/app/server', '--flag']);
  });
});

describe('executables', () => {
  const rootfs = { busybox: true, serve: false };
  it('finds applets on PATH and by their real paths only', () => {
    expect(resolveExecutable(rootfs, 'sleep')).toBe('sleep');
    expect(resolveExecutable(rootfs, '/bin/sleep')).toBe('sleep');
    expect(resolveExecutable(rootfs, '/bin/sh')).toBe('sh');
    expect(resolveExecutable(rootfs, '/usr/bin/[')).toBe('[');
    expect(resolveExecutable(rootfs, '/usr/bin/sleep')).toBeUndefined();
    expect(resolveExecutable(rootfs, '/no/such/binary')).toBeUndefined();
    expect(resolveExecutable(rootfs, 'serve')).toBeUndefined();
    expect(resolveExecutable({ busybox: true, serve: true }, '/usr/local/bin/serve')).toBe('serve');
  });
  it('words start errors like runc 1.1 through containerd 1.6', () => {
    expect(startErrorMessage('/no/such/binary')).toBe(
      'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
        'unable to start container process: exec: "/no/such/binary": stat /no/such/binary: no such file or directory: unknown',
    );
    expect(startErrorMessage('nosuch')).toContain(
      'exec: "nosuch": executable file not found in $PATH: unknown',
    );
  });
});

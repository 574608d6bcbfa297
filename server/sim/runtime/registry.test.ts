import { describe, expect, it } from 'vitest';
import { createClock } from '../clock/clock';
import { SimRpcError } from './errors';
import { ImageStore, toCriImage } from './images';
import { imageUser, PUBLISHED, publishedByDigest, publishedByTag } from './registry';

const CRI_TOOLS = 'gcr.io/k8s-staging-cri-tools';
const DIGEST = 'sha256:9700f9a2f5bf2c45f2f605a0bd3bce7cf37420ec9d3ed50ac2758413308766bf';

const store = () => new ImageStore(createClock({ mode: 'manual', start: 0 }));

async function code(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SimRpcError) return err.code;
    throw err;
  }
  throw new Error('expected a SimRpcError');
}

describe('the simulated public registry', () => {
  it('holds the tags it publishes and nothing else', () => {
    expect(publishedByTag('registry.k8s.io/e2e-test-images/busybox', '1.29-2')).toBeDefined();
    expect(publishedByTag('registry.k8s.io/e2e-test-images/busybox', '9.99')).toBeUndefined();
    expect(publishedByTag('docker.io/library/nginx', 'latest')).toBeUndefined();
    expect(publishedByDigest(`${CRI_TOOLS}/test-image-digest`, DIGEST)).toBeDefined();
    expect(publishedByDigest(`${CRI_TOOLS}/test-image-digest`, `sha256:${'0'.repeat(64)}`)).toBe(
      undefined,
    );
    const names = PUBLISHED.flatMap((p) => p.tags.map((t) => `${p.repository}:${t}`));
    expect(new Set(names).size).toBe(names.length);
    for (const p of PUBLISHED) expect(p.repository.startsWith('podscope.local/')).toBe(false);
  });

  it("containerd's getUserFromImage: a numeric user is the uid, a name the username", () => {
    expect(imageUser(undefined)).toEqual({ username: '' });
    expect(imageUser('1002')).toEqual({ uid: 1002, username: '' });
    expect(imageUser('1003:users')).toEqual({ uid: 1003, username: '' });
    expect(imageUser('www-data')).toEqual({ username: 'www-data' });
    expect(imageUser('www-data:users')).toEqual({ username: 'www-data' });
  });
});

describe('ImageStore with the registry', () => {
  it('pulls a tag: one repo tag, one repo digest, resolvable by id, tag and digest', async () => {
    const images = store();
    const image = await images.pull('registry.k8s.io/e2e-test-images/busybox:1.29-2');
    expect(image.repoTags).toEqual(['registry.k8s.io/e2e-test-images/busybox:1.29-2']);
    expect(image.repoDigests).toEqual([
      expect.stringMatching(/^registry\.k8s\.io\/e2e-test-images\/busybox@sha256:[0-9a-f]{64}$/),
    ]);
    expect(images.resolve(image.id)).toBe(image);
    expect(images.resolve(image.repoDigests[0] ?? '')).toBe(image);
    expect(images.resolve('registry.k8s.io/e2e-test-images/busybox:1.29-2')).toBe(image);
  });

  it('a missing tag or repository stays missing: NOT_FOUND, as for ImagePullBackOff', async () => {
    const images = store();
    expect(await code(images.pull('registry.k8s.io/e2e-test-images/busybox:0.0'))).toBe(5);
    expect(await code(images.pull('example.com/nope:1'))).toBe(5);
    expect(await code(images.pull(`${CRI_TOOLS}/test-image-digest@sha256:${'1'.repeat(64)}`))).toBe(
      5,
    );
    expect(await code(images.pull('x@sha256:short'))).toBe(3);
    expect(images.list()).toEqual([]);
  });

  it('pulls by digest: no repo tag, the digest reference as repo digest', async () => {
    const images = store();
    const ref = `${CRI_TOOLS}/test-image-digest@${DIGEST}`;
    const image = await images.pull(ref);
    expect(toCriImage(image)).toMatchObject({ repo_tags: [], repo_digests: [ref] });
    expect(images.resolve(ref)).toBe(image);
  });

  it('three tags of one manifest are one image with three repo tags; removal drops them all', async () => {
    const images = store();
    const ids = new Set<string>();
    for (const t of ['1', '2', '3'])
      ids.add((await images.pull(`${CRI_TOOLS}/test-image-tags:${t}`)).id);
    expect(ids.size).toBe(1);
    expect(images.list()).toHaveLength(1);
    expect(images.list()[0]?.repoTags).toEqual(
      ['1', '2', '3'].map((t) => `${CRI_TOOLS}/test-image-tags:${t}`),
    );
    images.remove([...ids][0] ?? '');
    expect(images.list()).toEqual([]);
    expect(images.resolve(`${CRI_TOOLS}/test-image-tags:2`)).toBeUndefined();
    images.remove('never-there'); // RemoveImage of an absent image is no error
  });

  it('different repositories are different images', async () => {
    const images = store();
    const a = await images.pull(`${CRI_TOOLS}/test-image-1`);
    const b = await images.pull(`${CRI_TOOLS}/test-image-2:latest`);
    expect(a.id).not.toBe(b.id);
    expect(a.repoTags).toEqual([`${CRI_TOOLS}/test-image-1:latest`]);
  });

  it('Image.uid / username follow the config User', async () => {
    const images = store();
    const uid = toCriImage(await images.pull(`${CRI_TOOLS}/test-image-user-uid`));
    expect([uid.uid, uid.username]).toEqual([{ value: '1002' }, '']);
    const name = toCriImage(await images.pull(`${CRI_TOOLS}/test-image-user-username-group`));
    expect([name.uid, name.username]).toEqual([null, 'www-data']);
    const none = toCriImage(images.preload('podscope.local/busybox:1'));
    expect([none.uid, none.username]).toEqual([null, '']);
  });
});

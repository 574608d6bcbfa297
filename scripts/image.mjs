#!/usr/bin/env node
// `npm run image`: the one Podscope image (console and agent, chosen by command), built offline
// with buildah FROM scratch (Containerfile, deploy/image/build.ts). Prints the result as JSON.
//
//   PODSCOPE_IMAGE_OUT=path.tar   also write it as an OCI archive (`ctr images import` takes it)
//   PODSCOPE_IMAGE_NAME=repo      repository, default localhost/podscope; the tag is the version
import { resolve } from 'node:path';
import {
  ensureAptPackages,
  ensureBuild,
  ensureDemoRecording,
  ensureNodeModules,
  log,
  root,
} from './lib/prepare.mjs';

try {
  ensureNodeModules();
  if (!ensureAptPackages([{ name: 'buildah', check: '/usr/bin/buildah' }])) {
    throw new Error('buildah is missing (Debian: apt-get install buildah)');
  }
  const demo = ensureDemoRecording();
  ensureBuild({ standalone: true });
  await demo;
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: `${root}/tsconfig.json` });
  const { buildImage } = await import('../deploy/image/build.ts');
  const out = process.env.PODSCOPE_IMAGE_OUT;
  const result = await buildImage({
    root,
    repository: process.env.PODSCOPE_IMAGE_NAME,
    out: out ? resolve(out) : undefined,
    log,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

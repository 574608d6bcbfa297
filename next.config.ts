import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';
import { MAX_REQUEST_BYTES } from './lib/timeline/file/limits';

const withNextIntl = createNextIntlPlugin('./i18n/request.ts');

const config: NextConfig = {
  // Native and gRPC modules stay outside the server bundle: smaller chunks, lower build memory
  // (see ../shared/guides/TOOLCHAIN.md).
  serverExternalPackages: [
    '@grpc/grpc-js',
    '@grpc/proto-loader',
    '@kubernetes/client-node',
    'better-sqlite3',
    // Cluster mode only (server/runtime/cluster.ts): pg's optional native binding and the NATS
    // clients are loaded from node_modules as they are.
    'pg',
    'kysely',
    '@nats-io/transport-node',
    '@nats-io/jetstream',
    '@nats-io/kv',
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // `npm run typecheck` (in `npm run check` and CI) checks every file, tests included; the build
  // need not repeat it, and a type error in a test must never stop `npm start`.
  typescript: { ignoreBuildErrors: true },
  // The container image (scripts/image.mjs) runs Next's standalone server: only the files the
  // server needs, traced. `next start` keeps the ordinary build, so only the image asks for it.
  // The image leaves out sharp (next/image's optimiser), which Podscope does not use.
  ...(process.env.PODSCOPE_NEXT_STANDALONE === '1'
    ? { output: 'standalone' as const, images: { unoptimized: true } }
    : {}),
  experimental: {
    // The request proxy (proxy.ts) sees every body; Next cuts what it passes on at 10 MiB by
    // default, which silently truncated imports. The one import limit is 50 MiB
    // (DEFAULT_LIMITS.maxBytes), sent to tRPC as base64: let that much through whole.
    proxyClientMaxBodySize: MAX_REQUEST_BYTES,
  },
};

export default withNextIntl(config);

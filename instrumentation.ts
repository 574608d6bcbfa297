/** Next.js calls register() once per server start: bring Podscope's runtime up before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // tRPC encodes its SSE streams with TextEncoderStream; Node 20's builds every chunk a character
  // at a time (server/trpc/text-encoder-stream.ts).
  const { installTextEncoderStream } = await import('./server/trpc/text-encoder-stream');
  installTextEncoderStream();
  // Every request carries its real TCP peer in a header only this server sets (the request proxy
  // sees no socket): what a trusted OAuth2 proxy is recognised by (server/security/peer.ts).
  const { stampPeerAddresses } = await import('./server/security/peer');
  stampPeerAddresses();
  const { getConfig } = await import('./server/config');
  const { bindProblem } = await import('./server/security/bind');
  const problem = bindProblem(process.argv, getConfig());
  if (problem) {
    const { rootLogger } = await import('./server/log');
    rootLogger().error(problem);
    process.exit(1);
  }
  const { getRuntime } = await import('./server/runtime');
  await getRuntime();
}

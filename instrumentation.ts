/** Next.js calls register() once per server start: bring Podscope's runtime up before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getConfig } = await import('./server/config');
  // Next's CLI started with a bind address other than the approved one refuses to serve
  // (Podscope's own server, server/http/main.ts, checks its address before it listens).
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

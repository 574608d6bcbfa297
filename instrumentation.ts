/** Next.js calls register() once per server start: bring Podscope's runtime up before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getRuntime } = await import('./server/runtime');
  await getRuntime();
}

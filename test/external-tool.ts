/**
 * Suites that need a tool from outside the repository (cri-tools beside the checkout, say). On a
 * developer's clone without it, such a suite says so in one line and is skipped; under CI (`CI`
 * set to anything but empty, `0` or `false`, as .ci/run sets it) it runs and fails as it would
 * without the tool, because CI is where a missing tool must not pass unnoticed.
 */

export function underCI(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

/**
 * For `describe.skipIf(...)`: true when `find` throws (the tool is absent) outside CI, after one
 * line naming the suite and the reason; false when the tool is there, or under CI.
 */
export function skipWithoutTool(
  suite: string,
  find: () => unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
  warn: (line: string) => void = console.warn,
): boolean {
  if (underCI(env)) return false;
  try {
    find();
    return false;
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    warn(`[podscope] skipping ${suite}: ${reason} (under CI=true this fails)`);
    return true;
  }
}

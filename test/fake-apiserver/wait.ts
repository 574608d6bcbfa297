/**
 * Waiting for I/O in integration tests: polls a condition until it holds. The code under test
 * runs on real sockets, so there is no clock to advance; this waits for the network, not for
 * time to pass, and fails with a description of what never happened.
 */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Polls `predicate` every 20 ms until it holds, or fails after `timeoutMs` saying what was awaited. */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

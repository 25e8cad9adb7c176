import type { ChildResult } from "@ringback/test-kit";

/** Fails with everything the command printed unless it exited 0. */
export function expectSuccess(what: string, result: ChildResult): ChildResult {
  if (result.code !== 0) {
    throw new Error(
      `${what} exited with ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
  return result;
}

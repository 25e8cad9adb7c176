import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Lets every Node process the tests start (daemons, relays, hooks, CLIs) reuse V8's compiled code of the same files
 * (Node's `NODE_COMPILE_CACHE`): the suite starts several hundred of them, each compiling the same bundles again.
 * Kept when the caller set its own.
 */
export function shareCompileCache(): void {
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "ringback-test-compile-cache");
}

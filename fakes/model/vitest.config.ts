import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    // Real sockets and child processes: on a 2-core CI machine running every package's suite at once, vitest's
    // 5 s default is too tight a bound for a test that is not stuck. Nothing here asserts speed.
    testTimeout: 30_000,
  },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Real sockets on a busy 2-core machine: vitest's 5 s default is too tight for a test that is not stuck.
    testTimeout: 30_000,
  },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each. Every
    // file stops what it started (servers, streams, timers, push loops) before the next runs: a file that left a
    // push loop retrying slowed the files after it 10 to 50 times.
    isolate: false,
    // One throwaway PostgreSQL server for the whole run (test/support/postgres-global-setup.ts).
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // A worker ends with vitest, so an interrupted run leaves no relay, nginx or PostgreSQL behind.
    setupFiles: ["@ringback/test-kit/vitest-setup"],
    // Several relay instances and a database per test: on a 2-core CI machine running other packages' suites
    // at the same time, 5 s is too tight for a graceful shutdown of two instances.
    testTimeout: 20_000,
  },
});

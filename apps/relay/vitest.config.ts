import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A fresh process per file, unlike the other packages: in one shared worker, what a file leaves running (streams,
    // pushes being retried) slowed the files after it 10 to 50 times (events 0.3 s -> 27 s), so the package took
    // longer than with a process per file.
    isolate: true,
    // One throwaway PostgreSQL server for the whole run (test/support/postgres-global-setup.ts).
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // A worker ends with vitest, so an interrupted run leaves no relay, nginx or PostgreSQL behind.
    setupFiles: ["@ringback/test-kit/vitest-setup"],
    // Several relay instances and a database per test: on a 2-core CI machine running other packages' suites
    // at the same time, 5 s is too tight for a graceful shutdown of two instances.
    testTimeout: 20_000,
  },
});

import { defineConfig } from "vitest/config";

// Child-process tests start real daemons and wait for real backoff (1 s, 2 s): the 5 s default is too tight.
export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A worker ends with vitest, so an interrupted run leaves no daemon, relay or Chromium behind.
    setupFiles: ["@ringback/test-kit/vitest-setup"],
  },
});

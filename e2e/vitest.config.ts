import { defineConfig } from "vitest/config";

// Every file starts real relay and daemon processes and Chromium on a shared, busy machine: files run one at a time
// and waits are generous. Nothing here is timed; speed belongs to `pnpm bench`.
export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    include: ["test/**/*.test.ts"],
    // A worker ends with vitest, so an interrupted run leaves no Chromium, Caddy or server behind.
    setupFiles: ["@ringback/test-kit/vitest-setup"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

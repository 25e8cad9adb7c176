import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    // A worker ends with vitest, so an interrupted run leaves no agent, daemon or relay behind.
    setupFiles: ["@ringback/test-kit/vitest-setup"],
  },
});

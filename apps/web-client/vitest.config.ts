import { defineConfig } from "vitest/config";

export default defineConfig({
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A worker ends with vitest, so an interrupted run leaves no Chromium behind.
    setupFiles: ["@ringback/test-kit/vitest-setup"],
    // The browser smoke test starts Chromium on a shared, busy machine; nothing here is timed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

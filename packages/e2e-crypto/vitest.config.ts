import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One worker runs every file of the package: a fresh process per file cost about a second of CPU each.
    isolate: false,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Builds dist/ when missing or stale: the vector and browser tests load the built bundle.
    globalSetup: ["./test/global-setup.ts"],
    // PBKDF2 with 600000 iterations and a browser start are slow on a busy machine; nothing here is timed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

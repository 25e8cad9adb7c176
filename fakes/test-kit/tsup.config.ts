import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/vitest-setup.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "node22",
  platform: "node",
});

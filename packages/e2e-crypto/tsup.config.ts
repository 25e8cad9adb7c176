import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2023",
  platform: "neutral",
  // Source only, no Node types: the same file must run in browsers.
  tsconfig: "tsconfig.build.json",
});

import { defineConfig } from "tsup";

export default defineConfig({
  // The main entry runs in browsers and Node; `node` adds what needs node:fs (the file store).
  entry: ["src/index.ts", "src/node.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2023",
  platform: "neutral",
});

import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2023",
  platform: "node",
  // Keep `node:` so that a browser bundler sees a Node built-in behind the one lazy import (brief-eval files).
  removeNodeProtocol: false,
});

import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  clean: true,
  target: "node22",
  platform: "node",
  banner: { js: "#!/usr/bin/env node" },
  // node:sqlite exists only under its node: name.
  removeNodeProtocol: false,
});

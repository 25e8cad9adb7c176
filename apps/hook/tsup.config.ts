import { defineConfig } from "tsup";

export default defineConfig({
  // The bin, and the same code as functions for the daemon's `ringback install|uninstall|hook`.
  entry: { "ringback-hook": "src/main.ts", index: "src/index.ts" },
  format: ["esm"],
  platform: "node",
  target: "node22",
  // Everything bundled, each entry on its own: the hook must run with no node_modules at all.
  noExternal: [/.*/],
  // Split so the installer is a chunk of its own, loaded only by `install` and `uninstall`.
  splitting: true,
  removeNodeProtocol: false,
  outExtension: () => ({ js: ".mjs" }),
  banner: { js: "#!/usr/bin/env node" },
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
});

import { defineConfig, type Options } from "tsup";

// Everything bundled: the hook must run with no node_modules at all.
const shared: Options = {
  format: ["esm"],
  platform: "node",
  target: "node22",
  noExternal: [/.*/],
  removeNodeProtocol: false,
  outExtension: () => ({ js: ".mjs" }),
};

export default defineConfig([
  {
    // The bin: the whole report path in one file; the installer is a chunk beside it, loaded only by
    // `install`/`uninstall` (its crypto and child-process modules would slow every agent turn).
    ...shared,
    entry: { "ringback-hook": "src/main.ts" },
    splitting: true,
    banner: { js: "#!/usr/bin/env node" },
    clean: true,
  },
  {
    // The same code as functions for the daemon's `ringback install|uninstall|hook`.
    ...shared,
    entry: { index: "src/index.ts" },
    splitting: false,
    dts: { entry: { index: "src/index.ts" } },
  },
]);

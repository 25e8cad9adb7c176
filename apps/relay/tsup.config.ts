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
  // Bundled with the workspace's patch (patches/postgres@3.4.9.patch): upstream 3.4.9 throws an uncaught TypeError
  // from a write scheduled just before a connection closes (porsager/postgres#1154), which a PostgreSQL restart
  // under load triggers and which would stop the relay. A relay installed from npm gets the fixed copy too.
  // @ringback/protocol and zod are bundled too: `npm install -g` of this package's tarball alone gives a working relay
  // (the @ringback packages are not on the registry yet), without a zod of its own (zod installs at about 8 MB).
  noExternal: ["postgres", /^@ringback\//, "zod"],
});

import { defineConfig } from "tsup";

// The workspace's own packages and zod are bundled: `npm install -g` of this package's tarball alone
// gives a working `ringback` (the @ringback packages are not on the registry yet, and seven installed copies of zod
// made an install of the three CLIs weigh 73 MB). The hook's bin is copied beside the bundle by
// scripts/copy-hook.mjs, so `ringback install` writes a hook command that points into this package.
export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  platform: "node",
  target: "node22",
  clean: true,
  splitting: true,
  banner: { js: "#!/usr/bin/env node" },
  noExternal: [/^@ringback\//, "zod"],
});

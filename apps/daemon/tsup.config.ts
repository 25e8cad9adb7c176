import { defineConfig } from "tsup";

// The @ringback/* packages stay external: they are published packages in `dependencies`, and pnpm rewrites
// their `workspace:^` ranges to real versions at publish time, so `npm i -g @ringback/daemon` resolves them.
export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  platform: "node",
  target: "node22",
  clean: true,
  splitting: true,
  banner: { js: "#!/usr/bin/env node" },
});

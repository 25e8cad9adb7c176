import { defineConfig } from "vite";

export default defineConfig({
  // Relative asset addresses: the relay serves the app at its root, but a deployment may put it under a path.
  base: "./",
  // JSX through esbuild alone: no framework plugin (nothing to download at install time).
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod's comments about esbuild's tree-shaking look like misplaced annotations to Rollup; harmless.
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("node_modules")) return;
        warn(warning);
      },
    },
  },
});

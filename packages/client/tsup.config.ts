import type { Options } from "tsup";
import { libraryBuild } from "../../tsup.base.js";

/**
 * esbuild writes into each entry a bare `import "./chunk-….js"` for every chunk that the chunks it imports import in
 * turn (a loading hint). The package is free of side effects (`sideEffects: false`), so a consumer's esbuild warns
 * that it ignores each one; every chunk imports what it needs itself, so the hints go.
 */
const dropChunkHints: NonNullable<Options["plugins"]>[number] = {
  name: "drop-chunk-hints",
  renderChunk: (code) => ({ code: code.replace(/^import "\.\/chunk-[A-Z0-9]+\.js";\n/gm, "") }),
};

export default libraryBuild({
  // The main entry runs in browsers and Node; `texts` (the interface texts) and `views` (what a screen shows) are
  // apart so a client with its own screens leaves them out; `node` adds what needs node:fs (the file store).
  entry: ["src/index.ts", "src/texts.ts", "src/views.ts", "src/node.ts"],
  platform: "neutral",
  plugins: [dropChunkHints],
});

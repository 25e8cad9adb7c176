import { libraryBuild } from "../../tsup.base.js";

export default libraryBuild({
  // The main entry runs in browsers and Node; `texts` (the interface texts) and `views` (what a screen shows) are
  // apart so a client with its own screens leaves them out; `node` adds what needs node:fs (the file store).
  entry: ["src/index.ts", "src/texts.ts", "src/views.ts", "src/node.ts"],
  platform: "neutral",
});

import { libraryBuild } from "../../tsup.base.js";

export default libraryBuild({
  // The main entry runs in browsers and Node; `node` adds what needs node:fs (the file store).
  entry: ["src/index.ts", "src/node.ts"],
  platform: "neutral",
});

import { libraryBuild } from "../../tsup.base.js";

export default libraryBuild({
  platform: "neutral",
  // Source only, no Node types: the same file must run in browsers.
  tsconfig: "tsconfig.build.json",
});

import { libraryBuild } from "../../tsup.base.js";

export default libraryBuild({
  platform: "neutral",
  // Source only, no Node types: the same file must run in browsers.
  tsconfig: "tsconfig.build.json",
  // scrypt from @noble/hashes is bundled: the same dist/index.js runs in a page or a worker without a resolver.
  noExternal: ["@noble/hashes"],
});

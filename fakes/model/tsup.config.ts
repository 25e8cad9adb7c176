import { libraryBuild } from "../../tsup.base.js";

export default libraryBuild({
  entry: ["src/index.ts", "src/bin.ts"],
  dts: { entry: "src/index.ts" },
  platform: "node",
});

import { libraryBuild } from "../../tsup.base.js";

export default libraryBuild({
  platform: "node",
  // Keep `node:` so that a browser bundler sees a Node built-in behind the one lazy import (brief-eval files).
  removeNodeProtocol: false,
});

// Part of the daemon's build: the hook's bin and its installer chunk (apps/hook/dist, built first by turbo) go beside
// the bundle in dist/, where the bundled installer looks for them, so the daemon's package carries its own hook.
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../hook/dist/", import.meta.url));
const target = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(`${source}ringback-hook.mjs`)) {
  process.stderr.write(`copy-hook: ${source} has no ringback-hook.mjs: build @ringback/hook first\n`);
  process.exit(1);
}
// The bin and the chunks it loads; index.mjs is the library entry, already bundled into the daemon.
for (const name of readdirSync(source).filter((file) => file.endsWith(".mjs") && file !== "index.mjs"))
  copyFileSync(`${source}${name}`, `${target}${name}`);

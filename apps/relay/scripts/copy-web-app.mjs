// Part of the relay's build: the web app (apps/web-client/dist, built first by turbo) goes into the package's web/,
// so a relay installed from npm serves it at / without a clone.
import { cpSync, existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../web-client/dist/", import.meta.url));
const target = fileURLToPath(new URL("../web/", import.meta.url));
if (!existsSync(`${source}index.html`)) {
  process.stderr.write(`copy-web-app: ${source} has no index.html: build @ringback/web-client first\n`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });

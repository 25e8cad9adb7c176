import { readFileSync } from "node:fs";

/** The daemon's version, from its own package.json: one level above `src/` and `dist/` alike. */
export function daemonVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

import { readFileSync } from "node:fs";

/** What the relay's own package.json says about it: read at run time, one level above `src/` and `dist/` alike. */
export interface RelayPackage {
  readonly version: string;
  /** `engines.node`, such as `>=22.16`. */
  readonly nodeEngines: string;
}

export function readRelayPackage(): RelayPackage {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
    engines?: { node?: string };
  };
  return { version: manifest.version, nodeEngines: manifest.engines?.node ?? "" };
}

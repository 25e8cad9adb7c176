import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The web app shipped inside this package (`web/`, copied in at build time): what a relay installed from npm serves
 * at `/` unless `--web-root` names another or `--no-web` none. Null when the package has none (a bare build).
 */
export function bundledWebApp(): string | null {
  const path = fileURLToPath(new URL("../web/", import.meta.url));
  return existsSync(`${path}index.html`) ? path : null;
}

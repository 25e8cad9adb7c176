import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root (this file lives in scripts/). */
export const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
/** The built entry that tests and the bench load. */
export const DIST_ENTRY = join(PACKAGE_DIR, "dist", "index.js");

/**
 * Builds dist/ with tsup when it is missing or older than a file in src/, so `pnpm test` and `pnpm bench`
 * work on their own (turbo builds first anyway) and never load a stale bundle.
 */
export function ensureDist(): void {
  if (existsSync(DIST_ENTRY) && statSync(DIST_ENTRY).mtimeMs >= newestSourceMtimeMs()) return;
  const tsupPackage = createRequire(import.meta.url).resolve("tsup/package.json");
  const tsupCli = join(dirname(tsupPackage), "dist", "cli-default.js");
  const build = spawnSync(process.execPath, [tsupCli], { cwd: PACKAGE_DIR, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`tsup failed (exit ${build.status ?? build.signal})`);
}

function newestSourceMtimeMs(): number {
  const sourceDir = join(PACKAGE_DIR, "src");
  let newest = 0;
  for (const name of readdirSync(sourceDir, { recursive: true, encoding: "utf8" })) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    newest = Math.max(newest, statSync(join(sourceDir, name)).mtimeMs);
  }
  return newest;
}

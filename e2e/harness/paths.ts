import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function fromRoot(path: string): string {
  return fileURLToPath(new URL(`../../${path}`, import.meta.url));
}

/** The built programs the whole-system tests run, as a user runs them (turbo builds them before `test`). */
export const RELAY_BIN = fromRoot("apps/relay/dist/main.js");
export const DAEMON_BIN = fromRoot("apps/daemon/dist/main.js");
export const HOOK_BIN = fromRoot("apps/hook/dist/ringback-hook.mjs");
/** The built web app, served by the relay with `--web-root`. */
export const WEB_ROOT = fromRoot("apps/web-client/dist");
/** Screenshots and other files a run leaves for people (turbo keeps `test-artifacts/**` as test output). */
export const ARTIFACTS_DIR = fromRoot("e2e/test-artifacts");

/** Fails with the command that builds `path` when it is missing. */
export function requireBuilt(path: string, packageName: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: run pnpm --filter ${packageName} build`);
  return path;
}

// `turbo run build` for the scripts a person runs (start, ringback, pack:clis): the packages named and what they build
// on, errors only, with turbo's telemetry off (on a clone's first run turbo would also print a notice about it).
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");

/**
 * Builds `packages` (names or `./folder`s) and their dependencies. `quiet`: turbo's output is kept and returned
 * (for the caller to show when the build failed) instead of going to this terminal. Returns whether it succeeded.
 */
export function turboBuild(packages, { quiet = false } = {}) {
  const filters = packages.flatMap((name) => ["--filter", `${name}...`]);
  const result = spawnSync(
    join(root, "node_modules", ".bin", "turbo"),
    ["run", "build", ...filters, "--output-logs=errors-only"],
    {
      cwd: root,
      encoding: "utf8",
      stdio: quiet ? "pipe" : "inherit",
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    },
  );
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error?.message ?? ""}`,
  };
}

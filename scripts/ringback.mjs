// `pnpm ringback <command> [options]`: the `ringback` CLI from a clone, before the packages are on npm. Builds the
// daemon and what it bundles first (turbo skips what is up to date; its output shows only when the build fails), then
// runs the command with this workspace's Node, passing on its exit code.
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { turboBuild } from "./turbo-build.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");

if (process.env.RINGBACK_NO_BUILD !== "1") {
  const built = turboBuild(["@ringback/daemon"], { quiet: true });
  if (!built.ok) {
    process.stderr.write(`${built.output}\nringback: building the daemon failed (see above)\n`);
    process.exit(1);
  }
}

const child = spawn(
  process.execPath,
  [join(root, "apps", "daemon", "dist", "main.js"), ...process.argv.slice(2)],
  {
    stdio: "inherit",
  },
);
// Ctrl-C reaches the whole process group, so the command has it already: this wrapper waits for it to end. A SIGTERM
// sent to this wrapper alone is passed on.
process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));

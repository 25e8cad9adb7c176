// `pnpm pack:clis [--out DIR]`: the three CLIs (`ringback`, `ringback-hook`, `ringback-relay`) built and packed as
// they would be published, into ./packed (emptied first), for `npm install -g ./packed/*.tgz` before the packages are
// on npm. Each tarball installs on its own: the daemon and the relay bundle the workspace packages they use.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { turboBuild } from "./turbo-build.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const CLI_DIRS = ["apps/daemon", "apps/hook", "apps/relay"];

const { values } = parseArgs({ options: { out: { type: "string" }, help: { type: "boolean" } } });
if (values.help) {
  process.stdout.write(
    "pnpm pack:clis [--out DIR]: builds and packs @ringback/daemon, @ringback/hook and @ringback/relay into DIR\n" +
      "(default: ./packed, emptied first); then install them with: npm install -g DIR/*.tgz\n",
  );
  process.exit(0);
}
const out = resolve(values.out ?? join(root, "packed"));

// The pnpm running this script (pnpm rewrites `workspace:` ranges when it packs; npm would not).
// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm for the script that runs this, not a setting.
const pnpm = process.env.npm_execpath;
if (!pnpm) {
  process.stderr.write("pack:clis: run it through pnpm: npx --yes pnpm@10.34.9 pack:clis\n");
  process.exit(2);
}

function runOrExit(what, command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}${result.error?.message ?? ""}\n`);
  process.stderr.write(`pack:clis: ${what} failed (see above)\n`);
  process.exit(1);
}

const built = turboBuild(
  CLI_DIRS.map((dir) => `./${dir}`),
  { quiet: true },
);
if (!built.ok) {
  process.stderr.write(`${built.output}\npack:clis: the build failed (see above)\n`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const dir of CLI_DIRS)
  runOrExit(`packing ${dir}`, process.execPath, [pnpm, "pack", "--pack-destination", out], join(root, dir));

const shown = relative(process.cwd(), out) || ".";
process.stdout.write(
  `Packed into ${out}:\n${readdirSync(out)
    .map((file) => `  ${file}\n`)
    .join("")}Install them (ringback, ringback-hook and ringback-relay on your PATH):\n` +
    `  npm install -g ${shown.startsWith(".") || shown.startsWith("/") ? shown : `./${shown}`}/*.tgz\n`,
);

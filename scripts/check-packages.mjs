// Package hygiene, run by `pnpm test` after the suites: every published package packed as it would be published and
// checked with publint (strict), Are the Types Wrong (ESM only: the packages ship ESM, no CommonJS) and for imports
// its manifest does not declare (package-imports.mjs: what its built code imports or carries a copy of must be a
// dependency), then knip over the whole workspace (unused files, exports, dependencies). Any finding fails the run.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { undeclaredImports } from "./package-imports.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const failures = [];

function run(label, command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", ...options });
  if (result.status !== 0) failures.push(`${label}:\n${result.stdout}${result.stderr}`);
  return result;
}

const published = ["packages", "apps"]
  .flatMap((folder) => readdirSync(join(root, folder)).map((name) => join(root, folder, name)))
  .filter((dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private !== true;
    } catch {
      return false;
    }
  });

// The pnpm that runs `pnpm test` (npm_execpath), else pnpm through npx.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm for the script that runs this, not a setting.
const execPath = process.env.npm_execpath;
const [pnpm, pnpmPrefix] =
  execPath && basename(execPath).startsWith("pnpm")
    ? [process.execPath, [execPath]]
    : ["npx", ["--yes", "pnpm@10.34.9"]];

const packed = mkdtempSync(join(tmpdir(), "ringback-packed-"));
try {
  for (const dir of published) {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const pack = run(
      `pnpm pack ${manifest.name}`,
      pnpm,
      [...pnpmPrefix, "pack", "--pack-destination", packed],
      {
        cwd: dir,
      },
    );
    const tarball = pack.stdout
      .trim()
      .split("\n")
      .filter((line) => line.endsWith(".tgz"))
      .at(-1);
    if (!tarball) continue;
    run(`publint ${manifest.name}`, bin("publint"), ["run", tarball, "--strict"]);
    // A command-line tool without a library entry has no types to check.
    if (manifest.exports || manifest.types)
      run(`attw ${manifest.name}`, bin("attw"), [tarball, "--profile", "esm-only", "--format", "ascii"]);
    const unpacked = join(packed, manifest.name.replace("/", "+"));
    mkdirSync(unpacked);
    const untar = run(`unpack ${manifest.name}`, "tar", [
      "-xzf",
      tarball,
      "-C",
      unpacked,
      "--strip-components=1",
    ]);
    if (untar.status === 0) {
      const findings = undeclaredImports({ sourceDir: dir, unpackedDir: unpacked });
      if (findings.length > 0) failures.push(`undeclared imports:\n${findings.join("\n")}\n`);
    }
    process.stdout.write(`checked ${manifest.name}\n`);
  }
} finally {
  rmSync(packed, { recursive: true, force: true });
}
run("knip", bin("knip"), ["--no-progress"]);

if (failures.length > 0) {
  process.stderr.write(`Package checks failed:\n\n${failures.join("\n")}\n`);
  process.exit(1);
}
process.stdout.write(
  `publint, attw and declared imports clean for ${published.length} published packages; knip clean for the workspace\n`,
);

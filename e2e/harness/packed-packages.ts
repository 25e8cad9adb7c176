import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { fromRoot } from "./paths.ts";

/** One published package as `pnpm pack` made it: what npm would download from the registry. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  readonly tarball: string;
  /** The package.json inside the tarball (workspace ranges already turned into versions by pnpm). */
  readonly manifest: Record<string, unknown>;
  readonly integrity: string;
  readonly shasum: string;
}

/** Every package of the workspace that is not private, under packages/ and apps/. */
function publishedPackageDirs(): string[] {
  return ["packages", "apps"].flatMap((folder) =>
    readdirSync(fromRoot(folder))
      .map((name) => fromRoot(`${folder}/${name}`))
      .filter((dir) => {
        try {
          return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private !== true;
        } catch {
          return false;
        }
      }),
  );
}

/**
 * The pnpm that runs this test (`npm_execpath` under `pnpm test`), else pnpm through npx: starting npx once per
 * package is slow on a busy machine.
 */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  return execPath && basename(execPath).startsWith("pnpm")
    ? [process.execPath, [execPath]]
    : ["npx", ["--yes", "pnpm@10.34.9"]];
}

/** `pnpm pack` of each published package into `destination`, as it would be published, all at once. */
export async function packPublishedPackages(destination: string): Promise<PackedPackage[]> {
  const [command, prefix] = pnpmCommand();
  return Promise.all(
    publishedPackageDirs().map(async (dir) => {
      const { stdout } = await promisify(execFile)(
        command,
        [...prefix, "pack", "--pack-destination", destination],
        // Bounded, so a stuck pack fails with its output instead of holding the suite's hook until it times out.
        { cwd: dir, encoding: "utf8", timeout: 120_000 },
      );
      const tarball =
        stdout
          .trim()
          .split("\n")
          .filter((line) => line.endsWith(".tgz"))
          .at(-1) ?? "";
      const manifest = JSON.parse(
        execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
      ) as Record<string, unknown>;
      const bytes = readFileSync(tarball);
      return {
        name: String(manifest.name),
        version: String(manifest.version),
        tarball,
        manifest,
        integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
        shasum: createHash("sha1").update(bytes).digest("hex"),
      };
    }),
  );
}

/** The files a tarball holds, without the `package/` prefix. */
export function tarballFiles(tarball: string): string[] {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.replace(/^package\//, ""));
}

import { readFileSync } from "node:fs";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonEnv, runCli } from "./helpers/daemon-process.js";

const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

describe("ringback's own help and version, from the built bin", () => {
  let home: TemporaryDirectory;
  beforeAll(async () => {
    home = await makeTemporaryDirectory();
  });
  afterAll(() => home.remove());

  it("prints its version for --version, -V and version, and nothing else", async () => {
    for (const flag of ["--version", "-V", "version"]) {
      const result = await runCli([flag], daemonEnv(home.path));
      expect({ flag, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        flag,
        code: 0,
        stdout: `${VERSION}\n`,
        stderr: "",
      });
    }
  });

  it("lists every command for --help, and says how to get the version", async () => {
    const result = await runCli(["--help"], daemonEnv(home.path));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ringback --version");
    for (const command of ["run", "install", "login", "pair", "listen", "doctor", "away"])
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
  });

  it("names an unknown command and exits 1", async () => {
    const result = await runCli(["--versio"], daemonEnv(home.path));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('ringback: unknown command "--versio" (try: ringback help)\n');
  });
});

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { makeTemporaryDirectory, runToEnd } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { nodeTooOldMessage } from "../src/node-version.js";
import { ChildRelay } from "./support/child-relay.js";

// `ringback-relay` as a person first meets it: the built bin, its --help and --version, and a Node too old for it.
const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
  engines: { node: string };
};

function relay(args: readonly string[], command?: string) {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: run "pnpm --filter @ringback/relay build" first.`);
  return runToEnd({ args: [BIN, ...args], ...(command ? { command } : {}), name: "ringback-relay" });
}

/** The machine's own Node.js when it is older than the relay needs (Debian's /usr/bin/node is 20), else null. */
function tooOldSystemNode(): { path: string; version: string } | null {
  const path = "/usr/bin/node";
  if (!existsSync(path)) return null;
  const version = execFileSync(path, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
  const isTooOld = nodeTooOldMessage({ found: version, engines: PACKAGE.engines.node, script: "", args: [] });
  return isTooOld === null ? null : { path, version };
}

describe("ringback-relay on the command line", () => {
  it("prints its package's version with --version", async () => {
    const result = await relay(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: `${PACKAGE.version}\n`, stderr: "" });
  });

  it("lists its options with --help, --version among them", async () => {
    const result = await relay(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: ringback-relay \[options\]/);
    expect(result.stdout).toMatch(/--version +print the relay's version/);
    expect(result.stdout).toMatch(/--port PORT/);
  });

  it("refuses an unknown option with a line and the usage, exit code 2, no stack trace", async () => {
    const result = await relay(["--prot", "8787"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ringback-relay: Unknown option '--prot'/);
    expect(result.stderr).toContain("Usage: ringback-relay");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  const oldNode = tooOldSystemNode();
  it.runIf(oldNode)(
    `on this machine's Node.js ${oldNode?.version ?? ""}, says in one line which Node it needs and how to get it`,
    async () => {
      const result = await relay(["--data", "/srv/my relay"], oldNode?.path);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      const minimum = PACKAGE.engines.node.replace(/^>=/, "");
      expect(result.stderr).toBe(
        `ringback-relay: Node.js ${oldNode?.version} is too old: the relay needs Node.js ${minimum} or later ` +
          `(for node:sqlite). Run it with Node.js 24: npx --yes -p node@24 node ${BIN} --data '/srv/my relay'   ` +
          "(or install it: nvm install 24)\n",
      );
    },
  );

  it("starts on this Node.js and stops on SIGTERM", async () => {
    await using directory = await makeTemporaryDirectory();
    const started = await ChildRelay.start({ dataDir: directory.path });
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await started.stop("SIGTERM");
    expect(started.exit).toMatchObject({ code: 0 });
  });
});

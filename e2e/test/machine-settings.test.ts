import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import {
  machineGlobalNpmConfig,
  machineNpmEnvironment,
  machineShellEnvironment,
} from "../harness/machine-npm.ts";
import { fromRoot } from "../harness/paths.ts";

const run = promisify(execFile);

// A machine that reaches the registry through a proxy with a CA of its own (many company networks) says so in the
// ordinary variables and in its global npmrc. Every test and bench task must be handed both, or a test that
// installs from the registry fails there while it passes on a machine whose npm cache is warm.
const MACHINE_SETTINGS = {
  NODE_EXTRA_CA_CERTS: "/etc/example/proxy-ca.pem",
  SSL_CERT_FILE: "/etc/example/bundle.pem",
  SSL_CERT_DIR: "/etc/example/certs",
  HTTP_PROXY: "http://127.0.0.1:3128",
  HTTPS_PROXY: "http://127.0.0.1:3129",
  NO_PROXY: "localhost,127.0.0.1",
  http_proxy: "http://127.0.0.1:3130",
  https_proxy: "http://127.0.0.1:3131",
  no_proxy: "127.0.0.1",
};

/** What npm says of the settings that decide how it reaches a registry. */
async function npmSettings(env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const names = ["globalconfig", "cafile", "ca", "proxy", "https-proxy", "noproxy", "registry", "strict-ssl"];
  const { stdout } = await run("npm", ["config", "get", ...names], { env });
  return Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe("the machine's TLS and proxy settings reach every task", () => {
  it("turbo hands a task each TLS and proxy variable the machine sets", async () => {
    const { stdout } = await run(
      fromRoot("node_modules/.bin/turbo"),
      ["run", "env-probe", "--filter=@ringback/test-kit", "--output-logs=new-only"],
      { cwd: fromRoot("."), env: { ...process.env, ...MACHINE_SETTINGS, TURBO_TELEMETRY_DISABLED: "1" } },
    );
    const line = stdout.split("\n").find((text) => text.includes("env-probe {")) ?? "";
    expect(JSON.parse(line.slice(line.indexOf("{")))).toEqual(MACHINE_SETTINGS);
  });

  it("npm in a test reads the configuration the machine's own npm reads", async () => {
    await using cache = await makeTemporaryDirectory();
    // The workspace's Node first, as in the install test: npm then looks for its global npmrc beside that Node.
    const test = machineNpmEnvironment({ path: process.env.PATH ?? "", cache: cache.path });
    const [expected, actual] = await Promise.all([npmSettings(machineShellEnvironment()), npmSettings(test)]);
    expect(actual).toEqual(expected);
    expect(actual.globalconfig).toBe(machineGlobalNpmConfig());
  });
});

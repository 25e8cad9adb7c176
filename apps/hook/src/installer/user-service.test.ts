import { readFile } from "node:fs/promises";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  installUserService,
  launchdPlistPath,
  systemdUnitPath,
  type UserServiceOptions,
  uninstallUserService,
} from "./user-service.js";

const homes: TemporaryDirectory[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((home) => home.remove()));
});

async function options(
  overrides: Partial<UserServiceOptions>,
): Promise<UserServiceOptions & { calls: string[] }> {
  const directory = await makeTemporaryDirectory("ringback-service-");
  homes.push(directory);
  const home = directory.path;
  const calls: string[] = [];
  return {
    home,
    nodePath: "/usr/local/bin/node",
    daemonBinPath: "/opt/ringback/dist/main.js",
    platform: "linux",
    env: {},
    hasSystemdUser: () => true,
    run: (file, args) => {
      calls.push([file, ...args].join(" "));
      return { ok: true, output: "" };
    },
    calls,
    ...overrides,
  };
}

describe("the daemon's user service", () => {
  it("on Linux with systemd: writes the unit, reloads, enables and starts it", async () => {
    const setup = await options({ env: { RINGBACK_HOME: "/data/ringback" } });
    const lines = installUserService(setup);
    const unit = await readFile(systemdUnitPath(setup.home), "utf8");
    expect(unit).toContain('ExecStart="/usr/local/bin/node" "/opt/ringback/dist/main.js" run');
    expect(unit).toContain('Environment="RINGBACK_HOME=/data/ringback"');
    expect(unit).toContain("WantedBy=default.target");
    expect(setup.calls).toEqual([
      "systemctl --user daemon-reload",
      "systemctl --user enable --now ringback.service",
    ]);
    expect(lines.at(-1)).toContain("enabled and started ringback.service");
  });

  it("on Linux with systemd, uninstall disables the unit and removes it", async () => {
    const setup = await options({});
    installUserService(setup);
    setup.calls.length = 0;
    expect(uninstallUserService(setup)).toHaveLength(1);
    expect(setup.calls).toEqual([
      "systemctl --user disable --now ringback.service",
      "systemctl --user daemon-reload",
    ]);
    await expect(readFile(systemdUnitPath(setup.home))).rejects.toThrow();
  });

  it("on macOS: writes a launchd agent and loads it", async () => {
    const setup = await options({ platform: "darwin" });
    installUserService(setup);
    const plist = await readFile(launchdPlistPath(setup.home), "utf8");
    expect(plist).toContain("<string>/opt/ringback/dist/main.js</string>");
    expect(plist).toContain("<key>RunAtLoad</key>");
    expect(setup.calls.at(-1)).toBe(`launchctl load -w ${launchdPlistPath(setup.home)}`);
  });

  it("without systemd or launchd: says exactly what to run and touches nothing", async () => {
    const setup = await options({ hasSystemdUser: () => false });
    const lines = installUserService(setup);
    expect(lines.join("\n")).toContain('nohup "/usr/local/bin/node" "/opt/ringback/dist/main.js" run');
    expect(setup.calls).toEqual([]);
  });

  it("with the daemon's path unknown: writes no unit and names the command", async () => {
    const setup = await options({ daemonBinPath: undefined });
    expect(installUserService(setup).join("\n")).toContain("ringback run");
    expect(setup.calls).toEqual([]);
  });

  it("says what failed when systemctl fails", async () => {
    const setup = await options({ run: () => ({ ok: false, output: "Failed to connect to bus" }) });
    expect(installUserService(setup).join("\n")).toContain("Failed to connect to bus");
  });
});

import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { shellQuote } from "./hook-command.js";

const SYSTEMD_UNIT_NAME = "ringback.service";
const LAUNCHD_LABEL = "app.ringback.daemon";

/** Runs a service-manager command; injectable so tests never touch the real system. */
export type CommandRunner = (file: string, args: string[]) => { ok: boolean; output: string };

export interface UserServiceOptions {
  home: string;
  nodePath: string;
  /** The daemon's bin (`ringback`'s main file); without it no service is written. */
  daemonBinPath: string | undefined;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  run: CommandRunner;
  /** Whether a systemd user manager answers here. */
  hasSystemdUser: () => boolean;
}

export const runCommand: CommandRunner = (file, args) => {
  const result = spawnSync(file, args, {
    encoding: "utf8",
    timeout: 30_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() };
};

/** True when systemd runs this machine and `systemctl --user` reaches the user's manager. */
export function detectSystemdUser(run: CommandRunner = runCommand): boolean {
  return existsSync("/run/systemd/system") && run("systemctl", ["--user", "show-environment"]).ok;
}

function daemonCommand(options: UserServiceOptions): string {
  return options.daemonBinPath
    ? `${shellQuote(options.nodePath)} ${shellQuote(options.daemonBinPath)} run`
    : "ringback run";
}

function systemdQuote(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&").replace(/%/g, "%%")}"`;
}

function systemdUnit(options: UserServiceOptions & { daemonBinPath: string }): string {
  const environment = options.env.RINGBACK_HOME
    ? `Environment=${systemdQuote(`RINGBACK_HOME=${options.env.RINGBACK_HOME}`)}\n`
    : "";
  return `[Unit]
Description=Ringback daemon: rings your phone when a coding agent finishes
After=network-online.target

[Service]
ExecStart=${systemdQuote(options.nodePath)} ${systemdQuote(options.daemonBinPath)} run
${environment}Restart=on-failure
RestartSec=5

[Install]
WantedBy=default.target
`;
}

function xmlText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function launchdPlist(options: UserServiceOptions & { daemonBinPath: string }): string {
  const argumentsXml = [options.nodePath, options.daemonBinPath, "run"]
    .map((value) => `    <string>${xmlText(value)}</string>`)
    .join("\n");
  const environment = options.env.RINGBACK_HOME
    ? `  <key>EnvironmentVariables</key>\n  <dict>\n    <key>RINGBACK_HOME</key>\n    <string>${xmlText(options.env.RINGBACK_HOME)}</string>\n  </dict>\n`
    : "";
  const log = xmlText(join(options.home, "Library", "Logs", "ringback.log"));
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${argumentsXml}
  </array>
${environment}  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
  <key>StandardOutPath</key>
  <string>${log}</string>
  <key>StandardErrorPath</key>
  <string>${log}</string>
</dict>
</plist>
`;
}

export function systemdUnitPath(home: string): string {
  return join(home, ".config", "systemd", "user", SYSTEMD_UNIT_NAME);
}

export function launchdPlistPath(home: string): string {
  return join(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`);
}

function ran(options: UserServiceOptions, file: string, args: string[]): string | undefined {
  const result = options.run(file, args);
  return result.ok
    ? undefined
    : `\`${[file, ...args].join(" ")}\` failed${result.output ? `: ${result.output}` : ""}`;
}

/** Installs the daemon as a user service, or says exactly what to run where that cannot be done. */
export function installUserService(options: UserServiceOptions): string[] {
  const manual = `start the daemon yourself: ${daemonCommand(options)}`;
  if (options.platform === "darwin") {
    if (!options.daemonBinPath) return [`Daemon service: the daemon's path is unknown; ${manual}`];
    const plist = launchdPlistPath(options.home);
    writeFileAtomic(plist, launchdPlist({ ...options, daemonBinPath: options.daemonBinPath }));
    options.run("launchctl", ["unload", plist]);
    const failure = ran(options, "launchctl", ["load", "-w", plist]);
    return [
      `Daemon service: wrote ${plist}`,
      failure ? `${failure}; ${manual}` : "Daemon service: loaded with launchctl",
    ];
  }
  if (options.platform === "linux" && options.hasSystemdUser()) {
    if (!options.daemonBinPath) return [`Daemon service: the daemon's path is unknown; ${manual}`];
    const unit = systemdUnitPath(options.home);
    writeFileAtomic(unit, systemdUnit({ ...options, daemonBinPath: options.daemonBinPath }));
    const failure =
      ran(options, "systemctl", ["--user", "daemon-reload"]) ??
      ran(options, "systemctl", ["--user", "enable", "--now", SYSTEMD_UNIT_NAME]);
    return [
      `Daemon service: wrote ${unit}`,
      failure ? `${failure}; ${manual}` : `Daemon service: enabled and started ${SYSTEMD_UNIT_NAME}`,
    ];
  }
  return [
    "Daemon service: no systemd user manager or launchd here, so none was installed.",
    `  Start the daemon in the background with: nohup ${daemonCommand(options)} >/dev/null 2>&1 &`,
  ];
}

/** Stops and removes the service `installUserService` wrote, if any. */
export function uninstallUserService(options: UserServiceOptions): string[] {
  if (options.platform === "darwin") {
    const plist = launchdPlistPath(options.home);
    if (!existsSync(plist)) return [];
    options.run("launchctl", ["unload", "-w", plist]);
    rmSync(plist, { force: true });
    return [`Daemon service: unloaded and removed ${plist}`];
  }
  const unit = systemdUnitPath(options.home);
  if (!existsSync(unit)) return [];
  if (options.platform === "linux" && options.hasSystemdUser()) {
    options.run("systemctl", ["--user", "disable", "--now", SYSTEMD_UNIT_NAME]);
    rmSync(unit, { force: true });
    options.run("systemctl", ["--user", "daemon-reload"]);
    return [`Daemon service: stopped, disabled and removed ${unit}`];
  }
  rmSync(unit, { force: true });
  return [`Daemon service: removed ${unit}`];
}

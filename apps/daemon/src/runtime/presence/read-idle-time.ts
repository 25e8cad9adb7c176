import { execFile } from "node:child_process";
import { hidIdleSeconds, logindIdleSeconds, windowsIdleSeconds, xprintidleSeconds } from "./idle-parsers.js";
import type { IdleReading, IdleSource, RunProgram } from "./idle-reading.js";

/** A counter that does not answer in this long counts as unavailable: an ask must not wait on it. */
const IDLE_READ_TIMEOUT_MS = 3000;

/** Windows has no idle command: user32's GetLastInputInfo through PowerShell, as milliseconds since the last input. */
const WINDOWS_IDLE_SCRIPT = `Add-Type @'
using System; using System.Runtime.InteropServices;
public static class RingbackIdle {
  [StructLayout(LayoutKind.Sequential)] struct Info { public uint Size; public uint Time; }
  [DllImport("user32.dll")] static extern bool GetLastInputInfo(ref Info info);
  public static uint Milliseconds() { var info = new Info(); info.Size = 8; GetLastInputInfo(ref info); return (uint)Environment.TickCount - info.Time; }
}
'@
[RingbackIdle]::Milliseconds()`;

const runProgram: RunProgram = (program, args) =>
  new Promise((resolve, reject) => {
    execFile(program, [...args], { timeout: IDLE_READ_TIMEOUT_MS, windowsHide: true }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });

interface Counter {
  readonly source: IdleSource;
  readonly program: string;
  readonly args: readonly string[];
  parse(output: string, nowMs: number): number | null;
}

/** The counters to try on a platform, best first. */
function countersFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Counter[] {
  switch (platform) {
    case "darwin":
      return [
        {
          source: "HIDIdleTime (ioreg)",
          program: "ioreg",
          args: ["-c", "IOHIDSystem", "-d", "4"],
          parse: hidIdleSeconds,
        },
      ];
    case "win32":
      return [
        {
          source: "last input time (GetLastInputInfo)",
          program: "powershell.exe",
          args: ["-NoProfile", "-NonInteractive", "-Command", WINDOWS_IDLE_SCRIPT],
          parse: windowsIdleSeconds,
        },
      ];
    default:
      return [
        // The X server counts every key and pointer move; logind only knows once the desktop's own delay passed.
        ...(env.DISPLAY
          ? [
              {
                source: "X idle counter (xprintidle)" as const,
                program: "xprintidle",
                args: [],
                parse: xprintidleSeconds,
              },
            ]
          : []),
        // Only the daemon's own session: a daemon started outside one (a service) has no keyboard to be idle at.
        ...(env.XDG_SESSION_ID
          ? [
              {
                source: "logind IdleHint" as const,
                program: "loginctl",
                args: ["show-session", env.XDG_SESSION_ID, "-p", "IdleHint", "-p", "IdleSinceHint"],
                parse: logindIdleSeconds,
              },
            ]
          : []),
      ];
  }
}

/** The computer's input idle time from the first counter that answers, or why none did. */
export async function readIdleTime(options: {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  now: () => number;
  run?: RunProgram;
}): Promise<IdleReading> {
  const run = options.run ?? runProgram;
  const tried: string[] = [];
  for (const counter of countersFor(options.platform, options.env)) {
    const output = await run(counter.program, counter.args).catch(() => null);
    const seconds = output === null ? null : counter.parse(output, options.now());
    if (seconds !== null) return { kind: "idle", seconds, source: counter.source };
    tried.push(counter.source);
  }
  if (tried.length === 0) {
    return {
      kind: "unavailable",
      reason:
        "no input idle time here (the daemon has no X display (DISPLAY) and no login session (XDG_SESSION_ID))",
    };
  }
  return { kind: "unavailable", reason: `no input idle time here (tried ${tried.join(", ")})` };
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ReportRequest } from "@ringback/protocol";
import { startChild } from "@ringback/test-kit";
import { daemonMainPath } from "./installed-bins.js";
import { startReportTap, type TappedRequest } from "./report-tap.js";

const LISTENING_LINE = /ringback daemon listening on http:\/\/127\.0\.0\.1:(\d+)/;
/** Quiet checks (20 ms apart) the daemon may take to listen next to the agents' own start-up. */
const START_CHECKS = 3_000;

export interface RingbackDaemon extends AsyncDisposable {
  /** `~/.ringback` of the temporary home. */
  dataDir: string;
  /** Every request the hook sent, with the daemon's answer. */
  requests: TappedRequest[];
  /** The `POST /report` bodies, validated with the protocol's `ReportRequest`. */
  reports(): ReportRequest[];
  /** `sessions.json` (`{}` until written): where the daemon will resume each session with a reply. */
  sessions(): Record<string, { cwd: string; source: string }>;
  /** What the daemon logged on stderr. */
  log(): string;
  close(): Promise<void>;
}

/**
 * Starts the real daemon (`ringback run`) for a temporary home, behind a report tap: `daemon.json` names the
 * tap's port as `localPort`, which is where the hook posts; the daemon itself listens on a free port. Unless
 * `ringback login` wrote a relay account into daemon.json before (kept), no relay and no language model are
 * configured, so nothing leaves 127.0.0.1: reports wait in the outbox.
 */
export async function startRingbackDaemon(home: string, env: NodeJS.ProcessEnv): Promise<RingbackDaemon> {
  const dataDir = join(home, ".ringback");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tap = await startReportTap();
  // Kept: what `ringback login` wrote before the daemon ran (the relay account, the key).
  const configPath = join(dataDir, "daemon.json");
  const config = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, "utf8")) as object) : {};
  writeFileSync(configPath, `${JSON.stringify({ ...config, localPort: tap.port }, null, 2)}\n`, {
    mode: 0o600,
  });

  const child = startChild({
    args: [daemonMainPath(), "run", "--port", "0"],
    cwd: home,
    env,
    name: "the daemon",
  });
  const [, port] = await child.ready(LISTENING_LINE, START_CHECKS).catch(async (error: unknown) => {
    await tap.close();
    throw error;
  });
  // The daemon wrote its local key before it listened; the tap signs with it, as a program of the user's would.
  tap.forwardTo(Number(port), readFileSync(join(dataDir, "local-api.key"), "utf8").trim());

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= child.stop("SIGTERM").then(() => tap.close());
    return closing;
  };
  return {
    dataDir,
    requests: tap.requests,
    reports: () =>
      tap.requests
        .filter((request) => request.method === "POST" && request.path.split("?")[0] === "/report")
        .map((request) => ReportRequest.parse(request.body)),
    sessions: () => {
      try {
        const file = JSON.parse(readFileSync(join(dataDir, "sessions.json"), "utf8")) as {
          sessions?: Record<string, { cwd: string; source: string }>;
        };
        return file.sessions ?? {};
      } catch {
        return {};
      }
    },
    log: () => child.stderr,
    close,
    [Symbol.asyncDispose]: close,
  };
}

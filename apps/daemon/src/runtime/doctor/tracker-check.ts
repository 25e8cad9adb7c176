import { ErrorBody, TrackerSettingsResponse } from "@ringback/protocol";
import { type DoctorCheck, fail, ok, warn } from "./doctor-check.js";
import type { LocalDaemon } from "./local-daemon.js";

const SET_TRACKER = "the app: Settings › Your computer › Tracker (Multica), with a new personal token";

/** The tracker token, checked against the tracker (`POST /tracker/workspaces`), and each workspace's realtime. */
export async function checkTracker(daemon: LocalDaemon | null): Promise<DoctorCheck> {
  if (!daemon) return warn("tracker", "not checked: the daemon is not running", "ringback run");
  const settings = TrackerSettingsResponse.safeParse((await daemon.ask("GET", "/tracker/settings"))?.body);
  if (!settings.success)
    return fail("tracker", "the daemon did not answer GET /tracker/settings", "ringback run");
  if (!settings.data.settings) return ok("tracker", "no tracker configured (Multica is optional)");
  const details: Record<string, unknown> = {
    tokenHint: settings.data.settings.tokenHint,
    workspaces: settings.data.status.workspaces,
  };
  const listed = await daemon.ask("POST", "/tracker/workspaces", {});
  if (listed?.status !== 200) {
    const error = ErrorBody.safeParse(listed?.body);
    const reason = error.success
      ? `${error.data.error.code}: ${error.data.error.message}`
      : `answer ${listed?.status ?? "none"}`;
    const isRejected = error.success && error.data.error.code === "invalid_tracker_token";
    return fail(
      "tracker",
      isRejected
        ? `the tracker rejects the token (${settings.data.settings.tokenHint})`
        : `the tracker cannot be asked (${reason})`,
      isRejected ? SET_TRACKER : "check the tracker's address and the network, then ringback doctor again",
      details,
    );
  }
  const notConnected = settings.data.status.workspaces.filter((workspace) => workspace.state !== "connected");
  if (notConnected.length > 0) {
    const states = notConnected.map(
      (workspace) =>
        `${workspace.workspaceId} ${workspace.state}${workspace.error ? ` (${workspace.error})` : ""}`,
    );
    return warn(
      "tracker",
      `token valid; realtime not connected: ${states.join(", ")}`,
      "wait for the reconnect; if it stays so, restart the daemon",
      details,
    );
  }
  const count = settings.data.status.workspaces.length;
  return ok(
    "tracker",
    `token valid; realtime connected to ${count} workspace${count === 1 ? "" : "s"}`,
    details,
  );
}

import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import type { DaemonConfig, LocalStatus } from "@ringback/protocol";
import { type DoctorCheck, fail, ok, warn } from "./doctor-check.js";
import { callAtRelay } from "./relay-call.js";

/** The last report the daemon accepted: still waiting, dropped, or sent, and then where its call stands. */
export async function checkLastReport(
  status: LocalStatus | null,
  config: DaemonConfig | null,
): Promise<DoctorCheck> {
  if (!status) return warn("last-report", "not checked: the daemon is not running", "ringback run");
  const report = status.outbox.lastReport;
  if (!report)
    return ok("last-report", "no report since the daemon started: finish an agent turn to see one ring");
  const details: Record<string, unknown> = { ...report, waiting: status.outbox.waiting };
  if (report.state === "dropped")
    return fail(
      "last-report",
      `${report.eventId} was dropped: ${report.reason ?? "no reason given"}`,
      "see the daemon's log; ringback doctor again after the next turn",
      details,
    );
  if (report.state !== "sent") {
    const tries =
      report.attempts > 0 ? ` after ${report.attempts} failed send${report.attempts === 1 ? "" : "s"}` : "";
    return warn(
      "last-report",
      `${report.eventId} waits in the outbox (${report.state}${tries}); ${status.outbox.waiting} waiting in all`,
      "it is sent when the relay link is up (see the relay line above)",
      details,
    );
  }
  const serverUrl = status.relay.serverUrl;
  const deviceToken = config?.relay?.deviceToken;
  if (!serverUrl || !deviceToken)
    return ok("last-report", `${report.eventId} was sent to the relay`, details);
  try {
    const call = await callAtRelay(serverUrl, deviceToken, report.eventId, keyOf(config));
    if (!call)
      return ok("last-report", `${report.eventId} was sent; the relay no longer keeps its call`, details);
    details.callStatus = call.status;
    details.deliveries = call.deliveries;
    const reached = call.deliveries.length > 0 ? call.deliveries.join(", ") : "no device has reported it yet";
    const summary = `${report.eventId} was sent; its call is ${call.status} (${reached})`;
    return call.deliveries.length === 0 && call.status === "pending"
      ? warn("last-report", summary, "open the app on a paired device (or pair one: ringback pair)", details)
      : ok("last-report", summary, details);
  } catch (error) {
    return warn(
      "last-report",
      `${report.eventId} was sent; the relay cannot tell its call now (${error instanceof Error ? error.message : String(error)})`,
      null,
      details,
    );
  }
}

/** This computer's key from daemon.json, to read the devices' sealed names; null when there is none to parse. */
function keyOf(config: DaemonConfig | null): E2eKey | null {
  try {
    return config?.e2e ? parseKey(config.e2e.key) : null;
  } catch {
    return null;
  }
}

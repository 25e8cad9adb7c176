import type { IssueRefresh } from "@ringback/protocol";
import type { CallRecord } from "../calls/call-record.js";
import { issueRefreshBatches } from "../calls/issue-refresh.js";
import type { DaemonClient } from "../daemon/daemon-client.js";

/**
 * The current priority, update time and project of the calls' tracker issues, asked of the computer that reported
 * each (`POST /tracker/issues` relayed). A computer that is offline or not set up for the tracker adds nothing, so
 * its calls keep the values they have.
 */
export async function askIssueRefreshes(
  records: readonly CallRecord[],
  daemonOf: (computerId: string) => DaemonClient,
): Promise<IssueRefresh[]> {
  const byComputer = new Map<string, CallRecord[]>();
  for (const record of records) {
    if (!record.issue || !record.fromDeviceId) continue;
    byComputer.set(record.fromDeviceId, [...(byComputer.get(record.fromDeviceId) ?? []), record]);
  }
  const refreshes: IssueRefresh[] = [];
  for (const [computerId, calls] of byComputer) {
    const daemon = daemonOf(computerId);
    try {
      for (const issues of issueRefreshBatches(calls))
        refreshes.push(...(await daemon.refreshIssues(issues)).issues);
    } catch {
      // Offline, timed out, not set up or another key: the calls keep the values they have.
    }
  }
  return refreshes;
}

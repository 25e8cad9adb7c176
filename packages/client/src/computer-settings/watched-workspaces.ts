import type { TrackerSettingsResponse, TrackerWorkspaceStatus } from "@ringback/protocol";
import type { ComputerTexts } from "../i18n/texts/computer.js";

export interface WatchedWorkspaceRow {
  readonly id: string;
  /** The tracker's name when a listing told it, else the id. */
  readonly name: string;
  /** Null when the daemon has no status for it yet. */
  readonly state: TrackerWorkspaceStatus["state"] | null;
  readonly error: string | null;
}

/** Each watched workspace with its connection status, in the order the daemon keeps them. */
export function watchedWorkspaceRows(
  saved: TrackerSettingsResponse | null,
  names: Readonly<Record<string, string>>,
): WatchedWorkspaceRow[] {
  const statuses = saved?.status.workspaces ?? [];
  return (saved?.settings?.workspaces ?? []).map((id) => {
    const status = statuses.find((entry) => entry.workspaceId === id);
    return { id, name: names[id] ?? id, state: status?.state ?? null, error: status?.error ?? null };
  });
}

/** A watched workspace's connection status, in words. */
export function workspaceStateText(row: WatchedWorkspaceRow, t: ComputerTexts): string {
  switch (row.state) {
    case "connected":
      return t.stateConnected;
    case "connecting":
      return t.stateConnecting;
    case "disconnected":
      return t.stateDisconnected;
    case "error":
      return t.stateError(row.error ?? "");
    case null:
      return t.noStatusYet;
  }
}

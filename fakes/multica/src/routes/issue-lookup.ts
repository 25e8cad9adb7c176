import { HttpError } from "../http-io.js";
import type { IssueRecord, WorkspaceRecord } from "../records.js";
import type { FakeMulticaState } from "../state.js";

/** An issue of the workspace by UUID or identifier, or the tracker's 404. */
export function requireIssue(
  state: FakeMulticaState,
  workspace: WorkspaceRecord,
  idOrIdentifier = "",
): IssueRecord {
  const issue = state.findIssue(workspace.id, idOrIdentifier);
  if (!issue) throw new HttpError(404, "issue not found");
  return issue;
}

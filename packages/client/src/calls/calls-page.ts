import { sortCalls } from "./call-order.js";
import { type CallRecord, isInHistory } from "./call-record.js";

/** The tab that shows every call. */
export const ALL_TAB = "all";

/** A tracker project as the calls page knows it: the tab key, and the name shown. */
export interface CallProject {
  readonly key: string;
  readonly name: string;
  readonly workspaceName: string | null;
}

export interface CallsTab {
  readonly key: string;
  /** Null for the "all" tab: the screen names it in its own language. */
  readonly project: CallProject | null;
}

/** One group of a list; `project` null is the final "other" group (or the single group of a project tab). */
export interface CallsGroup {
  readonly project: CallProject | null;
  readonly calls: readonly CallRecord[];
}

export interface CallsPageView {
  readonly tabs: readonly CallsTab[];
  readonly tab: string;
  /** Missed calls, on top of the page; each row can be answered. */
  readonly missed: readonly CallsGroup[];
  /** History below. */
  readonly history: readonly CallsGroup[];
}

/**
 * The tracker project of a call. Only tracker projects count: a local agent's directory name or a report's title
 * is never a project, so those calls fall in "other".
 */
export function projectOf(record: CallRecord): CallProject | null {
  const issue = record.issue;
  if (record.source !== "tracker" || !issue?.projectName) return null;
  return {
    key: `${issue.workspaceId}/${issue.projectId ?? issue.projectName}`,
    name: issue.projectName,
    workspaceName: issue.workspaceName,
  };
}

function byName(a: CallProject, b: CallProject): number {
  return a.name.localeCompare(b.name) || a.key.localeCompare(b.key);
}

/** "all" first, then one tab per tracker project among the calls, by name. */
function callsTabs(records: readonly CallRecord[]): CallsTab[] {
  const projects = new Map<string, CallProject>();
  for (const record of records) {
    const project = projectOf(record);
    if (project) projects.set(project.key, project);
  }
  return [
    { key: ALL_TAB, project: null },
    ...[...projects.values()].sort(byName).map((project) => ({ key: project.key, project })),
  ];
}

function isInTab(record: CallRecord, tab: string): boolean {
  return tab === ALL_TAB || projectOf(record)?.key === tab;
}

/** In "all", calls grouped by project name with a final "other" group; in a project's tab, one group. */
function group(records: readonly CallRecord[], tab: string): CallsGroup[] {
  if (records.length === 0) return [];
  if (tab !== ALL_TAB) return [{ project: projectOf(records[0]!), calls: sortCalls(records) }];
  const byProject = new Map<string, { project: CallProject; calls: CallRecord[] }>();
  const other: CallRecord[] = [];
  for (const record of records) {
    const project = projectOf(record);
    if (!project) {
      other.push(record);
      continue;
    }
    const entry = byProject.get(project.key) ?? { project, calls: [] };
    entry.calls.push(record);
    byProject.set(project.key, entry);
  }
  const groups: CallsGroup[] = [...byProject.values()]
    .sort((a, b) => byName(a.project, b.project))
    .map((entry) => ({ project: entry.project, calls: sortCalls(entry.calls) }));
  if (other.length > 0) groups.push({ project: null, calls: sortCalls(other) });
  return groups;
}

/**
 * The calls page: missed calls on top, history below, both ordered by issue priority then update time, for the
 * chosen tab. A tab whose project no longer has calls falls back to "all".
 */
export function callsPageView(records: readonly CallRecord[], requestedTab: string): CallsPageView {
  const tabs = callsTabs(records);
  const tab = tabs.some((candidate) => candidate.key === requestedTab) ? requestedTab : ALL_TAB;
  const inTab = records.filter((record) => isInTab(record, tab));
  return {
    tabs,
    tab,
    missed: group(
      inTab.filter((record) => record.status.state === "missed"),
      tab,
    ),
    history: group(inTab.filter(isInHistory), tab),
  };
}

/** Acknowledge-all marks the current tab's missed calls known. */
export function missedIdsInTab(records: readonly CallRecord[], tab: string): string[] {
  return records
    .filter((record) => record.status.state === "missed" && isInTab(record, tab))
    .map((record) => record.eventId);
}

import type { DispatchAgent, DispatchProject, DispatchRecord, StatusEntry } from "@ringback/protocol";
import type { Availability, DispatchBlocker, DispatchMode } from "./dispatch-blocker.js";
import type { CallStage } from "./dispatch-call.js";
import type { DispatchProblem } from "./dispatch-problem.js";
import type { DraftImage } from "./draft-images.js";
import type { IssueSearchView } from "./issue-search.js";

type DispatchStage = "compose" | "sending" | CallStage;

export interface DispatchView {
  readonly availability: Availability;
  /** Why the computer could not be asked or refused, when availability is "relay-unreachable" or "unavailable". */
  readonly availabilityProblem: DispatchProblem | null;
  /** Watched workspaces; the workspace row shows only when there are several. */
  readonly workspaces: readonly { readonly id: string; readonly name: string }[];
  /** The chosen workspace; null: the first watched one. */
  readonly workspaceId: string | null;
  readonly projects: readonly DispatchProject[];
  readonly agents: readonly DispatchAgent[];
  readonly projectId: string | null;
  readonly agentId: string | null;
  readonly mode: DispatchMode;
  readonly statuses: readonly StatusEntry[];
  readonly search: IssueSearchView;
  readonly issueId: string | null;
  readonly words: string;
  readonly images: readonly DraftImage[];
  readonly blocker: DispatchBlocker | null;
  readonly stage: DispatchStage;
  readonly progress: { readonly uploaded: number; readonly total: number } | null;
  readonly current: DispatchRecord | null;
  readonly problem: DispatchProblem | null;
  readonly lookupProblem: DispatchProblem | null;
  /** "My dispatches"; null until first read. */
  readonly dispatches: readonly DispatchRecord[] | null;
  readonly listProblem: DispatchProblem | null;
}

export const INITIAL_DISPATCH_VIEW: DispatchView = {
  availability: "checking",
  availabilityProblem: null,
  workspaces: [],
  workspaceId: null,
  projects: [],
  agents: [],
  projectId: null,
  agentId: null,
  mode: "issue",
  statuses: [],
  search: { query: "", statusFilter: [], issues: [], isSearching: false, problem: null },
  issueId: null,
  words: "",
  images: [],
  blocker: "checking",
  stage: "compose",
  progress: null,
  current: null,
  problem: null,
  lookupProblem: null,
  dispatches: null,
  listProblem: null,
};
